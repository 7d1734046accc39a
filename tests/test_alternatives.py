"""Alternative trajectories: a turn or a case with ``one_of``, passing when any alternative
passes, reported by the closest alternative when none does."""

from __future__ import annotations

import json
import pickle
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from commands import jsonl, toolmatch
from toolmatch import (
    ChosenAlternative,
    ConfigError,
    Exact,
    ExpectedTool,
    ExpectedTurn,
    OneOfTurns,
    TestCase,
    load_test_cases,
)

DIRECT = ExpectedTurn([ExpectedTool("refund", {"order": 7})], exhaustive=True)
ESCALATED = ExpectedTurn(
    [ExpectedTool("escalate"), ExpectedTool("notify", {"team": "billing"})], ordered=True
)
REFUND = [{"name": "refund", "args": {"order": 7}}]
ESCALATION = [{"name": "escalate"}, {"name": "notify", "args": {"team": "billing"}}]
WRONG_TEAM = [{"name": "escalate"}, {"name": "notify", "args": {"team": "sales"}}]


def problems(spec: object) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as error:
        load_test_cases(spec)
    return [(problem.path, problem.message) for problem in error.value.problems]


# --- a turn's alternatives -------------------------------------------------------------------


def test_a_turn_passes_when_any_alternative_passes() -> None:
    turn = ExpectedTurn.one_of(DIRECT, ESCALATED)
    assert isinstance(turn, OneOfTurns)
    assert turn.alternatives == (DIRECT, ESCALATED)
    for calls, number in ((REFUND, 0), (ESCALATION, 1)):
        result = turn.check(calls)
        assert result.passed
        assert result.alternatives == (ChosenAlternative("turn", number, 2, True),)
    assert not turn.check(WRONG_TEAM).passed
    assert not turn.check([*REFUND, {"name": "cancel"}]).passed  # the direct one is exhaustive


def test_none_passing_shows_the_closest_alternative_and_how_many_there_were() -> None:
    result = ExpectedTurn.one_of(DIRECT, ESCALATED).check(WRONG_TEAM, turn=1)
    assert result.alternatives == (ChosenAlternative("turn", 1, 2, False),)
    assert str(result).splitlines()[:3] == [
        "turn 1 FAILED (distinct, ordered): 1 of 2 expectation(s) met over 2 call(s)",
        "  none of the turn's 2 alternatives passed; the closest is alternative 1",
        "  score: precision 1/2 = 0.50, recall 1/2 = 0.50, f1 0.50",
    ]
    # the scores are the closest alternative's
    assert (result.precision, result.recall) == (0.5, 0.5)
    assert result.first_failure() == "expectation 1: call 1: team: expected 'billing', got 'sales'"
    assert result.as_dict()["alternatives"] == [
        {"of": "turn", "number": 1, "count": 2, "passed": False}
    ]


def test_a_notebook_table_says_it_too() -> None:
    html = ExpectedTurn.one_of(DIRECT, ESCALATED).check(WRONG_TEAM)._repr_html_()
    assert (
        "<br>none of the turn&#x27;s 2 alternatives passed; the closest is alternative 1<br>"
        in (html)
    )


def test_closest_is_the_best_score_then_the_fewest_failures_then_the_first() -> None:
    calls = [{"name": "a"}, {"name": "b"}]
    worse = ExpectedTurn([ExpectedTool("x"), ExpectedTool("y")])  # f1 0
    better = ExpectedTurn([ExpectedTool("a"), ExpectedTool("z")])  # f1 0.5
    assert ExpectedTurn.one_of(worse, better).check(calls).alternatives[0].number == 1
    # the same score (0): the one with fewer failing checks
    one_failure = ExpectedTurn([ExpectedTool("x")])
    assert ExpectedTurn.one_of(worse, one_failure).check(calls).alternatives[0].number == 1
    # a tie in both: the first
    twin = ExpectedTurn([ExpectedTool("w")])
    assert ExpectedTurn.one_of(one_failure, twin).check(calls).alternatives[0].number == 0


def test_closest_counts_the_asserted_arguments_that_match_before_the_failures() -> None:
    # Both alternatives score f1 0 with one failure each; the delete was made, with one of
    # its two asserted arguments right, and the archive never was: the delete is closer.
    archive = ExpectedTurn([ExpectedTool("archive_mail", {"folder": "old"})])
    delete = ExpectedTurn([ExpectedTool("delete_mail", {"folder": "spam", "confirm": True})])
    calls = [{"name": "delete_mail", "args": {"folder": "spam"}}]
    assert ExpectedTurn.one_of(archive, delete).check(calls).alternatives[0].number == 1
    assert ExpectedTurn.one_of(delete, archive).check(calls).alternatives[0].number == 0
    # Exact arguments score 0 however close the call: a call of the tool still counts.
    exact = ExpectedTurn([ExpectedTool("delete_mail", Exact({"folder": "spam", "confirm": True}))])
    assert ExpectedTurn.one_of(archive, exact).check(calls).alternatives[0].number == 1
    # A case's alternatives are chosen by the same rule.
    case = TestCase.one_of("mail", [archive], [delete])
    [result] = case.check([calls])
    assert result.alternatives[0].number == 1


def test_several_passing_the_first_is_reported() -> None:
    loose = ExpectedTurn([ExpectedTool("refund")])
    result = ExpectedTurn.one_of(loose, DIRECT).check(REFUND)
    assert result.alternatives == (ChosenAlternative("turn", 0, 2, True),)


def test_a_result_from_alternatives_pickles_with_its_choice() -> None:
    result = ExpectedTurn.one_of(DIRECT, ESCALATED).check(WRONG_TEAM)
    again = pickle.loads(pickle.dumps(result))
    assert again == result
    assert again.alternatives == result.alternatives
    assert str(again) == str(result)


def test_bad_alternatives_are_refused_at_construction() -> None:
    with pytest.raises(ValueError, match="at least two") as one:
        ExpectedTurn.one_of(DIRECT)
    assert str(one.value) == (
        "one_of needs at least two alternatives, got 1: a single one is the thing itself"
    )
    with pytest.raises(TypeError) as wrong:
        ExpectedTurn.one_of(DIRECT, [ExpectedTool("x")])  # type: ignore[arg-type]
    assert str(wrong.value) == (
        "one_of alternative 1 must be an ExpectedTurn, got [ExpectedTool('x')] (list)"
    )
    with pytest.raises(TypeError) as not_a_list:
        OneOfTurns(DIRECT)  # type: ignore[arg-type]
    assert str(not_a_list.value).startswith(
        "one_of takes a list of two or more alternatives, each an ExpectedTurn, got ExpectedTurn("
    )
    with pytest.raises(TypeError) as not_a_case:
        TestCase.one_of("c", [DIRECT], "refund")  # type: ignore[arg-type]
    assert str(not_a_case.value) == (
        "one_of alternative 1 must be a TestCase or a list of turns, got 'refund' (str)"
    )


# --- a case's alternatives -------------------------------------------------------------------


CASE = TestCase.one_of(
    "refund",
    [DIRECT],
    TestCase("escalated", [ExpectedTurn([ExpectedTool("lookup")]), ESCALATED], max_calls=3),
)


def test_a_case_passes_when_any_alternative_passes() -> None:
    assert CASE.turns == ()
    assert [len(alternative.turns) for alternative in CASE.alternatives] == [1, 2]
    assert CASE.passes([REFUND])
    assert CASE.passes([[{"name": "lookup"}], ESCALATION])
    assert not CASE.passes([[{"name": "lookup"}], WRONG_TEAM])
    # an alternative's max_calls is its own
    assert not CASE.passes([[{"name": "lookup"}, {"name": "lookup"}], ESCALATION])
    [result] = CASE.check([REFUND])
    assert result.alternatives == (ChosenAlternative("case", 0, 2, True),)


def test_a_failing_case_reports_the_closest_alternative_in_every_turn() -> None:
    results = CASE.check([[{"name": "lookup"}], WRONG_TEAM])
    assert [result.alternatives for result in results] == [
        (ChosenAlternative("case", 1, 2, False),)
    ] * 2
    assert str(results[1]).splitlines()[1] == (
        "  none of the case's 2 alternatives passed; the closest is alternative 1"
    )


def test_case_and_turn_alternatives_nest_the_case_first() -> None:
    case = TestCase.one_of(
        "nested",
        [DIRECT],
        [ExpectedTurn([ExpectedTool("lookup")]), ExpectedTurn.one_of(DIRECT, ESCALATED)],
    )
    results = case.check([[{"name": "lookup"}], WRONG_TEAM])
    assert results[1].alternatives == (
        ChosenAlternative("case", 1, 2, False),
        ChosenAlternative("turn", 1, 2, False),
    )


def test_bad_case_alternatives_are_refused() -> None:
    with pytest.raises(ValueError, match="no turns") as own:
        TestCase("c", [DIRECT], None, [CASE.alternatives[0], CASE.alternatives[1]])
    assert str(own.value) == (
        "a case with alternatives has no turns, max_calls or answer of its own: give them to each "
        "alternative"
    )
    with pytest.raises(ValueError, match="of its own") as nested:
        TestCase.one_of("c", CASE, [DIRECT])
    assert str(nested.value) == (
        "one_of alternative 0 has alternatives of its own: list them all in one one_of"
    )


# --- spec files ------------------------------------------------------------------------------

SPEC = """\
test_cases:
  - name: refund
    one_of:
      - expected_tools: [{name: refund, args: {order: 7}}]
        exhaustive: true
      - max_calls: 3
        turns:
          - expected_tools: [lookup]
          - one_of:
              - expected_tools: [refund]
              - expected_tools: [escalate, {name: notify, args: {team: billing}}]
                ordered: true
"""


def test_one_of_in_a_spec_file(tmp_path: Path) -> None:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    [case] = load_test_cases(path)
    assert len(case.alternatives) == 2
    assert case.alternatives[1].max_calls == 3
    assert isinstance(case.alternatives[1].turns[1], OneOfTurns)
    assert case.passes([REFUND])
    assert case.passes([[{"name": "lookup"}], ESCALATION])
    assert case.passes([[{"name": "lookup"}], REFUND])
    assert not case.passes([[{"name": "lookup"}], WRONG_TEAM])


def test_a_bad_alternative_is_said_once_at_its_place() -> None:
    spec = {"test_cases": [{"name": "c", "one_of": [{"expected_tools": ["a"]}, 5]}]}
    assert problems(spec) == [
        (
            "test_cases[0](c).one_of[1]",
            "an alternative must be a mapping with turns (or expected_tools), as a case without "
            "its name, got 5 (int)",
        )
    ]


def test_one_of_errors_name_their_place() -> None:
    spec = {
        "test_cases": [
            {"name": "one", "one_of": [{"expected_tools": ["a"]}], "ordered": True},
            {
                "name": "two",
                "one_of": [
                    {"expected_tools": ["a"], "name": "x"},
                    {
                        "turns": [
                            {"one_of": [{"expected_tools": [{"name": ""}]}, 3], "ordered": True}
                        ]
                    },
                    5,
                ],
            },
        ]
    }
    assert problems(spec) == [
        (
            "test_cases[0](one).ordered",
            "goes in each alternative when the case has one_of: one_of: [{turns: [...], "
            "ordered: ...}, ...]",
        ),
        (
            "test_cases[0](one).one_of",
            "must be a list of two or more alternatives, each a mapping with turns (or "
            "expected_tools), as a case without its name, got [{'expected_tools': ['a']}] (list)",
        ),
        (
            "test_cases[1](two).one_of[0].name",
            "unknown key 'name'; accepted: turns, expected_tools, distinct, ordered, exhaustive, "
            "ignore, max_calls, no_repeats, tools, agent, answer",
        ),
        (
            "test_cases[1](two).one_of[1].turns[0].ordered",
            "goes in each alternative when the turn has one_of: one_of: [{expected_tools: "
            "[...], ordered: ...}, ...]",
        ),
        (
            "test_cases[1](two).one_of[1].turns[0].one_of[0].expected_tools[0].name",
            "must not be empty: '' is in every tool name; write name: {$any: true} to select any tool",
        ),
        (
            "test_cases[1](two).one_of[1].turns[0].one_of[1]",
            "a turn must be a mapping with expected_tools (and optionally distinct, ordered, "
            "exhaustive, ignore, max_calls, no_repeats, tools, agent, answer), got 3 (int)",
        ),
        (
            "test_cases[1](two).one_of[2]",
            "an alternative must be a mapping with turns (or expected_tools), as a case without "
            "its name, got 5 (int)",
        ),
    ]


# --- the command's reports -------------------------------------------------------------------


def write_runs(tmp_path: Path) -> tuple[Path, Path]:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    runs = tmp_path / "runs.jsonl"
    runs.write_text(
        jsonl(
            {"case": "refund", "turns": [REFUND]},
            {"case": "refund", "turns": [[{"name": "lookup"}], WRONG_TEAM]},
            {"case": "refund", "turns": [[{"name": "refund", "args": {"order": 8}}]]},
        ),
        encoding="utf-8",
    )
    return spec, runs


def test_text_report_names_the_closest_alternative(tmp_path: Path) -> None:
    spec, runs = write_runs(tmp_path)
    done = toolmatch("check", spec, runs, "--no-progress")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:10] == [
        "PASS refund",
        "FAIL refund (run 2)",
        "  none of the case's 2 alternatives passed; the closest is alternative 1",
        "  one_of[1], turn 1: none of the turn's 2 alternatives passed; the closest is "
        "alternative 1",
        "  one_of[1], turn 1, one_of[1], expected_tools[1]: ExpectedTool('notify', "
        "{'team': 'billing'})",
        "    call 1: team: expected 'billing', got 'sales'",
        "FAIL refund (run 3)",
        "  none of the case's 2 alternatives passed; the closest is alternative 0",
        "  one_of[0], turn 0, expected_tools[0]: ExpectedTool('refund', {'order': 7})",
        "    call 0: order: expected 7, got 8",
    ]


def test_json_and_junit_reports_carry_the_alternatives(tmp_path: Path) -> None:
    spec, runs = write_runs(tmp_path)
    junit = tmp_path / "report.xml"
    done = toolmatch("check", spec, runs, "--format", "json", "--junit-xml", junit)
    assert done.returncode == 1, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    cases = [row for row in rows if row["type"] == "case"]
    assert [row["passed"] for row in cases] == [True, False, False]
    assert cases[1]["turns"][1]["alternatives"] == [
        {"of": "case", "number": 1, "count": 2, "passed": False},
        {"of": "turn", "number": 1, "count": 2, "passed": False},
    ]
    assert cases[0]["turns"][0]["alternatives"] == [
        {"of": "case", "number": 0, "count": 2, "passed": True}
    ]
    failures = list(ElementTree.parse(junit).iter("failure"))
    assert failures[0].get("message") == (
        "one_of[1], turn 1, one_of[1], expected_tools[1]: call 1: team: expected 'billing', "
        "got 'sales'"
    )
    assert "none of the case's 2 alternatives passed; the closest is alternative 1" in (
        failures[0].text or ""
    )


def test_update_fixes_the_chosen_alternative(tmp_path: Path) -> None:
    spec, runs = write_runs(tmp_path)
    runs.write_text(
        jsonl({"case": "refund", "turns": [[{"name": "lookup"}], WRONG_TEAM]}), encoding="utf-8"
    )
    done = toolmatch("check", spec, runs, "--update", "fix", "--no-progress")
    assert done.returncode == 0, done.stderr  # fixed: the run passes the spec written
    assert spec.read_text(encoding="utf-8") == SPEC.replace("team: billing", "team: sales")


def test_lint_looks_inside_every_alternative(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: refund\n"
        "    one_of:\n"
        "      - expected_tools: [{name: refund, count: 2}]\n"
        "        max_calls: 1\n"
        "      - turns:\n"
        "          - expected_tools: [lookup]\n"
        "          - one_of:\n"
        "              - expected_tools: [refund]\n"
        "              - expected_tools: [{name: escalate, count: 3}]\n"
        "                max_calls: 2\n",
        encoding="utf-8",
    )
    done = toolmatch("lint", spec)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines() == [
        f"{spec}:4: test_cases[0](refund).one_of[0].expected_tools[0]: can never pass: it needs "
        "2 matching calls and the turn's max_calls is 1 [count-above-max-calls]",
        f"{spec}:10: test_cases[0](refund).one_of[1].turns[1].one_of[1].expected_tools[0]: can "
        "never pass: it needs 3 matching calls and the turn's max_calls is 2 "
        "[count-above-max-calls]",
        "2 findings",
    ]


def test_coverage_counts_the_chosen_alternative(tmp_path: Path) -> None:
    spec, runs = write_runs(tmp_path)
    done = toolmatch("check", spec, runs, "--coverage", "--no-progress")
    assert done.returncode == 1, done.stderr
    assert [line for line in done.stdout.splitlines() if line.startswith("COVERAGE")] == [
        "COVERAGE tool     calls matched ignored",
        "COVERAGE escalate     1       1       0",
        "COVERAGE lookup       1       1       0",
        "COVERAGE notify       1       0       0",
        "COVERAGE refund       2       1       0",
    ]


def test_every_turn_of_a_case_with_alternatives() -> None:
    [case] = load_test_cases({"test_cases": [{"name": "c", "one_of": [
        {"expected_tools": ["a"]},
        {"turns": [{"expected_tools": ["b"]}, {"one_of": [{"expected_tools": ["c"]},
                                                         {"expected_tools": ["d"]}]}]},
    ]}]})  # fmt: skip
    names = [turn.expected_tools[0].name for turn in case.every_turn()]
    assert names == ["a", "b", "c", "d"]
