"""Readers for LangGraph: states, ``StateSnapshot``s and the chunks of every stream mode,
whose ``messages`` (LangChain messages) are handed back to ``reading.read``. See
docs/formats.md, "LangGraph".

Stream modes repeat messages (``values`` yields the whole state at each step, ``messages``
what the updates hold): a message counts once per identity (``Reading.sighted``), and a
state that starts with the previous state's messages is read from where that one ended.
LangGraph's ``add_messages`` replaces a message by id: the messages read here are marked so
(``Reading.replacing``), and the version of a message the run executed is the one read.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import as_data, cannot_read, wrong_shape

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = [
    "DEBUG_TYPES",
    "PART_TYPES",
    "is_langgraph_checkpoint",
    "is_langgraph_update",
    "interrupted",
    "is_stream_part",
    "read_debug_event",
    "read_interrupt_update",
    "read_langgraph_checkpoint",
    "read_langgraph_pair",
    "read_langgraph_part",
    "read_langgraph_output",
    "read_langgraph_snapshot",
    "read_langgraph_update",
    "read_message_state",
    "read_task",
]


class _Run:
    """What one reading saw of LangGraph's streams: the last state's messages (for the
    position rule) and where a ``custom`` chunk was, if only such chunks came."""

    __slots__ = ("custom_at", "last", "other")

    def __init__(self) -> None:
        self.last: list[Any] | tuple[Any, ...] | None = None
        self.custom_at: str | None = None
        self.other = False

    def finish(self, reading: Reading) -> None:
        if self.custom_at is not None and not self.other:
            raise TypeError(
                f"to_calls cannot read tool calls from {self.custom_at}: stream_mode='custom' "
                "holds what the graph's nodes wrote with get_stream_writer(), not the run's "
                "messages; pass the final state, or stream with "
                "stream_mode=['updates', 'custom']"
            )


def _messages(read: Callable[[Any, str, Reading], None]) -> Callable[[Any, str, Reading], None]:
    """``read``, with the messages it reads replaced by id, as ``add_messages`` does."""

    def replacing(data: Any, where: str, reading: Reading) -> None:
        outer, reading.replacing = reading.replacing, True
        try:
            read(data, where, reading)
        finally:
            reading.replacing = outer

    replacing.__doc__ = read.__doc__
    return replacing


@_messages
def read_message_state(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A state with ``messages``: a list of them, or one message. A state that starts with
    the previous state's messages (``stream_mode="values"``, checkpoints) is read from where
    that one ended: its first messages are the same ones, ids or not."""
    run = reading.state(_Run)
    run.other = True
    messages = data["messages"]
    inner = f"{where}.messages"
    if not isinstance(messages, (list, tuple)):
        reading.read(messages, inner)
    else:
        start = _repeated(run.last, messages)
        run.last = messages
        if start == 0:
            reading.read_each(messages, inner)
        else:
            for index in range(start, len(messages)):
                reading.read(messages[index], f"{inner}[{index}]")
    interrupted(data.get("__interrupt__"), reading)  # graph.invoke's state, stopped


def interrupted(interrupts: object, reading: Reading) -> None:
    """The run stopped at these interrupts (if any): the calls read so far that no result
    answers await a human, status ``"pending"`` (docs/formats.md, "Call status")."""
    if interrupts:
        reading.note_unanswered("pending")


def read_interrupt_update(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """``{"__interrupt__": (Interrupt(...), ...)}``, an ``updates`` chunk: the run stopped."""
    interrupted(data["__interrupt__"], reading)


def _repeated(
    last: list[Any] | tuple[Any, ...] | None, messages: list[Any] | tuple[Any, ...]
) -> int:
    """How many of ``messages`` repeat ``last``, all of it or none: 0 unless it starts with
    ``last``'s messages (the same objects, or equal ones)."""
    if not last or len(last) > len(messages):
        return 0
    for earlier, message in zip(last, messages, strict=False):  # messages may be longer
        if earlier is not message and earlier != message:
            return 0
    return len(last)


@_messages
def _read_update(update: object, where: str, reading: Reading) -> None:
    """A node's update: the messages it added (``None``: it returned nothing)."""
    if update is None:
        return
    if not isinstance(update, Mapping) or "messages" not in update:
        raise cannot_read(update, where)
    messages = update["messages"]
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
    reading.state(_Run).other = True
    ((node, update),) = data.items()
    reading.read_by(node, update, where + _node_place(node), _read_update)


# Each node name's place in a chunk, '[name]' as short_repr writes it, made once per name:
# a run repeats a few nodes (a LangGraph run of B4's agent mix: 49.7 -> 45.7 µs). Bounded:
# input may name any nodes.
_NODE_PLACES: dict[str, str] = {}
_NODES_KEPT = 1024


def _node_place(node: object) -> str:
    if type(node) is not str:
        return f"[{short_repr(node)}]"
    place = _NODE_PLACES.get(node)
    if place is None:
        place = f"[{short_repr(node)}]"
        if len(_NODE_PLACES) < _NODES_KEPT:
            _NODE_PLACES[node] = place
    return place


def _read_updates(updates: object, where: str, reading: Reading) -> None:
    """An ``updates`` chunk given with its mode: ``{node: update, ...}`` (an interrupt's
    ``__interrupt__`` holds no call)."""
    updates = as_data(updates)
    if not isinstance(updates, Mapping):
        raise wrong_shape(where, "a mapping of node names to updates", updates)
    for node, update in updates.items():
        if node == "__interrupt__":
            interrupted(update, reading)
        else:
            reading.read_by(node, update, where + _node_place(node), _read_update)


def _read_chunk(chunk: object, where: str, reading: Reading) -> None:
    reading.read(chunk, where)


def _note_custom(where: str, reading: Reading) -> None:
    """A ``custom`` chunk: what a node wrote with ``get_stream_writer()``, the user's own
    data, holds no call; a stream of nothing else is refused when the reading finishes."""
    run = reading.state(_Run)
    if run.custom_at is None:
        run.custom_at = where


# Each stream mode's chunk reader ('custom': none, its chunks hold no call). 'values' and
# 'checkpoints' give whole states, read from where the last one ended; 'messages' chunks
# are (message, metadata); 'debug' and 'tasks' chunks are read by their own rows (only
# task results hold what a node added).
_MODES: dict[str, Callable[[Any, str, Reading], None] | None] = {
    "values": _read_chunk,
    "updates": _read_updates,
    "messages": _read_chunk,
    "debug": _read_chunk,
    "tasks": _read_chunk,
    "checkpoints": _read_chunk,
    "custom": None,
}
# The 'type' of a version="v2" stream part, one a mode.
PART_TYPES = tuple(_MODES)


def _read_mode(mode: str, chunk: object, where: str, place: str, reading: Reading) -> None:
    """A chunk of a known ``mode`` at ``place``, in the pair or part at ``where``."""
    reader = _MODES[mode]
    if reader is None:
        _note_custom(where, reading)
        return
    reading.state(_Run).other = True
    reader(chunk, place, reading)


def read_langgraph_pair(items: tuple[Any, ...], where: str, reading: Reading) -> bool:
    """A ``(mode, chunk)`` tuple of ``stream_mode=[...]``, or with ``subgraphs=True``
    ``(namespace, mode, chunk)`` / ``(namespace, chunk)``; ``False`` for a tuple of neither
    shape, which is read as a sequence."""
    if len(items) == 3 and type(items[0]) is tuple and type(items[1]) is str:
        mode, chunk, place = items[1], items[2], f"{where}[2]"
    elif len(items) == 2 and type(items[0]) is tuple and _is_namespace(items[0]):
        reading.read(items[1], f"{where}[1]")
        return True
    elif len(items) == 2 and type(items[0]) is str:
        mode, chunk, place = items[0], items[1], f"{where}[1]"
    elif len(items) == 2 and isinstance(items[1], Mapping) and "langgraph_node" in items[1]:
        # A stream_mode="messages" chunk: the message, and metadata naming its node.
        reading.state(_Run).other = True
        _read_message_chunk(items, where, reading)
        return True
    else:
        return False
    if mode not in _MODES:
        if isinstance(chunk, str):
            return False  # a LangChain message as a (role, text) tuple, or other strings
        raise cannot_read(
            items,
            where,
            f"a (mode, chunk) pair's mode {short_repr(mode)} is not a LangGraph stream mode "
            f"({', '.join(_MODES)})",
        )
    _read_mode(mode, chunk, where, place, reading)
    return True


@_messages
def _read_message_chunk(items: tuple[Any, ...], where: str, reading: Reading) -> None:
    """A ``messages`` chunk ``(message, metadata)``: the message, made by its node."""
    reading.read_by(items[1]["langgraph_node"], items[0], f"{where}[0]")


def _is_namespace(value: tuple[Any, ...]) -> bool:
    """A subgraph's namespace: ``("node:<task id>", ...)``, every part a string."""
    return bool(value) and all(type(part) is str for part in value)


def is_stream_part(data: Mapping[str, Any]) -> bool:
    """A ``version="v2"`` stream part: ``type`` (its mode), ``ns`` and ``data``."""
    return "ns" in data and "data" in data


def read_langgraph_part(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``version="v2"`` stream part: its ``data`` read as its mode's chunk."""
    if not is_stream_part(data):
        raise cannot_read(data, where)
    _read_mode(data["type"], data["data"], where, f"{where}.data", reading)
    interrupted(data.get("interrupts"), reading)  # a v2 values part's


# The 'type' of a stream_mode="debug" event.
DEBUG_TYPES = ("task", "task_result", "checkpoint")


def read_debug_event(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``stream_mode="debug"`` event: a task's result holds what its node added; a task's
    start and a checkpoint repeat the state (the task results hold it all)."""
    payload = as_data(data.get("payload"))
    if not isinstance(payload, Mapping) or "step" not in data:
        raise cannot_read(data, where)
    if data["type"] == "task_result":
        read_task(payload, f"{where}.payload", reading)


def read_task(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``stream_mode="tasks"`` chunk: a task's result (``result``: its node's update, as
    a mapping or a list of ``(channel, value)`` pairs); a task's start (``triggers``, its
    ``input`` the state so far) holds nothing new."""
    reading.state(_Run).other = True
    if "triggers" in data:
        return
    interrupted(data.get("interrupts"), reading)
    result = as_data(data.get("result"))
    inner = f"{where}.result"
    if isinstance(result, (list, tuple)):  # older LangGraph: [(channel, value), ...]
        result = {
            pair[0]: pair[1]
            for pair in result
            if isinstance(pair, (list, tuple)) and len(pair) == 2
        }
    if result is None or (isinstance(result, Mapping) and "messages" not in result):
        return  # a node that changed nothing, or keys other than messages
    reading.read_by(data.get("name"), result, inner, _read_update)  # its node's name


def is_langgraph_checkpoint(data: Mapping[str, Any]) -> bool:
    """A ``stream_mode="checkpoints"`` chunk: a checkpoint's ``config``, ``values``, ``next``."""
    return "values" in data and "next" in data and "config" in data


def read_langgraph_checkpoint(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A checkpoint: the state in its ``values`` (an empty state holds nothing)."""
    _read_values(as_data(data["values"]), f"{where}.values", reading)


def read_langgraph_snapshot(obj: Any, where: str, reading: Reading) -> None:
    """A ``StateSnapshot`` (``graph.get_state(config)``): the state in its ``values``; its
    ``interrupts``, if any, leave its unanswered calls pending."""
    _read_values(obj.values, f"{where}.values", reading)
    interrupted(getattr(obj, "interrupts", None), reading)


def read_langgraph_output(obj: Any, where: str, reading: Reading) -> None:
    """A ``GraphOutput`` (``graph.invoke(..., version="v2")``): the state in its ``value``;
    its ``interrupts``, if any, leave its unanswered calls pending."""
    reading.read(obj.value, f"{where}.value")
    interrupted(obj.interrupts, reading)


def _read_values(values: object, where: str, reading: Reading) -> None:
    if isinstance(values, Mapping) and not values:
        reading.state(_Run).other = True
        return
    if not isinstance(values, Mapping) or "messages" not in values:
        raise wrong_shape(where, "a state with 'messages'", values)
    read_message_state(values, where, reading)
