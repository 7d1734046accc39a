"""``toolmatch record TRACES [-o SPEC]``: a spec written from recorded runs (docs/record.md).

TRACES is read as ``toolmatch check`` reads it (JSON Lines, ``.gz``, ``.json``, Parquet,
a directory of them, ``-`` for standard input, ``--case-key/--turns-key/--one-turn``).
Each case name, in order of first appearance, becomes a case built by
:func:`recorded_case` from all of its runs (or, with ``--loosen none``, from its last
run). The spec goes to standard output as YAML, or to SPEC: JSON when its name ends in
``.json``, YAML for ``.yaml`` / ``.yml``.

A record that holds no run it can record is reported on stderr as ``ERROR <place>:
message``, at its place as ``check`` gives it (``file:N``, ``file:row N``, ``file:item
N``), and the others are still recorded. Exit status: 0 every run is in the spec; 1 the
spec is written, but some records are not in it (bad ones, runs with another number of
turns than their case); 2 nothing is written (bad usage, the traces or SPEC cannot be
read or written, no run at all, ruamel.yaml missing); 130 interrupted.
"""

from __future__ import annotations

import sys

from toolmatch._cli.console import fail, printable, read_input
from toolmatch._cli.options import TracesOptions
from toolmatch._cli.output_files import write_file, write_output
from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.envelope import RecordError
from toolmatch._runs.traces import (
    StoppedError,
    TracesError,
    TracesSource,
    read_item,
    same_file,
    trace_items,
)

if TYPE_CHECKING:
    import argparse
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._calls.definitions import ToolDefinition
    from toolmatch._runs.syntax import PythonTurns

__all__ = ["add_envelope", "add_error_keys", "add_record", "add_syntax", "read_syntax"]

_SUFFIXES = (".yaml", ".yml", ".json")


def add_record(commands: Any) -> None:
    """Add ``record`` to the ``toolmatch`` command's subparsers."""
    record = commands.add_parser(
        "record",
        help="write a spec from recorded runs (JSON Lines), loosening what varies between runs",
        description=(
            "Write a spec with one case per case name in TRACES, each call expected with its "
            "exact name and arguments; values that differ between a case's runs become "
            "matchers. Exit status: 0 written, 1 written but some lines are not in it, "
            "2 nothing written."
        ),
    )
    record.add_argument(
        "traces",
        metavar="TRACES",
        help='recorded runs, one JSON object a line: {"case": NAME, "turns": [...]}; - for stdin',
    )
    record.add_argument(
        "-o",
        "--output",
        metavar="SPEC",
        help="write here: JSON for .json, YAML for .yaml or .yml (default: YAML on stdout)",
    )
    record.add_argument(
        "--loosen",
        choices=("varying", "strict", "none"),
        default="varying",
        help="varying (default): values that differ between a case's runs become matchers "
        "that generalise (docs/record.md); strict: only ids, times, dates and UUIDs (and the "
        "formats --tools definitions declare) loosen, other values that differ are one of the "
        "values seen; none: each case is its last run, as recorded",
    )
    record.add_argument(
        "--into",
        metavar="SPEC",
        help="widen this existing spec with the runs instead of writing a new one: literals "
        "that the runs disagree with become matchers, every other line is kept as it is, "
        "cases the spec lacks are added; the change is printed as a diff on stderr",
    )
    record.add_argument(
        "--tools",
        metavar="DEFS",
        help="the tools' definitions (a JSON or YAML file of a list of them, as the tools: "
        "key reads it): their enums, formats, types, required lists and read-only tools "
        "(MCP readOnlyHint) steer the loosening",
    )
    add_envelope(record)
    add_syntax(record)
    add_error_keys(record, "not recorded (an ERROR line)")
    record.set_defaults(run=_record)


def add_envelope(command: argparse.ArgumentParser) -> None:
    """Add ``--case-key``, ``--turns-key`` and ``--one-turn``, where a record keeps its case
    and turns, to ``command``."""
    command.add_argument(
        "--case-key",
        default="case",
        metavar="PATH",
        help="the field holding a run's case name, a dotted path such as info.task_id "
        "(default case)",
    )
    command.add_argument(
        "--turns-key",
        default="turns",
        metavar="PATH",
        help="the field holding a run's turns, a dotted path (default turns)",
    )
    command.add_argument(
        "--one-turn",
        action="store_true",
        help="the turns field holds one turn (such as a message list), not a list of turns",
    )


def add_syntax(command: argparse.ArgumentParser) -> None:
    """Add ``--syntax`` and ``--functions``, how a turn given as text is read, to ``command``."""
    command.add_argument(
        "--syntax",
        choices=("json", "python"),
        default="json",
        help="json (default): a turn given as text is JSON; python: it is calls written as "
        "Python, [cd(folder='docs')], as BFCL's model outputs hold them (a list of such texts "
        "is a turn's steps)",
    )
    command.add_argument(
        "--functions",
        metavar="DOCS",
        action="append",
        help="with --syntax python, function docs naming positional arguments, as for "
        "toolmatch import bfcl (JSON Lines or a JSON list; may be given several times)",
    )


def add_error_keys(command: argparse.ArgumentParser, made: str) -> None:
    """Add ``--error-key`` and ``--completed-value``, where a record says its run did not
    complete, to ``command``; ``made``: what such a run is, in its help."""
    command.add_argument(
        "--error-key",
        action="append",
        metavar="PATH",
        help="a field (a dotted path; repeat for several) whose value says the run did not "
        f"complete, making it {made} unless absent, null, false, empty or a "
        "--completed-value (default error)",
    )
    command.add_argument(
        "--completed-value",
        action="append",
        default=[],
        metavar="VALUE",
        help="a text value of an --error-key field that says the run completed (repeat for "
        "several), such as tau2's agent_stop and user_stop",
    )


def read_syntax(options: TracesOptions) -> PythonTurns | None:
    """The reader of ``--syntax python`` with the ``--functions`` docs read; ``None`` for
    ``--syntax json``. Docs that cannot be read end the command (:class:`Stop`)."""
    from toolmatch._runs.syntax import python_turns_of

    return read_input(lambda: python_turns_of(options.syntax, options.functions))


def _record(options: argparse.Namespace) -> int:
    from toolmatch._spec.writing import NEEDS_RUAMEL

    try:
        import ruamel.yaml  # noqa: F401  # before reading: a missing extra wastes no run
    except ImportError:
        return fail(NEEDS_RUAMEL)
    output = options.output
    if options.into is not None:
        if output is not None:
            return fail("--into widens SPEC in place; give -o or --into, not both")
        if options.loosen == "none":
            return fail("--into widens with loosened values; --loosen none cannot widen a spec")
        output = options.into
    if output is not None and not output.lower().endswith(_SUFFIXES):
        return fail(f"cannot write {output}: a spec's name ends in .yaml, .yml or .json")
    traces_options = TracesOptions.of(options)
    python = read_syntax(traces_options)
    definitions, read_only = read_input(lambda: _definitions(options.tools))
    try:
        traces = TracesSource(options.traces)
    except TracesError as error:
        return fail(str(error))
    for skipped in traces.warnings():
        print(printable(f"warning: {skipped}"), file=sys.stderr)
    with traces:
        if output is not None and any(same_file(output, file) for file in traces.files):
            return fail(f"cannot write {output}: it is the traces file")
        try:
            runs, errors = _read_runs(traces, traces_options, python)
        except StoppedError as error:
            return fail(traces.stopped(error))
    if not runs:
        return fail(f"no run to record in {traces.name}")
    if options.into is not None:
        return _widen(options, runs, errors, definitions, read_only)
    return _write(options, traces, runs, errors, definitions, read_only)


def _widen(
    options: argparse.Namespace,
    runs: dict[str, list[tuple[int, list[list[ToolCall]]]]],
    errors: int,
    definitions: dict[str, ToolDefinition] | None,
    read_only: frozenset[str],
) -> int:
    """``--into SPEC``: SPEC widened with the runs, written whole or not at all, the change
    printed as a diff on stderr, and what could not be widened after it."""
    from toolmatch._authoring.splicing import SpecText, SplicingError
    from toolmatch._authoring.widening import widening
    from toolmatch._cli.update import print_diff, report_not_done, report_weakened
    from toolmatch._core.limits import read_whole
    from toolmatch._spec.errors import ConfigError
    from toolmatch._spec.loading import load_test_cases

    where = options.into
    try:
        raw = read_whole(where)
        load_test_cases(where)
    except OSError as error:
        return fail(f"cannot read {where}: {error.strerror or error}")
    except ConfigError as error:
        problem = error.problems[0]
        return fail(f"cannot widen {where}: {problem.path}: {problem.message}; it is unchanged")
    except ValueError as error:  # too large to read whole
        return fail(f"cannot widen {where}: {where}: {error}; it is unchanged")
    spec = SpecText(where, raw)
    recorded = {case: [calls for _, calls in numbered if calls] for case, numbered in runs.items()}
    plan = widening(
        spec.data, recorded, loosen=options.loosen, tools=definitions, read_only=read_only
    )
    try:
        text, made, not_placed = spec.edited(plan.edits, plan.where)
    except SplicingError as error:
        return fail(f"cannot widen {where}: {error} (a bug in toolmatch); it is unchanged")
    not_done = [*plan.not_done, *not_placed]
    if text != spec.text:
        try:
            load_test_cases(SpecText(where, spec.bytes_of(text)).data)
        except ConfigError as error:  # a value the rules wrote that the loader refuses
            problem = error.problems[0]
            return fail(
                f"cannot widen {where}: the widened spec would not load: {problem.path}: "
                f"{problem.message} (a bug in toolmatch); it is unchanged"
            )
        refused = write_file(where, ("\ufeff" if spec.bom else "") + text)
        if refused is not None:
            return fail(refused)
        print_diff(where, spec.text, text)
        report_weakened(made, plan.where)
    report_not_done(not_done)
    return 1 if errors or not_done else 0


def _definitions(path: str | None) -> tuple[dict[str, ToolDefinition] | None, frozenset[str]]:
    """The definitions in ``--tools DEFS`` by name, and the names of those marked read-only;
    ``None`` without it. A file that cannot be read or holds anything but definitions is an
    error naming it (raised)."""
    if path is None:
        return None, frozenset()
    from toolmatch._authoring.loosening import read_only_tools
    from toolmatch._calls.definitions import read_tool_definitions
    from toolmatch._spec.errors import ConfigError
    from toolmatch._spec.parsing import read_spec_file

    try:
        data = read_spec_file(path)
    except ConfigError as error:
        problem = error.problems[0]
        raise ValueError(f"--tools {path}: {problem.path}: {problem.message}") from None
    try:
        return read_tool_definitions(data, path), read_only_tools(data)
    except (TypeError, ValueError) as error:
        raise ValueError(f"--tools {path}: {error}") from None


def _bad(traces: TracesSource, number: int, message: str) -> None:
    where = traces.place(number)
    print(printable(f"ERROR {where}: {message.partition(chr(10))[0]}"), file=sys.stderr)


def _read_runs(
    traces: TracesSource, options: TracesOptions, python: PythonTurns | None
) -> tuple[dict[str, list[tuple[int, list[list[ToolCall]]]]], int]:
    """Each case's runs (record number and calls), in order of first appearance, and how
    many records were bad (each reported as it is read): a run that did not complete
    (``--error-key``) is one, never a case's expectations."""
    from toolmatch._authoring.recording import calls_of_run, not_json

    runs: dict[str, list[tuple[int, list[list[ToolCall]]]]] = {}
    errors = 0
    envelope, error_keys = options.envelope(), options.error_keys
    for number, item in trace_items(traces, options.columns()):
        try:
            run = read_item(item)
            incomplete = error_keys.reason(run) if isinstance(run, dict) else None
            if incomplete is not None:
                raise RecordError(f"{incomplete}; not recorded")
            if envelope is not None:
                run = envelope(run)
            case, turns = _case_and_turns(run)
            calls = calls_of_run(turns, python)
        except (RecordError, TypeError, ValueError) as error:
            _bad(traces, number, str(error))
            errors += 1
            continue
        problem = not_json(calls)
        if problem is not None:  # a Parquet value: in no spec, it would not load
            _bad(traces, number, f"{problem}; not recorded")
            errors += 1
            continue
        runs.setdefault(case, []).append((number, calls))
    return runs, errors


def _case_and_turns(run: object) -> tuple[str, object]:
    if not isinstance(run, dict):
        raise RecordError(
            'a run must be a JSON object {"case": NAME, "turns": [...]}, got '
            f"{short_repr(run)} ({type_name(run)})"
        )
    case = run.get("case")
    if not isinstance(case, str) or not case:
        found = "missing" if "case" not in run else f"{short_repr(case)} ({type_name(case)})"
        raise RecordError(f'"case" must be the case\'s name, a non-empty string, got {found}')
    if "turns" not in run:
        raise RecordError('missing "turns": a list with one entry of calls per turn')
    return case, run["turns"]


def _note_differing(
    traces: TracesSource, case: str, written: Any, numbered: list[tuple[int, list[list[ToolCall]]]]
) -> None:
    """Name the runs the case recorded from its last run fails: ``--loosen none`` was asked
    for, so they are not errors, but ``toolmatch check`` will report them."""
    from toolmatch._selection.unrecorded import NotRecordedError
    from toolmatch._spec.loading import load_test_cases

    [test_case] = load_test_cases({"test_cases": [written]})
    last = max(number for number, calls in numbered if calls)
    for number, calls in numbered:
        if not calls or number == last:
            continue
        try:
            differs = "" if test_case.passes(calls) else "toolmatch check will fail it"
        except NotRecordedError as error:
            differs = f"toolmatch check cannot check it: {error}"
        if differs:
            print(
                printable(
                    f"note: {traces.place(number)}: case {short_repr(case)} is its run at "
                    f"{traces.place(last)} (--loosen none); this run differs, and {differs}"
                ),
                file=sys.stderr,
            )


def _write(
    options: argparse.Namespace,
    traces: TracesSource,
    runs: dict[str, list[tuple[int, list[list[ToolCall]]]]],
    errors: int,
    definitions: dict[str, ToolDefinition] | None,
    read_only: frozenset[str],
) -> int:
    from toolmatch._authoring.recording import kept_turn_count, recorded_case, recorded_spec
    from toolmatch._spec.writing import plain_data, spec_json, spec_text

    loosen = options.loosen != "none"
    cases = []
    for case, numbered in runs.items():
        recorded = [calls for _, calls in numbered if calls]
        kept = kept_turn_count(recorded) if loosen else None
        for number, calls in numbered:
            if not calls:
                why = "a run with no turns cannot be recorded"
            elif kept is not None and len(calls) != kept:
                why = (
                    f"this run has {len(calls)} turn(s), the case is recorded from its runs "
                    f"with {kept}; not recorded"
                )
            else:
                continue
            _bad(traces, number, f"case {short_repr(case)}: {why}")
            errors += 1
        if not recorded:
            continue
        try:
            written = recorded_case(
                case, recorded, loosen=options.loosen, tools=definitions, read_only=read_only
            )
        except ValueError as error:  # beyond a spec's limits: it would not load
            _bad(traces, numbered[0][0], f"{error}; not recorded")
            errors += len(numbered)
            continue
        cases.append(written)
        if not loosen and len(recorded) > 1:
            _note_differing(traces, case, written, numbered)
    if not cases:
        return fail(f"no run to record in {traces.name}")
    spec = recorded_spec(cases)
    output = options.output
    if output is not None and output.lower().endswith(".json"):
        text = spec_json(plain_data(spec))
    else:
        text = spec_text(spec)
    return write_output(output, text) or (1 if errors else 0)
