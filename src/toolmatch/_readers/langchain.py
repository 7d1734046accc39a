"""LangChain: messages as ``model_dump()``, ``messages_to_dict()`` and ``dumpd()`` give them,
tool calls, invalid tool calls and ``ToolMessage`` results. LangChain names the speaker in
``type``."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.identity import message_key
from toolmatch._readers.reading import Reading, as_data, cannot_read

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "MESSAGE_TYPES",
    "read_invalid_tool_call",
    "read_message",
    "read_serialized",
    "read_tool_message",
]

# Message types other than 'tool', whose messages read like any chat message. A
# FunctionMessage ('function') shares its type with OpenAI's tool-call entries, and is read
# there.
MESSAGE_TYPES = ("ai", "AIMessageChunk", "human", "system", "chat", "remove")


def read_message(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A message, or a ``messages_to_dict()`` entry (``type`` and ``data``)."""
    if _read_entry(data, where, reading):
        return
    # An AI message counts once per identity, its id and its calls (a state's snapshots
    # repeat it). Only AI messages: others hold no call, and a RemoveMessage's id is the
    # removed message's.
    if data.get("type") == "ai":
        start = reading.position()
        # its name is the agent that wrote it (create_agent(name=...))
        reading.read_by(data.get("name"), data, where, _read_calls)
        reading.sighted(message_key(data.get("id")), start)
        if reading.answering:
            reading.said(as_data(data.get("content")), start)
        return
    _read_calls(data, where, reading)


def _read_entry(data: Mapping[str, Any], where: str, reading: Reading) -> bool:
    """Whether ``data`` is a ``messages_to_dict()`` entry, read as its ``data``."""
    if len(data) == 2 and "data" in data:
        inner = as_data(data["data"])
        if isinstance(inner, Mapping):
            reading.read(inner, f"{where}.data")
            return True
    return False


def _read_calls(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A message's calls: its parsed ``tool_calls``, else an AI message's content blocks."""
    # The parsed calls are authoritative: the content holds the provider's raw blocks, the
    # same calls again.
    for key in ("tool_calls", "invalid_tool_calls"):
        entries = data.get(key)
        if entries is not None:
            reading.read_each(_listed(entries), f"{where}.{key}")
    if "tool_calls" in data or "invalid_tool_calls" in data or data.get("type") != "ai":
        return
    content = as_data(data.get("content"))  # an AI message written without tool_calls
    if isinstance(content, (list, tuple)):
        for index, block in enumerate(content):
            if not isinstance(block, str):
                reading.read(block, f"{where}.content[{index}]")


def _listed(value: object) -> list[object] | tuple[object, ...]:
    entries = as_data(value)
    if isinstance(entries, (list, tuple)):
        return entries
    return [entries]  # read as an item: its error names it


def read_tool_message(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``ToolMessage``: the result of the call of its ``tool_call_id``; ``status`` is
    ``"success"`` unless the tool failed."""
    if _read_entry(data, where, reading):
        return
    status = data.get("status", "success")
    call_id, content = data.get("tool_call_id"), data.get("content")
    if reading.first_answer(message_key(data.get("id")), (call_id, content, status)):
        # a repeat of an answer already read would go to a reused call id: read once
        reading.result(call_id, content, status == "error")


def read_serialized(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An object as ``langchain_core.load.dumpd`` / ``dumps`` write it: ``{"lc": 1, "type":
    "constructor", "id": [...class path], "kwargs": {...}}``, read as its ``kwargs``."""
    kwargs = data.get("kwargs")
    if data.get("lc") != 1 or not isinstance(kwargs, Mapping):
        hint = 'a \'constructor\' is LangChain\'s serialization, with "lc": 1 and its "kwargs"'
        raise cannot_read(data, where, hint)
    reading.read(kwargs, f"{where}.kwargs")


def read_invalid_tool_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An ``invalid_tool_calls`` entry: never a match, its error is kept."""
    name = data.get("name")
    reason = data.get("error") or "the arguments could not be parsed"
    error = f"invalid tool call ({reason}); arguments: {short_repr(data.get('args'))}"
    reading.call(name if isinstance(name, str) else "", None, data.get("id"), where, error)
