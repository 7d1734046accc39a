"""``toolmatch import`` and ``toolmatch schema``: spec files from benchmarks, and their schema.

``toolmatch import bfcl POSSIBLE_ANSWERS.json [--functions DOCS.json ...] [-o spec.yaml]``
and ``toolmatch import tau2 tasks.json [-o spec.yaml]`` write a spec to the file given
(JSON when its name ends in ``.json``, else YAML) whole or not at all, or to standard
output (YAML); ``toolmatch schema`` prints the spec files' JSON Schema. Exit status: 0
written, 2 bad input or an unwritable file.
"""

from __future__ import annotations

from toolmatch._cli.console import fail, read_input, write_stdout
from toolmatch._cli.lint_command import add_lint
from toolmatch._cli.output_files import write_output
from toolmatch._cli.record_command import add_record
from toolmatch._cli.report_command import add_report
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse
    from typing import Any

__all__ = ["add_commands", "run_command"]


def add_commands(commands: Any) -> None:
    """Add ``import``, ``schema``, ``record``, ``lint``, ``report`` to the subparsers."""
    schema = commands.add_parser(
        "schema",
        help="print the JSON Schema of spec files (for editors and validators)",
        description="Print the JSON Schema (draft 2020-12) that spec files follow.",
    )
    schema.set_defaults(run=_schema)
    importer = commands.add_parser(
        "import",
        help="write a spec from a benchmark's ground truth (bfcl, tau2)",
        description="Write a spec file from a benchmark's ground truth; see docs/importers.md.",
    )
    sources = importer.add_subparsers(dest="source", required=True, metavar="SOURCE")
    bfcl = sources.add_parser(
        "bfcl",
        help="BFCL possible answers (JSON Lines, from the bfcl-eval package)",
        description="One case per BFCL entry: single-turn, parallel and multi-turn.",
    )
    bfcl.add_argument("answers", metavar="POSSIBLE_ANSWERS", help="a possible-answer file")
    bfcl.add_argument(
        "--functions",
        metavar="DOCS",
        action="append",
        help="function docs naming positional arguments in multi-turn ground truth "
        "(JSON Lines or a JSON list; may be given several times)",
    )
    bfcl.add_argument("-o", "--output", metavar="PATH", help="write here (default: stdout)")
    bfcl.set_defaults(run=_import_bfcl)
    tau2 = sources.add_parser(
        "tau2",
        help="tau2-bench tasks (data/tau2/domains/<domain>/tasks.json)",
        description="One case per tau2-bench task, its actions the expected tools.",
    )
    tau2.add_argument("tasks", metavar="TASKS", help="a tasks.json file")
    tau2.add_argument("-o", "--output", metavar="PATH", help="write here (default: stdout)")
    tau2.set_defaults(run=_import_tau2)
    add_record(commands)
    add_lint(commands)
    add_report(commands)


def run_command(options: argparse.Namespace) -> int:
    """Run ``import``, ``schema``, ``record``, ``lint`` or ``report``; the exit status."""
    status: int = options.run(options)
    return status


def _schema(options: argparse.Namespace) -> int:
    from toolmatch._spec.schema import schema_text

    write_stdout(schema_text())
    return 0


def _import_bfcl(options: argparse.Namespace) -> int:
    from toolmatch._spec.import_bfcl import import_bfcl

    return _write(options, lambda: import_bfcl(options.answers, options.functions))


def _import_tau2(options: argparse.Namespace) -> int:
    from toolmatch._spec.import_tau2 import import_tau2

    return _write(options, lambda: import_tau2(options.tasks))


def _write(options: argparse.Namespace, make: Any) -> int:
    spec = read_input(make)
    output = options.output
    if output is not None and output.lower().endswith(".json"):
        from toolmatch._spec.writing import spec_json

        try:
            text = spec_json(spec)
        except ValueError as error:  # NaN
            return fail(f"cannot write {output}: {error}")
    else:
        try:
            from toolmatch._spec.writing import spec_yaml

            text = spec_yaml(spec)
        except ImportError:
            return fail("writing YAML needs PyYAML: pip install 'toolmatch[cli]'")
    return write_output(output, text)
