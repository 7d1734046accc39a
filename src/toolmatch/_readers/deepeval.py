"""deepeval: its ``ToolCall`` (``name``, ``input_parameters``, ``output``) and the
``tools_called`` of an ``LLMTestCase``.

deepeval records no call ids and no failures: a call's ``output`` is its result, with
``failed`` unknown (``None``). A test case's ``expected_tools`` are what it expects, not
what ran: they are not read.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, list_at

if TYPE_CHECKING:
    from typing import Any

__all__ = ["read_deepeval_call", "read_deepeval_test_case", "read_deepeval_test_case_object"]


def read_deepeval_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``ToolCall``'s dict (``model_dump()``, or ``by_alias=True``: ``inputParameters``)."""
    args = data.get("input_parameters", data.get("inputParameters"))
    reading.call(data.get("name"), args, None, where, result=data.get("output"))


def read_deepeval_test_case(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An ``LLMTestCase``'s dict: its ``tools_called`` (``toolsCalled``). Its
    ``mcp_tools_called`` are calls too, but their order among ``tools_called`` is not
    recorded: a case with both raises."""
    key = "tools_called" if "tools_called" in data else "toolsCalled"
    mcp_key = "mcp_tools_called" if "mcp_tools_called" in data else "mcpToolsCalled"
    if data.get(mcp_key):
        raise ValueError(
            f"to_calls cannot read tool calls from {where}: its {mcp_key} are calls whose order "
            f"among its {key} is not recorded; pass test_case.{key} and check the MCP calls apart"
        )
    calls = list_at(data, key, where)
    if calls is not None:
        reading.read_each(calls, f"{where}.{key}")


def read_deepeval_test_case_object(obj: Any, where: str, reading: Reading) -> None:
    """An ``LLMTestCase``: as its dict; one whose ``tools_called`` is not set records no
    calls, which is not the same as none, and raises."""
    if obj.tools_called is None:
        raise ValueError(
            f"to_calls cannot read tool calls from {where}: its tools_called is not set, so it "
            "does not say which tools ran; set tools_called (an empty list if none ran)"
        )
    read_deepeval_test_case(obj.model_dump(), where, reading)
