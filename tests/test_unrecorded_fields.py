"""A check on a field the input does not record (``agent=``, ``failed=``, ``status=``,
``result=``, the turn's ``agent``) is an error naming the format and what to pass, never a
pass (issue 34, deliverable 1): on the SDKs' own objects, in Python and in the CLI."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from commands import jsonl, toolmatch
from toolmatch import (
    ANY,
    ExpectedTool,
    ExpectedTurn,
    Mismatch,
    NotRecordedError,
    Regex,
    TestCase,
    ToolCall,
    check_turn,
    explain,
    to_calls,
)
from toolmatch._readers import dispatch
from toolmatch._readers.reading import no_call
from toolmatch._readers.records import RECORDS, format_of, records_table

pytest.importorskip("langgraph")
pytest.importorskip("openai")
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.tools import tool as langchain_tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from openai.types.chat import ChatCompletionMessage


@langchain_tool("refund")
def refund_tool(order: int) -> str:
    """Refund an order."""
    return f"refunded order {order}"


class ScriptedModel(FakeMessagesListChatModel):
    """langchain-core's fake chat model, answering from its list, with tools bound."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        return self


def triage_graph() -> Any:
    """A triage node that refunds order 7 (through a ToolNode), then answers."""
    model = ScriptedModel(
        responses=[
            AIMessage("", tool_calls=[{"name": "refund", "args": {"order": 7}, "id": "call_1"}]),
            AIMessage("Refunded."),
        ]
    )

    def triage(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("triage", triage)
    builder.add_node("tools", ToolNode([refund_tool]))
    builder.add_edge(START, "triage")
    builder.add_conditional_edges("triage", tools_condition)
    builder.add_edge("tools", "triage")
    return builder.compile()


QUESTION = {"messages": [("user", "Refund order 7.")]}
LANGGRAPH_AGENT = (
    "ExpectedTool.never('refund', agent='triage') asserts who made call 0 "
    "refund({'order': 7}), which a LangGraph state does not record: pass the updates stream "
    '(graph.stream(..., stream_mode="updates")), or leave agent= out'
)


def test_never_on_an_agent_a_langgraph_state_does_not_record_is_an_error() -> None:
    state = triage_graph().invoke(QUESTION)
    never = ExpectedTool.never("refund", agent="triage")
    with pytest.raises(NotRecordedError) as error:
        never.check(state)
    assert str(error.value) == LANGGRAPH_AGENT
    assert isinstance(error.value, ValueError)
    assert never != state  # as a matcher: not equal, never a pass
    # the updates stream records the node: the same check is judged, and fails
    updates = list(triage_graph().stream(QUESTION, stream_mode="updates"))
    assert not never.check(updates).passed


def history_with_an_error() -> list[Any]:
    """An OpenAI Chat Completions history whose tool answered with an error text."""
    return [
        {"role": "user", "content": "Refund order 7."},
        ChatCompletionMessage(
            role="assistant",
            content=None,
            tool_calls=[
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "refund", "arguments": '{"order": 7}'},
                }
            ],
        ),
        {"role": "tool", "tool_call_id": "call_1", "content": "Error: the refund window is closed"},
    ]


OPENAI_FAILED = (
    "ExpectedTool.never(ANY, failed=True) asserts whether call 0 refund({'order': 7}) failed, "
    "which a chat message does not record: an OpenAI tool message has no failure flag; pass "
    "results with a failure flag (Anthropic tool_result blocks with is_error, LangChain "
    "ToolMessages with status), or leave failed= out"
)


def test_never_failed_on_an_openai_chat_history_is_an_error() -> None:
    history = history_with_an_error()
    (call,) = to_calls(history)
    assert (call.result, call.failed) == ("Error: the refund window is closed", None)
    never = ExpectedTool.never(ANY, failed=True)
    with pytest.raises(NotRecordedError) as error:
        never.check(history)
    assert str(error.value) == OPENAI_FAILED
    assert never != history
    with pytest.raises(NotRecordedError):
        check_turn([ExpectedTool("refund", failed=False)], history)


# --- every form of check, and where the verdict does not turn on the field -----------------

LOOKED_UP = [ToolCall("lookup", {"order": 7}, agent="triage"), ToolCall("refund", {"order": 7})]


def test_an_ignore_pattern_on_an_unrecorded_field_is_an_error() -> None:
    with pytest.raises(NotRecordedError) as error:
        check_turn(
            [ExpectedTool("lookup")], LOOKED_UP, ignore=[ExpectedTool("refund", agent="ops")]
        )
    assert str(error.value) == (
        "ignore[0] ExpectedTool('refund', agent='ops') asserts who made call 1 "
        "refund({'order': 7}), which a plain call does not record: pass calls that hold their "
        'agent (ToolCall(agent=...), an "agent" key), or leave agent= out'
    )
    # a pattern whose other fields already rule the call out needs no agent
    kept = check_turn(
        [ExpectedTool("refund")],
        LOOKED_UP,
        ignore=[ExpectedTool("refund", {"order": 8}, agent="ops")],
    )
    assert kept.passed


def test_the_turn_agent_option_on_a_call_without_an_agent_is_an_error() -> None:
    with pytest.raises(NotRecordedError) as error:
        check_turn([ExpectedTool("lookup")], LOOKED_UP, agent="triage")
    assert str(error.value) == (
        "the turn's agent='triage' asserts who made call 1 refund({'order': 7}), which a plain "
        'call does not record: pass calls that hold their agent (ToolCall(agent=...), an "agent" '
        "key), or leave the agent option out"
    )
    # left out by an ignore pattern first, it is not judged: no agent is needed
    result = check_turn(
        [ExpectedTool("lookup")], LOOKED_UP, agent="triage", ignore=[ExpectedTool("refund")]
    )
    assert result.passed


def test_a_count_the_unrecorded_calls_cannot_change_is_judged() -> None:
    calls = [
        ToolCall("book", {}, result="booked", failed=False),
        ToolCall("book", {}),  # its answer is not in the trace
    ]
    assert ExpectedTool("book", failed=False).check(calls).passed  # one is enough, and there
    with pytest.raises(NotRecordedError):  # at most one: the second may be another
        ExpectedTool("book", failed=False, max_count=1).check(calls)
    with pytest.raises(NotRecordedError):
        ExpectedTool("book", failed=False, count=2).check(calls)
    with pytest.raises(NotRecordedError) as error:
        ExpectedTool.never("book", result=Regex("refused.*")).check(calls)
    assert str(error.value).endswith(
        "asserts the result of call 1 book({}), which a plain call does not record: pass calls "
        'that hold their result (ToolCall(result=...), a "result" key), or leave result= out'
    )
    assert not ExpectedTool("book", failed=True, count=2).check(calls).passed  # 2 > 0 + 1


def test_a_status_check_and_its_message() -> None:
    calls = [ToolCall("refund", {"order": 7}, status="denied"), ToolCall("refund", {"order": 8})]
    with pytest.raises(NotRecordedError) as error:
        ExpectedTool.never("refund", status="succeeded").check(calls)
    assert str(error.value) == (
        "ExpectedTool.never('refund', status='succeeded') asserts how call 1 "
        "refund({'order': 8}) ended, which a plain call does not record: pass calls that hold "
        'their status (ToolCall(status=...), a "status" key), or leave status= out'
    )
    # a denied call records that it neither failed nor succeeded
    assert ExpectedTool.never("refund", {"order": 7}, failed=True).check(calls).passed


def test_a_model_response_alone_holds_no_answers() -> None:
    response = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "refund", "input": {}}],
    }
    with pytest.raises(NotRecordedError) as error:
        ExpectedTool.never("refund", failed=True).check(response)
    assert str(error.value) == (
        "ExpectedTool.never('refund', failed=True) asserts whether call 0 refund({}) failed, "
        "which an Anthropic message does not record: the input holds no answer to the call; "
        "pass the run with its tools' results, or leave failed= out"
    )
    answered = [
        response,
        {
            "role": "user",
            "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}],
        },
    ]
    assert ExpectedTool.never("refund", failed=True).check(answered).passed


def test_a_run_names_its_turn_and_explain_shows_the_error() -> None:
    case = TestCase(
        "refund",
        [
            ExpectedTurn([ExpectedTool("lookup")]),
            ExpectedTurn([ExpectedTool.never("refund", agent="ops")]),
        ],
    )
    with pytest.raises(NotRecordedError) as error:
        case.check([LOOKED_UP[:1], LOOKED_UP[1:]])
    assert str(error.value).startswith(
        "turn 1: ExpectedTool.never('refund', agent='ops') asserts who made call 0 "
    )
    assert explain(ExpectedTool.never("refund", agent="ops"), LOOKED_UP) == [
        Mismatch("", str(not_recorded_text(LOOKED_UP)))
    ]


def not_recorded_text(calls: list[ToolCall]) -> str:
    with pytest.raises(NotRecordedError) as error:
        ExpectedTool.never("refund", agent="ops").check(calls)
    return str(error.value)


# --- the CLI: the run is NOT EVALUABLE, never a pass, in every format ---------------------


def test_the_cli_reports_the_run_not_evaluable_never_a_pass(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: guard\n"
        "    expected_tools: [{name: refund, never: true, agent: triage}]\n",
        encoding="utf-8",
    )
    traces = tmp_path / "runs.jsonl"
    unnamed = [{"name": "refund", "args": {"order": 7}}]
    named = [{"name": "refund", "args": {"order": 7}, "agent": "billing"}]
    traces.write_text(
        jsonl({"case": "guard", "turns": [unnamed]}, {"case": "guard", "turns": [named]}),
        encoding="utf-8",
    )
    message = (
        "turn 0: ExpectedTool.never('refund', agent='triage') asserts who made call 0 "
        "refund({'order': 7}), which a plain call does not record: pass calls that hold their "
        'agent (ToolCall(agent=...), an "agent" key), or leave agent= out'
    )
    done = toolmatch("check", spec, traces)
    assert done.returncode == 1, done.stderr
    # The one run judged passed: pass^k is over it, the other counted apart.
    assert done.stdout.splitlines() == [
        f"NOT EVALUABLE guard: {message}",
        "PASS guard (run 2)",
        "TRIALS guard: 1/1 passed (1 not evaluable), pass^1 1.000",
        "TRIALS mean over 1 case: pass^1 1.000",
        "1 passed, 0 failed, 1 not evaluable",
    ]
    rows = [
        json.loads(line)
        for line in toolmatch("check", spec, traces, "--format", "json").stdout.splitlines()
    ]
    assert rows[0] == {
        "type": "not_evaluable", "case": "guard", "run": 1, "line": 1, "reason": message
    }  # fmt: skip
    report = tmp_path / "junit.xml"
    toolmatch("check", spec, traces, "--junit-xml", report)
    [suite] = ElementTree.parse(report).getroot().findall("testsuite")
    [skipped] = list(suite.findall("testcase")[0])
    assert (skipped.tag, skipped.get("type"), skipped.get("message")) == (
        "skipped", "not-evaluable", message
    )  # fmt: skip


# --- the declaration: every reader in one format, the docs' table equal to it ---------------


def dispatch_readers() -> set[object]:
    """Every reader the dispatch table hands a shape to, but those that hold no call, refuse
    the value, or only hold other shapes."""
    rows = [
        *dispatch.TYPES.values(),
        *(handler for _, handler in dispatch.TYPE_PREFIXES),
        *dispatch.OBJECTS.values(),
        *dispatch.ROLES.values(),
        *(handler for _, handler in dispatch.KEYS),
        *dispatch.BY_CLASS.values(),
        *dispatch.BY_TYPE.values(),
        *(handler for _, handler in dispatch.SHAPES),
    ]
    return {
        handler
        for handler in rows
        if handler is not no_call
        and handler not in dispatch._CONTAINERS
        and not handler.__qualname__.startswith("refuse.")
    }


def test_every_reader_of_the_dispatch_table_is_in_exactly_one_format() -> None:
    declared = [reader for records in RECORDS for reader in records.readers]
    assert len(declared) == len(set(declared)), "a reader declared in two formats"
    readers = dispatch_readers()
    missing = sorted(f"{h.__module__}.{h.__qualname__}" for h in readers - set(declared))
    assert not missing, f"declare these readers' format in RECORDS: {missing}"
    assert set(declared) <= readers, "RECORDS names a reader the dispatch table does not use"


def test_docs_formats_table_is_the_declaration() -> None:
    text = (Path(__file__).resolve().parent.parent / "docs" / "formats.md").read_text("utf-8")
    section = text.split("## What each format records\n", 1)[1].split("\n## ", 1)[0]
    table = "\n".join(line for line in section.splitlines() if line.startswith("|"))
    assert table == records_table()
    assert [records.name for records in RECORDS] == list(dict.fromkeys(r.name for r in RECORDS))


@pytest.mark.parametrize(
    ("obj", "name"),
    [
        (
            {"messages": [AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": "c1"}])]},
            "a LangGraph state",
        ),
        (
            {
                "agent": {
                    "messages": [AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": "c1"}])]
                }
            },
            "a LangGraph stream",
        ),
        (
            [AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": "c1"}])],
            "a LangChain message",
        ),
        (
            [
                {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "f", "arguments": "{}"},
                        }
                    ],
                }
            ],
            "a chat message",
        ),
        ([ToolCall("f")], "a plain call"),
        ("f()", "a plain call"),
    ],
)
def test_a_call_is_of_the_format_of_the_outermost_shape_that_held_it(
    obj: object, name: str
) -> None:
    calls = to_calls(obj, syntax="python") if obj == "f()" else to_calls(obj)
    assert [format_of(call).name for call in calls] == [name]
    assert calls[0] == pickle.loads(pickle.dumps(calls[0]))  # the tag is no field


# --- the authoring commands: a run they cannot check is named, never taken as passing -------

UNNAMED = {"case": "c", "turns": [[{"name": "refund", "args": {"order": 7}}]]}
NAMED = {"case": "c", "turns": [[{"name": "refund", "args": {"order": 7}, "agent": "billing"}]]}
BILLING_UNSAID = (
    "asserts who made call 0 refund({'order': 7}), which a plain call does not record: pass "
    'calls that hold their agent (ToolCall(agent=...), an "agent" key), or leave agent= out'
)


def test_record_names_an_earlier_run_its_case_cannot_check(tmp_path: Path) -> None:
    done = toolmatch("record", "-", "--loosen", "none", stdin=jsonl(UNNAMED, NAMED))
    assert done.returncode == 0, done.stderr
    assert "    agent: billing\n" in done.stdout
    assert done.stderr == (
        "note: <stdin>:1: case 'c' is its run at <stdin>:2 (--loosen none); this run differs, "
        "and toolmatch check cannot check it: turn 0: ExpectedTool(Literal('refund'), "
        f"Exact({{'order': 7}}), agent='billing') {BILLING_UNSAID}\n"
    )


def test_record_into_names_a_run_the_widened_case_cannot_check(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n  - name: c\n    expected_tools:\n      - {name: refund, agent: billing}\n",
        encoding="utf-8",
    )
    widened = toolmatch("record", "-", "--into", spec, stdin=jsonl(UNNAMED))
    assert widened.returncode == 1
    assert widened.stderr.splitlines()[-1] == (
        "toolmatch: not widened: test_cases[0](c): run 1 cannot be checked by the widened "
        f"case: turn 0: ExpectedTool('refund', agent='billing') {BILLING_UNSAID}"
    )


def test_record_into_drops_an_ignore_cap_a_run_cannot_count(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: c\n"
        "    exhaustive: true\n"
        "    expected_tools: [{name: refund}]\n"
        "    ignore:\n"
        "      - {name: log, agent: ops, max_count: 1}\n",
        encoding="utf-8",
    )
    logs = {
        "case": "c",
        "turns": [[{"name": "refund", "args": {}}, {"name": "log"}, {"name": "log"}]],
    }
    toolmatch("record", "-", "--into", spec, stdin=jsonl(logs))
    assert "      - {name: log, agent: ops}\n" in spec.read_text(encoding="utf-8")
