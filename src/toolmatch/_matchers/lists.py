"""Lists: ``Unordered``, ``ContainsAll``, ``Each`` and ``Len``.

Items that are matchers are paired with the actual items by the optimal assignment that
pairs expected tools with calls (``assign_distinct`` of ``toolmatch._core.pairing``), so a
greedy first pick never hides a pairing that works.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from toolmatch._core.describe import join_path, short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch, is_instance, nesting_depth
from toolmatch._matchers.literal import as_matcher

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, ClassVar

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["ContainsAll", "Each", "Len", "Unordered"]


def _items(owner: str, items: object) -> tuple[object, ...]:
    if not is_instance(items, (list, tuple)):
        raise TypeError(
            f"{owner} needs a list of expected items, got {short_repr(items)} ({type_name(items)})"
        )
    return tuple(items)


def _as_list(actual: Any) -> list[object] | None:
    """The items of a list or tuple, or ``None`` for anything else (or one that cannot be read)."""
    try:
        kind = type(actual)
        if kind is list or kind is tuple or isinstance(actual, (list, tuple)):
            return list(actual)
    except Exception:
        pass
    return None


def _not_a_list(actual: object) -> str:
    return f"expected a list, got {short_repr(actual)} ({type_name(actual)})"


class _Paired(Matcher):
    """Expected items paired one to one with distinct actual items."""

    __slots__ = ("items", "_matchers", "_checks", "_depth")
    items: tuple[object, ...]
    _matchers: tuple[Matcher, ...]
    _checks: tuple[Callable[[object], bool], ...]
    # Whether every actual item must be paired (Unordered), not only the expected ones.
    _every_item: ClassVar[bool] = False

    def __init__(self, items: Sequence[object]) -> None:
        values = _items(type(self).__name__, items)
        matchers = tuple(as_matcher(item) for item in values)
        self._set(
            _depth=nesting_depth(matchers, items),
            items=values,
            _matchers=matchers,
            _checks=tuple(matcher.__eq__ for matcher in matchers),
        )

    def _paired(self, found: list[object]) -> bool:
        """Whether every expected item gets an actual item of its own."""
        # A pairing found greedily proves the match; only when greedy fails can a better
        # assignment exist, and only then is every pair compared.
        free = list(range(len(found)))
        for check in self._checks:
            for place, index in enumerate(free):
                if check(found[index]):
                    del free[place]
                    break
            else:
                return all(self._pairs(found))
        return True

    def _pairs(self, found: list[object]) -> list[list[int]]:
        from toolmatch._core.pairing import assign_distinct  # here: `import toolmatch` stays fast

        candidates = [
            [index for index, item in enumerate(found) if check(item)] for check in self._checks
        ]
        return assign_distinct([1] * len(candidates), candidates)

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        found = _as_list(actual)
        if found is None:
            yield Mismatch(path, _not_a_list(actual))
        elif self._every_item and len(found) != len(self._checks):
            yield Mismatch(
                path,
                f"expected {len(self._checks)} items in any order, got {len(found)}: "
                f"{short_repr(actual)}",
            )
        else:
            yield from self._unpaired(found, path)

    def _unpaired(self, found: list[object], path: str) -> Iterator[Mismatch]:
        pairs = self._pairs(found)
        left = [self._matchers[i] for i, got in enumerate(pairs) if not got]
        for matcher in left:
            yield Mismatch(path, f"no item left for expected {matcher!r}")
        if isinstance(self, Unordered) and left:
            taken = {got[0] for got in pairs if got}
            for index, item in enumerate(found):
                if index not in taken:
                    yield Mismatch(
                        join_path(path, index), f"no expected item left for {short_repr(item)}"
                    )

    def _constructor_args(self) -> ConstructorArgs:
        return (list(self.items),), {}


@public
class Unordered(_Paired, _trusted=True):
    """The same items in any order: each expected item paired with its own actual item.

    Items may be matchers; the pairing is optimal, so a broad matcher does not take the
    item a narrow one needs. Plain items follow :class:`Literal` rules.

    >>> from toolmatch import Regex
    >>> Unordered([Regex("a.*"), "ab"]) == ["ab", "ac"]
    True
    >>> print(Unordered(["a@x.io", "b@x.io"]).explain(["a@x.io", "c@x.io"]))
    no item left for expected 'b@x.io'; [1]: no expected item left for 'c@x.io'
    """

    __slots__ = ("_texts", "_kinds")
    _every_item = True
    _texts: list[str] | None
    _kinds: list[type]  # str for each item

    def __init__(self, items: Sequence[object]) -> None:
        super().__init__(items)
        # Plain strings equal only the same characters: then the items match in some order
        # exactly when the sorted characters are equal, with no pairing to search for.
        plain = all(type(item) is str for item in self.items)
        self._set(_texts=sorted(self.items) if plain else None, _kinds=[str] * len(self.items))

    def matches(self, actual: Any) -> bool:
        texts = self._texts
        try:
            kind = type(actual)
            # Exact strs sort and compare by their characters (a subclass may not).
            if (
                texts is not None
                and (kind is list or kind is tuple)
                and [*map(type, actual)] == self._kinds
            ):
                return sorted(actual) == texts
            found = _as_list(actual)
            if found is None or len(found) != len(self._checks):
                return False
            return self._paired(found)
        except Exception:
            return False


@public
class ContainsAll(_Paired, _trusted=True):
    """Every expected item is in the list, each paired with its own item; others may be there.

    >>> ContainsAll(["b", "a"]) == ["a", "x", "b"], ContainsAll(["a", "a"]) == ["a", "b"]
    (True, False)
    >>> ContainsAll(["a", "c"]).explain(["a", "b"])
    "no item left for expected 'c'"
    """

    __slots__ = ()

    def matches(self, actual: object) -> bool:
        found = _as_list(actual)
        if found is None or len(found) < len(self._checks):
            return False
        try:
            return self._paired(found)
        except Exception:
            return False


@public
class Each(Matcher, _trusted=True):
    """A list or tuple whose every item matches ``matcher``; an empty list matches.

    >>> from toolmatch import Regex
    >>> Each(Regex(".+@x[.]io")) == ["a@x.io", "b@x.io"], Each(1) == []
    (True, True)
    >>> Each(Regex(".+@x[.]io")).explain(["a@x.io", "b@y.io"])
    "[1]: regex '.+@x[.]io' does not match 'b@y.io'"
    """

    __slots__ = ("matcher", "_check", "_depth")
    matcher: Matcher
    _check: Callable[[object], bool]

    def __init__(self, matcher: object) -> None:
        inner = as_matcher(matcher)
        self._set(_depth=nesting_depth((inner,), matcher), matcher=inner, _check=inner.__eq__)

    def matches(self, actual: object) -> bool:
        found = _as_list(actual)
        if found is None:
            return False
        check = self._check
        for item in found:
            if not check(item):
                return False
        return True

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        found = _as_list(actual)
        if found is None:
            yield Mismatch(path, _not_a_list(actual))
            return
        for index, item in enumerate(found):
            yield from self.matcher._found_mismatches(item, join_path(path, index))

    def _constructor_args(self) -> ConstructorArgs:
        return (self.matcher,), {}


def _length(actual: object) -> int | None:
    try:
        if isinstance(actual, (list, tuple, str, Mapping)):
            return len(actual)
    except Exception:
        pass
    return None


@public
class Len(Matcher, _trusted=True):
    """A list, tuple, str or dict whose length is ``length`` (an int, or a matcher of ints).

    >>> from toolmatch import Between
    >>> Len(2) == ["a", "b"], Len(Between(1, 3)) == "abcd", Len(0) == {}
    (True, False, True)
    >>> Len(Between(1, 3)).explain("abcd")
    'length 4: expected a number from 1 to 3, got 4'
    """

    __slots__ = ("length", "_inner", "_depth")
    length: Any
    _inner: Matcher

    def __init__(self, length: object) -> None:
        if not isinstance(length, Matcher):
            if isinstance(length, bool) or not isinstance(length, int):
                raise TypeError(
                    f"Len needs an int or a matcher, got {short_repr(length)} ({type_name(length)})"
                )
            if length < 0:
                raise ValueError(f"Len needs a length of 0 or more, got {length}")
        inner = as_matcher(length)
        self._set(_depth=nesting_depth((inner,), length), length=length, _inner=inner)

    def matches(self, actual: object) -> bool:
        size = _length(actual)
        return size is not None and self._inner.__eq__(size)

    def describe_mismatch(self, actual: object) -> str:
        size = _length(actual)
        if size is None:
            return (
                f"expected a list, tuple, str or dict of length {short_repr(self.length)}, "
                f"got {short_repr(actual)} ({type_name(actual)})"
            )
        if not isinstance(self.length, Matcher):
            return f"expected length {self.length}, got {size}: {short_repr(actual)}"
        return f"length {size}: {self._inner.explain(size)}"

    def _constructor_args(self) -> ConstructorArgs:
        return (self.length,), {}
