"""``ToolCall``: one tool call, whatever provider format it arrived in."""

from __future__ import annotations

from toolmatch._describe import short_repr, type_name
from toolmatch._record import Record

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from typing import Any

__all__ = ["ToolCall", "trusted_call"]


class ToolCall(Record):
    """A tool call: the tool's ``name``, its ``args`` dict, the provider's call ``id``.

    ``parse_error`` is set when the provider's arguments could not be read as a JSON
    object; ``args`` is then ``{}`` and any assertion on the arguments fails with it.
    Immutable and compared by value.

    >>> ToolCall("search", {"q": "paris"})
    ToolCall(name='search', args={'q': 'paris'}, id=None, parse_error=None)
    >>> ToolCall("search", {"q": "paris"}) == ToolCall("search", {"q": "paris"})
    True
    """

    __slots__ = _fields = ("name", "args", "id", "parse_error")
    __match_args__ = ("name", "args", "id", "parse_error")
    __hash__ = None  # type: ignore[assignment]  # args is a dict, so a call is unhashable

    name: str
    args: dict[str, Any]
    id: str | None
    parse_error: str | None

    def __init__(
        self,
        name: str,
        args: dict[str, Any] | None = None,
        id: str | None = None,
        parse_error: str | None = None,
    ) -> None:
        if not isinstance(name, str):
            raise TypeError(f"ToolCall name must be a str, got {short_repr(name)}")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise TypeError(
                f"ToolCall args must be a dict, got {short_repr(args)} ({type_name(args)})"
            )
        for field, value in (("id", id), ("parse_error", parse_error)):
            if value is not None and not isinstance(value, str):
                raise TypeError(f"ToolCall {field} must be a str or None, got {short_repr(value)}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "parse_error", parse_error)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the call.

        >>> ToolCall("search", {"q": "paris"}, id="call_1").as_dict()
        {'name': 'search', 'args': {'q': 'paris'}, 'id': 'call_1', 'parse_error': None}
        """
        return dict(zip(self._fields, self._values(), strict=True))


# The slots' own setters: cheaper than object.__setattr__, which looks each name up.
_new_call = object.__new__
_set_name = ToolCall.__dict__["name"].__set__
_set_args = ToolCall.__dict__["args"].__set__
_set_id = ToolCall.__dict__["id"].__set__
_set_parse_error = ToolCall.__dict__["parse_error"].__set__


def trusted_call(name: str, args: dict[str, Any], id: str | None, error: str | None) -> ToolCall:
    """A ``ToolCall`` of values the readers have already checked: ``__init__``'s checks
    would cost as much as reading the call.

    >>> trusted_call("search", {"q": "paris"}, "call_1", None)
    ToolCall(name='search', args={'q': 'paris'}, id='call_1', parse_error=None)
    """
    call: ToolCall = _new_call(ToolCall)
    _set_name(call, name)
    _set_args(call, args)
    _set_id(call, id)
    _set_parse_error(call, error)
    return call
