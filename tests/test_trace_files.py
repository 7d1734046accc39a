"""`toolmatch check` on a directory of traces, `.json` files and Parquet, run as a subprocess;
each bad line, row or item reported with its file and place; `--jobs 2` and `--jobs auto`."""

from __future__ import annotations

import gzip
import itertools
import json
import multiprocessing
import os
import select
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from commands import DYING_JUDGE, peak_rss_kib
from commands import jsonl as lines
from toolmatch._runs.envelope import RecordError
from toolmatch._runs.traces import Place, TracesSource, read_item, trace_items
from toolmatch._runs.workers import _CHUNK as CHUNK

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

TIMEOUT = 120
SPEC = {
    "test_cases": [
        {"name": "search", "expected_tools": ["search"]},
        {"name": "other", "expected_tools": ["fetch"]},
    ]
}
SEARCH = {"case": "search", "turns": [[{"name": "search"}]]}
EMPTY_SEARCH = {"case": "search", "turns": [[]]}
FETCH = {"case": "other", "turns": [[{"name": "fetch"}]]}
NO_FETCH = {"case": "other", "turns": [[{"name": "x"}]]}
NO_SEARCH_CALL = [
    "  turn 0, expected_tools[0]: ExpectedTool('search')",
    "    expected 1 matching call(s), got 0: no call's name contains 'search': the turn has no calls",
]
NO_FETCH_CALL = [
    "  turn 0, expected_tools[0]: ExpectedTool('fetch')",
    "    expected 1 matching call(s), got 0: no call's name contains 'fetch'; the turn called 'x'",
]
BLOCK_PYARROW = "import sys\nsys.modules['pyarrow'] = None\n"
MAIN = "\nfrom toolmatch._cli.main import main\nsys.exit(main(sys.argv[1:]))\n"


def toolmatch(
    *args: str | Path, cwd: Path | None = None, before: str = ""
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "toolmatch", "check", *map(str, args)]
    if before:
        command = [sys.executable, "-c", "import sys\n" + before + MAIN, "check", *map(str, args)]
    return subprocess.run(
        command, capture_output=True, text=True, check=False, timeout=TIMEOUT, cwd=cwd
    )


def write_parquet(path: Path, columns: dict[str, list[object]], rows_per_group: int = 2) -> None:
    pq.write_table(pa.table(columns), path, row_group_size=rows_per_group)


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(SPEC))
    return path


def mixed_directory(root: Path) -> Path:
    """Every kind of trace file, with bad records in several of them, and what is skipped."""
    runs = root / "runs"
    (runs / "sub").mkdir(parents=True)
    (runs / "a.jsonl").write_text(lines(SEARCH, "", "oops"))
    with gzip.open(runs / "sub" / "b.jsonl.gz", "wt") as file:
        file.write(lines(FETCH, {"case": "nope", "turns": []}))
    (runs / "c.json").write_text(json.dumps([SEARCH, EMPTY_SEARCH, 5], indent=2))
    (runs / "d.json").write_text("\n\n" + json.dumps(NO_FETCH, indent=1))  # one run, on line 3
    (runs / "e.json").write_text(lines({"case": "other", "turns": []}, SEARCH))  # JSON Lines
    write_parquet(
        runs / "f.parquet",
        {
            "case": ["search", "bogus", "other"],
            "turns": [json.dumps(SEARCH["turns"]), "[]", "[[{"],
        },
    )
    # skipped: hidden and underscored entries quietly, other files with a warning
    (runs / ".hidden").mkdir()
    (runs / ".hidden" / "x.jsonl").write_text(lines({"case": "nope"}))
    (runs / "_temporary").mkdir()
    (runs / "_temporary" / "y.jsonl").write_text(lines({"case": "nope"}))
    (runs / "_SUCCESS").write_text("")
    (runs / "notes.txt").write_text("not traces\n")
    return runs


MIXED_TEXT = [
    "PASS search at runs/a.jsonl:1",
    "ERROR runs/a.jsonl:3: invalid JSON: Expecting value at column 1",
    "PASS search (run 2) at runs/c.json:item 1",
    "FAIL search (run 3) at runs/c.json:item 2",
    *NO_SEARCH_CALL,
    'ERROR runs/c.json:item 3: a run must be a JSON object {"case": NAME, "turns": [...]}, got 5 (int)',
    "FAIL other at runs/d.json:3",
    *NO_FETCH_CALL,
    "FAIL other (run 2) at runs/e.json:1",
    "  turn 0: turn 0 has no calls: got 0 call turn(s) for 1 expected turn(s)",
    "PASS search (run 4) at runs/e.json:2",
    "PASS search (run 5) at runs/f.parquet:row 1",
    "ERROR runs/f.parquet:row 2: unknown case 'bogus'; the spec has 'search', 'other'",
    "ERROR runs/f.parquet:row 3: the turns are text that is not JSON: Expecting property name "
    "enclosed in double quotes: line 1 column 4 (char 3)",
    "PASS other (run 4) at runs/sub/b.jsonl.gz:1",
    "ERROR runs/sub/b.jsonl.gz:2: unknown case 'nope'; the spec has 'search', 'other'",
    # f.parquet's row 3 is a run of other's that could not be checked: a failed trial
    "TRIALS search: 4/5 passed, pass^1 0.800, pass^2 0.600, pass^4 0.200, pass^5 0.000",
    "FLAKY search: turns[0].expected_tools[0] ExpectedTool('search'): failed in 1 of 5 runs (0.20)",
    "TRIALS other: 1/4 passed, pass^1 0.250, pass^2 0.000, pass^4 0.000",
    # of the 3 runs of other that were checked
    "FLAKY other: turns[0].expected_tools[0] ExpectedTool('fetch'): failed in 1 of 3 runs (0.33)",
    "FLAKY other: turns the case's 1 turn(s): failed in 1 of 3 runs (0.33)",
    "TRIALS mean over 2 cases: pass^1 0.525, pass^2 0.300, pass^4 0.100, pass^5 0.000 (1 case)",
    "5 errors",
    "5 passed, 3 failed",
]
SKIPPED_WARNING = (
    "warning: skipped runs/notes.txt: not a .jsonl, .jsonl.gz, .json or .parquet file\n"
)


def test_a_directory_of_every_kind_reports_each_record_at_its_file(
    spec: Path, tmp_path: Path
) -> None:
    mixed_directory(tmp_path)
    done = toolmatch(spec, "runs", cwd=tmp_path)
    assert done.stdout.splitlines() == MIXED_TEXT
    assert (done.returncode, done.stderr) == (1, SKIPPED_WARNING)
    # the directory named with a slash at its end: the same files, the same names
    assert toolmatch(spec, "runs/", cwd=tmp_path).stdout.splitlines() == MIXED_TEXT


def test_a_directory_in_json_lines_gives_each_row_its_file(spec: Path, tmp_path: Path) -> None:
    mixed_directory(tmp_path)
    done = toolmatch(spec, "runs", "--format", "json", cwd=tmp_path)
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    places = [
        {key: row[key] for key in row if key in ("type", "file", "line", "row", "item")}
        for row in rows
    ]
    assert places == [
        {"type": "case", "file": "runs/a.jsonl", "line": 1},
        {"type": "error", "file": "runs/a.jsonl", "line": 3},
        {"type": "case", "file": "runs/c.json", "item": 1},
        {"type": "case", "file": "runs/c.json", "item": 2},
        {"type": "error", "file": "runs/c.json", "item": 3},
        {"type": "case", "file": "runs/d.json", "line": 3},
        {"type": "case", "file": "runs/e.json", "line": 1},
        {"type": "case", "file": "runs/e.json", "line": 2},
        {"type": "case", "file": "runs/f.parquet", "row": 1},
        {"type": "error", "file": "runs/f.parquet", "row": 2},
        {"type": "error", "file": "runs/f.parquet", "row": 3},
        {"type": "case", "file": "runs/sub/b.jsonl.gz", "line": 1},
        {"type": "error", "file": "runs/sub/b.jsonl.gz", "line": 2},
        {"type": "trials"},
        {"type": "check"},
        {"type": "trials"},
        {"type": "check"},
        {"type": "check"},
        {"type": "summary"},
    ]
    assert list(rows[0])[:6] == ["type", "case", "run", "file", "line", "passed"]
    assert list(rows[1]) == ["type", "file", "line", "message"]
    # every line, row and item read, the blank line too
    assert rows[-1] == {
        "type": "summary",
        "passed": 5,
        "failed": 3,
        "errors": 5,
        "missing": 0,
        "lines": 14,
        "cases": 2,
        "pass_rate": 0.525,
        "k": [1, 2, 4, 5],
        "pass_k": {"1": 0.525, "2": 0.3, "4": 0.1, "5": 0.0},
    }


def test_a_directory_in_junit_gives_each_test_its_file(spec: Path, tmp_path: Path) -> None:
    mixed_directory(tmp_path)
    report = tmp_path / "report.xml"
    toolmatch(spec, "runs", "--junit-xml", report, cwd=tmp_path)
    suite = ElementTree.parse(report).getroot()[0]
    cases = [
        (case.get("name"), case.get("file"), case.get("line")) for case in suite.iter("testcase")
    ]
    assert cases[:3] == [
        ("search at runs/a.jsonl:1", "runs/a.jsonl", "1"),
        ("runs/a.jsonl:3", "runs/a.jsonl", "3"),
        ("search (run 2) at runs/c.json:item 1", "runs/c.json", None),  # an item has no line
    ]
    assert cases[9] == ("runs/f.parquet:row 2", "runs/f.parquet", None)
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("13", "3", "5")


@pytest.mark.parametrize("output", [(), ("--format", "json")])
def test_jobs_give_the_same_output_on_a_directory(
    spec: Path, tmp_path: Path, output: tuple[str, ...]
) -> None:
    runs = mixed_directory(tmp_path)
    # more records than a worker's chunk, in several files of each kind
    (runs / "g.jsonl").write_text(lines(*[SEARCH, NO_FETCH, "{"] * 50))
    write_parquet(
        runs / "h.parquet",
        {"case": ["search", "other", "nope"] * 50, "turns": [json.dumps(SEARCH["turns"])] * 150},
        rows_per_group=16,
    )
    (runs / "i.json").write_text(json.dumps([SEARCH, FETCH, 1] * 50))
    one = toolmatch(spec, "runs", *output, "--junit-xml", "one.xml", cwd=tmp_path)
    two = toolmatch(spec, "runs", *output, "--jobs", "2", "--junit-xml", "two.xml", cwd=tmp_path)
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert len(one.stdout.splitlines()) > 450
    assert (tmp_path / "one.xml").read_text() == (tmp_path / "two.xml").read_text()


def test_files_are_read_in_the_order_of_their_paths_name_by_name(
    spec: Path, tmp_path: Path
) -> None:
    runs = tmp_path / "runs"
    (runs / "a").mkdir(parents=True)
    for name in ("a.jsonl", "a/b.jsonl", "a-b.jsonl", "B.jsonl", "a/a.json"):
        (runs / name).write_text(lines({"case": "nope", "turns": []}))
    done = toolmatch(spec, "runs", cwd=tmp_path)
    # each folder's names in code point order, a folder's files where its name sorts
    assert [line.partition(":")[0] for line in done.stdout.splitlines()[:5]] == [
        "ERROR runs/B.jsonl",
        "ERROR runs/a/a.json",
        "ERROR runs/a/b.jsonl",
        "ERROR runs/a-b.jsonl",
        "ERROR runs/a.jsonl",
    ]


def test_a_directory_without_traces_is_an_error(spec: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    done = toolmatch(spec, empty)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"toolmatch: no traces in the directory {empty}: no .jsonl, .jsonl.gz, .json or "
        ".parquet file under it\n"
    )
    # what is skipped does not count: hidden files, a writer's own files, other kinds
    (empty / ".runs.jsonl").write_text(lines(SEARCH))
    (empty / "_SUCCESS").write_text("")
    (empty / "runs.csv").write_text("case,turns\n")
    assert toolmatch(spec, empty).stderr == done.stderr


def test_several_skipped_files_are_one_warning(spec: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "ok.jsonl").write_text(lines(SEARCH, FETCH))
    for name in ("a.txt", "b.csv", "c.ndjson", "d.json.gz", "e.yaml"):
        (runs / name).write_text("x")
    done = toolmatch(spec, "runs", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stderr == (
        "warning: skipped 5 entries of runs that are not .jsonl, .jsonl.gz, .json or .parquet "
        "files: runs/a.txt, runs/b.csv, runs/c.ndjson and 2 more\n"
    )


def test_a_file_that_cannot_be_read_stops_the_run_where_it_is(spec: Path, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.jsonl").write_text(lines(*[SEARCH] * 70))
    (runs / "b.jsonl.gz").write_text(lines(SEARCH))  # not gzip
    (runs / "c.jsonl").write_text(lines(SEARCH))
    for jobs in ("1", "2"):
        done = toolmatch(spec, "runs", "--jobs", jobs, "--junit-xml", "report.xml", cwd=tmp_path)
        assert done.returncode == 2
        # every run read before it is reported, with --jobs too
        assert len(done.stdout.splitlines()) == 70
        message = (
            "cannot read the traces runs/b.jsonl.gz: Not a gzipped file (b'{\"'); the runs from "
            "runs/b.jsonl.gz:1 on were not checked"
        )
        assert done.stderr == f"toolmatch: {message}\n"
        last = ElementTree.parse(tmp_path / "report.xml").getroot()[0][-1]
        assert (last.get("name"), last[0].get("message")) == ("toolmatch check", message)


def test_the_report_may_not_replace_a_file_of_the_directory(spec: Path, tmp_path: Path) -> None:
    runs = mixed_directory(tmp_path)
    before = (runs / "e.json").read_text()
    done = toolmatch(spec, "runs", "--junit-xml", "runs/e.json", cwd=tmp_path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.endswith("toolmatch: cannot write runs/e.json: it is the traces file\n")
    assert (runs / "e.json").read_text() == before


def test_the_spec_in_the_directory_is_not_traces(tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "spec.json").write_text(json.dumps(SPEC))
    (runs / "runs.jsonl").write_text(lines(SEARCH, FETCH))
    done = toolmatch("runs/spec.json", "runs", cwd=tmp_path)
    assert done.stdout.splitlines() == [
        "PASS search at runs/runs.jsonl:1",
        "PASS other at runs/runs.jsonl:2",
        "2 passed, 0 failed",
    ]
    assert (done.returncode, done.stderr) == (0, "")


def test_links_are_followed_but_never_round_in_a_loop_nor_to_a_file_twice(
    spec: Path, tmp_path: Path
) -> None:
    """A file reached twice (here through a link to it and a link to its folder) is read
    once, where it comes first: its runs would otherwise count as two trials each."""
    runs, elsewhere = tmp_path / "runs", tmp_path / "elsewhere"
    runs.mkdir()
    elsewhere.mkdir()
    (elsewhere / "b.jsonl").write_text(lines(FETCH))
    (runs / "a.jsonl").write_text(lines(SEARCH))
    (runs / "more").symlink_to(elsewhere)
    (runs / "loop").symlink_to(runs)  # a link to the folder it is in
    (runs / "c.jsonl").symlink_to(elsewhere / "b.jsonl")
    (runs / "notes.txt").write_text("not traces")
    done = toolmatch(spec, "runs", cwd=tmp_path)
    assert done.stdout.splitlines() == [
        "PASS search at runs/a.jsonl:1",
        "PASS other at runs/c.jsonl:1",
        "2 passed, 0 failed",
    ]
    assert done.stderr.splitlines() == [
        "warning: skipped runs/notes.txt: not a .jsonl, .jsonl.gz, .json or .parquet file",
        "warning: skipped runs/more/b.jsonl: the same file as runs/c.jsonl",
    ]
    assert done.returncode == 0


# .json files ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an empty array, or an empty file, holds no run
        ("[]", []),
        ("", []),
        # one run, reported at the line it begins on
        ("\n" + json.dumps(SEARCH, indent=2), ["PASS search"]),
        (
            json.dumps(SEARCH) + "\n" + json.dumps(EMPTY_SEARCH) + "\n",
            ["PASS search", "FAIL search (run 2)", *NO_SEARCH_CALL],
        ),
        # what is not JSON is one error at its line, in the words used for a JSON Lines line
        (
            '{\n  "case": "search",\n  "turns": [[]],,\n}',
            [
                "ERROR {path}:3: invalid JSON: Expecting property name enclosed in double quotes at column 17"
            ],
        ),
        (
            json.dumps(SEARCH, indent=1) + "\n{}",
            ["ERROR {path}:11: invalid JSON: Extra data at column 1"],
        ),
        # an array's runs are its items; a bad one ends it, since its end cannot be known
        (
            "[\n"
            + json.dumps(SEARCH)
            + ",\n"
            + json.dumps({"case": "nope"})
            + "\n"
            + json.dumps(FETCH)
            + "]",
            [
                "PASS search",
                "ERROR {path}:item 2: unknown case 'nope'; the spec has 'search', 'other'",
                "ERROR {path}:4: invalid JSON: Expecting ',' delimiter at column 1; the rest of the array was not read",
            ],
        ),
        (
            "[" + json.dumps(SEARCH) + "] []",
            ["PASS search", "ERROR {path}:1: invalid JSON: Extra data at column 55"],
        ),
        (
            "[" + json.dumps(SEARCH) + ",]",
            [
                "PASS search",
                "ERROR {path}:1: invalid JSON: Expecting value at column 54; the rest of the array was not read",
            ],
        ),
        (
            '[\n{"case": "search", "turns": [[{"name": "s\xe9arch"}]]}]'.encode("latin-1"),
            ["ERROR {path}:2: not UTF-8 text: byte 41 cannot be decoded"],
        ),
        (
            '{"case": "search", "turns": [[{"name": "search", "args": {"n": %s}}]]}' % ("1" * 5000),
            [
                "ERROR {path}:1: a number of 5,000 digits is longer than the 4,300 digits Python reads; PYTHONINTMAXSTRDIGITS=0 lifts the limit"
            ],
        ),
    ],
)
def test_a_json_file_holds_an_array_of_runs_one_run_or_json_lines(
    spec: Path, tmp_path: Path, text: str | bytes, expected: list[str]
) -> None:
    path = tmp_path / "runs.json"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    done = toolmatch(spec, path)
    shown = [line for line in done.stdout.splitlines() if not line.startswith("MISSING")]
    assert shown[: len(expected)] == [line.format(path=path) for line in expected]


def test_a_json_file_holding_json_lines_reads_as_one(spec: Path, tmp_path: Path) -> None:
    # as Spark's and Ray's JSON writers name their JSON Lines files
    records = [SEARCH, "", "oops", {"case": "nope", "turns": []}, FETCH]
    (tmp_path / "runs.json").write_text(lines(*records))
    (tmp_path / "runs.jsonl").write_text(lines(*records))
    as_json = toolmatch(spec, tmp_path / "runs.json", "--format", "json")
    as_jsonl = toolmatch(spec, tmp_path / "runs.jsonl", "--format", "json")
    assert as_json.stdout == as_jsonl.stdout
    assert json.loads(as_json.stdout.splitlines()[1]) == {
        "type": "error",
        "line": 3,
        "message": "invalid JSON: Expecting value at column 1",
    }


# Parquet -------------------------------------------------------------------------------------


def test_parquet_struct_columns_map_through_the_envelope(spec: Path, tmp_path: Path) -> None:
    messages = [
        {"role": "user", "content": "find it"},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "1",
                    "type": "function",
                    "function": {"name": "web_search", "arguments": "{}"},
                }
            ],
        },
    ]
    path = tmp_path / "runs.parquet"
    write_parquet(
        path,
        {
            "info": [{"task_id": "search"}, {"task_id": "other"}, {"task_id": None}],
            # a column of JSON text, read as the turns
            "traj": [
                json.dumps(messages),
                json.dumps([{"role": "assistant", "content": "hi"}]),
                "[]",
            ],
            "reward": [1.0, 0.0, 0.0],
        },
    )
    done = toolmatch(spec, path, "--case-key", "info.task_id", "--turns-key", "traj", "--one-turn")
    assert done.stdout.splitlines() == [
        "PASS search",
        "FAIL other",
        "  turn 0, expected_tools[0]: ExpectedTool('fetch')",
        "    expected 1 matching call(s), got 0: no call's name contains 'fetch': the turn has no calls",
        f'ERROR {path}:row 3: "case" must be the name of a test case in the spec, got None (NoneType)',
        "1 error",
        "1 passed, 1 failed",
    ]
    assert done.returncode == 1


def test_parquet_list_columns_are_turns(spec: Path, tmp_path: Path) -> None:
    path = tmp_path / "runs.parquet"
    turns = pa.list_(pa.list_(pa.struct([("name", pa.string())])))
    table = pa.table(
        {
            "case": pa.array(["search", "other"]),
            "turns": pa.array([[[{"name": "search"}]], [[{"name": "x"}]]], turns),
        }
    )
    pq.write_table(table, path)
    done = toolmatch(spec, path, "--format", "json")
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(row["type"], row.get("row"), row.get("passed")) for row in rows[:2]] == [
        ("case", 1, True),
        ("case", 2, False),
    ]
    # one file: its name is not repeated, and a row is not a line
    assert "line" not in rows[0]
    assert "file" not in rows[0]


def test_a_parquet_file_without_the_columns_is_an_error_a_row(spec: Path, tmp_path: Path) -> None:
    path = tmp_path / "runs.parquet"
    write_parquet(path, {"task": ["search", "other"]})
    done = toolmatch(spec, path)
    assert done.stdout.splitlines()[:2] == [
        f'ERROR {path}:row 1: "case" must be the name of a test case in the spec, got missing',
        f'ERROR {path}:row 2: "case" must be the name of a test case in the spec, got missing',
    ]
    done = toolmatch(spec, path, "--turns-key", "steps")
    assert done.stdout.splitlines()[0] == (
        f"ERROR {path}:row 1: no 'case' field (--case-key) in this record"
    )
    done = toolmatch(spec, path, "--case-key", "task", "--turns-key", "steps")
    assert done.stdout.splitlines()[0] == (
        f"ERROR {path}:row 1: no 'steps' field (--turns-key) in this record"
    )


def test_bad_rows_are_found_across_many_row_groups(spec: Path, tmp_path: Path) -> None:
    # 5,000 rows in 50 row groups, read a batch at a time: bad rows keep their numbers
    cases = ["search"] * 5000
    for bad in (7, 1024, 1025, 3001, 5000):
        cases[bad - 1] = f"bad{bad}"
    path = tmp_path / "runs.parquet"
    write_parquet(path, {"case": cases, "turns": [json.dumps(SEARCH["turns"])] * 5000}, 100)
    assert pq.ParquetFile(path).metadata.num_row_groups == 50
    for jobs in ("1", "2"):
        done = toolmatch(spec, path, "--jobs", jobs)
        errors = [line for line in done.stdout.splitlines() if line.startswith("ERROR")]
        assert [line.partition(": unknown")[0] for line in errors] == [
            f"ERROR {path}:row {bad}" for bad in (7, 1024, 1025, 3001, 5000)
        ]
        every_k = ", ".join(f"pass^{k} 1.000" for k in (*(2**p for p in range(13)), 4995))
        assert done.stdout.splitlines()[-5:] == [
            f"MISSING other: no run in {path}",
            f"TRIALS search: 4995/4995 passed, {every_k}",
            f"TRIALS mean over 1 case: {every_k}",
            "5 errors, 1 missing",
            "4995 passed, 0 failed",
        ]


def test_trace_items_reads_parquet_a_batch_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "runs.parquet"
    write_parquet(
        path,
        {"case": [f"c{n}" for n in range(3000)], "turns": ["[]"] * 3000, "extra": [1] * 3000},
        rows_per_group=500,
    )
    with TracesSource(str(path)) as reading:
        items = trace_items(reading, columns={"case", "turns"})
        first_number, first = next(items)
        # one batch of rows read, not the file: the progress has counted a part of it
        assert 0 < reading.bytes < path.stat().st_size
        assert (first_number, first) == (1, {"case": "c0", "turns": "[]"})  # only the columns
        rest = list(items)
        assert reading.bytes == path.stat().st_size
    assert [number for number, _ in rest] == list(range(2, 3001))
    assert rest[-1][1] == {"case": "c2999", "turns": "[]"}
    assert reading.place(3000) == Place(str(path), "row", 3000)
    assert str(reading.place(1025)) == f"{path}:row 1025"


def test_trace_items_numbers_records_across_the_files(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(lines(SEARCH, "", FETCH))
    (tmp_path / "b.json").write_text(json.dumps([FETCH, "bad"]))
    write_parquet(tmp_path / "c.parquet", {"case": ["x"], "turns": ["[]"]})
    with TracesSource(str(tmp_path)) as reading:
        items = list(trace_items(reading))
    assert [(number, str(reading.place(number))) for number, _ in items] == [
        (1, f"{tmp_path}/a.jsonl:1"),
        (3, f"{tmp_path}/a.jsonl:3"),
        (4, f"{tmp_path}/b.json:item 1"),
        (5, f"{tmp_path}/b.json:item 2"),
        (6, f"{tmp_path}/c.parquet:row 1"),
    ]
    assert [read_item(item) for _, item in items] == [
        SEARCH,
        FETCH,
        FETCH,
        "bad",
        {"case": "x", "turns": "[]"},
    ]
    assert reading.lines == 6
    with pytest.raises(RecordError, match=r"^invalid JSON: Expecting value at column 1$"):
        read_item(b"oops\n")


def test_a_parquet_file_damaged_inside_stops_after_the_rows_before(
    spec: Path, tmp_path: Path
) -> None:
    path = tmp_path / "runs.parquet"
    rows = 5000
    columns = {"case": ["search"] * rows, "turns": [json.dumps(SEARCH["turns"])] * rows}
    pq.write_table(pa.table(columns), path, row_group_size=1000, compression="none")
    # the header of the first page of the fourth row group's turns, overwritten
    chunk = pq.ParquetFile(path).metadata.row_group(3).column(1)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    data = bytearray(path.read_bytes())
    data[start : start + 64] = b"\xff" * 64
    path.write_bytes(data)
    for jobs in ("1", "2"):
        done = toolmatch(spec, path, "--jobs", jobs)
        assert done.returncode == 2
        # every row read before the damage is reported, and the message says from where on
        # nothing was
        reported = done.stdout.splitlines()
        assert 0 < len(reported) <= 3000
        runs = [f"PASS search (run {number})" for number in range(2, len(reported) + 1)]
        assert reported == ["PASS search", *runs]
        assert done.stderr.startswith(f"toolmatch: cannot read the traces {path}: ")
        assert done.stderr.endswith(
            f"; the rows from row {len(reported) + 1} on were not checked\n"
        )


SHAPE_SPEC = {
    "test_cases": [
        {"name": "anthropic", "expected_tools": [{"name": "search", "args": {"q": "news"}}]},
        {"name": "openai", "expected_tools": [{"name": "fetch", "args": {"id": 7}}, "save"]},
        {
            "name": "plain",
            "turns": [
                {"expected_tools": ["search"]},
                {"expected_tools": [{"name": "book", "args": {"seat": "4C"}, "exact": True}]},
            ],
        },
    ]
}


def shape_runs(shape: str, count: int) -> list[dict[str, object]]:
    """Runs of one provider shape, some failing: a list of turns of the same type each."""
    runs: list[dict[str, object]] = []
    for index in range(count):
        if shape == "anthropic":
            blocks: list[dict[str, object]] = [{"type": "text", "text": "Searching."}]
            query = "old" if index % 3 == 2 else "news"
            blocks += [
                {"type": "tool_use", "id": f"t{index}", "name": "search", "input": {"q": query}},
                {"type": "tool_use", "id": f"u{index}", "name": "log", "input": {"n": index}},
            ]
            turns: list[object] = [{"role": "assistant", "content": blocks}]
        elif shape == "openai":
            names = ["fetch", "save"] if index % 4 else ["fetch"]
            calls = [
                {
                    "id": f"c{index}{name}",
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps({"id": 7})},
                }
                for name in names
            ]
            message = {"role": "assistant", "content": None, "tool_calls": calls}
            turns = [{"choices": [{"index": 0, "message": message}]}]
        else:
            seat = "5D" if index % 5 == 4 else "4C"
            turns = [
                [{"name": "search", "args": {"q": "flights", "page": index}}],
                [{"name": "book", "args": {"seat": seat}}],
            ]
        runs.append({"case": shape, "turns": turns})
    return runs


def test_native_nested_parquet_columns_give_the_verdicts_of_the_same_rows_as_json_lines(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SHAPE_SPEC))
    native, same = tmp_path / "native", tmp_path / "same"
    native.mkdir()
    same.mkdir()
    for shape in ("anthropic", "openai", "plain"):
        # turns as lists and structs; more rows than a batch, in several row groups
        table = pa.Table.from_pylist(shape_runs(shape, 2500))
        assert not pa.types.is_string(table.schema.field("turns").type)
        pq.write_table(table, native / f"{shape}.parquet", row_group_size=1000)
        # the rows as pyarrow reads them back: each struct with every field of its type
        read = pq.read_table(native / f"{shape}.parquet").to_pylist()
        (same / f"{shape}.jsonl").write_text(lines(*read))
    verdicts = []
    for folder in (native, same):
        done = toolmatch(spec, folder, "--format", "json", "--jobs", "1")
        rows = [json.loads(line) for line in done.stdout.splitlines()]
        # the same row for each run, but for its place: a row there, a line here
        for row in rows:
            row.pop("row", None)
            row.pop("line", None)
            if "file" in row:
                row["file"] = Path(row["file"]).stem
        verdicts.append((done.returncode, rows))
    assert verdicts[0] == verdicts[1]
    returncode, rows = verdicts[0]
    assert returncode == 1
    summary = rows[-1]
    # a plain run's book call has the fields of the search's args too, as None: its exact
    # expectation fails every plain run, as it fails the same rows as JSON Lines
    assert (summary["passed"], summary["failed"]) == (1667 + 1875, 833 + 625 + 2500)


def test_a_file_that_is_not_parquet(spec: Path, tmp_path: Path) -> None:
    path = tmp_path / "runs.parquet"
    path.write_text(lines(SEARCH))
    done = toolmatch(spec, path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"toolmatch: cannot read the traces {path}: Parquet magic bytes")


@pytest.mark.parametrize("which", ["file", "directory"])
def test_without_pyarrow_parquet_names_the_extra(spec: Path, tmp_path: Path, which: str) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.jsonl").write_text(lines(SEARCH))
    write_parquet(runs / "b.parquet", {"case": ["search"], "turns": ["[]"]})
    traces = runs / "b.parquet" if which == "file" else runs
    done = toolmatch(spec, traces, before=BLOCK_PYARROW)
    assert (done.returncode, done.stdout) == (2, "")  # before any run is checked
    assert done.stderr == (
        f"toolmatch: cannot read the traces {runs / 'b.parquet'}: reading Parquet needs "
        'pyarrow: pip install "toolmatch[parquet]"\n'
    )
    # the other kinds need no pyarrow
    assert toolmatch(spec, runs / "a.jsonl", before=BLOCK_PYARROW).returncode == 1


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss units differ by platform")
def test_memory_stays_flat_however_long_the_parquet_file(spec: Path, tmp_path: Path) -> None:
    def table(rows: int) -> dict[str, list[object]]:
        turns = json.dumps([[{"name": "search", "args": {"q": "x" * 200}}]])
        return {"case": ["search", "other"] * (rows // 2), "turns": [turns] * rows}

    # (the shorter file is long enough for the memory allocators to have warmed up)
    short, long = tmp_path / "short.parquet", tmp_path / "long.parquet"
    write_parquet(short, table(20_000), rows_per_group=2_000)
    write_parquet(long, table(200_000), rows_per_group=2_000)
    # The short file's peak varies from run to run (89 to 95 MiB measured, on a machine
    # under load): the higher of two runs is the floor.
    short_peak = max(peak_rss_kib("check", spec, short) for _ in range(2))
    long_peak = peak_rss_kib("check", spec, long)
    # 200,000 rows held at once, as Python objects, would cost well over 100 MiB
    assert long_peak <= short_peak + 8192, (short_peak, long_peak)


# --jobs auto ---------------------------------------------------------------------------------


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as file:
            found.extend(int(child) for child in file.read().split())
    return found


LINUX_FORK = pytest.mark.skipif(
    not sys.platform.startswith("linux")
    or not hasattr(os, "sched_setaffinity")
    or multiprocessing.get_start_method() != "fork",
    reason="sets the CPU affinity and finds the workers as child processes in /proc",
)


def checking(spec: Path, cpus: set[int]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "toolmatch", "check", str(spec), "-", "--jobs", "auto"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=lambda: os.sched_setaffinity(0, cpus),
    )


@LINUX_FORK
def test_jobs_auto_on_one_cpu_checks_in_the_process(spec: Path) -> None:
    process = checking(spec, {min(os.sched_getaffinity(0))})
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        process.stdin.write(lines(SEARCH).encode())
        process.stdin.flush()
        # a worker pool would wait for a whole chunk of lines, or the end of the input
        ready, _, _ = select.select([process.stdout], [], [], 30)
        assert ready, "no verdict for the line within 30 s"
        assert process.stdout.readline() == b"PASS search\n"
        assert children(process.pid) == []
    finally:
        _, stderr = process.communicate(timeout=TIMEOUT)
    assert (process.returncode, stderr) == (1, b"")


@LINUX_FORK
@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs two CPUs")
def test_jobs_auto_starts_a_worker_per_usable_cpu(spec: Path) -> None:
    import time

    process = checking(spec, set(sorted(os.sched_getaffinity(0))[:2]))
    assert process.stdin is not None
    try:
        process.stdin.write(lines(*[SEARCH] * CHUNK).encode())  # one chunk, sent to the pool
        process.stdin.flush()
        deadline = time.monotonic() + TIMEOUT
        while len(children(process.pid)) != 2:
            assert time.monotonic() < deadline, children(process.pid)
            time.sleep(0.01)
    finally:
        stdout, _ = process.communicate(timeout=TIMEOUT)
    assert stdout.decode().splitlines()[-1] == f"{CHUNK} passed, 0 failed"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_the_progress_bar_counts_the_bytes_of_every_file(spec: Path, tmp_path: Path) -> None:
    import fcntl
    import pty
    import struct
    import termios

    runs = mixed_directory(tmp_path)
    total = sum(path.stat().st_size for path in runs.rglob("*") if path.is_file()) - sum(
        path.stat().st_size
        for path in (
            runs / "notes.txt",
            runs / ".hidden" / "x.jsonl",
            runs / "_temporary" / "y.jsonl",
        )
    )
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    result = subprocess.run(
        [sys.executable, "-m", "toolmatch", "check", str(spec), "runs"],
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
        check=False,
        cwd=tmp_path,
        timeout=TIMEOUT,
    )
    os.close(follower)
    shown = b""
    try:
        while chunk := os.read(leader, 4096):
            shown += chunk
    except OSError:  # Linux reports the closed terminal as EIO
        pass
    os.close(leader)
    assert result.stdout.splitlines() == MIXED_TEXT
    from tqdm import tqdm

    # the bytes of all the files, gzip's as on disk, as tqdm writes a number of bytes
    assert f"/{tqdm.format_sizeof(total)} ".encode() in shown


def test_a_worker_that_dies_stops_the_run_at_a_place_in_the_directory(
    spec: Path, tmp_path: Path
) -> None:
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "a.jsonl").write_text(lines(*[SEARCH] * CHUNK))  # the first worker's chunk
    (runs / "b.jsonl").write_text(lines({**SEARCH, "die": True}, SEARCH))
    done = toolmatch(spec, "runs", "--jobs", "2", cwd=tmp_path, before=DYING_JUDGE)
    assert done.returncode == 2
    # the first chunk's runs are reported if its worker had finished them
    shown = done.stdout.splitlines()
    assert shown in (
        [],
        [
            f"PASS search{'' if n == 1 else f' (run {n})'} at runs/a.jsonl:{n}"
            for n in range(1, CHUNK + 1)
        ],
    )
    stopped_at = "runs/b.jsonl:1" if shown else "runs/a.jsonl:1"
    assert done.stderr == (
        f"toolmatch: a worker process ended abruptly; the runs from {stopped_at} on were not "
        "checked (run without --jobs to see whether a line causes it)\n"
    )


COUNTED_POOL = """
import concurrent.futures
import os

os.sched_getaffinity = lambda pid: set(range(CPUS))


class NoPool:
    def __init__(self, *args, **kwargs):
        raise SystemExit("the command tried to start a pool of " + str(args[0]) + " workers")


concurrent.futures.ProcessPoolExecutor = NoPool
"""


@pytest.mark.parametrize(("cpus", "workers"), [(3, 3), (4096, 1024)])
def test_jobs_auto_is_one_worker_a_usable_cpu_up_to_the_limit(
    spec: Path, tmp_path: Path, cpus: int, workers: int
) -> None:
    traces = tmp_path / "runs.jsonl"
    traces.write_text(lines(SEARCH))
    done = toolmatch(spec, traces, "--jobs", "auto", before=COUNTED_POOL.replace("CPUS", str(cpus)))
    assert done.stderr == f"the command tried to start a pool of {workers} workers\n"


# Hardening v3 (issue 29) ---------------------------------------------------------------------


@pytest.mark.parametrize("text", [b"", b"\n\n  \r\n", b"\xef\xbb\xbf", b"\xef\xbb\xbf\n"])
def test_an_empty_json_file_holds_no_run(spec: Path, tmp_path: Path, text: bytes) -> None:
    # Spark writes an empty part file for an empty partition: nothing to report, no error.
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "part-00000.json").write_bytes(text)
    (runs / "part-00001.json").write_text(lines(SEARCH, FETCH))
    done = toolmatch(spec, "runs", cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [
        "PASS search at runs/part-00001.json:1",
        "PASS other at runs/part-00001.json:2",
        "2 passed, 0 failed",
    ]
    alone = toolmatch(spec, runs / "part-00000.json", "--format", "json")
    summary = json.loads(alone.stdout.splitlines()[-1])
    assert (summary["type"], summary["errors"], summary["lines"]) == ("summary", 0, 0)


def test_a_folder_reached_again_is_walked_once(spec: Path, tmp_path: Path) -> None:
    """Each folder holds two links to the next: reached again, a folder is skipped with one
    warning naming where it was read, so the walk takes time in proportion to the folders,
    not to the ways there (2 ** 16 here)."""
    levels = 16
    runs = tmp_path / "runs"
    folders = [runs / f"level{index}" for index in range(levels + 1)]
    for folder in folders:
        folder.mkdir(parents=True)
        (folder / "x.jsonl").write_text(lines(SEARCH))
    for folder, below in itertools.pairwise(folders):
        (folder / "a").symlink_to(below)
        (folder / "b").symlink_to(below)
    (folders[0] / "y.jsonl").write_text(lines(FETCH))
    done = toolmatch(spec, "runs/level0", cwd=tmp_path)
    first = "runs/level0"
    expected_warnings = []
    for _ in range(levels):
        expected_warnings.append(f"warning: skipped {first}/b: the same folder as {first}/a")
        first += "/a"
    # depth first: the deepest folder is reached again first
    assert done.stderr.splitlines() == expected_warnings[::-1]
    assert done.stdout.splitlines()[-1] == f"{levels + 2} passed, 0 failed"
    assert done.returncode == 0


def test_a_deep_directory_is_walked_without_recursion(spec: Path, tmp_path: Path) -> None:
    folder = tmp_path / "runs"
    deepest = Path(*["d"] * 1100)  # deeper than Python's recursion limit, within PATH_MAX
    folders = [folder / Path(*deepest.parts[:depth]) for depth in range(len(deepest.parts) + 1)]
    for each in folders:  # os.makedirs recurses
        each.mkdir()
    (folder / deepest / "x.jsonl").write_text(lines(SEARCH))
    (folder / "y.jsonl").write_text(lines(FETCH))
    try:
        done = toolmatch(spec, "runs", cwd=tmp_path)
    finally:  # pytest's clean-up of old temporary folders recurses too
        (folder / deepest / "x.jsonl").unlink()
        for each in reversed(folders[1:]):
            each.rmdir()
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines()[0] == f"PASS search at runs/{deepest.as_posix()}/x.jsonl:1"


TOO_DEEP = {"case": "search", "turns": [[{"name": "search", "args": {"x": []}}]]}
TOO_DEEP_TEXT = json.dumps(TOO_DEEP).replace("[]", "[" * 100_000 + "]" * 100_000)


@pytest.mark.parametrize("separator", [", ", ",\n"])
def test_every_run_of_an_array_around_a_run_too_deep_is_reported(
    spec: Path, tmp_path: Path, separator: str
) -> None:
    # Too deep to read, a run still has an end, where the next one begins; it names its case.
    path = tmp_path / "runs.json"
    runs = [json.dumps(SEARCH), TOO_DEEP_TEXT, json.dumps(FETCH), json.dumps(SEARCH)]
    path.write_text("[" + separator.join(runs) + "]")
    done = toolmatch(spec, path)
    assert done.stdout.splitlines() == [
        "PASS search",
        f"ERROR {path}:item 2: invalid JSON: nested too deeply",
        "PASS other",
        "PASS search (run 3)",
        "TRIALS search: 2/3 passed, pass^1 0.667, pass^2 0.333, pass^3 0.000",
        "TRIALS other: 1/1 passed, pass^1 1.000",
        "TRIALS mean over 2 cases: pass^1 0.833, pass^2 0.333 (1 case), pass^3 0.000 (1 case)",
        "1 error",
        "3 passed, 0 failed",
    ]


@pytest.mark.parametrize("name", ["runs.jsonl", "runs.json"])
def test_a_line_too_deep_is_a_run_of_its_case(spec: Path, tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text(TOO_DEEP_TEXT + "\n" + json.dumps(FETCH) + "\n")
    done = toolmatch(spec, path)
    assert done.stdout.splitlines() == [
        f"ERROR {path}:1: invalid JSON: nested too deeply",
        "PASS other",
        "1 error",
        "1 passed, 0 failed",
    ]
