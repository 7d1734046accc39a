"""Calls checked against their tools' definitions: ``tools=`` on a turn, and ``tools:`` in a
spec, with definitions as the SDKs build them."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from toolmatch import (
    ConfigError,
    ExpectedTool,
    ExpectedTurn,
    assert_turn,
    check_turn,
    check_turns,
    load_test_cases,
)

pytest.importorskip("google.genai")
pytest.importorskip("openai")
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionFunctionTool
from openai.types.responses import FunctionTool

mcp_types = pytest.importorskip("mcp.types")

FLIGHTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "origin": {"type": "string"},
        "passengers": {"type": "integer", "minimum": 1},
        "cabin": {"type": "string", "enum": ["economy", "business"]},
        "date": {"type": "string", "format": "date"},
    },
    "required": ["origin"],
}
OPENAI_TOOLS = [
    ChatCompletionFunctionTool.model_validate(
        {
            "type": "function",
            "function": {"name": "search_flights", "parameters": FLIGHTS_SCHEMA},
        }
    ),
    ChatCompletionFunctionTool.model_validate(
        {
            "type": "function",
            "function": {
                "name": "search",
                "parameters": {"type": "object", "properties": {"q": {"type": "string"}}},
            },
        }
    ),
]


def flight(**args: object) -> dict[str, object]:
    return {"name": "search_flights", "args": {"origin": "LHR", **args}}


class TestOpenAIDefinitions:
    def test_a_misspelt_argument_is_named_with_its_correction(self) -> None:
        calls = [{"name": "search", "args": {"q": "x"}}, flight(), flight(pasengers=2)]
        result = check_turn([ExpectedTool("search_flights")], calls, tools=OPENAI_TOOLS)
        assert not result.passed
        assert result.problems == (
            "call 2 search_flights: 'pasengers' is not a parameter of search_flights "
            "(did you mean 'passengers'?)",
        )

    def test_an_unknown_tool_is_named_with_its_correction(self) -> None:
        result = check_turn([], [{"name": "serach", "args": {}}], tools=OPENAI_TOOLS)
        assert result.problems == (
            "call 0 serach: no tool 'serach' is defined (did you mean 'search'?)",
        )
        far = check_turn([], [{"name": "book_hotel", "args": {}}], tools=OPENAI_TOOLS)
        assert far.problems == ("call 0 book_hotel: no tool 'book_hotel' is defined",)

    def test_required_types_enums_and_formats(self) -> None:
        calls = [
            {"name": "search_flights", "args": {"passengers": "2"}},
            flight(passengers=0, cabin="first", date="2026-13-01"),
        ]
        result = check_turn([], calls, tools=OPENAI_TOOLS)
        assert result.problems == (
            "call 0 search_flights: required parameter 'origin' is missing",
            "call 0 search_flights: passengers: '2' is not of type 'integer'",
            "call 1 search_flights: cabin: 'first' is not one of ['economy', 'business']",
            "call 1 search_flights: date: '2026-13-01' is not a 'date'",
            "call 1 search_flights: passengers: 0 is less than the minimum of 1",
        )
        assert "call 0 search_flights: required parameter 'origin' is missing" in str(result)

    def test_calls_that_fit_pass_and_expectations_still_count(self) -> None:
        calls = [flight(passengers=2, cabin="business", date="2026-12-01")]
        assert check_turn([ExpectedTool("search_flights")], calls, tools=OPENAI_TOOLS).passed
        missing = check_turn([ExpectedTool("cancel")], calls, tools=OPENAI_TOOLS)
        assert not missing.passed
        assert missing.problems == ()

    def test_unparsable_arguments_break_the_definition(self) -> None:
        raw = {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "search", "arguments": "{not json"},
                }
            ],
        }
        result = check_turn([], [raw], tools=OPENAI_TOOLS)
        assert not result.passed
        assert result.problems[0].startswith("call 0 search: its arguments are not a JSON object: ")

    def test_ignored_calls_are_not_checked(self) -> None:
        calls = [{"name": "log_event", "args": {"x": 1}}, flight()]
        result = check_turn(
            [ExpectedTool("search_flights")],
            calls,
            tools=OPENAI_TOOLS,
            ignore=[ExpectedTool("log_event")],
        )
        assert result.passed
        assert not check_turn([], calls, tools=OPENAI_TOOLS).passed

    def test_assert_turn_raises_with_the_violation(self) -> None:
        with pytest.raises(AssertionError, match=r"'pasengers' is not a parameter"):
            assert_turn([], [flight(pasengers=2)], tools=OPENAI_TOOLS)
        assert assert_turn([], [flight()], tools=OPENAI_TOOLS).passed

    def test_check_turns_checks_every_turn(self) -> None:
        results = check_turns(
            [[ExpectedTool("search")], [ExpectedTool("search")]],
            [[{"name": "search", "args": {"q": "a"}}], [{"name": "search", "args": {"q": 1}}]],
            tools=OPENAI_TOOLS,
        )
        assert [result.passed for result in results] == [True, False]
        assert results[1].problems == ("call 0 search: q: 1 is not of type 'string'",)

    def test_many_bad_calls_are_summed_up(self) -> None:
        calls = [{"name": "search", "args": {"q": number}} for number in range(12)]
        problems = check_turn([], calls, tools=OPENAI_TOOLS).problems
        assert len(problems) == 11
        assert problems[-1] == "and 2 more call(s) breaking their tool's definition"


class TestOtherShapes:
    def test_openai_responses_function_tool(self) -> None:
        tool = FunctionTool(
            type="function", name="search_flights", parameters=FLIGHTS_SCHEMA, strict=True
        )
        assert check_turn([], [flight(cabin="economy")], tools=[tool]).passed
        assert check_turn([], [flight(cabin="eco")], tools=[tool]).problems == (
            "call 0 search_flights: cabin: 'eco' is not one of ['economy', 'business']",
        )

    def test_mcp_tool(self) -> None:
        tool = mcp_types.Tool(name="read_file", inputSchema={
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        })  # fmt: skip
        calls = [{"name": "read_file", "args": {"path": "/tmp/a", "mode": "r"}}]
        assert check_turn([], calls, tools=[tool]).problems == (
            "call 0 read_file: 'mode' is not a parameter of read_file",
        )

    def test_gemini_declaration_with_its_type_enum(self) -> None:
        declaration = genai_types.FunctionDeclaration(
            name="set_alarm",
            parameters=genai_types.Schema(
                type=genai_types.Type.OBJECT,
                properties={
                    "hour": genai_types.Schema(type=genai_types.Type.INTEGER),
                    "label": genai_types.Schema(type=genai_types.Type.STRING, nullable=True),
                },
                required=["hour"],
            ),
        )
        tools = [genai_types.Tool(function_declarations=[declaration])]
        good = [{"name": "set_alarm", "args": {"hour": 7, "label": None}}]
        assert check_turn([], good, tools=tools).passed
        bad = [{"name": "set_alarm", "args": {"hour": "7"}}]
        assert check_turn([], bad, tools=tools).problems == (
            "call 0 set_alarm: hour: '7' is not of type 'integer'",
        )

    def test_bfcl_doc_with_dict_and_float(self) -> None:
        doc = {
            "name": "calc_area",
            "description": "Area of a shape.",
            "parameters": {
                "type": "dict",
                "properties": {
                    "size": {"type": "float"},
                    "sides": {"type": "tuple", "items": {"type": "integer"}},
                    "extra": {"type": "any"},
                    "unit": {"type": "String", "enum": ["cm", "m"]},
                },
                "required": ["size"],
            },
        }
        good = [{"name": "calc_area", "args": {"size": 2, "sides": [3, 4], "extra": {}}}]
        assert check_turn([], good, tools=[doc]).passed
        bad = [{"name": "calc_area", "args": {"size": "2", "sides": [3, "4"], "unit": "km"}}]
        assert check_turn([], bad, tools=[doc]).problems == (
            "call 0 calc_area: sides[1]: '4' is not of type 'integer'",
            "call 0 calc_area: size: '2' is not of type 'number'",
            "call 0 calc_area: unit: 'km' is not one of ['cm', 'm']",
        )

    def test_anthropic_tool_and_additional_properties(self) -> None:
        open_tool = {
            "name": "tag",
            "input_schema": {"type": "object", "properties": {}, "additionalProperties": True},
        }
        typed = {
            "name": "meta",
            "input_schema": {
                "type": "object",
                "properties": {},
                "additionalProperties": {"type": "string"},
            },
        }
        assert check_turn([], [{"name": "tag", "args": {"a": 1}}], tools=[open_tool]).passed
        result = check_turn([], [{"name": "meta", "args": {"a": 1}}], tools=[typed])
        assert result.problems == ("call 0 meta: a: 1 is not of type 'string'",)


class TestConstruction:
    def test_bad_definitions_fail_at_construction(self) -> None:
        with pytest.raises(TypeError, match=r"tools\[0\] is not a tool definition"):
            check_turn([], [], tools=[{"type": "web_search"}])
        bad_schema = {"name": "s", "parameters": {"type": "object", "properties": {"q": 5}}}
        with pytest.raises(ValueError, match=r"invalid schema for 's' in tools at properties/q"):
            ExpectedTurn([], tools=[bad_schema])
        odd_type = {"name": "s", "parameters": {"properties": {"q": {"type": "text"}}}}
        with pytest.raises(ValueError, match=r"for 's' in tools at properties/q/type: 'text'"):
            ExpectedTurn([], tools=[odd_type])

    def test_expected_turn_keeps_the_definitions(self) -> None:
        turn = ExpectedTurn([ExpectedTool("search")], tools=OPENAI_TOOLS)
        assert turn.tools is not None
        assert [definition.name for definition in turn.tools] == ["search_flights", "search"]
        assert not turn.check([{"name": "search", "args": {"q": 1}}]).passed
        assert ExpectedTurn([ExpectedTool("search")]).tools is None

    def test_without_jsonschema_tools_raise_an_import_error_naming_the_extra(self) -> None:
        code = textwrap.dedent(
            """
            import sys
            sys.modules["jsonschema"] = None
            from toolmatch import check_turn
            assert check_turn([], [{"name": "a"}]).passed
            try:
                check_turn([], [], tools=[{"name": "a"}])
            except ImportError as error:
                print(error)
            """
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
        )
        assert done.stdout.strip() == (
            "checking calls against tool definitions (tools=) needs the jsonschema package: "
            "pip install 'toolmatch[schema]'"
        )

    def test_without_jsonschema_a_spec_with_tools_is_a_load_error_at_its_place(self) -> None:
        code = textwrap.dedent(
            """
            import sys
            sys.modules["jsonschema"] = None
            from toolmatch import ConfigError, load_test_cases
            spec = {"test_cases": [{"name": "a", "expected_tools": ["f"], "tools": [{"name": "f"}]}]}
            try:
                load_test_cases(spec)
            except ConfigError as error:
                print(error)
            """
        )
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
        )
        assert done.stdout.strip() == (
            "test_cases[0](a).tools: checking calls against tool definitions "
            "(tools=) needs the jsonschema package: pip install 'toolmatch[schema]'"
        )


DEFINITIONS = [
    {"type": "function", "function": {"name": "search_flights", "parameters": FLIGHTS_SCHEMA}}
]


class TestSpecFiles:
    def write(self, folder: Path, spec: str) -> Path:
        (folder / "defs").mkdir(exist_ok=True)
        (folder / "defs" / "tools.json").write_text(json.dumps(DEFINITIONS))
        path = folder / "spec.yaml"
        path.write_text(textwrap.dedent(spec))
        return path

    def test_a_turn_names_a_file_relative_to_the_spec(self, tmp_path: Path) -> None:
        spec = self.write(tmp_path, """\
            test_cases:
              - name: flights
                tools: defs/tools.json
                expected_tools: [search_flights]
            """)  # fmt: skip
        [case] = load_test_cases(spec)
        [result] = case.check([[flight(pasengers=1)]])
        assert result.problems == (
            "call 0 search_flights: 'pasengers' is not a parameter of search_flights "
            "(did you mean 'passengers'?)",
        )

    def test_a_case_with_turns_gives_each_turn_its_tools(self, tmp_path: Path) -> None:
        (tmp_path / "other.yaml").write_text("- name: search\n")
        spec = self.write(tmp_path, """\
            test_cases:
              - name: flights
                tools: defs/tools.json
                turns:
                  - expected_tools: [search_flights]
                  - expected_tools: [search]
                    tools: other.yaml
            """)  # fmt: skip
        [case] = load_test_cases(spec)
        results = case.check([[{"name": "search", "args": {}}], [flight()]])
        assert results[0].problems == (
            "call 0 search: no tool 'search' is defined (did you mean 'search_flights'?)",
        )
        assert results[1].problems == (
            "call 0 search_flights: no tool 'search_flights' is defined (did you mean 'search'?)",
        )
        assert case.passes([[flight()], [{"name": "search", "args": {}}]])

    def test_parsed_data_reads_paths_from_the_working_directory(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        self.write(tmp_path, "")
        monkeypatch.chdir(tmp_path)
        spec = {"test_cases": [{"name": "a", "expected_tools": [], "tools": "defs/tools.json"}]}
        [case] = load_test_cases(spec)
        assert not case.passes([[flight(cabin="first")]])
        inline = {"test_cases": [{"name": "a", "expected_tools": [], "tools": DEFINITIONS}]}
        assert load_test_cases(inline)[0].passes([[flight()]])

    def test_bad_tools_are_load_problems(self, tmp_path: Path) -> None:
        (tmp_path / "bad.json").write_text('[{"type": "web_search"}]')
        spec = self.write(tmp_path, """\
            test_cases:
              - {name: a, expected_tools: [], tools: missing.json}
              - {name: b, expected_tools: [], tools: bad.json}
              - {name: c, expected_tools: [], tools: 3}
            """)  # fmt: skip
        with pytest.raises(ConfigError) as raised:
            load_test_cases(spec)
        messages = [f"{problem.path}: {problem.message}" for problem in raised.value.problems]
        missing = tmp_path / "missing.json"
        bad = tmp_path / "bad.json"
        assert messages == [
            f"test_cases[0](a).tools: cannot read {missing}: No such file or directory",
            f"test_cases[1](b).tools: {bad}[0] is not a tool definition: {{'type': "
            "'web_search'} (dict); expected an OpenAI function tool, an Anthropic or MCP tool, "
            "a Gemini function declaration or Tool, or a BFCL function doc",
            "test_cases[2](c).tools: must be the path of a JSON or YAML file of tool "
            "definitions (relative to the spec), or a list of definitions, got 3 (int)",
        ]

    def test_the_cli_reports_each_violation(self, tmp_path: Path) -> None:
        spec = self.write(tmp_path, """\
            test_cases:
              - name: flights
                tools: defs/tools.json
                expected_tools: [search_flights]
            """)  # fmt: skip
        traces = tmp_path / "runs.jsonl"
        traces.write_text(json.dumps({"case": "flights", "turns": [[flight(pasengers=1)]]}))
        done = subprocess.run(
            [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 1, done.stderr
        assert (
            "call 0 search_flights: 'pasengers' is not a parameter of search_flights "
            "(did you mean 'passengers'?)"
        ) in done.stdout
        traces.write_text(json.dumps({"case": "flights", "turns": [[flight(passengers=1)]]}))
        again = subprocess.run(
            [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert again.returncode == 0, again.stdout + again.stderr

    def test_a_file_named_twice_is_read_once_and_reported_at_each_place(
        self, tmp_path: Path
    ) -> None:
        spec = self.write(tmp_path, """\
            test_cases:
              - name: a
                turns:
                  - {expected_tools: [], tools: defs/tools.json}
                  - {expected_tools: [], tools: defs/tools.json}
              - name: b
                turns:
                  - {expected_tools: [], tools: gone.yaml}
                  - {expected_tools: [], tools: gone.yaml}
            """)  # fmt: skip
        with pytest.raises(ConfigError) as raised:
            load_test_cases(spec)
        assert [problem.path for problem in raised.value.problems] == [
            "test_cases[1](b).turns[0].tools",
            "test_cases[1](b).turns[1].tools",
        ]
        spec.write_text(spec.read_text().split("  - name: b")[0])
        [case] = load_test_cases(spec)
        first, second = (turn.tools for turn in case.turns)
        assert first is not None
        assert second is not None
        assert first[0] is second[0]
