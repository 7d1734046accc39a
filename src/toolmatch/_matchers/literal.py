"""Literal equality (docs/semantics.md, with opt-in tolerances) and the structural engine.

Every expected value is compiled once, at construction, into a tree of small matchers
(numbers, strings, sequences, mappings...), so a comparison does no work on the
expected side and every node can explain its own mismatches.
"""

from __future__ import annotations

import numbers
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager

from toolmatch._core.describe import (
    LOG10_2,
    describe_found,
    join_path,
    safe_repr,
    short_repr,
    type_name,
)
from toolmatch._core.flags import check_flag
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import MAX_DEPTH, Matcher, Mismatch, is_instance, nesting_depth

if TYPE_CHECKING:
    from decimal import Decimal
    from fractions import Fraction
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs


__all__ = [
    "Delegating",
    "Literal",
    "MappingMatcher",
    "as_matcher",
    "building",
    "exact_equal",
    "is_bool",
    "is_exact",
    "is_number",
    "prints_as_value",
    "string_options",
    "text_of",
]

_MISSING: Any = object()


def is_bool(value: object) -> bool:
    """True for ``bool`` and numpy's bool scalars."""
    if value is True or value is False:
        return True
    kind = type(value)
    return kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")


def text_of(value: object) -> str | None:
    """A str's characters (whatever a subclass overrides), or ``None`` for anything else."""
    try:
        if type(value) is str:
            return value
        if isinstance(value, str):
            return str.__str__(value)
    except Exception:
        pass
    return None


def _is_decimal(value: object) -> bool:
    # A Decimal can only exist once its module is loaded, so there is no need to import it.
    decimal = sys.modules.get("decimal")
    return decimal is not None and isinstance(value, decimal.Decimal)


def is_number(value: object) -> bool:
    """True for real numbers compared by value: int, float, Decimal, Fraction, numpy; not bool."""
    kind = type(value)
    if kind is int or kind is float:
        return True
    try:  # a lazy proxy's __class__ may raise
        return (isinstance(value, numbers.Real) or _is_decimal(value)) and not isinstance(
            value, bool
        )
    except Exception:
        return False


def is_exact(value: object) -> bool:
    """True for numbers held exactly: ints, Fractions, Decimals (not floats)."""
    try:
        return isinstance(value, numbers.Rational) or _is_decimal(value)
    except Exception:
        return False


def _as_exact(value: Any) -> int | Fraction | Decimal:
    """An exact number as an int, a Fraction or (kept as it is) a Decimal."""
    if _is_decimal(value):
        return value  # type: ignore[no-any-return]
    if isinstance(value, numbers.Integral):
        return int(value)  # numpy ints too
    from fractions import Fraction  # rare path; keeps `import toolmatch` fast

    return Fraction(value.numerator, value.denominator)


def exact_equal(expected: object, actual: object) -> bool:
    """Whether two exact numbers (``is_exact``) are equal, exactly and in microseconds.

    A Decimal compares on its own exponent: ``Fraction(Decimal("1e99999999"))`` would first
    build a hundred-million-digit integer.

    >>> from decimal import Decimal
    >>> from fractions import Fraction
    >>> exact_equal(Decimal("1e99999999"), 42), exact_equal(Decimal("2.50"), Fraction(5, 2))
    (False, True)
    """
    left, right = _as_exact(expected), _as_exact(actual)
    if _is_decimal(right):
        left, right = right, left
    if not _is_decimal(left) or _is_decimal(right):
        return bool(left == right)  # ints and Fractions, or two Decimals: already exact and fast
    decimal: Decimal = left  # type: ignore[assignment]
    rational: int | Fraction = right  # type: ignore[assignment]
    if not decimal.is_finite():
        return bool(decimal == rational)  # NaN never equals, an infinity is not a Fraction
    if decimal.is_zero() or not rational:
        return decimal.is_zero() and not rational
    # Decimal == Fraction is exact, but scales the Decimal to the Fraction's denominator:
    # first rule out numbers whose magnitudes differ (adjusted() is floor(log10(|decimal|))).
    bits = abs(rational.numerator).bit_length() - rational.denominator.bit_length()
    if abs(decimal.adjusted() - bits * LOG10_2) > 2:
        return False
    return bool(decimal == rational)


def numbers_equal(expected: object, actual: object) -> bool:
    """Compare two numbers by value: exactly when both are exact, else as floats."""
    try:
        if not is_number(actual):
            return False
        if is_exact(expected) and is_exact(actual):
            return exact_equal(expected, actual)
        return float(expected) == float(actual)  # type: ignore[arg-type]
    except Exception:
        return False


class _Node(Matcher):
    """A compiled piece of an expected value; prints as the value it came from."""

    __slots__ = ("value", "trim_strings", "case_insensitive", "_depth")
    value: Any
    trim_strings: bool
    case_insensitive: bool

    def __init__(
        self, value: Any, trim_strings: bool = False, case_insensitive: bool = False
    ) -> None:
        self._set(
            value=value, trim_strings=trim_strings, case_insensitive=case_insensitive, _depth=1
        )

    def _constructor_args(self) -> ConstructorArgs:
        return (self.value, self.trim_strings, self.case_insensitive), {}

    def __repr__(self) -> str:
        options = string_options(self.trim_strings, self.case_insensitive)
        if options and _holds_text(self.value):
            keywords = "".join(f", {name}=True" for name in options)
            return f"Literal({safe_repr(self.value)}{keywords})"
        return safe_repr(self.value)

    def describe_mismatch(self, actual: object) -> str:
        return f"expected {short_repr(self.value)}, got {describe_found(self.value, actual)}"


def prints_as_value(matcher: Matcher) -> bool:
    """Whether ``matcher``'s repr is the plain value it compiles, not a matcher expression.

    >>> prints_as_value(as_matcher(1)), prints_as_value(as_matcher({"a": "x"}))
    (True, True)
    >>> prints_as_value(as_matcher("x", trim_strings=True)), prints_as_value(Literal(1))
    (False, False)
    """
    if type(matcher).__repr__ is not _Node.__repr__:
        return False
    node: Any = matcher
    return not (
        string_options(node.trim_strings, node.case_insensitive) and _holds_text(node.value)
    )


def string_options(trim_strings: bool, case_insensitive: bool) -> dict[str, object]:
    """The string options that are on, as keyword arguments (for reprs and pickling)."""
    flags = {"trim_strings": trim_strings, "case_insensitive": case_insensitive}
    return {name: True for name, on in flags.items() if on}


def _holds_text(value: object) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, Mapping):
        return any(_holds_text(item) for item in value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return any(_holds_text(item) for item in value)
    return False


class _Singleton(_Node, _trusted=True):
    """``None``, ``True`` or ``False``: only the same value matches (bools are strict)."""

    __slots__ = ()

    def matches(self, actual: object) -> bool:
        if actual is self.value:
            return True
        return self.value is not None and is_bool(actual) and bool(actual) is self.value


class _Number(_Node, _trusted=True):
    """A number, equal to any number of the same value (``1 == 1.0``); never to a bool."""

    __slots__ = ("_builtin",)
    _builtin: bool

    def __init__(
        self, value: Any, trim_strings: bool = False, case_insensitive: bool = False
    ) -> None:
        super().__init__(value, trim_strings, case_insensitive)
        self._set(_builtin=type(value) in (int, float))

    def matches(self, actual: object) -> bool:
        kind = type(actual)
        if (kind is int or kind is float) and self._builtin:
            return self.value == actual  # type: ignore[no-any-return]  # int/float: a bool
        return numbers_equal(self.value, actual)

    def describe_mismatch(self, actual: object) -> str:
        if isinstance(actual, bool):
            expected = short_repr(self.value)
            return f"expected {expected}, got {actual} (bool, which never equals a number)"
        return super().describe_mismatch(actual)


class _Text(_Node, _trusted=True):
    """A string: exact, or trimmed and/or case-folded when asked (values only, never keys)."""

    __slots__ = ("_normalized",)
    _normalized: str

    def __init__(
        self, value: Any, trim_strings: bool = False, case_insensitive: bool = False
    ) -> None:
        super().__init__(value, trim_strings, case_insensitive)
        self._set(_normalized=self._normalize(str.__str__(value)))

    def _normalize(self, text: str) -> str:
        if self.trim_strings:
            text = text.strip()
        if self.case_insensitive:
            text = text.casefold()
        return text

    def matches(self, actual: object) -> bool:
        if type(actual) is not str:
            if not is_instance(actual, str):
                return False
            actual = str.__str__(actual)  # the characters, whatever a subclass overrides
        if self.trim_strings or self.case_insensitive:
            actual = self._normalize(actual)
        return self._normalized == actual

    def describe_mismatch(self, actual: object) -> str:
        flags = (("trimmed", self.trim_strings), ("ignoring case", self.case_insensitive))
        how = [word for word, on in flags if on]
        qualifier = f" ({', '.join(how)})" if how else ""
        found = describe_found(self.value, actual)
        return f"expected {short_repr(self.value)}{qualifier}, got {found}"


class _Sequence(_Node, _trusted=True):
    """A list or tuple (interchangeable), compared item by item."""

    __slots__ = ("_items", "_checks")
    _items: tuple[Matcher, ...]
    _checks: tuple[Callable[[object], bool], ...]

    def __init__(
        self,
        value: Any,
        trim_strings: bool = False,
        case_insensitive: bool = False,
        children: tuple[Matcher, ...] | None = None,
    ) -> None:
        super().__init__(value, trim_strings, case_insensitive)
        if children is None:
            children = _compile_children(value, trim_strings, case_insensitive)
        self._set(
            _items=children,
            _checks=tuple(item.__eq__ for item in children),
            _depth=nesting_depth(children, value),
        )

    def matches(self, actual: object) -> bool:
        kind = type(actual)
        checks = self._checks
        try:  # a list subclass may raise from __len__ or __iter__, a proxy from isinstance
            if kind is not list and kind is not tuple and not isinstance(actual, (list, tuple)):
                return False
            if len(actual) != len(checks):  # type: ignore[arg-type]
                return False
            for check, item in zip(checks, actual, strict=False):  # type: ignore[call-overload]
                if not check(item):
                    return False
        except Exception:
            return False
        return True

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        if not is_instance(actual, (list, tuple)):
            yield Mismatch(path, f"expected a list, got {short_repr(actual)} ({type_name(actual)})")
            return
        try:
            items = list(actual)
        except Exception as error:
            yield Mismatch(path, f"could not be read as a list: {type(error).__name__}: {error}")
            return
        if len(items) != len(self._items):
            yield Mismatch(
                path,
                f"expected {len(self._items)} items, got {len(items)}: {short_repr(actual)}",
            )
            return
        for index, (matcher, item) in enumerate(zip(self._items, items, strict=True)):
            yield from matcher.mismatches(item, join_path(path, index))


class _Set(_Node, _trusted=True):
    """A set or frozenset: the same size, each element equal (by Literal rules) to one opposite."""

    __slots__ = ("_items",)
    _items: tuple[Matcher, ...]

    def __init__(
        self,
        value: Any,
        trim_strings: bool = False,
        case_insensitive: bool = False,
        children: tuple[Matcher, ...] | None = None,
    ) -> None:
        super().__init__(value, trim_strings, case_insensitive)
        if any(isinstance(item, Matcher) for item in value):
            raise TypeError(
                f"a matcher inside a set cannot be paired with an element: {short_repr(value)}; "
                "use a list, or Contains(...) for membership"
            )
        if children is None:
            children = _compile_children(value, trim_strings, case_insensitive)
        self._set(_items=children, _depth=nesting_depth(children, value))

    def matches(self, actual: object) -> bool:
        try:  # a set subclass may raise from __len__ or __iter__, a proxy from isinstance
            if not isinstance(actual, (set, frozenset)):
                return False
            found = list(actual)
        except Exception:
            return False
        if len(found) != len(self._items):
            return False
        return all(any(item.__eq__(element) for element in found) for item in self._items) and all(
            any(item.__eq__(element) for item in self._items) for element in found
        )


class _Object(_Node, _trusted=True):
    """Any other value: its own ``__eq__`` decides, called from the expected side."""

    __slots__ = ()

    def matches(self, actual: object) -> bool:
        try:
            result = type(self.value).__eq__(self.value, actual)  # type: ignore[call-arg]
            return result is not NotImplemented and bool(result)
        except Exception:
            return False


class MappingMatcher(Matcher, _trusted=True):
    """The mapping engine behind Literal dicts, ``Partial`` and ``Exact``.

    Each expected key is required, optional (``Maybe``) or forbidden (``Absent``);
    with ``exact`` the actual mapping may hold no other keys.
    """

    __slots__ = (
        "mapping",
        "trim_strings",
        "case_insensitive",
        "_exact",
        "_required",
        "_top_paths",
        "_optional",
        "_forbidden",
        "_strip",
        "_depth",
    )
    mapping: Mapping[Any, Any]
    trim_strings: bool
    case_insensitive: bool
    _exact: bool
    _required: tuple[tuple[Any, Matcher, Callable[[object], bool]], ...]
    _top_paths: dict[Any, str]
    _optional: tuple[tuple[Any, Matcher, Callable[[object], bool]], ...]
    _forbidden: tuple[Any, ...]
    _strip: Callable[[Any], Any] | None  # leaves out ignored keys (Partial's ignore=)

    def __init__(
        self,
        mapping: Mapping[Any, Any],
        *,
        exact: bool,
        trim_strings: bool = False,
        case_insensitive: bool = False,
        children: tuple[Matcher, ...] | None = None,
    ) -> None:
        if not is_instance(mapping, Mapping):
            raise TypeError(
                f"{type(self).__name__} needs a dict of expected arguments, got "
                f"{short_repr(mapping)} ({type_name(mapping)})"
            )
        check_flag(trim_strings, "trim_strings")
        check_flag(case_insensitive, "case_insensitive")
        if children is None:
            with building(mapping):
                children = _compile_children(mapping.values(), trim_strings, case_insensitive)
        depth = nesting_depth(children, mapping)
        required: list[tuple[Any, Matcher, Callable[[object], bool]]] = []
        optional: list[tuple[Any, Matcher, Callable[[object], bool]]] = []
        forbidden: list[Any] = []
        for key, matcher in zip(mapping, children, strict=True):
            presence = matcher._key_presence
            if presence == "forbidden":
                forbidden.append(key)
            else:
                entry = (key, matcher, matcher.__eq__)
                (optional if presence == "optional" else required).append(entry)
        self._set(
            mapping=mapping,
            trim_strings=trim_strings,
            case_insensitive=case_insensitive,
            _exact=exact,
            _required=tuple(required),
            # Each key's path when the mapping is the value explained (the most asked for).
            _top_paths={key: join_path("", key) for key in mapping},
            _optional=tuple(optional),
            _forbidden=tuple(forbidden),
            _strip=None,
            _depth=depth,
        )

    def matches(self, actual: Any) -> bool:
        try:  # a hostile mapping may raise anywhere, a proxy from isinstance
            if type(actual) is not dict and not isinstance(actual, Mapping):
                return False
            if self._strip is not None:
                actual = self._strip(actual)  # a plain dict
            for key, _, check in self._required:
                value = actual.get(key, _MISSING)
                if value is _MISSING or not check(value):
                    return False
            present = len(self._required)
            for key, _, check in self._optional:
                value = actual.get(key, _MISSING)
                if value is not _MISSING:
                    if not check(value):
                        return False
                    present += 1
            for key in self._forbidden:
                if key in actual:
                    return False
            return not self._exact or len(actual) == present
        except Exception:
            return False

    def mismatches(self, actual: Any, path: str = "") -> Iterator[Mismatch]:
        if not is_instance(actual, Mapping):
            yield Mismatch(path, f"expected a dict, got {short_repr(actual)} ({type_name(actual)})")
            return
        try:
            if self._strip is not None:
                actual = self._strip(actual)
            yield from self._value_mismatches(actual, path)
            yield from self._key_mismatches(actual, path)
        except Exception as error:
            yield Mismatch(path, f"could not be read as a dict: {type(error).__name__}: {error}")

    def _where(self, path: str, key: object) -> str:
        """The path of ``key`` under ``path`` (at the top, the path made when built)."""
        return join_path(path, key) if path else self._top_paths[key]

    def _value_mismatches(self, actual: Any, path: str) -> Iterator[Mismatch]:
        """Each required key missing, and each key present whose value does not match."""
        for key, matcher, _ in self._required:
            value = actual.get(key, _MISSING)
            if value is _MISSING:
                yield Mismatch(self._where(path, key), "missing")
            else:
                yield from matcher.mismatches(value, self._where(path, key))
        for key, matcher, _ in self._optional:
            value = actual.get(key, _MISSING)
            if value is not _MISSING:
                yield from matcher.mismatches(value, self._where(path, key))

    def _key_mismatches(self, actual: Any, path: str) -> Iterator[Mismatch]:
        """Each key that must be absent and is present; with ``exact``, each key not
        expected."""
        for key in self._forbidden:
            if key in actual:
                found = short_repr(actual[key])
                yield Mismatch(self._where(path, key), f"expected absent, got {found}")
        if self._exact:
            for key in actual:
                if key not in self.mapping:
                    found = short_repr(actual[key])
                    yield Mismatch(join_path(path, key), f"unexpected key, with value {found}")


class _Mapping(MappingMatcher, _trusted=True):
    """A dict inside a Literal: the same keys (``Maybe``, ``Absent`` honoured), Literal values."""

    __slots__ = ()

    def __init__(
        self,
        value: Any,
        trim_strings: bool = False,
        case_insensitive: bool = False,
        children: tuple[Matcher, ...] | None = None,
    ) -> None:
        super().__init__(
            value,
            exact=True,
            trim_strings=trim_strings,
            case_insensitive=case_insensitive,
            children=children,
        )

    def _constructor_args(self) -> ConstructorArgs:
        return (self.mapping, self.trim_strings, self.case_insensitive), {}

    __repr__ = _Node.__repr__

    @property
    def value(self) -> Mapping[Any, Any]:
        return self.mapping


def as_matcher(
    value: object, *, trim_strings: bool = False, case_insensitive: bool = False
) -> Matcher:
    """``value`` itself if it is a matcher, else a matcher with Literal semantics for it.

    >>> as_matcher(1) == 1.0, as_matcher(True) == 1
    (True, False)
    """
    with building(value):
        return _compile(value, trim_strings, case_insensitive, set())


@contextmanager
def building(value: object) -> Iterator[None]:
    """Turn a foreign exception raised while compiling ``value`` into a ``TypeError``.

    Constructors raise only TypeError and ValueError: a hostile expected value (a mapping
    whose iteration raises, a proxy whose ``__class__`` does) is named in the message.
    """
    try:
        yield
    except (TypeError, ValueError, MemoryError):
        raise
    except Exception as error:
        raise TypeError(
            f"cannot build a matcher from {short_repr(value)}: {type(error).__name__}: {error}"
        ) from None


def _compile_children(
    values: Iterable[object], trim: bool, fold: bool, open_containers: set[int] | None = None
) -> tuple[Matcher, ...]:
    seen = set() if open_containers is None else open_containers
    return tuple(_compile(value, trim, fold, seen) for value in values)


def _compile(value: object, trim: bool, fold: bool, open_containers: set[int]) -> Matcher:
    if isinstance(value, Matcher):
        return value
    if value is None or isinstance(value, bool):
        return _Singleton(value)
    if is_bool(value):  # numpy's bool: as strict as Python's
        return _Singleton(bool(value))
    if is_number(value):
        return _Number(value)
    if isinstance(value, str):
        return _Text(value, trim, fold)
    if not isinstance(value, (Mapping, list, tuple, set, frozenset)):
        return _Object(value)
    return _compile_container(value, trim, fold, open_containers)


def _compile_container(
    value: Mapping[Any, Any] | list[Any] | tuple[Any, ...] | set[Any] | frozenset[Any],
    trim: bool,
    fold: bool,
    open_containers: set[int],
) -> Matcher:
    """A mapping, list, tuple or set compiled, its items too; refusing one inside itself,
    or nested deeper than a value may be."""
    if id(value) in open_containers:
        raise ValueError(f"the expected value contains itself: {short_repr(value)}")
    if len(open_containers) >= MAX_DEPTH:  # the containers open around value: its depth
        raise ValueError(
            f"the expected value is nested more than {MAX_DEPTH} levels deep: {short_repr(value)}"
        )
    open_containers.add(id(value))
    try:
        if isinstance(value, Mapping):
            children = _compile_children(value.values(), trim, fold, open_containers)
            return _Mapping(value, trim, fold, children)
        children = _compile_children(value, trim, fold, open_containers)
        node = _Set if isinstance(value, (set, frozenset)) else _Sequence
        return node(value, trim, fold, children)
    finally:
        open_containers.discard(id(value))


class Delegating(Matcher, _trusted=True):
    """A matcher that matches and explains exactly as an inner matcher does."""

    __slots__ = ("_inner", "_check", "_depth")
    _inner: Matcher
    _check: Callable[[object], bool]

    def __init__(self, inner: Matcher) -> None:
        self._set(_depth=nesting_depth((inner,), inner), _inner=inner, _check=inner.__eq__)

    def matches(self, actual: object) -> bool:
        return self._check(actual)

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        return self._inner.mismatches(actual, path)

    def describe_mismatch(self, actual: object) -> str:
        return self._inner.describe_mismatch(actual)


@public
class Literal(Delegating, _trusted=True):
    """Equality by value, recursively (docs/semantics.md), with Dokimos's opt-in tolerances.

    Numbers compare by value (``1 == 1.0``, Decimal and numpy too), bools only equal
    bools, ``None`` only ``None``, strings exactly, dicts need the same keys, lists and
    tuples are interchangeable. A matcher nested anywhere inside is honoured.
    ``trim_strings`` and ``case_insensitive`` apply to string values at any depth, never keys.

    >>> Literal({"ids": [1, 2], "ok": True}) == {"ids": [1.0, 2.0], "ok": True}
    True
    >>> Literal([True]) == [1]
    False
    >>> Literal({"city": "paris"}, case_insensitive=True) == {"city": "Paris"}
    True
    >>> Literal({"a": 206588, "b": "x"}).explain({"a": 206000, "b": "x"})
    'a: expected 206588, got 206000'
    """

    __slots__ = ("value", "trim_strings", "case_insensitive")
    value: Any
    trim_strings: bool
    case_insensitive: bool

    def __init__(
        self, value: object, *, trim_strings: bool = False, case_insensitive: bool = False
    ) -> None:
        check_flag(trim_strings, "trim_strings")
        check_flag(case_insensitive, "case_insensitive")
        super().__init__(
            as_matcher(value, trim_strings=trim_strings, case_insensitive=case_insensitive)
        )
        self._set(value=value, trim_strings=trim_strings, case_insensitive=case_insensitive)

    def _constructor_args(self) -> ConstructorArgs:
        return (self.value,), string_options(self.trim_strings, self.case_insensitive)
