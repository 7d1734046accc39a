"""The rows of ``--format json`` results files gathered for a page (``toolmatch report``,
``check --html``, ``check --markdown``): counts of every row, and in full only the first
failures and errors, so that the memory and the page are bounded however many runs there
were (docs/cli.md, ``toolmatch report``).

Rows are read by their ``type`` as docs/cli.md documents them; rows of types it does not
know are counted and skipped, as that page says to read them.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping

from toolmatch._cli.reports.series import values_at
from toolmatch._runs.baseline import Delta, Side, compare, sides_of
from toolmatch._runs.result_rows import ResultsError, read_rows
from toolmatch._runs.trials import mean_pass_k, pass_k_series

__all__ = [
    "FAILURES_SHOWN",
    "Gathered",
    "ResultsError",
    "at_path",
    "case_curves",
    "curve_points",
    "gather",
]

# Failed runs and bad lines shown in full; those after are counted (and the files hold them).
FAILURES_SHOWN = 100
ERRORS_SHOWN = 100
# Failed runs of one case linked from its row of the cases' table.
RUNS_LINKED = 10


class ResultsFile:
    """One results file: its name as given, its SHA-256 and its rows."""

    def __init__(self, name: str, sha256: str, rows: int) -> None:
        self.name, self.sha256, self.rows = name, sha256, rows


class Failure:
    """A failed run shown in full: its row, its file (with several files) and its anchor."""

    def __init__(
        self, row: Mapping[str, object], file: str | None, anchor: str, traces: str | None
    ) -> None:
        self.row, self.file, self.anchor, self.traces = row, file, anchor, traces

    @property
    def place(self) -> str:
        """``file:line`` (a row or item for Parquet and ``.json`` traces)."""
        return place_of(self.row, self.file, self.traces)

    @property
    def title(self) -> str:
        """The run's name as the text report gives it: ``case (run N)`` from its second run."""
        run = self.row.get("run", 1)
        case = self.row["case"]
        return f"{case}" if run == 1 else f"{case} (run {run})"

    def parts(self) -> Iterator[tuple[str, object, object, Mapping[str, object]]]:
        """What failed, in the report's order, turn by turn: ``("alternative", text, None,
        turn)``, ``("reason", text, None, turn)``, ``("check", place, check, turn)`` for
        each failed expectation, and ``("problem", text, None, turn)``."""
        turns = self.row.get("turns") or []
        assert isinstance(turns, list)
        for turn in turns:
            if turn.get("passed"):
                continue
            number = turn.get("turn")
            prefix = ""
            for alternative in turn.get("alternatives") or []:
                if alternative["of"] == "case":
                    prefix += f"one_of[{alternative['number']}], "
                text = (
                    f"none of the {alternative['of']}'s {alternative['count']} alternatives "
                    f"passed; the closest is alternative {alternative['number']}"
                )
                yield "alternative", text, None, turn
            if turn.get("reason"):
                yield "reason", f"turn {number}: {turn['reason']}", None, turn
            for index, check in enumerate(turn.get("checks") or []):
                if not check.get("passed"):
                    yield "check", f"{prefix}turns[{number}].expected_tools[{index}]", check, turn
            for problem in turn.get("problems") or []:
                yield "problem", f"turn {number}: {problem}", None, turn


def place_of(row: Mapping[str, object], results: str | None, traces: str | None = None) -> str:
    """Where a run or bad line was in its traces, as the text report says it: in the
    traces file when it is known, else in the results file (with several) or by line."""
    for unit in ("line", "row", "item"):
        if unit in row:
            number = row[unit]
            where = f"{number}" if unit == "line" else f"{unit} {number}"
            file = row.get("file", traces)
            if file is not None:
                return f"{file}:{where}"
            return f"{results}: {unit} {number}" if results is not None else f"{unit} {number}"
    return "?"


class Gathered:
    """What a page shows of the rows of one or more results files."""

    def __init__(self) -> None:
        self.files: list[ResultsFile] = []
        self.header: dict[str, str] = {}  # the command, spec and traces, when known
        self.counts: Counter[str] = Counter()  # passed, failed, errors, missing, lines
        self.failures: list[Failure] = []
        self.errors: list[tuple[str, str]] = []  # (place, message)
        # runs that cannot be judged: (place, title, reason), and whether they fail the command
        self.not_evaluable: list[tuple[str, str, str]] = []
        self.not_evaluable_fails = False
        self.missing: list[str] = []
        self.case_order: dict[str, None] = {}
        self.failed_runs: dict[str, list[tuple[str, str | None]]] = {}  # (place, anchor)
        self.failed_count: Counter[str] = Counter()
        self.trial_rows: list[Mapping[str, object]] = []
        self.check_rows: dict[tuple[str, str], list[object]] = {}
        self.coverage: dict[str, tuple[int, int, int, bool | None]] = {}
        self.never_called: list[str] | None = None
        self.findings: list[Mapping[str, object]] = []
        self.baseline_rows: list[Mapping[str, object]] = []
        self.gates: list[Mapping[str, object]] = []  # summaries' --min-pass-rate keys
        self.unknown: Counter[str] = Counter()
        self.delta: Delta | None = None  # report --baseline's own comparison

    # The cases -----------------------------------------------------------------------

    def sides(self) -> dict[str, Side]:
        """Each case's trials, over every file."""
        return sides_of([*self.trial_rows, *self._check_dicts()])

    def _check_dicts(self) -> list[dict[str, object]]:
        return [
            {"type": "check", "case": case, "check": check, "failed": failed, "runs": runs}
            for (case, check), (_, failed, runs) in self.check_rows.items()
        ]

    def flaky_cases(self) -> set[str]:
        """The cases with a check that failed in some of their runs but not all."""
        return {case for case, _, _, failed, runs in self.checks() if failed < runs}

    def checks(self) -> list[tuple[str, str, str, int, int]]:
        """Every failed check: case, place, description, failed, runs; flaky ones first,
        the most often failing first, then broken ones."""
        rows = [
            (case, check, str(description), int(str(failed)), int(str(runs)))
            for (case, check), (description, failed, runs) in self.check_rows.items()
        ]
        flaky = [row for row in rows if row[3] < row[4]]
        flaky.sort(key=lambda row: -row[3] / row[4])
        return flaky + [row for row in rows if row[3] >= row[4]]

    @property
    def exit_status(self) -> int:
        """The status ``toolmatch check`` exited with, as its rows tell it."""
        if self.findings or self.baseline_regressions() or self.not_evaluable_fails:
            return 1
        counts = self.counts
        if self.gates:
            below = any(gate.get("below_min_pass_rate") for gate in self.gates)
            return 1 if below or any(gate.get("lines_without_case") for gate in self.gates) else 0
        return 1 if counts["failed"] or counts["errors"] or len(self.missing) else 0

    def baseline_rows_shown(self) -> list[Mapping[str, object]]:
        """The changes from the baseline: ``report --baseline``'s, else the files' own."""
        if self.delta is not None:
            return [self.delta.row(change) for change in self.delta.changes]
        return self.baseline_rows

    def baseline_regressions(self) -> int:
        return sum(1 for row in self.baseline_rows_shown() if row.get("regression"))

    def compare_with(self, before: Mapping[str, Side], significance: float, allow: bool) -> None:
        self.delta = Delta(compare(before, self.sides(), significance), significance, allow)

    # Trials ---------------------------------------------------------------------------

    def case_trials(self) -> list[tuple[str, int, int]]:
        """Each case that ran, in order: its runs and passes over every file."""
        return [(name, side.runs, side.passed) for name, side in self.sides().items()]

    def mean_curves(self) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
        """The mean pass^k and pass@k over the cases, at :func:`curve_points`."""
        trials = self.case_trials()
        if not trials:
            return [], []
        most = max(runs for _, runs, _ in trials)
        points = curve_points(most)
        passing: Counter[tuple[int, int]] = Counter((runs, passed) for _, runs, passed in trials)
        failing: Counter[tuple[int, int]] = Counter(
            (runs, runs - passed) for _, runs, passed in trials
        )
        hat = _at(((mean, times) for (mean, _), times in mean_pass_k(passing)), points)
        at = _at(((mean, times) for (mean, _), times in mean_pass_k(failing)), points)
        return hat, [(k, 1.0 - value) for k, value in at]


def _at(stretches: Iterable[tuple[float, int]], points: list[int]) -> list[tuple[int, float]]:
    """The values of a series given in stretches, at ``points`` (sorted)."""
    return [(k, value) for k, value, _ in values_at(stretches, points)]


def curve_points(runs: int) -> list[int]:
    """The k a curve is drawn at: every k up to 32 runs, else 1, 2, 3, 4, 6, 8, 12, ...
    (about two a doubling) and ``runs``.

    >>> curve_points(5)
    [1, 2, 3, 4, 5]
    >>> curve_points(100)
    [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 100]
    """
    if runs <= 32:
        return list(range(1, runs + 1))
    points, power = [1], 2
    while power < runs:
        points.append(power)
        if power * 3 // 2 < runs:
            points.append(power * 3 // 2)
        power *= 2
    return sorted({*points, runs})


def case_curves(runs: int, passed: int) -> tuple[list[tuple[int, float]], list[tuple[int, float]]]:
    """A case's pass^k and pass@k (the chance that at least one of k runs passes)."""
    points = curve_points(runs)
    hat = _at(((value, 1) for value in pass_k_series(runs, passed)), points)
    none_pass = _at(((value, 1) for value in pass_k_series(runs, runs - passed)), points)
    return hat, [(k, 1.0 - value) for k, value in none_pass]


_STEP = re.compile(r"\[(\d+)\]|([^.\[\]]+)")


def at_path(value: object, path: str) -> tuple[bool, object]:
    """The value at a mismatch's path (``a.b[0]``), and whether it is there.

    >>> at_path({"a": {"b": [5, 6]}}, "a.b[1]"), at_path({"a": 1}, "c")
    ((True, 6), (False, None))
    """
    for index, key in _STEP.findall(path):
        if index and isinstance(value, list) and int(index) < len(value):
            value = value[int(index)]
        elif key and isinstance(value, dict) and key in value:
            value = value[key]
        else:
            return False, None
    return True, value


def gather(paths: Iterable[str], header: Mapping[str, str] | None = None) -> Gathered:
    """The rows of the results files at ``paths``, gathered; raises :class:`ResultsError`
    for a file that cannot be read or is not one."""
    gathered = Gathered()
    if header:
        gathered.header.update(header)
    paths = list(paths)
    several = len(paths) > 1
    ran: set[str] = set()
    traces = gathered.header.get("traces")
    for path in paths:
        digest = hashlib.sha256()
        rows = 0
        for number, row in read_rows(path, digest):
            rows += 1
            try:
                _add(gathered, row, path if several else None, ran, traces)
            except (KeyError, TypeError, ValueError) as error:
                raise ResultsError(
                    f"{path}:{number}: a {row['type']} row unlike those toolmatch check "
                    f"--format json writes ({type(error).__name__}: {error})"
                ) from None
        gathered.files.append(ResultsFile(os.path.basename(path), digest.hexdigest(), rows))
    gathered.missing = [name for name in gathered.missing if name not in ran]
    return gathered


def _add(
    gathered: Gathered, row: dict[str, object], file: str | None, ran: set[str], traces: str | None
) -> None:
    kind = row["type"]
    if kind == "case":
        _add_run(gathered, row, file, traces)
    elif kind == "error":
        gathered.counts["errors"] += 1
        if len(gathered.errors) < ERRORS_SHOWN:
            gathered.errors.append((place_of(row, file, traces), str(row["message"])))
    elif kind == "not_evaluable":
        _add_not_evaluable(gathered, row, file, traces)
    elif kind == "missing":
        if row["case"] not in gathered.missing:
            gathered.missing.append(str(row["case"]))
    elif kind == "trials":
        ran.add(str(row["case"]))
        gathered.case_order.setdefault(str(row["case"]))
        gathered.trial_rows.append(
            {"type": "trials", "case": row["case"], "runs": row["runs"], "passed": row["passed"]}
        )
    elif kind == "check":
        key = (str(row["case"]), str(row["check"]))
        counts = gathered.check_rows.setdefault(key, [row["description"], 0, 0])
        counts[1] = int(str(counts[1])) + int(str(row["failed"]))
        counts[2] = int(str(counts[2])) + int(str(row["runs"]))
    elif kind == "summary":
        if "findings" in row:  # check --strict refused the spec: lint's summary
            return
        gathered.counts["lines"] += int(str(row["lines"]))
        if row.get("not_evaluable_fails"):
            gathered.not_evaluable_fails = True
        if "min_pass_rate" in row:
            gathered.gates.append(row)
    elif kind == "coverage":
        tools = row["tools"]
        assert isinstance(tools, list)
        for tool in tools:
            name = str(tool["tool"])
            calls, matched, ignored, known = gathered.coverage.get(name, (0, 0, 0, None))
            gathered.coverage[name] = (
                calls + int(tool["calls"]),
                matched + int(tool["matched"]),
                ignored + int(tool["ignored"]),
                tool["defined"] if known is None else known,
            )
        never = row["never_called"]
        if isinstance(never, list):
            before = set(never) if gathered.never_called is None else set(gathered.never_called)
            gathered.never_called = [str(each) for each in never if each in before]
    elif kind == "finding":
        gathered.findings.append(row)
    elif kind == "baseline":
        gathered.baseline_rows.append(row)
    else:
        gathered.unknown[str(kind)] += 1


def _add_run(
    gathered: Gathered, row: dict[str, object], file: str | None, traces: str | None
) -> None:
    """A ``case`` row: a run that passed is counted; one that failed is kept, bounded."""
    name = str(row["case"])
    gathered.case_order.setdefault(name)
    if row["passed"]:
        gathered.counts["passed"] += 1
        return
    gathered.counts["failed"] += 1
    gathered.failed_count[name] += 1
    anchor = None
    if len(gathered.failures) < FAILURES_SHOWN:
        anchor = f"failure-{len(gathered.failures) + 1}"
        gathered.failures.append(Failure(row, file, anchor, traces))
    linked = gathered.failed_runs.setdefault(name, [])
    if len(linked) < RUNS_LINKED:
        linked.append((place_of(row, file, traces), anchor))


def _add_not_evaluable(
    gathered: Gathered, row: dict[str, object], file: str | None, traces: str | None
) -> None:
    """A run that cannot be judged: counted, and kept with its place and reason, bounded."""
    gathered.counts["not_evaluable"] += 1
    name = str(row["case"])
    gathered.case_order.setdefault(name)
    if len(gathered.not_evaluable) < ERRORS_SHOWN:
        title = name if row["run"] == 1 else f"{name} (run {row['run']})"
        place = place_of(row, file, traces)
        gathered.not_evaluable.append((place, title, str(row["reason"])))
