"""Trace stores and span conventions: OpenInference (Phoenix), MLflow, Langfuse and
OpenTelemetry GenAI spans read as calls, built by the SDKs themselves where they install,
and span lists that record no call never read as ``[]``."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from toolmatch import ExpectedTool, ToolCall, to_calls

DOCS = "https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md#accepted-shapes"

# What each store's run reads as, handed over whole, in every way its library gives it:
# tests/test_reading_matrix.py. Here: parts of a run, and rules the matrix does not reach.

# --- OpenInference (Phoenix) ---------------------------------------------------------------


@pytest.fixture(scope="module")
def openinference_spans() -> list[Any]:
    """The stores' run traced by OpenInference (``trace_store_runs``)."""
    pytest.importorskip("openinference.instrumentation.openai")
    pytest.importorskip("opentelemetry.sdk.trace")
    from trace_store_runs import openinference_spans

    return openinference_spans()


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
def mlflow_trace() -> Any:
    """The stores' run traced by MLflow into a local sqlite store (``trace_store_runs``)."""
    pytest.importorskip("mlflow.openai")
    pytest.importorskip("alembic")  # MLflow's sqlite store
    from trace_store_runs import mlflow_run

    return mlflow_run()[0]


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


def test_a_phoenix_dataframe_with_nan_for_missing_attributes_reads_the_same() -> None:
    """Phoenix's spans dataframe holds NaN where a span has no such attribute (a tool span
    has no ``attributes.llm``), where its records' JSON holds null."""
    pandas = pytest.importorskip("pandas")
    from phoenix_run import DATA

    records = json.loads((DATA / "spans_dataframe.json").read_text(encoding="utf-8"))
    present = [{key: value for key, value in row.items() if value is not None} for row in records]
    frame = pandas.DataFrame(present)
    assert frame["attributes.llm"].isna().sum() == 3  # the agent's and the tools' rows
    assert to_calls(frame) == [
        ToolCall("get_weather", {"city": "Paris"}, "call_1", result="sunny", failed=False,
                 agent="triage"),
        ToolCall("refund", {"order": 7}, "call_2", failed=True, agent="triage"),
    ]  # fmt: skip
