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
``--junit-xml PATH`` also writes a JUnit XML report. ``--update new|fix|all`` first
changes the spec to the recorded runs (``_updating``), then checks against it.

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
import os
import sys
from collections.abc import Sequence

from toolmatch import __version__
from toolmatch._cases import TestCase, load_test_cases_quietly
from toolmatch._cli_spec import add_commands, run_command
from toolmatch._config import ConfigError, SpecWarning
from toolmatch._describe import short_repr
from toolmatch._judging import Judge
from toolmatch._report import JUnit, Report, printable, progress_bar
from toolmatch._strings import default_regex_timeout
from toolmatch._trace_inputs import (
    Envelope,
    Reading,
    StoppedError,
    not_checked,
    numbered_lines,
    open_traces,
)
from toolmatch._typing import TYPE_CHECKING
from toolmatch._workers import InterruptsHeld, judge_lines

if TYPE_CHECKING:
    from typing import IO

__all__ = ["main"]


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
        "--update",
        choices=("new", "fix", "all"),
        help="first change the spec to the recorded runs, then check against it: new adds "
        "the cases with runs and no entry (as toolmatch record writes them), fix replaces the "
        "literal values of failing expectations with the last run's, all does both (see "
        "docs/cli.md); the change is printed on stderr as a diff",
    )
    check.add_argument(
        "--update-in-ci",
        action="store_true",
        help="allow --update when CI is set in the environment (refused there otherwise)",
    )
    check.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar on stderr (shown only when stderr is a terminal and tqdm, "
        "from the cli extra, is installed)",
    )
    add_commands(commands)
    return parser


# The command --------------------------------------------------------------------------------


def _fail(message: str) -> int:
    print(printable(f"toolmatch: {message}"), file=sys.stderr)
    return 2


def _same_file(path: str, other: str | int) -> bool:
    """Whether ``path`` names the file ``other`` (a path or an open file's descriptor) is."""
    try:
        return os.path.samestat(os.stat(path), os.stat(other))
    except OSError:  # nothing there yet, or unreachable: not the other file
        return False


def _load(options: argparse.Namespace, where: str) -> tuple[list[TestCase], list[SpecWarning]]:
    if options.regex_timeout is None:
        return load_test_cases_quietly(where)
    with default_regex_timeout(options.regex_timeout):
        return load_test_cases_quietly(where)


def _envelope(options: argparse.Namespace) -> Envelope | None:
    if (options.case_key, options.turns_key, options.one_turn) == ("case", "turns", False):
        return None
    return Envelope(options.case_key, options.turns_key, options.one_turn)


def _check(options: argparse.Namespace) -> int:
    for stream in (sys.stdout, sys.stderr):
        # A case name or an argument the console cannot encode must not end the run.
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    if options.update is not None:
        from toolmatch._updating import refusal

        refused = refusal(options, os.environ)
        if refused is not None:
            return _fail(refused)
    try:
        cases, warned = _load(options, options.spec)
    except ConfigError as error:
        # One line a problem, whatever the spec's names and values hold.
        for problem in error.problems:
            print(printable(str(ConfigError([problem], error.source))), file=sys.stderr)
        return 2
    except OSError as error:
        return _fail(f"cannot read the spec {options.spec}: {error.strerror or error}")
    for warning in warned:  # one line each: the spec loads, with a meaning that changed
        print(printable(f"warning: {warning}"), file=sys.stderr)

    if options.traces == "-":
        traces_name = "<stdin>"
        file: IO[bytes] = sys.stdin.buffer
        size = None
        if options.update is not None:  # read twice: the update's runs, then the check
            from toolmatch._updating import spooled

            try:
                file = spooled(file)
            except OSError as error:
                return _fail(f"cannot read the traces <stdin>: {error.strerror or error}")
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
                junit = JUnit(options.junit_xml, suite, traces_name)
            except OSError as error:
                return _fail(f"cannot write {options.junit_xml}: {error.strerror or error}")
        try:
            if options.update is not None:
                from toolmatch._updating import update_spec

                updated = update_spec(
                    options,
                    cases,
                    file,
                    traces_name,
                    _envelope(options),
                    lambda where: _load(options, where)[0],
                )
                if isinstance(updated, int):
                    return updated
                cases = updated
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
    junit: JUnit | None,
) -> int:
    """Checks every line and reports; however the run ends, the JUnit report is written."""
    progress = None if options.no_progress else progress_bar(size or None)
    report = Report(
        [case.name for case in cases], options.format == "json", traces_name, junit, progress
    )
    reading = Reading()
    judge = Judge(cases, want_json=options.format == "json", envelope=_envelope(options))
    stopped = None  # why the run ended early, for the JUnit report
    outcomes = judge_lines(judge, numbered_lines(file, traces_name, reading), options.jobs)
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
        stopped = f"interrupted; {not_checked(report.next_line)}"
        print(_INTERRUPTED, file=sys.stderr)
        status = 130
    except BrokenPipeError:  # the reader has all it wanted: not a failure
        _quiet_stdout()
        stopped = f"the output was closed; {not_checked(report.next_line)}"
        status = 0
    except StoppedError as error:
        stopped = str(error)
        status = _fail(stopped)
    except OSError as error:  # reading errors are StoppedError: the output is at fault
        _quiet_stdout()  # what is still buffered could not be written either
        problem = f"cannot write the output: {error.strerror or error}"
        stopped = f"{problem}; {not_checked(report.next_line)}"
        status = _fail(problem)
    if junit is not None:
        try:
            with InterruptsHeld():  # the report is written whole or not at all
                junit.finish(report.tally, stopped)
        except OSError as error:
            return _fail(f"cannot write {options.junit_xml}: {error.strerror or error}")
    return status
