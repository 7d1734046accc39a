"""``toolmatch lint`` and ``check --strict``: specs that can never fail or never pass
(docs/cli.md, "Specs that cannot fail"), run as the command, outputs exact."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from commands import jsonl, toolmatch
from toolmatch import ANY, Absent, AllOf, AnyOf, Not, OneOf, Regex

SEARCH = {"name": "search", "parameters": {"type": "object", "properties": {}}}
FETCH = {"name": "fetch_page"}


def spec_file(tmp_path: Path, *cases: object, name: str = "spec.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"test_cases": list(cases)}), encoding="utf-8")
    return path


def tools_file(tmp_path: Path, *tools: object) -> Path:
    path = tmp_path / "tools.json"
    path.write_text(json.dumps(list(tools)), encoding="utf-8")
    return path


def lint(spec: Path, *args: str | Path) -> tuple[int, list[str], str]:
    """The status, the lines without the spec's place (its one line: JSON written on one
    line), and stderr."""
    done = toolmatch("lint", spec, *args)
    lines = done.stdout.splitlines()
    for line in lines[:-1]:
        assert line.startswith(f"{spec}:1: ")
    shown = [line.removeprefix(f"{spec}:1: ") for line in lines[:-1]] + lines[-1:]
    return done.returncode, shown, done.stderr


def test_a_clean_spec_has_no_findings(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {"name": "a", "expected_tools": [{"name": "search", "args": {"q": {"$regex": "\\w+"}}}]},
        {"name": "b", "expected_tools": [{"name": {"$any": True}, "args": {"q": {"$any": True}}}]},
    )
    assert lint(spec) == (0, ["no findings"], "")


def test_matchers_that_accept_every_value_are_listed_at_their_place(tmp_path: Path) -> None:
    args = {
        "q": {"$regex": "(?s).*"},
        "n": {"$any_of": [{"$any": True}, 3]},
        "deep": {"list": [{"$regex": "[\\s\\S]*"}]},
        "m": {"$maybe": {"$one_of": [1, {"$any": True}]}},
        "plain": {"$regex": "(?s).+"},  # refuses the empty string: it can fail
    }
    spec = spec_file(
        tmp_path,
        {"name": "a", "expected_tools": [{"name": "search", "args": args}]},
        {
            "name": "b",
            "turns": [
                {"expected_tools": []},
                {"expected_tools": [{"name": "s", "result": {"$regex": "(?s).*"}}]},
            ],
        },
    )
    assert lint(spec) == (
        1,
        [
            "test_cases[0](a).expected_tools[0].args.q: Regex('(?s).*') accepts every value: "
            "it can never fail [accepts-everything]",
            "test_cases[0](a).expected_tools[0].args.n: ANY | 3 accepts every value: it can "
            "never fail [accepts-everything]",
            "test_cases[0](a).expected_tools[0].args.deep.list[0]: Regex(r'[\\s\\S]*') "
            "accepts every value: it can never fail [accepts-everything]",
            "test_cases[0](a).expected_tools[0].args.m: OneOf(1, ANY) accepts every value: it "
            "can never fail [accepts-everything]",
            "test_cases[1](b).turns[1].expected_tools[0].result: Regex('(?s).*') accepts every "
            "value: it can never fail [accepts-everything]",
            "5 findings",
        ],
        "",
    )


# What lint says accepts every value must: never a matcher that can fail.
SAMPLES = ["", "a\nb", "\r\n", " ", "x" * 300, 0, -1.5, None, True, [], {}, {"a": [1]}, "é\u2028"]
EVERYTHING = [
    ANY | Regex("x"),
    OneOf(2, ANY),
    Not(Absent),
    AllOf(ANY, Regex("(?s).*")),
    Regex(r"^[\d\D]*?\Z"),
    Regex("(?s:.*)"),
    Regex("(.*)", re.S),
    Regex(r"\A[\w\W]*$"),
]
CAN_FAIL = [
    Regex(".*"),
    Regex(".+", re.S),
    Regex("(?s)a|.*"),
    Regex("[^\\s\\S]*"),
    Regex("(?-s:.*)", re.S),
    Regex("(?s).{0,5}"),
    AllOf(ANY, Regex("x")),
    Not(ANY),
    OneOf(1, 2),
    AnyOf(Regex("x"), Not(Regex("x*"))),
]


@pytest.mark.parametrize("matcher", EVERYTHING, ids=repr)
def test_what_lint_says_accepts_everything_does(matcher: object) -> None:
    assert matcher._accepts_everything()  # type: ignore[attr-defined]
    assert all(matcher == value for value in SAMPLES)


@pytest.mark.parametrize("matcher", CAN_FAIL, ids=repr)
def test_what_can_fail_is_never_said_to_accept_everything(matcher: object) -> None:
    assert not matcher._accepts_everything()  # type: ignore[attr-defined]


def test_a_plain_dot_star_fails_on_a_line_break() -> None:
    # Why `.*` is not reported: the decision docs/cli.md states.
    assert Regex(".*") != "two\nlines"


def test_names_no_defined_tool_selects(tmp_path: Path) -> None:
    tools = tools_file(tmp_path, SEARCH, FETCH)
    spec = spec_file(
        tmp_path,
        {
            "name": "own",
            "tools": "tools.json",
            "expected_tools": [
                "search",
                {"name": "delete", "never": True},
                {"name": "refund", "count": 2},
                {"name": {"$regex": "wipe_.*"}, "count": 0, "max_count": 1},
            ],
            "ignore": ["log"],  # lets a call of an undefined tool through: not reported
        },
        {"name": "given", "expected_tools": ["page"], "ignore": ["log"]},
    )
    defined = "(defined: search, fetch_page)"
    assert lint(spec) == (
        1,
        [
            "test_cases[0](own).expected_tools[1]: can never fail: no defined tool's name "
            f"contains 'delete' {defined} [never-undefined]",
            "test_cases[0](own).expected_tools[2]: can never pass: no defined tool's name "
            f"contains 'refund' {defined} [undefined-tool]",
            "test_cases[0](own).expected_tools[3]: can never fail: no defined tool's name "
            f"matches Regex('wipe_.*') {defined} [undefined-tool]",
            "3 findings",
        ],
        "",
    )
    assert lint(spec, "--tools", tools)[1][3:] == [
        "test_cases[1](given).ignore[0]: ignores no call: no defined tool's name contains "
        f"'log' {defined} [ignore-undefined]",
        "4 findings",
    ]


def test_an_ignore_that_leaves_out_every_call(tmp_path: Path) -> None:
    everything = {"name": {"$any": True}}
    spec = spec_file(
        tmp_path,
        {"name": "a", "expected_tools": ["search", "fetch"], "ignore": ["log", everything]},
        {"name": "b", "expected_tools": [], "exhaustive": True, "ignore": [everything]},
        # Something asserted besides the name: not every call.
        {"name": "c", "expected_tools": [], "exhaustive": True, "ignore": [
            {"name": {"$any": True}, "failed": True}
        ]},
        # A cap: the calls beyond it are judged.
        {"name": "d", "expected_tools": [], "exhaustive": True, "ignore": [
            {"name": {"$any": True}, "max_count": 2}
        ]},
    )  # fmt: skip
    assert lint(spec)[1] == [
        "test_cases[0](a).ignore[1]: leaves out every call: expected_tools[0], "
        "expected_tools[1] can never pass [ignore-everything]",
        "test_cases[1](b).ignore[0]: leaves out every call: the turn can never fail "
        "[ignore-everything]",
        "2 findings",
    ]


def test_counts_above_max_calls(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {"name": "one", "expected_tools": [{"name": "s", "count": 3}], "max_calls": 2},
        {"name": "sum", "expected_tools": ["a", "b", "c"], "distinct": True, "max_calls": 2},
        {"name": "shared", "expected_tools": ["a", "b", "c"], "max_calls": 2},  # one call can do
        {
            "name": "case",
            "max_calls": 2,
            "turns": [{"expected_tools": ["a", "b"], "ordered": True}, {"expected_tools": ["c"]}],
        },
    )
    assert lint(spec)[1] == [
        "test_cases[0](one).expected_tools[0]: can never pass: it needs 3 matching calls and "
        "the turn's max_calls is 2 [count-above-max-calls]",
        "test_cases[1](sum).max_calls: can never pass: the expectations need 3 calls of their "
        "own and max_calls is 2 [count-above-max-calls]",
        "test_cases[3](case).max_calls: can never pass: its turns need at least 3 calls and "
        "max_calls is 2 [count-above-max-calls]",
        "3 findings",
    ]


def test_a_run_confirms_what_can_never_pass(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {"name": "sum", "expected_tools": ["a", "b", "c"], "distinct": True, "max_calls": 2},
        {"name": "never", "expected_tools": ["a", {"name": "a", "never": True}]},
    )
    runs = [
        {"case": "sum", "turns": [[{"name": "a"}, {"name": "b"}, {"name": "c"}]]},
        {"case": "sum", "turns": [[{"name": "a"}, {"name": "b"}]]},
        {"case": "never", "turns": [[{"name": "a"}]]},
        {"case": "never", "turns": [[]]},
    ]
    done = toolmatch("check", spec, "-", stdin=jsonl(*runs))
    assert done.stdout.splitlines()[-1] == "0 passed, 4 failed"


def test_count_above_max_count_and_a_repeated_name_are_the_loaders(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {"name": "a", "expected_tools": [{"name": "s", "count": 3, "max_count": 2}]},
        {"name": "a", "expected_tools": ["s"]},
    )
    done = toolmatch("lint", spec)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.splitlines() == [
        f"{spec}: test_cases[0](a).expected_tools[0].max_count: must be >= count (3), got 2",
        f"{spec}: test_cases[1](a).name: duplicate case name 'a'; first used by test_cases[0]",
    ]


def test_contradicting_never_and_duplicate_cases(tmp_path: Path) -> None:
    same = {"expected_tools": [{"name": "s", "args": {"q": 1}}]}
    spec = spec_file(
        tmp_path,
        {"name": "a", "expected_tools": [
            {"name": "s", "args": {"q": 1}}, {"name": "s", "args": {"q": 2}, "never": True},
            {"name": "s", "args": {"q": 1}, "never": True},
        ]},
        {"name": "b", **same},
        {"name": "c", "turns": [same]},  # written otherwise, expects the same
        {"name": "d", **same, "max_calls": 3},
    )  # fmt: skip
    assert lint(spec)[1] == [
        "test_cases[0](a).expected_tools[0]: can never pass: expected_tools[2] forbids the "
        "calls it needs [contradicts-never]",
        "test_cases[2](c): expects exactly what test_cases[1](b) expects [duplicate-case]",
        "2 findings",
    ]


def test_json_lines(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path, {"name": "b", "expected_tools": [], "ignore": [{"name": {"$any": True}}]}
    )
    done = toolmatch("lint", spec, "--format", "json")
    assert (done.returncode, done.stdout.splitlines(), done.stderr) == (
        1,
        [
            json.dumps(
                {
                    "type": "finding",
                    "place": "test_cases[0](b).ignore[0]",
                    "line": 1,
                    "rule": "ignore-everything",
                    "message": "leaves out every call: the turn can never fail",
                }
            ),
            json.dumps({"type": "summary", "findings": 1}),
        ],
        "",
    )
    clean = spec_file(tmp_path, {"name": "a", "expected_tools": ["s"]}, name="clean.json")
    done = toolmatch("lint", clean, "--format", "json")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        '{"type": "summary", "findings": 0}\n',
        "",
    )


def test_bad_tools_files(tmp_path: Path) -> None:
    spec = spec_file(tmp_path, {"name": "a", "expected_tools": ["s"]})
    missing = tmp_path / "none.json"
    assert lint(spec, "--tools", missing) == (
        2,
        [],
        f"toolmatch: cannot read the tools {missing}: No such file or directory\n",
    )
    bad = tmp_path / "bad.json"
    bad.write_text('[{"parameters": {}}]', encoding="utf-8")
    code, out, err = lint(spec, "--tools", bad)
    assert (code, out) == (2, [])
    assert err.startswith(f"toolmatch: --tools {bad}: ")


def test_check_strict_refuses_a_spec_with_findings(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path, {"name": "a", "expected_tools": [{"name": "s", "count": 2}], "max_calls": 1}
    )
    runs = jsonl({"case": "a", "turns": [[{"name": "s"}]]})
    done = toolmatch("check", spec, "-", "--strict", stdin=runs)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines() == [
        f"toolmatch: --strict: {spec}:1: test_cases[0](a).expected_tools[0]: can never pass: it needs 2 "
        "matching calls and the turn's max_calls is 1 [count-above-max-calls]",
        "toolmatch: --strict: 1 finding in the spec; no run was checked",
    ]
    clean = spec_file(tmp_path, {"name": "a", "expected_tools": ["s"]}, name="clean.json")
    done = toolmatch("check", clean, "-", "--strict", stdin=runs)
    assert (done.returncode, done.stdout, done.stderr) == (0, "PASS a\n1 passed, 0 failed\n", "")


def test_check_strict_with_the_tools_given(tmp_path: Path) -> None:
    tools = tools_file(tmp_path, SEARCH)
    spec = spec_file(
        tmp_path, {"name": "a", "expected_tools": ["search", {"name": "rm", "never": True}]}
    )
    runs = jsonl({"case": "a", "turns": [[{"name": "search"}]]})
    assert toolmatch("check", spec, "-", "--strict", stdin=runs).returncode == 0
    done = toolmatch("check", spec, "-", "--strict", "--tools", tools, stdin=runs)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr.splitlines()[0] == (
        f"toolmatch: --strict: {spec}:1: test_cases[0](a).expected_tools[1]: can never fail: no defined "
        "tool's name contains 'rm' (defined: search) [never-undefined]"
    )


def test_check_tools_needs_strict_or_coverage(tmp_path: Path) -> None:
    tools = tools_file(tmp_path, SEARCH)
    spec = spec_file(tmp_path, {"name": "a", "expected_tools": ["search"]})
    done = toolmatch("check", spec, "-", "--tools", tools, stdin="")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        "toolmatch: --tools names the tools the agent is offered, for --strict and "
        "--coverage: give one of them (a spec's tools: checks the calls against their "
        "definitions)\n"
    )


def test_the_line_of_each_finding_in_a_yaml_file(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        """\
test_cases:
  - name: a
    turns:
      - expected_tools:
          - search
          - name: refund
            args:
              amount: {$regex: '(?s).*'}
        max_calls: 0
  - name: "b"
    expected_tools:
      - {name: refund, args: {amount: {$any_of: [{$any: true}, 1]}}}
""",
        encoding="utf-8",
    )
    done = toolmatch("lint", spec)
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout.splitlines() == [
        f"{spec}:5: test_cases[0](a).turns[0].expected_tools[0]: can never pass: it needs 1 "
        "matching calls and the turn's max_calls is 0 [count-above-max-calls]",
        f"{spec}:6: test_cases[0](a).turns[0].expected_tools[1]: can never pass: it needs 1 "
        "matching calls and the turn's max_calls is 0 [count-above-max-calls]",
        f"{spec}:8: test_cases[0](a).turns[0].expected_tools[1].args.amount: Regex('(?s).*') "
        "accepts every value: it can never fail [accepts-everything]",
        f"{spec}:12: test_cases[1](b).expected_tools[0].args.amount: ANY | 1 accepts every "
        "value: it can never fail [accepts-everything]",
        "4 findings",
    ]


def test_text_from_the_spec_cannot_forge_a_line(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {"name": "a\nPASS b", "expected_tools": [{"name": "x\ny", "count": 2}], "max_calls": 1},
    )
    code, lines, _ = lint(spec)
    assert (code, lines) == (
        1,
        [
            "test_cases[0](a\\nPASS b).expected_tools[0]: can never pass: it needs 2 matching "
            "calls and the turn's max_calls is 1 [count-above-max-calls]",
            "1 finding",
        ],
    )


def test_a_spec_that_cannot_be_read(tmp_path: Path) -> None:
    missing = tmp_path / "none.yaml"
    done = toolmatch("lint", missing)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"toolmatch: cannot read the spec {missing}: No such file or directory\n"


def test_lines_through_an_alias_and_past_a_merge_key(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        """\
test_cases:
  - name: a
    expected_tools:
      - &loose {name: s, args: {q: {$regex: '(?s).*'}}}
  - name: b
    expected_tools: [t, *loose]
  - name: c
    expected_tools:
      - {<<: *loose, name: u}
""",
        encoding="utf-8",
    )
    done = toolmatch("lint", spec)
    found = "Regex('(?s).*') accepts every value: it can never fail [accepts-everything]"
    assert done.stdout.splitlines() == [
        f"{spec}:4: test_cases[0](a).expected_tools[0].args.q: {found}",
        f"{spec}:4: test_cases[1](b).expected_tools[1].args.q: {found}",
        f"{spec}: test_cases[2](c).expected_tools[0].args.q: {found}",
        "3 findings",
    ]


def test_an_ignore_pattern_asserting_status_or_agent_leaves_calls_to_be_judged(
    tmp_path: Path,
) -> None:
    # docs/config.md's recipe: the calls that never ran left out, the others judged.
    spec = spec_file(
        tmp_path,
        {"name": "a", "expected_tools": ["refund"], "ignore": [
            {"name": {"$any": True}, "status": ["denied", "pending"]}
        ]},
        {"name": "b", "expected_tools": [], "exhaustive": True, "ignore": [
            {"name": {"$any": True}, "agent": "triage"}
        ]},
    )  # fmt: skip
    assert lint(spec) == (0, ["no findings"], "")
    runs = jsonl(
        {"case": "a", "turns": [[{"name": "refund", "args": {}, "status": "succeeded"},
                                 {"name": "wipe", "args": {}, "status": "denied"}]]},
        {"case": "b", "turns": [[{"name": "look", "args": {}, "agent": "triage"}]]},
        {"case": "b", "turns": [[{"name": "look", "args": {}, "agent": "billing"}]]},
    )  # fmt: skip
    done = toolmatch("check", spec, "-", "--strict", stdin=runs)
    assert (done.returncode, done.stderr) == (1, "")
    assert done.stdout.splitlines()[:4] == [
        "PASS a",
        "PASS b",
        "FAIL b (run 2)",
        "  turn 0: call 0 look({}) by 'billing' is not expected",
    ]
    assert done.stdout.splitlines()[-1] == "2 passed, 1 failed"


def test_a_never_for_another_agent_or_status_contradicts_nothing(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {"name": "agent", "expected_tools": ["refund", {"name": "refund", "never": True, "agent": "billing"}]},
        {"name": "status", "expected_tools": ["refund", {"name": "refund", "never": True, "status": "denied"}]},
        # Written alike, agent and status too: a contradiction.
        {"name": "alike", "expected_tools": [
            {"name": "refund", "agent": "billing", "status": "succeeded"},
            {"name": "refund", "never": True, "agent": "billing", "status": "succeeded"},
        ]},
    )  # fmt: skip
    assert lint(spec)[1] == [
        "test_cases[2](alike).expected_tools[0]: can never pass: expected_tools[1] forbids the "
        "calls it needs [contradicts-never]",
        "1 finding",
    ]


def test_a_dot_star_accepts_almost_everything(tmp_path: Path) -> None:
    args = {
        "q": {"$regex": ".*"},
        "r": {"$regex": "^(.*?)$"},
        "s": {"$maybe": {"$regex": "(?-s:.*)"}},
        "t": {"$regex": "[^\\n]*"},  # says what it means: not reported
        "u": {"$regex": ".+"},  # refuses the empty string too
    }
    spec = spec_file(
        tmp_path,
        {"name": "a", "expected_tools": [{"name": "s", "args": args, "result": {"$regex": ".*"}}]},
    )
    fix = "for any value write {$any: true}, else a pattern that says what you mean"
    almost = "accepts almost everything (every value without a line break)"
    assert lint(spec) == (
        1,
        [
            f"test_cases[0](a).expected_tools[0].args.q: Regex('.*') {almost}: {fix} "
            "[accepts-almost-everything]",
            f"test_cases[0](a).expected_tools[0].args.r: Regex('^(.*?)$') {almost}: {fix} "
            "[accepts-almost-everything]",
            f"test_cases[0](a).expected_tools[0].args.s: Regex('(?-s:.*)') {almost}: {fix} "
            "[accepts-almost-everything]",
            f"test_cases[0](a).expected_tools[0].result: Regex('.*') {almost}: {fix} "
            "[accepts-almost-everything]",
            "4 findings",
        ],
        "",
    )


# --- every key of semantics v4 (issue 37, "Every new key"): what lint can prove of each ---


def test_first_or_last_on_a_bare_name_can_never_fail(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {
            "name": "a",
            "expected_tools": [
                {"name": "search", "first": True},
                {"name": "fetch", "last": True, "args": {"url": "x"}},  # can fail: not said
            ],
        },
    )
    assert lint(spec) == (
        1,
        [
            "test_cases[0](a).expected_tools[0].first: can never fail: it asserts nothing "
            "beyond the name, so the first call of the name matches it whatever it is "
            "[place-matches-anything]",
            "1 finding",
        ],
        "",
    )


def test_a_never_after_or_before_that_can_never_fail(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {
            "name": "a",
            "tools": [SEARCH, FETCH],
            "expected_tools": [
                {"name": "search", "id": "s"},
                {"name": "refund", "id": "r", "count": 0, "max_count": 1},
                {"name": "search", "never": True, "before": ["s"]},
                {"name": "fetch", "never": True, "after": ["r"]},
                {"name": "fetch", "never": True, "after": ["s"]},  # can fail: not said
            ],
        },
    )
    assert lint(spec) == (
        1,
        [
            "test_cases[0](a).expected_tools[1]: can never fail: no defined tool's name "
            "contains 'refund' (defined: search, fetch_page) [undefined-tool]",
            "test_cases[0](a).expected_tools[2].before[0]: can never fail: it is written as "
            "expected_tools[0] is, and no call that matches expected_tools[0] comes before the "
            "first that does [never-order-vacuous]",
            "test_cases[0](a).expected_tools[3].after[0]: can never fail: expected_tools[1] "
            "selects no defined tool, so it has no first call [never-order-vacuous]",
            "3 findings",
        ],
        "",
    )


def test_an_optional_step_no_defined_tool_selects_can_never_fail(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {
            "name": "a",
            "tools": [SEARCH, FETCH],
            "ordered": True,
            "expected_tools": ["search", {"name": "log", "optional": True}, "fetch"],
        },
    )
    assert lint(spec) == (
        1,
        [
            "test_cases[0](a).expected_tools[1]: can never fail: no defined tool's name "
            "contains 'log' (defined: search, fetch_page) [undefined-tool]",
            "1 finding",
        ],
        "",
    )


def test_captures_and_references_are_looked_into(tmp_path: Path) -> None:
    anything = {"$any_of": [{"$any": True}, 3]}
    spec = spec_file(
        tmp_path,
        {
            "name": "a",
            "turns": [
                {"expected_tools": [{"name": "create", "result": {"id": {"$capture": "o"}}}]},
                {
                    "expected_tools": [
                        {
                            "name": "refund",
                            "args": {
                                "id": {"$any_of": [{"$ref": "o"}, {"$any": True}]},
                                "ok": {"$ref": "o"},  # one value: can fail
                                "to": {"$capture": "t", "match": anything},
                            },
                        }
                    ]
                },
            ],
        },
    )
    assert lint(spec) == (
        1,
        [
            "test_cases[0](a).turns[1].expected_tools[0].args.id: Ref('o') | ANY accepts "
            "every value: it can never fail [accepts-everything]",
            "test_cases[0](a).turns[1].expected_tools[0].args.to: ANY | 3 accepts every "
            "value: it can never fail [accepts-everything]",
            "2 findings",
        ],
        "",
    )


def test_an_answer_that_accepts_everything_or_names_no_judge(tmp_path: Path) -> None:
    spec = spec_file(
        tmp_path,
        {
            "name": "a",
            "answer": {"$judge": "polite"},
            "turns": [
                {"expected_tools": ["search"], "answer": {"$any": True}},
                {"expected_tools": ["fetch"], "answer": {"$regex": "(?s).*"}},
                {"expected_tools": ["fetch"], "answer": {"$contains": "42"}},  # can fail
            ],
        },
    )
    assert lint(spec) == (
        1,
        [
            "test_cases[0](a).turns[0].answer: ANY accepts every answer, none too: it can "
            "never fail [accepts-everything]",
            "test_cases[0](a).turns[1].answer: Regex('(?s).*') accepts every value: it can "
            "never fail [accepts-everything]",
            "test_cases[0](a).answer: names the judge 'polite', which nobody registered: it "
            "accepts no value (register it in a module given to --plugin, or in the "
            "toolmatch.judges entry point group) [unregistered-judge]",
            "3 findings",
        ],
        "",
    )
