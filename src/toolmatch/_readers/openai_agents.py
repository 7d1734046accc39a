"""Readers for the OpenAI Agents SDK (``agents``): runs, run items and stream events.

A run item holds a Responses item (its ``raw_item``), handed back to ``reading.read``, so a
call and its result are read by the OpenAI reader, once. See docs/formats.md, "OpenAI
Agents SDK".
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.identity import message_key
from toolmatch._readers.reading import as_data

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = [
    "read_agents_agent_event",
    "read_agents_approval_item",
    "read_agents_call_item",
    "read_agents_item",
    "read_agents_item_event",
    "read_agents_output_item",
    "read_agents_raw_event",
    "read_agents_result",
]


class _AgentsRun:
    """What one reading has seen of an openai-agents run.

    ``called``: the call ids of the ``ToolCallItem``s read, so that a ``ToolApprovalItem``
    for one of them (the same call, awaiting approval) is not counted again.
    ``streamed``: a raw response event was read. The model's stream then gives the calls,
    and the run-item events that repeat them give only the tools' results.
    ``agent``: the agent of the last ``AgentUpdatedStreamEvent``, who makes the calls of
    the raw events after it.
    ``context``: the ``context_wrapper`` of the last run result read, which holds the
    approvals and rejections given before it resumed.
    ``in_result``: where the run result read now is (``None``: none is).
    ``unnamed``: per call id, where a call whose item has no identity (no id, or the
    placeholder openai-agents gives a Chat Completions or LiteLLM model's items) was read
    first, in a run result (``True``) and in stream events (``False``): one call in both
    cannot be told from two calls, so ``finish`` raises.
    """

    __slots__ = ("agent", "called", "context", "in_result", "streamed", "unnamed")

    def __init__(self) -> None:
        self.called: set[str] = set()
        self.streamed = False
        self.agent: object = None
        self.context: object = None
        self.in_result: str | None = None
        self.unnamed: dict[bool, dict[str, str]] = {True: {}, False: {}}

    def seen(self, raw: object, where: str) -> None:
        """A call's item read at ``where``: noted if it has no identity."""
        data = as_data(raw)
        if isinstance(data, Mapping) and message_key(data.get("id")) is None:
            call_id = data.get("call_id")
            if call_id is not None:
                self.unnamed[self.in_result is not None].setdefault(str(call_id), where)

    def finish(self, reading: Reading) -> None:
        in_events = self.unnamed[False]
        for call_id, first in self.unnamed[True].items():
            other = in_events.get(call_id)
            if other is not None:
                raise ValueError(
                    f"{other}: the call {call_id} of these stream events is also in the run "
                    f"result at {first}, and its items have no id (openai-agents gives a Chat "
                    "Completions or LiteLLM model's items '__fake_id__'): to_calls cannot "
                    "tell one call seen twice from two calls; pass the stream events or the "
                    "run result, not both"
                )


_RESULT_ITEMS = frozenset({"ToolCallOutputItem", "HandoffOutputItem"})


def read_agents_result(obj: Any, where: str, reading: Reading) -> None:
    """A ``RunResult`` or ``RunResultStreaming``: the items of this run, ``new_items``."""
    if getattr(obj, "is_complete", True) is False:
        raise ValueError(
            f"{where}: the streamed run is not complete, so its new_items are not all there; "
            "consume result.stream_events() first"
        )
    run = reading.state(_AgentsRun)
    outer, run.context = run.context, getattr(obj, "context_wrapper", None)
    outer_place, run.in_result = run.in_result, where
    try:
        reading.read_each(obj.new_items, f"{where}.new_items")
    finally:
        run.context, run.in_result = outer, outer_place


def read_agents_item(obj: Any, where: str, reading: Reading) -> None:
    """A run item (message, reasoning, tool output, ...): its Responses ``raw_item``, made
    by the item's ``agent``."""
    reading.read_by(_agent_name(obj, "agent"), obj.raw_item, f"{where}.raw_item")


def read_agents_output_item(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallOutputItem``: the answer to the call of its raw item's ``call_id``, as
    the tool returned it (``output``; the model was sent its text, ``raw_item``)."""
    reading.result(_call_id(obj.raw_item), obj.output, None)


def read_agents_call_item(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallItem`` or ``HandoffCallItem``: the model's call in its ``raw_item``."""
    raw = obj.raw_item
    call_id = _call_id(raw)
    run = reading.state(_AgentsRun)
    if call_id is not None:
        run.called.add(call_id)
    run.seen(raw, f"{where}.raw_item")
    reading.read_by(_agent_name(obj, "agent"), raw, f"{where}.raw_item")


def read_agents_approval_item(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolApprovalItem``: a call awaiting approval (status ``"pending"``), unless the
    run result it is read from (resumed) says it was approved (no status until its output)
    or rejected (``"denied"``: its output is the rejection message). In ``new_items`` its
    call is also the ``ToolCallItem`` before it; read alone (``result.interruptions``) it
    is the call."""
    raw = obj.raw_item
    call_id = _call_id(raw)
    run = reading.state(_AgentsRun)
    if call_id not in run.called:
        read_agents_call_item(obj, where, reading)
    decided = getattr(run.context, "is_tool_approved", None)
    approved = None
    if decided is not None and call_id is not None:
        approved = decided(getattr(obj, "tool_name", None) or "", call_id)
    status = "pending" if approved is None else (None if approved else "denied")
    reading.note_status(call_id, status)


def read_agents_item_event(obj: Any, where: str, reading: Reading) -> None:
    """A ``RunItemStreamEvent``: its ``item``, or only a result once the model's raw
    stream (which gave the calls) has been read."""
    item = obj.item
    if reading.state(_AgentsRun).streamed and type(item).__name__ not in _RESULT_ITEMS:
        return
    reading.read(item, f"{where}.item")


def read_agents_raw_event(obj: Any, where: str, reading: Reading) -> None:
    """A ``RawResponsesStreamEvent``: the Responses stream event in its ``data``, made by
    the agent the stream last named."""
    run = reading.state(_AgentsRun)
    run.streamed = True
    data = as_data(obj.data)
    if isinstance(data, Mapping) and data.get("type") == "response.output_item.done":
        run.seen(data.get("item"), f"{where}.data.item")
    reading.read_by(run.agent, obj.data, f"{where}.data")


def read_agents_agent_event(obj: Any, where: str, reading: Reading) -> None:
    """An ``AgentUpdatedStreamEvent``: the agent that runs from here on (a handoff's
    target) holds no call, but makes the calls of the raw events after it."""
    reading.state(_AgentsRun).agent = _agent_name(obj, "new_agent")


def _agent_name(obj: object, attribute: str) -> object:
    """The name of the agent ``obj`` holds at ``attribute`` (``None`` if it holds none)."""
    return getattr(getattr(obj, attribute, None), "name", None)


def _call_id(raw: object) -> str | None:
    data = as_data(raw)
    if not isinstance(data, Mapping):
        return None
    call_id = data.get("call_id")
    if call_id is None:
        call_id = data.get("id")
    return None if call_id is None else str(call_id)
