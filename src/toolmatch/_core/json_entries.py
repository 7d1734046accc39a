"""The entries of a JSON list or JSON Lines file (or of a parsed list), each with its place,
within the configuration limits: what the importers and the function docs read.
"""

from __future__ import annotations

from functools import reduce

from toolmatch._core.describe import join_path, short_repr, type_name
from toolmatch._core.limits import NESTED_TOO_DEEPLY, read_whole, unbounded
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from os import PathLike
    from typing import Any

__all__ = ["read_json_entries"]


def read_json_entries(
    source: str | PathLike[str] | Sequence[object], what: str
) -> list[tuple[str, Any]]:
    """The entries of a JSON list or JSON Lines file (or of a parsed list), each with its
    place: ``file:line`` in JSON Lines, ``file[index]`` in a list, ``what[index]`` parsed."""
    import os

    if not isinstance(source, (str, os.PathLike)):
        if not isinstance(source, (list, tuple)):
            raise TypeError(
                f"{what} must be a path or a list of entries, got {short_repr(source)} "
                f"({type_name(source)})"
            )
        return _bounded([(f"{what}[{index}]", entry) for index, entry in enumerate(source)])
    import json

    where = os.fspath(source)
    text = _text(where)
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None  # JSON Lines (or not JSON at all: the lines say where)
    except RecursionError:
        raise ValueError(f"{where}: {NESTED_TOO_DEEPLY}") from None
    else:
        if isinstance(whole, list):
            return _bounded([(f"{where}[{index}]", entry) for index, entry in enumerate(whole)])
        return _bounded([(f"{where}:1", whole)])
    return _bounded(_lines(where, text))


def _text(where: str) -> str:
    """The file at ``where`` as text; a ``ValueError`` naming it when it is too large to
    read whole or not UTF-8."""
    try:
        data = read_whole(where)
    except ValueError as error:  # too large to read whole
        raise ValueError(f"{where}: {error}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(f"{where}: not UTF-8 text: byte {error.start} cannot be decoded") from None


def _lines(where: str, text: str) -> list[tuple[str, Any]]:
    """The entries of the JSON Lines ``text`` of the file at ``where``, each with its
    ``file:line``; a ``ValueError`` naming the line that is not JSON."""
    import json

    entries = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entries.append((f"{where}:{number}", json.loads(line)))
        except json.JSONDecodeError as error:
            raise ValueError(f"{where}:{number}:{error.colno}: invalid JSON: {error.msg}") from None
        except RecursionError:
            raise ValueError(f"{where}:{number}: {NESTED_TOO_DEEPLY}") from None
    return entries


def _bounded(entries: list[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """The entries, once none is deeper (or more repeated) than a spec may be: what the
    importers make of them is walked by recursion, and loaded under the same limits."""
    for where, entry in entries:
        beyond = unbounded(entry)
        if beyond is not None:
            keys, message = beyond
            raise ValueError(f"{reduce(join_path, keys, where)}: {message}")
    return entries
