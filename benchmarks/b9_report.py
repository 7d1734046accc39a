"""B9 report rendering: ``toolmatch report`` (HTML and Markdown) over B4's ``--format json``
output, against the time ``toolmatch check --format json`` took to write it (issue 38: at
most that), and the page's size.

The traces are B4's (``benchmarks.b4_cli``: three cases, ten calls a run, one run in ten
failing); the results file is written once by ``check --format json``, then each command
runs as a subprocess of B4's timing wrapper, the order rotating, the best run kept.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks._report import Config, Figure, Section, format_seconds
from benchmarks.b4_cli import FULL_RUNS, QUICK_RUNS, _measure, write_spec, write_traces

TITLE = "Report rendering: toolmatch report over B4's --format json output vs writing it"
MAX_RATIO = 1.0  # the page of a run costs at most the run's own JSON output


def run(config: Config) -> Section:
    section = Section("B9", TITLE)
    runs = QUICK_RUNS if config.quick else FULL_RUNS
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        spec, traces, results = root / "spec.json", root / "traces.jsonl", root / "rows.jsonl"
        write_spec(spec)
        write_traces(traces, runs)
        check = [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces)]
        check += ["--no-progress", "--format", "json"]
        with results.open("w", encoding="utf-8") as file:
            subprocess.run(check, stdout=file, check=False)
        report = [sys.executable, "-m", "toolmatch", "report", str(results), "-o"]
        commands = {
            "json": check,
            "html": [*report, str(root / "report.html")],
            "markdown": [*report, str(root / "report.md")],
        }
        seconds: dict[str, list[float]] = {name: [] for name in commands}
        names = list(commands)
        for round_index in range(config.cli_runs):
            shift = round_index % len(names)
            for name in names[shift:] + names[:shift]:
                seconds[name].append(_measure(commands[name])[0])
        sizes = {
            name: (root / f"report.{suffix}").stat().st_size
            for name, suffix in (("html", "html"), ("markdown", "md"))
        }
        rows_size = results.stat().st_size
    best = {name: min(times) for name, times in seconds.items()}
    medians = {name: statistics.median(times) for name, times in seconds.items()}
    for name in ("html", "markdown"):
        section.figures.append(
            Figure(
                name=f"toolmatch report --format {name}, {runs:,} runs",
                contender=f"toolmatch report ({name}, {sizes[name]:,} bytes)",
                reference=f"toolmatch check --format json ({rows_size:,} bytes)",
                value=format_seconds(best[name]),
                reference_value=format_seconds(best["json"]),
                ratio=best[name] / best["json"],
                max_ratio=MAX_RATIO,
                budget=f"<= {MAX_RATIO:g}x",
                cross_check=f"medians {medians[name] / medians['json']:.2f}x",
            )
        )
    section.notes.append(
        f"page sizes over {runs:,} runs: HTML {sizes['html']:,} bytes, Markdown "
        f"{sizes['markdown']:,} bytes (the first 100 and 10 failed runs in full, the rest "
        "counted)"
    )
    return section
