"""A failure whose calls a turn's ``ignore`` (or ``agent``) left out says so, and which entry
did it: in the check's reason and lines, the turn's text, --format json, the pytest plugin."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from commands import jsonl, toolmatch
from toolmatch import ExpectedTool, ExpectedTurn, Literal, Not, ToolCall, check_turn

pytest_plugins = ["pytester"]

OTHER_LOOKUP = ExpectedTool("get_user", {"user_id": Not("u1")})
CAP = ExpectedTool("get_user", max_count=1)


def call(name: str, **args: object) -> dict[str, object]:
    return {"name": name, "args": args}


def test_a_lookup_left_out_by_an_ignore_entry_is_named_with_the_entry() -> None:
    calls = [call("get_user", user_id="u2"), call("book")]
    expected = [ExpectedTool(Literal("get_user"), {"user_id": "u1"}), ExpectedTool("book")]
    result = check_turn(expected, calls, exhaustive=True, ignore=[OTHER_LOOKUP])
    reason = (
        "expected 1 matching call(s), got 0: no call's name matches Literal('get_user') once "
        "ignored calls are left out: call 0 get_user({'user_id': 'u2'}) ignored by ignore[0] "
        "ExpectedTool('get_user', {'user_id': Not('u1')})"
    )
    check = result.checks[0]
    assert check.unmatched_reason == reason
    assert check.reason_lines() == [reason]
    assert check.lines() == [
        f"FAILED ExpectedTool(Literal('get_user'), {{'user_id': 'u1'}}): {reason}",
        "  required: at least 1 matching call; found 0",
        "  score 0/1 = 0.00: no call of this name",
        "  calls of its own: none",
        "  " + reason.split(": ", 1)[1],
    ]
    assert result.first_failure() == f"expectation 0: {reason}"
    assert result.as_dict()["checks"][0]["unmatched_reason"] == reason


def test_without_an_ignored_call_of_the_name_the_reason_is_as_before() -> None:
    calls = [call("get_user", user_id="u2"), call("book")]
    result = check_turn([ExpectedTool("cancel")], calls, ignore=[OTHER_LOOKUP])
    assert result.checks[0].unmatched_reason == (
        "expected 1 matching call(s), got 0: no call's name contains 'cancel'; the turn called "
        "'get_user', 'book'"
    )


def test_a_matching_call_a_cap_left_out_is_named_with_the_cap() -> None:
    calls = [call("get_user", user_id="u1"), call("get_user", user_id="u3"), call("book")]
    expected = [ExpectedTool("get_user", {"user_id": "u1"}), ExpectedTool("book")]
    check = check_turn(expected, calls, exhaustive=True, ignore=[CAP]).checks[0]
    assert check.unmatched_reason == (
        "call 1: user_id: expected 'u1', got 'u3'; a matching call was ignored: call 0 "
        "get_user({'user_id': 'u1'}) ignored by ignore[0] ExpectedTool('get_user', "
        "max_count=1), which leaves out the first matching call"
    )
    # Only the ignored calls that match are named: a candidate judged explains the rest.
    calls[0] = call("get_user", user_id="u4")
    check = check_turn(expected, calls, exhaustive=True, ignore=[CAP]).checks[0]
    assert check.unmatched_reason == "call 1: user_id: expected 'u1', got 'u3'"


def test_too_few_matching_calls_name_the_matching_ones_left_out() -> None:
    calls = [call("get_user", user_id="u1")] * 3 + [call("book")]
    expected = [ExpectedTool("get_user", {"user_id": "u1"}, count=2)]
    cap = ExpectedTool("get_user", max_count=2)
    check = check_turn(expected, calls, ignore=[cap]).checks[0]
    assert check.unmatched_reason == (
        "expected 2 matching call(s), got 1; 2 matching calls were ignored: call 0 "
        "get_user({'user_id': 'u1'}), call 1 get_user({'user_id': 'u1'}) ignored by ignore[0] "
        "ExpectedTool('get_user', max_count=2), which leaves out the first 2 matching calls"
    )


def test_calls_left_out_by_several_entries_are_grouped_by_entry_and_shortened() -> None:
    calls = [
        call("get_user", user_id="u2"),
        call("get_user_profile", user_id="u1"),
        call("get_user", user_id="u3"),
        call("get_user", user_id="u4"),
        call("get_user", user_id="u5"),
    ]
    ignore = [OTHER_LOOKUP, ExpectedTool("get_user_profile")]
    check = check_turn([ExpectedTool("get_user", {"user_id": "u1"})], calls, ignore=ignore)
    assert check.checks[0].unmatched_reason == (
        "expected 1 matching call(s), got 0: no call's name contains 'get_user' once ignored "
        "calls are left out: call 0 get_user({'user_id': 'u2'}), call 2 get_user({'user_id': "
        "'u3'}) ignored by ignore[0] ExpectedTool('get_user', {'user_id': Not('u1')}); call 1 "
        "get_user_profile({'user_id': 'u1'}) ignored by ignore[1] "
        "ExpectedTool('get_user_profile'); and 2 more"
    )


def test_another_agents_call_left_out_by_the_turn_is_named() -> None:
    calls = [
        ToolCall("get_user", {"user_id": "u1"}, agent="user"),
        ToolCall("book", {}, agent="assistant"),
    ]
    check = check_turn([ExpectedTool("get_user")], calls, agent="assistant").checks[0]
    assert check.unmatched_reason == (
        "expected 1 matching call(s), got 0: no call's name contains 'get_user' once ignored "
        "calls are left out: call 0 get_user({'user_id': 'u1'}) by 'user' left out: the turn "
        "checks agent 'assistant' only"
    )


def test_a_pickled_check_keeps_the_words() -> None:
    calls = [call("get_user", user_id="u2")]
    turn = ExpectedTurn([ExpectedTool("get_user", {"user_id": "u1"})], ignore=[OTHER_LOOKUP])
    check = turn.check(calls).checks[0]
    copy = pickle.loads(pickle.dumps(check))
    assert copy == check
    assert copy.lines() == check.lines()


def test_the_report_and_json_name_the_ignore_entry_of_a_spec(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: lookup\n"
        "    expected_tools:\n"
        "      - {name: get_user, args: {user_id: u1}}\n"
        "    ignore:\n"
        "      - {name: get_user, args: {user_id: {$not: u1}}}\n",
        encoding="utf-8",
    )
    traces = tmp_path / "runs.jsonl"
    traces.write_text(
        jsonl({"case": "lookup", "turns": [[call("get_user", user_id="u2")]]}), encoding="utf-8"
    )
    reason = (
        "expected 1 matching call(s), got 0: no call's name contains 'get_user' once ignored "
        "calls are left out: call 0 get_user({'user_id': 'u2'}) ignored by ignore[0] "
        "ExpectedTool('get_user', {'user_id': Not('u1')})"
    )
    text = toolmatch("check", spec, traces)
    assert text.returncode == 1
    assert f"    {reason}" in text.stdout.splitlines()
    machine = toolmatch("check", spec, traces, "--format", "json")
    [run] = [json.loads(line) for line in machine.stdout.splitlines()[:1]]
    assert run["turns"][0]["checks"][0]["unmatched_reason"] == reason


def test_the_pytest_plugin_shows_the_entry(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from toolmatch import ExpectedTool, Not, assert_turn

        def test_lookup():
            ignore = [ExpectedTool("get_user", {"user_id": Not("u1")})]
            calls = [{"name": "get_user", "args": {"user_id": "u2"}}]
            assert_turn([ExpectedTool("get_user", {"user_id": "u1"})], calls, ignore=ignore)
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E         expectation 0: FAILED ExpectedTool('get_user', {'user_id': 'u1'}): "
            "expected 1 matching call(s), got 0: no call's name contains 'get_user' once "
            "ignored calls are left out: call 0 get_user({'user_id': 'u2'}) ignored by "
            "ignore[0] ExpectedTool('get_user', {'user_id': Not('u1')})",
        ]
    )
