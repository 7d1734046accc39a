"""toolmatch's own dicts read back: every field ``ToolCall.as_dict()`` writes comes back
equal from ``to_calls``, in Python, through JSON and through ``toolmatch check``; a field
of the wrong kind is refused naming its place and what it takes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commands import jsonl, toolmatch
from strategies import json_values_without_nan, keys, texts
from toolmatch import ToolCall, to_calls

# Every failed / status pair a ToolCall holds (a status alone sets its flag, and back).
_ENDINGS = [
    {},
    {"failed": True},
    {"failed": False},
    *({"status": status} for status in ("succeeded", "failed", "error", "denied", "pending")),
]


@st.composite
def recorded_calls(draw: st.DrawFn) -> ToolCall:
    parse_error = draw(st.none() | texts)
    # a call whose arguments could not be read has none, as every reader gives it; a dict
    # that holds both is read back as written too (test below)
    args = {} if parse_error is not None else draw(st.dictionaries(keys, json_values_without_nan))
    return ToolCall(
        draw(texts),
        args,
        id=draw(st.none() | texts),
        parse_error=parse_error,
        result=draw(json_values_without_nan),
        agent=draw(st.none() | texts),
        **draw(st.sampled_from(_ENDINGS)),
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(recorded_calls(), max_size=4))
def test_every_field_as_dict_writes_reads_back_equal(calls: list[ToolCall]) -> None:
    dicts = [call.as_dict() for call in calls]
    assert to_calls(dicts) == calls
    assert to_calls(json.loads(json.dumps(dicts))) == calls
    assert to_calls(json.dumps(dicts)) == calls


def test_agent_and_status_are_kept() -> None:
    call = ToolCall("f", {"a": 1}, agent="billing", status="denied")
    assert to_calls([call.as_dict()]) == [call]
    assert to_calls([call.as_dict()])[0].status == "denied"


def test_a_parse_error_beside_arguments_keeps_both() -> None:
    call = ToolCall("f", {"a": 1}, parse_error="arguments are not valid JSON")
    assert to_calls([call.as_dict()]) == [call]


def test_a_plain_call_names_its_agent_before_tau2s_requestor() -> None:
    [call] = to_calls([{"name": "f", "args": {}, "agent": "billing", "requestor": "user"}])
    assert call.agent == "billing"
    [tau2] = to_calls([{"name": "f", "arguments": {}, "requestor": "user"}])
    assert tau2.agent == "user"


def test_a_call_that_brought_its_result_keeps_it_before_a_later_answer() -> None:
    answered = ToolCall("f", {}, id="c1", result="ok", failed=False)
    calls = to_calls(
        [answered.as_dict(), {"role": "tool", "tool_call_id": "c1", "content": "again"}]
    )
    assert calls == [answered]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            {"status": "done"},
            "input[0].status must be one of 'succeeded', 'failed', 'error', 'denied', "
            "'pending' or None, got 'done' (str)",
        ),
        (
            {"status": 3},
            "input[0].status must be one of 'succeeded', 'failed', 'error', 'denied', "
            "'pending' or None, got 3 (int)",
        ),
        ({"failed": "yes"}, "input[0].failed must be a bool or None, got 'yes' (str)"),
        ({"failed": 1}, "input[0].failed must be a bool or None, got 1 (int)"),
        ({"agent": 7}, "input[0].agent must be a string or None, got 7 (int)"),
        (
            {"parse_error": ["bad"]},
            "input[0].parse_error must be a string or None, got ['bad'] (list)",
        ),
    ],
)
def test_a_field_of_the_wrong_kind_is_refused(extra: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match="must be") as raised:
        to_calls([{"name": "f", "args": {}, **extra}])
    assert str(raised.value) == message


def test_a_failed_flag_that_disagrees_with_the_status_is_refused() -> None:
    with pytest.raises(ValueError, match="disagrees") as raised:
        to_calls([{"name": "f", "args": {}, "failed": False, "status": "denied"}])
    assert str(raised.value) == (
        "input[0]: failed=False disagrees with status='denied': failed is True for 'failed' "
        "and 'error', False for 'succeeded', None for 'denied' and 'pending'"
    )


def test_the_cli_checks_agent_and_status_of_as_dict_turns(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: refund\n"
        "    exhaustive: true\n"
        "    expected_tools:\n"
        "      - {name: lookup, agent: triage, status: succeeded}\n"
        "      - {name: refund, agent: billing, status: denied}\n",
        encoding="utf-8",
    )
    lookup = ToolCall("lookup", {"order": 7}, id="c1", result="found", agent="triage", failed=False)
    refund = ToolCall("refund", {"order": 7}, id="c2", agent="billing", status="denied")
    wrong = ToolCall("refund", {"order": 7}, id="c2", agent="triage", status="pending")
    traces = tmp_path / "runs.jsonl"
    traces.write_text(
        jsonl(
            {"case": "refund", "turns": [[lookup.as_dict(), refund.as_dict()]]},
            {"case": "refund", "turns": [[lookup.as_dict(), wrong.as_dict()]]},
        ),
        encoding="utf-8",
    )
    done = toolmatch("check", spec, traces)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:7] == [
        "PASS refund",
        "FAIL refund (run 2)",
        "  turn 0, expected_tools[1]: ExpectedTool('refund', agent='billing', status='denied')",
        "    call 1: 2 mismatches ((agent), (status))",
        "    call 1 refund({'order': 7}) by 'triage' (pending):",
        "      (agent): expected 'billing', got 'triage'",
        "      (status): expected 'denied', got 'pending'",
    ]
    assert lines[-1] == "1 passed, 1 failed"


def test_the_cli_names_a_bad_status_in_a_turn(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n  - name: refund\n    expected_tools: [{name: refund}]\n",
        encoding="utf-8",
    )
    bad = {"name": "refund", "args": {}, "status": "done"}
    done = toolmatch("check", spec, "-", stdin=jsonl({"case": "refund", "turns": [[bad]]}))
    assert done.returncode != 0
    assert done.stdout == (
        "ERROR <stdin>:1: turns[0]: input[0].status must be one of 'succeeded', 'failed', "
        "'error', 'denied', 'pending' or None, got 'done' (str)\n1 error\n0 passed, 0 failed\n"
    )
