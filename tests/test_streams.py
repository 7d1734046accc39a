"""``to_calls`` over streams: chunks and events whose tool calls arrive in pieces.

The streams are served as SSE bodies to the SDKs' own clients over ``MockTransport`` (no
network), so the objects read are the ones the SDKs yield; each result is checked against
what the SDK's own accumulator makes of the same stream.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import typing
from collections import deque
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sdk_clients import (
    FUNCTION_ITEM,
    RESPONSE,
    RESPONSES_STREAM,
    anthropic_client,
    call_events,
    openai_client,
    sse,
)
from sdk_clients import chat_chunk as chunk
from toolmatch import ExpectedTool, ToolCall, to_calls

pytest.importorskip("langchain_core")
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessageChunk
from langchain_core.outputs import ChatGenerationChunk

anthropic = pytest.importorskip("anthropic")
httpx = pytest.importorskip("httpx")
openai = pytest.importorskip("openai")

SEARCH = ToolCall("search", {"q": "paris"}, "call_1")
WEATHER = ToolCall("weather", {"city": "Oslo"}, "call_2")


def incomplete(received: str) -> str:
    return (
        "arguments are incomplete: the stream stopped in the middle of this call "
        f"(received {received!r})"
    )


def test_incomplete_text_is_the_documented_one() -> None:
    (call,) = to_calls([chunk({"tool_calls": [entry(0, '{"q": "pa', "call_1", "search")]})])
    assert call == ToolCall(
        "search",
        {},
        "call_1",
        "arguments are incomplete: the stream stopped in the middle of this call "
        '(received \'{"q": "pa\')',
    )


# --- OpenAI Chat Completions chunks --------------------------------------------------------


def entry(
    index: int, arguments: str, call_id: str | None = None, name: str | None = None
) -> dict[str, Any]:
    function: dict[str, Any] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    data: dict[str, Any] = {"index": index, "function": function}
    if call_id is not None:
        data.update(id=call_id, type="function")
    return data


# Two parallel calls whose argument pieces interleave, as OpenAI streams them.
CHAT_STREAM = [
    chunk({"role": "assistant", "content": None, "refusal": None}),
    chunk({"tool_calls": [entry(0, "", "call_1", "search")]}),
    chunk({"tool_calls": [entry(0, '{"q": "pa')]}),
    chunk({"tool_calls": [entry(1, "", "call_2", "weather")]}),
    chunk({"tool_calls": [entry(0, 'ris"}')]}),
    chunk({"tool_calls": [entry(1, '{"city": ')]}),
    chunk({"tool_calls": [entry(1, '"Oslo"}')]}),
    chunk({}, "tool_calls"),
    {
        **chunk({}),
        "choices": [],
        "usage": {"prompt_tokens": 9, "completion_tokens": 20, "total_tokens": 29},
    },
]


def test_chat_chunks_from_the_sdk_equal_its_own_accumulator() -> None:
    client = openai_client(sse(CHAT_STREAM))
    chunks = list(client.chat.completions.create(model="gpt-4.1", messages=[], stream=True))
    assert type(chunks[0]).__name__ == "ChatCompletionChunk"
    with client.chat.completions.stream(model="gpt-4.1", messages=[]) as stream:
        final = stream.get_final_completion()
    assert to_calls(chunks) == to_calls(final) == [SEARCH, WEATHER]


def test_chat_chunks_as_dicts_objects_and_one_pass_iterators() -> None:
    from openai.types.chat import ChatCompletionChunk

    objects = [ChatCompletionChunk.model_validate(data) for data in CHAT_STREAM]
    assert to_calls(CHAT_STREAM) == to_calls(objects) == [SEARCH, WEATHER]
    assert to_calls(json.dumps(CHAT_STREAM)) == [SEARCH, WEATHER]
    consumed: list[int] = []

    def generate() -> Iterator[dict[str, Any]]:
        for number, data in enumerate(CHAT_STREAM):
            consumed.append(number)
            yield data

    assert to_calls(generate()) == [SEARCH, WEATHER]
    assert consumed == list(range(len(CHAT_STREAM)))  # once each, in order
    assert to_calls(deque(objects)) == [SEARCH, WEATHER]


def test_the_sdks_stream_object_itself_is_read() -> None:
    client = openai_client(sse(CHAT_STREAM))
    stream = client.chat.completions.create(model="gpt-4.1", messages=[], stream=True)
    assert to_calls(stream) == [SEARCH, WEATHER]
    assert ExpectedTool.never("search") != client.chat.completions.create(
        model="gpt-4.1", messages=[], stream=True
    )


def test_the_sdks_chat_completion_stream_helper_events() -> None:
    client = openai_client(sse(CHAT_STREAM))
    with client.chat.completions.stream(model="gpt-4.1", messages=[]) as stream:
        events = list(stream)
    assert {"chunk", "tool_calls.function.arguments.done"} <= {event.type for event in events}
    assert to_calls(events) == [SEARCH, WEATHER]


def test_chat_id_and_name_come_from_the_first_delta() -> None:
    # Some OpenAI-compatible servers repeat the id and the name on every delta.
    repeated = [
        chunk({"tool_calls": [entry(0, '{"q": ', "call_1", "search")]}),
        chunk({"tool_calls": [entry(0, '"paris"}', "call_1", "search")]}),
        chunk({}, "stop"),
    ]
    assert to_calls(repeated) == [SEARCH]
    # where OpenAI's own accumulator joins them
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    state = ChatCompletionStreamState()
    for data in repeated:
        state.handle_chunk(ChatCompletionChunk.model_validate(data))
    (joined,) = state.get_final_completion().choices[0].message.tool_calls or []
    assert (joined.id, joined.function.name) == ("call_1call_1", "searchsearch")


def test_chat_turns_one_after_the_other_stay_apart() -> None:
    second = [
        chunk({"tool_calls": [entry(0, '{"city": "Oslo"}', "call_2", "weather")]}),
        chunk({}, "tool_calls"),
    ]
    assert to_calls(CHAT_STREAM + second) == [SEARCH, WEATHER, WEATHER]
    # Without a finish chunk between them, the new id at index 0 still starts a new call.
    calls = to_calls(CHAT_STREAM[1:5] + second)
    assert (calls[0], calls[2], len(calls)) == (SEARCH, WEATHER, 3)


def test_streamed_calls_keep_their_place_among_other_items() -> None:
    first, last = ToolCall("first", {}), ToolCall("last", {})
    assert to_calls([first, *CHAT_STREAM, last]) == [first, SEARCH, WEATHER, last]


def test_a_chat_stream_cut_off_in_the_arguments() -> None:
    # A call whose arguments are a whole JSON object is complete, finished or not.
    assert to_calls(CHAT_STREAM[:5]) == [SEARCH, ToolCall("weather", {}, "call_2", incomplete(""))]
    cut = to_calls(CHAT_STREAM[:6])
    assert cut == [SEARCH, ToolCall("weather", {}, "call_2", incomplete('{"city": '))]
    only_started = to_calls(CHAT_STREAM[:2])
    assert only_started == [ToolCall("search", {}, "call_1", incomplete(""))]


def test_a_chat_stream_stopped_for_length() -> None:
    stream = [*CHAT_STREAM[:6], chunk({}, "length")]
    assert to_calls(stream) == [SEARCH, ToolCall("weather", {}, "call_2", incomplete('{"city": '))]


def test_a_finished_chat_stream_with_bad_json_says_so() -> None:
    stream = [
        chunk({"tool_calls": [entry(0, '{"q": paris}', "call_1", "search")]}),
        chunk({}, "tool_calls"),
    ]
    (call,) = to_calls(stream)
    assert call.parse_error == "arguments are not valid JSON: Expecting value (line 1, column 7)"
    empty = [chunk({"tool_calls": [entry(0, "", "call_1", "now")]}), chunk({}, "tool_calls")]
    assert to_calls(empty) == [ToolCall("now", {}, "call_1")]


@pytest.mark.parametrize(
    "stream",
    [
        [
            chunk({"role": "assistant", "content": "Hel"}),
            chunk({"content": "lo"}),
            chunk({}, "stop"),
        ],
        [chunk({"refusal": "I can't."}, "stop")],
        [
            {
                **chunk({}),
                "choices": [],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
            }
        ],
        [chunk({"reasoning_content": "Let me think."})],  # a provider's extra delta field
    ],
    ids=["text", "refusal", "usage-only", "reasoning"],
)
def test_chat_chunks_without_calls(stream: list[dict[str, Any]]) -> None:
    assert to_calls(stream) == []


def test_chat_chunks_of_several_choices_are_alternatives() -> None:
    other = chunk({"content": "Hi"})
    other["choices"][0]["index"] = 1
    with pytest.raises(ValueError, match="alternative answers") as error:
        to_calls([chunk({"content": "Hi"}), other])
    assert str(error.value) == (
        "input[1].choices[0]: a chunk of choice 1 after chunks of choice 0: a stream of "
        "several choices (n > 1) holds alternative answers, not one turn; pass the chunks "
        "of the one to check"
    )


def test_legacy_function_call_deltas() -> None:
    stream = [
        chunk({"role": "assistant", "function_call": {"name": "search", "arguments": ""}}),
        chunk({"function_call": {"arguments": '{"q": "paris"}'}}),
        chunk({}, "function_call"),
    ]
    assert to_calls(stream) == [ToolCall("search", {"q": "paris"})]


@pytest.mark.parametrize(
    ("delta", "message"),
    [
        (
            {"tool_calls": {"index": 0}},
            "input[0].choices[0].delta.tool_calls must be a list, got {'index': 0} (dict)",
        ),
        (
            {"tool_calls": [{"index": [0], "function": {"arguments": ""}}]},
            "input[0].choices[0].delta.tool_calls[0].index must be an integer or a string, "
            "got [0] (list)",
        ),
        (
            {
                "tool_calls": [
                    entry(0, "", "call_1", "search"),
                    {"index": 0, "function": {"arguments": 7}},
                ]
            },
            "input[0].choices[0].delta.tool_calls[1].function.arguments must be a string, "
            "got 7 (int)",
        ),
        ("hello", "input[0].choices[0].delta must be an object, got 'hello' (str)"),
    ],
    ids=["tool_calls", "index", "arguments", "delta"],
)
def test_malformed_chat_chunks_name_the_place(delta: Any, message: str) -> None:
    with pytest.raises(TypeError) as error:
        to_calls([chunk(delta)])
    assert str(error.value) == message


def test_a_streamed_call_without_a_name_is_an_error_at_its_first_delta() -> None:
    with pytest.raises(TypeError) as error:
        to_calls([chunk({"tool_calls": [entry(0, "{}", "call_1")]}), chunk({}, "tool_calls")])
    assert str(error.value) == (
        "input[0].choices[0].delta.tool_calls[0].function: a tool call's name must be a "
        "string, got None (NoneType)"
    )


# --- OpenAI Responses streaming events -------------------------------------------------------


def test_responses_events_from_the_sdk_equal_its_final_response() -> None:
    client = openai_client(sse(RESPONSES_STREAM, named=True))
    events = list(client.responses.create(model="gpt-4.1", input="Paris?", stream=True))
    assert [type(event).__name__ for event in events][-1] == "ResponseCompletedEvent"
    with client.responses.stream(model="gpt-4.1", input="Paris?") as stream:
        final = stream.get_final_response()
    # the completed event repeats the call: it is not counted twice; its id is the call_id
    assert to_calls(events) == to_calls(final) == [SEARCH]


def test_responses_stream_and_its_final_response_together_count_once() -> None:
    client = openai_client(sse(RESPONSES_STREAM, named=True))
    events = list(client.responses.create(model="gpt-4.1", input="Paris?", stream=True))
    with client.responses.stream(model="gpt-4.1", input="Paris?") as stream:
        final = stream.get_final_response()
    assert final.id == events[0].response.id  # one response: its id is its identity
    assert to_calls([*events, final]) == [SEARCH]
    assert to_calls([final, *events]) == [SEARCH]
    assert to_calls([final, final]) == [SEARCH]
    (item,) = [item for item in final.output if item.type == "function_call"]
    assert to_calls([item, final, item]) == [SEARCH]
    assert to_calls([final.model_dump(), final.model_dump(mode="json")]) == [SEARCH]


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # the SDK's ParsedResponse
def test_the_sdks_response_stream_helper_events() -> None:
    client = openai_client(sse(RESPONSES_STREAM, named=True))
    with client.responses.stream(model="gpt-4.1", input="Paris?") as stream:
        events = list(stream)
    assert to_calls(events) == [SEARCH]


@pytest.mark.parametrize(
    ("first", "last"),
    [(0, -1), (0, -2), (0, -3), (len(RESPONSES_STREAM) - 1, None)],
    ids=["without-completed", "without-item-done", "arguments-done-only", "completed-only"],
)
def test_responses_events_in_part_give_the_call_once(first: int, last: int | None) -> None:
    assert to_calls(RESPONSES_STREAM[first:last]) == [SEARCH]


def test_a_responses_stream_cut_off_in_the_arguments() -> None:
    cut = to_calls(RESPONSES_STREAM[:-4])  # the first delta only
    assert cut == [ToolCall("search", {}, "call_1", incomplete('{"q": '))]
    assert to_calls(RESPONSES_STREAM[:-5]) == [ToolCall("search", {}, "call_1", incomplete(""))]


def test_a_response_stopped_for_length() -> None:
    cut_item = {**FUNCTION_ITEM, "arguments": '{"q": "pa', "status": "incomplete"}
    events = [
        *call_events(cut_item, 0, ['{"q": "pa']),
        {
            "type": "response.incomplete",
            "response": {**RESPONSE, "status": "incomplete", "output": [cut_item]},
        },
    ]
    assert to_calls(events) == [ToolCall("search", {}, "call_1", incomplete('{"q": "pa'))]


def test_responses_turns_one_after_the_other_stay_apart() -> None:
    second_item = {
        **FUNCTION_ITEM,
        "id": "fc_2",
        "call_id": "call_2",
        "name": "weather",
        "arguments": '{"city": "Oslo"}',
    }
    second = [
        {"type": "response.created", "response": {**RESPONSE, "id": "resp_2"}},
        *call_events(second_item, 0, ['{"city": "Oslo"}']),
        {
            "type": "response.completed",
            "response": {**RESPONSE, "id": "resp_2", "output": [second_item]},
        },
    ]
    assert to_calls(RESPONSES_STREAM + second) == [SEARCH, WEATHER]


def test_responses_custom_and_mcp_calls_stream_too() -> None:
    custom = {
        "type": "custom_tool_call",
        "id": "ctc_1",
        "call_id": "call_3",
        "name": "shell",
        "input": "ls -la",
        "status": "completed",
    }
    mcp = {
        "type": "mcp_call",
        "id": "mcp_1",
        "server_label": "docs",
        "name": "search",
        "arguments": '{"q": "paris"}',
        "output": "found",
        "status": "completed",
    }
    events = [*call_events(custom, 0, ["ls", " -la"]), *call_events(mcp, 1, ['{"q": ', '"paris"}'])]
    assert to_calls(events) == to_calls([custom, mcp])
    assert [call.name for call in to_calls(events)] == ["shell", "search"]
    assert to_calls(events)[0].args == {"input": "ls -la"}


def test_a_responses_delta_without_its_item_is_an_error() -> None:
    with pytest.raises(ValueError, match="pass the whole stream") as error:
        to_calls([RESPONSES_STREAM[-4]])
    assert str(error.value) == (
        "input[0]: a response.function_call_arguments.delta event for item 'fc_1', which no "
        "response.output_item.added began; pass the whole stream"
    )


def _response_event_types() -> list[str]:
    from openai.types.responses import ResponseStreamEvent

    (union, *_) = typing.get_args(ResponseStreamEvent)
    return [
        typing.get_args(kind.model_fields["type"].annotation)[0] for kind in typing.get_args(union)
    ]


def test_every_responses_event_type_of_the_sdk_is_read() -> None:
    from toolmatch._readers.dispatch import TYPES

    types = _response_event_types()
    assert len(types) > 50
    assert [kind for kind in types if kind not in TYPES] == []


# --- Anthropic raw stream events ---------------------------------------------------------------


def anthropic_message_events(
    blocks: list[tuple[dict[str, Any], list[dict[str, Any]]]], stop_reason: str = "tool_use"
) -> list[dict[str, Any]]:
    """The events of one message: each block's start, its deltas and its stop."""
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1},
    }
    events: list[dict[str, Any]] = [{"type": "message_start", "message": message}]
    for index, (block, deltas) in enumerate(blocks):
        events.append({"type": "content_block_start", "index": index, "content_block": block})
        events += [
            {"type": "content_block_delta", "index": index, "delta": delta} for delta in deltas
        ]
        events.append({"type": "content_block_stop", "index": index})
    events += [
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop_reason, "stop_sequence": None},
            "usage": {"output_tokens": 30},
        },
        {"type": "message_stop"},
    ]
    return events


def json_pieces(*pieces: str) -> list[dict[str, Any]]:
    return [{"type": "input_json_delta", "partial_json": piece} for piece in pieces]


ANTHROPIC_STREAM = anthropic_message_events(
    [
        (
            {"type": "thinking", "thinking": "", "signature": ""},
            [
                {"type": "thinking_delta", "thinking": "The user wants Paris."},
                {"type": "signature_delta", "signature": "EqQB"},
            ],
        ),
        ({"type": "text", "text": ""}, [{"type": "text_delta", "text": "Let me check."}]),
        (
            {"type": "tool_use", "id": "call_1", "name": "search", "input": {}},
            json_pieces("", '{"q": ', '"paris"}'),
        ),
        (
            {"type": "tool_use", "id": "call_2", "name": "weather", "input": {}},
            json_pieces('{"city"', ': "Oslo"}'),
        ),
    ]
)


def test_anthropic_events_from_the_sdk_equal_its_final_message() -> None:
    client = anthropic_client(sse(ANTHROPIC_STREAM, named=True))
    events = list(
        client.messages.create(model="claude-opus-4-6", max_tokens=100, messages=[], stream=True)
    )
    assert type(events[0]).__name__ == "RawMessageStartEvent"
    with client.messages.stream(model="claude-opus-4-6", max_tokens=100, messages=[]) as stream:
        helper_events = list(stream)  # raw events, and the helper's text / input_json events
        final = stream.get_final_message()
    assert {"text", "input_json", "thinking", "signature"} <= {
        event.type for event in helper_events
    }
    assert to_calls(events) == to_calls(helper_events) == to_calls(final) == [SEARCH, WEATHER]


def test_a_placeholder_id_is_no_identity() -> None:
    """openai-agents gives every item and response it makes of a Chat Completions model's
    output the id "__fake_id__" (agents.models.fake_id): each is still its own."""
    from openai.types.responses import Response, ResponseFunctionToolCall

    def item(call_id: str, city: str) -> ResponseFunctionToolCall:
        return ResponseFunctionToolCall(
            type="function_call",
            id="__fake_id__",
            call_id=call_id,
            name="weather",
            arguments=json.dumps({"city": city}),
        )

    def response(*items: ResponseFunctionToolCall) -> Response:
        return Response(
            id="__fake_id__",
            object="response",
            created_at=0,
            model="gpt-4.1",
            parallel_tool_calls=True,
            tool_choice="auto",
            tools=[],
            output=list(items),
        )

    paris, rome = item("call_1", "Paris"), item("call_2", "Rome")
    assert [call.id for call in to_calls([paris, rome])] == ["call_1", "call_2"]
    assert [call.id for call in to_calls([response(paris), response(rome)])] == [
        "call_1",
        "call_2",
    ]
    assert [call.id for call in to_calls([paris, paris])] == ["call_1"]  # the same item
    message = {"type": "message", "id": "__fake_id__", "role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}}]}  # fmt: skip
    assert (
        len(
            to_calls(
                [message, {**message, "content": [{**message["content"][0], "id": "toolu_2"}]}]
            )
        )
        == 2
    )


def test_anthropic_stream_and_its_final_message_together_count_once() -> None:
    client = anthropic_client(sse(ANTHROPIC_STREAM, named=True))
    events = list(
        client.messages.create(model="claude-opus-4-6", max_tokens=100, messages=[], stream=True)
    )
    with client.messages.stream(model="claude-opus-4-6", max_tokens=100, messages=[]) as stream:
        final = stream.get_final_message()
    assert final.id == events[0].message.id
    assert to_calls([*events, final]) == [SEARCH, WEATHER]
    assert to_calls([final, *events]) == [SEARCH, WEATHER]
    assert to_calls([final, final.model_dump(), final]) == [SEARCH, WEATHER]
    # another message, with an id of its own, counts
    other = final.model_copy(update={"id": "msg_other"})
    assert to_calls([final, other]) == [SEARCH, WEATHER, SEARCH, WEATHER]


def test_anthropic_events_built_with_the_sdks_classes() -> None:
    from anthropic.types import (
        InputJSONDelta,
        RawContentBlockDeltaEvent,
        RawContentBlockStartEvent,
        RawContentBlockStopEvent,
        ServerToolUseBlock,
        WebSearchToolResultBlock,
    )

    events = [
        RawContentBlockStartEvent(
            type="content_block_start",
            index=0,
            content_block=ServerToolUseBlock(
                type="server_tool_use", id="srvtoolu_1", name="web_search", input={}
            ),
        ),
        RawContentBlockDeltaEvent(
            type="content_block_delta",
            index=0,
            delta=InputJSONDelta(type="input_json_delta", partial_json='{"query": "paris"}'),
        ),
        RawContentBlockStopEvent(type="content_block_stop", index=0),
        RawContentBlockStartEvent(
            type="content_block_start",
            index=1,
            content_block=WebSearchToolResultBlock(
                type="web_search_tool_result", tool_use_id="srvtoolu_1", content=[]
            ),
        ),
        RawContentBlockStopEvent(type="content_block_stop", index=1),
    ]
    (call,) = to_calls(events)
    assert (call.name, call.args, call.id) == ("web_search", {"query": "paris"}, "srvtoolu_1")


def test_an_anthropic_tool_use_without_input_deltas_keeps_its_input() -> None:
    events = anthropic_message_events(
        [({"type": "tool_use", "id": "call_1", "name": "now", "input": {}}, [])]
    )
    assert to_calls(events) == [ToolCall("now", {}, "call_1")]


def test_anthropic_messages_one_after_the_other_stay_apart() -> None:
    start, *rest = ANTHROPIC_STREAM
    second = [{**start, "message": {**start["message"], "id": "msg_2"}}, *rest]
    assert to_calls(ANTHROPIC_STREAM + second) == [SEARCH, WEATHER, SEARCH, WEATHER]
    # the same message streamed twice (one id, the same calls) is one message
    assert to_calls(ANTHROPIC_STREAM + ANTHROPIC_STREAM) == [SEARCH, WEATHER]


def test_the_same_chat_stream_twice_is_one_completion() -> None:
    assert to_calls(CHAT_STREAM + CHAT_STREAM) == [SEARCH, WEATHER]


def test_an_anthropic_stream_cut_off_in_the_input() -> None:
    cut = ANTHROPIC_STREAM[: ANTHROPIC_STREAM.index({"type": "content_block_stop", "index": 3})]
    # no content_block_stop, but the input is a whole JSON object: complete
    assert to_calls(cut) == [SEARCH, WEATHER]
    assert to_calls(cut[:-1]) == [SEARCH, ToolCall("weather", {}, "call_2", incomplete('{"city"'))]
    assert to_calls(cut[:-2]) == [SEARCH, ToolCall("weather", {}, "call_2", incomplete(""))]


def test_an_anthropic_message_stopped_for_max_tokens() -> None:
    events = anthropic_message_events(
        [
            (
                {"type": "tool_use", "id": "call_2", "name": "weather", "input": {}},
                json_pieces('{"city": "Os'),
            )
        ],
        stop_reason="max_tokens",
    )
    assert to_calls(events) == [ToolCall("weather", {}, "call_2", incomplete('{"city": "Os'))]


def test_a_finished_anthropic_block_with_bad_json_says_so() -> None:
    events = anthropic_message_events(
        [
            (
                {"type": "tool_use", "id": "call_1", "name": "search", "input": {}},
                json_pieces('{"q": paris}'),
            )
        ]
    )
    (call,) = to_calls(events)
    assert call.parse_error == "arguments are not valid JSON: Expecting value (line 1, column 7)"


def test_an_input_json_delta_without_its_block_is_an_error() -> None:
    delta = {"type": "content_block_delta", "index": 2, "delta": json_pieces("{}")[0]}
    with pytest.raises(ValueError, match="pass the whole stream") as error:
        to_calls([delta])
    assert str(error.value) == (
        "input[0]: an input_json_delta for block 2, which no content_block_start of a "
        "tool_use began; pass the whole stream"
    )


# --- the events known to carry no call ---------------------------------------------------------

# Stream events that do carry calls, or start and end them; every other event type of the
# SDKs' stream unions must be in the allowlist of call-free events.
CALL_EVENTS = {
    "message_start",
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "response.created",
    "response.in_progress",
    "response.queued",
    "response.output_item.added",
    "response.output_item.done",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.custom_tool_call_input.delta",
    "response.custom_tool_call_input.done",
    "response.mcp_call_arguments.delta",
    "response.mcp_call_arguments.done",
    "response.completed",
    "response.incomplete",
    "response.failed",
}


def _anthropic_event_types() -> list[str]:
    from anthropic.types import RawContentBlockDeltaEvent, RawMessageStreamEvent

    def literals(union: Any) -> list[str]:
        (inner, *_) = typing.get_args(union)
        return [
            typing.get_args(kind.model_fields["type"].annotation)[0]
            for kind in typing.get_args(inner)
        ]

    deltas = [
        kind
        for kind in literals(RawContentBlockDeltaEvent.model_fields["delta"].annotation)
        if kind != "input_json_delta"
    ]
    return literals(RawMessageStreamEvent) + deltas


def test_every_sdk_event_type_is_read_or_allowlisted() -> None:
    from toolmatch._readers.streams import NO_CALL_TYPES

    sdk_types = _response_event_types() + _anthropic_event_types()
    assert [
        kind for kind in sdk_types if kind not in CALL_EVENTS and kind not in NO_CALL_TYPES
    ] == []


def _allowlist() -> list[str]:
    from toolmatch._readers.streams import NO_CALL_TYPES

    return list(NO_CALL_TYPES)


@pytest.mark.parametrize("kind", _allowlist())
def test_each_allowlisted_event_gives_no_call(kind: str) -> None:
    event = {"type": kind, "sequence_number": 3, "item_id": "fc_1", "output_index": 0, "index": 0}
    assert to_calls([event]) == []
    # and it leaves a stream around it alone
    assert to_calls([*CHAT_STREAM[:5], event, *CHAT_STREAM[5:]]) == [SEARCH, WEATHER]


# --- LangChain message chunks --------------------------------------------------------------


class PiecesModel(BaseChatModel):
    """A chat model that streams the tool-call chunks it is given, one message chunk each."""

    pieces: list[list[dict[str, Any]]]

    @property
    def _llm_type(self) -> str:
        return "pieces"

    def _generate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        raise NotImplementedError

    def _stream(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        for piece in self.pieces:
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=piece))


def piece(
    index: int | None, args: str, call_id: str | None = None, name: str | None = None
) -> dict[str, Any]:
    return {"name": name, "args": args, "id": call_id, "index": index}


LANGCHAIN_PIECES = [
    [piece(0, "", "call_1", "search")],
    [piece(0, '{"q": ')],
    [piece(1, '{"city": ', "call_2", "weather"), piece(0, '"paris"}')],
    [piece(1, '"Oslo"}')],
]


def langchain_stream(pieces: list[list[dict[str, Any]]]) -> list[AIMessageChunk]:
    chunks = list(PiecesModel(pieces=pieces).stream("Weather in Paris?"))
    assert chunks[-1].chunk_position == "last"  # LangChain's own end of stream
    return chunks


def as_calls(tool_calls: list[Any]) -> list[ToolCall]:
    return [ToolCall(call["name"], call["args"], call["id"]) for call in tool_calls]


def test_langchain_chunks_read_as_langchains_own_sum() -> None:
    chunks = langchain_stream(LANGCHAIN_PIECES)
    merged = sum(chunks[1:], chunks[0])
    assert to_calls(chunks) == as_calls(merged.tool_calls) == [SEARCH, WEATHER]
    assert to_calls(merged) == [SEARCH, WEATHER]
    assert to_calls([chunk.model_dump() for chunk in chunks]) == [SEARCH, WEATHER]


def test_langchain_concatenates_names_and_keeps_entries_without_index_apart() -> None:
    pieces = [
        [piece(0, "", "call_1", "sea")],
        [piece(0, '{"q": "paris"}', None, "rch")],
        [piece(None, '{"city": "Oslo"}', "call_2", "weather")],
        [piece(None, "{}", "call_3", "now")],
    ]
    chunks = langchain_stream(pieces)
    merged = sum(chunks[1:], chunks[0])
    assert (
        to_calls(chunks)
        == as_calls(merged.tool_calls)
        == [SEARCH, WEATHER, ToolCall("now", {}, "call_3")]
    )


def test_a_langchain_stream_cut_off_in_the_arguments() -> None:
    chunks = langchain_stream(LANGCHAIN_PIECES)[:2]  # no 'last' chunk: the stream was cut
    assert to_calls(chunks) == [ToolCall("search", {}, "call_1", incomplete('{"q": '))]
    # LangChain's own sum parses the partial JSON as if it were whole
    assert sum(chunks[1:], chunks[0]).tool_calls[0]["args"] == {}


def test_a_finished_langchain_stream_with_bad_json_says_so() -> None:
    (call,) = to_calls(langchain_stream([[piece(0, '{"q": paris}', "call_1", "search")]]))
    assert call.parse_error == "arguments are not valid JSON: Expecting value (line 1, column 7)"


def test_langchain_tool_call_chunk_dicts() -> None:
    chunks = langchain_stream(LANGCHAIN_PIECES)
    entries = [entry for chunk in chunks for entry in chunk.tool_call_chunks]
    assert to_calls(entries) == [SEARCH, WEATHER]


# --- litellm ---------------------------------------------------------------------------------

# litellm is imported in a child process: importing it takes seconds, and its logging worker
# outlives a completion. Both of its ways to a stream are checked there: its own stream loop
# (litellm.completion over an OpenAI client served the SSE body), and ModelResponseStream
# objects built offline; each against litellm's own accumulator, stream_chunk_builder.
LITELLM_RUN = """
import json, os, sys, warnings
warnings.filterwarnings("ignore", message="Item .* on TypedDict class")  # litellm's own types
import httpx, litellm, openai
from litellm.types.utils import ModelResponseStream
from toolmatch import to_calls

given = json.load(sys.stdin)
body = given["body"].encode()
transport = httpx.MockTransport(
    lambda request: httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)
)
client = openai.OpenAI(api_key="test", base_url="http://test/v1", http_client=httpx.Client(transport=transport))
streamed = list(litellm.completion(
    model="openai/gpt-4.1", messages=[{"role": "user", "content": "Paris?"}], client=client, stream=True
))
built = [ModelResponseStream(**data) for data in given["chunks"]]


def calls(obj):
    return [call.as_dict() for call in to_calls(obj)]


print(json.dumps({
    "types": sorted({type(chunk).__name__ for chunk in streamed + built}),
    "streamed": calls(streamed),
    "streamed_built": calls(litellm.stream_chunk_builder(streamed)),
    "built": calls(built),
    "built_built": calls(litellm.stream_chunk_builder(built)),
}))
sys.stdout.flush()
os._exit(0)
"""


def test_litellm_stream_chunks_equal_its_own_chunk_builder() -> None:
    given = {"body": sse(CHAT_STREAM).decode(), "chunks": CHAT_STREAM[:-1]}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(LITELLM_RUN)],
        input=json.dumps(given).encode(),
        capture_output=True,
        timeout=180,
        check=True,
        # litellm fetches a price list from the network when imported, unless told not to
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
    )
    found = json.loads(done.stdout.decode().strip().splitlines()[-1])
    expected = [SEARCH.as_dict(), WEATHER.as_dict()]
    assert found.pop("types") == ["ModelResponseStream"]
    assert found == dict.fromkeys(["streamed", "streamed_built", "built", "built_built"], expected)


# --- Gemini chunk lists ----------------------------------------------------------------------


def test_gemini_chunks_hold_whole_calls() -> None:
    from google.genai import types

    def response(*parts: types.Part, finish: Any = None) -> types.GenerateContentResponse:
        content = types.Content(role="model", parts=list(parts)) if parts else None
        return types.GenerateContentResponse(
            candidates=[types.Candidate(content=content, finish_reason=finish)]
        )

    chunks = [
        response(types.Part(text="Let me")),
        response(types.Part(text=" check.")),
        response(
            types.Part(
                function_call=types.FunctionCall(name="search", args={"q": "paris"}, id="call_1")
            )
        ),
        response(
            types.Part(
                function_call=types.FunctionCall(name="weather", args={"city": "Oslo"}, id="call_2")
            ),
            finish=types.FinishReason.STOP,
        ),
        types.GenerateContentResponse(
            usage_metadata=types.GenerateContentResponseUsageMetadata(total_token_count=9)
        ),
    ]
    assert to_calls(chunks) == to_calls(iter(chunks)) == [SEARCH, WEATHER]


# --- any iterable ----------------------------------------------------------------------------


class Events:
    """A user's own iterable of events (not a list, nor an iterator)."""

    def __init__(self, events: list[dict[str, Any]]) -> None:
        self.events = events

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(self.events)


def test_streams_of_every_kind_as_any_iterable() -> None:
    for stream in (CHAT_STREAM, RESPONSES_STREAM, ANTHROPIC_STREAM):
        expected = to_calls(stream)
        assert expected
        assert (
            to_calls(iter(stream))
            == to_calls(Events(stream))
            == to_calls(tuple(stream))
            == expected
        )
        assert to_calls(event for event in stream) == expected


def test_streams_work_with_the_checks() -> None:
    assert ExpectedTool("search", {"q": "paris"}).check(iter(ANTHROPIC_STREAM)).passed
    assert ExpectedTool.never("weather") != iter(RESPONSES_STREAM[:0] + CHAT_STREAM)
    cut = ExpectedTool("weather", {"city": "Oslo"}).check(CHAT_STREAM[:6])
    assert not cut.passed
    assert cut.unmatched_reason is not None
    assert "arguments are incomplete" in cut.unmatched_reason


# --- any split of the arguments, any interleaving, any prefix --------------------------------

json_scalars = st.none() | st.booleans() | st.integers() | st.text(max_size=6)
argument_dicts = st.dictionaries(
    st.text(max_size=4), json_scalars | st.lists(json_scalars, max_size=2), max_size=3
)


@st.composite
def schedules(
    draw: st.DrawFn, *, interleave: bool
) -> tuple[list[dict[str, Any]], list[tuple[int, str]]]:
    """Calls' arguments, and the order their text pieces arrive in: (call number, piece)."""
    calls = draw(st.lists(argument_dicts, min_size=1, max_size=3))
    queues = []
    for args in calls:
        text = json.dumps(args, ensure_ascii=False)
        cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=4)))
        bounds = [0, *cuts, len(text)]
        queues.append([text[start:end] for start, end in pairwise(bounds) if end > start])
    order: list[tuple[int, str]] = []
    if interleave:
        while any(queues):
            number = draw(st.sampled_from([n for n, queue in enumerate(queues) if queue]))
            order.append((number, queues[number].pop(0)))
    else:
        order = [(number, text) for number, queue in enumerate(queues) for text in queue]
    return calls, order


def expected_calls(calls: list[dict[str, Any]], order: list[tuple[int, str]]) -> list[ToolCall]:
    first_seen = list(dict.fromkeys(number for number, _ in order))
    return [ToolCall(f"tool_{number}", calls[number], f"call_{number}") for number in first_seen]


def chat_stream(order: list[tuple[int, str]]) -> list[dict[str, Any]]:
    begun: set[int] = set()
    stream = []
    for number, text in order:
        if number in begun:
            stream.append(chunk({"tool_calls": [entry(number, text)]}))
        else:
            begun.add(number)
            stream.append(
                chunk({"tool_calls": [entry(number, text, f"call_{number}", f"tool_{number}")]})
            )
    return stream


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def anthropic_stream(order: list[tuple[int, str]]) -> list[dict[str, Any]]:
    blocks: dict[int, list[str]] = {}
    for number, text in order:
        blocks.setdefault(number, []).append(text)
    stream: list[dict[str, Any]] = []
    for index, (number, pieces) in enumerate(blocks.items()):
        block = {"type": "tool_use", "id": f"call_{number}", "name": f"tool_{number}", "input": {}}
        stream.append({"type": "content_block_start", "index": index, "content_block": block})
        stream += [
            {"type": "content_block_delta", "index": index, "delta": delta}
            for delta in json_pieces(*pieces)
        ]
        if _parses("".join(pieces)):  # a block cut short has no stop
            stream.append({"type": "content_block_stop", "index": index})
    return stream


def responses_stream(order: list[tuple[int, str]]) -> list[dict[str, Any]]:
    blocks: dict[int, list[str]] = {}
    for number, text in order:
        blocks.setdefault(number, []).append(text)
    stream = []
    for index, (number, pieces) in enumerate(blocks.items()):
        item = {
            **FUNCTION_ITEM,
            "id": f"fc_{number}",
            "call_id": f"call_{number}",
            "name": f"tool_{number}",
            "arguments": "".join(pieces),
        }
        stream += call_events(item, index, pieces)[:-2]  # without the done events
    return stream


def langchain_dicts(order: list[tuple[int, str]]) -> list[dict[str, Any]]:
    begun: set[int] = set()
    stream = []
    for number, text in order:
        first = number not in begun
        begun.add(number)
        args = (f"call_{number}", f"tool_{number}") if first else (None, None)
        stream.append(
            {
                "type": "AIMessageChunk",
                "content": "",
                "tool_call_chunks": [piece(number, text, *args)],
            }
        )
    return stream


@pytest.mark.parametrize(
    ("build", "interleave"),
    [
        (chat_stream, True),
        (langchain_dicts, True),
        (anthropic_stream, False),
        (responses_stream, False),
    ],
    ids=["chat", "langchain", "anthropic", "responses"],
)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_split_and_any_prefix(build: Any, interleave: bool, data: st.DataObject) -> None:
    calls, order = data.draw(schedules(interleave=interleave))
    expected = expected_calls(calls, order)
    assert to_calls(build(order)) == expected
    # Every prefix of the pieces: each call begun is there, whole or marked incomplete.
    cut = data.draw(st.integers(0, len(order)))
    received: dict[int, str] = {}
    for number, text in order[:cut]:
        received[number] = received.get(number, "") + text
    found = to_calls(build(order[:cut]))
    assert [call.name for call in found] == [f"tool_{number}" for number in received]
    for call, (number, text) in zip(found, received.items(), strict=True):
        whole = json.dumps(calls[number], ensure_ascii=False)
        if text == whole:
            assert call == expected_calls(calls, [(number, text)])[0]
        else:
            assert (call.args, call.id) == ({}, f"call_{number}")
            assert call.parse_error is not None
            assert call.parse_error.startswith("arguments are incomplete: the stream stopped")


def test_azure_content_filter_chunks_hold_no_call() -> None:
    filters = {"hate": {"filtered": False, "severity": "safe"}}
    first = {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "choices": [],
        "prompt_filter_results": [{"prompt_index": 0, "content_filter_results": filters}],
    }
    annotation = {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "choices": [
            {
                "index": 0,
                "finish_reason": None,
                "content_filter_results": filters,
                "content_filter_offsets": {"check_offset": 0, "start_offset": 0, "end_offset": 9},
            }
        ],
    }
    client = openai_client(sse([first, *CHAT_STREAM[:-1], annotation]))
    chunks = list(client.chat.completions.create(model="gpt-4.1", messages=[], stream=True))
    assert to_calls(chunks) == [SEARCH, WEATHER]
    assert to_calls([first, annotation]) == []


@pytest.mark.parametrize(
    ("event", "where", "found", "nearest"),
    [
        (
            {"type": "response.output_item.addd", "output_index": 0},
            "input[1]",
            "type 'response.output_item.addd'",
            "'response.output_item.added'",
        ),
        (
            {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delt"}},
            "input[1].delta",
            "type 'input_json_delt'",
            "'input_json_delta'",
        ),
        (
            {"type": "content_block_start", "index": 5, "content_block": {"type": "tool_uses"}},
            "input[1].content_block",
            "type 'tool_uses'",
            "'tool_use'",
        ),
        (
            {**chunk({}), "object": "chat.completion.chunks"},
            "input[1]",
            "object 'chat.completion.chunks'",
            "'chat.completion.chunk'",
        ),
    ],
    ids=["responses-event", "anthropic-delta", "anthropic-block", "chunk-object"],
)
def test_an_unknown_event_in_a_stream_is_an_error(
    event: dict[str, Any], where: str, found: str, nearest: str
) -> None:
    with pytest.raises(TypeError) as error:
        to_calls([CHAT_STREAM[1], event])
    assert str(error.value) == (
        f"to_calls cannot read tool calls from {where}: its {found} is not one to_calls "
        f"knows (nearest accepted: {nearest}); accepted shapes: "
        "https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md#accepted-shapes"
    )


def test_an_input_json_delta_by_itself_is_an_error() -> None:
    with pytest.raises(ValueError, match="belongs to no block") as error:
        to_calls([ToolCall("now"), json_pieces("{}")[0]])
    assert str(error.value) == (
        "input[1]: an input_json_delta by itself belongs to no block; pass the whole stream"
    )


def test_a_langchain_chunk_made_of_whole_calls() -> None:
    # LangChain makes chunks (without index) of the calls a chunk is made with.
    made = AIMessageChunk(
        content="", tool_calls=[{"name": "search", "args": {"q": "paris"}, "id": "call_1"}]
    )
    assert to_calls(made) == [SEARCH]
    # JSON of a chunk written without tool_call_chunks is read by its calls, as LangChain would.
    data = {
        "type": "AIMessageChunk",
        "content": "",
        "tool_calls": [
            {"name": "search", "args": {"q": "paris"}, "id": "call_1", "type": "tool_call"}
        ],
    }
    invalid = {
        "name": "search",
        "args": "{",
        "id": "call_4",
        "error": "bad JSON",
        "type": "invalid_tool_call",
    }
    assert to_calls(data) == [SEARCH]
    assert to_calls({**data, "tool_calls": [], "invalid_tool_calls": [invalid]}) == to_calls(
        [invalid]
    )


def test_a_custom_tool_call_cut_off_in_its_free_text_input() -> None:
    custom = {
        "type": "custom_tool_call",
        "id": "ctc_1",
        "call_id": "call_3",
        "name": "shell",
        "input": "rm -rf /tmp/x",
        "status": "completed",
    }
    events = call_events(custom, 0, ["rm -rf", " /tmp/x"])
    assert to_calls(events[:2]) == [ToolCall("shell", {}, "call_3", incomplete("rm -rf"))]
    assert to_calls(events[:4]) == [ToolCall("shell", {"input": "rm -rf /tmp/x"}, "call_3")]


def test_a_later_piece_joins_the_latest_call_at_its_index() -> None:
    pieces = [
        [piece(0, '{"q": "paris"}', "call_1", "search")],
        [piece(0, '{"city": ', "call_2", "weather")],
        [piece(0, '"Oslo"}')],
    ]
    chunks = langchain_stream(pieces)
    assert to_calls(chunks) == [SEARCH, WEATHER]
    # LangChain's own sum joins it to the first call at index 0 instead
    merged = sum(chunks[1:], chunks[0])
    assert [chunk["args"] for chunk in merged.tool_call_chunks] == [
        '{"q": "paris"}"Oslo"}',
        '{"city": ',
    ]


def test_an_async_stream_says_to_collect_it_first() -> None:
    async def events() -> Any:
        yield CHAT_STREAM[1]

    stream = events()
    with pytest.raises(TypeError) as error:
        to_calls(stream)
    message = str(error.value)
    assert message.startswith("to_calls cannot read tool calls from input: <async_generator object")
    assert (
        "; collect an async stream first: [e async for e in stream]; accepted shapes: " in message
    )
    import asyncio

    async def collect() -> list[Any]:
        return [event async for event in stream]

    assert to_calls(asyncio.run(collect())) == [ToolCall("search", {}, "call_1", incomplete(""))]


def test_a_responses_stream_whose_start_lists_an_item() -> None:
    begun = {**FUNCTION_ITEM, "arguments": "", "status": "in_progress"}
    events = [
        {"type": "response.created", "response": {**RESPONSE, "output": [begun]}},
        {"type": "response.in_progress", "response": {**RESPONSE, "output": [begun]}},
        *call_events(FUNCTION_ITEM, 0, ['{"q": "paris"}'])[1:],
    ]
    assert to_calls(events) == [SEARCH]
    assert to_calls(events[:2]) == [ToolCall("search", {}, "call_1", incomplete(""))]
