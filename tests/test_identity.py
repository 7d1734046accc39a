"""Identity by content (docs/formats.md, "Counted once") and whole inputs: the same message
seen again counts once, two messages sharing an id count twice, a format that replaces a
message by id gives the version the run executed, and a stream read before raises."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sdk_clients import (
    CHAT_STREAM,
    anthropic_client,
    anthropic_events,
    chat_stream_read,
    openai_client,
    sse,
)
from toolmatch import ExpectedTool, ToolCall, to_calls
from toolmatch._readers.reading import FORMATS_DOC

SEARCH = ToolCall("search", {"q": "paris"}, "call_1")
WEATHER = ToolCall("weather", {"city": "Oslo"}, "call_2")


# --- a stream beside its final object counts once ------------------------------------------


def test_openai_chat_chunks_beside_the_final_completion_count_once() -> None:
    chunks, events, final = chat_stream_read(openai_client(sse(CHAT_STREAM)))
    assert final.id == chunks[0].id
    assert to_calls([*chunks, final]) == [SEARCH]
    assert to_calls([final, *chunks]) == [SEARCH]
    assert to_calls([*events, final]) == [SEARCH]  # the .stream() helper's events
    assert to_calls([final, final.model_dump(mode="json")]) == [SEARCH]
    assert ExpectedTool("search", max_count=1) == [*chunks, final]


def test_anthropic_events_beside_the_final_message_count_once() -> None:
    client = anthropic_client(sse(anthropic_events(), named=True))
    with client.messages.stream(model="claude-test", max_tokens=10, messages=[]) as stream:
        events = list(stream)
        final = stream.get_final_message()
    assert to_calls([*events, final]) == to_calls([final, *events]) == [SEARCH]


def test_a_stream_cut_short_beside_its_final_object_gives_the_whole_call() -> None:
    chunks, _, final = chat_stream_read(openai_client(sse(CHAT_STREAM)))
    assert to_calls(chunks[:2])[0].parse_error is not None  # cut short: incomplete
    assert to_calls([*chunks[:2], final]) == [SEARCH]


# --- a final object beside messages without an identity ----------------------------------

UNSURE = (
    "{}, and one of them has no id: to_calls cannot tell one call seen twice (a final "
    "object, or its stream, and messages holding it) from two calls; pass the final "
    "object or the messages, not both"
)


def chat_history(message: Any, answer: str = "sunny") -> list[Any]:
    """An app's history: the question, the model's message as it appends it (a dict: chat
    messages have no id), the tool's answer."""
    return [
        {"role": "user", "content": "Weather in Paris?"},
        message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": "call_1", "content": answer},
    ]


def test_a_final_object_beside_the_history_holding_its_message_counts_once() -> None:
    chunks, events, final = chat_stream_read(openai_client(sse(CHAT_STREAM)))
    history = chat_history(final.choices[0].message)
    answered = [ToolCall("search", {"q": "paris"}, "call_1", result="sunny")]
    assert to_calls([*chunks, *history]) == answered
    assert to_calls([*history, *chunks]) == answered
    assert to_calls([final, *history]) == answered
    assert to_calls([*events, final, *history]) == answered
    assert ExpectedTool("search", max_count=1) == [final, *history]


def test_two_calls_beside_a_final_object_that_agree_with_its_call_raise() -> None:
    # one of them is the final object's message in the history, or neither is: a run that
    # reuses call ids (docs/formats.md, "Counted once") cannot say which
    _, _, final = chat_stream_read(openai_client(sse(CHAT_STREAM)))
    history = chat_history(final.choices[0].message)
    with pytest.raises(ValueError, match="cannot tell one call seen twice") as error:
        to_calls([final, *history, *history])
    assert str(error.value) == UNSURE.format(
        "input[5].tool_calls[0].function: the call search({'q': 'paris'}) is also in the "
        "final object at input[0]",
    ).replace("one of them has no id", "so is another call beside it, of the same id")


def test_a_call_beside_a_final_object_that_differs_is_another_call() -> None:
    _, _, final = chat_stream_read(openai_client(sse(CHAT_STREAM)))
    message = final.choices[0].message.model_dump(exclude_none=True)
    rome = {
        **message["tool_calls"][0],
        "function": {"name": "search", "arguments": '{"q": "rome"}'},
    }
    later = {**message["tool_calls"][0], "id": "call_2"}  # the same search, asked again
    assert to_calls([final, {**message, "tool_calls": [rome, later]}]) == [
        SEARCH,
        ToolCall("search", {"q": "rome"}, "call_1"),
        ToolCall("search", {"q": "paris"}, "call_2"),
    ]


def test_a_call_beside_a_final_object_without_an_id_raises_naming_both() -> None:
    _, _, final = chat_stream_read(openai_client(sse(CHAT_STREAM)))
    message = final.choices[0].message.model_dump(exclude_none=True)
    entry = {**message["tool_calls"][0]}
    del entry["id"]  # a hand-written history, or a provider that gives none
    history = [{"role": "user", "content": "Paris?"}, {**message, "tool_calls": [entry]}]
    with pytest.raises(ValueError, match="cannot tell one call seen twice") as error:
        to_calls([final, *history])
    assert str(error.value) == UNSURE.format(
        "input[2].tool_calls[0].function: the call search({'q': 'paris'}) is also in the "
        "final object at input[0]"
    )
    # read once: where it was cannot be found again
    with pytest.raises(ValueError, match="cannot tell one call seen twice") as error:
        to_calls(item for item in [final, *history])
    assert str(error.value) == UNSURE.format(
        "the input holds the call search({'q': 'paris'}) in the final object at input[0] "
        "and beside it"
    )


# --- two messages sharing an id ------------------------------------------------------------


def test_two_anthropic_messages_sharing_an_id_count_twice() -> None:
    from anthropic.types import Message

    def message(city: str, call_id: str = "toolu_1") -> Message:
        block = {"type": "tool_use", "id": call_id, "name": "weather", "input": {"city": city}}
        return Message.model_validate(
            {
                "id": "msg_1",  # as a README fixture copied twice, or a gateway, reuses it
                "type": "message",
                "role": "assistant",
                "model": "claude-test",
                "content": [block],
                "stop_reason": "tool_use",
                "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            }
        )

    paris, oslo = message("Paris"), message("Oslo", "toolu_2")
    assert [call.args["city"] for call in to_calls([paris, oslo])] == ["Paris", "Oslo"]
    assert ExpectedTool.never("weather", {"city": "Oslo"}) != [paris, oslo]
    # the same call ids too: still two messages, their calls differ
    assert len(to_calls([paris, message("Oslo")])) == 2
    assert to_calls([paris, paris, paris.model_dump()]) == to_calls(paris)  # the same one


def test_two_responses_sharing_an_id_count_twice() -> None:
    from openai.types.responses import Response

    def response(call_id: str, city: str) -> Response:
        item = {
            "type": "function_call",
            "id": "fc_1",
            "call_id": call_id,
            "name": "weather",
            "arguments": f'{{"city": "{city}"}}',
            "status": "completed",
        }
        return Response.model_validate(
            {
                "id": "resp_1",
                "object": "response",
                "created_at": 0,
                "model": "gpt-4.1",
                "parallel_tool_calls": True,
                "tool_choice": "auto",
                "tools": [],
                "output": [item],
            }
        )

    paris, oslo = response("call_1", "Paris"), response("call_1", "Oslo")
    assert [call.args["city"] for call in to_calls([paris, oslo])] == ["Paris", "Oslo"]
    assert to_calls([paris, paris]) == to_calls(paris)


def test_two_langchain_messages_sharing_an_id_count_twice() -> None:
    from langchain_core.messages import AIMessage

    def message(city: str) -> AIMessage:
        call = {"name": "weather", "args": {"city": city}, "id": "call_1"}
        return AIMessage("", id="run-1", tool_calls=[call])

    assert [call.args["city"] for call in to_calls([message("Paris"), message("Oslo")])] == [
        "Paris",
        "Oslo",
    ]
    assert len(to_calls([message("Paris"), message("Paris").model_dump()])) == 1


# --- LangGraph replaces a message by id: the version the run executed ----------------------


@pytest.mark.parametrize(
    ("mode", "agent"),
    [
        ("values", None),
        ("updates", "review"),
        ("tasks", "review"),
        ("debug", "review"),
        (["updates", "values", "messages"], "review"),
    ],
)
def test_langgraph_edited_call_reads_as_the_run_executed_it(mode: Any, agent: str | None) -> None:
    pytest.importorskip("langgraph")
    from langgraph_run import PAID, PAY, edit_graph

    graph = edit_graph()
    assert to_calls(graph.invoke(PAY)) == [PAID]
    chunks = list(graph.stream(PAY, stream_mode=mode))
    expected = PAID if agent is None else ToolCall(**{**PAID.as_dict(), "agent": agent})
    assert to_calls(chunks) == [expected]
    assert ExpectedTool.never("pay", {"amount": 500}) != chunks  # the money was sent


def test_langgraph_edited_call_before_it_ran_is_the_last_version() -> None:
    pytest.importorskip("langgraph")
    from langgraph_run import PAY, edit_graph

    updates = list(edit_graph().stream(PAY, stream_mode="updates"))
    assert [next(iter(update)) for update in updates[:2]] == ["agent", "review"]
    (call,) = to_calls(updates[:2])  # stopped before the tools ran
    assert call.args == {"amount": 500}
    assert call.result is None


# --- a stream read before raises -----------------------------------------------------------

EXHAUSTED = (
    "it is exhausted: its items were read before; keep them in a list (items = "
    "list(stream)) and pass that"
)


def refused(stream: Any) -> str:
    with pytest.raises(TypeError) as error:
        to_calls(stream)
    assert ExpectedTool.never("search") != stream  # never a silent pass
    message = str(error.value)
    assert message.startswith("to_calls cannot read tool calls from input: ")
    assert message.endswith(f"; accepted shapes: {FORMATS_DOC}")
    return message.split("; ", 1)[1].removesuffix(f"; accepted shapes: {FORMATS_DOC}")


def test_a_consumed_openai_stream_raises() -> None:
    client = openai_client(sse(CHAT_STREAM))
    stream = client.chat.completions.create(model="gpt-4.1", messages=[], stream=True)
    list(stream)
    assert refused(stream) == EXHAUSTED
    stream = client.chat.completions.create(model="gpt-4.1", messages=[], stream=True)
    next(stream)
    assert refused(stream) == (
        "it was read in part before: the items read are no longer in it; keep them all in a "
        "list (items = list(stream)) and pass that"
    )
    with client.chat.completions.stream(model="gpt-4.1", messages=[]) as helper:
        helper.until_done()
        assert refused(helper) == f"{EXHAUSTED}, or pass stream.get_final_completion()"


def test_a_consumed_openai_async_stream_raises() -> None:
    import httpx
    import openai

    async def run() -> str:
        def handler(request: Any) -> Any:
            return httpx.Response(
                200, headers={"content-type": "text/event-stream"}, content=sse(CHAT_STREAM)
            )

        client = openai.AsyncOpenAI(
            api_key="test",
            base_url="http://test/v1",
            http_client=httpx.AsyncClient(transport=httpx.MockTransport(handler)),
        )
        stream = await client.chat.completions.create(model="gpt-4.1", messages=[], stream=True)
        async for _ in stream:
            pass
        return refused(stream)

    assert asyncio.run(run()) == EXHAUSTED


def test_a_consumed_anthropic_stream_raises() -> None:
    client = anthropic_client(sse(anthropic_events(), named=True))
    stream = client.messages.create(model="claude-test", max_tokens=10, messages=[], stream=True)
    list(stream)
    assert refused(stream) == EXHAUSTED
    with client.messages.stream(model="claude-test", max_tokens=10, messages=[]) as helper:
        helper.until_done()
        assert refused(helper) == f"{EXHAUSTED}, or pass stream.get_final_message()"
    fresh = client.messages.create(model="claude-test", max_tokens=10, messages=[], stream=True)
    assert to_calls(fresh) == [SEARCH]  # not read before: read whole


# --- the property: no call lost or doubled against the documented rule ---------------------

CALLS = [("search", {"q": "paris"}, "c1"), ("search", {"q": "oslo"}, "c1"), ("pay", {}, "c2")]


def reference(messages: list[tuple[str, tuple[int, ...]]]) -> list[tuple[Any, ...]]:
    """The rule of docs/formats.md, "Counted once", for a format that keeps every message:
    a message whose id and calls are those of a message read before is that message again;
    any other is a message of its own."""
    seen: list[tuple[str, tuple[int, ...]]] = []
    calls: list[tuple[Any, ...]] = []
    for message in messages:
        if message not in seen:
            seen.append(message)
            calls.extend(CALLS[number] for number in message[1])
    return calls


def reference_replacing(messages: list[tuple[str, tuple[int, ...]]]) -> list[tuple[Any, ...]]:
    """The rule for a format that replaces a message by id (no results): each id once,
    where first seen, holding its last version."""
    versions: dict[str, tuple[int, ...]] = {}
    for message_id, numbers in messages:
        versions[message_id] = numbers  # a dict keeps the first place of a key
    return [CALLS[number] for numbers in versions.values() for number in numbers]


MESSAGES = st.lists(
    st.tuples(
        st.sampled_from(["m1", "m2", "m3"]),
        st.lists(st.integers(0, len(CALLS) - 1), max_size=2).map(tuple),
    ),
    max_size=8,
)


def anthropic_message(message_id: str, numbers: tuple[int, ...]) -> dict[str, Any]:
    blocks = [
        {"type": "tool_use", "id": CALLS[n][2], "name": CALLS[n][0], "input": CALLS[n][1]}
        for n in numbers
    ]
    return {"type": "message", "id": message_id, "role": "assistant", "content": blocks}


def langchain_message(message_id: str, numbers: tuple[int, ...]) -> dict[str, Any]:
    calls = [{"name": CALLS[n][0], "args": CALLS[n][1], "id": CALLS[n][2]} for n in numbers]
    return {"type": "ai", "id": message_id, "content": "", "tool_calls": calls}


def read(messages: Any) -> list[tuple[Any, ...]]:
    return [(call.name, call.args, call.id) for call in to_calls(messages)]


@given(MESSAGES)
def test_reused_and_repeated_ids_lose_and_double_no_call(
    messages: list[tuple[str, tuple[int, ...]]],
) -> None:
    expected = reference(messages)
    assert read([anthropic_message(*message) for message in messages]) == expected
    assert read([langchain_message(*message) for message in messages]) == expected


@given(MESSAGES)
def test_langgraph_updates_with_reused_ids_give_each_message_once(
    messages: list[tuple[str, tuple[int, ...]]],
) -> None:
    updates = [{"agent": {"messages": [langchain_message(*message)]}} for message in messages]
    calls = to_calls(updates)
    assert [(call.name, call.args, call.id) for call in calls] == reference_replacing(messages)


# --- Gemini: automatic function calling, answers without ids --------------------------------


def gemini_afc_response() -> Any:
    """A response of google-genai's automatic function calling: the SDK ran get_weather
    (the Gemini API gives calls no id) before the model's last answer."""
    genai = pytest.importorskip("google.genai")
    import httpx
    from google.genai import types

    turns = [
        [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}],
        [{"text": "Sunny in Paris."}],
    ]

    def handler(request: Any) -> Any:
        parts = turns.pop(0)
        candidate = {"content": {"role": "model", "parts": parts}, "finishReason": "STOP"}
        return httpx.Response(200, json={"candidates": [candidate]})

    def get_weather(city: str) -> str:
        """The weather in a city."""
        return f"Sunny in {city}"

    client = genai.Client(
        api_key="test",
        http_options=types.HttpOptions(
            httpx_client=httpx.Client(transport=httpx.MockTransport(handler))
        ),
    )
    config = types.GenerateContentConfig(tools=[get_weather])
    return client.models.generate_content(
        model="gemini-2.5-flash", contents="Weather in Paris?", config=config
    )


def test_gemini_automatic_function_calling_history_is_read() -> None:
    response = gemini_afc_response()
    ran = ToolCall("get_weather", {"city": "Paris"}, result={"result": "Sunny in Paris"})
    assert to_calls(response) == [ran]
    assert to_calls(response.model_dump(mode="json", by_alias=True)) == [ran]
    assert ExpectedTool.never("get_weather") != response


def test_gemini_answers_without_ids_pair_by_name_and_order() -> None:
    from google.genai import types

    def call(city: str) -> types.Part:
        return types.Part(function_call=types.FunctionCall(name="weather", args={"city": city}))

    def answer(name: str, text: str) -> types.Part:
        response = types.FunctionResponse(name=name, response={"output": text})
        return types.Part(function_response=response)

    contents = [
        types.Content(role="model", parts=[call("Paris"), call("Oslo")]),
        types.Content(role="user", parts=[answer("weather", "sunny"), answer("weather", "rain")]),
        types.Content(role="user", parts=[answer("search", "none")]),  # no such call
    ]
    assert [(call.args["city"], call.result, call.failed) for call in to_calls(contents)] == [
        ("Paris", {"output": "sunny"}, False),
        ("Oslo", {"output": "rain"}, False),
    ]


def chat_message(numbers: tuple[int, ...], first: int) -> dict[str, Any]:
    """A chat history's assistant message (no id) asking ``numbers``' calls; call ids from
    ``first`` on, each unique in the run."""
    entries = [
        {
            "id": f"call_{first + place}",
            "type": "function",
            "function": {"name": CALLS[n][0], "arguments": json.dumps(CALLS[n][1])},
        }
        for place, n in enumerate(numbers)
    ]
    return {"role": "assistant", "content": None, "tool_calls": entries}


@given(
    st.lists(
        st.lists(st.integers(0, len(CALLS) - 1), min_size=1, max_size=3), min_size=1, max_size=6
    ),
    st.data(),
)
def test_a_final_object_beside_its_history_loses_and_doubles_no_call(
    asked: list[list[int]], data: st.DataObject
) -> None:
    history = [chat_message(tuple(numbers), 10 * turn) for turn, numbers in enumerate(asked)]
    final = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": data.draw(st.sampled_from(history))}],
    }
    place = data.draw(st.integers(0, len(history)))
    given = [*history[:place], final, *history[place:]]
    # the rule: each call once (its id is unique in the run), where first seen
    expected: list[tuple[Any, ...]] = []
    for item in given:
        message = item["choices"][0]["message"] if "choices" in item else item
        for entry in message["tool_calls"]:
            function = entry["function"]
            call = (function["name"], json.loads(function["arguments"]), entry["id"])
            if call not in expected:
                expected.append(call)
    assert read(given) == expected
