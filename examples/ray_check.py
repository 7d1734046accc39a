"""Check a directory of trace files on Ray Data: a verdict per run and a pass rate per case.

    python examples/ray_check.py examples/spec.yaml TRACE_DIR          # Ray on this machine
    python examples/ray_check.py examples/spec.yaml TRACE_DIR ADDRESS  # a running cluster

docs/parallel.md explains why the lines are read as text: ``ray.data.read_json`` reads the
turns into Arrow structs, which add every key any run has to every run.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pyarrow as pa
import ray

from toolmatch import check_batch, load_test_cases


def check_traces(spec: str, traces: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each run's ``case``, ``passed``, ``score`` and ``reason``; each case's counts."""
    cases = load_test_cases(spec)  # loaded once here; the closure ships them to the workers

    def check(lines: pa.Table) -> pa.Table:
        # Each line judged as toolmatch check judges it; only the verdicts go on.
        return check_batch(cases, lines, lines_key="text").drop_columns(["text"])

    verdicts = (
        ray.data.read_text(traces)  # one row a line, in a "text" column
        .map_batches(check, batch_format="pyarrow")
        .take_all()
    )
    # The verdicts are on the driver already: counting them there costs no shuffle.
    runs = Counter(verdict["case"] for verdict in verdicts)
    passed = Counter(verdict["case"] for verdict in verdicts if verdict["passed"])
    rates = [
        {"case": case, "runs": count, "passed": passed[case], "pass_rate": passed[case] / count}
        for case, count in runs.items()
    ]
    return verdicts, rates


if __name__ == "__main__":
    # The only line that changes on a cluster: where the session connects.
    ray.init(address=sys.argv[3] if len(sys.argv) > 3 else None)
    runs, rates = check_traces(sys.argv[1], sys.argv[2])
    for rate in sorted(rates, key=lambda rate: str(rate["case"])):
        print(f"{rate['case']}: {rate['passed']}/{rate['runs']} passed")
