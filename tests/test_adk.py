"""Google ADK: a session's events (``Event`` objects, ``model_dump()`` and
``model_dump(mode="json", by_alias=True)`` dicts) and the ``Session``: calls made by the
event's author, results paired by id with ADK's failure rule, each event counted once.

The dumps in tests/data/adk are a real run's (tests/adk_run.py); the tests on ADK's own
objects need google-adk."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from adk_run import DATA, run
from toolmatch import ANY, ExpectedTool, ToolCall, check_turn, to_calls

RUN = [
    ToolCall(
        "lookup_order",
        {"order": 7},
        id="adk-8005d4fb-b2dd-4590-8b95-0574f6a21c61",
        result={"order": 7, "state": "delivered"},
        failed=False,
        agent="triage",
    ),
    ToolCall(
        "transfer_to_agent",
        {"agent_name": "billing"},
        id="adk-21dd5d40-d660-47be-92db-2a3999ca00cd",
        result={"result": None},
        failed=False,
        agent="triage",
    ),
    ToolCall(
        "refund",
        {"order": 7},
        id="adk-46a23598-35cb-4bcd-b29f-bfee02bb7beb",
        result={"error": "the refund window of order 7 is closed"},
        failed=True,
        agent="billing",
    ),
]


def _dumped(name: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = json.loads((DATA / name).read_text(encoding="utf-8"))
    return events


@pytest.mark.parametrize("name", ["events.json", "events_snake.json"])
def test_a_sessions_dumped_events(name: str) -> None:
    events = _dumped(name)
    assert to_calls(events) == RUN
    # a session's events and the same events again (run_async's, say): each once
    assert to_calls(events + events) == RUN
    assert to_calls(json.dumps(events)) == RUN


def test_the_agent_of_a_call_is_checked() -> None:
    events = _dumped("events.json")
    assert check_turn([ExpectedTool("refund", agent="billing", failed=True)], events).passed
    wrong = check_turn([ExpectedTool("refund", agent="triage")], events)
    assert wrong.first_failure() == (
        "expectation 0: call 2: (agent): expected 'triage', got 'billing'"
    )


def test_a_partial_event_holds_no_call() -> None:
    events = _dumped("events.json")
    piece = copy.deepcopy(events[5])  # billing's call to refund
    piece["id"] = "a-streamed-piece"
    piece["partial"] = True
    assert to_calls([*events[:5], piece, *events[5:]]) == RUN


def test_an_event_whose_content_is_not_content_names_its_place() -> None:
    event = {"invocationId": "e-1", "author": "triage", "id": "x", "content": "hello"}
    with pytest.raises(TypeError) as raised:
        to_calls([event])
    assert str(raised.value) == "input[0].content must be a Content object, got 'hello' (str)"


# --- ADK's own objects ---------------------------------------------------------------------


def test_a_real_runs_events_and_session() -> None:
    pytest.importorskip("google.adk")
    events = run()
    expected = [ToolCall(call.name, call.args, ANY, **_ended(call)) for call in RUN]
    assert to_calls(events) == expected
    assert to_calls(events + events) == expected
    for options in ({}, {"mode": "json", "by_alias": True}):
        dumps = [event.model_dump(**options) for event in events]  # type: ignore[arg-type]
        assert to_calls(dumps) == to_calls(events)
    # the ids ADK gives pair each answer with its call
    assert [call.id for call in to_calls(events)] == [
        part.function_call.id
        for event in events
        for part in event.content.parts or []
        if part.function_call is not None
    ]


def _ended(call: ToolCall) -> dict[str, Any]:
    return {"result": call.result, "failed": call.failed, "agent": call.agent}


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
