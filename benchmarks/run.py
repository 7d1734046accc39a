"""The benchmark runner: ``python -m benchmarks [--quick] [--only B1,B2] [--write PATH]``.

Runs every benchmark module in one process and one run, prints each figure as a ratio to
its reference with its budget, and (in full mode) writes ``docs/performance.md``. Budgets
are reported, never asserted; the exit status is 1 only when a benchmark finds its
contenders disagreeing (a correctness problem, not a timing one).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from benchmarks._report import FULL, QUICK, Section, render_console, render_markdown

# One module per figure.
MODULES = {
    "B1": "benchmarks.b1_inline_equality",
    "B2": "benchmarks.b2_fuzzy",
    "B3": "benchmarks.b3_selection",
    "B4": "benchmarks.b4_cli",
    "B5": "benchmarks.b5_startup",
    "B6": "benchmarks.b6_readers",
    "B7": "benchmarks.b7_engines",
    "B8": "benchmarks.b8_record",
    "B9": "benchmarks.b9_report",
}
# Figures of the issue not measured yet, and why: shown in the results table.
PENDING: dict[str, str] = {}
DEFAULT_OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "performance.md"


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: proves it works, no figures"
    )
    parser.add_argument(
        "--only", default="", help=f"comma-separated figures to run (of {', '.join(MODULES)})"
    )
    parser.add_argument(
        "--write",
        type=Path,
        default=None,
        help=f"write the results table here (default in full mode: {DEFAULT_OUTPUT})",
    )
    parser.add_argument("--no-write", action="store_true", help="write no results table")
    return parser.parse_args(argv)


def _compile_bytecode() -> None:
    """Compile toolmatch's modules and its pytest plugin's, as installing them does:
    otherwise, in a checkout where bytecode is not written (PYTHONDONTWRITEBYTECODE), every
    process the benchmarks start compiles them again, while the standard library and the
    installed packages their references use are compiled."""
    import compileall

    import pytest_toolmatch
    import toolmatch

    for package in (toolmatch, pytest_toolmatch):
        # force: a bytecode file records its source's time in whole seconds, and one written
        # in the second its source was last changed looks up to date to compileall while
        # the import system, which checks the size too, compiles the source again.
        compileall.compile_dir(Path(package.__file__).parent, quiet=1, force=True)


def main(argv: list[str] | None = None) -> int:
    arguments = _arguments(argv)
    config = QUICK if arguments.quick else FULL
    keys = [key.strip().upper() for key in arguments.only.split(",") if key.strip()] or list(
        MODULES
    )
    unknown = [key for key in keys if key not in MODULES]
    if unknown:
        print(f"unknown figure(s) {', '.join(unknown)}; known: {', '.join(MODULES)}")
        return 2

    _compile_bytecode()
    sections: list[Section] = []
    for key in keys:
        module = importlib.import_module(MODULES[key])
        print(f"running {key}: {module.TITLE} ...", flush=True)
        section: Section = module.run(config)
        sections.append(section)
        print(render_console(section, judged=not config.quick), flush=True)

    output = arguments.write
    if output is None and not config.quick:
        output = DEFAULT_OUTPUT
    if output is not None and not arguments.no_write:
        command = "python -m benchmarks" + (" --quick" if config.quick else "")
        output.parent.mkdir(parents=True, exist_ok=True)
        images = []
        for section in sections:
            for name, write_image in section.images.items():
                write_image(output.parent / name)
                images.append(name)
                print(f"wrote {output.parent / name}")
        output.write_text(
            render_markdown(sections, not config.quick, command, PENDING, images),
            encoding="utf-8",
        )
        print(f"wrote {output}")

    errors = [error for section in sections for error in section.errors]
    if errors:
        print(f"{len(errors)} correctness error(s): see ERROR lines above", file=sys.stderr)
        return 1
    return 0
