"""The benchmark runner's quick mode runs and reports every figure (no timing is checked)."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _quick(figure: str, timeout: int = 120) -> str:
    """The output of ``python -m benchmarks --quick --only FIGURE``, which must succeed."""
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--only", figure],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return completed.stdout


def test_quick_mode_reports_every_figure_without_the_peers(tmp_path: Path) -> None:
    # Shadow the peers with packages that fail to import: CI installs only the dev extra,
    # and the runner must then skip them with a note, whatever this venv holds. PyYAML is
    # shadowed too: B4's spec is JSON, so the benchmarks run without the yaml extra.
    for peer in ("toolscore", "dirty_equals", "yaml"):
        (tmp_path / peer).mkdir()
        (tmp_path / peer / "__init__.py").write_text(f"raise ImportError('no {peer}')\n")
    completed = subprocess.run(
        # B7 (the engines, which need PyYAML) runs in its own test below
        [sys.executable, "-m", "benchmarks", "--quick", "--only", "B1,B2,B3,B4,B5,B6"],
        cwd=ROOT,
        # The shadows would also break the peers' own pytest plugins, which B5's collection
        # as users run it autoloads; in CI no peer is installed, so none is autoloaded.
        env={**os.environ, "PYTHONPATH": str(tmp_path), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    output = completed.stdout
    for section in (
        "B1 inline equality",
        "B2 fuzzy",
        "B3 selection",
        "B4 CLI throughput",
        "B5 start-up",
        "B6 readers",
    ):
        assert section in output
    for figure in ("expected == actual", "actual == expected", "numeric", "percent", "text"):
        assert figure in output
    for direction in ("expected == actual", "actual == expected"):  # B1's issue 14 variant
        assert f"ranges, dates, unordered: {direction}: toolmatch" in output
        assert "vs hand-written" in output
    for workload in (
        "one name, plain args",
        "50 names, plain args",
        "one name, matchers",
        "50 names, matchers",
    ):
        assert f"scaling in M, K=5, {workload}" in output
        assert f"scaling in K, M=30, {workload}" in output
    assert "every pair once, one name, matchers" in output
    for pairs in ("joined by a captured value", "joined by a captured value and by after"):
        assert f"captures, 50 pairs {pairs}, K x M = 100 x 1,000" in output  # B3, issue 40
    for figure in ("one process, 1,000 calls", "--jobs 2, 1,000 calls", "peak memory"):
        assert figure in output  # B4: toolmatch check over a generated .json spec
    for contender in ("toolmatch check", "hand-written floor"):  # B4's second mix, issue 40
        assert f"agent frameworks' mix, one process, 1,000 calls: {contender}" in output
    assert "fresh interpreter" in output
    for shape in (
        "an OpenAI chat completion",
        "an Anthropic message",
        "a Responses output list",
        "a plain list",
    ):
        assert f"{shape}, 10 calls, per call: to_calls" in output
    for collection in ("plugin:", "plugin alone:", "import:"):
        assert f"pytest --collect-only, 100 tests, {collection}" in output
    assert "toolscore skipped" in output
    assert "dirty-equals skipped" in output
    assert "not judged (quick)" in output
    assert "ERROR" not in output
    assert "wrote" not in output  # quick mode writes no results table unless asked


def test_quick_mode_runs_selection_beside_toolscore_and_writes_no_plot(tmp_path: Path) -> None:
    # With the bench extra installed, B3 times toolscore on the same turns and checks both
    # verdicts; quick mode writes the table when asked, but never the plot.
    pytest.importorskip("toolscore")
    table = tmp_path / "performance.md"
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick", "--only", "B3", "--write", str(table)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "20 x 20 same-name calls, plain args: check_turn" in completed.stdout
    assert "toolscore.evaluate" in completed.stdout
    assert "ERROR" not in completed.stdout
    assert "## B3 selection" in table.read_text(encoding="utf-8")
    assert "performance-b3.png" not in table.read_text(encoding="utf-8")
    assert not (tmp_path / "performance-b3.png").exists()


def test_quick_mode_runs_every_engine_and_agrees() -> None:
    # B7 checks one trace file with each engine; a disagreement would be an ERROR line.
    pytest.importorskip("ray", reason="B7 runs Ray Data, and ray is not installed")
    pytest.importorskip("pyspark", reason="B7 runs Spark, and pyspark is not installed")
    # Ray and Spark start in a minute or more on a busy 2-core machine
    output = _quick("B7", timeout=600)
    cores = len(os.sched_getaffinity(0))
    engines = ["toolmatch check", f"toolmatch check --jobs {cores}", "Ray Data", "Spark"]
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        engines.remove("Spark")
        assert "Spark skipped: Spark needs Java 17 or later" in output
    for engine in engines:
        assert f"{engine}, 1,000 calls: checking, per core" in output
        assert f"{engine}, start-up: to a session ready" in output
        assert f"{engine}, 1,000 calls, CPU time: checking, per CPU second" in output
    assert "ERROR" not in output


def test_quick_mode_measures_record_quality_on_generated_and_real_runs() -> None:
    # B8 records specs from generated runs and from tau-bench's trajectories; quick mode
    # records one spec per case and k, judges no goal, and reports every figure.
    output = _quick("B8")
    assert "B8 record quality" in output
    for k in (3, 5):
        for figure in ("held-out good runs passing", "mutated runs caught"):
            assert f"generator, k={k}, {figure}: --loosen varying" in output
            # with the generator's definitions too, side by side
            assert f"generator, k={k}, {figure}: --loosen varying --tools" in output
            assert "vs today's rules (main 0592d7f, recorded)" in output
    assert "generator, k=10, mutated runs caught: --loosen varying" in output
    for figure in ("other rewarded trials passing", "unrewarded trials caught"):
        assert f"tau-bench airline, 2 rewarded trials, {figure}: --loosen varying --tools" in output
    assert "caught by mutation: wrong constant" in output
    assert "tau-bench airline, tasks with four rewarded trials, other rewarded passing: " in output
    assert "ERROR" not in output


def test_quick_mode_measures_the_new_surfaces_and_verifies_them() -> None:
    # B9 times report, --baseline and record beside the commands they extend; its checks
    # (no case regressed, the same spec recorded twice, the recorded spec passing its runs)
    # would be ERROR lines.
    output = _quick("B9")
    for figure in (
        "toolmatch report --format html, 100 runs: toolmatch report (",
        "toolmatch report --format markdown, 100 runs: toolmatch report (",
        "check --baseline, a baseline of 100 runs, 100 runs: toolmatch check --format json "
        "--baseline",
        "toolmatch record, 100 runs: toolmatch record (",
    ):
        assert figure in output
    assert "vs toolmatch check, the spec it wrote" in output
    assert "not judged (quick)" in output
    assert "ERROR" not in output
