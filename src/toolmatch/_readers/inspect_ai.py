"""inspect_ai: chat messages, transcript events, samples and task states, as objects or as
an eval log's JSON.

``ChatMessageAssistant.tool_calls`` are calls whose ``function`` is the tool's name; a
``ChatMessageTool`` answers the call of its ``tool_call_id``, its ``error`` (a
``ToolCallError``) saying how the call ended. A transcript's ``ToolEvent`` is a call with
its result; a ``ModelEvent``'s output holds the model's calls, which the ``ToolEvent``
after it runs (each counts once, by call id). A sample is read from its events (its
messages may have been compacted), or from its messages where it has no events.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers import agentdojo
from toolmatch._readers.reading import Reading, as_data, list_at, unknown_value, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "EVENTS",
    "read_inspect_call",
    "read_inspect_event",
    "read_inspect_event_object",
    "read_inspect_sample",
    "read_inspect_sample_object",
    "read_inspect_task_state",
    "read_inspect_tool_message",
    "read_named_function",
    "read_inspect_transcript",
    "status_of_error",
]

# A ToolCallError's type -> the call's status: arguments that did not parse or validate, or
# an unknown tool, never ran the tool; an approver's refusal denied it; any other error
# (a timeout, a limit, a tool's own error) ended a call that ran.
_STATUS_OF_ERROR_TYPE = {"parsing": "error", "approval": "denied"}


def status_of_error(error: object, where: str) -> str:
    """The status a ``ToolCallError`` (or its dict, or ``None``) gives its call."""
    if error is None:
        return "succeeded"
    data = as_data(error)
    if not isinstance(data, Mapping):
        raise wrong_shape(f"{where}.error", "a ToolCallError or None", error)
    return _STATUS_OF_ERROR_TYPE.get(data.get("type"), "failed")  # type: ignore[arg-type]


class _Called(set[str]):
    """The ids of the calls read from model output: the ``ToolEvent`` that runs one
    answers it instead of counting it again."""


def read_named_function(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A call entry whose ``function`` is the tool's name: AgentDojo's ``FunctionCall``
    (``args``), inspect_ai's ``ToolEvent`` (``event``) or its ``ToolCall`` (``arguments``)."""
    if "args" in data:
        agentdojo.read_agentdojo_call(data, where, reading)
    elif "event" in data:
        read_inspect_event(data, where, reading)
    else:
        read_inspect_call(data, where, reading)


def read_inspect_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An inspect ``ToolCall``: ``function`` (the name), ``arguments``, ``id``, and the
    ``parse_error`` inspect records for arguments that did not parse."""
    call_id = data.get("id")
    if type(call_id) is str:
        reading.state(_Called).add(call_id)
    parse_error = data.get("parse_error")
    parse_error = parse_error if type(parse_error) is str else None
    reading.call(data.get("function"), data.get("arguments"), call_id, where, parse_error)


def read_inspect_tool_message(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``ChatMessageTool``: the answer to its ``tool_call_id``, with the status its
    ``error`` gives."""
    status = status_of_error(data.get("error"), where)
    reading.result(data.get("tool_call_id"), data.get("content"), None, status)


def read_inspect_event(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A transcript event's dict, by its ``event``: a ``tool`` event is a call and its
    result, a ``model`` event's output holds the model's calls, the others hold none."""
    kind = data.get("event")
    if kind == "tool":
        _read_tool_event(data, where, reading)
    elif kind == "model":
        output = as_data(data.get("output"))
        if output is not None:
            reading.read(output, f"{where}.output")
    elif kind not in EVENTS:
        raise unknown_value(where, "event", str(kind), sorted(EVENTS))


def read_inspect_event_object(obj: Any, where: str, reading: Reading) -> None:
    """An event object of inspect's transcript: read as its dict."""
    read_inspect_event(obj.model_dump(), where, reading)


def _read_tool_event(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``ToolEvent``: its call (unless model output read before gave it) and its result;
    one still ``pending`` has no result yet."""
    call_id = data.get("id")
    if call_id not in reading.state(_Called):
        reading.call(data.get("function"), data.get("arguments"), call_id, where)
    if not data.get("pending"):
        status = status_of_error(data.get("error"), where)
        reading.result(call_id, data.get("result"), None, status)


def read_inspect_sample(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An ``EvalSample``'s dict (an eval log's sample): its ``events``, or its
    ``messages`` where it has no events."""
    events = list_at(data, "events", where)
    if events:
        _read_events(events, f"{where}.events", reading)
        return
    messages = list_at(data, "messages", where)
    if messages is not None:
        reading.read_each(messages, f"{where}.messages")


def read_inspect_sample_object(obj: Any, where: str, reading: Reading) -> None:
    """An ``EvalSample``: as its dict says (``read_inspect_sample``)."""
    if obj.events:
        _read_events(obj.events, f"{where}.events", reading)
    else:
        reading.read_each(obj.messages, f"{where}.messages")


def read_inspect_task_state(obj: Any, where: str, reading: Reading) -> None:
    """A ``TaskState`` (what a scorer is given): its ``messages``."""
    reading.read_each(obj.messages, f"{where}.messages")


def read_inspect_transcript(obj: Any, where: str, reading: Reading) -> None:
    """A ``Transcript`` (``transcript()`` in a solver): its ``events``."""
    _read_events(obj.events, f"{where}.events", reading)


def _read_events(events: Any, where: str, reading: Reading) -> None:
    """Events read by their ``event``, not by the table: their ``type`` and ``role`` are
    inspect's own (a span's type, a model's role), not a message's."""
    for index, event in enumerate(events):
        data = as_data(event)
        if not isinstance(data, Mapping):
            raise wrong_shape(f"{where}[{index}]", "an event", event)
        read_inspect_event(data, f"{where}[{index}]", reading)


# Every event of inspect_ai's transcripts (0.3.285).
EVENTS = frozenset(
    {
        "anchor",
        "approval",
        "branch",
        "compaction",
        "error",
        "info",
        "input",
        "interrupt",
        "logger",
        "model",
        "review",
        "sample_init",
        "sample_limit",
        "sandbox",
        "score",
        "score_edit",
        "sentinel",
        "span_begin",
        "span_end",
        "state",
        "step",
        "store",
        "subtask",
        "tool",
    }
)
