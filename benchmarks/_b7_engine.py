"""One B7 engine run in a fresh interpreter: ``python -m benchmarks._b7_engine ENGINE SPEC
TRACES CORES ONE``, ENGINE ``ray`` or ``spark``. Runs the docs' example (examples/ENGINE_check.py)
and prints JSON: seconds from the process's start to a session ready (imports included,
and the example run once over ONE, a one-run file, as ``toolmatch check``'s start-up is a
run over a one-run file: the engine's workers are started and have imported toolmatch),
seconds checking TRACES, the CPU seconds that took in this process and every process under
it (the engine's own and its workers), and each case's runs and passes."""

from __future__ import annotations

import json
import os
import runpy
import sys
import time
from pathlib import Path
from typing import Any

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _since_start() -> float:
    # The process's own start, so the interpreter and the imports count as start-up.
    with open("/proc/self/stat", encoding="ascii") as stat:
        started = int(stat.read().rpartition(")")[2].split()[19]) / os.sysconf("SC_CLK_TCK")
    with open("/proc/uptime", encoding="ascii") as uptime:
        return float(uptime.read().split()[0]) - started


def _tree_cpu() -> float:
    """CPU seconds of this process and its descendants so far, those waited for included."""
    parents: dict[int, int] = {}
    seconds: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rpartition(b")")[2].split()
        except OSError:  # gone meanwhile
            continue
        parents[int(entry)] = int(fields[1])
        # utime, stime, cutime, cstime
        seconds[int(entry)] = sum(map(int, fields[11:15])) / os.sysconf("SC_CLK_TCK")
    root, total = os.getpid(), 0.0
    for pid, used in seconds.items():
        ancestor = pid
        while ancestor > 1 and ancestor != root:
            ancestor = parents.get(ancestor, 0)
        if ancestor == root:
            total += used
    return total


def _import_toolmatch(*_: object) -> str:
    import toolmatch

    return toolmatch.__name__


def _ray(
    spec: str, traces: str, cores: int, one: str
) -> tuple[float, float, float, list[dict[str, Any]]]:
    import ray
    from ray.data import DataContext

    ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
    context = DataContext.get_current()
    context.enable_progress_bars = False
    context.default_hash_shuffle_parallelism = cores
    example = runpy.run_path(str(EXAMPLES / "ray_check.py"), run_name="ray_check")
    # A task on every core, so that each worker has started and imported toolmatch.
    warm = ray.remote(num_cpus=1)(_import_toolmatch)
    ray.get([warm.remote() for _ in range(cores)])
    example["check_traces"](spec, one)
    ready = _since_start()
    start, cpu = time.perf_counter(), _tree_cpu()
    _, rates = example["check_traces"](spec, traces)
    checking, cpu = time.perf_counter() - start, _tree_cpu() - cpu
    ray.shutdown()
    return ready, checking, cpu, rates


def _spark(
    spec: str, traces: str, cores: int, one: str
) -> tuple[float, float, float, list[dict[str, Any]]]:
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master(f"local[{cores}]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(cores))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    example = runpy.run_path(str(EXAMPLES / "spark_check.py"), run_name="spark_check")
    # A task on every core, so that each Python worker has started and imported toolmatch.
    spark.sparkContext.parallelize(range(cores), cores).map(_import_toolmatch).collect()
    example["rows"](example["check_traces"](spark, spec, one)[1])
    ready = _since_start()
    start, cpu = time.perf_counter(), _tree_cpu()
    _, rates = example["check_traces"](spark, spec, traces)
    counted = example["rows"](rates)  # runs the job: every run is judged to count its case
    checking, cpu = time.perf_counter() - start, _tree_cpu() - cpu
    spark.stop()
    return ready, checking, cpu, counted


def main() -> None:
    sys.path.insert(0, str(EXAMPLES))  # as for a script, for examples/trace_pieces.py
    engine, spec, traces, cores, one = *sys.argv[1:4], int(sys.argv[4]), sys.argv[5]
    run = {"ray": _ray, "spark": _spark}[engine]
    ready, checking, cpu, rates = run(spec, traces, cores, one)
    counts = {rate["case"]: [int(rate["runs"]), int(rate["passed"])] for rate in rates}
    print(json.dumps({"startup": ready, "checking": checking, "cpu": cpu, "counts": counts}))


if __name__ == "__main__":
    main()
