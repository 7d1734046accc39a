"""Trace stores and span conventions: OpenInference (Phoenix), MLflow, Langfuse and
OpenTelemetry GenAI spans read as calls, built by the SDKs themselves where they install,
and span lists that record no call never read as ``[]``."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest

from toolmatch import ExpectedTool, ToolCall, check_turn, to_calls

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


# --- call order: the spans' start times, whatever order the spans come in --------------------


def _concurrent_tool_spans() -> list[Any]:
    """Two tool spans the OpenTelemetry SDK made with explicit times, the way concurrent
    tools run: search starts first and ends last, so an exporter (which hands spans over as
    they end) gives lookup's span first."""
    pytest.importorskip("opentelemetry.sdk.trace")
    from trace_store_runs import memory_exporter

    provider, exporter = memory_exporter()
    tracer = provider.get_tracer("agent")
    ms = 1_000_000
    base = 1_796_000_000_000 * ms

    def tool(name: str, call_id: str, args: dict[str, Any]) -> dict[str, str]:
        return {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": name,
            "gen_ai.tool.call.id": call_id,
            "gen_ai.tool.call.arguments": json.dumps(args),
            "gen_ai.tool.call.result": f"{name} done",
        }

    search = tracer.start_span("execute_tool search", start_time=base + 1 * ms,
                               attributes=tool("search", "c1", {"q": "paris"}))  # fmt: skip
    lookup = tracer.start_span("execute_tool lookup", start_time=base + 2 * ms,
                               attributes=tool("lookup", "c2", {"id": 1}))  # fmt: skip
    lookup.end(end_time=base + 3 * ms)
    search.end(end_time=base + 5 * ms)
    spans = list(exporter.get_finished_spans())
    assert [span.name for span in spans] == ["execute_tool lookup", "execute_tool search"]
    return spans


CONCURRENT_CALLS = [
    ToolCall("search", {"q": "paris"}, "c1", result="search done"),
    ToolCall("lookup", {"id": 1}, "c2", result="lookup done"),
]


def test_concurrent_tool_spans_read_in_the_order_they_started_every_way() -> None:
    from trace_store_runs import otlp_json

    spans = _concurrent_tool_spans()
    dumps = [json.loads(span.to_json()) for span in spans]
    for way in (
        spans,
        dumps,
        json.dumps(dumps),
        otlp_json(spans),
        json.dumps(otlp_json(spans)),
        [otlp_json([span]) for span in spans],
        otlp_json(spans, preserving_proto_field_name=True),
    ):
        assert to_calls(way) == CONCURRENT_CALLS
    # an `ordered` check reads the run's order: the order the exporter ended them is not it
    search, lookup = ExpectedTool("search"), ExpectedTool("lookup")
    assert check_turn([search, lookup], spans, ordered=True).passed
    assert not check_turn([lookup, search], spans, ordered=True).passed


def _timed(span: dict[str, Any], key: str, start: object) -> dict[str, Any]:
    return {**span, key: start}


@pytest.mark.parametrize(
    ("key", "first", "second"),
    [
        ("startTimeUnixNano", "1796000000002000000", "1796000000001000000"),  # OTLP JSON
        ("start_time_unix_nano", 1796000000002000000, 1796000000001000000),  # MLflow 3
        ("start_time", 1796000000002000000, 1796000000001000000),  # MLflow 2, SDK objects
        ("start_time", "2026-12-07T06:52:14.002+00:00", "2026-12-07T06:52:14.001+00:00"),
        ("start_time", "2026-12-07T06:52:14.002Z", "2026-12-07T06:52:14.001Z"),  # Phoenix's
        ("startTime", "2026-12-07T06:52:14.002Z", "2026-12-07T06:52:14.001Z"),  # Langfuse
    ],
)
def test_calls_are_ordered_by_their_spans_start_time_in_every_form(
    key: str, first: object, second: object
) -> None:
    spans = [
        _timed(_tool("lookup", '{"id": 1}', "found"), key, first),
        _timed(_tool("search", '{"q": "x"}', "hits"), key, second),
    ]
    assert [call.name for call in to_calls(spans)] == ["search", "lookup"]


def test_datetimes_order_calls_as_their_iso_text_does() -> None:
    from datetime import datetime, timezone

    later = datetime(2026, 12, 7, 6, 52, 14, 2000, tzinfo=timezone.utc)
    earlier = datetime(2026, 12, 7, 6, 52, 14, 1000, tzinfo=timezone.utc)
    spans = [
        _timed(_tool("lookup", '{"id": 1}', "found"), "start_time", later),
        _timed(_tool("search", '{"q": "x"}', "hits"), "start_time", earlier),
    ]
    assert [call.name for call in to_calls(spans)] == ["search", "lookup"]


def test_calls_that_start_together_keep_the_order_their_model_asked_for_them() -> None:
    """Phoenix keeps times in milliseconds: two tools run in one millisecond tie, and a
    list newest first gives the second first; the model span that asked says which."""
    at = "2026-12-07T06:52:14.987Z"
    spans = [
        _timed(_tool("refund", '{"order": 7}', "refunded", **{"tool_call.id": "c2"}),
               "start_time", at),
        _timed(_tool("search", '{"q": "x"}', "hits", **{"tool_call.id": "c1"}),
               "start_time", at),
        _timed(_llm("s1", ("c1", "search", '{"q": "x"}'), ("c2", "refund", '{"order": 7}')),
               "start_time", "2026-12-07T06:52:14.972Z"),
    ]  # fmt: skip
    assert [call.name for call in to_calls(spans)] == ["search", "refund"]
    # tool spans alone that start together keep the order they were given
    assert [call.name for call in to_calls(spans[:2])] == ["refund", "search"]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("2026-12-07T06:52:14.002Z", None),  # the second records none
        ("2026-12-07T06:52:14.002Z", "yesterday"),  # no time text
        ("2026-12-07T06:52:14.002Z", 1796000000001000000),  # two forms in one input
        ("2026-12-07T06:52:14.002Z", "2026-12-07T06:52:14.001"),  # with and without a zone
        (True, False),  # a flag is no time
    ],
)
def test_where_a_calls_span_records_no_start_time_the_given_order_stays(
    first: object, second: object
) -> None:
    spans = [
        _timed(_tool("lookup", '{"id": 1}', "found"), "start_time", first),
        _tool("search", '{"q": "x"}', "hits"),
    ]
    if second is not None:
        spans[1] = _timed(spans[1], "start_time", second)
    assert [call.name for call in to_calls(spans)] == ["lookup", "search"]


def test_spans_that_give_no_call_need_no_start_time() -> None:
    spans = [
        {"name": "triage", "attributes": {"openinference.span.kind": "AGENT"}},
        _timed(_tool("lookup", '{"id": 1}', "found"), "start_time", "2026-12-07T06:52:14.002Z"),
        _timed(_tool("search", '{"q": "x"}', "hits"), "start_time", "2026-12-07T06:52:14.001Z"),
    ]
    assert [call.name for call in to_calls(spans)] == ["search", "lookup"]


def test_calls_of_other_inputs_beside_spans_keep_their_places() -> None:
    message = {
        "role": "assistant",
        "tool_calls": [
            {"id": "m1", "type": "function", "function": {"name": "plan", "arguments": "{}"}}
        ],
    }
    spans = [
        _timed(_tool("lookup", '{"id": 1}', "found"), "start_time", "2026-12-07T06:52:14.002Z"),
        message,
        _timed(_tool("search", '{"q": "x"}', "hits"), "start_time", "2026-12-07T06:52:14.001Z"),
    ]  # fmt: skip
    assert [call.name for call in to_calls(spans)] == ["search", "plan", "lookup"]


def test_calls_that_start_together_otherwise_keep_the_order_given() -> None:
    """A tool span no model span asked for, between two calls of one model span, all in
    one millisecond: the model's calls take their order, the other call keeps its place."""
    at = "2026-12-07T06:52:14.987Z"
    spans = [
        _timed(_tool("refund", '{"order": 7}', "refunded", **{"tool_call.id": "c2"}),
               "start_time", at),
        _timed(_tool("lookup", '{"id": 1}', "found"), "start_time", at),
        _timed(_tool("search", '{"q": "x"}', "hits", **{"tool_call.id": "c1"}),
               "start_time", at),
        _timed(_llm("s1", ("c1", "search", '{"q": "x"}'), ("c2", "refund", '{"order": 7}')),
               "start_time", at),
    ]  # fmt: skip
    assert [call.name for call in to_calls(spans)] == ["search", "lookup", "refund"]


def test_same_calls_without_ids_pair_in_the_order_they_started_whatever_the_order_given() -> None:
    """Two identical calls, their tool spans without ids (OpenInference's tool decorator
    records none), newest first: each pairs with the call asked for at its place in time."""
    spans = [
        _timed(_tool("search", '{"q": "x"}', "second"), "start_time", "2026-12-07T06:52:14.003Z"),
        _timed(_tool("search", '{"q": "x"}', "first"), "start_time", "2026-12-07T06:52:14.002Z"),
        _timed(_llm("s1", ("c1", "search", '{"q": "x"}'), ("c2", "search", '{"q": "x"}')),
               "start_time", "2026-12-07T06:52:14.001Z"),
    ]  # fmt: skip
    assert to_calls(spans) == [
        ToolCall("search", {"q": "x"}, "c1", result="first", failed=False),
        ToolCall("search", {"q": "x"}, "c2", result="second", failed=False),
    ]


def test_a_pairing_in_time_order_that_makes_another_number_of_calls_keeps_the_one_read() -> None:
    """Ids on one side only make the pairing depend on its order: read as given, three
    calls; in time order, two. The places reserved as read are three, so the pairing as read
    stays, its calls ordered by time."""
    spans = [
        _timed(_llm("s1", ("c1", "search", '{"q": "x"}')), "start_time", "2026-12-07T06:52:14.003Z"),
        _timed(_llm("s2", ("c2", "search", '{"q": "x"}')), "start_time", "2026-12-07T06:52:14.004Z"),
        _timed(_tool("search", '{"q": "x"}', "no id"), "start_time", "2026-12-07T06:52:14.002Z"),
        _timed(_tool("search", '{"q": "x"}', "c1's", **{"tool_call.id": "c1"}),
               "start_time", "2026-12-07T06:52:14.001Z"),
    ]  # fmt: skip
    assert to_calls(spans) == [
        ToolCall("search", {"q": "x"}, "c1", result="c1's", failed=False),
        ToolCall("search", {"q": "x"}, "c1", result="no id", failed=False),
        ToolCall("search", {"q": "x"}, "c2"),
    ]


def test_the_stores_runs_spans_newest_first_read_the_runs_calls(
    openinference_spans: list[Any], mlflow_trace: Any
) -> None:
    """The SDKs' own spans of the stores' run, handed over newest first (as a store lists
    them): the same calls as in the order the exporter gave them."""
    from trace_store_runs import STORE_CALLS, genai_spans

    def newest_first(spans: list[Any], start: str = "start_time") -> list[Any]:
        return sorted(spans, key=lambda span: getattr(span, start), reverse=True)

    assert to_calls(newest_first(openinference_spans)) == STORE_CALLS
    mlflow_spans = newest_first(list(mlflow_trace.data.spans), "start_time_ns")
    assert to_calls(mlflow_spans) == STORE_CALLS
    genai = genai_spans()
    assert to_calls(newest_first(genai)) == to_calls(genai)


def test_langfuse_observations_newest_first_read_in_their_start_order() -> None:
    pytest.importorskip("langfuse.api")
    from datetime import datetime, timezone

    from langfuse.api import ObservationV2

    def tool(id_: str, name: str, second: int) -> Any:
        start = datetime(2026, 1, 1, 0, 0, second, tzinfo=timezone.utc)
        return ObservationV2(id=id_, trace_id="t1", project_id="p1", start_time=start,
                             type="TOOL", name=name, input={}, output="done")  # fmt: skip

    observations = [tool("o2", "refund", 2), tool("o1", "search", 1)]
    as_json = [item.model_dump(mode="json", by_alias=True) for item in observations]
    for way in (observations, as_json, json.dumps(as_json)):
        assert [call.name for call in to_calls(way)] == ["search", "refund"]


def test_a_dataframe_whose_start_time_is_missing_keeps_the_order_given() -> None:
    """pandas writes a missing time as ``NaT``, which compares with no time: no order."""
    pandas = pytest.importorskip("pandas")
    rows = [
        {"name": "lookup", "span_kind": "TOOL", "start_time": pandas.Timestamp("2026-12-07T06:52:14.002Z"),
         "attributes.openinference.span.kind": "TOOL", "attributes.input.value": '{"id": 1}'},
        {"name": "search", "span_kind": "TOOL", "start_time": pandas.NaT,
         "attributes.openinference.span.kind": "TOOL", "attributes.input.value": '{"q": "x"}'},
        {"name": "plan", "span_kind": "TOOL", "start_time": pandas.Timestamp("2026-12-07T06:52:14.001Z"),
         "attributes.openinference.span.kind": "TOOL", "attributes.input.value": "{}"},
    ]  # fmt: skip
    frame = pandas.DataFrame(rows)
    assert [call.name for call in to_calls(frame)] == ["lookup", "search", "plan"]
    frame.loc[1, "start_time"] = pandas.Timestamp("2026-12-07T06:52:14.003Z")
    assert [call.name for call in to_calls(frame)] == ["plan", "lookup", "search"]
