"""``ToolCall.agent``: who made a call, shown only when set, compared like every field."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from toolmatch import ANY, ExpectedTool, ToolCall, check_turn, explain, to_calls

TAU2 = Path(__file__).parent / "data" / "tau2" / "simulation.json"
PICKLES = Path(__file__).parent / "data" / "pickles" / "exports.pickle"


def test_agent_is_shown_only_when_set() -> None:
    call = ToolCall("refund", {"order": 7}, id="c1", agent="billing")
    assert repr(call) == "ToolCall(name='refund', args={'order': 7}, id='c1', agent='billing')"
    assert call.as_dict() == {
        "name": "refund",
        "args": {"order": 7},
        "id": "c1",
        "parse_error": None,
        "result": None,
        "failed": None,
        "agent": "billing",
    }
    plain = ToolCall("refund", {"order": 7}, id="c1")
    assert repr(plain) == "ToolCall(name='refund', args={'order': 7}, id='c1')"
    assert "agent" not in plain.as_dict()
    assert plain.agent is None


def test_agent_takes_part_in_equality_like_every_field() -> None:
    recorded = ToolCall("refund", {}, id="c1", agent="billing")
    assert recorded == ToolCall("refund", {}, id="c1", agent="billing")
    assert recorded != ToolCall("refund", {}, id="c1", agent="triage")
    assert recorded != ToolCall("refund", {}, id="c1")  # unset is None, and counts
    assert recorded == ToolCall("refund", {}, id="c1", agent=ANY)
    assert [str(mismatch) for mismatch in explain(ToolCall("refund", {}, "c1"), recorded)] == [
        "agent: expected None, got 'billing'"
    ]


def test_an_agent_that_is_no_string_is_refused() -> None:
    with pytest.raises(TypeError) as error:
        ToolCall("refund", agent=3)  # type: ignore[arg-type]
    assert str(error.value) == "ToolCall agent must be a str or None, got 3"


def test_a_call_pickled_before_agent_existed_loads_without_one() -> None:
    stored = pickle.loads(PICKLES.read_bytes())["ToolCall"]
    assert stored.agent is None
    assert stored == ToolCall("get_weather", {"city": "Paris"}, id="call_1", result="sunny")
    again = pickle.loads(pickle.dumps(ToolCall("f", agent="billing")))
    assert again.agent == "billing"


def test_tau2_user_and_assistant_calls_are_told_apart() -> None:
    simulation = json.loads(TAU2.read_text(encoding="utf-8"))
    calls = to_calls(simulation["messages"])
    assert [(call.name, call.agent) for call in calls] == [
        ("get_customer_by_phone", "assistant"),
        ("get_details_by_id", "assistant"),
        ("check_status_bar", "user"),
    ]


def test_reports_name_the_agent_only_where_recorded() -> None:
    calls = [
        {"name": "search", "args": {"q": "rome"}, "id": "c1", "requestor": "assistant"},
        {"name": "log", "args": {}, "id": "c2"},
    ]
    result = check_turn(
        [ExpectedTool("search", {"q": "paris"})], calls, ignore=[ExpectedTool("log")]
    )
    text = str(result)
    assert "call 0 search({'q': 'rome'}) by 'assistant': " in text
    assert "call 1 log({}) ignored by ignore[0]" in text
    data = result.as_dict()
    (candidate,) = data["checks"][0]["candidates"]
    assert candidate["agent"] == "assistant"
    assert list(candidate)[7:9] == ["agent", "matched"]
    (ignored,) = data["ignored"]
    assert "agent" not in ignored
