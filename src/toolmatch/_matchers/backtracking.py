"""How long a backtracking full match may run: a bound read from the parsed pattern.

A backtracking engine tries the ways a pattern can consume its input one after another.
Their number is bounded, for an input of ``n`` characters, by ``C * (n + 1) ** d``: a
repeat of a single-way body (``[a-z]+``) adds 1 to ``d``, an alternation adds its
branches' counts to ``C``, a bounded repeat multiplies them. A repeat whose body can be
consumed in more than one way (``(a+)+``, ``(a|aa)+``) has no such bound: the number of
ways grows exponentially. Each way costs at most ``n`` more steps, hence the extra power.

:func:`quick_length` turns the bound into the longest input on which a full match is
sure to stay within a budget of steps; :class:`~toolmatch.Regex` matches longer inputs
under a time limit instead.
"""

from __future__ import annotations

import sys

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["quick_length"]

# Steps a match may take without a time limit: far below a millisecond in either engine.
BUDGET = 100_000
_CAP = BUDGET + 1  # counts above the budget are all alike


def quick_length(pattern: str, flags: int) -> int:
    """The longest input whose full match stays within :data:`BUDGET` steps; -1 if none.

    >>> quick_length(r"\\d{4}-\\d{2}-\\d{2}", 0), quick_length("[a-z]+", 0)
    (99999, 315)
    >>> quick_length("(a+)+b", 0), quick_length("(a|aa)+b", 0)
    (-1, -1)
    """
    if sys.version_info >= (3, 11):
        from re import _constants as constants
        from re import _parser as parser
    else:  # pragma: no cover (Python 3.10)
        import sre_constants as constants
        import sre_parse as parser
    try:
        bound = _Bound(constants).sequence(parser.parse(pattern, flags))
    except Exception:  # a construct this reading does not know, or nesting too deep
        bound = None
    if bound is None:
        return -1
    ways, degree = bound
    # The largest n with ways * (n + 1) ** (degree + 1) <= BUDGET.
    if ways > BUDGET:
        return -1
    n = int((BUDGET / ways) ** (1 / (degree + 1))) - 1
    while n >= 0 and ways * (n + 1) ** (degree + 1) > BUDGET:
        n -= 1
    while ways * (n + 2) ** (degree + 1) <= BUDGET:
        n += 1
    return n


class _Bound:
    """Reads ``(C, d)`` off a parsed pattern; ``None`` where no polynomial bound holds."""

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
            low, high, body = argument
            inner = self.sequence(body)
            if inner is None:
                return None
            ways, degree = inner
            if high is c.MAXREPEAT:
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
        return None
