"""``to_calls``: the tool calls in whatever the user holds, as a list of ``ToolCall``."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._calls import ToolCall
from toolmatch._describe import short_repr, type_name

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from typing import Any


__all__ = ["parse_arguments", "to_calls"]

_ARGUMENT_KEYS = ("args", "arguments", "input")


def parse_arguments(raw: object) -> tuple[dict[str, Any], str | None]:
    """Arguments as a dict, and what was wrong with them (``None`` when nothing was).

    A JSON string is parsed; an empty string or ``None`` means no arguments.

    >>> parse_arguments('{"q": "paris"}')
    ({'q': 'paris'}, None)
    >>> parse_arguments('{"q": ')
    ({}, 'arguments are not valid JSON: Expecting value at line 1 column 7')
    """
    if raw is None:
        return {}, None
    if isinstance(raw, Mapping):
        return dict(raw), None
    if isinstance(raw, (bytes, bytearray)):
        raw = raw.decode("utf-8", errors="replace")
    if isinstance(raw, str):
        if not raw.strip():
            return {}, None
        import json  # here, not at the top: `import toolmatch` stays fast

        try:
            parsed = json.loads(raw)
        except ValueError as error:
            reason = error.msg if isinstance(error, json.JSONDecodeError) else str(error)
            where = (
                f" at line {error.lineno} column {error.colno}"
                if isinstance(error, json.JSONDecodeError)
                else ""
            )
            return {}, f"arguments are not valid JSON: {reason}{where}"
        if not isinstance(parsed, dict):
            return {}, f"arguments are JSON but not an object: {short_repr(parsed)}"
        return parsed, None
    return (
        {},
        f"arguments are neither a JSON string nor an object: {short_repr(raw)} ({type_name(raw)})",
    )


def _from_plain(item: Mapping[str, Any]) -> ToolCall | None:
    name = item.get("name")
    if not isinstance(name, str):
        return None
    raw = next((item[key] for key in _ARGUMENT_KEYS if key in item), None)
    args, error = parse_arguments(raw)
    call_id = item.get("id")
    return ToolCall(name, args, None if call_id is None else str(call_id), error)


_ACCEPTED = "a ToolCall, a dict with 'name' and 'args' / 'arguments' / 'input', or a list of them"


def to_calls(obj: object) -> list[ToolCall]:
    """The tool calls ``obj`` holds, in order.

    >>> to_calls([{"name": "search", "arguments": '{"q": "paris"}'}])
    [ToolCall(name='search', args={'q': 'paris'}, id=None, parse_error=None)]
    """
    if isinstance(obj, ToolCall):
        return [obj]
    if isinstance(obj, Mapping):
        call = _from_plain(obj)
        if call is not None:
            return [call]
    elif isinstance(obj, (list, tuple)):
        calls: list[ToolCall] = []
        for index, item in enumerate(obj):
            try:
                calls.extend(to_calls(item))
            except TypeError as error:
                raise TypeError(f"item {index}: {error}") from None
        return calls
    raise TypeError(
        f"cannot read tool calls from {short_repr(obj)} ({type_name(obj)}); accepted: {_ACCEPTED}"
    )
