"""to_calls on the Claude Agent SDK's messages, made by the SDK's own parser from the JSON
lines its CLI writes (what ``query()`` yields), and by its own classes."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import pytest

from toolmatch import ExpectedTool, ToolCall, final_answer, to_calls

pytest.importorskip("claude_agent_sdk", reason="the Claude Agent SDK is not installed")
from claude_agent_sdk import (
    AssistantMessage,
    ResultMessage,
    ServerToolResultBlock,
    ServerToolUseBlock,
    StreamEvent,
    SystemMessage,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    UserMessage,
)
from claude_agent_sdk._internal.message_parser import parse_message

SESSION = {"session_id": "s-1"}


def assistant(block: dict[str, Any], uuid: str, message_id: str = "msg_1") -> dict[str, Any]:
    """An assistant line of the CLI: the SDK splits an API message into one a block."""
    message = {"id": message_id, "model": "claude", "role": "assistant", "content": [block]}
    return {"type": "assistant", "message": message, "uuid": uuid, **SESSION}


def results(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": list(blocks)}, **SESSION}


def result_line(**fields: Any) -> dict[str, Any]:
    line = {
        "type": "result",
        "subtype": "success",
        "duration_ms": 10,
        "duration_api_ms": 8,
        "is_error": False,
        "num_turns": 2,
        "result": "Done.",
        **SESSION,
    }
    return {**line, **fields}


def run(*lines: dict[str, Any]) -> list[Any]:
    """The messages query() yields for these CLI lines, parsed by the SDK itself."""
    return [parse_message(line) for line in lines]


REFUND = {"type": "tool_use", "id": "toolu_1", "name": "refund", "input": {"order": 7}}
LOOKUP = {"type": "tool_use", "id": "toolu_2", "name": "lookup", "input": {"order": 7}}


def test_a_run_gives_its_calls_and_a_failed_result_and_its_result_message_holds_none() -> None:
    messages = run(
        {"type": "system", "subtype": "init", "tools": ["refund", "lookup"], **SESSION},
        assistant({"type": "text", "text": "Let me look."}, "u1"),
        assistant(LOOKUP, "u2"),
        assistant(REFUND, "u3"),  # the same API message: its second tool_use
        results(
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": "paid"},
            {
                "type": "tool_result",
                "tool_use_id": "toolu_1",
                "content": "the refund window is closed",
                "is_error": True,
            },
        ),
        assistant({"type": "text", "text": "I could not refund it."}, "u5", "msg_2"),
        result_line(),
    )
    assert [type(message).__name__ for message in messages] == [
        "SystemMessage",
        "AssistantMessage",
        "AssistantMessage",
        "AssistantMessage",
        "UserMessage",
        "AssistantMessage",
        "ResultMessage",
    ]
    assert to_calls(messages) == [
        ToolCall("lookup", {"order": 7}, id="toolu_2", result="paid", failed=False),
        ToolCall(
            "refund",
            {"order": 7},
            id="toolu_1",
            result="the refund window is closed",
            failed=True,
        ),
    ]
    assert ExpectedTool.never("refund", failed=True) != messages
    assert to_calls(messages[-1]) == []  # the ResultMessage alone


DENIAL = {"tool_name": "refund", "tool_use_id": "toolu_1", "tool_input": {"order": 7}}
DENIED_RUN = (
    assistant(REFUND, "u1"),
    results(
        {
            "type": "tool_result",
            "tool_use_id": "toolu_1",
            "content": "Permission to use refund was denied.",
            "is_error": True,
        }
    ),
    result_line(permission_denials=[DENIAL]),
)
DEFERRED = {"id": "toolu_1", "name": "refund", "input": {"order": 7}}
DEFERRED_RUN = (assistant(REFUND, "u1"), result_line(deferred_tool_use=DEFERRED))


def test_a_permission_denial_makes_its_call_denied() -> None:
    messages = run(*DENIED_RUN)
    [refund] = to_calls(messages)
    assert (refund.status, refund.failed) == ("denied", None)
    assert refund.result == "Permission to use refund was denied."


def test_a_deferred_call_is_pending() -> None:
    messages = run(*DEFERRED_RUN)
    assert to_calls(messages) == [ToolCall("refund", {"order": 7}, id="toolu_1", status="pending")]


BUILT = [
    SystemMessage(subtype="init", data={}),
    StreamEvent(uuid="e1", session_id="s-1", event={"type": "message_start", "message": {}}),
    AssistantMessage(
        content=[
            ThinkingBlock(thinking="The order first.", signature="sig"),
            TextBlock(text="Looking."),
            ToolUseBlock(id="toolu_2", name="lookup", input={"order": 7}),
        ],
        model="claude",
    ),
    UserMessage(content=[ToolResultBlock(tool_use_id="toolu_2", content=[], is_error=None)]),
    UserMessage(content="Thanks."),
    ResultMessage(
        subtype="success",
        duration_ms=1,
        duration_api_ms=1,
        is_error=False,
        num_turns=1,
        session_id="s-1",
    ),
]


def test_the_sdk_classes_built_directly() -> None:
    assert to_calls(BUILT) == [
        ToolCall("lookup", {"order": 7}, id="toolu_2", result=[], failed=False)
    ]


def test_a_tool_result_block_alone_answers_nothing_it_holds_no_call() -> None:
    assert to_calls(ToolResultBlock(tool_use_id="toolu_9", content="x", is_error=True)) == []


@pytest.mark.parametrize(
    "lines", [DENIED_RUN, DEFERRED_RUN], ids=["a permission denial", "a deferred call"]
)
def test_the_cli_lines_read_as_the_messages_the_sdk_parses_from_them(
    lines: tuple[dict[str, Any], ...],
) -> None:
    [call] = to_calls(run(*lines))
    assert call.status in ("denied", "pending")  # the result line's, read from the line too
    assert to_calls(list(lines)) == [call]


@pytest.mark.parametrize(
    "messages",
    [run(*DENIED_RUN), run(*DEFERRED_RUN), BUILT],
    ids=["a permission denial", "a deferred call", "built directly"],
)
def test_the_messages_as_dataclasses_asdict_writes_them_read_as_the_messages(
    messages: list[Any],
) -> None:
    fields = [asdict(message) for message in messages]
    assert "type" not in fields[-1]  # the ResultMessage, told by its subtype
    assert to_calls(fields) == to_calls(messages) != []


def test_a_server_tool_result_block_as_asdict_writes_it_reads_as_the_block() -> None:
    use = ServerToolUseBlock(id="srvtoolu_1", name="web_search", input={"query": "x"})
    error = {"type": "web_search_tool_result_error", "error_code": "unavailable"}
    done = ServerToolResultBlock(tool_use_id="srvtoolu_1", content=error)
    assert "is_error" not in asdict(done)
    assert to_calls([asdict(use), asdict(done)]) == to_calls([use, done])
    assert to_calls([use, done])[0].failed is True


def test_a_subtype_alone_is_neither_a_result_nor_a_system_message() -> None:
    with pytest.raises(TypeError) as error:
        to_calls({"subtype": "success"})
    assert str(error.value).startswith(
        "to_calls cannot read tool calls from input: {'subtype': 'success'} (dict); "
    )
    assert ExpectedTool.never("refund") != {"subtype": "success"}


def test_a_result_line_whose_deferred_call_is_no_object_says_so() -> None:
    with pytest.raises(TypeError) as error:
        to_calls(result_line(deferred_tool_use="toolu_1"))
    assert str(error.value) == "input.deferred_tool_use must be an object, got 'toolu_1' (str)"


def test_an_event_object_without_a_session_is_no_stream_event() -> None:
    with pytest.raises(TypeError) as error:
        to_calls({"event": {"type": "message_start"}})
    assert str(error.value).startswith(
        "to_calls cannot read tool calls from input: {'event': {'type': 'message_start'}} "
    )


def test_the_cli_lines_record_the_final_answer_the_messages_do_not() -> None:
    lines = [*DENIED_RUN[:2], assistant({"type": "text", "text": "I cannot."}, "u4", "msg_2")]
    assert final_answer(lines) == "I cannot."
    with pytest.raises(ValueError, match="records no message") as error:
        final_answer(run(*lines))
    assert str(error.value).startswith("a Claude Agent SDK message")
