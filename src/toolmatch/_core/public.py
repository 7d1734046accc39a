"""``public``: an export named as ``toolmatch``'s own, wherever inside the package it lives.

Pickles, reprs of classes and the API reference name ``obj.__module__``; setting it to
``toolmatch`` (as httpx does) lets a class move between private modules without breaking
a pickle written before the move.
"""

from __future__ import annotations

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import TypeVar

    _Export = TypeVar("_Export")

__all__ = ["public"]


def public(obj: _Export) -> _Export:
    """Mark a class or function exported by ``toolmatch`` as living in ``toolmatch``.

    >>> from toolmatch import Fuzzy
    >>> Fuzzy.__module__
    'toolmatch'
    """
    obj.__module__ = "toolmatch"
    return obj
