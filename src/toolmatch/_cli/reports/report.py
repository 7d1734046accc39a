"""What ``toolmatch check`` prints: text or JSON Lines, a JUnit report, a progress bar.

The formats are described in docs/cli.md; every text from the spec or the traces is
printed through :func:`printable`, so that no value can forge a report line.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import chain

from toolmatch._cli.reports.base import Tally, plural
from toolmatch._cli.reports.series import (
    SHOWN_AS_ZERO,
    json_mean,
    json_sink,
    json_value,
    text_value,
    write_series,
)
from toolmatch._cli.streams import printable
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.judging import ERROR, PASS
from toolmatch._runs.traces import LINE
from toolmatch._runs.trials import mean_pass_k, pass_k_stretches
from toolmatch._spec.loading import TestCase

if TYPE_CHECKING:
    from toolmatch._cli.reports.junit import JUnit
    from toolmatch._cli.reports.progress import Progress
    from toolmatch._cli.reports.series import Sink
    from toolmatch._runs.judging import Outcome
    from toolmatch._runs.traces import Place, Reading
    from toolmatch._runs.trials import MinPassRate

__all__ = ["Report"]


class Report:
    """Prints outcomes as they come, in text or JSON Lines, and feeds the JUnit report."""

    def __init__(
        self,
        names: Iterable[str],
        json_lines: bool,
        reading: Reading,
        junit: JUnit | None,
        progress: Progress | None,
        min_pass_rate: MinPassRate | None = None,
    ) -> None:
        self.names = frozenset(names)
        self.json_lines = json_lines
        self.reading = reading  # where each record is
        self.traces = reading.name
        # Reading a directory, each run says its file: in titles and in JSON rows.
        self.directory = reading.directory
        self.junit = junit
        self.progress = progress
        self.min_pass_rate = min_pass_rate
        self.tally = Tally()
        # Each case's trials, as counts only: memory does not grow with the runs.
        self.runs: dict[str, int] = {}
        self.passes: dict[str, int] = {}
        self.without_case = 0  # bad lines that name no case of the spec
        self.short: list[str] | None = None  # the cases below --min-pass-rate, once finished
        self.out = sys.stdout
        # Whether an outcome needs its place: its file, its JUnit line, its JSON row's line.
        self._placed = reading.directory or junit is not None or json_lines
        self._pending: list[str] = []  # report lines not written yet
        self.next_line = 1  # the first line not reported yet

    def _print(self, text: str) -> None:
        """A line of the report, written at the next :meth:`flush`."""
        # JSON Lines are ASCII already; text holds case names and values from the files.
        # (Most text is printable: asked here, that costs no call of printable.)
        if not (self.json_lines or text.isprintable()):
            text = printable(text)
        self._pending.append(text + "\n")

    def flush(self) -> None:
        """Writes the lines printed since the last flush, at once: a batch of outcomes
        from --jobs workers is one write, not one per line (unbuffered output included)."""
        pending = self._pending
        if pending:
            if self.progress is not None:
                self.progress.clear()
            text = pending[0] if len(pending) == 1 else "".join(pending)
            pending.clear()
            self.out.write(text)

    def add(self, outcome: Outcome) -> None:
        # Counted and in the JUnit report before it is printed: printing may fail (| head).
        kind, number, name, details, message, body = outcome
        self.next_line = number + 1
        if kind == ERROR:
            self.tally.errors += 1
            if name in self.names:
                # The case did run, badly: reported once as an error, not again as missing,
                # and a trial that did not pass.
                self.runs[name] = self.runs.get(name, 0) + 1
            else:
                self.without_case += 1
            self._error(number, message)
            return
        assert name is not None
        run = self.runs[name] = self.runs.get(name, 0) + 1
        if kind == PASS:
            self.tally.passed += 1
            self.passes[name] = self.passes.get(name, 0) + 1
        else:
            self.tally.failed += 1
        title = name if run == 1 else f"{name} (run {run})"
        if self._placed:
            place = self.reading.place(number)
            if self.directory:
                title = f"{title} at {place}"
            if self.junit is not None:
                line = place.number if place.unit == LINE else None
                file = place.file if self.directory else None
                if kind == PASS:
                    self.junit.passed(title, line, file)
                else:
                    self.junit.failed(title, line, message, details, file)
            if self.json_lines:
                head = json.dumps({"type": "case", "case": name, "run": run, **self._where(place)})
                self._print(f"{head[:-1]}, {body[1:]}" if body else head)
                return
        self._print(f"{'PASS' if kind == PASS else 'FAIL'} {title}")
        for detail in details:
            self._print(detail)

    def _where(self, place: Place) -> dict[str, object]:
        """A JSON row's place: its line, row or item, after its file when reading a directory."""
        if self.directory:
            return {"file": place.file, place.unit: place.number}
        return {place.unit: place.number}

    def _error(self, number: int, message: str) -> None:
        place = self.reading.place(number)
        where = str(place)
        if self.junit is not None:
            line = place.number if place.unit == LINE else None
            file = place.file if self.directory else None
            self.junit.error(where, line, "trace-error", message, file)
        if self.json_lines:
            row = {"type": "error", **self._where(place), "message": message}
            self._print(json.dumps(row))
        else:
            self._print(f"ERROR {where}: {message}")

    @property
    def exit_code(self) -> int:
        """As :attr:`Tally.exit_code`; with ``--min-pass-rate``, 1 exactly when a case's
        pass rate is below it or a bad line names no case (its run counts for none)."""
        if self.min_pass_rate is None:
            return self.tally.exit_code
        assert self.short is not None, "the report is not finished"
        return 1 if self.short or self.without_case else 0

    def finish(self, cases: Sequence[TestCase], reading: Reading) -> None:
        for case in cases:
            if case.name in self.runs:
                continue
            self.tally.missing += 1
            message = f"no run in {self.traces}"
            if self.junit is not None:
                self.junit.error(case.name, None, "missing", message)
            if self.json_lines:
                self._print(json.dumps({"type": "missing", "case": case.name}))
            else:
                self._print(f"MISSING {case.name}: {message}")
        # A report of single runs stays as it was: the text gives trials only when some case
        # ran more than once, since one run's statistics only repeat its PASS or FAIL.
        text = not self.json_lines and any(runs > 1 for runs in self.runs.values())
        by_counts, short = self._trials(cases, text)
        self.short = [name for name, _ in short]
        self._totals(by_counts, reading, text)
        if not self.json_lines:
            tally = self.tally
            extra = []
            if tally.errors:
                extra.append(plural(tally.errors, "error"))
            if tally.missing:
                extra.append(f"{tally.missing} missing")
            if extra:
                self._print(", ".join(extra))
            if self.min_pass_rate is not None:
                if short:
                    shown = ", ".join(f"{name} ({how})" for name, how in short)
                    self._print(f"pass rate below {self.min_pass_rate.text}: {shown}")
                if self.without_case:
                    lines = plural(self.without_case, "line")
                    verb = "names" if self.without_case == 1 else "name"
                    self._print(f"pass rate unknown: {lines} {verb} no case of the spec")
            self._print(f"{tally.passed} passed, {tally.failed} failed")
        self.flush()
        self.out.flush()

    def _trials(
        self, cases: Sequence[TestCase], text: bool
    ) -> tuple[Counter[tuple[int, int]], list[tuple[str, str]]]:
        """Reports each case's trials, in the spec's order; returns how many cases had each
        number of runs and passes, and the cases below ``--min-pass-rate`` with their counts."""
        by_counts: Counter[tuple[int, int]] = Counter()
        short: list[tuple[str, str]] = []
        least = None if self.min_pass_rate is None else self.min_pass_rate.value
        for case in cases:
            name = case.name
            runs = self.runs.get(name)
            if runs is None:  # missing: no run passed
                if least is not None and least > 0:
                    short.append((name, "no run"))
                continue
            passed = self.passes.get(name, 0)
            by_counts[runs, passed] += 1
            if least is not None and Fraction(passed, runs) < least:
                short.append((name, f"{passed}/{runs} passed"))
            counts = {"runs": runs, "passed": passed, "pass_rate": passed / runs}
            sinks: list[Sink[float]] = []
            if self.json_lines:
                row = {"type": "trials", "case": name, **counts}
                sinks.append(json_sink(self._write, json.dumps(row), json_value, "}}\n"))
            elif text:
                head = f"TRIALS {printable(name)}: {passed}/{runs} passed, "
                sinks.append((self._write, head, "pass^", text_value, "\n"))
            if self.junit is not None:
                write = self.junit.property(f"trials:{name}")
                sinks.append(json_sink(write, json.dumps(counts), json_value, "}}"))
            write_series(pass_k_stretches(runs, passed, self._negligible(text)), sinks)
        return by_counts, short

    def _negligible(self, text: bool) -> float:
        """Below what a pass^k value is shown as 0.0: ``0.0005`` when only the text shows
        them (with three decimals), else 0.0 (JSON and JUnit show every digit)."""
        return SHOWN_AS_ZERO if text and self.junit is None else 0.0

    def _totals(self, by_counts: Counter[tuple[int, int]], reading: Reading, text: bool) -> None:
        """The mean pass rate and pass^k over the cases that ran, with the summary row."""
        cases = sum(by_counts.values())
        means = mean_pass_k(by_counts, self._negligible(text))
        first = next(means, None)
        totals = {"cases": cases, "pass_rate": None if first is None else first[0][0]}
        tail = ""
        if self.min_pass_rate is not None:
            assert self.short is not None
            gate = {
                "min_pass_rate": float(self.min_pass_rate.value),
                "below_min_pass_rate": self.short,
                "lines_without_case": self.without_case,
            }
            tail = ", " + json.dumps(gate)[1:-1]
        sinks: list[Sink[tuple[float, int]]] = []
        if self.json_lines:
            tally = self.tally
            summary = {
                "type": "summary",
                "passed": tally.passed,
                "failed": tally.failed,
                "errors": tally.errors,
                "missing": tally.missing,
                "lines": reading.lines,
                **totals,
            }
            ending = f"}}{tail}}}\n"
            sinks.append(json_sink(self._write, json.dumps(summary), json_mean, ending))
        elif text:

            def mean(value: tuple[float, int]) -> str:
                shown = f" {value[0]:.3f}"
                return shown if value[1] == cases else f"{shown} ({plural(value[1], 'case')})"

            head = f"TRIALS mean over {plural(cases, 'case')}: "
            sinks.append((self._write, head, "pass^", mean, "\n"))
        if self.junit is not None:
            write = self.junit.property("trials")
            sinks.append(json_sink(write, json.dumps(totals), json_mean, f"}}{tail}}}"))
        if first is not None:
            means = chain([first], means)
        write_series(means, sinks)

    def _write(self, text: str) -> None:
        self.flush()  # the lines printed before it come first
        self.out.write(text)
