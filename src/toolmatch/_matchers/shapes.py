"""String shapes: ``StartsWith``, ``EndsWith``, ``IsUUID``, ``IsEmail``, ``IsURL``, ``IsJSON``.

Each takes only strings (a number is not a UUID) and imports what it parses with
(``uuid``, ``urllib.parse``, ``json``, ``re``) when the first one is built.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.flags import check_flag
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch, ReasonedMatcher, nesting_depth
from toolmatch._matchers.literal import as_matcher, text_of
from toolmatch._matchers.values import ANY

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["UUID_VERSIONS", "EndsWith", "IsEmail", "IsJSON", "IsURL", "IsUUID", "StartsWith"]

UUID_VERSIONS = range(1, 9)
"""The UUID versions ``IsUUID`` knows (RFC 9562)."""


def _expected(what: str, actual: object) -> str:
    """A mismatch's words: ``actual``'s type added when it is no str."""
    kind = "" if text_of(actual) is not None else f" ({type_name(actual)})"
    return f"expected {what}, got {short_repr(actual)}{kind}"


class _Affix(Matcher, _trusted=True):
    __slots__ = ("affix", "case_insensitive", "_folded")
    affix: str
    case_insensitive: bool
    _folded: str
    _word = ""
    _test: Callable[[str, str], bool]

    def __init__(self, affix: str, *, case_insensitive: bool = False) -> None:
        name = type(self).__name__
        if not isinstance(affix, str):
            raise TypeError(f"{name} needs a str, got {short_repr(affix)} ({type_name(affix)})")
        check_flag(case_insensitive, f"{name} case_insensitive")
        affix = str.__str__(affix)
        self._set(
            affix=affix,
            case_insensitive=case_insensitive,
            _folded=affix.casefold() if case_insensitive else affix,
        )

    def matches(self, actual: object) -> bool:
        text = text_of(actual)
        if text is None:
            return False
        if self.case_insensitive:
            text = text.casefold()
        return self._test(text, self._folded)

    def describe_mismatch(self, actual: object) -> str:
        how = " (ignoring case)" if self.case_insensitive else ""
        return _expected(f"a str {self._word} {self.affix!r}{how}", actual)

    def _constructor_args(self) -> ConstructorArgs:
        return (self.affix,), {"case_insensitive": True} if self.case_insensitive else {}


@public
class StartsWith(_Affix, _trusted=True):
    """A str that starts with ``prefix`` (``case_insensitive=True`` folds case on both sides).

    >>> StartsWith("weather in") == "weather in Paris", StartsWith("a") == ["a"]
    (True, False)
    >>> StartsWith("weather in", case_insensitive=True).explain("Forecast")
    "expected a str starting with 'weather in' (ignoring case), got 'Forecast'"
    """

    __slots__ = ()
    _word = "starting with"
    _test = staticmethod(str.startswith)


@public
class EndsWith(_Affix, _trusted=True):
    """A str that ends with ``suffix`` (``case_insensitive=True`` folds case on both sides).

    >>> EndsWith(".pdf", case_insensitive=True) == "REPORT.PDF"
    True
    >>> EndsWith(".pdf").explain("report.doc")
    "expected a str ending with '.pdf', got 'report.doc'"
    """

    __slots__ = ()
    _word = "ending with"
    _test = staticmethod(str.endswith)


_CANONICAL_UUID: Any = None
_EMAIL: Any = None


@public
class IsUUID(ReasonedMatcher, _trusted=True):
    """A UUID in its canonical form (``8-4-4-4-12`` hex digits, either case) or a ``uuid.UUID``;
    with ``version``, of that version and the RFC 4122 variant (docs/matchers.md).

    >>> IsUUID() == "6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", IsUUID(4) == "not-a-uuid"
    (True, False)
    >>> IsUUID(1).explain("6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b")
    "expected a version 1 UUID, got '6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b' (version 4)"
    """

    __slots__ = ("version",)
    version: int | None

    def __init__(self, version: int | None = None) -> None:
        global _CANONICAL_UUID
        if version is not None and (
            isinstance(version, bool)
            or not isinstance(version, int)
            or version not in UUID_VERSIONS
        ):
            raise ValueError(f"IsUUID version must be None or 1 to 8, got {short_repr(version)}")
        if _CANONICAL_UUID is None:
            import re
            import uuid  # noqa: F401 (loaded here, once, for _parse)

            hexes = "[0-9a-fA-F]"
            _CANONICAL_UUID = re.compile(
                f"{hexes}{{8}}-{hexes}{{4}}-{hexes}{{4}}-{hexes}{{4}}-{hexes}{{12}}"
            ).fullmatch
        self._set(version=version)

    def _reason(self, actual: object) -> str | None:
        import uuid

        what = "a UUID" if self.version is None else f"a version {self.version} UUID"
        if isinstance(actual, uuid.UUID):
            found = actual
        else:
            text = text_of(actual)
            if text is None or _CANONICAL_UUID(text) is None:
                return _expected(what, actual)
            found = uuid.UUID(text)
        if self.version is None or found.version == self.version:
            return None
        return f"expected {what}, got {short_repr(actual)} (version {found.version})"

    def _constructor_args(self) -> ConstructorArgs:
        return () if self.version is None else (self.version,), {}


@public
class IsEmail(Matcher, _trusted=True):
    """A str shaped like an e-mail address: ``local@domain.tld`` (a shape check, not a lookup).

    The local part takes letters, digits and ``.!#$%&'*+/=?^_`{|}~-`` (no leading, trailing
    or doubled dot); the domain is dot-separated labels of letters, digits and inner
    hyphens, ending in a label of two or more letters (docs/matchers.md).

    >>> IsEmail() == "ada.lovelace+tools@example.co.uk", IsEmail() == "ada@localhost"
    (True, False)
    >>> IsEmail().explain("ada at example.com")
    "expected an e-mail address, got 'ada at example.com'"
    """

    __slots__ = ()

    def __init__(self) -> None:
        global _EMAIL
        if _EMAIL is None:
            import re

            atom = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
            label = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
            _EMAIL = re.compile(
                rf"(?=.{{3,254}}\Z){atom}(?:\.{atom})*@(?:{label}\.)+[A-Za-z]{{2,63}}", re.ASCII
            ).fullmatch

    def matches(self, actual: object) -> bool:
        text = text_of(actual)
        return text is not None and len(text) <= 254 and _EMAIL(text) is not None

    def describe_mismatch(self, actual: object) -> str:
        return _expected("an e-mail address", actual)

    def _constructor_args(self) -> ConstructorArgs:
        return (), {}


_URL_PARTS = ("scheme", "host", "path")


@public
class IsURL(Matcher, _trusted=True):
    """An absolute URL (a scheme and a host), read with ``urllib.parse.urlsplit``.

    ``scheme``, ``host`` and ``path`` each constrain one part: a str (scheme and host
    compared ignoring case, as URLs do) or a matcher (given the part as urlsplit reads it,
    the host lowercased).

    >>> from toolmatch import EndsWith
    >>> IsURL(host=EndsWith("example.com")) == "https://api.example.com/v1?q=1"
    True
    >>> IsURL(scheme="https").explain("http://example.com")
    "scheme: expected 'https', got 'http'"
    >>> IsURL().explain("example.com/x")
    "expected an absolute URL (scheme://host...), got 'example.com/x'"
    """

    __slots__ = ("scheme", "host", "path", "_parts", "_depth")
    scheme: object
    host: object
    path: object
    _parts: tuple[tuple[str, Matcher], ...]

    def __init__(self, scheme: object = None, host: object = None, path: object = None) -> None:
        import urllib.parse  # noqa: F401 (loaded here, once, for _split)

        parts: list[tuple[str, Matcher]] = []
        for name, part in zip(_URL_PARTS, (scheme, host, path), strict=True):
            if part is None:
                continue
            if isinstance(part, str):
                lowered = part.lower() if name != "path" else part
                parts.append((name, as_matcher(lowered)))
            elif isinstance(part, Matcher):
                parts.append((name, part))
            else:
                raise TypeError(
                    f"IsURL {name} must be a str or a matcher, got {short_repr(part)} "
                    f"({type_name(part)})"
                )
        self._set(
            _depth=nesting_depth([m for _, m in parts], self),
            scheme=scheme,
            host=host,
            path=path,
            _parts=tuple(parts),
        )

    def _split(self, actual: object) -> dict[str, object] | str:
        from urllib.parse import urlsplit

        text = text_of(actual)
        try:
            if text is not None and text.isprintable() and not any(c.isspace() for c in text):
                split = urlsplit(text)
                host = split.hostname
                if split.scheme and host:
                    return {"scheme": split.scheme, "host": host, "path": split.path}
        except ValueError:  # an unclosed [ in the host, a port that is not a number
            pass
        return _expected("an absolute URL (scheme://host...)", actual)

    def matches(self, actual: object) -> bool:
        try:
            found = self._split(actual)
            if isinstance(found, str):
                return False
            for name, matcher in self._parts:
                if not matcher.__eq__(found[name]):
                    return False
            return True
        except Exception:
            return False

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        found = self._split(actual)
        if isinstance(found, str):
            yield Mismatch(path, found)
            return
        for name, matcher in self._parts:
            for mismatch in matcher._found_mismatches(found[name], ""):
                yield Mismatch(path, f"{name}: {mismatch}")

    def _constructor_args(self) -> ConstructorArgs:
        values = (self.scheme, self.host, self.path)
        named = zip(_URL_PARTS, values, strict=True)
        return (), {name: value for name, value in named if value is not None}


def _refuse_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


@public
class IsJSON(Matcher, _trusted=True):
    """A str holding JSON whose parsed value matches ``inner`` (Literal rules for plain values).

    Strict JSON: ``NaN`` and ``Infinity`` are refused. Mismatches inside name their path
    past ``<json>`` (docs/matchers.md).

    >>> IsJSON({"status": "open"}) == '{"status": "open"}', IsJSON() == "{oops"
    (True, False)
    >>> from toolmatch import explain
    >>> print(explain({"filters": IsJSON({"status": "open"})}, {"filters": '{"status": "closed"}'}))
    filters<json>.status: expected 'open', got 'closed'
    """

    __slots__ = ("inner", "_matcher", "_loads", "_depth")
    inner: object
    _matcher: Matcher
    _loads: Callable[[str], object]

    def __init__(self, inner: object = ANY) -> None:
        import json
        from functools import partial

        matcher = as_matcher(inner)
        self._set(
            _depth=nesting_depth((matcher,), inner),
            inner=inner,
            _matcher=matcher,
            _loads=partial(json.loads, parse_constant=_refuse_constant),
        )

    def _parse(self, actual: object) -> tuple[bool, object]:
        text = text_of(actual)
        if text is None:
            return False, _expected("a JSON str", actual)
        try:
            return True, self._loads(text)
        except Exception as error:  # JSONDecodeError, too deep, too many digits
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            return False, f"expected a JSON str, got {short_repr(actual)} ({reason})"

    def matches(self, actual: object) -> bool:
        try:
            parsed, value = self._parse(actual)
            return parsed and self._matcher.__eq__(value)
        except Exception:
            return False

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        parsed, value = self._parse(actual)
        if not parsed:
            yield Mismatch(path, value)  # type: ignore[arg-type]
            return
        yield from self._matcher._found_mismatches(value, f"{path}<json>")

    def _constructor_args(self) -> ConstructorArgs:
        return () if self.inner is ANY else (self.inner,), {}
