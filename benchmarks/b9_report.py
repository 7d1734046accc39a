"""B9 the results' new surfaces: ``toolmatch report`` (HTML and Markdown) over B4's ``--format
json`` output, against the time ``toolmatch check --format json`` took to write it (issue 38:
at most that), and the page's size; ``check --baseline`` against a baseline of as many runs,
against the same check without it; and ``toolmatch record`` on 10,000 runs, against checking
those runs with the spec it wrote (issue 40, deliverable 3).

The traces are B4's (``benchmarks.b4_cli``: three cases, ten calls a run, one run in ten
failing); the results file is written once by ``check --format json``, and is the baseline
too (the same runs: no case regressed, which is verified, so the comparison runs over every
case); the recorded spec is written once by ``record`` before the timing, and the timed
``record`` writes the same text again (verified). Each command runs as a subprocess of B4's
timing wrapper, the order rotating, the best run kept.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks._report import Config, Figure, Section, format_seconds
from benchmarks.b4_cli import FULL_RUNS, QUICK_RUNS, _last_line, _measure, write_spec, write_traces

TITLE = "new surfaces: toolmatch report, check --baseline and record vs the commands they extend"
MAX_RATIO = 1.0  # the page of a run costs at most the run's own JSON output
# Comparing with a baseline reads a results file of the same runs, which is smaller and
# simpler than the traces: at most what every other output and input may add (B4).
MAX_BASELINE_RATIO = 1.3
# Recording reads the runs as checking does and then generalises each case's values: at
# most what --update fix may cost over a plain check (B4), checking with the spec it wrote.
MAX_RECORD_RATIO = 2.0
RECORD_RUNS = 10_000


def _verify(commands: dict[str, list[str]], recorded: Path, again: Path, runs: int) -> list[str]:
    """The baseline compares every case and finds none regressed; the timed record writes
    the spec it wrote before; that spec passes every run it was recorded from."""
    errors = []
    last = _last_line(commands["baseline"])
    summary = json.loads(last) if last.startswith("{") else {}
    compared = summary.get("baseline", {})
    if summary.get("regressions") != 0 or any(compared.get(key) for key in ("regressed", "new")):
        errors.append(f"check --baseline against the same runs' results ended with {last!r}")
    subprocess.run(commands["record"], capture_output=True, check=False)
    if again.read_text(encoding="utf-8") != recorded.read_text(encoding="utf-8"):
        errors.append("toolmatch record wrote another spec from the same runs the second time")
    last = _last_line(commands["recorded"])
    if last != f"{runs} passed, 0 failed":
        errors.append(f"checking the runs with the spec recorded from them ended with {last!r}")
    return errors


# Why --baseline may miss its budget, written after the run of 2026-12-07 (its figures).
BASELINE_NOT_MET = (
    "check --baseline over its budget although the baseline's case rows are passed over by "
    "their head, unparsed (on 20,000 B4 runs that took --baseline from 1.20x to 1.01x of "
    "--format json alone, CPU, best of 3, 2026-12-07): what is left is not reading the "
    "baseline; the next step is to profile this run to find it"
)


def run(config: Config) -> Section:
    section = Section("B9", TITLE)
    runs = QUICK_RUNS if config.quick else FULL_RUNS
    recorded_runs = QUICK_RUNS if config.quick else RECORD_RUNS
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        spec, traces, results = root / "spec.json", root / "traces.jsonl", root / "rows.jsonl"
        few, recorded = root / "few.jsonl", root / "recorded.json"
        write_spec(spec)
        write_traces(traces, runs)
        write_traces(few, recorded_runs)
        check = [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces)]
        check += ["--no-progress", "--format", "json"]
        with results.open("w", encoding="utf-8") as file:
            subprocess.run(check, stdout=file, check=False)
        record = [sys.executable, "-m", "toolmatch", "record", str(few), "-o"]
        subprocess.run([*record, str(recorded)], capture_output=True, check=False)
        report = [sys.executable, "-m", "toolmatch", "report", str(results), "-o"]
        commands = {
            "json": check,
            "html": [*report, str(root / "report.html")],
            "markdown": [*report, str(root / "report.md")],
            "baseline": [*check, "--baseline", str(results)],
            "record": [*record, str(root / "again.json")],
            "recorded": [
                *(sys.executable, "-m", "toolmatch", "check", str(recorded), str(few)),
                "--no-progress",
            ],
        }
        section.errors += _verify(commands, recorded, root / "again.json", recorded_runs)
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
        rows_size, spec_size = results.stat().st_size, recorded.stat().st_size
    best = {name: min(times) for name, times in seconds.items()}
    medians = {name: statistics.median(times) for name, times in seconds.items()}
    rows = f"toolmatch check --format json ({rows_size:,} bytes)"
    for name, contender, reference, budget in (
        ("html", f"toolmatch report ({sizes['html']:,} bytes)", "json", MAX_RATIO),
        ("markdown", f"toolmatch report ({sizes['markdown']:,} bytes)", "json", MAX_RATIO),
        ("baseline", "toolmatch check --format json --baseline", "json", MAX_BASELINE_RATIO),
        ("record", f"toolmatch record ({spec_size:,} bytes)", "recorded", MAX_RECORD_RATIO),
    ):
        label = {
            "html": f"toolmatch report --format html, {runs:,} runs",
            "markdown": f"toolmatch report --format markdown, {runs:,} runs",
            "baseline": f"check --baseline, a baseline of {runs:,} runs, {runs:,} runs",
            "record": f"toolmatch record, {recorded_runs:,} runs",
        }[name]
        section.figures.append(
            Figure(
                name=label,
                contender=contender,
                reference=rows if reference == "json" else "toolmatch check, the spec it wrote",
                value=format_seconds(best[name]),
                reference_value=format_seconds(best[reference]),
                ratio=best[name] / best[reference],
                max_ratio=budget,
                budget=f"<= {budget:g}x",
                cross_check=f"medians {medians[name] / medians[reference]:.2f}x",
            )
        )
    if best["baseline"] / best["json"] > MAX_BASELINE_RATIO:
        section.notes.append(BASELINE_NOT_MET)
    section.notes.append(
        f"page sizes over {runs:,} runs: HTML {sizes['html']:,} bytes, Markdown "
        f"{sizes['markdown']:,} bytes (the first 100 and 10 failed runs in full, the rest "
        "counted)"
    )
    section.notes.append(
        f"check --baseline: the baseline is the results of the same {runs:,} runs (3 cases), "
        "so every case is compared and none regressed; toolmatch record: B4's runs (3 cases, "
        f"{recorded_runs:,} runs, one in ten failing) to a JSON spec, timed against checking "
        "the same runs with the spec it wrote (all pass)"
    )
    section.notes.append(f"{config.cli_runs} run(s) per command, rotating; best kept")
    return section
