"""The ``Matcher`` base class and the ``Mismatch`` record that explanations are made of."""

from __future__ import annotations

from toolmatch._core.describe import safe_repr, short_repr
from toolmatch._core.display import TextDisplay, html_table
from toolmatch._core.immutable import Record
from toolmatch._core.limits import MAX_DEPTH
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import Any, ClassVar, Literal, TypeAlias, TypeGuard, TypeVar

    from typing_extensions import Self, final

    ConstructorArgs: TypeAlias = tuple[tuple[object, ...], dict[str, object]]
    _T = TypeVar("_T")
else:

    def final(method):
        return method


__all__ = [
    "MAX_DEPTH",
    "Matcher",
    "Mismatch",
    "Mismatches",
    "ReasonedMatcher",
    "is_instance",
    "nesting_depth",
]


def is_instance(value: object, kinds: type[_T] | tuple[type[_T], ...]) -> TypeGuard[_T]:
    """``isinstance``, but ``False`` for a value whose ``__class__`` lookup raises (lazy proxies).

    >>> class Unloaded:
    ...     @property
    ...     def __class__(self):
    ...         raise RuntimeError("not loaded yet")
    >>> is_instance(Unloaded(), dict), is_instance({}, dict)
    (False, True)
    """
    try:
        return isinstance(value, kinds)
    except Exception:
        return False


def nesting_depth(children: Iterable[Matcher], value: object) -> int:
    """The depth of a matcher built on ``children``; ``ValueError`` past :data:`MAX_DEPTH`."""
    depth = 1 + max((child._depth for child in children), default=0)
    if depth > MAX_DEPTH:
        raise ValueError(
            f"the expected value is nested more than {MAX_DEPTH} levels deep: {short_repr(value)}"
        )
    return depth


@public
class Mismatch(Record):
    """One reason a comparison failed, at a ``path`` into the compared value.

    >>> from toolmatch import Literal
    >>> Mismatch("items[2].id", "expected 7, got 8")
    Mismatch(path='items[2].id', reason='expected 7, got 8')
    >>> print(Mismatch("", "expected 7, got 8"))
    expected 7, got 8
    """

    __slots__ = _fields = ("path", "reason")
    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}" if self.path else self.reason

    def as_dict(self) -> dict[str, str]:
        """A JSON-ready ``{"path": ..., "reason": ...}``.

        >>> Mismatch("a", "missing").as_dict()
        {'path': 'a', 'reason': 'missing'}
        """
        return {"path": self.path, "reason": self.reason}


class Mismatches(TextDisplay, list["Mismatch"]):
    """What :func:`toolmatch.explain` returns: a list of :class:`Mismatch`, one per line
    when printed and a table in a notebook.

    >>> from toolmatch import Fuzzy, explain
    >>> found = explain({"a": Fuzzy("206588"), "b": 1}, {"a": 205000})
    >>> print(found)
    a: fuzzy '206588' does not match 205000
    b: missing
    >>> found == [Mismatch("a", "fuzzy '206588' does not match 205000"), Mismatch("b", "missing")]
    True
    """

    __slots__ = ()

    def lines(self) -> list[str]:
        """One line per mismatch (``str()`` joins them); ``no mismatch`` when empty."""
        return [str(mismatch) for mismatch in self] or ["no mismatch"]

    def _repr_html_(self) -> str:
        if not self:
            return "<i>no mismatch</i>"
        rows = [(mismatch.path or "(the value)", mismatch.reason) for mismatch in self]
        return html_table(["path", "reason"], rows)


def _guarded(matches: Callable[[Any, object], object]) -> Callable[[Any, object], bool]:
    """Wrap a user-written ``matches`` so that ``==`` always answers a real bool."""

    def __eq__(self: Any, other: object) -> bool:  # noqa: N807 (it becomes the class's __eq__)
        try:
            return bool(matches(self, other))
        except Exception:
            return False

    return __eq__


@public
class Matcher:
    """Base class of every matcher: a value that decides what it equals.

    A subclass overrides :meth:`matches` (and, for better messages,
    :meth:`describe_mismatch` and ``__repr__``). ``==`` and ``!=`` are final:
    they call ``matches`` from whichever side the matcher is on, always answer
    a real ``bool`` and never raise.

    >>> class IsEven(Matcher):
    ...     def matches(self, actual: object) -> bool:
    ...         return isinstance(actual, int) and actual % 2 == 0
    ...     def __repr__(self) -> str:
    ...         return "IsEven()"
    >>> {"n": 4} == {"n": IsEven()}
    True
    >>> IsEven().explain(3)
    'expected IsEven(), got 3'
    """

    __slots__ = ()

    # How a mapping matcher treats this matcher's key when the actual mapping lacks it.
    _key_presence: ClassVar[Literal["required", "optional", "forbidden"]] = "required"

    # numpy scalars and arrays return NotImplemented against us, so Python asks the matcher.
    __array_ufunc__ = None

    # How many matchers deep this one is (see nesting_depth); composite matchers set their own.
    _depth = 1

    def __init_subclass__(cls, *, _trusted: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in ("__eq__", "__ne__"):
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__qualname__} defines {name}, but Matcher.{name} is final: "
                    "override matches(actual) instead"
                )
        matches = cls.__dict__.get("matches")
        if matches is not None:
            # toolmatch's own matchers never raise and always return a bool, so their
            # `matches` is `__eq__` itself. B1 pays for it: 500 ns a 10-key dict, 610 ns
            # through the guard; ranges, dates, unordered 1.28x of hand-written, 1.47x
            # through it (budget 1.5x), measured 2026-12-07.
            cls.__eq__ = matches if _trusted else _guarded(matches)  # type: ignore[misc,method-assign]

    def __new__(cls, *args: Any, **kwargs: Any) -> Self:
        if cls.matches is Matcher.matches:
            raise TypeError(f"{cls.__qualname__} must define matches(actual) to be a Matcher")
        return super().__new__(cls)

    def matches(self, actual: object) -> bool:
        """Whether ``actual`` matches; ``m == actual`` calls this.

        >>> from toolmatch import Regex
        >>> Regex("2009.*").matches("2009 cash flow")
        True
        """
        raise NotImplementedError

    # For toolmatch lint: answered only by the classes that can know, and never a guess.
    # A matcher that answers True here can never fail; False means "it may fail".
    def _accepts_everything(self) -> bool:
        """Whether every value matches (``False`` when this class cannot be sure)."""
        return False

    def _accepts_nothing(self) -> bool:
        """Whether no value matches (``False`` when this class cannot be sure)."""
        return False

    @final
    def __eq__(self, other: object) -> bool:
        # Replaced per subclass by __init_subclass__; kept for type checkers and direct calls.
        try:
            return self.matches(other) is True
        except Exception:
            return False

    @final
    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = object.__hash__

    def __bool__(self) -> bool:
        raise TypeError(
            f"{self!r} has no truth value: a matcher in an `if` or `and` is almost always a bug; "
            "compare it with `==` (or call .matches(value))"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; build a new matcher instead")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; build a new matcher instead")

    def _set(self, **fields: Any) -> None:
        """Set ``fields``, past the immutability (a constructor's last step)."""
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setstate__(self, state: object) -> None:
        # Unpickling of subclasses that keep their state in attributes (the default protocol).
        for part in state if isinstance(state, tuple) else (state,):
            self._set(**(part or {}))

    def _constructor_args(self) -> ConstructorArgs | None:
        """Positional and non-default keyword arguments that rebuild this matcher.

        Drives ``repr`` and pickling; ``None`` means "use the default protocols".
        """
        return None

    def __reduce_ex__(self, protocol: Any) -> Any:
        arguments = self._constructor_args()
        if arguments is None:
            return super().__reduce_ex__(protocol)
        # A bound classmethod pickles as ``getattr(<its class>, "_rebuild")``: the pickle
        # names the public class only, never the module the class is defined in.
        return (type(self)._rebuild, arguments)

    @classmethod
    def _rebuild(cls, args: tuple[object, ...], kwargs: dict[str, object]) -> Matcher:
        return cls(*args, **kwargs)

    def __repr__(self) -> str:
        arguments = self._constructor_args()
        if arguments is None:
            return f"{type(self).__name__}()"
        args, kwargs = arguments
        parts = [safe_repr(arg) for arg in args]
        parts += [f"{key}={safe_repr(value)}" for key, value in kwargs.items()]
        return f"{type(self).__name__}({', '.join(parts)})"

    def describe_mismatch(self, actual: object) -> str:
        """One line saying why ``actual`` does not match (called only on a mismatch).

        >>> from toolmatch import Fuzzy
        >>> Fuzzy("206588").describe_mismatch(205000)
        "fuzzy '206588' does not match 205000"
        """
        return f"expected {self!r}, got {short_repr(actual)}"

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        """Every reason ``actual`` fails, each at its path; nothing when it matches.

        Structural matchers override this to report each failing key or item.

        >>> from toolmatch import Exact
        >>> [str(m) for m in Exact({"a": 1, "b": 2}).mismatches({"a": 2})]
        ['a: expected 1, got 2', 'b: missing']
        """
        if not self.__eq__(actual):
            yield Mismatch(path, self._safe_describe(actual))

    def explain(self, actual: object) -> str | None:
        """``None`` when ``actual`` matches, else one line saying what was expected and found.

        >>> from toolmatch import Fuzzy
        >>> print(Fuzzy("206588").explain("206,588"))
        None
        >>> Fuzzy("206588").explain(205000)
        "fuzzy '206588' does not match 205000"
        """
        found = self._found_mismatches(actual, "")
        return "; ".join(str(mismatch) for mismatch in found) if found else None

    def _found_mismatches(
        self, actual: object, path: str, known_mismatch: bool = False
    ) -> list[Mismatch]:
        """:meth:`mismatches` as a list, never empty on a mismatch and never raising;
        ``known_mismatch``: the caller found already that ``actual`` does not match."""
        if not known_mismatch and self.__eq__(actual):
            return []
        if type(self).mismatches is Matcher.mismatches:
            # The default would compare again only to find the one reason: a Regex that ran
            # out of time would run out twice.
            return [Mismatch(path, self._safe_describe(actual))]
        try:
            found = list(self.mismatches(actual, path))
        except Exception:  # a user matcher's mismatches() must not break the report
            found = []
        return found or [Mismatch(path, self._safe_describe(actual))]

    def _safe_describe(self, actual: object) -> str:
        try:
            return self.describe_mismatch(actual)
        except Exception:
            return f"expected {self!r}, got {short_repr(actual)}"

    def __and__(self, other: object) -> Matcher:
        from toolmatch._matchers.combinators import AllOf

        return AllOf(self, other)

    def __rand__(self, other: object) -> Matcher:
        from toolmatch._matchers.combinators import AllOf

        return AllOf(other, self)

    def __or__(self, other: object) -> Matcher:
        from toolmatch._matchers.combinators import AnyOf

        return AnyOf(self, other)

    def __ror__(self, other: object) -> Matcher:
        from toolmatch._matchers.combinators import AnyOf

        return AnyOf(other, self)

    def __invert__(self) -> Matcher:
        from toolmatch._matchers.combinators import Not

        return Not(self)


class ReasonedMatcher(Matcher, _trusted=True):
    """A matcher of one rule, ``_reason(actual)``: ``None`` when ``actual`` matches, else the
    mismatch's text, so the verdict and its explanation cannot disagree.

    >>> class IsEven(ReasonedMatcher):
    ...     def _reason(self, actual: object) -> str | None:
    ...         return None if actual % 2 == 0 else f"{actual} is odd"
    >>> IsEven() == 4, IsEven() == "x", IsEven().explain(3)
    (True, False, '3 is odd')
    """

    __slots__ = ()

    def _reason(self, actual: object) -> str | None:
        raise NotImplementedError

    def matches(self, actual: object) -> bool:
        try:
            return self._reason(actual) is None
        except Exception:  # an actual the rule cannot read does not match
            return False

    def describe_mismatch(self, actual: object) -> str:
        return self._reason(actual) or f"expected {self!r}, got {short_repr(actual)}"
