"""The readers' fast paths read exactly what the general path reads, errors included.

Each comparison reads the same input twice: as ``to_calls`` does, and with every fast path
switched off (the item and wrapper shortcuts decline everything, JSON arguments go through
``json.loads``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import json_values, keys
from toolmatch import ToolCall, _readers, to_calls
from toolmatch._readers import _common_item, _json_arguments, _loads_arguments


@contextmanager
def general_path() -> Iterator[None]:
    with (
        mock.patch.object(_readers, "_common_item", return_value=None),
        mock.patch.object(_readers, "_common_wrapper", return_value=None),
        mock.patch.object(_readers, "_json_arguments", _loads_arguments),
    ):
        yield


def read(obj: object) -> object:
    try:
        return to_calls(obj)
    except (TypeError, ValueError) as error:
        return (type(error), str(error))


def read_both(obj: object) -> tuple[object, object]:
    fast = read(obj)
    with general_path():
        general = read(obj)
    return fast, general


def assert_read_alike(obj: object) -> None:
    fast, general = read_both(obj)
    assert fast == general


def tool_use(index: int, **extra: Any) -> dict[str, Any]:
    block = {"type": "tool_use", "id": f"toolu_{index}", "name": f"t{index}", "input": {"i": index}}
    return {**block, **extra}


def tool_call(index: int, arguments: object = '{"i": 1}', **extra: Any) -> dict[str, Any]:
    function = {"name": f"t{index}", "arguments": arguments}
    return {"id": f"call_{index}", "type": "function", "function": function, **extra}


def anthropic(content: object, **extra: Any) -> dict[str, Any]:
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": content,
        "model": "claude-test",
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 2},
    }
    return {**message, **extra}


def openai_message(tool_calls: object = None, **extra: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": None, "tool_calls": tool_calls, **extra}


def choice(message: object, **extra: Any) -> dict[str, Any]:
    return {"index": 0, "finish_reason": "tool_calls", "message": message, **extra}


def completion(choices: object, **extra: Any) -> dict[str, Any]:
    wrapper = {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt"}
    return {**wrapper, "choices": choices, **extra}


TEXT = {"type": "text", "text": "Let me look."}
CALLS = [tool_call(0), tool_call(1, "{}")]

# Shapes the wrapper shortcut reads by itself (checked below, so the comparisons that
# follow are not vacuous).
FAST_WRAPPERS: list[Any] = [
    anthropic([TEXT, tool_use(0), tool_use(1)]),
    anthropic([]),
    anthropic([TEXT]),
    anthropic("plain text"),
    anthropic(None),
    {"id": "msg_1", "role": "assistant", "content": [tool_use(0)]},
    {"role": "assistant", "content": [tool_use(0)], "type": None},
    openai_message(CALLS),
    openai_message(None),
    openai_message([]),
    {"role": "assistant", "content": "Hi"},
    {"role": "assistant", "content": "Hi", "function_call": None},
    choice(openai_message(CALLS)),
    completion([choice(openai_message(CALLS))]),
    completion([choice(openai_message(None))]),
    completion([choice(openai_message([tool_call(0, "{bad")]))]),
    completion([choice(openai_message([tool_call(0), "not a call"]))]),
    completion([choice(openai_message([{"type": "function", "function": {"name": 3}}]))]),
    anthropic([TEXT, {"type": "thinking", "thinking": "hm", "signature": "s"}, tool_use(0)]),
    anthropic([tool_use(0), {"type": "tool_use", "name": None}]),
]

# Near misses: the general path reads these (or raises), the shortcut must not differ.
NEAR_MISSES: list[Any] = [
    anthropic([tool_use(0)], role="user"),
    anthropic([tool_use(0)], type="response"),
    anthropic([tool_use(0)], extra_key=1),
    anthropic([tool_use(0)], name="x", attributes={}),
    anthropic([tool_use(0)], kind="request"),
    anthropic({"type": "tool_use", "name": "x", "input": {}}),
    anthropic((tool_use(0),)),
    anthropic(3),
    anthropic([tool_use(0)], parts=[tool_use(1)]),
    anthropic([tool_use(0)], function_call={"name": "legacy", "arguments": "{}"}),
    {"role": None, "content": [tool_use(0)]},
    {"content": [tool_use(0)]},
    {"type": "message", "content": [tool_use(0)]},
    openai_message(CALLS, role="tool"),
    openai_message(CALLS, function_call={"name": "legacy", "arguments": "{}"}),
    openai_message(CALLS, invalid_tool_calls=[{"name": "x", "args": "{", "error": "bad"}]),
    openai_message("not a list"),
    openai_message(tuple(CALLS)),
    openai_message({"0": tool_call(0)}),
    {"role": "assistant", "function_call": {"name": "legacy", "arguments": "{}"}},
    {"function_call": {"name": "legacy", "args": {}}, "content": None},
    choice(openai_message(CALLS), delta={}),
    choice(None),
    choice("message"),
    choice(openai_message(CALLS, role="user")),
    {"message": openai_message(CALLS), "type": "item"},
    completion([choice(openai_message(CALLS))] * 2),
    completion([]),
    completion(None),
    completion("choices"),
    completion((choice(openai_message(CALLS)),)),
    completion([choice(openai_message(CALLS))], extra_key=1),
    completion([choice(openai_message(CALLS))], type="chat"),
    completion([openai_message(CALLS)]),
    completion([choice(openai_message(CALLS), logprobs=None, extra=1)]),
    completion([choice(openai_message(CALLS))], candidates=[]),
    completion([choice(openai_message(CALLS))], jsonrpc="2.0"),
    completion(["not a choice"]),
    completion([None]),
    # items inside a message
    anthropic([{"type": "text", "text": "hi", "citations": None}]),
    anthropic([{"type": "text", "text": "hi", "tool_calls": [tool_call(0)]}]),
    anthropic([{"type": "text", "text": "hi", "name": "x", "args": {}}]),
    anthropic([{"type": "text"}]),
    anthropic([tool_use(0, method="tools/call", params={"name": "x"})]),
    anthropic([tool_use(0, jsonrpc="2.0")]),
    anthropic([tool_use(0, input=None)]),
    anthropic([tool_use(0, input='{"q": 1}')]),
    anthropic([tool_use(0, input="[1]")]),
    anthropic([tool_use(0, input=b'{"q": 1}')]),
    anthropic([tool_use(0, id=7)]),
    anthropic([tool_use(0, name=b"t")]),
    openai_message([tool_call(0, {"q": 1})]),
    openai_message([tool_call(0, None)]),
    openai_message([tool_call(0, "")]),
    openai_message([tool_call(0, 3)]),
    openai_message([{"type": "function", "function": {"name": "t", "parameters": {}}}]),
    openai_message([{"type": "function", "function": {"name": "t", "arguments": "{}"}, "id": 3}]),
    openai_message([{"type": "custom", "id": "c", "custom": {"name": "t", "input": "x"}}]),
    openai_message([{"function": {"name": "t", "arguments": "{}"}}]),
]


@pytest.mark.parametrize("obj", FAST_WRAPPERS, ids=lambda obj: repr(obj)[:60])
def test_the_wrapper_shortcut_takes_common_wrappers(obj: dict[str, Any]) -> None:
    general = _readers._read_mapping

    def only_items(data: Any, where: str) -> object:
        assert data is not obj, "the general path read the wrapper"
        return general(data, where)

    with mock.patch.object(_readers, "_read_mapping", only_items):
        read(obj)
        read([obj])


@pytest.mark.parametrize("obj", FAST_WRAPPERS + NEAR_MISSES, ids=lambda obj: repr(obj)[:60])
def test_wrappers_read_alike_on_both_paths(obj: object) -> None:
    assert_read_alike(obj)
    assert_read_alike([obj])  # inside a list, errors name the index
    assert_read_alike(json.dumps(obj, default=repr))


def test_the_shortcuts_build_the_same_error_places() -> None:
    bad = completion([choice(openai_message([tool_call(0), 5]))])
    fast, general = read_both(bad)
    assert fast == general
    assert "input.choices[0].message.tool_calls[1]" in str(fast)
    fast, general = read_both([anthropic([TEXT, {"type": "tool_use", "name": 5}])])
    assert fast == general
    assert "input[0].content[1]" in str(fast)


def test_several_choices_still_raise() -> None:
    with pytest.raises(ValueError, match="2 alternative answers"):
        to_calls(completion([choice(openai_message(CALLS))] * 2))


def test_a_call_does_not_change_with_the_callers_dict() -> None:
    arguments = {"q": "paris"}
    (call,) = to_calls([{"name": "search", "args": arguments}])
    arguments["q"] = "lyon"
    assert call == ToolCall("search", {"q": "paris"})


def test_plain_items_with_every_key_combination_read_alike() -> None:
    optional = ["args", "arguments", "input", "id", "type", "method", "jsonrpc", "role"]
    values: dict[str, object] = {
        "args": {"q": 1},
        "arguments": '{"q": 2}',
        "input": None,
        "id": 4,
        "type": None,
        "method": "tools/call",
        "jsonrpc": "2.0",
        "role": "assistant",
    }
    for mask in range(2 ** len(optional)):
        item: dict[str, object] = {"name": "search"}
        item.update({key: values[key] for i, key in enumerate(optional) if mask >> i & 1})
        assert_read_alike([item])


# Keys with which an earlier check of _read_mapping claims a dict, or a later one differs.
CLAIMS: list[dict[str, Any]] = [
    {"type": "text"},
    {"type": "function_call", "name": "f", "arguments": "{}"},
    {"jsonrpc": "2.0"},
    {"method": "tools/call", "params": {"name": "m", "arguments": {}}},
    {"function": {"name": "f", "arguments": "{}"}},
    {"functionCall": {"name": "g", "args": {}}},
    {"function_call": {"name": "legacy", "arguments": "{}"}},
    {"toolUse": {"name": "b", "input": {}}},
    {"part_kind": "text"},
    {"kind": "request"},
    {"name": "span", "attributes": {"gen_ai.tool.name": "t"}},
    {"resourceSpans": []},
    {"candidates": []},
    {"choices": [choice(openai_message(CALLS))]},
    {"message": openai_message(CALLS)},
    {"output": [tool_use(2)]},
    {"parts": [tool_use(1)]},
    {"invalid_tool_calls": [{"name": "x", "args": "{", "error": "bad"}]},
    {"role": "user"},
]


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda claim: repr(claim)[:40])
def test_wrappers_with_a_claiming_key_read_alike(claim: dict[str, Any]) -> None:
    message = {**openai_message(CALLS), **claim}
    assert_read_alike(message)
    assert_read_alike({**anthropic([tool_use(0)]), **claim})
    assert_read_alike({**choice(openai_message(CALLS)), **claim})
    assert_read_alike(choice(message))
    assert_read_alike({**completion([choice(openai_message(CALLS))]), **claim})
    assert_read_alike(completion([choice(message)]))


# --- random wrappers -------------------------------------------------------------------

_WRAPPER_KEYS = sorted(
    _readers._COMPLETION_KEYS | _readers._CHOICE_KEYS | _readers._ASSISTANT_MESSAGE_KEYS
)
# Keys some reader looks at, to make near misses.
_OTHER_KEYS = ["name", "function", "kind", "parts", "part_kind", "output", "data", "method", "type"]
_ITEMS = st.sampled_from(
    [tool_use(0), tool_call(1), TEXT, {"name": "x", "args": {}}, {"type": "thinking"}, 3, None]
)
_LEAVES = st.one_of(
    st.sampled_from([None, "assistant", "user", "message", "text", "x", 0, {}, []]),
    st.sampled_from([{"name": "f", "arguments": "{}"}, {"name": 5}, {"role": "assistant"}]),
    st.lists(_ITEMS, max_size=3),
    st.lists(_ITEMS, max_size=2).map(tuple),
)


def _with_role(pair: tuple[dict[str, Any], bool]) -> dict[str, Any]:
    """Half the random dicts get the role the shortcut wants, so that it is exercised."""
    obj, assistant = pair
    return {**obj, "role": "assistant"} if assistant else obj


def _wrappers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    dicts = st.dictionaries(st.sampled_from(_WRAPPER_KEYS + _OTHER_KEYS), children, max_size=6)
    return st.one_of(
        st.tuples(dicts, st.booleans()).map(_with_role), st.lists(children, max_size=2)
    )


_RANDOM_WRAPPERS = st.recursive(_LEAVES, _wrappers, max_leaves=10)


def _near(keys: frozenset[str], required: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts of the shortcut's keys, and now and then one key of another reader."""
    optional = dict.fromkeys(sorted(keys - set(required)), _LEAVES)
    stray = st.one_of(
        st.dictionaries(st.sampled_from(_OTHER_KEYS), _LEAVES, max_size=1), st.sampled_from(CLAIMS)
    )
    return st.tuples(
        st.fixed_dictionaries({key: st.just(value) for key, value in required.items()}),
        st.fixed_dictionaries({}, optional=optional),
        st.one_of(st.just({}), stray),
    ).map(lambda parts: {**parts[1], **parts[0], **parts[2]})


_MESSAGES = st.one_of(
    _near(_readers._ASSISTANT_MESSAGE_KEYS, {"role": "assistant"}),
    _near(_readers._ASSISTANT_MESSAGE_KEYS, {"role": "assistant", "content": [tool_use(0)]}),
    _near(_readers._ASSISTANT_MESSAGE_KEYS, {"role": "assistant", "tool_calls": CALLS}),
)
_CHOICES = _MESSAGES.flatmap(lambda message: _near(_readers._CHOICE_KEYS, {"message": message}))
_COMPLETIONS = st.lists(_CHOICES, min_size=1, max_size=2).flatmap(
    lambda choices: _near(_readers._COMPLETION_KEYS, {"choices": choices})
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_RANDOM_WRAPPERS)
def test_random_wrappers_read_alike_on_both_paths(obj: object) -> None:
    assert_read_alike(obj)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(_MESSAGES, _CHOICES, _COMPLETIONS))
def test_random_near_misses_read_alike_on_both_paths(obj: object) -> None:
    assert_read_alike(obj)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["index", "finish_reason", "logprobs"]), _LEAVES))
def test_random_completions_read_alike_on_both_paths(extra: dict[str, Any]) -> None:
    message = openai_message([tool_call(0), tool_call(1, "{bad")])
    assert_read_alike(completion([choice(message, **extra)]))
    assert_read_alike(choice(message, **extra))


# --- JSON arguments --------------------------------------------------------------------

ARGUMENT_TEXTS = [
    '{"q": "paris"}',
    "{}",
    ' {"q": 1}',
    '{"q": 1} ',
    '{"q": 1}\n',
    '\t{"q": 1}\r\n',
    '{"q": 1}x',
    '{"q": 1} \t\r\n ',
    '{"q": 1}\u00a0',
    '{"q": 1}\f',
    '{"q": 1} x',
    '{"q": 1}{"r": 2}',
    '{"q": 1} // note',
    '{"q": ',
    '{"q": "pa',
    "{'q': 1}",
    '{"q": 1,}',
    "{q: 1}",
    "[1, 2]",
    '"text"',
    "3",
    "null",
    "",
    "   ",
    "\ufeff{}",
    '{"n": 1e400, "m": -1e400, "k": 1E5, "z": -0.0}',
    '{"n": NaN, "i": Infinity, "j": -Infinity}',
    '{"u": "\\u00e9\\ud83d\\ude00", "raw": "é😀", "lone": "\\ud800"}',
    '{"nested": {"a": [1, {"b": null}], "c": true}}',
    '{"dup": 1, "dup": 2}',
    '{"ctrl": "a\tb"}',
    '{"big": ' + "9" * 5000 + "}",
    '{"deep": ' + "[" * 100 + "]" * 100 + "}",
    "{" + '"a": {' * 50 + "}" * 51,
    "{\u00a0}",
    "{\u2028}",
]


@pytest.mark.parametrize("text", ARGUMENT_TEXTS, ids=lambda text: repr(text)[:40])
def test_argument_strings_read_alike_on_both_paths(text: str) -> None:
    assert repr(_json_arguments(text)) == repr(_loads_arguments(text))
    call = tool_call(0, text)
    assert_read_alike([call])
    assert_read_alike([{"name": "t", "arguments": text}])
    assert_read_alike([{"name": "t", "arguments": text.encode()}])


@pytest.mark.parametrize("text", ['{"q": 1}', '{"q": 1}\n', '{"q": [1, {}]} \t', "{}"])
def test_the_scanner_reads_an_object_without_json_loads(text: str) -> None:
    with mock.patch.object(_readers, "_loads_arguments", side_effect=AssertionError):
        assert _json_arguments(text) == (json.loads(text), None)


_WHITESPACE = st.text(alphabet=" \t\r\n\u00a0", max_size=2)


@st.composite
def _argument_texts(draw: st.DrawFn) -> str:
    value = draw(st.one_of(st.dictionaries(keys, json_values, max_size=4), json_values))
    text = json.dumps(
        value,
        ensure_ascii=draw(st.booleans()),
        indent=draw(st.sampled_from([None, 0, 2])),
        separators=draw(st.sampled_from([None, (",", ":"), (" , ", " : ")])),
    )
    cut = draw(st.integers(0, len(text)))
    if draw(st.booleans()):
        text = text[:cut]  # truncated: not valid JSON, mostly
    return draw(_WHITESPACE) + text + draw(_WHITESPACE)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_argument_texts(), st.text(max_size=12), st.text(max_size=8).map("{".__add__)))
def test_random_argument_strings_read_alike(text: str) -> None:
    # repr, not ==: a NaN argument is not equal to itself.
    assert repr(_json_arguments(text)) == repr(_loads_arguments(text))


def test_common_items_are_taken_by_the_item_shortcut() -> None:
    assert isinstance(_common_item(tool_use(0)), ToolCall)
    assert isinstance(_common_item(tool_call(0)), ToolCall)
    assert isinstance(_common_item({"name": "t", "arguments": "{}", "id": 1}), ToolCall)
    assert _common_item(TEXT) is False
    assert _common_item({"type": "text", "text": "hi", "citations": None}) is False


def test_sdk_objects_read_alike_on_both_paths() -> None:
    chat = pytest.importorskip("openai.types.chat")
    anthropic_types = pytest.importorskip("anthropic.types")
    sdk_completion = chat.ChatCompletion.model_validate(
        completion([choice(openai_message([tool_call(0), tool_call(1, "{bad")]))])
    )
    sdk_message = anthropic_types.Message.model_validate(
        anthropic([TEXT, tool_use(0), tool_use(1)])
    )
    for obj in (sdk_completion, sdk_completion.choices[0], sdk_message, [sdk_message]):
        fast, general = read_both(obj)
        assert fast == general
        assert len(fast) == 2  # type: ignore[arg-type]
