"""Vercel AI SDK: message parts (``tool-call``, ``dynamic-tool``, a UI part
``tool-<name>``) and ``tool-result`` parts."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, as_data, cannot_read

if TYPE_CHECKING:
    from typing import Any

__all__ = ["CALL_FREE_TYPES", "read_tool_part", "read_tool_result"]

# Parts that hold no call and no result.
CALL_FREE_TYPES = frozenset(
    {"text", "reasoning", "step-start", "source-url", "source-document", "file", "image"}
)


def read_tool_part(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool-call`` part, or a UI part ``dynamic-tool`` / ``tool-<name>`` (its ``state``
    says whether it holds an output, ``output-available``, or an ``output-error``)."""
    kind = data.get("type")
    name = data.get("toolName")
    if name is None and isinstance(kind, str) and kind.startswith("tool-"):
        if "toolCallId" not in data:
            raise cannot_read(data, where)
        name = kind.removeprefix("tool-")  # a UI message part is typed 'tool-<name>'
    raw = data["input"] if "input" in data else data.get("args")  # AI SDK 4 said 'args'
    state = data.get("state")
    result: object = None
    failed = None
    if state == "output-available":
        result, failed = data.get("output"), False
    elif state == "output-error":
        result, failed = data.get("errorText"), True
    reading.call(name, raw, data.get("toolCallId"), where, result=result, failed=failed)


def read_tool_result(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool-result`` part; AI SDK 5's output is typed, ``error-text`` or ``error-json``
    when the tool failed (AI SDK 4 said ``result``, untyped)."""
    output = data["output"] if "output" in data else data.get("result")
    typed = as_data(output)
    failed = None
    if isinstance(typed, Mapping) and isinstance(typed.get("type"), str):
        failed = typed["type"].startswith("error-")
    reading.result(data.get("toolCallId"), output, failed)
