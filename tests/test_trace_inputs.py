"""`toolmatch check` on other trace envelopes and gzip files, run as a subprocess."""

from __future__ import annotations

import gzip
import json
import re
from functools import partial
from pathlib import Path

import pytest

import commands

SPEC = {
    "test_cases": [
        {"name": "search", "expected_tools": ["search"]},
        {"name": "other", "expected_tools": ["fetch"]},
    ]
}
SEARCH_MESSAGES = [
    {"role": "user", "content": "find it"},
    {
        "role": "assistant",
        "tool_calls": [
            {"id": "1", "type": "function", "function": {"name": "web_search", "arguments": "{}"}}
        ],
    },
]
RECORDS = [
    {"info": {"task_id": "search"}, "traj": SEARCH_MESSAGES},
    {"info": {}, "traj": []},
    # the field holds the messages as JSON text
    {"info": {"task_id": "other"}, "traj": json.dumps([{"role": "assistant", "content": "hi"}])},
    {"info": {"task_id": "other"}},
]
EXPECTED = [
    "PASS search",
    "ERROR {path}:2: no 'info.task_id' field (--case-key) in this record",
    "FAIL other",
    "  turn 0, expected_tools[0]: ExpectedTool('fetch')",
    "    expected 1 matching call(s), got 0: no call's name contains 'fetch': the turn has no calls",
    "ERROR {path}:4: no 'traj' field (--turns-key) in this record",
    # the bad line 4 is a run of other: other ran twice
    "TRIALS search: 1/1 passed, pass^1 1.000",
    "TRIALS other: 0/2 passed, pass^1 0.000, pass^2 0.000",
    "TRIALS mean over 2 cases: pass^1 0.500, pass^2 0.000 (1 case)",
    "2 errors",
    "1 passed, 1 failed",
]
ENVELOPE = ("--case-key", "info.task_id", "--turns-key", "traj", "--one-turn")


toolmatch = partial(commands.toolmatch, "check", timeout=120)


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC))
    return path


def lines(records: list[dict[str, object]]) -> str:
    return "".join(json.dumps(record) + "\n" for record in records)


@pytest.mark.parametrize("name", ["runs.jsonl", "runs.jsonl.gz"])
def test_another_envelope_one_turn_a_record(spec: Path, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    if name.endswith(".gz"):
        with gzip.open(path, "wt", encoding="utf-8") as file:
            file.write(lines(RECORDS))
    else:
        path.write_text(lines(RECORDS))
    done = toolmatch(spec, path, *ENVELOPE)
    assert done.stdout.splitlines() == [line.format(path=path) for line in EXPECTED]
    assert (done.returncode, done.stderr) == (1, "")


def test_jobs_read_the_envelope_too(spec: Path, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(lines(RECORDS * 50))
    one = toolmatch(spec, path, *ENVELOPE, "--format", "json")
    two = toolmatch(spec, path, *ENVELOPE, "--format", "json", "--jobs", "2")
    assert two.stdout == one.stdout
    summary = json.loads(one.stdout.splitlines()[-1])
    assert {key: summary[key] for key in list(summary)[:8]} == {
        "type": "summary",
        "passed": 50,
        "failed": 50,
        "errors": 100,
        "missing": 0,
        "lines": 200,
        "cases": 2,
        "pass_rate": 0.5,  # search's 50 of 50, other's 0 of 100 (its 50 bad lines are runs)
    }
    assert len(summary["pass_k"]) == 100
    assert (summary["pass_k"]["50"], summary["pass_k"]["51"]) == (0.5, 0.0)


def test_turns_as_json_text_need_no_option(spec: Path, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    records = [
        {"case": "search", "turns": json.dumps([[{"name": "search"}]])},
        {"case": "other", "turns": "[[{"},
    ]
    path.write_text(lines(records))
    done = toolmatch(spec, path)
    assert done.stdout.splitlines() == [
        "PASS search",
        f"ERROR {path}:2: the turns are text that is not JSON: "
        "Expecting property name enclosed in double quotes: line 1 column 4 (char 3)",
        "1 error",
        "1 passed, 0 failed",
    ]


def test_without_one_turn_the_field_is_a_list_of_turns(spec: Path, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_text(lines([{"id": "search", "steps": [[{"name": "search"}]]}]))
    done = toolmatch(spec, path, "--case-key", "id", "--turns-key", "steps")
    assert done.stdout.splitlines()[0] == "PASS search"


def test_a_cut_off_gzip_file_stops_the_run(spec: Path, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl.gz"
    path.write_bytes(gzip.compress(lines(RECORDS).encode())[:-12])
    done = toolmatch(spec, path, *ENVELOPE)
    assert done.returncode == 2
    # where it stops depends on how much gzip reads ahead of the lines given out
    assert re.fullmatch(
        f"toolmatch: cannot read the traces {re.escape(str(path))}: Compressed file ended "
        r"before the end-of-stream marker was reached; the lines from line \d on were not "
        r"checked\n",
        done.stderr,
    )


def test_a_gz_name_that_is_not_gzip(spec: Path, tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl.gz"
    path.write_text(lines(RECORDS))
    done = toolmatch(spec, path)
    assert (done.returncode, done.stdout) == (2, "")
    assert (
        done.stderr == f"toolmatch: cannot read the traces {path}: Not a gzipped file (b'{{\"')\n"
    )
