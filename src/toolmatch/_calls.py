"""``ToolCall``: one tool call, whatever provider format it arrived in."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolmatch._describe import short_repr, type_name

__all__ = ["ToolCall"]


@dataclass(frozen=True)
class ToolCall:
    """A tool call: the tool's ``name``, its ``args`` dict, the provider's call ``id``.

    ``parse_error`` is set when the provider's arguments could not be read as a JSON
    object; ``args`` is then ``{}`` and any assertion on the arguments fails with it.

    >>> ToolCall("search", {"q": "paris"})
    ToolCall(name='search', args={'q': 'paris'}, id=None, parse_error=None)
    """

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    id: str | None = None
    parse_error: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise TypeError(f"ToolCall name must be a str, got {short_repr(self.name)}")
        if not isinstance(self.args, dict):
            found = f"{short_repr(self.args)} ({type_name(self.args)})"
            raise TypeError(f"ToolCall args must be a dict, got {found}")

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the call.

        >>> ToolCall("search", {"q": "paris"}, id="call_1").as_dict()
        {'name': 'search', 'args': {'q': 'paris'}, 'id': 'call_1', 'parse_error': None}
        """
        return {
            "name": self.name,
            "args": self.args,
            "id": self.id,
            "parse_error": self.parse_error,
        }
