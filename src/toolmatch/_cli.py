"""``toolmatch check SPEC TRACES``: check recorded agent runs against a spec of test cases.

SPEC is a ``.yaml`` / ``.yml`` / ``.json`` file read by :func:`load_test_cases`. TRACES is
JSON Lines, one recorded run a line, ``{"case": "<name>", "turns": [<turn>, ...]}``, each
turn anything :func:`to_calls` reads; ``-`` reads standard input; blank lines are skipped.
A case may have several runs: each is checked and reported (the second as ``name (run 2)``).

Text output (the default), on standard output, one block per non-blank line, in file order::

    PASS <case>
    FAIL <case>
      turn <t>, expected_tools[<i>]: <the expectation>
        <why it failed>
    ERROR <traces>:<line>: <what is wrong with the line>
    MISSING <case>: no run in <traces>

then, only when some are nonzero, ``<K> error(s), <J> missing``, and last, always,
``<N> passed, <M> failed``. ``--format json`` prints JSON Lines instead: one object per
run (``{"type": "case", "case", "run", "line", "passed", "turns": [...]}``), bad line
(``{"type": "error", "line", "message"}``) and missing case (``{"type": "missing",
"case"}``), then ``{"type": "summary", "passed", "failed", "errors", "missing", "lines"}``
(``lines`` counts every line read, blank ones included). Each run's ``turns`` holds
:meth:`TurnResult.as_dict` of every turn.
``--junit-xml PATH`` also writes a JUnit XML report.

Exit status: 0 when every run passed and every case ran; 1 when a run failed, a line was
bad or a case is missing; 2 for a bad spec, bad usage, an unreadable file or a ``--jobs``
worker that died; 130 when interrupted.

Memory stays flat however long TRACES is: lines are read one at a time, and only the
counts, each case's number of runs and (for JUnit) a temporary file are kept.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator, Sequence

from toolmatch import __version__
from toolmatch._cases import TestCase, load_test_cases
from toolmatch._config import ConfigError
from toolmatch._describe import short_repr, type_name
from toolmatch._results import ToolCheck, TurnResult, closest_candidate
from toolmatch._strings import default_regex_timeout

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: the command should start fast too
if TYPE_CHECKING:
    from concurrent.futures import Future
    from typing import IO

    # What a line came to: kind, line number, case name (when known), the report's lines,
    # a one-line message (the first failure's place and reason, or the error), the JSON body.
    _Outcome = tuple[str, int, str | None, list[str], str, str | None]

__all__ = ["main"]

_PASS, _FAIL, _ERROR = "pass", "fail", "error"
_SHOWN_NAMES = 8
_EXPECTATION_LIMIT = 160
_CHUNK = 64  # lines a worker judges per task: big enough to amortise the pickling
_PROGRESS_EVERY = 0.1  # seconds between progress redraws


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``toolmatch`` command; returns the exit status (0 passed, 1 failed, 2 bad input)."""
    options = _parser().parse_args(argv)
    try:
        return _check(options)
    except KeyboardInterrupt:
        print("toolmatch: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (| head): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}") from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {jobs}")
    return jobs


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number of seconds, got {text!r}") from None
    if not seconds > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, got {text!r}")
    return seconds


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolmatch", description="Check recorded LLM agent tool calls against expectations."
    )
    parser.add_argument("--version", action="version", version=f"toolmatch {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check",
        help="check recorded runs (JSON Lines) against a spec of test cases",
        description=(
            "Check each recorded run in TRACES against its test case in SPEC. Exit status: "
            "0 all passed, 1 a run failed or a trace line was bad or a case had no run, "
            "2 a bad spec, bad usage, an unreadable file or a worker that died."
        ),
    )
    check.add_argument("spec", metavar="SPEC", help="test cases: a .yaml, .yml or .json file")
    check.add_argument(
        "traces",
        metavar="TRACES",
        help='recorded runs, one JSON object a line: {"case": NAME, "turns": [...]}; - for stdin',
    )
    check.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default): PASS/FAIL lines and a summary; json: JSON Lines, one object a "
        "run, error or missing case, then a summary object",
    )
    check.add_argument(
        "--junit-xml", metavar="PATH", help="also write a JUnit XML report to PATH, for CI"
    )
    check.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="check in N worker processes (same output, same order); default 1",
    )
    check.add_argument(
        "--regex-timeout",
        type=_seconds,
        metavar="SECONDS",
        help="give up a regex match after SECONDS of processor time, a mismatch that says so "
        "(default 0.1; needs the regex package, from the cli extra; inf for no limit)",
    )
    check.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar on stderr (shown only when stderr is a terminal and tqdm, "
        "from the cli extra, is installed)",
    )
    return parser


# Judging one line --------------------------------------------------------------------------


class _Judge:
    """Judges trace lines against the spec; sent once to each worker process."""

    def __init__(self, cases: Sequence[TestCase], want_json: bool) -> None:
        self.cases = {case.name: case for case in cases}
        self.want_json = want_json

    def judge(self, number: int, raw: bytes) -> _Outcome:
        try:
            return self._judge(number, raw)
        except Exception as error:  # a run must never abort the others, whatever it holds
            message = f"cannot check this run: {error!r}"
            return (_ERROR, number, None, [message], message, None)

    def _judge(self, number: int, raw: bytes) -> _Outcome:
        def bad(message: str, case: str | None = None) -> _Outcome:
            # One line per bad trace line: to_calls lists every accepted format after its first.
            message = message.partition("\n")[0]
            return (_ERROR, number, case, [message], message, None)

        try:
            text = raw.rstrip(b"\r\n").decode("utf-8")
        except UnicodeDecodeError as error:
            return bad(f"not UTF-8 text: byte {error.start} cannot be decoded")
        try:
            run = json.loads(text.lstrip("\ufeff"))
        except json.JSONDecodeError as error:
            return bad(f"invalid JSON: {error.msg} at column {error.colno}")
        except RecursionError:
            return bad("invalid JSON: nested too deeply")
        if not isinstance(run, dict):
            return bad(
                'a run must be a JSON object {"case": NAME, "turns": [...]}, got '
                f"{short_repr(run)} ({type_name(run)})"
            )
        name = run.get("case")
        if not isinstance(name, str):
            found = "missing" if "case" not in run else f"{short_repr(name)} ({type_name(name)})"
            return bad(f'"case" must be the name of a test case in the spec, got {found}')
        case = self.cases.get(name)
        if case is None:
            names = list(self.cases)
            shown = ", ".join(repr(known) for known in names[:_SHOWN_NAMES])
            more = f" and {len(names) - _SHOWN_NAMES} more" if len(names) > _SHOWN_NAMES else ""
            return bad(f"unknown case {name!r}; the spec has {shown}{more}", name)
        if "turns" not in run:
            return bad('missing "turns": a list with one entry of calls per turn', name)
        try:
            if not self.want_json and case.passes(run["turns"]):
                return (_PASS, number, name, [], "", None)  # a text PASS needs no results
            results = case.check(run["turns"])
        except TypeError as error:
            return bad(str(error), name)
        passed = all(result.passed for result in results)
        details, message = ([], "") if passed else _failure_lines(results)
        body = None
        if self.want_json:
            body = json.dumps({"passed": passed, "turns": [result.as_dict() for result in results]})
        return (_PASS if passed else _FAIL, number, name, details, message, body)


def _failure_lines(results: Iterable[TurnResult]) -> tuple[list[str], str]:
    """The report's lines for a failed run, and its first failure in one line."""
    lines: list[str] = []
    first = ""
    for result in results:
        if result.passed:
            continue
        if result.reason is not None:
            # A turn missing on one side: its expectations' failures would only repeat it.
            lines.append(f"  turn {result.turn}: {result.reason}")
            first = first or f"turn {result.turn}: {result.reason}"
            continue
        for index, check in enumerate(result.checks):
            if check.passed:
                continue
            expectation = repr(check.expected_tool)
            if len(expectation) > _EXPECTATION_LIMIT:
                expectation = expectation[: _EXPECTATION_LIMIT - 3] + "..."
            lines.append(f"  turn {result.turn}, expected_tools[{index}]: {expectation}")
            lines.append(f"    {check.unmatched_reason}")
            lines.extend(f"    {line}" for line in _hidden_mismatches(check))
            first = first or (
                f"turn {result.turn}, expected_tools[{index}]: {check.unmatched_reason}"
            )
    return lines, first


def _hidden_mismatches(check: ToolCheck) -> list[str]:
    """The closest call's other mismatches, which seed 000's `arg 'k' missing` leaves out."""
    reason = check.unmatched_reason or ""
    if not (reason.startswith("arg '") and reason.endswith("' missing")):
        return []
    closest = closest_candidate(check.candidates)
    if len(closest.mismatches) < 2:
        return []
    return [f"call {closest.index}: " + "; ".join(str(m) for m in closest.mismatches)]


_WORKER_JUDGE: _Judge | None = None


def _start_worker(judge: _Judge) -> None:
    global _WORKER_JUDGE
    import signal

    # Ctrl-C reaches every process of the terminal's group: the main one stops the run and
    # shuts the workers down, so they need no traceback of their own.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER_JUDGE = judge


def _judge_in_worker(chunk: list[tuple[int, bytes]]) -> list[_Outcome]:
    assert _WORKER_JUDGE is not None, "the pool initializer sets the judge"
    judge = _WORKER_JUDGE.judge
    return [judge(number, raw) for number, raw in chunk]


class _WorkerDiedError(Exception):
    """A ``--jobs`` worker process ended abruptly (killed, out of memory, a crash)."""


# Reading the traces -------------------------------------------------------------------------


class _Reading:
    """Lines and bytes read so far: the summary counts every line, the progress shows bytes."""

    def __init__(self) -> None:
        self.lines = 0
        self.bytes = 0


def _numbered_lines(file: IO[bytes], reading: _Reading) -> Iterator[tuple[int, bytes]]:
    for raw in file:
        reading.lines += 1
        reading.bytes += len(raw)
        if raw.strip():
            yield reading.lines, raw


def _outcomes(judge: _Judge, lines: Iterator[tuple[int, bytes]], jobs: int) -> Iterator[_Outcome]:
    if jobs == 1:
        for number, raw in lines:
            yield judge.judge(number, raw)
        return
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    from itertools import islice

    # Chunks are sent as they are read, a few per worker ahead of the one being reported,
    # so memory stays flat on a long file. Unlike multiprocessing.Pool, the executor notices
    # a worker that dies and fails its tasks instead of waiting for them forever.
    pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(judge,))
    pending: deque[tuple[int, Future[list[_Outcome]]]] = deque()
    try:
        while True:
            chunk = list(islice(lines, _CHUNK))
            if chunk:
                pending.append((chunk[0][0], pool.submit(_judge_in_worker, chunk)))
            # Report what is ready; wait only when the window is full or the input ended.
            while pending and (not chunk or len(pending) > jobs * 4 or pending[0][1].done()):
                first_line, task = pending.popleft()
                try:
                    yield from task.result()
                except BrokenProcessPool:
                    raise _WorkerDiedError(
                        f"a worker process ended abruptly; the lines from line {first_line} on "
                        "were not checked (run without --jobs to see whether a line causes it)"
                    ) from None
            if not chunk:
                return
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# Reporting ----------------------------------------------------------------------------------


class _Progress:
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

    def update(self, runs: int, reading: _Reading) -> None:
        self.bar.set_postfix_str(f"{runs:,} run(s) checked", refresh=False)
        self.bar.update(reading.bytes - self.read)
        self.read = reading.bytes

    def clear(self) -> None:
        """Wipe the bar before a report line is printed; the next update draws it again."""
        self.bar.clear()

    def close(self) -> None:
        self.bar.close()


def _progress(total_bytes: int | None) -> _Progress | None:
    if not sys.stderr.isatty():
        return None
    try:
        return _Progress(sys.stderr, total_bytes)
    except ImportError:  # tqdm is not installed: no bar, nothing else changes
        return None


class _Tally:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.errors = 0
        self.missing = 0

    def count(self, kind: str) -> None:
        if kind == _PASS:
            self.passed += 1
        elif kind == _FAIL:
            self.failed += 1
        else:
            self.errors += 1

    @property
    def exit_code(self) -> int:
        return 1 if self.failed or self.errors or self.missing else 0


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class _JUnit:
    """A JUnit XML report: test cases go to a temporary file as they come, since the
    ``<testsuite>`` element's counts, written first, are known only at the end."""

    def __init__(self, path: str, suite: str, traces: str) -> None:
        import tempfile

        self.target = open(path, "w", encoding="utf-8")  # noqa: SIM115  # closed in finish()
        self.body = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115
        self.suite = suite
        self.traces = traces

    @staticmethod
    def _text(text: str) -> str:
        import re

        # XML 1.0 cannot hold control characters, even escaped.
        return re.sub("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]", "?", text)

    def _testcase(self, name: str, line: int | None, inner: str = "") -> None:
        from xml.sax.saxutils import quoteattr

        attributes = (
            f"classname={quoteattr(self._text(self.suite))} name={quoteattr(self._text(name))} "
            f"file={quoteattr(self._text(self.traces))}"
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

    def passed(self, name: str, line: int) -> None:
        self._testcase(name, line)

    def failed(self, name: str, line: int, message: str, details: list[str]) -> None:
        failure = self._element("failure", "mismatch", message, "\n".join(details))
        self._testcase(name, line, failure)

    def error(self, name: str, line: int | None, kind: str, message: str) -> None:
        self._testcase(name, line, self._element("error", kind, message))

    def finish(self, tally: _Tally) -> None:
        from xml.sax.saxutils import quoteattr

        tests = tally.passed + tally.failed + tally.errors + tally.missing
        errors = tally.errors + tally.missing
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


class _Report:
    """Prints outcomes as they come, in text or JSON Lines, and feeds the JUnit report."""

    def __init__(
        self,
        names: Iterable[str],
        json_lines: bool,
        traces: str,
        junit: _JUnit | None,
        progress: _Progress | None,
    ) -> None:
        self.names = frozenset(names)
        self.json_lines = json_lines
        self.traces = traces
        self.junit = junit
        self.progress = progress
        self.tally = _Tally()
        self.runs: dict[str, int] = {}
        self.out = sys.stdout

    def _print(self, text: str) -> None:
        if self.progress is not None:
            self.progress.clear()
        self.out.write(text + "\n")

    def add(self, outcome: _Outcome) -> None:
        kind, line, name, details, message, body = outcome
        self.tally.count(kind)
        if kind == _ERROR:
            if name in self.names:
                # The case did run, badly: reported once as an error, not again as missing.
                self.runs[name] = self.runs.get(name, 0) + 1
            self._error(line, message)
            return
        assert name is not None
        run = self.runs[name] = self.runs.get(name, 0) + 1
        title = name if run == 1 else f"{name} (run {run})"
        if self.json_lines:
            head = json.dumps({"type": "case", "case": name, "run": run, "line": line})
            self._print(f"{head[:-1]}, {body[1:]}" if body else head)
        else:
            self._print(f"{'PASS' if kind == _PASS else 'FAIL'} {title}")
            for detail in details:
                self._print(detail)
        if self.junit is not None:
            if kind == _PASS:
                self.junit.passed(title, line)
            else:
                self.junit.failed(title, line, message, details)

    def _error(self, line: int, message: str) -> None:
        where = f"{self.traces}:{line}"
        if self.json_lines:
            self._print(json.dumps({"type": "error", "line": line, "message": message}))
        else:
            self._print(f"ERROR {where}: {message}")
        if self.junit is not None:
            self.junit.error(where, line, "trace-error", message)

    def finish(self, cases: Sequence[TestCase], reading: _Reading) -> None:
        for case in cases:
            if case.name in self.runs:
                continue
            self.tally.missing += 1
            message = f"no run in {self.traces}"
            if self.json_lines:
                self._print(json.dumps({"type": "missing", "case": case.name}))
            else:
                self._print(f"MISSING {case.name}: {message}")
            if self.junit is not None:
                self.junit.error(case.name, None, "missing", message)
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
        if self.junit is not None:
            self.junit.finish(tally)


# The command --------------------------------------------------------------------------------


def _fail(message: str) -> int:
    print(f"toolmatch: {message}", file=sys.stderr)
    return 2


def _check(options: argparse.Namespace) -> int:
    for stream in (sys.stdout, sys.stderr):
        # A case name or an argument the console cannot encode must not end the run.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        if options.regex_timeout is None:
            cases = load_test_cases(options.spec)
        else:
            with default_regex_timeout(options.regex_timeout):
                cases = load_test_cases(options.spec)
    except ConfigError as error:
        print(error, file=sys.stderr)
        return 2
    except OSError as error:
        return _fail(f"cannot read the spec {options.spec}: {error.strerror or error}")

    if options.traces == "-":
        traces_name = "<stdin>"
        file: IO[bytes] = sys.stdin.buffer
        size = None
    else:
        traces_name = options.traces
        try:
            file = open(options.traces, "rb")  # noqa: SIM115  # closed below
            size = os.fstat(file.fileno()).st_size
        except OSError as error:
            return _fail(f"cannot read the traces {options.traces}: {error.strerror or error}")

    junit = None
    if options.junit_xml:
        suite = os.path.splitext(os.path.basename(options.spec))[0]
        try:
            junit = _JUnit(options.junit_xml, suite, traces_name)
        except OSError as error:
            file.close()
            return _fail(f"cannot write {options.junit_xml}: {error.strerror or error}")

    progress = None if options.no_progress else _progress(size or None)
    names = [case.name for case in cases]
    report = _Report(names, options.format == "json", traces_name, junit, progress)
    reading = _Reading()
    judge = _Judge(cases, want_json=options.format == "json")
    with file:
        try:
            for outcome in _outcomes(judge, _numbered_lines(file, reading), options.jobs):
                report.add(outcome)
                if progress is not None:
                    progress.update(report.tally.passed + report.tally.failed, reading)
        except BrokenPipeError:
            raise
        except _WorkerDiedError as error:
            if progress is not None:
                progress.close()
            return _fail(str(error))
        except OSError as error:
            if progress is not None:
                progress.close()
            return _fail(f"cannot read the traces {traces_name}: {error.strerror or error}")
    if progress is not None:
        progress.close()
    report.finish(cases, reading)
    return report.tally.exit_code
