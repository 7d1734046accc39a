"""Matcher keys in spec files (v2): argument names are names, a `$` key marks a matcher, the
new keys, and the warnings a file written for toolmatch 0.1 gets (issue 13, deliverables 1-3
and 6)."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest

from toolmatch import (
    ANY,
    ConfigError,
    Literal,
    OneOf,
    Regex,
    SpecWarning,
    ToolCall,
    load_expected_tools,
    load_test_cases,
    matcher_from_config,
)
from toolmatch._spec.matcher_keys import KEYS_01, MATCHER_KEYS, matcher_key

yaml = pytest.importorskip("yaml")

BARE = [key[1:] for key in MATCHER_KEYS]  # every matcher key, without its $
MARKED = list(MATCHER_KEYS)  # every matcher key, as a matcher is written


def quietly(load: Any, *args: Any) -> tuple[Any, list[str]]:
    """``load(*args)`` and the messages of the SpecWarnings it issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loaded = load(*args)
    assert all(issubclass(warning.category, SpecWarning) for warning in caught)
    return loaded, [str(warning.message) for warning in caught]


def one_tool(spec: dict[str, Any]) -> tuple[Any, list[str]]:
    tools, warned = quietly(load_expected_tools, [spec])
    return tools[0], warned


class TestArgumentNamesAreNames:
    @pytest.mark.parametrize("name", BARE + MARKED + ["fuzzy", "regex", "ignore_case", "rel"])
    def test_an_argument_may_have_any_matcher_keys_name(self, name: str) -> None:
        tool, warned = one_tool({"name": "f", "args": {name: "x", "other": 1}})
        assert tool == [{"name": "f", "args": {name: "x", "other": 1, "more": 2}}]
        assert tool != [{"name": "f", "args": {name: "y", "other": 1}}]
        assert tool != [{"name": "f", "args": {"other": 1}}]
        assert warned == []

    @pytest.mark.parametrize("name", BARE + MARKED)
    def test_an_argument_named_like_a_matcher_alone_is_still_an_argument(self, name: str) -> None:
        tool, _ = one_tool({"name": "f", "args": {name: 3}})
        assert tool == [{"name": "f", "args": {name: 3.0}}]
        assert tool != [{"name": "f", "args": {name: 4}}]
        exact, _ = one_tool({"name": "f", "args": {name: 3}, "exact": True})
        assert exact == [{"name": "f", "args": {name: 3}}]
        assert exact != [{"name": "f", "args": {name: 3, "n": 1}}]

    def test_every_key_at_once_with_every_bare_key_in_nested_data(self) -> None:
        nested = {key: f"v-{key}" for key in BARE}  # a data dict with every bare key
        args: dict[str, Any] = dict.fromkeys(BARE + MARKED, nested)
        args["list"] = [nested, {"deeper": nested}]
        tool, warned = one_tool({"name": "f", "args": args, "exact": True})
        assert warned == []  # with every key at once, no mapping is a 0.1 matcher either
        assert tool == [{"name": "f", "args": args}]
        changed = dict(args, list=[nested, {"deeper": dict(nested, type="other")}])
        assert tool != [{"name": "f", "args": changed}]

    def test_only_a_dollar_key_in_a_value_position_makes_a_matcher(self) -> None:
        tool, _ = one_tool(
            {
                "name": "f",
                "args": {
                    "$type": {"$type": "int"},  # an argument named $type, a $type matcher
                    "type": {"type": "int"},  # an argument named type, data
                    "box": {"kind": {"$one_of": ["a", "b"]}, "not": {"not": 1}},
                },
            }
        )
        args = {"$type": 7, "type": {"type": "int"}, "box": {"kind": "b", "not": {"not": 1}}}
        assert tool == [{"name": "f", "args": args}]
        assert tool != [{"name": "f", "args": dict(args, type={"type": 1})}]
        assert tool != [{"name": "f", "args": dict(args, **{"$type": "7"})}]

    def test_bfcl_ground_truth_with_an_argument_named_type_loads_as_data(self) -> None:
        text = """\
test_cases:
  - name: simple_123
    expected_tools:
      - name: find_place
        exact: true
        args: {type: restaurant, city: Paris}
"""
        cases, warned = quietly(load_test_cases, yaml.safe_load(text))
        assert warned == []
        [case] = cases
        good = [[{"name": "find_place", "args": {"type": "restaurant", "city": "Paris"}}]]
        assert case.passes(good)
        assert not case.passes(
            [[{"name": "find_place", "args": {"type": "hotel", "city": "Paris"}}]]
        )
        assert not case.passes(
            [[{"name": "find_place", "args": {"type": "restaurant", "city": "Paris", "n": 1}}]]
        )


class TestTheRule:
    def test_the_rule_as_a_function(self) -> None:
        assert matcher_key({"$approx": 3, "rel": 0.1}) == "$approx"
        assert matcher_key({"fuzzy": "x"}) == "fuzzy"
        assert matcher_key({"regex": "x"}) == matcher_key({"regex": "x", "ignore_case": True})
        for data in ({"fuzzy": "x", "b": 1}, {"regex": "x", "b": 1}, {"type": "str"}, {}):
            assert matcher_key(data) is None

    @pytest.mark.parametrize("key", KEYS_01)
    def test_no_bare_key_alone_is_a_matcher_except_the_seeds(self, key: str) -> None:
        built, _ = quietly(matcher_from_config, {"a": {key: "x"}}, "args")
        if key in ("fuzzy", "regex"):
            assert built == {"a": "X" if key == "fuzzy" else "x"}
        else:
            assert built == {"a": {key: "x"}}

    def test_a_seed_form_is_written_as_data_with_literal(self) -> None:
        assert matcher_from_config({"$literal": {"fuzzy": "x"}}) == {"fuzzy": "x"}
        assert matcher_from_config({"$literal": {"fuzzy": "x"}}) != "X"
        assert matcher_from_config({"$literal": {"$any": True}}) == {"$any": True}

    def test_matchers_nest_inside_data_and_lists(self) -> None:
        built = matcher_from_config(
            {"type": "restaurant", "city": {"fuzzy": "paris"}, "tags": [{"$contains": "veg"}]}
        )
        assert built == {"type": "restaurant", "city": "PARIS", "tags": ["vegan"]}
        assert built != {"type": "restaurant", "city": "rome", "tags": ["vegan"]}

    def test_the_loader_builds_with_the_public_constructors(self) -> None:
        assert repr(matcher_from_config({"$one_of": ["a", {"regex": "b.*"}]})) == repr(
            OneOf("a", Regex("b.*"))
        )
        assert repr(matcher_from_config({"$literal": "x", "trim_strings": True})) == repr(
            Literal("x", trim_strings=True)
        )
        assert matcher_from_config({"$any": True}) is ANY


def warnings_of(spec: object) -> list[str]:
    _, warned = quietly(load_test_cases, spec)
    return warned


def single(args: object, **tool: object) -> dict[str, Any]:
    return {"test_cases": [{"name": "c", "expected_tools": [{"name": "f", "args": args, **tool}]}]}


MISSING = object()  # no such argument at all
# A value 0.1 accepted for each of its keys, and what it judged.
VALUES_01: dict[str, tuple[object, object, object]] = {  # key: (value, matched, not matched)
    "literal": ("x", "x", "y"),
    "any": (True, None, MISSING),
    "one_of": (["a", "b"], "a", "c"),
    "approx": (3, 3.0000001, 4),
    "contains": ("ar", "paris", "rome"),
    "type": ("int", 3, "3"),
    "partial": ({"q": 1}, {"q": 1, "n": 2}, {"n": 2}),
    "exact": ({"q": 1}, {"q": 1}, {"q": 1, "n": 2}),
    "not": (1, 2, 1),
}


class TestFilesWrittenFor01:
    @pytest.mark.parametrize("key", list(VALUES_01))
    def test_a_bare_matcher_in_a_value_position_warns_once_and_is_data(self, key: str) -> None:
        value, matched, _ = VALUES_01[key]
        spec = single({"a": {key: value}})
        assert warnings_of(spec) == [
            f"test_cases[0](c).expected_tools[0].args.a: {{{key}: ...}} is data now, not the "
            f"{key} matcher toolmatch 0.1 read; for the matcher write {{${key}: ...}}, for data "
            "{$literal: {...}}"
        ]
        [case], _ = quietly(load_test_cases, spec)
        assert case.passes([[{"name": "f", "args": {"a": {key: value}}}]])  # the new rule
        assert not case.passes([[{"name": "f", "args": {"a": matched}}]])

    @pytest.mark.parametrize("key", list(VALUES_01))
    def test_the_dollar_spelling_means_what_0_1_meant(self, key: str) -> None:
        value, matched, unmatched = VALUES_01[key]
        [case], warned = quietly(load_test_cases, single({"a": {f"${key}": value}}))
        assert warned == []
        assert case.passes([[{"name": "f", "args": {"a": matched}}]])
        wrong = {} if unmatched is MISSING else {"a": unmatched}
        assert not case.passes([[{"name": "f", "args": wrong}]])

    def test_maybe_and_absent(self) -> None:
        spec = single({"a": {"maybe": 1}, "b": {"absent": True}})
        assert [line.split(": ")[0] for line in warnings_of(spec)] == [
            "test_cases[0](c).expected_tools[0].args.a",
            "test_cases[0](c).expected_tools[0].args.b",
        ]
        [case], _ = quietly(load_test_cases, single({"a": {"$maybe": 1}, "b": {"$absent": True}}))
        assert case.passes([[{"name": "f", "args": {}}]])
        assert not case.passes([[{"name": "f", "args": {"b": 1}}]])

    @pytest.mark.parametrize(
        ("args", "advice"),
        [
            ({"exact": {"q": 1}}, "write the arguments under args and exact: true beside it"),
            (
                {"partial": {"q": 1}},
                "write the arguments under args directly (a subset is the default)",
            ),
            ({"any": True}, "leave args out to accept any arguments"),
        ],
    )
    def test_a_whole_args_matcher_of_0_1_is_an_argument_and_warns(
        self, args: dict[str, Any], advice: str
    ) -> None:
        [key] = args
        spec = single(args)
        assert warnings_of(spec) == [
            f"test_cases[0](c).expected_tools[0].args: {{{key}: ...}} names an argument {key!r} "
            "now (toolmatch 0.1 read it as a matcher for the whole arguments); " + advice
        ]
        [case], _ = quietly(load_test_cases, spec)
        assert case.passes([[{"name": "f", "args": args}]])
        assert not case.passes([[{"name": "f", "args": {"q": 1}}]])

    def test_what_0_1_refused_does_not_warn(self) -> None:
        for args in (
            {"type": "restaurant", "city": "Paris"},  # two keys: 0.1's load error
            {"type": "restaurant"},  # a value matcher for the whole args: 0.1's load error
            {"a": {"type": "image", "url": "x"}},  # a mapping 0.1 refused
            {"a": {"type": "image"}},  # not a type 0.1 knew
            {"a": {"one_of": []}, "b": {"any": False}, "c": {"approx": "3"}},
            {"a": {"$literal": {"type": "str"}}},  # the way to say it is data
            {"a": {"literal": {"type": "str"}}},  # warns once, for the literal, not inside
        ):
            found = warnings_of(single(args))
            assert len(found) == (1 if "literal" in args.get("a", {}) else 0), (args, found)

    def test_nested_places_each_warn_once(self) -> None:
        found = warnings_of(single({"a": {"not": {"type": "str"}}, "b": [{"contains": 1}]}))
        assert [line.split(": ")[0] for line in found] == [
            "test_cases[0](c).expected_tools[0].args.a",
            "test_cases[0](c).expected_tools[0].args.a.not",
            "test_cases[0](c).expected_tools[0].args.b[0]",
        ]

    def test_a_file_names_itself_and_pytest_sees_the_warning_class(self, tmp_path: Path) -> None:
        spec = tmp_path / "spec.yaml"
        spec.write_text(
            "test_cases:\n  - name: c\n    expected_tools:\n"
            "      - {name: f, args: {days: {approx: 3}}}\n",
            encoding="utf-8",
        )
        with pytest.warns(SpecWarning) as caught:
            load_test_cases(spec)
        [warning] = caught
        assert isinstance(warning.message, SpecWarning)
        assert warning.message.source == str(spec)
        assert warning.message.path == "test_cases[0](c).expected_tools[0].args.days"
        assert str(warning.message).startswith(f"{spec}: test_cases[0](c)")
        assert warning.filename == __file__  # it points at the caller, not at toolmatch

    def test_a_warning_pickles_whole(self) -> None:
        import pickle

        warning = SpecWarning("args.a", "is data now", "spec.yaml")
        copy = pickle.loads(pickle.dumps(warning))
        assert (copy.path, copy.message, copy.source, str(copy)) == (
            "args.a",
            "is data now",
            "spec.yaml",
            "spec.yaml: args.a: is data now",
        )

    def test_a_spec_with_errors_raises_without_warning(self) -> None:
        spec = single({"a": {"approx": 3}, "b": {"regex": "("}})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with pytest.raises(ConfigError):
                load_test_cases(spec)
        assert caught == []

    def test_the_cli_prints_one_line_a_place_and_judges_by_the_new_rule(
        self, tmp_path: Path
    ) -> None:
        spec = tmp_path / "spec.yaml"
        spec.write_text(
            "test_cases:\n"
            "  - name: old\n"
            "    expected_tools:\n"
            "      - {name: f, args: {days: {approx: 3}, units: {one_of: [c, f]}}}\n"
            "  - name: new\n"
            "    expected_tools:\n"
            "      - {name: f, args: {days: {$approx: 3}, units: {$one_of: [c, f]}}}\n",
            encoding="utf-8",
        )
        traces = tmp_path / "traces.jsonl"
        run = '[[{"name": "f", "args": {"days": 3.0, "units": "c"}}]]'
        traces.write_text(
            f'{{"case": "old", "turns": {run}}}\n{{"case": "new", "turns": {run}}}\n',
            encoding="utf-8",
        )
        completed = subprocess.run(
            [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces), "--no-progress"],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        where = f"{spec}: test_cases[0](old).expected_tools[0].args"
        assert completed.stderr.splitlines() == [
            f"warning: {where}.days: {{approx: ...}} is data now, not the approx matcher "
            "toolmatch 0.1 read; for the matcher write {$approx: ...}, for data {$literal: {...}}",
            f"warning: {where}.units: {{one_of: ...}} is data now, not the one_of matcher "
            "toolmatch 0.1 read; for the matcher write {$one_of: ...}, for data "
            "{$literal: {...}}",
        ]
        assert completed.returncode == 1
        assert completed.stdout.splitlines()[-1] == "1 passed, 1 failed"
        assert "FAIL old" in completed.stdout
        assert "PASS new" in completed.stdout


class TestNewKeys:
    def test_name_matchers(self) -> None:
        exact, _ = one_tool({"name": {"$literal": "search"}})
        assert exact == [{"name": "search"}]
        assert exact != [{"name": "web_search"}]
        pattern, _ = one_tool({"name": {"regex": "get_.*"}})
        assert pattern == [{"name": "get_weather"}]
        assert pattern != [{"name": "set_x"}]
        either, _ = one_tool({"name": {"$one_of": ["a", "b"]}})
        assert either == [{"name": "b"}]
        assert either != [{"name": "ab"}]
        anything, _ = one_tool({"name": {"$any": True}, "count": 2})
        assert anything == [{"name": "x"}, {"name": "y"}]
        assert anything != [{"name": "x"}]
        substring, _ = one_tool({"name": "search"})
        assert substring == [{"name": "web_search"}]

    def test_result_and_failed(self) -> None:
        tool, _ = one_tool({"name": "pay", "result": {"$partial": {"ok": True}}, "failed": False})
        assert tool == [ToolCall("pay", {}, result={"ok": True, "id": 7}, failed=False)]
        assert tool != [ToolCall("pay", {}, result={"ok": False}, failed=False)]
        assert tool != [ToolCall("pay", {}, result={"ok": True})]  # failed not recorded
        plain, _ = one_tool({"name": "pay", "result": "done"})
        assert plain == [ToolCall("pay", {}, result="done")]
        assert plain != [ToolCall("pay", {})]
        either, _ = one_tool({"name": "pay", "failed": None})
        assert either.failed is None

    def test_count_zero_with_max_count_is_a_cap(self) -> None:
        tool, _ = one_tool({"name": "retry", "count": 0, "max_count": 2})
        assert tool == []
        assert tool == [{"name": "retry"}] * 2
        assert tool != [{"name": "retry"}] * 3

    def test_exact_without_args_means_no_arguments(self) -> None:
        tool, _ = one_tool({"name": "ping", "exact": True})
        assert tool == [{"name": "ping", "args": {}}]
        assert tool != [{"name": "ping", "args": {"x": 1}}]

    def test_turn_keys_on_a_single_turn_case(self) -> None:
        spec = {
            "test_cases": [
                {
                    "name": "c",
                    "expected_tools": ["book"],
                    "exhaustive": True,
                    "ignore": ["get_weather", {"name": "log", "failed": True}],
                    "max_calls": 2,
                    "no_repeats": True,
                }
            ]
        }
        [case] = load_test_cases(spec)
        [turn] = case.turns
        assert (turn.exhaustive, turn.max_calls, turn.no_repeats) == (True, 2, True)
        assert [pattern.name for pattern in turn.ignore] == ["get_weather", "log"]
        ignored = [{"name": "get_weather"}, ToolCall("log", {}, failed=True)]
        assert case.passes([[{"name": "book"}, *ignored]])
        assert not case.passes([[{"name": "book"}, ToolCall("log", {}, failed=False)]])
        assert not case.passes([[{"name": "book"}, {"name": "book"}]])  # a repeat
        assert not case.passes([[{"name": "book", "args": {"n": n}} for n in range(3)]])

    def test_a_cases_max_calls_spans_its_turns(self) -> None:
        spec = {
            "test_cases": [
                {
                    "name": "c",
                    "max_calls": 2,
                    "turns": [{"expected_tools": ["a"]}, {"expected_tools": ["b"]}],
                }
            ]
        }
        [case] = load_test_cases(spec)
        assert case.max_calls == 2
        assert case.turns[0].max_calls is None
        assert case.passes([[{"name": "a"}], [{"name": "b"}]])
        assert not case.passes([[{"name": "a"}], [{"name": "b"}, {"name": "c"}]])


def test_many_old_places_warn_each_and_load_in_bounded_time(tmp_path: Path) -> None:
    """Aliases that repeat a 0.1 matcher 20,000 times: one warning line each, no blow-up."""
    spec = tmp_path / "spec.yaml"
    items = ", ".join(["*old"] * 20_000)
    spec.write_text(
        "test_cases:\n  - name: c\n    expected_tools:\n"
        f"      - {{name: f, args: {{a: &old {{approx: 1}}, b: [{items}]}}}}\n",
        encoding="utf-8",
    )
    traces = tmp_path / "traces.jsonl"
    traces.write_text('{"case": "c", "turns": [[{"name": "f"}]]}\n', encoding="utf-8")
    completed = subprocess.run(
        [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    lines = completed.stderr.splitlines()
    assert len(lines) == 20_001
    assert lines[-1].startswith(
        f"warning: {spec}: test_cases[0](c).expected_tools[0].args.b[19999]: "
    )
    assert completed.returncode == 1  # the call has no argument a: the new rule judges
