"""Tool definitions, in the shapes users hold them, as ``ToolDefinition`` values.

Accepted, as plain data or as SDK objects (read through ``model_dump()``):

- an OpenAI function tool: the Chat Completions shape ``{"type": "function", "function":
  {"name", "description", "parameters"}}`` or the Responses shape ``{"type": "function",
  "name", "parameters"}``, and a bare function definition ``{"name", "parameters"}``;
- an Anthropic tool (``input_schema``; ``type`` absent or ``"custom"``);
- an MCP ``Tool``: ``inputSchema`` in its JSON, ``input_schema`` in ``model_dump()``;
- a Gemini ``FunctionDeclaration`` (``parameters``, or ``parameters_json_schema`` /
  ``parametersJsonSchema``), or a Gemini ``Tool``: each of its ``function_declarations``;
- a BFCL function doc: ``{"name", "description", "parameters": {"type": "dict", ...}}``,
  BFCL's ``"dict"`` standing for JSON Schema's ``"object"``;
- a ``ToolDefinition`` already read.

A definition without any parameters schema takes no parameters. Anything else raises
``TypeError`` naming its place and what was found there; nothing is skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.immutable import Record
from toolmatch._core.json_entries import read_json_entries
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from os import PathLike
    from typing import Any

__all__ = ["ToolDefinition", "read_tool_definitions", "function_docs"]

# Where each shape keeps its parameters' schema. A definition holds at most one of them.
_SCHEMA_KEYS = (
    "parameters",  # OpenAI, Gemini, BFCL
    "input_schema",  # Anthropic, MCP's model_dump()
    "inputSchema",  # MCP's JSON
    "parameters_json_schema",  # Gemini, Python spelling
    "parametersJsonSchema",  # Gemini, JSON spelling
)
_DECLARATION_KEYS = ("function_declarations", "functionDeclarations")
# "dict" is BFCL's spelling, "OBJECT" Gemini's Schema enum.
_OBJECT_TYPES = frozenset({"object", "dict", "OBJECT"})
_EXPECTED = (
    "expected an OpenAI function tool, an Anthropic or MCP tool, a Gemini function "
    "declaration or Tool, or a BFCL function doc"
)


class ToolDefinition(Record):
    """One tool's definition: its ``name``, its ``parameters`` in declared order, the
    ``required`` ones, its ``description`` and its parameters' JSON ``schema``.

    The schema is the one the definition gave (a BFCL doc's ``"dict"`` types are kept).

    >>> read_tool_definitions([{"name": "cd", "parameters": {
    ...     "type": "dict", "properties": {"folder": {"type": "string"}}, "required": ["folder"]}}])
    {'cd': ToolDefinition(name='cd', parameters=('folder',), required=('folder',), \
description=None, schema={'type': 'dict', 'properties': {'folder': {'type': 'string'}}, \
'required': ['folder']})}
    """

    __slots__ = _fields = ("name", "parameters", "required", "description", "schema")
    __hash__ = None  # type: ignore[assignment]  # the schema is a dict

    name: str
    parameters: tuple[str, ...]
    required: tuple[str, ...]
    description: str | None
    schema: dict[str, Any]


def read_tool_definitions(tools: object, where: str = "tools") -> dict[str, ToolDefinition]:
    """The definitions in the list ``tools``, by name, in order; a name defined twice is a
    ``ValueError``.

    >>> tools = [{"type": "function", "function": {"name": "sort", "parameters": {
    ...     "type": "object", "properties": {"file_name": {"type": "string"}}}}}]
    >>> read_tool_definitions(tools)["sort"].parameters
    ('file_name',)
    >>> read_tool_definitions([{"type": "web_search"}])
    Traceback (most recent call last):
    ...
    TypeError: tools[0] is not a tool definition: {'type': 'web_search'} (dict); expected \
an OpenAI function tool, an Anthropic or MCP tool, a Gemini function declaration or Tool, \
or a BFCL function doc
    """
    if not isinstance(tools, Sequence) or isinstance(tools, (str, bytes, bytearray)):
        raise TypeError(
            f"{where} must be a list of tool definitions, got {short_repr(tools)} "
            f"({type_name(tools)})"
        )
    found: dict[str, ToolDefinition] = {}
    places: dict[str, str] = {}
    for index, tool in enumerate(tools):
        for definition, place in _definitions(tool, f"{where}[{index}]"):
            first = places.get(definition.name)
            if first is not None:
                raise ValueError(f"{place} defines {definition.name!r} again ({first} did first)")
            found[definition.name] = definition
            places[definition.name] = place
    return found


def _definitions(tool: object, place: str) -> list[tuple[ToolDefinition, str]]:
    if isinstance(tool, ToolDefinition):
        return [(tool, place)]
    data = _data(tool, place)
    for key in _DECLARATION_KEYS:  # a Gemini Tool
        if data.get(key) is not None:
            return _declarations(data[key], f"{place}.{key}")
    kind = data.get("type")
    if kind == "function" and "function" in data:  # OpenAI Chat Completions
        at = f"{place}.function"
        return [(_definition(_data(data["function"], at), at, data["function"]), at)]
    if kind is None or kind == "function" or (kind == "custom" and "input_schema" in data):
        return [(_definition(data, place, tool), place)]
    raise _unknown(data, tool, place)


def _entry_definitions(where: str, item: object) -> dict[str, ToolDefinition]:
    """The definitions of one function docs entry (a doc, or a list of them), by name; an
    error names the entry's place."""
    try:
        return read_tool_definitions(item if isinstance(item, list) else [item])
    except (TypeError, ValueError) as error:
        raise ValueError(f"{where}: {error}") from None


def _declarations(declarations: object, place: str) -> list[tuple[ToolDefinition, str]]:
    """A Gemini Tool's function declarations, each with its place."""
    if not isinstance(declarations, (list, tuple)):
        raise _not_a(place, "a list of function declarations", declarations)
    places = [f"{place}[{index}]" for index in range(len(declarations))]
    return [
        (_definition(_data(declaration, at), at, declaration), at)
        for declaration, at in zip(declarations, places, strict=True)
    ]


def _data(tool: object, place: str) -> Mapping[str, Any]:
    if isinstance(tool, Mapping):
        return tool
    model_dump = getattr(tool, "model_dump", None)
    if callable(model_dump):
        # JSON mode turns Gemini's Type enum into its string; exclude_none drops the fields
        # an SDK model leaves unset, never a None inside a schema the user wrote.
        data = model_dump(mode="json", exclude_none=True)
        if isinstance(data, Mapping):
            return data
    raise _unknown(tool, tool, place)


def _definition(data: Mapping[str, Any], place: str, given: object) -> ToolDefinition:
    if "name" not in data:
        raise _unknown(data, given, place)
    name = data["name"]
    if not isinstance(name, str) or not name:
        raise _not_a(f"{place}.name", "the tool's name as a non-empty string", name)
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        raise _not_a(f"{place}.description", "a string", description)
    keys = [key for key in _SCHEMA_KEYS if data.get(key) is not None]
    if len(keys) > 1:
        raise TypeError(f"{place} has both {keys[0]} and {keys[1]}: give one parameters schema")
    if not keys:
        return ToolDefinition(name, (), (), description, {"type": "object", "properties": {}})
    schema = data[keys[0]]
    properties, required = _parameters(schema, f"{place}.{keys[0]}")
    return ToolDefinition(name, properties, required, description, dict(schema))


def _parameters(schema: object, place: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The parameter names and the required ones of a tool's parameters ``schema``, found
    at ``place``; raises ``TypeError`` naming the part that is not what a schema holds."""
    if not isinstance(schema, Mapping):
        raise _not_a(place, "a JSON Schema object", schema)
    kind = schema.get("type")
    if kind is not None and (not isinstance(kind, str) or kind not in _OBJECT_TYPES):
        raise _not_a(f"{place}.type", "'object' (BFCL: 'dict')", kind)
    properties = schema.get("properties")
    required = schema.get("required")
    return (
        _names(properties, Mapping, f"{place}.properties", "a mapping of parameter names"),
        _names(required, (list, tuple), f"{place}.required", "a list of parameter names"),
    )


def _names(value: object, kinds: type | tuple[type, ...], place: str, what: str) -> tuple[str, ...]:
    """The parameter names ``value`` (of ``kinds``, ``None`` for none) holds; raises
    ``TypeError`` saying ``what`` it should be otherwise."""
    if value is None:
        return ()
    if not isinstance(value, kinds) or not all(isinstance(key, str) for key in value):  # type: ignore[attr-defined]
        raise _not_a(place, what, value)
    return tuple(value)  # type: ignore[arg-type]


def _not_a(place: str, expected: str, found: object) -> TypeError:
    return TypeError(f"{place} must be {expected}, got {short_repr(found)} ({type_name(found)})")


def _unknown(data: object, given: object, place: str) -> TypeError:
    # An SDK object is shown as the data it was read as, which says more than its repr.
    return TypeError(
        f"{place} is not a tool definition: {short_repr(data)} ({type_name(given)}); {_EXPECTED}"
    )


def function_docs(functions: str | PathLike[str] | Sequence[object]) -> list[ToolDefinition]:
    """The function docs, read one by one so that a bad one is named by its file and line."""
    import os

    if isinstance(functions, (list, tuple)) and all(
        isinstance(item, (str, os.PathLike)) for item in functions
    ):
        entries = [doc for path in functions for doc in read_json_entries(path, "functions")]
    else:
        entries = read_json_entries(functions, "functions")
    found: dict[str, tuple[str, ToolDefinition]] = {}
    for where, item in entries:
        for name, definition in _entry_definitions(where, item).items():
            if name in found:
                raise ValueError(
                    f"{where}: defines {name!r} again ({found[name][0]} did first); give the "
                    "docs of the classes the entries involve"
                )
            found[name] = (where, definition)
    return [definition for _, definition in found.values()]
