"""Value matchers (docs/semantics.md, docs/matchers.md): ANY, OneOf, Contains and IsType."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, nesting_depth
from toolmatch._matchers.literal import as_matcher

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["ANY", "Contains", "IsType", "OneOf"]


@public
class _AnyValue(Matcher, _trusted=True):
    __slots__ = ()

    def matches(self, actual: object) -> bool:
        return True

    def _accepts_everything(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "ANY"

    def __reduce_ex__(self, protocol: Any) -> str:
        return "ANY"  # unpickles to the module's singleton


ANY = _AnyValue()
"""Matches every value, ``None`` included (a missing key is still missing).

>>> {"city": ANY, "days": 3} == {"city": None, "days": 3}
True
>>> {"city": ANY} == {}
False
"""


@public
class OneOf(Matcher, _trusted=True):
    """Matches when any candidate matches; plain candidates use :class:`Literal` rules.

    >>> OneOf("celsius", "fahrenheit") == "celsius"
    True
    >>> OneOf(1, 2) == True
    False
    >>> OneOf(1, 2).explain(3)
    'expected one of 1, 2, got 3'
    """

    __slots__ = ("values", "_checks", "_depth")
    values: tuple[object, ...]
    _checks: tuple[Any, ...]

    def __init__(self, *values: object) -> None:
        if not values:
            raise ValueError("OneOf() needs at least one candidate value")
        matchers = [as_matcher(value) for value in values]
        self._set(
            _depth=nesting_depth(matchers, values),
            values=values,
            _checks=tuple(matcher.__eq__ for matcher in matchers),
        )

    def matches(self, actual: object) -> bool:
        for check in self._checks:
            if check(actual):
                return True
        return False

    def _accepts_everything(self) -> bool:
        return any(as_matcher(value)._accepts_everything() for value in self.values)

    def _accepts_nothing(self) -> bool:
        return all(as_matcher(value)._accepts_nothing() for value in self.values)

    def describe_mismatch(self, actual: object) -> str:
        candidates = ", ".join(short_repr(value) for value in self.values)
        return f"expected one of {candidates}, got {short_repr(actual)}"

    def _constructor_args(self) -> ConstructorArgs:
        return self.values, {}


@public
class Contains(Matcher, _trusted=True):
    """``item`` is in the value: a substring of a str, an element of a list, tuple or set,
    a key of a dict (docs/matchers.md). Anything else never matches.

    ``item`` may be a matcher: then any element (or key) it matches counts. Plain items
    use :class:`Literal` rules, so ``Contains(1)`` finds ``1.0`` but not ``True``.

    >>> Contains("paris") == "trip to paris", Contains(2) == [1.0, 2.0], Contains("q") == {"q": 1}
    (True, True, True)
    >>> from toolmatch import Regex
    >>> Contains(Regex("id-[0-9]+")) == ["x", "id-7"]
    True
    >>> Contains("rome").explain(["paris", "oslo"])
    "expected a value containing 'rome', got ['paris', 'oslo']"
    """

    __slots__ = ("item", "_check", "_depth")
    item: object
    _check: Any

    def __init__(self, item: object) -> None:
        matcher = as_matcher(item)
        self._set(_depth=nesting_depth((matcher,), item), item=item, _check=matcher.__eq__)

    def matches(self, actual: object) -> bool:
        try:
            if isinstance(actual, str):
                item = self.item
                return type(item) is str and str.__contains__(actual, item)
            if isinstance(actual, (list, tuple, set, frozenset, Mapping)):
                check = self._check
                for element in actual:
                    if check(element):
                        return True
            return False
        except Exception:
            return False

    def describe_mismatch(self, actual: object) -> str:
        found = short_repr(actual)
        if isinstance(actual, str) and not isinstance(self.item, str):
            return (
                f"expected a str containing {self.item!r}, got {found} (a str only contains strs)"
            )
        if not isinstance(actual, (str, list, tuple, set, frozenset, Mapping)):
            return (
                f"expected a str, list, tuple, set or dict containing {short_repr(self.item)}, "
                f"got {found} ({type_name(actual)})"
            )
        return f"expected a value containing {short_repr(self.item)}, got {found}"

    def _constructor_args(self) -> ConstructorArgs:
        return (self.item,), {}


@public
class IsType(Matcher, _trusted=True):
    """``isinstance(actual, types)``, except that a bool passes only when ``bool`` is listed.

    >>> IsType(int) == 3, IsType(int) == True, IsType(int, bool) == True
    (True, False, True)
    >>> IsType(int, float).explain("3")
    "expected an instance of int or float, got '3' (str)"
    """

    __slots__ = ("types", "_bool_ok")
    types: tuple[type, ...]
    _bool_ok: bool

    def __init__(self, *types: type) -> None:
        if not types:
            raise ValueError("IsType() needs at least one type")
        for kind in types:
            if not issubclass(type(kind), type):  # not isinstance: a proxy's __class__ may raise
                raise TypeError(f"IsType takes types, got {short_repr(kind)} ({type_name(kind)})")
        self._set(types=types, _bool_ok=bool in types or object in types)

    def matches(self, actual: object) -> bool:
        try:
            if isinstance(actual, bool) and not self._bool_ok:
                return False
            return isinstance(actual, self.types)
        except Exception:
            return False

    def describe_mismatch(self, actual: object) -> str:
        names = " or ".join(kind.__qualname__ for kind in self.types)
        return f"expected an instance of {names}, got {short_repr(actual)} ({type_name(actual)})"

    def __repr__(self) -> str:
        # NoneType is no builtin name: type(None) is the expression that gives it.
        names = ("type(None)" if kind is type(None) else kind.__qualname__ for kind in self.types)
        return f"IsType({', '.join(names)})"

    def _constructor_args(self) -> ConstructorArgs:
        return self.types, {}
