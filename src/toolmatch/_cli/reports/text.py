"""The text report of ``toolmatch check`` (the default): PASS, FAIL, NOT EVALUABLE, ERROR and
MISSING lines,
the trials of cases that ran more than once, and the counts (docs/cli.md).

Every text from the spec or the traces is printed through :func:`printable`, so that no
value can forge a report line.
"""

from __future__ import annotations

from toolmatch._cli.console import printable
from toolmatch._cli.reports.base import Format, plural
from toolmatch._cli.reports.series import SHOWN_AS_ZERO, text_value
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from toolmatch._cli.reports.base import Output, ReportedRun, Summary
    from toolmatch._cli.reports.series import Sink
    from toolmatch._runs.coverage import CoverageRow
    from toolmatch._runs.traces import TracesSource
    from toolmatch._runs.trials import FailedCheck

__all__ = ["Text"]


class Text(Format):
    def __init__(self, output: Output, traces: TracesSource) -> None:
        self.output = output
        self.pending = output.pending

    # Most lines are printable: asked first, that costs no call of printable.
    def passed(self, run: ReportedRun) -> None:
        line = f"PASS {run.title}"
        self.pending.append(f"{line}\n" if line.isprintable() else f"{printable(line)}\n")

    def failed(self, run: ReportedRun) -> None:
        pending = self.pending
        for line in (f"FAIL {run.title}", *run.outcome.details):
            pending.append(f"{line}\n" if line.isprintable() else f"{printable(line)}\n")

    def _print(self, line: str) -> None:
        self.pending.append(f"{printable(line)}\n")

    def not_evaluable(self, run: ReportedRun) -> None:
        self._print(f"NOT EVALUABLE {run.title}: {run.outcome.message}")

    def error(self, run: ReportedRun) -> None:
        self._print(f"ERROR {run.title}: {run.outcome.message}")

    def missing(self, case: str, message: str) -> None:
        self._print(f"MISSING {case}: {message}")

    def trials_shown(self, repeated: bool) -> float | None:
        # A report of single runs stays as it was: one run's statistics only repeat its
        # PASS or FAIL. The values show with three decimals.
        return SHOWN_AS_ZERO if repeated else None

    def case_trials(
        self, name: str, runs: int, passed: int, points: Sequence[int], not_evaluable: int
    ) -> Sink[float]:
        # With --pass-k, a case may have fewer runs than every k listed: its counts only.
        apart = f" ({not_evaluable} not evaluable)" if not_evaluable else ""
        head = f"TRIALS {printable(name)}: {passed}/{runs} passed{apart}{', ' if points else ''}"
        return (self.output.write, head, "pass^", text_value, "\n")

    def failed_checks(self, name: str, checks: list[FailedCheck]) -> None:
        for check in checks:
            if check.flaky:
                how = f"failed in {check.failed} of {check.runs} runs ({check.share:.2f})"
                self._print(f"FLAKY {name}: {check.name}: {how}")
            else:
                self._print(f"BROKEN {name}: {check.name}: failed in all {check.runs} runs")

    def mean_trials(self, summary: Summary, points: Sequence[int]) -> Sink[tuple[float, int]]:
        cases = summary.cases

        def mean(value: tuple[float, int]) -> str:
            shown = f" {value[0]:.3f}"
            return shown if value[1] == cases else f"{shown} ({plural(value[1], 'case')})"

        head = f"TRIALS mean over {plural(cases, 'case')}{': ' if points else ''}"
        return (self.output.write, head, "pass^", mean, "\n")

    def end(self, summary: Summary) -> None:
        tally = summary.tally
        delta = summary.baseline
        if delta is not None:
            for change in delta.changes:
                why = change.why(delta.significance)
                self._print(f"BASELINE {change.kind.upper()} {change.case}: {why}")
            counts = ", ".join(f"{count} {kind}" for kind, count in delta.counts().items())
            self._print(f"baseline: {counts}")
        extra = []
        if tally.errors:
            extra.append(plural(tally.errors, "error"))
        if tally.missing:
            extra.append(f"{tally.missing} missing")
        if extra:
            self._print(", ".join(extra))
        if summary.min_pass_rate is not None:
            if summary.short:
                shown = ", ".join(f"{name} ({how})" for name, how in summary.short)
                self._print(f"pass rate below {summary.min_pass_rate.shown}: {shown}")
            if summary.without_case:
                lines = plural(summary.without_case, "line")
                verb = "names" if summary.without_case == 1 else "name"
                self._print(f"pass rate unknown: {lines} {verb} no case of the spec")
        apart = f", {tally.not_evaluable} not evaluable" if tally.not_evaluable else ""
        self._print(f"{tally.passed} passed, {tally.failed} failed{apart}")

    def coverage(self, rows: list[CoverageRow], never_called: list[str] | None) -> None:
        if not rows:
            self._print("COVERAGE no calls")
        else:
            names = [printable(row[0]) for row in rows]
            width = max(len("tool"), *map(len, names))
            defined = never_called is not None
            self._print(f"COVERAGE {'tool':<{width}} calls matched ignored{' defined' * defined}")
            for name, (_, calls, matched, ignored, known) in zip(names, rows, strict=True):
                mark = "" if known is None else f" {'yes' if known else 'no'}"
                self._print(f"COVERAGE {name:<{width}} {calls:>5} {matched:>7} {ignored:>7}{mark}")
        if never_called is not None:
            shown = ", ".join(never_called) if never_called else "none"
            self._print(f"COVERAGE defined, never called: {shown}")
