"""``toolmatch check --coverage``: per tool, the calls seen, matched and ignored, and the
defined tools never called (docs/cli.md, "Coverage"), run as the command, outputs exact."""

from __future__ import annotations

import json
from pathlib import Path

from commands import jsonl, toolmatch

SPEC = {
    "test_cases": [
        {
            "name": "a",
            "turns": [
                {"expected_tools": ["search"], "ignore": ["log"]},
                {"expected_tools": [{"name": "fetch", "never": True}]},
            ],
        },
        {"name": "b", "expected_tools": [{"name": "search", "args": {"q": "x"}}], "ordered": True},
    ]
}
RUNS = [
    # search twice, both matching (not distinct); log ignored; fetch matched only by a never
    {"case": "a", "turns": [
        [{"name": "search"}, {"name": "log"}, {"name": "search"}], [{"name": "fetch"}, {"name": "web"}]
    ]},
    # an ordered turn: one of the matching calls is assigned, both match
    {"case": "b", "turns": [[{"name": "search", "args": {"q": "x"}}, {"name": "search", "args": {"q": "x"}}]]},
    # the first turn fails: the second is still counted
    {"case": "a", "turns": [[{"name": "other"}], [{"name": "fetch"}]]},
    {"case": "nope", "turns": [[{"name": "search"}]]},  # an error: no call counted
]  # fmt: skip


def files(tmp_path: Path) -> tuple[Path, str]:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    return spec, jsonl(*RUNS)


def test_a_table_after_the_summary(tmp_path: Path) -> None:
    spec, runs = files(tmp_path)
    done = toolmatch("check", spec, "-", "--coverage", stdin=runs)
    assert done.returncode == 1
    assert done.stdout.splitlines()[-7:] == [
        "1 passed, 2 failed",
        "COVERAGE tool   calls matched ignored",
        "COVERAGE fetch      2       0       0",
        "COVERAGE log        1       0       1",
        "COVERAGE other      1       0       0",
        "COVERAGE search     4       4       0",
        "COVERAGE web        1       0       0",
    ]
    without = toolmatch("check", spec, "-", stdin=runs)
    assert done.stdout.splitlines()[:-6] == without.stdout.splitlines()


def test_defined_tools_never_called(tmp_path: Path) -> None:
    spec, runs = files(tmp_path)
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"name": "search"}, {"name": "refund"}, {"name": "log"}]))
    done = toolmatch("check", spec, "-", "--coverage", "--tools", tools, stdin=runs)
    assert done.stdout.splitlines()[-7:] == [
        "COVERAGE tool   calls matched ignored defined",
        "COVERAGE fetch      2       0       0 no",
        "COVERAGE log        1       0       1 yes",
        "COVERAGE other      1       0       0 no",
        "COVERAGE search     4       4       0 yes",
        "COVERAGE web        1       0       0 no",
        "COVERAGE defined, never called: refund",
    ]


def test_the_spec_tools_are_defined_tools(tmp_path: Path) -> None:
    tools = tmp_path / "tools.json"
    tools.write_text(json.dumps([{"name": "search"}, {"name": "fetch"}]))
    spec = tmp_path / "spec.json"
    case = {"name": "a", "tools": "tools.json", "expected_tools": ["search"]}
    spec.write_text(json.dumps({"test_cases": [case]}))
    done = toolmatch("check", spec, "-", "--coverage", stdin=jsonl({"case": "a", "turns": [[]]}))
    assert done.stdout.splitlines()[-2:] == [
        "COVERAGE no calls",
        "COVERAGE defined, never called: search, fetch",
    ]


def test_json_a_final_row(tmp_path: Path) -> None:
    spec, runs = files(tmp_path)
    done = toolmatch("check", spec, "-", "--coverage", "--format", "json", stdin=runs)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [row["type"] for row in rows[-2:]] == ["summary", "coverage"]
    assert rows[-1] == {
        "type": "coverage",
        "tools": [
            {"tool": "fetch", "calls": 2, "matched": 0, "ignored": 0, "defined": None},
            {"tool": "log", "calls": 1, "matched": 0, "ignored": 1, "defined": None},
            {"tool": "other", "calls": 1, "matched": 0, "ignored": 0, "defined": None},
            {"tool": "search", "calls": 4, "matched": 4, "ignored": 0, "defined": None},
            {"tool": "web", "calls": 1, "matched": 0, "ignored": 0, "defined": None},
        ],
        "never_called": None,
    }


def test_summed_across_workers(tmp_path: Path) -> None:
    # Enough runs for several tasks (a task is at most 1,024 records) in each of 2 workers.
    spec, _ = files(tmp_path)
    runs = tmp_path / "runs.jsonl"
    runs.write_text(jsonl(*RUNS * 1500), encoding="utf-8")
    one = toolmatch("check", spec, runs, "--coverage", "--format", "json")
    two = toolmatch("check", spec, runs, "--coverage", "--format", "json", "--jobs", "2")
    assert one.stdout == two.stdout
    last = json.loads(two.stdout.splitlines()[-1])
    assert last["tools"][3] == {
        "tool": "search", "calls": 6000, "matched": 6000, "ignored": 0, "defined": None
    }  # fmt: skip
