"""Short, safe descriptions of arbitrary values for failure messages."""

from __future__ import annotations

import reprlib
from itertools import islice

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TypeVar

    _T = TypeVar("_T")

__all__ = [
    "LOG10_2",
    "describe_found",
    "join_path",
    "safe_repr",
    "short_repr",
    "shortened_list",
    "type_name",
]

# log10(2): a number of b bits has about b * LOG10_2 decimal digits.
LOG10_2 = 0.30102999566398120


def _huge_int(number: int, head: int, tail: int) -> str:
    """An int past Python's str() digit limit as its first and last digits and its length.

    Exact and in linear time: only a quotient of about 20 digits is ever printed.
    """
    sign, number = ("-", -number) if number < 0 else ("", number)
    # An estimate of the digit count is enough: `number // 10**skip` has exactly
    # (digits - skip) digits whatever skip is, and that small quotient prints.
    skip = max(0, int((number.bit_length() - 1) * LOG10_2) - head - 2)
    leading = str(number // 10**skip)
    digits = skip + len(leading)
    trailing = str(number % 10**tail).zfill(tail)
    return f"{sign}{leading[:head]}...{trailing} ({digits} digits)"


class _ShortRepr(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxstring = 60
        self.maxother = 60
        self.maxlist = self.maxtuple = self.maxdict = self.maxset = 6
        self.maxfrozenset = self.maxdeque = self.maxarray = 6
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        try:
            return super().repr_int(x, level)
        except ValueError:  # more digits than str() may print (sys.set_int_max_str_digits)
            keep = max(0, (self.maxlong - 3) // 2)
            return _huge_int(x, keep, self.maxlong - 3 - keep)

    def repr_instance(self, x: object, level: int) -> str:
        # reprlib cuts a repr in the middle; a value that writes its own repr from its
        # parts' (ToolCall's _repr_with) is shortened part by part instead.
        write = getattr(type(x), "_repr_with", None)
        if write is None or level <= 0:
            return super().repr_instance(x, level)
        return str(write(x, lambda part: self.repr1(part, level - 1)))

    def repr_str(self, x: str, level: int) -> str:
        # reprlib cuts strings in the middle; the start of a value is what users recognise.
        if len(x) <= self.maxstring:
            return repr(x)
        return repr(x[: self.maxstring - 3]) + "..."

    def repr_dict(self, x: dict[object, object], level: int) -> str:
        # reprlib sorts keys; arguments read best in the order the caller wrote them.
        if not x:
            return "{}"
        if level <= 0:
            return "{...}"
        pieces = [
            f"{self.repr1(key, level - 1)}: {self.repr1(value, level - 1)}"
            for key, value in islice(x.items(), self.maxdict)
        ]
        if len(x) > self.maxdict:
            pieces.append("...")
        return "{" + ", ".join(pieces) + "}"


_SHORT = _ShortRepr()
_LIMIT = 120


def short_repr(value: object) -> str:
    """A one-line repr of ``value``, shortened with ``...`` and never raising.

    An int too long for ``str()`` shows its first and last digits and how many it has.

    >>> short_repr(10**5000 + 7)
    '100000000000000000...0000000000000000007 (5001 digits)'
    """
    try:
        text = _SHORT.repr(value)
    except Exception:  # a value whose __repr__ raises still gets described
        return f"<{type_name(value)} object>"
    text = text.replace("\n", "\\n")
    if len(text) > _LIMIT:
        text = text[: _LIMIT - 3] + "..."
    return text


def safe_repr(value: object) -> str:
    """``repr(value)``, or :func:`short_repr` when that raises (an int too long to print).

    >>> safe_repr([1, "a"]), safe_repr(10**5000)[-13:]
    ("[1, 'a']", '(5001 digits)')
    """
    try:
        return repr(value)
    except Exception:
        return short_repr(value)


def type_name(value: object) -> str:
    """The name of ``value``'s type as users write it (``int``, ``numpy.float32``)."""
    kind = type(value)
    module = getattr(kind, "__module__", "builtins")
    if module == "builtins":
        return kind.__qualname__
    return f"{module.partition('.')[0]}.{kind.__qualname__}"


def join_path(path: str, key: object) -> str:
    """Extend an explanation path: ``a``, ``a.b``, ``items[2]``, ``a['odd key']``."""
    if isinstance(key, int) and not isinstance(key, bool):
        return f"{path}[{key}]"
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{short_repr(key)}]"


def describe_found(expected: object, actual: object) -> str:
    """``short_repr(actual)``, with its type added when it would read the same as ``expected``."""
    found = short_repr(actual)
    if found == short_repr(expected):
        found += f" ({type_name(actual)})"
    return found


_SHOWN_NAMES = 8


def shortened_list(items: Sequence[_T], text: Callable[[_T], str] = str) -> str:
    """The first 8 of ``items`` as ``text`` writes each, joined by commas, and how many more
    there are: names in a message, short however many there are ("" for none).

    >>> shortened_list(["search", "fetch"]), shortened_list(range(10), repr)
    ('search, fetch', '0, 1, 2, 3, 4, 5, 6, 7 and 2 more')
    """
    shown = ", ".join([text(item) for item in items[:_SHOWN_NAMES]])
    return f"{shown} and {len(items) - _SHOWN_NAMES} more" if len(items) > _SHOWN_NAMES else shown
