"""The JSON Lines report of ``toolmatch check --format json``: one object a run, bad line
and missing case, one a case's trials, then a summary object (docs/cli.md).

JSON Lines are ASCII: no value can forge a line, and nothing needs escaping.
"""

from __future__ import annotations

import json

from toolmatch._cli.reports.base import Format
from toolmatch._cli.reports.series import json_mean, json_sink, json_value
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from toolmatch._cli.reports.base import Output, ReportedRun, Summary
    from toolmatch._cli.reports.series import Sink
    from toolmatch._runs.coverage import CoverageRow
    from toolmatch._runs.traces import Place, TracesSource
    from toolmatch._runs.trials import FailedCheck

__all__ = ["JsonLines", "check_counts"]


class JsonLines(Format):
    placed = True
    wants_json = True

    def __init__(self, output: Output, traces: TracesSource) -> None:
        self.output = output
        self.pending = output.pending
        # Reading a directory, each row says its file.
        self.directory = traces.directory
        self.names: dict[str, str] = {}  # each case's name as JSON

    def _where(self, place: Place) -> dict[str, object]:
        """A row's place: its line, row or item, after its file when reading a directory."""
        if self.directory:
            return {"file": place.file, place.unit: place.number}
        return {place.unit: place.number}

    def passed(self, run: ReportedRun) -> None:
        place, name, body = run.place, run.outcome.case, run.outcome.body
        assert place is not None
        assert name is not None
        # As json.dumps writes {"type": "case", "case": name, "run": run, **_where(place)},
        # the case's name written once: this runs for every run.
        case = self.names.get(name)
        if case is None:
            case = self.names[name] = json.dumps(name)
        where = f'"file": {json.dumps(place.file)}, ' if self.directory else ""
        head = (
            f'{{"type": "case", "case": {case}, "run": {run.run}, {where}'
            f'"{place.unit}": {place.number}'
        )
        self.pending.append(f"{head}, {body[1:]}\n" if body else f"{head}}}\n")

    def failed(self, run: ReportedRun) -> None:
        self.passed(run)  # the same row: its body says it failed

    def not_evaluable(self, run: ReportedRun) -> None:
        place, name = run.place, run.outcome.case
        assert place is not None
        row = {
            "type": "not_evaluable",
            "case": name,
            "run": run.run,
            **self._where(place),
            "reason": run.outcome.message,
        }
        self.pending.append(f"{json.dumps(row)}\n")

    def error(self, run: ReportedRun) -> None:
        assert run.place is not None
        row = {"type": "error", **self._where(run.place), "message": run.outcome.message}
        self.pending.append(f"{json.dumps(row)}\n")

    def missing(self, case: str, message: str) -> None:
        self.pending.append(f"{json.dumps({'type': 'missing', 'case': case})}\n")

    def trials_shown(self, repeated: bool) -> float | None:
        return 0.0  # every case's, with every digit

    def case_trials(
        self, name: str, runs: int, passed: int, points: Sequence[int], not_evaluable: int
    ) -> Sink[float]:
        row: dict[str, object] = {"type": "trials", "case": name, "runs": runs, "passed": passed}
        if not_evaluable:  # runs apart from those judged: only when there are any
            row["not_evaluable"] = not_evaluable
        row.update(pass_rate=passed / runs, k=list(points))
        return json_sink(self.output.write, json.dumps(row), json_value, "}}\n")

    def failed_checks(self, name: str, checks: list[FailedCheck]) -> None:
        for check in checks:
            row = {"type": "check", "case": name, "check": check.place, **check_counts(check)}
            self.pending.append(f"{json.dumps(row)}\n")

    def mean_trials(self, summary: Summary, points: Sequence[int]) -> Sink[tuple[float, int]]:
        if summary.baseline is not None:  # before the summary, which stays the last row
            for change in summary.baseline.changes:
                self.pending.append(f"{json.dumps(summary.baseline.row(change))}\n")
        tally = summary.tally
        row = {
            "type": "summary",
            "passed": tally.passed,
            "failed": tally.failed,
            "errors": tally.errors,
            "missing": tally.missing,
            **summary.not_evaluable(),
            "lines": summary.lines,
            "cases": summary.cases,
            "pass_rate": summary.pass_rate,
            "k": list(points),
        }
        ending = f"}}{summary.gate()}}}\n"
        return json_sink(self.output.write, json.dumps(row), json_mean, ending)

    def coverage(self, rows: list[CoverageRow], never_called: list[str] | None) -> None:
        tools = [
            {"tool": name, "calls": calls, "matched": matched, "ignored": ignored, "defined": known}
            for name, calls, matched, ignored, known in rows
        ]
        row = {"type": "coverage", "tools": tools, "never_called": never_called}
        self.pending.append(f"{json.dumps(row)}\n")


def check_counts(check: FailedCheck) -> dict[str, object]:
    """A failed check's description and counts, as JSON rows and JUnit properties give them."""
    return {
        "description": check.description,
        "failed": check.failed,
        "runs": check.runs,
        "share": check.share,
        "flaky": check.flaky,
    }
