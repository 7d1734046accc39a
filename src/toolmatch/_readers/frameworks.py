"""Readers for the objects agent frameworks hand back: openai-agents runs, items and stream
events; LangGraph states and updates; pydantic-ai run results; llama-index messages and
agent workflow events; smolagents memory steps.

Each reads the framework's own container and hands what it holds (Responses items,
LangChain messages, pydantic-ai messages, OpenAI tool calls) back to ``reading.read``, so
a call and its result are read by the provider's reader, once. See docs/formats.md,
"Agent frameworks".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import as_data, cannot_read, wrong_shape

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = [
    "is_langgraph_update",
    "not_a_run",
    "read_agents_call_item",
    "read_agents_approval_item",
    "read_agents_item",
    "read_agents_item_event",
    "read_agents_output_item",
    "read_agents_raw_event",
    "read_agents_result",
    "read_all_messages",
    "read_langgraph_part",
    "read_langgraph_snapshot",
    "read_langgraph_update",
    "read_llama_agent_output",
    "read_llama_block",
    "read_llama_message",
    "read_llama_response",
    "read_llama_selection",
    "read_llama_tool_result_event",
    "read_message_state",
    "read_smol_memory",
    "read_smol_run_result",
    "read_smol_step",
    "read_workflow_stop",
]


def not_a_run(advice: str) -> Callable[[object, str, Reading], None]:
    """A reader for an object that holds no run, such as the agent itself: it says what to
    pass instead."""

    def refuse(obj: object, where: str, reading: Reading) -> None:
        raise cannot_read(obj, where, f"it holds no run: {advice}")

    return refuse


# --- openai-agents ------------------------------------------------------------------------


class _AgentsRun:
    """What one reading has seen of an openai-agents run.

    ``called``: the call ids of the ``ToolCallItem``s read, so that a ``ToolApprovalItem``
    for one of them (the same call, awaiting approval) is not counted again.
    ``streamed``: a raw response event was read. The model's stream then gives the calls,
    and the run-item events that repeat them give only the tools' results.
    """

    __slots__ = ("called", "streamed")

    def __init__(self) -> None:
        self.called: set[str] = set()
        self.streamed = False


_RESULT_ITEMS = frozenset({"ToolCallOutputItem", "HandoffOutputItem"})


def read_agents_result(obj: Any, where: str, reading: Reading) -> None:
    """A ``RunResult`` or ``RunResultStreaming``: the items of this run, ``new_items``."""
    if getattr(obj, "is_complete", True) is False:
        raise ValueError(
            f"{where}: the streamed run is not complete, so its new_items are not all there; "
            "consume result.stream_events() first"
        )
    reading.read_each(obj.new_items, f"{where}.new_items")


def read_agents_item(obj: Any, where: str, reading: Reading) -> None:
    """A run item (message, reasoning, tool output, ...): its Responses ``raw_item``."""
    reading.read(obj.raw_item, f"{where}.raw_item")


def read_agents_output_item(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallOutputItem``: the answer to the call of its raw item's ``call_id``, as
    the tool returned it (``output``; the model was sent its text, ``raw_item``)."""
    reading.result(_call_id(obj.raw_item), obj.output, None)


def read_agents_call_item(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallItem`` or ``HandoffCallItem``: the model's call in its ``raw_item``."""
    raw = obj.raw_item
    call_id = _call_id(raw)
    if call_id is not None:
        reading.state(_AgentsRun).called.add(call_id)
    reading.read(raw, f"{where}.raw_item")


def read_agents_approval_item(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolApprovalItem``: a call awaiting approval. In ``new_items`` its call is also
    the ``ToolCallItem`` before it; read alone (``result.interruptions``) it is the call."""
    raw = obj.raw_item
    if _call_id(raw) not in reading.state(_AgentsRun).called:
        read_agents_call_item(obj, where, reading)


def read_agents_item_event(obj: Any, where: str, reading: Reading) -> None:
    """A ``RunItemStreamEvent``: its ``item``, or only a result once the model's raw
    stream (which gave the calls) has been read."""
    item = obj.item
    if reading.state(_AgentsRun).streamed and type(item).__name__ not in _RESULT_ITEMS:
        return
    reading.read(item, f"{where}.item")


def read_agents_raw_event(obj: Any, where: str, reading: Reading) -> None:
    """A ``RawResponsesStreamEvent``: the Responses stream event in its ``data``."""
    reading.state(_AgentsRun).streamed = True
    reading.read(obj.data, f"{where}.data")


def _call_id(raw: object) -> str | None:
    data = as_data(raw)
    if not isinstance(data, Mapping):
        return None
    call_id = data.get("call_id")
    if call_id is None:
        call_id = data.get("id")
    return None if call_id is None else str(call_id)


# --- LangGraph ----------------------------------------------------------------------------


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


# --- pydantic-ai --------------------------------------------------------------------------


def read_all_messages(obj: Any, where: str, reading: Reading) -> None:
    """An ``AgentRunResult``, ``StreamedRunResult`` or ``AgentRun``: ``all_messages()``."""
    messages = obj.all_messages()
    reading.read_each(messages, f"{where}.all_messages()")


# --- llama-index --------------------------------------------------------------------------

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
    role = obj.role
    extra: Mapping[str, Any] = obj.additional_kwargs
    if role == "tool":
        reading.result(extra.get("tool_call_id"), obj.content, None)
        return
    if role not in _LLAMA_SPEAKERS:
        return  # a user, system, developer or function message
    found = False
    for index, block in enumerate(obj.blocks):
        if getattr(block, "block_type", None) == "tool_call":
            read_llama_block(block, f"{where}.blocks[{index}]", reading)
            found = True
    entries = extra.get("tool_calls")
    if found or entries is None:
        return
    inner = f"{where}.additional_kwargs['tool_calls']"
    if not isinstance(entries, (list, tuple)):
        raise wrong_shape(inner, "a list", entries)
    reading.read_each(entries, inner)


def read_llama_block(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallBlock``; its ``tool_kwargs`` are a dict or JSON text."""
    reading.call(
        obj.tool_name,
        obj.tool_kwargs,
        obj.tool_call_id,
        where,
    )


class _LlamaAgentRun:
    """The call ids one reading has seen in llama-index agent workflow events: the model's
    call comes in its ``AgentOutput``, again as the ``ToolCall`` event that runs it and in
    the ``ToolCallResult`` that answers it; each counts once."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: set[str] = set()


def read_llama_agent_output(obj: Any, where: str, reading: Reading) -> None:
    """An agent workflow's ``AgentOutput``: after a turn, the calls the model made in it
    (``ToolSelection``s); the run's last one, which ``await handler`` gives, holds every
    call of the run with its ``ToolCallResult``."""
    reading.read_each(obj.tool_calls, f"{where}.tool_calls")


def read_workflow_stop(obj: Any, where: str, reading: Reading) -> None:
    """A workflow's ``StopEvent``: its ``result`` (an agent workflow's last ``AgentOutput``)."""
    reading.read(obj.result, f"{where}.result")


def read_llama_selection(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolSelection`` (``llm.get_tool_calls_from_response(...)``, an ``AgentOutput``),
    or a ``ToolCall`` event: a call about to run."""
    call_id = obj.tool_id
    if call_id is not None:
        seen = reading.state(_LlamaAgentRun).seen
        if call_id in seen:
            return
        seen.add(call_id)
    reading.call(obj.tool_name, obj.tool_kwargs, call_id, where)


def read_llama_tool_result_event(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallResult`` event: the call and its ``tool_output`` (``is_error``)."""
    read_llama_selection(obj, where, reading)
    output = obj.tool_output
    reading.result(obj.tool_id, output.content, bool(output.is_error))


# --- smolagents ---------------------------------------------------------------------------

# The dict forms of the memory steps that hold no call (TaskStep, PlanningStep,
# SystemPromptStep), told by a key of their own.
_SMOL_CALL_FREE_KEYS = ("task", "plan", "system_prompt")


def read_smol_memory(obj: Any, where: str, reading: Reading) -> None:
    """An agent's ``AgentMemory``: its steps."""
    reading.read_each(obj.steps, f"{where}.steps")


def read_smol_run_result(obj: Any, where: str, reading: Reading) -> None:
    """What ``agent.run(..., return_full_result=True)`` returns: its ``steps``, as dicts."""
    for index, step in enumerate(obj.steps):
        inner = f"{where}.steps[{index}]"
        data = as_data(step)
        if not isinstance(data, Mapping):
            raise wrong_shape(inner, "a step", data)
        if data.get("step_number") is not None:
            read_smol_step(data, inner, reading)
        elif not any(key in data for key in _SMOL_CALL_FREE_KEYS):
            raise cannot_read(data, inner)


def read_smol_step(data: Any, where: str, reading: Reading) -> None:
    """An ``ActionStep`` (or its dict): its calls, and for a step of one call its result.

    A step whose tool failed has no ``tool_calls`` of its own: the model's message keeps
    them. smolagents records one ``observations`` text (or one ``error``) per step, so only
    a step of one call says which call it answers.
    """
    if not isinstance(data, Mapping):
        data = as_data(data)
    calls = as_data(data.get("tool_calls"))
    place = f"{where}.tool_calls"
    if not calls:
        message = as_data(data.get("model_output_message"))
        calls = as_data(message.get("tool_calls")) if isinstance(message, Mapping) else None
        place = f"{where}.model_output_message.tool_calls"
    if not calls:
        return  # a step that failed before the model asked for anything
    if not isinstance(calls, (list, tuple)):
        raise wrong_shape(place, "a list", calls)
    ids = [_smol_call(entry, f"{place}[{index}]", reading) for index, entry in enumerate(calls)]
    if len(ids) == 1:
        error = as_data(data.get("error"))
        if error is None:
            reading.result(ids[0], data.get("observations"), False)
        else:
            message = error.get("message") if isinstance(error, Mapping) else None
            reading.result(ids[0], message if message is not None else str(error), True)


def _smol_call(entry: object, where: str, reading: Reading) -> object:
    """One call of a step: a memory ``ToolCall`` (``name``, ``arguments``, ``id``) or the
    model's ``ChatMessageToolCall`` (``function``); its id."""
    data = as_data(entry)
    if not isinstance(data, Mapping):
        raise wrong_shape(where, "a tool call", data)
    function = as_data(data.get("function"))
    source = function if isinstance(function, Mapping) else data
    name, arguments = source.get("name"), source.get("arguments")
    if name == "python_interpreter" and isinstance(arguments, str):
        arguments = {"code": arguments}  # a CodeAgent's action: the code, its tool's input
    reading.call(name, arguments, data.get("id"), where)
    return data.get("id")
