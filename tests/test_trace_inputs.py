"""`toolmatch check` on other trace envelopes, gzip files and pipes, run as a subprocess."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
import threading
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
    one = toolmatch(spec, path, *ENVELOPE, "--format", "json", "--pass-k", "all")
    two = toolmatch(spec, path, *ENVELOPE, "--format", "json", "--pass-k", "all", "--jobs", "2")
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
    assert summary["k"] == list(range(1, 101))
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


def runs_of_every_length() -> tuple[bytes, list[tuple[int, str]]]:
    """JSON Lines whose lines cross the reads a file is read by, one line longer than several
    reads, blank lines, a CRLF line and a last line without a newline; and each run's line
    number and case, as a line-by-line reading numbers them."""
    texts, expected = [], []
    for index in range(600):
        padding = "x" * (index * 7919 % 5000)
        if index == 200:
            padding = "y" * 300_000
        case = "other" if index % 3 == 0 else "search"
        turn = [{"name": "web_search", "args": {"pad": padding}}]
        texts.append(json.dumps({"case": case, "turns": [turn]}) + ("\r" if index == 5 else ""))
        expected.append((len(texts), case))
        if index % 50 == 7:
            texts.append("")
        if index % 70 == 3:
            texts.append("  \r")
    return "\n".join(texts).encode(), expected


def test_lines_keep_their_numbers_across_reads_whatever_their_length(
    spec: Path, tmp_path: Path
) -> None:
    data, expected = runs_of_every_length()
    plain, packed = tmp_path / "runs.jsonl", tmp_path / "runs.jsonl.gz"
    plain.write_bytes(data)
    packed.write_bytes(gzip.compress(data))
    done = toolmatch(spec, plain, "--format", "json")
    assert done.returncode == 1, done.stderr
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(row["line"], row["case"]) for row in rows if row["type"] == "case"] == expected
    for other in (
        toolmatch(spec, plain, "--format", "json", "--jobs", "2"),
        toolmatch(spec, packed, "--format", "json"),
        toolmatch(spec, packed, "--format", "json", "--jobs", "2"),
        commands.toolmatch(
            "check", spec, "-", "--format", "json", stdin=data.decode(), timeout=120
        ),
    ):
        assert (other.returncode, other.stdout, other.stderr) == (1, done.stdout, "")


def test_one_process_checks_a_pipe_s_runs_as_they_come(spec: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "toolmatch", "check", str(spec), "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdin is not None
    assert process.stdout is not None
    watchdog = threading.Timer(60, process.kill)  # a run never reported fails, not hangs
    watchdog.start()
    try:
        for title in (b"search", b"search (run 2)", b"search (run 3)"):
            record = {"case": "search", "turns": [[{"name": "web_search"}]]}
            process.stdin.write(json.dumps(record).encode() + b"\n")
            process.stdin.flush()  # the pipe stays open: its next line is not written yet
            assert process.stdout.readline() == b"PASS " + title + b"\n"
        process.stdin.close()
        assert process.wait(60) == 1  # the case "other" never ran
    finally:
        watchdog.cancel()
        process.kill()
        process.stdout.close()
