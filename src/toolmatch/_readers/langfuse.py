"""Langfuse observations: the API's ``ObservationV2`` (and its JSON, either spelling), and
a page of them (``ObservationsV2Response``, ``{"data": [...], "meta": {...}}``).

A ``TOOL`` observation is a call it ran: its ``name``, its arguments ``input``, its result
``output``, and level ``ERROR`` a failure (another level says nothing: Langfuse sets
``ERROR`` where the SDK caught an exception). A ``GENERATION`` observation holds the calls
of its recorded ``output``, read as ``to_calls`` reads it (an OpenAI message, say); an
output of no shape ``to_calls`` reads counts as no answer recorded. The two of one call are
one call (``toolmatch._readers.spans``). The agent is the name of the nearest ``AGENT``
observation the call's observation is in (``parentObservationId``).
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.spans import Spans

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = ["OBSERVATION_TYPES", "is_page", "read_observation", "read_page"]

# Every observation type of Langfuse's API (ObservationType).
OBSERVATION_TYPES = (
    "SPAN",
    "GENERATION",
    "EVENT",
    "AGENT",
    "TOOL",
    "CHAIN",
    "RETRIEVER",
    "EVALUATOR",
    "EMBEDDING",
    "GUARDRAIL",
)


def is_page(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` is a page of observations: ``data`` (a list) and ``meta``."""
    return data.keys() == {"data", "meta"} and isinstance(data["data"], list)


def read_page(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A page of observations (the API's response, or its JSON): its ``data``, in order."""
    where = f"{where}.data"
    reading.state(Spans).envelope(where)
    reading.read_each(data["data"], where)


def read_observation(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An observation: a ``TOOL`` one is a call, a ``GENERATION``'s output holds calls,
    any other none."""
    kind = data["type"]
    spans = reading.state(Spans)
    own = data.get("id")
    parent = data.get("parentObservationId", data.get("parent_observation_id"))
    agent = data.get("name") if kind == "AGENT" else None
    if kind == "TOOL":
        key = spans.saw(where, None, own, parent, agent)
        apart = reading.apart()
        apart.call(
            data.get("name"),
            data.get("input"),
            None,
            where,
            result=data.get("output"),
            failed=True if data.get("level") == "ERROR" else None,
        )
        spans.ran(reading, apart.finish()[0], key)
        return
    name = short_repr(data.get("name"))
    if kind == "GENERATION":
        found = f"{name} (GENERATION"
        spans.answer(
            reading, where, f"{where}.output", data.get("output"), found, own, parent, agent
        )
        return
    spans.saw(where, f"{name} ({kind})", own, parent, agent)
