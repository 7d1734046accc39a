"""A flag's rule, written once for every layer: ``True`` or ``False``, nothing else, refused
in its caller's words (a matcher's keyword, an expected tool's key, a spec file's place)."""

from __future__ import annotations

from toolmatch._core.describe import short_repr

__all__ = ["check_flag"]


def check_flag(value: object, name: str, in_spec: bool = False) -> bool:
    """``value`` if it is a bool; else a ``TypeError`` opening with ``name``, the value as
    its caller names it, in a spec file's words when ``in_spec`` (``true or false``).

    >>> check_flag(True, "distinct")
    True
    >>> check_flag(1, "tools[0].first", in_spec=True)
    Traceback (most recent call last):
    TypeError: tools[0].first must be true or false, got 1
    """
    if not isinstance(value, bool):
        either = "true or false" if in_spec else "True or False"
        raise TypeError(f"{name} must be {either}, got {short_repr(value)}")
    return value
