"""String-shaped matchers: ``Fuzzy`` (seed 000 section 3) and ``Regex`` (section 4)."""

from __future__ import annotations

import math

from toolmatch._base import Matcher
from toolmatch._describe import short_repr, type_name

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    import re
    from typing import Any

    from toolmatch._base import ConstructorArgs


__all__ = ["Fuzzy", "Regex"]

# Thousands separators the reference strips anywhere: comma, underscore, narrow no-break space.
_SEPARATORS = str.maketrans("", "", ",_\u202f")
# What is left of a string in plain decimal notation once these are deleted: nothing.
# (Only plain decimal notation counts as a number, so "nan" and "inf" stay words.)
_NUMERIC = str.maketrans("", "", "0123456789+-.e")


def _normalize(text: str) -> str:
    """Lowercase, drop thousands separators, collapse and trim whitespace."""
    # str's own methods: a str subclass must not decide how it is normalized.
    return " ".join(str.split(str.translate(str.lower(text), _SEPARATORS)))


def _is_space_grouped(text: str) -> bool:
    """Digits grouped in threes by single spaces, ``"-1 234 567.5"``: the reference's flaw."""
    head, *groups = text.split(" ")
    if head[:1] in ("+", "-"):
        head = head[1:]
    if not groups or not 1 <= len(head) <= 3 or not head.isdecimal():
        return False
    whole, _, fraction = groups[-1].partition(".")
    groups[-1] = whole
    return all(len(group) == 3 and group.isdecimal() for group in groups) and (
        not fraction or fraction.isdecimal()
    )


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


class Fuzzy(Matcher, _trusted=True):
    """Case-, whitespace- and separator-tolerant, numeric-aware match (seed 000 section 3).

    Both sides are lowercased, stripped of thousands separators (``,`` ``_`` and narrow
    no-break space) and whitespace-collapsed; when both then read as numbers
    (``"14.14%"`` reads as 0.1414, ``"206 588"`` as 206588) they compare within 1e-9,
    otherwise as text. There is no distance tolerance.

    >>> Fuzzy("206588") == "206,588", Fuzzy("14.14%") == 0.1414, Fuzzy("YES") == " yes "
    (True, True, True)
    >>> Fuzzy("206588") == 206000
    False
    """

    __slots__ = ("pattern", "_text", "_number")
    pattern: str
    _text: str
    _number: float | None

    def __init__(self, pattern: str) -> None:
        if not isinstance(pattern, str):
            raise TypeError(
                f"Fuzzy pattern must be a str, got {short_repr(pattern)} ({type_name(pattern)}); "
                f"write Fuzzy({str(pattern)!r})"
            )
        text = _normalize(pattern)
        object.__setattr__(self, "pattern", pattern)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_number", _parse_number(text))

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
            text = _normalize(actual if isinstance(actual, str) else str(actual))
        except Exception:
            return False
        if text == self._text:
            return True
        if expected is None:
            return False
        number = _parse_number(text)
        return number is not None and math.isclose(expected, number, rel_tol=0.0, abs_tol=1e-9)

    def describe_mismatch(self, actual: object) -> str:
        return f"fuzzy {self.pattern!r} does not match {short_repr(actual)}"

    def _constructor_args(self) -> ConstructorArgs:
        return (self.pattern,), {}


class Regex(Matcher, _trusted=True):
    """Full match of a regular expression against ``str(actual)`` (seed 000 section 4).

    The whole string must match, as if the pattern were wrapped in ``^...$``. An invalid
    pattern raises ``ValueError`` here, never during a comparison.

    >>> Regex("^2009.*$") == "2009 cash flow", Regex("^2009.*$") == "report 2009"
    (True, False)
    >>> Regex(r"181001(\\.0+)?") == 181001.0
    True
    """

    __slots__ = ("pattern", "flags", "_fullmatch")
    pattern: str
    flags: int
    _fullmatch: Any

    def __init__(self, pattern: str | re.Pattern[str], flags: int | re.RegexFlag = 0) -> None:
        import re  # here, not at the top: `import toolmatch` stays fast

        if isinstance(pattern, re.Pattern):
            if flags:
                raise ValueError(
                    f"Regex got flags={flags!r} with an already compiled pattern "
                    f"{pattern.pattern!r}; put the flags in re.compile instead"
                )
            compiled = pattern
            flags = pattern.flags & ~re.UNICODE
        elif isinstance(pattern, str):
            if not isinstance(flags, int) or isinstance(flags, bool):
                raise TypeError(f"Regex flags must be re flags (an int), got {short_repr(flags)}")
            try:
                compiled = re.compile(pattern, flags)
            except re.error as error:
                raise ValueError(f"invalid regular expression {pattern!r}: {error}") from None
        else:
            raise TypeError(
                f"Regex pattern must be a str or a compiled str pattern, got "
                f"{short_repr(pattern)} ({type_name(pattern)})"
            )
        if not isinstance(compiled.pattern, str):
            raise TypeError(f"Regex needs a str pattern, got bytes {compiled.pattern!r}")
        object.__setattr__(self, "pattern", compiled.pattern)
        object.__setattr__(self, "flags", int(flags))
        object.__setattr__(self, "_fullmatch", compiled.fullmatch)

    def matches(self, actual: object) -> bool:
        try:
            return self._fullmatch(actual) is not None
        except TypeError:  # not a str: match its str() (seed 000 section 4)
            pass
        try:
            return self._fullmatch(str(actual)) is not None
        except Exception:
            return False

    def describe_mismatch(self, actual: object) -> str:
        return f"regex {self.pattern!r} does not match {short_repr(actual)}"

    def _constructor_args(self) -> ConstructorArgs:
        import re

        options: dict[str, object] = {"flags": re.RegexFlag(self.flags)} if self.flags else {}
        return (self.pattern,), options
