"""Series of pass^k values, written a chunk at a time to each format that shows them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeVar

    _T = TypeVar("_T")
    # Where a series goes: how to write, what comes before it, the text before each k,
    # the text after it (made from the value), what ends it.
    Sink = tuple[Callable[[str], None], str, str, Callable[[_T], str], str]

__all__ = [
    "SHOWN_AS_ZERO",
    "json_mean",
    "json_sink",
    "json_value",
    "text_value",
    "values_at",
    "write_series",
]


_CHUNK = 1024  # items of a series formatted at a time


def json_sink(
    write: Callable[[str], None], head: str, shown: Callable[[_T], str], ending: str
) -> Sink[_T]:
    """A JSON object whose last key, ``pass_k``, is a series; ``head`` is the object
    without it, and ``ending`` closes ``pass_k`` and what follows it."""
    return (write, f'{head[:-1]}, "pass_k": {{', '"', shown, ending)


def json_value(value: float) -> str:
    return f'": {value!r}'


def json_mean(value: tuple[float, int]) -> str:
    return f'": {value[0]!r}'


def text_value(value: float) -> str:
    return f" {value:.3f}"


# A float below it shows as 0.000 with three decimals; 0.0005 itself shows as 0.001.
SHOWN_AS_ZERO = 0.0005


def write_series(
    stretches: Iterable[tuple[_T, int]],
    sinks: Sequence[Sink[_T]],
    points: Sequence[int] | None = None,
) -> None:
    """Writes one line of pass^k values to each sink, a chunk at a time: a case of many
    runs has as many values, and its line is never whole in memory. Each stretch of equal
    values is shown once, its numbers k joined by what comes between them. With
    ``points`` (sorted), only the values at those k are written."""
    if not sinks:  # nothing shows them: not worth computing
        return
    for write, head, _, _, _ in sinks:
        write(head)
    separator = ""
    items = _every(stretches) if points is None else values_at(stretches, points)
    for chunk in _chunks(items):
        for write, _, before, shown, _ in sinks:
            texts = []
            for k, value, times in chunk:
                after = shown(value)
                numbers = map(str, range(k, k + times))
                texts.append(f"{before}{f'{after}, {before}'.join(numbers)}{after}")
            write(separator + ", ".join(texts))
        separator = ", "
    for write, _, _, _, ending in sinks:
        write(ending)


def _every(stretches: Iterable[tuple[_T, int]]) -> Iterator[tuple[int, _T, int]]:
    """The stretches as ``(first k, value, how many)``."""
    k = 1
    for value, times in stretches:
        yield k, value, times
        k += times


def values_at(
    stretches: Iterable[tuple[_T, int]], points: Sequence[int]
) -> Iterator[tuple[int, _T, int]]:
    """The values of a series given in stretches ``(value, how many)``, at ``points``
    (sorted) only, each as ``(k, value, 1)``.

    >>> list(values_at([(1.0, 2), (0.5, 3)], [2, 3, 9]))
    [(2, 1.0, 1), (3, 0.5, 1)]
    """
    wanted = iter(points)
    k = next(wanted, None)
    last = 0  # the last k of the stretches so far
    for value, times in stretches:
        last += times
        while k is not None and k <= last:
            yield k, value, 1
            k = next(wanted, None)
        if k is None:
            return


def _chunks(items: Iterable[tuple[int, _T, int]]) -> Iterator[list[tuple[int, _T, int]]]:
    """The items ``(first k, value, how many)`` in lists of _CHUNK values in all."""
    chunk: list[tuple[int, _T, int]] = []
    room = _CHUNK
    for k, value, times in items:
        while times > room:  # a long stretch: the rest of this chunk, then the next
            chunk.append((k, value, room))
            yield chunk
            k, times, chunk, room = k + room, times - room, [], _CHUNK
        chunk.append((k, value, times))
        room -= times
        if not room:
            yield chunk
            chunk, room = [], _CHUNK
    if chunk:
        yield chunk
