"""Check a directory of trace files on Ray Data: a verdict per run and a pass rate per case.

    python examples/ray_check.py examples/spec.yaml TRACE_DIR          # Ray on this machine
    python examples/ray_check.py examples/spec.yaml TRACE_DIR ADDRESS  # a running cluster

docs/parallel.md explains why the lines are read as text: ``ray.data.read_json`` reads the
turns into Arrow structs, which add every key any run has to every run.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import pyarrow as pa
import ray
from ray.data.aggregate import Count, Sum

from toolmatch import check_batch, load_test_cases


def check_traces(spec: str, traces: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each run's ``id``, ``case``, ``passed``, ``score`` and ``reason``; each case's counts."""
    cases = load_test_cases(spec)  # loaded once here; the closure ships them to the workers

    def check(lines: pa.Table) -> pa.Table:
        # Each line as json.loads reads it, as toolmatch check does: the values as recorded.
        runs = [json.loads(line) for line in lines.column("text").to_pylist()]
        columns = {
            "id": [run.get("id") for run in runs],
            "case": [run.get("case") for run in runs],
            "turns": [run.get("turns") for run in runs],
        }
        checked = check_batch(cases, columns)
        del checked["turns"]  # the turns stay Python values; only the verdicts go on
        return pa.table(checked)

    verdicts = (
        ray.data.read_text(traces)  # one row a line, in a "text" column
        .map_batches(check, batch_format="pyarrow")
        .materialize()
    )
    rates = (
        verdicts.groupby("case")
        .aggregate(Count(alias_name="runs"), Sum("passed", alias_name="passed"))
        .map(lambda row: {**row, "pass_rate": row["passed"] / row["runs"]})
    )
    return verdicts.take_all(), rates.take_all()


if __name__ == "__main__":
    # The only line that changes on a cluster: where the session connects.
    ray.init(address=sys.argv[3] if len(sys.argv) > 3 else None)
    runs, rates = check_traces(sys.argv[1], sys.argv[2])
    for rate in sorted(rates, key=lambda rate: rate["case"]):
        print(f"{rate['case']}: {rate['passed']}/{rate['runs']} passed")
