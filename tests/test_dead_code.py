"""No dead code in the package: vulture finds nothing its allowlist does not explain."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("vulture")

ROOT = Path(__file__).resolve().parent.parent


def test_vulture_finds_no_unused_code() -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "vulture",
            str(ROOT / "src" / "toolmatch"),
            str(Path(__file__).with_name("dead_code_allowlist.py")),
            "--min-confidence",
            "60",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
