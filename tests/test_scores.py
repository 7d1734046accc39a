"""The score line of a turn that expects no call: only `never` and caps (docs/selection.md,
Scores), in Python, in the text, HTML and JSON renderings, in check_runs and in
`toolmatch check --format json`."""

from __future__ import annotations

import itertools
import json
from functools import partial
from pathlib import Path
from typing import Any

from hypothesis import assume, given
from hypothesis import strategies as st

import commands
from toolmatch import ConfigError, ExpectedTool, check_runs, check_turn, load_test_cases

toolmatch = partial(commands.toolmatch, "check")


def test_a_never_only_turn_counts_its_broken_nevers_instead_of_precision_and_recall() -> None:
    calls = [{"name": "delete"}, {"name": "search"}]
    result = check_turn(
        [ExpectedTool.never("delete"), ExpectedTool("log", max_count=2, count=0)], calls
    )
    assert not result.passed
    assert (result.precision, result.recall, result.f1) == (None, None, None)
    assert result.never_broken == (1, 2)
    assert result.score_text() == "never: 1 of 2 broken"
    assert str(result).splitlines()[1] == "  score: never: 1 of 2 broken"
    assert "score: never: 1 of 2 broken" in result._repr_html_()
    data = result.as_dict()
    assert (data["precision"], data["recall"], data["f1"]) == (None, None, None)
    assert data["never"] == {"broken": 1, "of": 2}


def test_a_passing_never_only_turn_reads_as_nothing_broken() -> None:
    # before: precision 0/2 = 0.00, recall 0/0 = 1.00, f1 0.00 beside a pass
    result = check_turn([ExpectedTool.never("delete")], [{"name": "search"}, {"name": "fetch"}])
    assert result.passed
    assert (result.score_text(), result.never_broken) == ("never: 0 of 1 broken", (0, 1))
    assert check_turn([ExpectedTool.never("delete")], []).score_text() == "never: 0 of 1 broken"


def test_other_turns_keep_their_ratios() -> None:
    mixed = check_turn([ExpectedTool.never("delete"), ExpectedTool("search")], [{"name": "search"}])
    assert mixed.score_text() == "precision 1/1 = 1.00, recall 1/1 = 1.00, f1 1.00"
    assert mixed.never_broken is None
    assert "never" not in mixed.as_dict()
    # a turn with no expectation at all asserts nothing: its ratios over nothing are 1
    empty = check_turn([], [])
    assert (empty.precision, empty.recall, empty.f1, empty.never_broken) == (1.0, 1.0, 1.0, None)


def test_check_runs_scores_a_never_only_turn_by_the_share_kept() -> None:
    cases = load_test_cases(
        {
            "test_cases": [
                {
                    "name": "safe",
                    "expected_tools": [
                        {"name": "delete", "never": True},
                        {"name": "drop", "never": True},
                    ],
                }
            ]
        }
    )
    runs = [
        {"case": "safe", "turns": [[{"name": "search"}]]},
        {"case": "safe", "turns": [[{"name": "delete"}]]},
    ]
    assert [(row["passed"], row["score"]) for row in check_runs(cases, runs)] == [
        (True, 1.0),
        (False, 0.5),
    ]


def test_the_json_report_gives_the_never_count(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n  - name: safe\n    expected_tools: [{name: delete, never: true}]\n",
        encoding="utf-8",
    )
    stdin = commands.jsonl({"case": "safe", "turns": [[{"name": "delete"}]]})
    [row, _] = toolmatch(spec, "-", "--format", "json", stdin=stdin).stdout.splitlines()[:2]
    [turn] = json.loads(row)["turns"]
    assert {key: turn[key] for key in ("precision", "recall", "f1", "never")} == {
        "precision": None,
        "recall": None,
        "f1": None,
        "never": {"broken": 1, "of": 1},
    }


def _best_pairing(
    expectations: list[tuple[str, int, int | None]], calls: list[str]
) -> tuple[int, int]:
    """The most calls paired and expected calls met, by trying every pairing."""
    caps = [
        count + (most - count if count and most is not None else 0)
        for _, count, most in expectations
    ]
    options = [
        [None, *(n for n, (name, _, _) in enumerate(expectations) if name == call)]
        for call in calls
    ]
    matched = met = 0
    for choice in itertools.product(*options):
        got = [choice.count(number) for number in range(len(expectations))]
        if all(taken <= cap for taken, cap in zip(got, caps, strict=True)):
            matched = max(matched, sum(got))
        counts = [count for _, count, _ in expectations]
        met = max(met, sum(min(taken, count) for taken, count in zip(got, counts, strict=True)))
    return matched, met


_EXPECTATION = st.tuples(
    st.sampled_from("abc"), st.integers(0, 2), st.one_of(st.none(), st.integers(0, 2))
).map(lambda parts: (parts[0], parts[1], None if parts[2] is None else parts[1] + parts[2]))


@given(
    expectations=st.lists(_EXPECTATION, min_size=1, max_size=4),
    calls=st.lists(st.sampled_from("abcd"), max_size=6),
)
def test_precision_and_recall_count_the_best_pairing(
    expectations: list[tuple[str, int, int | None]], calls: list[str]
) -> None:
    # Calls matched by one expectation only or by several: each turn's pairing is the best.
    tools = [
        ExpectedTool(name, count=count, max_count=most)
        for name, count, most in expectations
        if count or most is not None
    ]
    assume(tools)
    result = check_turn(tools, [{"name": name} for name in calls])
    kept = [(t.name, t.count, t.max_count) for t in tools]
    assert (result.matched_calls, result.met_calls) == _best_pairing(kept, calls)


def test_each_json_dict_of_a_check_is_its_own() -> None:
    # The expectation's part is made once; the dicts handed out are still copies.
    tool = ExpectedTool("search", {"filters": {"city": "paris"}, "tags": ["a"]})
    first = tool.check([{"name": "search"}]).as_dict()
    first["args"]["filters"]["city"] = "rome"
    first["args"]["tags"].append("b")
    first["expected_tool"] = "changed"
    second = tool.check([{"name": "search"}]).as_dict()
    assert second["args"] == {"filters": {"city": "paris"}, "tags": ["a"]}
    assert (
        second["expected_tool"]
        == "ExpectedTool('search', {'filters': {'city': 'paris'}, 'tags': ['a']})"
    )


def _share(result: Any) -> float:
    """A turn's one number from its public scores: the f1, or the share of nevers kept."""
    if result.f1 is not None:
        return float(result.f1)
    broken, of = result.never_broken
    return (of - broken) / of


_TOOL = st.fixed_dictionaries(
    {"name": st.sampled_from("abc")},
    optional={
        "count": st.integers(0, 2),
        "max_count": st.integers(2, 3),
        "never": st.just(True),
        "args": st.fixed_dictionaries({}, optional={"x": st.integers(0, 1)}),
    },
).filter(lambda tool: not (tool.get("never") and ("count" in tool or "max_count" in tool)))
_TURN = st.fixed_dictionaries(
    {"expected_tools": st.lists(_TOOL, max_size=3)},
    optional={
        "distinct": st.booleans(),
        "ordered": st.booleans(),
        "exhaustive": st.booleans(),
        "max_calls": st.integers(0, 3),
        "ignore": st.just(["d"]),
    },
)
_CALL = st.fixed_dictionaries(
    {"name": st.sampled_from("abcd")},
    optional={"args": st.fixed_dictionaries({}, optional={"x": st.integers(0, 1)})},
)


@given(
    turns=st.lists(_TURN, min_size=1, max_size=2),
    other=st.one_of(st.none(), st.lists(_TURN, min_size=1, max_size=2)),
    runs=st.lists(st.lists(st.lists(_CALL, max_size=4), max_size=3), min_size=1, max_size=4),
)
def test_check_runs_scores_every_run_as_its_turns_results_score(
    turns: list[dict[str, Any]], other: list[dict[str, Any]] | None, runs: list[list[Any]]
) -> None:
    # Passing runs are scored from their verdicts, failing ones from their results: both
    # give the mean of what the results say of each turn, with or without a case's one_of.
    case: dict[str, Any] = {"name": "c", "turns": turns}
    if other is not None:
        case = {"name": "c", "one_of": [{"turns": turns}, {"turns": other}]}
    try:
        [loaded] = load_test_cases({"test_cases": [case]})
    except ConfigError:  # options that cannot go together (exhaustive with max_count, ...)
        assume(False)
        return
    rows = list(check_runs([loaded], [{"case": "c", "turns": run} for run in runs]))
    for run, row in zip(runs, rows, strict=True):
        results = loaded.check(run)
        assert row["passed"] is all(result.passed for result in results)
        assert row["score"] == sum(map(_share, results)) / len(results)
