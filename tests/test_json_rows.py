"""``--format json``'s run rows, written as text from the verdicts, against ``json.dumps`` of
the results' dicts (``TurnResult.as_dict()``, the API's JSON): the same bytes, for every turn
option, alternatives, failing runs, missing turns and odd values (NaN, big integers, lone
surrogates, non-ASCII text, keys that need escapes, values no JSON type holds)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from commands import jsonl, toolmatch
from strategies import json_values, keys, texts
from toolmatch import ToolCall
from toolmatch._selection.case import case_verdict
from toolmatch._selection.json_rows import run_json
from toolmatch._selection.json_text import jsonable, value_json
from toolmatch._spec.loading import load_test_cases

NAMES = ["search", "fetch", "read", "write", "delete", "log", "ping", "web_search"]

SPEC: dict[str, Any] = {
    "test_cases": [
        {
            "name": "plain",
            "expected_tools": [
                {"name": "search", "args": {"q": {"fuzzy": "paris"}, "n": {"$approx": 3}}},
                {"name": "fetch", "max_count": 2},
                {"name": "delete", "never": True},
            ],
        },
        {
            "name": "strict",
            "turns": [
                {
                    "exhaustive": True,
                    "ordered": True,
                    "expected_tools": ["search", {"name": "fetch", "args": {"n": 1}}],
                },
                {
                    "distinct": True,
                    "no_repeats": True,
                    "max_calls": 2,
                    "expected_tools": [{"name": "search", "count": 2}, "read"],
                },
            ],
        },
        {
            "name": "ignoring",
            "ignore": [{"name": "log", "max_count": 1}, "ping"],
            "agent": "assistant",
            "expected_tools": [{"name": "search", "args": {"q": "paris"}, "exact": True}],
        },
        {
            "name": "groups",
            "expected_tools": [
                {"in_order": ["search", {"name": "fetch", "id": "f"}]},
                {"any_order": ["read", {"name": "write", "after": ["f"]}]},
            ],
        },
        {
            "name": "turn_alternatives",
            "turns": [
                {
                    "one_of": [
                        {"expected_tools": [{"name": "search", "args": {"q": "x"}}]},
                        {"expected_tools": ["fetch", "read"], "exhaustive": True},
                    ]
                },
                {"expected_tools": ["write"]},
            ],
        },
        {
            "name": "case_alternatives",
            "one_of": [
                {"turns": [{"expected_tools": ["search"]}], "max_calls": 1},
                {"turns": [{"expected_tools": ["fetch"]}, {"expected_tools": ["read"]}]},
            ],
        },
        {
            "name": "budget",
            "max_calls": 3,
            "turns": [{"expected_tools": ["search"]}, {"expected_tools": ["fetch"]}],
        },
        {
            "name": "defined",
            "tools": [
                {
                    "name": "search",
                    "parameters": {
                        "type": "object",
                        "properties": {"q": {"type": "string"}},
                        "required": ["q"],
                    },
                }
            ],
            "expected_tools": [{"name": "search", "result": {"$contains": "ok"}, "failed": False}],
        },
        {
            "name": "forbidden",
            "expected_tools": [
                {"name": "delete", "never": True},
                {"name": "write", "count": 0, "max_count": 0},
            ],
        },
        {
            "name": "steps",
            "expected_tools": [
                {"name": "cancel", "id": "c", "first": True, "result": {"$capture": "order"}},
                {"name": "refund", "never": True, "after": ["c"]},
                {
                    "name": "log",
                    "optional": True,
                    "before": ["c"],
                    "status": ["succeeded", "denied"],
                },
                {"name": "close", "args": {"id": {"$ref": "order"}}, "last": True},
            ],
        },
        {"name": "nothing", "expected_tools": []},
    ]
}


CASES = {case.name: case for case in load_test_cases(SPEC)}


def _as_dicts(case: Any, turns: list[Any]) -> str:
    verdict = case_verdict(case, turns)
    results = [result.as_dict() for result in verdict.results()]
    return json.dumps({"passed": verdict.passed, "turns": results})


_odd_strings = st.sampled_from(
    ["\ud800", "x\udfff", "caf\u00e9", "\u2028", 'a"b\\c', "\x00\x1f", "\U0001f600", "NaN"]
)
_arguments = st.one_of(
    st.dictionaries(st.one_of(keys, _odd_strings), json_values, max_size=4),
    st.fixed_dictionaries({"q": st.sampled_from(["paris", "PARIS ", "x", "rome"])}),
    st.fixed_dictionaries({"n": st.sampled_from([1, 3, 3.0, 2**80, float("nan")])}),
)


@st.composite
def _calls(draw: st.DrawFn) -> dict[str, Any]:
    call: dict[str, Any] = {"name": draw(st.sampled_from(NAMES))}
    if draw(st.integers(0, 3)):
        call["args"] = draw(_arguments)
    else:  # as text: read, or a parse error
        call["arguments"] = draw(st.sampled_from(['{"q": "paris"}', "{bad json", "[1, 2]"]))
    if draw(st.booleans()):
        call["id"] = draw(st.one_of(texts, _odd_strings))
    if draw(st.booleans()):
        call["result"] = draw(st.one_of(json_values, st.just("ok, done")))
    if draw(st.booleans()):
        call["failed"] = draw(st.booleans())
    if draw(st.booleans()):
        call["agent"] = draw(st.sampled_from(["assistant", "user", "caf\u00e9"]))
    if draw(st.booleans()):
        call["status"] = draw(st.sampled_from(["denied", "pending"]))
        call.pop("failed", None)
    return call


_runs = st.tuples(
    st.sampled_from([case["name"] for case in SPEC["test_cases"]]),
    st.lists(st.lists(_calls(), max_size=5), max_size=3),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run=_runs)
def test_a_runs_row_is_json_dumps_of_its_results_dicts(run: Any) -> None:
    name, turns = run
    case = CASES[name]
    try:
        expected = _as_dicts(case, turns)
    except (TypeError, ValueError) as error:  # turns no reader takes: no row either way
        try:
            case_verdict(case, turns)
        except type(error):
            return
        raise
    assert run_json(case_verdict(case, turns)) == expected


def test_passed_turns_of_one_call_count_and_many_layouts_are_each_written_as_their_own() -> None:
    # A spec of its own: its turn keeps no layout yet. Twelve layouts of 12 calls, more than
    # a call count keeps: each row is its own, from a kept layout or not, the second time too.
    (case,) = load_test_cases({"test_cases": [{"name": "many", "expected_tools": ["search"]}]})
    for _ in range(2):
        for position in range(12):
            names = ["log"] * 12
            names[position] = "search"
            turns = [[{"name": name, "args": {"i": index}} for index, name in enumerate(names)]]
            assert run_json(case_verdict(case, turns)) == _as_dicts(case, turns)


@given(value=st.recursive(json_values, lambda inner: st.lists(inner, max_size=2).map(tuple)))
def test_a_value_is_written_as_json_dumps_writes_it_after_jsonable(value: object) -> None:
    assert value_json(value) == json.dumps(jsonable(value))


def test_odd_values_are_written_as_json_dumps_writes_them_after_jsonable() -> None:
    deep: list[Any] = []
    for step in range(60):  # past jsonable's depth: the rest is its short repr
        deep = [deep] if step % 2 else [{"k": deep}]
    odd = [
        {1: "int key", "1": "its text", None: 0, False: 1, (1, 2): "a tuple"},
        {"nan": float("nan"), "inf": float("-inf"), "big": 10**400, "e": 1e300},
        [ToolCall("x"), {1, 2}, b"bytes", 3 + 4j],
        deep,
        type("Text", (str,), {})("a str subclass"),
        type("Number", (int,), {})(7),
        {"\ud83d": "\udc00", "tab\t": "line\nbreak", "\u00e9": "\u4e2d\u6587"},
    ]
    for value in odd:
        assert value_json(value) == json.dumps(jsonable(value))


def test_the_rows_of_toolmatch_check_hold_the_runs_results_dicts(tmp_path: Path) -> None:
    (tmp_path / "spec.json").write_text(json.dumps(SPEC), encoding="utf-8")
    runs = [
        {"case": "plain", "turns": [[{"name": "search", "args": {"q": "Paris", "n": 3}}]]},
        {"case": "plain", "turns": [[{"name": "web_search", "args": {"q": "\ud800", "n": 1}}]]},
        {"case": "strict", "turns": [[{"name": "fetch"}, {"name": "search"}], []]},
        {"case": "strict", "turns": [[{"name": "search"}, {"name": "fetch", "args": {"n": 1}}]]},
        {
            "case": "ignoring",
            "turns": [
                [
                    {"name": "log", "args": {}, "agent": "assistant"},
                    {"name": "log", "args": {}, "agent": "assistant"},
                    {"name": "search", "args": {"q": "paris"}, "agent": "user"},
                    {"name": "search", "args": {"q": "paris"}, "agent": "assistant"},
                ]
            ],
        },
        {"case": "groups", "turns": [[{"name": "write"}, {"name": "fetch"}, {"name": "read"}]]},
        {"case": "turn_alternatives", "turns": [[{"name": "fetch"}], [{"name": "write"}]]},
        {"case": "case_alternatives", "turns": [[{"name": "fetch"}], [{"name": "read"}]]},
        {"case": "case_alternatives", "turns": [[{"name": "read"}]]},
        {"case": "budget", "turns": [[{"name": "search"}] * 3, [{"name": "fetch"}]]},
        {
            "case": "defined",
            "turns": [[{"name": "search", "args": {"q": 1}, "result": "ok", "failed": False}]],
        },
        {"case": "forbidden", "turns": [[{"name": "delete", "args": {}, "status": "denied"}]]},
        {
            "case": "steps",
            "turns": [
                [
                    {"name": "cancel", "args": {}, "result": "o1"},
                    {"name": "refund", "args": {}},
                    {"name": "close", "args": {"id": "o1"}},
                ]
            ],
        },
        {"case": "nothing", "turns": [[{"name": "search", "arguments": "{bad"}]]},
    ]
    (tmp_path / "runs.jsonl").write_text(jsonl(*runs), encoding="utf-8")
    completed = toolmatch(
        "check", tmp_path / "spec.json", tmp_path / "runs.jsonl", "--format", "json"
    )
    rows = [json.loads(line) for line in completed.stdout.splitlines()]
    for run, (line, row) in zip(runs, enumerate(completed.stdout.splitlines(), 1), strict=False):
        head = f'{{"type": "case", "case": {json.dumps(run["case"])}, "run": '
        assert row.startswith(head)
        body = row.partition(f', "line": {line}, ')[2]
        assert "{" + body == _as_dicts(CASES[run["case"]], run["turns"])
    assert [row["type"] for row in rows[: len(runs)]] == ["case"] * len(runs)


def test_a_check_row_holds_every_key_of_its_expected_tool(tmp_path: Path) -> None:
    (tmp_path / "spec.json").write_text(json.dumps(SPEC), encoding="utf-8")
    calls = [{"name": "cancel", "args": {}, "result": "o1"}, {"name": "refund", "args": {}}]
    run = jsonl({"case": "steps", "turns": [calls]})
    completed = toolmatch("check", tmp_path / "spec.json", "-", "--format", "json", stdin=run)
    checks = json.loads(completed.stdout.splitlines()[0])["turns"][0]["checks"]
    heads = [dict(list(check.items())[1:18]) for check in checks]
    assert heads[1] == {
        "expected_tool": "ExpectedTool.never('refund', after=['c'])",
        "name": "refund",
        "args": None,
        "count": 0,
        "max_count": 0,
        "never": True,
        "optional": False,
        "result": None,
        "failed": None,
        "agent": None,
        "status": None,
        "id": None,
        "before": [],
        "after": ["c"],
        "first": False,
        "last": False,
        "args_asserted": False,
    }
    assert checks[1]["unmatched_reason"] == (
        "expected no matching call after c (call 0), got 1: call 1 refund({})"
    )
    assert [(head["id"], head["first"], head["result"]) for head in heads] == [
        ("c", True, "Capture('order')"),
        (None, False, None),
        (None, False, None),
        (None, False, None),
    ]
    assert (heads[2]["optional"], heads[2]["count"], heads[2]["status"]) == (
        True,
        0,
        ["succeeded", "denied"],
    )
    assert (heads[3]["last"], heads[3]["args"]) == (True, {"id": "Ref('order')"})


def test_a_check_row_s_expectation_keys_are_the_tool_key_table_s() -> None:
    from toolmatch._selection.tool_keys import TOOL_KEYS

    check = CASES["plain"].check([[]])[0].as_dict()["checks"][0]
    keys = list(check)
    between = keys[keys.index("expected_tool") + 1 : keys.index("args_asserted")]
    assert between == [key.name for key in TOOL_KEYS if key.attribute is not None]
    assert {key.name for key in TOOL_KEYS if key.attribute is None} == {"exact", "ignore_args"}
