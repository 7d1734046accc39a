"""pydantic-ai: ``ModelResponse`` / ``ModelRequest`` parts, told by their ``part_kind``, and
run results, read as their ``all_messages()``.

A ``ToolReturnPart`` is a result: a failure unless its ``outcome`` is ``"success"`` (the
default, and what versions before ``outcome`` meant) or ``"denied"`` (status ``"denied"``:
the tool did not run); a ``RetryPromptPart`` for a tool (it
names the tool) is a failure: the tool raised ``ModelRetry`` or its arguments did not
validate.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, unknown_value

if TYPE_CHECKING:
    from typing import Any

__all__ = ["CALL_FREE_KINDS", "CALL_KINDS", "RETURN_KINDS", "read_all_messages", "read_part"]

CALL_KINDS = frozenset({"tool-call", "builtin-tool-call"})
RETURN_KINDS = frozenset({"tool-return", "builtin-tool-return"})
# Parts that hold no call and no result (a retry prompt without a tool asks the model to
# fix its final output, not a tool call).
CALL_FREE_KINDS = frozenset(
    {
        "text",
        "thinking",
        "file",
        "user-prompt",
        "system-prompt",
        "instruction",
        "retry-feedback",
        "speech",
        "model-settings-delta",
        "tool-availability-delta",
    }
)
_KNOWN = CALL_KINDS | RETURN_KINDS | CALL_FREE_KINDS | {"retry-prompt"}


def read_part(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A part of a pydantic-ai message."""
    kind = data.get("part_kind")
    if kind in CALL_KINDS:
        reading.call(data.get("tool_name"), data.get("args"), data.get("tool_call_id"), where)
    elif kind in RETURN_KINDS:
        outcome = data.get("outcome", "success")
        if outcome == "denied":
            reading.result(data.get("tool_call_id"), data.get("content"), None, "denied")
        else:
            reading.result(data.get("tool_call_id"), data.get("content"), outcome != "success")
    elif kind == "retry-prompt":
        if data.get("tool_name") is not None:
            reading.result(data.get("tool_call_id"), data.get("content"), True)
    elif kind not in CALL_FREE_KINDS:
        raise unknown_value(where, "part_kind", str(kind), sorted(_KNOWN))


def read_all_messages(obj: Any, where: str, reading: Reading) -> None:
    """An ``AgentRunResult``, ``StreamedRunResult`` or ``AgentRun``: ``all_messages()``."""
    messages = obj.all_messages()
    reading.read_each(messages, f"{where}.all_messages()")
