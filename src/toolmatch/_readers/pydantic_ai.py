"""pydantic-ai: ``ModelResponse`` / ``ModelRequest`` parts, told by their ``part_kind``, and
run results, read as their ``all_messages()``.

A ``ToolReturnPart`` is a result: a failure unless its ``outcome`` is ``"success"`` (the
default, and what versions before ``outcome`` meant) or ``"denied"`` (status ``"denied"``:
the tool did not run); a ``RetryPromptPart`` for a tool (it
names the tool) is a failure: the tool raised ``ModelRetry`` or its arguments did not
validate.

The events of ``agent.run_stream_events(...)`` (each has an ``event_kind``) hold a run's
calls and results whole only in the ``AgentRunResultEvent`` that ends them (its run
result): it is read, and the events before it are its pieces. Pieces that no such event
ends (a stream cut short, events picked out of it) raise, saying what to pass.

A run stopped for deferred tools (``output_type=[..., DeferredToolRequests]``: a tool that
requires approval, or raises ``CallDeferred``) leaves those calls unanswered: they are
``"pending"``. The messages say so themselves (the request the run paused at carries
``metadata["__pydantic_ai__"]["deferred_pause"]``), and so does the run's output, a
``DeferredToolRequests``; a resumed run answers them as usual.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Pieces, Reading, as_data, unknown_value

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CALL_FREE_KINDS",
    "CALL_KINDS",
    "RETURN_KINDS",
    "read_all_messages",
    "read_deferred_requests",
    "read_paused_request",
    "read_part",
    "read_stream_event",
]

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


def read_paused_request(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``ModelRequest``'s dict, after its parts are read: the request a run paused at for
    deferred tools leaves every call before it that no result answers pending."""
    flags = as_data(data.get("metadata"))
    own = flags.get("__pydantic_ai__") if isinstance(flags, Mapping) else None
    if isinstance(own, Mapping) and own.get("deferred_pause") is True:
        reading.note_unanswered("pending")


def read_all_messages(obj: Any, where: str, reading: Reading) -> None:
    """An ``AgentRunResult``, ``StreamedRunResult`` or ``AgentRun``: ``all_messages()``;
    an output of ``DeferredToolRequests`` makes its calls pending (where no result answers
    them). Its messages have no id, so the run object is their identity: the same run
    handed over twice (a run result beside the stream event holding it) counts once."""
    start = reading.position()
    reading.read_each(obj.all_messages(), f"{where}.all_messages()")
    reading.whole(start, where)
    reading.sighted(("pydantic-ai run", id(obj)), start)
    output: Any = getattr(obj, "output", None)  # an AgentRun not yet finished has none
    if type(output).__name__ == "DeferredToolRequests":
        for part in (*output.calls, *output.approvals):
            reading.note_status(part.tool_call_id, "pending")


def read_deferred_requests(obj: Any, where: str, reading: Reading) -> None:
    """A ``DeferredToolRequests`` (a paused run's output): its ``calls`` and ``approvals``,
    each pending."""
    for key in ("calls", "approvals"):
        for index, part in enumerate(getattr(obj, key)):
            place = f"{where}.{key}[{index}]"
            reading.call(part.tool_name, part.args, part.tool_call_id, place, status="pending")


class _StreamEvents(Pieces):
    """The events of ``agent.run_stream_events(...)``: pieces of the run their last one
    holds."""

    __slots__ = ()
    ENDS = (
        "pydantic-ai stream events without the AgentRunResultEvent that ends them: the "
        "events hold a run's calls and results whole only in it; pass every event of "
        "agent.run_stream_events(...), or the run's result"
    )


def read_stream_event(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An event of ``agent.run_stream_events(...)``: the ``AgentRunResultEvent`` is its run
    result, read; any other is a piece of the run it ends."""
    events = reading.state(_StreamEvents)
    if data.get("event_kind") == "agent_run_result":
        events.end()
        reading.read(data.get("result"), f"{where}.result")
    else:
        events.piece(where)
