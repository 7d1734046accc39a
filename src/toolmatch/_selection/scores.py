"""A turn's scores: shares of calls, their f1, and the one number a turn is scored by."""

from __future__ import annotations

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["f1_of", "ratio_of", "turn_score"]


def ratio_of(numerator: int, denominator: int) -> float:
    """A share as scores give it: 1.0 of nothing.

    >>> ratio_of(1, 4), ratio_of(0, 0)
    (0.25, 1.0)
    """
    # Nothing to get wrong counts as all right: recall with nothing expected is 1.
    return 1.0 if denominator == 0 else numerator / denominator


def turn_score(
    matched: int, judged: int, met: int, expected: int, never_counts: Callable[[], tuple[int, int]]
) -> float:
    """A turn's one number (``TurnResult._score``): the f1 of its precision (``matched`` of
    the ``judged`` calls) and recall (``met`` of the ``expected`` calls); in a turn that
    expects no call and has checks, all ``never`` and caps, the share of them kept, from
    ``never_counts()``: how many fail, of how many (asked only there). A verdict and a
    result score a turn through this one function.

    >>> turn_score(2, 3, 2, 2, lambda: (0, 0))
    0.8
    >>> turn_score(0, 1, 0, 0, lambda: (1, 4))
    0.75
    """
    if not expected:
        broken, of = never_counts()
        if of:
            return (of - broken) / of
    return f1_of(ratio_of(matched, judged), ratio_of(met, expected))


def f1_of(precision: float, recall: float) -> float:
    """The harmonic mean of ``precision`` and ``recall`` (0.0 when both are 0).

    >>> f1_of(1.0, 0.5)
    0.6666666666666666
    """
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
