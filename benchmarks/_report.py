"""What a benchmark module hands back, and how the runner prints and records it."""

from __future__ import annotations

import datetime
import os
import platform
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchmarks._timing import Timing


@dataclass(frozen=True)
class Config:
    """How hard to measure: ``quick`` proves the runner works, it measures nothing reliably."""

    quick: bool
    rounds: int
    sample_seconds: float
    startup_runs: int
    collect_runs: int
    cli_runs: int  # runs of each B4 command over its trace file


# B4's and B7's commands run 7 times each: this machine's speed drifts by 10% and more from
# one minute to the next (the same process took 3.43 s to 3.85 s of CPU in six runs), and
# with 3 or 5 runs two full runs could give opposite verdicts on both B4 budgets.
FULL = Config(
    quick=False, rounds=41, sample_seconds=0.005, startup_runs=60, collect_runs=20, cli_runs=7
)
QUICK = Config(
    quick=True, rounds=3, sample_seconds=0.002, startup_runs=4, collect_runs=1, cli_runs=1
)


@dataclass(frozen=True)
class Figure:
    """One measured figure: a contender's cost as a ratio to its reference's.

    ``max_ratio`` is the budget (``None`` for a figure shown for information only).
    """

    name: str
    contender: str
    reference: str
    value: str
    reference_value: str
    ratio: float
    max_ratio: float | None = None
    budget: str = ""
    cross_check: str = ""
    # For budgets on added cost rather than on the ratio: contender minus reference, seconds.
    extra: float | None = None
    max_extra: float | None = None

    @property
    def met(self) -> bool | None:
        if self.max_extra is not None and self.extra is not None:
            return self.extra <= self.max_extra
        return None if self.max_ratio is None else self.ratio <= self.max_ratio

    @property
    def shown_ratio(self) -> str:
        # Small ratios keep two significant digits (0.0074x, not 0.01x).
        shown = f"{self.ratio:.2f}x" if self.ratio >= 0.1 else f"{self.ratio:.2g}x"
        if self.extra is not None:
            shown += f" ({'+' if self.extra >= 0 else '-'}{format_seconds(abs(self.extra))})"
        return shown


@dataclass
class Section:
    """The figures of one benchmark module, with notes and correctness failures."""

    key: str
    title: str
    figures: list[Figure] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Correctness problems found while measuring (contenders disagreeing...): these fail
    # the run whatever the mode, unlike budgets, which are never asserted.
    errors: list[str] = field(default_factory=list)
    # Plots, by file name: each writer is called with the path to write (full mode only;
    # the runner puts them beside the results table, which links them).
    images: dict[str, Callable[[Path], None]] = field(default_factory=dict)


def timed_figure(
    name: str,
    contender: str,
    mine: Timing,
    reference: str,
    theirs: Timing,
    *,
    per: int = 1,
    max_ratio: float | None = None,
    budget: str = "",
    cross_check: str | None = None,
) -> Figure:
    """The figure comparing two timings of one run: best times (per item when ``per`` > 1),
    their ratio, and the median of the per-round ratios as the default cross-check."""
    return Figure(
        name=name,
        contender=contender,
        reference=reference,
        value=format_seconds(mine.best / per),
        reference_value=format_seconds(theirs.best / per),
        ratio=mine.ratio_to(theirs),
        cross_check=f"{mine.paired_ratio_to(theirs):.2f}x" if cross_check is None else cross_check,
        max_ratio=max_ratio,
        budget=budget,
    )


def format_seconds(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.2f} µs"
    return f"{seconds * 1e9:.0f} ns"


def machine() -> dict[str, str]:
    """Where the figures were measured."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": f"{platform.system()} {platform.release()} {platform.machine()}",
        "CPU": f"{cpu}, {os.cpu_count()} logical cores",
        "Python": f"{platform.python_implementation()} {sys.version.split()[0]}",
        # Unbuffered output makes every report line a system call, for every contender.
        "environment": ", ".join(
            f"{name}={os.environ[name]}"
            for name in ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE")
            if name in os.environ
        )
        or "-",
        # The machine is shared: a high load makes every figure noisier (ratios less so).
        "load average (1, 5, 15 min) at the end": ", ".join(
            f"{load:.2f}" for load in (os.getloadavg() if hasattr(os, "getloadavg") else ())
        ),
    }


def _verdict(figure: Figure, judged: bool) -> str:
    if figure.met is None:
        return "info"
    if not judged:
        return "not judged (quick)"
    return "met" if figure.met else "**NOT met**"


def render_console(section: Section, judged: bool) -> str:
    lines = [f"{section.key} {section.title}"]
    for figure in section.figures:
        budget = f"  budget {figure.budget}: {_verdict(figure, judged)}" if figure.budget else ""
        lines.append(
            f"  {figure.name}: {figure.contender} {figure.value} vs {figure.reference} "
            f"{figure.reference_value} = {figure.shown_ratio}{budget}"
        )
    lines += [f"  note: {note}" for note in section.notes]
    lines += [f"  ERROR: {error}" for error in section.errors]
    return "\n".join(lines)


def render_markdown(
    sections: Sequence[Section],
    judged: bool,
    command: str,
    pending: Mapping[str, str],
    images: Sequence[str] = (),
) -> str:
    """The results table; ``images`` are the plot files written beside it, to link."""
    lines = [
        "# Performance",
        "",
        f"Measured by `{command}` in one process and one run (regenerate it the same way).",
        "Every figure is a ratio to its reference measured in the same run: contenders are",
        "timed in interleaved rounds whose order rotates and reverses, and the best round of",
        "each is kept (the median of the per-round ratios is shown as a cross-check).",
        "",
        "| | |",
        "| --- | --- |",
    ]
    lines += [f"| {key} | {value} |" for key, value in machine().items()]
    if not judged:
        lines += ["", "**Quick mode: these figures are a smoke run, not measurements.**"]
    for section in sections:
        lines += [
            "",
            f"## {section.key} {section.title}",
            "",
            "| figure | contender | reference | ratio | per-round median | budget | verdict |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        for figure in section.figures:
            lines.append(
                f"| {figure.name} | {figure.contender}: {figure.value} "
                f"| {figure.reference}: {figure.reference_value} | {figure.shown_ratio} "
                f"| {figure.cross_check or '-'} | {figure.budget or '-'} "
                f"| {_verdict(figure, judged)} |"
            )
        for name in section.images:
            if name in images:
                lines += ["", f"![{section.key} {section.title}]({name})"]
        if section.notes:
            lines.append("")
            lines += [f"- {note}" for note in section.notes]
        if section.errors:
            lines.append("")
            lines += [f"- **error**: {error}" for error in section.errors]
    if pending:
        lines += ["", "## Not measured yet", ""]
        lines += [f"- {key}: {reason}" for key, reason in pending.items()]
    return "\n".join(lines) + "\n"
