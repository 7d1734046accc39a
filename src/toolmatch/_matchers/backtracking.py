"""How long a backtracking full match may run: bounds read from the parsed pattern.

A backtracking engine tries the ways a pattern can consume its input one after another.
Their number is bounded, for an input of ``n`` characters, by ``W * (n + 1) ** d``: a
repeat of a single-way body (``[a-z]+``) adds 1 to ``d``, an alternation adds its
branches' counts to ``W``, a bounded repeat multiplies them. A repeat whose body can be
consumed in more than one way (``(a+)+``, ``(a|aa)+``) has no such bound: the number of
ways grows exponentially.

One way costs at most ``K * (n + 1)`` steps, where ``K`` is the steps of one walk
through the pattern: each item counts once, a counted repeat's body once per turn
(``(?:\\B){1000}`` walks 1,000 steps however short the input), an unbounded repeat's body
once per character it consumes (the ``n + 1``). So a full match takes at most
``W * K * (n + 1) ** (d + 1)`` steps.

:func:`bounds` gives ``K`` and the longest input on which a full match is sure to stay
within a budget of steps; :class:`~toolmatch.Regex` matches longer inputs under a time
limit instead, and refuses a pattern whose walk alone is over the budget: the ``regex``
package takes time in proportion to ``K`` to compile it, and neither engine can stop
inside such a walk.
"""

from __future__ import annotations

import sys

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["BUDGET", "bounds", "regex_parser"]

# Steps a match may take without a time limit: about 3 ms of processor time in re.
BUDGET = 100_000
_CAP = BUDGET + 1  # counts above the budget are all alike


def regex_parser() -> tuple[Any, Any]:
    """The ``re`` package's own constants and parser modules, by their names on this Python."""
    if sys.version_info >= (3, 11):
        from re import _constants as constants
        from re import _parser as parser
    else:  # pragma: no cover (Python 3.10)
        import sre_constants as constants
        import sre_parse as parser
    return constants, parser


def bounds(pattern: str, flags: int) -> tuple[int, int]:
    """The steps of one walk through ``pattern`` (``K``, capped just above
    :data:`BUDGET`), and the longest input whose full match stays within :data:`BUDGET`
    steps (-1 if none).

    >>> bounds(r"\\d{4}-\\d{2}-\\d{2}", 0), bounds("[a-z]+", 0)
    ((13, 7691), (2, 222))
    >>> bounds("(a+)+b", 0), bounds("(a|aa)+b", 0), bounds("(?:(?:){1000}){1000}", 0)
    ((5, -1), (6, -1), (100001, -1))
    """
    constants, parser = regex_parser()
    try:
        items = parser.parse(pattern, flags)
        reading = _Reading(constants)
        walk, bound = reading.walk(items), reading.sequence(items)
    except Exception:  # a construct this reading does not know, or nesting too deep
        return 0, -1
    if bound is None:
        return walk, -1
    ways, degree = bound
    # The largest n with ways * walk * (n + 1) ** (degree + 1) <= BUDGET.
    factor = ways * max(walk, 1)
    if factor > BUDGET:
        return walk, -1
    n = int((BUDGET / factor) ** (1 / (degree + 1))) - 1
    while n >= 0 and factor * (n + 1) ** (degree + 1) > BUDGET:
        n -= 1
    while factor * (n + 2) ** (degree + 1) <= BUDGET:
        n += 1
    return walk, n


class _Reading:
    """Reads ``K`` (:meth:`walk`) and ``(W, d)`` (:meth:`sequence`; ``None`` where no
    polynomial bound holds) off a parsed pattern."""

    def __init__(self, constants: Any) -> None:
        self.c = constants
        self.single = {
            constants.LITERAL,
            constants.NOT_LITERAL,
            constants.IN,
            constants.ANY,
            constants.AT,
            constants.CATEGORY,
        }
        self.repeats = {
            constants.MAX_REPEAT,
            constants.MIN_REPEAT,
            getattr(constants, "POSSESSIVE_REPEAT", constants.MAX_REPEAT),
        }

    def walk(self, items: Any) -> int:
        """The steps of one walk through ``items``: one an item, a counted repeat's body
        once per turn (a turn that consumes nothing still costs one), every branch tried."""
        steps = 0
        for op, argument in items:
            steps += 1 + self.inner_steps(op, argument)
            if steps >= _CAP:
                return _CAP
        return steps

    def inner_steps(self, op: Any, argument: Any) -> int:
        """The steps of one walk through what item ``op`` holds (0 for a single item)."""
        c = self.c
        if op in self.repeats:  # (min, max, items)
            return self.repeat_steps(argument[1], argument[2])
        if op is c.SUBPATTERN:  # (group, add_flags, del_flags, items)
            return self.walk(argument[-1])
        if op is c.BRANCH:  # (None, [items, ...])
            return sum(self.walk(branch) for branch in argument[1])
        if op is c.GROUPREF_EXISTS:  # (group, yes, no or None)
            return sum(self.walk(branch) for branch in argument[1:] if branch)
        if op in (c.ASSERT, c.ASSERT_NOT):  # (direction, items)
            return self.walk(argument[1])
        if op is getattr(c, "ATOMIC_GROUP", None):
            return self.walk(argument)
        return 0

    def repeat_steps(self, high: Any, body: Any) -> int:
        """A counted repeat's body once per turn, at most ``high`` turns (one unbounded), a
        turn that consumes nothing still costing one."""
        turns = 1 if high is self.c.MAXREPEAT else high
        return int(turns * max(self.walk(body), 1))

    def sequence(self, items: Any) -> tuple[int, int] | None:
        ways, degree = 1, 0
        for op, argument in items:
            part = self.item(op, argument)
            if part is None:
                return None
            ways, degree = min(ways * part[0], _CAP), degree + part[1]
        return ways, degree

    def alternatives(self, branches: Any) -> tuple[int, int] | None:
        ways, degree = 0, 0
        for branch in branches:
            part = (1, 0) if branch is None else self.sequence(branch)
            if part is None:
                return None
            ways, degree = min(ways + part[0], _CAP), max(degree, part[1])
        return ways, degree

    def item(self, op: Any, argument: Any) -> tuple[int, int] | None:
        c = self.c
        if op in self.single:
            return 1, 0
        if op is c.SUBPATTERN:  # (group, add_flags, del_flags, items)
            return self.sequence(argument[-1])
        if op is c.BRANCH:  # (None, [items, ...])
            return self.alternatives(argument[1])
        if op is c.GROUPREF_EXISTS:  # (group, yes, no or None)
            return self.alternatives(argument[1:])
        if op is c.GROUPREF:  # one way, but it compares up to n characters
            return 1, 1
        if op in (c.ASSERT, c.ASSERT_NOT):  # (direction, items): a whole match at each visit
            inner = self.sequence(argument[1])
            return None if inner is None else (inner[0], inner[1] + 1)
        if op is getattr(c, "ATOMIC_GROUP", None):
            return self.sequence(argument)
        if op in self.repeats:  # (min, max, items)
            return self.repeat(*argument)
        return None

    def repeat(self, low: int, high: Any, body: Any) -> tuple[int, int] | None:
        """The ways and degree of ``body`` repeated ``low`` to ``high`` times."""
        inner = self.sequence(body)
        if inner is None:
            return None
        ways, degree = inner
        if high is self.c.MAXREPEAT:
            # Each count is one way only if the body is: else the ways multiply per turn.
            return (1, 1) if (ways, degree) == (1, 0) else None
        if ways == 1:
            return min(high - low + 1, _CAP), high * degree
        total, power = 0, ways**low if low < 64 else _CAP
        for _ in range(low, high + 1):
            total = min(total + power, _CAP)
            power = min(power * ways, _CAP)
            if total >= _CAP:
                break
        return total, high * degree
