"""SDK clients that stream a given body offline: SSE bodies served by a mock transport."""

from __future__ import annotations

import json
from typing import Any


def sse(events: list[dict[str, Any]], *, named: bool = False) -> bytes:
    """An SSE body of ``events`` (Anthropic and Responses name each event; chat does not)."""
    lines = []
    for event in events:
        if named:
            lines.append(f"event: {event['type']}\n")
        lines.append(f"data: {json.dumps(event)}\n\n")
    if not named:
        lines.append("data: [DONE]\n\n")
    return "".join(lines).encode()


def chat_chunk(delta: dict[str, Any], finish: str | None = None, **extra: Any) -> dict[str, Any]:
    """A Chat Completions chunk of the one choice, as the API streams it."""
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "gpt-4.1",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": None}],
        **extra,
    }


def _serve(module: Any, body: bytes) -> Any:
    def handler(request: Any) -> Any:
        return module.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    return module.Client(transport=module.MockTransport(handler))


def openai_client(body: bytes) -> Any:
    """An ``openai.OpenAI`` whose every request answers ``body``."""
    import httpx
    import openai

    return openai.OpenAI(api_key="test", base_url="http://test/v1", http_client=_serve(httpx, body))


def anthropic_client(body: bytes) -> Any:
    """An ``anthropic.Anthropic`` whose every request answers ``body``."""
    import anthropic

    # anthropic's newer clients run on httpx2, a fork of httpx with the same MockTransport.
    try:
        import httpx2 as transport_module
    except ImportError:  # an anthropic from before the fork
        import httpx as transport_module
    return anthropic.Anthropic(
        api_key="test", base_url="http://test", http_client=_serve(transport_module, body)
    )
