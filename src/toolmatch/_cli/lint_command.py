"""``toolmatch lint SPEC [--tools DEFS] [--format text|json]``, and ``check --strict``.

Text: one finding a line, ``SPEC[:<line>]: <place>: <why> [<rule>]``, then ``<N>
finding(s)`` or ``no findings``. JSON Lines: ``{"type": "finding", "place", "line",
"rule", "message"}`` each, then ``{"type": "summary", "findings": N}``. Exit status: 0
no finding, 1 some, 2 a bad spec, bad definitions or an unreadable file. The rules are
``toolmatch._spec.lint``'s.
"""

from __future__ import annotations

import json
import sys

from toolmatch._cli.console import config_problems, fail, printable
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._spec.errors import ConfigError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import Any

    from toolmatch._selection.case import TestCase
    from toolmatch._spec.lint import Finding

__all__ = [
    "add_lint",
    "add_plugin",
    "judges_refusal",
    "add_tools",
    "defined_tools",
    "finding_line",
    "spec_findings",
    "strict_refusal",
]


def add_tools(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--tools",
        metavar="DEFS",
        help="a JSON or YAML file of tool definitions (as a spec's tools: takes): the tools "
        f"the agent is offered, {what}",
    )


def add_plugin(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first (repeatable): a module that registers the judges the spec "
        "names ({$judge: name}) with toolmatch.register_judge; a spec never imports code",
    )


def judges_refusal(plugins: Sequence[str], cases: list[TestCase] | None) -> int | None:
    """Import the ``--plugin`` modules; the exit status if one cannot be imported or, given
    the ``cases``, if they name a judge nobody registered (``None``: all is well)."""
    from toolmatch._matchers.judges import import_plugins

    try:
        import_plugins(plugins)
    except ImportError as error:
        return fail(str(error).partition("\n")[0])
    if cases is None:
        return None
    from toolmatch._spec.lint import unregistered_judge_names

    names = unregistered_judge_names(cases)
    if not names:
        return None
    return fail(
        f"the spec names judges nobody registered: {', '.join(map(repr, names))}; register "
        "each with toolmatch.register_judge in a module given to --plugin, or in the "
        "toolmatch.judges entry point group"
    )


def add_lint(commands: Any) -> None:
    """Add ``lint`` to the ``toolmatch`` command's subparsers."""
    lint = commands.add_parser(
        "lint",
        help="list the expectations of a spec that can never fail or never pass",
        description="List the expectations of SPEC that can never fail or never pass, each "
        "with its place and why (docs/cli.md). Exit status: 0 none, 1 some, 2 a bad spec, "
        "bad definitions or an unreadable file.",
    )
    lint.add_argument("spec", metavar="SPEC", help="test cases: a .yaml, .yml or .json file")
    add_tools(lint, "for the turns without a tools: of their own")
    add_plugin(lint)
    lint.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (default): one finding a line, then their count; json: JSON Lines, one "
        "object a finding, then a summary object",
    )
    lint.set_defaults(run=_lint)


def defined_tools(path: str | None) -> tuple[str, ...] | int | None:
    """The names ``--tools`` defines; ``None`` without it, the exit status if it is bad."""
    if path is None:
        return None
    from toolmatch._spec.lint import read_tool_names

    try:
        return read_tool_names(path)
    except OSError as error:
        return fail(f"cannot read the tools {path}: {error.strerror or error}")
    except ConfigError as error:
        return config_problems(error)
    except (TypeError, ValueError) as error:
        return fail(f"--tools {path}: {str(error).partition(chr(10))[0]}")


def spec_findings(
    where: str, cases: list[TestCase], tools: tuple[str, ...] | None
) -> list[Finding]:
    """The findings of the spec file ``where``, whose ``cases`` are loaded already."""
    from toolmatch._spec.lint import lint_cases, with_lines
    from toolmatch._spec.parsing import read_spec_file

    # The file again, for where each case wrote its turns: it loaded, so it reads.
    return with_lines(lint_cases(cases, read_spec_file(where), tools), where)


def finding_line(where: str, finding: Finding) -> str:
    """A finding as a line of text: after the spec's name and, when known, its line."""
    line = "" if finding.line is None else f":{finding.line}"
    return printable(f"{where}{line}: {finding}")


def strict_refusal(where: str, findings: list[Finding]) -> int:
    """``check --strict`` with findings: each on stderr, then why nothing was checked; 1."""
    for finding in findings:
        print(f"toolmatch: --strict: {finding_line(where, finding)}", file=sys.stderr)
    count = f"{len(findings)} finding{'' if len(findings) == 1 else 's'}"
    print(f"toolmatch: --strict: {count} in the spec; no run was checked", file=sys.stderr)
    return 1


def _lint(options: argparse.Namespace) -> int:
    from toolmatch._spec.loading import load_test_cases_quietly

    tools = defined_tools(options.tools)
    if isinstance(tools, int):
        return tools
    refused = judges_refusal(options.plugin, None)  # lint reports the judges nobody registered
    if refused is not None:
        return refused
    try:
        cases, warned = load_test_cases_quietly(options.spec)
    except ConfigError as error:
        return config_problems(error)
    except OSError as error:
        return fail(f"cannot read the spec {options.spec}: {error.strerror or error}")
    for warning in warned:
        print(printable(f"warning: {warning}"), file=sys.stderr)
    findings = spec_findings(options.spec, cases, tools)
    lines = []
    for finding in findings:
        if options.format == "json":
            row = {"type": "finding", "place": finding.place, "line": finding.line}
            row.update(rule=finding.rule, message=finding.message)
            lines.append(json.dumps(row))
        else:
            lines.append(finding_line(options.spec, finding))
    if options.format == "json":
        lines.append(json.dumps({"type": "summary", "findings": len(findings)}))
    elif findings:
        lines.append(f"{len(findings)} finding{'' if len(findings) == 1 else 's'}")
    else:
        lines.append("no findings")
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    return 1 if findings else 0
