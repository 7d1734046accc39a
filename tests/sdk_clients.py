"""SDK clients that stream a given body offline (SSE bodies served by a mock transport), and
the streams of one call, search(q="paris"), they serve: Chat Completions chunks, Responses
events and Anthropic events, as the APIs send them."""

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


def chat_stream_read(client: Any) -> tuple[list[Any], list[Any], Any]:
    """A chat stream of ``client`` read as users do: its chunks, and the ``.stream()``
    helper's events and final completion."""
    chunks = list(client.chat.completions.create(model="gpt-4.1", messages=[], stream=True))
    with client.chat.completions.stream(model="gpt-4.1", messages=[]) as stream:
        events = list(stream)
        final = stream.get_final_completion()
    return chunks, events, final


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


# --- the streams of search(q="paris") ---------------------------------------------------


def chat_entry(arguments: str, first: bool = False) -> dict[str, Any]:
    entry: dict[str, Any] = {"index": 0, "function": {"arguments": arguments}}
    if first:
        entry.update(id="call_1", type="function")
        entry["function"]["name"] = "search"
    return {"tool_calls": [entry]}


CHAT_STREAM = [
    chat_chunk({"role": "assistant", "content": None, **chat_entry("", first=True)}),
    chat_chunk(chat_entry('{"q": ')),
    chat_chunk(chat_entry('"paris"}')),
    chat_chunk({}, "tool_calls"),
]


def anthropic_events(message_id: str = "msg_1") -> list[dict[str, Any]]:
    start = {"type": "tool_use", "id": "call_1", "name": "search", "input": {}}
    message = {
        "id": message_id,
        "type": "message",
        "role": "assistant",
        "model": "claude-test",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    return [
        {"type": "message_start", "message": message},
        {"type": "content_block_start", "index": 0, "content_block": start},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": '{"q": "paris"}'},
        },
        {"type": "content_block_stop", "index": 0},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 5},
        },
        {"type": "message_stop"},
    ]


RESPONSE = {
    "id": "resp_1",
    "object": "response",
    "created_at": 0,
    "model": "gpt-4.1",
    "status": "in_progress",
    "output": [],
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
}
MESSAGE_ITEM = {
    "type": "message",
    "id": "msg_1",
    "role": "assistant",
    "status": "completed",
    "content": [{"type": "output_text", "text": "Checking.", "annotations": []}],
}
FUNCTION_ITEM = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "call_1",
    "name": "search",
    "arguments": '{"q": "paris"}',
    "status": "completed",
}


def numbered(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**event, "sequence_number": number} for number, event in enumerate(events)]


def text_events(item: dict[str, Any], index: int) -> list[dict[str, Any]]:
    part = {"type": "output_text", "text": "", "annotations": []}
    where = {"output_index": index, "item_id": item["id"], "content_index": 0}
    return [
        {
            "type": "response.output_item.added",
            "output_index": index,
            "item": {**item, "status": "in_progress", "content": []},
        },
        {"type": "response.content_part.added", **where, "part": part},
        {"type": "response.output_text.delta", **where, "delta": "Checking.", "logprobs": []},
        {"type": "response.output_text.done", **where, "text": "Checking.", "logprobs": []},
        {"type": "response.content_part.done", **where, "part": {**part, "text": "Checking."}},
        {"type": "response.output_item.done", "output_index": index, "item": item},
    ]


def call_events(item: dict[str, Any], index: int, pieces: list[str]) -> list[dict[str, Any]]:
    kind = (
        "custom_tool_call_input"
        if item["type"] == "custom_tool_call"
        else f"{item['type']}_arguments"
    )
    key = "input" if item["type"] == "custom_tool_call" else "arguments"
    begun = {**item, key: "", "status": "in_progress"}
    where = {"output_index": index, "item_id": item["id"]}
    return [
        {"type": "response.output_item.added", "output_index": index, "item": begun},
        *({"type": f"response.{kind}.delta", **where, "delta": piece} for piece in pieces),
        {"type": f"response.{kind}.done", **where, key: item[key]},
        {"type": "response.output_item.done", "output_index": index, "item": item},
    ]


RESPONSES_STREAM = numbered(
    [
        {"type": "response.created", "response": RESPONSE},
        {"type": "response.in_progress", "response": RESPONSE},
        *text_events(MESSAGE_ITEM, 0),
        *call_events(FUNCTION_ITEM, 1, ['{"q": ', '"paris"}']),
        {
            "type": "response.completed",
            "response": {
                **RESPONSE,
                "status": "completed",
                "output": [MESSAGE_ITEM, FUNCTION_ITEM],
            },
        },
    ]
)
