"""Trace stores' runs, offline, each made by the store's own library: OpenTelemetry GenAI
spans from the OpenTelemetry SDK, OpenInference spans from its OpenAI instrumentation and
tool decorator, an MLflow trace from MLflow's tracing into a local sqlite store, and
Langfuse observations as its API's classes model them. Each library is imported where its
run is made, so a missing one skips only its runs."""

from __future__ import annotations

import atexit
import contextlib
import datetime
import json
import shutil
import tempfile
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from toolmatch import ToolCall

WEATHER = '{"city": "Paris"}'
# The run the stores record (OpenInference, MLflow, Langfuse): the model asks for two calls,
# the triage agent's tools run them, one answers and one raises.
STORE_CALLS = [
    ToolCall("get_weather", {"city": "Paris"}, "call_1", result="sunny", failed=False,
             agent="triage"),
    ToolCall("refund", {"order": 7}, "call_2", failed=True, agent="triage"),
]  # fmt: skip


def completion(request: Any) -> httpx.Response:
    """The model's answer, as the Chat Completions API sends it: both calls."""
    calls = [("call_1", "get_weather", WEATHER), ("call_2", "refund", '{"order": 7}')]
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": i, "type": "function", "function": {"name": n, "arguments": a}}
            for i, n, a in calls
        ],
    }
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4.1",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
    }
    return httpx.Response(200, json=body)


def openai_client() -> Any:
    """An OpenAI client whose requests ``completion`` answers."""
    import openai

    transport = httpx.MockTransport(completion)
    return openai.OpenAI(api_key="test", http_client=httpx.Client(transport=transport))


def run_tools(client: Any, get_weather: Callable[..., str], refund: Callable[..., str]) -> None:
    """The agent loop: ask the model, run each call it asks for."""
    response = client.chat.completions.create(
        model="gpt-4.1", messages=[{"role": "user", "content": "Weather, then refund 7"}]
    )
    tools = {"get_weather": get_weather, "refund": refund}
    for call in response.choices[0].message.tool_calls:
        with contextlib.suppress(LookupError):  # the tool's failure is in its span
            tools[call.function.name](**json.loads(call.function.arguments))


def memory_exporter() -> tuple[Any, Any]:
    """A tracer provider whose spans end in memory, and that exporter."""
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider, exporter


def otlp_json(spans: Any, **options: Any) -> dict[str, Any]:
    """Spans as OTLP JSON, written by the OTLP exporter's encoder and protobuf's JSON
    format (as the collector's file exporter writes them)."""
    from google.protobuf.json_format import MessageToDict
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

    return MessageToDict(encode_spans(spans), **options)  # type: ignore[no-any-return]


# --- OpenTelemetry GenAI ---------------------------------------------------------------------

# triage's model asks for get_weather, its tool runs it; triage hands the refund to billing,
# whose model asks for it and whose tool fails.
GENAI_CALLS = [
    ToolCall("get_weather", {"city": "Paris", "days": [1, 2]}, "call_1", result="sunny",
             failed=False, agent="triage"),
    ToolCall("refund", {"order": 7}, "call_2", failed=True, agent="billing"),
]  # fmt: skip


def genai_spans() -> list[Any]:
    """The GenAI run's spans, made by the OpenTelemetry SDK as the GenAI conventions say:
    ``invoke_agent`` spans naming their agent, ``chat`` spans whose structured
    ``gen_ai.output.messages`` hold the calls, ``execute_tool`` spans with the call's
    name, id, structured arguments, result and status."""
    from opentelemetry.trace import Status, StatusCode

    provider, exporter = memory_exporter()
    tracer = provider.get_tracer("agent")

    def agent(name: str, call: ToolCall, error: str | None = None) -> None:
        invoke = {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": name}
        with tracer.start_as_current_span(f"invoke_agent {name}", attributes=invoke):
            part = {"type": "tool_call", "id": call.id, "name": call.name, "arguments": call.args}
            chat = {
                "gen_ai.operation.name": "chat",
                "gen_ai.output.messages": [{"role": "assistant", "parts": [part]}],
            }
            with tracer.start_as_current_span("chat gpt-4.1", attributes=chat):
                pass
            tool = {
                "gen_ai.operation.name": "execute_tool",
                "gen_ai.agent.name": name,
                "gen_ai.tool.name": call.name,
                "gen_ai.tool.call.id": call.id,
                "gen_ai.tool.call.arguments": call.args,
            }
            with tracer.start_as_current_span(f"execute_tool {call.name}", attributes=tool) as span:
                if error is None:
                    span.set_attribute("gen_ai.tool.call.result", call.result)
                    span.set_status(Status(StatusCode.OK))
                else:
                    span.set_status(Status(StatusCode.ERROR, error))

    weather, refund = GENAI_CALLS
    agent("triage", weather)
    agent("billing", refund, error="no order 7")
    return list(exporter.get_finished_spans())


# --- OpenInference ---------------------------------------------------------------------------


def openinference_spans() -> list[Any]:
    """The store run traced by OpenInference's OpenAI instrumentation and its tool
    decorator, inside an ``AGENT`` span naming triage, exported to memory."""
    from openinference.instrumentation import OITracer, TraceConfig
    from openinference.instrumentation.openai import OpenAIInstrumentor

    provider, exporter = memory_exporter()
    instrumentor = OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        tracer = OITracer(provider.get_tracer("agent"), config=TraceConfig())

        @tracer.tool
        def get_weather(city: str) -> str:
            """The weather in a city."""
            return "sunny"

        @tracer.tool
        def refund(order: int) -> str:
            """Refund an order."""
            raise LookupError(f"no order {order}")

        with tracer.start_as_current_span("triage", openinference_span_kind="agent") as span:
            span.set_attribute("agent.name", "triage")
            run_tools(openai_client(), get_weather, refund)
    finally:
        instrumentor.uninstrument()
    return list(exporter.get_finished_spans())


# --- MLflow ----------------------------------------------------------------------------------


def mlflow_run() -> tuple[Any, Any, list[Any], Path]:
    """The store run traced by MLflow (OpenAI autolog, traced tools, an ``AGENT`` span)
    into a sqlite store in a temporary folder: the trace as ``mlflow.get_trace`` reads it
    back, what ``mlflow.search_traces()`` finds (a DataFrame, and with
    ``return_type="list"``), and the folder. The tracking URI is put back after."""
    import mlflow
    import mlflow.openai

    store = Path(tempfile.mkdtemp(prefix="toolmatch-mlflow-"))
    atexit.register(shutil.rmtree, store, ignore_errors=True)
    previous = mlflow.get_tracking_uri()
    # MLflow warns as it runs (SQLAlchemy APIs it uses are deprecated; type hints it cannot
    # check): toolmatch's own warnings are not what this run is for.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mlflow.set_tracking_uri(f"sqlite:///{store}/mlflow.db")
        try:
            # its artifacts in the store's folder, not the working directory's mlruns/
            mlflow.create_experiment("toolmatch", artifact_location=store.as_uri())
            mlflow.set_experiment("toolmatch")
            mlflow.openai.autolog()

            @mlflow.trace(span_type="TOOL")
            def get_weather(city: str) -> str:
                return "sunny"

            @mlflow.trace(span_type="TOOL")
            def refund(order: int) -> str:
                raise LookupError(f"no order {order}")

            @mlflow.trace(span_type="AGENT", name="triage")
            def agent() -> None:
                run_tools(openai_client(), get_weather, refund)

            agent()
            mlflow.flush_trace_async_logging()
            trace = mlflow.get_trace(mlflow.get_last_active_trace_id())
            found = mlflow.search_traces(), mlflow.search_traces(return_type="list")
            return trace, *found, store
        finally:
            mlflow.openai.autolog(disable=True)
            mlflow.set_tracking_uri(previous)


# --- Langfuse --------------------------------------------------------------------------------

LANGFUSE_CALLS = [
    ToolCall("get_weather", {"city": "Paris"}, "call_1", result="sunny", agent="triage"),
    ToolCall("refund", {"order": 7}, "call_2", failed=True, agent="triage"),
]


def langfuse_observations() -> list[Any]:
    """The store run as Langfuse's API returns its observations (``ObservationV2``): the
    agent, the model's generation (its output the completion's message), and the tools,
    the one that raised at level ``ERROR`` (its other levels say nothing of a failure)."""
    from langfuse.api import ObservationV2

    start = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)

    def observation(id_: str, kind: str, name: str, parent: str | None, **fields: Any) -> Any:
        return ObservationV2(
            id=id_, trace_id="t1", project_id="p1", start_time=start, type=kind, name=name,
            parent_observation_id=parent, **fields,
        )  # fmt: skip

    message = json.loads(completion(None).content)["choices"][0]["message"]
    return [
        observation("o1", "AGENT", "triage", None),
        observation("o2", "GENERATION", "OpenAI-generation", "o1", output=message),
        observation("o3", "TOOL", "get_weather", "o1", input={"city": "Paris"}, output="sunny",
                    level="DEFAULT"),
        observation("o4", "TOOL", "refund", "o1", input={"order": 7}, level="ERROR",
                    status_message="LookupError: no order 7"),
    ]  # fmt: skip


def langfuse_sdk_spans() -> list[Any]:
    """The same run as the Langfuse SDK records it before sending it: its OpenTelemetry
    spans (``langfuse.observation.*`` attributes), kept in memory by the exporter it is
    given; nothing is sent."""
    from langfuse import Langfuse
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    exporter = InMemorySpanExporter()
    client = Langfuse(
        public_key="pk-lf-toolmatch",
        secret_key="sk-lf-toolmatch",
        base_url="http://127.0.0.1:9",  # never reached: the spans go to the exporter
        span_exporter=exporter,
        tracer_provider=TracerProvider(),
    )
    message = json.loads(completion(None).content)["choices"][0]["message"]
    try:
        observe = client.start_as_current_observation
        with observe(name="triage", as_type="agent"):
            with observe(name="OpenAI-generation", as_type="generation", output=message):
                pass
            with observe(name="get_weather", as_type="tool", input={"city": "Paris"}) as tool:
                tool.update(output="sunny")
            with observe(name="refund", as_type="tool", input={"order": 7}) as tool:
                tool.update(level="ERROR", status_message="LookupError: no order 7")
        client.flush()
    finally:
        client.shutdown()
    return list(exporter.get_finished_spans())
