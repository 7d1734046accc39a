"""to_calls on unittest.mock test doubles standing in for an agent's tools."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest.mock import AsyncMock, MagicMock, Mock, call, create_autospec, patch

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import json_values_without_nan
from toolmatch import ExpectedTool, ToolCall, assert_called, to_calls


class WeatherTools:
    def get_weather(self, city: str, unit: str = "C") -> str:
        raise NotImplementedError

    def search(self, *queries: str, **filters: object) -> list[str]:
        raise NotImplementedError

    @staticmethod
    def now(zone: str) -> str:
        raise NotImplementedError

    @classmethod
    def units(cls, system: str) -> list[str]:
        raise NotImplementedError


def get_weather(city: str, unit: str = "C") -> str:
    raise NotImplementedError


def test_calls_on_attributes_are_tool_calls_named_by_the_attribute() -> None:
    tools = Mock()
    tools.get_weather(city="Paris")
    tools.search(q="louvre", limit=3)
    tools.now()
    assert to_calls(tools) == [
        ToolCall("get_weather", {"city": "Paris"}),
        ToolCall("search", {"q": "louvre", "limit": 3}),
        ToolCall("now", {}),
    ]
    assert_called(tools, "get_weather", {"city": "Paris"})
    assert ExpectedTool.never("delete") == tools
    tools.delete(path="/")
    assert ExpectedTool.never("delete") != tools


def test_a_mock_made_with_a_name_names_its_own_calls() -> None:
    get_weather = Mock(name="get_weather")
    get_weather(city="Paris")
    get_weather(city="Rome")
    assert to_calls(get_weather) == [
        ToolCall("get_weather", {"city": "Paris"}),
        ToolCall("get_weather", {"city": "Rome"}),
    ]


def test_a_child_read_by_itself_takes_its_attribute_name() -> None:
    tools = Mock()
    tools.get_weather(city="Paris")
    tools.search(q="x")
    assert to_calls(tools.get_weather) == [ToolCall("get_weather", {"city": "Paris"})]


def test_reading_a_mock_records_nothing_on_it() -> None:
    tools = MagicMock()
    tools.get_weather(city="Paris")
    before = list(tools.mock_calls)
    children = set(vars(tools)["_mock_children"])
    to_calls(tools)
    to_calls(tools.mock_calls)
    assert tools.mock_calls == before
    assert set(vars(tools)["_mock_children"]) == children
    tools.get_weather.assert_called_once_with(city="Paris")


def test_the_mock_calls_list_and_call_objects_read_by_themselves() -> None:
    tools = Mock()
    tools.get_weather(city="Paris")
    tools.search(q="x")
    expected = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("search", {"q": "x"})]
    assert to_calls(tools.mock_calls) == expected
    assert to_calls(tools.method_calls) == expected
    assert to_calls([call.get_weather(city="Paris"), call.search(q="x")]) == expected
    assert to_calls(call.get_weather(city="Paris")) == expected[:1]


def test_a_call_of_an_unnamed_mock_itself_is_an_error() -> None:
    tools = Mock()
    tools(city="Paris")
    with pytest.raises(TypeError) as error:
        to_calls(tools)
    assert str(error.value) == (
        "input.mock_calls[0]: call(city='Paris') is a call of the mock itself, and the mock "
        "has no name to give it; make it with name='get_weather', or call its attributes "
        "(tools.get_weather(...))"
    )
    with pytest.raises(TypeError) as error:
        to_calls(tools.mock_calls)
    assert str(error.value) == (
        "input[0]: call(city='Paris') is a call of a mock itself, which names no tool; pass "
        "the mock (one made with name='get_weather' names its own calls)"
    )
    # call_args entries are (args, kwargs) pairs: calls of a mock itself too
    with pytest.raises(TypeError, match=r"^input\[0\]: call\(city='Paris'\) is a call of a mock"):
        to_calls(tools.call_args_list)


def test_positional_arguments_without_a_spec_are_an_error() -> None:
    tools = Mock()
    tools.get_weather("Paris")
    with pytest.raises(TypeError) as error:
        to_calls(tools)
    assert str(error.value) == (
        "input.mock_calls[0]: call.get_weather('Paris') passes positional arguments, and the "
        "mock has no spec to name them; make the mock with spec= or create_autospec(), or call "
        "it with keywords"
    )
    with pytest.raises(TypeError) as error:
        to_calls(tools.mock_calls)
    assert str(error.value) == (
        "input[0]: call.get_weather('Paris') passes positional arguments, and a call by itself "
        "has no mock to name them; make the mock with spec= or create_autospec(), or call it "
        "with keywords"
    )


def test_positional_arguments_are_named_from_an_autospec() -> None:
    tools = create_autospec(WeatherTools, instance=True)
    tools.get_weather("Paris", unit="F")
    tools.now("UTC")
    tools.units("metric")
    assert to_calls(tools) == [
        ToolCall("get_weather", {"city": "Paris", "unit": "F"}),
        ToolCall("now", {"zone": "UTC"}),
        ToolCall("units", {"system": "metric"}),
    ]


def test_positional_arguments_are_named_from_a_spec_class() -> None:
    # spec= gives no child a signature: the class's attribute gives it
    tools = Mock(spec=WeatherTools)
    tools.get_weather("Paris")
    tools.now("UTC")
    tools.units("metric")
    tools.search("louvre", "orsay", city="Paris")
    assert to_calls(tools) == [
        ToolCall("get_weather", {"city": "Paris"}),
        ToolCall("now", {"zone": "UTC"}),
        ToolCall("units", {"system": "metric"}),
        ToolCall("search", {"queries": ["louvre", "orsay"], "city": "Paris"}),
    ]
    instance_spec = Mock(spec=WeatherTools())
    instance_spec.get_weather("Rome", "F")
    assert to_calls(instance_spec) == [ToolCall("get_weather", {"city": "Rome", "unit": "F"})]


def test_positional_arguments_of_a_mock_of_a_function() -> None:
    tool = Mock(spec=get_weather, name="get_weather")
    tool("Paris", unit="F")
    assert to_calls(tool) == [ToolCall("get_weather", {"city": "Paris", "unit": "F"})]


def test_arguments_that_do_not_fit_the_spec_keep_the_call_with_a_parse_error() -> None:
    tools = Mock(spec=WeatherTools)
    tools.get_weather("Paris", "C", "extra")
    (found,) = to_calls(tools)
    assert found.name == "get_weather"
    assert found.args == {}
    assert found.parse_error == (
        "arguments do not fit get_weather(city, unit='C'): too many positional arguments"
    )
    assert not ExpectedTool("get_weather", {}).check(tools).passed
    assert ExpectedTool("get_weather").check(tools).passed


def test_nested_names_and_calls_on_returned_values() -> None:
    tools = Mock()
    tools.weather.get(city="Paris")
    tools.connect(host="db").query(sql="select 1")
    assert to_calls(tools) == [
        ToolCall("weather.get", {"city": "Paris"}),
        ToolCall("connect", {"host": "db"}),
        ToolCall("connect().query", {"sql": "select 1"}),
    ]


def test_python_protocol_methods_a_magic_mock_records_are_not_tool_calls() -> None:
    tools = MagicMock()
    tools.get_weather(city="Paris")
    len(tools)
    str(tools)
    with tools:
        pass
    assert [entry[0] for entry in tools.mock_calls] == [
        "get_weather",
        "__len__",
        "__str__",
        "__enter__",
        "__exit__",
    ]
    assert to_calls(tools) == [ToolCall("get_weather", {"city": "Paris"})]


def test_an_async_mock() -> None:
    tools = AsyncMock()

    async def agent() -> None:
        await tools.fetch(url="https://example.com")

    asyncio.run(agent())
    assert to_calls(tools) == [ToolCall("fetch", {"url": "https://example.com"})]


def test_a_mock_without_calls_holds_none() -> None:
    assert to_calls(Mock()) == []
    assert ExpectedTool.never("delete") == Mock()


def test_a_function_create_autospec_made_reads_its_mock() -> None:
    tool = create_autospec(get_weather)
    tool("Paris", unit="F")
    assert to_calls(tool) == [ToolCall("get_weather", {"city": "Paris", "unit": "F"})]


def test_a_function_patched_with_autospec() -> None:
    import json

    with patch("json.dumps", autospec=True) as dumps:
        json.dumps({"a": 1}, indent=2)
        assert to_calls(dumps) == [ToolCall("dumps", {"obj": {"a": 1}, "indent": 2})]


def test_any_other_function_is_not_read() -> None:
    with pytest.raises(TypeError, match=r"^to_calls cannot read tool calls from input: <function"):
        to_calls(get_weather)


_RESERVED = ("assert", "assret", "asert", "aseert", "assrt")  # Mock refuses these prefixes
tool_names = st.from_regex(r"[a-z][a-z0-9_]{0,10}", fullmatch=True).filter(
    lambda name: not hasattr(Mock, name) and not name.startswith(_RESERVED)
)
arguments = st.dictionaries(
    st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True), json_values_without_nan, max_size=3
)


@given(st.lists(st.tuples(tool_names, arguments), max_size=8))
def test_every_call_an_agent_makes_on_a_mock_is_read_in_order(
    made: list[tuple[str, dict[str, Any]]],
) -> None:
    tools = MagicMock()
    for name, kwargs in made:
        getattr(tools, name)(**kwargs)
    before = list(tools.mock_calls)
    expected = [ToolCall(name, kwargs) for name, kwargs in made]
    assert to_calls(tools) == expected
    assert to_calls(tools.mock_calls) == expected
    assert tools.mock_calls == before
    for name, _ in made:
        assert ExpectedTool.never(name) != tools
