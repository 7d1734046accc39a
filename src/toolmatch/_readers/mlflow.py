"""MLflow traces: a ``Trace`` (its spans), ``Trace.to_dict()`` and the JSON MLflow
exports, and MLflow spans alone.

MLflow writes each span attribute as JSON text: ``mlflow.spanType`` says what a span is.
A ``TOOL`` span is a call it ran: its name, its arguments ``mlflow.spanInputs``, its result
``mlflow.spanOutputs`` (absent: ``None``) and its status (``ERROR`` is a failure). A model
span (``LLM``, ``CHAT_MODEL``) holds the calls of its recorded output, read as ``to_calls``
reads it (an OpenAI completion, say); an output of no shape ``to_calls`` reads counts as no
answer recorded. The two of one call are one call (``toolmatch._readers.spans``). The agent
is the name of the nearest ``AGENT`` span the call's span is in.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import as_data, wrong_shape
from toolmatch._readers.spans import Spans, json_attribute, span_failed, span_ids, span_start

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = ["KIND", "is_trace", "read_span", "read_trace"]

# The attribute that makes a span an MLflow one.
KIND = "mlflow.spanType"
_MODEL_KINDS = frozenset({"LLM", "CHAT_MODEL"})


def is_trace(data: Mapping[str, Any]) -> bool:
    """Whether ``data`` is an MLflow trace as ``to_dict()`` writes it: ``info`` and
    ``data`` (which holds the spans)."""
    return data.keys() == {"info", "data"} and isinstance(data["data"], Mapping)


def read_trace(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An MLflow trace's dict: the spans of its ``data``."""
    where = f"{where}.data.spans"
    spans = as_data(data["data"].get("spans"))
    if not isinstance(spans, (list, tuple)):
        raise wrong_shape(where, "a list of spans", spans)
    reading.state(Spans).envelope(where)
    reading.read_each(spans, where)


def read_span(
    data: Mapping[str, Any], attributes: Mapping[str, Any], where: str, reading: Reading
) -> None:
    """An MLflow span: a ``TOOL`` span is a call, a model span's output holds calls, any
    other span none."""
    place = f"{where}.attributes"
    kind = json_attribute(attributes.get(KIND))
    spans = reading.state(Spans)
    span_id, parent_id = span_ids(data)
    agent = data["name"] if kind == "AGENT" else None
    start = span_start(data)
    if kind == "TOOL":
        key = spans.saw(where, None, span_id, parent_id, agent, start=start)
        arguments = json_attribute(attributes.get("mlflow.spanInputs"))
        result = json_attribute(attributes.get("mlflow.spanOutputs"))
        apart = reading.apart()
        apart.call(data["name"], arguments, None, place, result=result, failed=span_failed(data))
        spans.ran(reading, apart.finish()[0], key)
        return
    name = short_repr(data["name"])
    if kind in _MODEL_KINDS:
        output = json_attribute(attributes.get("mlflow.spanOutputs"))
        found = f"{name} ({kind}"
        place = f"{place}.mlflow.spanOutputs"
        spans.answer(reading, where, place, output, found, span_id, parent_id, agent, start)
        return
    spans.saw(where, f"{name} ({kind})", span_id, parent_id, agent)
