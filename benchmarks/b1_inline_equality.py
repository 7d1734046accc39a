"""B1 inline equality: an expected-arguments dict holding matchers, compared with ``==``.

Ten keys: a date checked by a regular expression, a price checked approximately, a request
id that may be anything, and seven plain values. Each contender's dict is compared with an
actual dict from both sides (``expected == actual`` and ``actual == expected``) against two
plain dicts. The actual dict is parsed from JSON, as recorded tool calls are, so its values
are never the very objects the expected dict holds; the same comparison with shared value
objects (where dict comparison skips ``==`` by identity) is shown for information.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from benchmarks._report import Config, Figure, Section, timed_figure
from benchmarks._timing import Contender, compare

TITLE = "inline equality: a 10-key args dict with Regex, Approx and ANY"

DATE_PATTERN = r"\d{4}-\d{2}-\d{2}"
PRICE = 250.5
RELATIVE_TOLERANCE = 1e-6
ACTUAL_JSON = json.dumps(
    {
        "date": "2026-05-01",
        "max_price": 250.5,
        "request_id": "req-8f14e45f",
        "city": "Paris",
        "days": 3,
        "units": "metric",
        "include_forecast": True,
        "lang": "en",
        "guests": 2,
        "currency": "EUR",
    }
)
MATCHED_KEYS = ("date", "max_price", "request_id")
# A date the regex only finds by searching: every contender must reject it (full match).
PARTIAL_DATE = "2026-05-01T09:30"


def _expected(date: object, price: object, anything: object) -> dict[str, object]:
    expected: dict[str, object] = json.loads(ACTUAL_JSON)
    expected.update(date=date, max_price=price, request_id=anything)
    return expected


class _LeanRegex:
    """The floor: a matcher that does nothing but the match (it would raise on non-strs)."""

    __slots__ = ("_fullmatch",)

    def __init__(self, pattern: str) -> None:
        self._fullmatch = re.compile(pattern).fullmatch

    def __eq__(self, other: object) -> bool:
        return self._fullmatch(other) is not None  # type: ignore[call-overload]

    __hash__ = object.__hash__


class _LeanApprox:
    __slots__ = ("_value", "_tolerance")

    def __init__(self, value: float) -> None:
        self._value = value
        self._tolerance = RELATIVE_TOLERANCE * abs(value)

    def __eq__(self, other: object) -> bool:
        return abs(other - self._value) <= self._tolerance  # type: ignore[operator]

    __hash__ = object.__hash__


class _LeanAny:
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


def _toolmatch() -> dict[str, object]:
    from toolmatch import ANY, Approx, Regex

    return _expected(Regex(DATE_PATTERN), Approx(PRICE, rel=RELATIVE_TOLERANCE), ANY)


def _toolscore() -> dict[str, object]:
    from toolscore.matchers import ANY, Approx, Regex

    return _expected(Regex(DATE_PATTERN), Approx(PRICE, rel=RELATIVE_TOLERANCE), ANY)


def _dirty_equals() -> dict[str, object]:
    from dirty_equals import AnyThing, IsApprox, IsStr

    # A compiled pattern spares dirty-equals a trip through re's cache on every match.
    regex = IsStr(regex=re.compile(DATE_PATTERN))
    return _expected(regex, IsApprox(PRICE, delta=RELATIVE_TOLERANCE * PRICE), AnyThing)


def _lean() -> dict[str, object]:
    return _expected(_LeanRegex(DATE_PATTERN), _LeanApprox(PRICE), _LeanAny())


BUILDERS: dict[str, tuple[Callable[[], dict[str, object]], str]] = {
    "toolmatch": (_toolmatch, ""),
    "toolscore": (_toolscore, "tool-scorer"),
    "dirty-equals": (_dirty_equals, "dirty-equals"),
    "lean floor": (_lean, ""),
}
DIRECTIONS = {"expected == actual": "e == a", "actual == expected": "a == e"}


def _checked(name: str, expected: dict[str, object], actual: dict[str, object]) -> str | None:
    """Why this contender would not be a fair one, or ``None``."""
    if not (expected == actual and actual == expected):
        return f"{name}'s dict does not equal the matching actual dict"
    if name == "lean floor":
        return None  # the floor skips type checks: it only runs on the matching dict
    partial = dict(actual, date=PARTIAL_DATE)
    if expected == partial or partial == expected:
        return f"{name}'s regex accepts {PARTIAL_DATE!r}: not a full match"
    far = dict(actual, max_price=PRICE * 1.001)
    if expected == far or far == expected:
        return f"{name}'s approx accepts {PRICE * 1.001}"
    return None


def run(config: Config) -> Section:
    section = Section("B1", TITLE)
    actual = json.loads(ACTUAL_JSON)
    dicts: dict[str, dict[str, object]] = {"plain": json.loads(ACTUAL_JSON)}
    for name, (build, package) in BUILDERS.items():
        try:
            expected = build()
        except ImportError:
            section.notes.append(
                f"{name} skipped: {package} is not installed (pip install -e '.[bench]')"
            )
            continue
        problem = _checked(name, expected, actual)
        if problem:
            section.errors.append(problem)
            continue
        dicts[name] = expected

    shared = dict(actual)  # the same value objects as `actual`: ``==`` skipped by identity
    contenders: dict[str, Contender] = {}
    for direction, statement in DIRECTIONS.items():
        for name, expected in dicts.items():
            contenders[f"{name}|{direction}"] = Contender(statement, {"e": expected, "a": actual})
        for name in ("plain", "toolmatch", "lean floor"):
            expected = dict(shared)
            if name != "plain":
                expected.update((key, dicts[name][key]) for key in MATCHED_KEYS)
            names = {"e": expected, "a": actual}
            contenders[f"{name}|{direction}|shared"] = Contender(statement, names)
    timings = compare(contenders, rounds=config.rounds, sample_seconds=config.sample_seconds)

    def figure(
        contender: str,
        reference: str,
        direction: str,
        suffix: str = "",
        max_ratio: float | None = None,
        budget: str = "",
    ) -> Figure:
        return timed_figure(
            f"{direction}{' (shared values)' if suffix else ''}",
            contender,
            timings[f"{contender}|{direction}{suffix}"],
            reference,
            timings[f"{reference}|{direction}{suffix}"],
            max_ratio=max_ratio,
            budget=budget,
        )

    for direction in DIRECTIONS:
        section.figures.append(
            figure("toolmatch", "plain", direction, max_ratio=5.5, budget="<= 5.5x")
        )
        for peer in ("toolscore", "dirty-equals"):
            if peer in dicts:
                section.figures.append(
                    figure("toolmatch", peer, direction, max_ratio=1.0, budget="< 1x (faster)")
                )
        for other in ("toolscore", "dirty-equals", "lean floor"):
            if other in dicts:
                section.figures.append(figure(other, "plain", direction))
        section.figures.append(figure("toolmatch", "lean floor", direction))
    for direction in DIRECTIONS:
        section.figures.append(figure("toolmatch", "plain", direction, "|shared"))
        section.figures.append(figure("lean floor", "plain", direction, "|shared"))
    section.notes.append(
        "lean floor: hand-written matchers whose __eq__ does only the match itself "
        "(no type checks, no never-raise guarantee): the cheapest a Python-level matcher can be"
    )
    section.notes.append(
        "shared values: the expected dict holds the actual dict's own value objects, so plain "
        "dict comparison skips `==` by identity; real recorded calls are parsed, not shared"
    )
    section.notes.append(
        f"every contender was checked first: equal to the actual dict from both sides, "
        f"and unequal when the date is {PARTIAL_DATE!r} (full match) or the price is off by 0.1%"
    )
    return section
