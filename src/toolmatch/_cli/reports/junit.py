"""The JUnit XML report of ``toolmatch check`` (``--junit-xml PATH``), for CI."""

from __future__ import annotations

import json
from collections.abc import Callable

from toolmatch._cli.output_files import Replacement
from toolmatch._cli.reports.base import Format
from toolmatch._cli.reports.json_lines import check_counts
from toolmatch._cli.reports.series import json_mean, json_sink, json_value
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.traces import LINE

if TYPE_CHECKING:
    import re
    from collections.abc import Sequence

    from toolmatch._cli.reports.base import ReportedRun, Summary, Tally
    from toolmatch._cli.reports.series import Sink
    from toolmatch._runs.traces import Place, TracesSource
    from toolmatch._runs.trials import FailedCheck

__all__ = ["JUnit"]

_NOT_XML: re.Pattern[str] | None = None


def _not_xml() -> re.Pattern[str]:
    """The characters XML 1.0 cannot hold, compiled on first use."""
    global _NOT_XML
    if _NOT_XML is None:
        import re

        _NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
    return _NOT_XML


class JUnit(Format):
    """A JUnit XML report: test cases go to a temporary file as they come, since the
    ``<testsuite>`` element's counts, written first, are known only at the end.

    The report is written whole as :class:`Replacement` writes: a reader never sees half
    a report, and PATH keeps its previous report until then.
    """

    placed = True

    def __init__(self, path: str, suite: str, traces: TracesSource) -> None:
        import tempfile

        self.path = path
        self.target = Replacement(path)
        self.body = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        # The suite's <properties> come before its test cases, and are known only at the end.
        self.properties = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.suite = suite
        self.traces = traces.name
        self.directory = traces.directory  # each run's test case names its own file
        self.open_property = False
        self._heads: dict[str | None, tuple[str, str]] = {}
        self.regressions: list[str] | None = None  # with --baseline, once the runs are counted

    @staticmethod
    def _text(text: str) -> str:
        # XML 1.0 cannot hold control characters, even escaped.
        return _not_xml().sub("?", text)

    def _testcase(
        self, name: str, line: int | None, inner: str = "", file: str | None = None
    ) -> None:
        from xml.sax.saxutils import quoteattr

        # The suite's and the file's attributes are the same for many test cases: made once.
        head = self._heads.get(file)
        if head is None:
            text = self._text
            where = self.traces if file is None else file
            opening = f"<testcase classname={quoteattr(text(self.suite))} name="
            self._heads[file] = head = (opening, f" file={quoteattr(text(where))}")
        attributes = f"{head[0]}{quoteattr(self._text(name))}{head[1]}"
        if line is not None:
            attributes += f' line="{line}"'
        if inner:
            self.body.write(f"    {attributes}>\n      {inner}\n    </testcase>\n")
        else:
            self.body.write(f"    {attributes} />\n")

    def _element(self, tag: str, kind: str, message: str, text: str = "") -> str:
        from xml.sax.saxutils import escape, quoteattr

        opening = f"<{tag} type={quoteattr(kind)} message={quoteattr(self._text(message))}"
        return f"{opening}>{escape(self._text(text))}</{tag}>" if text else f"{opening} />"

    def _at(self, place: Place) -> tuple[int | None, str | None]:
        """A test case's line (None for a row or item) and its file (None: TRACES itself)."""
        line = place.number if place.unit == LINE else None
        return line, place.file if self.directory else None

    def passed(self, run: ReportedRun) -> None:
        assert run.place is not None
        line, file = self._at(run.place)
        self._testcase(run.title, line, file=file)

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

    def failed(self, run: ReportedRun) -> None:
        assert run.place is not None
        line, file = self._at(run.place)
        outcome = run.outcome
        failure = self._element("failure", "mismatch", outcome.message, "\n".join(outcome.details))
        self._testcase(run.title, line, failure, file)

    def not_evaluable(self, run: ReportedRun) -> None:
        # Skipped, not failed: the check was not made (the exit status says whether that
        # fails the command: --not-evaluable).
        assert run.place is not None
        line, file = self._at(run.place)
        skipped = self._element("skipped", "not-evaluable", run.outcome.message)
        self._testcase(run.title, line, skipped, file)

    def _error(
        self, name: str, line: int | None, kind: str, message: str, file: str | None = None
    ) -> None:
        self._testcase(name, line, self._element("error", kind, message), file)

    def error(self, run: ReportedRun) -> None:
        assert run.place is not None
        line, file = self._at(run.place)
        self._error(run.title, line, "trace-error", run.outcome.message, file)

    def missing(self, case: str, message: str) -> None:
        self._error(case, None, "missing", message)

    def trials_shown(self, repeated: bool) -> float | None:
        return 0.0  # every case's, with every digit

    def case_trials(
        self, name: str, runs: int, passed: int, points: Sequence[int], not_evaluable: int
    ) -> Sink[float]:
        counts: dict[str, object] = {"runs": runs, "passed": passed}
        if not_evaluable:
            counts["not_evaluable"] = not_evaluable
        counts.update(pass_rate=passed / runs, k=list(points))
        write = self.property(f"trials:{name}")
        return json_sink(write, json.dumps(counts), json_value, "}}")

    def failed_checks(self, name: str, checks: list[FailedCheck]) -> None:
        for check in checks:
            self.property(f"check:{name}:{check.place}")(json.dumps(check_counts(check)))

    def mean_trials(self, summary: Summary, points: Sequence[int]) -> Sink[tuple[float, int]]:
        delta = summary.baseline
        if delta is not None:  # each change a property; the regressions one failing test
            for change in delta.changes:
                row = delta.row(change)
                del row["type"], row["change"], row["case"]
                self.property(f"baseline:{change.kind}:{change.case}")(json.dumps(row))
            self.regressions = [
                f"{change.kind.upper()} {change.case}: {change.why(delta.significance)}"
                for change in delta.regressions
            ]
        totals = {"cases": summary.cases, "pass_rate": summary.pass_rate, "k": list(points)}
        write = self.property("trials")
        return json_sink(write, json.dumps(totals), json_mean, f"}}{summary.gate()}}}")

    def finish(self, tally: Tally, stopped: str | None) -> None:
        """Writes the report; ``stopped`` says why the run ended early, as one more error."""
        import shutil
        from xml.sax.saxutils import quoteattr

        skipped = tally.not_evaluable
        tests = tally.passed + tally.failed + tally.errors + tally.missing + skipped
        errors = tally.errors + tally.missing
        failures = tally.failed
        if self.regressions is not None:  # --baseline: one test, failing on any regression
            tests += 1
            if self.regressions:
                failures += 1
                count = f"{len(self.regressions)} regression(s) from the baseline"
                failure = self._element("failure", "regression", count, "\n".join(self.regressions))
                self._testcase("toolmatch baseline", None, failure)
            else:
                self._testcase("toolmatch baseline", None)
        if stopped is not None:
            self._error("toolmatch check", None, "incomplete", stopped)
            tests, errors = tests + 1, errors + 1
        counts = f'tests="{tests}" failures="{failures}" errors="{errors}"'
        target = self.target.file
        target.write('<?xml version="1.0" encoding="utf-8"?>\n')
        target.write(f"<testsuites {counts}>\n")
        target.write(
            f'  <testsuite name={quoteattr(self._text(self.suite))} {counts} skipped="{skipped}">\n'
        )
        self._end_property()
        if self.properties.tell():
            target.write("    <properties>\n")
            self.properties.seek(0)
            shutil.copyfileobj(self.properties, target)  # a value may be long
            target.write("    </properties>\n")
        self.body.seek(0)
        shutil.copyfileobj(self.body, target)
        target.write("  </testsuite>\n</testsuites>\n")
        self.body.close()
        self.properties.close()
        self.target.commit()

    def discard(self) -> None:
        """Removes the temporary file of a report that was not finished."""
        self.target.discard()
        self.body.close()
        self.properties.close()
