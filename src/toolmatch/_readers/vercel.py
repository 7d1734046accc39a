"""Vercel AI SDK: message parts (``tool-call``, ``dynamic-tool``, a UI part
``tool-<name>``), ``tool-result`` parts, and approvals (``tool-approval-request`` /
``tool-approval-response`` parts, a UI part's approval states)."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, as_data, cannot_read

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CALL_FREE_TYPES",
    "read_approval_request",
    "read_approval_response",
    "read_tool_part",
    "read_tool_result",
]

# Parts that hold no call and no result.
CALL_FREE_TYPES = frozenset(
    {"text", "reasoning", "step-start", "source-url", "source-document", "file", "image"}
)


# A UI part's state that says how its call stands before any output: awaiting approval,
# answered (denied, or approved and not yet run), refused.
_APPROVAL_STATES = {"approval-requested": "pending", "output-denied": "denied"}


class _Approvals(dict[str, object]):
    """The call id of each approval request read (``approvalId``): its answer names only it."""


def read_tool_part(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool-call`` part, or a UI part ``dynamic-tool`` / ``tool-<name>`` (its ``state``
    says whether it holds an output, ``output-available``, or an ``output-error``; awaits
    approval, ``approval-requested``; or was denied: ``output-denied``, or
    ``approval-responded`` with ``approval.approved`` false)."""
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
    status = _APPROVAL_STATES.get(state) if isinstance(state, str) else None
    if state == "approval-responded":
        approval = as_data(data.get("approval"))
        if isinstance(approval, Mapping) and approval.get("approved") is False:
            status = "denied"
    reading.call(
        name, raw, data.get("toolCallId"), where, result=result, failed=failed, status=status
    )


def read_approval_request(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool-approval-request`` part: the call of its ``toolCallId`` (``toolCall`` in a
    ``generateText`` result's content) awaits approval. The call is its own part."""
    call_id = data.get("toolCallId")
    if call_id is None:
        call = as_data(data.get("toolCall"))
        call_id = call.get("toolCallId") if isinstance(call, Mapping) else None
    if call_id is None:
        raise cannot_read(data, where)
    reading.state(_Approvals)[str(data.get("approvalId"))] = call_id
    reading.note_status(call_id, "pending")


def read_approval_response(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool-approval-response`` part: ``approved`` false denies the call its
    ``approvalId`` was requested for; true leaves it to run (no status until its result).
    An answer to a request not in the trace is ignored, as a result without its call."""
    approved = data.get("approved")
    if not isinstance(approved, bool):
        raise cannot_read(data, where)
    call_id = reading.state(_Approvals).get(str(data.get("approvalId")))
    reading.note_status(call_id, None if approved else "denied")


def read_tool_result(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool-result`` part; AI SDK 5's output is typed, ``error-text`` or ``error-json``
    when the tool failed, ``execution-denied`` when its approval was denied (AI SDK 4 said
    ``result``, untyped)."""
    output = data["output"] if "output" in data else data.get("result")
    typed = as_data(output)
    failed = status = None
    if isinstance(typed, Mapping) and isinstance(typed.get("type"), str):
        if typed["type"] == "execution-denied":
            status = "denied"
        else:
            failed = typed["type"].startswith("error-")
    reading.result(data.get("toolCallId"), output, failed, status)
