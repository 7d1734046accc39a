"""Without Java, the Spark tests are skipped, and say why."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine_traces import ROOT

pytest.importorskip("pyspark")


def test_the_spark_tests_skip_naming_java_when_it_is_missing(tmp_path: Path) -> None:
    environment = {name: value for name, value in os.environ.items() if name != "JAVA_HOME"}
    environment["PATH"] = str(tmp_path)  # no java on it
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "tests/test_engines_spark.py"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # 5: no test ran, as every one was skipped (the module and its doctest collector)
    assert done.returncode == 5, done.stdout + done.stderr
    assert re.search(
        r"^SKIPPED \[2\] tests/test_engines_spark\.py:\d+: Spark needs Java \(17 or later\): "
        r"no java on PATH and no JAVA_HOME$",
        done.stdout,
        re.MULTILINE,
    ), done.stdout
    assert done.stdout.splitlines()[-1].startswith("2 skipped in ")
