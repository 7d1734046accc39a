"""B1 inline equality: an expected-arguments dict holding matchers, compared with ``==``.

Ten keys: a date checked by a regular expression, a price checked approximately, a request
id that may be anything, and seven plain values. Each contender's dict is compared with an
actual dict from both sides (``expected == actual`` and ``actual == expected``) against two
plain dicts. The actual dict is parsed from JSON, as recorded tool calls are, so its values
are never the very objects the expected dict holds; the same comparison with shared value
objects (where dict comparison skips ``==`` by identity) is shown for information.

A second workload (issue 14) puts a ``Between``, an ``IsDatetime`` and an ``Unordered``
argument among seven plain values, against dirty-equals' nearest matchers and against a
hand-written check of the same three conditions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import Any

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


# The ranges, dates and unordered workload.
LIMIT = (1, 50)
DEPARTURE = datetime(2026, 12, 1, 10, 0, tzinfo=timezone.utc)
WITHIN = timedelta(days=1)
RECIPIENTS = ["a@x.io", "b@x.io", "c@x.io"]
CATALOGUE_JSON = json.dumps(
    {
        "limit": 20,
        "departure": "2026-12-01T18:00:00+00:00",
        "recipients": ["c@x.io", "a@x.io", "b@x.io"],
        "city": "Paris",
        "days": 3,
        "units": "metric",
        "include_forecast": True,
        "lang": "en",
        "guests": 2,
        "currency": "EUR",
    }
)
# Actual values every contender must reject: the same conditions, checked before timing.
CATALOGUE_MISSES = {
    "limit": [51, 0, True, "20"],
    "departure": ["2026-12-03T10:00:01+00:00", "2026-11-30T09:59:59+00:00"],
    "recipients": [["a@x.io", "b@x.io"], ["a@x.io", "b@x.io", "d@x.io"], ["a@x.io"] * 3],
}


def _catalogue(limit: object, departure: object, recipients: object) -> dict[str, object]:
    expected: dict[str, object] = json.loads(CATALOGUE_JSON)
    expected.update(limit=limit, departure=departure, recipients=recipients)
    return expected


class _HandBetween:
    """The hand-written checks: each does exactly its condition, and nothing else."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(other) in (int, float) and LIMIT[0] <= other <= LIMIT[1]  # type: ignore[operator]

    __hash__ = object.__hash__


class _HandDatetime:
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return abs(datetime.fromisoformat(other) - DEPARTURE) <= WITHIN  # type: ignore[arg-type]

    __hash__ = object.__hash__


class _HandUnordered:
    __slots__ = ("_sorted",)

    def __init__(self, items: list[str]) -> None:
        self._sorted = sorted(items)

    def __eq__(self, other: object) -> bool:
        return sorted(other) == self._sorted  # type: ignore[call-overload, no-any-return]

    __hash__ = object.__hash__


def _catalogue_toolmatch() -> dict[str, object]:
    from toolmatch import Between, IsDatetime, Unordered

    return _catalogue(Between(*LIMIT), IsDatetime(DEPARTURE, WITHIN), Unordered(RECIPIENTS))


def _catalogue_dirty_equals() -> dict[str, object]:
    from dirty_equals import IsDatetime, IsInt, IsList

    return _catalogue(
        IsInt(ge=LIMIT[0], le=LIMIT[1]),
        IsDatetime(approx=DEPARTURE, delta=WITHIN, iso_string=True),
        IsList(*RECIPIENTS, check_order=False),
    )


def _catalogue_hand_written() -> dict[str, object]:
    return _catalogue(_HandBetween(), _HandDatetime(), _HandUnordered(RECIPIENTS))


CATALOGUE_BUILDERS: dict[str, tuple[Callable[[], dict[str, object]], str]] = {
    "toolmatch": (_catalogue_toolmatch, ""),
    "dirty-equals": (_catalogue_dirty_equals, "dirty-equals"),
    "hand-written": (_catalogue_hand_written, ""),
}


def _catalogue_checked(
    name: str, expected: dict[str, object], actual: dict[str, object]
) -> str | None:
    if not (expected == actual and actual == expected):
        return f"{name}'s dict does not equal the matching actual dict (ranges, dates)"
    for key, misses in CATALOGUE_MISSES.items():
        for miss in misses:
            wrong = dict(actual, **{key: miss})
            if expected == wrong or wrong == expected:
                return f"{name} accepts {key}={miss!r}"
    return None


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

    catalogue_actual = json.loads(CATALOGUE_JSON)
    catalogue: dict[str, dict[str, object]] = {"plain": json.loads(CATALOGUE_JSON)}
    for name, (build, _) in CATALOGUE_BUILDERS.items():
        try:
            expected = build()
        except ImportError:
            continue  # noted once above
        problem = _catalogue_checked(name, expected, catalogue_actual)
        if problem:
            section.errors.append(problem)
            continue
        catalogue[name] = expected

    shared = dict(actual)  # the same value objects as `actual`: ``==`` skipped by identity
    contenders: dict[str, Contender] = {}
    for direction, statement in DIRECTIONS.items():
        for name, expected in catalogue.items():
            names = {"e": expected, "a": catalogue_actual}
            contenders[f"{name}|{direction}|catalogue"] = Contender(statement, names)
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
        if "toolmatch" not in catalogue:
            break

        def ranged(
            contender: str, reference: str, direction: str = direction, **budget: Any
        ) -> Figure:
            return timed_figure(
                f"ranges, dates, unordered: {direction}",
                contender,
                timings[f"{contender}|{direction}|catalogue"],
                reference,
                timings[f"{reference}|{direction}|catalogue"],
                **budget,
            )

        if "dirty-equals" in catalogue:
            section.figures.append(
                ranged("toolmatch", "dirty-equals", max_ratio=1.0, budget="< 1x (faster)")
            )
        section.figures.append(ranged("toolmatch", "hand-written", max_ratio=1.5, budget="<= 1.5x"))
        section.figures.append(ranged("toolmatch", "plain"))
        section.figures.append(ranged("hand-written", "plain"))
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
        "ranges, dates, unordered: Between(1, 50), IsDatetime(near, within=1 day) on an ISO "
        "string and Unordered over three e-mail addresses given in another order, against "
        "dirty-equals' IsInt(ge=, le=), IsDatetime(approx=, delta=, iso_string=True) and "
        "IsList(..., check_order=False), and against hand-written checks of the same "
        "conditions (no type checks beyond them, no never-raise guarantee); every contender "
        "was checked to reject an out-of-range limit (and a bool), a departure over a day off, "
        "and a missing, wrong or repeated recipient"
    )
    section.notes.append(
        f"every contender was checked first: equal to the actual dict from both sides, "
        f"and unequal when the date is {PARTIAL_DATE!r} (full match) or the price is off by 0.1%"
    )
    return section
