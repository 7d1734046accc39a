"""Langfuse observations: the API's ``ObservationV2`` (and its JSON, either spelling), a
page of them (``ObservationsV2Response``, ``{"data": [...], "meta": {...}}``), and the
spans the Langfuse SDK records them as before sending them (``langfuse.observation.type``,
``.input``, ``.output``, ``.level``: text, JSON text where the value was not).

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
from toolmatch._readers.spans import Spans, json_attribute, span_ids, span_start

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = ["KIND", "OBSERVATION_TYPES", "is_page", "read_observation", "read_page", "read_span"]

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


# The attribute that makes a span one the Langfuse SDK recorded, its observation's type.
KIND = "langfuse.observation.type"


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
    parent = data.get("parentObservationId", data.get("parent_observation_id"))
    fields = {key: data.get(key) for key in ("name", "input", "output", "level")}
    fields["start"] = span_start(data)
    _read(data["type"], fields, (data.get("id"), parent), where, reading)


def read_span(
    data: Mapping[str, Any], attributes: Mapping[str, Any], where: str, reading: Reading
) -> None:
    """A span the Langfuse SDK recorded: read as the observation it becomes (its type in
    lower case, its input and output JSON text)."""
    kind = attributes[KIND]
    fields = {
        "name": data["name"],
        "input": json_attribute(attributes.get("langfuse.observation.input")),
        "output": json_attribute(attributes.get("langfuse.observation.output")),
        "level": attributes.get("langfuse.observation.level"),
        "start": span_start(data),
    }
    _read(kind.upper() if isinstance(kind, str) else kind, fields, span_ids(data), where, reading)


def _read(
    kind: object, fields: dict[str, Any], ids: tuple[object, object], where: str, reading: Reading
) -> None:
    """An observation of type ``kind``, its ``name``, ``input``, ``output``, ``level`` and
    ``start`` (its start time) (``fields``), its own id and its parent's (``ids``)."""
    spans = reading.state(Spans)
    own, parent = ids
    agent = fields["name"] if kind == "AGENT" else None
    start = fields["start"]
    if kind == "TOOL":
        key = spans.saw(where, None, own, parent, agent, start=start)
        result, failed = fields["output"], True if fields["level"] == "ERROR" else None
        apart = reading.apart()
        apart.call(fields["name"], fields["input"], None, where, result=result, failed=failed)
        spans.ran(reading, apart.finish()[0], key)
        return
    name = short_repr(fields["name"])
    if kind == "GENERATION":
        found = f"{name} (GENERATION"
        output = fields["output"]
        spans.answer(reading, where, f"{where}.output", output, found, own, parent, agent, start)
        return
    spans.saw(where, f"{name} ({kind})", own, parent, agent)
