"""docs/config.md's error tables, read as rows: which loader, the input, its path, its message."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from toolmatch import load_expected_tools, load_test_cases, matcher_from_config

PAGE = Path(__file__).resolve().parent.parent / "docs" / "config.md"
LOADERS: dict[str, Callable[[object], object]] = {
    "matcher_from_config": matcher_from_config,
    "load_expected_tools": load_expected_tools,
    "load_test_cases": load_test_cases,
}
_ROW = re.compile(r"^\| `(?P<input>[^`]+)` \| `(?P<path>[^`]+)` \| `(?P<message>[^`]+)` \|$")


def error_rows() -> list[tuple[str, str, str, str]]:
    """(loader name, input, path, message) for each row of the page's error tables."""
    rows = []
    loader = None
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            named = [name for name in LOADERS if f"(`{name}`)" in line]
            loader = named[0] if named else None
            continue
        row = _ROW.match(line)
        if row is not None and loader is not None:
            rows.append((loader, row["input"], row["path"], row["message"]))
    return rows


_LOADER_ONLY_ROW = re.compile(
    r"^\| (?P<rule>[^|]+) \| (?P<part>spec|case|tool|value) \| `(?P<example>[^`]+)` \| "
    r"`(?P<message>[^`]+)` \|$"
)


def loader_only_rows() -> list[tuple[str, str, str, str]]:
    """(rule, part, example, part of its message) for each rule only the loader checks:
    the table of docs/config.md's "Schema and editors", the one list of the exceptions."""
    rows = []
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        row = _LOADER_ONLY_ROW.match(line)
        if row is not None:
            rows.append((row["rule"], row["part"], row["example"], row["message"]))
    return rows
