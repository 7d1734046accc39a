"""A pydantic-ai run, offline: an agent whose ``FunctionModel`` asks two forecasts (one
tool raising ``ModelRetry``), whole or streamed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from pydantic_ai import Agent as PydanticAgent
from pydantic_ai import ModelRetry
from pydantic_ai.messages import ModelMessage, TextPart, ToolCallPart
from pydantic_ai.messages import ModelResponse as PaiResponse
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from toolmatch import ToolCall


def pai_answer(messages: list[ModelMessage], info: AgentInfo) -> PaiResponse:
    if len(messages) == 1:
        return PaiResponse(
            parts=[
                ToolCallPart("get_weather", {"city": "Paris"}, tool_call_id="call_1"),
                ToolCallPart("get_weather", {"city": "Atlantis"}, tool_call_id="call_2"),
            ]
        )
    return PaiResponse(parts=[TextPart("Paris is sunny.")])


async def pai_stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
    if len(messages) == 1:
        calls: DeltaToolCalls = {
            0: DeltaToolCall("get_weather", '{"city": "Paris"}', tool_call_id="call_1"),
            1: DeltaToolCall("get_weather", '{"city": "Atlantis"}', tool_call_id="call_2"),
        }
        yield calls
    else:
        yield "Paris is sunny."


def pydantic_agent() -> PydanticAgent[None, str]:
    agent = PydanticAgent(FunctionModel(pai_answer, stream_function=pai_stream), retries=2)

    @agent.tool_plain
    def get_weather(city: str) -> str:
        """The weather in a city."""
        if city == "Atlantis":
            raise ModelRetry("no such city")
        return f"Sunny in {city}"

    return agent


def pai_calls(paris_args: Any) -> list[ToolCall]:
    return [
        ToolCall("get_weather", paris_args, id="call_1", result="Sunny in Paris", failed=False),
        ToolCall(
            "get_weather", {"city": "Atlantis"}, id="call_2", result="no such city", failed=True
        ),
    ]
