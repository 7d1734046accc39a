"""examples/trace_pieces.py: the byte ranges the Ray and Spark examples give their tasks."""

from __future__ import annotations

import random
from io import BytesIO
from itertools import pairwise
from pathlib import Path

import pytest

from engine_traces import DOCS, load_example

pyarrow_fs = pytest.importorskip("pyarrow.fs")


def test_the_pieces_of_a_file_hold_each_line_once(tmp_path: Path) -> None:
    # Each task reads the lines that begin in its piece: cut anywhere, the pieces' lines
    # are the file's, in order, less the blank ones (toolmatch check leaves them out).
    example = load_example("trace_pieces.py")
    data = b'{"a": 1}\n\n{"b": 22}\n  \r\n{"c":\r333}\n' + b"x" * 70_000 + b"\n\n{}"
    path = tmp_path / "runs.jsonl"
    path.write_bytes(data)
    wanted = [line for line in BytesIO(data).readlines() if not line.isspace()]
    files = pyarrow_fs.LocalFileSystem()
    chosen = random.Random(28)
    for _ in range(300):
        cuts = sorted({0, len(data), *chosen.sample(range(1, len(data)), chosen.randint(0, 5))})
        got = [
            line
            for start, end in pairwise(cuts)
            for line in example["lines"](files, str(path), start, end)
        ]
        assert got == wanted, cuts
    [piece] = example["pieces"](files, str(tmp_path), 8)  # 1 MiB at least
    assert piece == {"path": str(path), "start": 0, "end": len(data)}


def test_a_piece_is_at_least_a_mebibyte_and_no_line_is_lost_at_a_cut(tmp_path: Path) -> None:
    example = load_example("trace_pieces.py")
    line = b'{"case": "a", "turns": []}\n'
    data = line * (3 * (1 << 20) // len(line))
    (tmp_path / "a.jsonl").write_bytes(data)
    (tmp_path / "b.jsonl").write_bytes(b"{}\n")
    (tmp_path / "notes.txt").write_bytes(b"not a trace\n")
    files, root = example["file_system"](str(tmp_path))
    cut = example["pieces"](files, root, 8)
    assert [(Path(piece["path"]).name, piece["start"]) for piece in cut] == [
        ("a.jsonl", 0),
        ("a.jsonl", 1 << 20),
        ("a.jsonl", 2 << 20),
        ("b.jsonl", 0),
    ]
    read = [found for piece in cut for found in example["lines"](files, **piece)]
    assert read == [line] * (len(data) // len(line)) + [b"{}\n"]


def test_the_docs_show_this_file() -> None:
    shown = '```py title="examples/trace_pieces.py"\n--8<-- "examples/trace_pieces.py"\n```\n'
    assert shown in DOCS.read_text(encoding="utf-8")  # mkdocs includes the file there
