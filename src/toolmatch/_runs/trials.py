"""Trials: several runs of one case, their pass rate and pass^k
(docs/cli.md#trials-pass-rate-and-passk).

pass^k is the chance that k runs drawn without replacement from a case's n runs, c of
which passed, all pass: C(c, k) / C(n, k), the unbiased estimate of the chance that k
fresh runs all pass. pass^1 is the pass rate c / n.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Iterator, Mapping
from fractions import Fraction
from itertools import count, islice, repeat
from typing import NamedTuple

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.judging import expectation_places, expectation_text
from toolmatch._runs.significance import wilson_lower
from toolmatch._selection.groups import expectations_in
from toolmatch._selection.run import OneOfTurns

if TYPE_CHECKING:
    from toolmatch._selection.case import TestCase

__all__ = [
    "FailedCheck",
    "MinPassRate",
    "PassK",
    "failed_checks",
    "mean_pass_k",
    "parse_confidence",
    "parse_min_pass_rate",
    "parse_pass_k",
    "pass_hat_k",
    "pass_k_series",
    "pass_k_stretches",
]


@public
def pass_hat_k(n: int, c: int, k: int) -> float:
    """The chance that ``k`` runs of a case all pass, estimated from ``n`` runs of which
    ``c`` passed: ``C(c, k) / C(n, k)``, the mean over every way of choosing ``k`` of the
    ``n`` runs of whether all ``k`` passed, as the nearest float.

    ``pass_hat_k(n, c, 1)`` is the pass rate ``c / n``; ``toolmatch check`` reports it
    at ``k`` = 1, 2, 4, 8, ... and ``n``, or where ``--pass-k`` says (docs/cli.md, Trials);
    this function gives it at any ``k``.

    >>> from toolmatch import pass_hat_k
    >>> pass_hat_k(4, 2, 1)
    0.5
    >>> pass_hat_k(4, 2, 2)  # one of the six pairs of runs both passed
    0.16666666666666666
    >>> pass_hat_k(4, 2, 3)
    0.0
    """
    n, c, k = (_whole(name, value) for name, value in (("n", n), ("c", c), ("k", k)))
    if n < 1:
        raise ValueError(f"pass_hat_k: n must be >= 1, got {n}")
    if not 0 <= c <= n:
        raise ValueError(f"pass_hat_k: c must be from 0 to n ({n}), got {c}")
    if not 1 <= k <= n:
        raise ValueError(f"pass_hat_k: k must be from 1 to n ({n}), got {k}")
    return next(islice(pass_k_series(n, c), k - 1, None))


def _whole(name: str, value: object) -> int:
    """``value`` as an int: any integer type (NumPy's too, from a data frame's counts)."""
    try:
        if not isinstance(value, bool):
            return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        pass
    raise TypeError(
        f"pass_hat_k: {name} must be a whole number, got {short_repr(value)} ({type_name(value)})"
    )


def pass_k_series(n: int, c: int) -> Iterator[float]:
    """pass^1, pass^2, ..., pass^n for ``c`` passing runs of ``n``, each the nearest float."""
    for value, times in pass_k_stretches(n, c):
        yield from repeat(value, times)


def pass_k_stretches(n: int, c: int, below: float = 0.0) -> Iterator[tuple[float, int]]:
    """pass^1 to pass^n as stretches of equal values: ``(value, how many in a row)``. The
    0.0 that ends most long series is one stretch, which the report writes at once; with
    ``below``, so is the rest from the first value below it (a report that shows three
    decimals passes 0.0005: the values only fall, and each after it shows as 0.000)."""
    # pass^k = pass^(k-1) * (c - k + 1) / (n - k + 1). The exact fractions grow to thousands
    # of bits, so each is kept as `scaled * 2 ** exponent`, a lower bound of about
    # _PRECISION bits: multiplying is exact, shifting left is exact, and only the division
    # rounds, down, losing less than 1 of a quotient kept above 2 ** (_PRECISION - 1), that
    # is less than a share d = 2 ** (1 - _PRECISION) of it. After k steps the exact value is
    # at most scaled / (1 - d) ** k <= scaled * (1 + 2 * k * d) (while k * d <= 1/2, which
    # holds for any k a loop can reach), and with scaled < 2 ** (_PRECISION + 1) that is
    # below scaled + 8 * k. When both ends of [scaled, scaled + 8 * k] round to the same
    # float, so does the exact value between them; when they do not (the interval holds a
    # rounding midpoint: about k times in 2 ** 71 values), the value is computed exactly.
    if c == n:  # every run passed: every k runs do
        yield 1.0, n
        return
    scaled, exponent = 1 << _PRECISION, -_PRECISION
    k = 0
    for k, passing, runs in zip(count(1), range(c, 0, -1), range(n, n - c, -1)):
        scaled *= passing
        short = _PRECISION + runs.bit_length() - scaled.bit_length()
        if short > 0:  # the quotient would fall below 2 ** (_PRECISION - 1)
            scaled <<= short
            exponent -= short
        scaled //= runs
        value = _nearest(scaled, scaled + (k << 3), exponent)
        if value is None:
            value = math.comb(c, k) / math.comb(n, k)  # int / int rounds correctly
        # The values only fall: from one below `below` or one rounded to 0.0 on, each is
        # given as 0.0.
        if value < below:
            k -= 1  # this one is the first of the 0.0 stretch
            break
        yield value, 1
        if value == 0.0:
            break
    if k < n:
        yield 0.0, n - k


_PRECISION = 128
_SMALLEST_NORMAL = 2.0**-1022


def _nearest(low: int, high: int, exponent: int) -> float | None:
    """The float nearest to every number from ``low * 2 ** exponent`` to ``high * 2 **
    exponent``, or None if they round to different floats."""
    # float(int) rounds to 53 bits correctly, and scaling a normal float is exact; below
    # the normal floats there are fewer bits, and int / int rounds to them correctly.
    value = math.ldexp(float(low), exponent)
    if value >= _SMALLEST_NORMAL:
        return value if float(low) == float(high) else None
    scale = 1 << -exponent
    value = low / scale
    return value if value == high / scale else None


def mean_pass_k(
    cases: Mapping[tuple[int, int], int], below: float = 0.0
) -> Iterator[tuple[tuple[float, int], int]]:
    """For k = 1, 2, ...: the mean pass^k over the cases with at least k runs and how many
    those are, in stretches: ``((mean, cases), how many k in a row)``; ``cases`` counts
    the cases by their runs and passing runs, ``(n, c)``.

    Each mean is exact before it is rounded once to the nearest float. With ``below``, once
    every case's pass^k is below it, the means after are given as 0.0 (with their numbers
    of cases): the values only fall, so no later mean reaches ``below`` either.
    Memory is one series per distinct ``(n, c)``, whatever the number of cases.
    """
    series = [_Stretch(cases_of, n, pass_k_stretches(n, c)) for (n, c), cases_of in cases.items()]
    k = 1
    while series := [stretch for stretch in series if stretch.left or stretch.advance()]:
        if all(stretch.value < below for stretch in series):
            yield from _zeros(series, k)
            return
        times = min(stretch.left for stretch in series)
        for stretch in series:
            stretch.left -= times
        k += times
        yield _mean(series), times


def _zeros(series: list[_Stretch], k: int) -> Iterator[tuple[tuple[float, int], int]]:
    """:func:`mean_pass_k`'s stretches from ``k`` on once every value is below its bound:
    0.0 over the cases left, until each number of runs runs out."""
    for runs in sorted({stretch.runs for stretch in series}):  # cases run out
        counted = sum(stretch.cases for stretch in series if stretch.runs >= runs)
        yield (0.0, counted), runs - k + 1
        k = runs + 1


def _mean(series: list[_Stretch]) -> tuple[float, int]:
    """The mean of the series' current values over their cases, exact before it is rounded
    once, and the number of cases."""
    total = counted = 0
    for stretch in series:
        if stretch.value:  # most of a long series is 0.0
            total += _exactly(stretch.value) * stretch.cases
        counted += stretch.cases
    return (total / (counted << _SCALE) if total else 0.0), counted


class _Stretch:
    """Where one ``(n, c)`` series is: its value, for ``left`` more values of k."""

    __slots__ = ("cases", "left", "runs", "stretches", "value")

    def __init__(self, cases: int, runs: int, stretches: Iterator[tuple[float, int]]) -> None:
        self.cases, self.runs, self.stretches = cases, runs, stretches
        self.value, self.left = 0.0, 0

    def advance(self) -> bool:
        """Moves to the next stretch; False at the end of the series."""
        self.value, self.left = next(self.stretches, (0.0, 0))
        return self.left > 0


# Every float from 0 to 1 is a whole multiple of 2 ** -1074: as such whole numbers, the
# cases' values add up exactly, and one int / int division rounds their mean correctly.
_SCALE = 1074


def _exactly(value: float) -> int:
    numerator, denominator = value.as_integer_ratio()  # the denominator is a power of 2
    return numerator << (_SCALE + 1 - denominator.bit_length())


class MinPassRate(NamedTuple):
    """``--min-pass-rate``: as the user wrote it, its exact value, and with
    ``--confidence`` the confidence at which a case's Wilson lower bound must reach it.

    >>> gate = parse_min_pass_rate("0.8")
    >>> gate.shortfall(4, 5), gate.shortfall(3, 5)
    (None, '3/5 passed')
    >>> sure = gate._replace(confidence=0.95)
    >>> sure.shown, sure.shortfall(5, 5)
    ('0.8 at 0.95 confidence', '5/5 passed, at least 0.649')
    """

    text: str
    value: Fraction
    confidence: float | None = None

    @property
    def shown(self) -> str:
        """The gate as the text report names it."""
        if self.confidence is None:
            return self.text
        return f"{self.text} at {self.confidence!r} confidence"

    def shortfall(self, passed: int, runs: int) -> str | None:
        """None when a case of ``runs`` runs, ``passed`` of which passed, meets the gate;
        else its counts as the report shows them (with the lower bound under
        ``--confidence``). A case with no run has a pass rate of 0."""
        if runs == 0:
            return "no run" if self.value > 0 else None
        if self.confidence is None:
            return f"{passed}/{runs} passed" if Fraction(passed, runs) < self.value else None
        lower = wilson_lower(passed, runs, self.confidence)
        if Fraction(lower) >= self.value:
            return None
        return f"{passed}/{runs} passed, at least {lower:.3f}"


def parse_min_pass_rate(text: str) -> MinPassRate:
    """A pass rate from 0 to 1, read exactly (``0.8`` is four fifths, ``2/3`` two thirds)."""
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        value = None
    if value is None or not 0 <= value <= 1:
        raise ValueError(f"must be a number from 0 to 1, such as 0.8, got {short_repr(text)}")
    return MinPassRate(text.strip(), value)


def parse_confidence(text: str) -> float:
    """``--confidence``: a number between 0 and 1, both excluded (``0.95``)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value < 1:
        raise ValueError(
            "must be a number between 0 and 1 (both excluded), such as 0.95, "
            f"got {short_repr(text)}"
        )
    return value


class PassK(NamedTuple):
    """``--pass-k``: the ``k`` at which pass^k is shown. ``chosen`` is the sorted list
    given, or None: ``every`` for ``all``, else the doubling default (:meth:`points`)."""

    chosen: tuple[int, ...] | None = None
    every: bool = False

    def points(self, n: int) -> range | list[int]:
        """The ``k`` shown for ``n`` runs: 1, 2, 4, 8, ... below ``n``, then ``n`` itself;
        every ``k`` up to ``n`` for ``all``; those of the list given that are at most ``n``
        (a case has no pass^k above its runs)."""
        if n < 1:
            return []
        if self.every:
            return range(1, n + 1)
        if self.chosen is not None:
            return [k for k in self.chosen if k <= n]
        return [*(1 << power for power in range(max(n - 1, 0).bit_length())), n]


def parse_pass_k(text: str) -> PassK:
    """``all``, or whole numbers of 1 or more separated by commas (``1,3,5``), sorted."""
    if text.strip() == "all":
        return PassK(every=True)
    chosen = set()
    for word in text.split(","):
        word = word.strip()
        try:  # a number of more digits than Python reads is refused as any other
            k = int(word) if word.isascii() and word.isdigit() else 0
        except ValueError:
            k = 0
        if k < 1:
            raise ValueError(
                "must be all or whole numbers of 1 or more separated by commas, such as "
                f"1,2,5, got {short_repr(text)}"
            )
        chosen.add(k)
    return PassK(tuple(sorted(chosen)))


class FailedCheck(NamedTuple):
    """A check that failed in some of a case's runs: its place in the case
    (``turns[0].expected_tools[1]``, ``turns[0].max_calls``), what it asks, and in how many
    of the runs checked it failed."""

    place: str
    description: str
    failed: int
    runs: int

    @property
    def flaky(self) -> bool:
        """Whether it failed in some runs but not all."""
        return self.failed < self.runs

    @property
    def share(self) -> float:
        return self.failed / self.runs

    @property
    def name(self) -> str:
        """Its place and description, as the text report names it."""
        return f"{self.place} {self.description}"


# The checks that are not an expectation, in the order a case lists them, with what each
# turn option asks (None: described with its value or the case's, in _describe).
_OPTION_TEXTS: dict[str, str | None] = {
    "distinct": "a call of its own for each expectation",
    "ordered": "the calls in the expected order",
    "exhaustive": "no call that is not expected",
    "max_calls": None,
    "no_repeats": "no repeated call",
    "tools": "each call fits its tool's definition",
    "answer": None,
    "one_of": None,
    "turns": None,
}
_OPTION_ORDER = {name: number for number, name in enumerate(_OPTION_TEXTS)}


def failed_checks(
    case: TestCase, broken: Mapping[tuple[int | None, int | str], int], runs: int
) -> list[FailedCheck]:
    """The checks of ``case`` that failed in some of its ``runs`` checked (``broken``
    counts the runs in which each failed, as :meth:`RunVerdict.broken` names them): the
    flaky ones first, most often failing first, then those failing in every run; each
    group in the case's order (a turn's expectations, then its options, turn by turn; the
    case's own ``max_calls`` and the number of turns last)."""
    checks = sorted(broken.items(), key=lambda item: _order(item[0]))
    found = [FailedCheck(*_describe(case, key), failed, runs) for key, failed in checks]
    flaky = sorted((check for check in found if check.flaky), key=lambda check: -check.failed)
    return flaky + [check for check in found if not check.flaky]


def _order(key: tuple[int | None, int | str]) -> tuple[int, int, int]:
    turn, item = key
    place = 1 << 62 if turn is None else turn  # the case's own checks after its turns'
    return (place, 0, item) if isinstance(item, int) else (place, 1, _OPTION_ORDER[item])


def _describe(case: TestCase, key: tuple[int | None, int | str]) -> tuple[str, str]:
    turn, item = key
    if turn is None:
        if item == "max_calls":
            return "max_calls", f"at most {case.max_calls} call(s) in the case"
        if item == "one_of":
            return "one_of", f"one of the case's {len(case.alternatives)} alternatives"
        if item == "answer":
            return "answer", f"the final answer matches {case.answer!r}"
        return "turns", f"the case's {len(case.turns)} turn(s)"
    expected = case.turns[turn]
    if isinstance(expected, OneOfTurns):  # its only check is "one_of" (RunVerdict.broken)
        return f"turns[{turn}].one_of", f"one of its {len(expected.alternatives)} alternatives"
    if isinstance(item, int):  # its number counts the expectations inside groups too
        places = expectation_places(expected)
        place = f"expected_tools[{item}]" if places is None else places[item]
        return f"turns[{turn}].{place}", expectation_text(
            expectations_in(expected.expected_tools)[item]
        )
    if item == "max_calls":
        return f"turns[{turn}].max_calls", f"at most {expected.max_calls} call(s)"
    if item == "answer":
        return f"turns[{turn}].answer", f"the final answer matches {expected.answer!r}"
    return f"turns[{turn}].{item}", str(_OPTION_TEXTS[item])
