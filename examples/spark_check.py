"""Check a directory of trace files on Spark: a verdict per run and a pass rate per case.

    python examples/spark_check.py examples/spec.yaml TRACE_DIR          # Spark on this machine
    python examples/spark_check.py examples/spec.yaml TRACE_DIR MASTER   # spark://..., yarn, ...

docs/parallel.md explains why the lines are read as text, cut at ``\n`` alone as toolmatch
check cuts them: ``spark.read.json`` infers one struct type for all the runs' turns, which
adds every key any run has to every run.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
from pyspark.sql import DataFrame, SparkSession, functions
from pyspark.sql.types import BooleanType, DoubleType, StringType, StructField, StructType

from toolmatch import check_batch, load_test_cases

VERDICTS = StructType(
    [
        StructField("case", StringType()),
        StructField("passed", BooleanType()),
        StructField("score", DoubleType()),
        StructField("reason", StringType()),
    ]
)


def check_traces(spark: SparkSession, spec: str, traces: str) -> tuple[DataFrame, DataFrame]:
    """Each run's ``case``, ``passed``, ``score`` and ``reason``; each case's counts."""
    cases = load_test_cases(spec)  # loaded once here; the closure ships them to the workers

    def check(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            text = batch.column("value")
            # Blank lines left out, as toolmatch check leaves them out.
            blank = pc.or_(pc.equal(pc.binary_length(text), 0), pc.ascii_is_space(text))
            lines = batch.filter(pc.invert(blank))
            # Each line judged as toolmatch check judges it; only the verdicts go on.
            yield check_batch(cases, lines, lines_key="value").drop_columns(["value"])

    # One row a line, in a "value" column: cut at \n alone (a \r may be inside a line).
    lines = spark.read.text(traces, lineSep="\n")
    verdicts = lines.mapInArrow(check, VERDICTS)
    rates = verdicts.groupBy("case").agg(
        functions.count("*").alias("runs"),
        functions.sum(functions.col("passed").cast("int")).alias("passed"),
        functions.avg(functions.col("passed").cast("double")).alias("pass_rate"),
    )
    return verdicts, rates


def rows(frame: DataFrame) -> list[dict[str, Any]]:
    return [row.asDict() for row in frame.collect()]


if __name__ == "__main__":
    # The only line that changes on a cluster: where the session connects.
    builder = SparkSession.builder.appName("toolmatch")
    spark = (builder.master(sys.argv[3]) if len(sys.argv) > 3 else builder).getOrCreate()
    verdicts, rates = check_traces(spark, sys.argv[1], sys.argv[2])
    for rate in sorted(rows(rates), key=lambda rate: str(rate["case"])):
        print(f"{rate['case']}: {rate['passed']}/{rate['runs']} passed")
    spark.stop()
