"""OpenTelemetry GenAI: spans (objects, their JSON, OTLP JSON) and output message parts.

An ``execute_tool`` span is one call, and holds its result: the
``gen_ai.tool.call.result`` attribute, and the span status (``ERROR`` is a failure,
``OK`` a success, unset says nothing). Any other span holds no call.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, as_data, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CALL_FREE_TYPES",
    "ENVELOPES",
    "read_envelope",
    "read_span",
    "read_tool_call_response",
]

# OTLP JSON's nesting: resource spans hold scope spans, which hold spans.
ENVELOPES = ("resourceSpans", "scopeSpans", "spans")
# Message parts of the GenAI conventions that hold no call and no result.
CALL_FREE_TYPES = frozenset({"text", "reasoning", "blob", "file", "uri"})
_OTLP_VALUE_KEYS = ("stringValue", "intValue", "doubleValue", "boolValue")
_ERROR = frozenset({2, "STATUS_CODE_ERROR", "ERROR"})
_OK = frozenset({1, "STATUS_CODE_OK", "OK"})


def read_envelope(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An OTLP JSON envelope: the spans it holds, in order."""
    for key in ENVELOPES:
        if key in data:
            inner = as_data(data[key])
            if not isinstance(inner, (list, tuple)):
                raise wrong_shape(f"{where}.{key}", "a list", inner)
            reading.read_each(inner, f"{where}.{key}")
            return


def read_span(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A span: a call when it is a GenAI tool span, else none."""
    if not isinstance(data.get("name"), str):
        raise wrong_shape(f"{where}.name", "a span name (a string)", data.get("name"))
    attributes = _attributes(as_data(data.get("attributes")), f"{where}.attributes")
    operation = attributes.get("gen_ai.operation.name")
    if "gen_ai.tool.name" not in attributes or operation not in (None, "execute_tool"):
        return
    reading.call(
        attributes["gen_ai.tool.name"],
        attributes.get("gen_ai.tool.call.arguments"),
        attributes.get("gen_ai.tool.call.id"),
        f"{where}.attributes",
        result=attributes.get("gen_ai.tool.call.result"),
        failed=_failed(data.get("status")),
    )


def _attributes(attributes: object, where: str) -> Mapping[str, Any]:
    """A span's attributes: a mapping, or OTLP JSON's key/value list."""
    if isinstance(attributes, Mapping):
        return attributes
    if not isinstance(attributes, (list, tuple)):
        raise wrong_shape(where, "a mapping or a key/value list", attributes)
    flat: dict[str, Any] = {}
    for entry in attributes:
        if isinstance(entry, Mapping) and isinstance(entry.get("key"), str):
            value = entry.get("value")
            if isinstance(value, Mapping):
                value = next((value[k] for k in _OTLP_VALUE_KEYS if k in value), None)
            flat[entry["key"]] = value
    return flat


def _failed(status: object) -> bool | None:
    """A span status (an SDK ``Status``, its JSON, OTLP's ``{"code": 2}``) as a failure."""
    if status is None:
        return None
    if isinstance(status, Mapping):
        code = status.get("code", status.get("status_code"))
    else:
        code = getattr(status, "status_code", None)
    code = getattr(code, "name", code)  # an SDK StatusCode enum
    if not isinstance(code, (int, str)):
        return None
    if code in _ERROR:
        return True
    if code in _OK:
        return False
    return None


def read_tool_call_response(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool_call_response`` message part: the result of the call of its ``id``."""
    reading.result(data.get("id"), data.get("response"), None)
