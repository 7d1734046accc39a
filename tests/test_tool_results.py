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
    simulation = json.loads((TAU2 / "simulation.json").read_text(encoding="utf-8"))
    assert to_calls(simulation["messages"]) == [
        ToolCall(
            "get_customer_by_phone",
            {"phone_number": "555-123-2002"},
            "call_1",
            result='{"customer_id": "C1001", "full_name": "John Smith", '
            '"line_ids": ["L1001", "L1002"]}',
            failed=False,
        ),
        ToolCall(
            "get_details_by_id",
            {"id": "L1009"},
            "call_2",
            result="Error: Line L1009 not found",
            failed=True,
        ),
        ToolCall(
            "check_status_bar",
            {},
            "call_1",
            result="Status Bar: \U0001f4f5 No Signal | Airplane Mode: ON",
            failed=False,
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
