"""OpenInference spans (Arize Phoenix, and every OpenInference instrumentation): a ``TOOL``
span is a call it ran, an ``LLM`` span's recorded output messages hold the calls its model
asked for; the two of one call are one call (``toolmatch._readers.spans``).

A ``TOOL`` span: its ``tool.name`` (else the span's name), its arguments ``input.value``
(``tool.parameters`` is the tool's schema, not the arguments), its id ``tool_call.id`` or
``tool.id`` where an instrumentation records one, its result ``output.value``, and its span
status (``ERROR`` is a failure). An ``LLM`` span: each
``llm.output_messages.<i>.message.tool_calls.<j>.tool_call.*`` (``id``,
``function.name``, ``function.arguments``). The agent is the nearest ``agent.name`` on the
span or its parents, else the nearest ``graph.node.name`` (or ``graph.node.id``).
Attributes written nested (``{"llm": {"output_messages": [...]}}``) read as their dotted
names. A row of Phoenix's spans dataframe (``span_kind``, ``context.span_id``, its
attributes in columns ``attributes.<name>``, a missing one null or NaN) is the span it
was made from.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.limits import MAX_NESTING, NESTED_TOO_DEEPLY
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.spans import Spans, span_failed, span_ids, span_start

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._readers.reading import Reading

__all__ = ["KIND", "read_phoenix_row", "read_span"]

# The attribute that makes a span an OpenInference one.
KIND = "openinference.span.kind"
_OUTPUT = "llm.output_messages."
_CALLS = ".message.tool_calls."
_FIELD = ".tool_call."


def read_span(
    data: Mapping[str, Any], attributes: Mapping[str, Any], where: str, reading: Reading
) -> None:
    """An OpenInference span: a ``TOOL`` span is a call, an ``LLM`` span's output messages
    hold calls, any other span none."""
    flat = _flat(attributes, f"{where}.attributes")
    kind = flat.get(KIND)
    spans = reading.state(Spans)
    span_id, parent_id = span_ids(data)
    agent = flat.get("agent.name")
    node = flat.get("graph.node.name") or flat.get("graph.node.id")
    place = f"{where}.attributes"
    if kind == "TOOL":
        key = spans.saw(where, None, span_id, parent_id, agent, node, span_start(data))
        tool = flat.get("tool.name") or data["name"]
        arguments = flat.get("tool_call.function.arguments", flat.get("input.value"))
        call_id, result = flat.get("tool_call.id", flat.get("tool.id")), flat.get("output.value")
        apart = reading.apart()
        apart.call(tool, arguments, call_id, place, result=result, failed=span_failed(data))
        spans.ran(reading, apart.finish()[0], key)
        return
    if kind == "LLM" and any(key.startswith(_OUTPUT) for key in flat):
        key = spans.saw(where, None, span_id, parent_id, agent, node, span_start(data))
        spans.asked(reading, _asked(flat, place, reading), key)
        return
    name = short_repr(data["name"])
    told = f"{name} (LLM, without llm.output_messages)" if kind == "LLM" else f"{name} ({kind})"
    spans.saw(where, told, span_id, parent_id, agent, node)


_ATTRIBUTE_COLUMN = "attributes."
_CONTEXT_COLUMN = "context."


def read_phoenix_row(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A row of Phoenix's spans dataframe (its records, or its JSON): read as the span
    JSON Phoenix made it from, its ``attributes.<name>`` and ``context.<name>`` columns
    back under ``attributes`` and ``context``; a missing value (null, or pandas' NaN) is
    no value, not a result of NaN."""
    span: dict[str, Any] = {"attributes": {}, "context": {}}
    for key, value in data.items():
        if value is None or (type(value) is float and value != value):
            continue
        if key.startswith(_ATTRIBUTE_COLUMN):
            span["attributes"][key[len(_ATTRIBUTE_COLUMN) :]] = value
        elif key.startswith(_CONTEXT_COLUMN):
            span["context"][key[len(_CONTEXT_COLUMN) :]] = value
        else:
            span[key] = value
    reading.read(span, where)


def _asked(flat: Mapping[str, Any], where: str, reading: Reading) -> list[ToolCall]:
    """The calls of an LLM span's output messages, in message and call order."""
    fields: dict[tuple[int, int], dict[str, Any]] = {}
    for key, value in flat.items():
        if not key.startswith(_OUTPUT):
            continue
        message, found, rest = key[len(_OUTPUT) :].partition(_CALLS)
        entry, found_field, field = rest.partition(_FIELD)
        if found and found_field and message.isdigit() and entry.isdigit():
            fields.setdefault((int(message), int(entry)), {})[field] = value
    apart = reading.apart()
    for (index, number), call in sorted(fields.items()):
        place = f"{where}.{_OUTPUT}{index}{_CALLS}{number}"
        apart.call(call.get("function.name"), call.get("function.arguments"), call.get("id"), place)
    return apart.finish()


def _flat(attributes: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """``attributes`` with nested mappings and lists of mappings written as dotted names
    (as the OpenTelemetry SDK writes them); flat attributes are returned as they are."""
    if not any(isinstance(value, (Mapping, list)) for value in attributes.values()):
        return attributes
    flat: dict[str, Any] = {}
    stack: list[tuple[str, object, int]] = [("", attributes, 0)]
    while stack:  # without recursion; the depth bounded, as for specs (and a value in itself)
        prefix, value, depth = stack.pop()
        if depth > MAX_NESTING:
            raise TypeError(f"{where}: {NESTED_TOO_DEEPLY}")
        if isinstance(value, Mapping):
            stack.extend((f"{prefix}{key}.", inner, depth + 1) for key, inner in value.items())
        elif isinstance(value, list) and value and all(isinstance(i, Mapping) for i in value):
            items = enumerate(value)
            stack.extend((f"{prefix}{index}.", inner, depth + 1) for index, inner in items)
        else:
            flat[prefix[:-1]] = value
    return flat
