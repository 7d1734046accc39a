"""``toolmatch report RESULTS... [-o FILE] [--format html|markdown] [--baseline BASE]``: a
page or Markdown rendered from what ``toolmatch check --format json`` wrote, without
checking anything again; and the same pages for ``check --html`` / ``check --markdown``.

Exit status: 0 written, 1 a regression from ``--baseline``, 2 a file that cannot be read
or written, or is not a results file.
"""

from __future__ import annotations

import argparse

from toolmatch._cli.console import fail
from toolmatch._cli.output_files import write_file, write_output
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.result_rows import ResultsError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from toolmatch._cli.reports.results import Gathered

__all__ = [
    "add_baseline",
    "add_report",
    "baseline_refusal",
    "render",
    "significance",
    "write_pages",
]

PAGE_FORMATS = ("html", "markdown")


def significance(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(
            f"must be a number between 0 and 1 (both excluded), such as 0.05, got {text!r}"
        )
    return value


def add_baseline(parser: argparse.ArgumentParser) -> None:
    """``--baseline``, ``--significance`` and ``--allow-missing``, for check and report."""
    parser.add_argument(
        "--baseline",
        metavar="BASE",
        help="compare with BASE, an earlier toolmatch check --format json output (.gz too): "
        "exit status 1 when a case regressed or is missing (docs/cli.md, Baselines)",
    )
    parser.add_argument(
        "--significance",
        type=significance,
        default=0.05,
        metavar="P",
        help="with --baseline: a pass rate changed when Fisher's exact test gives a p-value "
        "of at most P (default 0.05)",
    )
    parser.add_argument(
        "--allow-missing",
        action="store_true",
        help="with --baseline: a case of the baseline with no run now is reported, not a "
        "regression",
    )


def add_report(commands: Any) -> None:
    """Add ``report`` to the ``toolmatch`` command's subparsers."""
    report = commands.add_parser(
        "report",
        help="render toolmatch check --format json output as an HTML page or Markdown",
        description="Render the rows toolmatch check --format json wrote (one or more files, "
        ".gz too) as one HTML page or as Markdown, checking nothing again. Exit status: 0 "
        "written, 1 a regression from --baseline, 2 bad input.",
    )
    report.add_argument(
        "results", metavar="RESULTS", nargs="+", help="files toolmatch check --format json wrote"
    )
    report.add_argument(
        "-o", "--output", metavar="FILE", help="write here, whole or not at all (default stdout)"
    )
    report.add_argument(
        "--format",
        choices=PAGE_FORMATS,
        help="html (default; markdown when FILE ends in .md): one page, no script; markdown: "
        "the summary, the first failures and the flaky checks, for a CI job summary",
    )
    add_baseline(report)
    report.set_defaults(run=_report)


def render(gathered: Gathered, kind: str) -> str:
    if kind == "markdown":
        from toolmatch._cli.reports.markdown import markdown_report

        return markdown_report(gathered)
    from toolmatch._cli.reports.html_page import html_page

    return html_page(gathered)


def baseline_refusal(baseline: str | None, significance: float, allow_missing: bool) -> int | None:
    """Exit status 2 for --significance or --allow-missing without --baseline."""
    if baseline is None:
        for flag, given in (
            ("--significance", significance != 0.05),
            ("--allow-missing", allow_missing),
        ):
            if given:
                return fail(f"{flag} is for --baseline: give --baseline BASE too")
    return None


def _report(options: argparse.Namespace) -> int:
    from toolmatch._cli.reports.results import gather
    from toolmatch._runs.baseline import read_baseline
    from toolmatch._runs.traces import same_file

    refused = baseline_refusal(options.baseline, options.significance, options.allow_missing)
    if refused is not None:
        return refused
    kind = options.format
    if kind is None:
        markdown = options.output is not None and options.output.endswith((".md", ".markdown"))
        kind = "markdown" if markdown else "html"
    if options.output is not None:
        for given in [*options.results, *([options.baseline] if options.baseline else [])]:
            if same_file(options.output, given):
                return fail(f"cannot write {options.output}: it is the results file {given}")
    try:
        gathered = gather(options.results)
        if options.baseline is not None:
            before = read_baseline(options.baseline)
            gathered.compare_with(before, options.significance, options.allow_missing)
    except ResultsError as error:
        return fail(str(error))
    regressed = gathered.delta is not None and gathered.delta.regressions
    return write_output(options.output, render(gathered, kind)) or (1 if regressed else 0)


def write_pages(
    pages: Sequence[tuple[str, str]], results: str, header: Mapping[str, str]
) -> str | None:
    """``check --html`` / ``--markdown``: each ``(format, path)`` rendered from the results
    file ``results`` the run wrote; None, or why one could not be written."""
    from toolmatch._cli.reports.results import gather

    try:
        gathered = gather([results], header)
    except ResultsError as error:  # not expected: check wrote the file
        return str(error)
    gathered.files[0].name = "this run's --format json rows"
    for kind, path in pages:
        refused = write_file(path, render(gathered, kind))
        if refused is not None:
            return refused
    return None
