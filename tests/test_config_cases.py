"""load_expected_tools and load_test_cases: layouts, every load-time error with its message."""

from __future__ import annotations

import json
import json.scanner
import pickle
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from toolmatch import (
    Absent,
    ConfigError,
    Exact,
    ExpectedTool,
    ExpectedTurn,
    TestCase,
    load_expected_tools,
    load_test_cases,
)


def tool_problems(data: object) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_expected_tools(data)
    return [str(problem) for problem in caught.value.problems]


def case_problems(data: object) -> list[str]:
    with pytest.raises(ConfigError) as caught:
        load_test_cases(data)
    return [str(problem) for problem in caught.value.problems]


def cases_with(*tools: object, name: str = "refund") -> dict[str, Any]:
    """A spec whose second case (named ``name``) has one turn holding ``tools``."""
    return {
        "test_cases": [
            {"name": "lookup", "expected_tools": ["lookup_order"]},
            {"name": name, "turns": [{"expected_tools": list(tools)}]},
        ]
    }


class TestExpectedTools:
    def test_a_bare_name_selects_by_substring(self) -> None:
        [tool] = load_expected_tools(["search"])
        assert repr(tool) == "ExpectedTool('search')"
        assert tool == [{"name": "web_search"}]

    def test_args_are_a_subset_with_matchers_at_any_depth(self) -> None:
        spec = {"name": "refund", "args": {"amount": {"$approx": 42.5}, "meta": {"id": 7}}}
        [tool] = load_expected_tools([spec])
        call = {"name": "issue_refund", "args": {"amount": 42.5, "meta": {"id": 7.0}, "x": 1}}
        assert tool == [call]
        assert tool != [{"name": "issue_refund", "args": {"amount": 40, "meta": {"id": 7}}}]

    def test_exact_true_beside_args_asserts_exactly_these(self) -> None:
        [tool] = load_expected_tools([{"name": "f", "args": {"q": "x"}, "exact": True}])
        assert isinstance(tool.args, Exact)
        assert tool == [{"name": "f", "args": {"q": "x"}}]
        assert tool != [{"name": "f", "args": {"q": "x", "extra": 1}}]

    def test_counts_and_never(self) -> None:
        at_least, never = load_expected_tools(
            [{"name": "fetch", "count": 2, "max_count": 3}, {"name": "delete", "never": True}]
        )
        assert (at_least.count, at_least.max_count) == (2, 3)
        assert at_least != [{"name": "fetch"}] * 4
        assert at_least == [{"name": "fetch"}] * 3
        assert never.is_never
        assert never == [{"name": "read"}]
        assert never != [{"name": "delete_file"}]
        [limited] = load_expected_tools([{"name": "f", "max_count": None}])
        assert limited.max_count is None

    def test_the_path_argument_prefixes_problems(self) -> None:
        with pytest.raises(ConfigError) as caught:
            load_expected_tools([""], path="tools")
        assert (
            str(caught.value)
            == "tools[0]: must not be empty: '' is in every tool name; write name: {$any: true} to select any tool"
        )


class TestToolErrors:
    def test_invalid_regex_has_the_full_path(self) -> None:
        spec = cases_with(
            "a", "b", {"name": "issue_refund", "args": {"amount": {"regex": "4[0-9"}}}
        )
        assert case_problems(spec) == [
            "test_cases[1](refund).turns[0].expected_tools[2].args.amount.regex: "
            "invalid regular expression '4[0-9': unterminated character set at position 1"
        ]

    def test_fuzzy_must_be_a_string(self) -> None:
        assert tool_problems([{"name": "f", "args": {"a": {"fuzzy": 206588}}}]) == [
            'expected_tools[0].args.a.fuzzy: must be a string, got 206588 (int); quote it: "206588"'
        ]

    @pytest.mark.parametrize(
        ("count", "message"),
        [
            (
                0,
                "must be >= 1 without max_count, got 0; to assert that no call matches, write "
                "never: true (count: 0 with max_count: N allows at most N)",
            ),
            (-2, "must be >= 0, got -2"),
            (True, "must be an int >= 0, got True (bool)"),
            ("2", "must be an int >= 0, got '2' (str)"),
            (1.5, "must be an int >= 0, got 1.5 (float)"),
        ],
    )
    def test_count_must_be_an_int_of_at_least_one(self, count: object, message: str) -> None:
        assert tool_problems([{"name": "f", "count": count}]) == [
            f"expected_tools[0].count: {message}"
        ]

    def test_max_count(self) -> None:
        assert tool_problems([{"name": "f", "count": 3, "max_count": 2}]) == [
            "expected_tools[0].max_count: must be >= count (3), got 2"
        ]
        assert tool_problems([{"name": "f", "max_count": False}]) == [
            "expected_tools[0].max_count: must be an int >= count or null, got False (bool)"
        ]

    def test_never(self) -> None:
        assert tool_problems([{"name": "f", "never": "yes"}]) == [
            "expected_tools[0].never: must be true or false, got 'yes'"
        ]
        assert tool_problems([{"name": "f", "never": True, "count": 2}]) == [
            "expected_tools[0].never: never: true asserts that no call matches; it cannot be "
            "combined with count or max_count"
        ]

    def test_names(self) -> None:
        assert tool_problems(["", {"name": ""}, {"name": 3}, {"args": {}}, 7]) == [
            "expected_tools[0]: must not be empty: '' is in every tool name; write name: {$any: true} to select any tool",
            "expected_tools[1].name: must not be empty: '' is in every tool name; write name: {$any: true} to select any tool",
            "expected_tools[2].name: must be a string (matched as a substring of the "
            "called tool's name) or a matcher mapping such as {$literal: search}, got 3 (int)",
            "expected_tools[3].name: missing; every expected tool needs the tool name (matched as "
            "a substring)",
            "expected_tools[4]: must be a tool name or a mapping with name, args, exact, ignore_args, count, "
            "max_count, never, optional, result, failed, agent, status, id, before, after, first, "
            "last; got 7 (int)",
        ]

    def test_unknown_keys_list_the_accepted_ones(self) -> None:
        assert tool_problems([{"name": "f", "cout": 2, "weight": 1}]) == [
            "expected_tools[0].cout: unknown key 'cout' (did you mean 'count'?); accepted: name, "
            "args, exact, ignore_args, count, max_count, never, optional, result, failed, agent, status, id, before, after, first, last",
            "expected_tools[0].weight: unknown key 'weight'; accepted: name, args, exact, ignore_args, count, "
            "max_count, never, optional, result, failed, agent, status, id, before, after, first, "
            "last",
        ]

    def test_args_types(self) -> None:
        assert tool_problems([{"name": "f", "args": ["q"]}]) == [
            "expected_tools[0].args: must be a mapping of argument names to expected values (a "
            "subset; exact: true beside args for exactly these), got ['q'] (list)"
        ]
        assert tool_problems([{"name": "f", "args": {1: "x"}}]) == [
            "expected_tools[0].args[1]: argument names must be strings, got 1 (int); quote it"
        ]

    def test_an_unquoted_yaml_date_says_to_quote_it(self) -> None:
        import datetime

        assert tool_problems([{"name": "f", "args": {"day": datetime.date(2026, 1, 2)}}]) == [
            'expected_tools[0].args.day: YAML read 2026-01-02 as a date; quote it to compare a string: "2026-01-02"'
        ]

    def test_expected_tools_must_be_a_list(self) -> None:
        assert tool_problems("search") == [
            "expected_tools: must be a list of expected tools (tool names or mappings with a "
            "name), got 'search' (str)"
        ]

    def test_absent_inside_args_forbids_the_key(self) -> None:
        [tool] = load_expected_tools([{"name": "f", "args": {"debug": {"$absent": True}}}])
        assert isinstance(tool.args, dict)
        assert tool.args["debug"] is Absent
        assert tool == [{"name": "f", "args": {}}]
        assert tool != [{"name": "f", "args": {"debug": False}}]


class TestCases:
    def test_turns_and_a_single_turn_case(self) -> None:
        cases = load_test_cases(
            {
                "test_cases": [
                    {"name": "one", "expected_tools": ["a", "b"], "distinct": True},
                    {
                        "name": "two",
                        "turns": [
                            {"expected_tools": ["a"]},
                            {"expected_tools": ["b", "c"], "ordered": True},
                        ],
                    },
                ]
            }
        )
        assert [case.name for case in cases] == ["one", "two"]
        one, two = cases
        assert isinstance(one, TestCase)
        [turn] = one.turns
        assert isinstance(turn, ExpectedTurn)
        assert (len(turn.expected_tools), turn.distinct, turn.ordered) == (2, True, False)
        assert [(len(t.expected_tools), t.distinct, t.ordered) for t in two.turns] == [
            (1, False, False),
            (2, False, True),
        ]

    def test_check_judges_each_turn_with_its_options(self) -> None:
        [case] = load_test_cases(
            {
                "test_cases": [
                    {
                        "name": "c",
                        "turns": [
                            {"expected_tools": ["s", "s"], "distinct": True},
                            {"expected_tools": ["b", "a"], "ordered": True},
                        ],
                    }
                ]
            }
        )
        results = case.check([[{"name": "s"}], [{"name": "a"}, {"name": "b"}]])
        assert [result.passed for result in results] == [False, False]
        assert results[0].distinct
        assert results[1].ordered
        passing = case.check([[{"name": "s"}, {"name": "s"}], [{"name": "b"}, {"name": "a"}]])
        assert [result.passed for result in passing] == [True, True]

    def test_check_reports_turns_present_on_one_side(self) -> None:
        [case] = load_test_cases({"test_cases": [{"name": "c", "expected_tools": ["s"]}]})
        results = case.check([[{"name": "s"}], [{"name": "x"}]])
        assert [result.passed for result in results] == [True, False]
        assert results[1].reason == (
            "turn 1 has calls but no expectations: got 2 call turn(s) for 1 expected turn(s)"
        )
        [missing] = case.check([])
        assert missing.reason == "turn 0 has no calls: got 0 call turn(s) for 1 expected turn(s)"

    def test_check_names_a_turn_it_cannot_read(self) -> None:
        [case] = load_test_cases({"test_cases": [{"name": "c", "expected_tools": ["s"]}]})
        with pytest.raises(TypeError, match=r"^turns\[0\]: .*\b5 \(int\)"):
            case.check([5])
        with pytest.raises(TypeError, match=r"^turns must be a list"):
            case.check("s")

    def test_cases_pickle_for_worker_processes(self) -> None:
        cases = load_test_cases(
            {
                "test_cases": [
                    {
                        "name": "c",
                        "expected_tools": [
                            {"name": "f", "args": {"a": {"regex": "x.*"}}, "count": 2},
                            {"name": "g", "never": True},
                        ],
                    }
                ]
            }
        )
        [copy] = pickle.loads(pickle.dumps(cases))
        assert copy.name == "c"
        assert [repr(tool) for tool in copy.turns[0].expected_tools] == [
            repr(tool) for tool in cases[0].turns[0].expected_tools
        ]
        calls = [[{"name": "f", "args": {"a": "xy"}}] * 2]
        assert [result.passed for result in copy.check(calls)] == [True]

    def test_a_case_refuses_turns_that_are_not_turns(self) -> None:
        # An expectation where a turn belongs is refused at once, naming the fix, not met
        # later as an attribute error inside a check.
        with pytest.raises(TypeError) as caught:
            TestCase("c", [ExpectedTool("f")])  # type: ignore[list-item]
        assert str(caught.value) == (
            "TestCase turns[0] must be an ExpectedTurn or OneOfTurns (a turn's expectations go"
            " in ExpectedTurn([...])), got ExpectedTool('f') (toolmatch.ExpectedTool)"
        )
        with pytest.raises(TypeError) as caught:
            TestCase("c", ExpectedTurn([ExpectedTool("f")]))  # type: ignore[arg-type]
        assert str(caught.value).startswith(
            "TestCase turns must be a list of ExpectedTurn or OneOfTurns, got ExpectedTurn("
        )

    def test_records_are_immutable(self) -> None:
        case = TestCase("c", [ExpectedTurn([ExpectedTool("f")])])
        with pytest.raises(AttributeError, match="immutable"):
            case.name = "d"  # type: ignore[misc]


class TestCaseErrors:
    def test_every_problem_is_reported_together(self) -> None:
        spec = {
            "test_cases": [
                {"name": "a", "expected_tools": [{"name": "f", "count": 0}]},
                {
                    "name": "b",
                    "turns": [{"expected_tools": [{"name": "", "args": {"x": {"regex": "("}}}]}],
                },
                {"name": "a", "expected_tools": []},
            ]
        }
        assert case_problems(spec) == [
            "test_cases[0](a).expected_tools[0].count: must be >= 1 without max_count, got 0; to "
            "assert that no call matches, write never: true (count: 0 with max_count: N allows "
            "at most N)",
            "test_cases[1](b).turns[0].expected_tools[0].name: must not be empty: '' is in every "
            "tool name; write name: {$any: true} to select any tool",
            "test_cases[1](b).turns[0].expected_tools[0].args.x.regex: invalid regular "
            "expression '(': missing ), unterminated subpattern at position 0",
            "test_cases[2](a).name: duplicate case name 'a'; first used by test_cases[0]",
        ]

    def test_both_or_neither_turns_and_expected_tools(self) -> None:
        spec = {
            "test_cases": [
                {"name": "both", "turns": [{"expected_tools": []}], "expected_tools": []},
                {"name": "neither"},
            ]
        }
        assert case_problems(spec) == [
            "test_cases[0](both): has both turns and expected_tools; give turns: [...] for "
            "several turns, or expected_tools: [...] for a single turn",
            "test_cases[1](neither): has neither turns nor expected_tools; give turns: [...] for "
            "several turns, or expected_tools: [...] for a single turn",
        ]

    def test_case_names(self) -> None:
        spec = {
            "test_cases": [
                {"expected_tools": []},
                {"name": "", "expected_tools": []},
                {"name": 5, "expected_tools": ["f", 3]},
            ]
        }
        assert case_problems(spec) == [
            "test_cases[0].name: missing; every test case needs a unique name",
            "test_cases[1].name: must be a non-empty string, got '' (str)",
            "test_cases[2].name: must be a non-empty string, got 5 (int)",
            "test_cases[2].expected_tools[1]: must be a tool name or a mapping with name, args, "
            "exact, ignore_args, count, max_count, never, optional, result, failed, agent, status, id, before, after, first, last; got 3 (int)",
        ]

    def test_unknown_keys_at_every_level(self) -> None:
        spec = {
            "version": 1,
            "test_cases": [
                {
                    "name": "c",
                    "input": "hi",
                    "turns": [{"expected_tools": [], "orderd": True}],
                }
            ],
        }
        assert case_problems(spec) == [
            "version: unknown key 'version'; accepted: test_cases",
            "test_cases[0](c).input: unknown key 'input'; accepted: name, turns, expected_tools, "
            "distinct, ordered, exhaustive, ignore, max_calls, no_repeats, tools, agent, answer, one_of",
            "test_cases[0](c).turns[0].orderd: unknown key 'orderd' (did you mean 'ordered'?); "
            "accepted: expected_tools, distinct, ordered, exhaustive, ignore, max_calls, no_repeats, "
            "tools, agent, answer",
        ]

    def test_wrong_types(self) -> None:
        spec = {
            "test_cases": [
                "c",
                {"name": "t", "turns": {"expected_tools": []}},
                {"name": "u", "turns": ["f"]},
                {"name": "v", "turns": [{"distinct": "yes"}]},
                {"name": "w", "expected_tools": "f", "ordered": 1},
                {"name": "x", "turns": []},
            ]
        }
        assert case_problems(spec) == [
            "test_cases[0]: a test case must be a mapping with name and turns (or "
            "expected_tools), got 'c' (str)",
            "test_cases[1](t).turns: must be a non-empty list of turns, each a mapping with "
            "expected_tools, got {'expected_tools': []} (dict)",
            "test_cases[2](u).turns[0]: a turn must be a mapping with expected_tools (and "
            "optionally distinct, ordered, exhaustive, ignore, max_calls, no_repeats, tools, agent, answer), got "
            "'f' (str)",
            "test_cases[3](v).turns[0].expected_tools: missing; each turn lists its expected "
            "tools (an empty list expects nothing)",
            "test_cases[3](v).turns[0].distinct: must be true or false, got 'yes'",
            "test_cases[4](w).expected_tools: must be a list of expected tools (tool names or "
            "mappings with a name), got 'f' (str)",
            "test_cases[4](w).ordered: must be true or false, got 1",
            "test_cases[5](x).turns: must be a non-empty list of turns, each a mapping with "
            "expected_tools, got [] (list)",
        ]

    def test_options_go_in_each_turn_when_a_case_has_turns(self) -> None:
        spec = {"test_cases": [{"name": "c", "distinct": True, "turns": [{"expected_tools": []}]}]}
        assert case_problems(spec) == [
            "test_cases[0](c).distinct: goes in each turn when the case has turns: turns: "
            "[{expected_tools: [...], distinct: true}]"
        ]

    @pytest.mark.parametrize(
        ("data", "message"),
        [
            (None, "test_cases: missing: the top level is empty; expected test_cases: [...]"),
            ([1], "test_cases: missing: the top level is [1] (list); expected test_cases: [...]"),
            ({}, "test_cases: missing; the top level must have a test_cases list"),
            (
                {"test_cases": []},
                "test_cases: must be a non-empty list of test cases, got [] (list)",
            ),
        ],
    )
    def test_the_top_level(self, data: object, message: str) -> None:
        assert case_problems(data) == [message]


SPEC_YAML = """\
test_cases:
  - name: refund
    expected_tools:
      - name: issue_refund
        args: {amount: {$approx: 42.5}}
"""


@pytest.mark.skipif(find_spec("yaml") is None, reason="the spec files here are YAML: no PyYAML")
class TestFiles:
    def test_yaml_and_json_files(self, tmp_path: Path) -> None:
        yaml_file = tmp_path / "spec.yaml"
        yaml_file.write_text(SPEC_YAML, encoding="utf-8")
        json_file = tmp_path / "spec.json"
        json_file.write_text(
            json.dumps({"test_cases": [{"name": "refund", "expected_tools": ["issue_refund"]}]}),
            encoding="utf-8",
        )
        for source in (yaml_file, str(yaml_file), json_file):
            [case] = load_test_cases(source)
            assert case.name == "refund"
        [case] = load_test_cases(tmp_path / "spec.yaml")
        assert [
            r.passed for r in case.check([[{"name": "issue_refund", "args": {"amount": 42.5}}]])
        ] == [True]

    def test_a_file_s_problems_carry_its_name(self, tmp_path: Path) -> None:
        spec = tmp_path / "spec.yml"
        spec.write_text(SPEC_YAML.replace("{$approx: 42.5}", "{regex: '('}"), encoding="utf-8")
        with pytest.raises(ConfigError) as caught:
            load_test_cases(spec)
        assert str(caught.value) == (
            f"{spec}: test_cases[0](refund).expected_tools[0].args.amount.regex: invalid regular "
            "expression '(': missing ), unterminated subpattern at position 0"
        )
        assert caught.value.problems[0].path == (
            "test_cases[0](refund).expected_tools[0].args.amount.regex"
        )

    def test_yaml_syntax_errors_name_line_and_column(self, tmp_path: Path) -> None:
        spec = tmp_path / "spec.yaml"
        spec.write_text("test_cases:\n  - name: a\n    expected_tools: [a, b\n", encoding="utf-8")
        with pytest.raises(ConfigError) as caught:
            load_test_cases(spec)
        message = str(caught.value)
        assert message.startswith(f"{spec}:4:1: invalid YAML: ")
        assert "\n" not in message
        assert caught.value.__suppress_context__

    def test_json_syntax_errors_name_line_and_column(self, tmp_path: Path) -> None:
        spec = tmp_path / "spec.json"
        spec.write_text('{"test_cases": [\n  {"name": }\n]}', encoding="utf-8")
        with pytest.raises(ConfigError) as caught:
            load_test_cases(spec)
        assert str(caught.value) == f"{spec}:2:12: invalid JSON: Expecting value"

    def test_other_file_problems(self, tmp_path: Path) -> None:
        text = tmp_path / "spec.txt"
        text.write_text("test_cases: []", encoding="utf-8")
        with pytest.raises(
            ConfigError, match=r"spec\.txt: unsupported file type; accepted: \.yaml, \.yml, \.json$"
        ):
            load_test_cases(text)
        empty = tmp_path / "empty.yaml"
        empty.write_text("", encoding="utf-8")
        with pytest.raises(ConfigError, match="the top level is empty"):
            load_test_cases(empty)
        latin = tmp_path / "latin.yaml"
        latin.write_bytes(b"test_cases: caf\xe9")
        with pytest.raises(
            ConfigError, match=r"latin\.yaml: not UTF-8 text: byte 15 cannot be decoded$"
        ):
            load_test_cases(latin)
        with pytest.raises(FileNotFoundError):
            load_test_cases(tmp_path / "absent.yaml")

    def test_yaml_without_pyyaml_says_what_to_install(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        spec = tmp_path / "spec.yaml"
        spec.write_text(SPEC_YAML, encoding="utf-8")
        monkeypatch.setitem(sys.modules, "yaml", None)
        with pytest.raises(ConfigError) as caught:
            load_test_cases(spec)
        assert (
            str(caught.value) == f"{spec}: reading YAML needs PyYAML: pip install 'toolmatch[yaml]'"
        )

    @pytest.mark.parametrize(
        ("text", "where", "key", "first_line"),
        [
            # The same key twice in a tool: the first args would be dropped without a word.
            (
                "test_cases:\n  - name: a\n    expected_tools:\n      - name: search\n"
                "        args: {q: paris}\n        args: {q: rome}\n",
                "6:9",
                "args",
                5,
            ),
            ("test_cases: []\ntest_cases: []\n", "2:1", "test_cases", 1),
            ("test_cases: [{name: a, name: b, expected_tools: []}]\n", "1:24", "name", 1),
        ],
    )
    def test_a_key_given_twice_in_yaml_is_refused_where_it_repeats(
        self, tmp_path: Path, text: str, where: str, key: str, first_line: int
    ) -> None:
        spec = tmp_path / "spec.yaml"
        spec.write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError) as caught:
            load_test_cases(spec)
        assert str(caught.value) == (
            f"{spec}:{where}: invalid YAML: duplicate key {key!r}; "
            f"the first is on line {first_line}"
        )

    def test_yaml_merge_keys_may_be_overridden(self, tmp_path: Path) -> None:
        # YAML's merge key (<<) is how a file shares parts; a key given beside it wins.
        spec = tmp_path / "spec.yaml"
        spec.write_text(
            "test_cases:\n  - name: a\n    expected_tools:\n"
            "      - &search {name: search, args: {q: paris}}\n"
            "      - <<: *search\n        args: {q: rome}\n",
            encoding="utf-8",
        )
        [case] = load_test_cases(spec)
        assert [tool.args for tool in case.turns[0].expected_tools] == [
            {"q": "paris"},
            {"q": "rome"},
        ]

    def test_a_key_given_twice_in_json_is_refused_at_its_object(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        spec = tmp_path / "spec.json"
        spec.write_text(
            '{"test_cases": [\n  {"name": "a", "expected_tools": [\n'
            '    {"name": "search", "args": {"q": "paris"}, "args": {"q": "rome"}}\n  ]}\n]}',
            encoding="utf-8",
        )
        with pytest.raises(ConfigError) as caught:
            load_test_cases(spec)
        assert str(caught.value) == (
            f"{spec}:3:5: invalid JSON: duplicate key 'args' in the object that starts here"
        )
        # Should json's undocumented Python parser go away, the key is still named.
        monkeypatch.delattr(json.scanner, "py_make_scanner")
        with pytest.raises(ConfigError) as caught:
            load_test_cases(spec)
        assert str(caught.value) == f"{spec}: invalid JSON: duplicate key 'args'"
        monkeypatch.undo()
        # The same key in two objects is fine.
        spec.write_text(
            '{"test_cases": [{"name": "a", "expected_tools": ["f"]},'
            ' {"name": "b", "expected_tools": ["f"]}]}',
            encoding="utf-8",
        )
        assert [case.name for case in load_test_cases(spec)] == ["a", "b"]

    def test_yaml_is_read_safely(self, tmp_path: Path) -> None:
        spec = tmp_path / "spec.yaml"
        spec.write_text(
            "test_cases: !!python/object/apply:os.system ['echo hi']\n", encoding="utf-8"
        )
        with pytest.raises(
            ConfigError, match=r"spec\.yaml:1:13: invalid YAML: could not determine a constructor"
        ):
            load_test_cases(spec)


def test_import_toolmatch_reads_no_yaml_or_json() -> None:
    code = "import sys, toolmatch; print(sorted({'yaml', 'json'} & set(sys.modules)))"
    output = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert output.strip() == "[]"
