"""Tool results: ``ToolCall.result`` / ``failed``, paired with their calls by id, in every
format that records them, with the SDKs' own objects where they are installed."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from toolmatch import ToolCall, to_calls

# --- the fields -------------------------------------------------------------------------


def test_repr_shows_the_fields_after_args_only_when_set() -> None:
    assert (
        repr(ToolCall("search", {"q": "paris"})) == "ToolCall(name='search', args={'q': 'paris'})"
    )
    assert repr(ToolCall("search", {}, id="call_1", result="ok", failed=False)) == (
        "ToolCall(name='search', args={}, id='call_1', result='ok', failed=False)"
    )
    assert repr(ToolCall("s", parse_error="bad", failed=True)) == (
        "ToolCall(name='s', args={}, parse_error='bad', failed=True)"
    )


def test_result_and_failed_are_compared_dumped_and_pickled() -> None:
    call = ToolCall("search", {"q": "paris"}, "call_1", result=[{"text": "sunny"}], failed=False)
    assert call != ToolCall("search", {"q": "paris"}, "call_1")
    assert call != ToolCall("search", {"q": "paris"}, "call_1", result=[{"text": "sunny"}])
    assert call == ToolCall("search", {"q": "paris"}, "call_1", None, [{"text": "sunny"}], False)
    assert call.as_dict() == {
        "name": "search",
        "args": {"q": "paris"},
        "id": "call_1",
        "parse_error": None,
        "result": [{"text": "sunny"}],
        "failed": False,
    }
    assert list(call.as_dict()) == ["name", "args", "id", "parse_error", "result", "failed"]
    assert pickle.loads(pickle.dumps(call)) == call
    with pytest.raises(AttributeError, match="immutable"):
        call.result = "x"  # type: ignore[misc]


def test_failed_must_be_a_bool_or_none() -> None:
    with pytest.raises(TypeError, match="ToolCall failed must be a bool or None, got 'yes'"):
        ToolCall("search", failed="yes")  # type: ignore[arg-type]


# --- pairing ----------------------------------------------------------------------------


def _call(call_id: str, name: str = "search") -> dict[str, Any]:
    return {"type": "tool_use", "id": call_id, "name": name, "input": {}}


def _answer(call_id: str, content: object, **extra: object) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": call_id, "content": content, **extra}


def test_a_result_whose_call_is_not_in_the_trace_is_ignored() -> None:
    trace = [_answer("elsewhere", "ok"), _call("toolu_1")]
    assert to_calls(trace) == [ToolCall("search", {}, "toolu_1")]
    assert to_calls([_answer("toolu_1", "ok")]) == []


def test_results_pair_by_id_wherever_they_are_and_each_once() -> None:
    trace = [
        _answer("toolu_2", "second"),
        _call("toolu_1"),
        _call("toolu_2"),
        _answer("toolu_1", "first"),
        _answer("toolu_1", "again"),  # a second answer for the same call is not its result
    ]
    first, second = to_calls(trace)
    assert (first.result, second.result) == ("first", "second")


def test_calls_of_one_id_take_its_results_in_order() -> None:
    trace = [_call("c"), _call("c"), _answer("c", "one"), _answer("c", "two")]
    assert [call.result for call in to_calls(trace)] == ["one", "two"]


def test_a_reused_id_is_answered_by_the_answer_after_each_call() -> None:
    # tau-bench runs reuse call ids, each call answered by its own message right after: an
    # answer goes to a call of its id made before it, never to a later call.
    trace = [_call("c"), _answer("c", "one"), _answer("c", "one, again"), _call("c")]
    trace += [_answer("c", "two")]
    assert [call.result for call in to_calls(trace)] == ["one", "two"]


def test_a_call_left_unanswered_does_not_shift_the_later_answers() -> None:
    # Calls of one id made since its last answer wait together; a later call of that id
    # starts afresh, so one unanswered call costs its own answer, not every later one.
    trace = [_call("c"), _call("c"), _answer("c", "one"), _call("c"), _answer("c", "two")]
    assert [call.result for call in to_calls(trace)] == ["one", None, "two"]


def test_a_call_without_an_id_gets_no_result() -> None:
    trace = [{"name": "search", "args": {}}, {"role": "tool", "tool_call_id": None, "content": "x"}]
    assert to_calls(trace) == [ToolCall("search", {})]


# --- each format -------------------------------------------------------------------------


def test_openai_chat_tool_messages() -> None:
    chat = pytest.importorskip("openai.types.chat")
    message = chat.ChatCompletionMessage.model_validate(
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "search", "arguments": '{"q": "paris"}'},
                }
            ],
        }
    )
    tool: dict[str, Any] = {"role": "tool", "tool_call_id": "call_1", "content": '{"hits": 3}'}
    (call,) = to_calls([message, tool])
    # JSON text stays the text; OpenAI does not say whether the tool failed.
    assert (call.result, call.failed) == ('{"hits": 3}', None)


def test_openai_responses_function_call_output() -> None:
    responses = pytest.importorskip("openai.types.responses")
    item = responses.ResponseFunctionToolCall(
        type="function_call", call_id="call_1", name="search", arguments='{"q": "paris"}', id="fc_1"
    )
    output = {"type": "function_call_output", "call_id": "call_1", "output": "3 hits"}
    assert to_calls([item, output]) == [
        ToolCall("search", {"q": "paris"}, "call_1", result="3 hits")
    ]


def test_openai_responses_mcp_call_carries_its_output_or_error() -> None:
    done = {"type": "mcp_call", "id": "mcp_1", "name": "search", "arguments": "{}", "output": "ok"}
    broken = dict(done, id="mcp_2", output=None, error="server down")
    running = dict(done, id="mcp_3", output=None)
    calls = to_calls({"object": "response", "output": [done, broken, running]})
    assert [(call.result, call.failed) for call in calls] == [
        ("ok", False),
        ("server down", True),
        (None, None),
    ]


def test_anthropic_tool_results_and_is_error() -> None:
    types = pytest.importorskip("anthropic.types")
    message = types.Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-test",
            "content": [_call("toolu_1", "write"), _call("toolu_2", "read")],
            "stop_reason": "tool_use",
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )
    answers = {
        "role": "user",
        "content": [
            _answer("toolu_1", "disk full", is_error=True),
            _answer("toolu_2", [{"type": "text", "text": "hello"}]),
        ],
    }
    written, read = to_calls([message, answers])
    assert (written.result, written.failed) == ("disk full", True)
    # No is_error: a success, as the API reads it.
    assert (read.result, read.failed) == ([{"type": "text", "text": "hello"}], False)


def test_anthropic_server_tool_results() -> None:
    search = {"type": "server_tool_use", "id": "srv_1", "name": "web_search", "input": {"q": "x"}}
    error = {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}
    result = {"type": "web_search_tool_result", "tool_use_id": "srv_1", "content": error}
    (call,) = to_calls({"role": "assistant", "content": [search, result]})
    assert (call.result, call.failed) == (error, True)
    ok = dict(result, content=[{"type": "web_search_result", "url": "https://x"}])
    (call,) = to_calls({"role": "assistant", "content": [search, ok]})
    assert call.failed is False


def test_gemini_function_responses() -> None:
    types = pytest.importorskip("google.genai.types")
    model = types.Content(
        role="model",
        parts=[
            types.Part(function_call=types.FunctionCall(id="fc_1", name="book", args={"n": 1})),
            types.Part(function_call=types.FunctionCall(id="fc_2", name="pay", args={})),
            types.Part(function_call=types.FunctionCall(id="fc_3", name="log", args={})),
        ],
    )
    user = types.Content(
        role="user",
        parts=[
            types.Part(
                function_response=types.FunctionResponse(
                    id="fc_1", name="book", response={"output": "booked"}
                )
            ),
            types.Part(
                function_response=types.FunctionResponse(
                    id="fc_2", name="pay", response={"error": "card declined"}
                )
            ),
            types.Part(
                function_response=types.FunctionResponse(id="fc_3", name="log", response={})
            ),
        ],
    )
    booked, paid, logged = to_calls([model, user])
    assert (booked.result, booked.failed) == ({"output": "booked"}, False)
    assert (paid.result, paid.failed) == ({"error": "card declined"}, True)
    assert (logged.result, logged.failed) == ({}, None)


def test_langchain_tool_messages_and_their_status() -> None:
    messages = pytest.importorskip("langchain_core.messages")
    ai = messages.AIMessage(
        content="",
        tool_calls=[
            {"name": "write", "args": {}, "id": "call_1"},
            {"name": "read", "args": {}, "id": "call_2"},
        ],
    )
    history = [
        ai,
        messages.ToolMessage("permission denied", tool_call_id="call_1", status="error"),
        messages.ToolMessage("hello", tool_call_id="call_2"),
    ]
    written, read = to_calls(history)
    assert (written.result, written.failed) == ("permission denied", True)
    assert (read.result, read.failed) == ("hello", False)
    dicts = messages.messages_to_dict(history)
    assert to_calls(dicts) == [written, read]


def test_langchain_tool_messages_dumped_without_their_defaults_keep_a_failure() -> None:
    # exclude_defaults drops type "tool" (and status "success"): the message reads as a
    # chat message of its tool_call_id, whose status still says it failed.
    messages = pytest.importorskip("langchain_core.messages")
    ai = messages.AIMessage(content="", tool_calls=[{"name": "write", "args": {}, "id": "c1"}])
    denied = messages.ToolMessage("denied", tool_call_id="c1", status="error")
    (call,) = to_calls([ai, denied.model_dump(exclude_defaults=True)])
    assert (call.result, call.failed) == ("denied", True)


def test_langchain_serialized_messages() -> None:
    # langchain_core.load's dumpd / dumps: {"lc": 1, "type": "constructor", "kwargs": ...}.
    messages = pytest.importorskip("langchain_core.messages")
    load = pytest.importorskip("langchain_core.load")
    history = [
        messages.HumanMessage("save it"),
        messages.AIMessage(content="", tool_calls=[{"name": "write", "args": {}, "id": "c1"}]),
        messages.ToolMessage("denied", tool_call_id="c1", status="error"),
    ]
    expected = [ToolCall("write", {}, "c1", result="denied", failed=True)]
    assert to_calls([load.dumpd(message) for message in history]) == expected
    assert to_calls(json.loads(load.dumps(history))) == expected


def test_a_constructor_that_is_not_langchains_is_refused() -> None:
    with pytest.raises(TypeError) as raised:
        to_calls({"type": "constructor", "kwargs": {}})
    assert str(raised.value) == (
        "to_calls cannot read tool calls from input: {'type': 'constructor', 'kwargs': {}} "
        "(dict); a 'constructor' is LangChain's serialization, with \"lc\": 1 and its "
        '"kwargs"; accepted shapes: '
        "https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md#accepted-shapes"
    )


def test_mcp_responses_to_tools_call() -> None:
    def request(request_id: int, name: str) -> dict[str, Any]:
        params = {"name": name, "arguments": {}}
        return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}

    content = [{"type": "text", "text": "no such file"}]
    transcript = [
        request(1, "read"),
        {"jsonrpc": "2.0", "id": 1, "result": {"content": content, "isError": True}},
        request(2, "write"),
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "crashed"}},
        request(3, "list"),
        {"jsonrpc": "2.0", "id": 3, "result": {"content": [], "structuredContent": {"n": 0}}},
        {"jsonrpc": "2.0", "id": 9, "result": {"tools": []}},  # a tools/list answer: no call
    ]
    read, written, listed = to_calls(transcript)
    assert (read.result, read.failed) == (content, True)
    assert (written.result, written.failed) == ({"code": -32603, "message": "crashed"}, True)
    assert (listed.result, listed.failed) == ([], False)


def test_mcp_sdk_result_objects() -> None:
    mcp_types = pytest.importorskip("mcp.types")
    result = mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text="ok")], isError=False
    )
    response = {"jsonrpc": "2.0", "id": 1, "result": result}
    request = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "x"}}
    (call,) = to_calls([request, response])
    assert call.failed is False
    assert call.result[0]["text"] == "ok"


@pytest.mark.parametrize(
    "dump",
    [
        lambda result: result,
        lambda result: result.model_dump(),
        lambda result: result.model_dump(by_alias=True),
        lambda result: result.model_dump(mode="json"),
        lambda result: result.model_dump(mode="json", by_alias=True),
    ],
    ids=["object", "model_dump", "by_alias", "json", "json_by_alias"],
)
@pytest.mark.parametrize("failed", [True, False])
def test_mcp_sdk_results_fail_in_every_dump(dump: Any, failed: bool) -> None:
    # mcp 2's model_dump() writes is_error, the field's name; by_alias=True writes isError.
    mcp_types = pytest.importorskip("mcp.types")
    result = mcp_types.CallToolResult(
        content=[mcp_types.TextContent(type="text", text="disk full")], isError=failed
    )
    request = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "save"}}
    (call,) = to_calls([request, {"jsonrpc": "2.0", "id": 7, "result": dump(result)}])
    assert call.failed is failed
    assert call.result[0]["text"] == "disk full"


def test_pydantic_ai_returns_and_retries() -> None:
    messages = pytest.importorskip("pydantic_ai.messages")
    response = messages.ModelResponse(
        parts=[
            messages.ToolCallPart("search", {"q": "paris"}, tool_call_id="call_1"),
            messages.ToolCallPart("book", {"n": "x"}, tool_call_id="call_2"),
        ]
    )
    request = messages.ModelRequest(
        parts=[
            messages.ToolReturnPart("search", {"hits": 3}, tool_call_id="call_1"),
            messages.ToolReturnPart(
                "book", "n must be an int", tool_call_id="call_2", outcome="retried"
            ),
        ]
    )
    searched, booked = to_calls([response, request])
    assert (searched.result, searched.failed) == ({"hits": 3}, False)
    assert (booked.result, booked.failed) == ("n must be an int", True)


def test_pydantic_ai_retry_prompt_parts_are_failures() -> None:
    messages = pytest.importorskip("pydantic_ai.messages")
    call = messages.ToolCallPart("book", {"n": "x"}, tool_call_id="call_2")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated in pydantic-ai 2, still in stored runs
        retry = messages.RetryPromptPart(
            "n must be an int", tool_name="book", tool_call_id="call_2"
        )
        final = messages.RetryPromptPart("answer in JSON")  # no tool: not a call's result
    (booked,) = to_calls(
        [messages.ModelResponse(parts=[call]), messages.ModelRequest(parts=[retry, final])]
    )
    assert (booked.result, booked.failed) == ("n must be an int", True)


def _span(status: object) -> dict[str, Any]:
    return {
        "name": "execute_tool search",
        "attributes": {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": "search",
            "gen_ai.tool.call.id": "call_1",
            "gen_ai.tool.call.arguments": '{"q": "paris"}',
            "gen_ai.tool.call.result": '{"hits": 0}',
        },
        "status": status,
    }


@pytest.mark.parametrize(
    ("status", "failed"),
    [
        ({"status_code": "ERROR", "description": "timeout"}, True),  # ReadableSpan.to_json()
        ({"code": 2, "message": "timeout"}, True),  # OTLP JSON
        ({"code": "STATUS_CODE_ERROR"}, True),
        ({"status_code": "OK"}, False),
        ({"code": 1}, False),
        ({"status_code": "UNSET"}, None),
        (None, None),
        (SimpleNamespace(status_code=SimpleNamespace(name="ERROR")), True),
    ],
)
def test_otel_tool_spans_carry_their_result_and_status(status: object, failed: object) -> None:
    (call,) = to_calls([_span(status)])
    assert (call.result, call.failed) == ('{"hits": 0}', failed)
    (call,) = to_calls([SimpleNamespace(**_span(status))])  # a span object, read by attribute
    assert (call.result, call.failed) == ('{"hits": 0}', failed)


def test_otel_sdk_spans() -> None:
    trace = pytest.importorskip("opentelemetry.sdk.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    from opentelemetry.trace import Status, StatusCode

    exporter = export.InMemorySpanExporter()
    provider = trace.TracerProvider()
    provider.add_span_processor(trace.export.SimpleSpanProcessor(exporter))
    with provider.get_tracer("t").start_as_current_span("execute_tool search") as span:
        span.set_attributes(_span(None)["attributes"])
        span.set_status(Status(StatusCode.ERROR, "timeout"))
    (call,) = to_calls(exporter.get_finished_spans())
    assert (call.name, call.result, call.failed) == ("search", '{"hits": 0}', True)


def test_bedrock_tool_results() -> None:
    use = {"toolUse": {"toolUseId": "t1", "name": "search", "input": {}}}
    result = {"toolResult": {"toolUseId": "t1", "content": [{"text": "x"}], "status": "error"}}
    (call,) = to_calls(
        [{"role": "assistant", "content": [use]}, {"role": "user", "content": [result]}]
    )
    assert (call.result, call.failed) == ([{"text": "x"}], True)


def test_vercel_tool_results() -> None:
    call = {"type": "tool-call", "toolCallId": "c1", "toolName": "search", "input": {}}
    error = {"type": "error-text", "value": "timeout"}
    result = {"type": "tool-result", "toolCallId": "c1", "toolName": "search", "output": error}
    (read,) = to_calls(
        [{"role": "assistant", "content": [call]}, {"role": "tool", "content": [result]}]
    )
    assert (read.result, read.failed) == (error, True)
    ui_error = {"type": "tool-search", "toolCallId": "c2", "state": "output-error", "input": {}}
    (read,) = to_calls([dict(ui_error, errorText="timeout")])
    assert (read.result, read.failed) == ("timeout", True)


TAU2 = Path(__file__).parent / "data" / "tau2"


def test_tau2_tool_messages_answer_by_id_with_their_error_flag() -> None:
    # A simulation as tau2-bench writes it (tests/data/tau2/README.md): the agent's and the
    # user's calls, each answered by a tool message right after; the user reuses call_1.
    # Each call's requestor is its agent.
    simulation = json.loads((TAU2 / "simulation.json").read_text(encoding="utf-8"))
    assert to_calls(simulation["messages"]) == [
        ToolCall(
            "get_customer_by_phone",
            {"phone_number": "555-123-2002"},
            "call_1",
            result='{"customer_id": "C1001", "full_name": "John Smith", '
            '"line_ids": ["L1001", "L1002"]}',
            failed=False,
            agent="assistant",
        ),
        ToolCall(
            "get_details_by_id",
            {"id": "L1009"},
            "call_2",
            result="Error: Line L1009 not found",
            failed=True,
            agent="assistant",
        ),
        ToolCall(
            "check_status_bar",
            {},
            "call_1",
            result="Status Bar: \U0001f4f5 No Signal | Airplane Mode: ON",
            failed=False,
            agent="user",
        ),
    ]


def test_tau2_multi_tool_messages_answer_each_call() -> None:
    # tau2's MultiToolMessage: the answers to one message's several calls, wrapped.
    calls = [
        {"id": "c1", "name": "get_order", "arguments": {"id": "#W1"}, "requestor": "assistant"},
        {"id": "c2", "name": "get_user", "arguments": {"id": "u1"}, "requestor": "assistant"},
    ]
    answers = [
        {
            "id": "c1",
            "role": "tool",
            "content": "no such order",
            "requestor": "assistant",
            "error": True,
        },
        {"id": "c2", "role": "tool", "content": "{}", "requestor": "assistant", "error": False},
    ]
    trace = [
        {"role": "assistant", "content": None, "tool_calls": calls},
        {"role": "tool", "tool_messages": answers},
    ]
    assert [(call.result, call.failed) for call in to_calls(trace)] == [
        ("no such order", True),
        ("{}", False),
    ]


# --- the CLI's JSON output ----------------------------------------------------------------


def test_check_json_output_carries_result_and_failed(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    expected = [{"name": "write", "args": {"path": {"fuzzy": "notes.txt"}}}]
    spec.write_text(json.dumps({"test_cases": [{"name": "w", "expected_tools": expected}]}))
    turn = [
        {"role": "assistant", "content": [_call("toolu_1", "write")]},
        {"role": "user", "content": [_answer("toolu_1", "disk full", is_error=True)]},
    ]
    traces = tmp_path / "traces.jsonl"
    traces.write_text(json.dumps({"case": "w", "turns": [turn]}) + "\n")
    completed = subprocess.run(
        [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 1, completed.stderr
    record = json.loads(completed.stdout.splitlines()[0])
    (candidate,) = record["turns"][0]["checks"][0]["candidates"]
    assert (candidate["name"], candidate["result"], candidate["failed"]) == (
        "write",
        "disk full",
        True,
    )


# --- every SDK object, dumped every way ---------------------------------------------------
#
# Each case builds a run's calls and answers with the SDK's own classes and hands them to
# `dump`: the objects themselves, or what model_dump() writes with each option. The
# answers' `result` and `failed` must not depend on how the run was saved.

Dump = Any  # a function of one SDK object to what the test passes to_calls
Case = tuple[list[Any], list[tuple[str, Any, Any]]]  # the trace; (name, result, failed)


def _model_dumps() -> dict[str, Dump]:
    return {
        "object": lambda obj: obj,
        "model_dump": lambda obj: obj.model_dump(),
        "by_alias": lambda obj: obj.model_dump(by_alias=True),
        "json": lambda obj: obj.model_dump(mode="json"),
        "json_by_alias": lambda obj: obj.model_dump(mode="json", by_alias=True),
    }


def _openai_chat(dump: Dump) -> Case:
    chat = pytest.importorskip("openai.types.chat")
    entries = [
        {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "call_2", "type": "function", "function": {"name": "g", "arguments": "{}"}},
    ]
    message = chat.ChatCompletionMessage.model_validate(
        {"role": "assistant", "content": None, "tool_calls": entries}
    )
    # The SDK's tool message is a TypedDict: plain data whatever the dump.
    answers: list[Any] = [
        chat.ChatCompletionToolMessageParam(role="tool", tool_call_id="call_1", content="ok"),
        chat.ChatCompletionToolMessageParam(
            role="tool", tool_call_id="call_2", content=[{"type": "text", "text": "ok"}]
        ),
    ]
    expected = [("f", "ok", None), ("g", [{"type": "text", "text": "ok"}], None)]
    return [dump(message), *answers], expected


def _openai_responses(dump: Dump) -> Case:
    responses = pytest.importorskip("openai.types.responses")
    from openai.types.responses.response_input_item import FunctionCallOutput

    call = responses.ResponseFunctionToolCall(
        type="function_call", call_id="call_1", name="f", arguments="{}", id="fc_1"
    )
    second = responses.ResponseFunctionToolCall(
        type="function_call", call_id="call_2", name="g", arguments="{}", id="fc_2"
    )
    output = responses.ResponseFunctionToolCallOutputItem(
        id="fco_1",
        type="function_call_output",
        call_id="call_1",
        output="3 hits",
        status="completed",
    )
    given = FunctionCallOutput(type="function_call_output", call_id="call_2", output="none")
    expected = [("f", "3 hits", None), ("g", "none", None)]
    return [dump(call), dump(output), dump(second), dump(given)], expected


def _anthropic(dump: Dump) -> Case:
    types = pytest.importorskip("anthropic.types")
    beta = pytest.importorskip("anthropic.types.beta")
    error = types.WebSearchToolResultError(
        type="web_search_tool_result_error", error_code="max_uses_exceeded"
    )

    def message(cls: Any, usage: Any, stop: str, *blocks: Any, id: str = "msg_1") -> Any:
        return cls(
            id=id,  # a message's identity (docs/formats.md, "Counted once"): one each
            type="message",
            role="assistant",
            model="claude-test",
            content=list(blocks),
            stop_reason=stop,
            stop_sequence=None,
            usage=usage(input_tokens=1, output_tokens=1),
        )

    answered = message(
        types.Message,
        types.Usage,
        "tool_use",
        types.ToolUseBlock(type="tool_use", id="toolu_1", name="write", input={}),
        types.ToolUseBlock(type="tool_use", id="toolu_2", name="read", input={}),
        types.ServerToolUseBlock(
            type="server_tool_use", id="srv_1", name="web_search", input={"query": "x"}
        ),
        types.WebSearchToolResultBlock(
            type="web_search_tool_result", tool_use_id="srv_1", content=error
        ),
    )
    mcp = message(
        beta.BetaMessage,
        beta.BetaUsage,
        "end_turn",
        beta.BetaMCPToolUseBlock(
            type="mcp_tool_use", id="mcp_1", name="lookup", input={}, server_name="s"
        ),
        beta.BetaMCPToolResultBlock(
            type="mcp_tool_result", tool_use_id="mcp_1", content="gone", is_error=True
        ),
        id="msg_2",
    )
    # The answers a client sends are TypedDicts (ToolResultBlockParam): plain data.
    answers = {"role": "user", "content": [_answer("toolu_1", "disk full", is_error=True)]}
    answers["content"].append(_answer("toolu_2", "hello"))
    dumped_error = dump(answered)
    error_result = _data(dumped_error, answered)["content"][3]["content"]
    expected = [
        ("write", "disk full", True),
        ("read", "hello", False),
        ("web_search", error_result, True),
        ("lookup", "gone", True),
    ]
    return [dumped_error, answers, dump(mcp)], expected


def _gemini(dump: Dump) -> Case:
    types = pytest.importorskip("google.genai.types")

    def response(call_id: str, name: str, value: dict[str, Any]) -> Any:
        answer = types.FunctionResponse(id=call_id, name=name, response=value)
        return types.Part(function_response=answer)

    model = types.Content(
        role="model",
        parts=[
            types.Part(function_call=types.FunctionCall(id="fc_1", name="book", args={})),
            types.Part(function_call=types.FunctionCall(id="fc_2", name="pay", args={})),
        ],
    )
    user = types.Content(
        role="user",
        parts=[
            response("fc_1", "book", {"output": "booked"}),
            response("fc_2", "pay", {"error": "card declined"}),
        ],
    )
    expected = [("book", {"output": "booked"}, False), ("pay", {"error": "card declined"}, True)]
    return [dump(model), dump(user)], expected


def _langchain(dump: Dump) -> Case:
    messages = pytest.importorskip("langchain_core.messages")
    ai = messages.AIMessage(
        content="",
        tool_calls=[
            {"name": "write", "args": {}, "id": "c1"},
            {"name": "read", "args": {}, "id": "c2"},
        ],
    )
    denied = messages.ToolMessage("denied", tool_call_id="c1", status="error")
    read = messages.ToolMessage("hello", tool_call_id="c2")
    return [dump(ai), dump(denied), dump(read)], [
        ("write", "denied", True),
        ("read", "hello", False),
    ]


def _mcp(dump: Dump) -> Case:
    types = pytest.importorskip("mcp.types")
    trace: list[Any] = []
    expected: list[tuple[str, Any, Any]] = []
    for request_id, failed in [(1, True), (2, False)]:
        params = {"name": "save", "arguments": {}}
        trace.append({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})
        text = types.TextContent(type="text", text="disk full" if failed else "saved")
        result = types.CallToolResult(content=[text], isError=failed)
        dumped = dump(result)
        trace.append({"jsonrpc": "2.0", "id": request_id, "result": dumped})
        expected.append(("save", _data(dumped, result)["content"], failed))
    return trace, expected


def _data(dumped: Any, obj: Any) -> Any:
    """What the reader sees of ``obj``: its dump as given, or (the object given) the one
    ``model_dump()`` writes."""
    return dumped if isinstance(dumped, dict) else obj.model_dump()


def _bedrock(dump: Dump) -> Case:
    # boto3 returns plain dicts: the data is the object.
    use = [
        {"toolUse": {"toolUseId": "t1", "name": "search", "input": {}}},
        {"toolUse": {"toolUseId": "t2", "name": "fetch", "input": {}}},
    ]
    results = [
        {"toolResult": {"toolUseId": "t1", "content": [{"text": "x"}], "status": "error"}},
        {"toolResult": {"toolUseId": "t2", "content": [{"json": {"n": 1}}], "status": "success"}},
    ]
    trace = [{"role": "assistant", "content": use}, {"role": "user", "content": results}]
    return trace, [("search", [{"text": "x"}], True), ("fetch", [{"json": {"n": 1}}], False)]


def _vercel(dump: Dump) -> Case:
    # The AI SDK is JavaScript: its messages reach Python as JSON.
    calls = [
        {"type": "tool-call", "toolCallId": "c1", "toolName": "search", "input": {}},
        {"type": "tool-call", "toolCallId": "c2", "toolName": "fetch", "input": {}},
    ]
    error = {"type": "error-text", "value": "timeout"}
    text = {"type": "text", "value": "page"}
    results = [
        {"type": "tool-result", "toolCallId": "c1", "toolName": "search", "output": error},
        {"type": "tool-result", "toolCallId": "c2", "toolName": "fetch", "output": text},
    ]
    trace = [{"role": "assistant", "content": calls}, {"role": "tool", "content": results}]
    return trace, [("search", error, True), ("fetch", text, False)]


MODEL_CASES = {
    "openai_chat": _openai_chat,
    "openai_responses": _openai_responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "langchain": _langchain,
    "mcp": _mcp,
}


@pytest.mark.parametrize("dump", list(_model_dumps()))
@pytest.mark.parametrize("case", list(MODEL_CASES))
def test_results_are_read_from_sdk_objects_in_every_dump(case: str, dump: str) -> None:
    trace, expected = MODEL_CASES[case](_model_dumps()[dump])
    calls = to_calls(trace)
    assert [(call.name, call.result, call.failed) for call in calls] == expected


def _pydantic_ai_dumps() -> dict[str, Dump]:
    # pydantic-ai's messages are dataclasses: its type adapter writes what a run saves.
    messages = pytest.importorskip("pydantic_ai.messages")
    adapter = messages.ModelMessagesTypeAdapter
    return {
        "object": lambda obj: obj,
        "dump_python": lambda obj: adapter.dump_python([obj])[0],
        "by_alias": lambda obj: adapter.dump_python([obj], by_alias=True)[0],
        "json": lambda obj: adapter.dump_python([obj], mode="json")[0],
        "dump_json": lambda obj: json.loads(adapter.dump_json([obj]))[0],
    }


def _pydantic_ai(dump: Dump) -> Case:
    messages = pytest.importorskip("pydantic_ai.messages")
    response = messages.ModelResponse(
        parts=[
            messages.ToolCallPart("search", {"q": "paris"}, tool_call_id="c1"),
            messages.ToolCallPart("book", {"n": 1}, tool_call_id="c2"),
        ]
    )
    request = messages.ModelRequest(
        parts=[
            messages.ToolReturnPart("search", {"hits": 3}, tool_call_id="c1"),
            messages.ToolReturnPart("book", "sold out", tool_call_id="c2", outcome="failed"),
        ]
    )
    expected = [("search", {"hits": 3}, False), ("book", "sold out", True)]
    return [dump(response), dump(request)], expected


def _agents_dumps() -> dict[str, Dump]:
    # openai-agents' run items are dataclasses; a saved run is result.to_input_list(),
    # each item's to_input_item().
    return {"object": lambda item: item, "to_input_item": lambda item: item.to_input_item()}


def _openai_agents(dump: Dump) -> Case:
    agents = pytest.importorskip("agents")
    from agents.items import ToolCallItem, ToolCallOutputItem
    from openai.types.responses import ResponseFunctionToolCall

    agent = agents.Agent(name="assistant")
    items: list[Any] = []
    for call_id, output in [("c1", "Sunny in Paris"), ("c2", "An error occurred: timeout")]:
        raw = ResponseFunctionToolCall(
            type="function_call", call_id=call_id, name="get_weather", arguments="{}", id=call_id
        )
        answer = {"type": "function_call_output", "call_id": call_id, "output": output}
        items.append(ToolCallItem(agent=agent, raw_item=raw))
        items.append(ToolCallOutputItem(agent=agent, raw_item=answer, output=output))
    # The SDK does not say whether a tool failed: its error is the text the model was sent.
    expected = [
        ("get_weather", "Sunny in Paris", None),
        ("get_weather", "An error occurred: timeout", None),
    ]
    return [dump(item) for item in items], expected


def _smolagents_dumps() -> dict[str, Dump]:
    # A saved run is agent.run(..., return_full_result=True).steps: each step's dict().
    return {"object": lambda step: step, "dict": lambda step: step.dict()}


def _smolagents(dump: Dump) -> Case:
    pytest.importorskip("smolagents")
    from smolagents.memory import ActionStep
    from smolagents.memory import ToolCall as SmolCall
    from smolagents.monitoring import AgentLogger, LogLevel, Timing
    from smolagents.utils import AgentToolExecutionError

    logger = AgentLogger(level=LogLevel.OFF)
    ok = ActionStep(
        step_number=1,
        timing=Timing(start_time=0.0, end_time=1.0),
        tool_calls=[SmolCall(name="get_weather", arguments={"city": "Paris"}, id="c1")],
        observations="Sunny in Paris",
    )
    broken = ActionStep(
        step_number=2,
        timing=Timing(start_time=1.0, end_time=2.0),
        tool_calls=[SmolCall(name="get_weather", arguments={"city": "Rome"}, id="c2")],
        error=AgentToolExecutionError("the weather service timed out", logger),
    )
    expected = [
        ("get_weather", "Sunny in Paris", False),
        ("get_weather", "the weather service timed out", True),
    ]
    return [dump(ok), dump(broken)], expected


def _otel_dumps() -> dict[str, Dump]:
    return {"object": lambda span: span, "to_json": lambda span: json.loads(span.to_json())}


def _otel(dump: Dump) -> Case:
    trace = pytest.importorskip("opentelemetry.sdk.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    from opentelemetry.trace import Status, StatusCode

    exporter = export.InMemorySpanExporter()
    provider = trace.TracerProvider()
    provider.add_span_processor(trace.export.SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("t")
    for call_id, code in [("c1", StatusCode.OK), ("c2", StatusCode.ERROR)]:
        with tracer.start_as_current_span("execute_tool search") as span:
            span.set_attributes(dict(_span(None)["attributes"], **{"gen_ai.tool.call.id": call_id}))
            span.set_status(Status(code))
    expected = [("search", '{"hits": 0}', False), ("search", '{"hits": 0}', True)]
    return [dump(span) for span in exporter.get_finished_spans()], expected


def _plain_data_dumps() -> dict[str, Dump]:
    # Formats that reach Python as JSON: the data, and its JSON text read back.
    return {"data": lambda data: data, "json_text": lambda data: json.loads(json.dumps(data))}


OTHER_CASES = {
    "pydantic_ai": (_pydantic_ai, _pydantic_ai_dumps),
    "openai_agents": (_openai_agents, _agents_dumps),
    "smolagents": (_smolagents, _smolagents_dumps),
    "otel": (_otel, _otel_dumps),
    "bedrock": (_bedrock, _plain_data_dumps),
    "vercel": (_vercel, _plain_data_dumps),
}


@pytest.mark.parametrize(
    ("case", "dump"),
    [("pydantic_ai", dump) for dump in ["object", "dump_python", "by_alias", "json", "dump_json"]]
    + [("openai_agents", dump) for dump in ["object", "to_input_item"]]
    + [("smolagents", dump) for dump in ["object", "dict"]]
    + [("otel", dump) for dump in ["object", "to_json"]]
    + [(case, dump) for case in ["bedrock", "vercel"] for dump in ["data", "json_text"]],
)
def test_results_are_read_from_framework_objects_in_every_dump(case: str, dump: str) -> None:
    build, dumps = OTHER_CASES[case]
    trace, expected = build(dumps()[dump])
    calls = to_calls(trace)
    assert [(call.name, call.result, call.failed) for call in calls] == expected
