"""Check a directory of trace files on Ray Data: a verdict per run and a pass rate per case.

    python examples/ray_check.py examples/spec.yaml TRACE_DIR          # Ray on this machine
    python examples/ray_check.py examples/spec.yaml TRACE_DIR ADDRESS  # a running cluster

Each task reads its own piece of the files (examples/trace_pieces.py), as toolmatch check reads
lines; docs/parallel.md explains why not ``ray.data.read_json`` or ``ray.data.read_text``.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import pyarrow as pa
import ray
import ray.cloudpickle
import trace_pieces  # examples/trace_pieces.py, beside this file
from trace_pieces import file_system, lines, pieces

from toolmatch import check_batch, load_test_cases

# Its functions travel to the workers inside each task, as this file's do: the workers
# need no copy of it.
ray.cloudpickle.register_pickle_by_value(trace_pieces)

VERDICTS = pa.schema(
    [
        ("case", pa.string()),
        ("passed", pa.bool_()),
        ("score", pa.float64()),
        ("reason", pa.string()),
    ]
)
PIECES_PER_CPU = 4  # a core done early takes another piece


def check_traces(spec: str, traces: str) -> tuple[ray.data.Dataset, list[dict[str, Any]]]:
    """Each run's ``case``, ``passed``, ``score`` and ``reason`` (a dataset, read when
    used); each case's counts."""
    cases = load_test_cases(spec)  # loaded once here; the closure ships them to the workers
    files, root = file_system(traces)

    def check(piece: pa.Table) -> pa.Table:
        [where] = piece.to_pylist()
        # Each line judged as toolmatch check judges it; only the verdicts go on.
        verdicts = check_batch(cases, {"text": lines(files, **where)}, lines_key="text")
        del verdicts["text"]
        return pa.table(verdicts, schema=VERDICTS)

    def count(verdicts: pa.Table) -> pa.Table:
        # Counted where judged: a few rows a piece come back, not a row a run.
        return verdicts.group_by("case").aggregate([("passed", "count"), ("passed", "sum")])

    cut = pieces(files, root, int(ray.cluster_resources().get("CPU", 1)) * PIECES_PER_CPU)
    verdicts = ray.data.from_items(cut, override_num_blocks=len(cut)).map_batches(
        check, batch_format="pyarrow", batch_size=1
    )
    runs: Counter[str | None] = Counter()
    passed: Counter[str | None] = Counter()
    for counted in verdicts.map_batches(count, batch_format="pyarrow").take_all():
        runs[counted["case"]] += counted["passed_count"]
        passed[counted["case"]] += counted["passed_sum"]
    rates = [
        {"case": case, "runs": number, "passed": passed[case], "pass_rate": passed[case] / number}
        for case, number in runs.items()
    ]
    return verdicts, rates


if __name__ == "__main__":
    # The only line that changes on a cluster: where the session connects.
    ray.init(address=sys.argv[3] if len(sys.argv) > 3 else None)
    verdicts, rates = check_traces(sys.argv[1], sys.argv[2])
    for rate in sorted(rates, key=lambda rate: str(rate["case"])):
        print(f"{rate['case']}: {rate['passed']}/{rate['runs']} passed")
