"""A real google-adk run, offline: two agents whose model is a script (a ``BaseLlm`` that
answers each request with its next content), run by ADK's ``Runner`` on an
``InMemorySessionService``; ``tests/data/adk/`` holds its events as ADK dumps them
(``python tests/adk_run.py`` writes them again)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "adk"
QUESTION = "Refund order 7, please."


def lookup_order(order: int) -> dict[str, Any]:
    """The order's state."""
    return {"order": order, "state": "delivered"}


def refund(order: int) -> dict[str, Any]:
    """Refund an order."""
    return {"error": f"the refund window of order {order} is closed"}


def run() -> list[Any]:
    """The session's events of the run: triage looks the order up and hands over to
    billing, whose refund fails (ADK's convention: an ``error`` key)."""
    return list(streamed()[1].events)


def streamed() -> tuple[list[Any], Any]:
    """The run streamed (``RunConfig(streaming_mode=SSE)``): the events
    ``runner.run_async`` yields, each model answer's partial pieces included, and the
    ``Session`` after it (which keeps the whole events only)."""
    runner, options = new_runner()

    async def main() -> tuple[list[Any], Any]:
        yielded = [event async for event in runner.run_async(**options)]
        service = runner.session_service
        done = await service.get_session(app_name="shop", user_id="u1", session_id="s1")
        assert done is not None
        return yielded, done

    return asyncio.run(main())


def new_runner() -> tuple[Any, dict[str, Any]]:
    """A new ``Runner`` of the run's agents (their scripts unread) on a new session
    ``s1``, and the options of ``runner.run_async`` / ``runner.run`` that start the run,
    streamed, on it."""
    from google.adk.agents import LlmAgent, RunConfig
    from google.adk.agents.run_config import StreamingMode
    from google.adk.models.base_llm import BaseLlm
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService
    from google.genai import types

    def calls(*pairs: tuple[str, dict[str, Any]]) -> types.Content:
        parts = [
            types.Part(function_call=types.FunctionCall(name=name, args=args))
            for name, args in pairs
        ]
        return types.Content(role="model", parts=parts)

    class Scripted(BaseLlm):
        script: list[types.Content]

        async def generate_content_async(self, llm_request: Any, stream: bool = False) -> Any:
            from google.adk.models.llm_response import LlmResponse
            from google.adk.utils.streaming_utils import StreamingResponseAggregator

            content = self.script.pop(0)
            if not stream:
                yield LlmResponse(content=content)
                return
            # the pieces and the whole answer, as ADK's Gemini model streams a response
            aggregator = StreamingResponseAggregator()
            answer = types.GenerateContentResponse(candidates=[types.Candidate(content=content)])
            async for piece in aggregator.process_response(answer):
                yield piece
            whole = aggregator.close()
            if whole is not None:
                yield whole

    billing = LlmAgent(
        name="billing",
        model=Scripted(
            model="scripted",
            script=[
                calls(("refund", {"order": 7})),
                types.Content(role="model", parts=[types.Part(text="The refund failed.")]),
            ],
        ),
        tools=[refund],
    )
    triage = LlmAgent(
        name="triage",
        model=Scripted(
            model="scripted",
            script=[
                calls(("lookup_order", {"order": 7})),
                calls(("transfer_to_agent", {"agent_name": "billing"})),
            ],
        ),
        tools=[lookup_order],
        sub_agents=[billing],
    )

    service = InMemorySessionService()
    service.create_session_sync(app_name="shop", user_id="u1", session_id="s1")
    runner = Runner(agent=triage, app_name="shop", session_service=service)
    message = types.Content(role="user", parts=[types.Part(text=QUESTION)])
    options = {
        "user_id": "u1",
        "session_id": "s1",
        "new_message": message,
        "run_config": RunConfig(streaming_mode=StreamingMode.SSE),
    }
    return runner, options


if __name__ == "__main__":
    events = run()
    for name, options in (
        ("events.json", {"mode": "json", "by_alias": True}),
        ("events_snake.json", {"mode": "json"}),
    ):
        dumped = [event.model_dump(**options) for event in events]
        (DATA / name).write_text(json.dumps(dumped, indent=1) + "\n", encoding="utf-8")
