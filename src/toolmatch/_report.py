"""What ``toolmatch check`` prints: text or JSON Lines, a JUnit report, a progress bar.

The formats are described in docs/cli.md; every text from the spec or the traces is
printed through :func:`printable`, so that no value can forge a report line.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Sequence

from toolmatch._cases import TestCase
from toolmatch._judging import ERROR, FAIL, PASS
from toolmatch._trace_inputs import LINE
from toolmatch._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import IO

    from toolmatch._judging import Outcome
    from toolmatch._trace_inputs import Place, Reading

__all__ = ["JUnit", "Progress", "Report", "Tally", "printable", "progress_bar"]

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

    def count(self, kind: str) -> None:
        if kind == PASS:
            self.passed += 1
        elif kind == FAIL:
            self.failed += 1
        else:
            self.errors += 1

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
        self.suite = suite
        self.traces = traces
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
            self.body.seek(0)
            for line in self.body:
                self.target.write(line)
            self.target.write("  </testsuite>\n</testsuites>\n")
        self.body.close()
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
        if self.destination is not None and not self.finished:
            os.unlink(self.target.name)


def printable(text: str) -> str:
    """``text`` with what could break or forge a report line (newlines, carriage returns,
    terminal escapes, any unprintable character) escaped as a Python repr escapes it."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


class Report:
    """Prints outcomes as they come, in text or JSON Lines, and feeds the JUnit report."""

    def __init__(
        self,
        names: Iterable[str],
        json_lines: bool,
        reading: Reading,
        junit: JUnit | None,
        progress: Progress | None,
    ) -> None:
        self.names = frozenset(names)
        self.json_lines = json_lines
        self.reading = reading  # where each record is
        self.traces = reading.name
        # Reading a directory, each run says its file: in titles and in JSON rows.
        self.directory = reading.directory
        self.junit = junit
        self.progress = progress
        self.tally = Tally()
        self.runs: dict[str, int] = {}
        self.out = sys.stdout
        self.next_line = 1  # the first line not reported yet

    def _print(self, text: str) -> None:
        if self.progress is not None:
            self.progress.clear()
        # JSON Lines are ASCII already; text holds case names and values from the files.
        self.out.write((text if self.json_lines else printable(text)) + "\n")

    def add(self, outcome: Outcome) -> None:
        # Counted and in the JUnit report before it is printed: printing may fail (| head).
        kind, number, name, details, message, body = outcome
        self.next_line = number + 1
        self.tally.count(kind)
        if kind == ERROR:
            if name in self.names:
                # The case did run, badly: reported once as an error, not again as missing.
                self.runs[name] = self.runs.get(name, 0) + 1
            self._error(number, message)
            return
        assert name is not None
        run = self.runs[name] = self.runs.get(name, 0) + 1
        title = name if run == 1 else f"{name} (run {run})"
        place = None
        if self.directory or self.junit is not None or self.json_lines:
            place = self.reading.place(number)
            if self.directory:
                title = f"{title} at {place}"
        if self.junit is not None:
            assert place is not None
            line = place.number if place.unit == LINE else None
            file = place.file if self.directory else None
            if kind == PASS:
                self.junit.passed(title, line, file)
            else:
                self.junit.failed(title, line, message, details, file)
        if self.json_lines:
            assert place is not None
            head = json.dumps({"type": "case", "case": name, "run": run, **self._where(place)})
            self._print(f"{head[:-1]}, {body[1:]}" if body else head)
        else:
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
        tally = self.tally
        if self.json_lines:
            summary = {
                "type": "summary",
                "passed": tally.passed,
                "failed": tally.failed,
                "errors": tally.errors,
                "missing": tally.missing,
                "lines": reading.lines,
            }
            self._print(json.dumps(summary))
        else:
            extra = []
            if tally.errors:
                extra.append(_plural(tally.errors, "error"))
            if tally.missing:
                extra.append(f"{tally.missing} missing")
            if extra:
                self._print(", ".join(extra))
            self._print(f"{tally.passed} passed, {tally.failed} failed")
        self.out.flush()
