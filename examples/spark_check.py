"""Check a directory of trace files on Spark: a verdict per run and a pass rate per case.

    python examples/spark_check.py examples/spec.yaml TRACE_DIR          # Spark on this machine
    python examples/spark_check.py examples/spec.yaml TRACE_DIR MASTER   # spark://..., yarn, ...

Each task's Python worker reads its own piece of the files (examples/trace_pieces.py), as
toolmatch check reads lines; docs/parallel.md explains why not ``spark.read.json`` or
``spark.read.text``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pyarrow as pa
import trace_pieces  # examples/trace_pieces.py, beside this file
from pyspark import cloudpickle
from pyspark.sql import DataFrame, SparkSession, functions
from pyspark.sql.pandas.types import from_arrow_schema
from trace_pieces import file_system, lines, pieces

from toolmatch import check_batch, load_test_cases

# Its functions travel to the Python workers inside each task, as this file's do: the
# workers need no copy of it.
cloudpickle.register_pickle_by_value(trace_pieces)

VERDICTS = pa.schema(
    [
        ("case", pa.string()),
        ("passed", pa.bool_()),
        ("score", pa.float64()),
        ("reason", pa.string()),
    ]
)
COUNTS = pa.schema(
    [("case", pa.string()), ("passed_count", pa.int64()), ("passed_sum", pa.int64())]
)


def check_traces(spark: SparkSession, spec: str, traces: str) -> tuple[DataFrame, DataFrame]:
    """Each run's ``case``, ``passed``, ``score`` and ``reason``; each case's counts."""
    cases = load_test_cases(spec)  # loaded once here; the closure ships them to the workers
    files, root = file_system(traces)
    # A piece a core, as Spark cuts a file itself: each task costs its Python worker and the
    # JVM about a tenth of a second of CPU (B7's file on 2 cores: 8.6 s of CPU in all for
    # two pieces, 9.9 s for eight).
    cut = pieces(files, root, spark.sparkContext.defaultParallelism)

    def check(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for index in batch.column("id").to_pylist():
                text = lines(files, **cut[index])
                # Each line judged as toolmatch check judges it; only the verdicts go on.
                verdicts = check_batch(cases, {"text": text}, lines_key="text")
                del verdicts["text"]
                yield pa.RecordBatch.from_pydict(verdicts, schema=VERDICTS)

    def count(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        # Counted where judged: a few rows a piece go to the JVM, not a row a run.
        for verdicts in check(batches):
            counted = (
                pa.table(verdicts)
                .group_by("case")
                .aggregate([("passed", "count"), ("passed", "sum")])
            )
            yield from counted.select(COUNTS.names).cast(COUNTS).to_batches()

    # A piece's index a partition, a task each; the closures hold the pieces.
    indexes = spark.range(len(cut), numPartitions=len(cut))
    verdicts = indexes.mapInArrow(check, from_arrow_schema(VERDICTS))
    counts = indexes.mapInArrow(count, from_arrow_schema(COUNTS))
    runs, passed = functions.sum("passed_count"), functions.sum("passed_sum")
    rates = counts.groupBy("case").agg(
        runs.alias("runs"), passed.alias("passed"), (passed / runs).alias("pass_rate")
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
