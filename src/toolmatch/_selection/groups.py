"""Partial order in a turn: the groups ``InOrder`` and ``AnyOrder``, the ``id`` / ``before`` /
``after`` constraints between expectations, and the order they make, checked once
(docs/selection.md#partial-order-groups-before-and-after).

A turn's items are flattened into its expectations (each check keeps its place in that
list); the order becomes, for each expectation, the expectations whose calls must all
come before its own. The turn engine judges that with :func:`assign_partial_order`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._selection.expectation import ExpectedItem, ExpectedTool
from toolmatch._selection.reasons import order_label
from toolmatch._selection.validation import list_of

__all__ = [
    "AnyOrder",
    "InOrder",
    "OrderPlan",
    "expectations_in",
    "item_paths",
    "order_plan",
    "order_problems",
    "turn_items",
]

MAX_DEPTH = 3
"""How deep groups nest (``InOrder`` > ``AnyOrder`` > ``InOrder``): past that, say it with ids."""


class _Group(ExpectedItem):
    """Items met in order (:class:`InOrder`) or in any order (:class:`AnyOrder`)."""

    __slots__ = ("items",)
    __hash__ = None  # type: ignore[assignment]  # matchers hash by identity; so would a group
    items: tuple[ExpectedTool | _Group, ...]
    key = ""  # its spec key and the word of its places: in_order, any_order

    def __init__(self, *items: ExpectedTool | _Group) -> None:
        kind = type(self).__name__
        if len(items) < 2:
            raise ValueError(
                f"{kind} needs at least two items to order, got {len(items)}; write a single "
                "expectation as itself"
            )
        for number, item in enumerate(items):
            if type(item) is type(self):
                raise ValueError(
                    f"{kind} item {number} is an {kind} too: one inside another is the same "
                    f"group; list its items in the outer {kind}"
                )
            if not isinstance(item, (ExpectedTool, _Group)):
                other = "AnyOrder" if isinstance(self, InOrder) else "InOrder"
                raise TypeError(
                    f"{kind} item {number} must be an ExpectedTool or an {other}, got "
                    f"{short_repr(item)} ({type_name(item)})"
                )
            if isinstance(item, ExpectedTool) and item.count == 0 and not item.optional:
                raise ValueError(
                    f"{kind} item {number} is {item!r}: a never or a cap has no place in an "
                    "order; list it beside the groups (optional=True makes a step that may be "
                    "left out)"
                )
        if _depth(items) >= MAX_DEPTH:
            raise ValueError(
                f"groups nest at most {MAX_DEPTH} deep (InOrder > AnyOrder > InOrder); for a "
                "finer order, give the expectations ids and write before/after"
            )
        object.__setattr__(self, "items", tuple(items))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        # As results compare expectations: by what their repr shows (an ExpectedTool's ==
        # reads the other side as calls).
        if type(other) is not type(self):
            return NotImplemented
        return repr(self) == repr(other)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(repr(item) for item in self.items)})"

    def __reduce__(self) -> tuple[type[_Group], tuple[ExpectedTool | _Group, ...]]:
        return (type(self), self.items)


def _depth(items: Sequence[object]) -> int:
    """How many groups deep ``items`` reach below the group holding them."""
    return max((1 + _depth(item.items) for item in items if isinstance(item, _Group)), default=0)


@public
class InOrder(_Group):
    """Items met one after the other: every call of an item comes before every call of the
    next. An item is an :class:`ExpectedTool` or an :class:`AnyOrder`; an ``InOrder`` is an
    item of a turn's expected list (docs/selection.md).

    >>> from toolmatch import ExpectedTool, check_turn
    >>> steps = InOrder(ExpectedTool("login"), AnyOrder(ExpectedTool("a"), ExpectedTool("b")))
    >>> check_turn([steps], [{"name": "login"}, {"name": "b"}, {"name": "a"}]).passed
    True
    >>> check_turn([steps], [{"name": "b"}, {"name": "login"}, {"name": "a"}]).first_failure()
    'expectation 2: b (call 0) comes before login (call 1); it must come after'
    """

    __slots__ = ()
    key = "in_order"


@public
class AnyOrder(_Group):
    """Items met in any order, each by calls of its own. An item is an
    :class:`ExpectedTool` or an :class:`InOrder` (a sequence inside the group).

    >>> from toolmatch import ExpectedTool, check_turn
    >>> either = AnyOrder(InOrder(ExpectedTool("a"), ExpectedTool("b")), ExpectedTool("c"))
    >>> check_turn([either], [{"name": "c"}, {"name": "a"}, {"name": "b"}]).passed
    True
    """

    __slots__ = ()
    key = "any_order"


Item = ExpectedTool | InOrder | AnyOrder


def turn_items(expected: object, where: str = "expected") -> list[Item]:
    """A turn's expected list as given: items ``ExpectedTool``, ``InOrder`` or ``AnyOrder``."""
    listed = "ExpectedTool (or InOrder / AnyOrder groups)"
    each = "an ExpectedTool, InOrder or AnyOrder"
    return list_of(expected, (ExpectedTool, InOrder, AnyOrder), where, listed, each)


class OrderPlan:
    """A turn's expectations flattened, their places, and the order between them."""

    __slots__ = ("expectations", "places", "after", "nevers", "problems", "where")

    def __init__(self, items: Sequence[Item], ordered: bool, where: str) -> None:
        self.where = where  # what the messages call the turn's list
        self.expectations: list[ExpectedTool] = []
        self.places: list[str] = []  # each expectation's place below the list: [3].in_order[1]
        # after[j]: the expectations whose calls all come before j's; None: no partial order.
        self.after: list[list[int]] | None = None
        # Each never with after / before: (its number, "after" or "before", the other's number).
        self.nevers: list[tuple[int, str, int]] = []
        self.problems: list[tuple[str, str]] = []
        grouped = any(isinstance(item, _Group) for item in items)
        top = _flatten(items, "", self.expectations, self.places)
        constrained = any(
            (tool.before or tool.after) and not tool.is_never for tool in self.expectations
        )
        ids = self._ids()
        after: list[list[int]] = [[] for _ in self.expectations]
        self._constraints(ids, after)
        if not grouped and not constrained:
            self._placeless(ordered, after)
            return
        _edges(InOrder if ordered else AnyOrder, top, after)
        if not self.problems:
            self._cycle(after)
        self._placeless(False, after)
        self.after = after

    def _placeless(self, ordered: bool, after: list[list[int]]) -> None:
        """An optional step without a cap and without a place asserts nothing: a problem."""
        if ordered:
            return
        named = {other for earlier in after for other in earlier}
        for number, tool in enumerate(self.expectations):
            placed = after[number] or number in named
            if tool.optional and tool.max_count is None and not placed:
                self.problems.append(
                    (
                        self.places[number],
                        f"{tool!r} has no place in an order, so it asserts nothing: put it in an "
                        "in_order group or an ordered turn, give it before / after, or a "
                        "max_count",
                    )
                )

    def _ids(self) -> dict[str, int]:
        """Each id and the expectation it names; one named twice is a problem."""
        ids: dict[str, int] = {}
        for number, tool in enumerate(self.expectations):
            if tool.id is None:
                continue
            if tool.id in ids:
                self.problems.append(
                    (
                        f"{self.places[number]}.id",
                        f"{tool.id!r} is the id of {self.where}{self.places[ids[tool.id]]} too; "
                        "ids in a turn must differ",
                    )
                )
            else:
                ids[tool.id] = number
        return ids

    def _constraints(self, ids: dict[str, int], after: list[list[int]]) -> None:
        for number, tool in enumerate(self.expectations):
            for key, named in (("after", tool.after), ("before", tool.before)):
                for index, name in enumerate(named):
                    other = ids.get(name)
                    if other is None:
                        known = ", ".join(repr(one) for one in ids) or "none"
                        self.problems.append(
                            (
                                f"{self.places[number]}.{key}[{index}]",
                                f"no expectation in the turn has the id {name!r} (ids: {known})",
                            )
                        )
                    elif tool.is_never:
                        self.nevers.append((number, key, other))
                    elif key == "after":
                        after[number].append(other)
                    else:
                        after[other].append(number)

    def _cycle(self, after: list[list[int]]) -> None:
        """A cycle of constraints, if there is one, as a problem at its first expectation."""
        found = _find_cycle(after)
        if found is None:
            return
        # found runs from each expectation to one that must come before it. Reversed, each
        # comes before the next; told from the first in the turn.
        chain = found[::-1]
        start = chain.index(min(chain))
        chain = chain[start:] + chain[:start]
        names = " before ".join(self.label(one) for one in [*chain, chain[0]])
        problem = f"the order constraints form a cycle: {names}"
        self.problems.append((self.places[chain[0]], problem))

    def label(self, number: int) -> str:
        return order_label(self.expectations[number])

    def raise_first(self, where: str) -> None:
        if self.problems:
            place, problem = self.problems[0]
            raise ValueError(f"{where}{place}: {problem}")


def _find_cycle(after: list[list[int]]) -> list[int] | None:
    """The first cycle of a depth-first search along ``after``, each number followed by one
    of its ``after`` (``None`` without one). Iterative: a chain of thousands of links
    would exceed Python's recursion limit.

    >>> _find_cycle([[1], [2], [0]]), _find_cycle([[], [0], [0, 1]])
    ([0, 1, 2], None)
    """
    state = [0] * len(after)  # 0: not seen, 1: on the path, 2: done
    for first in range(len(after)):
        if state[first]:
            continue
        state[first] = 1
        path = [first]
        next_edge = [0]  # for each number on the path, the next of its edges to follow
        while path:
            number, edge = path[-1], next_edge[-1]
            if edge == len(after[number]):
                state[number] = 2
                path.pop()
                next_edge.pop()
                continue
            next_edge[-1] += 1
            earlier = after[number][edge]
            if state[earlier] == 1:
                return path[path.index(earlier) :]
            if state[earlier] == 0:
                state[earlier] = 1
                path.append(earlier)
                next_edge.append(0)
    return None


def _flatten(
    items: Sequence[ExpectedTool | _Group], place: str, into: list[ExpectedTool], places: list[str]
) -> list[object]:
    """The items' expectations appended to ``into``; the items' shape, as flat numbers."""
    shape: list[object] = []
    for number, item in enumerate(items):
        here = f"{place}[{number}]"
        if isinstance(item, ExpectedTool):
            shape.append(len(into))
            into.append(item)
            places.append(here)
        else:
            inner = _flatten(item.items, f"{here}.{item.key}", into, places)
            shape.append((type(item), inner))
    return shape


def _members(shape: object) -> list[int]:
    if isinstance(shape, int):
        return [shape]
    assert isinstance(shape, tuple)
    return [number for item in shape[1] for number in _members(item)]


def _edges(kind: type[_Group], shape: list[object], after: list[list[int]]) -> None:
    for item in shape:
        if isinstance(item, tuple):
            _edges(item[0], item[1], after)
    if kind is InOrder:
        for earlier, later in itertools.pairwise(shape):
            firsts = _members(earlier)
            for number in _members(later):
                after[number].extend(firsts)


def order_plan(items: Sequence[Item], where: str = "expected", ordered: bool = False) -> OrderPlan:
    """The turn's order, its first problem raised as ``ValueError`` naming its place."""
    plan = OrderPlan(items, ordered, where)
    plan.raise_first(where)
    return plan


def item_paths(items: Sequence[ExpectedTool | _Group]) -> list[tuple[int | str, ...]]:
    """Each expectation's path below the turn's list, in check order: ``(3, "in_order", 1)``.

    >>> item_paths([ExpectedTool("a"), InOrder(ExpectedTool("b"), ExpectedTool("c"))])
    [(0,), (1, 'in_order', 0), (1, 'in_order', 1)]
    """
    paths: list[tuple[int | str, ...]] = []
    for number, item in enumerate(items):
        if isinstance(item, ExpectedTool):
            paths.append((number,))
        else:
            paths.extend((number, item.key, *path) for path in item_paths(item.items))
    return paths


def expectations_in(items: Sequence[ExpectedTool | _Group]) -> list[ExpectedTool]:
    """The expectations of a turn's items, groups opened, in check order.

    >>> expectations_in([ExpectedTool("a"), AnyOrder(ExpectedTool("b"), ExpectedTool("c"))])
    [ExpectedTool('a'), ExpectedTool('b'), ExpectedTool('c')]
    """
    found: list[ExpectedTool] = []
    _flatten(items, "", found, [])
    return found


def order_problems(
    items: Sequence[Item], ordered: bool, where: str = "expected_tools"
) -> list[tuple[str, str]]:
    """Every problem of the turn's order, each with its place below the expected list."""
    return OrderPlan(items, ordered, where).problems
