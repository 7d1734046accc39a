"""Trace stores and span conventions: OpenInference (Phoenix), MLflow, Langfuse and
OpenTelemetry GenAI spans read as calls, built by the SDKs themselves where they install,
and span lists that record no call never read as ``[]``."""

from __future__ import annotations

import base64
import contextlib
import json
import warnings
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from shapes import langfuse_observation
from toolmatch import ExpectedTool, ToolCall, to_calls

WEATHER = '{"city": "Paris"}'
# The run every store records: the model asks for two calls, the agent's tools run them,
# one answers and one raises.
RUN = [
    ToolCall("get_weather", {"city": "Paris"}, "call_1", result="sunny", failed=False),
    ToolCall("refund", {"order": 7}, "call_2", failed=True),
]
DOCS = "https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md#accepted-shapes"


def _completion(request: Any) -> Any:
    import httpx

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


def _openai_client() -> Any:
    httpx = pytest.importorskip("httpx")
    openai = pytest.importorskip("openai")
    transport = httpx.MockTransport(_completion)
    return openai.OpenAI(api_key="test", http_client=httpx.Client(transport=transport))


def _run_tools(client: Any, get_weather: Callable[..., str], refund: Callable[..., str]) -> None:
    """The agent loop: ask the model, run each call it asks for."""
    response = client.chat.completions.create(
        model="gpt-4.1", messages=[{"role": "user", "content": "Weather, then refund 7"}]
    )
    tools = {"get_weather": get_weather, "refund": refund}
    for call in response.choices[0].message.tool_calls:
        with contextlib.suppress(LookupError):  # the tool's failure is in its span
            tools[call.function.name](**json.loads(call.function.arguments))


# --- OpenInference (Phoenix) ---------------------------------------------------------------


@pytest.fixture(scope="module")
def openinference_spans() -> list[Any]:
    """An agent run traced by OpenInference's OpenAI instrumentation and its tool
    decorator, exported to memory."""
    pytest.importorskip("openinference.semconv")
    instrumentation = pytest.importorskip("openinference.instrumentation")
    oi_openai = pytest.importorskip("openinference.instrumentation.openai")
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    memory = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    exporter = memory.InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    instrumentor = oi_openai.OpenAIInstrumentor()
    instrumentor.instrument(tracer_provider=provider)
    try:
        tracer = instrumentation.OITracer(
            provider.get_tracer("agent"), config=instrumentation.TraceConfig()
        )

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
            _run_tools(_openai_client(), get_weather, refund)
    finally:
        instrumentor.uninstrument()
    return list(exporter.get_finished_spans())


def _otlp_json(spans: list[Any]) -> dict[str, Any]:
    """Spans as an OTLP JSON export writes them (the collector's file exporter, say)."""
    encoder = pytest.importorskip("opentelemetry.exporter.otlp.proto.common.trace_encoder")
    json_format = pytest.importorskip("google.protobuf.json_format")
    return json_format.MessageToDict(encoder.encode_spans(spans))  # type: ignore[no-any-return]


OPENINFERENCE_DUMPS: dict[str, Callable[[list[Any]], object]] = {
    "objects": lambda spans: spans,
    "to_json": lambda spans: [json.loads(span.to_json()) for span in spans],
    "json_text": lambda spans: json.dumps([json.loads(span.to_json()) for span in spans]),
    "otlp_json": _otlp_json,
}


@pytest.mark.parametrize("dump", sorted(OPENINFERENCE_DUMPS))
def test_openinference_llm_and_tool_spans_are_one_call_each(
    openinference_spans: list[Any], dump: str
) -> None:
    """Before this reader, these spans read as []: the LLM span's calls and the TOOL spans
    that ran them, merged (the TOOL spans have no call id: by name and arguments)."""
    spans = OPENINFERENCE_DUMPS[dump](openinference_spans)
    assert to_calls(spans) == [
        ToolCall("get_weather", {"city": "Paris"}, "call_1", result="sunny", failed=False,
                 agent="triage"),
        ToolCall("refund", {"order": 7}, "call_2", failed=True, agent="triage"),
    ]  # fmt: skip
    assert ExpectedTool.never("refund", agent="triage") != spans


def test_openinference_tool_parameters_are_the_schema_not_the_arguments(
    openinference_spans: list[Any],
) -> None:
    tool = next(span for span in openinference_spans if span.name == "get_weather")
    assert set(json.loads(tool.attributes["tool.parameters"])["properties"]) == {"city"}
    assert to_calls([tool]) == [ToolCall("get_weather", {"city": "Paris"}, result="sunny",
                                         failed=False, agent=None)]  # fmt: skip


def test_openinference_llm_span_alone_gives_the_asked_calls(
    openinference_spans: list[Any],
) -> None:
    llm = next(span for span in openinference_spans if span.name == "ChatCompletion")
    assert to_calls(json.loads(llm.to_json())) == [
        ToolCall("get_weather", {"city": "Paris"}, "call_1"),
        ToolCall("refund", {"order": 7}, "call_2"),
    ]


def test_openinference_nested_attributes_and_graph_nodes() -> None:
    """Attributes written nested read as their dotted names; without an agent.name, the
    model span's graph node names the agent."""
    llm = {
        "name": "ChatOpenAI",
        "context": {"span_id": "b"},
        "parent_id": "a",
        "attributes": {
            "openinference": {"span": {"kind": "LLM"}},
            "llm": {"output_messages": [{"message": {"role": "assistant", "tool_calls": [
                {"tool_call": {"id": "c1", "function": {"name": "lookup",
                                                         "arguments": '{"q": 1}'}}},
            ]}}]},
        },
    }  # fmt: skip
    node = {
        "name": "agent",
        "context": {"span_id": "a"},
        "parent_id": None,
        "attributes": {"openinference.span.kind": "CHAIN", "graph.node.id": "agent"},
    }
    assert to_calls([node, llm]) == [ToolCall("lookup", {"q": 1}, "c1", agent="agent")]


# --- MLflow ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def mlflow_trace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """An agent run traced by MLflow (OpenAI autolog and traced tools) into a local sqlite
    store, read back with ``mlflow.get_trace``."""
    mlflow = pytest.importorskip("mlflow")
    pytest.importorskip("mlflow.openai")
    pytest.importorskip("alembic")  # MLflow's sqlite store
    previous = mlflow.get_tracking_uri()
    store = tmp_path_factory.mktemp("mlflow")
    mlflow.set_tracking_uri(f"sqlite:///{store}/mlflow.db")
    # MLflow warns as it runs (SQLAlchemy APIs it uses are deprecated; type hints it cannot
    # check): toolmatch's own warnings are not what this fixture tests.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield _mlflow_run(mlflow, store)
    mlflow.set_tracking_uri(previous)


def _mlflow_run(mlflow: Any, store: Path) -> Any:
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
            _run_tools(_openai_client(), get_weather, refund)

        agent()
        mlflow.flush_trace_async_logging()
        return mlflow.get_trace(mlflow.get_last_active_trace_id())
    finally:
        mlflow.openai.autolog(disable=True)


MLFLOW_DUMPS: dict[str, Callable[[Any], object]] = {
    "trace": lambda trace: trace,
    "to_dict": lambda trace: trace.to_dict(),
    "to_json": lambda trace: trace.to_json(),
    "spans": lambda trace: trace.data.spans,
    "span_dicts": lambda trace: [span.to_dict() for span in trace.data.spans],
}


@pytest.mark.parametrize("dump", sorted(MLFLOW_DUMPS))
def test_mlflow_traces_read_their_tool_and_model_spans(mlflow_trace: Any, dump: str) -> None:
    """Before this reader, an MLflow trace read as []."""
    assert to_calls(MLFLOW_DUMPS[dump](mlflow_trace)) == [
        ToolCall("get_weather", {"city": "Paris"}, "call_1", result="sunny", failed=False,
                 agent="triage"),
        ToolCall("refund", {"order": 7}, "call_2", failed=True, agent="triage"),
    ]  # fmt: skip


def test_mlflow_tool_spans_alone_are_the_calls_that_ran(mlflow_trace: Any) -> None:
    tools = [span.to_dict() for span in mlflow_trace.data.spans if span.span_type == "TOOL"]
    assert to_calls(tools) == [
        ToolCall("get_weather", {"city": "Paris"}, result="sunny", failed=False),
        ToolCall("refund", {"order": 7}, failed=True),
    ]


def test_mlflow_traces_of_schema_2() -> None:
    """MLflow 2's span dicts: ids under ``context`` and ``parent_id``, a top-level
    ``status_code`` (as mlflow.entities.Span.from_dict_v2 reads them)."""
    trace = {
        "info": {"request_id": "tr-1"},
        "data": {
            "spans": [
                {"name": "triage", "context": {"span_id": "0x1", "trace_id": "0x9"},
                 "parent_id": None, "status_code": "OK", "status_message": "",
                 "attributes": {"mlflow.spanType": '"AGENT"'}},
                {"name": "refund", "context": {"span_id": "0x2", "trace_id": "0x9"},
                 "parent_id": "0x1", "status_code": "ERROR", "status_message": "no order",
                 "attributes": {"mlflow.spanType": '"TOOL"', "mlflow.spanInputs": '{"order": 7}'}},
            ],
            "request": "{}",
            "response": "null",
        },
    }  # fmt: skip
    assert to_calls(trace) == [ToolCall("refund", {"order": 7}, failed=True, agent="triage")]


def test_mlflow_model_output_of_no_accepted_shape_is_no_answer() -> None:
    span = {
        "name": "ChatModel",
        "span_id": "s1",
        "parent_span_id": None,
        "status": {"code": "STATUS_CODE_OK"},
        "attributes": {
            "mlflow.spanType": '"CHAT_MODEL"',
            "mlflow.spanOutputs": '{"generations": [[{"text": "hi"}]]}',
        },
    }
    with pytest.raises(TypeError) as raised:
        to_calls([span])
    assert str(raised.value) == (
        "to_calls cannot read tool calls from the spans at input[0] (1 span): none is a tool "
        "span or a model span that records its answer (found 'ChatModel' (CHAT_MODEL, "
        "its output of no accepted shape)); pass the run's spans with its tool spans, or with "
        f"its model spans' output recorded; accepted shapes: {DOCS}"
    )


# --- Langfuse --------------------------------------------------------------------------------


def _observations() -> list[Any]:
    """A run as Langfuse's API returns its observations (``ObservationV2``)."""
    api = pytest.importorskip("langfuse.api")
    observation = partial(langfuse_observation, api)

    message = json.loads(_completion(None).content)["choices"][0]["message"]
    return [
        observation("o1", "AGENT", "triage", None),
        observation("o2", "GENERATION", "OpenAI-generation", "o1", output=message),
        observation("o3", "TOOL", "get_weather", "o1", input={"city": "Paris"}, output="sunny"),
        observation("o4", "TOOL", "refund", "o1", input={"order": 7}, level="ERROR",
                    status_message="LookupError: no order 7"),
    ]  # fmt: skip


LANGFUSE_DUMPS: dict[str, Callable[[list[Any]], object]] = {
    "objects": lambda observations: observations,
    "model_dump": lambda observations: [o.model_dump() for o in observations],
    "json_by_alias": lambda observations: [
        o.model_dump(mode="json", by_alias=True) for o in observations
    ],
    "page": lambda observations: pytest.importorskip("langfuse.api").ObservationsV2Response(
        data=observations, meta={"cursor": None}
    ),
}


@pytest.mark.parametrize("dump", sorted(LANGFUSE_DUMPS))
def test_langfuse_observations(dump: str) -> None:
    calls = to_calls(LANGFUSE_DUMPS[dump](_observations()))
    assert calls == [
        ToolCall("get_weather", {"city": "Paris"}, "call_1", result="sunny", agent="triage"),
        ToolCall("refund", {"order": 7}, "call_2", failed=True, agent="triage"),
    ]


# --- OpenTelemetry GenAI ---------------------------------------------------------------------


def _otlp_span(name: str, *attributes: tuple[str, dict[str, Any]]) -> dict[str, Any]:
    return {"name": name, "attributes": [{"key": k, "value": v} for k, v in attributes]}


def test_otlp_json_values_of_every_kind_are_read_as_plain_values() -> None:
    """Before, structured arguments (kvlistValue, as the GenAI conventions recommend) read
    as {}."""
    arguments = {
        "kvlistValue": {
            "values": [
                {"key": "city", "value": {"stringValue": "Paris"}},
                {"key": "days", "value": {"intValue": "3"}},
                {"key": "ratio", "value": {"doubleValue": 0.5}},
                {"key": "metric", "value": {"boolValue": True}},
                {"key": "raw", "value": {"bytesValue": base64.b64encode(b"\x00\x01").decode()}},
                {"key": "tags", "value": {"arrayValue": {"values": [
                    {"stringValue": "a"},
                    {"kvlistValue": {"values": [{"key": "k", "value": {"intValue": "1"}}]}},
                ]}}},
                {"key": "empty", "value": {}},
            ]
        }
    }  # fmt: skip
    span = _otlp_span(
        "execute_tool get_weather",
        ("gen_ai.operation.name", {"stringValue": "execute_tool"}),
        ("gen_ai.tool.name", {"stringValue": "get_weather"}),
        ("gen_ai.tool.call.arguments", arguments),
    )
    export = {"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]}
    assert to_calls(export) == [
        ToolCall(
            "get_weather",
            {"city": "Paris", "days": 3, "ratio": 0.5, "metric": True, "raw": b"\x00\x01",
             "tags": ["a", {"k": 1}], "empty": None},
        )
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"intValue": "three"}, "must be an integer, got 'three' (str)"),
        ({"bytesValue": "not base64!"}, "must be base64 text, got 'not base64!' (str)"),
        ({"arrayValue": {"values": 3}}, "arrayValue.values must be a list, got 3 (int)"),
    ],
)
def test_malformed_otlp_values_raise_naming_their_place(value: object, message: str) -> None:
    span = _otlp_span("execute_tool x", ("gen_ai.tool.name", {"stringValue": "x"}), ("v", value))
    with pytest.raises(TypeError) as raised:
        to_calls([span])
    assert str(raised.value).startswith("input[0].attributes[1].value")
    assert str(raised.value).endswith(message)


def test_values_nested_past_the_limit_raise_even_when_they_contain_themselves() -> None:
    deep: dict[str, Any] = {"stringValue": "x"}
    for _ in range(120):
        deep = {"arrayValue": {"values": [deep]}}
    span = _otlp_span("execute_tool x", ("gen_ai.tool.name", {"stringValue": "x"}), ("v", deep))
    with pytest.raises(TypeError, match=r"nested too deeply: more than 100 mappings and lists"):
        to_calls([span])
    looped: dict[str, Any] = {"kind": "LLM"}
    looped["self"] = looped
    span = {"name": "llm", "attributes": {"openinference.span.kind": "LLM", "x": looped}}
    with pytest.raises(TypeError, match=r"^input\[0\]\.attributes: nested too deeply"):
        to_calls([span])


def test_spans_whose_parents_loop_or_whose_ids_are_no_ids_name_no_agent() -> None:
    spans = [
        {"name": "a", "context": {"span_id": "1"}, "parent_id": "2", "attributes": {}},
        {"name": "b", "context": {"span_id": "2"}, "parent_id": "1",
         "attributes": {"gen_ai.tool.name": "search"}},
        {"name": "c", "context": {"span_id": ["3"]}, "parent_id": {"x": 1},
         "attributes": {"gen_ai.tool.name": "lookup"}},
    ]  # fmt: skip
    assert to_calls(spans) == [ToolCall("search", {}), ToolCall("lookup", {})]


def test_gen_ai_agent_name_is_the_agent_of_a_tool_span_and_of_its_children() -> None:
    agent = {
        "name": "invoke_agent triage",
        "context": {"span_id": "0x1"},
        "parent_id": None,
        "attributes": {"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "triage"},
    }
    inner = {
        "name": "execute_tool search",
        "context": {"span_id": "0x2"},
        "parent_id": "0x1",
        "attributes": {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search"},
    }
    own = {
        "name": "execute_tool refund",
        "attributes": {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "refund",
            "gen_ai.agent.name": "billing",
        },
    }
    assert to_calls([agent, inner, own]) == [
        ToolCall("search", {}, agent="triage"),
        ToolCall("refund", {}, agent="billing"),
    ]


def test_gen_ai_chat_spans_output_messages_merge_with_their_tool_spans() -> None:
    output = [
        {
            "role": "assistant",
            "parts": [{"type": "tool_call", "id": "c1", "name": "search", "arguments": {"q": 1}}],
        }
    ]
    chat = {
        "name": "chat gpt-4.1",
        "attributes": {"gen_ai.operation.name": "chat",
                       "gen_ai.output.messages": json.dumps(output)},
    }  # fmt: skip
    tool = {
        "name": "execute_tool search",
        "status": {"status_code": "OK"},
        "attributes": {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search",
                       "gen_ai.tool.call.id": "c1", "gen_ai.tool.call.result": "3 hits"},
    }  # fmt: skip
    expected = [ToolCall("search", {"q": 1}, "c1", result="3 hits", failed=False)]
    assert to_calls([chat, tool]) == expected
    assert to_calls([tool, chat]) == expected  # the first span that names it gives its place
    text_only = dict(chat, attributes={"gen_ai.operation.name": "chat",
                                       "gen_ai.output.messages": "[]"})  # fmt: skip
    assert to_calls([text_only]) == []  # the model answered, and asked for nothing


def test_server_tool_call_parts_are_calls_with_their_responses() -> None:
    message = {
        "role": "assistant",
        "parts": [
            {"type": "server_tool_call", "id": "s1", "name": "web_search",
             "server_tool_call": {"type": "web_search", "query": "paris weather"}},
            {"type": "server_tool_call_response", "id": "s1",
             "server_tool_call_response": {"type": "web_search", "results": ["sunny"]}},
            {"type": "text", "content": "Sunny."},
        ],
    }  # fmt: skip
    assert to_calls(message) == [
        ToolCall("web_search", {"type": "web_search", "query": "paris weather"}, "s1",
                 result={"type": "web_search", "results": ["sunny"]}),
    ]  # fmt: skip
    assert ExpectedTool.never("web_search") != message


# --- never [] for spans that record nothing --------------------------------------------------


@pytest.mark.parametrize(
    ("spans", "found"),
    [
        (
            [{"name": "GET /", "attributes": {"http.method": "GET"}},
             {"name": "GET /", "attributes": {"http.method": "GET"}}],
            "(2 spans): none is a tool span or a model span that records its answer "
            "(found 'GET /' x2)",
        ),
        (
            [{"name": "chat", "attributes": {"gen_ai.operation.name": "chat",
                                             "gen_ai.tool.name": "x"}}],
            "(1 span): none is a tool span or a model span that records its answer "
            "(found 'chat' (chat, without gen_ai.output.messages))",
        ),
        (
            [{"name": "agent", "attributes": {"openinference.span.kind": "AGENT"}},
             {"name": "llm", "attributes": {"openinference.span.kind": "LLM"}}],
            "(2 spans): none is a tool span or a model span that records its answer "
            "(found 'agent' (AGENT), 'llm' (LLM, without llm.output_messages))",
        ),
        (
            [{"name": "root", "span_id": "a", "attributes": {"mlflow.spanType": '"AGENT"'}}],
            "(1 span): none is a tool span or a model span that records its answer "
            "(found 'root' (AGENT))",
        ),
        (
            [{"id": "o1", "type": "SPAN", "name": "root"}, {"id": "o2", "type": "EVENT"}],
            "(2 spans): none is a tool span or a model span that records its answer "
            "(found 'root' (SPAN), None (EVENT))",
        ),
    ],
)  # fmt: skip
def test_spans_that_record_no_call_and_no_answer_raise(spans: list[Any], found: str) -> None:
    """Before, each of these read as [] and every never() passed on them."""
    with pytest.raises(TypeError) as raised:
        to_calls(spans)
    assert str(raised.value) == (
        f"to_calls cannot read tool calls from the spans at input[0] {found}; pass the run's "
        "spans with its tool spans, or with its model spans' output recorded; accepted "
        f"shapes: {DOCS}"
    )
    assert ExpectedTool.never("refund") != spans


def test_an_otlp_export_without_spans_raises() -> None:
    with pytest.raises(TypeError) as raised:
        to_calls({"resourceSpans": []})
    assert str(raised.value).startswith(
        "to_calls cannot read tool calls from the spans at input (0 spans): none is a tool "
        "span or a model span that records its answer (found no span);"
    )


def test_the_error_names_five_kinds_of_spans_and_counts_the_rest() -> None:
    spans = [{"name": f"s{i}", "attributes": {}} for i in range(7)]
    with pytest.raises(TypeError, match=r"\(found 's0', 's1', 's2', 's3', 's4' and 2 more\)"):
        to_calls(spans)


# --- one call from the model span that asked for it and the tool span that ran it -----------


def _llm(span_id: str, *calls: tuple[str, str, str]) -> dict[str, Any]:
    prefix = "llm.output_messages.0.message.tool_calls"
    attributes: dict[str, Any] = {"openinference.span.kind": "LLM"}
    for index, (call_id, name, arguments) in enumerate(calls):
        attributes[f"{prefix}.{index}.tool_call.id"] = call_id
        attributes[f"{prefix}.{index}.tool_call.function.name"] = name
        attributes[f"{prefix}.{index}.tool_call.function.arguments"] = arguments
    return {"name": "llm", "context": {"span_id": span_id}, "attributes": attributes}


def _tool(name: str, arguments: str, result: str, **attributes: Any) -> dict[str, Any]:
    """A tool span as Phoenix's span JSON writes it (its status a top-level status_code)."""
    return {
        "name": name,
        "status_code": "OK",
        "attributes": {"openinference.span.kind": "TOOL", "tool.name": name,
                       "input.value": arguments, "output.value": result, **attributes},
    }  # fmt: skip


def test_a_tool_span_with_the_call_id_is_that_call_with_the_arguments_it_ran() -> None:
    spans = [
        _llm("s1", ("c1", "search", '{"q": "paris"}'), ("c2", "search", '{"q": "rome"}')),
        # ran second first, with its id; its input is not JSON (a framework's repr): the
        # model's arguments stand
        _tool("search", "{'q': 'rome'}", "rome hits", **{"tool_call.id": "c2"}),
        _tool("search", '{"q": "paris", "limit": 3}', "paris hits", **{"tool_call.id": "c1"}),
    ]
    assert to_calls(spans) == [
        ToolCall("search", {"q": "paris", "limit": 3}, "c1", result="paris hits", failed=False),
        ToolCall("search", {"q": "rome"}, "c2", result="rome hits", failed=False),
    ]


def test_a_tool_span_whose_arguments_cannot_be_read_is_the_call_of_its_name() -> None:
    spans = [
        _llm("s1", ("c1", "lookup", '{"id": 1}'), ("c2", "search", '{"q": "rome"}')),
        _tool("search", "{'q': 'rome'}", "rome hits"),  # Python text, no id
    ]
    assert to_calls(spans) == [
        ToolCall("lookup", {"id": 1}, "c1"),
        ToolCall("search", {"q": "rome"}, "c2", result="rome hits", failed=False),
    ]


def test_same_calls_pair_in_order_and_unrun_or_unasked_calls_stay() -> None:
    spans = [
        _llm("s1", ("c1", "search", '{"q": "x"}'), ("c2", "search", '{"q": "x"}'),
             ("c3", "refund", '{"order": 7}')),
        _tool("search", '{"q": "x"}', "first"),
        _tool("search", '{"q": "x"}', "second"),
        _tool("lookup", '{"id": 1}', "found"),
    ]  # fmt: skip
    assert to_calls(spans) == [
        ToolCall("search", {"q": "x"}, "c1", result="first", failed=False),
        ToolCall("search", {"q": "x"}, "c2", result="second", failed=False),
        ToolCall("refund", {"order": 7}, "c3"),  # asked, never run
        ToolCall("lookup", {"id": 1}, result="found", failed=False),  # run, never asked
    ]
