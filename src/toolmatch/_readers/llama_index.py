"""Readers for LlamaIndex: chat responses and messages, tool selections, and agent
workflow events. See docs/formats.md, "LlamaIndex".
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import as_data, wrong_shape

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = [
    "is_workflow_stop_data",
    "read_llama_agent_event",
    "read_llama_agent_output",
    "read_llama_block",
    "read_llama_event_data",
    "read_llama_message",
    "read_llama_message_data",
    "read_llama_response",
    "read_llama_selection",
    "read_llama_tool_data",
    "read_llama_tool_result_event",
    "read_workflow_stop",
]


_LLAMA_SPEAKERS = frozenset({"assistant", "model", "chatbot"})  # what the model says


class _LlamaStream:
    """The last streamed ``ChatResponse`` of a reading: each one ``stream_chat`` gives
    holds the whole message so far, so of one stream only the last is read. A response
    whose message does not go on from the one before (a later turn's stream) ends that
    stream: its last message is read then, in order."""

    __slots__ = ("last",)

    def __init__(self) -> None:
        self.last: tuple[Any, str] | None = None

    def add(self, message: Any, where: str, reading: Reading) -> None:
        if self.last is not None and not _goes_on(self.last[0], message):
            self.finish(reading)
        self.last = (message, where)

    def finish(self, reading: Reading) -> None:
        if self.last is not None:
            message, where = self.last
            self.last = None
            reading.read(message, where)


def _goes_on(before: Any, after: Any) -> bool:
    """Whether ``after`` is ``before`` with more streamed onto it."""
    text = before.content or ""
    return (after.content or "").startswith(text) and _llama_ids(before) <= _llama_ids(after)


def _llama_ids(message: Any) -> set[object]:
    ids = {
        block.tool_call_id
        for block in message.blocks
        if getattr(block, "block_type", None) == "tool_call"
    }
    for entry in message.additional_kwargs.get("tool_calls") or ():
        data = as_data(entry)
        if isinstance(data, Mapping):
            ids.add(data.get("id"))
    return ids


def read_llama_response(obj: Any, where: str, reading: Reading) -> None:
    """A ``ChatResponse``: its ``message``; of a stream (``delta`` set), the last one's."""
    if obj.delta is not None:
        reading.state(_LlamaStream).add(obj.message, f"{where}.message", reading)
    else:
        reading.read(obj.message, f"{where}.message")


def read_llama_message(obj: Any, where: str, reading: Reading) -> None:
    """A ``ChatMessage``.

    The model's calls are its ``ToolCallBlock``s; an integration that keeps them in
    ``additional_kwargs["tool_calls"]`` instead (or as well: OpenAI's does both) is read
    there when no block holds one. A ``tool`` message answers the call of its
    ``additional_kwargs["tool_call_id"]``.
    """
    extra: Mapping[str, Any] = obj.additional_kwargs
    if obj.role == "tool":
        reading.result(extra.get("tool_call_id"), obj.content, None)
        return
    _read_llama_calls(obj.role, extra, obj.blocks, where, reading)


def read_llama_message_data(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``ChatMessage`` as its ``model_dump()`` writes it (``role``, ``additional_kwargs``,
    ``blocks``, no ``content``), read as the message is: a ``tool`` message's result is the
    text of its text blocks, joined by newlines, as ``ChatMessage.content`` gives it."""
    blocks = data.get("blocks")
    if not isinstance(blocks, (list, tuple)):
        raise wrong_shape(f"{where}.blocks", "a list", blocks)
    extra = data.get("additional_kwargs")
    if extra is None:
        extra = {}
    elif not isinstance(extra, Mapping):
        raise wrong_shape(f"{where}.additional_kwargs", "an object", extra)
    role = data.get("role")
    if role == "tool":
        reading.result(extra.get("tool_call_id"), _text(blocks, f"{where}.blocks"), None)
        return
    _read_llama_calls(role, extra, blocks, where, reading)


def _read_llama_calls(
    role: object, extra: Mapping[str, Any], blocks: Any, where: str, reading: Reading
) -> None:
    """The calls of a message by ``role``: its tool-call blocks, else those of
    ``additional_kwargs["tool_calls"]``."""
    if role not in _LLAMA_SPEAKERS:
        return  # a user, system, developer or function message
    found = False
    for index, block in enumerate(blocks):
        if _field(block, "block_type") == "tool_call":
            read_llama_block(block, f"{where}.blocks[{index}]", reading)
            found = True
    entries = extra.get("tool_calls")
    if found or entries is None:
        return
    inner = f"{where}.additional_kwargs['tool_calls']"
    if not isinstance(entries, (list, tuple)):
        raise wrong_shape(inner, "a list", entries)
    reading.read_each(entries, inner)


def _text(blocks: object, where: str) -> str | None:
    """The text of the dumped ``blocks``' text blocks, joined by newlines (``None``: none)."""
    if not isinstance(blocks, (list, tuple)):
        raise wrong_shape(where, "a list", blocks)
    texts = [_field(block, "text") for block in blocks if _field(block, "block_type") == "text"]
    return "\n".join(map(str, texts)) or None


def _field(block: Any, name: str) -> Any:
    """A block's field: of the SDK's object, or of its dump."""
    return block.get(name) if isinstance(block, Mapping) else getattr(block, name, None)


def read_llama_block(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallBlock`` (or its dump); its ``tool_kwargs`` are a dict or JSON text."""
    reading.call(
        _field(obj, "tool_name"), _field(obj, "tool_kwargs"), _field(obj, "tool_call_id"), where
    )


class _LlamaAgentRun:
    """What one reading has seen of llama-index agent workflow events: the call ids (the
    model's call comes in its ``AgentOutput``, again as the ``ToolCall`` event that runs it
    and in the ``ToolCallResult`` that answers it; each counts once), the agent of the
    last agent event (``AgentInput``, ``AgentStream``, ``AgentOutput``), which makes the
    tool events after it, and the run's records (the last ``AgentOutput``), read at the
    end: the events handed beside one, before or after it, give their calls in the order
    the model asked and name their agents, which a record does not."""

    __slots__ = ("agent", "records", "seen")

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.agent: str | None = None
        self.records: list[tuple[Any, str, str | None]] = []

    def finish(self, reading: Reading) -> None:
        records, self.records = self.records, []
        for calls, where, agent in records:
            self.agent = agent
            reading.read_each(calls, where)


# The tool an AgentWorkflow gives its agents to hand the run to another agent.
_HANDOFF = "handoff"


def read_llama_agent_event(obj: Any, where: str, reading: Reading) -> None:
    """An ``AgentInput`` (the history sent to the model) or ``AgentStream`` (partial
    calls, which the ``AgentOutput`` after it holds whole): no call; its
    ``current_agent_name`` makes the tool events after it."""
    _set_agent(reading, _field(obj, "current_agent_name"))


def read_llama_agent_output(obj: Any, where: str, reading: Reading) -> None:
    """An agent workflow's ``AgentOutput`` (or its dump): after a turn, the calls the model
    made in it (``ToolSelection``s), made by its ``current_agent_name``. The run's last
    one, which ``await handler`` gives, holds every call of the run with its
    ``ToolCallResult``, in the order their tools finished, but names only the agent that
    ran last: after a handoff its calls name no agent. It is read at the end of the
    reading."""
    state = reading.state(_LlamaAgentRun)
    _set_agent(reading, _field(obj, "current_agent_name"))
    calls = _field(obj, "tool_calls")
    inner = f"{where}.tool_calls"
    if not isinstance(calls, (list, tuple)):
        raise wrong_shape(inner, "a list", calls)
    if _is_record(obj, calls):
        handoff = any(_field(call, "tool_name") == _HANDOFF for call in calls)
        state.records.append((calls, inner, None if handoff else state.agent))
    else:
        reading.read_each(calls, inner)


def _is_record(output: Any, calls: Any) -> bool:
    """Whether an ``AgentOutput`` is the run's record: its calls hold their results. Its
    dump keeps no result (pydantic writes each as a ``ToolSelection``): there, a record's
    calls are not those of its ``response``, the run's last message."""
    if any(_field(call, "tool_output") is not None for call in calls):
        return True
    if not isinstance(output, Mapping) or not calls:
        return False
    response = output.get("response")
    blocks = response.get("blocks") if isinstance(response, Mapping) else None
    asked = {
        _field(block, "tool_call_id")
        for block in blocks or ()
        if _field(block, "block_type") == "tool_call"
    }
    return any(_field(call, "tool_id") not in asked for call in calls)


def read_llama_event_data(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An agent event as its ``model_dump()`` writes it (its ``current_agent_name`` set):
    an ``AgentInput`` (``input``) or ``AgentStream`` (``delta``), else an ``AgentOutput``,
    read as the event is."""
    if "input" in data or "delta" in data:
        read_llama_agent_event(data, where, reading)
    else:
        read_llama_agent_output(data, where, reading)


def _set_agent(reading: Reading, agent: object) -> None:
    reading.state(_LlamaAgentRun).agent = agent if type(agent) is str and agent else None


def read_workflow_stop(obj: Any, where: str, reading: Reading) -> None:
    """A workflow's ``StopEvent`` (or its dump): its ``result`` (an agent workflow's last
    ``AgentOutput``)."""
    reading.read(_field(obj, "result"), f"{where}.result")


def is_workflow_stop_data(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` is a ``StopEvent``'s dump of an agent workflow's run: its
    ``result`` alone, an ``AgentOutput``'s dump."""
    result = data.get("result")
    return len(data) == 1 and isinstance(result, Mapping) and "current_agent_name" in result


def read_llama_selection(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolSelection`` (``llm.get_tool_calls_from_response(...)``, an ``AgentOutput``),
    or a ``ToolCall`` event, or their dump: a call about to run, made by the agent of the
    last agent event read."""
    call_id = _field(obj, "tool_id")
    state = reading.state(_LlamaAgentRun)
    if call_id is not None:
        if call_id in state.seen:
            return
        state.seen.add(call_id)
    name, arguments = _field(obj, "tool_name"), _field(obj, "tool_kwargs")
    reading.call(name, arguments, call_id, where, agent=state.agent)


def read_llama_tool_result_event(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallResult`` event: the call and its ``tool_output`` (``is_error``); of
    the event's dump, the output's text is that of its text blocks, joined by newlines, as
    ``ToolOutput.content`` gives it."""
    read_llama_selection(obj, where, reading)
    output = _field(obj, "tool_output")
    if isinstance(output, Mapping):
        content: object = _text(output.get("blocks"), f"{where}.tool_output.blocks") or ""
    else:
        content = output.content
    reading.result(_field(obj, "tool_id"), content, bool(_field(output, "is_error")))


def read_llama_tool_data(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``ToolSelection``, ``ToolCall`` event or ``ToolCallResult`` event (with its
    ``tool_output``) as ``model_dump()`` writes it, read as the object is."""
    if data.get("tool_output") is not None:
        read_llama_tool_result_event(data, where, reading)
    else:
        read_llama_selection(data, where, reading)
