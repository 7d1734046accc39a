"""What every format of the report is told (:class:`Format`), and what they share.

A format is told each outcome as it comes, as a :class:`ReportedRun`: a passed run, a
failed run with its failure lines, a run that cannot be judged with why, a bad record;
then, at the end, each missing case, each case's trials and their mean, with the
:class:`Summary`. The formats that print on standard output write their lines to one
:class:`Output`, which the report writes a batch at a time.
"""

from __future__ import annotations

import json

from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import IO

    from toolmatch._cli.reports.progress import Progress
    from toolmatch._cli.reports.series import Sink
    from toolmatch._runs.baseline import Delta
    from toolmatch._runs.coverage import CoverageRow
    from toolmatch._runs.judging import Outcome
    from toolmatch._runs.traces import Place
    from toolmatch._runs.trials import FailedCheck, MinPassRate

__all__ = ["Format", "Output", "ReportedRun", "Summary", "Tally", "plural"]


class Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.errors = 0
        self.missing = 0
        self.not_evaluable = 0  # runs of a case that cannot be judged: apart from the others

    @property
    def exit_code(self) -> int:
        """1 when a run failed, a record was bad or a case is missing; runs that cannot be
        judged are left to ``--not-evaluable`` (the report's)."""
        return 1 if self.failed or self.errors or self.missing else 0


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class Output:
    """The report's lines on standard output: kept in :attr:`pending` until :meth:`flush`
    writes them at once, so that a batch of outcomes from --jobs workers is one write, not
    one per line (unbuffered output included)."""

    def __init__(self, out: IO[str], progress: Progress | None) -> None:
        self.out = out
        self.progress = progress  # cleared before the lines are written
        self.pending: list[str] = []  # lines, each ending with a newline

    def flush(self) -> None:
        pending = self.pending
        if pending:
            if self.progress is not None:
                self.progress.clear()
            text = pending[0] if len(pending) == 1 else "".join(pending)
            pending.clear()
            self.out.write(text)

    def write(self, text: str) -> None:
        """Writes ``text`` now, after the lines pending: a long series, in pieces."""
        self.flush()
        self.out.write(text)


class ReportedRun(Record):
    """A record of TRACES as the report tells it to every format: the judge's ``outcome``
    (its case, message, failure lines, JSON body, ...), which ``run`` of its case it is
    (1 for the first; 0 for a bad record that names no case of the spec), its ``title`` in
    the report (the case's name, ``(run N)`` after it from its second run on, ``at <place>``
    when reading a directory; a bad record's place), and its ``place``: where the record is,
    or None when no format asked for it (:attr:`Format.placed`). Something new a format
    needs to know of a run is a field here or on the outcome, not a change to every format.
    """

    __slots__ = _fields = ("outcome", "run", "title", "place")
    __hash__ = None  # type: ignore[assignment]  # its outcome's details are a list
    outcome: Outcome
    run: int
    title: str
    place: Place | None


class Summary:
    """What the report knows at its end: the tally, the lines read, and the trials."""

    def __init__(
        self,
        tally: Tally,
        lines: int,
        cases: int,
        pass_rate: float | None,
        min_pass_rate: MinPassRate | None,
        short: list[tuple[str, str]],
        without_case: int,
        baseline: Delta | None = None,
        not_evaluable_fails: bool = True,
    ) -> None:
        self.tally = tally
        self.lines = lines  # every line read, blank ones included
        self.cases = cases  # the cases that ran
        self.pass_rate = pass_rate  # their mean pass rate; None when none ran
        self.min_pass_rate = min_pass_rate
        self.short = short  # the cases below --min-pass-rate, with their counts
        self.without_case = without_case  # bad lines that name no case of the spec
        self.baseline = baseline  # --baseline: the changes from it
        self.not_evaluable_fails = not_evaluable_fails  # --not-evaluable fail

    def not_evaluable(self) -> dict[str, object]:
        """The JSON keys of the runs that cannot be judged: how many, and whether they fail
        the command (``--not-evaluable``); none when every run was judged."""
        count = self.tally.not_evaluable
        return (
            {"not_evaluable": count, "not_evaluable_fails": self.not_evaluable_fails}
            if count
            else {}
        )

    def gate(self) -> str:
        """The ``--min-pass-rate`` and ``--baseline`` keys of a JSON object, after a comma;
        "" without them."""
        gate: dict[str, object] = {}
        if self.baseline is not None:
            gate["baseline"] = self.baseline.counts()
            gate["regressions"] = len(self.baseline.regressions)
        if self.min_pass_rate is None:
            return ", " + json.dumps(gate)[1:-1] if gate else ""
        gate["min_pass_rate"] = float(self.min_pass_rate.value)
        if self.min_pass_rate.confidence is not None:
            gate["confidence"] = self.min_pass_rate.confidence
        gate["below_min_pass_rate"] = [name for name, _ in self.short]
        gate["lines_without_case"] = self.without_case
        return ", " + json.dumps(gate)[1:-1]


class Format:
    """One format of the report, told each record as a :class:`ReportedRun`."""

    # Whether it needs each run's place (finding it costs a little, on every line).
    placed = False
    # Whether it needs each run's result as JSON (the RecordJudge makes it only when asked).
    wants_json = False

    def passed(self, run: ReportedRun) -> None:
        """A run that passed; ``run.outcome.body`` is its result as a JSON object, or None."""
        raise NotImplementedError

    def failed(self, run: ReportedRun) -> None:
        """A run that failed: ``run.outcome.message`` in a line, ``.details`` the report's
        lines."""
        raise NotImplementedError

    def not_evaluable(self, run: ReportedRun) -> None:
        """A run of a case that cannot be judged (its record says it did not complete, or a
        check asserts a field its input does not record): ``run.outcome.message`` says why."""
        raise NotImplementedError

    def error(self, run: ReportedRun) -> None:
        """A record that is not a run of a case (bad JSON, no case, ...): ``run.place`` is
        where it is, ``run.outcome.message`` what is wrong with it."""
        raise NotImplementedError

    def missing(self, case: str, message: str) -> None:
        """A case of the spec with no run."""
        raise NotImplementedError

    def trials_shown(self, repeated: bool) -> float | None:
        """Below what this format shows a pass^k value as 0.0, or None when it shows no
        trials; ``repeated``: some case ran more than once."""
        raise NotImplementedError

    def case_trials(
        self, name: str, runs: int, passed: int, points: Sequence[int], not_evaluable: int
    ) -> Sink[float]:
        """Where a case's pass^k series goes (asked only when :meth:`trials_shown`): over its
        ``runs`` that could be judged, ``not_evaluable`` others besides; ``points`` are the
        k it holds (``--pass-k``)."""
        raise NotImplementedError

    def failed_checks(self, name: str, checks: list[FailedCheck]) -> None:
        """The checks of a case of several runs that failed in some of them, flaky first
        (told after its trials, only when :meth:`trials_shown`)."""
        raise NotImplementedError

    def mean_trials(self, summary: Summary, points: Sequence[int]) -> Sink[tuple[float, int]]:
        """Where the mean pass^k series over the cases goes, each value with how many cases
        it is over (asked only when :meth:`trials_shown`), at the k of ``points``."""
        raise NotImplementedError

    def end(self, summary: Summary) -> None:
        """The report's last lines, if any."""

    def coverage(self, rows: list[CoverageRow], never_called: list[str] | None) -> None:
        """``--coverage``, after the end: a row per tool called, by name, and the defined
        tools never called (``None`` when no tool is defined); nothing by default."""
