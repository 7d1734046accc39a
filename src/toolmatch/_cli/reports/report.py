"""What ``toolmatch check`` reports: each outcome counted, then told to every format chosen
(text or JSON Lines on standard output, a JUnit report); the trials and the exit status.

The formats are described in docs/cli.md; each is a :class:`Format`, one module each.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import chain

from toolmatch._cli.reports.base import ReportedRun, Summary, Tally
from toolmatch._cli.reports.json_lines import JsonLines
from toolmatch._cli.reports.series import write_series
from toolmatch._cli.reports.text import Text
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.baseline import Side, compare
from toolmatch._runs.judging import ERROR, FAIL, PASS
from toolmatch._runs.trials import PassK, failed_checks, mean_pass_k, pass_k_stretches
from toolmatch._selection.case import TestCase

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from toolmatch._cli.reports.base import Format, Output
    from toolmatch._cli.reports.series import Sink
    from toolmatch._runs.baseline import Delta
    from toolmatch._runs.coverage import CoverageRow
    from toolmatch._runs.judging import Outcome
    from toolmatch._runs.traces import TracesSource
    from toolmatch._runs.trials import MinPassRate

__all__ = ["OUTPUT_FORMATS", "Report"]

# The formats of standard output, by their --format name: each made from the Output and
# the TracesSource being reported on.
OUTPUT_FORMATS: dict[str, Callable[[Output, TracesSource], Format]] = {
    "text": Text,
    "json": JsonLines,
}


def _each(methods: list[Callable[..., None]]) -> Callable[..., None]:
    """One call that makes each of ``methods`` with the same arguments; one format's own
    method itself, so that a report in one format pays nothing on each line."""
    if len(methods) == 1:
        return methods[0]

    def each(*arguments: Any) -> None:
        for method in methods:
            method(*arguments)

    return each


class Report:
    """Counts outcomes as they come and tells each format of ``formats``, in their order."""

    def __init__(
        self,
        names: Iterable[str],
        traces: TracesSource,
        formats: Sequence[Format],
        output: Output,
        min_pass_rate: MinPassRate | None = None,
        pass_k: PassK | None = None,
        baseline: Delta | None = None,
        before: Mapping[str, Side] | None = None,
        events: Callable[[str], None] | None = None,
        not_evaluable_fails: bool = True,
    ) -> None:
        self.names = frozenset(names)
        self.traces = traces  # where each record is
        # Reading a directory, each run says its file in its title.
        self.directory = traces.directory
        self.formats = formats
        self.output = output
        self.min_pass_rate = min_pass_rate
        self.pass_k = PassK() if pass_k is None else pass_k  # the k of pass^k shown
        self.tally = Tally()
        self.events = events  # where each run's verdict event goes (--otel-events)
        # Each case's trials, as counts only: memory does not grow with the runs.
        self.runs: dict[str, int] = {}
        self.passes: dict[str, int] = {}
        # The runs of each case that could not be checked, and in how many of those checked
        # each check failed (RunVerdict.broken): the trials' failed checks.
        self.errored: dict[str, int] = {}
        self.broken: dict[str, Counter[tuple[int | None, int | str]]] = {}
        # The runs of each case that cannot be judged: left out of its trials, and whether
        # any fails the command (--not-evaluable fail) or not (pass-through).
        self.unjudged: dict[str, int] = {}
        self.not_evaluable_fails = not_evaluable_fails
        self.without_case = 0  # bad lines that name no case of the spec
        self.short: list[str] | None = None  # the cases below --min-pass-rate, once finished
        # --baseline: the options (its changes found at the end) and the baseline's cases.
        self.baseline, self.before = baseline, before
        self.sides: dict[str, Side] = {}  # each case's trials, for the baseline
        # Whether an outcome needs its place: its file in the title, or a format asks.
        self._placed = traces.directory or any(each.placed for each in formats)
        self._pending = output.pending  # report lines not written yet
        self.next_line = 1  # the first line not reported yet
        # Decided once, not on each line: what tells the formats.
        self._passed = _each([each.passed for each in formats])
        self._failed = _each([each.failed for each in formats])

    def flush(self) -> None:
        """Writes the lines of the outcomes added since the last flush, at once."""
        if self._pending:
            self.output.flush()

    def add_all(self, outcomes: Iterable[Outcome]) -> None:
        """Counts each outcome, then tells the formats, in order (not yet written)."""
        runs, passes, tally, passed = self.runs, self.passes, self.tally, self._passed
        placed, place, events = self._placed, None, self.events
        number = self.next_line - 1
        try:
            for outcome in outcomes:
                number = outcome.number
                # Counted before it is told: printing may fail (| head).
                if outcome.event is not None and events is not None:
                    events(outcome.event)
                if outcome.kind == ERROR:
                    self._error(outcome)
                    continue
                name = outcome.case
                assert name is not None
                run = runs[name] = runs.get(name, 0) + 1
                title = name if run == 1 else f"{name} (run {run})"
                if placed:
                    place = self.traces.place(number)
                    if self.directory:
                        title = f"{title} at {place}"
                if outcome.kind == PASS:
                    tally.passed += 1
                    passes[name] = passes.get(name, 0) + 1
                    passed(ReportedRun(outcome, run, title, place))
                elif outcome.kind == FAIL:
                    tally.failed += 1
                    counts = self.broken.get(name)
                    if counts is None:
                        counts = self.broken[name] = Counter()
                    counts.update(outcome.broken)
                    self._failed(ReportedRun(outcome, run, title, place))
                else:
                    self._not_evaluable(ReportedRun(outcome, run, title, place))
        finally:  # the first record not reported, however the batch ended
            self.next_line = number + 1

    def _not_evaluable(self, told: ReportedRun) -> None:
        self.tally.not_evaluable += 1
        name = told.outcome.case
        assert name is not None
        self.unjudged[name] = self.unjudged.get(name, 0) + 1
        for each in self.formats:
            each.not_evaluable(told)

    def _error(self, outcome: Outcome) -> None:
        self.tally.errors += 1
        name = outcome.case
        run = 0
        if name in self.names:
            # The case did run, badly: reported once as an error, not again as missing,
            # and a trial that did not pass.
            run = self.runs[name] = self.runs.get(name, 0) + 1
            self.errored[name] = self.errored.get(name, 0) + 1
        else:
            self.without_case += 1
        where = self.traces.place(outcome.number)
        told = ReportedRun(outcome, run, str(where), where)
        for each in self.formats:
            each.error(told)

    @property
    def exit_code(self) -> int:
        """As :attr:`Tally.exit_code`; with ``--min-pass-rate``, 1 exactly when a case's
        pass rate is below it or a bad line names no case (its run counts for none). Either
        way 1 when a run cannot be judged, unless ``--not-evaluable pass-through``."""
        if self.baseline is not None and self.baseline.regressions:
            return 1
        if self.tally.not_evaluable and self.not_evaluable_fails:
            return 1
        if self.min_pass_rate is None:
            return self.tally.exit_code
        assert self.short is not None, "the report is not finished"
        return 1 if self.short or self.without_case else 0

    def finish(self, cases: Sequence[TestCase]) -> None:
        for case in cases:
            if case.name in self.runs:
                continue
            self.tally.missing += 1
            message = f"no run in {self.traces.name}"
            for each in self.formats:
                each.missing(case.name, message)
        repeated = any(runs > 1 for runs in self.runs.values())
        shows = [(each, each.trials_shown(repeated)) for each in self.formats]
        shown = [each for each, below in shows if below is not None]
        # Below what pass^k is 0.0: as the format that shows the most digits shows it.
        negligible = min((below for _, below in shows if below is not None), default=0.0)
        by_counts, short = self._trials(cases, shown, negligible)
        self.short = [name for name, _ in short]
        if self.baseline is not None:
            assert self.before is not None
            changes = compare(self.before, self.sides, self.baseline.significance)
            self.baseline = self.baseline._replace(changes=changes)
        means = mean_pass_k(by_counts, negligible)
        first = next(means, None)
        summary = Summary(
            self.tally,
            self.traces.lines,
            sum(by_counts.values()),
            None if first is None else first[0][0],
            self.min_pass_rate,
            short,
            self.without_case,
            self.baseline,
            self.not_evaluable_fails,
        )
        # The mean pass rate and pass^k over the cases that ran, with the summary.
        points = self.pass_k.points(max((runs for runs, _ in by_counts), default=0))
        mean_sinks = [each.mean_trials(summary, points) for each in shown]
        series = means if first is None else chain([first], means)
        write_series(series, mean_sinks, None if self.pass_k.every else points)
        for each in self.formats:
            each.end(summary)
        self.flush()
        self.output.out.flush()

    def coverage(self, rows: list[CoverageRow], never_called: list[str] | None) -> None:
        """``--coverage``'s table, told to every format once the report is finished."""
        for each in self.formats:
            each.coverage(rows, never_called)
        self.flush()
        self.output.out.flush()

    def _trials(
        self, cases: Sequence[TestCase], shown: list[Format], negligible: float
    ) -> tuple[Counter[tuple[int, int]], list[tuple[str, str]]]:
        """Tells ``shown`` each case's trials, in the spec's order; returns how many cases
        had each number of runs and passes, and the cases below ``--min-pass-rate`` with
        their counts."""
        by_counts: Counter[tuple[int, int]] = Counter()
        short: list[tuple[str, str]] = []
        gate = self.min_pass_rate
        for case in cases:
            name = case.name
            unjudged = self.unjudged.get(name, 0)
            # pass^k is over the runs judged: those that cannot be are counted apart
            runs = self.runs.get(name, 0) - unjudged or None
            if runs is None:  # missing, or no run could be judged: no run passed
                if gate is not None and (how := gate.shortfall(0, 0)) is not None:
                    short.append(
                        (name, f"no run judged, {unjudged} not evaluable" if unjudged else how)
                    )
                continue
            passed = self.passes.get(name, 0)
            by_counts[runs, passed] += 1
            if gate is not None and (how := gate.shortfall(passed, runs)) is not None:
                short.append((name, how))
            points = self.pass_k.points(runs)
            sinks: list[Sink[float]] = [
                each.case_trials(name, runs, passed, points, unjudged) for each in shown
            ]
            stretches = pass_k_stretches(runs, passed, negligible)
            write_series(stretches, sinks, None if self.pass_k.every else points)
            checked = runs - self.errored.get(name, 0)
            flaky: tuple[str, ...] = ()
            if checked > 1 and name in self.broken:  # one run's checks only repeat its FAIL
                checks = failed_checks(case, self.broken[name], checked)
                flaky = tuple(check.place for check in checks if check.flaky)
                for each in shown:
                    each.failed_checks(name, checks)
            self.sides[name] = Side(runs, passed, flaky)
        return by_counts, short
