"""B4's generated runs: the agent frameworks' mix reads as the SDKs write it, and
``toolmatch check`` and the hand-written floor give the same verdict on every generated run
of both mixes (no timing here: that is ``python -m benchmarks``)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from benchmarks._b4_agents import (
    AGENT_SHAPES,
    AGENT_SPEC,
    agents_items,
    langgraph_updates,
    otel_spans,
)
from benchmarks.b4_cli import FLOOR, SHAPES, SPEC, Shape, write_spec, write_traces

from commands import ROOT, toolmatch
from toolmatch import to_calls

MIXES = {"B4's mix": (SPEC, SHAPES), "agent frameworks' mix": (AGENT_SPEC, AGENT_SHAPES)}


@pytest.mark.parametrize("mix", MIXES)
def test_toolmatch_and_the_floor_agree_on_every_generated_run(tmp_path: Path, mix: str) -> None:
    spec, shapes = MIXES[mix]
    write_spec(tmp_path / "spec.json", spec)
    write_traces(tmp_path / "traces.jsonl", 60, shapes)  # every shape passing and failing
    checked = toolmatch(
        "check", tmp_path / "spec.json", tmp_path / "traces.jsonl", "--format", "json"
    )
    rows = [json.loads(line) for line in checked.stdout.splitlines()]
    verdicts = [(row["case"], row["passed"]) for row in rows if row["type"] == "case"]
    floor = subprocess.run(
        [sys.executable, str(FLOOR), str(tmp_path / "traces.jsonl")],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    floor_lines = floor.stdout.splitlines()
    floor_verdicts = [(line[5:], line.startswith("PASS")) for line in floor_lines[:-1]]
    assert floor_verdicts == verdicts
    assert floor_lines[-1] == "54 passed, 6 failed"
    assert (checked.returncode, floor.returncode) == (1, 1)


def _read(shape: Shape, index: int) -> tuple[Any, list[Any]]:
    """One generated run's turn, and what toolmatch reads from it."""
    turn = shape(index, index % 10 == 9)["turns"]
    assert isinstance(turn, list)
    return turn[0], to_calls(turn[0])


def test_generated_agents_items_are_what_openai_agents_writes() -> None:
    pytest.importorskip("agents")
    from agents import Agent, FunctionTool, Runner

    from agents_run import NO_TRACING, FakeModel

    turn, calls = _read(agents_items, 1)  # FakeModel's answer has the id msg_1
    made = [item for item in turn if item.get("type") == "function_call"]
    outputs = {item["call_id"]: item["output"] for item in turn if "output" in item}

    def tool(name: str) -> FunctionTool:
        async def invoke(context: Any, arguments: str) -> str:
            call = next(item for item in made if item["name"] == name)
            return str(outputs[call["call_id"]])

        return FunctionTool(name, name, {"type": "object", "properties": {}}, invoke, False)

    script = [
        tuple((item["call_id"], item["name"], item["arguments"]) for item in made[first:][:5])
        for first in (0, 5)
    ]
    model = FakeModel(*script, "Refunded.")
    agent = Agent(name="refunds", model=model, tools=[tool(item["name"]) for item in made])
    result = asyncio.run(Runner.run(agent, "Refund order 1", run_config=NO_TRACING))
    real = json.loads(json.dumps(result.to_input_list()))
    assert turn == real
    assert len(calls) == 10
    assert calls == to_calls(real)


def test_generated_langgraph_updates_are_what_a_graph_streams() -> None:
    pytest.importorskip("langgraph")
    from langchain_core.messages import AIMessage
    from langchain_core.tools import StructuredTool, ToolException
    from langgraph.graph import START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode, tools_condition

    from langgraph_run import ToolCallingFakeModel

    turn, calls = _read(langgraph_updates, 9)  # a failing run: a tool's error
    said = [chunk["agent"]["messages"][0] for chunk in turn if "agent" in chunk]
    told = {
        message["tool_call_id"]: message
        for chunk in turn
        if "tools" in chunk
        for message in chunk["tools"]["messages"]
    }
    model = ToolCallingFakeModel(
        responses=[
            AIMessage(message["content"], id=message["id"], tool_calls=message["tool_calls"])
            for message in said
        ]
    )

    def tool(name: str) -> StructuredTool:
        def run(**args: Any) -> str:
            call = next(
                c for m in said for c in m["tool_calls"] if (c["name"], c["args"]) == (name, args)
            )
            message = told[call["id"]]
            if message["status"] == "error":
                raise ToolException("service down")
            return str(message["content"])

        schema = {"type": "object", "properties": {}, "additionalProperties": True}
        return StructuredTool.from_function(run, name=name, description=name, args_schema=schema)

    names = {call["name"] for message in said for call in message["tool_calls"]}
    builder = StateGraph(MessagesState)
    builder.add_node("log", lambda state: None)
    builder.add_node("agent", lambda state: {"messages": [model.invoke(state["messages"])]})
    builder.add_node("tools", ToolNode([tool(name) for name in names], handle_tool_errors=True))
    builder.add_edge(START, "log")
    builder.add_edge("log", "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    question = {"messages": [("user", "Weather in Paris?")]}
    chunks = builder.compile().stream(question, stream_mode="updates")
    real = json.loads(
        json.dumps(
            [
                {
                    node: update and {"messages": [m.model_dump() for m in update["messages"]]}
                    for node, update in chunk.items()
                }
                for chunk in chunks
            ]
        )
    )
    for chunk in real:  # ToolNode's messages get fresh ids: the generated ones name the call
        for message in (chunk.get("tools") or {"messages": []})["messages"]:
            message["id"] = f"tool-{message['tool_call_id']}"
    assert turn == real
    assert len(calls) == 10
    assert calls == to_calls(real)


def test_generated_otel_spans_are_what_the_opentelemetry_sdk_exports() -> None:
    pytest.importorskip("opentelemetry.sdk")
    pytest.importorskip("opentelemetry.exporter.otlp.proto.common")
    from opentelemetry.trace import Status, StatusCode

    from trace_store_runs import memory_exporter, otlp_json

    turn, calls = _read(otel_spans, 9)  # a failing run: a span's error status
    provider, exporter = memory_exporter()
    tracer = provider.get_tracer("planner")
    for export in turn:
        (span,) = export["resourceSpans"][0]["scopeSpans"][0]["spans"]
        attributes = {pair["key"]: pair["value"] for pair in span["attributes"]}
        plain = {key: _plain(value) for key, value in attributes.items()}
        with tracer.start_as_current_span(span["name"], attributes=plain) as made:
            if span["status"]["code"] == "STATUS_CODE_OK":
                made.set_status(Status(StatusCode.OK))
            else:
                made.set_status(Status(StatusCode.ERROR, span["status"]["message"]))
    real = [otlp_json([span]) for span in exporter.get_finished_spans()]
    # The run's own ids, times and resource: the SDK's are random, of this process, and
    # base64 where a collector's file exporter writes hex (the generated lines)
    for mine, theirs in zip(turn, real, strict=True):
        theirs["resourceSpans"][0]["resource"] = mine["resourceSpans"][0]["resource"]
        (span,) = mine["resourceSpans"][0]["scopeSpans"][0]["spans"]
        (other,) = theirs["resourceSpans"][0]["scopeSpans"][0]["spans"]
        other.update({key: span[key] for key in _OWN if key in span})
    assert turn == real
    assert len(calls) == 10
    assert calls == to_calls(real)


_OWN = ("traceId", "spanId", "parentSpanId", "startTimeUnixNano", "endTimeUnixNano")


def _plain(value: dict[str, Any]) -> Any:
    """An OTLP/JSON value back as the attribute value that wrote it."""
    ((kind, inner),) = value.items()
    if kind == "kvlistValue":
        return {pair["key"]: _plain(pair["value"]) for pair in inner["values"]}
    return int(inner) if kind == "intValue" else inner
