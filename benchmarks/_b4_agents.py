"""B4's second mix, weighted to agent frameworks: the spec and the generated runs.

Three shapes as the frameworks write them, one test case each, ten calls a run, one run in
ten failing, deterministic (the run's index is its only seed):

- openai-agents run items, as ``RunResult.to_input_list()`` gives them: the user's message,
  ``function_call`` items (arguments as JSON text) each followed by its
  ``function_call_output``, and the final assistant message;
- LangGraph ``stream_mode="updates"`` chunks (node name to ``{"messages": [...]}``): a
  node that updates nothing, the model's ``AIMessage`` dumps with ``tool_calls``,
  ``ToolNode``'s ``ToolMessage`` dumps, over two rounds of five calls;
- OpenTelemetry GenAI ``execute_tool`` spans as OTLP/JSON, one export a span (the lines a
  collector's file exporter writes), structured arguments as a ``kvlistValue``.

tests/test_benchmarks_b4.py rebuilds one run of each from the SDKs' own classes and checks
it reads the same.
"""

from __future__ import annotations

import json

AGENT_SPEC = {
    "test_cases": [
        {
            "name": "refund_order",
            "expected_tools": [
                {
                    "name": "lookup_order",
                    "args": {"order_id": {"regex": "ord_[0-9]{4}"}},
                    "result": {"regex": "found .*"},
                },
                {"name": "refund", "args": {"amount": {"$approx": 42.5}, "currency": "EUR"}},
                {"name": "delete", "never": True},
            ],
        },
        {
            "name": "weather_graph",
            "expected_tools": [
                {
                    "name": "get_weather",
                    "args": {"city": {"fuzzy": "Paris"}},
                    "result": {"regex": "Sunny.*"},
                    "failed": False,
                },
                {"name": "get_forecast", "args": {"days": {"$approx": 3}}, "count": 2},
            ],
        },
        {
            "name": "trip_planner",
            "turns": [
                {
                    "ordered": True,
                    "expected_tools": [
                        {"name": "search_hotels", "args": {"city": {"fuzzy": "lisbon"}}},
                        {
                            "name": "book_hotel",
                            "args": {"hotel_id": {"regex": "h_[0-9]+"}, "nights": 2},
                            "failed": False,
                        },
                    ],
                }
            ],
        },
    ]
}


def agents_items(index: int, failing: bool) -> dict[str, object]:
    """An openai-agents run as ``to_input_list()`` gives it: the model asks for five calls,
    their outputs follow, five more, their outputs, its answer; failing: a refund of 40."""
    calls = [
        ("lookup_order", {"order_id": f"ord_{index % 10_000:04d}"}, f"found ord_{index % 10_000}"),
        ("refund", {"amount": 40 if failing else 42.5, "currency": "EUR"}, "refunded"),
        *(
            (f"get_policy_{step}", {"section": f"s{step}", "page": step}, f"policy {step}")
            for step in range(8)
        ),
    ]
    items: list[dict[str, object]] = [{"content": f"Refund order {index}", "role": "user"}]
    for first in (0, 5):
        ids = [f"call_{index}_{step}" for step in range(first, first + 5)]
        for call_id, (name, args, _) in zip(ids, calls[first : first + 5], strict=True):
            items.append(
                {
                    "arguments": json.dumps(args),
                    "call_id": call_id,
                    "name": name,
                    "type": "function_call",
                    "id": f"fc_{call_id}",
                    "status": "completed",
                }
            )
        for call_id, (_, _, output) in zip(ids, calls[first : first + 5], strict=True):
            items.append({"call_id": call_id, "output": output, "type": "function_call_output"})
    items.append(
        {
            "id": f"msg_{index}",
            "content": [{"annotations": [], "text": "Refunded.", "type": "output_text"}],
            "role": "assistant",
            "status": "completed",
            "type": "message",
        }
    )
    return {"case": "refund_order", "turns": [items]}


def _ai(message_id: str, content: str, tool_calls: list[dict[str, object]]) -> dict[str, object]:
    """An ``AIMessage``'s ``model_dump()``."""
    return {
        "content": content,
        "additional_kwargs": {},
        "response_metadata": {},
        "type": "ai",
        "name": None,
        "id": message_id,
        "tool_calls": tool_calls,
        "invalid_tool_calls": [],
        "usage_metadata": None,
    }


def _tool(message_id: str, name: str, call_id: str, content: str, ok: bool) -> dict[str, object]:
    """A ``ToolMessage``'s ``model_dump()``, as ``ToolNode`` makes it."""
    return {
        "content": content,
        "additional_kwargs": {},
        "response_metadata": {},
        "type": "tool",
        "name": name,
        "id": message_id,
        "tool_call_id": call_id,
        "artifact": None,
        "status": "success" if ok else "error",
    }


def langgraph_updates(index: int, failing: bool) -> dict[str, object]:
    """A LangGraph run's ``updates`` chunks; failing: the Paris forecast's tool fails."""
    error = "Error: ToolException('service down')\n Please fix your mistakes."
    rounds = [
        [
            ("get_weather", {"city": "paris"}, not failing, "Sunny in Paris"),
            ("get_forecast", {"city": "Paris", "days": 3}, True, "Sunny, 24C"),
            ("get_forecast", {"city": "Lyon", "days": 3.0}, True, "Rain, 18C"),
            ("get_pollen", {"city": "Paris"}, True, "low"),
            ("get_uv", {"city": "Paris"}, True, "6"),
        ],
        [(f"get_station_{step}", {"station": f"st_{step}", "hour": step}, True, "ok")
         for step in range(5)],
    ]  # fmt: skip
    chunks: list[object] = [{"log": None}]
    for number, calls in enumerate(rounds):
        ids = [f"call_{index}_{number}_{step}" for step in range(len(calls))]
        tool_calls: list[dict[str, object]] = [
            {"name": name, "args": args, "id": call_id, "type": "tool_call"}
            for call_id, (name, args, _, _) in zip(ids, calls, strict=True)
        ]
        chunks.append({"agent": {"messages": [_ai(f"lc_run--{index}-{number}", "", tool_calls)]}})
        results = [
            _tool(f"tool-{call_id}", name, call_id, content if ok else error, ok)
            for call_id, (name, _, ok, content) in zip(ids, calls, strict=True)
        ]
        chunks.append({"tools": {"messages": results}})
    chunks.append({"agent": {"messages": [_ai(f"lc_run--{index}-end", "Sunny, then rain.", [])]}})
    return {"case": "weather_graph", "turns": [chunks]}


def _value(value: object) -> dict[str, object]:
    """A value as OTLP/JSON's ``AnyValue`` writes it (64-bit integers as strings)."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, dict):
        return {"kvlistValue": {"values": _attributes(value)}}
    return {"stringValue": value}


def _attributes(values: dict[str, object]) -> list[dict[str, object]]:
    return [{"key": key, "value": _value(value)} for key, value in values.items()]


_RESOURCE = {
    "attributes": _attributes(
        {
            "telemetry.sdk.language": "python",
            "telemetry.sdk.name": "opentelemetry",
            "telemetry.sdk.version": "1.45.2",
            "service.instance.id": "7e074312-e1e0-48f0-b81d-fcb9a2afe00b",
            "service.name": "trip-planner",
        }
    )
}


def otel_spans(index: int, failing: bool) -> dict[str, object]:
    """A run's GenAI ``execute_tool`` spans as OTLP/JSON, one export a span, in the order
    they started; failing: the booking's span ends in an error."""
    calls = [
        ("search_hotels", {"city": "Lisbon", "nights": 2}, "3 hotels", True),
        ("get_reviews", {"hotel_id": "h_17", "limit": 5}, "4.5", True),
        ("book_hotel", {"hotel_id": "h_17", "nights": 2}, "booked", not failing),
        *((f"get_sight_{step}", {"rank": step, "city": "Lisbon"}, "ok", True) for step in range(7)),
    ]
    trace = f"{index:032x}"
    start = 1_796_627_370_000_000_000 + index * 1_000_000_000
    exports = []
    for step, (name, args, result, ok) in enumerate(calls):
        attributes = {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.agent.name": "planner",
            "gen_ai.tool.name": name,
            "gen_ai.tool.call.id": f"call_{index}_{step}",
            "gen_ai.tool.call.arguments": args,
        }
        if ok:
            attributes["gen_ai.tool.call.result"] = result
        status = (
            {"code": "STATUS_CODE_OK"}
            if ok
            else {"message": "sold out", "code": "STATUS_CODE_ERROR"}
        )
        span = {
            "traceId": trace,
            "spanId": f"{index:08x}{step:08x}",
            "parentSpanId": f"{index:08x}ffffffff",
            "name": f"execute_tool {name}",
            "kind": "SPAN_KIND_INTERNAL",
            "startTimeUnixNano": str(start + step * 10_000_000),
            "endTimeUnixNano": str(start + step * 10_000_000 + 5_000_000),
            "attributes": _attributes(attributes),
            "status": status,
            "flags": 256,
        }
        scope = {"scope": {"name": "planner"}, "spans": [span]}
        exports.append({"resourceSpans": [{"resource": _RESOURCE, "scopeSpans": [scope]}]})
    return {"case": "trip_planner", "turns": [exports]}


AGENT_SHAPES = (agents_items, langgraph_updates, otel_spans)
