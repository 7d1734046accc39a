"""LangGraph runs, offline: graphs of langchain-core's fake chat models (one that answers
from a list, one that streams its calls in pieces) and LangGraph's ``ToolNode``; and the
"edit the tool call" pattern, a review node re-emitting the model's message under its id."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from langchain_core.tools import ToolException
from langchain_core.tools import tool as langchain_tool
from langgraph.config import get_stream_writer
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from toolmatch import ToolCall


@langchain_tool("get_weather")
def lc_get_weather(city: str) -> str:
    """The weather in a city."""
    if city == "Atlantis":
        raise ToolException("no such city")
    return f"Sunny in {city}"


class ToolCallingFakeModel(FakeMessagesListChatModel):
    """langchain-core's fake chat model, which answers from a list, with tools bound."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


class ChunkStreamingFakeModel(BaseChatModel):
    """A chat model that streams its two calls in pieces (``tool_call_chunks``, as OpenAI's
    integration does), then its answer, so stream_mode="messages" yields chunks."""

    turns: int = 0

    @property
    def _llm_type(self) -> str:
        return "chunk-streaming-fake"

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self

    def _pieces(self) -> list[AIMessageChunk]:
        self.turns += 1
        if self.turns == 1:
            paris = {"name": "get_weather", "args": '{"city": ', "id": "call_1", "index": 0}
            rest = {"name": None, "args": '"Paris"}', "id": None, "index": 0}
            atlantis = {
                "name": "get_weather",
                "args": '{"city": "Atlantis"}',
                "id": "call_2",
                "index": 1,
            }
            return [
                AIMessageChunk("", tool_call_chunks=[paris]),  # type: ignore[list-item]
                AIMessageChunk("", tool_call_chunks=[rest]),  # type: ignore[list-item]
                AIMessageChunk(
                    "",
                    tool_call_chunks=[atlantis],  # type: ignore[list-item]
                    chunk_position="last",
                ),
            ]
        return [AIMessageChunk("Paris "), AIMessageChunk("is sunny.", chunk_position="last")]

    def _generate(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> ChatResult:
        pieces = self._pieces()
        whole = pieces[0]
        for piece in pieces[1:]:
            whole = whole + piece
        message = AIMessage(content=whole.content, tool_calls=whole.tool_calls)
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any
    ) -> Any:
        for piece in self._pieces():
            chunk = ChatGenerationChunk(message=piece)
            if run_manager:
                run_manager.on_llm_new_token(str(piece.content), chunk=chunk)
            yield chunk


def weather_graph(checkpointer: Any = None, streaming: bool = False) -> Any:
    model: Any = ToolCallingFakeModel(
        responses=[
            AIMessage(
                "",
                tool_calls=[
                    {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"},
                    {"name": "get_weather", "args": {"city": "Atlantis"}, "id": "call_2"},
                ],
            ),
            AIMessage("Paris is sunny."),
        ]
    )
    if streaming:
        model = ChunkStreamingFakeModel()

    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    def log(state: MessagesState) -> None:
        """A node that updates nothing, and writes what stream_mode="custom" yields."""
        get_stream_writer()({"progress": "started"})

    builder = StateGraph(MessagesState)
    builder.add_node("log", log)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode([lc_get_weather], handle_tool_errors=True))
    builder.add_edge(START, "log")
    builder.add_edge("log", "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=checkpointer)


QUESTION = {"messages": [("user", "Weather in Paris and Atlantis?")]}
LANGGRAPH_CALLS = [
    ToolCall("get_weather", {"city": "Paris"}, id="call_1", result="Sunny in Paris", failed=False),
    ToolCall(
        "get_weather",
        {"city": "Atlantis"},
        id="call_2",
        result="Error: ToolException('no such city')\n Please fix your mistakes.",
        failed=True,
    ),
]
# A state does not say which node added a message; the streams of the other modes do.
BY_NODE = [
    ToolCall(call.name, call.args, call.id, None, call.result, call.failed, "agent")
    for call in LANGGRAPH_CALLS
]
STATE_MODES = ("values", "checkpoints")


@langchain_tool
def pay(amount: int) -> str:
    """Pay an amount."""
    return f"paid {amount}"


def _pay_graph(name: str, step: Any, checkpointer: Any, then_tools: bool) -> Any:
    """A model proposes pay(5) (then says it is done); the node ``name`` runs ``step`` on
    its answer, then ToolNode runs the call (``then_tools``) or ``tools_condition`` decides."""
    proposal = {"name": "pay", "args": {"amount": 5}, "id": "c1"}
    model = FakeMessagesListChatModel(
        responses=[AIMessage("", id="ai-1", tool_calls=[proposal]), AIMessage("Done.", id="ai-2")]
    )

    def agent(state: MessagesState) -> dict[str, Any]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node(name, step)
    builder.add_node("tools", ToolNode([pay]))
    builder.add_edge(START, "agent")
    builder.add_edge("agent", name)
    if then_tools:
        builder.add_edge(name, "tools")
    else:
        builder.add_conditional_edges(name, tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=checkpointer)


def edit_graph(checkpointer: Any = None) -> Any:
    """A model proposes pay(5); a review node re-emits its message under the same id with
    amount 500 (LangGraph's "edit the tool call" pattern); ToolNode pays 500."""

    def review(state: MessagesState) -> dict[str, Any] | None:
        last: Any = state["messages"][-1]
        if not last.tool_calls:
            return None
        edited = [{**last.tool_calls[0], "args": {"amount": 500}}]
        return {"messages": [AIMessage("", id=last.id, tool_calls=edited)]}

    return _pay_graph("review", review, checkpointer, then_tools=False)


PAID = ToolCall("pay", {"amount": 500}, id="c1", result="paid 500", failed=False)
PAY = {"messages": [("user", "Pay the invoice.")]}


def approval_graph(checkpointer: Any) -> Any:
    """A model proposes pay(5); an approval node stops the run with ``interrupt()`` before
    ``ToolNode`` runs it (LangGraph's human-in-the-loop pattern: ``checkpointer`` keeps the
    run to resume)."""
    from langgraph.types import interrupt

    def approve(state: MessagesState) -> None:
        interrupt("Pay?")

    return _pay_graph("approve", approve, checkpointer, then_tools=True)
