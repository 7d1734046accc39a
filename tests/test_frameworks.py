"""to_calls on the objects agent frameworks hand back, made by the frameworks' own run loops
driven offline by fake models: openai-agents, LangGraph, pydantic-ai, llama-index,
smolagents."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from toolmatch import ANY, ExpectedTool, ToolCall, assert_called, explain, final_answer, to_calls
from toolmatch._readers.reading import FORMATS_DOC

pytest.importorskip("agents")
pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")
pytest.importorskip("llama_index.core")
pytest.importorskip("openai")
pytest.importorskip("pydantic_ai")
pytest.importorskip("smolagents")
from agents import (
    Agent,
    RunConfig,
    Runner,
    function_tool,
)
from agents.items import ToolCallItem, ToolCallOutputItem
from agents.stream_events import (
    AgentUpdatedStreamEvent,
    RawResponsesStreamEvent,
    RunItemStreamEvent,
)
from langchain_core.language_models.fake_chat_models import (
    FakeMessagesListChatModel,
)
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    ToolMessage,
)
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.types import Command, interrupt
from llama_index.core.agent.workflow import AgentWorkflow, FunctionAgent
from llama_index.core.base.llms.types import (
    ChatMessage,
    ChatResponse,
    TextBlock,
    ToolCallBlock,
)
from llama_index.core.llms.llm import ToolSelection
from llama_index.core.llms.mock import MockFunctionCallingLLM
from llama_index.core.tools import FunctionTool
from openai.types.chat import ChatCompletionMessageFunctionToolCall
from pydantic_ai import Agent as PydanticAgent
from pydantic_ai import DeferredToolRequests, DeferredToolResults
from pydantic_ai.messages import ModelMessage, ModelMessagesTypeAdapter, TextPart, ToolCallPart
from pydantic_ai.messages import ModelResponse as PaiResponse
from pydantic_ai.models.function import (
    AgentInfo,
    FunctionModel,
)
from smolagents import CodeAgent, ToolCallingAgent
from smolagents.models import ChatMessage as SmolMessage
from smolagents.models import (
    MessageRole,
)
from smolagents.models import Model as SmolModel

from agents_run import (
    NO_TRACING,
    TOOL_ERROR,
    WEATHER_TURNS,
    FakeModel,
    delete_file,
    get_weather,
    handoff_agents,
)
from langgraph_run import BY_NODE, LANGGRAPH_CALLS, QUESTION, STATE_MODES, weather_graph
from pydantic_ai_run import pai_calls, pydantic_agent
from smolagents_run import SMOL_CALLS, WEATHER_SCRIPT, ScriptedSmolModel, smol_agent, smol_weather

# --- openai-agents ------------------------------------------------------------------------


def weather_agent() -> Agent[Any]:
    return Agent(name="weather", model=FakeModel(*WEATHER_TURNS), tools=[get_weather])


# The run's items name the agent that made each call; its replay list (plain Responses
# items) and the raw stream events alone do not.
AGENTS_REPLAYED = [
    ToolCall("get_weather", {"city": "Paris"}, id="call_1", result="Sunny in Paris"),
    ToolCall("get_weather", {"city": "Atlantis"}, id="call_2", result=TOOL_ERROR),
]
AGENTS_CALLS = [
    ToolCall(call.name, call.args, call.id, result=call.result, agent="weather")
    for call in AGENTS_REPLAYED
]
AGENTS_CALLS_WITHOUT_RESULTS = [
    ToolCall("get_weather", {"city": "Paris"}, id="call_1"),
    ToolCall("get_weather", {"city": "Atlantis"}, id="call_2"),
]


def run_agent(agent: Agent[Any], question: str, run_config: RunConfig) -> Any:
    return asyncio.run(Runner.run(agent, question, run_config=run_config))


def run_streamed(agent: Agent[Any]) -> tuple[Any, list[Any]]:
    async def run() -> tuple[Any, list[Any]]:
        result = Runner.run_streamed(agent, "Weather in Paris and Atlantis?", run_config=NO_TRACING)
        events = [event async for event in result.stream_events()]
        return result, events

    return asyncio.run(run())


def test_agents_run_result_gives_the_calls_with_their_outputs() -> None:
    result = run_agent(weather_agent(), "Weather in Paris and Atlantis?", run_config=NO_TRACING)
    assert type(result).__name__ == "RunResult"
    assert to_calls(result) == AGENTS_CALLS
    assert to_calls(result.new_items) == AGENTS_CALLS
    # the SDK's own replay list holds the same Responses items (with the outputs as text,
    # which for these string-returning tools is the same)
    assert to_calls(result.to_input_list()) == AGENTS_REPLAYED
    assert_called(result, "get_weather", {"city": "Paris"})
    assert ExpectedTool.never("delete_file") == result


@function_tool
def forecast(city: str) -> dict[str, str]:
    """The forecast for a city."""
    return {"city": city, "sky": "sunny"}


def test_agents_result_is_what_the_tool_returned() -> None:
    agent = Agent(
        name="forecast",
        model=FakeModel((("call_f", "forecast", '{"city": "Paris"}'),), "Sunny."),
        tools=[forecast],
    )
    result = run_agent(agent, "Forecast for Paris?", run_config=NO_TRACING)
    returned = {"city": "Paris", "sky": "sunny"}
    assert to_calls(result) == [
        ToolCall("forecast", {"city": "Paris"}, id="call_f", result=returned, agent="forecast")
    ]
    # the model was sent its text, which is what the replay list keeps
    (call,) = to_calls(result.to_input_list())
    assert call.result == str(returned)


def test_agents_items_by_themselves() -> None:
    result = run_agent(weather_agent(), "Weather?", run_config=NO_TRACING)
    call_item, _, output_item, _, message_item = result.new_items
    assert isinstance(call_item, ToolCallItem)
    assert isinstance(output_item, ToolCallOutputItem)
    assert to_calls(call_item) == [
        ToolCall("get_weather", {"city": "Paris"}, "call_1", agent="weather")
    ]
    assert to_calls(output_item) == []  # a tool's output alone holds no call
    assert to_calls(message_item) == []


def test_agents_streamed_run_result_once_complete() -> None:
    result, _ = run_streamed(weather_agent())
    assert type(result).__name__ == "RunResultStreaming"
    assert to_calls(result) == AGENTS_CALLS


def test_agents_streamed_run_result_not_yet_consumed_is_an_error() -> None:
    async def run() -> None:
        result = Runner.run_streamed(weather_agent(), "Weather?", run_config=NO_TRACING)
        with pytest.raises(ValueError, match=r"^input: the streamed run") as error:
            to_calls(result)
        assert str(error.value) == (
            "input: the streamed run is not complete, so its new_items are not all there; "
            "consume result.stream_events() first"
        )
        assert ExpectedTool.never("get_weather") != result  # never a silent pass
        result.cancel()
        async for _ in result.stream_events():
            pass

    asyncio.run(run())


def test_agents_stream_events_count_each_call_once() -> None:
    _, events = run_streamed(weather_agent())
    kinds = {type(event) for event in events}
    assert kinds == {AgentUpdatedStreamEvent, RawResponsesStreamEvent, RunItemStreamEvent}
    # the raw events give the calls, the run items repeat them and add the outputs
    assert to_calls(events) == AGENTS_CALLS
    assert to_calls(iter(events)) == AGENTS_CALLS
    run_items = [event for event in events if isinstance(event, RunItemStreamEvent)]
    assert {event.name for event in run_items} == {
        "tool_called",
        "tool_output",
        "message_output_created",
    }
    assert to_calls(run_items) == AGENTS_CALLS
    raw = [event for event in events if isinstance(event, RawResponsesStreamEvent)]
    assert to_calls(raw) == AGENTS_CALLS_WITHOUT_RESULTS
    assert to_calls([event.data for event in raw]) == AGENTS_CALLS_WITHOUT_RESULTS
    updated = [event for event in events if isinstance(event, AgentUpdatedStreamEvent)]
    assert to_calls(updated) == []


def test_agents_handoff_is_a_call_answered_by_the_handoff() -> None:
    billing = Agent(name="billing", model=FakeModel("Billing here."))
    triage = Agent(
        name="triage",
        model=FakeModel((("call_h", "transfer_to_billing", "{}"),)),
        handoffs=[billing],
    )
    result = run_agent(triage, "My invoice?", run_config=NO_TRACING)
    assert [type(item).__name__ for item in result.new_items] == [
        "HandoffCallItem",
        "HandoffOutputItem",
        "MessageOutputItem",
    ]
    # the handoff is the call of the agent that hands off
    assert to_calls(result) == [
        ToolCall(
            "transfer_to_billing",
            {},
            id="call_h",
            result='{"assistant": "billing"}',
            agent="triage",
        )
    ]


def test_agents_each_call_names_its_agent_across_a_handoff() -> None:
    result = run_agent(handoff_agents(), "Weather, then my invoice", run_config=NO_TRACING)
    assert [(call.name, call.agent) for call in to_calls(result)] == [
        ("get_weather", "triage"),
        ("transfer_to_billing", "triage"),  # the handoff is the call of the agent handing off
        ("get_weather", "billing"),
    ]
    assert to_calls(result)[2] == ToolCall(
        "get_weather", {"city": "Rome"}, id="call_b", result="Sunny in Rome", agent="billing"
    )

    # streamed: the raw events are made by the agent the last AgentUpdatedStreamEvent named
    async def run() -> list[Any]:
        streamed = Runner.run_streamed(handoff_agents(), "Weather?", run_config=NO_TRACING)
        return [event async for event in streamed.stream_events()]

    events = asyncio.run(run())
    assert [call.agent for call in to_calls(events)] == ["triage", "triage", "billing"]
    raw = [event for event in events if isinstance(event, RawResponsesStreamEvent)]
    assert [call.agent for call in to_calls(raw)] == [None, None, None]  # no agent named


def approval_agent() -> Agent[Any]:
    return Agent(
        name="files",
        model=FakeModel((("call_d", "delete_file", '{"path": "/tmp/x"}'),), "Done."),
        tools=[delete_file],
    )


def test_agents_call_awaiting_approval_is_counted_once_and_pending() -> None:
    result = run_agent(approval_agent(), "Delete /tmp/x", run_config=NO_TRACING)
    assert [type(item).__name__ for item in result.new_items] == [
        "ToolCallItem",
        "ToolApprovalItem",
    ]
    pending = [
        ToolCall("delete_file", {"path": "/tmp/x"}, id="call_d", agent="files", status="pending")
    ]
    assert to_calls(result) == pending
    assert to_calls(result.interruptions) == pending


@pytest.mark.parametrize("approved", [True, False])
def test_agents_approved_or_rejected_call_is_answered_once_resumed(approved: bool) -> None:
    agent = approval_agent()
    stopped = run_agent(agent, "Delete /tmp/x", run_config=NO_TRACING)
    state = stopped.to_state()
    (item,) = stopped.interruptions
    if approved:
        state.approve(item)
    else:
        state.reject(item)
    resumed = asyncio.run(Runner.run(agent, state, run_config=NO_TRACING))
    # The resumed run holds the call, its approval item and its answer: no longer pending.
    # A rejected call is answered by the rejection message (configurable text, not marked
    # as one): its run's context_wrapper, which keeps the decision, says it was denied.
    (call,) = to_calls(resumed)
    if approved:
        assert (call.result, call.status) == ("deleted", None)  # its output says no more
    else:
        assert (call.result, call.status) == ("Tool execution was not approved.", "denied")
        assert ExpectedTool("delete_file", status="denied") == resumed
    # Items read without their run result: the decision is not there, the output is
    (call,) = to_calls(resumed.new_items)
    assert call.status is None
    assert to_calls(stopped)[0].status == "pending"


def test_agents_agent_itself_says_what_to_pass() -> None:
    agent = weather_agent()
    with pytest.raises(TypeError) as error:
        to_calls(agent)
    message = str(error.value)
    assert message.startswith("to_calls cannot read tool calls from input: Agent(name='weather'")
    assert message.endswith(
        "(agents.Agent); it holds no run: pass what Runner.run(agent, ...) returns; "
        "accepted shapes: " + FORMATS_DOC
    )


# --- LangGraph ----------------------------------------------------------------------------


def test_langgraph_state_gives_the_calls_with_the_tool_messages() -> None:
    state = weather_graph().invoke(QUESTION)
    assert list(state) == ["messages"]
    assert to_calls(state) == LANGGRAPH_CALLS
    assert to_calls(state["messages"]) == LANGGRAPH_CALLS
    assert_called(state, "get_weather", {"city": "Paris"})


def test_langgraph_updates_stream() -> None:
    chunks = list(weather_graph().stream(QUESTION, stream_mode="updates"))
    assert [list(chunk) for chunk in chunks] == [["log"], ["agent"], ["tools"], ["agent"]]
    assert chunks[0] == {"log": None}
    assert to_calls(chunks) == BY_NODE
    assert to_calls(chunks[1]) == [
        ToolCall(call.name, call.args, call.id, agent="agent") for call in LANGGRAPH_CALLS
    ]
    assert to_calls(chunks[0]) == []


def test_langgraph_state_snapshot() -> None:
    graph = weather_graph(InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    graph.invoke(QUESTION, config)
    snapshot = graph.get_state(config)
    assert type(snapshot).__name__ == "StateSnapshot"
    assert to_calls(snapshot) == LANGGRAPH_CALLS
    assert to_calls(snapshot.values) == LANGGRAPH_CALLS


def test_langgraph_interrupt_update_holds_no_call() -> None:
    def ask(state: MessagesState) -> dict[str, Any]:
        answer = interrupt("Which city?")
        return {"messages": [HumanMessage(answer)]}

    builder = StateGraph(MessagesState)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    graph = builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t2"}}
    chunks = list(graph.stream(QUESTION, config, stream_mode="updates"))
    assert list(chunks[-1]) == ["__interrupt__"]
    assert to_calls(chunks) == []
    resumed = list(graph.stream(Command(resume="Paris"), config, stream_mode="updates"))
    assert to_calls(resumed) == []


def test_langgraph_update_of_other_keys_is_not_read_silently() -> None:
    with pytest.raises(TypeError, match=r"^to_calls cannot read tool calls from input\[0\]"):
        to_calls([{"counter": {"count": 1}}])


def two_node_graph(named: bool) -> Any:
    """A researcher node searches, a writer node saves: each one model call; with
    ``named`` their messages carry the agents' names (as ``create_agent(name=...)`` sets)."""

    def node(name: str, call: dict[str, Any]) -> Any:
        def run(state: MessagesState) -> dict[str, list[BaseMessage]]:
            message = AIMessage("", tool_calls=[call], name=f"{name}-agent" if named else None)
            return {"messages": [message]}

        return run

    builder = StateGraph(MessagesState)
    builder.add_node("researcher", node("researcher", {"name": "search", "args": {}, "id": "c1"}))
    builder.add_node("writer", node("writer", {"name": "save", "args": {}, "id": "c2"}))
    builder.add_edge(START, "researcher")
    builder.add_edge("researcher", "writer")
    return builder.compile()


def test_langgraph_calls_name_the_node_or_the_named_agent_that_made_them() -> None:
    graph = two_node_graph(named=False)
    for mode in ("updates", "messages", "tasks", "debug", ["values", "updates"]):
        chunks = list(graph.stream(QUESTION, stream_mode=mode))
        assert [call.agent for call in to_calls(chunks)] == ["researcher", "writer"], mode
    # a state does not say which node added a message
    assert [call.agent for call in to_calls(graph.invoke(QUESTION))] == [None, None]
    # a message's own name says it in every mode, and wins over its node's
    named = two_node_graph(named=True)
    for mode in ("values", "updates", "messages"):
        chunks = list(named.stream(QUESTION, stream_mode=mode))
        agents = [call.agent for call in to_calls(chunks)]
        assert agents == ["researcher-agent", "writer-agent"], mode
    state = named.invoke(QUESTION)
    assert to_calls(state)[0] == ToolCall("search", {}, id="c1", agent="researcher-agent")
    dumped = [message.model_dump() for message in state["messages"]]
    assert [call.agent for call in to_calls(dumped)] == ["researcher-agent", "writer-agent"]


def test_langgraph_graph_itself_says_what_to_pass() -> None:
    with pytest.raises(TypeError) as error:
        to_calls(weather_graph())
    assert str(error.value).endswith(
        "(langgraph.CompiledStateGraph); it holds no run: pass the state graph.invoke(...) "
        "returns, or graph.get_state(config); accepted shapes: " + FORMATS_DOC
    )


# llama-index's FunctionAgent reads pydantic's deprecated attributes when made (see below)
@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")
def test_unrun_graphs_agents_and_models_say_what_to_pass() -> None:
    builder = StateGraph(MessagesState)
    builder.add_node("log", lambda state: None)
    builder.add_edge(START, "log")
    agent = FunctionAgent(
        name="weather",
        description="the weather",
        tools=[FunctionTool.from_defaults(llama_weather)],
        llm=MockFunctionCallingLLM(response_generator=llama_script),
    )
    cases = [
        (
            builder,
            "langgraph.StateGraph",
            "compile it, then pass the state graph.invoke(...) returns",
        ),
        (
            FakeMessagesListChatModel(responses=[AIMessage("Hi")]),
            "langchain_core.FakeMessagesListChatModel",
            "pass what model.invoke(...) returns (an AIMessage)",
        ),
    ]
    workflow = (
        "pass what awaiting agent.run(...) returns, or the events of its handler's stream_events()"
    )
    cases.append((agent, "llama_index.FunctionAgent", workflow))  # any llama-index Workflow
    for obj, kind, advice in cases:
        with pytest.raises(TypeError) as error:
            to_calls([obj])
        assert str(error.value).endswith(
            f"({kind}); it holds no run: {advice}; accepted shapes: " + FORMATS_DOC
        ), kind


# Every stream mode, alone, in a list (v1: (mode, chunk) tuples) and as v2 parts, counts
# each call once: a message is read once per id, however many chunks repeat it.
LANGGRAPH_MODES = ["values", "updates", "messages", "debug", "tasks", "checkpoints"]


def langgraph_stream(mode: Any, version: str = "v1", streaming: bool = False) -> list[Any]:
    graph = weather_graph(InMemorySaver(), streaming)
    config = {"configurable": {"thread_id": "modes"}}
    return list(graph.stream(QUESTION, config, stream_mode=mode, version=version))


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("mode", LANGGRAPH_MODES)
def test_langgraph_every_stream_mode_counts_each_call_once(mode: str, version: str) -> None:
    chunks = langgraph_stream(mode, version)
    assert len(chunks) >= 4
    expected = LANGGRAPH_CALLS if mode in STATE_MODES else BY_NODE
    assert to_calls(chunks) == expected
    assert to_calls(iter(chunks)) == expected


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize(
    "modes", [["updates", "messages"], ["values", "updates"], [*LANGGRAPH_MODES, "custom"]]
)
def test_langgraph_mixed_stream_modes_count_each_call_once(modes: list[str], version: str) -> None:
    chunks = langgraph_stream(modes, version)
    assert to_calls(chunks) == BY_NODE  # a node's update or message comes before the state


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("modes", ["messages", ["messages", "updates"], ["values", "messages"]])
def test_langgraph_streamed_chunks_count_once_with_the_whole_message(
    modes: Any, version: str
) -> None:
    # the model streams its calls in pieces: the chunks and the whole message share an id
    chunks = langgraph_stream(modes, version, streaming=True)
    assert to_calls(chunks) == BY_NODE


@pytest.mark.parametrize("modes", ["updates", ["updates", "messages", "values"]])
def test_langgraph_subgraph_namespaced_chunks_count_each_call_once(modes: Any) -> None:
    chunks = list(weather_graph().stream(QUESTION, stream_mode=modes, subgraphs=True))
    assert all(chunk[0] == () for chunk in chunks)  # (namespace, [mode,] chunk)
    assert to_calls(chunks) == BY_NODE
    named = [(("agent:1",), *chunk[1:]) for chunk in chunks]  # as a subgraph's chunks
    assert to_calls(named) == BY_NODE


def test_langgraph_a_values_stream_and_its_final_state_count_each_call_once() -> None:
    graph = weather_graph()
    snapshots = list(graph.stream(QUESTION, stream_mode="values"))
    assert len(snapshots) == 4
    assert to_calls(snapshots) == LANGGRAPH_CALLS
    assert to_calls([*snapshots, snapshots[-1]]) == LANGGRAPH_CALLS
    assert to_calls(snapshots[-1]) == LANGGRAPH_CALLS
    # as JSON (messages_to_dict), the ids still tell the repeats
    dumped = [{"messages": [message.model_dump() for message in s["messages"]]} for s in snapshots]
    assert to_calls(dumped) == LANGGRAPH_CALLS


def test_langgraph_snapshots_without_message_ids_count_by_position() -> None:
    first = AIMessage(
        "", tool_calls=[{"name": "get_weather", "args": {"city": "Paris"}, "id": "c1"}]
    )
    answer = ToolMessage("Sunny", tool_call_id="c1")
    again = AIMessage(
        "", tool_calls=[{"name": "get_weather", "args": {"city": "Paris"}, "id": "c1"}]
    )
    assert first.id is None
    snapshots = [
        {"messages": [HumanMessage("Weather?"), first]},
        {"messages": [HumanMessage("Weather?"), first, answer]},
        {"messages": [HumanMessage("Weather?"), first, answer, again]},
    ]
    paris = ToolCall("get_weather", {"city": "Paris"}, id="c1")
    # the same call asked again (a reused call id) is a second call: ids of calls are no identity
    assert to_calls(snapshots) == [
        ToolCall("get_weather", {"city": "Paris"}, id="c1", result="Sunny", failed=False),
        paris,
    ]


def test_langgraph_reused_call_ids_in_distinct_messages_count_twice() -> None:
    state = weather_graph().invoke(QUESTION)
    # another run: new message ids, the same call ids (a fake model answering with one
    # AIMessage object twice gives it one id: LangGraph's add_messages merges it too)
    second = weather_graph().invoke(QUESTION)
    assert to_calls([state, second]) == LANGGRAPH_CALLS * 2


def test_langgraph_custom_parts_alone_say_what_to_pass() -> None:
    parts = langgraph_stream("custom", "v2")
    assert parts == [{"type": "custom", "ns": (), "data": {"progress": "started"}}]
    with pytest.raises(TypeError) as error:
        to_calls(parts)
    assert str(error.value) == (
        "to_calls cannot read tool calls from input[0]: stream_mode='custom' holds what the "
        "graph's nodes wrote with get_stream_writer(), not the run's messages; pass the final "
        "state, or stream with stream_mode=['updates', 'custom']"
    )
    chunks = langgraph_stream(["custom"])
    assert chunks == [("custom", {"progress": "started"})]
    with pytest.raises(TypeError) as error:
        to_calls(chunks)
    assert str(error.value).startswith(
        "to_calls cannot read tool calls from input[0]: stream_mode='custom' holds"
    )


def test_langgraph_an_unknown_mode_in_a_pair_names_it() -> None:
    with pytest.raises(TypeError) as error:
        to_calls([("update", {"agent": None})])
    assert str(error.value) == (
        "to_calls cannot read tool calls from input[0]: ('update', {'agent': None}) (tuple); "
        "a (mode, chunk) pair's mode 'update' is not a LangGraph stream mode (values, "
        "updates, messages, debug, tasks, checkpoints, custom); accepted shapes: " + FORMATS_DOC
    )


# --- pydantic-ai --------------------------------------------------------------------------


def test_pydantic_ai_run_result() -> None:
    result = asyncio.run(pydantic_agent().run("Weather in Paris and Atlantis?"))
    assert type(result).__name__ == "AgentRunResult"
    assert to_calls(result) == pai_calls({"city": "Paris"})
    assert to_calls(result.all_messages()) == to_calls(result)


def test_pydantic_ai_streamed_run_result() -> None:
    async def run() -> list[ToolCall]:
        async with pydantic_agent().run_stream("Weather in Paris and Atlantis?") as result:
            assert type(result).__name__ == "StreamedRunResult"
            await result.get_output()
            return to_calls(result)

    assert asyncio.run(run()) == pai_calls({"city": "Paris"})


def test_pydantic_ai_agent_run_from_iter() -> None:
    async def run() -> list[ToolCall]:
        async with pydantic_agent().iter("Weather in Paris and Atlantis?") as agent_run:
            async for _ in agent_run:
                pass
            assert type(agent_run).__name__ == "AgentRun"
            return to_calls(agent_run)

    assert asyncio.run(run()) == pai_calls({"city": "Paris"})


def test_pydantic_ai_agent_itself_says_what_to_pass() -> None:
    with pytest.raises(TypeError) as error:
        to_calls(pydantic_agent())
    assert str(error.value).endswith(
        "(pydantic_ai.Agent); it holds no run: pass what agent.run_sync(...) returns, or its "
        "all_messages(); accepted shapes: " + FORMATS_DOC
    )


def pai_refund_script(messages: list[ModelMessage], info: AgentInfo) -> PaiResponse:
    if len(messages) == 1:
        return PaiResponse(
            parts=[
                ToolCallPart("refund", {"order": 7}, tool_call_id="call_1"),
                ToolCallPart("lookup", {"order": 7}, tool_call_id="call_2"),
            ]
        )
    return PaiResponse(parts=[TextPart("Done.")])


def pydantic_approval_agent() -> PydanticAgent[None, str | DeferredToolRequests]:
    agent = PydanticAgent(FunctionModel(pai_refund_script), output_type=[str, DeferredToolRequests])

    @agent.tool_plain(requires_approval=True)
    def refund(order: int) -> str:
        """Refund an order."""
        return f"refunded {order}"

    @agent.tool_plain
    def lookup(order: int) -> str:
        """Look an order up."""
        return f"order {order}: paid"

    return agent


def test_pydantic_ai_deferred_calls_are_pending_until_answered() -> None:
    agent = pydantic_approval_agent()
    paused = asyncio.run(agent.run("Refund order 7."))
    assert isinstance(paused.output, DeferredToolRequests)
    refund = ToolCall("refund", {"order": 7}, id="call_1", status="pending")
    lookup = ToolCall("lookup", {"order": 7}, id="call_2", result="order 7: paid", failed=False)
    assert to_calls(paused) == [refund, lookup]
    # the messages alone say where the run paused, in every form they are kept in
    assert to_calls(paused.all_messages()) == [refund, lookup]
    dumped = ModelMessagesTypeAdapter.dump_python(paused.all_messages(), mode="json")
    assert to_calls(dumped) == [refund, lookup]
    assert to_calls(ModelMessagesTypeAdapter.dump_json(paused.all_messages())) == [refund, lookup]
    assert to_calls(paused.output) == [refund]  # the requests alone: the calls that wait
    assert ExpectedTool.never("refund", status="pending") != paused
    approved = DeferredToolResults(approvals={"call_1": True})
    resumed = asyncio.run(
        agent.run(message_history=paused.all_messages(), deferred_tool_results=approved)
    )
    assert to_calls(resumed) == [
        ToolCall("refund", {"order": 7}, id="call_1", result="refunded 7", failed=False),
        lookup,
    ]


# --- llama-index --------------------------------------------------------------------------


LLAMA_CALLS = [
    ToolCall("get_weather", {"city": "Paris"}, id="call_1"),
    ToolCall("get_weather", {"city": "Rome"}, id="call_2"),
]


def openai_tool_call(call_id: str, city: str) -> ChatCompletionMessageFunctionToolCall:
    return ChatCompletionMessageFunctionToolCall(
        id=call_id,
        type="function",
        function={"name": "get_weather", "arguments": f'{{"city": "{city}"}}'},
    )


def test_llama_index_tool_call_blocks() -> None:
    message = ChatMessage(
        role="assistant",
        blocks=[
            TextBlock(text="Checking."),
            ToolCallBlock(
                tool_call_id="call_1", tool_name="get_weather", tool_kwargs={"city": "Paris"}
            ),
            # an integration may keep the arguments as the provider's JSON text
            ToolCallBlock(
                tool_call_id="call_2", tool_name="get_weather", tool_kwargs='{"city": "Rome"}'
            ),
        ],
    )
    assert to_calls(message) == LLAMA_CALLS
    assert to_calls(ChatResponse(message=message)) == LLAMA_CALLS
    assert to_calls(message.blocks[1]) == LLAMA_CALLS[:1]


def test_llama_index_tool_calls_in_additional_kwargs() -> None:
    message = ChatMessage(
        role="assistant",
        content="",
        additional_kwargs={
            "tool_calls": [openai_tool_call("call_1", "Paris"), openai_tool_call("call_2", "Rome")]
        },
    )
    assert to_calls(message) == LLAMA_CALLS


def test_llama_index_calls_kept_both_ways_count_once() -> None:
    # llama-index's OpenAI integration fills both the blocks and additional_kwargs
    entries = [openai_tool_call("call_1", "Paris"), openai_tool_call("call_2", "Rome")]
    message = ChatMessage(
        role="assistant",
        blocks=[
            ToolCallBlock(
                tool_call_id=entry.id, tool_name="get_weather", tool_kwargs=entry.function.arguments
            )
            for entry in entries
        ],
        additional_kwargs={"tool_calls": entries},
    )
    assert to_calls(message) == LLAMA_CALLS


def test_llama_index_history_pairs_tool_messages_with_calls() -> None:
    history = [
        ChatMessage(role="system", content="You answer weather questions."),
        ChatMessage(role="user", content="Weather in Paris?"),
        ChatMessage(
            role="assistant",
            blocks=[
                ToolCallBlock(
                    tool_call_id="call_1", tool_name="get_weather", tool_kwargs={"city": "Paris"}
                )
            ],
        ),
        ChatMessage(
            role="tool",
            content="Sunny in Paris",
            additional_kwargs={"tool_call_id": "call_1", "name": "get_weather"},
        ),
        ChatMessage(role="assistant", content="It is sunny."),
    ]
    assert to_calls(history) == [
        ToolCall("get_weather", {"city": "Paris"}, id="call_1", result="Sunny in Paris")
    ]
    assert to_calls(history[1]) == []
    assert to_calls(history[4]) == []


@pytest.mark.parametrize("mode", ["python", "json"])
def test_llama_index_message_dumps_read_as_the_messages(mode: str) -> None:
    history = [
        ChatMessage(role="user", content="Weather in Paris and Rome?"),
        ChatMessage(
            role="assistant",
            blocks=[
                TextBlock(text="Checking."),
                ToolCallBlock(
                    tool_call_id="call_1", tool_name="get_weather", tool_kwargs={"city": "Paris"}
                ),
            ],
        ),
        ChatMessage(
            role="assistant",
            content="",
            additional_kwargs={"tool_calls": [openai_tool_call("call_2", "Rome")]},
        ),
        ChatMessage(
            role="tool",
            blocks=[TextBlock(text="Sunny"), TextBlock(text="in Paris")],
            additional_kwargs={"tool_call_id": "call_1"},
        ),
        ChatMessage(
            role="tool", content="Sunny in Rome", additional_kwargs={"tool_call_id": "call_2"}
        ),
    ]
    # the JSON dumps read first: the dispatch then remembers their keys' deciding key, the
    # role, which a Python dump's role (an enum) leaves to its blocks, as if never read
    to_calls([message.model_dump(mode="json") for message in history])
    dumps = [message.model_dump(mode=mode) for message in history]
    assert "content" not in dumps[3]  # the result is the text of its blocks
    assert to_calls(dumps) == to_calls(history)
    assert [call.result for call in to_calls(history)] == ["Sunny\nin Paris", "Sunny in Rome"]
    # read by their role or not, the dumps are LlamaIndex's: no answer, no failure flag
    with pytest.raises(ValueError, match="records no message") as error:
        final_answer(dumps)
    assert str(error.value) == (
        "a LlamaIndex run records no message of the model, so no final answer: leave answer out"
    )
    assert "failed, which a LlamaIndex run does not record: " in str(
        explain(ExpectedTool.never(ANY, failed=True), dumps)
    )


def test_llama_index_message_dump_whose_blocks_are_no_list_says_so() -> None:
    with pytest.raises(TypeError) as error:
        to_calls({"role": "assistant", "additional_kwargs": {}, "blocks": "Checking."})
    assert str(error.value) == "input.blocks must be a list, got 'Checking.' (str)"


def test_llama_index_tool_selections() -> None:
    selections = [
        ToolSelection(tool_id="call_1", tool_name="get_weather", tool_kwargs={"city": "Paris"}),
        ToolSelection(tool_id="call_2", tool_name="get_weather", tool_kwargs={"city": "Rome"}),
    ]
    assert to_calls(selections) == LLAMA_CALLS
    assert to_calls(selections[0]) == LLAMA_CALLS[:1]


def llama_weather(city: str) -> str:
    """The weather in a city."""
    if city == "Atlantis":
        raise ValueError("no such city")
    return f"Sunny in {city}"


def llama_script(messages: Any, **kwargs: Any) -> ChatMessage:
    """The scripted model: both calls first, then an answer once the tools have answered."""
    if not any(message.role == "tool" for message in messages):
        return ChatMessage(
            role="assistant",
            blocks=[
                ToolCallBlock(
                    tool_call_id="call_1", tool_name="llama_weather", tool_kwargs={"city": "Paris"}
                ),
                ToolCallBlock(
                    tool_call_id="call_2",
                    tool_name="llama_weather",
                    tool_kwargs={"city": "Atlantis"},
                ),
            ],
        )
    return ChatMessage(role="assistant", content="Paris is sunny.")


def run_function_agent() -> tuple[Any, list[Any]]:
    async def run() -> tuple[Any, list[Any]]:
        agent = FunctionAgent(
            tools=[FunctionTool.from_defaults(llama_weather)],
            llm=MockFunctionCallingLLM(response_generator=llama_script),
        )
        handler = agent.run("Weather in Paris and Atlantis?")
        with pytest.raises(TypeError) as error:
            to_calls(handler)  # not yet a run's result
        assert str(error.value).endswith(
            "(workflows.WorkflowHandler); it holds no run: pass what awaiting it returns, or "
            "the events of its stream_events(); accepted shapes: " + FORMATS_DOC
        )
        events = [event async for event in handler.stream_events()]
        return await handler, events

    return asyncio.run(run())


# llama-index's workflow inspects its agents with inspect.getmembers, which reads pydantic's
# deprecated attributes: the SDK's warnings, not toolmatch's
@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")
def test_llama_index_agent_workflow_events_give_calls_results_and_errors() -> None:
    final, events = run_function_agent()
    kinds = [type(event).__name__ for event in events]
    # the two tools run concurrently: their ToolCall and ToolCallResult events interleave
    assert kinds[:3] == ["AgentInput", "AgentStream", "AgentOutput"]
    assert sorted(kinds[3:7]) == ["ToolCall", "ToolCall", "ToolCallResult", "ToolCallResult"]
    assert kinds[7:] == ["AgentInput", "AgentStream", "AgentOutput", "StopEvent"]
    expected = [
        ToolCall(
            "llama_weather", {"city": "Paris"}, id="call_1", result="Sunny in Paris", failed=False
        ),
        ToolCall(
            "llama_weather", {"city": "Atlantis"}, id="call_2", result="no such city", failed=True
        ),
    ]
    # the agent events name the agent (FunctionAgent's default name): its calls' agent
    by_agent = [ToolCall(**{**call.as_dict(), "agent": "Agent"}) for call in expected]
    assert to_calls(events) == by_agent
    # the tool events alone name no agent
    results = [event for event in events if type(event).__name__ == "ToolCallResult"]
    assert sorted(to_calls(results), key=lambda call: str(call.id)) == expected
    # the first turn's output: the model's calls, not yet run
    assert to_calls(events[2]) == [
        ToolCall(call.name, call.args, call.id, agent="Agent") for call in expected
    ]
    # what awaiting the handler gives: the last turn's output, which holds the whole run's
    # calls with their results (in the order the tools finished)
    assert type(final).__name__ == "AgentOutput"
    assert sorted(to_calls(final), key=lambda call: str(call.id)) == by_agent
    assert to_calls(events[-1]) == to_calls(final)  # the StopEvent, whose result it is


@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")
@pytest.mark.parametrize("mode", ["python", "json"])
def test_llama_index_agent_workflow_event_dumps_read_as_the_events(mode: str) -> None:
    final, events = run_function_agent()
    dumps = [event.model_dump(mode=mode) for event in events]
    assert to_calls(dumps) == to_calls(events)
    # the last output's dump keeps the calls, not their results; without a handoff, the
    # agent that ran is every call's
    assert to_calls(final.model_dump(mode=mode)) == [
        ToolCall(call.name, call.args, call.id, agent="Agent") for call in to_calls(final)
    ]


def llama_lookup(order: int) -> str:
    """Look an order up."""
    return f"order {order}: paid"


def llama_refund(order: int) -> str:
    """Refund an order."""
    return f"refunded {order}"


def llama_triage_script(messages: Any, **kwargs: Any) -> ChatMessage:
    """Triage looks the order up, then hands off to billing."""
    answered = sum(1 for message in messages if message.role == "tool")
    if answered == 0:
        block = ToolCallBlock(tool_call_id="c1", tool_name="llama_lookup", tool_kwargs={"order": 7})
    elif answered == 1:
        handoff = {"to_agent": "billing", "reason": "a refund"}
        block = ToolCallBlock(tool_call_id="c2", tool_name="handoff", tool_kwargs=handoff)
    else:
        return ChatMessage(role="assistant", content="Handed off.")
    return ChatMessage(role="assistant", blocks=[block])


def llama_billing_script(messages: Any, **kwargs: Any) -> ChatMessage:
    if not any(message.additional_kwargs.get("tool_call_id") == "c3" for message in messages):
        block = ToolCallBlock(tool_call_id="c3", tool_name="llama_refund", tool_kwargs={"order": 7})
        return ChatMessage(role="assistant", blocks=[block])
    return ChatMessage(role="assistant", content="Refunded.")


def run_llama_workflow() -> tuple[Any, list[Any]]:
    async def run() -> tuple[Any, list[Any]]:
        triage = FunctionAgent(
            name="triage",
            description="Sorts requests.",
            tools=[FunctionTool.from_defaults(llama_lookup)],
            llm=MockFunctionCallingLLM(response_generator=llama_triage_script),
            can_handoff_to=["billing"],
        )
        billing = FunctionAgent(
            name="billing",
            description="Refunds orders.",
            tools=[FunctionTool.from_defaults(llama_refund)],
            llm=MockFunctionCallingLLM(response_generator=llama_billing_script),
        )
        handler = AgentWorkflow(agents=[triage, billing], root_agent="triage").run("Refund 7.")
        events = [event async for event in handler.stream_events()]
        return await handler, events

    return asyncio.run(run())


@pytest.mark.filterwarnings("ignore::pydantic.warnings.PydanticDeprecationWarning")
def test_llama_index_multi_agent_workflow_names_each_calls_agent() -> None:
    final, events = run_llama_workflow()
    lookup = ToolCall(
        "llama_lookup", {"order": 7}, id="c1", result="order 7: paid", failed=False, agent="triage"
    )
    refund = ToolCall(
        "llama_refund", {"order": 7}, id="c3", result="refunded 7", failed=False, agent="billing"
    )
    calls = to_calls(events)
    assert [call.name for call in calls] == ["llama_lookup", "handoff", "llama_refund"]
    assert (calls[0], calls[2]) == (lookup, refund)
    assert calls[1].agent == "triage"  # the handoff is the call of the agent handing off
    assert ExpectedTool.never("llama_refund", agent="triage") == events
    assert ExpectedTool.never("llama_refund", agent="billing") != events
    # the tool events alone: each made by the agent of the last agent event before it
    tool_events = [event for event in events if type(event).__name__ == "ToolCall"]
    assert [call.agent for call in to_calls(tool_events)] == [None, None, None]
    agent_events = [
        event for event in events if type(event).__name__ in ("AgentInput", "ToolCallResult")
    ]
    assert to_calls(agent_events) == calls
    # the final output holds the run's calls but names only the last agent: after a
    # handoff it does not say who made each call
    assert final.current_agent_name == "billing"
    assert {call.agent for call in to_calls(final)} == {None}


# --- smolagents ---------------------------------------------------------------------------


def test_smolagents_memory_steps_one_call_each() -> None:
    agent = smol_agent(*WEATHER_SCRIPT)
    result = agent.run("Weather in Paris and Atlantis?", return_full_result=True)
    steps = agent.memory.steps
    assert [type(step).__name__ for step in steps] == [
        "TaskStep",
        "ActionStep",
        "ActionStep",
        "ActionStep",
    ]
    assert steps[2].tool_calls is None  # the failed step keeps its call in the model's message
    assert to_calls(agent.memory) == SMOL_CALLS
    assert to_calls(steps) == SMOL_CALLS
    assert to_calls(result) == SMOL_CALLS  # RunResult.steps are the same steps as dicts
    assert to_calls(result.steps[1]) == SMOL_CALLS[:1]


def test_smolagents_memory_messages_are_refused_and_the_models_message_is_read() -> None:
    agent = smol_agent(*WEATHER_SCRIPT)
    agent.run("Weather in Paris and Atlantis?")
    messages = agent.write_memory_to_messages()
    # the failed step writes no tool-call message: its call would be missed
    assert [message.role.value for message in messages].count("tool-call") == 2
    for handed in (messages[4:], json.dumps([message.dict() for message in messages[4:]])):
        with pytest.raises(TypeError) as error:
            to_calls(handed)
        assert str(error.value).startswith("to_calls cannot read tool calls from input[0]: ")
        assert str(error.value).endswith(
            "; its role is 'tool-response': smolagents writes its memory's calls into these "
            "messages as text, and leaves out the calls of a step whose tool failed: pass "
            "agent.memory (its last run), or what agent.run(..., return_full_result=True) "
            f"returns; accepted shapes: {FORMATS_DOC}"
        )
    model_message = agent.memory.steps[2].model_output_message
    assert to_calls(model_message) == [ToolCall("smol_weather", {"city": "Atlantis"}, id="c2")]


def test_smolagents_step_of_several_calls_does_not_say_which_result_is_whose() -> None:
    agent = smol_agent(
        (("c1", "smol_weather", {"city": "Paris"}), ("c2", "smol_weather", {"city": "Rome"})),
        (("c3", "final_answer", {"answer": "Sunny"}),),
    )
    agent.run("Weather in Paris and Rome?")
    assert to_calls(agent.memory) == [
        ToolCall("smol_weather", {"city": "Paris"}, id="c1"),
        ToolCall("smol_weather", {"city": "Rome"}, id="c2"),
        SMOL_CALLS[2],
    ]


def test_smolagents_agent_itself_says_what_to_pass() -> None:
    with pytest.raises(TypeError) as error:
        to_calls(smol_agent())
    assert str(error.value).endswith(
        "(smolagents.ToolCallingAgent); it holds no run: pass agent.memory (its last run), or "
        "what agent.run(..., return_full_result=True) returns; accepted shapes: " + FORMATS_DOC
    )


def _managed_team(*boss_turns: tuple[tuple[str, str, Any], ...]) -> ToolCallingAgent:
    """A manager ``boss`` of one managed agent ``weather`` (which looks Paris up)."""
    weather = ToolCallingAgent(
        tools=[smol_weather],
        model=ScriptedSmolModel(
            (("w1", "smol_weather", {"city": "Paris"}),),
            (("w2", "final_answer", {"answer": "Sunny"}),),
        ),
        name="weather",
        description="Finds the weather",
        verbosity_level=-1,
        max_steps=5,
    )
    return ToolCallingAgent(
        tools=[],
        model=ScriptedSmolModel(*boss_turns),
        managed_agents=[weather],
        name="boss",
        verbosity_level=-1,
        max_steps=5,
    )


def test_smolagents_manager_is_read_with_its_managed_agents_calls() -> None:
    boss = _managed_team(
        (("b1", "weather", {"task": "Paris weather"}),),
        (("b2", "final_answer", {"answer": "Sunny in Paris"}),),
    )
    boss.run("How is Paris?")
    assert to_calls(boss) == [
        ToolCall(
            "weather",
            {"task": "Paris weather"},
            id="b1",
            result="Here is the final answer from your managed agent 'weather':\nSunny",
            failed=False,
            agent="boss",
        ),
        ToolCall(
            "smol_weather",
            {"city": "Paris"},
            id="w1",
            result="Sunny in Paris",
            failed=False,
            agent="weather",
        ),
        ToolCall(
            "final_answer",
            {"answer": "Sunny"},
            id="w2",
            result="Sunny",
            failed=False,
            agent="weather",
        ),
        ToolCall(
            "final_answer",
            {"answer": "Sunny in Paris"},
            id="b2",
            result="Sunny in Paris",
            failed=False,
            agent="boss",
        ),
    ]
    # the memory alone names no agent, as before
    assert [call.agent for call in to_calls(boss.memory)] == [None, None]


def test_smolagents_managed_agent_run_twice_is_refused() -> None:
    boss = _managed_team(
        (("b1", "weather", {"task": "Paris weather"}),),
        (("b2", "weather", {"task": "Paris weather again"}),),
        (("b3", "final_answer", {"answer": "Sunny"}),),
    )
    boss.managed_agents["weather"].model.turns *= 2
    boss.run("How is Paris?")
    with pytest.raises(TypeError) as error:
        to_calls(boss)
    assert str(error.value).endswith(
        "(smolagents.ToolCallingAgent); its managed agent 'weather' ran 2 times and its memory "
        "keeps only its last run: pass agent.memory, and each managed agent's memory apart; "
        "accepted shapes: " + FORMATS_DOC
    )


def test_smolagents_managed_agents_memory_of_another_run_is_refused() -> None:
    boss = _managed_team((("b1", "final_answer", {"answer": "I do not know"}),))
    boss.managed_agents["weather"].run("Weather in Paris?")  # on its own, before
    boss.run("How is Paris?")
    assert [call.name for call in to_calls(boss)] == ["final_answer"]  # not called: not read
    boss = _managed_team(
        (("b1", "weather", {"task": "Paris weather"}),),
        (("b2", "final_answer", {"answer": "Sunny"}),),
    )
    boss.run("How is Paris?")
    weather = boss.managed_agents["weather"]
    weather.model.turns = [
        (("w3", "smol_weather", {"city": "Rome"}),),
        (("w4", "final_answer", {"answer": "Sunny"}),),
    ]
    weather.run("Weather in Rome?")  # after: its memory is no longer of the manager's run
    with pytest.raises(TypeError) as error:
        to_calls(boss)
    assert str(error.value).endswith(
        "(smolagents.ToolCallingAgent); the memory of its managed agent 'weather' is not of "
        "its last run (its steps ran outside the manager's call to it): pass agent.memory, "
        "and each managed agent's memory apart; accepted shapes: " + FORMATS_DOC
    )


def test_smolagents_code_agent_manager_is_refused() -> None:
    weather = _managed_team().managed_agents["weather"]
    boss = CodeAgent(tools=[], model=ScriptedSmolModel(), managed_agents=[weather])
    with pytest.raises(TypeError) as error:
        to_calls(boss)
    assert str(error.value).endswith(
        "(smolagents.CodeAgent); it calls its managed agents from its code, which does not say "
        "which call is whose: pass agent.memory, and each managed agent's memory apart; "
        "accepted shapes: " + FORMATS_DOC
    )


def test_smolagents_code_agent_action_is_a_python_interpreter_call() -> None:
    code = 'weather = smol_weather(city="Paris")\nfinal_answer(weather)'

    class CodeWritingModel(SmolModel):
        def __init__(self) -> None:
            super().__init__(model_id="scripted")

        def generate(self, messages: Any, *args: Any, **kwargs: Any) -> SmolMessage:
            return SmolMessage(role=MessageRole.ASSISTANT, content=f"<code>\n{code}\n</code>")

    agent = CodeAgent(tools=[smol_weather], model=CodeWritingModel(), verbosity_level=-1)
    assert agent.run("Weather in Paris?") == "Sunny in Paris"
    assert to_calls(agent.memory) == [
        ToolCall(
            "python_interpreter",
            {"code": code},
            id="call_1",
            result="Execution logs:\nLast output from code snippet:\nSunny in Paris",
            failed=False,
        )
    ]


def test_langgraph_v2_update_parts() -> None:
    parts = list(weather_graph().stream(QUESTION, stream_mode="updates", version="v2"))
    assert [part["type"] for part in parts] == ["updates"] * 4
    assert to_calls(parts) == BY_NODE
    # other modes repeat what the updates hold: each message counts once
    mixed = list(weather_graph().stream(QUESTION, stream_mode=["updates", "values"], version="v2"))
    assert to_calls(mixed) == BY_NODE


def test_llama_index_streamed_responses_give_the_last_message() -> None:
    # what llama-index's OpenAI integration streams: each response holds the message so far
    def response(arguments: str, delta: str) -> ChatResponse:
        entry = ChatCompletionMessageFunctionToolCall(
            id="call_1", type="function", function={"name": "get_weather", "arguments": arguments}
        )
        block = ToolCallBlock(tool_call_id="call_1", tool_name="get_weather", tool_kwargs=arguments)
        message = ChatMessage(
            role="assistant", blocks=[block], additional_kwargs={"tool_calls": [entry]}
        )
        return ChatResponse(message=message, delta=delta)

    stream = [
        response('{"ci', ""),
        response('{"city": "Par', ""),
        response('{"city": "Paris"}', ""),
    ]
    assert to_calls(stream) == LLAMA_CALLS[:1]
    assert to_calls(iter(stream)) == LLAMA_CALLS[:1]
    # two turns' streams, with the tool's answer between them: each stream's last message
    answer = ChatMessage(role="tool", content="Sunny", additional_kwargs={"tool_call_id": "call_1"})
    text = ChatResponse(message=ChatMessage(role="assistant", content="It is"), delta="It is")
    done = ChatResponse(message=ChatMessage(role="assistant", content="It is sunny."), delta=".")
    paris = ToolCall("get_weather", {"city": "Paris"}, id="call_1", result="Sunny")
    assert to_calls([*stream, answer, text, done]) == [paris]
    again = [response('{"city": "Rome"}', "")]
    assert to_calls([*stream, answer, text, *again]) == [
        paris,
        ToolCall("get_weather", {"city": "Rome"}, id="call_1"),
    ]
    (cut,) = to_calls(stream[:2])  # a stream cut off in the arguments
    assert cut.name == "get_weather"
    assert cut.parse_error is not None


# --- runs that made no call give [] -------------------------------------------------------


def test_agents_run_that_only_answered_gives_no_call() -> None:
    agent = Agent(name="greeter", model=FakeModel("Hello."))
    result = run_agent(agent, "Hi", run_config=NO_TRACING)
    assert [item.type for item in result.new_items] == ["message_output_item"]
    assert to_calls(result) == []
    assert to_calls(result.new_items) == []

    async def streamed() -> tuple[Any, list[Any]]:
        agent = Agent(name="greeter", model=FakeModel("Hello."))
        run = Runner.run_streamed(agent, "Hi", run_config=NO_TRACING)
        return run, [event async for event in run.stream_events()]

    run, events = asyncio.run(streamed())
    assert to_calls(run) == []
    assert to_calls(events) == []


def test_pydantic_ai_run_that_only_answered_gives_no_call() -> None:
    from pydantic_ai.messages import ModelMessagesTypeAdapter

    def answer(messages: list[ModelMessage], info: AgentInfo) -> PaiResponse:
        return PaiResponse(parts=[TextPart("Hello.")])

    # asyncio.run, not run_sync: run_sync leaves its event loop open, and its sockets then
    # warn from whichever later test the garbage collector runs in.
    result = asyncio.run(PydanticAgent(FunctionModel(answer)).run("Hi"))
    assert to_calls(result) == []
    assert to_calls(result.all_messages()) == []
    assert to_calls(ModelMessagesTypeAdapter.dump_python(result.all_messages(), mode="json")) == []


def test_langgraph_run_that_only_answered_gives_no_call() -> None:
    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [AIMessage("Hello.")]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_edge(START, "agent")
    graph = builder.compile()
    assert to_calls(graph.invoke(QUESTION)) == []
    for mode in ["values", "updates", "messages"]:
        assert to_calls(list(graph.stream(QUESTION, stream_mode=mode))) == []


def test_llama_index_answer_without_calls_gives_no_call() -> None:
    response = ChatResponse(message=ChatMessage(role="assistant", content="Hello."))
    assert to_calls(response) == []
    assert to_calls(response.message) == []


def test_a_run_not_awaited_is_told_to_be_awaited() -> None:
    agents_run = Runner.run(weather_agent(), "Hi", run_config=NO_TRACING)
    pai_run = pydantic_agent().run("Hi")
    try:
        for run, name in [(agents_run, "Runner.run"), (pai_run, "AbstractAgent.run")]:
            with pytest.raises(TypeError) as error:
                to_calls(run)
            assert str(error.value).endswith(
                f"(coroutine); await it first: to_calls(await {name}(...)); accepted shapes: "
                + FORMATS_DOC
            )
    finally:
        agents_run.close()
        pai_run.close()
