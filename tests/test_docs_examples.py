"""Every ```python block in README.md and docs/ runs, so the docs cannot drift from the code.

A file's blocks run in order in one namespace, so a later block can use names an earlier
one defined. Blocks that must not run use another fence tag (```text, ```pycon, ...).
"""

from __future__ import annotations

import re
import sys
import traceback
import types
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MARKDOWN_FILES = sorted(
    path
    for path in [ROOT / "README.md", *ROOT.joinpath("docs").rglob("*.md")]
    if "```python" in path.read_text(encoding="utf-8")
)

_OPENING = re.compile(r"^(?P<indent>[ \t]*)```python[ \t]*$")


@dataclass(frozen=True)
class Block:
    line: int  # 1-based line of the first code line
    source: str


def python_blocks(text: str, where: str) -> list[Block]:
    """The ```python fenced blocks of a markdown text, dedented by their fence's indent."""
    blocks: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = _OPENING.match(lines[index])
        index += 1
        if opening is None:
            continue
        indent = opening["indent"]
        start = index
        while index < len(lines) and lines[index].strip() != "```":
            index += 1
        if index == len(lines):
            raise ValueError(f"{where}:{start}: a ```python block is never closed")
        body = [
            line[len(indent) :] if line.startswith(indent) else line for line in lines[start:index]
        ]
        blocks.append(Block(start + 1, "\n".join(body) + "\n"))
        index += 1
    return blocks


def test_blocks_are_found_with_their_lines() -> None:
    text = "intro\n```python\nx = 1\n```\n```text\nnot run\n```\n  ```python\n  y = x\n  ```\n"
    assert python_blocks(text, "t.md") == [Block(3, "x = 1\n"), Block(9, "y = x\n")]


def test_an_unclosed_block_is_reported() -> None:
    with pytest.raises(ValueError, match=r"t\.md:1: a ```python block is never closed"):
        python_blocks("```python\nx = 1\n", "t.md")


# Pages whose examples need a package in another process (the toolmatch command run on a
# YAML spec), where its absence is no ModuleNotFoundError here.
NEEDS = {"docs/cli.md": "yaml"}


def _missing_package(error: BaseException | None) -> str | None:
    """The optional package whose absence raised ``error`` (or what caused it), if any."""
    while error is not None:
        if isinstance(error, ModuleNotFoundError) and error.name:
            top = error.name.partition(".")[0]
            return None if top == "toolmatch" else top
        error = error.__cause__ or error.__context__
    return None


@pytest.mark.parametrize(
    "path", MARKDOWN_FILES, ids=[str(path.relative_to(ROOT)) for path in MARKDOWN_FILES]
)
def test_markdown_examples_run(path: Path) -> None:
    where = str(path.relative_to(ROOT))
    if where in NEEDS:
        pytest.importorskip(NEEDS[where])
    blocks = python_blocks(path.read_text(encoding="utf-8"), where)
    # A real module, so that what the examples define can be pickled by reference.
    module_name = f"_docs_example_{path.stem}"
    module = types.ModuleType(module_name)
    sys.modules[module_name] = module
    try:
        for block in blocks:
            # Pad with blank lines so tracebacks point at the markdown file's own lines.
            padded = "\n" * (block.line - 1) + block.source
            failure = None
            try:
                exec(compile(padded, str(path), "exec"), module.__dict__)
            except Exception as error:
                missing = _missing_package(error)
                if missing is not None:  # the page's later blocks build on this one
                    pytest.skip(f"{where}:{block.line}: needs {missing}, not installed")
                failure = traceback.format_exc(limit=-3)
            if failure is not None:
                pytest.fail(f"{where}:{block.line}: example failed\n{failure}", pytrace=False)
    finally:
        del sys.modules[module_name]
