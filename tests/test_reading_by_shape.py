"""Reading by shape: a list's calls of a declared shape read the same as each one alone.

After the table has read a mapping of a declared shape (``_readers/declared.py``), the items
of its key set that follow it in a list are read in one loop made for that key set; any
other item, or a value that loop does not take as it is, goes to the table. Whatever the
mix, a list reads as its items read one by one: the same calls, args copied, the same
format for each, and the same first error at that item's place.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolmatch import ToolCall, to_calls
from toolmatch._readers.records import format_of


def _tool_use(**fields: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": 1}, **fields}


def _entry(function: Any, **fields: Any) -> dict[str, Any]:
    return {"id": "call_1", "type": "function", "function": function, **fields}


def _without(item: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in item.items() if k != key}


ARGUMENTS = '{"q": 1}'
# Each declared shape as providers write it, and beside it each value and key its reader
# reads otherwise or refuses.
ITEMS: list[Any] = [
    # Anthropic tool_use blocks
    _tool_use(),
    _tool_use(id="toolu_2", name="fetch", input={}),
    _tool_use(id=7),
    _tool_use(id=None),
    _without(_tool_use(), "id"),
    _without(_tool_use(), "input"),
    _tool_use(name=3),
    _tool_use(name=None),
    _tool_use(input=None),
    _tool_use(input=ARGUMENTS),
    _tool_use(input=" " + ARGUMENTS),
    _tool_use(input="[1]"),
    _tool_use(input="not json"),
    _tool_use(input=[1]),
    _tool_use(cache_control={"type": "ephemeral"}),
    {"name": "search", "input": {"q": 1}, "id": "toolu_3", "type": "tool_use"},  # keys reordered
    _tool_use(type="server_tool_use"),
    _tool_use(type="mcp_tool_use", server_name="s"),
    {"type": "text", "text": "Let me look."},
    "plain text",
    # plain calls, and LangChain's
    {"name": "search", "args": {"q": 1}},
    {"name": "fetch", "args": {}},
    {"name": "search", "args": {"q": 1}, "id": "c1"},
    {"name": "search", "args": {"q": 1}, "id": 9},
    {"name": "search", "arguments": ARGUMENTS},
    {"name": "search", "arguments": "{bad"},
    {"name": "search", "input": {"q": 1}},
    {"name": "search", "args": None},
    {"name": "search", "args": "[1, 2]"},
    {"name": 3, "args": {}},
    {"name": "search"},
    {"name": "search", "id": "c2"},
    {"name": "search", "args": {}, "arguments": ARGUMENTS},
    {"name": "search", "args": {}, "parse_error": "bad JSON"},
    {"name": "search", "args": {}, "requestor": "user"},
    {"name": "search", "args": {}, "agent": "planner"},
    {"name": "search", "args": {}, "failed": "yes"},
    {"name": "search", "args": {"q": 1}, "id": "c3", "type": "tool_call"},
    {"name": "search", "args": {"q": 1}, "id": None, "type": "tool_call"},
    {"name": "search", "parameters": {}},
    # Chat Completions entries, and Ollama's
    _entry({"name": "search", "arguments": ARGUMENTS}),
    _entry({"name": "fetch", "arguments": "{}"}, id="call_2"),
    _entry({"name": "search", "arguments": {"q": 1}}),
    _entry({"name": "search", "arguments": ""}),
    _entry({"name": "search", "arguments": '  {"q": 1}'}),
    _entry({"name": "search", "arguments": "{bad"}),
    _entry({"name": "search", "arguments": None}),
    _entry({"arguments": ARGUMENTS}),
    _entry({"name": 3, "arguments": ARGUMENTS}),
    _entry({"name": "search", "parameters": {}}),
    _entry({"name": "search", "arguments": ARGUMENTS}, id=12),
    _entry("search", arguments={"q": 1}),
    _entry(None, content="I called it"),
    _entry([1]),
    {"function": {"name": "search", "arguments": {"q": 1}}},
    {"function": {"name": "search", "arguments": ARGUMENTS}, "id": "call_3"},
    {"type": "function", "function": {"name": "search", "arguments": ARGUMENTS}},
]


# A run of each declared shape's key sets the items above share a size with.
RUNS = [
    _tool_use(),
    {"name": "search", "args": {"q": 1}},
    {"name": "search", "args": {"q": 1}, "id": "c1"},
    {"name": "search", "args": {"q": 1}, "id": "c3", "type": "tool_call"},
    _entry({"name": "f", "arguments": "{}"}),
    {"function": {"name": "search", "arguments": ARGUMENTS}, "id": "call_3"},
]


def _message(items: list[Any]) -> dict[str, Any]:
    return {"role": "assistant", "content": items}


def _listed(items: list[Any]) -> list[Any]:
    return items


def _read(value: object) -> tuple[list[ToolCall], str | None]:
    try:
        return to_calls(value), None
    except (TypeError, ValueError) as error:
        return [], str(error)


def _same_reading(items: list[Any]) -> None:
    """Read as a message's content (text among the calls) and as a list of calls: each
    time as each item read in a list of its own, up to the first error, which names the
    same place."""
    calls = [item for item in items if not isinstance(item, str)]
    for wrap, place, listed in ((_message, "input.content", items), (_listed, "input", calls)):
        expected: list[ToolCall] = []
        expected_error = None
        for index, item in enumerate(listed):
            read, error = _read(wrap([item]))
            if error is not None:
                expected_error = error.replace(f"{place}[0]", f"{place}[{index}]", 1)
                break
            expected += read
        got, error = _read(wrap(listed))
        assert error == expected_error
        if error is None:
            assert got == expected
            assert [format_of(call).name for call in got] == [
                format_of(call).name for call in expected
            ]
            held = [id(value) for item in calls for value in item.values()]
            assert not any(id(call.args) in held for call in got)  # copies


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ITEMS), max_size=12))
def test_a_list_reads_as_its_items_one_by_one(items: list[Any]) -> None:
    _same_reading(items)


def test_every_item_after_a_run_of_its_shape() -> None:
    """Each item, after a run of the shapes it may be mistaken for."""
    for item in ITEMS:
        for run in RUNS:
            _same_reading([run, run, item, run])


def test_a_run_of_calls_reads_each_with_its_own_values() -> None:
    blocks = [_tool_use(id=f"toolu_{n}", input={"n": n}) for n in range(300)]
    calls = to_calls({"role": "assistant", "content": [{"type": "text", "text": "x"}, *blocks]})
    assert calls == [ToolCall("search", {"n": n}, id=f"toolu_{n}") for n in range(300)]
    assert blocks[5]["input"] == {"n": 5}
    assert calls[5].args is not blocks[5]["input"]
    assert {format_of(call).name for call in calls} == {"a chat message"}  # the message's


def test_a_value_a_run_does_not_take_is_refused_at_its_place() -> None:
    blocks = [_tool_use(), _tool_use(), _tool_use(), _tool_use(name=3), _tool_use()]
    message = r"^input\.content\[3\]: a tool call's name must be a string, got 3 \(int\)$"
    with pytest.raises(TypeError, match=message):
        to_calls({"role": "assistant", "content": blocks})


def test_a_call_read_in_a_run_is_named_at_its_place_in_an_error_about_it() -> None:
    """The error's place is found by reading again, each call at its place."""
    asked = {"name": "search", "arguments": '{"q": "paris"}'}
    final = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "tool_calls": [_entry(asked)]}}],
    }
    other = {"type": "function", "function": {"name": "other", "arguments": "{}"}}
    message = {"role": "assistant", "tool_calls": [other, other, {**other, "function": asked}]}
    with pytest.raises(ValueError, match="cannot tell one call seen twice") as error:
        to_calls([final, message])
    assert str(error.value).startswith(
        "input[1].tool_calls[2].function: the call search({'q': 'paris'}) is also in the "
        "final object at input[0], and one of them has no id"
    )
