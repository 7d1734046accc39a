"""Every matcher inside a value: through dicts, lists and tuples, and through each
matcher's own constructor arguments (what rebuilds it is what it holds)."""

from __future__ import annotations

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = ["matchers_in"]


def matchers_in(value: object) -> Iterator[Matcher]:
    """Each matcher in ``value``, outer ones first, each object once (a shared one is
    walked once; a value nests no deeper than a spec may, so a stack walks it all).

    >>> from toolmatch import AllOf, Fuzzy, Gt, Partial
    >>> [type(m).__name__ for m in matchers_in({"a": [AllOf(Gt(1), Fuzzy("x"))], "b": Partial({})})]
    ['AllOf', 'Gt', 'Fuzzy', 'Partial']
    """
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        inside: list[object] = []
        if isinstance(item, Matcher):
            yield item
            made = item._constructor_args()
            if made is not None:
                inside += made[0]
                inside += made[1].values()
        elif isinstance(item, dict):
            inside += item.values()
        elif isinstance(item, (list, tuple)):
            inside += item
        stack.extend(reversed(inside))
