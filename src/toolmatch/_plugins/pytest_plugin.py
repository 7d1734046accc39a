"""What the pytest plugin prints for a failed ``==`` that involves toolmatch."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._calls.call import ToolCall
from toolmatch._core.describe import short_repr
from toolmatch._matchers.explain import explain, holds, holds_matcher
from toolmatch._selection.expectation import ExpectedTool
from toolmatch._selection.results import ToolCheck, TurnResult

__all__ = ["explain_comparison"]


def explain_comparison(left: object, right: object) -> list[str] | None:
    """The lines pytest shows for a failed ``left == right``; ``None`` when toolmatch takes no part.

    The first line shows both sides, shortened; then one line per failing path, nothing
    for the paths that matched. toolmatch takes part when a matcher or a ``ToolCall`` is
    on either side or anywhere inside it. The expected side is the one holding a matcher,
    else the right one, as in ``assert actual == expected``.

    >>> from toolmatch import Fuzzy
    >>> for line in explain_comparison({"a": Fuzzy("206588"), "b": 1}, {"a": 205000}):
    ...     print(line)
    {'a': Fuzzy('206588'), 'b': 1} == {'a': 205000}
    a: fuzzy '206588' does not match 205000
    b: missing
    """
    summary = f"{short_repr(left)} == {short_repr(right)}"
    for expected, actual in ((left, right), (right, left)):
        if isinstance(expected, ExpectedTool):
            return [summary, *_selection_lines(expected, actual)]
        if isinstance(expected, (ToolCheck, TurnResult)):
            return [summary, *expected.lines()]
    if not (holds_matcher(left) or holds_matcher(right)):
        if not _compares_calls(left, right):
            return None
        left, right = right, left  # explain takes the expected value first
    mismatches = explain(left, right)
    if not mismatches:  # `==` said no, yet toolmatch finds no difference: say so, not nothing
        return [summary, "toolmatch found no mismatch; the values differ only by Python's =="]
    return [summary, *(str(mismatch) for mismatch in mismatches)]


def _selection_lines(expected: ExpectedTool, calls: object) -> list[str]:
    """The expectation, each candidate call with its index and verdict, found against required."""
    try:
        return expected.check(calls).lines()
    except Exception as error:  # not calls at all: say so instead of failing the report
        return [f"{expected!r} cannot read these calls: {str(error).partition(chr(10))[0]}"]


def _compares_calls(left: object, right: object) -> bool:
    """Whether calls take part and both sides are calls or plain containers.

    Another type may be a wrapper that its own plugin unwraps and explains (an
    inline-snapshot value, which compares as the calls it holds).
    """
    plain = (ToolCall, Mapping, list, tuple)
    return (
        isinstance(left, plain)
        and isinstance(right, plain)
        and (holds(left, ToolCall) or holds(right, ToolCall))
    )
