"""``toolmatch check SPEC TRACES``: check recorded agent runs against a spec of test cases.

SPEC is a ``.yaml`` / ``.yml`` / ``.json`` file read by :func:`load_test_cases`. TRACES is
JSON Lines, one recorded run a line, ``{"case": "<name>", "turns": [<turn>, ...]}``, each
turn anything :func:`to_calls` reads; ``-`` reads standard input; blank lines are skipped.
It may also be a ``.json`` or Parquet file, or a directory of trace files, read through
:func:`trace_blocks` (docs/cli.md); each record is then reported at its file and line, row
or item. A case may have several runs: each is checked and reported (the second as
``name (run 2)``).

Text output (the default), on standard output, one block per non-blank line, in file order::

    PASS <case>
    FAIL <case>
      turn <t>, expected_tools[<i>]: <the expectation>
        <why it failed: ToolCheck.reason_lines(), one or more lines>
      turn <t>: <one of the turn's problems>
      (with one_of: a line naming the alternative chosen, and places such as
       one_of[<a>], turn <t>, one_of[<b>], expected_tools[<i>])
    NOT EVALUABLE <case>: <why the run cannot be judged>
    ERROR <traces>:<line>: <what is wrong with the line>
    MISSING <case>: no run in <traces>

then, when some case ran more than once, its trials (docs/cli.md, Trials)::

    TRIALS <case>: <c>/<n> passed, pass^1 <c/n>, pass^2 <x>, pass^4 <x>, ..., pass^<n> <x>
    FLAKY <case>: <place> <description>: failed in <f> of <n> runs (<f/n>)
    BROKEN <case>: <place> <description>: failed in all <n> runs
    TRIALS mean over <cases> cases: pass^1 <x>, ..., pass^<k> <x> (<m> cases)

(pass^k at k = 1, 2, 4, 8, ... and n unless ``--pass-k LIST`` or ``--pass-k all``; a FLAKY
or BROKEN line for each check that failed in some of a case's runs, flaky ones first)

then, only when some are nonzero, ``<K> error(s), <J> missing``, with ``--min-pass-rate``
the cases below it (``pass rate below R: <case> (<c>/<n> passed), ...``), and last,
always, ``<N> passed, <M> failed`` (``, <E> not evaluable`` when some runs could not be
judged: docs/cli.md). ``--format json`` prints JSON Lines instead: one
object per run (``{"type": "case", "case", "run", "line", "passed", "turns": [...]}``),
run that cannot be judged (``{"type": "not_evaluable", "case", "run", "line", "reason"}``),
bad line (``{"type": "error", "line", "message"}``) and missing case (``{"type":
"missing", "case"}``), one per case that ran (``{"type": "trials", "case", "runs",
"passed", "pass_rate", "k", "pass_k"}``), each followed by its failed checks (``{"type":
"check", "case", "check", "description", "failed", "runs", "share", "flaky"}``), then
``{"type": "summary", "passed", "failed", "errors", "missing", "lines", "cases",
"pass_rate", "k", "pass_k"}`` (``lines`` counts every
line read, blank ones included). Each run's ``turns`` holds :meth:`TurnResult.as_dict` of
every turn. ``--junit-xml PATH`` also writes a JUnit XML report, ``--otel-events PATH``
each run's verdict as an OpenTelemetry event (``toolmatch._cli.reports.otel_events``).
``--update new|fix|all``
first changes the spec to the recorded runs (``toolmatch._cli.update``), then checks against it.

``--strict`` first runs ``toolmatch lint``'s checks (``toolmatch._cli.lint_command``) and exits
with 1 on any finding, before any run is checked; ``--coverage`` adds, after the summary,
the calls per tool (``toolmatch._runs.coverage``); ``--tools DEFS`` names the tools
offered, for both.

Exit status: 0 when every run passed and every case ran; 1 when a run failed, a line was
bad or a case is missing; with ``--min-pass-rate R``, 0 exactly when every case's pass
rate is at least R and every bad line is a case's run, 1 otherwise; either way 1 when a
run cannot be judged, unless ``--not-evaluable pass-through``; 2 for a bad spec, bad
usage, an unreadable file or a ``--jobs`` worker that died; 130 when interrupted. A reader
that stops early (``| head``) ends the run quietly with 0. Text from the spec and the
traces is printed with newlines and other unprintable characters escaped, so that no value
can forge a report line.

Memory stays flat however long TRACES is: lines are read one at a time, and only the
counts, each case's numbers of runs and passes and (for JUnit) temporary files are kept.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections.abc import Sequence
from contextlib import nullcontext

from toolmatch import __version__
from toolmatch._cli.console import Stop, config_problems, fail, printable
from toolmatch._cli.lint_command import (
    add_plugin,
    add_tools,
    defined_tools,
    judges_refusal,
    spec_findings,
    strict_refusal,
)
from toolmatch._cli.options import CheckOptions
from toolmatch._cli.output_files import unchanged
from toolmatch._cli.record_command import add_envelope, add_error_keys, add_syntax, read_syntax
from toolmatch._cli.report_command import add_baseline, baseline_refusal, write_pages
from toolmatch._cli.reports.base import Output
from toolmatch._cli.reports.json_lines import JsonLines
from toolmatch._cli.reports.junit import JUnit
from toolmatch._cli.reports.otel_events import OtelEvents
from toolmatch._cli.reports.progress import progress_bar
from toolmatch._cli.reports.report import OUTPUT_FORMATS, Report
from toolmatch._cli.spec_commands import add_commands, run_command
from toolmatch._core.describe import short_repr
from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.strings import default_regex_timeout
from toolmatch._runs.baseline import Delta
from toolmatch._runs.coverage import defined_names
from toolmatch._runs.judging import RecordJudge
from toolmatch._runs.traces import StoppedError, TracesError, TracesSource, same_file, trace_blocks
from toolmatch._runs.trials import parse_confidence, parse_min_pass_rate, parse_pass_k
from toolmatch._runs.workers import InterruptsHeld, judged_batches
from toolmatch._selection.case import TestCase
from toolmatch._spec.errors import ConfigError, SpecWarning
from toolmatch._spec.loading import load_spec_document, load_test_cases_quietly
from toolmatch._spec.parsing import SpecDocument, read_spec_document

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import IO, TypeVar

    from toolmatch._cli.reports.progress import Progress
    from toolmatch._runs.baseline import Side
    from toolmatch._runs.syntax import PythonTurns

    _T = TypeVar("_T")

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``toolmatch`` command; returns the exit status (0 passed, 1 failed, 2 bad input)."""
    try:
        namespace = _parser().parse_args(argv)
        if namespace.command != "check":
            return run_command(namespace)
        return _check(CheckOptions.of(namespace))
    except Stop as stop:
        return stop.status
    except KeyboardInterrupt:  # before the run (a run reports its own interruption)
        print(_INTERRUPTED, file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0


_INTERRUPTED = "toolmatch: interrupted"
# --otel-events: the gen_ai.evaluation.name of every event
EVALUATION_NAME = "toolmatch"


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
    if text == "auto":
        return min(_usable_cpus(), _MOST_JOBS)
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


def _argument(parse: Callable[[str], _T]) -> Callable[[str], _T]:
    """``parse`` as an argument's type: its ``ValueError`` is argparse's usage error."""

    def read(text: str) -> _T:
        try:
            return parse(text)
        except ValueError as error:
            raise argparse.ArgumentTypeError(str(error)) from None

    return read


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
            "0 all passed, 1 a run failed or a trace line was bad or a case had no run "
            "(or a run could not be judged, unless --not-evaluable pass-through), "
            "2 a bad spec, bad usage, an unreadable file or a worker that died, "
            "130 interrupted."
        ),
    )
    check.add_argument("spec", metavar="SPEC", help="test cases: a .yaml, .yml or .json file")
    check.add_argument(
        "traces",
        metavar="TRACES",
        help='recorded runs, one JSON object a line: {"case": NAME, "turns": [...]} (.jsonl, '
        ".jsonl.gz), a .json file, a .parquet file, a directory of them, or - for stdin",
    )
    check.add_argument(
        "--format",
        choices=tuple(OUTPUT_FORMATS),
        default="text",
        help="text (default): PASS/FAIL lines and a summary; json: JSON Lines, one object a "
        "run, error or missing case, then a summary object",
    )
    check.add_argument(
        "--junit-xml", metavar="PATH", help="also write a JUnit XML report to PATH, for CI"
    )
    check.add_argument(
        "--otel-events",
        metavar="PATH",
        help="also write each run's verdict as an OpenTelemetry gen_ai.evaluation.result "
        "event to PATH, as OTLP JSON (docs/cli.md)",
    )
    check.add_argument(
        "--min-pass-rate",
        type=_argument(parse_min_pass_rate),
        metavar="R",
        help="exit status 0 exactly when every case's pass rate (its passing runs over its "
        "runs; 0 for a case with no run) is at least R, a number from 0 to 1",
    )
    check.add_argument(
        "--confidence",
        type=_argument(parse_confidence),
        metavar="C",
        help="with --min-pass-rate R: a case passes when the lower bound of its pass rate's "
        "Wilson score interval at confidence C (such as 0.95) is at least R",
    )
    add_baseline(check)
    check.add_argument(
        "--html", metavar="PATH", help="also write the report as one HTML page to PATH"
    )
    check.add_argument(
        "--markdown",
        metavar="PATH",
        help="also write the report as Markdown to PATH (such as $GITHUB_STEP_SUMMARY)",
    )
    check.add_argument(
        "--pass-k",
        type=_argument(parse_pass_k),
        metavar="LIST",
        help="the k at which each case's pass^k is shown: numbers separated by commas "
        "(1,3,5; those above a case's runs are left out) or all; default 1, 2, 4, 8, ... "
        "and the number of runs",
    )
    check.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="check in N worker processes (same output, same order); auto: one per usable "
        f"CPU; default 1, at most {_JOBS_PER_CPU} per usable CPU",
    )
    check.add_argument(
        "--regex-timeout",
        type=_seconds,
        metavar="SECONDS",
        help="give up a regex match after SECONDS of processor time, a mismatch that says so "
        "(default 0.1; needs the regex package, from the cli extra; inf for no limit)",
    )
    add_envelope(check)
    add_error_keys(check, "NOT EVALUABLE")
    check.add_argument(
        "--not-evaluable",
        choices=("fail", "pass-through"),
        default="fail",
        help="whether a run that cannot be judged fails the command: fail (default) or "
        "pass-through (reported apart, and the exit status as if it were not there)",
    )
    add_syntax(check)
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
        "--update-allow-rename",
        action="store_true",
        help="let --update fix change the tool an expectation names to the one the run "
        "called (refused otherwise: a rename changes what the check asserts)",
    )
    check.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar on stderr (shown only when stderr is a terminal and tqdm, "
        "from the cli extra, is installed)",
    )
    # toolmatch lint's checks first, coverage after (docs/cli.md)
    check.add_argument(
        "--strict",
        action="store_true",
        help="first run toolmatch lint's checks on the spec, and fail (exit status 1) "
        "without checking any run when one finds something",
    )
    check.add_argument(
        "--coverage",
        action="store_true",
        help="after the summary, per tool: the calls seen, those some expectation matched, "
        "those ignored; and the defined tools never called",
    )
    add_tools(check, "for --strict and --coverage (the spec's tools: also checks the calls)")
    add_plugin(check)
    add_commands(commands)
    return parser


# The command --------------------------------------------------------------------------------
#
# `toolmatch check` is a line of steps, each taking the typed options and what the steps
# before it made: a step that ends the command prints why and raises Stop.


def _check(options: CheckOptions) -> int:
    _tolerate_unencodable()
    _refuse_flags(options)
    before = _baseline(options)
    python = read_syntax(options.traces)
    cases, document = _spec_cases(options)
    stdin = _spooled_stdin(options)
    if options.update is not None:
        cases = _updated_cases(options, python, cases, stdin, document)
    tools = _strictly_checked(options, cases)
    return _check_traces(options, _Checked(python, cases, tools, before), stdin)


class _Checked(Record):
    """What the steps before the check made for it: the reader of ``--syntax python``, the
    spec's cases, the tools ``--tools`` defines, the ``--baseline``'s cases."""

    __slots__ = _fields = ("python", "cases", "tools", "before")
    python: PythonTurns | None
    cases: list[TestCase]
    tools: tuple[str, ...] | None
    before: Mapping[str, Side] | None


def _tolerate_unencodable() -> None:
    """A case name or an argument the console cannot encode must not end the run."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _refuse_flags(options: CheckOptions) -> None:
    """Flags refused before anything is read: ``--update`` where it may not write, ``--tools``
    where no step uses it."""
    if options.update is not None:
        from toolmatch._cli.update import refusal

        refused = refusal(options.spec, options.update_in_ci, os.environ)
        if refused is not None:
            raise Stop(fail(refused))
    if options.update_allow_rename and options.update not in ("fix", "all"):
        raise Stop(
            fail(
                "--update-allow-rename lets --update fix rename a tool: give --update fix or "
                "--update all with it"
            )
        )
    if options.tools is not None and not options.needs_tools:
        raise Stop(
            fail(
                "--tools names the tools the agent is offered, for --strict and --coverage: "
                "give one of them (a spec's tools: checks the calls against their definitions)"
            )
        )
    if options.confidence is not None and options.min_pass_rate is None:
        raise Stop(
            fail(
                "--confidence is the confidence of --min-pass-rate's bound: give "
                "--min-pass-rate R too"
            )
        )
    no_baseline = baseline_refusal(options.baseline, options.significance, options.allow_missing)
    if no_baseline is not None:
        raise Stop(no_baseline)


def _baseline(options: CheckOptions) -> Mapping[str, Side] | None:
    """The cases of ``--baseline``'s results, or None without it."""
    if options.baseline is None:
        return None
    from toolmatch._runs.baseline import read_baseline
    from toolmatch._runs.result_rows import ResultsError

    try:
        return read_baseline(options.baseline)
    except ResultsError as error:
        raise Stop(fail(f"--baseline: {error}")) from None


def _spec_cases(options: CheckOptions) -> tuple[list[TestCase], SpecDocument | None]:
    """The spec's cases, its warnings printed; with ``--update``, also the spec file they
    are loaded from, with the nodes that say where each value stands: the update plans its
    changes on that parse, and reads the spec again only if it changed."""
    document = None
    try:
        if options.update is not None:
            document = read_spec_document(options.spec, nodes=True)
        cases, warned = _load(options, options.spec if document is None else document)
    except ConfigError as error:
        raise Stop(config_problems(error)) from None
    except OSError as error:
        problem = f"cannot read the spec {options.spec}: {error.strerror or error}"
        raise Stop(fail(problem)) from None
    for warning in warned:  # one line each: the spec loads, with a meaning that changed
        print(printable(f"warning: {warning}"), file=sys.stderr)
    unregistered = judges_refusal(options.plugin, cases)
    if unregistered is not None:
        raise Stop(unregistered)
    return cases, document


def _load(
    options: CheckOptions, spec: str | SpecDocument
) -> tuple[list[TestCase], list[SpecWarning]]:
    """The cases of the spec at ``spec``, or of the spec file already read."""
    timeout = options.regex_timeout
    with nullcontext() if timeout is None else default_regex_timeout(timeout):
        return load_test_cases_quietly(spec) if isinstance(spec, str) else load_spec_document(spec)


def _spooled_stdin(options: CheckOptions) -> IO[bytes] | None:
    """Standard input copied, when ``--update`` reads its runs from it: they are read twice,
    by the update and by the check."""
    if options.update is None or options.traces.path != "-":
        return None
    from toolmatch._cli.update import spooled

    try:
        return spooled(sys.stdin.buffer)
    except OSError as error:
        raise Stop(fail(f"cannot read the traces <stdin>: {error.strerror or error}")) from None


def _updated_cases(
    options: CheckOptions,
    python: PythonTurns | None,
    cases: list[TestCase],
    stdin: IO[bytes] | None,
    loaded: SpecDocument | None,
) -> list[TestCase]:
    """Updates the spec from TRACES (``--update``); the cases to check. ``loaded`` is the
    spec file ``cases`` were loaded from."""
    from toolmatch._cli.update import update_spec

    assert options.update is not None
    traces = _traces_source(options, stdin)
    with traces:
        updated = update_spec(
            options.spec,
            options.update,
            options.update_allow_rename,
            cases,
            traces,
            options.traces,
            python,
            lambda document: _load(options, document)[0],
            loaded,
        )
    if isinstance(updated, int):
        raise Stop(updated)
    return updated


def _strictly_checked(options: CheckOptions, cases: list[TestCase]) -> tuple[str, ...] | None:
    """The tools ``--tools`` defines, for ``--strict`` and ``--coverage``; with
    ``--strict``, the command ends here on any finding of ``toolmatch lint``."""
    tools = defined_tools(options.tools) if options.needs_tools else None
    if isinstance(tools, int):
        raise Stop(tools)
    if options.strict:
        findings = spec_findings(options.spec, cases, tools)
        if findings:
            raise Stop(strict_refusal(options.spec, findings))
    return tools


def _traces_source(options: CheckOptions, stdin: IO[bytes] | None) -> TracesSource:
    try:
        return TracesSource(options.traces.path, besides=[options.spec], stdin=_reread(stdin))
    except TracesError as error:
        raise Stop(fail(str(error))) from None


def _check_traces(options: CheckOptions, checked: _Checked, stdin: IO[bytes] | None) -> int:
    """Checks the runs of TRACES and reports them; the exit status."""
    traces = _traces_source(options, stdin)
    for skipped in traces.warnings():
        print(printable(f"warning: {skipped}"), file=sys.stderr)
    with traces:
        _refuse_outputs_on_inputs(options, traces)
        junit = events = None
        try:
            junit = _junit_report(options, traces)
            events = _events_file(options)
            return _run(options, checked, traces, junit, events)
        finally:
            if junit is not None:
                junit.discard()
            if events is not None:
                events.discard()


def _refuse_outputs_on_inputs(options: CheckOptions, traces: TracesSource) -> None:
    """A report replaces the file at its path: never the input it reports on."""
    inputs: list[str | int] = [*traces.files] or [sys.stdin.fileno()]
    for path in (options.junit_xml, options.html, options.markdown, options.otel_events):
        if not path:
            continue
        for what, others in (
            ("the traces file", inputs),
            ("the spec", [options.spec]),
            ("the baseline", [options.baseline] if options.baseline else []),
        ):
            if any(same_file(path, other) for other in others):
                raise Stop(fail(f"cannot write {path}: it is {what}"))
    _refuse_events_on_junit(options)


def _refuse_events_on_junit(options: CheckOptions) -> None:
    """The OTel events file is never the JUnit report's file (each would replace the other)."""
    junit_path, events_path = options.junit_xml, options.otel_events
    if (
        junit_path
        and events_path
        and (
            same_file(junit_path, events_path)
            or os.path.realpath(junit_path) == os.path.realpath(events_path)
        )
    ):
        raise Stop(fail(f"cannot write {events_path}: it is the JUnit report's file"))


def _junit_report(options: CheckOptions, traces: TracesSource) -> JUnit | None:
    """The JUnit report of ``--junit-xml``, begun."""
    path = options.junit_xml
    if not path:
        return None
    suite = os.path.splitext(os.path.basename(options.spec))[0]
    try:
        return JUnit(path, suite, traces)
    except OSError as error:
        raise Stop(fail(f"cannot write {path}: {error.strerror or error}")) from None


def _events_file(options: CheckOptions) -> OtelEvents | None:
    """The file of ``--otel-events``, begun."""
    path = options.otel_events
    if not path:
        return None
    try:
        return OtelEvents(path)
    except OSError as error:
        raise Stop(fail(f"cannot write {path}: {error.strerror or error}")) from None


def _reread(copy: IO[bytes] | None) -> IO[bytes] | None:
    """The copy of standard input from its start, as a file of its own: a TracesSource closes
    what it reads, and the copy is read twice."""
    if copy is None:
        return None
    copy.seek(0)
    return os.fdopen(os.dup(copy.fileno()), "rb")


def _run(
    options: CheckOptions,
    checked: _Checked,
    traces: TracesSource,
    junit: JUnit | None,
    events: OtelEvents | None,
) -> int:
    """Checks every record and reports; however the run ends, the JUnit report and the
    events of the runs checked are written, and with ``--html`` or ``--markdown`` the pages
    once it ends."""
    progress = progress_bar(traces.size or None) if options.progress else None
    output = Output(sys.stdout, progress)
    formats = [OUTPUT_FORMATS[options.format](output, traces)]
    if junit is not None:
        formats.append(junit)
    pages = _pages(options)
    rows = None  # --html, --markdown: the JSON rows, rendered at the end
    if pages:
        import tempfile

        rows_file = tempfile.NamedTemporaryFile(  # noqa: SIM115
            "w", encoding="utf-8", suffix=".jsonl", delete=False
        )
        rows = Output(rows_file, None)
        formats.append(JsonLines(rows, traces))
    names = [case.name for case in checked.cases]
    before = checked.before
    delta = None if before is None else Delta([], options.significance, options.allow_missing)
    report = Report(
        names,
        traces,
        formats,
        output,
        options.min_pass_rate,
        options.pass_k,
        delta,
        before,
        None if events is None else events.add,
        options.not_evaluable == "fail",
    )
    try:
        status = _judge_all(options, checked, traces, (junit, events), report, progress, rows)
        if rows is not None and status in (0, 1):
            rows.flush()
            rows.out.close()
            header = {
                "command": "toolmatch check "
                + " ".join(sys.argv[2:] if sys.argv[1:2] == ["check"] else []),
                "spec": options.spec,
                "traces": traces.name,
            }
            why = write_pages(pages, rows.out.name, header)
            if why is not None:
                return fail(why)
        return status
    finally:
        if rows is not None:
            rows.out.close()
            os.unlink(rows.out.name)


def _pages(options: CheckOptions) -> list[tuple[str, str]]:
    """``--html`` and ``--markdown``: each format with its path."""
    return [
        (kind, path)
        for kind, path in (("html", options.html), ("markdown", options.markdown))
        if path
    ]


def _judge_all(
    options: CheckOptions,
    checked: _Checked,
    traces: TracesSource,
    files: tuple[JUnit | None, OtelEvents | None],
    report: Report,
    progress: Progress | None,
    rows: Output | None,
) -> int:
    """Judges every record, telling ``report``; the exit status. However the run ends, the
    JUnit report and the events of the runs checked (``files``) are written."""
    junit, events = files
    want_json = any(each.wants_json for each in report.formats)
    cases = checked.cases
    envelope = options.traces.envelope()
    name = None if events is None else EVALUATION_NAME
    judge = RecordJudge(
        cases,
        want_json,
        envelope,
        checked.python,
        options.coverage,
        name,
        options.plugin,
        options.traces.error_keys,
    )
    stopped = None  # why the run ended early, for the JUnit report
    try:
        _report_runs(report, judge, options, traces, progress, rows)
        report.finish(cases)
        if judge.coverage is not None:
            report.coverage(*judge.coverage.rows(defined_names(cases, checked.tools)))
        status = report.exit_code
    except KeyboardInterrupt:
        try:  # the runs counted as checked are reported, as the "not checked" line says
            report.flush()
        except OSError:
            _quiet_stdout()
        stopped = f"interrupted; {traces.not_checked(report.next_line)}"
        print(_INTERRUPTED, file=sys.stderr)
        status = 130
    except BrokenPipeError:  # the reader has all it wanted: not a failure
        _quiet_stdout()
        stopped = f"the output was closed; {traces.not_checked(report.next_line)}"
        status = 0
    except StoppedError as error:
        stopped = traces.stopped(error)
        status = fail(stopped)
    except OSError as error:  # reading errors are StoppedError: the output is at fault
        _quiet_stdout()  # what is still buffered could not be written either
        problem = f"cannot write the output: {error.strerror or error}"
        stopped = f"{problem}; {traces.not_checked(report.next_line)}"
        status = fail(problem)
    if junit is not None:
        status = _finish_file(junit.path, lambda: junit.finish(report.tally, stopped), status)
    if events is not None:
        status = _finish_file(options.otel_events or "", events.finish, status)
    return status


def _report_runs(
    report: Report,
    judge: RecordJudge,
    options: CheckOptions,
    traces: TracesSource,
    progress: Progress | None,
    rows: Output | None,
) -> None:
    """Judges the records of TRACES a batch at a time (in ``--jobs`` workers), each batch
    reported as it comes."""
    batches = judged_batches(judge, trace_blocks(traces, options.traces.columns()), options.jobs)
    try:
        for batch in batches:
            report.add_all(batch)
            report.flush()
            if rows is not None:
                rows.flush()
            if progress is not None:
                tally = report.tally
                progress.update(tally.passed + tally.failed + tally.not_evaluable, traces)
    finally:
        batches.close()  # ends the workers now, whatever stopped the loop
        if progress is not None:
            progress.close()


def _finish_file(path: str, finish: Callable[[], None], status: int) -> int:
    """Writes the file at ``path`` whole (``finish``); the exit status, 2 when it cannot be
    written."""
    try:
        with InterruptsHeld():  # the file is written whole or not at all
            finish()
    except OSError as error:
        return fail(f"cannot write {path}: {error.strerror or error}{unchanged(path)}")
    return status
