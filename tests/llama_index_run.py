"""One llama-index AgentWorkflow run, offline (a mock function-calling LLM): triage asks
two forecasts in one step, whose tools run concurrently and finish in the reverse order
(the first is slower), the second failing; then it hands off to billing, which refunds."""

from __future__ import annotations

import asyncio
from typing import Any, NamedTuple


class LlamaRun(NamedTuple):
    """What a user holds after the run: what awaiting the handler gave, the events of
    its ``stream_events()``, and the chat history its memory kept."""

    final: Any
    events: list[Any]
    history: list[Any]


async def forecast(city: str) -> str:
    """The weather in a city."""
    if city == "Atlantis":
        raise ValueError("no such city")
    await asyncio.sleep(0.05)  # Paris answers after Atlantis, though asked first
    return f"Sunny in {city}"


async def refund(order: int) -> str:
    """Refund an order."""
    return f"refunded {order}"


def _triage(messages: Any, **kwargs: Any) -> Any:
    from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock

    answered = sum(1 for message in messages if message.role == "tool")
    if answered == 0:
        blocks = [
            ToolCallBlock(tool_call_id="c1", tool_name="forecast", tool_kwargs={"city": "Paris"}),
            ToolCallBlock(
                tool_call_id="c2", tool_name="forecast", tool_kwargs={"city": "Atlantis"}
            ),
        ]
        return ChatMessage(role="assistant", blocks=blocks)
    if answered == 2:
        handoff = {"to_agent": "billing", "reason": "a refund"}
        block = ToolCallBlock(tool_call_id="c3", tool_name="handoff", tool_kwargs=handoff)
        return ChatMessage(role="assistant", blocks=[block])
    return ChatMessage(role="assistant", content="Handed off.")


def _billing(messages: Any, **kwargs: Any) -> Any:
    from llama_index.core.base.llms.types import ChatMessage, ToolCallBlock

    if not any(message.additional_kwargs.get("tool_call_id") == "c4" for message in messages):
        block = ToolCallBlock(tool_call_id="c4", tool_name="refund", tool_kwargs={"order": 7})
        return ChatMessage(role="assistant", blocks=[block])
    return ChatMessage(role="assistant", content="Refunded.")


def llama_run() -> LlamaRun:
    from llama_index.core.agent.workflow import AgentWorkflow, FunctionAgent
    from llama_index.core.llms.mock import MockFunctionCallingLLM
    from llama_index.core.tools import FunctionTool

    async def run() -> LlamaRun:
        triage = FunctionAgent(
            name="triage",
            description="Sorts requests.",
            tools=[FunctionTool.from_defaults(async_fn=forecast)],
            llm=MockFunctionCallingLLM(response_generator=_triage),
            can_handoff_to=["billing"],
        )
        billing = FunctionAgent(
            name="billing",
            description="Refunds orders.",
            tools=[FunctionTool.from_defaults(async_fn=refund)],
            llm=MockFunctionCallingLLM(response_generator=_billing),
        )
        handler = AgentWorkflow(agents=[triage, billing], root_agent="triage").run(
            "Weather in Paris and Atlantis, then refund 7."
        )
        events = [event async for event in handler.stream_events()]
        final = await handler
        memory = await handler.ctx.store.get("memory")
        return LlamaRun(final, events, await memory.aget_all())

    return asyncio.run(run())
