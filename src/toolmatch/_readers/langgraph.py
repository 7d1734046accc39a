"""Readers for LangGraph: states, ``StateSnapshot``s and stream updates, whose
``messages`` (LangChain messages) are handed back to ``reading.read``. See
docs/formats.md, "LangGraph".
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import as_data, cannot_read, wrong_shape

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = [
    "is_langgraph_update",
    "read_langgraph_part",
    "read_langgraph_snapshot",
    "read_langgraph_update",
    "read_message_state",
]


def read_message_state(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A state (or a node's update) with ``messages``: a list of them, or one message."""
    messages = data["messages"]
    inner = f"{where}.messages"
    if isinstance(messages, (list, tuple)):
        reading.read_each(messages, inner)
    else:
        reading.read(messages, inner)


def is_langgraph_update(data: Mapping[str, Any]) -> bool:
    """A ``stream_mode="updates"`` chunk: ``{node: update}``, the update holding
    ``messages`` or, for a node that returned nothing, ``None``."""
    if len(data) != 1:
        return False
    (update,) = data.values()
    return update is None or (isinstance(update, Mapping) and "messages" in update)


def read_langgraph_update(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """One ``stream_mode="updates"`` chunk: the messages its node added."""
    ((node, update),) = data.items()
    if update is not None:
        read_message_state(update, f"{where}[{short_repr(node)}]", reading)


def read_langgraph_part(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``version="v2"`` stream part of type ``updates``: the ``{node: update}`` in its
    ``data``. (Its other modes are not read: ``values`` repeats the whole state at each
    step, ``messages`` repeats what the updates hold.)"""
    updates = as_data(data.get("data"))
    inner = f"{where}.data"
    if not isinstance(updates, Mapping):
        raise wrong_shape(inner, "a mapping of node names to updates", updates)
    for node, update in updates.items():
        if node == "__interrupt__" or update is None:
            continue
        place = f"{inner}[{short_repr(node)}]"
        if not isinstance(update, Mapping) or "messages" not in update:
            raise cannot_read(update, place)
        read_message_state(update, place, reading)


def read_langgraph_snapshot(obj: Any, where: str, reading: Reading) -> None:
    """A ``StateSnapshot`` (``graph.get_state(config)``): the state in its ``values``."""
    values = obj.values
    inner = f"{where}.values"
    if not isinstance(values, Mapping) or "messages" not in values:
        raise wrong_shape(inner, "a state with 'messages'", values)
    read_message_state(values, inner, reading)
