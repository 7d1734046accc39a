"""The benchmark runner's quick mode runs and reports every figure (no timing is checked)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_quick_mode_reports_every_figure_without_the_peers(tmp_path: Path) -> None:
    # Shadow the peers with packages that fail to import: CI installs only the dev extra,
    # and the runner must then skip them with a note, whatever this venv holds.
    for peer in ("toolscore", "dirty_equals"):
        (tmp_path / peer).mkdir()
        (tmp_path / peer / "__init__.py").write_text(f"raise ImportError('no {peer}')\n")
    completed = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--quick"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    output = completed.stdout
    for section in ("B1 inline equality", "B2 fuzzy", "B5 start-up"):
        assert section in output
    for figure in ("expected == actual", "actual == expected", "numeric", "percent", "text"):
        assert figure in output
    assert "fresh interpreter" in output
    assert "pytest --collect-only" in output
    assert "toolscore skipped" in output
    assert "dirty-equals skipped" in output
    assert "not judged (quick)" in output
    assert "wrote" not in output  # quick mode writes no results table unless asked
