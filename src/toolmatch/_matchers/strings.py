"""String-shaped matchers: ``Fuzzy`` and ``Regex`` (docs/semantics.md has their rules)."""

from __future__ import annotations

import math
import sys
from contextvars import ContextVar

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch

if TYPE_CHECKING:
    import re
    from collections.abc import Callable, Iterator
    from contextvars import Token
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["DEFAULT_TIMEOUT", "Fuzzy", "Regex", "default_regex_timeout", "read_number"]

DEFAULT_TIMEOUT = 0.1
"""Seconds of processor time one Regex match may take, unless the matcher says otherwise."""

# Thousands separators the reference strips anywhere: comma, underscore, narrow no-break space.
_SEPARATORS = str.maketrans("", "", ",_\u202f")
# What is left of a string in plain decimal notation once these are deleted: nothing.
# (Only plain decimal notation counts as a number, so "nan" and "inf" stay words.)
_NUMERIC = str.maketrans("", "", "0123456789+-.e")


# What Fuzzy's whitespace option takes: runs of whitespace read as one space, or as none.
_WHITESPACE = ("collapse", "remove")

# Whitespace is collapsed this many characters at a time: str.split() on a whole long
# text would hold one object per word (about 60 bytes each) before the join.
_CHUNK = 1 << 16


def _normalize(text: str, remove: bool = False) -> str:
    """Lowercase, drop thousands separators, collapse and trim whitespace (or, with
    ``remove``, drop every whitespace character)."""
    # str's own methods: a str subclass must not decide how it is normalized.
    # Lowercasing looks at neighbours (a final sigma), so it sees the whole text.
    text = str.translate(str.lower(text), _SEPARATORS)
    if remove:
        # Chunk by chunk for the same reason as below; no boundary can join two words here.
        return "".join(
            "".join(text[start : start + _CHUNK].split()) for start in range(0, len(text), _CHUNK)
        )
    if len(text) <= _CHUNK:
        return " ".join(str.split(text))
    pieces: list[str] = []
    space = False  # whether whitespace came since the last word
    for start in range(0, len(text), _CHUNK):
        chunk = text[start : start + _CHUNK]
        words = " ".join(chunk.split())
        if words:
            if pieces and (space or chunk[0].isspace()):
                pieces.append(" ")
            pieces.append(words)
            space = chunk[-1].isspace()
        else:
            space = True
    del text, chunk  # only the pieces and the result are alive at the join
    return "".join(pieces)


_SPACE_GROUPED: Callable[[str], object] | None = None


def _is_space_grouped(text: str) -> bool:
    """Digits grouped in threes by single spaces, ``"-1 234 567.5"``: the reference's flaw."""
    global _SPACE_GROUPED
    if _SPACE_GROUPED is None:
        import re

        # \d is what str.isdecimal() accepts; compiled on first use to keep imports fast.
        _SPACE_GROUPED = re.compile(r"[+-]?\d{1,3}(?: \d{3})+(?:\.\d*)?").fullmatch
    return _SPACE_GROUPED(text) is not None


def _parse_number(text: str) -> float | None:
    """The number a normalized string spells, ``"14.14%"`` as 0.1414; else ``None``."""
    percent = text.endswith("%")
    if percent:
        text = text[:-1].rstrip()
    if not text.isascii() or text.translate(_NUMERIC):
        if not _is_space_grouped(text):
            return None
        text = text.replace(" ", "")
    try:
        number = float(text)
    except ValueError:  # the right characters in a wrong order, like "1-2" or "e"
        return None
    return number / 100 if percent else number


def read_number(text: str) -> float | None:
    """The number ``text`` spells as :class:`Fuzzy` reads it (``"10,000.0"``, ``" 14.14% "``
    as 0.1414); ``None`` when it spells none.

    >>> read_number("10,000.0"), read_number("14.14%"), read_number("ten")
    (10000.0, 0.1414, None)
    """
    return _parse_number(_normalize(text))


@public
class Fuzzy(Matcher, _trusted=True):
    """Case-, whitespace- and separator-tolerant, numeric-aware match (docs/semantics.md).

    Both sides are lowercased, stripped of thousands separators (``,`` ``_`` and narrow
    no-break space) and whitespace-collapsed; when both then read as numbers
    (``"14.14%"`` reads as 0.1414, ``"206 588"`` as 206588) they compare within 1e-9,
    otherwise as text. There is no distance tolerance. ``whitespace="remove"`` drops
    every whitespace character instead of collapsing runs of them.

    >>> Fuzzy("206588") == "206,588", Fuzzy("14.14%") == 0.1414, Fuzzy("YES") == " yes "
    (True, True, True)
    >>> Fuzzy("206588") == 206000
    False
    >>> Fuzzy("(9+6)*3", whitespace="remove") == "(9 + 6) * 3"
    True
    """

    __slots__ = ("pattern", "whitespace", "_remove", "_text", "_number")
    pattern: str
    whitespace: str
    _remove: bool
    _text: str
    _number: float | None

    def __init__(self, pattern: str, *, whitespace: str = "collapse") -> None:
        if not isinstance(pattern, str):
            try:
                hint = f"; write Fuzzy({short_repr(str(pattern))})"
            except Exception:  # a __str__ that raises, an int too long to print
                hint = ""
            raise TypeError(
                f"Fuzzy pattern must be a str, got {short_repr(pattern)} ({type_name(pattern)})"
                + hint
            )
        if not isinstance(whitespace, str) or str.__str__(whitespace) not in _WHITESPACE:
            raise ValueError(
                f"Fuzzy whitespace must be 'collapse' (runs of it read as one space, the "
                f"default) or 'remove' (none of it counts), got {short_repr(whitespace)}"
            )
        whitespace = str.__str__(whitespace)
        remove = whitespace == "remove"
        text = _normalize(pattern, remove)
        self._set(
            pattern=pattern,
            whitespace=whitespace,
            _remove=remove,
            _text=text,
            _number=_parse_number(text),
        )

    def matches(self, actual: object) -> bool:
        expected = self._number
        kind = type(actual)
        if expected is not None and (kind is int or kind is float):
            # float(str(x)) == float(x) for int and float, so skip the text round trip.
            try:
                return math.isclose(expected, actual, rel_tol=0.0, abs_tol=1e-9)  # type: ignore[arg-type]
            except OverflowError:
                pass  # an int past float range: its text reads as an infinity, as in the reference
        try:
            text = _normalize(actual if isinstance(actual, str) else str(actual), self._remove)
        except Exception:
            return False
        if text == self._text:
            return True
        if expected is None:
            return False
        number = _parse_number(text)
        return number is not None and math.isclose(expected, number, rel_tol=0.0, abs_tol=1e-9)

    def describe_mismatch(self, actual: object) -> str:
        how = " (whitespace removed)" if self._remove else ""
        return f"fuzzy {self.pattern!r}{how} does not match {short_repr(actual)}"

    def _constructor_args(self) -> ConstructorArgs:
        return (self.pattern,), {"whitespace": "remove"} if self._remove else {}


_ENGINE: Any = None  # the regex package once looked for; False when it is not installed
_TIMEOUTS = ContextVar("toolmatch_regex_timeout", default=DEFAULT_TIMEOUT)


def _regex_package() -> Any:
    global _ENGINE
    if _ENGINE is None:
        try:
            import regex
        except ImportError:
            _ENGINE = False
        else:
            _ENGINE = regex
    return _ENGINE


class default_regex_timeout:  # noqa: N801 (used as a context manager, like a function)
    """Within ``with default_regex_timeout(seconds):`` a Regex built without ``timeout``
    gets ``seconds`` (``toolmatch check --regex-timeout`` loads its spec this way).

    >>> with default_regex_timeout(0.5):
    ...     Regex("[a-z]+")
    Regex('[a-z]+', timeout=0.5)
    """

    __slots__ = ("seconds", "_token")
    seconds: float
    _token: Token[float] | None

    def __init__(self, seconds: float) -> None:
        object.__setattr__(self, "seconds", _check_timeout(seconds))
        object.__setattr__(self, "_token", None)

    def __enter__(self) -> None:
        object.__setattr__(self, "_token", _TIMEOUTS.set(self.seconds))

    def __exit__(self, *exc_info: object) -> None:
        if self._token is not None:
            _TIMEOUTS.reset(self._token)


def _check_timeout(timeout: object) -> float:
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise TypeError(f"a regex timeout must be a number of seconds, got {short_repr(timeout)}")
    if not timeout > 0:  # NaN too
        raise ValueError(
            f"a regex timeout must be more than 0 seconds (math.inf for none), got {timeout!r}"
        )
    return float(timeout)


def _as_text(actual: object) -> str:
    """What a Regex matches: a str's characters, or the str() of anything else."""
    text = actual if isinstance(actual, str) else str(actual)
    return str.__str__(text)  # an exact str: a subclass's __len__ must not lie to the bound


@public
class Regex(Matcher, _trusted=True):
    """Full match of a regular expression against ``str(actual)`` (docs/semantics.md).

    The whole string must match, as if the pattern were wrapped in ``^...$``. An invalid
    pattern raises ``ValueError`` here, never during a comparison. With the ``regex``
    package installed (the ``regex`` and ``cli`` extras), a match that runs longer than
    ``timeout`` seconds of processor time (default 0.1) gives up: a mismatch that says
    so. Without it, Python's ``re`` runs every match to its end (see docs/matchers.md).

    >>> Regex("^2009.*$") == "2009 cash flow", Regex("^2009.*$") == "report 2009"
    (True, False)
    >>> Regex(r"181001(\\.0+)?") == 181001.0
    True
    >>> Regex("[0-9]+", timeout=0.5)
    Regex('[0-9]+', timeout=0.5)
    """

    __slots__ = ("pattern", "flags", "timeout", "_fullmatch", "_bounded", "_quick")
    pattern: str
    flags: int
    timeout: float
    _fullmatch: Any
    _bounded: Any
    _quick: int

    def __init__(
        self,
        pattern: str | re.Pattern[str],
        flags: int | re.RegexFlag = 0,
        *,
        timeout: float | None = None,
    ) -> None:
        pattern, flags = _pattern_and_flags(pattern, flags)
        seconds = _TIMEOUTS.get() if timeout is None else _check_timeout(timeout)
        compiled = _compiled(pattern, flags)
        bounded, quick = _time_limited(pattern, flags, seconds)
        self._set(
            pattern=pattern,
            flags=int(flags),
            timeout=seconds,
            _fullmatch=compiled.fullmatch,
            _bounded=bounded,
            _quick=quick,
        )

    def matches(self, actual: object) -> bool:
        try:
            if type(actual) is not str:
                actual = _as_text(actual)  # a regex matches the str() of a non-string
            if len(actual) <= self._quick:
                return self._fullmatch(actual) is not None
            return self._bounded(actual) is not None
        except Exception:  # a str() that raises; the time limit (TimeoutError)
            return False

    def _accepts_everything(self) -> bool:
        # Every value: a regex matches the str() of a non-string.
        return _matches_every_string(self.pattern, self.flags)

    def _accepts_every_line(self) -> bool:
        """Whether every value without a line break matches, though not every value: the
        ``.*`` that looks like "anything" and refuses only a line break."""
        return not self._accepts_everything() and _matches_every_string(
            self.pattern, self.flags, any_dot=True
        )

    def _reason(self, actual: object) -> str | None:
        """Why ``actual`` does not match, from one match; ``None`` when it does."""
        try:
            text = _as_text(actual)
            quick = len(text) <= self._quick
            if (self._fullmatch(text) if quick else self._bounded(text)) is not None:
                return None
        except TimeoutError:
            return (
                f"regex {self.pattern!r} gave up after {self.timeout * 1000:g} ms "
                f"on a {len(text)}-character value"
            )
        except Exception:  # a str() that raises
            pass
        return f"regex {self.pattern!r} does not match {short_repr(actual)}"

    def describe_mismatch(self, actual: object) -> str:
        return self._reason(actual) or f"regex {self.pattern!r} does not match {short_repr(actual)}"

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        # One match, not the default's two (== then describe_mismatch): each may take the
        # whole time limit.
        reason = self._reason(actual)
        if reason is not None:
            yield Mismatch(path, reason)

    def _constructor_args(self) -> ConstructorArgs:
        import re

        options: dict[str, object] = {"flags": re.RegexFlag(self.flags)} if self.flags else {}
        if self.timeout != DEFAULT_TIMEOUT:
            options["timeout"] = self.timeout
        return (self.pattern,), options

    def __repr__(self) -> str:
        shown = super().__repr__()
        plain = repr(self.pattern)
        raw = _raw_literal(self.pattern)
        # The plain literal opens the repr (after "Regex("); swap in the raw one.
        return shown if raw is None else f"Regex({raw}{shown[6 + len(plain) :]}"


def _matches_every_string(pattern: str, flags: int, *, any_dot: bool = False) -> bool:
    r"""Whether the full match of ``pattern`` succeeds on every string, read off its parse;
    ``any_dot``: on every string without a line break (a ``.`` taken as any character,
    with or without ``(?s)``).

    Only the shapes that certainly do are recognised: a repeat of any character from zero
    times without bound (``(?s).*``, ``[\s\S]*``, ``[\w\W]*?``), in groups and between
    ``^`` / ``\A`` and ``$`` / ``\Z``. Anything else answers ``False``, so ``.*``, which
    refuses a line break without ``(?s)``, does too, unless ``any_dot``.

    >>> _matches_every_string("(?s).*", 0), _matches_every_string(r"^[\s\S]*$", 0)
    (True, True)
    >>> _matches_every_string(".*", 0), _matches_every_string(".+", 16)
    (False, False)
    >>> _matches_every_string(".*", 0, any_dot=True)
    True
    """
    from toolmatch._matchers.backtracking import regex_parser

    constants, parser = regex_parser()
    try:
        parsed = parser.parse(pattern, flags)
    except Exception:  # Regex compiled it already; a parse that differs proves nothing
        return False
    dotall = any_dot or bool(parsed.state.flags & constants.SRE_FLAG_DOTALL)
    return _every_string(list(parsed.data), dotall, constants, any_dot)


def _pattern_and_flags(pattern: object, flags: object) -> tuple[str, int]:
    """:class:`Regex`'s pattern as a plain ``str`` and its flags (a compiled pattern's own),
    refusing anything else, and flags with a compiled pattern."""
    import re  # here, not at the top: `import toolmatch` stays fast

    if isinstance(pattern, re.Pattern):
        if flags:
            raise ValueError(
                f"Regex got flags={flags!r} with an already compiled pattern "
                f"{pattern.pattern!r}; put the flags in re.compile instead"
            )
        if not isinstance(pattern.pattern, str):
            raise TypeError(f"Regex needs a str pattern, got bytes {pattern.pattern!r}")
        flags = pattern.flags & ~re.UNICODE
        pattern = pattern.pattern
    elif isinstance(pattern, str):
        pattern = str.__str__(pattern)  # its characters: a subclass's __hash__ may raise
    else:
        raise TypeError(
            f"Regex pattern must be a str or a compiled str pattern, got "
            f"{short_repr(pattern)} ({type_name(pattern)})"
        )
    if not isinstance(flags, int) or isinstance(flags, bool):
        raise TypeError(f"Regex flags must be re flags (an int), got {short_repr(flags)}")
    known = int(re.A | re.I | re.L | re.M | re.S | re.U | re.X | re.DEBUG)
    if flags & ~known:
        raise ValueError(
            f"Regex flags must be re flags combined with |, like re.I | re.M; got {flags}"
        )
    return pattern, flags


def _compiled(pattern: str, flags: int) -> re.Pattern[str]:
    """``pattern`` compiled by ``re``; any failure to compile is a ``ValueError`` naming it."""
    import re

    try:
        return re.compile(pattern, flags)
    except (re.error, OverflowError, ValueError) as error:  # a{99999999999}; LOCALE with a str
        raise ValueError(f"invalid regular expression {pattern!r}: {error}") from None
    except RecursionError:
        raise ValueError(
            f"invalid regular expression {short_repr(pattern)}: nested too deeply to compile"
        ) from None


def _time_limited(pattern: str, flags: int, seconds: float) -> tuple[Any, int]:
    """The time-limited full match of ``pattern`` (the regex package's, ``None`` without it,
    with no limit, or for a pattern it does not take) and the longest input ``re`` matches
    instead; raises ``ValueError`` for a pattern no time limit can hold."""
    import re

    engine = _regex_package() if seconds != math.inf else None
    if not engine:
        return None, sys.maxsize
    from toolmatch._matchers.backtracking import BUDGET, bounds

    walk, quick_enough = bounds(pattern, flags)
    if walk > BUDGET:
        # The regex package compiles it in time in proportion to the walk, and
        # neither engine can stop inside one: no time limit could hold.
        raise ValueError(
            f"Regex {short_repr(pattern)} has counted repeats that nest to more "
            f"than {BUDGET:,} turns in one walk through it, which no time limit can "
            "hold: count fewer, or pass timeout=math.inf to match it with no limit"
        )
    # Inputs too short to backtrack for long are matched by re; longer ones by the
    # regex package in its re-compatible mode, the one of the two with a time limit.
    engine_flags = (flags & (re.I | re.L | re.M | re.S | re.U | re.X)) | engine.VERSION0
    if flags & re.ASCII:
        engine_flags |= engine.ASCII
    try:
        timed = engine.compile(pattern, engine_flags)
    except Exception:  # one it does not take: re, unbounded (docs/matchers.md)
        return None, sys.maxsize
    from functools import partial

    return partial(timed.fullmatch, timeout=seconds), quick_enough


def _every_string(items: list[Any], dotall: bool, constants: Any, any_dot: bool) -> bool:
    items = _unanchored(items, constants)
    if len(items) != 1:
        return False
    op, value = items[0]
    if op is constants.SUBPATTERN:
        _, added, removed, inner = value
        flag = constants.SRE_FLAG_DOTALL
        inside = any_dot or ((dotall or bool(added & flag)) and not removed & flag)
        return _every_string(list(inner.data), inside, constants, any_dot)
    repeats = (
        constants.MAX_REPEAT,
        constants.MIN_REPEAT,
        getattr(constants, "POSSESSIVE_REPEAT", None),
    )
    if op not in repeats:
        return False
    low, high, inner = value
    if low != 0 or high != constants.MAXREPEAT or len(inner) != 1:
        return False
    return _any_character(inner[0], dotall, constants)


def _unanchored(items: list[Any], constants: Any) -> list[Any]:
    """``items`` without their leading start anchors and trailing end anchors: in a full
    match, a start anchor first and an end anchor last always hold."""
    at, begin, end = constants.AT, constants.AT_BEGINNING, constants.AT_END
    while items and items[0][0] is at and items[0][1] in (begin, constants.AT_BEGINNING_STRING):
        items = items[1:]
    while items and items[-1][0] is at and items[-1][1] in (end, constants.AT_END_STRING):
        items = items[:-1]
    return items


def _any_character(item: tuple[Any, Any], dotall: bool, constants: Any) -> bool:
    """Whether the parsed regex ``item`` matches any one character: ``.`` with ``dotall``,
    or a class holding a category and its negation (``[\\d\\D]``)."""
    kind, what = item
    if kind is constants.ANY:
        return dotall
    if kind is constants.IN:
        categories = {item for op, item in what if op is constants.CATEGORY}
        pairs = (
            (constants.CATEGORY_DIGIT, constants.CATEGORY_NOT_DIGIT),
            (constants.CATEGORY_SPACE, constants.CATEGORY_NOT_SPACE),
            (constants.CATEGORY_WORD, constants.CATEGORY_NOT_WORD),
        )
        negated = any(op is constants.NEGATE for op, _ in what)
        return not negated and any(a in categories and b in categories for a, b in pairs)
    return False


def _raw_literal(text: str) -> str | None:
    r"""``text`` as a raw string literal, when it has a backslash and one can hold it.

    A raw literal cannot end in an odd number of backslashes, hold its own quote or a
    character a literal must escape (a newline, any unprintable one): then ``None``.

    >>> print(_raw_literal(r"https://example\.com/.*"), _raw_literal("it's \\d"))
    r'https://example\.com/.*' r"it's \d"
    >>> _raw_literal("a\\"), _raw_literal("plain"), _raw_literal("\\d\n")
    (None, None, None)
    """
    if "\\" not in text or not text.isprintable():
        return None
    if (len(text) - len(text.rstrip("\\"))) % 2:
        return None
    for quote in ("'", '"'):
        if quote not in text:
            return f"r{quote}{text}{quote}"
    return None
