"""to_calls on ATIF trajectories (Agent Trajectory Interchange Format, v1.x), read from JSON."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import json_values_without_nan
from toolmatch import ExpectedTool, ToolCall, to_calls


def trajectory() -> dict[str, Any]:
    """A three-step trajectory: the user asks, the agent calls two tools, then answers."""
    return {
        "schema_version": "ATIF-v1.4",
        "session_id": "run-7",
        "agent": {"name": "weather-agent", "version": "0.3.0", "model_name": "some-model"},
        "steps": [
            {"step_id": 1, "source": "system", "message": "You answer weather questions."},
            {"step_id": 2, "source": "user", "message": "Weather in Paris and in Atlantis?"},
            {
                "step_id": 3,
                "source": "agent",
                "message": "Checking both.",
                "reasoning_content": "Two cities, two calls.",
                "tool_calls": [
                    {
                        "tool_call_id": "call_paris",
                        "function_name": "get_weather",
                        "arguments": {"city": "Paris"},
                    },
                    {
                        "tool_call_id": "call_atlantis",
                        "function_name": "get_weather",
                        "arguments": {"city": "Atlantis"},
                    },
                ],
                "observation": {
                    "results": [
                        {"source_call_id": "call_atlantis", "content": "error: unknown city"},
                        {"source_call_id": "call_paris", "content": "Sunny, 21 C"},
                        {"source_call_id": None, "content": "a note from the harness"},
                    ]
                },
                "metrics": {"prompt_tokens": 120, "completion_tokens": 30},
            },
            {"step_id": 4, "source": "agent", "message": "Paris is sunny; Atlantis is unknown."},
        ],
        "final_metrics": {"total_steps": 4},
    }


# A trajectory's calls are made by its agent; a step read alone does not name it.
PARIS = ToolCall(
    "get_weather", {"city": "Paris"}, id="call_paris", result="Sunny, 21 C", agent="weather-agent"
)
ATLANTIS = ToolCall(
    "get_weather",
    {"city": "Atlantis"},
    id="call_atlantis",
    result="error: unknown city",
    agent="weather-agent",
)


def test_a_trajectory_gives_the_agents_calls_with_their_results() -> None:
    assert to_calls(trajectory()) == [PARIS, ATLANTIS]
    assert ExpectedTool("get_weather", {"city": "Paris"}) == trajectory()
    assert ExpectedTool.never("delete") == trajectory()


def test_a_trajectory_read_from_its_json_text() -> None:
    text = json.dumps(trajectory())
    assert to_calls(text) == [PARIS, ATLANTIS]
    assert to_calls(text.encode()) == [PARIS, ATLANTIS]


def test_every_v1_version_is_read() -> None:
    for minor in range(7):
        data = trajectory()
        data["schema_version"] = f"ATIF-v1.{minor}"
        assert to_calls(data) == [PARIS, ATLANTIS]


def test_a_step_a_tool_call_and_a_result_by_themselves() -> None:
    step = trajectory()["steps"][2]
    assert to_calls(step) == [
        ToolCall("get_weather", {"city": "Paris"}, id="call_paris", result="Sunny, 21 C"),
        ToolCall(
            "get_weather", {"city": "Atlantis"}, id="call_atlantis", result="error: unknown city"
        ),
    ]
    assert to_calls(step["tool_calls"]) == [
        ToolCall("get_weather", {"city": "Paris"}, id="call_paris"),
        ToolCall("get_weather", {"city": "Atlantis"}, id="call_atlantis"),
    ]
    assert to_calls(step["observation"]["results"][0]) == []  # a result alone holds no call
    assert to_calls(trajectory()["steps"][1]) == []  # a user step


def test_results_in_a_later_step_and_unanswered_calls() -> None:
    data = trajectory()
    results = data["steps"][2].pop("observation")["results"]
    later = {
        "step_id": 4,
        "source": "system",
        "message": "",
        "observation": {"results": results[1:2]},
    }
    data["steps"].insert(3, later)
    assert to_calls(data) == [
        PARIS,
        ToolCall("get_weather", {"city": "Atlantis"}, id="call_atlantis", agent="weather-agent"),
    ]


def test_multimodal_content_and_subagent_references_stay_as_recorded() -> None:
    data = trajectory()
    results = data["steps"][2]["observation"]["results"]
    parts = [{"type": "text", "text": "Sunny"}, {"type": "image", "source": {"path": "sky.png"}}]
    results[1]["content"] = parts
    results[0] = {
        "source_call_id": "call_atlantis",
        "subagent_trajectory_ref": [{"session_id": "sub-1", "trajectory_path": "sub-1.json"}],
    }
    paris, atlantis = to_calls(data)
    assert paris.result == parts
    assert atlantis.result is None  # answered by a subagent, whose content is elsewhere
    assert atlantis.failed is None


def test_arguments_given_as_json_text_are_parsed() -> None:
    data = trajectory()
    data["steps"][2]["tool_calls"][0]["arguments"] = '{"city": "Paris"}'
    assert to_calls(data)[0] == PARIS


def test_malformed_trajectories_name_the_place() -> None:
    cases: list[tuple[Any, str]] = []
    data = trajectory()
    data["schema_version"] = "ATIF-v2.0"
    cases.append(
        (
            data,
            "input.schema_version: toolmatch reads ATIF v1 trajectories ('ATIF-v1.x'), got "
            "'ATIF-v2.0'",
        )
    )
    data = trajectory()
    data["steps"][2]["source"] = "assistant"
    cases.append(
        (data, "input.steps[2].source must be 'system', 'user' or 'agent', got 'assistant'")
    )
    data = trajectory()
    data["steps"][1]["tool_calls"] = copy.deepcopy(data["steps"][2]["tool_calls"])
    cases.append((data, "input.steps[1]: a user step holds tool_calls; ATIF gives them to agents"))
    data = trajectory()
    data["steps"][2]["tool_calls"][1]["function_name"] = None
    cases.append(
        (
            data,
            "input.steps[2].tool_calls[1]: a tool call's name must be a string, got None (NoneType)",
        )
    )
    data = trajectory()
    data["steps"] = {"1": {}}
    cases.append((data, "input.steps must be a list, got {'1': {}} (dict)"))
    data = trajectory()
    data["steps"][2]["observation"] = {"results": "Sunny"}
    cases.append((data, "input.steps[2].observation.results must be a list, got 'Sunny' (str)"))
    for value, message in cases:
        with pytest.raises(TypeError) as error:
            to_calls(value)
        assert str(error.value) == message


names = st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True)
call_args = st.dictionaries(st.text(max_size=4), json_values_without_nan, max_size=3)


@given(
    st.lists(
        st.lists(st.tuples(names, call_args, st.none() | st.text(max_size=8)), max_size=3),
        max_size=5,
    )
)
def test_every_agent_call_is_read_in_order_with_its_result(
    turns: list[list[tuple[str, dict[str, Any], str | None]]],
) -> None:
    steps: list[dict[str, Any]] = [{"step_id": 1, "source": "user", "message": "Go."}]
    expected = []
    for turn in turns:
        calls, results = [], []
        for name, arguments, answer in turn:
            call_id = f"call_{len(expected)}"
            calls.append({"tool_call_id": call_id, "function_name": name, "arguments": arguments})
            if answer is not None:
                results.append({"source_call_id": call_id, "content": answer})
            expected.append(ToolCall(name, arguments, id=call_id, result=answer))
        step = {"step_id": len(steps) + 1, "source": "agent", "message": "", "tool_calls": calls}
        if results:
            step["observation"] = {"results": results[::-1]}  # answers in any order
        steps.append(step)
    data = {"schema_version": "ATIF-v1.4", "session_id": "s", "agent": {}, "steps": steps}
    assert to_calls(data) == expected
    assert to_calls(json.dumps(data)) == expected
