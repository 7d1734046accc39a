"""Check a directory of trace files on Ray Data: a verdict per run and a pass rate per case.

    python examples/ray_check.py examples/spec.yaml TRACE_DIR          # Ray on this machine
    python examples/ray_check.py examples/spec.yaml TRACE_DIR ADDRESS  # a running cluster

Each task reads its own piece of the files, as toolmatch check reads lines; docs/parallel.md
explains why not ``ray.data.read_json`` or ``ray.data.read_text``.
"""

from __future__ import annotations

import os
import sys
from collections import Counter
from io import BytesIO
from typing import Any

import pyarrow as pa
import pyarrow.fs
import ray

from toolmatch import check_batch, load_test_cases

VERDICTS = pa.schema(
    [
        ("case", pa.string()),
        ("passed", pa.bool_()),
        ("score", pa.float64()),
        ("reason", pa.string()),
    ]
)
PIECES_PER_CPU = 4  # a core done early takes another piece
SEARCH = 1 << 16  # bytes read at a time past a piece's end, to finish its last line


def pieces(files: pyarrow.fs.FileSystem, root: str, count: int) -> list[dict[str, Any]]:
    """The ``.jsonl`` files at ``root`` (a file, or a directory's, in order) cut into
    about ``count`` byte ranges, at least one a file."""
    found = files.get_file_info(root)
    if found.type == pyarrow.fs.FileType.Directory:
        listed = files.get_file_info(pyarrow.fs.FileSelector(root, recursive=True))
        infos = sorted(
            (info for info in listed if info.is_file and info.path.endswith(".jsonl")),
            key=lambda info: info.path,
        )
    else:
        infos = [found]
    step = max(-(-sum(info.size for info in infos) // count), 1 << 20)
    return [
        {"path": info.path, "start": start, "end": min(start + step, info.size)}
        for info in infos
        for start in range(0, max(info.size, 1), step)
    ]


def lines(files: pyarrow.fs.FileSystem, path: str, start: int, end: int) -> list[bytes]:
    """The lines that begin in bytes ``start`` to ``end`` of the file (so each line is one
    piece's), without the blank ones, which ``toolmatch check`` leaves out too."""
    with files.open_input_file(path) as file:
        begin = max(start - 1, 0)  # a newline just before start begins a line at start
        data = file.read_at(end - begin, begin)
        position = end
        while data and not data.endswith(b"\n"):  # the last line goes on past the end
            more = file.read_at(SEARCH, position)
            cut = more.find(b"\n")
            data += more if cut < 0 else more[: cut + 1]
            position += len(more)
            if cut >= 0 or not more:
                break
    if start > 0:  # the line the byte before start is in is the piece before's
        data = data[data.find(b"\n") + 1 :] if b"\n" in data else b""
    return [line for line in BytesIO(data).readlines() if not line.isspace()]


def check_traces(spec: str, traces: str) -> tuple[ray.data.Dataset, list[dict[str, Any]]]:
    """Each run's ``case``, ``passed``, ``score`` and ``reason`` (a dataset, read when
    used); each case's counts."""
    cases = load_test_cases(spec)  # loaded once here; the closure ships them to the workers
    local = "://" not in traces
    files, root = pyarrow.fs.FileSystem.from_uri(os.path.abspath(traces) if local else traces)

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
