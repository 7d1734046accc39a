"""The score line of a turn that expects no call: only `never` and caps (docs/selection.md,
Scores), in Python, in the text, HTML and JSON renderings, in check_runs and in
`toolmatch check --format json`."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import commands
from toolmatch import ExpectedTool, check_runs, check_turn, load_test_cases

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
