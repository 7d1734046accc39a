"""OpenTelemetry GenAI: spans (objects, their JSON, OTLP JSON) and message parts.

An ``execute_tool`` span is one call, and holds its result: the
``gen_ai.tool.call.result`` attribute, and the span status (``ERROR`` is a failure,
``OK`` a success, unset says nothing). A model span (``chat``, ``generate_content``,
``text_completion``) that records its answer (``gen_ai.output.messages``) holds the calls
its model asked for: a tool span of the same call id (or, without ids, of the same name and
arguments) is the same call (``toolmatch._readers.spans``). ``gen_ai.agent.name`` on a
span or a parent names the agent. Any other span holds no call.

OTLP JSON writes attribute values typed (``stringValue``, ``kvlistValue``, ...): each is
read as the plain value it stands for, nested ones too. Protobuf's own field names
(``resource_spans``, ``string_value``, ..., as ``MessageToDict(...,
preserving_proto_field_name=True)`` writes them) are read as the JSON names are, as an OTLP
receiver reads them. The SDK's span objects keep sequences as tuples: their values are read
as their JSON is, with lists.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.limits import MAX_NESTING, NESTED_TOO_DEEPLY
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, as_data, wrong_shape
from toolmatch._readers.spans import Spans, span_calls, span_failed, span_ids, span_start

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

__all__ = [
    "CALL_FREE_TYPES",
    "ENVELOPES",
    "envelope_items",
    "read_server_tool_call",
    "read_server_tool_call_response",
    "read_span",
    "read_span_object",
    "read_tool_call_response",
    "span_attributes",
]

# OTLP JSON's nesting: resource spans hold scope spans, which hold spans (each level in
# its JSON name and its protobuf field name).
ENVELOPES = ("resourceSpans", "resource_spans", "scopeSpans", "scope_spans", "spans")
# Message parts of the GenAI conventions that hold no call and no result.
CALL_FREE_TYPES = frozenset({"text", "reasoning", "blob", "file", "uri"})
# An AnyValue's kinds, by the key that holds each: its JSON name and its protobuf field name.
# The kinds whose JSON value is the plain value itself, by those keys:
_AS_GIVEN = frozenset(
    f"{kind}{tail}" for kind in ("string", "bool", "double") for tail in ("Value", "_value")
)
# The other kinds, whose value is decoded (``_typed_value``):
_TYPED_KINDS = {
    spelling: kind
    for kind in ("int", "bytes", "array", "kvlist")
    for spelling in (f"{kind}Value", f"{kind}_value")
}
# The operations of a model call, whose span may record the model's answer.
_MODEL_OPERATIONS = frozenset({"chat", "generate_content", "text_completion"})


def envelope_items(data: Mapping[str, Any], where: str) -> tuple[Sequence[object], str]:
    """An OTLP JSON envelope's items (the next level's envelopes, or its spans) and their
    place."""
    for key in ENVELOPES:
        if key in data:
            inner = data[key]
            if type(inner) is not list:  # JSON's list as it is: no call of as_data
                inner = as_data(inner)
                if not isinstance(inner, (list, tuple)):
                    raise wrong_shape(f"{where}.{key}", "a list", inner)
            return inner, f"{where}.{key}"
    return (), where  # no envelope key: the dispatch table hands it no such mapping


def read_span_object(span: Any, where: str, reading: Reading) -> None:
    """An OpenTelemetry SDK ``ReadableSpan``: read as its JSON is (its attributes' tuples
    lists), its own id and its parent's kept (they tell which agent a call ran in)."""
    context = getattr(span, "context", None)
    parent = getattr(span, "parent", None)
    attributes = span.attributes
    if isinstance(attributes, Mapping):
        attributes = _as_json(attributes, f"{where}.attributes", 0)
    reading.read(
        {
            "name": span.name,
            "context": {"span_id": getattr(context, "span_id", None)},
            "parent_id": getattr(parent, "span_id", None),
            "attributes": attributes,
            "status": span.status,
            "start_time": getattr(span, "start_time", None),
        },
        where,
    )


def _as_json(value: object, where: str, depth: int) -> object:
    """An SDK attribute value as the span's JSON holds it: its tuples (the SDK keeps every
    sequence as one) lists, its mappings dicts, nested ones too; any other value as it is."""
    if not isinstance(value, (tuple, Mapping)):
        return value
    if depth > MAX_NESTING:
        raise TypeError(f"{where}: {NESTED_TOO_DEEPLY}")
    if isinstance(value, tuple):
        return [_as_json(item, where, depth + 1) for item in value]
    return {key: _as_json(inner, where, depth + 1) for key, inner in value.items()}


def span_attributes(data: Mapping[str, Any], where: str) -> Mapping[str, Any]:
    """A span's attributes, plain: a mapping, or OTLP JSON's key/value list with its typed
    values read; its ``name`` must be a string."""
    if not isinstance(data.get("name"), str):
        raise wrong_shape(f"{where}.name", "a span name (a string)", data.get("name"))
    where = f"{where}.attributes"
    attributes = as_data(data.get("attributes"))
    if isinstance(attributes, Mapping):
        return attributes
    if not isinstance(attributes, (list, tuple)):
        raise wrong_shape(where, "a mapping or a key/value list", attributes)
    return _key_values(attributes, where, 0)


def _key_values(entries: list[Any] | tuple[Any, ...], where: str, depth: int) -> dict[str, Any]:
    """OTLP JSON's ``[{"key": ..., "value": {...}}]`` at ``where``, as a dict of plain
    values, in one pass."""
    flat: dict[str, Any] = {}
    for index, entry in enumerate(entries):
        if type(entry) is not dict and not isinstance(entry, Mapping):
            continue
        key = entry.get("key")
        if not isinstance(key, str):
            continue
        value = entry.get("value")
        # A string, bool or double (most attributes) read here, not by a call of _any_value:
        # B4's agent-mix span (six attributes, one a two-key kvlist) 5.3 -> 3.8 µs.
        if type(value) is dict and len(value) == 1:
            [(kind, held)] = value.items()
            if kind in _AS_GIVEN:
                flat[key] = held
                continue
        flat[key] = _any_value(value, where, index, ".value", depth)
    return flat


def _any_value(value: object, where: str, index: int, tail: str, depth: int) -> object:
    """An OTLP JSON ``AnyValue`` (at ``{where}[{index}]{tail}``: item ``index`` of a list) as
    the plain value it stands for: ``intValue`` (a string in JSON) an int, ``bytesValue``
    (base64) bytes, ``arrayValue`` a list, ``kvlistValue`` a dict; a value that is not
    typed stays as it is. Its place is written out only for an error or a nested value
    (an eight-attribute span: 9.1 -> 6.2 µs, B4's agent mix reading its OTLP spans)."""
    if not isinstance(value, Mapping):
        return value
    for key, held in value.items():  # an AnyValue holds one kind
        if key in _AS_GIVEN:
            return held
        kind = _TYPED_KINDS.get(key)
        if kind is not None:
            if depth > MAX_NESTING:  # a kvlistValue in an arrayValue in ...: as for specs
                raise TypeError(f"{where}[{index}]{tail}: {NESTED_TOO_DEEPLY}")
            return _typed_value(kind, held, f"{where}[{index}]{tail}.{key}", depth)
    return value or None  # {}: OTLP's empty value


def _typed_value(kind: str, held: object, where: str, depth: int) -> object:
    """The plain value an ``AnyValue`` of ``kind`` holding ``held`` (at ``where``) stands
    for."""
    if kind == "int":
        try:
            return int(held)  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise wrong_shape(where, "an integer", held) from None
    if kind == "bytes":
        return _base64(held, where)
    if kind == "array":
        items = _values_of(held, where)
        inner = f"{where}.values"
        return [_any_value(item, inner, i, "", depth + 1) for i, item in enumerate(items)]
    return _key_values(_values_of(held, where), f"{where}.values", depth + 1)  # a kvlist


def _values_of(holder: object, where: str) -> list[Any] | tuple[Any, ...]:
    values = holder.get("values", []) if isinstance(holder, Mapping) else holder
    if not isinstance(values, (list, tuple)):
        raise wrong_shape(f"{where}.values", "a list", values)
    return values


def _base64(text: object, where: str) -> bytes:
    import base64  # here, not at the top: `import toolmatch` stays fast
    import binascii

    if not isinstance(text, str):
        raise wrong_shape(where, "base64 text", text)
    try:
        return base64.b64decode(text, validate=True)
    except binascii.Error:
        raise wrong_shape(where, "base64 text", text) from None


def read_span(
    data: Mapping[str, Any], attributes: Mapping[str, Any], where: str, reading: Reading
) -> None:
    """A GenAI span: a tool span is a call, a model span's recorded answer holds the calls
    its model asked for, any other span none."""
    spans = reading.state(Spans)
    span_id, parent_id = span_ids(data)
    agent = attributes.get("gen_ai.agent.name")
    operation = attributes.get("gen_ai.operation.name")
    if "gen_ai.tool.name" in attributes and operation in (None, "execute_tool"):
        key = spans.saw(where, None, span_id, parent_id, agent, start=span_start(data))
        apart = reading.apart()
        apart.call(
            attributes["gen_ai.tool.name"],
            attributes.get("gen_ai.tool.call.arguments"),
            attributes.get("gen_ai.tool.call.id"),
            f"{where}.attributes",
            result=attributes.get("gen_ai.tool.call.result"),
            failed=span_failed(data),
            # the agent the span names, as Spans finds it (a call that has it needs no copy)
            agent=agent if type(agent) is str and agent else None,
        )
        spans.ran(reading, apart.finish()[0], key)
        return
    output = attributes.get("gen_ai.output.messages")
    if operation in _MODEL_OPERATIONS and output is not None:
        key = spans.saw(where, None, span_id, parent_id, agent, start=span_start(data))
        place = f"{where}.attributes.gen_ai.output.messages"
        spans.asked(reading, span_calls(reading, _json_value(output, place), place), key)
        return
    name = short_repr(data["name"])
    if operation in _MODEL_OPERATIONS:
        kind = f"{name} ({operation}, without gen_ai.output.messages)"
    else:
        kind = name if operation is None else f"{name} ({operation})"
    spans.saw(where, kind, span_id, parent_id, agent)


def _json_value(value: object, where: str) -> object:
    """An attribute that holds JSON text (the conventions' structured values), parsed; a
    value already structured stays as it is."""
    if not isinstance(value, (str, bytes)):
        return value
    import json  # here, not at the top: `import toolmatch` stays fast

    try:
        return json.loads(value)
    except ValueError:
        raise wrong_shape(where, "JSON text", value) from None


def read_tool_call_response(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool_call_response`` message part: the result of the call of its ``id``."""
    reading.result(data.get("id"), data.get("response"), None)


def read_server_tool_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``server_tool_call`` part: a call of a tool the provider runs (web search, code
    execution), read as a call like any other; its arguments are its ``server_tool_call``
    object as recorded."""
    reading.call(data.get("name"), data.get("server_tool_call"), data.get("id"), where)


def read_server_tool_call_response(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``server_tool_call_response`` part: the result of the server tool call of its
    ``id``."""
    reading.result(data.get("id"), data.get("server_tool_call_response"), None)
