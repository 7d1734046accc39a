"""``toolmatch check SPEC TRACES``: check recorded agent runs against a spec of test cases.

SPEC is a ``.yaml`` / ``.yml`` / ``.json`` file read by :func:`load_test_cases`. TRACES is
JSON Lines, one recorded run a line, ``{"case": "<name>", "turns": [<turn>, ...]}``, each
turn anything :func:`to_calls` reads; ``-`` reads standard input; blank lines are skipped.
A case may have several runs: each is checked and reported (the second as ``name (run 2)``).

Text output (the default), on standard output, one block per non-blank line, in file order::

    PASS <case>
    FAIL <case>
      turn <t>, expected_tools[<i>]: <the expectation>
        <why it failed: ToolCheck.reason_lines(), one or more lines>
      turn <t>: <one of the turn's problems>
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
worker that died; 130 when interrupted. A reader that stops early (``| head``) ends the
run quietly with 0. Text from the spec and the traces is printed with newlines and other
unprintable characters escaped, so that no value can forge a report line.

Memory stays flat however long TRACES is: lines are read one at a time, and only the
counts, each case's number of runs and (for JUnit) a temporary file are kept.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
from collections.abc import Generator, Iterable, Iterator, Sequence

from toolmatch import __version__
from toolmatch._cases import TestCase, load_test_cases_quietly
from toolmatch._cli_spec import add_commands, run_command
from toolmatch._config import ConfigError
from toolmatch._describe import short_repr, type_name
from toolmatch._results import TurnResult
from toolmatch._strings import default_regex_timeout
from toolmatch._trace_inputs import READ_ERRORS, Envelope, EnvelopeError, open_traces, turns_value
from toolmatch._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from types import TracebackType
    from typing import IO, Any

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
    try:
        options = _parser().parse_args(argv)
        if options.command != "check":
            return run_command(options)
        return _check(options)
    except KeyboardInterrupt:  # before the run (a run reports its own interruption)
        print(_INTERRUPTED, file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0


_INTERRUPTED = "toolmatch: interrupted"


def _quiet_stdout() -> None:
    """The reader went away (``| head``): what is still buffered, and anything printed
    later, goes nowhere, so Python does not complain at exit either."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


_JOBS_PER_CPU = 4
# Whatever the machine: each worker is a process with open files of its own, and system
# limits on both are often near a thousand.
_MOST_JOBS = 1024


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))  # the CPUs this process may run on
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"must be a whole number >= 1, got {short_repr(text)}"
        ) from None
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {jobs}")
    cpus = _usable_cpus()
    if jobs > min(_JOBS_PER_CPU * cpus, _MOST_JOBS):
        if _JOBS_PER_CPU * cpus < _MOST_JOBS:
            raise argparse.ArgumentTypeError(
                f"must be at most {_JOBS_PER_CPU * cpus} ({_JOBS_PER_CPU} per usable CPU, "
                f"and {cpus} are usable here), got {jobs}"
            )
        raise argparse.ArgumentTypeError(f"must be at most {_MOST_JOBS}, got {jobs}")
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
            "2 a bad spec, bad usage, an unreadable file or a worker that died, "
            "130 interrupted."
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
        help="check in N worker processes (same output, same order); default 1, at most "
        f"{_JOBS_PER_CPU} per usable CPU",
    )
    check.add_argument(
        "--regex-timeout",
        type=_seconds,
        metavar="SECONDS",
        help="give up a regex match after SECONDS of processor time, a mismatch that says so "
        "(default 0.1; needs the regex package, from the cli extra; inf for no limit)",
    )
    check.add_argument(
        "--case-key",
        default="case",
        metavar="PATH",
        help="the field holding a run's case name, a dotted path such as info.task_id "
        "(default case)",
    )
    check.add_argument(
        "--turns-key",
        default="turns",
        metavar="PATH",
        help="the field holding a run's turns, a dotted path (default turns)",
    )
    check.add_argument(
        "--one-turn",
        action="store_true",
        help="the turns field holds one turn (such as a message list), not a list of turns",
    )
    check.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar on stderr (shown only when stderr is a terminal and tqdm, "
        "from the cli extra, is installed)",
    )
    add_commands(commands)
    return parser


# Judging one line --------------------------------------------------------------------------


class _Judge:
    """Judges trace lines against the spec; sent once to each worker process."""

    def __init__(
        self, cases: Sequence[TestCase], want_json: bool, envelope: Envelope | None = None
    ) -> None:
        self.cases = {case.name: case for case in cases}
        self.want_json = want_json
        self.envelope = envelope  # where another trace format keeps case and turns

    def judge(self, number: int, raw: bytes) -> _Outcome:
        try:
            return self._judge(number, raw)
        except Exception as error:  # a run must never abort the others, whatever it holds
            message = f"cannot check this run: {_reason(error)}".partition("\n")[0]
            return (_ERROR, number, None, [message], message, None)

    def _judge(self, number: int, raw: bytes) -> _Outcome:
        def bad(message: str, case: str | None = None) -> _Outcome:
            return _bad(number, message, case)

        try:
            text = raw.rstrip(b"\r\n").decode("utf-8")
        except UnicodeDecodeError as error:
            return bad(f"not UTF-8 text: byte {error.start} cannot be decoded")
        text = text.lstrip("\ufeff")
        try:
            run = json.loads(text)
        except json.JSONDecodeError as error:
            return bad(f"invalid JSON: {error.msg} at column {error.colno}")
        except RecursionError:
            return bad("invalid JSON: nested too deeply")
        except ValueError as error:  # valid JSON, but an integer too long for Python to read
            name, message = _too_long_integer(text, error)
            return bad(message, name)
        if self.envelope is not None:
            try:
                run = self.envelope(run)
            except EnvelopeError as error:
                return bad(str(error), error.case)
        return self._judge_run(number, run)

    def _judge_run(self, number: int, run: object) -> _Outcome:
        """Judges a run read from its line; ``check_runs`` calls it with a run it was given."""

        def bad(message: str, case: str | None = None) -> _Outcome:
            return _bad(number, message, case)

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
            shown = ", ".join(short_repr(known) for known in names[:_SHOWN_NAMES])
            more = f" and {len(names) - _SHOWN_NAMES} more" if len(names) > _SHOWN_NAMES else ""
            return bad(f"unknown case {short_repr(name)}; the spec has {shown}{more}", name)
        if "turns" not in run:
            return bad('missing "turns": a list with one entry of calls per turn', name)
        # From here on the line is its case's run: whatever goes wrong, it is reported once,
        # as this run's error, and the case is not missing.
        try:
            return self._verdict(number, name, case, turns_value(run["turns"]))
        except (TypeError, ValueError) as error:  # turns to_calls cannot read, with their place
            return bad(str(error), name)
        except Exception as error:
            return bad(f"cannot check this run: {_reason(error)}", name)

    def _verdict(self, number: int, name: str, case: TestCase, turns: Any) -> _Outcome:
        if not self.want_json and case.passes(turns):
            return (_PASS, number, name, [], "", None)  # a text PASS needs no results
        results = case.check(turns)
        passed = all(result.passed for result in results)
        details, message = ([], "") if passed else _failure_lines(results)
        body = None
        if self.want_json:
            body = json.dumps({"passed": passed, "turns": [result.as_dict() for result in results]})
        return (_PASS if passed else _FAIL, number, name, details, message, body)


def _bad(number: int, message: str, case: str | None = None) -> _Outcome:
    # One line per bad trace line: to_calls lists every accepted format after its first.
    message = message.partition("\n")[0]
    return (_ERROR, number, case, [message], message, None)


def _reason(error: BaseException) -> str:
    """``TypeName: message`` for an error nobody expected, even one whose ``str`` raises."""
    try:
        text = str(error)
    except Exception:
        text = ""
    return f"{type_name(error)}: {text}" if text else type_name(error)


def _too_long_integer(text: str, error: ValueError) -> tuple[str | None, str]:
    """The case and the message for a line json.loads refused with a ``ValueError``.

    Python reads integers of at most ``sys.get_int_max_str_digits()`` digits; the line is
    read again with its integers only measured, so that the error names the run's case.
    """
    longest = 0

    def measure(digits: str) -> None:
        nonlocal longest
        longest = max(longest, len(digits.lstrip("-")))

    run = json.loads(text, parse_int=measure)
    name = run.get("case") if isinstance(run, dict) else None
    limit = sys.get_int_max_str_digits()
    if longest <= limit:  # not the digit limit after all: an error nobody expected
        raise error
    message = (
        f"a number of {longest:,} digits is longer than the {limit:,} digits Python reads; "
        "PYTHONINTMAXSTRDIGITS=0 lifts the limit"
    )
    return (name if isinstance(name, str) else None), message


def _failure_lines(results: Iterable[TurnResult]) -> tuple[list[str], str]:
    """The report's lines for a failed run, and its first failure in one line; each
    failure in the words of its result (``reason``, ``problems``, ``reason_lines()``)."""
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
            lines.extend(f"    {line}" for line in check.reason_lines())
            first = first or (
                f"turn {result.turn}, expected_tools[{index}]: {check.unmatched_reason}"
            )
        for problem in result.problems:
            lines.append(f"  turn {result.turn}: {problem}")
            first = first or f"turn {result.turn}: {problem}"
    return lines, first


_WORKER_JUDGE: _Judge | None = None


class _InterruptsHeld:
    """Holds off Ctrl-C in this thread for a block; one pressed meanwhile is raised after it.

    Processes started in the block begin with Ctrl-C held too, whatever the start method:
    a signal mask survives fork and exec. Windows has no signal masks.
    """

    def __enter__(self) -> None:
        import signal

        if hasattr(signal, "pthread_sigmask"):
            self.previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        import signal

        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_SETMASK, self.previous)


def _start_worker(judge: _Judge) -> None:
    global _WORKER_JUDGE
    import signal

    # Ctrl-C reaches every process of the terminal's group: the main one stops the run and
    # ends the workers, so they ignore it. A worker starts with it held (see _outcomes);
    # ignoring it first discards one pressed while the worker started.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _WORKER_JUDGE = judge


def _judge_in_worker(chunk: list[tuple[int, bytes]]) -> list[_Outcome]:
    assert _WORKER_JUDGE is not None, "the pool initializer sets the judge"
    judge = _WORKER_JUDGE.judge
    return [judge(number, raw) for number, raw in chunk]


class _StoppedError(Exception):
    """The run stopped before its end: a worker died or the traces could not be read."""


def _not_checked(first_line: int) -> str:
    return f"the lines from line {first_line} on were not checked"


def _worker_died(first_line: int) -> _StoppedError:
    """A ``--jobs`` worker process ended abruptly (killed, out of memory, a crash)."""
    return _StoppedError(
        f"a worker process ended abruptly; {_not_checked(first_line)} "
        "(run without --jobs to see whether a line causes it)"
    )


# Reading the traces -------------------------------------------------------------------------


class _Reading:
    """Lines and bytes read so far: the summary counts every line, the progress shows bytes."""

    def __init__(self) -> None:
        self.lines = 0
        self.bytes = 0


def _numbered_lines(file: IO[bytes], name: str, reading: _Reading) -> Iterator[tuple[int, bytes]]:
    try:
        for raw in file:
            reading.lines += 1
            reading.bytes += len(raw)
            if raw.strip():
                yield reading.lines, raw
    except READ_ERRORS as error:
        raise _StoppedError(
            f"cannot read the traces {name}: {getattr(error, 'strerror', None) or error}; "
            f"{_not_checked(reading.lines + 1)}"
        ) from None


def _outcomes(
    # each a line's number and its bytes; for check_runs, a run's index and the run
    judge: _Judge,
    lines: Iterator[tuple[int, Any]],
    jobs: int,
) -> Generator[_Outcome, None, None]:
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
    with _InterruptsHeld():
        pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(judge,))
    pending: deque[tuple[int, Future[list[_Outcome]]]] = deque()
    stopped_at = 0  # the first line of a chunk the pool refused
    ended = False
    try:
        while True:
            chunk = list(islice(lines, _CHUNK))
            if chunk:
                try:
                    # The pool starts its workers in submit(): they begin with Ctrl-C held,
                    # and this process gets one pressed meanwhile once they are started.
                    with _InterruptsHeld():
                        task = pool.submit(_judge_in_worker, chunk)
                    pending.append((chunk[0][0], task))
                except BrokenProcessPool:  # a worker died since the last task was sent
                    stopped_at, chunk = chunk[0][0], []
                except OSError as error:  # no more processes or files for this user
                    raise _StoppedError(
                        f"cannot start {jobs} worker processes: {error.strerror or error}; "
                        f"{_not_checked(chunk[0][0])}"
                    ) from None
            # Report what is ready; wait only when the window is full or the input ended.
            while pending and (not chunk or len(pending) > jobs * 4 or pending[0][1].done()):
                first_line, task = pending.popleft()
                try:
                    outcomes = task.result()
                except BrokenProcessPool:
                    raise _worker_died(first_line) from None
                yield from outcomes
            if stopped_at:
                raise _worker_died(stopped_at)
            if not chunk:
                ended = True
                return
    finally:
        with _InterruptsHeld():
            if not ended:
                _end_workers(pool)
            pool.shutdown(wait=True, cancel_futures=True)


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Ends the workers of a run that stops early, instead of waiting for their tasks.

    Waiting could take as long as a line's comparison does, and their results are no
    longer wanted. The executor then sees its workers gone and cleans up by itself.
    """
    for process in list((pool._processes or {}).values()):
        process.terminate()


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

    def finish(self, tally: _Tally, stopped: str | None) -> None:
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


def _printable(text: str) -> str:
    """``text`` with what could break or forge a report line (newlines, carriage returns,
    terminal escapes, any unprintable character) escaped as a Python repr escapes it."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


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
        self.next_line = 1  # the first line not reported yet

    def _print(self, text: str) -> None:
        if self.progress is not None:
            self.progress.clear()
        # JSON Lines are ASCII already; text holds case names and values from the files.
        self.out.write((text if self.json_lines else _printable(text)) + "\n")

    def add(self, outcome: _Outcome) -> None:
        # Counted and in the JUnit report before it is printed: printing may fail (| head).
        kind, line, name, details, message, body = outcome
        self.next_line = line + 1
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
        if self.junit is not None:
            if kind == _PASS:
                self.junit.passed(title, line)
            else:
                self.junit.failed(title, line, message, details)
        if self.json_lines:
            head = json.dumps({"type": "case", "case": name, "run": run, "line": line})
            self._print(f"{head[:-1]}, {body[1:]}" if body else head)
        else:
            self._print(f"{'PASS' if kind == _PASS else 'FAIL'} {title}")
            for detail in details:
                self._print(detail)

    def _error(self, line: int, message: str) -> None:
        where = f"{self.traces}:{line}"
        if self.junit is not None:
            self.junit.error(where, line, "trace-error", message)
        if self.json_lines:
            self._print(json.dumps({"type": "error", "line": line, "message": message}))
        else:
            self._print(f"ERROR {where}: {message}")

    def finish(self, cases: Sequence[TestCase], reading: _Reading) -> None:
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


# The command --------------------------------------------------------------------------------


def _fail(message: str) -> int:
    print(_printable(f"toolmatch: {message}"), file=sys.stderr)
    return 2


def _same_file(path: str, other: str | int) -> bool:
    """Whether ``path`` names the file ``other`` (a path or an open file's descriptor) is."""
    try:
        return os.path.samestat(os.stat(path), os.stat(other))
    except OSError:  # nothing there yet, or unreachable: not the other file
        return False


def _check(options: argparse.Namespace) -> int:
    for stream in (sys.stdout, sys.stderr):
        # A case name or an argument the console cannot encode must not end the run.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    try:
        if options.regex_timeout is None:
            cases, warned = load_test_cases_quietly(options.spec)
        else:
            with default_regex_timeout(options.regex_timeout):
                cases, warned = load_test_cases_quietly(options.spec)
    except ConfigError as error:
        # One line a problem, whatever the spec's names and values hold.
        for problem in error.problems:
            print(_printable(str(ConfigError([problem], error.source))), file=sys.stderr)
        return 2
    except OSError as error:
        return _fail(f"cannot read the spec {options.spec}: {error.strerror or error}")
    for warning in warned:  # one line each: the spec loads, with a meaning that changed
        print(_printable(f"warning: {warning}"), file=sys.stderr)

    if options.traces == "-":
        traces_name = "<stdin>"
        file: IO[bytes] = sys.stdin.buffer
        size = None
    else:
        traces_name = options.traces
        try:
            file, size = open_traces(options.traces)
        except OSError as error:
            return _fail(f"cannot read the traces {options.traces}: {error.strerror or error}")

    with file:
        junit = None
        if options.junit_xml:
            # The report replaces the file at its path: never the input it reports on.
            for what, other in (("the traces file", file.fileno()), ("the spec", options.spec)):
                if _same_file(options.junit_xml, other):
                    return _fail(f"cannot write {options.junit_xml}: it is {what}")
            suite = os.path.splitext(os.path.basename(options.spec))[0]
            try:
                junit = _JUnit(options.junit_xml, suite, traces_name)
            except OSError as error:
                return _fail(f"cannot write {options.junit_xml}: {error.strerror or error}")
        try:
            return _run(options, cases, file, traces_name, size, junit)
        finally:
            if junit is not None:
                junit.discard()


def _run(
    options: argparse.Namespace,
    cases: Sequence[TestCase],
    file: IO[bytes],
    traces_name: str,
    size: int | None,
    junit: _JUnit | None,
) -> int:
    """Checks every line and reports; however the run ends, the JUnit report is written."""
    progress = None if options.no_progress else _progress(size or None)
    report = _Report(
        [case.name for case in cases], options.format == "json", traces_name, junit, progress
    )
    reading = _Reading()
    envelope = None
    if (options.case_key, options.turns_key, options.one_turn) != ("case", "turns", False):
        envelope = Envelope(options.case_key, options.turns_key, options.one_turn)
    judge = _Judge(cases, want_json=options.format == "json", envelope=envelope)
    stopped = None  # why the run ended early, for the JUnit report
    outcomes = _outcomes(judge, _numbered_lines(file, traces_name, reading), options.jobs)
    try:
        try:
            for outcome in outcomes:
                report.add(outcome)
                if progress is not None:
                    progress.update(report.tally.passed + report.tally.failed, reading)
        finally:
            outcomes.close()  # ends the workers now, whatever stopped the loop
            if progress is not None:
                progress.close()
        report.finish(cases, reading)
        status = report.tally.exit_code
    except KeyboardInterrupt:
        stopped = f"interrupted; {_not_checked(report.next_line)}"
        print(_INTERRUPTED, file=sys.stderr)
        status = 130
    except BrokenPipeError:  # the reader has all it wanted: not a failure
        _quiet_stdout()
        stopped = f"the output was closed; {_not_checked(report.next_line)}"
        status = 0
    except _StoppedError as error:
        stopped = str(error)
        status = _fail(stopped)
    except OSError as error:  # reading errors are _StoppedError: the output is at fault
        _quiet_stdout()  # what is still buffered could not be written either
        problem = f"cannot write the output: {error.strerror or error}"
        stopped = f"{problem}; {_not_checked(report.next_line)}"
        status = _fail(problem)
    if junit is not None:
        try:
            with _InterruptsHeld():  # the report is written whole or not at all
                junit.finish(report.tally, stopped)
        except OSError as error:
            return _fail(f"cannot write {options.junit_xml}: {error.strerror or error}")
    return status
