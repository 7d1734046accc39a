"""Trace files cut into byte ranges, each read whole by the task it is given.

examples/ray_check.py and examples/spark_check.py import it: the driver cuts the ``.jsonl``
files into pieces (``pieces``), and each task reads the lines that begin in its own piece
(``lines``), cut at ``\\n`` alone as ``toolmatch check`` cuts them, so that no one task reads
all the files first and each line is read by one task, whole (docs/parallel.md).
"""

from __future__ import annotations

import os
from io import BytesIO
from typing import Any

import pyarrow.fs

SEARCH = 1 << 16  # bytes read at a time past a piece's end, to finish its last line


def file_system(traces: str) -> tuple[pyarrow.fs.FileSystem, str]:
    """The file system ``traces`` is on (a local path, or a URI such as ``s3://...``) and
    its path there."""
    local = "://" not in traces
    return pyarrow.fs.FileSystem.from_uri(os.path.abspath(traces) if local else traces)


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
