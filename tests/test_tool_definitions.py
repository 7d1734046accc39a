"""Tool definitions in every shape users hold, read to name Python calls' positional
arguments: the SDKs' own classes, their JSON, and BFCL's function docs."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from toolmatch import ToolCall, to_calls
from toolmatch._calls.definitions import ToolDefinition, read_tool_definitions

pytest.importorskip("anthropic")
pytest.importorskip("google.genai")
pytest.importorskip("openai")
from anthropic.types import ToolParam
from google.genai import types as genai
from openai.types.chat import ChatCompletionFunctionTool, ChatCompletionFunctionToolParam
from openai.types.responses import FunctionTool, FunctionToolParam
from openai.types.shared import FunctionDefinition

mcp = pytest.importorskip("mcp.types")

BFCL_DOCS = Path(__file__).parent / "data" / "bfcl" / "multi_turn_func_doc"
# The order differs from the alphabetical one: positional names must follow the declaration.
SCHEMA = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
    "required": ["city"],
}
WEATHER = ToolCall("get_weather", {"city": "Paris", "days": 3})
GEMINI_SCHEMA = genai.Schema(
    type=genai.Type.OBJECT,
    properties={"city": genai.Schema(type=genai.Type.STRING), "days": genai.Schema(type="INTEGER")},
    required=["city"],
)


def exactly(message: str) -> str:
    """A ``match=`` pattern for exactly ``message``."""
    return f"^{re.escape(message)}$"


def named(tool: object) -> list[ToolCall]:
    return to_calls("get_weather('Paris', 3)", syntax="python", tools=[tool])


SHAPES: dict[str, object] = {
    "openai chat model": ChatCompletionFunctionTool(
        type="function",
        function=FunctionDefinition(name="get_weather", description="Weather.", parameters=SCHEMA),
    ),
    "openai chat typed dict": ChatCompletionFunctionToolParam(
        type="function",
        function={"name": "get_weather", "description": "Weather.", "parameters": SCHEMA},
    ),
    "openai responses model": FunctionTool(
        type="function", name="get_weather", description="Weather.", parameters=SCHEMA, strict=True
    ),
    "openai responses typed dict": FunctionToolParam(
        type="function", name="get_weather", description="Weather.", parameters=SCHEMA, strict=True
    ),
    "openai function definition": FunctionDefinition(
        name="get_weather", description="Weather.", parameters=SCHEMA
    ),
    "anthropic tool": ToolParam(name="get_weather", description="Weather.", input_schema=SCHEMA),
    "anthropic custom tool": ToolParam(
        type="custom", name="get_weather", description="Weather.", input_schema=SCHEMA
    ),
    "mcp tool object": mcp.Tool(name="get_weather", description="Weather.", inputSchema=SCHEMA),
    "mcp model_dump()": mcp.Tool(
        name="get_weather", description="Weather.", inputSchema=SCHEMA
    ).model_dump(),
    "mcp json": mcp.Tool(name="get_weather", description="Weather.", inputSchema=SCHEMA).model_dump(
        mode="json", by_alias=True
    ),
    "gemini declaration with a Schema": genai.FunctionDeclaration(
        name="get_weather", description="Weather.", parameters=GEMINI_SCHEMA
    ),
    "gemini declaration with a JSON schema": genai.FunctionDeclaration(
        name="get_weather", description="Weather.", parameters_json_schema=SCHEMA
    ),
    "gemini declaration json": {
        "name": "get_weather",
        "description": "Weather.",
        "parametersJsonSchema": SCHEMA,
    },
    "gemini declaration model_dump()": genai.FunctionDeclaration(
        name="get_weather", description="Weather.", parameters=GEMINI_SCHEMA
    ).model_dump(),
    "gemini tool": genai.Tool(
        function_declarations=[
            genai.FunctionDeclaration(
                name="get_weather", description="Weather.", parameters=GEMINI_SCHEMA
            )
        ]
    ),
    "gemini tool json": {
        "functionDeclarations": [
            {"name": "get_weather", "description": "Weather.", "parameters": SCHEMA}
        ]
    },
    "bfcl function doc": {
        "name": "get_weather",
        "description": "Weather.",
        "parameters": {
            "type": "dict",
            "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            "required": ["city"],
        },
        "response": {"type": "dict", "properties": {}},
    },
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_names_positional_arguments_in_declared_order(shape: str) -> None:
    assert named(SHAPES[shape]) == [WEATHER]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_reads_name_order_required_and_description(shape: str) -> None:
    (definition,) = read_tool_definitions([SHAPES[shape]]).values()
    assert (definition.name, definition.parameters, definition.required) == (
        "get_weather",
        ("city", "days"),
        ("city",),
    )
    assert definition.description == "Weather."


def test_the_schema_is_kept_as_the_definition_gave_it() -> None:
    (definition,) = read_tool_definitions([SHAPES["openai chat model"]]).values()
    assert definition.schema == SCHEMA
    bfcl = read_tool_definitions([SHAPES["bfcl function doc"]])["get_weather"]
    assert bfcl.schema["type"] == "dict"
    gemini = read_tool_definitions([SHAPES["gemini tool"]])["get_weather"]
    assert gemini.schema == {
        "type": "OBJECT",
        "properties": {"city": {"type": "STRING"}, "days": {"type": "INTEGER"}},
        "required": ["city"],
    }


def test_a_none_inside_a_schema_is_kept() -> None:
    schema = {"type": "object", "properties": {"units": {"type": "string", "default": None}}}
    tool = mcp.Tool(name="get_weather", inputSchema=schema)
    assert read_tool_definitions([tool])["get_weather"].schema == schema


def test_definitions_without_parameters_take_none() -> None:
    for tool in [
        genai.FunctionDeclaration(name="now"),
        FunctionTool(type="function", name="now", parameters=None, strict=False),
        {"type": "function", "function": {"name": "now"}},
        {"name": "now", "description": "The time."},
    ]:
        (definition,) = read_tool_definitions([tool]).values()
        assert (definition.name, definition.parameters, definition.required) == ("now", (), ())
        assert definition.schema == {"type": "object", "properties": {}}
        assert to_calls("now()", syntax="python", tools=[tool]) == [ToolCall("now", {})]


def test_definitions_are_immutable_values() -> None:
    one = read_tool_definitions([SHAPES["anthropic tool"]])
    two = read_tool_definitions([SHAPES["mcp tool object"]])
    assert one == two
    assert one["get_weather"] == ToolDefinition(
        "get_weather", ("city", "days"), ("city",), "Weather.", SCHEMA
    )
    with pytest.raises(AttributeError, match="a ToolDefinition is immutable"):
        one["get_weather"].name = "other"  # type: ignore[misc]


def test_several_tools_and_a_definition_already_read() -> None:
    read = read_tool_definitions([SHAPES["mcp tool object"]])["get_weather"]
    tools = [
        read,
        genai.Tool(
            function_declarations=[
                genai.FunctionDeclaration(
                    name="sort", parameters_json_schema={"properties": {"file_name": {}}}
                ),
                genai.FunctionDeclaration(name="now"),
            ]
        ),
    ]
    assert list(read_tool_definitions(tools)) == ["get_weather", "sort", "now"]
    assert to_calls(
        "[get_weather('Paris', 3), sort('a.txt'), now()]", syntax="python", tools=tools
    ) == [
        WEATHER,
        ToolCall("sort", {"file_name": "a.txt"}),
        ToolCall("now", {}),
    ]
    assert read_tool_definitions(()) == {}
    assert read_tool_definitions([genai.Tool(function_declarations=[])]) == {}


def test_bfcl_function_docs() -> None:
    docs = [
        json.loads(line)
        for path in sorted(BFCL_DOCS.glob("*.json"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    definitions = read_tool_definitions(docs)
    assert len(definitions) == len(docs) > 50
    assert definitions["mv"].parameters == ("source", "destination")
    assert definitions["mv"].required == ("source", "destination")
    assert definitions["sort"].parameters == ("file_name",)
    assert definitions["lockDoors"].parameters == ("unlock", "door")
    assert definitions["cd"].description is not None
    assert definitions["cd"].description.endswith(
        "Change the current working directory to the specified folder."
    )


# --- what is not a definition ------------------------------------------------------------

_EXPECTED = (
    "expected an OpenAI function tool, an Anthropic or MCP tool, a Gemini function "
    "declaration or Tool, or a BFCL function doc"
)


@pytest.mark.parametrize(
    ("tools", "message"),
    [
        (
            [{"type": "web_search"}],
            f"tools[0] is not a tool definition: {{'type': 'web_search'}} (dict); {_EXPECTED}",
        ),
        (
            [SHAPES["bfcl function doc"], {"tool": "get_weather"}],
            f"tools[1] is not a tool definition: {{'tool': 'get_weather'}} (dict); {_EXPECTED}",
        ),
        (
            [{"type": "custom", "name": "grammar", "format": {"type": "text"}}],
            "tools[0] is not a tool definition: {'type': 'custom', 'name': 'grammar', "
            f"'format': {{'type': 'text'}}}} (dict); {_EXPECTED}",
        ),
        (
            [{"type": "bash_20250124", "name": "bash"}],
            "tools[0] is not a tool definition: {'type': 'bash_20250124', 'name': 'bash'} "
            f"(dict); {_EXPECTED}",
        ),
        (
            [genai.Tool(google_search=genai.GoogleSearch())],
            "tools[0] is not a tool definition: {'google_search': {}} (google.Tool); "
            f"{_EXPECTED}",
        ),
        (["get_weather"], f"tools[0] is not a tool definition: 'get_weather' (str); {_EXPECTED}"),
        ([None], f"tools[0] is not a tool definition: None (NoneType); {_EXPECTED}"),
        (
            [{"type": "function", "function": {"description": "no name"}}],
            "tools[0].function is not a tool definition: {'description': 'no name'} (dict); "
            f"{_EXPECTED}",
        ),
        (
            [{"functionDeclarations": [{"name": "now"}, 3]}],
            f"tools[0].functionDeclarations[1] is not a tool definition: 3 (int); {_EXPECTED}",
        ),
        (
            [{"function_declarations": {"name": "now"}}],
            "tools[0].function_declarations must be a list of function declarations, got "
            "{'name': 'now'} (dict)",
        ),
        (
            [{"name": 3, "parameters": SCHEMA}],
            "tools[0].name must be the tool's name as a non-empty string, got 3 (int)",
        ),
        (
            [{"name": "", "parameters": SCHEMA}],
            "tools[0].name must be the tool's name as a non-empty string, got '' (str)",
        ),
        (
            [{"name": "f", "description": ["x"], "parameters": SCHEMA}],
            "tools[0].description must be a string, got ['x'] (list)",
        ),
        (
            [{"name": "f", "parameters": SCHEMA, "parametersJsonSchema": SCHEMA}],
            "tools[0] has both parameters and parametersJsonSchema: give one parameters schema",
        ),
        (
            [{"name": "f", "parameters": "city, days"}],
            "tools[0].parameters must be a JSON Schema object, got 'city, days' (str)",
        ),
        (
            [{"name": "f", "input_schema": {"type": "string"}}],
            "tools[0].input_schema.type must be 'object' (BFCL: 'dict'), got 'string' (str)",
        ),
        (
            [{"name": "f", "inputSchema": {"type": ["object", "null"]}}],
            "tools[0].inputSchema.type must be 'object' (BFCL: 'dict'), got ['object', 'null'] "
            "(list)",
        ),
        (
            [{"name": "f", "parameters": {"properties": ["city", "days"]}}],
            "tools[0].parameters.properties must be a mapping of parameter names, got "
            "['city', 'days'] (list)",
        ),
        (
            [{"name": "f", "parameters": {"properties": {}, "required": "city"}}],
            "tools[0].parameters.required must be a list of parameter names, got 'city' (str)",
        ),
        (
            {"name": "get_weather", "parameters": SCHEMA},
            "tools must be a list of tool definitions, got {'name': 'get_weather', "
            "'parameters': {'type': 'object', 'properties': {'city': {...}, 'days': {...}}, "
            "'required': ['... (dict)",
        ),
        ("get_weather", "tools must be a list of tool definitions, got 'get_weather' (str)"),
    ],
)
def test_what_is_not_a_definition_is_a_type_error_naming_its_place(
    tools: Any, message: str
) -> None:
    with pytest.raises(TypeError, match=exactly(message)):
        to_calls("now()", syntax="python", tools=tools)


def test_a_name_defined_twice_is_a_value_error() -> None:
    tools = [
        SHAPES["mcp tool object"],
        genai.Tool(function_declarations=[genai.FunctionDeclaration(name="now")]),
        genai.Tool(function_declarations=[genai.FunctionDeclaration(name="get_weather")]),
    ]
    with pytest.raises(
        ValueError,
        match=exactly(
            "tools[2].function_declarations[0] defines 'get_weather' again (tools[0] did first)"
        ),
    ):
        to_calls("now()", syntax="python", tools=tools)
