"""How deep and how repeated a configuration value may be, measured without recursion:
spec files, importers' entries and recorded arguments share the limits; and how large a
configuration file may be, read whole.
"""

from __future__ import annotations

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_FILE_BYTES",
    "MAX_NESTING",
    "MAX_REPEATED",
    "NESTED_TOO_DEEPLY",
    "TOO_LARGE",
    "read_whole",
    "unbounded",
]


# How deeply matchers (and the plain values they are built from) may nest: deeper trees
# would run out of Python's recursion limit while comparing, explaining or printing.
MAX_DEPTH = 100
MAX_NESTING = MAX_DEPTH
"""How many mappings and lists a configuration may nest inside one another: the depth a
matcher may have, so the loader refuses at its place what a constructor would refuse."""


MAX_REPEATED = 100_000
"""How many values a configuration may repeat, in all, by using one mapping or list again
(a YAML alias does)."""


MAX_FILE_BYTES = 64 << 20
"""How many bytes a configuration file (a spec, tool definitions, function docs, a
benchmark's entries) may hold: it is read whole, so one that never ends (``/dev/zero``, a
pipe left open) must stop somewhere."""

TOO_LARGE = (
    f"larger than {MAX_FILE_BYTES >> 20} MiB: toolmatch reads such a file whole, and takes "
    f"{MAX_FILE_BYTES >> 20} MiB at most"
)


def read_whole(where: str) -> bytes:
    """The bytes of the file ``where``, read no further than ``MAX_FILE_BYTES``:
    ``ValueError`` (:data:`TOO_LARGE`) for a larger one; ``OSError`` is the caller's.

    >>> len(read_whole(__file__)) > 0
    True
    """
    with open(where, "rb") as file:
        raw = file.read(MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise ValueError(TOO_LARGE)
    return raw


NESTED_TOO_DEEPLY = (
    f"nested too deeply: more than {MAX_NESTING} mappings and lists inside one another"
)


_CONTAINS_ITSELF = "is the mapping or list it is in, or holds it; a value cannot contain itself"


_REPEATS_TOO_MUCH = (
    f"repeats a mapping or list used before (as a YAML alias does), past {MAX_REPEATED:,} "
    "repeated values in all"
)


def unbounded(value: object) -> tuple[list[Any], str] | None:
    """Where loading ``value`` would go past a limit, and why, or ``None``.

    The keys and indices to a mapping or list nested deeper than ``MAX_NESTING``, or to one
    that holds itself (an infinite depth), or to a repeat of one used before that takes the
    values repeated past ``MAX_REPEATED``, as parsed YAML aliases are; with the message.
    Walked once, without recursion, each mapping and list measured once, so that nothing
    after it recurses deeper than the limit or works longer than the repeats allow.

    >>> unbounded({"a": [1, {"b": 2}]}) is None
    True
    >>> loop = {"a": 1}
    >>> loop["self"] = loop
    >>> unbounded(loop)[0]
    ['self']
    """
    if not isinstance(value, (dict, list)):
        return None
    measured: dict[int, tuple[int, int]] = {}  # id -> (values in it, levels it nests)
    repeated = 0
    keys: list[Any] = []  # from value to the innermost open container
    # One frame per open container: it, its (key, item) pairs to go, values and levels so far.
    frames: list[list[Any]] = [[value, _pairs(value), 1 + _keys(value), 1]]
    open_ids = {id(value)}
    while frames:
        frame = frames[-1]
        for key, item in frame[1]:
            if not isinstance(item, (dict, list)):
                frame[2] += 1
                continue
            known = measured.get(id(item))
            if known is None:
                if id(item) in open_ids:
                    return [*keys, key], _CONTAINS_ITSELF
                if len(frames) >= MAX_NESTING:
                    return [*keys, key], NESTED_TOO_DEEPLY
                keys.append(key)
                open_ids.add(id(item))
                frames.append([item, _pairs(item), 1 + _keys(item), 1])
                break
            values, levels = known
            repeated += values
            if repeated > MAX_REPEATED:
                return [*keys, key], _REPEATS_TOO_MUCH
            if len(frames) + levels > MAX_NESTING:
                return [*keys, key], NESTED_TOO_DEEPLY
            frame[2] += values
            frame[3] = max(frame[3], levels + 1)
        else:
            frames.pop()
            open_ids.discard(id(frame[0]))
            measured[id(frame[0])] = (frame[2], frame[3])
            if frames:
                keys.pop()
                frames[-1][2] += frame[2]
                frames[-1][3] = max(frames[-1][3], frame[3] + 1)
    return None


def _pairs(container: dict[Any, Any] | list[Any]) -> Iterator[tuple[Any, Any]]:
    """A mapping's items; a list's items with their index."""
    if isinstance(container, dict):
        return iter(container.items())
    return enumerate(container)


def _keys(container: dict[Any, Any] | list[Any]) -> int:
    """The values a container's keys count for: a mapping's keys are values too, as in YAML."""
    return len(container) if isinstance(container, dict) else 0
