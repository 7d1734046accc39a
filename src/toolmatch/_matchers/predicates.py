"""``Satisfies``: any callable as a matcher, for checks no other matcher describes."""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher

if TYPE_CHECKING:
    from collections.abc import Callable

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["Satisfies"]


def _name(function: Callable[[object], object]) -> str:
    name = getattr(function, "__qualname__", None) or getattr(function, "__name__", None)
    return name if isinstance(name, str) else type(function).__name__


@public
class Satisfies(Matcher, _trusted=True):
    """A value for which ``function(value)`` is truthy; ``description`` says what that means.

    An exception inside ``function`` is a mismatch that quotes it, never an error from
    ``==``. Explaining a mismatch calls ``function`` again (docs/matchers.md shows caching).
    A spec file cannot name code: ``Satisfies`` is for Python tests.

    >>> def is_even(n): return n % 2 == 0
    >>> Satisfies(is_even, "an even number") == 4
    True
    >>> Satisfies(is_even, "an even number").explain(3)
    'expected an even number, got 3'
    >>> def is_day(name): return name.lower() in {"mon", "tue", "wed", "thu", "fri"}
    >>> print(Satisfies(is_day, "a weekday").explain(3))
    expected a weekday, got 3: is_day raised AttributeError: 'int' object has no attribute 'lower'
    """

    __slots__ = ("function", "description")
    function: Callable[[object], object]
    description: str

    def __init__(self, function: Callable[[object], object], description: str) -> None:
        if not callable(function):
            raise TypeError(
                f"Satisfies needs a callable, got {short_repr(function)} ({type_name(function)})"
            )
        if not isinstance(description, str) or not description.strip():
            raise TypeError(
                "Satisfies needs a description of what the function checks (a non-empty str), "
                f"got {short_repr(description)}"
            )
        self._set(function=function, description=str.__str__(description))

    def matches(self, actual: object) -> bool:
        try:
            return bool(self.function(actual))
        except Exception:
            return False

    def describe_mismatch(self, actual: object) -> str:
        found = f"expected {self.description}, got {short_repr(actual)}"
        try:
            bool(self.function(actual))
        except Exception as error:
            return f"{found}: {_name(self.function)} raised {type(error).__name__}: {error}"
        return found

    def _constructor_args(self) -> ConstructorArgs:
        return (self.function, self.description), {}

    def __repr__(self) -> str:
        return f"Satisfies({_name(self.function)}, {self.description!r})"
