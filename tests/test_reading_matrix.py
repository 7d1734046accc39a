"""The reading-equivalence matrix (issue 34, deliverable 5): for each family, one real run
built offline with the SDK's own classes and run loop, read every way a user could hand it
over, gives the same calls with the same fields where that way records them, or the
documented error. Each (family, way) is its own test; a family whose SDK is not installed
skips, naming it."""

from __future__ import annotations

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
from toolmatch import ExpectedTool, ToolCall, to_calls
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


# --- the matrix ---------------------------------------------------------------------------

# family: (the module its SDK brings, its run, its ways)
FAMILIES: dict[str, tuple[str, Callable[[], Run], tuple[str, ...]]] = {}


def family(module: str, *ways: str) -> Callable[[Callable[[], Run]], Callable[[], Run]]:
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
)(pydantic_ai)

CASES = [
    pytest.param(name, way, id=f"{name}: {way}")
    for name, (_, _, ways) in FAMILIES.items()
    for way in ways
]


# the OpenAI SDK's ParsedResponse warns when dumped, as its own helper makes it
@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")
@pytest.mark.parametrize(("name", "way"), CASES)
def test_one_run_read_every_way_reads_the_same(name: str, way: str) -> None:
    module, build, ways = FAMILIES[name]
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


# --- optional SDKs stay optional (deliverable 6) --------------------------------------------

# Every SDK a reader reads objects of (the matrix's and the other readers'), by the top
# module its objects' classes live in.
SDK_MODULES = sorted(
    {module.partition(".")[0] for module, _, _ in FAMILIES.values()}
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
