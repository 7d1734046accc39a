"""Readers for smolagents: an agent's memory, its steps, a full run result, and the items
of ``agent.run(..., stream=True)``. See docs/formats.md, "smolagents".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Pieces, as_data, cannot_read, wrong_shape

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = [
    "STREAM_ITEM_CLASSES",
    "read_smol_agent",
    "read_smol_memory",
    "read_smol_message",
    "read_smol_run_result",
    "read_smol_step",
    "read_smol_stream_item",
]


# The classes of the items of agent.run(..., stream=True) that the ActionStep after them
# holds whole.
STREAM_ITEM_CLASSES = ("ToolCall", "ToolOutput", "ActionOutput", "ChatMessageStreamDelta")

# The dict forms of the memory steps that hold no call (TaskStep, PlanningStep,
# SystemPromptStep), told by a key of their own.
_SMOL_CALL_FREE_KEYS = ("task", "plan", "system_prompt")


# What to pass instead of an agent whose last run cannot be read whole.
_PASS_MEMORY = (
    "pass agent.memory (its last run), or what agent.run(..., return_full_result=True) returns"
)
_APART = "pass agent.memory, and each managed agent's memory apart"

# The roles of the messages agent.write_memory_to_messages() writes a step's calls and
# their answers as (ActionStep.to_messages): text, and none for a step whose tool failed.
MEMORY_ROLES = ("tool-call", "tool-response")
_MEMORY_MESSAGES = (
    "smolagents writes its memory's calls into these messages as text, and leaves out the "
    f"calls of a step whose tool failed: {_PASS_MEMORY}"
)


def read_smol_agent(agent: Any, where: str, reading: Reading) -> None:
    """A ``ToolCallingAgent`` with ``managed_agents``: its last run, each call made by its
    agent (docs/formats.md, "smolagents"). Any other agent holds no run to read whole."""
    if not getattr(agent, "managed_agents", None):
        raise cannot_read(agent, where, f"it holds no run: {_PASS_MEMORY}")
    _read_team(agent, agent, where, reading)


def _read_team(top: Any, agent: Any, where: str, reading: Reading) -> None:
    """``agent``'s last run, the run of each managed agent it called read right after the
    step that called it (and so on down). Exact only where each managed agent ran at most
    once in that run (its memory keeps its last run alone) and within that step (by its
    steps' timing), and where the calls to managed agents are tool calls of their names
    (a CodeAgent's are in its code): else refused, ``top`` named."""
    managed: dict[str, Any] = dict(agent.managed_agents)
    if not any(kind.__name__ == "ToolCallingAgent" for kind in type(agent).__mro__):
        hint = (
            f"{_code_calls(agent, top)} calls its managed agents from its code, which does "
            f"not say which call is whose: {_APART}"
        )
        raise cannot_read(top, where, hint)
    steps = agent.memory.steps
    runs: dict[str, int] = {}
    for step in steps:
        for call in getattr(step, "tool_calls", None) or ():
            if call.name in managed:
                runs[call.name] = runs.get(call.name, 0) + 1
    for name, count in runs.items():
        if count > 1:
            hint = (
                f"its managed agent {name!r} ran {count} times and its memory keeps only its "
                f"last run: {_APART}"
            )
            raise cannot_read(top, where, hint)
    for index, step in enumerate(steps):
        place = f"{where}.memory.steps[{index}]"
        reading.read_by(agent.name, step, place)
        for call in getattr(step, "tool_calls", None) or ():
            inner = managed.get(call.name)
            if inner is None:
                continue
            if not _ran_within(inner, step):
                hint = (
                    f"the memory of its managed agent {call.name!r} is not of its last run (its "
                    f"steps ran outside the manager's call to it): {_APART}"
                )
                raise cannot_read(top, where, hint)
            inner_place = f"{place}.managed_agents[{call.name!r}]"
            if getattr(inner, "managed_agents", None):
                reading.read_by(inner.name, inner, inner_place, partial(_read_team, top))
            else:
                reading.read_by(inner.name, inner.memory, f"{inner_place}.memory")


def _code_calls(agent: Any, top: Any) -> str:
    return "it" if agent is top else f"its managed agent {agent.name!r}"


def _ran_within(inner: Any, step: Any) -> bool:
    """Whether every timed step of ``inner``'s memory ran within ``step``."""
    outer = getattr(step, "timing", None)
    start = getattr(outer, "start_time", None)
    end = getattr(outer, "end_time", None)
    if start is None:
        return False
    for inner_step in inner.memory.steps:
        timing = getattr(inner_step, "timing", None)
        if timing is None:
            continue
        if timing.start_time < start or (end is not None and (timing.end_time or end) > end):
            return False
    return True


def read_smol_message(obj: Any, where: str, reading: Reading) -> None:
    """A smolagents ``ChatMessage`` (or a dict of one) read as the chat message it is; one
    of ``MEMORY_ROLES`` (which only ``write_memory_to_messages()`` writes) is refused, saying
    what to pass: its calls are text, and a failed step's are not there at all."""
    data = as_data(obj)
    role = data.get("role") if isinstance(data, Mapping) else None
    if getattr(role, "value", role) in MEMORY_ROLES:
        raise cannot_read(
            obj, where, f"its role is {str(getattr(role, 'value', role))!r}: {_MEMORY_MESSAGES}"
        )
    reading.read(data, where)


def read_smol_memory(obj: Any, where: str, reading: Reading) -> None:
    """An agent's ``AgentMemory``: its steps."""
    reading.read_each(obj.steps, f"{where}.steps")


def read_smol_run_result(obj: Any, where: str, reading: Reading) -> None:
    """What ``agent.run(..., return_full_result=True)`` returns: its ``steps``, as dicts."""
    for index, step in enumerate(obj.steps):
        inner = f"{where}.steps[{index}]"
        data = as_data(step)
        if not isinstance(data, Mapping):
            raise wrong_shape(inner, "a step", data)
        if data.get("step_number") is not None:
            read_smol_step(data, inner, reading)
        elif not any(key in data for key in _SMOL_CALL_FREE_KEYS):
            raise cannot_read(data, inner)


class _StreamItems(Pieces):
    """The items of ``agent.run(..., stream=True)``: pieces of the ``ActionStep`` after
    them."""

    __slots__ = ()
    ENDS = (
        "smolagents stream items without the ActionStep that follows them: the items hold "
        "a step's calls and results whole only in it; pass every item of "
        "agent.run(..., stream=True), or agent.memory"
    )


def read_smol_stream_item(obj: object, where: str, reading: Reading) -> None:
    """An item of ``agent.run(..., stream=True)`` that the ``ActionStep`` after it holds
    whole (a ``ToolCall``, a ``ToolOutput``, an ``ActionOutput``, a streamed delta of the
    model's message): a piece of that step, read there."""
    reading.state(_StreamItems).piece(where)


def read_smol_step(data: Any, where: str, reading: Reading) -> None:
    """An ``ActionStep`` (or its dict): its calls, and for a step of one call its result;
    it ends the stream items before it, its pieces.

    A step whose tool failed has no ``tool_calls`` of its own: the model's message keeps
    them. smolagents records one ``observations`` text (or one ``error``) per step, so only
    a step of one call says which call it answers.
    """
    reading.state(_StreamItems).end()
    data = as_data(data)
    calls = as_data(data.get("tool_calls"))
    place = f"{where}.tool_calls"
    if not calls:
        message = as_data(data.get("model_output_message"))
        calls = as_data(message.get("tool_calls")) if isinstance(message, Mapping) else None
        place = f"{where}.model_output_message.tool_calls"
    if not calls:
        return  # a step that failed before the model asked for anything
    if not isinstance(calls, (list, tuple)):
        raise wrong_shape(place, "a list", calls)
    ids = [_smol_call(entry, f"{place}[{index}]", reading) for index, entry in enumerate(calls)]
    if len(ids) == 1:
        error = as_data(data.get("error"))
        if error is None:
            reading.result(ids[0], data.get("observations"), False)
        else:
            message = error.get("message") if isinstance(error, Mapping) else None
            reading.result(ids[0], message if message is not None else str(error), True)


def _smol_call(entry: object, where: str, reading: Reading) -> object:
    """One call of a step: a memory ``ToolCall`` (``name``, ``arguments``, ``id``) or the
    model's ``ChatMessageToolCall`` (``function``); its id."""
    data = as_data(entry)
    if not isinstance(data, Mapping):
        raise wrong_shape(where, "a tool call", data)
    function = as_data(data.get("function"))
    source = function if isinstance(function, Mapping) else data
    name, arguments = source.get("name"), source.get("arguments")
    if name == "python_interpreter" and isinstance(arguments, str):
        arguments = {"code": arguments}  # a CodeAgent's action: the code, its tool's input
    reading.call(name, arguments, data.get("id"), where)
    return data.get("id")
