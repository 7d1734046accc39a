"""``to_calls`` over every provider format, as plain JSON and as the SDKs' own objects."""

from __future__ import annotations

import json
import subprocess
import sys
from types import SimpleNamespace
from typing import Any

import pytest

from toolmatch import ToolCall, to_calls

SEARCH = ToolCall("search", {"q": "paris"}, "call_1")
WEATHER = ToolCall("weather", {"city": "Oslo", "days": 3}, "call_2")


def _names(calls: list[ToolCall]) -> list[str]:
    return [call.name for call in calls]


# --- plain calls and argument parsing --------------------------------------------------


def test_tool_calls_pass_through_in_order() -> None:
    assert to_calls([WEATHER, SEARCH]) == [WEATHER, SEARCH]
    assert to_calls(SEARCH) == [SEARCH]


@pytest.mark.parametrize("key", ["args", "arguments", "input"])
def test_plain_dicts_with_any_argument_key(key: str) -> None:
    calls = to_calls([{"name": "search", key: {"q": "paris"}, "id": "call_1"}])
    assert calls == [SEARCH]


def test_json_string_arguments_are_parsed() -> None:
    assert to_calls({"name": "search", "arguments": '{"q": "paris"}'}) == [
        ToolCall("search", {"q": "paris"})
    ]


@pytest.mark.parametrize("raw", ["", "   ", None, {}])
def test_empty_arguments_mean_no_arguments(raw: object) -> None:
    assert to_calls({"name": "now", "arguments": raw}) == [ToolCall("now", {})]


def test_malformed_json_arguments_give_a_parse_error() -> None:
    (call,) = to_calls({"name": "search", "arguments": '{"q": "par'})
    assert call.args == {}
    assert call.parse_error is not None
    assert call.parse_error.startswith("arguments are not valid JSON: Unterminated string")


@pytest.mark.parametrize(
    ("raw", "shown"), [("[1, 2]", "[1, 2]"), ('"paris"', "'paris'"), ("3", "3")]
)
def test_json_that_is_not_an_object_gives_a_parse_error(raw: str, shown: str) -> None:
    (call,) = to_calls({"name": "search", "arguments": raw})
    assert call.args == {}
    assert call.parse_error == f"arguments are JSON but not an object: {shown}"


def test_arguments_of_another_type_give_a_parse_error() -> None:
    (call,) = to_calls({"name": "search", "arguments": 42})
    assert call.args == {}
    assert call.parse_error == "arguments are neither a JSON string nor an object: 42 (int)"


def test_json_text_is_read_like_its_data() -> None:
    text = json.dumps([{"name": "search", "args": {"q": "paris"}, "id": "call_1"}])
    assert to_calls(text) == [SEARCH]
    assert to_calls(text.encode()) == [SEARCH]


def test_integer_ids_become_strings() -> None:
    assert to_calls({"name": "search", "args": {}, "id": 7})[0].id == "7"


# --- unknown shapes -------------------------------------------------------------------


def test_a_bare_name_is_a_call_without_arguments() -> None:
    assert to_calls([{"name": "search"}, {"name": "fetch", "id": "c1"}]) == [
        ToolCall("search", {}),
        ToolCall("fetch", {}, id="c1"),
    ]


@pytest.mark.parametrize(
    ("obj", "named"),
    [
        (42, "42 (int)"),
        ({"q": "paris"}, "{'q': 'paris'} (dict)"),
        ({"name": "search", "description": "Search the web"}, "'description': 'Search the web'"),
        (object(), "(object)"),
    ],
)
def test_unknown_shapes_raise_naming_what_they_got(obj: object, named: str) -> None:
    with pytest.raises(TypeError) as raised:
        to_calls(obj)
    message = str(raised.value)
    assert message.startswith("to_calls cannot read tool calls from input: ")
    assert named in message
    # One line: the accepted shapes are in the docs, linked, not listed.
    assert "\n" not in message
    assert message.endswith(
        "; accepted shapes: "
        "https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md#accepted-shapes"
    )


def test_an_unknown_item_is_named_by_its_index() -> None:
    with pytest.raises(TypeError, match=r"from input\[1\]: 'oops' \(str\)"):
        to_calls([SEARCH, "oops"])


def test_text_that_is_not_json_raises() -> None:
    with pytest.raises(TypeError, match="got a str that is not JSON: 'search'"):
        to_calls("search")


def test_tool_definitions_are_not_mistaken_for_calls() -> None:
    definition = {"type": "function", "function": {"name": "search", "parameters": {}}}
    with pytest.raises(TypeError, match="is a tool definition"):
        to_calls([definition])
    with pytest.raises(TypeError, match="cannot read"):
        to_calls({"name": "search", "description": "Search", "input_schema": {}})


def test_a_call_without_a_string_name_raises_with_its_place() -> None:
    completion = _chat_completion([{"id": "c", "type": "function", "function": {"name": None}}])
    with pytest.raises(TypeError, match=r"input.choices\[0\].message.tool_calls\[0\].function"):
        to_calls(completion)


# --- OpenAI Chat Completions ----------------------------------------------------------


def _openai_tool_call(call: ToolCall) -> dict[str, Any]:
    arguments = json.dumps(call.args)
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments},
    }


def _chat_message(tool_calls: list[dict[str, Any]] | None) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": tool_calls}


def _chat_completion(tool_calls: list[dict[str, Any]] | None, choices: int = 1) -> dict[str, Any]:
    choice = {"index": 0, "finish_reason": "tool_calls", "message": _chat_message(tool_calls)}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-test",
        "choices": [dict(choice, index=index) for index in range(choices)],
    }


OPENAI_CALLS = [_openai_tool_call(SEARCH), _openai_tool_call(WEATHER)]


def test_openai_completion_choice_message_and_tool_calls() -> None:
    completion = _chat_completion(OPENAI_CALLS)
    assert to_calls(completion) == [SEARCH, WEATHER]
    assert to_calls(completion["choices"][0]) == [SEARCH, WEATHER]
    assert to_calls(completion["choices"][0]["message"]) == [SEARCH, WEATHER]
    assert to_calls(OPENAI_CALLS) == [SEARCH, WEATHER]


def test_openai_message_list_pairs_tool_messages_with_their_calls() -> None:
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Weather in Oslo?"},
        _chat_message([_openai_tool_call(WEATHER)]),
        {"role": "tool", "tool_call_id": "call_2", "content": "sunny"},
        {"role": "assistant", "content": "Sunny."},
    ]
    # OpenAI's tool messages say nothing of failure: failed stays None.
    assert to_calls(messages) == [ToolCall(WEATHER.name, WEATHER.args, WEATHER.id, result="sunny")]


def test_openai_text_only_answer_has_no_calls() -> None:
    assert to_calls(_chat_completion(None)) == []
    assert to_calls({"role": "assistant", "content": "Hello"}) == []


def test_openai_malformed_arguments_keep_the_call_with_a_parse_error() -> None:
    broken = {"id": "c", "type": "function", "function": {"name": "search", "arguments": "{"}}
    (call,) = to_calls(_chat_message([broken]))
    assert (call.name, call.args, call.id) == ("search", {}, "c")
    assert call.parse_error is not None


def test_openai_several_choices_are_alternatives_not_one_turn() -> None:
    with pytest.raises(ValueError, match=r"2 choices .* completion.choices\[0\]"):
        to_calls(_chat_completion(OPENAI_CALLS, choices=2))


def test_openai_legacy_function_call_and_custom_tool_call() -> None:
    legacy = {
        "role": "assistant",
        "content": None,
        "function_call": {"name": "search", "arguments": '{"q": "paris"}'},
    }
    assert to_calls(legacy) == [ToolCall("search", {"q": "paris"})]
    custom = {"id": "c9", "type": "custom", "custom": {"name": "sql", "input": "SELECT 1"}}
    assert to_calls(_chat_message([custom])) == [ToolCall("sql", {"input": "SELECT 1"}, "c9")]


def test_openai_sdk_objects() -> None:
    chat = pytest.importorskip("openai.types.chat")
    completion = chat.ChatCompletion.model_validate(_chat_completion(OPENAI_CALLS))
    assert to_calls(completion) == [SEARCH, WEATHER]
    assert to_calls(completion.choices[0]) == [SEARCH, WEATHER]
    assert to_calls(completion.choices[0].message) == [SEARCH, WEATHER]
    assert to_calls(completion.choices[0].message.tool_calls) == [SEARCH, WEATHER]
    text_only = chat.ChatCompletionMessage(role="assistant", content="Hi")
    assert to_calls(text_only) == []


# --- OpenAI Responses -----------------------------------------------------------------


def _responses_call(call: ToolCall, item_id: str) -> dict[str, Any]:
    return {
        "type": "function_call",
        "id": item_id,
        "call_id": call.id,
        "name": call.name,
        "arguments": json.dumps(call.args),
        "status": "completed",
    }


RESPONSE: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1,
    "model": "gpt-test",
    "parallel_tool_calls": True,
    "tool_choice": "auto",
    "tools": [],
    "output": [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Looking.", "annotations": []}],
        },
        _responses_call(SEARCH, "fc_1"),
        _responses_call(WEATHER, "fc_2"),
    ],
}


def test_responses_response_and_output_items_use_call_id() -> None:
    assert to_calls(RESPONSE) == [SEARCH, WEATHER]
    assert to_calls(RESPONSE["output"]) == [SEARCH, WEATHER]
    assert to_calls(RESPONSE["output"][3]) == [WEATHER]


def test_responses_custom_and_mcp_calls() -> None:
    custom = {"type": "custom_tool_call", "call_id": "c1", "name": "sql", "input": "SELECT 1"}
    mcp = {
        "type": "mcp_call",
        "id": "mcp_1",
        "name": "search",
        "server_label": "web",
        "arguments": '{"q": "paris"}',
    }
    assert to_calls([custom, mcp]) == [
        ToolCall("sql", {"input": "SELECT 1"}, "c1"),
        ToolCall("search", {"q": "paris"}, "mcp_1"),
    ]


def test_responses_sdk_objects() -> None:
    responses = pytest.importorskip("openai.types.responses")
    response = responses.Response.model_validate(RESPONSE)
    assert to_calls(response) == [SEARCH, WEATHER]
    assert to_calls(response.output) == [SEARCH, WEATHER]
    item = responses.ResponseFunctionToolCall(
        type="function_call", call_id="call_1", name="search", arguments='{"q": "paris"}'
    )
    assert to_calls(item) == [SEARCH]


# --- Anthropic Messages ---------------------------------------------------------------

ANTHROPIC_MESSAGE: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-test",
    "content": [
        {"type": "thinking", "thinking": "...", "signature": "s"},
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "call_1", "name": "search", "input": {"q": "paris"}},
        {"type": "tool_use", "id": "call_2", "name": "weather", "input": WEATHER.args},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
}


def test_anthropic_message_and_content_blocks() -> None:
    assert to_calls(ANTHROPIC_MESSAGE) == [SEARCH, WEATHER]
    assert to_calls(ANTHROPIC_MESSAGE["content"]) == [SEARCH, WEATHER]


def test_anthropic_conversation_pairs_user_tool_results() -> None:
    result = {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "call_1",
                "content": [{"type": "text", "text": "Paris is..."}],
            }
        ],
    }
    answer = {"role": "assistant", "content": [{"type": "text", "text": "Done."}]}
    searched = ToolCall(
        "search",
        SEARCH.args,
        "call_1",
        result=[{"type": "text", "text": "Paris is..."}],
        failed=False,
    )
    assert to_calls([ANTHROPIC_MESSAGE, result, answer]) == [searched, WEATHER]


def test_anthropic_server_tool_use_is_a_call() -> None:
    block = {
        "type": "server_tool_use",
        "id": "srv_1",
        "name": "web_search",
        "input": {"query": "paris"},
    }
    assert to_calls([block]) == [ToolCall("web_search", {"query": "paris"}, "srv_1")]


def test_anthropic_sdk_objects() -> None:
    anthropic_types = pytest.importorskip("anthropic.types")
    message = anthropic_types.Message.model_validate(ANTHROPIC_MESSAGE)
    assert to_calls(message) == [SEARCH, WEATHER]
    assert to_calls(message.content) == [SEARCH, WEATHER]
    block = anthropic_types.ToolUseBlock(
        type="tool_use", id="call_1", name="search", input={"q": "paris"}
    )
    assert to_calls(block) == [SEARCH]


# --- Google Gemini --------------------------------------------------------------------

GEMINI_RESPONSE: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [
                    {"text": "Checking."},
                    {"functionCall": {"id": "call_1", "name": "search", "args": {"q": "paris"}}},
                    {"functionCall": {"id": "call_2", "name": "weather", "args": WEATHER.args}},
                    {"functionCall": {"name": "now"}},
                ],
            },
            "finishReason": "STOP",
        }
    ],
    "usageMetadata": {"totalTokenCount": 3},
}
GEMINI_CALLS = [SEARCH, WEATHER, ToolCall("now", {})]


def test_gemini_response_candidate_content_and_parts() -> None:
    candidate = GEMINI_RESPONSE["candidates"][0]
    assert to_calls(GEMINI_RESPONSE) == GEMINI_CALLS
    assert to_calls(candidate) == GEMINI_CALLS
    assert to_calls(candidate["content"]) == GEMINI_CALLS
    assert to_calls(candidate["content"]["parts"]) == GEMINI_CALLS


def test_gemini_user_contents_and_several_candidates() -> None:
    user = {"role": "user", "parts": [{"functionResponse": {"name": "search", "response": {}}}]}
    assert to_calls([user, GEMINI_RESPONSE["candidates"][0]["content"]]) == GEMINI_CALLS
    two = {"candidates": GEMINI_RESPONSE["candidates"] * 2}
    with pytest.raises(ValueError, match="2 candidates"):
        to_calls(two)


def test_gemini_sdk_objects() -> None:
    types = pytest.importorskip("google.genai.types")
    response = types.GenerateContentResponse.model_validate(GEMINI_RESPONSE)
    assert to_calls(response) == GEMINI_CALLS
    assert to_calls(response.candidates[0].content.parts) == GEMINI_CALLS
    call = types.FunctionCall(id="call_1", name="search", args={"q": "paris"})
    assert to_calls(call) == [SEARCH]
    assert to_calls(types.Part(function_call=call)) == [SEARCH]
    assert to_calls(types.Part(text="hi")) == []


@pytest.mark.parametrize(
    "dump",
    [
        lambda response: response,
        lambda response: response.model_dump(),
        lambda response: response.model_dump(mode="json", by_alias=True, exclude_none=True),
    ],
    ids=["object", "model_dump", "json_by_alias"],
)
def test_a_gemini_response_to_a_blocked_prompt_holds_no_call(dump: Any) -> None:
    # A blocked prompt has no candidates, only its feedback: an empty answer, not unknown.
    types = pytest.importorskip("google.genai.types")
    feedback = types.GenerateContentResponsePromptFeedback(block_reason="SAFETY")
    assert to_calls(dump(types.GenerateContentResponse(prompt_feedback=feedback))) == []


# --- LangChain ------------------------------------------------------------------------

LANGCHAIN_AI: dict[str, Any] = {
    "type": "ai",
    "content": "",
    "tool_calls": [
        {"type": "tool_call", "id": "call_1", "name": "search", "args": {"q": "paris"}},
        {"type": "tool_call", "id": "call_2", "name": "weather", "args": WEATHER.args},
    ],
    "invalid_tool_calls": [
        {
            "type": "invalid_tool_call",
            "id": "call_3",
            "name": "book",
            "args": "{oops",
            "error": "Expecting value",
        },
    ],
}


def test_langchain_message_dump_keeps_invalid_calls_with_their_error() -> None:
    calls = to_calls(LANGCHAIN_AI)
    assert calls[:2] == [SEARCH, WEATHER]
    assert (calls[2].name, calls[2].args, calls[2].id) == ("book", {}, "call_3")
    assert calls[2].parse_error == "invalid tool call (Expecting value); arguments: '{oops'"


def test_langchain_sdk_messages_mixed_list() -> None:
    messages = pytest.importorskip("langchain_core.messages")
    ai = messages.AIMessage(
        content=[
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "call_1", "name": "search", "input": {"q": "paris"}},
        ],
        tool_calls=[{"name": "search", "args": {"q": "paris"}, "id": "call_1"}],
        invalid_tool_calls=[{"name": None, "args": "{", "id": "call_4", "error": None}],
    )
    history = [
        messages.SystemMessage("Be brief."),
        messages.HumanMessage("Paris?"),
        ai,
        messages.ToolMessage("Paris is...", tool_call_id="call_1"),
        messages.AIMessage("Done."),
    ]
    calls = to_calls(history)
    # The raw tool_use block is not counted a second time; the ToolMessage is its result.
    assert calls[0] == ToolCall("search", SEARCH.args, "call_1", result="Paris is...", failed=False)
    assert (calls[1].name, calls[1].id) == ("", "call_4")
    assert calls[1].parse_error is not None
    assert len(calls) == 2
    assert to_calls(ai.tool_calls) == [SEARCH]
    chunk = messages.AIMessageChunk(
        content="",
        tool_call_chunks=[{"name": "search", "args": '{"q": "paris"}', "id": "call_1", "index": 0}],
    )
    assert to_calls(chunk) == [SEARCH]


# --- MCP ------------------------------------------------------------------------------


def test_mcp_tools_call_requests_and_other_messages() -> None:
    transcript = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "search", "arguments": {"q": "paris"}},
        },
        {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "..."}]}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "now"}},
    ]
    assert to_calls(transcript) == [
        ToolCall(
            "search", {"q": "paris"}, "3", result=[{"type": "text", "text": "..."}], failed=False
        ),
        ToolCall("now", {}, "4"),
    ]
    sdk_style = {"method": "tools/call", "params": {"name": "now", "arguments": None}}
    assert to_calls(sdk_style) == [ToolCall("now", {})]


LONE_RESULT = (
    "; it is an MCP CallToolResult, which names neither its tool nor the id of the request "
    "it answers: pass the session's JSON-RPC messages (each tools/call request and the "
    "response of its id), as a transport logs them; accepted shapes: "
)


@pytest.mark.parametrize(
    "result",
    [
        {"content": [{"type": "text", "text": "down"}], "isError": True},
        {"content": [{"type": "text", "text": "down"}], "is_error": False},  # mcp 2's dump
    ],
)
def test_mcp_call_tool_result_by_itself_says_to_pass_the_json_rpc_messages(
    result: dict[str, Any],
) -> None:
    with pytest.raises(TypeError) as error:
        to_calls([result])
    assert str(error.value).startswith("to_calls cannot read tool calls from input[0]: ")
    assert LONE_RESULT in str(error.value)


def test_an_is_error_flag_without_content_is_no_mcp_result() -> None:
    with pytest.raises(TypeError) as error:
        to_calls({"blocks": [], "is_error": True})  # a llama-index ToolOutput's dump
    assert str(error.value).startswith(
        "to_calls cannot read tool calls from input: {'blocks': [], 'is_error': True} (dict); "
        "accepted shapes: "
    )


# --- AWS Bedrock Converse -------------------------------------------------------------

BEDROCK_RESPONSE: dict[str, Any] = {
    "output": {
        "message": {
            "role": "assistant",
            "content": [
                {"text": "Checking."},
                {"toolUse": {"toolUseId": "call_1", "name": "search", "input": {"q": "paris"}}},
                {"toolUse": {"toolUseId": "call_2", "name": "weather", "input": WEATHER.args}},
            ],
        }
    },
    "stopReason": "tool_use",
    "usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2},
}


def test_bedrock_response_message_and_content() -> None:
    message = BEDROCK_RESPONSE["output"]["message"]
    assert to_calls(BEDROCK_RESPONSE) == [SEARCH, WEATHER]
    assert to_calls(message) == [SEARCH, WEATHER]
    assert to_calls(message["content"]) == [SEARCH, WEATHER]
    result = {"role": "user", "content": [{"toolResult": {"toolUseId": "call_1", "content": []}}]}
    # No status: Bedrock's toolResult says nothing of failure.
    assert to_calls([message, result]) == [
        ToolCall("search", SEARCH.args, "call_1", result=[]),
        WEATHER,
    ]


# --- OpenTelemetry GenAI --------------------------------------------------------------


def _tool_span(call: ToolCall) -> dict[str, Any]:
    return {
        "name": f"execute_tool {call.name}",
        "attributes": {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": call.name,
            "gen_ai.tool.call.id": call.id,
            "gen_ai.tool.call.arguments": json.dumps(call.args),
        },
    }


CHAT_SPAN: dict[str, Any] = {
    "name": "chat gpt-test",
    "attributes": {"gen_ai.operation.name": "chat", "gen_ai.tool.name": "search"},
}


def test_otel_tool_spans_and_other_spans() -> None:
    http_span = {"name": "GET /", "attributes": {"http.method": "GET"}}
    spans = [CHAT_SPAN, _tool_span(SEARCH), http_span, _tool_span(WEATHER)]
    assert to_calls(spans) == [SEARCH, WEATHER]


def test_otel_otlp_json_with_key_value_attributes() -> None:
    def otlp(span: dict[str, Any]) -> dict[str, Any]:
        attributes = [
            {"key": key, "value": {"stringValue": value}}
            for key, value in span["attributes"].items()
        ]
        return {"name": span["name"], "spanId": "ab", "attributes": attributes}

    export = {
        "resourceSpans": [
            {"resource": {}, "scopeSpans": [{"scope": {}, "spans": [otlp(_tool_span(SEARCH))]}]},
            {"resource": {}, "scopeSpans": [{"scope": {}, "spans": [otlp(_tool_span(WEATHER))]}]},
        ]
    }
    assert to_calls(export) == [SEARCH, WEATHER]


def test_otel_span_objects_are_read_by_attribute() -> None:
    span = SimpleNamespace(**_tool_span(SEARCH), context=None)
    assert to_calls([span]) == [SEARCH]


def test_otel_output_message_tool_call_parts() -> None:
    output_messages = [
        {
            "role": "assistant",
            "parts": [
                {"type": "text", "content": "Checking."},
                {
                    "type": "tool_call",
                    "id": "call_1",
                    "name": "search",
                    "arguments": {"q": "paris"},
                },
                {
                    "type": "tool_call",
                    "id": "call_2",
                    "name": "weather",
                    "arguments": json.dumps(WEATHER.args),
                },
            ],
            "finish_reason": "tool_call",
        }
    ]
    assert to_calls(output_messages) == [SEARCH, WEATHER]
    assert to_calls(json.dumps(output_messages)) == [SEARCH, WEATHER]


# --- Ollama, Vercel AI SDK, pydantic-ai -----------------------------------------------


def test_ollama_chat_response_with_object_arguments() -> None:
    response = {
        "model": "llama-test",
        "created_at": "2025-01-01T00:00:00Z",
        "message": {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {"function": {"name": "search", "arguments": {"q": "paris"}}},
                {"function": {"name": "weather", "arguments": WEATHER.args}},
            ],
        },
        "done": True,
    }
    assert to_calls(response) == [
        ToolCall("search", {"q": "paris"}),
        ToolCall("weather", WEATHER.args),
    ]


def test_vercel_model_message_parts_and_tool_results() -> None:
    result_output = {"type": "text", "value": "..."}
    assistant = {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Checking."},
            {
                "type": "tool-call",
                "toolCallId": "call_1",
                "toolName": "search",
                "input": {"q": "paris"},
            },
            {
                "type": "tool-call",
                "toolCallId": "call_2",
                "toolName": "weather",
                "args": WEATHER.args,
            },  # AI SDK 4
        ],
    }
    tool = {
        "role": "tool",
        "content": [
            {
                "type": "tool-result",
                "toolCallId": "call_1",
                "toolName": "search",
                "output": result_output,
            }
        ],
    }
    # AI SDK 5 types the output: 'text' is a success, 'error-text' / 'error-json' a failure.
    searched = ToolCall("search", SEARCH.args, "call_1", result=result_output, failed=False)
    assert to_calls([assistant, tool]) == [searched, WEATHER]
    result_part = tool["content"][0]
    assert to_calls([result_part]) == []  # a result without its call is ignored


def test_vercel_ui_message_tool_parts() -> None:
    ui_message = {
        "id": "m1",
        "role": "assistant",
        "parts": [
            {"type": "step-start"},
            {
                "type": "tool-search",
                "toolCallId": "call_1",
                "state": "output-available",
                "input": {"q": "paris"},
                "output": {"hits": 3},
            },
            {
                "type": "dynamic-tool",
                "toolName": "weather",
                "toolCallId": "call_2",
                "state": "input-available",
                "input": WEATHER.args,
            },
        ],
    }
    searched = ToolCall("search", SEARCH.args, "call_1", result={"hits": 3}, failed=False)
    assert to_calls(ui_message) == [searched, WEATHER]


def test_pydantic_ai_parts_as_dicts() -> None:
    response = {
        "kind": "response",
        "parts": [
            {"part_kind": "text", "content": "Checking."},
            {
                "part_kind": "tool-call",
                "tool_name": "search",
                "args": '{"q": "paris"}',
                "tool_call_id": "call_1",
            },
            {
                "part_kind": "tool-call",
                "tool_name": "weather",
                "args": WEATHER.args,
                "tool_call_id": "call_2",
            },
        ],
    }
    request = {
        "kind": "request",
        "parts": [
            {
                "part_kind": "tool-return",
                "tool_name": "search",
                "content": {"hits": 3},
                "tool_call_id": "call_1",
            }
        ],
    }
    # The return part comes first here: results are paired by id, wherever they are.
    searched = ToolCall("search", SEARCH.args, "call_1", result={"hits": 3}, failed=False)
    assert to_calls([request, response]) == [searched, WEATHER]


def test_pydantic_ai_sdk_objects() -> None:
    messages = pytest.importorskip("pydantic_ai.messages")
    response = messages.ModelResponse(
        parts=[
            messages.TextPart("Checking."),
            messages.ToolCallPart("search", '{"q": "paris"}', tool_call_id="call_1"),
            messages.ToolCallPart("weather", WEATHER.args, tool_call_id="call_2"),
        ]
    )
    request = messages.ModelRequest(
        parts=[messages.ToolReturnPart("search", {"hits": 3}, tool_call_id="call_1")]
    )
    searched = ToolCall("search", SEARCH.args, "call_1", result={"hits": 3}, failed=False)
    assert to_calls([response, request]) == [searched, WEATHER]
    (broken,) = to_calls(messages.ToolCallPart("search", "{", tool_call_id="x"))
    assert broken.args == {}
    assert broken.parse_error is not None


# --- empty responses are empty: each SDK's response with no output -------------------


def _completion(choices: list[dict[str, Any]]) -> Any:
    chat = pytest.importorskip("openai.types.chat")
    completion = {"id": "c", "object": "chat.completion", "created": 0, "model": "gpt-4.1"}
    return chat.ChatCompletion.model_validate({**completion, "choices": choices})


_REFUSAL_CHOICE = {
    "index": 0,
    "finish_reason": "stop",
    "message": {"role": "assistant", "content": None, "refusal": "I can't."},
}


def _responses(output: list[dict[str, Any]]) -> Any:
    responses = pytest.importorskip("openai.types.responses")
    return responses.Response.model_validate(
        {
            "id": "resp_1",
            "object": "response",
            "created_at": 0,
            "model": "gpt-4.1",
            "output": output,
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
        }
    )


def _responses_refusal() -> Any:
    refusal = {"type": "refusal", "refusal": "I can't."}
    item = {"type": "message", "id": "msg_1", "role": "assistant", "status": "completed"}
    return _responses([{**item, "content": [refusal]}])


def _anthropic_refusal() -> Any:
    types = pytest.importorskip("anthropic.types")
    return types.Message.model_validate(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [],
            "stop_reason": "refusal",
            "usage": {"input_tokens": 10, "output_tokens": 0},
        }
    )


def _gemini_blocked_candidate() -> Any:
    # The prompt passed, the answer was blocked: a candidate with a reason and no content.
    types = pytest.importorskip("google.genai.types")
    rating = types.SafetyRating(category="HARM_CATEGORY_HARASSMENT", probability="HIGH")
    candidate = types.Candidate(finish_reason="SAFETY", index=0, safety_ratings=[rating])
    return types.GenerateContentResponse(candidates=[candidate], model_version="gemini-2.5")


def _gemini_no_parts() -> Any:
    types = pytest.importorskip("google.genai.types")
    candidate = types.Candidate(content=types.Content(role="model"), finish_reason="STOP")
    return types.GenerateContentResponse(candidates=[candidate])


def _langchain_text() -> Any:
    messages = pytest.importorskip("langchain_core.messages")
    return messages.AIMessage("Hello!", id="run-1")


def _langchain_dumpd(message: Any) -> Any:
    load = pytest.importorskip("langchain_core.load")
    return load.dumpd(message)


EMPTY_RESPONSES = {
    "openai-refusal": lambda: _completion([_REFUSAL_CHOICE]),
    "openai-no-choices": lambda: _completion([]),
    "responses-empty-output": lambda: _responses([]),
    "responses-refusal": _responses_refusal,
    "anthropic-refusal": _anthropic_refusal,
    "gemini-blocked-candidate": _gemini_blocked_candidate,
    "gemini-no-parts": _gemini_no_parts,
    "langchain-text": _langchain_text,
}
DUMPS = {
    "object": lambda obj: obj,
    "model_dump": lambda obj: obj.model_dump(),
    "json_by_alias": lambda obj: obj.model_dump(mode="json", by_alias=True, exclude_none=True),
    "json_round_trip": lambda obj: obj.model_dump_json(),  # text given to to_calls
}


@pytest.mark.parametrize("dump", DUMPS.values(), ids=DUMPS.keys())
@pytest.mark.parametrize("build", EMPTY_RESPONSES.values(), ids=EMPTY_RESPONSES.keys())
def test_an_sdk_response_with_no_output_gives_no_call(build: Any, dump: Any) -> None:
    assert to_calls(dump(build())) == []


def test_a_langchain_message_serialized_with_no_tool_calls_gives_no_call() -> None:
    assert to_calls(_langchain_dumpd(_langchain_text())) == []


def test_a_gemini_response_object_with_nothing_set_gives_no_call() -> None:
    # The class says it is a response; its dump, {}, says nothing and still raises.
    types = pytest.importorskip("google.genai.types")
    assert to_calls(types.GenerateContentResponse()) == []
    assert to_calls(types.GenerateContentResponse(candidates=[])) == []
    with pytest.raises(TypeError, match=r"^to_calls cannot read tool calls from input: \{\} "):
        to_calls(types.GenerateContentResponse().model_dump(exclude_none=True))


@pytest.mark.parametrize(
    "content",
    [[], [{"text": "I can't help with that."}]],
    ids=["no-content", "guardrail-text"],
)
def test_a_bedrock_converse_response_with_no_call_gives_no_call(content: list[Any]) -> None:
    response = {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": "guardrail_intervened",
        "usage": {"inputTokens": 10, "outputTokens": 0, "totalTokens": 10},
        "metrics": {"latencyMs": 100},
    }
    assert to_calls(response) == []


def test_a_gemini_candidate_of_unknown_keys_still_raises() -> None:
    candidate = {"finishReason": "SAFETY", "banana": {"name": "search"}}
    with pytest.raises(TypeError) as raised:
        to_calls({"candidates": [candidate]})
    assert str(raised.value) == (
        "to_calls cannot read tool calls from input.candidates[0]: {'finishReason': 'SAFETY', "
        "'banana': {'name': 'search'}} (dict); accepted shapes: "
        "https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md#accepted-shapes"
    )


# --- the package stays light ----------------------------------------------------------


def loaded_in_fresh_interpreter(code: str, modules: list[str]) -> list[str]:
    """Which of ``modules`` a fresh interpreter has imported after running ``code``."""
    script = f"import sys\n{code}\nprint(*[name for name in {modules!r} if name in sys.modules])"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def test_reading_arguments_does_not_import_json_before_it_is_needed() -> None:
    code = "import toolmatch\ntoolmatch.to_calls([{'name': 'search', 'args': {'q': 'paris'}}])"
    assert loaded_in_fresh_interpreter(code, ["json"]) == []
    code += "\ntoolmatch.to_calls([{'name': 'search', 'arguments': '{}'}])"
    assert loaded_in_fresh_interpreter(code, ["json"]) == ["json"]


def test_langchain_messages_to_dict_entries() -> None:
    entries = [
        {"type": "human", "data": {"type": "human", "content": "Paris?"}},
        {"type": "ai", "data": LANGCHAIN_AI},
    ]
    assert to_calls(entries)[:2] == [SEARCH, WEATHER]


def test_none_is_not_read_as_no_calls() -> None:
    with pytest.raises(TypeError, match=r"got None at input\[0\]; pass the message"):
        to_calls([None])


def test_calls_keep_their_own_args_when_the_caller_changes_theirs() -> None:
    from toolmatch import load_test_cases

    args = {"q": "paris"}
    message = {"role": "assistant", "tool_calls": [], "content": None}
    calls = to_calls([{"name": "search", "args": args}, message])
    [case] = load_test_cases({"test_cases": [{"name": "c", "expected_tools": ["search"]}]})
    [result] = case.check([[{"name": "search", "args": args}]])
    args["q"] = "rome"
    assert calls[0].args == {"q": "paris"}
    assert result.checks[0].candidates[0].call.args == {"q": "paris"}
