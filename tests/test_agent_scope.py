"""Expectations scoped to who made the call: ``ExpectedTool(agent=...)``, the spec key
``agent:``, and the turn option ``agent`` that checks one agent's calls only."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from commands import jsonl, toolmatch
from toolmatch import (
    ANY,
    ConfigError,
    ExpectedTool,
    ExpectedTurn,
    NotRecordedError,
    Regex,
    ToolCall,
    check_turn,
    check_turns,
    load_test_cases,
    to_calls,
)

TAU2 = Path(__file__).parent / "data" / "tau2" / "simulation.json"

HANDED_OFF = [
    ToolCall("lookup", {"order": 7}, id="c1", agent="triage"),
    ToolCall("refund", {"order": 7}, id="c2", agent="triage"),
    ToolCall("refund", {"order": 7}, id="c3", agent="billing"),
    ToolCall("log", {}, id="c4", agent="ops"),
]


def problems(spec: object) -> list[tuple[str, str]]:
    with pytest.raises(ConfigError) as error:
        load_test_cases(spec)
    return [(problem.path, problem.message) for problem in error.value.problems]


# --- ExpectedTool(agent=...) ----------------------------------------------------------------


def test_an_agent_name_is_compared_exactly() -> None:
    assert ExpectedTool("refund", agent="billing") == HANDED_OFF
    assert ExpectedTool("lookup", agent="billing") != HANDED_OFF
    # not a substring, as a tool name is: "bill" names no agent here
    assert ExpectedTool("refund", agent="bill") != HANDED_OFF
    check = ExpectedTool("refund", agent="billing", count=2).check(HANDED_OFF)
    assert check.matching_call_indices == (2,)
    assert check.unmatched_reason == "expected 2 matching call(s), got 1"


def test_the_mismatch_says_which_agent_it_expected_and_got() -> None:
    check = ExpectedTool("lookup", agent="billing").check(HANDED_OFF)
    assert check.unmatched_reason == "call 0: (agent): expected 'billing', got 'triage'"
    assert str(check) == (
        "FAILED ExpectedTool('lookup', agent='billing'): call 0: (agent): expected 'billing', "
        "got 'triage'\n"
        "  required: at least 1 matching call; found 0\n"
        "  score 0/1 = 0.00: the closest call matches 0 of 1 assertions on its arguments, "
        "result and failed flag\n"
        "  call 0 lookup({'order': 7}) by 'triage': (agent): expected 'billing', got 'triage'"
    )


def test_an_agent_the_trace_does_not_record_is_an_error_where_the_verdict_turns_on_it() -> None:
    unsaid = [*HANDED_OFF[:3], ToolCall("log", {}, id="c4")]
    with pytest.raises(NotRecordedError) as error:
        ExpectedTool("log", agent="billing").check(unsaid)
    assert str(error.value) == (
        "ExpectedTool('log', agent='billing') asserts who made call 3 log({}), which a plain "
        'call does not record: pass calls that hold their agent (ToolCall(agent=...), an "agent" '
        "key), or leave agent= out"
    )
    with pytest.raises(NotRecordedError):
        ExpectedTool.never("log", agent="billing").check(unsaid)
    # two are needed and one call could match: it fails either way, and says why
    check = ExpectedTool("log", agent="billing", count=2).check(unsaid)
    assert check.unmatched_reason == "call 3: (agent): expected 'billing', the trace does not say"
    # agent=ANY asserts nothing of the agent
    assert ExpectedTool("log", agent=ANY).check(unsaid).passed


def test_an_agent_matcher_judges_the_agent_name() -> None:
    assert ExpectedTool("lookup", agent=Regex("tri.*")) == HANDED_OFF
    check = ExpectedTool("lookup", agent=Regex("bill.*")).check(HANDED_OFF)
    assert check.unmatched_reason == "call 0: (agent): regex 'bill.*' does not match 'triage'"
    # ANY accepts every agent, the unrecorded one too: leaving agent out says the same
    assert ExpectedTool("log", agent=ANY) == HANDED_OFF


def test_agent_scores_with_the_other_assertions() -> None:
    check = ExpectedTool("lookup", {"order": 7}, agent="billing").check(HANDED_OFF)
    assert check.score == 0.5
    assert check._score_parts()[2] == (
        "the closest call matches 1 of 2 assertions on its arguments, result and failed flag"
    )


def test_never_with_an_agent_allows_the_other_agents_calls() -> None:
    assert ExpectedTool.never("lookup", agent="billing") == HANDED_OFF
    never = ExpectedTool.never("refund", agent="billing")
    assert never.check(HANDED_OFF).unmatched_reason == "expected no matching call, got 1"
    assert repr(never) == "ExpectedTool.never('refund', agent='billing')"


def test_agent_in_repr_and_pickle() -> None:
    tool = ExpectedTool("refund", {"order": 7}, count=2, agent=Regex("bill.*"))
    assert repr(tool) == "ExpectedTool('refund', {'order': 7}, count=2, agent=Regex('bill.*'))"
    for original in (tool, ExpectedTool.never("refund", agent="billing")):
        again = pickle.loads(pickle.dumps(original))
        assert repr(again) == repr(original)
        assert (again == HANDED_OFF) is (original == HANDED_OFF)


def test_a_bad_agent_is_refused_naming_what_to_pass() -> None:
    with pytest.raises(TypeError) as error:
        ExpectedTool("refund", agent=3)  # type: ignore[arg-type]
    assert str(error.value) == (
        "ExpectedTool agent must be an agent's name (a non-empty str, compared exactly), a "
        "matcher such as Regex('billing.*'), or None (any agent), got 3 (int)"
    )
    with pytest.raises(ValueError, match="a non-empty str") as empty:
        ExpectedTool("refund", agent="")
    assert str(empty.value) == (
        "ExpectedTool agent must be an agent's name (a non-empty str, compared exactly), a "
        "matcher such as Regex('billing.*'), or None (any agent), got '' (str)"
    )


# --- the turn option agent -------------------------------------------------------------------


def test_the_turn_option_judges_one_agents_calls_only() -> None:
    expected = [ExpectedTool("refund", {"order": 7})]
    # unscoped, the triage agent's refund is a second refund: exhaustive fails
    assert not check_turn(expected, HANDED_OFF, exhaustive=True).passed
    result = check_turn(expected, HANDED_OFF, exhaustive=True, agent="billing")
    assert result.passed
    assert [(left.index, left.by) for left in result.ignored] == [(0, None), (1, None), (3, None)]
    assert result.judged_calls == 1
    assert result.precision == 1.0
    assert str(result).splitlines()[:5] == [
        "turn PASSED (exhaustive): 1 of 1 expectation(s) met over 4 call(s)",
        "  score: precision 1/1 = 1.00, recall 1/1 = 1.00, f1 1.00",
        "  call 0 lookup({'order': 7}) by 'triage' left out: the turn checks agent 'billing' only",
        "  call 1 refund({'order': 7}) by 'triage' left out: the turn checks agent 'billing' only",
        "  call 3 log({}) by 'ops' left out: the turn checks agent 'billing' only",
    ]
    assert result.as_dict()["ignored"][0] == {
        "index": 0,
        "name": "lookup",
        "args": {"order": 7},
        "agent": "triage",
        "by": None,
        "pattern": "agent='billing'",
    }


def test_the_turn_option_fails_when_the_agent_made_no_such_call() -> None:
    result = check_turn([ExpectedTool("lookup")], HANDED_OFF, agent="billing")
    assert not result.passed
    assert result.first_failure() == (
        "expectation 0: expected 1 matching call(s), got 0: no call's name contains 'lookup' "
        "once ignored calls are left out: call 0 lookup({'order': 7}) by 'triage' left out: the "
        "turn checks agent 'billing' only"
    )


def test_ignore_patterns_come_first_and_budgets_count_the_kept_calls() -> None:
    result = check_turn(
        [ExpectedTool("refund")],
        HANDED_OFF,
        agent=Regex("tri.*"),
        ignore=[ExpectedTool("lookup")],
        max_calls=1,
    )
    assert result.passed
    assert [(left.index, left.by) for left in result.ignored] == [(0, 0), (2, None), (3, None)]
    assert str(result.ignored[1]) == (
        "call 2 refund({'order': 7}) by 'billing' left out: the turn checks agent "
        "Regex('tri.*') only"
    )


def test_the_turn_option_in_check_turns_and_expected_turn() -> None:
    results = check_turns([[ExpectedTool("refund", count=1, max_count=1)]], [HANDED_OFF])
    assert not results[0].passed  # two refunds, one per agent
    scoped = check_turns([[ExpectedTool("refund", max_count=1)]], [HANDED_OFF], agent="triage")
    assert scoped[0].passed
    turn = ExpectedTurn([ExpectedTool("refund")], agent="billing")
    assert turn.agent == "billing"
    assert turn.check(HANDED_OFF).passed


def test_a_bad_turn_agent_is_refused() -> None:
    with pytest.raises(TypeError) as error:
        check_turn([], [], agent=["billing"])  # type: ignore[arg-type]
    assert str(error.value) == (
        "agent must be an agent's name (a non-empty str, compared exactly), a matcher such as "
        "Regex('billing.*'), or None (any agent), got ['billing'] (list)"
    )


# --- spec files ------------------------------------------------------------------------------


def test_spec_key_agent_on_an_expected_tool_and_a_turn() -> None:
    spec = {
        "test_cases": [
            {
                "name": "handoff",
                "agent": "billing",  # every turn's, unless a turn gives its own
                "turns": [
                    {"expected_tools": [{"name": "refund", "args": {"order": 7}}]},
                    {
                        "agent": {"$regex": "tri.*"},
                        "expected_tools": [
                            {"name": "lookup", "agent": "triage"},
                            {"name": "refund", "never": True, "agent": "billing"},
                        ],
                    },
                ],
            }
        ]
    }
    [case] = load_test_cases(spec)
    assert case.turns[0].agent == "billing"
    assert repr(case.turns[1].agent) == "Regex('tri.*')"
    assert repr(case.turns[1].expected_tools[1]) == repr(
        ExpectedTool.never("refund", agent="billing")
    )
    assert [result.passed for result in case.check([HANDED_OFF, HANDED_OFF])] == [True, True]
    assert not case.passes([HANDED_OFF, HANDED_OFF[2:]])  # turn 1: no triage lookup


def test_spec_agent_errors_name_their_place() -> None:
    spec = {
        "test_cases": [
            {
                "name": "bad",
                "agent": 3,
                "turns": [
                    {
                        "agent": "",
                        "expected_tools": [
                            {"name": "refund", "agent": {"kind": "billing"}},
                            {"name": "lookup", "agent": {"$regex": "("}},
                        ],
                        "ignore": [{"name": "log", "agent": ["x"]}],
                    }
                ],
            }
        ]
    }
    said = "must be an agent's name (a non-empty string, compared exactly) or a matcher mapping "
    assert problems(spec) == [
        ("test_cases[0](bad).agent", said + "such as {$regex: 'billing.*'}, got 3 (int)"),
        (
            "test_cases[0](bad).turns[0].expected_tools[0].agent",
            said + "such as {$regex: 'billing.*'}, got {'kind': 'billing'} (dict)",
        ),
        (
            "test_cases[0](bad).turns[0].expected_tools[1].agent.$regex",
            "invalid regular expression '(': missing ), unterminated subpattern at position 0",
        ),
        (
            "test_cases[0](bad).turns[0].ignore[0].agent",
            said + "such as {$regex: 'billing.*'}, got ['x'] (list)",
        ),
        ("test_cases[0](bad).turns[0].agent", said + "such as {$regex: 'billing.*'}, got '' (str)"),
    ]


# --- the formats that record who called --------------------------------------------------------


def test_tau2_user_calls_checked_apart_from_the_assistants() -> None:
    simulation = json.loads(TAU2.read_text(encoding="utf-8"))
    messages = simulation["messages"]
    user = check_turn([ExpectedTool("check_status_bar")], messages, agent="user", exhaustive=True)
    assert user.passed
    assistant = check_turn(
        [ExpectedTool("get_customer_by_phone"), ExpectedTool("get_details_by_id")],
        messages,
        agent="assistant",
        exhaustive=True,
    )
    assert assistant.passed
    # the assistant must not have done what only the user can
    wrong = check_turn([ExpectedTool("check_status_bar", agent="assistant")], messages)
    assert wrong.first_failure() == (
        "expectation 0: call 2: (agent): expected 'assistant', got 'user'"
    )


def test_the_cli_checks_a_scoped_spec(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: refund\n"
        "    agent: billing\n"
        "    expected_tools: [{name: refund, args: {order: 7}}]\n"
        "    exhaustive: true\n",
        encoding="utf-8",
    )
    # The calls as toolmatch writes them (ToolCall.as_dict), read back with their agent.
    calls = [call.as_dict() for call in HANDED_OFF[:3]]
    wrong = [{**call, "agent": "triage"} for call in calls]
    traces = tmp_path / "runs.jsonl"
    traces.write_text(
        jsonl({"case": "refund", "turns": [calls]}, {"case": "refund", "turns": [wrong]}),
        encoding="utf-8",
    )
    done = toolmatch("check", spec, traces)
    assert done.returncode == 1, done.stderr
    assert "turn 0, expected_tools[0]: ExpectedTool('refund', {'order': 7})" in done.stdout
    assert "1 passed, 1 failed" in done.stdout


def test_readers_agents_end_to_end() -> None:
    calls = to_calls(
        [
            {"name": "search", "args": {}, "id": "c1", "requestor": "assistant"},
            {"name": "toggle", "args": {}, "id": "c2", "requestor": "user"},
        ]
    )
    assert [call.agent for call in calls] == ["assistant", "user"]
    assert calls == ExpectedTool("toggle", agent="user")


def test_an_ignore_pattern_may_name_an_agent() -> None:
    [case] = load_test_cases(
        {
            "test_cases": [
                {
                    "name": "triage_only_looks",
                    "expected_tools": [{"name": "refund", "agent": "billing"}],
                    "ignore": [{"name": "lookup", "agent": "triage"}],
                    "exhaustive": True,
                }
            ]
        }
    )
    assert repr(case.turns[0].ignore) == "(ExpectedTool('lookup', agent='triage'),)"
    [result] = case.check([HANDED_OFF[:1] + HANDED_OFF[2:3]])
    assert result.passed
    assert [str(left) for left in result.ignored] == [
        "call 0 lookup({'order': 7}) by 'triage' ignored by ignore[0] "
        "ExpectedTool('lookup', agent='triage')"
    ]
    # the billing agent's lookup is not ignored: exhaustive finds it unexpected
    billing_lookup = [ToolCall("lookup", {}, agent="billing"), HANDED_OFF[2]]
    assert not case.passes([billing_lookup])
