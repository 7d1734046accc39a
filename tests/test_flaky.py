"""Flaky checks named: with several runs of a case, `toolmatch check` lists each check
(expectation or turn option) that failed in some of them, with the share, flaky ones
first (docs/cli.md, Trials). The command runs as a subprocess."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from functools import partial
from pathlib import Path

import pytest

import commands

toolmatch = partial(commands.toolmatch, "check", "--no-progress")
jsonl = commands.jsonl

SPEC = """\
test_cases:
  - name: book
    max_calls: 4
    turns:
      - expected_tools: [search_flights, {name: book_flight, args: {to: JFK}}]
        max_calls: 3
      - expected_tools: [pay]
  - name: cancel
    expected_tools: [cancel_order]
  - name: steps
    expected_tools: [a, b]
    ordered: true
    no_repeats: true
  - name: once
    expected_tools: [once]
"""

SEARCH = {"name": "search_flights"}
JFK = {"name": "book_flight", "args": {"to": "JFK"}}
LAX = {"name": "book_flight", "args": {"to": "LAX"}}
PAY = {"name": "pay"}


def book(first: list[object], *rest: list[object]) -> dict[str, object]:
    return {"case": "book", "turns": [first, *rest]}


def steps(*names: str) -> dict[str, object]:
    return {"case": "steps", "turns": [[{"name": name} for name in names]]}


RUNS = [
    book([SEARCH, JFK], [PAY]),  # passes
    book([SEARCH, LAX], [PAY]),  # book_flight's args
    book([SEARCH, JFK, SEARCH, SEARCH], [PAY]),  # the turn's max_calls and the case's
    book([SEARCH, LAX, SEARCH, SEARCH], []),  # both, and pay
    book([SEARCH, JFK]),  # a turn short
    {"case": "book"},  # cannot be checked: no run of the checked ones
    {"case": "cancel", "turns": [[{"name": "refund"}]]},
    {"case": "cancel", "turns": [[]]},
    steps("a", "b"),
    steps("b", "a"),  # order
    steps("a", "a", "b"),  # a repeat
    {"case": "once", "turns": [[{"name": "nope"}]]},  # one run: its FAIL says it all
]

BOOK_CHECKS = [
    "FLAKY book: turns[0].expected_tools[1] ExpectedTool('book_flight', {'to': 'JFK'}): "
    "failed in 2 of 5 runs (0.40)",
    "FLAKY book: turns[0].max_calls at most 3 call(s): failed in 2 of 5 runs (0.40)",
    "FLAKY book: turns[1].expected_tools[0] ExpectedTool('pay'): failed in 1 of 5 runs (0.20)",
    "FLAKY book: max_calls at most 4 call(s) in the case: failed in 1 of 5 runs (0.20)",
    "FLAKY book: turns the case's 2 turn(s): failed in 1 of 5 runs (0.20)",
]


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


@pytest.fixture
def traces(tmp_path: Path) -> Path:
    path = tmp_path / "traces.jsonl"
    path.write_text(jsonl(*RUNS), encoding="utf-8")
    return path


def test_text_names_the_failed_checks_after_each_cases_trials(spec: Path, traces: Path) -> None:
    result = toolmatch(spec, traces)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    start = lines.index(next(line for line in lines if line.startswith("TRIALS")))
    assert lines[start:] == [
        "TRIALS book: 1/6 passed, pass^1 0.167, pass^2 0.000, pass^4 0.000, pass^6 0.000",
        *BOOK_CHECKS,
        "TRIALS cancel: 0/2 passed, pass^1 0.000, pass^2 0.000",
        "BROKEN cancel: turns[0].expected_tools[0] ExpectedTool('cancel_order'): "
        "failed in all 2 runs",
        "TRIALS steps: 1/3 passed, pass^1 0.333, pass^2 0.000, pass^3 0.000",
        # order as written (docs/selection.md): b's call before a's fails b itself too
        "FLAKY steps: turns[0].expected_tools[1] ExpectedTool('b'): failed in 1 of 3 runs (0.33)",
        "FLAKY steps: turns[0].ordered the calls in the expected order: "
        "failed in 1 of 3 runs (0.33)",
        "FLAKY steps: turns[0].no_repeats no repeated call: failed in 1 of 3 runs (0.33)",
        "TRIALS once: 0/1 passed, pass^1 0.000",
        "TRIALS mean over 4 cases: pass^1 0.125, pass^2 0.000 (3 cases), "
        "pass^4 0.000 (1 case), pass^6 0.000 (1 case)",
        "1 error",
        "2 passed, 9 failed",
    ]


def test_json_gives_a_check_row_per_failed_check(spec: Path, traces: Path) -> None:
    rows = [
        json.loads(row) for row in toolmatch(spec, traces, "--format", "json").stdout.splitlines()
    ]
    kinds = [row["type"] for row in rows if row["type"] in ("trials", "check")]
    assert kinds == [
        "trials",
        *["check"] * 5,
        "trials",
        "check",
        "trials",
        *["check"] * 3,
        "trials",
    ]
    checks = [row for row in rows if row["type"] == "check"]
    assert checks[0] == {
        "type": "check",
        "case": "book",
        "check": "turns[0].expected_tools[1]",
        "description": "ExpectedTool('book_flight', {'to': 'JFK'})",
        "failed": 2,
        "runs": 5,
        "share": 0.4,
        "flaky": True,
    }
    assert [(row["case"], row["check"], row["failed"], row["flaky"]) for row in checks[1:]] == [
        ("book", "turns[0].max_calls", 2, True),
        ("book", "turns[1].expected_tools[0]", 1, True),
        ("book", "max_calls", 1, True),
        ("book", "turns", 1, True),
        ("cancel", "turns[0].expected_tools[0]", 2, False),
        ("steps", "turns[0].expected_tools[1]", 1, True),  # order as written
        ("steps", "turns[0].ordered", 1, True),
        ("steps", "turns[0].no_repeats", 1, True),
    ]
    assert checks[5]["share"] == 1.0


def test_junit_gives_a_property_per_failed_check(spec: Path, traces: Path, tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    toolmatch(spec, traces, "--junit-xml", report)
    [suite] = ElementTree.parse(report).getroot()
    properties = [(item.get("name"), item.get("value")) for item in suite.find("properties")]
    assert [name for name, _ in properties][:7] == [
        "trials:book",
        "check:book:turns[0].expected_tools[1]",
        "check:book:turns[0].max_calls",
        "check:book:turns[1].expected_tools[0]",
        "check:book:max_calls",
        "check:book:turns",
        "trials:cancel",
    ]
    assert properties[1][1] == (
        "{\"description\": \"ExpectedTool('book_flight', {'to': 'JFK'})\", \"failed\": 2, "
        '"runs": 5, "share": 0.4, "flaky": true}'
    )
    assert json.loads(properties[7][1])["flaky"] is False


def test_flaky_checks_come_first_most_often_failing_first(spec: Path) -> None:
    # No run calls search_flights; both max_calls fail in 2 runs of 4 (in the case's
    # order: the turn's, then the case's), book_flight's args in 1.
    runs = [
        book([JFK], [PAY]),
        book([LAX, PAY, PAY, PAY], [PAY]),
        book([JFK, PAY, PAY, PAY], [PAY]),
        book([JFK], [PAY]),
    ]
    rows = toolmatch(spec, "-", "--format", "json", stdin=jsonl(*runs)).stdout.splitlines()
    checks = [json.loads(row) for row in rows if '"type": "check"' in row]
    assert [(row["check"], row["failed"], row["flaky"]) for row in checks] == [
        ("turns[0].max_calls", 2, True),
        ("max_calls", 2, True),
        ("turns[0].expected_tools[1]", 1, True),
        ("turns[0].expected_tools[0]", 4, False),
    ]


def test_exhaustive_distinct_and_tools_are_named(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: all\n"
        "    expected_tools: [a]\n"
        "    exhaustive: true\n"
        "  - name: two\n"
        "    expected_tools: [a, a]\n"
        "    distinct: true\n"
        "  - name: fit\n"
        "    expected_tools: [a]\n"
        "    tools: [{name: a, parameters: {type: object, properties: {n: {type: integer}}}}]\n",
        encoding="utf-8",
    )
    runs = [
        {"case": "all", "turns": [[{"name": "a"}]]},
        {"case": "all", "turns": [[{"name": "a"}, {"name": "b"}]]},
        {"case": "two", "turns": [[{"name": "a"}, {"name": "a"}]]},
        {"case": "two", "turns": [[{"name": "a"}]]},
        {"case": "fit", "turns": [[{"name": "a", "args": {"n": 1}}]]},
        {"case": "fit", "turns": [[{"name": "a", "args": {"n": "one"}}]]},
    ]
    lines = toolmatch(spec, "-", stdin=jsonl(*runs)).stdout.splitlines()
    assert [line for line in lines if line.startswith("FLAKY")] == [
        "FLAKY all: turns[0].exhaustive no call that is not expected: failed in 1 of 2 runs (0.50)",
        "FLAKY two: turns[0].distinct a call of its own for each expectation: "
        "failed in 1 of 2 runs (0.50)",
        "FLAKY fit: turns[0].tools each call fits its tool's definition: "
        "failed in 1 of 2 runs (0.50)",
    ]


def test_runs_that_all_pass_or_ran_once_list_no_checks(spec: Path) -> None:
    runs = [book([SEARCH, JFK], [PAY])] * 3 + [{"case": "cancel", "turns": [[]]}]
    result = toolmatch(spec, "-", "--format", "json", stdin=jsonl(*runs))
    assert "check" not in {json.loads(row)["type"] for row in result.stdout.splitlines()}


@pytest.mark.parametrize("output", [(), ("--format", "json")])
def test_jobs_count_the_same_checks(spec: Path, tmp_path: Path, output: tuple[str, ...]) -> None:
    # more lines than a worker's chunk: each worker's runs are counted into the same totals
    traces = tmp_path / "many.jsonl"
    traces.write_text(jsonl(*[RUNS[i % len(RUNS)] for i in range(3000)]), encoding="utf-8")
    one = toolmatch(spec, traces, *output, "--junit-xml", tmp_path / "one.xml")
    two = toolmatch(spec, traces, *output, "--jobs", "2", "--junit-xml", tmp_path / "two.xml")
    assert one.stdout == two.stdout
    assert (tmp_path / "one.xml").read_text() == (tmp_path / "two.xml").read_text()
    if not output:
        assert (
            "FLAKY book: turns[0].max_calls at most 3 call(s): failed in 500 of 1250 runs (0.40)"
            in one.stdout.splitlines()
        )


ALTERNATIVES = """\
test_cases:
  - name: refund
    one_of:
      - expected_tools: [refund]
      - expected_tools: [store_credit]
  - name: lookup
    turns:
      - one_of:
          - expected_tools: [search]
          - expected_tools: [fetch]
      - expected_tools: [answer]
"""


def test_alternatives_are_one_check_each(tmp_path: Path) -> None:
    # Runs may be closest to different alternatives: the check named is the one_of itself.
    spec = tmp_path / "spec.yaml"
    spec.write_text(ALTERNATIVES, encoding="utf-8")
    traces = tmp_path / "traces.jsonl"
    traces.write_text(
        jsonl(
            {"case": "refund", "turns": [[{"name": "refund"}]]},
            {"case": "refund", "turns": [[{"name": "escalate"}]]},
            {"case": "lookup", "turns": [[{"name": "search"}], [{"name": "answer"}]]},
            {"case": "lookup", "turns": [[{"name": "browse"}], [{"name": "answer"}]]},
            {"case": "lookup", "turns": [[{"name": "fetch"}], [{"name": "shrug"}]]},
        ),
        encoding="utf-8",
    )
    lines = toolmatch(spec, traces).stdout.splitlines()
    assert [line for line in lines if line.startswith(("FLAKY", "BROKEN"))] == [
        "FLAKY refund: one_of one of the case's 2 alternatives: failed in 1 of 2 runs (0.50)",
        "FLAKY lookup: turns[0].one_of one of its 2 alternatives: failed in 1 of 3 runs (0.33)",
        "FLAKY lookup: turns[1].expected_tools[0] ExpectedTool('answer'): "
        "failed in 1 of 3 runs (0.33)",
    ]


def test_a_broken_order_constraint_names_its_expectation_in_its_group(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: refund\n"
        "    expected_tools:\n"
        "      - {name: check_balance, id: check}\n"
        "      - {any_order: [{name: refund, after: [check]}, notify]}\n",
        encoding="utf-8",
    )
    traces = tmp_path / "traces.jsonl"
    names = [["check_balance", "refund", "notify"], ["refund", "check_balance", "notify"]]
    runs = [{"case": "refund", "turns": [[{"name": name} for name in run]]} for run in names]
    traces.write_text(jsonl(*runs), encoding="utf-8")
    lines = toolmatch(spec, traces).stdout.splitlines()
    assert [line for line in lines if line.startswith(("FLAKY", "BROKEN"))] == [
        "FLAKY refund: turns[0].expected_tools[1].any_order[0] "
        "ExpectedTool('refund', after=['check']): failed in 1 of 2 runs (0.50)"
    ]


def test_a_case_max_calls_exceeded_at_a_turn_with_alternatives_blames_only_the_cap(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: lookup\n"
        "    max_calls: 2\n"
        "    turns:\n"
        "      - one_of:\n"
        "          - expected_tools: [search]\n"
        "          - expected_tools: [fetch]\n",
        encoding="utf-8",
    )
    traces = tmp_path / "traces.jsonl"
    traces.write_text(
        jsonl(
            {"case": "lookup", "turns": [[{"name": "search"}]]},
            # The alternative passes; only the case's cap fails.
            {"case": "lookup", "turns": [[{"name": "fetch"}] * 3]},
            # Neither alternative passes: the turn's one_of fails as well.
            {"case": "lookup", "turns": [[{"name": "browse"}]]},
        ),
        encoding="utf-8",
    )
    lines = toolmatch(spec, traces).stdout.splitlines()
    assert [line for line in lines if line.startswith(("FLAKY", "BROKEN"))] == [
        "FLAKY lookup: turns[0].one_of one of its 2 alternatives: failed in 1 of 3 runs (0.33)",
        "FLAKY lookup: max_calls at most 2 call(s) in the case: failed in 1 of 3 runs (0.33)",
    ]
    rows = [
        json.loads(row) for row in toolmatch(spec, traces, "--format", "json").stdout.splitlines()
    ]
    checks = [(row["check"], row["failed"]) for row in rows if row["type"] == "check"]
    assert checks == [("turns[0].one_of", 1), ("max_calls", 1)]
