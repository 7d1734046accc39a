"""Calls checked against their tools' definitions: the ``tools=`` turn option.

A call fits its definition when its tool is defined, it passes no argument outside the
schema's ``properties`` (unless the schema allows additional properties), and its arguments
are valid for the schema (``jsonschema``, the ``schema`` extra). BFCL's and Gemini's type
spellings (``"dict"``, ``"float"``, ``"OBJECT"``, ``nullable``, ``any_of``) are turned into
JSON Schema's before validating (docs/selection.md).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping

from toolmatch._calls.definitions import ToolDefinition, read_tool_definitions
from toolmatch._core.describe import join_path
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.json_schema import import_jsonschema, schema_validator

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._calls.call import ToolCall

__all__ = ["ToolCatalogue", "json_schema"]

_WHO = "checking calls against tool definitions (tools=)"
# BFCL's and Gemini's type names, as JSON Schema spells them; None: any type.
_TYPES: dict[str, str | None] = {
    "dict": "object",
    "float": "number",
    "double": "number",
    "tuple": "array",
    "list": "array",
    "str": "string",
    "int": "integer",
    "bool": "boolean",
    "any": None,
    "type_unspecified": None,
}
# Gemini's Python spellings (model_dump) of JSON Schema keywords.
_KEYWORDS = {
    "any_of": "anyOf",
    "max_items": "maxItems",
    "min_items": "minItems",
    "max_length": "maxLength",
    "min_length": "minLength",
    "max_properties": "maxProperties",
    "min_properties": "minProperties",
}
_SUBSCHEMA = frozenset({"items", "additionalProperties", "not", "contains", "if", "then", "else"})
_SUBSCHEMA_LISTS = frozenset({"anyOf", "oneOf", "allOf", "prefixItems"})
_SUBSCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions"})


def json_schema(schema: object) -> object:
    """``schema`` with BFCL's and Gemini's spellings turned into JSON Schema's.

    >>> json_schema({"type": "dict", "properties": {"n": {"type": "float", "nullable": True}}})
    {'type': 'object', 'properties': {'n': {'type': ['number', 'null']}}}
    """
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for given, value in schema.items():
        key = _KEYWORDS.get(given, given) if isinstance(given, str) else given
        if key == "type":
            kind = _json_type(value)
            if kind is not None:
                out["type"] = kind
        elif key != "property_ordering" and key != "propertyOrdering":
            out[key] = _keyword_value(key, value)
        # else Gemini's display order: no constraint
    if out.pop("nullable", None) is True and "type" in out:
        out["type"] = _with_null(out["type"])
    return out


def _with_null(kind: object) -> list[object]:
    """A ``type`` (one, or a list) that also accepts ``null``: OpenAPI's ``nullable``."""
    kinds = kind if isinstance(kind, list) else [kind]
    return [*kinds, "null"] if "null" not in kinds else kinds


def _keyword_value(key: object, value: object) -> object:
    """The value of a schema keyword other than ``type``: its subschemas turned into JSON
    Schema's; other values (``enum``, ``const``, ``default``, ...) as they are."""
    if key in _SUBSCHEMA:
        return json_schema(value)
    if key in _SUBSCHEMA_LISTS and isinstance(value, (list, tuple)):
        return [json_schema(item) for item in value]
    if key in _SUBSCHEMA_MAPS and isinstance(value, Mapping):
        return {name: json_schema(item) for name, item in value.items()}
    return value


_JSON_TYPES = frozenset({"object", "array", "string", "number", "integer", "boolean", "null"})


def _json_type(value: object) -> object:
    if isinstance(value, str):
        lowered = value.lower()  # Gemini's "STRING", a BFCL doc's "String"
        if lowered in _TYPES:
            return _TYPES[lowered]
        return lowered if lowered in _JSON_TYPES else value  # else the schema check names it
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        kinds = [_json_type(item) for item in value]
        return None if None in kinds else kinds
    return value


class _Tool:
    __slots__ = ("definition", "validator", "properties", "patterns", "closed")

    def __init__(self, definition: ToolDefinition, where: str) -> None:
        schema = json_schema(definition.schema)
        assert isinstance(schema, dict)
        self.definition = definition
        self.validator = schema_validator(schema, _WHO, f" for {definition.name!r} in {where}")
        properties = schema.get("properties")
        self.properties = tuple(properties) if isinstance(properties, Mapping) else ()
        patterns = schema.get("patternProperties")
        self.patterns = (
            tuple(re.compile(pattern) for pattern in patterns)
            if isinstance(patterns, Mapping)
            else ()
        )
        # JSON Schema allows any other property when additionalProperties is absent; a tool
        # definition lists its parameters, so an argument it does not list is a mistake.
        self.closed = "additionalProperties" not in schema

    def unknown(self, args: Mapping[str, Any]) -> list[str]:
        if not self.closed:
            return []
        return [
            key
            for key in args
            if key not in self.properties
            and not any(pattern.search(key) for pattern in self.patterns)
        ]


class ToolCatalogue:
    """The tool definitions a turn's calls are checked against, each schema's validator
    built once. Needs the ``schema`` extra."""

    __slots__ = ("definitions", "_tools")

    def __init__(self, tools: object, where: str = "tools") -> None:
        import_jsonschema(_WHO)
        self.definitions = read_tool_definitions(tools, where)
        self._tools = {
            name: _Tool(definition, where) for name, definition in self.definitions.items()
        }

    def __repr__(self) -> str:
        return f"ToolCatalogue({list(self.definitions)!r})"

    def fits(self, call: ToolCall) -> bool:
        """Whether ``call`` satisfies its tool's definition (no words built)."""
        tool = self._tools.get(call.name)
        if tool is None or call.parse_error is not None or tool.unknown(call.args):
            return False
        try:
            return bool(tool.validator.is_valid(call.args))
        except Exception:  # an unresolvable $ref, a value too deep: not shown to fit
            return False

    def violations(self, index: int, call: ToolCall) -> list[str]:
        """Each way call number ``index`` breaks its tool's definition, in words."""
        name = call.name
        head = f"call {index} {name}"
        tool = self._tools.get(name)
        if tool is None:
            return [f"{head}: no tool {name!r} is defined{_hint(name, self.definitions)}"]
        if call.parse_error is not None:
            return [f"{head}: its arguments are not a JSON object: {call.parse_error}"]
        lines = [
            f"{head}: {key!r} is not a parameter of {name}{_hint(key, tool.properties)}"
            for key in tool.unknown(call.args)
        ]
        try:
            errors = sorted(
                tool.validator.iter_errors(call.args),
                key=lambda error: [str(step) for step in error.absolute_path],
            )
        except Exception as error:
            lines.append(f"{head}: could not be validated: {type(error).__name__}: {error}")
            return lines
        lines.extend(f"{head}: {_failure_text(failure)}" for failure in errors)
        return lines


def _failure_text(failure: Any) -> str:
    """A JSON Schema validation error in words, at its place in the arguments."""
    where = ""
    for step in failure.absolute_path:
        where = join_path(where, step)
    if not where and failure.validator == "required":
        missing = failure.message.partition(" is a required property")[0]
        return f"required parameter {missing} is missing"
    return f"{where + ': ' if where else ''}{failure.message}"


def _hint(name: str, known: object) -> str:
    close = difflib.get_close_matches(name, list(known), n=1)  # type: ignore[call-overload]
    return f" (did you mean {close[0]!r}?)" if close else ""
