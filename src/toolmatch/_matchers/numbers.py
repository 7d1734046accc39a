"""Numbers: ``Approx`` (within a tolerance) and the ranges ``Gt``, ``Ge``, ``Lt``, ``Le`` and
``Between``."""

from __future__ import annotations

import math
import operator

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.flags import check_flag
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.literal import is_exact, is_number
from toolmatch._matchers.strings import read_number

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, ClassVar

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["Approx", "Between", "Ge", "Gt", "Le", "Lt"]


def _bound(owner: str, name: str, value: object) -> object:
    """``value`` if it can bound a range: a real number (not a bool), not NaN."""
    if not is_number(value):
        found = f"{short_repr(value)} ({type_name(value)})"
        raise TypeError(f"{owner} {name} must be a number, got {found}")
    try:
        nan = math.isnan(value)  # type: ignore[arg-type]
    except (OverflowError, ValueError):  # an int past float range is a fine bound
        nan = False
    except Exception as error:  # Decimal('sNaN'), a number type whose __float__ raises
        raise ValueError(f"{owner} {name} {short_repr(value)} is not usable: {error}") from None
    if nan:
        raise ValueError(f"{owner} {name} cannot be NaN: nothing is above or below NaN")
    return value


def _in_order(compare: Callable[[Any, Any], Any], left: Any, right: Any) -> bool:
    """``compare(left, right)`` by value as Literal compares numbers: exactly when both are
    exact, else as floats (``Le(Decimal("0.1")) == 0.1``); never raising."""
    try:
        if is_exact(left) and is_exact(right):
            return bool(compare(left, right))
        try:
            return bool(compare(float(left), float(right)))
        except OverflowError:  # an exact number past float range: Python orders it exactly
            return bool(compare(left, right))
    except Exception:  # Decimal signals on NaN
        return False


def _found(actual: object, strings: bool = False) -> str:
    if strings and isinstance(actual, str):
        number = read_number(actual)
        if number is None:
            return f"{short_repr(actual)} (str, which does not read as a number)"
        return f"{short_repr(actual)} (read as {number!r})"
    if isinstance(actual, bool) or not is_number(actual):
        suffix = ", which is not a number" if isinstance(actual, bool) else ""
        return f"{short_repr(actual)} ({type_name(actual)}{suffix})"
    return short_repr(actual)


def _number_of(actual: object, strings: bool) -> object:
    """``actual``, or with ``strings`` the number a string spells as Fuzzy reads it (``None``
    for a string that spells none): what a range compares."""
    if strings and isinstance(actual, str):
        return read_number(actual)
    return actual


class _Bound(Matcher, _trusted=True):
    __slots__ = ("bound", "strings", "_builtin")
    bound: Any
    strings: bool
    _builtin: bool
    _symbol: ClassVar[str] = ""
    _compare: ClassVar[Callable[[Any, Any], Any]]

    def __init__(self, bound: float, *, strings: bool = False) -> None:
        owner = type(self).__name__
        self._set(
            bound=_bound(owner, "bound", bound),
            strings=check_flag(strings, f"{owner} strings"),
            _builtin=type(bound) in (int, float),
        )

    def matches(self, actual: object) -> bool:
        kind = type(actual)
        if (kind is int or kind is float) and self._builtin:
            return type(self)._compare(actual, self.bound)  # type: ignore[no-any-return]
        actual = _number_of(actual, self.strings)
        return is_number(actual) and _in_order(type(self)._compare, actual, self.bound)

    def describe_mismatch(self, actual: object) -> str:
        got = _found(actual, self.strings)
        return f"expected a number {self._symbol} {short_repr(self.bound)}, got {got}"

    def _constructor_args(self) -> ConstructorArgs:
        return (self.bound,), {"strings": True} if self.strings else {}


@public
class Gt(_Bound, _trusted=True):
    """A number greater than ``bound``; never a bool, never NaN (docs/matchers.md). With
    ``strings=True``, a string counts by the number it spells as :class:`Fuzzy` reads it
    (``"10,000.0"``); so do the other ranges'.

    >>> Gt(0) == 1, Gt(0) == 0, Gt(0) == True
    (True, False, False)
    >>> Gt(0).explain(-1)
    'expected a number > 0, got -1'
    >>> Gt(5, strings=True) == "10,000.0", Gt(5) == "10,000.0"
    (True, False)
    >>> Gt(5, strings=True).explain("3")
    "expected a number > 5, got '3' (read as 3.0)"
    """

    __slots__ = ()
    _symbol = ">"
    _compare = operator.gt


@public
class Ge(_Bound, _trusted=True):
    """A number greater than or equal to ``bound``; never a bool, never NaN.

    >>> Ge(1) == 1.0, Ge(1) == 0.5
    (True, False)
    """

    __slots__ = ()
    _symbol = ">="
    _compare = operator.ge


@public
class Lt(_Bound, _trusted=True):
    """A number less than ``bound``; never a bool, never NaN.

    >>> Lt(10) == 9.5, Lt(10) == 10
    (True, False)
    """

    __slots__ = ()
    _symbol = "<"
    _compare = operator.lt


@public
class Le(_Bound, _trusted=True):
    """A number less than or equal to ``bound``; never a bool, never NaN.

    >>> Le(10) == 10, Le(10) == "9"
    (True, False)
    >>> Le(10).explain("9")
    "expected a number <= 10, got '9' (str)"
    """

    __slots__ = ()
    _symbol = "<="
    _compare = operator.le


@public
class Between(Matcher, _trusted=True):
    """A number from ``low`` to ``high``, both included unless ``inclusive=False``.

    Any real number counts (int, float, Decimal, Fraction, numpy), compared by value;
    a bool or NaN never does. ``Between(5, 1)`` is refused (docs/matchers.md).

    >>> Between(1, 50) == 50, Between(1, 50, inclusive=False) == 50, Between(1, 50) == True
    (True, False, False)
    >>> Between(1, 50).explain(51)
    'expected a number from 1 to 50, got 51'
    >>> Between(1, 50, strings=True) == " 12.5 "
    True
    """

    __slots__ = ("low", "high", "inclusive", "strings", "_builtin")
    low: Any
    high: Any
    inclusive: bool
    strings: bool
    _builtin: bool

    def __init__(
        self, low: float, high: float, *, inclusive: bool = True, strings: bool = False
    ) -> None:
        _bound("Between", "low", low)
        _bound("Between", "high", high)
        check_flag(inclusive, "Between inclusive")
        try:
            empty = bool(low > high) if inclusive else bool(low >= high)
        except Exception as error:
            raise ValueError(
                f"Between cannot order {short_repr(low)} and {short_repr(high)}: {error}"
            ) from None
        if empty:
            which = "above" if inclusive else "at or above"
            raise ValueError(
                f"Between({short_repr(low)}, {short_repr(high)}"
                f"{'' if inclusive else ', inclusive=False'}) can never match: "
                f"low is {which} high"
            )
        self._set(
            low=low,
            high=high,
            inclusive=inclusive,
            strings=check_flag(strings, "Between strings"),
            _builtin=type(low) in (int, float) and type(high) in (int, float),
        )

    def matches(self, actual: object) -> bool:
        kind = type(actual)
        if (kind is int or kind is float) and self._builtin:
            if self.inclusive:
                return self.low <= actual <= self.high  # type: ignore[no-any-return]
            return self.low < actual < self.high  # type: ignore[no-any-return]
        actual = _number_of(actual, self.strings)
        compare = operator.le if self.inclusive else operator.lt
        return (
            is_number(actual)
            and _in_order(compare, self.low, actual)
            and _in_order(compare, actual, self.high)
        )

    def describe_mismatch(self, actual: object) -> str:
        low, high = short_repr(self.low), short_repr(self.high)
        span = f"from {low} to {high}" if self.inclusive else f"strictly between {low} and {high}"
        return f"expected a number {span}, got {_found(actual, self.strings)}"

    def _constructor_args(self) -> ConstructorArgs:
        options: dict[str, object] = {} if self.inclusive else {"inclusive": False}
        if self.strings:
            options["strings"] = True
        return (self.low, self.high), options


def _as_float(name: str, value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]
    except Exception as error:  # 10**400, Decimal('sNaN'), a number type whose __float__ raises
        raise ValueError(
            f"Approx {name} {short_repr(value)} is not usable as a float: {error}"
        ) from None


def _tolerance(name: str, value: object) -> float:
    if not is_number(value):
        raise TypeError(f"Approx {name} must be a number, got {short_repr(value)}")
    number = _as_float(name, value)
    if math.isnan(number) or number < 0:
        raise ValueError(f"Approx {name} must be zero or positive, got {short_repr(value)}")
    return number


@public
class Approx(Matcher, _trusted=True):
    """A number within ``max(rel * |value|, abs)`` of ``value`` (docs/matchers.md); never a bool.

    An infinity equals the same infinity; NaN never matches.

    >>> Approx(3.0, rel=0.01) == 3.02, Approx(3.0, rel=0.01) == 3.1
    (True, False)
    >>> Approx(1) == True
    False
    >>> Approx(3.0, rel=0.01).explain(3.1)
    'expected 3.0 ± 0.03, got 3.1'
    """

    __slots__ = ("value", "rel", "abs", "_value", "_tolerance")
    value: float
    rel: float
    abs: float
    _value: float
    _tolerance: float

    def __init__(self, value: float, rel: float = 1e-6, abs: float = 0.0) -> None:
        if not is_number(value):
            raise TypeError(f"Approx needs a number, got {short_repr(value)} ({type_name(value)})")
        number = _as_float("value", value)
        if math.isnan(number):
            raise ValueError("Approx(nan) can never match: NaN equals nothing, not even NaN")
        rel_tolerance = _tolerance("rel", rel)
        abs_tolerance = _tolerance("abs", abs)
        tolerance = max(rel_tolerance * math.fabs(number), abs_tolerance)
        if math.isinf(number):
            tolerance = -1.0  # an infinity is near nothing; only the same infinity equals it
        self._set(value=value, rel=rel, abs=abs, _value=number, _tolerance=tolerance)

    def matches(self, actual: object) -> bool:
        kind = type(actual)
        try:
            if kind is not float and kind is not int:
                if not is_number(actual):
                    return False
                actual = float(actual)  # type: ignore[arg-type]
            # Equal infinities differ by NaN, hence the second test.
            return abs(actual - self._value) <= self._tolerance or actual == self._value  # type: ignore[operator]
        except Exception:  # an int too large for a float, a number type that cannot convert
            return False

    def describe_mismatch(self, actual: object) -> str:
        expected = short_repr(self.value)
        if self._tolerance > 0:
            expected += f" ± {self._tolerance:g}"
        if isinstance(actual, bool) or not is_number(actual):
            return (
                f"expected a number near {expected}, got {short_repr(actual)} ({type_name(actual)})"
            )
        return f"expected {expected}, got {short_repr(actual)}"

    def _constructor_args(self) -> ConstructorArgs:
        options: dict[str, object] = {}
        if self.rel != 1e-6:
            options["rel"] = self.rel
        if self.abs != 0.0:
            options["abs"] = self.abs
        return (self.value,), options
