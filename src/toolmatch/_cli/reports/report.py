"""What ``toolmatch check`` prints: text or JSON Lines, a JUnit report, a progress bar.

The formats are described in docs/cli.md; every text from the spec or the traces is
printed through :func:`printable`, so that no value can forge a report line.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from itertools import chain

from toolmatch._cli.streams import printable
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.judging import ERROR, PASS
from toolmatch._runs.traces import LINE
from toolmatch._runs.trials import mean_pass_k, pass_k_stretches
from toolmatch._spec.loading import TestCase

if TYPE_CHECKING:
    from typing import IO, TypeVar

    from toolmatch._runs.judging import Outcome
    from toolmatch._runs.traces import Place, Reading
    from toolmatch._runs.trials import MinPassRate

    _T = TypeVar("_T")
    # Where a series goes: how to write, what comes before it, the text before each k,
    # the text after it (made from the value), what ends it.
    _Sink = tuple[Callable[[str], None], str, str, Callable[[_T], str], str]

__all__ = ["JUnit", "Progress", "Report", "Tally", "progress_bar"]

_PROGRESS_EVERY = 0.1  # seconds between progress redraws


class Progress:
    """A tqdm bar on stderr over the bytes of the traces read, with the runs checked so far.

    tqdm comes with the ``cli`` extra; without it there is simply no bar.
    """

    def __init__(self, stream: IO[str], total_bytes: int | None) -> None:
        from tqdm import tqdm

        self.bar = tqdm(
            total=total_bytes,
            unit="B",
            unit_scale=True,
            desc="toolmatch",
            file=stream,
            leave=False,
            mininterval=_PROGRESS_EVERY,
            dynamic_ncols=True,
        )
        self.read = 0

    def update(self, runs: int, reading: Reading) -> None:
        self.bar.set_postfix_str(f"{runs:,} run(s) checked", refresh=False)
        self.bar.update(reading.bytes - self.read)
        self.read = reading.bytes

    def clear(self) -> None:
        """Wipe the bar before a report line is printed; the next update draws it again."""
        self.bar.clear()

    def close(self) -> None:
        self.bar.close()


def progress_bar(total_bytes: int | None) -> Progress | None:
    if not sys.stderr.isatty():
        return None
    try:
        return Progress(sys.stderr, total_bytes)
    except ImportError:  # tqdm is not installed: no bar, nothing else changes
        return None


class Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.errors = 0
        self.missing = 0

    @property
    def exit_code(self) -> int:
        return 1 if self.failed or self.errors or self.missing else 0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class JUnit:
    """A JUnit XML report: test cases go to a temporary file as they come, since the
    ``<testsuite>`` element's counts, written first, are known only at the end.

    The report is written whole to a temporary file beside PATH, then renamed to PATH:
    a reader never sees half a report, and PATH keeps its previous report until then.
    A PATH that is not a file, such as ``/dev/stdout`` or a named pipe, is written to.
    """

    def __init__(self, path: str, suite: str, traces: str) -> None:
        import stat
        import tempfile

        try:
            in_place = not stat.S_ISREG(os.stat(path).st_mode)
        except OSError:  # nothing there yet
            in_place = False
        self.target: IO[str]
        if in_place:  # (a folder fails here, as it should)
            self.destination = None
            self.target = open(path, "w", encoding="utf-8")  # noqa: SIM115  # closed in finish()
        else:
            # Through a symbolic link, the file it names is the one replaced.
            self.destination = os.path.realpath(path) if os.path.islink(path) else path
            folder, name = os.path.split(os.path.abspath(self.destination))
            self.target = tempfile.NamedTemporaryFile(  # noqa: SIM115  # renamed in finish()
                "w", encoding="utf-8", dir=folder, prefix=f".{name}.", suffix=".tmp", delete=False
            )
        self.body = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        # The suite's <properties> come before its test cases, and are known only at the end.
        self.properties = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.suite = suite
        self.traces = traces
        self.open_property = False
        self.finished = False

    @staticmethod
    def _text(text: str) -> str:
        import re

        # XML 1.0 cannot hold control characters, even escaped.
        return re.sub("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]", "?", text)

    def _testcase(
        self, name: str, line: int | None, inner: str = "", file: str | None = None
    ) -> None:
        from xml.sax.saxutils import quoteattr

        attributes = (
            f"classname={quoteattr(self._text(self.suite))} name={quoteattr(self._text(name))} "
            f"file={quoteattr(self._text(self.traces if file is None else file))}"
        )
        if line is not None:
            attributes += f' line="{line}"'
        if inner:
            self.body.write(f"    <testcase {attributes}>\n      {inner}\n    </testcase>\n")
        else:
            self.body.write(f"    <testcase {attributes} />\n")

    def _element(self, tag: str, kind: str, message: str, text: str = "") -> str:
        from xml.sax.saxutils import escape, quoteattr

        opening = f"<{tag} type={quoteattr(kind)} message={quoteattr(self._text(message))}"
        return f"{opening}>{escape(self._text(text))}</{tag}>" if text else f"{opening} />"

    # ``file``: the run's own file, when TRACES is a directory; ``line``: None for a row or item
    def passed(self, name: str, line: int | None, file: str | None = None) -> None:
        self._testcase(name, line, file=file)

    def property(self, name: str) -> Callable[[str], None]:
        """Starts ``<property name=NAME value=...>``; the value is written in pieces through the
        function returned, and ends with the next property or the report."""
        from xml.sax.saxutils import escape, quoteattr

        self._end_property()
        self.properties.write(f'      <property name={quoteattr(self._text(name))} value="')
        self.open_property = True

        def write(text: str) -> None:
            self.properties.write(escape(self._text(text), {'"': "&quot;"}))

        return write

    def _end_property(self) -> None:
        if self.open_property:
            self.properties.write('" />\n')
            self.open_property = False

    def failed(
        self, name: str, line: int | None, message: str, details: list[str], file: str | None = None
    ) -> None:
        failure = self._element("failure", "mismatch", message, "\n".join(details))
        self._testcase(name, line, failure, file)

    def error(
        self, name: str, line: int | None, kind: str, message: str, file: str | None = None
    ) -> None:
        self._testcase(name, line, self._element("error", kind, message), file)

    def finish(self, tally: Tally, stopped: str | None) -> None:
        """Writes the report; ``stopped`` says why the run ended early, as one more error."""
        import shutil
        from xml.sax.saxutils import quoteattr

        tests = tally.passed + tally.failed + tally.errors + tally.missing
        errors = tally.errors + tally.missing
        if stopped is not None:
            self.error("toolmatch check", None, "incomplete", stopped)
            tests, errors = tests + 1, errors + 1
        counts = f'tests="{tests}" failures="{tally.failed}" errors="{errors}"'
        with self.target:
            self.target.write('<?xml version="1.0" encoding="utf-8"?>\n')
            self.target.write(f"<testsuites {counts}>\n")
            self.target.write(
                f'  <testsuite name={quoteattr(self._text(self.suite))} {counts} skipped="0">\n'
            )
            self._end_property()
            if self.properties.tell():
                self.target.write("    <properties>\n")
                self.properties.seek(0)
                shutil.copyfileobj(self.properties, self.target)  # a value may be long
                self.target.write("    </properties>\n")
            self.body.seek(0)
            for line in self.body:
                self.target.write(line)
            self.target.write("  </testsuite>\n</testsuites>\n")
        self.body.close()
        self.properties.close()
        if self.destination is not None:
            # The temporary file is private to its owner; the report gets a new file's mode.
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(self.target.name, 0o666 & ~umask)
            os.replace(self.target.name, self.destination)
        self.finished = True

    def discard(self) -> None:
        """Removes the temporary file of a report that was not finished."""
        self.target.close()
        self.body.close()
        self.properties.close()
        if self.destination is not None and not self.finished:
            os.unlink(self.target.name)


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
                extra.append(_plural(tally.errors, "error"))
            if tally.missing:
                extra.append(f"{tally.missing} missing")
            if extra:
                self._print(", ".join(extra))
            if self.min_pass_rate is not None:
                if short:
                    shown = ", ".join(f"{name} ({how})" for name, how in short)
                    self._print(f"pass rate below {self.min_pass_rate.text}: {shown}")
                if self.without_case:
                    lines = _plural(self.without_case, "line")
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
            sinks: list[_Sink[float]] = []
            if self.json_lines:
                row = {"type": "trials", "case": name, **counts}
                sinks.append(_json_sink(self._write, json.dumps(row), _json_value, "}}\n"))
            elif text:
                head = f"TRIALS {printable(name)}: {passed}/{runs} passed, "
                sinks.append((self._write, head, "pass^", _text_value, "\n"))
            if self.junit is not None:
                write = self.junit.property(f"trials:{name}")
                sinks.append(_json_sink(write, json.dumps(counts), _json_value, "}}"))
            _write_series(pass_k_stretches(runs, passed, self._negligible(text)), sinks)
        return by_counts, short

    def _negligible(self, text: bool) -> float:
        """Below what a pass^k value is shown as 0.0: ``0.0005`` when only the text shows
        them (with three decimals), else 0.0 (JSON and JUnit show every digit)."""
        return _SHOWN_AS_ZERO if text and self.junit is None else 0.0

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
        sinks: list[_Sink[tuple[float, int]]] = []
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
            sinks.append(_json_sink(self._write, json.dumps(summary), _json_mean, ending))
        elif text:

            def mean(value: tuple[float, int]) -> str:
                shown = f" {value[0]:.3f}"
                return shown if value[1] == cases else f"{shown} ({_plural(value[1], 'case')})"

            head = f"TRIALS mean over {_plural(cases, 'case')}: "
            sinks.append((self._write, head, "pass^", mean, "\n"))
        if self.junit is not None:
            write = self.junit.property("trials")
            sinks.append(_json_sink(write, json.dumps(totals), _json_mean, f"}}{tail}}}"))
        if first is not None:
            means = chain([first], means)
        _write_series(means, sinks)

    def _write(self, text: str) -> None:
        self.flush()  # the lines printed before it come first
        self.out.write(text)


_CHUNK = 1024  # items of a series formatted at a time


def _json_sink(
    write: Callable[[str], None], head: str, shown: Callable[[_T], str], ending: str
) -> _Sink[_T]:
    """A JSON object whose last key, ``pass_k``, is a series; ``head`` is the object
    without it, and ``ending`` closes ``pass_k`` and what follows it."""
    return (write, f'{head[:-1]}, "pass_k": {{', '"', shown, ending)


def _json_value(value: float) -> str:
    return f'": {value!r}'


def _json_mean(value: tuple[float, int]) -> str:
    return f'": {value[0]!r}'


def _text_value(value: float) -> str:
    return f" {value:.3f}"


# A float below it shows as 0.000 with three decimals; 0.0005 itself shows as 0.001.
_SHOWN_AS_ZERO = 0.0005


def _write_series(stretches: Iterable[tuple[_T, int]], sinks: Sequence[_Sink[_T]]) -> None:
    """Writes one line of pass^k values to each sink, a chunk at a time: a case of many
    runs has as many values, and its line is never whole in memory. Each stretch of equal
    values is shown once, its numbers k joined by what comes between them."""
    if not sinks:  # nothing shows them: not worth computing
        return
    for write, head, _, _, _ in sinks:
        write(head)
    separator = ""
    for chunk in _chunks(stretches):
        for write, _, before, shown, _ in sinks:
            texts = []
            for k, value, times in chunk:
                after = shown(value)
                if times == 1:  # most stretches: a cheaper f-string than a join
                    texts.append(f"{before}{k}{after}")
                else:
                    numbers = map(str, range(k, k + times))
                    texts.append(f"{before}{f'{after}, {before}'.join(numbers)}{after}")
            write(separator + ", ".join(texts))
        separator = ", "
    for write, _, _, _, ending in sinks:
        write(ending)


def _chunks(stretches: Iterable[tuple[_T, int]]) -> Iterator[list[tuple[int, _T, int]]]:
    """The stretches as ``(first k, value, how many)``, in lists of _CHUNK values in all."""
    chunk: list[tuple[int, _T, int]] = []
    room, k = _CHUNK, 1
    for value, times in stretches:
        while times > room:  # a long stretch: the rest of this chunk, then the next
            chunk.append((k, value, room))
            yield chunk
            k, times, chunk, room = k + room, times - room, [], _CHUNK
        chunk.append((k, value, times))
        k, room = k + times, room - times
        if not room:
            yield chunk
            chunk, room = [], _CHUNK
    if chunk:
        yield chunk
