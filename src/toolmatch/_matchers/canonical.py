"""Hashable canonical keys for plain values, so literal expectations can be looked up, not scanned.

``canonical_key(expected) == canonical_key(actual)`` holds exactly when
``Literal(expected) == actual``, for every pair where both keys are not ``None``.
``None`` means "no key": the caller must fall back to a real comparison. Keys are
only given where Literal's rules are an equivalence (strings, bools, ``None``, numbers
that a float holds exactly, lists, tuples and str-keyed dicts of those).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.literal import exact_equal, is_bool, is_exact, is_number

if TYPE_CHECKING:
    from typing import Any

__all__ = ["canonical_key", "literal_args_key"]

_MAX_DEPTH = 50


def canonical_key(value: object) -> Hashable | None:
    """A hashable key equal for values that Literal rules call equal; ``None`` if none exists.

    >>> canonical_key(1) == canonical_key(1.0), canonical_key(True) == canonical_key(1)
    (True, False)
    >>> canonical_key({"a": [1, "x"]}) == canonical_key({"a": (1.0, "x")})
    True
    """
    try:
        return _key(value, 0)
    except Exception:  # an odd value gets no key; the caller compares it the slow way
        return None


def _key(value: object, depth: int) -> Hashable | None:
    kind = type(value)
    if kind is str:
        return ("s", value)
    if value is None:
        return ("n",)
    if is_bool(value):
        return ("b", bool(value))
    if kind is int or kind is float or is_number(value):
        return _number_key(value)
    if isinstance(value, str):
        return ("s", str.__str__(value))
    if depth >= _MAX_DEPTH:
        return None
    if isinstance(value, (list, tuple)):
        items = []
        for item in value:
            key = _key(item, depth + 1)
            if key is None:
                return None
            items.append(key)
        return ("l", tuple(items))
    if kind is dict:
        pairs = []
        for name, item in value.items():  # type: ignore[attr-defined]
            if type(name) is not str:
                return None  # Literal looks keys up by ==, where 1, 1.0 and True collide
            key = _key(item, depth + 1)
            if key is None:
                return None
            pairs.append((name, key))
        return ("d", frozenset(pairs))
    return None


def _number_key(value: Any) -> Hashable | None:
    # Literal compares two exact numbers exactly and anything else as floats; both
    # agree only for numbers a float represents exactly, so only those get a key.
    as_float = float(value)
    if math.isnan(as_float):
        return None
    if type(value) is int:
        # Python compares an int with a float exactly: no Fraction needed.
        return ("f", as_float) if as_float == value else None
    if type(value) is not float and is_exact(value):
        from fractions import Fraction  # rare path; keeps `import toolmatch` fast

        # exact_equal, not Fraction(value): a Decimal's exponent may be huge (1e-99999999).
        if math.isinf(as_float) or not exact_equal(value, Fraction(as_float)):
            return None
    return ("f", as_float)


def literal_args_key(args: object) -> tuple[tuple[str, ...], tuple[Hashable, ...]] | None:
    """For a plain dict of expected arguments: its sorted keys and their values' keys.

    >>> literal_args_key({"q": "x", "limit": 5})
    (('limit', 'q'), (('f', 5.0), ('s', 'x')))
    >>> print(literal_args_key({"q": object()}))
    None
    """
    if not isinstance(args, Mapping) or not all(type(name) is str for name in args):
        return None
    names = sorted(args)
    keys = []
    for name in names:
        key = canonical_key(args[name])
        if key is None:
            return None
        keys.append(key)
    return tuple(names), tuple(keys)
