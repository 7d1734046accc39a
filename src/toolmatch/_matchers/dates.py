"""Dates and times as agents send them: ``IsDatetime`` and ``IsDate``.

``datetime`` is imported when the first such matcher is built: ``import toolmatch``
does not pay for it.
"""

from __future__ import annotations

import sys

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import ReasonedMatcher
from toolmatch._matchers.literal import text_of

if TYPE_CHECKING:
    from datetime import date, datetime, timedelta
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["IsDate", "IsDatetime", "parse_datetime", "parse_duration"]

_dt: Any = None  # the datetime module, once a matcher needs it
_FROMISOFORMAT: Any = None
_TIMEZONE: Any = None
_DURATION: Any = None
# Python 3.10's fromisoformat does not read a trailing Z; 3.11's reads nearly all of ISO 8601.
_READS_Z = sys.version_info >= (3, 11)


def _datetime() -> Any:
    global _dt, _FROMISOFORMAT, _TIMEZONE
    if _dt is None:
        import datetime

        _dt = datetime
        _FROMISOFORMAT = datetime.datetime.fromisoformat if _READS_Z else _fromisoformat_z
        _TIMEZONE = datetime.timezone
    return _dt


def parse_datetime(text: str) -> datetime:
    """ISO 8601 ``text`` as a ``datetime``, a final ``Z`` read as UTC on every Python;
    ``ValueError`` for text that is none.

    >>> parse_datetime("2026-12-07T06:52:14.987Z").isoformat()
    '2026-12-07T06:52:14.987000+00:00'
    """
    _datetime()
    return _FROMISOFORMAT(text)  # type: ignore[no-any-return]


def parse_duration(text: str) -> timedelta:
    """An ISO 8601 duration in weeks, days, hours, minutes and seconds as a ``timedelta``.

    Years and months are refused: their length depends on the date they start from.

    >>> parse_duration("PT1H30M"), parse_duration("P1DT0.5S")
    (datetime.timedelta(seconds=5400), datetime.timedelta(days=1, microseconds=500000))
    """
    global _DURATION
    if _DURATION is None:
        import re

        _DURATION = re.compile(
            r"P(?:(?P<weeks>\d+(?:[.,]\d+)?)W)?(?:(?P<days>\d+(?:[.,]\d+)?)D)?"
            r"(?:T(?:(?P<hours>\d+(?:[.,]\d+)?)H)?(?:(?P<minutes>\d+(?:[.,]\d+)?)M)?"
            r"(?:(?P<seconds>\d+(?:[.,]\d+)?)S)?)?"
        ).fullmatch
    if not isinstance(text, str):
        raise TypeError(f"a duration must be an ISO 8601 str like 'PT1H', got {short_repr(text)}")
    found = _DURATION(text)
    if found is None or text in ("P", "PT") or text.endswith("T"):
        hint = " (years and months have no fixed length)" if "Y" in text or "M" in text else ""
        raise ValueError(
            f"{short_repr(text)} is not an ISO 8601 duration in weeks, days, hours, minutes "
            f"and seconds, like 'PT1H' or 'P1D'{hint}"
        )
    parts = {
        name: float(value.replace(",", "."))
        for name, value in found.groupdict().items()
        if value is not None
    }
    duration: timedelta = _datetime().timedelta(**parts)
    return duration


def _tolerance(owner: str, within: object) -> timedelta:
    duration = _datetime().timedelta
    if isinstance(within, str):
        within = parse_duration(within)
    if not isinstance(within, duration):
        raise TypeError(
            f"{owner} within must be a timedelta or an ISO 8601 duration like 'PT1H', "
            f"got {short_repr(within)} ({type_name(within)})"
        )
    if within < duration(0):
        raise ValueError(f"{owner} within must not be negative, got {within!r}")
    tolerance: timedelta = within
    return tolerance


def _with_offset(moment: datetime) -> datetime:
    """A naive datetime read as UTC (docs/matchers.md): aware ones are left as they are."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        return moment.replace(tzinfo=_datetime().timezone.utc)
    return moment


def _fromisoformat_z(text: str) -> Any:
    if text[-1:] in ("Z", "z"):
        text = text[:-1] + "+00:00"
    return _datetime().datetime.fromisoformat(text)


def _read_datetime(value: object) -> Any:
    """The datetime ``value`` holds, or why it holds none (a str)."""
    module = _datetime()
    if type(value) is str:
        text = value
    else:
        try:
            if isinstance(value, module.datetime):
                return value
            if isinstance(value, module.date):
                return f"{value!r} is a date without a time (use IsDate)"
        except Exception:
            pass
        text = text_of(value)  # type: ignore[assignment]
        if text is None:
            return f"expected an ISO 8601 datetime, got {short_repr(value)} ({type_name(value)})"
    # Every ISO 8601 datetime is longer than ten characters, and every date at most ten.
    if len(text) > 10:
        try:
            return _FROMISOFORMAT(text)
        except Exception:
            pass
    elif not text.isdigit():
        try:
            module.date.fromisoformat(text)
        except ValueError:
            pass
        else:
            return f"{short_repr(text)} is a date without a time (use IsDate)"
    return f"{short_repr(text)} is not an ISO 8601 datetime"


def _read_date(value: object) -> Any:
    module = _datetime()
    try:
        if isinstance(value, module.datetime):
            return f"{value!r} is a datetime, not a date"
        if isinstance(value, module.date):
            return value
    except Exception:
        pass
    text = text_of(value)
    if text is None:
        return f"expected an ISO 8601 date, got {short_repr(value)} ({type_name(value)})"
    try:
        return module.date.fromisoformat(text)
    except Exception:
        return f"{short_repr(text)} is not an ISO 8601 date"


def _moment(near: object) -> datetime | None:
    """The moment :class:`IsDatetime`'s ``near`` names (a date: its midnight); ``None`` for
    none or ``"now"``; an error for anything else."""
    module = _datetime()
    if near is None or (isinstance(near, str) and near == "now"):
        return None
    if isinstance(near, str):
        found = _read_datetime(near)
        if isinstance(found, str):
            found = _read_date(near)
            if isinstance(found, str):
                raise ValueError(f"IsDatetime near {short_repr(near)} is not ISO 8601")
        near = found
    if isinstance(near, module.datetime):
        return near  # type: ignore[no-any-return]
    if isinstance(near, module.date):
        return module.datetime.combine(near, module.time())  # type: ignore[no-any-return]
    raise TypeError(
        "IsDatetime near must be a datetime, a date, an ISO 8601 str or 'now', "
        f"got {short_repr(near)} ({type_name(near)})"
    )


def _day(near: object) -> date | None:
    """The day :class:`IsDate`'s ``near`` names; ``None`` for none or ``"today"``; an error
    for anything else (a datetime included)."""
    module = _datetime()
    if near is None or (isinstance(near, str) and near == "today"):
        return None
    if isinstance(near, module.datetime) or not isinstance(near, (str, module.date)):
        raise TypeError(
            "IsDate near must be a date, an ISO 8601 date str or 'today', "
            f"got {short_repr(near)} ({type_name(near)})"
        )
    found = _read_date(near)
    if isinstance(found, str):
        raise ValueError(f"IsDate near: {found}")
    return found  # type: ignore[no-any-return]


def _aware(found: datetime) -> bool | None:
    """Whether ``found`` carries a UTC offset; ``None`` when its tzinfo cannot say."""
    zone = found.tzinfo
    try:
        # A fixed offset (all that ISO strings give) always has one; another tzinfo is asked.
        return zone is not None and (type(zone) is _TIMEZONE or found.utcoffset() is not None)
    except Exception:
        return None


def _now(aware: bool) -> datetime:
    """The moment ``near="now"`` names, in UTC, naive beside a naive value."""
    now = _datetime().datetime.now(_datetime().timezone.utc)
    return now if aware else now.replace(tzinfo=None)  # type: ignore[no-any-return]


def _difference(delta: timedelta) -> str:
    seconds = delta.total_seconds()
    return f"{abs(delta)} {'later' if seconds > 0 else 'earlier'}"


@public
class IsDatetime(ReasonedMatcher, _trusted=True):
    """A datetime, or an ISO 8601 string with a date and a time; optionally near a moment.

    ``near`` is a datetime, a date (its midnight), an ISO 8601 string or ``"now"``
    (read at each comparison, in UTC); ``within`` a ``timedelta`` or an ISO 8601 duration.
    A naive value is read as UTC when the other side carries an offset. ``tz_aware=True``
    asks for an offset, ``False`` for none (docs/matchers.md).

    >>> IsDatetime(near="2026-12-01T10:00:00Z", within="PT1H") == "2026-12-01T10:30:00+00:00"
    True
    >>> IsDatetime().explain("next tuesday")
    "'next tuesday' is not an ISO 8601 datetime"
    >>> reason = IsDatetime("2026-12-01T10:00Z", "PT1H").explain("2026-12-01T12:00Z")
    >>> print(reason.replace(", ", "\\n"))
    expected a datetime within 1:00:00 of 2026-12-01 10:00:00+00:00
    got 2026-12-01 12:00:00+00:00 (2:00:00 later)
    """

    __slots__ = (
        "near",
        "within",
        "tz_aware",
        "_near",
        "_near_aware",
        "_near_utc",
        "_within",
        "_earliest",
    )
    near: object
    within: object
    tz_aware: bool | None
    _near: datetime | None
    _near_aware: bool
    _near_utc: datetime | None  # _near, a naive one read as UTC
    _within: timedelta
    _earliest: timedelta  # -_within

    def __init__(
        self, near: object = None, within: object = None, *, tz_aware: bool | None = None
    ) -> None:
        module = _datetime()
        if tz_aware is not None and not isinstance(tz_aware, bool):
            raise TypeError(f"IsDatetime tz_aware must be None, True or False, got {tz_aware!r}")
        if near is None and within is not None:
            raise ValueError("IsDatetime within needs near: within how long of what?")
        moment = _moment(near)
        self._set(
            near=near,
            within=within,
            tz_aware=tz_aware,
            _near=moment,
            _near_aware=moment is not None and moment.utcoffset() is not None,
            _near_utc=None if moment is None else _with_offset(moment),
        )
        tolerance = module.timedelta(0) if within is None else _tolerance("IsDatetime", within)
        self._set(_within=tolerance, _earliest=-tolerance)

    def _reason(self, actual: object) -> str | None:
        found = _read_datetime(actual)
        if type(found) is str:
            return found
        aware = _aware(found)
        if aware is None:
            return f"{short_repr(actual)} has a UTC offset that cannot be read"
        wrong_zone = self._zone_reason(actual, aware)
        if wrong_zone is not None:
            return wrong_zone
        if self._near is None and self.near is None:
            return None
        near = _now(aware) if self._near is None else self._near
        try:
            delta = self._delta(found, near, aware)
        except Exception as error:
            return f"{short_repr(actual)} cannot be compared with {near}: {error}"
        if self._earliest <= delta <= self._within:
            return None
        shown = "now" if self._near is None else near
        return (
            f"expected a datetime within {self._within} of {shown}, "
            f"got {found} ({_difference(delta)})"
        )

    def _zone_reason(self, actual: object, aware: bool) -> str | None:
        """Why ``tz_aware`` refuses ``actual`` (``aware``: whether it has a UTC offset)."""
        if self.tz_aware is None or aware is self.tz_aware:
            return None
        wanted = "with a UTC offset" if self.tz_aware else "without a UTC offset"
        return f"expected a datetime {wanted}, got {short_repr(actual)}"

    def _delta(self, found: datetime, near: datetime, aware: bool) -> timedelta:
        """How far ``found`` is from ``near``, a naive one read as UTC beside an aware one."""
        if aware is self._near_aware or self._near is None:
            return found - near
        assert self._near_utc is not None  # _near is set
        return _with_offset(found) - self._near_utc

    def matches(self, actual: object) -> bool:
        # The verdict alone, as _reason reaches it: words are built only on a mismatch.
        try:
            if type(actual) is str and len(actual) > 10:
                found = _FROMISOFORMAT(actual)
            else:
                found = _read_datetime(actual)
                if type(found) is str:
                    return False
            if self.tz_aware is not None:
                zone = found.tzinfo
                aware = zone is not None and found.utcoffset() is not None
                if aware is not self.tz_aware:
                    return False
            near = self._near
            if near is None:
                return self.near is None or self._reason(actual) is None  # "now"
            try:
                delta = found - near
            except TypeError:  # one side naive, the other aware: the naive one is UTC
                delta = _with_offset(found) - self._near_utc  # type: ignore[operator]
            return self._earliest <= delta <= self._within  # type: ignore[no-any-return]
        except Exception:
            return False

    def _constructor_args(self) -> ConstructorArgs:
        args = () if self.near is None else (self.near,)
        options = {"within": self.within, "tz_aware": self.tz_aware}
        return args, {name: value for name, value in options.items() if value is not None}


@public
class IsDate(ReasonedMatcher, _trusted=True):
    """A date, or an ISO 8601 date string; optionally within ``within_days`` of ``near``.

    ``near`` is a date, an ISO 8601 date string or ``"today"`` (read at each comparison,
    in UTC). A datetime is not a date: it says more (docs/matchers.md).

    >>> IsDate(near="2026-12-01", within_days=1) == "2026-12-02"
    True
    >>> IsDate().explain("next tuesday")
    "'next tuesday' is not an ISO 8601 date"
    >>> IsDate(near="2026-12-01").explain("2026-12-03")
    'expected the date 2026-12-01, got 2026-12-03 (2 days later)'
    """

    __slots__ = ("near", "within_days", "_near")
    near: object
    within_days: int
    _near: date | None

    def __init__(self, near: object = None, within_days: int = 0) -> None:
        if isinstance(within_days, bool) or not isinstance(within_days, int):
            raise TypeError(f"IsDate within_days must be an int, got {short_repr(within_days)}")
        if within_days < 0:
            raise ValueError(f"IsDate within_days must not be negative, got {within_days}")
        if near is None and within_days:
            raise ValueError("IsDate within_days needs near: within how many days of what?")
        day = _day(near)
        self._set(near=near, within_days=within_days, _near=day)

    def _reason(self, actual: object) -> str | None:
        found = _read_date(actual)
        if isinstance(found, str):
            return found
        if self.near is None:
            return None
        near = _now(True).date() if self._near is None else self._near  # None: "today"
        days = (found - near).days
        if abs(days) <= self.within_days:
            return None
        unit = "day" if self.within_days == 1 else "days"
        span = f"a date within {self.within_days} {unit} of" if self.within_days else "the date"
        shown = "today" if self._near is None else near.isoformat()
        plural = "s" if abs(days) != 1 else ""
        later = f"{abs(days)} day{plural} {'later' if days > 0 else 'earlier'}"
        return f"expected {span} {shown}, got {found.isoformat()} ({later})"

    def _constructor_args(self) -> ConstructorArgs:
        args = () if self.near is None else (self.near,)
        return args, {"within_days": self.within_days} if self.within_days else {}
