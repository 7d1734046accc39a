"""to_calls on deepeval's ToolCall and LLMTestCase, its own classes built offline."""

from __future__ import annotations

import json
import os

import pytest

from toolmatch import ToolCall, to_calls

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "1")  # no network from its import
pytest.importorskip("deepeval", reason="deepeval is not installed")
from deepeval.test_case import LLMTestCase
from deepeval.test_case import ToolCall as DeepevalCall

CALLED = [
    DeepevalCall(name="lookup", input_parameters={"order": 7}, output="paid"),
    DeepevalCall(name="refund", input_parameters={"order": 7}),
]
CALLS = [
    ToolCall("lookup", {"order": 7}, result="paid"),
    ToolCall("refund", {"order": 7}),
]


def test_tool_calls_in_every_form() -> None:
    assert to_calls(CALLED) == CALLS
    assert to_calls([call.model_dump() for call in CALLED]) == CALLS
    assert to_calls([call.model_dump(by_alias=True) for call in CALLED]) == CALLS
    assert to_calls(json.dumps([call.model_dump(mode="json") for call in CALLED])) == CALLS


def test_a_test_case_gives_the_tools_it_called_not_those_it_expects() -> None:
    case = LLMTestCase(
        input="Refund order 7.",
        actual_output="Refunded.",
        tools_called=CALLED,
        expected_tools=[DeepevalCall(name="escalate")],
    )
    assert to_calls(case) == CALLS
    assert to_calls(case.model_dump()) == CALLS
    assert to_calls(json.loads(case.model_dump_json(by_alias=True))) == CALLS


def test_a_test_case_that_records_no_calls_raises() -> None:
    case = LLMTestCase(input="Refund order 7.", actual_output="Refunded.")
    with pytest.raises(ValueError, match="tools_called is not set") as error:
        to_calls(case)
    assert str(error.value) == (
        "to_calls cannot read tool calls from input: its tools_called is not set, so it does "
        "not say which tools ran; set tools_called (an empty list if none ran)"
    )
    assert to_calls(case.model_copy(update={"tools_called": []})) == []


def test_a_test_case_with_mcp_calls_raises_saying_to_pass_the_lists_apart() -> None:
    case = {
        "input": "Refund order 7.",
        "tools_called": [CALLED[0].model_dump()],
        "mcp_tools_called": [{"name": "refund", "args": {"order": 7}, "result": {}}],
    }
    with pytest.raises(ValueError, match="mcp_tools_called") as error:
        to_calls(case)
    assert str(error.value) == (
        "to_calls cannot read tool calls from input: its mcp_tools_called are calls whose order "
        "among its tools_called is not recorded; pass test_case.tools_called and check the MCP "
        "calls apart"
    )
