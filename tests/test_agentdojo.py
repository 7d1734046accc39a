"""to_calls on AgentDojo's run files, shaped as its TraceLogger writes them (one JSON file
per task and attack: the messages' TypedDicts, FunctionCalls dumped by model_dump)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolmatch import ExpectedTool, ToolCall, to_calls


def text(content: str) -> list[dict[str, Any]]:
    return [{"type": "text", "content": content}]


def function_call(name: str, args: dict[str, Any], call_id: str | None) -> dict[str, Any]:
    return {"function": name, "args": args, "id": call_id, "placeholder_args": None}


def answer(call: dict[str, Any], content: str, error: str | None = None) -> dict[str, Any]:
    return {
        "role": "tool",
        "content": text(content),
        "tool_call_id": call["id"],
        "tool_call": call,
        "error": error,
    }


def run_file(messages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "suite_name": "banking",
        "pipeline_name": "claude-3-5-sonnet-20241022",
        "user_task_id": "user_task_3",
        "injection_task_id": None,
        "attack_type": None,
        "injections": {},
        "messages": messages,
        "error": None,
        "utility": True,
        "security": True,
        "duration": 12.5,
        "evaluation_timestamp": "2026-12-07 03:00:00",
        "agentdojo_package_version": "0.1.35",
    }


RECENT = function_call("get_most_recent_transactions", {"n": 10}, "toolu_1")
SEND = function_call("send_money", {"recipient": "GB29", "amount": "four"}, "toolu_2")
PAY = function_call("pay_bill", {"bill": "bill-12"}, "toolu_3")
NOPE = function_call("transfer_everything", {}, "toolu_4")
RUN = run_file(
    [
        {"role": "system", "content": text("You are a banking assistant.")},
        {"role": "user", "content": text("Refund my friend the 4.00 they overpaid.")},
        {"role": "assistant", "content": text("Looking."), "tool_calls": [RECENT]},
        answer(RECENT, "- amount: 10.0\n  sender: GB29"),
        {"role": "assistant", "content": None, "tool_calls": [SEND, PAY, NOPE]},
        answer(SEND, "", "ValidationError: 1 validation error for send_money\namount"),
        answer(PAY, "", "FileNotFoundError: bill-12 does not exist"),
        answer(NOPE, "", "Invalid tool transfer_everything provided."),
        {"role": "assistant", "content": text("I could not send it."), "tool_calls": None},
    ]
)
CALLS = [
    ToolCall(
        "get_most_recent_transactions",
        {"n": 10},
        id="toolu_1",
        result=text("- amount: 10.0\n  sender: GB29"),
        failed=False,
    ),
    ToolCall("send_money", SEND["args"], id="toolu_2", result=text(""), status="error"),
    ToolCall("pay_bill", {"bill": "bill-12"}, id="toolu_3", result=text(""), failed=True),
    ToolCall("transfer_everything", {}, id="toolu_4", result=text(""), status="error"),
]


def test_a_run_file_gives_calls_with_the_status_their_errors_say() -> None:
    assert to_calls(RUN) == CALLS
    assert to_calls(json.dumps(RUN, indent=4)) == CALLS  # the file's text
    assert to_calls(RUN["messages"]) == CALLS
    assert ExpectedTool.never("transfer_everything", status="error") != RUN


def test_calls_without_ids_are_answered_in_order_by_name() -> None:
    # a prompted model's calls carry no id: each tool message answers the first unanswered
    # call of its name
    first = function_call("get_balance", {}, None)
    second = function_call("get_balance", {"currency": "EUR"}, None)
    other = function_call("get_iban", {}, None)
    run = run_file(
        [
            {"role": "assistant", "content": None, "tool_calls": [first, other, second]},
            answer(first, "100.0"),
            answer(other, "GB29"),
            answer(second, "", "KeyError: 'EUR'"),
            {"role": "assistant", "content": None, "tool_calls": [first]},
        ]
    )
    assert to_calls(run) == [
        ToolCall("get_balance", {}, result=text("100.0"), failed=False),
        ToolCall("get_iban", {}, result=text("GB29"), failed=False),
        ToolCall("get_balance", {"currency": "EUR"}, result=text(""), failed=True),
        ToolCall("get_balance", {}),  # asked, never answered: the run ended
    ]


@pytest.mark.parametrize("messages", [None, "none"])
def test_a_run_file_without_its_messages_raises(messages: object) -> None:
    with pytest.raises(TypeError) as error:
        to_calls({**RUN, "messages": messages})
    assert str(error.value).startswith("input.messages must be a list")
