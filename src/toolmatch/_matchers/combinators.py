"""Boolean composition of matchers: ``AllOf`` (``&``), ``AnyOf`` (``|``) and ``Not`` (``~``)."""

from __future__ import annotations

from collections.abc import Iterator

from toolmatch._core.describe import short_repr
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch, nesting_depth
from toolmatch._matchers.literal import as_matcher, prints_as_value

if TYPE_CHECKING:
    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["AllOf", "AnyOf", "Not"]


def _operand_repr(matcher: Matcher) -> str:
    # Nested chains are parenthesized so that A & (B | C) and (A & B) | C print differently.
    text = repr(matcher)
    return f"({text})" if isinstance(matcher, _Chain) and matcher._as_operators() else text


class _Chain(Matcher):
    __slots__ = ("matchers", "_depth")
    matchers: tuple[Matcher, ...]
    _operator = ""

    def __init__(self, *matchers: object) -> None:
        if not matchers:
            raise ValueError(f"{type(self).__name__}() needs at least one matcher")
        flat: list[Matcher] = []
        for item in matchers:
            # Chains of the same kind flatten: (a & b) & c is AllOf(a, b, c).
            if type(item) is type(self):
                flat.extend(item.matchers)
            else:
                flat.append(as_matcher(item))
        self._set(_depth=nesting_depth(flat, matchers), matchers=tuple(flat))

    def _constructor_args(self) -> ConstructorArgs:
        return self.matchers, {}

    def _as_operators(self) -> bool:
        # `1 | 2` would evaluate to 3: the operators build this chain only when Python hands
        # the first one to a matcher, that is when the first operand prints as a matcher.
        return len(self.matchers) > 1 and not prints_as_value(self.matchers[0])

    def __repr__(self) -> str:
        if not self._as_operators():
            return super().__repr__()
        return f" {self._operator} ".join(_operand_repr(m) for m in self.matchers)


@public
class AllOf(_Chain, _trusted=True):
    """Matches when every matcher matches; ``a & b`` builds one.

    >>> from toolmatch import IsType, Regex
    >>> IsType(str) & Regex("[a-z]+") == "paris"
    True
    >>> (IsType(str) & Regex("[a-z]+")).explain("Paris")
    "regex '[a-z]+' does not match 'Paris'"
    """

    __slots__ = ()
    _operator = "&"

    def matches(self, actual: object) -> bool:
        for matcher in self.matchers:
            if not matcher.__eq__(actual):
                return False
        return True

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        for matcher in self.matchers:
            yield from matcher.mismatches(actual, path)

    def _accepts_everything(self) -> bool:
        return all(matcher._accepts_everything() for matcher in self.matchers)

    def _accepts_nothing(self) -> bool:
        return any(matcher._accepts_nothing() for matcher in self.matchers)


@public
class AnyOf(_Chain, _trusted=True):
    """Matches when at least one matcher matches; ``a | b`` builds one.

    Plain values become :class:`Literal`, so ``Regex("[0-9]+") | None`` works.

    >>> from toolmatch import Regex
    >>> None == (Regex("[0-9]+") | None)
    True
    >>> (Regex("[0-9]+") | None).explain("abc")
    "none matched: regex '[0-9]+' does not match 'abc'; expected None, got 'abc'"
    """

    __slots__ = ()
    _operator = "|"

    def matches(self, actual: object) -> bool:
        for matcher in self.matchers:
            if matcher.__eq__(actual):
                return True
        return False

    def _accepts_everything(self) -> bool:
        return any(matcher._accepts_everything() for matcher in self.matchers)

    def _accepts_nothing(self) -> bool:
        return all(matcher._accepts_nothing() for matcher in self.matchers)

    def describe_mismatch(self, actual: object) -> str:
        reasons = [matcher.explain(actual) for matcher in self.matchers]
        return "none matched: " + "; ".join(reason for reason in reasons if reason)


@public
class Not(Matcher, _trusted=True):
    """Matches exactly what ``matcher`` does not; ``~matcher`` builds one.

    >>> from toolmatch import Regex
    >>> "DROP TABLE users" == ~Regex("(?i).*drop table.*")
    False
    >>> (~Regex("(?i).*drop table.*")).explain("DROP TABLE users")
    "expected anything but Regex('(?i).*drop table.*'), got 'DROP TABLE users'"
    """

    __slots__ = ("matcher", "_depth")
    matcher: Matcher

    def __init__(self, matcher: object) -> None:
        inner = as_matcher(matcher)
        self._set(_depth=nesting_depth((inner,), matcher), matcher=inner)

    def matches(self, actual: object) -> bool:
        return not self.matcher.__eq__(actual)

    def describe_mismatch(self, actual: object) -> str:
        return f"expected anything but {self.matcher!r}, got {short_repr(actual)}"

    def _accepts_everything(self) -> bool:
        return self.matcher._accepts_nothing()

    def _accepts_nothing(self) -> bool:
        return self.matcher._accepts_everything()

    def _constructor_args(self) -> ConstructorArgs:
        return (self.matcher,), {}

    def __repr__(self) -> str:
        if prints_as_value(self.matcher):
            return super().__repr__()  # ~1 is -2, not a matcher
        return f"~{_operand_repr(self.matcher)}"
