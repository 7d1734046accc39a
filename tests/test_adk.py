"""Google ADK: a session's events (``Event`` objects, ``model_dump()`` and
``model_dump(mode="json", by_alias=True)`` dicts) and the ``Session``: calls made by the
event's author, results paired by id with ADK's failure rule, each event counted once.

The dumps in tests/data/adk are a real run's (tests/adk_run.py); the tests on ADK's own
objects need google-adk."""

from __future__ import annotations

import json
from typing import Any

import pytest

from adk_run import DATA
from toolmatch import ExpectedTool, ToolCall, check_turn, to_calls

# The run read every way (its objects, dumps, stream and session, and the stored dumps) is
# the reading matrix's (tests/test_reading_matrix.py, families "adk" and "adk dumps").


def _dumped(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return events


def test_the_agent_of_a_call_is_checked() -> None:
    events = _dumped("events.json")
    assert check_turn([ExpectedTool("refund", agent="billing", failed=True)], events).passed
    wrong = check_turn([ExpectedTool("refund", agent="triage")], events)
    assert wrong.first_failure() == (
        "expectation 0: call 2: (agent): expected 'triage', got 'billing'"
    )


def test_an_event_whose_content_is_not_content_names_its_place() -> None:
    event = {"invocationId": "e-1", "author": "triage", "id": "x", "content": "hello"}
    with pytest.raises(TypeError) as raised:
        to_calls([event])
    assert str(raised.value) == "input[0].content must be a Content object, got 'hello' (str)"


def test_a_sessions_dict_without_its_events_is_an_error() -> None:
    session = {"id": "s1", "appName": "shop", "userId": "u1", "state": {}}
    with pytest.raises(TypeError) as raised:
        to_calls(session)
    assert str(raised.value) == (
        "input.events must be the session's events (a list), got None (NoneType)"
    )


# --- ADK's own objects ---------------------------------------------------------------------


def test_events_built_with_adks_classes() -> None:
    pytest.importorskip("google.adk")
    from google.adk.events import Event
    from google.adk.sessions import Session
    from google.genai import types

    asked = types.FunctionCall(id="c1", name="refund", args={"order": 7})
    answered = types.FunctionResponse(id="c1", name="refund", response={"refunded": True})
    events = [
        Event(author="user", content=types.Content(role="user", parts=[types.Part(text="Hi")])),
        Event(
            author="billing",
            partial=True,
            content=types.Content(role="model", parts=[types.Part(function_call=asked)]),
        ),
        Event(
            author="billing",
            content=types.Content(role="model", parts=[types.Part(function_call=asked)]),
        ),
        Event(
            author="billing",
            content=types.Content(role="user", parts=[types.Part(function_response=answered)]),
        ),
        Event(author="billing", error_code="MALFORMED_FUNCTION_CALL", error_message="bad"),
    ]
    refund = ToolCall(
        "refund", {"order": 7}, id="c1", result={"refunded": True}, failed=False, agent="billing"
    )
    assert to_calls(events) == [refund]
    session = Session(id="s1", app_name="shop", user_id="u1", events=events)
    assert to_calls(session) == [refund]
    assert to_calls([session, *events]) == [refund]


def test_an_agent_or_runner_is_not_a_run() -> None:
    pytest.importorskip("google.adk")
    from google.adk.agents import LlmAgent
    from google.adk.runners import Runner
    from google.adk.sessions import InMemorySessionService

    agent = LlmAgent(name="triage", model="gemini-2.5-flash")
    runner = Runner(agent=agent, app_name="shop", session_service=InMemorySessionService())
    for value in (agent, runner):
        with pytest.raises(TypeError, match="holds no run") as raised:
            to_calls(value)
        assert (
            "it holds no run: pass the events of runner.run_async(...), or the session's "
            "events" in str(raised.value)
        )
