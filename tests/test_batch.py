"""check_runs and check_batch: toolmatch check's verdicts as rows and as columns."""

from __future__ import annotations

import functools
import json
import os
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest

from toolmatch import TestCase, check_batch, check_runs, load_test_cases

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

SPEC = {
    "test_cases": [
        {
            "name": "search",
            "expected_tools": [{"name": "search", "args": {"q": {"fuzzy": "Paris"}}}],
        },
        {
            "name": "refund",
            "turns": [
                {"expected_tools": ["lookup_order"]},
                {
                    "expected_tools": [
                        {"name": "issue_refund", "args": {"amount": {"$approx": 42.5}}}
                    ]
                },
            ],
        },
    ]
}
CASES = load_test_cases(SPEC)

SEARCH_OK = {"case": "search", "turns": [[{"name": "web_search", "args": {"q": " paris"}}]]}
SEARCH_BAD = {"case": "search", "turns": [[{"name": "web_search", "args": {"q": "rome"}}]]}
REFUND_HALF = {"case": "refund", "turns": [[{"name": "lookup_order"}], []]}
UNKNOWN = {"case": "nope", "turns": []}
NO_TURNS = {"case": "search"}
BAD_TURNS = {"case": "search", "turns": [42]}
NOT_A_RUN = ["search"]
RUNS: list[object] = [SEARCH_OK, SEARCH_BAD, REFUND_HALF, UNKNOWN, NO_TURNS, BAD_TURNS, NOT_A_RUN]

SEARCH_BAD_REASON = "turn 0, expected_tools[0]: call 0: q: fuzzy 'Paris' does not match 'rome'"


def test_rows_are_plain_dicts_in_order() -> None:
    rows = list(check_runs(CASES, RUNS))
    assert [list(row) for row in rows] == [["case", "run", "passed", "score", "reason"]] * 7
    assert [(row["case"], row["run"], row["passed"]) for row in rows] == [
        ("search", 0, True),
        ("search", 1, False),
        ("refund", 2, False),
        ("nope", 3, False),
        ("search", 4, False),
        ("search", 5, False),
        (None, 6, False),
    ]
    assert rows[0]["reason"] == ""
    assert rows[1]["reason"] == SEARCH_BAD_REASON


def test_the_score_is_the_mean_of_the_turns_f1() -> None:
    rows = list(check_runs(CASES, [SEARCH_OK, SEARCH_BAD, REFUND_HALF]))
    # refund: turn 0 met (f1 1); turn 1 has no call (recall 0/1, so f1 0)
    assert [row["score"] for row in rows] == [1.0, 0.0, 0.5]
    results = CASES[1].check(REFUND_HALF["turns"])
    assert rows[2]["score"] == sum(result.f1 for result in results) / 2


def test_a_bad_run_is_a_failed_row_scored_zero_in_the_commands_words(tmp_path: Path) -> None:
    rows = list(check_runs(CASES, RUNS))
    assert [row["score"] for row in rows[3:]] == [0.0] * 4
    assert [row["reason"] for row in rows[3:]] == [
        "unknown case 'nope'; the spec has 'search', 'refund'",
        'missing "turns": a list with one entry of calls per turn',
        rows[5]["reason"],
        'a run must be a JSON object {"case": NAME, "turns": [...]}, got [\'search\'] (list)',
    ]
    assert rows[5]["reason"].startswith("turns[0]: ")
    # The same runs through `toolmatch check`: the same verdicts, the same messages.
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    traces = tmp_path / "runs.jsonl"
    traces.write_text("".join(json.dumps(run) + "\n" for run in RUNS))
    done = subprocess.run(
        [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces)],
        capture_output=True,
        text=True,
        check=False,
    )
    verdicts = [line for line in done.stdout.splitlines() if not line.startswith(" ")][:7]
    expected = []
    for row in rows:
        if row["passed"]:
            expected.append(f"PASS {row['case']}")
        elif row["reason"].startswith("turn "):
            expected.append(f"FAIL {row['case']}" + (" (run 2)" if row["run"] == 1 else ""))
        else:
            expected.append(f"ERROR {traces}:{row['run'] + 1}: {row['reason']}")
    assert verdicts == expected


def test_any_mapping_is_a_run() -> None:
    from types import MappingProxyType

    [row] = check_runs(CASES, [MappingProxyType(SEARCH_OK)])
    assert row["passed"] is True


def test_jobs_give_the_same_rows_in_the_same_order() -> None:
    runs = RUNS * 40
    assert list(check_runs(CASES, runs, jobs=2)) == list(check_runs(CASES, runs))


class _Deadly:
    """Unpickles by ending the process that unpickles it: a worker that dies."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (os._exit, (3,))


def test_a_worker_that_dies_raises_naming_the_first_run_not_checked() -> None:
    rows = check_runs(CASES, [SEARCH_OK, {"case": "search", "turns": [_Deadly()]}], jobs=2)
    with pytest.raises(RuntimeError) as caught:
        list(rows)
    assert str(caught.value) == (
        "a worker process ended abruptly; the runs from index 0 on were not checked"
    )


def test_bad_arguments_raise_at_the_call() -> None:
    with pytest.raises(TypeError) as caught:
        check_runs("spec.yaml", [])  # type: ignore[arg-type]
    assert str(caught.value) == (
        "cases must be the test cases load_test_cases returns, got the path 'spec.yaml': "
        "load it once with load_test_cases and pass what it returns"
    )
    with pytest.raises(TypeError, match=r"^cases\[1\] must be a TestCase, got 'x' \(str\)$"):
        check_runs([CASES[0], "x"], [])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"^cases\[2\]: a second test case named 'search'$"):
        check_runs([*CASES, CASES[0]], [])
    for jobs in (0, 1.5, True):
        with pytest.raises(ValueError, match=r"^jobs must be a whole number >= 1, got "):
            check_runs(CASES, [], jobs=jobs)  # type: ignore[arg-type]


# check_batch -----------------------------------------------------------------------------------

COLUMNS = {
    "id": [1, 2, 3, 4],
    "case": ["search", "search", "refund", "nope"],
    "turns": [
        SEARCH_OK["turns"],
        json.dumps(SEARCH_BAD["turns"]),  # JSON text is parsed
        '[[{"name": "lookup_order"}], [',
        "[]",
    ],
}
VERDICTS = {
    "passed": [True, False, False, False],
    "score": [1.0, 0.0, 0.0, 0.0],
    "reason": [
        "",
        SEARCH_BAD_REASON,
        "the turns are text that is not JSON: Expecting value: line 1 column 31 (char 30)",
        "unknown case 'nope'; the spec has 'search', 'refund'",
    ],
}


def test_a_dict_of_columns_gets_three_more() -> None:
    checked = check_batch(CASES, COLUMNS)
    assert checked == {**COLUMNS, **VERDICTS}
    assert list(COLUMNS) == ["id", "case", "turns"]  # the input is left as it was


def test_other_column_names() -> None:
    columns = {"task": COLUMNS["case"], "traj": COLUMNS["turns"]}
    checked = check_batch(CASES, columns, case_key="task", turns_key="traj")
    assert checked["passed"] == VERDICTS["passed"]


def test_a_pyarrow_record_batch_and_table() -> None:
    text = {
        **COLUMNS,
        "turns": [json.dumps(t) if not isinstance(t, str) else t for t in COLUMNS["turns"]],
    }
    batch = pa.RecordBatch.from_pydict(text)
    checked = check_batch(CASES, batch)
    assert isinstance(checked, pa.RecordBatch)
    assert checked.schema == batch.schema.append(pa.field("passed", pa.bool_())).append(
        pa.field("score", pa.float64())
    ).append(pa.field("reason", pa.string()))
    assert checked.to_pydict() == {**text, **VERDICTS}
    table = check_batch(CASES, pa.Table.from_pydict(text))
    assert isinstance(table, pa.Table)
    assert table.to_pydict() == {**text, **VERDICTS}


def test_a_pyarrow_list_of_structs_column() -> None:
    batch = pa.RecordBatch.from_pylist([SEARCH_OK, SEARCH_BAD])
    assert check_batch(CASES, batch).column("passed").to_pylist() == [True, False]


def test_a_pandas_data_frame() -> None:
    frame = pd.DataFrame(COLUMNS, index=[10, 11, 12, 13])
    checked = check_batch(CASES, frame)
    assert isinstance(checked, pd.DataFrame)
    assert list(checked.columns) == ["id", "case", "turns", "passed", "score", "reason"]
    assert list(checked.index) == [10, 11, 12, 13]
    assert [str(checked[name].dtype) for name in VERDICTS] == ["bool", "float64", "object"]
    assert {name: checked[name].tolist() for name in VERDICTS} == VERDICTS
    assert list(frame.columns) == ["id", "case", "turns"]


def test_a_bad_batch_raises() -> None:
    bad = [
        ({"case": [], "traj": []}, "the batch has no column 'turns'; its columns: 'case', 'traj'"),
        (
            pd.DataFrame({**COLUMNS, "score": [0] * 4}),
            "the batch already has a column 'score', which check_batch adds",
        ),
        (
            {"case": ["search"], "turns": []},
            "the batch's columns must have one length, got 'case': 1, 'turns': 0",
        ),
    ]
    for records, message in bad:
        with pytest.raises(ValueError, match=r"^the batch") as caught:
            check_batch(CASES, records)
        assert str(caught.value) == message
    with pytest.raises(TypeError) as caught:
        check_batch(CASES, [SEARCH_OK])
    assert str(caught.value).startswith(
        "records must be a dict of columns, a pyarrow RecordBatch or Table, or a pandas "
        "DataFrame, got [{"
    )


def test_a_dict_batch_imports_neither_pyarrow_nor_pandas() -> None:
    code = (
        "import sys, toolmatch\n"
        f"cases = toolmatch.load_test_cases({SPEC!r})\n"
        f"print(toolmatch.check_batch(cases, {{'case': ['search'], 'turns': [{SEARCH_OK['turns']!r}]}})['passed'])\n"
        "print('pyarrow' in sys.modules, 'pandas' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[True]\nFalse False\n"


# Pickling -------------------------------------------------------------------------------------


def test_loaded_cases_pickle() -> None:
    copies = pickle.loads(pickle.dumps(CASES))
    assert all(isinstance(case, TestCase) for case in copies)
    assert [case.name for case in copies] == ["search", "refund"]
    assert list(check_runs(copies, RUNS)) == list(check_runs(CASES, RUNS))


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_check_batch_in_a_process_pool(method: str, tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    cases = load_test_cases(spec)  # a spec file's cases, sent to each worker
    task = functools.partial(check_batch, cases)
    batches = [COLUMNS, {"case": ["refund"], "turns": [REFUND_HALF["turns"]]}]
    with ProcessPoolExecutor(2, mp_context=get_context(method)) as pool:
        results = list(pool.map(task, batches))
    assert results == [check_batch(cases, batch) for batch in batches]
    assert results[0] == {**COLUMNS, **VERDICTS}


def _nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth):
        value = [value]
    return value


def test_jobs_judge_runs_that_cannot_be_pickled_as_one_process_does() -> None:
    # A run is any object: one pickle cannot send to a worker is judged here instead.
    runs = [
        SEARCH_OK,
        {"case": "search", "turns": [[{"name": "search", "args": {"q": lambda: "Paris"}}]]},
        {"case": "search", "turns": [[{"name": "search", "args": {"q": _nested(100_000)}}]]},
        SEARCH_BAD,
    ] * 3
    assert list(check_runs(CASES, runs, jobs=2)) == list(check_runs(CASES, runs))


# Trace lines as toolmatch check reads them: runs, a line that is no JSON, one past 64 bits.
LINES = [
    json.dumps(SEARCH_OK),
    json.dumps(SEARCH_BAD),
    json.dumps(UNKNOWN),
    '{"case": "search", "turns": [[',
    '{"case": "search", "turns": [[{"name": "search", "args": {"q": "paris", "n": '
    + str(2**70)
    + "}}]]}",
    json.dumps(NOT_A_RUN),
]


def _command_rows(tmp_path: Path, lines: list[str]) -> list[tuple[object, ...]]:
    """What ``toolmatch check --format json`` says of each line: case, passed, error."""
    spec, traces = tmp_path / "spec.json", tmp_path / "traces.jsonl"
    spec.write_text(json.dumps(SPEC), encoding="utf-8")
    traces.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return [
        (row.get("case"), row.get("passed", False), row.get("message"))
        for row in rows
        if row["type"] in ("case", "error")
    ]


def test_a_column_of_trace_lines_is_judged_as_toolmatch_check_judges_them(
    tmp_path: Path,
) -> None:
    checked = check_batch(CASES, {"text": LINES}, lines_key="text")
    assert list(checked) == ["text", "case", "passed", "score", "reason"]
    assert checked["case"] == ["search", "search", "nope", None, "search", None]
    assert checked["passed"] == [True, False, False, False, True, False]
    assert checked["score"] == [1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert checked["reason"] == [
        "",
        SEARCH_BAD_REASON,
        "unknown case 'nope'; the spec has 'search', 'refund'",
        "invalid JSON: Expecting value at column 31",
        "",
        'a run must be a JSON object {"case": NAME, "turns": [...]}, got [\'search\'] (list)',
    ]
    command = _command_rows(tmp_path, LINES)
    assert [passed for _, passed, _ in command] == checked["passed"]
    assert [case for case, _, _ in command] == ["search", "search", None, None, "search", None]
    errors = [message for _, _, message in command if message is not None]
    assert errors == checked["reason"][2:4] + checked["reason"][5:]


def test_trace_lines_in_arrow_as_text_or_bytes_and_in_pandas() -> None:
    expected = check_batch(CASES, {"text": LINES}, lines_key="text")
    for column in (pa.array(LINES, pa.string()), pa.array([line.encode() for line in LINES])):
        table = check_batch(CASES, pa.table({"value": column}), lines_key="value")
        assert table.schema.names == ["value", "case", "passed", "score", "reason"]
        assert table.column("case").type == pa.string()
        verdicts = {name: table.column(name).to_pylist() for name in table.schema.names[1:]}
        assert verdicts == {name: expected[name] for name in verdicts}
    frame = check_batch(CASES, pd.DataFrame({"text": LINES}), lines_key="text")
    assert frame["case"].tolist() == expected["case"]
    assert frame["reason"].tolist() == expected["reason"]


def test_a_batch_of_lines_without_its_column_or_with_a_case_column_raises() -> None:
    with pytest.raises(ValueError, match=r"^the batch has no column") as caught:
        check_batch(CASES, {"line": LINES}, lines_key="text")
    assert str(caught.value) == "the batch has no column 'text'; its columns: 'line'"
    with pytest.raises(ValueError, match=r"^the batch already has") as caught:
        check_batch(CASES, {"text": LINES, "case": ["search"] * 6}, lines_key="text")
    assert str(caught.value) == (
        "the batch already has a column 'case', which check_batch adds from each line"
    )
    with pytest.raises(ValueError, match=r"^case_key 'score'") as caught:
        check_batch(CASES, {"text": LINES}, lines_key="text", case_key="score")
    assert str(caught.value) == (
        "case_key 'score' names a column check_batch adds with the verdicts: give the case "
        "column another name"
    )
