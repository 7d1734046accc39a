"""``ToolCall.status``: how a call ended (succeeded, failed, error, denied, pending), read
where the format records it, never disagreeing with ``failed``, matched by
``ExpectedTool(status=...)`` and the spec key ``status``."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest

from commands import jsonl, toolmatch
from toolmatch import (
    ANY,
    ConfigError,
    ExpectedTool,
    NotRecordedError,
    OneOf,
    Regex,
    ToolCall,
    check_turn,
    explain,
    load_expected_tools,
    to_calls,
)

PICKLES = Path(__file__).parent / "data" / "pickles" / "exports.pickle"
DENIED = ToolCall("refund", {"order": 7}, id="c1", status="denied")


# --- the field ---------------------------------------------------------------------------


def test_a_bare_failed_flag_sets_the_status_and_a_status_sets_the_flag() -> None:
    assert ToolCall("f", failed=True).status == "failed"
    assert ToolCall("f", failed=False).status == "succeeded"
    assert ToolCall("f").status is None
    assert [ToolCall("f", status=status).failed for status in ("succeeded", "failed", "error")] == [
        False,
        True,
        True,
    ]
    assert ToolCall("f", status="denied").failed is None
    assert ToolCall("f", status="pending").failed is None
    assert ToolCall("f", failed=True, status="error").status == "error"


def test_a_status_and_a_flag_that_disagree_are_refused() -> None:
    with pytest.raises(ValueError, match="status") as error:
        ToolCall("f", failed=False, status="denied")
    assert str(error.value) == (
        "ToolCall failed=False disagrees with status='denied': failed is True for 'failed' "
        "and 'error', False for 'succeeded', None for 'denied' and 'pending'"
    )
    with pytest.raises(ValueError, match="status") as error:
        ToolCall("f", status="done")
    assert str(error.value) == (
        "ToolCall status must be one of 'succeeded', 'failed', 'error', 'denied', 'pending', "
        "a matcher or None, got 'done'"
    )
    with pytest.raises(TypeError) as error:
        ToolCall("f", status=3)  # type: ignore[arg-type]
    assert str(error.value) == "ToolCall status must be a str, a matcher or None, got 3 (int)"


def test_the_status_is_shown_only_where_failed_does_not_say_it() -> None:
    assert repr(DENIED) == "ToolCall(name='refund', args={'order': 7}, id='c1', status='denied')"
    assert repr(ToolCall("f", failed=True)) == "ToolCall(name='f', args={}, failed=True)"
    assert repr(ToolCall("f", status="error")) == (
        "ToolCall(name='f', args={}, failed=True, status='error')"
    )
    assert DENIED.as_dict() == {
        "name": "refund",
        "args": {"order": 7},
        "id": "c1",
        "parse_error": None,
        "result": None,
        "failed": None,
        "status": "denied",
    }
    assert "status" not in ToolCall("f", failed=False).as_dict()
    for call in (DENIED, ToolCall("f", status="error"), ToolCall("f", failed=False)):
        assert eval(repr(call)) == call  # the repr is the code that builds it


def test_the_status_takes_part_in_equality() -> None:
    assert ToolCall("refund", {"order": 7}, id="c1", status="denied") == DENIED
    assert ToolCall("refund", {"order": 7}, id="c1", status="pending") != DENIED
    assert ToolCall("refund", {"order": 7}, id="c1") != DENIED
    assert ToolCall("refund", {"order": 7}, id="c1", status=OneOf("denied", "pending")) == DENIED
    assert ToolCall("refund", {"order": 7}, id="c1", status=ANY) == DENIED
    # a matcher for failed stands for any status, as before status existed
    assert ToolCall("f", failed=True) == ToolCall("f", failed=ANY)
    assert ToolCall("f", status="denied") == ToolCall("f", failed=ANY)
    assert repr(ToolCall("f", failed=ANY)) == "ToolCall(name='f', args={}, failed=ANY)"
    # any status is any failed flag: one ANY stands for both, shown as failed=ANY
    assert repr(ToolCall("f", status=ANY)) == "ToolCall(name='f', args={}, failed=ANY)"
    assert ToolCall("f", status=ANY) == ToolCall("f", failed=ANY)
    assert [str(m) for m in explain(ToolCall("refund", {"order": 7}, "c1"), DENIED)] == [
        "status: expected None, got 'denied'"
    ]


def test_a_call_pickled_before_status_existed_loads_with_the_status_its_flag_says() -> None:
    stored = pickle.loads(PICKLES.read_bytes())["ToolCall"]
    assert stored.status is None
    assert pickle.loads(pickle.dumps(DENIED)) == DENIED
    assert pickle.loads(pickle.dumps(ToolCall("f", failed=False))).status == "succeeded"


def test_a_recorded_call_with_a_status_matcher_is_refused() -> None:
    with pytest.raises(TypeError) as error:
        to_calls([ToolCall("f", status=OneOf("denied", "pending"))])
    assert str(error.value) == (
        "input[0] is an expected call, not a recorded one: its status is a matcher: "
        "ToolCall(name='f', args={}, status=OneOf('denied', 'pending'))"
    )


# --- matching ----------------------------------------------------------------------------


def test_expected_status_names_one_or_several_or_a_matcher() -> None:
    calls = [DENIED, ToolCall("refund", {"order": 8}, failed=False)]
    assert ExpectedTool("refund", status="denied") == calls
    assert ExpectedTool("refund", status=["denied", "pending"]) == calls
    assert ExpectedTool("refund", status={"succeeded"}) == calls
    assert ExpectedTool("refund", status=Regex("den.*")) == calls
    assert ExpectedTool("refund", status="succeeded", count=2) != calls
    assert ExpectedTool.never("refund", status="pending") == calls
    assert ExpectedTool.never("refund", status="denied") != calls


def test_a_status_mismatch_says_what_was_expected_and_got() -> None:
    def reason(tool: ExpectedTool, call: ToolCall = DENIED) -> object:
        return tool.check([call]).unmatched_reason

    assert reason(ExpectedTool("refund", status="succeeded")) == (
        "call 0: (status): expected 'succeeded', got 'denied'"
    )
    assert reason(ExpectedTool("refund", status=["failed", "error"])) == (
        "call 0: (status): expected one of 'failed', 'error', got 'denied'"
    )
    # a status the trace does not record: an error where the verdict turns on it
    with pytest.raises(NotRecordedError, match=r"^ExpectedTool\('refund', status='succeeded'\) "):
        reason(ExpectedTool("refund", status="succeeded"), ToolCall("refund"))
    assert reason(ExpectedTool("refund", status="succeeded", count=2), ToolCall("refund")) == (
        "call 0: (status): expected 'succeeded', the trace does not say"
    )
    assert reason(ExpectedTool("refund", status=Regex("succ.*"))) == (
        "call 0: (status): regex 'succ.*' does not match 'denied'"
    )
    # failed=False on a call that never ran: said by its status
    assert reason(ExpectedTool("refund", failed=False)) == (
        "call 0: (failed): expected False, the call's status is 'denied'"
    )
    check = ExpectedTool("refund", {"order": 7}, status="succeeded").check([DENIED])
    assert check.score == 0.5  # the argument holds, the status does not


def test_bad_expected_statuses_are_refused_when_made() -> None:
    with pytest.raises(ValueError, match="status") as error:
        ExpectedTool("f", status="done")
    assert str(error.value) == (
        "ExpectedTool status 'done' is not a status; accepted: 'succeeded', 'failed', "
        "'error', 'denied', 'pending'"
    )
    with pytest.raises(TypeError) as error:
        ExpectedTool("f", status=[])
    assert str(error.value) == (
        "ExpectedTool status must be a status name ('succeeded', 'failed', 'error', 'denied', "
        "'pending'), a non-empty list or set of them, a matcher, or None, got [] (list)"
    )
    with pytest.raises(ValueError, match="status") as error:
        ExpectedTool("f", failed=True, status="succeeded")
    assert str(error.value) == (
        "ExpectedTool failed=True and status='succeeded' can never both hold: failed is True "
        "for 'failed' and 'error', False for 'succeeded', None for 'denied' and 'pending'"
    )
    ExpectedTool("f", failed=True, status=["error", "denied"])  # error goes with failed
    with pytest.raises(ValueError, match="status") as error:
        ExpectedTool("f", status=[["denied"]])  # type: ignore[list-item]
    assert str(error.value).startswith("ExpectedTool status ['denied'] is not a status;")


def test_expected_status_repr_and_pickle() -> None:
    tool = ExpectedTool("refund", status={"pending", "denied"})
    assert repr(tool) == "ExpectedTool('refund', status=['denied', 'pending'])"
    never = ExpectedTool.never("refund", status="denied")
    assert repr(never) == "ExpectedTool.never('refund', status='denied')"
    for each in (tool, never):
        again = pickle.loads(pickle.dumps(each))
        assert repr(again) == repr(each)
        assert (again == [DENIED]) is (each == [DENIED])


def test_a_report_shows_a_status_only_where_failed_does_not_say_it() -> None:
    result = check_turn([ExpectedTool("refund", status="succeeded")], [DENIED])
    assert "call 0 refund({'order': 7}) (denied): (status): expected 'succeeded', got 'denied'" in (
        str(result)
    )
    candidate = result.as_dict()["checks"][0]["candidates"][0]
    assert candidate["status"] == "denied"
    plain = check_turn([ExpectedTool("refund", failed=False)], [ToolCall("refund", failed=True)])
    assert "status" not in plain.as_dict()["checks"][0]["candidates"][0]


# --- spec files --------------------------------------------------------------------------

yaml = pytest.importorskip("yaml")


def test_the_spec_key_status() -> None:
    text = """
    - {name: refund, status: succeeded}
    - {name: refund, status: [denied, pending]}
    - {name: refund, status: {$regex: 'den.*'}}
    """
    ran, held, matched = load_expected_tools(yaml.safe_load(text))
    assert (ran.status, held.status) == ("succeeded", ("denied", "pending"))
    assert held == [DENIED]
    assert matched == [DENIED]
    assert ran != [DENIED]


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        (
            "[{name: f, status: done}]",
            "expected_tools[0].status",
            "'done' is not a status; accepted: 'succeeded', 'failed', 'error', 'denied', 'pending'",
        ),
        (
            "[{name: f, status: [succeeded, 3]}]",
            "expected_tools[0].status",
            "3 is not a status; accepted: 'succeeded', 'failed', 'error', 'denied', 'pending'",
        ),
        (
            "[{name: f, status: {stage: x}}]",
            "expected_tools[0].status",
            "a status mapping must be a matcher with a $ key, got {'stage': 'x'}",
        ),
    ],
)
def test_bad_spec_statuses_name_their_place(text: str, path: str, message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_expected_tools(yaml.safe_load(text))
    assert [(found.path, found.message) for found in caught.value.problems] == [(path, message)]


def _mcp_call(number: int, order: int, answer: dict[str, Any]) -> list[dict[str, Any]]:
    request = {"name": "refund", "arguments": {"order": order}}
    return [
        {"jsonrpc": "2.0", "id": number, "method": "tools/call", "params": request},
        {"jsonrpc": "2.0", "id": number, **answer},
    ]


def test_the_cli_checks_a_status_and_ignores_by_status(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: refund\n"
        "    ignore: [{name: refund, status: error}]\n"
        "    exhaustive: true\n"
        "    expected_tools: [{name: refund, status: succeeded}]\n",
        encoding="utf-8",
    )
    refused = _mcp_call(1, 9, {"error": {"code": -32602, "message": "no such order"}})
    done = _mcp_call(2, 8, {"result": {"content": [], "isError": False}})
    broken = _mcp_call(2, 8, {"result": {"content": [], "isError": True}})
    traces = jsonl({"case": "refund", "turns": [refused + done]})
    good = toolmatch("check", spec, "-", stdin=traces)
    assert (good.returncode, good.stdout) == (0, "PASS refund\n1 passed, 0 failed\n")
    bad = toolmatch("check", spec, "-", stdin=jsonl({"case": "refund", "turns": [broken]}))
    assert bad.returncode == 1
    assert bad.stdout.splitlines()[:3] == [
        "FAIL refund",
        "  turn 0, expected_tools[0]: ExpectedTool('refund', status='succeeded')",
        "    call 0: (status): expected 'succeeded', got 'failed'",
    ]


# --- readers -----------------------------------------------------------------------------


def test_mcp_protocol_errors_are_errors_and_tool_errors_are_failures() -> None:
    transcript = [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "a"}},
        {"jsonrpc": "2.0", "id": 1, "result": {"content": [], "isError": True}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "b"}},
        {"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "unknown tool"}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "c"}},
        {"jsonrpc": "2.0", "id": 3, "result": {"content": []}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "d"}},
    ]
    assert [(call.failed, call.status) for call in to_calls(transcript)] == [
        (True, "failed"),
        (True, "error"),
        (False, "succeeded"),
        (None, None),
    ]


def test_mcp_sdk_objects_dumped_both_ways() -> None:
    types = pytest.importorskip("mcp.types")
    request = types.JSONRPCRequest(
        jsonrpc="2.0", id=1, method="tools/call", params={"name": "a", "arguments": {}}
    )
    error = types.JSONRPCError(
        jsonrpc="2.0", id=1, error=types.ErrorData(code=-32602, message="unknown tool")
    )
    for dump in ({}, {"by_alias": True, "mode": "json"}):
        (call,) = to_calls([request.model_dump(**dump), error.model_dump(**dump)])
        assert (call.failed, call.status) == (True, "error")


def test_vercel_model_message_approvals() -> None:
    def conversation(approved: bool | None) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = [
            {
                "role": "assistant",
                "content": [
                    {"type": "tool-call", "toolCallId": "c1", "toolName": "refund",
                     "input": {"order": 7}},
                    {"type": "tool-approval-request", "approvalId": "a1", "toolCallId": "c1"},
                ],
            }
        ]  # fmt: skip
        if approved is not None:
            messages.append(
                {
                    "role": "tool",
                    "content": [
                        {
                            "type": "tool-approval-response",
                            "approvalId": "a1",
                            "approved": approved,
                            "reason": "too much",
                        },
                    ],
                }
            )
        return messages

    assert [call.status for call in to_calls(conversation(None))] == ["pending"]
    assert [call.status for call in to_calls(conversation(False))] == ["denied"]
    assert [call.status for call in to_calls(conversation(True))] == [None]  # not yet run
    answered = [
        *conversation(True),
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1",
                                      "toolName": "refund",
                                      "output": {"type": "text", "value": "refunded"}}]},
    ]  # fmt: skip
    assert [call.status for call in to_calls(answered)] == ["succeeded"]
    denied = {"type": "tool-result", "toolCallId": "c1", "toolName": "refund",
              "output": {"type": "execution-denied", "reason": "too much"}}  # fmt: skip
    (call,) = to_calls([*conversation(False), {"role": "tool", "content": [denied]}])
    assert (call.status, call.failed, call.result) == ("denied", None, denied["output"])


def test_vercel_generate_text_approval_request_names_its_call() -> None:
    content = [
        {"type": "tool-call", "toolCallId": "c1", "toolName": "refund", "input": {"order": 7}},
        {"type": "tool-approval-request", "approvalId": "a1",
         "toolCall": {"type": "tool-call", "toolCallId": "c1", "toolName": "refund",
                      "input": {"order": 7}}},
    ]  # fmt: skip
    assert to_calls(content) == [ToolCall("refund", {"order": 7}, id="c1", status="pending")]
    with pytest.raises(TypeError) as error:
        to_calls([{"type": "tool-approval-request", "approvalId": "a1"}])
    assert str(error.value).startswith(
        "to_calls cannot read tool calls from input[0]: {'type': 'tool-approval-request'"
    )


@pytest.mark.parametrize(
    ("part", "status"),
    [
        ({"state": "approval-requested", "approval": {"id": "a1"}}, "pending"),
        ({"state": "approval-responded", "approval": {"id": "a1", "approved": False}}, "denied"),
        ({"state": "approval-responded", "approval": {"id": "a1", "approved": True}}, None),
        ({"state": "output-denied", "approval": {"id": "a1", "approved": False}}, "denied"),
        ({"state": "output-available", "output": "refunded"}, "succeeded"),
        ({"state": "output-error", "errorText": "no such order"}, "failed"),
        ({"state": "input-available"}, None),
    ],
)
def test_vercel_ui_part_states(part: dict[str, Any], status: str | None) -> None:
    ui = {"type": "tool-refund", "toolCallId": "c1", "input": {"order": 7}, **part}
    (call,) = to_calls({"id": "m1", "role": "assistant", "parts": [ui]})
    assert call.status == status


def test_pydantic_ai_denied_outcome_is_denied_not_failed() -> None:
    messages = pytest.importorskip("pydantic_ai.messages")
    response = messages.ModelResponse(
        parts=[messages.ToolCallPart("refund", {"order": 7}, tool_call_id="c1")]
    )
    request = messages.ModelRequest(
        parts=[
            messages.ToolReturnPart(
                "refund", "The user denied this.", tool_call_id="c1", outcome="denied"
            )
        ]
    )
    for dumped in (
        [response, request],
        messages.ModelMessagesTypeAdapter.dump_python([response, request], mode="json"),
    ):
        (call,) = to_calls(dumped)
        assert (call.status, call.failed, call.result) == ("denied", None, "The user denied this.")


# LangGraph: a tool that asks a human before it runs, on a real graph --------------------


def _approval_graph() -> Any:
    langgraph = pytest.importorskip("langgraph")
    del langgraph
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode
    from langgraph.types import interrupt

    @tool
    def delete_file(path: str) -> str:
        """Delete a file, once a human says yes."""
        return f"deleted {path}" if interrupt({"path": path}) == "yes" else "kept"

    def agent(state: Any) -> dict[str, Any]:
        if any(message.type == "tool" for message in state["messages"]):
            return {"messages": [AIMessage("Done.", id="ai_2")]}
        call = {"name": "delete_file", "args": {"path": "/tmp/x"}, "id": "call_d"}
        return {"messages": [AIMessage("", id="ai_1", tool_calls=[call])]}

    def route(state: Any) -> str:
        return "tools" if state["messages"][-1].tool_calls else END

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode([delete_file]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", route)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=InMemorySaver())


QUESTION = {"messages": [{"role": "user", "content": "Delete /tmp/x", "id": "h1"}]}


@pytest.mark.parametrize("mode", ["updates", "values", "debug", "tasks"])
def test_langgraph_calls_stopped_at_an_interrupt_are_pending(mode: str) -> None:
    from langgraph.types import Command

    graph = _approval_graph()
    config = {"configurable": {"thread_id": mode}}
    stopped = list(graph.stream(QUESTION, config, stream_mode=mode))
    (call,) = to_calls(stopped)
    assert (call.name, call.result, call.status) == ("delete_file", None, "pending")
    resumed = list(graph.stream(Command(resume="yes"), config, stream_mode=mode))
    (call,) = to_calls(stopped + resumed)
    assert (call.result, call.status) == ("deleted /tmp/x", "succeeded")


def test_langgraph_invoke_state_snapshot_and_v2_parts_at_an_interrupt() -> None:
    graph = _approval_graph()
    config = {"configurable": {"thread_id": "invoke"}}
    state = graph.invoke(QUESTION, config)
    assert "__interrupt__" in state
    pending = [ToolCall("delete_file", {"path": "/tmp/x"}, id="call_d", status="pending")]
    assert to_calls(state) == pending
    assert to_calls(graph.get_state(config)) == pending
    parts = list(
        graph.stream(
            QUESTION,
            {"configurable": {"thread_id": "v2"}},
            stream_mode=["updates", "values"],
            version="v2",
        )
    )
    assert [call.status for call in to_calls(parts)] == ["pending"]
    # the messages mode says nothing of the interrupt: no status
    chunks = list(
        graph.stream(QUESTION, {"configurable": {"thread_id": "m"}}, stream_mode="messages")
    )
    assert [call.status for call in to_calls(chunks)] == [None]


def test_a_json_report_row_round_trips_the_status() -> None:
    data = json.loads(json.dumps(DENIED.as_dict()))
    assert ToolCall(**data) == DENIED
