"""Readers for ATIF, the Agent Trajectory Interchange Format (v1.x) of the Harbor project.

A trajectory's ``steps`` hold the agent's ``tool_calls`` (``tool_call_id``,
``function_name``, ``arguments``) and an ``observation`` whose ``results`` answer them by
``source_call_id``. ATIF records no error flag, so ``failed`` stays ``None``. The calls'
``agent`` is the trajectory's ``agent.name`` (only agent steps may call). See
docs/formats.md, "ATIF trajectories".
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import as_data, wrong_shape

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Handler, Reading

__all__ = ["read_atif_result", "read_atif_step", "read_atif_tool_call", "read_atif_trajectory"]

_SOURCES = ("system", "user", "agent")


def read_atif_trajectory(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A whole trajectory: its steps in order."""
    version = data["schema_version"]
    if not (isinstance(version, str) and version.startswith("ATIF-v1.")):
        raise TypeError(
            f"{where}.schema_version: toolmatch reads ATIF v1 trajectories "
            f"('ATIF-v1.x'), got {short_repr(version)}"
        )
    agent = as_data(data.get("agent"))
    name = agent.get("name") if isinstance(agent, Mapping) else None
    read_steps = partial(_read_objects, "a step object", read_atif_step)
    reading.read_by(name, data.get("steps"), f"{where}.steps", read_steps)


def _read_objects(noun: str, read: Handler, value: object, where: str, reading: Reading) -> None:
    """Read each item of the list ``value`` with ``read``: an object (else not ``noun``)."""
    items = as_data(value)
    if not isinstance(items, (list, tuple)):
        raise wrong_shape(where, "a list", items)
    for index, item in enumerate(items):
        inner = f"{where}[{index}]"
        data = as_data(item)
        if not isinstance(data, Mapping):
            raise wrong_shape(inner, noun, data)
        read(data, inner, reading)


def read_atif_step(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """One step: the agent's calls, then the results its observation holds."""
    source = data.get("source")
    if source not in _SOURCES:
        raise TypeError(
            f"{where}.source must be 'system', 'user' or 'agent', got {short_repr(source)}"
        )
    calls = as_data(data.get("tool_calls"))
    if calls is not None:
        if source != "agent":
            raise TypeError(f"{where}: a {source} step holds tool_calls; ATIF gives them to agents")
        inner = f"{where}.tool_calls"
        _read_objects("a tool call object", read_atif_tool_call, calls, inner, reading)
    observation = as_data(data.get("observation"))
    if observation is None:
        return
    inner = f"{where}.observation"
    if not isinstance(observation, Mapping):
        raise wrong_shape(inner, "an object", observation)
    results = observation.get("results")
    _read_objects("a result object", read_atif_result, results, f"{inner}.results", reading)


def read_atif_tool_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """One entry of a step's ``tool_calls``."""
    reading.call(data.get("function_name"), data.get("arguments"), data.get("tool_call_id"), where)


def read_atif_result(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """One observation result: the answer to the call of its ``source_call_id``.

    A result of no call (``source_call_id`` null: an action outside tool calling, or a
    subagent's reference) answers nothing.
    """
    reading.result(data.get("source_call_id"), data.get("content"), None)
