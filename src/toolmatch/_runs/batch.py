"""Checking recorded runs from other programs and schedulers: a row per run, or a column each.

``check_runs`` and ``check_batch`` judge each run exactly as ``toolmatch check`` judges a
trace line (the same code: docs/cli.md), and give its verdict as data instead of a report
(docs/parallel.md).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.judging import FAIL, PASS, Outcome, RecordJudge, failure_lines
from toolmatch._runs.syntax import python_turns
from toolmatch._runs.traces import StoppedError
from toolmatch._runs.workers import judged_batches
from toolmatch._selection.case import TestCase, case_verdict

if TYPE_CHECKING:
    from typing import Any, TypeVar

    from toolmatch._runs.evaluation_events import RunIds
    from toolmatch._runs.syntax import PythonTurns

    _Records = TypeVar("_Records")

__all__ = ["check_batch", "check_runs"]

_ADDED = ("passed", "score", "reason")


class _RowJudge(RecordJudge):
    """The command's judge, given runs already read, that also scores each one."""

    def __init__(self, cases: Sequence[TestCase], python: PythonTurns | None) -> None:
        super().__init__(cases, want_json=False, python=python)

    def judge_block(self, first: int, item: object) -> list[Outcome]:
        # Each block is one run given, whatever it is: bytes are not lines here.
        return [self.judge(first, item)]

    def _judge(self, number: int, raw: object) -> Outcome:
        # A run given as any mapping is judged as the dict a trace line reads to.
        run = dict(raw) if isinstance(raw, Mapping) and not isinstance(raw, dict) else raw
        return self.run_outcome(number, run)

    def _verdict(self, number: int, name: str, case: TestCase, turns: Any, ids: RunIds) -> Outcome:
        # The verdict ends with this outcome (only its words and numbers go on), so the
        # calls need no copies of their args. A score judges every turn, but from the
        # verdicts: only a failed run's failing turns are put into words, for its reason.
        verdict = case_verdict(case, turns, False)
        score = verdict.score()
        # The outcome's body carries the score back from a worker process.
        if verdict.passed:
            return Outcome(PASS, number, name, [], "", repr(score), (), None)
        _, message = failure_lines(verdict.failed_results(), case)
        return Outcome(FAIL, number, name, [], message, repr(score), (), None)


class _LineJudge(_RowJudge):
    """The row judge given trace lines: each read as ``toolmatch check`` reads a line."""

    def _judge(self, number: int, raw: object) -> Outcome:
        # Arrow and pandas give a line's text as str: its UTF-8 bytes are the file's line.
        line = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
        return RecordJudge._judge(self, number, line)


def _row(outcome: Outcome) -> dict[str, Any]:
    body = outcome.body
    return {
        "case": outcome.case,
        "run": outcome.number,
        "passed": outcome.kind == PASS,
        "score": 0.0 if body is None else float(body),
        "reason": outcome.message,
    }


def _judge_for(
    cases: object, syntax: str, tools: object, judge: type[_RowJudge] = _RowJudge
) -> _RowJudge:
    python = python_turns(syntax, tools)
    if isinstance(cases, (str, bytes)) or hasattr(cases, "__fspath__"):
        raise TypeError(
            f"cases must be the test cases load_test_cases returns, got the path "
            f"{short_repr(cases)}: load it once with load_test_cases and pass what it returns"
        )
    if not isinstance(cases, Iterable):
        raise TypeError(
            f"cases must be the test cases load_test_cases returns, got "
            f"{short_repr(cases)} ({type_name(cases)})"
        )
    loaded = list(cases)
    names: set[str] = set()
    for index, case in enumerate(loaded):
        if not isinstance(case, TestCase):
            raise TypeError(
                f"cases[{index}] must be a TestCase, got {short_repr(case)} ({type_name(case)})"
            )
        if case.name in names:
            raise ValueError(f"cases[{index}]: a second test case named {short_repr(case.name)}")
        names.add(case.name)
    return judge(loaded, python)


@public
def check_runs(
    cases: Iterable[TestCase],
    runs: Iterable[object],
    *,
    jobs: int = 1,
    syntax: str = "json",
    tools: Sequence[object] | None = None,
) -> Iterator[dict[str, Any]]:
    """Judge recorded runs, ``{"case": NAME, "turns": [...]}`` mappings, against their cases.

    Yields one row per run, in order: ``{"case", "run", "passed", "score", "reason"}``, where
    ``run`` is the run's index in ``runs``, ``score`` the mean of its turns' ``f1`` (a turn of
    only ``never`` and caps: the share of them kept) and ``reason`` its first failure (empty
    when it passed). A run that cannot be checked (an unknown case, unreadable turns) is a
    row too, failed, scored 0, with what is wrong with it as its reason, in the words of
    ``toolmatch check``. ``jobs`` worker processes judge the runs as ``toolmatch check
    --jobs`` does; the rows come in the same order. With ``syntax="python"`` a turn given as
    text is read as Python calls, naming positional arguments from ``tools``, as
    ``toolmatch check --syntax python --functions`` reads it.

    >>> from toolmatch import load_test_cases
    >>> cases = load_test_cases({"test_cases": [{"name": "lookup", "expected_tools": ["search"]}]})
    >>> runs = [{"case": "lookup", "turns": [[{"name": "search"}]]}, {"case": "other", "turns": []}]
    >>> first, second = check_runs(cases, runs)
    >>> first
    {'case': 'lookup', 'run': 0, 'passed': True, 'score': 1.0, 'reason': ''}
    >>> second["passed"], second["score"], second["reason"]
    (False, 0.0, "unknown case 'other'; the spec has 'lookup'")
    """
    judge = _judge_for(cases, syntax, tools)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a whole number >= 1, got {short_repr(jobs)}")
    return _rows(judge, runs, jobs)


def _rows(
    judge: _RowJudge, runs: Iterable[object], jobs: int
) -> Generator[dict[str, Any], None, None]:
    batches = judged_batches(judge, ((index, 1, run) for index, run in enumerate(runs)), jobs)
    checked = 0
    try:
        for batch in batches:
            for outcome in batch:
                yield _row(outcome)
                checked += 1
    except StoppedError as error:  # a worker died, or none could be started
        raise RuntimeError(
            f"{error.problem}; the runs from index {checked} on were not checked"
        ) from None
    finally:
        batches.close()  # ends the workers of a run stopped early


@public
def check_batch(
    cases: Iterable[TestCase],
    records: _Records,
    *,
    case_key: str = "case",
    turns_key: str = "turns",
    syntax: str = "json",
    tools: Sequence[object] | None = None,
    lines_key: str | None = None,
) -> _Records:
    """Judge a batch of runs held in columns; returns it with ``passed``, ``score``, ``reason``.

    ``records`` is a dict of equal-length lists (or arrays), a pyarrow ``RecordBatch`` or
    ``Table``, or a pandas ``DataFrame``, with one run a row: its case's name in the
    ``case_key`` column and its turns in ``turns_key``, as a list or as JSON text. What comes
    back is the same kind of batch with the input's columns and three more: ``passed``
    (bool), ``score`` (float) and ``reason`` (str, empty when passed), as in
    :func:`check_runs`. A row that cannot be checked fails with its reason; a batch without
    those columns, or already holding one of the three, raises ``ValueError``. ``syntax``
    and ``tools`` read text turns as in :func:`check_runs`.

    With ``lines_key``, that column holds whole trace lines instead (text or UTF-8 bytes,
    as an engine reads a JSON Lines file), each judged exactly as ``toolmatch check`` judges
    a line, its JSON read by the same parser; the batch gains a ``case_key`` column too,
    the case each line names (None when none could be read from it), and ``turns_key`` is
    unused.

    >>> from toolmatch import load_test_cases
    >>> cases = load_test_cases({"test_cases": [{"name": "lookup", "expected_tools": ["search"]}]})
    >>> batch = {"case": ["lookup", "lookup"], "turns": ['[[{"name": "search"}]]', "[[]]"]}
    >>> checked = check_batch(cases, batch)
    >>> checked["passed"], checked["score"]
    ([True, False], [1.0, 0.0])
    >>> checked["reason"][1].startswith("turn 0, expected_tools[0]: expected 1 matching call(s)")
    True
    """
    judge = _judge_for(cases, syntax, tools, _RowJudge if lines_key is None else _LineJudge)
    kind = _kind(records)
    names = _names(records, kind)
    added: dict[str, list[Any]] = {}
    if lines_key is None:
        _columns_checked(names, case_key, turns_key)
        _lengths_checked(records, kind)
        runs: Iterable[object] = (
            {"case": name, "turns": value}  # JSON text turns are read in the judge
            for name, value in zip(
                _values(records, kind, case_key), _values(records, kind, turns_key), strict=True
            )
        )
    else:
        _line_columns_checked(names, lines_key, case_key)
        _lengths_checked(records, kind)
        added[case_key] = []
        runs = _values(records, kind, lines_key, lines=True)
    added.update(passed=[], score=[], reason=[])
    for number, item in enumerate(runs):
        row = _row(judge.judge(number, item))
        if lines_key is not None:
            added[case_key].append(row["case"])
        for name in _ADDED:
            added[name].append(row[name])
    return _appended(records, kind, added, case_key)  # type: ignore[no-any-return]


def _kind(records: object) -> str:
    """What ``records`` is: ``pyarrow``, ``pandas`` or ``dict``; an error for anything else."""
    kind = type(records).__module__.partition(".")[0]
    if kind in ("pyarrow", "pandas"):
        return kind
    if not isinstance(records, Mapping):
        raise TypeError(
            "records must be a dict of columns, a pyarrow RecordBatch or Table, or a pandas "
            f"DataFrame, got {short_repr(records)} ({type_name(records)})"
        )
    return "dict"


def _line_columns_checked(names: list[str], lines_key: str, case_key: str) -> None:
    """With ``lines_key``: that column is there, and ``case_key``, the column check_batch
    adds, is neither one of the verdicts' nor one the batch has."""
    _columns_checked(names, lines_key)
    if case_key in _ADDED:
        raise ValueError(
            f"case_key {short_repr(case_key)} names a column check_batch adds with the "
            "verdicts: give the case column another name"
        )
    if case_key in names:
        raise ValueError(
            f"the batch already has a column {short_repr(case_key)}, which check_batch "
            "adds from each line"
        )


def _names(records: Any, kind: str) -> list[str]:
    if kind == "pyarrow":
        return list(records.schema.names)
    return list(records.columns if kind == "pandas" else records)


def _lengths_checked(records: Any, kind: str) -> None:
    if kind != "dict":
        return  # a table's columns have one length
    lengths = {name: len(column) for name, column in records.items()}
    if len(set(lengths.values())) > 1:
        shown = ", ".join(f"{short_repr(name)}: {length}" for name, length in lengths.items())
        raise ValueError(f"the batch's columns must have one length, got {shown}")


def _values(records: Any, kind: str, key: str, lines: bool = False) -> Iterable[object]:
    if kind == "dict":
        return records[key]  # type: ignore[no-any-return]
    if kind == "pandas":
        return records[key].tolist()  # type: ignore[no-any-return]
    import pyarrow as pa

    column = records.column(key)
    if lines and pa.types.is_string(column.type):
        column = column.cast(pa.binary())  # the lines' bytes, not decoded to str first
    elif lines and pa.types.is_large_string(column.type):
        column = column.cast(pa.large_binary())
    return column.to_pylist()  # type: ignore[no-any-return]


def _appended(records: Any, kind: str, added: dict[str, list[Any]], case_key: str) -> Any:
    """The batch with the added columns after its own, each of its kind's type."""
    if kind == "dict":
        return {**records, **added}
    if kind == "pandas":
        import pandas as pd

        index = records.index
        dtypes = {case_key: object, "passed": bool, "score": float, "reason": object}
        return records.assign(
            **{
                name: pd.Series(values, index=index, dtype=dtypes[name])
                for name, values in added.items()
            }
        )
    import pyarrow as pa

    types = {case_key: pa.string(), "passed": pa.bool_(), "score": pa.float64()}
    for name, values in added.items():
        records = records.append_column(name, pa.array(values, types.get(name, pa.string())))
    return records


def _columns_checked(names: Sequence[str], *keys: str) -> None:
    for key in keys:
        if key not in names:
            shown = ", ".join(short_repr(name) for name in names) or "none"
            raise ValueError(f"the batch has no column {short_repr(key)}; its columns: {shown}")
    taken = [name for name in _ADDED if name in names]
    if taken:
        raise ValueError(
            f"the batch already has a column {short_repr(taken[0])}, which check_batch adds"
        )
