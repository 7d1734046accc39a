"""The reading-equivalence matrix (issue 34, deliverable 5): for each family, one real run
built offline with the SDK's own classes and run loop, read every way a user could hand it
over, gives the same calls with the same fields where that way records them, or the
documented error. Each (family, way) is its own test; a family whose SDK is not installed
skips, naming it."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest

from sdk_clients import (
    CHAT_STREAM,
    RESPONSES_STREAM,
    anthropic_client,
    anthropic_events,
    chat_stream_read,
    openai_client,
    sse,
)
from toolmatch import ANY, ExpectedTool, ToolCall, to_calls
from toolmatch._readers.reading import FORMATS_DOC

EXHAUSTED = (
    "it is exhausted: its items were read before; keep them in a list (items = "
    "list(stream)) and pass that"
)


class Raises(NamedTuple):
    """The documented error a way gives: its type and why the input cannot be read (what
    the message says after naming the input at ``at``), or with ``whole`` its whole
    message."""

    error: type[Exception]
    reason: str
    whole: bool = False
    at: str = "input"  # where in the input it is


class Gives(NamedTuple):
    """A way that cannot record what the run did, and so reads other calls: what it gives,
    and why (docs/formats.md says so too)."""

    calls: list[ToolCall]
    why: str


Way = tuple[Callable[[], object], tuple[str, ...] | Raises | Gives]


class Run(NamedTuple):
    """One run of a family: its calls with every field some way records, and each way of
    handing it over: the input, and the fields that way does not record (or its error)."""

    calls: list[ToolCall]
    ways: dict[str, Way]


def without(calls: list[ToolCall], fields: tuple[str, ...]) -> list[ToolCall]:
    """``calls`` as a way that does not record ``fields`` reads them."""
    return [ToolCall(**{**call.as_dict(), **dict.fromkeys(fields)}) for call in calls]


def dumps(obj: Any) -> dict[str, Callable[[], object]]:
    """The ways of handing over a pydantic object as data: its dumps and its JSON text."""
    return {
        "model_dump": obj.model_dump,
        "model_dump(by_alias=True)": lambda: obj.model_dump(by_alias=True),
        "model_dump(mode=json)": lambda: obj.model_dump(mode="json"),
        "JSON text": obj.model_dump_json,
    }


CONSUMED = Raises(TypeError, EXHAUSTED)

# --- OpenAI Chat Completions --------------------------------------------------------------


def openai_chat() -> Run:
    """The model streams search(q="paris"); the app runs it and keeps the history."""
    client = openai_client(sse(CHAT_STREAM))
    chunks, events, final = chat_stream_read(client)
    consumed = client.chat.completions.create(model="gpt-4.1", messages=[], stream=True)
    list(consumed)
    message = final.choices[0].message
    history = [
        {"role": "user", "content": "Weather in Paris?"},
        message.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ]
    answer = history[2:]
    ran = ToolCall("search", {"q": "paris"}, "call_1", result="sunny")
    asked = ("result",)

    def fresh() -> object:
        return client.chat.completions.create(model="gpt-4.1", messages=[], stream=True)

    return Run(
        [ran],
        {
            "final object": (lambda: final, asked),
            "message": (lambda: message, asked),
            **{way: (read, asked) for way, read in dumps(final).items()},
            "chunks": (lambda: chunks, asked),
            "chunk dumps": (lambda: [chunk.model_dump() for chunk in chunks], asked),
            "stream, not read": (fresh, asked),
            "stream helper events": (lambda: events, asked),
            "chunks + final": (lambda: [*chunks, final], asked),
            "final + chunks": (lambda: [final, *chunks], asked),
            "helper events + final": (lambda: [*events, final], asked),
            "consumed stream": (lambda: consumed, CONSUMED),
            "history": (lambda: history, ()),
            "history as JSON text": (lambda: json.dumps(history), ()),
            "final + its answer": (lambda: [final, *answer], ()),
            # the app's history holds the assembled message (a dict: no id) beside them
            "chunks + history": (lambda: [*chunks, *history], ()),
            "final + history": (lambda: [final, *history], ()),
            "history + final": (lambda: [*history, final], ()),
        },
    )


# --- OpenAI Responses ----------------------------------------------------------------------


def without_id(item: Any) -> dict[str, Any]:
    """A Responses input item as a dict without its item ``id``."""
    data = item if isinstance(item, dict) else item.model_dump(exclude_none=True)
    return {key: value for key, value in data.items() if key != "id"}


def responses() -> Run:
    """The model streams a message and search(q="paris"); the app runs it and sends its
    output back as the next input."""
    client = openai_client(sse(RESPONSES_STREAM, named=True))

    def fresh() -> Any:
        return client.responses.create(model="gpt-4.1", input="Paris?", stream=True)

    events = list(fresh())
    with client.responses.stream(model="gpt-4.1", input="Paris?") as stream:
        helper_events = list(stream)
        final = stream.get_final_response()
    consumed = fresh()
    list(consumed)
    answer = {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}
    replay = [{"role": "user", "content": "Paris?"}, *final.output, answer]
    ran = ToolCall("search", {"q": "paris"}, "call_1", result="sunny")
    asked = ("result",)
    return Run(
        [ran],
        {
            "final object": (lambda: final, asked),
            "output items": (lambda: final.output, asked),
            **{way: (read, asked) for way, read in dumps(final).items()},
            "events": (lambda: events, asked),
            "event dumps": (lambda: [event.model_dump() for event in events], asked),
            "stream, not read": (fresh, asked),
            "stream helper events": (lambda: helper_events, asked),
            "events + final": (lambda: [*events, final], asked),
            "final + events": (lambda: [final, *events], asked),
            "consumed stream": (lambda: consumed, CONSUMED),
            "next input": (lambda: replay, ()),
            "next input as JSON text": (
                lambda: json.dumps(
                    [item if isinstance(item, dict) else item.model_dump() for item in replay]
                ),
                (),
            ),
            "final + its answer": (lambda: [final, answer], ()),
            # the next input written by hand: its call item without the item id
            "final + next input without item ids": (
                lambda: [final, *(without_id(item) for item in replay)],
                (),
            ),
        },
    )


# --- Anthropic --------------------------------------------------------------------------


def anthropic() -> Run:
    """The model streams search(q="paris"); the app runs it, it fails, and it says so."""
    client = anthropic_client(sse(anthropic_events(), named=True))

    def fresh() -> Any:
        return client.messages.create(model="claude-test", max_tokens=9, messages=[], stream=True)

    raw = list(fresh())
    with client.messages.stream(model="claude-test", max_tokens=9, messages=[]) as stream:
        events = list(stream)
        final = stream.get_final_message()
    consumed = fresh()
    list(consumed)
    answer = {"type": "tool_result", "tool_use_id": "call_1", "content": "down", "is_error": True}
    history = [
        {"role": "user", "content": "Weather in Paris?"},
        {"role": "assistant", "content": [block.model_dump() for block in final.content]},
        {"role": "user", "content": [answer]},
    ]
    ran = ToolCall("search", {"q": "paris"}, "call_1", result="down", failed=True)
    asked = ("result", "failed")
    return Run(
        [ran],
        {
            "final object": (lambda: final, asked),
            **{way: (read, asked) for way, read in dumps(final).items()},
            "raw events": (lambda: raw, asked),
            "stream, not read": (fresh, asked),
            "stream helper events": (lambda: events, asked),
            "helper events + final": (lambda: [*events, final], asked),
            "final + raw events": (lambda: [final, *raw], asked),
            "consumed stream": (lambda: consumed, CONSUMED),
            "history": (lambda: history, ()),
            "history as JSON text": (lambda: json.dumps(history), ()),
            "final + its answer": (lambda: [final, *history[2:]], ()),
            # the app's history holds the message's blocks in a dict (no id) beside them
            "final + history": (lambda: [final, *history], ()),
            "raw events + history": (lambda: [*raw, *history], ()),
        },
    )


# --- Amazon Bedrock ------------------------------------------------------------------------


def bedrock() -> Run:
    """boto3's Converse answers search(q="paris") (botocore's Stubber serves the answer);
    the app runs it, it fails, and it says so in a toolResult."""
    import boto3
    from botocore.stub import Stubber

    client = boto3.client(
        "bedrock-runtime",
        region_name="us-east-1",
        aws_access_key_id="test",
        aws_secret_access_key="test",
    )
    use = {"toolUseId": "tooluse_1", "name": "search", "input": {"q": "paris"}}
    answer = {
        "output": {
            "message": {"role": "assistant", "content": [{"text": "Checking."}, {"toolUse": use}]}
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
        "metrics": {"latencyMs": 10},
    }
    question = [{"role": "user", "content": [{"text": "Weather in Paris?"}]}]
    with Stubber(client) as stub:
        stub.add_response("converse", answer)
        response = client.converse(modelId="test-model", messages=question)
    message = response["output"]["message"]
    result = {"toolUseId": "tooluse_1", "content": [{"text": "down"}], "status": "error"}
    history = [*question, message, {"role": "user", "content": [{"toolResult": result}]}]
    ran = ToolCall("search", {"q": "paris"}, "tooluse_1", result=[{"text": "down"}], failed=True)
    asked = ("result", "failed")
    return Run(
        [ran],
        {
            "response": (lambda: response, asked),
            "output message": (lambda: message, asked),
            "message content": (lambda: message["content"], asked),
            "history": (lambda: history, ()),
            "history as JSON text": (lambda: json.dumps(history), ()),
            "response + its answer": (lambda: [response, history[-1]], ()),
        },
    )


# --- LangChain ---------------------------------------------------------------------------


def langchain() -> Run:
    """A chat model streams two calls in pieces (as OpenAI's integration does); the app runs
    them, the second fails."""
    from langchain_core.load import dumpd
    from langchain_core.messages import HumanMessage, ToolMessage, messages_to_dict

    from langgraph_run import LANGGRAPH_CALLS, ChunkStreamingFakeModel

    chunks = list(ChunkStreamingFakeModel().stream("Weather in Paris and Atlantis?"))
    merged = chunks[0]
    for chunk in chunks[1:]:
        merged += chunk
    final = ChunkStreamingFakeModel().invoke("Weather in Paris and Atlantis?")
    answers = [
        ToolMessage(call.result, tool_call_id=call.id, status="error" if call.failed else "success")
        for call in LANGGRAPH_CALLS
    ]
    history = [HumanMessage("Weather in Paris and Atlantis?"), final, *answers]
    asked = ("result", "failed")
    return Run(
        LANGGRAPH_CALLS,
        {
            "final object": (lambda: final, asked),
            **{way: (read, asked) for way, read in dumps(final).items()},
            "dumpd": (lambda: dumpd(final), asked),
            "chunks": (lambda: chunks, asked),
            "merged chunk": (lambda: merged, asked),
            "chunks + merged": (lambda: [*chunks, merged], asked),
            "merged + chunks": (lambda: [merged, *chunks], asked),
            "history": (lambda: history, ()),
            "history, messages_to_dict": (lambda: messages_to_dict(history), ()),
            "history, dumpd": (lambda: dumpd(history), ()),
            "history as JSON text": (lambda: json.dumps(messages_to_dict(history)), ()),
        },
    )


# --- LangGraph ---------------------------------------------------------------------------

LANGGRAPH_MODES = ("values", "updates", "messages", "debug", "tasks", "checkpoints")
LANGGRAPH_WAYS = (
    "invoke",
    "invoke(version=v2)",
    "state, message dumps",
    "state, dumpd",
    "state snapshot",
    *(f"stream_mode={mode} {version}" for mode in LANGGRAPH_MODES for version in ("v1", "v2")),
    "stream_mode=[all]",
    "values stream + final state",
)


def _langgraph_ways(
    build: Callable[[Any], Any], question: Any, by_node: tuple[str, ...]
) -> dict[str, Way]:
    """The ways of handing over a LangGraph run: the ``by_node`` modes record ``agent``
    (the node), the others not."""
    from langchain_core.load import dumpd
    from langgraph.checkpoint.memory import InMemorySaver

    def graph() -> Any:
        return build(InMemorySaver())

    def ran(**options: Any) -> Any:
        config = {"configurable": {"thread_id": "matrix"}}
        return graph().invoke(question, config, **options)

    def snapshot() -> Any:
        built = graph()
        config = {"configurable": {"thread_id": "matrix"}}
        built.invoke(question, config)
        return built.get_state(config)

    def streamed(mode: Any, version: str = "v1") -> Callable[[], object]:
        def stream() -> object:
            config = {"configurable": {"thread_id": "matrix"}}
            return list(graph().stream(question, config, stream_mode=mode, version=version))

        return stream

    def fields(mode: str) -> tuple[str, ...]:
        return () if mode in by_node else ("agent",)

    def with_state() -> object:
        snapshots: Any = streamed("values")()
        return [*snapshots, snapshots[-1]]

    ways: dict[str, Way] = {
        "invoke": (ran, ("agent",)),
        "invoke(version=v2)": (lambda: ran(version="v2"), ("agent",)),
        "state, message dumps": (
            lambda: {"messages": [message.model_dump() for message in ran()["messages"]]},
            ("agent",),
        ),
        "state, dumpd": (lambda: dumpd(ran()), ("agent",)),
        "state snapshot": (snapshot, ("agent",)),
    }
    for mode in LANGGRAPH_MODES:
        for version in ("v1", "v2"):
            ways[f"stream_mode={mode} {version}"] = (streamed(mode, version), fields(mode))
    ways["stream_mode=[all]"] = (streamed(list(LANGGRAPH_MODES)), ())
    ways["values stream + final state"] = (with_state, ("agent",))
    return ways


def langgraph() -> Run:
    """The weather graph: the model asks for two forecasts, ToolNode runs them, one fails."""
    from langgraph_run import BY_NODE, QUESTION, weather_graph

    by_node = ("updates", "messages", "debug", "tasks")
    ways = _langgraph_ways(weather_graph, QUESTION, by_node)
    for way, modes in (
        ("messages, streamed chunks", "messages"),
        ("[messages, updates], streamed chunks", ["messages", "updates"]),
    ):
        ways[way] = (
            lambda modes=modes: list(
                weather_graph(streaming=True).stream(QUESTION, stream_mode=modes)
            ),
            (),
        )
    return Run(BY_NODE, ways)


def langgraph_edit() -> Run:
    """The "edit the tool call" pattern: the model asks pay(5), a review node re-emits its
    message with 500, ToolNode pays 500; the reading gives what the run executed."""
    from langgraph_run import PAID, PAY, edit_graph

    ways = _langgraph_ways(edit_graph, PAY, ("updates", "debug", "tasks"))
    # LangGraph streams a message id once: the review's edit never comes (docs/formats.md)
    proposed = ToolCall("pay", {"amount": 5}, "c1", result="paid 500", failed=False, agent="agent")
    for version in ("v1", "v2"):
        ways[f"stream_mode=messages {version}"] = (
            ways[f"stream_mode=messages {version}"][0],
            Gives([proposed], "the edit under the same id is not streamed"),
        )
    return Run([ToolCall(**{**PAID.as_dict(), "agent": "review"})], ways)


def langgraph_interrupt() -> Run:
    """An approval node stops the run with interrupt() before ToolNode runs pay(5): the
    call is pending."""
    from langgraph_run import PAY, approval_graph

    pending = ToolCall("pay", {"amount": 5}, "c1", agent="agent", status="pending")
    ways = _langgraph_ways(approval_graph, PAY, ("updates", "messages", "debug", "tasks"))
    # the messages alone, a messages stream and checkpoints record no interrupt
    ways["state, message dumps"] = (ways["state, message dumps"][0], ("agent", "status"))
    for version in ("v1", "v2"):
        ways[f"stream_mode=messages {version}"] = (
            ways[f"stream_mode=messages {version}"][0],
            ("status",),
        )
        ways[f"stream_mode=checkpoints {version}"] = (
            ways[f"stream_mode=checkpoints {version}"][0],
            ("agent", "status"),
        )
    return Run([pending], ways)


# --- Google Gemini -------------------------------------------------------------------------


def gemini() -> Run:
    """A chat streams a text and search(q="paris") (the Gemini API gives calls no id); the
    app runs it and sends its response; the model answers."""
    import httpx
    from google import genai as google_genai
    from google.genai import types

    answers = [
        [
            {"candidates": [{"content": {"role": "model", "parts": [{"text": "Let me check."}]}}]},
            {
                "candidates": [
                    {
                        "content": {
                            "role": "model",
                            "parts": [{"functionCall": {"name": "search", "args": {"q": "paris"}}}],
                        },
                        "finishReason": "STOP",
                    }
                ]
            },
        ],
        [{"candidates": [{"content": {"role": "model", "parts": [{"text": "Sunny."}]}}]}],
    ]

    def handler(request: Any) -> Any:
        body = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in answers.pop(0))
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    options = types.HttpOptions(httpx_client=httpx.Client(transport=httpx.MockTransport(handler)))
    chat = google_genai.Client(api_key="test", http_options=options).chats.create(
        model="gemini-2.5-flash"
    )
    chunks = list(chat.send_message_stream("Weather in Paris?"))
    answer = types.Part.from_function_response(name="search", response={"output": "sunny"})
    list(chat.send_message_stream(answer))
    history = chat.get_history()
    dumped = [
        content.model_dump(mode="json", by_alias=True, exclude_none=True) for content in history
    ]
    ran = ToolCall("search", {"q": "paris"}, result={"output": "sunny"}, failed=False)
    asked = ("result", "failed")
    both = Raises(
        ValueError,
        "input[4].parts[0].function_call: the call search({'q': 'paris'}) has no id, and "
        "neither has the one at input[1].candidates[0].content.parts[0].function_call: "
        "to_calls cannot tell one call seen twice (a response, or its chunks, and a chat "
        "history holding it) from two calls; pass the responses or the history, not both",
        whole=True,
    )
    return Run(
        [ran],
        {
            "chunks": (lambda: chunks, asked),
            "chunk dumps": (lambda: [chunk.model_dump() for chunk in chunks], asked),
            "chunk dumps, JSON by alias": (
                lambda: [chunk.model_dump(mode="json", by_alias=True) for chunk in chunks],
                asked,
            ),
            "last chunk": (lambda: chunks[-1], asked),
            "history": (lambda: history, ()),
            "history dumps": (lambda: dumped, ()),
            "history as JSON text": (lambda: json.dumps(dumped), ()),
            "chunks + history": (lambda: [*chunks, *history], both),
        },
    )


# --- openai-agents --------------------------------------------------------------------------


def openai_agents(fake_ids: bool = False) -> Run:
    """triage checks the weather, then hands off to billing, which checks it too: run
    whole, and streamed (``fake_ids``: a Chat Completions model's items, whose ids are
    openai-agents' placeholder)."""
    import asyncio

    from agents import Runner
    from agents.stream_events import RawResponsesStreamEvent

    from agents_run import NO_TRACING, handoff_agents

    question = "Weather, then my invoice"
    result = asyncio.run(Runner.run(handoff_agents(fake_ids), question, run_config=NO_TRACING))

    async def streamed() -> tuple[Any, list[Any]]:
        run = Runner.run_streamed(handoff_agents(fake_ids), question, run_config=NO_TRACING)
        return run, [event async for event in run.stream_events()]

    streaming, events = asyncio.run(streamed())
    raw = [event for event in events if isinstance(event, RawResponsesStreamEvent)]
    replay = result.to_input_list()
    calls = [
        ToolCall(
            "get_weather", {"city": "Paris"}, "call_t", result="Sunny in Paris", agent="triage"
        ),
        ToolCall(
            "transfer_to_billing", {}, "call_h", result='{"assistant": "billing"}', agent="triage"
        ),
        ToolCall(
            "get_weather", {"city": "Rome"}, "call_b", result="Sunny in Rome", agent="billing"
        ),
    ]
    return Run(
        calls,
        {
            "run result": (lambda: result, ()),
            "new_items": (lambda: result.new_items, ()),
            "to_input_list()": (lambda: replay, ("agent",)),
            "to_input_list() as JSON text": (lambda: json.dumps(replay), ("agent",)),
            "streamed result": (lambda: streaming, ()),
            "stream events": (lambda: events, ()),
            "raw stream events": (lambda: raw, ("result", "agent")),
            "stream events + streamed result": (lambda: [*events, streaming], ()),
            "streamed result + stream events": (lambda: [streaming, *events], ()),
            "run result + to_input_list()": (lambda: [result, *replay], ()),
        },
    )


# --- pydantic-ai ----------------------------------------------------------------------------


def pydantic_ai() -> Run:
    """An agent asks two forecasts; one tool raises ModelRetry: run whole, streamed, and
    step by step."""
    import asyncio

    from pydantic_ai.messages import ModelMessagesTypeAdapter

    from pydantic_ai_run import pai_calls, pydantic_agent

    question = "Weather in Paris and Atlantis?"
    result = asyncio.run(pydantic_agent().run(question))

    async def streamed() -> Any:
        async with pydantic_agent().run_stream(question) as run:
            await run.get_output()
            return run

    async def iterated() -> Any:
        async with pydantic_agent().iter(question) as run:
            async for _ in run:
                pass
            return run

    async def events() -> list[Any]:
        async with pydantic_agent().run_stream_events(question) as stream:
            return [event async for event in stream]

    streaming, stepped = asyncio.run(streamed()), asyncio.run(iterated())
    stream_events = asyncio.run(events())
    messages = result.all_messages()
    cut = Raises(
        ValueError,
        "input[0]: pydantic-ai stream events without the AgentRunResultEvent that ends "
        "them: the events hold a run's calls and results whole only in it; pass every "
        "event of agent.run_stream_events(...), or the run's result",
        whole=True,
    )
    return Run(
        pai_calls({"city": "Paris"}),
        {
            "run result": (lambda: result, ()),
            "all_messages()": (lambda: messages, ()),
            "new_messages()": (result.new_messages, ()),
            "all_messages_json()": (result.all_messages_json, ()),
            "messages, JSON dumps": (
                lambda: ModelMessagesTypeAdapter.dump_python(messages, mode="json"),
                (),
            ),
            "streamed run result": (lambda: streaming, ()),
            "AgentRun of iter()": (lambda: stepped, ()),
            "run result + all_messages()": (lambda: [result, *messages], ()),
            "run result + [all_messages()]": (lambda: [result, messages], ()),
            "all_messages() + run result": (lambda: [*messages, result], ()),
            "run_stream_events()": (lambda: stream_events, ()),
            "run_stream_events(), cut short": (lambda: stream_events[:-1], cut),
            "run result twice": (lambda: [result, result], ()),
            "run_stream_events() + its result": (
                lambda: [*stream_events, stream_events[-1].result],
                (),
            ),
        },
    )


# --- smolagents -----------------------------------------------------------------------------


def smolagents() -> Run:
    """A ToolCallingAgent checks the weather twice (once failing), then answers."""
    from smolagents_run import SMOL_CALLS, WEATHER_SCRIPT, smol_agent

    agent = smol_agent(*WEATHER_SCRIPT)
    result = agent.run("Weather in Paris and Atlantis?", return_full_result=True)
    messages = agent.write_memory_to_messages()
    items = list(smol_agent(*WEATHER_SCRIPT).run("Weather in Paris and Atlantis?", stream=True))
    cut = Raises(
        ValueError,
        "input[0]: smolagents stream items without the ActionStep that follows them: the "
        "items hold a step's calls and results whole only in it; pass every item of "
        "agent.run(..., stream=True), or agent.memory",
        whole=True,
    )
    # smolagents writes a step's calls as text, and none for the step whose tool failed
    as_messages = Raises(
        TypeError, f"its role is 'tool-call': {SMOL_MEMORY_MESSAGES}", at="input[3]"
    )
    return Run(
        SMOL_CALLS,
        {
            "memory": (lambda: agent.memory, ()),
            "memory steps": (lambda: agent.memory.steps, ()),
            "run result": (lambda: result, ()),
            "write_memory_to_messages()": (lambda: messages, as_messages),
            "write_memory_to_messages(), message.dict()": (
                lambda: [message.dict() for message in messages],
                as_messages,
            ),
            "write_memory_to_messages() as JSON text": (
                lambda: json.dumps([message.dict() for message in messages]),
                as_messages,
            ),
            "run(stream=True) items": (lambda: items, ()),
            "run(stream=True) items, cut short": (lambda: items[:3], cut),
        },
    )


SMOL_MEMORY_MESSAGES = (
    "smolagents writes its memory's calls into these messages as text, and leaves out the "
    "calls of a step whose tool failed: pass agent.memory (its last run), or what "
    "agent.run(..., return_full_result=True) returns"
)


# --- LlamaIndex -------------------------------------------------------------------------------


def llama_index() -> Run:
    """An AgentWorkflow: triage asks two forecasts in one step (their tools run
    concurrently, the second fails and finishes first), hands off to billing, which
    refunds. The reading keeps the order the model asked in."""
    from llama_index_run import llama_run

    run = llama_run()
    [handed_off] = [
        event.tool_output.content
        for event in run.events
        if type(event).__name__ == "ToolCallResult" and event.tool_name == "handoff"
    ]
    calls = [
        ToolCall("forecast", {"city": "Paris"}, "c1", result="Sunny in Paris", failed=False),
        ToolCall("forecast", {"city": "Atlantis"}, "c2", result="no such city", failed=True),
        ToolCall(
            "handoff",
            {"to_agent": "billing", "reason": "a refund"},
            "c3",
            result=handed_off,
            failed=False,
        ),
        ToolCall("refund", {"order": 7}, "c4", result="refunded 7", failed=False),
    ]
    agents = ("triage", "triage", "triage", "billing")
    by_agent = [
        ToolCall(**{**call.as_dict(), "agent": agent})
        for call, agent in zip(calls, agents, strict=True)
    ]
    # the workflow keeps the results in the order the tools finished: Atlantis first
    finished = Gives(
        [calls[1], calls[0], *calls[2:]],
        "the last AgentOutput lists the run's calls in the order their tools finished, and "
        "names no agent after a handoff",
    )
    # pydantic dumps the record's ToolCallResults as the ToolSelections its field holds
    dumped = Gives(
        [ToolCall(call.name, call.args, call.id) for call in finished.calls],
        "the dump of the last AgentOutput keeps its calls but not their results",
    )
    events = [event.model_dump() for event in run.events]
    events_json = [event.model_dump(mode="json") for event in run.events]
    history = [message.model_dump() for message in run.history]
    as_json = [message.model_dump(mode="json") for message in run.history]
    told = ("agent", "failed")  # a tool message has no failure flag
    return Run(
        by_agent,
        {
            "stream events": (lambda: run.events, ()),
            "final result": (lambda: run.final, finished),
            "StopEvent": (lambda: run.events[-1], finished),
            "stream events + final result": (lambda: [*run.events, run.final], ()),
            "final result + stream events": (lambda: [run.final, *run.events], ()),
            "event dumps": (lambda: events, ()),
            "event dumps, mode=json": (lambda: events_json, ()),
            "events as JSON text": (lambda: json.dumps(events_json), ()),
            "final result dump": (lambda: run.final.model_dump(mode="json"), dumped),
            "memory messages": (lambda: run.history, told),
            "memory message dumps": (lambda: history, told),
            "memory message dumps, mode=json": (lambda: as_json, told),
            "memory as JSON text": (lambda: json.dumps(as_json), told),
        },
    )


# --- MCP --------------------------------------------------------------------------------------

MCP_LONE_RESULT = (
    "it is an MCP CallToolResult, which names neither its tool nor the id of the request it "
    "answers: pass the session's JSON-RPC messages (each tools/call request and the response "
    "of its id), as a transport logs them"
)


def mcp() -> Run:
    """A real mcp client, connected in memory to a server, calls search twice; the second
    raises ToolError, an isError result. The client logs the JSON-RPC messages."""
    from mcp_run import mcp_run

    run = mcp_run()
    data = {
        "message dumps": [message.model_dump() for message in run.messages],
        "message dumps, by_alias": [message.model_dump(by_alias=True) for message in run.messages],
        "message dumps, mode=json": [message.model_dump(mode="json") for message in run.messages],
    }
    lone = Raises(TypeError, MCP_LONE_RESULT, at="input[0]")
    calls = [
        ToolCall(
            "search", {"q": city}, call_id, result=[{"type": "text", "text": text}], failed=failed
        )
        for city, call_id, text, failed in (
            ("paris", "2", "sunny in paris", False),
            ("atlantis", "4", "Error executing tool search: no such city", True),
        )
    ]
    return Run(
        calls,
        {
            "JSON-RPC messages": (lambda: run.messages, ()),
            **{way: (lambda dumped=dumped: dumped, ()) for way, dumped in data.items()},
            "JSON text": (lambda: json.dumps(data["message dumps, mode=json"]), ()),
            "logged JSON lines": (lambda: [json.loads(line) for line in run.log], ()),
            "call_tool results": (lambda: run.results, lone),
            "call_tool result dumps": (
                lambda: [result.model_dump(by_alias=True) for result in run.results],
                lone,
            ),
        },
    )


# --- Claude Agent SDK -----------------------------------------------------------------------

CLAUDE_SESSION = {"session_id": "s-1", "parent_tool_use_id": None}


def _claude_assistant(block: dict[str, Any], message_id: str) -> dict[str, Any]:
    """An ``assistant`` line of ``claude -p --output-format stream-json``: the CLI writes one
    API message as one line a content block, all with the message's id."""
    message = {"id": message_id, "model": "claude", "role": "assistant", "content": [block]}
    return {"type": "assistant", "message": message, **CLAUDE_SESSION}


def claude_agent() -> Run:
    """The model checks two cities and asks a refund in one message; the second check
    fails and the permission check denies the refund; the ResultMessage ends the run.

    query() drives the claude CLI: the SDK has no offline run loop. What it yields is what
    its own parser makes of the CLI's stream-json lines, so the run is those lines."""
    from dataclasses import asdict

    from claude_agent_sdk._internal.message_parser import parse_message

    denied = "Claude requested permissions to use refund, but you haven't granted it yet."
    uses = [
        {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "paris"}},
        {"type": "tool_use", "id": "toolu_2", "name": "search", "input": {"q": "atlantis"}},
        {"type": "tool_use", "id": "toolu_3", "name": "refund", "input": {"order": 7}},
    ]
    answers = [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
        {
            "type": "tool_result",
            "tool_use_id": "toolu_2",
            "content": "no such city",
            "is_error": True,
        },
        {"type": "tool_result", "tool_use_id": "toolu_3", "content": denied, "is_error": True},
    ]
    denial = {"tool_name": "refund", "tool_use_id": "toolu_3", "tool_input": {"order": 7}}
    lines = [
        {"type": "system", "subtype": "init", "tools": ["search", "refund"], **CLAUDE_SESSION},
        # include_partial_messages: the API's stream events, then the whole blocks
        {
            "type": "stream_event",
            "uuid": "e1",
            "event": {"type": "message_start", "message": {"id": "msg_1", "content": []}},
            **CLAUDE_SESSION,
        },
        _claude_assistant({"type": "text", "text": "Let me check."}, "msg_1"),
        *(_claude_assistant(use, "msg_1") for use in uses),
        {"type": "user", "message": {"role": "user", "content": answers}, **CLAUDE_SESSION},
        _claude_assistant({"type": "text", "text": "Paris is sunny."}, "msg_2"),
        {
            "type": "result",
            "subtype": "success",
            "duration_ms": 900,
            "duration_api_ms": 700,
            "is_error": False,
            "num_turns": 2,
            "result": "Paris is sunny.",
            "permission_denials": [denial],
            **CLAUDE_SESSION,
        },
    ]
    messages = [parse_message(line) for line in lines]
    assert [type(message).__name__ for message in messages] == [
        "SystemMessage",
        "StreamEvent",
        *["AssistantMessage"] * 4,
        "UserMessage",
        "AssistantMessage",
        "ResultMessage",
    ]
    fields = [asdict(message) for message in messages]  # type: ignore[call-overload]
    calls = [
        ToolCall("search", {"q": "paris"}, "toolu_1", result="sunny", failed=False),
        ToolCall("search", {"q": "atlantis"}, "toolu_2", result="no such city", failed=True),
        ToolCall("refund", {"order": 7}, "toolu_3", result=denied, status="denied"),
    ]
    return Run(
        calls,
        {
            "messages": (lambda: messages, ()),
            "dataclasses.asdict": (lambda: fields, ()),
            "dataclasses.asdict as JSON text": (lambda: json.dumps(fields), ()),
            "CLI stream-json lines": (lambda: lines, ()),
            "CLI stream-json lines as JSON text": (lambda: json.dumps(lines), ()),
        },
    )


# --- Google ADK ----------------------------------------------------------------------------

# The run of tests/adk_run.py: triage looks order 7 up and hands over to billing, whose refund
# fails (an ``error`` key); each call by the agent whose event asks it.
ADK_RUN = [
    ToolCall(
        "lookup_order",
        {"order": 7},
        result={"order": 7, "state": "delivered"},
        failed=False,
        agent="triage",
    ),
    ToolCall(
        "transfer_to_agent",
        {"agent_name": "billing"},
        result={"result": None},
        failed=False,
        agent="triage",
    ),
    ToolCall(
        "refund",
        {"order": 7},
        result={"error": "the refund window of order 7 is closed"},
        failed=True,
        agent="billing",
    ),
]


def _adk_ids(events: list[dict[str, Any]]) -> list[ToolCall]:
    """ADK_RUN with the ids ADK gave the calls of ``events`` (dumps, by alias), each asked
    in a whole event (a streamed piece is ``partial``)."""
    ids = [
        part["functionCall"]["id"]
        for event in events
        if not event.get("partial")
        for part in (event.get("content") or {}).get("parts") or []
        if part.get("functionCall")
    ]
    assert len(ids) == len(ADK_RUN)
    return [
        ToolCall(**{**call.as_dict(), "id": id_}) for call, id_ in zip(ADK_RUN, ids, strict=True)
    ]


def adk() -> Run:
    """ADK's Runner streams the run (SSE): run_async yields each model answer's partial
    piece and then the whole event; the session keeps the whole events."""
    from adk_run import streamed

    yielded, session = streamed()
    events = list(session.events)
    plain = [event.model_dump() for event in events]
    by_alias = [event.model_dump(mode="json", by_alias=True) for event in events]
    assert any(event.partial for event in yielded)  # the stream's pieces are there
    return Run(
        _adk_ids(by_alias),
        {
            "events": (lambda: events, ()),
            "Session": (lambda: session, ()),
            "model_dump()": (lambda: plain, ()),
            "model_dump(mode=json, by_alias=True)": (lambda: by_alias, ()),
            "model_dump(mode=json)": (
                lambda: [event.model_dump(mode="json") for event in events],
                (),
            ),
            "model_dump(by_alias=True)": (
                lambda: [event.model_dump(by_alias=True) for event in events],
                (),
            ),
            "model_dump(exclude_none=True)": (
                lambda: [event.model_dump(exclude_none=True) for event in events],
                (),
            ),
            "events + their dumps": (lambda: [*events, *by_alias], ()),
            "JSON text": (lambda: json.dumps(by_alias), ()),
            "model_dump_json() texts as a JSON array": (
                lambda: "[" + ",".join(event.model_dump_json() for event in events) + "]",
                (),
            ),
            "Session model_dump()": (session.model_dump, ()),
            "Session model_dump(mode=json, by_alias=True)": (
                lambda: session.model_dump(mode="json", by_alias=True),
                (),
            ),
            "Session model_dump(mode=json)": (lambda: session.model_dump(mode="json"), ()),
            "Session model_dump_json()": (session.model_dump_json, ()),
            "Session model_dump() + events": (lambda: [session.model_dump(), *events], ()),
            "run_async events": (lambda: yielded, ()),
            "run_async event dumps": (
                lambda: [event.model_dump(mode="json", by_alias=True) for event in yielded],
                (),
            ),
            "run_async events + Session": (lambda: [*yielded, session], ()),
            "Session + run_async events": (lambda: [session, *yielded], ()),
            "events + Session": (lambda: [*events, session], ()),
        },
    )


def adk_runner() -> Run:
    """The run's generators, handed over themselves: each way runs a new Runner (ADK gives
    each run's calls new ids, ``adk-`` and a uuid, so any id is the run's)."""
    from adk_run import new_runner

    def sync(read: int | None) -> object:
        runner, options = new_runner()
        events = runner.run(**options)
        if read is None:
            list(events)
        for _ in range(read or 0):
            next(events)
        return events

    def not_awaited() -> object:
        runner, options = new_runner()
        return runner.run_async(**options)

    def awaited() -> object:
        events = not_awaited()

        async def consume() -> None:
            async for _ in events:  # type: ignore[attr-defined]
                pass

        asyncio.run(consume())
        return events

    read_in_part = (
        "it was read in part before: the items read are no longer in it; keep them all in a "
        "list (items = list(stream)) and pass that"
    )
    return Run(
        [ToolCall(**{**call.as_dict(), "id": ANY}) for call in ADK_RUN],
        {
            "runner.run(), not read": (lambda: sync(0), ()),
            "runner.run(), consumed": (lambda: sync(None), CONSUMED),
            "runner.run(), read in part": (lambda: sync(2), Raises(TypeError, read_in_part)),
            "run_async(), not awaited": (
                not_awaited,
                Raises(TypeError, "collect an async stream first: [e async for e in stream]"),
            ),
            "run_async(), consumed": (awaited, CONSUMED),
        },
    )


def adk_dumps() -> Run:
    """The stored dumps of the run (tests/data/adk), read without google-adk."""
    from adk_run import DATA

    def stored(name: str) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = json.loads((DATA / name).read_text(encoding="utf-8"))
        return events

    by_alias, snake = stored("events.json"), stored("events_snake.json")
    # a streamed piece of billing's call to refund, as run_async yields it before the event
    piece = {**by_alias[5], "id": "a-streamed-piece", "partial": True}
    # the session of these events as Session.model_dump(...) writes it
    session = {"id": "s1", "appName": "shop", "userId": "u1", "state": {}, "events": by_alias}
    snake_session = {"id": "s1", "app_name": "shop", "user_id": "u1", "state": {}, "events": snake}
    return Run(
        _adk_ids(by_alias),
        {
            "dumps, by alias": (lambda: by_alias, ()),
            "dumps": (lambda: snake, ()),
            "dumps as JSON text": (lambda: json.dumps(by_alias), ()),
            "dumps twice": (lambda: by_alias + by_alias, ()),
            "dumps, by alias + dumps": (lambda: by_alias + snake, ()),
            "dumps with a streamed piece": (
                lambda: [*by_alias[:5], piece, *by_alias[5:]],
                (),
            ),
            "Session dump, by alias": (lambda: {**session, "lastUpdateTime": 0.0}, ()),
            "Session dump": (lambda: {**snake_session, "last_update_time": 0.0}, ()),
            "Session dump + dumps": (lambda: [session, *by_alias], ()),
        },
    )


# --- trace stores: OpenTelemetry GenAI, OpenInference, MLflow, Langfuse ----------------------


def _span_ways(spans: list[Any]) -> dict[str, Way]:
    """The ways of handing over an OpenTelemetry SDK's spans: the objects, their JSON
    (``to_json()``), and OTLP JSON as the OTLP exporter's encoder writes it, whole, as text,
    one export a span (as a file exporter's lines), and by protobuf's field names. Each
    records every field; ``to_json()`` texts in a list are not parsed: an error."""
    from trace_store_runs import otlp_json

    dumps = [json.loads(span.to_json()) for span in spans]
    texts = Raises(TypeError, INNER_JSON_TEXT, at="input[0]")
    return {
        "span objects": (lambda: spans, ()),
        "to_json() dumps": (lambda: dumps, ()),
        "to_json() dumps as JSON text": (lambda: json.dumps(dumps), ()),
        "to_json() texts": (lambda: [span.to_json() for span in spans], texts),
        "OTLP JSON": (lambda: otlp_json(spans), ()),
        "OTLP JSON text": (lambda: json.dumps(otlp_json(spans)), ()),
        "OTLP JSON lines": (lambda: [otlp_json([span]) for span in spans], ()),
        "OTLP JSON, proto field names": (
            lambda: otlp_json(spans, preserving_proto_field_name=True),
            (),
        ),
    }


INNER_JSON_TEXT = (
    "JSON text is parsed only when it is the whole input: parse each text first "
    "([json.loads(text) for text in texts])"
)


SPAN_WAYS = (
    "span objects",
    "to_json() dumps",
    "to_json() dumps as JSON text",
    "to_json() texts",
    "OTLP JSON",
    "OTLP JSON text",
    "OTLP JSON lines",
    "OTLP JSON, proto field names",
)


def otel_genai() -> Run:
    """triage's model asks for get_weather (structured arguments, a list in them), its tool
    answers; billing's model asks for a refund, its tool fails: spans the OpenTelemetry SDK
    made as the GenAI conventions say."""
    from trace_store_runs import GENAI_CALLS, genai_spans

    spans = genai_spans()
    tools = [span for span in spans if span.name.startswith("execute_tool")]
    ways = _span_ways(spans)
    ways["execute_tool spans alone"] = (lambda: tools, ())
    return Run(GENAI_CALLS, ways)


def openinference() -> Run:
    """OpenInference's OpenAI instrumentation traces the model asking for two calls, its
    tool decorator the tools that ran them (one raises), in an AGENT span; and the same
    run as Phoenix keeps it, written by Phoenix's own code (tests/phoenix_run.py)."""
    import pandas

    from phoenix_run import DATA
    from trace_store_runs import STORE_CALLS, openinference_spans

    spans = openinference_spans()
    tools = [span for span in spans if span.attributes["openinference.span.kind"] == "TOOL"]
    ways = _span_ways(spans)
    # a TOOL span records no call id, and alone, not the agent it ran in
    ways["TOOL spans alone"] = (lambda: tools, ("id", "agent"))
    lines = (DATA / "spans.jsonl").read_text(encoding="utf-8").splitlines()
    records = json.loads((DATA / "spans_dataframe.json").read_text(encoding="utf-8"))
    ways["Phoenix span JSON"] = (lambda: [json.loads(line) for line in lines], ())
    ways["Phoenix spans dataframe"] = (lambda: pandas.DataFrame(records), ())
    ways["Phoenix spans dataframe records"] = (lambda: records, ())
    served = json.loads((DATA / "served_spans_dataframe.json").read_text(encoding="utf-8"))
    # Phoenix's client lists spans newest first: the calls come in their spans' start order
    ways["Phoenix client's spans dataframe, by start time"] = (
        lambda: pandas.DataFrame(served).sort_values("start_time"),
        (),
    )
    ways["Phoenix client's spans dataframe"] = (lambda: pandas.DataFrame(served), ())
    ways["Phoenix client's spans dataframe records"] = (lambda: served, ())
    return Run(STORE_CALLS, ways)


def mlflow() -> Run:
    """MLflow traces the model asking for two calls (OpenAI autolog), the tools that ran
    them (one raises), in an AGENT span, into a local sqlite store."""
    from trace_store_runs import STORE_CALLS, mlflow_run

    trace, found, listed, store = mlflow_run()
    exported = store / "trace.json"
    exported.write_text(trace.to_json())
    spans = trace.data.spans
    return Run(
        STORE_CALLS,
        {
            "Trace": (lambda: trace, ()),
            "to_dict()": (trace.to_dict, ()),
            "to_json()": (trace.to_json, ()),
            "spans": (lambda: spans, ()),
            "span dicts": (lambda: [span.to_dict() for span in spans], ()),
            "search_traces()": (lambda: found, ()),
            "search_traces() rows": (lambda: found.to_dict(orient="records"), ()),
            "search_traces() row": (lambda: found.iloc[0], ()),
            "search_traces() row's trace": (lambda: found.iloc[0]["trace"], ()),
            "search_traces(return_type=list)": (lambda: listed, ()),
            "exported JSON file": (exported.read_text, ()),
        },
    )


def langfuse() -> Run:
    """A run as Langfuse's API returns its observations: the agent, the generation that
    asked for two calls, the tools that ran them (one at level ERROR); and the same run as
    the Langfuse SDK records it, its spans."""
    from langfuse.api import ObservationsV2Response

    from trace_store_runs import LANGFUSE_CALLS, langfuse_observations, langfuse_sdk_spans

    observations = langfuse_observations()
    spans = langfuse_sdk_spans()
    page = ObservationsV2Response(data=observations, meta={"cursor": None})
    as_json = [observation.model_dump(mode="json", by_alias=True) for observation in observations]
    return Run(
        LANGFUSE_CALLS,
        {
            "objects": (lambda: observations, ()),
            "dict()": (lambda: [observation.dict() for observation in observations], ()),
            "model_dump": (lambda: [o.model_dump() for o in observations], ()),
            "model_dump(by_alias=True)": (
                lambda: [o.model_dump(by_alias=True) for o in observations],
                (),
            ),
            "model_dump(mode=json)": (
                lambda: [o.model_dump(mode="json") for o in observations],
                (),
            ),
            "JSON text": (lambda: json.dumps(as_json), ()),
            "page": (lambda: page, ()),
            "page dict()": (page.dict, ()),
            "page JSON text": (page.json, ()),
            **{f"SDK's {way}": read for way, read in _span_ways(spans).items()},
        },
    )


# --- the matrix ---------------------------------------------------------------------------

# family: (the module its SDK brings, its run, its ways)
# (``None``: the family's ways need no SDK)
FAMILIES: dict[str, tuple[str | None, Callable[[], Run], tuple[str, ...]]] = {}


def family(module: str | None, *ways: str) -> Callable[[Callable[[], Run]], Callable[[], Run]]:
    def register(build: Callable[[], Run]) -> Callable[[], Run]:
        FAMILIES[build.__name__.replace("_", " ")] = (module, functools.cache(build), ways)
        return build

    return register


DUMP_WAYS = ("model_dump", "model_dump(by_alias=True)", "model_dump(mode=json)", "JSON text")
family(
    "openai",
    "final object",
    "message",
    *DUMP_WAYS,
    "chunks",
    "chunk dumps",
    "stream, not read",
    "stream helper events",
    "chunks + final",
    "final + chunks",
    "helper events + final",
    "consumed stream",
    "history",
    "history as JSON text",
    "final + its answer",
    "chunks + history",
    "final + history",
    "history + final",
)(openai_chat)
family(
    "openai",
    "final object",
    "output items",
    *DUMP_WAYS,
    "events",
    "event dumps",
    "stream, not read",
    "stream helper events",
    "events + final",
    "final + events",
    "consumed stream",
    "next input",
    "next input as JSON text",
    "final + its answer",
    "final + next input without item ids",
)(responses)
family(
    "google.genai",
    "chunks",
    "chunk dumps",
    "chunk dumps, JSON by alias",
    "last chunk",
    "history",
    "history dumps",
    "history as JSON text",
    "chunks + history",
)(gemini)
family(
    "anthropic",
    "final object",
    *DUMP_WAYS,
    "raw events",
    "stream, not read",
    "stream helper events",
    "helper events + final",
    "final + raw events",
    "consumed stream",
    "history",
    "history as JSON text",
    "final + its answer",
    "final + history",
    "raw events + history",
)(anthropic)

family(
    "boto3",
    "response",
    "output message",
    "message content",
    "history",
    "history as JSON text",
    "response + its answer",
)(bedrock)
family(
    "langchain_core",
    "final object",
    *DUMP_WAYS,
    "dumpd",
    "chunks",
    "merged chunk",
    "chunks + merged",
    "merged + chunks",
    "history",
    "history, messages_to_dict",
    "history, dumpd",
    "history as JSON text",
)(langchain)
LANGGRAPH_STREAMED = ("messages, streamed chunks", "[messages, updates], streamed chunks")
family("langgraph", *LANGGRAPH_WAYS, *LANGGRAPH_STREAMED)(langgraph)
family("langgraph", *LANGGRAPH_WAYS)(langgraph_edit)
family("langgraph", *LANGGRAPH_WAYS)(langgraph_interrupt)

family(
    "agents",
    "run result",
    "new_items",
    "to_input_list()",
    "to_input_list() as JSON text",
    "streamed result",
    "stream events",
    "raw stream events",
    "stream events + streamed result",
    "streamed result + stream events",
    "run result + to_input_list()",
)(openai_agents)
family(
    "smolagents",
    "memory",
    "memory steps",
    "run result",
    "write_memory_to_messages()",
    "write_memory_to_messages(), message.dict()",
    "write_memory_to_messages() as JSON text",
    "run(stream=True) items",
    "run(stream=True) items, cut short",
)(smolagents)


def openai_agents_chat_model() -> Run:
    """The same run by a Chat Completions model: its items' ids are a placeholder, so
    nothing tells its stream events and its result apart as one run: an error."""
    run = openai_agents(fake_ids=True)

    def both(events: str, result: str) -> Raises:
        return Raises(
            ValueError,
            f"{events}: the call call_t of these stream events is also in the run result at "
            f"{result}, and its items have no id (openai-agents gives a Chat Completions or "
            "LiteLLM model's items '__fake_id__'): to_calls cannot tell one call seen twice "
            "from two calls; pass the stream events or the run result, not both",
            whole=True,
        )

    first, last = "stream events + streamed result", "streamed result + stream events"
    run.ways[first] = (
        run.ways[first][0],
        both("input[6].data.item", "input[35].new_items[0].raw_item"),
    )
    run.ways[last] = (
        run.ways[last][0],
        both("input[7].data.item", "input[0].new_items[0].raw_item"),
    )
    return run


family("agents", *FAMILIES["openai agents"][2])(openai_agents_chat_model)

family(
    "pydantic_ai",
    "run result",
    "all_messages()",
    "new_messages()",
    "all_messages_json()",
    "messages, JSON dumps",
    "streamed run result",
    "AgentRun of iter()",
    "run result + all_messages()",
    "run result + [all_messages()]",
    "all_messages() + run result",
    "run_stream_events()",
    "run_stream_events(), cut short",
    "run result twice",
    "run_stream_events() + its result",
)(pydantic_ai)

family(
    "llama_index.core",
    "stream events",
    "final result",
    "StopEvent",
    "stream events + final result",
    "final result + stream events",
    "event dumps",
    "event dumps, mode=json",
    "events as JSON text",
    "final result dump",
    "memory messages",
    "memory message dumps",
    "memory message dumps, mode=json",
    "memory as JSON text",
)(llama_index)
family(
    "mcp.server.mcpserver",  # mcp 2's in-memory Client and MCPServer
    "JSON-RPC messages",
    "message dumps",
    "message dumps, by_alias",
    "message dumps, mode=json",
    "JSON text",
    "logged JSON lines",
    "call_tool results",
    "call_tool result dumps",
)(mcp)
family(
    "claude_agent_sdk",
    "messages",
    "dataclasses.asdict",
    "dataclasses.asdict as JSON text",
    "CLI stream-json lines",
    "CLI stream-json lines as JSON text",
)(claude_agent)
family(
    "google.adk",
    "events",
    "Session",
    "model_dump()",
    "model_dump(mode=json, by_alias=True)",
    "model_dump(mode=json)",
    "model_dump(by_alias=True)",
    "model_dump(exclude_none=True)",
    "events + their dumps",
    "JSON text",
    "model_dump_json() texts as a JSON array",
    "Session model_dump()",
    "Session model_dump(mode=json, by_alias=True)",
    "Session model_dump(mode=json)",
    "Session model_dump_json()",
    "Session model_dump() + events",
    "run_async events",
    "run_async event dumps",
    "run_async events + Session",
    "Session + run_async events",
    "events + Session",
)(adk)
family(
    "google.adk",
    "runner.run(), not read",
    "runner.run(), consumed",
    "runner.run(), read in part",
    "run_async(), not awaited",
    "run_async(), consumed",
)(adk_runner)
# the stored dumps need no google-adk: the dev environment reads them
family(
    None,
    "dumps, by alias",
    "dumps",
    "dumps as JSON text",
    "dumps twice",
    "dumps, by alias + dumps",
    "dumps with a streamed piece",
    "Session dump, by alias",
    "Session dump",
    "Session dump + dumps",
)(adk_dumps)


family("opentelemetry.exporter.otlp.proto.common", *SPAN_WAYS, "execute_tool spans alone")(
    otel_genai
)
family(
    "openinference.instrumentation.openai",
    *SPAN_WAYS,
    "TOOL spans alone",
    "Phoenix span JSON",
    "Phoenix spans dataframe",
    "Phoenix spans dataframe records",
    "Phoenix client's spans dataframe, by start time",
    "Phoenix client's spans dataframe",
    "Phoenix client's spans dataframe records",
)(openinference)
family(
    "mlflow",
    "Trace",
    "to_dict()",
    "to_json()",
    "spans",
    "span dicts",
    "search_traces()",
    "search_traces() rows",
    "search_traces() row",
    "search_traces() row's trace",
    "search_traces(return_type=list)",
    "exported JSON file",
)(mlflow)
family(
    "langfuse.api",
    "objects",
    "dict()",
    "model_dump",
    "model_dump(by_alias=True)",
    "model_dump(mode=json)",
    "JSON text",
    "page",
    "page dict()",
    "page JSON text",
    *(f"SDK's {way}" for way in SPAN_WAYS),
)(langfuse)

CASES = [
    pytest.param(name, way, id=f"{name}: {way}")
    for name, (_, _, ways) in FAMILIES.items()
    for way in ways
]


# the OpenAI SDK's ParsedResponse warns when dumped, as its own helper makes it
@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
# llama-index's workflow inspects its agents with inspect.getmembers, which reads pydantic's
# deprecated attributes: the SDK's warnings, not toolmatch's
@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")
@pytest.mark.parametrize(("name", "way"), CASES)
def test_one_run_read_every_way_reads_the_same(name: str, way: str) -> None:
    module, build, ways = FAMILIES[name]
    if module is not None:
        pytest.importorskip(module, reason=f"{name}: {module} is not installed")
    run = build()
    assert tuple(run.ways) == ways  # the table of ways is the run's
    handed, expected = run.ways[way]
    if isinstance(expected, Raises):
        with pytest.raises(expected.error) as error:
            to_calls(handed())
        message = str(error.value)
        if expected.whole:
            assert message == expected.reason
            return
        assert message.startswith(f"to_calls cannot read tool calls from {expected.at}: ")
        assert message.endswith(f"; accepted shapes: {FORMATS_DOC}")
        assert message.split("; ", 1)[1] == f"{expected.reason}; accepted shapes: {FORMATS_DOC}"
        assert ExpectedTool.never(run.calls[0].name) != handed()  # never a silent pass
        return
    if isinstance(expected, Gives):
        assert to_calls(handed()) == expected.calls
        return
    assert to_calls(handed()) == without(run.calls, expected)


# --- the trace stores' runs through `toolmatch check` ------------------------------------

TRACE_STORES = ("otel genai", "openinference", "mlflow", "langfuse")


def _as_json_data(value: object) -> object:
    """A way's input as a line of a traces file holds it (JSON text parsed), or ``None``
    for an input that is no JSON data (SDK objects)."""
    if isinstance(value, str):
        return json.loads(value)
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return None
    return value


def _expectation(call: ToolCall) -> dict[str, object]:
    """A spec's expected tool asserting every field ``call`` records, its arguments exact."""
    fields = {"id": call.id, "result": call.result, "failed": call.failed, "agent": call.agent}
    recorded = {key: value for key, value in fields.items() if value is not None}
    return {"name": call.name, "args": call.args, "exact": True, **recorded}


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
@pytest.mark.parametrize("name", TRACE_STORES)
def test_a_trace_stores_run_written_to_a_traces_file_checks_the_same(
    name: str, tmp_path: Any
) -> None:
    """Each way of the run that is JSON data, a line of a traces file checked by the
    command: the calls in order, none more, each field the way records; and a ``never`` on
    the first call fails on every line."""
    from commands import jsonl, toolmatch

    module, build, _ = FAMILIES[name]
    pytest.importorskip(module, reason=f"{name}: {module} is not installed")
    run = build()
    lines, cases = [], []
    first = run.calls[0]
    for way, (handed, expected) in run.ways.items():
        if isinstance(expected, (Raises, Gives)):
            continue
        data = _as_json_data(handed())
        if data is None:
            continue
        tools = [_expectation(call) for call in without(run.calls, expected)]
        cases.append({"name": way, "expected_tools": tools, "ordered": True, "exhaustive": True})
        never = {"name": first.name, "never": True, "agent": first.agent}
        cases.append({"name": f"{way}, never", "expected_tools": [never]})
        lines += [{"case": way, "turns": [data]}, {"case": f"{way}, never", "turns": [data]}]
    assert len(cases) >= 6  # each family hands over three ways or more as JSON data
    spec, traces = tmp_path / "spec.yaml", tmp_path / "traces.jsonl"
    spec.write_text(json.dumps({"test_cases": cases}))
    traces.write_text(jsonl(*lines))
    done = toolmatch("check", spec, traces, "--format", "json")
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert "error" not in {row["type"] for row in rows}, rows
    assert {row["case"]: row["passed"] for row in rows if row["type"] == "case"} == {
        case["name"]: not case["name"].endswith(", never") for case in cases
    }


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
def test_an_exported_mlflow_trace_is_a_traces_file_by_its_own_keys(tmp_path: Any) -> None:
    """The JSON file of ``trace.to_json()``, checked as it is: its trace id the case, its
    spans the one turn."""
    from commands import toolmatch

    pytest.importorskip("mlflow", reason="mlflow: mlflow is not installed")
    run = FAMILIES["mlflow"][1]()
    exported = run.ways["exported JSON file"][0]()
    assert isinstance(exported, str)
    case = json.loads(exported)["info"]["trace_id"]
    tools = [_expectation(call) for call in run.calls]
    spec, traces = tmp_path / "spec.yaml", tmp_path / "trace.json"
    spec.write_text(json.dumps({"test_cases": [{"name": case, "expected_tools": tools,
                                                "ordered": True, "exhaustive": True}]}))  # fmt: skip
    traces.write_text(exported)
    keys = ("--case-key", "info.trace_id", "--turns-key", "data.spans", "--one-turn")
    done = toolmatch("check", spec, traces, *keys)
    assert done.stdout.splitlines()[0] == f"PASS {case}", done.stdout + done.stderr
    assert done.returncode == 0


# --- optional SDKs stay optional (deliverable 6) --------------------------------------------

# Every SDK a reader reads objects of (the matrix's and the other readers'), by the top
# module its objects' classes live in.
SDK_MODULES = sorted(
    {module.partition(".")[0] for module, _, _ in FAMILIES.values() if module is not None}
    | {
        "google",  # google-genai, google-adk
        "boto3",
        "botocore",
        "mcp",
        "claude_agent_sdk",
        "opentelemetry",
        "openinference",
        "mlflow",
        "langfuse",
        "pydantic_ai",
        "llama_index",
        "smolagents",
        "inspect_ai",
        "deepeval",
        "agentdojo",
        "litellm",
        "pydantic",
        "httpx",
    }
)


def test_import_toolmatch_and_every_reader_loads_no_sdk() -> None:
    import subprocess
    import sys

    code = (
        "import sys, toolmatch\n"
        "import toolmatch._readers.dispatch\n"  # every reader module
        "toolmatch.to_calls([{'name': 'search', 'arguments': '{}'}])\n"
        f"print(*sorted({{name.partition('.')[0] for name in sys.modules}} & {set(SDK_MODULES)!r}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == []
