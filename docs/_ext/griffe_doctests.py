"""A griffe extension for the API reference: docstrings are written for ``help()`` and
doctest, so render their ``>>>`` examples as code and their Sphinx roles as plain code."""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|meth|func|attr|mod|data|exc):`~?([^`]+)`")


def fence_doctests(text: str) -> str:
    """Wrap each run of doctest lines (``>>>`` up to the next blank line) in a pycon fence."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        if not line.lstrip().startswith(">>>"):
            out.append(_ROLE.sub(r"`\1`", line))
            index += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        block: list[str] = []
        while index < len(lines) and lines[index].strip():
            block.append(lines[index].removeprefix(indent))
            index += 1
        if out and out[-1].strip():
            out.append("")
        out += [f"{indent}```pycon", *(indent + row for row in block), f"{indent}```"]
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
