"""examples/spark_check.py on Spark in local mode: the verdicts of ``toolmatch check``."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine_traces import DOCS, SPEC, assert_agrees_with_check, load_example, write_traces

pytest.importorskip("pyspark")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip(
        "Spark needs Java (17 or later): no java on PATH and no JAVA_HOME", allow_module_level=True
    )

from pyspark.sql import SparkSession

# PySpark warns that it does not support pandas 3 in full; mapInArrow uses no pandas.
pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)
EXAMPLE = load_example("spark_check.py")


@pytest.fixture(scope="module")
def spark() -> Iterator[SparkSession]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYSPARK_PYTHON", sys.executable)  # the workers import toolmatch
        session = (
            SparkSession.builder.master("local[2]")
            .appName("toolmatch-tests")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.memory", "512m")
            .config("spark.sql.shuffle.partitions", "2")
            .getOrCreate()
        )
        session.sparkContext.setLogLevel("ERROR")
        yield session
        session.stop()


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_traces(tmp_path_factory.mktemp("spark") / "traces")


def test_the_job_agrees_with_toolmatch_check(spark: SparkSession, traces: Path) -> None:
    verdicts, rates = EXAMPLE["check_traces"](spark, str(SPEC), str(traces))
    assert_agrees_with_check(EXAMPLE["rows"](verdicts), EXAMPLE["rows"](rates), traces)


def test_an_inferred_schema_would_add_every_runs_keys_to_every_run(
    spark: SparkSession, traces: Path
) -> None:
    # Why the example declares turns a string: inferred, they become one struct type for
    # all the runs, and a key that only some runs have comes back as None in the others.
    lines = (traces / "trials-1.jsonl").read_text(encoding="utf-8").splitlines()[4:6]
    (traces.parent / "two").mkdir()
    (traces.parent / "two" / "runs.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    first = spark.read.json(str(traces.parent / "two")).orderBy("id").first()
    assert first is not None
    args = first["turns"][0][0]["args"].asDict()
    assert args == {"formality": None, "target": "fr", "text": "hello"}
    assert json.loads(lines[0])["turns"][0][0]["args"] == {"text": "hello", "target": "fr"}


def test_read_text_cuts_at_a_carriage_return_unless_told_a_newline_alone(
    spark: SparkSession, tmp_path: Path
) -> None:
    # JSON allows a \r between tokens; Spark's default cuts the line there.
    (tmp_path / "runs.jsonl").write_bytes(b'{"case":\r"a"}\n{}\n')
    cut = [row.value for row in spark.read.text(str(tmp_path)).collect()]
    assert cut == ['{"case":', '"a"}', "{}"]
    kept = [row.value for row in spark.read.text(str(tmp_path), lineSep="\n").collect()]
    assert kept == ['{"case":\r"a"}', "{}"]


def test_the_docs_show_this_file() -> None:
    shown = '```py title="examples/spark_check.py"\n--8<-- "examples/spark_check.py"\n```\n'
    assert shown in DOCS.read_text(encoding="utf-8")  # mkdocs includes the file there
