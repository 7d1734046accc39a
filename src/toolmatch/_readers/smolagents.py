"""Readers for smolagents: an agent's memory, its steps, and a full run result. See
docs/formats.md, "smolagents".
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import as_data, cannot_read, wrong_shape

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = [
    "read_smol_memory",
    "read_smol_run_result",
    "read_smol_step",
]


# The dict forms of the memory steps that hold no call (TaskStep, PlanningStep,
# SystemPromptStep), told by a key of their own.
_SMOL_CALL_FREE_KEYS = ("task", "plan", "system_prompt")


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


def read_smol_step(data: Any, where: str, reading: Reading) -> None:
    """An ``ActionStep`` (or its dict): its calls, and for a step of one call its result.

    A step whose tool failed has no ``tool_calls`` of its own: the model's message keeps
    them. smolagents records one ``observations`` text (or one ``error``) per step, so only
    a step of one call says which call it answers.
    """
    if not isinstance(data, Mapping):
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
