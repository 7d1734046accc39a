"""Every call shape the readers accept, and the containers of each kind that hold them."""

from __future__ import annotations

import json
from typing import Any

from toolmatch import ToolCall


def call_shapes(name: str, args: dict[str, Any], call_id: str) -> dict[str, list[Any]]:
    """Each accepted call shape, by the container kind that holds it."""
    text = json.dumps(args)
    return {
        "tool_calls": [
            {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}},
            {"function": {"name": name, "arguments": args}},  # Ollama
            {"name": name, "args": args, "id": call_id, "type": "tool_call"},  # LangChain
        ],
        "content": [
            {"type": "tool_use", "id": call_id, "name": name, "input": args},
            {"type": "server_tool_use", "id": call_id, "name": name, "input": args},
            {"type": "mcp_tool_use", "id": call_id, "name": name, "input": args},
            {"type": "tool-call", "toolCallId": call_id, "toolName": name, "input": args},
            {"toolUse": {"toolUseId": call_id, "name": name, "input": args}},
        ],
        "parts": [
            {"functionCall": {"name": name, "args": args}},
            {"function_call": {"name": name, "args": args, "id": call_id}},
            {"type": "tool_call", "id": call_id, "name": name, "arguments": args},  # OTel
            {"type": "dynamic-tool", "toolName": name, "toolCallId": call_id, "input": args},
            {
                "type": f"tool-{name}",
                "toolCallId": call_id,
                "state": "input-available",
                "input": args,
            },
        ],
        "output": [
            {"type": "function_call", "call_id": call_id, "name": name, "arguments": text},
            {"type": "custom_tool_call", "call_id": call_id, "name": name, "input": "x"},
            {"type": "mcp_call", "id": call_id, "name": name, "arguments": text},
        ],
        "pydantic": [
            {"part_kind": "tool-call", "tool_name": name, "args": args, "tool_call_id": call_id}
        ],
        "spans": [
            {
                "name": f"execute_tool {name}",
                "attributes": {"gen_ai.tool.name": name, "gen_ai.tool.call.id": call_id},
            }
        ],
        "atif": [{"tool_call_id": call_id, "function_name": name, "arguments": args}],
        "items": [
            {"name": name, "args": args, "id": call_id},
            {"name": name, "arguments": text},
            {"name": name},
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name}},
            ToolCall(name, args, call_id),
        ],
    }


# Containers of each kind: they take the items and give the object a user would hold.
CONTAINERS: dict[str, list[Any]] = {
    "tool_calls": [
        lambda items: {"role": "assistant", "content": None, "tool_calls": items},
        lambda items: {"index": 0, "message": {"role": "assistant", "tool_calls": items}},
        lambda items: {
            "object": "chat.completion",
            "choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": items}}],
        },
        lambda items: {"message": {"role": "assistant", "tool_calls": items}, "done": True},
        lambda items: {"type": "ai", "content": "", "tool_calls": items},
        lambda items: {"type": "ai", "data": {"type": "ai", "content": "", "tool_calls": items}},
    ],
    "content": [
        lambda items: {"role": "assistant", "content": items},
        lambda items: {"type": "message", "role": "assistant", "content": items},
        lambda items: {"output": {"message": {"role": "assistant", "content": items}}},
    ],
    "parts": [
        lambda items: {"role": "model", "parts": items},
        lambda items: {"content": {"role": "model", "parts": items}},
        lambda items: {"candidates": [{"content": {"role": "model", "parts": items}}]},
        lambda items: {"role": "assistant", "parts": items},
    ],
    "output": [
        lambda items: {"object": "response", "output": items},
        lambda items: {"id": "resp_1", "output": items},
    ],
    "pydantic": [lambda items: {"kind": "response", "parts": items}],
    "spans": [
        lambda items: {"resourceSpans": [{"scopeSpans": [{"spans": items}]}]},
        lambda items: {"scopeSpans": [{"spans": items}]},
    ],
    "atif": [
        lambda items: {"step_id": 1, "source": "agent", "message": "", "tool_calls": items},
        lambda items: {
            "schema_version": "ATIF-v1.4",
            "steps": [{"step_id": 1, "source": "agent", "message": "", "tool_calls": items}],
        },
    ],
    "items": [lambda items: items],
}


def langfuse_observation(
    api: Any, id_: str, kind: str, name: str, parent: str | None, **fields: Any
) -> Any:
    """An observation of trace ``t1`` as Langfuse's API returns it (``api``: langfuse.api)."""
    import datetime

    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    return api.ObservationV2(
        id=id_, trace_id="t1", project_id="p1", start_time=start, type=kind, name=name,
        parent_observation_id=parent, **fields,
    )  # fmt: skip
