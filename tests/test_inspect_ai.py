"""to_calls on inspect_ai's messages, transcript events and samples: its own classes built
offline, and an eval log's JSON of them."""

from __future__ import annotations

import json

import pytest

from toolmatch import ExpectedTool, ToolCall, to_calls
from toolmatch._readers.reading import FORMATS_DOC

pytest.importorskip("inspect_ai", reason="inspect_ai is not installed")
from inspect_ai.event import ModelEvent, SpanBeginEvent, ToolEvent
from inspect_ai.log import EvalSample
from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
)
from inspect_ai.tool import ToolCall as InspectCall
from inspect_ai.tool import ToolCallError

LOOKUP = InspectCall(id="c1", function="lookup", arguments={"order": 7})
REFUND = InspectCall(id="c2", function="refund", arguments={"order": 7})
BROKEN = InspectCall(
    id="c3", function="refund", arguments={}, parse_error="Expecting value: line 1 column 9"
)
MESSAGES = [
    ChatMessageUser(content="Refund order 7."),
    ChatMessageAssistant(content="", tool_calls=[LOOKUP, REFUND, BROKEN]),
    ChatMessageTool(content="paid", tool_call_id="c1", function="lookup"),
    ChatMessageTool(
        content="",
        tool_call_id="c2",
        function="refund",
        error=ToolCallError("approval", "the refund was not approved"),
    ),
    ChatMessageTool(
        content="",
        tool_call_id="c3",
        function="refund",
        error=ToolCallError("parsing", "Expecting value: line 1 column 9"),
    ),
]
CALLS = [
    ToolCall("lookup", {"order": 7}, id="c1", result="paid", failed=False),
    ToolCall("refund", {"order": 7}, id="c2", result="", status="denied"),
    ToolCall(
        "refund",
        {},
        id="c3",
        parse_error="Expecting value: line 1 column 9",
        result="",
        status="error",
    ),
]


def test_messages_give_calls_and_the_status_their_errors_say() -> None:
    assert to_calls(MESSAGES) == CALLS
    dumped = [message.model_dump() for message in MESSAGES]
    assert to_calls(dumped) == CALLS
    assert to_calls(json.dumps([message.model_dump(mode="json") for message in MESSAGES])) == CALLS
    assert ExpectedTool.never("refund", status="denied") != MESSAGES


def test_a_tool_error_of_its_own_is_failed() -> None:
    answer = ChatMessageTool(
        content="", tool_call_id="c1", function="lookup", error=ToolCallError("timeout", "slow")
    )
    [call] = to_calls([MESSAGES[1], answer])[:1]
    assert (call.status, call.failed) == ("failed", True)


def model_event(message: ChatMessageAssistant) -> ModelEvent:
    output = ModelOutput.from_message(message)
    return ModelEvent(
        model="mockllm/model", input=[], tools=[], tool_choice="auto",
        config=GenerateConfig(), output=output,
    )  # fmt: skip


def tool_event(call: InspectCall, result: str, error: ToolCallError | None = None) -> ToolEvent:
    return ToolEvent(
        id=call.id, function=call.function, arguments=call.arguments, result=result, error=error
    )


EVENTS = [
    SpanBeginEvent(id="s1", name="solver", type="solver"),
    model_event(MESSAGES[1]),  # type: ignore[arg-type]
    tool_event(LOOKUP, "paid"),
    tool_event(REFUND, "", ToolCallError("approval", "the refund was not approved")),
    tool_event(BROKEN, "", ToolCallError("parsing", "Expecting value: line 1 column 9")),
]


def test_a_transcripts_events_read_as_its_messages() -> None:
    assert to_calls(EVENTS) == CALLS  # the model's calls once, answered by their tool events
    # the tool events alone: a tool event does not keep its call's parse error
    unparsed = ToolCall("refund", {}, id="c3", result="", status="error")
    assert to_calls(EVENTS[2:]) == [CALLS[0], CALLS[1], unparsed]


def test_a_sample_is_read_from_its_events_else_its_messages() -> None:
    sample = EvalSample(id=1, epoch=1, input="Refund order 7.", target="", messages=MESSAGES)
    assert to_calls(sample) == CALLS
    with_events = sample.model_copy(update={"events": EVENTS, "messages": MESSAGES[:2]})
    assert to_calls(with_events) == CALLS  # compacted messages: the events are whole
    assert to_calls(json.loads(with_events.model_dump_json())) == CALLS


def test_a_pending_tool_event_has_no_result_yet() -> None:
    running = tool_event(LOOKUP, "").model_copy(update={"pending": True})
    assert to_calls(running) == [ToolCall("lookup", {"order": 7}, id="c1")]


def test_an_unknown_event_raises() -> None:
    with pytest.raises(TypeError) as error:
        to_calls({"event": "tooll", "id": "c1"})
    assert str(error.value) == (
        "to_calls cannot read tool calls from input: its event 'tooll' is not one to_calls "
        f"knows (nearest accepted: 'tool'); accepted shapes: {FORMATS_DOC}"
    )
