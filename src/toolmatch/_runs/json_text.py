"""The parse step of TRACES: JSON text read with orjson where it is installed, with the
standard library's ``json`` results kept exactly.

:func:`fast_loads` is the one place a trace record's JSON text meets the fast parser:
it gives what ``json.loads`` gives, or :data:`DECLINED` for text it leaves to ``json``
(and so to its errors). orjson reads strict RFC 8259 JSON into the same values as
``json.loads``, duplicate keys too (the last wins, at the first one's place); where the
two differ, orjson refuses the text or might read it otherwise, and ``json`` reads it:

- an integer beyond 64 bits, which orjson reads as a float: text with a run of 19 digits
  or more is declined before orjson sees it, unless the run opens a string (OTLP/JSON's
  nanosecond times and hex ids): in JSON a digit right after a quote is in a string, a
  closing quote being followed by a separator;
- ``NaN``, ``Infinity`` and ``-Infinity``, a number beyond a float (``1e400``), a lone
  surrogate escape (``"\\ud800"``), invalid UTF-8, a byte order mark, nesting deeper than
  orjson's limit: orjson refuses them, so ``json`` reads them, or raises its own error.

Without orjson every text is declined. orjson is imported on the first call, not with
``toolmatch`` (B5).
"""

from __future__ import annotations

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["DECLINED", "fast_loads"]

DECLINED = object()  # what fast_loads gives for text json reads instead

# Digits kept as b"0", a quote as itself, every other byte as a space: a run of 19 zeros in
# the result is a number orjson may read otherwise, unless a quote opens it. One translate
# and one search cost a tenth of a parse; a regex searching for the run costs more than the
# parse itself. The runs a quote opens are taken out only where a run is found: B4's agent
# mix, whose OTLP/JSON lines all hold such runs, parsed by orjson, not json: 0.47 -> 0.31 s
# of CPU a 6,000 of them, translate and search included.
_DIGITS = bytes(48 if 48 <= byte <= 57 else byte if byte == 34 else 32 for byte in range(256))
_LONG_RUN = b"0" * 19
_QUOTED_RUN = b'"' + _LONG_RUN


class _Parser:
    """orjson's ``loads`` and the error it raises, found on first use (or ``None``)."""

    loads: Callable[[bytes | str], object] | None = None
    error: type[Exception] = Exception
    found = False


def _find() -> None:
    _Parser.found = True
    try:
        import orjson
    except ImportError:
        return
    _Parser.loads = orjson.loads
    _Parser.error = orjson.JSONDecodeError


def fast_loads(text: bytes | str) -> object:
    """``text`` read as ``json.loads`` reads it, or :data:`DECLINED` when ``json`` must
    read it (no orjson, or text where the two differ).

    >>> fast_loads(b'{"case": "lookup", "turns": []}')
    {'case': 'lookup', 'turns': []}
    >>> fast_loads(b'{"n": 123456789012345678901}') is DECLINED
    True
    """
    if not _Parser.found:
        _find()
    loads = _Parser.loads
    if loads is None:
        return DECLINED
    if type(text) is not bytes:
        try:  # text's UTF-8, searched as bytes are: str.translate goes a dict lookup a character
            text = text.encode()  # type: ignore[union-attr]
        except UnicodeEncodeError:  # a lone surrogate
            return DECLINED
    digits = text.translate(_DIGITS)
    if _LONG_RUN in digits and _LONG_RUN in digits.replace(_QUOTED_RUN, b""):
        return DECLINED
    try:
        return loads(text)
    except _Parser.error:
        return DECLINED
