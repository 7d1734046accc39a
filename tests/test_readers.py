"""The dispatch table: never a silent ``[]``, the call-free allowlists, errors that help,
and the accepted-shapes list of docs/formats.md kept equal to the table."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shapes import CONTAINERS, call_shapes
from toolmatch import ToolCall, to_calls
from toolmatch._readers import (
    anthropic,
    bedrock,
    claude_agent,
    gemini,
    openai,
    otel,
    pydantic_ai,
    vercel,
)
from toolmatch._readers import dispatch as _readers
from toolmatch._readers.reading import FORMATS_DOC, no_call
from toolmatch._readers.streams import NO_CALL_TYPES

DOC = Path(__file__).resolve().parent.parent / "docs" / "formats.md"
LINK = f"; accepted shapes: {FORMATS_DOC}"

# --- unknown discriminators raise, naming the place, the value and the nearest ------------


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        (
            {"type": "Tool_Use", "name": "x"},
            "input: its type 'Tool_Use' is not one to_calls knows (nearest accepted: 'tool_use')",
        ),
        (
            [{"role": "assistant", "content": [{"type": "tool_usage", "name": "x"}]}],
            "input[0].content[0]: its type 'tool_usage' is not one to_calls knows "
            "(nearest accepted: 'tool_use')",
        ),
        (
            {"role": "assistent", "content": "Hi"},
            "input: its role 'assistent' is not one to_calls knows (nearest accepted: 'assistant')",
        ),
        (
            {"object": "chat.completions", "choices": []},
            "input: its object 'chat.completions' is not one to_calls knows "
            "(nearest accepted: 'chat.completion')",
        ),
        (
            {"kind": "response", "parts": [{"part_kind": "tool-cal", "tool_name": "x"}]},
            "input.parts[0]: its part_kind 'tool-cal' is not one to_calls knows "
            "(nearest accepted: 'tool-call')",
        ),
    ],
)
def test_an_unknown_discriminator_raises_naming_the_nearest(obj: object, message: str) -> None:
    with pytest.raises(TypeError) as raised:
        to_calls(obj)
    assert str(raised.value) == f"to_calls cannot read tool calls from {message}{LINK}"


@pytest.mark.parametrize(
    ("obj", "where", "found"),
    [
        ({"type": "banana", "name": "x"}, "input", "type 'banana'"),
        ({"role": "assistant", "content": [{"type": "usage"}]}, "input.content[0]", "type 'usage'"),
        ({"role": "robot", "content": "Hi"}, "input", "role 'robot'"),
        ({"object": "list", "data": []}, "input", "object 'list'"),
        ({"role": "ai", "content": "Hi"}, "input", "role 'ai'"),
    ],
)
def test_an_unrelated_discriminator_gets_no_suggestion_but_the_docs(
    obj: object, where: str, found: str
) -> None:
    # A suggestion only for a likely typo: difflib's ratio of 0.8 or more, ignoring case.
    with pytest.raises(TypeError) as raised:
        to_calls(obj)
    assert str(raised.value) == (
        f"to_calls cannot read tool calls from {where}: its {found} is not one to_calls knows{LINK}"
    )


def test_a_method_without_json_rpc_is_not_read_as_json_rpc() -> None:
    with pytest.raises(TypeError, match=r"from input: \{'method': 'GET', 'url': '/'\} \(dict\)"):
        to_calls({"method": "GET", "url": "/"})
    assert to_calls({"method": "tools/call", "params": {"name": "now"}}) == [ToolCall("now")]


def test_unknown_items_of_a_responses_output_raise_instead_of_being_skipped() -> None:
    response = {"object": "response", "output": [{"type": "function_cal", "name": "x"}]}
    with pytest.raises(TypeError, match=r"input\.output\[0\]: its type 'function_cal'"):
        to_calls(response)


def test_several_choices_name_their_place_like_the_type_errors() -> None:
    choice = {"index": 0, "message": {"role": "assistant", "content": "Hi"}}
    completion = {"object": "chat.completion", "choices": [choice, choice]}
    with pytest.raises(ValueError, match="2 alternative answers") as raised:
        to_calls([completion])
    assert str(raised.value) == (
        "to_calls cannot read tool calls from input[0]: a completion with 2 choices holds 2 "
        "alternative answers, not one turn; pass the one to check, e.g. completion.choices[0]"
    )


# --- errors that help: the type, and the obvious accessor, in one line --------------------


class _Messages:
    def __init__(self) -> None:
        self.messages = [{"role": "assistant", "content": "Hi"}]


class _AllMessages:
    def all_messages(self) -> list[object]:
        return []


class _NewItems:
    def __init__(self) -> None:
        self.new_items: list[object] = []


@pytest.mark.parametrize(
    ("obj", "hint"),
    [
        (_Messages(), "pass its .messages"),
        (_AllMessages(), "pass its .all_messages()"),
        (_NewItems(), "pass its .new_items"),
    ],
)
def test_an_unsupported_object_names_its_type_and_accessor(obj: object, hint: str) -> None:
    with pytest.raises(TypeError) as raised:
        to_calls(obj)
    kind = f"{type(obj).__module__}.{type(obj).__qualname__}"
    assert re.sub(r" at 0x[0-9a-f]+>", ">", str(raised.value)) == (
        f"to_calls cannot read tool calls from input: <{kind} object> ({kind}); {hint}{LINK}"
    )


@dataclass
class RunState:
    steps: int
    history: list[object]

    # A property, not a field: a field 'messages' would dump to a state mapping, read as such.
    @property
    def messages(self) -> list[object]:
        return self.history


def test_an_sdk_object_of_no_accepted_shape_is_named_not_its_dump() -> None:
    with pytest.raises(TypeError) as raised:
        to_calls([RunState(3, [])])
    message = str(raised.value)
    # The object's own repr and type, not the dict it dumps to.
    assert message == (
        "to_calls cannot read tool calls from input[0]: RunState(steps=3, history=[]) "
        f"(test_readers.RunState); pass its .messages{LINK}"
    )


def _unaddressed(message: str) -> str:
    return re.sub(r" at 0x[0-9a-f]+>", ">", message)


def test_a_coroutine_is_told_to_be_awaited() -> None:
    async def fetch_run() -> list[object]:
        return []

    run = fetch_run()
    try:
        with pytest.raises(TypeError) as raised:
            to_calls([run])
    finally:
        run.close()
    # The coroutine's repr is cut short; the hint names its function whole.
    name = "test_a_coroutine_is_told_to_be_awaited.<locals>.fetch_run"
    assert _unaddressed(str(raised.value)) == (
        "to_calls cannot read tool calls from input[0]: <coroutine object test_a_cor....fetch_run> "
        f"(coroutine); await it first: to_calls(await {name}(...)){LINK}"
    )


def test_a_future_is_told_to_be_awaited() -> None:
    import asyncio

    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(TypeError) as raised:
            to_calls(loop.create_future())
    finally:
        loop.close()
    assert str(raised.value) == (
        "to_calls cannot read tool calls from input: <Future pending> (_asyncio.Future); "
        f"await it first{LINK}"
    )


def test_an_exhausted_generator_is_an_error_not_no_calls() -> None:
    stream = (call for call in [ToolCall("now")])
    assert to_calls(stream) == [ToolCall("now")]
    with pytest.raises(TypeError) as raised:
        to_calls(stream)  # read a second time: nothing is left of it
    assert _unaddressed(str(raised.value)) == (
        "to_calls cannot read tool calls from input: <generator object "
        "test_an_ex....<genexpr>> (generator); "
        "it is exhausted: its items were read before; keep them in a list "
        f"(items = list(stream)) and pass that{LINK}"
    )
    assert to_calls(call for call in []) == []  # a fresh generator of nothing is no call


def test_bytes_inside_a_value_are_told_to_be_decoded() -> None:
    with pytest.raises(TypeError) as raised:
        to_calls([b'{"name": "now"}'])
    assert str(raised.value) == (
        'to_calls cannot read tool calls from input[0]: b\'{"name": "now"}\' (bytes); '
        f"decode it first: json.loads(data){LINK}"
    )


def test_json_text_inside_a_value_is_told_to_be_parsed() -> None:
    """A list of ``span.to_json()`` texts, say: text is parsed only as the whole input."""
    with pytest.raises(TypeError) as raised:
        to_calls(['  {"name": "now"}'])
    assert str(raised.value) == (
        'to_calls cannot read tool calls from input[0]: \'  {"name": "now"}\' (str); JSON '
        "text is parsed only when it is the whole input: parse each text first "
        f"([json.loads(text) for text in texts]){LINK}"
    )
    assert to_calls('[{"name": "now"}]') == [ToolCall("now")]
    with pytest.raises(TypeError) as raised:  # other text is named, with no advice
        to_calls(["now"])
    assert str(raised.value) == f"to_calls cannot read tool calls from input[0]: 'now' (str){LINK}"


def test_a_data_frame_is_its_rows_in_order() -> None:
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"name": ["search", "fetch"], "args": [{"q": "x"}, {}]})
    assert to_calls(frame) == [ToolCall("search", {"q": "x"}), ToolCall("fetch", {})]
    with pytest.raises(TypeError, match=r"^input\[1\]: a tool call's name must be a string"):
        to_calls(pandas.DataFrame({"name": ["search", 3]}))  # each row named by its place


def test_an_httpx_response_is_told_to_pass_its_json() -> None:
    httpx = pytest.importorskip("httpx")
    response = httpx.Response(200, json={"role": "assistant", "content": "Hi"})
    with pytest.raises(TypeError) as raised:
        to_calls(response)
    assert str(raised.value) == (
        "to_calls cannot read tool calls from input: <Response [200 OK]> (httpx.Response); "
        f"it is an HTTP response: pass its .json(){LINK}"
    )
    assert to_calls(response.json()) == []


def test_a_requests_response_is_told_to_pass_its_json() -> None:
    requests = pytest.importorskip("requests")
    response = requests.Response()
    response.status_code = 200
    response._content = b'{"role": "assistant", "content": "Hi"}'
    with pytest.raises(TypeError) as raised:
        to_calls([response])
    assert str(raised.value) == (
        "to_calls cannot read tool calls from input[0]: <Response [200]> (requests.Response); "
        f"it is an HTTP response: pass its .json(){LINK}"
    )
    assert to_calls(response.json()) == []


def _raw_responses(sdk: str) -> list[Any]:
    """What ``client....with_raw_response.create(...)`` returns, built as the SDK does: the
    sync and async ``APIResponse`` (and openai's legacy one), around one HTTP response."""
    httpx = pytest.importorskip("httpx")
    module = pytest.importorskip(sdk)
    responses = importlib.import_module(f"{sdk}._response")
    client = module.OpenAI(api_key="x") if sdk == "openai" else module.Anthropic(api_key="x")
    request = httpx.Request("POST", "https://api.example.com/v1")
    raw = httpx.Response(200, json={"id": "x"}, request=request)
    options = {"raw": raw, "cast_to": dict, "client": client, "stream": False,
               "stream_cls": None, "options": None}  # fmt: skip
    built = [
        responses.APIResponse(**options, retries_taken=0),
        responses.AsyncAPIResponse(**options, retries_taken=0),
    ]
    if sdk == "openai":  # what with_raw_response still returns in openai 1 to 3
        legacy = importlib.import_module("openai._legacy_response")
        built.append(legacy.LegacyAPIResponse(**options))
    return built


@pytest.mark.parametrize("sdk", ["openai", "anthropic"])
def test_a_raw_response_is_told_to_be_parsed(sdk: str) -> None:
    for response in _raw_responses(sdk):
        with pytest.raises(TypeError) as raised:
            to_calls([response])
        message = _unaddressed(str(raised.value))
        assert message.startswith("to_calls cannot read tool calls from input[0]: <")
        assert message.endswith(
            f"({sdk}.{type(response).__name__}); it is a raw response (with_raw_response): "
            f"call .parse() and pass its result{LINK}"
        )


def test_an_sdk_client_is_told_what_to_pass() -> None:
    openai = pytest.importorskip("openai")
    anthropic = pytest.importorskip("anthropic")
    for client, advice in [
        (
            openai.AsyncOpenAI(api_key="x"),
            "pass what client.chat.completions.create(...) or client.responses.create(...) returns",
        ),
        (anthropic.Anthropic(api_key="x"), "pass what client.messages.create(...) returns"),
    ]:
        with pytest.raises(TypeError) as raised:
            to_calls(client)
        assert str(raised.value).endswith(f"; it holds no run: {advice}{LINK}")


def test_an_object_without_an_accessor_gets_no_hint() -> None:
    with pytest.raises(TypeError) as raised:
        to_calls(object())
    assert str(raised.value).endswith(f"(object){LINK}")


# --- the call-free allowlists: each entry, with an example of it ------------------------

CALL_FREE_EXAMPLES: dict[str, dict[str, dict[str, Any]]] = {
    "openai": {
        "text": {"type": "text", "text": "Hi"},
        "image_url": {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
        "input_audio": {"type": "input_audio", "input_audio": {"data": "", "format": "wav"}},
        "file": {"type": "file", "file": {"file_id": "file_1"}},
        "refusal": {"type": "refusal", "refusal": "I can't."},
        "output_text": {"type": "output_text", "text": "Hi", "annotations": []},
        "input_text": {"type": "input_text", "text": "Hi"},
        "input_image": {"type": "input_image", "image_url": "https://x/y.png"},
        "input_file": {"type": "input_file", "file_id": "file_1"},
        "reasoning": {"type": "reasoning", "id": "rs_1", "summary": []},
        "web_search_call": {"type": "web_search_call", "id": "ws_1", "status": "completed"},
        "file_search_call": {"type": "file_search_call", "id": "fs_1", "queries": ["x"]},
        "computer_call": {"type": "computer_call", "id": "cu_1", "call_id": "c", "action": {}},
        "computer_call_output": {"type": "computer_call_output", "call_id": "c", "output": {}},
        "code_interpreter_call": {"type": "code_interpreter_call", "id": "ci_1", "code": ""},
        "image_generation_call": {"type": "image_generation_call", "id": "ig_1"},
        "local_shell_call": {"type": "local_shell_call", "id": "ls_1", "call_id": "c"},
        "local_shell_call_output": {"type": "local_shell_call_output", "id": "c", "output": ""},
        "shell_call": {"type": "shell_call", "id": "sh_1", "call_id": "c", "action": {}},
        "shell_call_output": {"type": "shell_call_output", "call_id": "c", "output": []},
        "apply_patch_call": {"type": "apply_patch_call", "call_id": "c", "operation": {}},
        "apply_patch_call_output": {"type": "apply_patch_call_output", "call_id": "c"},
        "tool_search_call": {"type": "tool_search_call", "id": "ts_1", "call_id": "c"},
        "tool_search_output": {"type": "tool_search_output", "call_id": "c", "tools": []},
        "mcp_list_tools": {"type": "mcp_list_tools", "id": "l_1", "server_label": "s"},
        "mcp_approval_request": {"type": "mcp_approval_request", "id": "a_1", "name": "x"},
        "mcp_approval_response": {"type": "mcp_approval_response", "approve": True},
        "item_reference": {"type": "item_reference", "id": "msg_1"},
        "compaction": {"type": "compaction", "id": "cmp_1", "encrypted_content": ""},
    },
    "anthropic": {
        "text": {"type": "text", "text": "Hi", "citations": None},
        "thinking": {"type": "thinking", "thinking": "...", "signature": "s"},
        "redacted_thinking": {"type": "redacted_thinking", "data": "..."},
        "image": {"type": "image", "source": {"type": "url", "url": "https://x/y.png"}},
        "document": {"type": "document", "source": {"type": "text", "data": "x"}},
        "search_result": {"type": "search_result", "source": "s", "title": "t", "content": []},
        "container_upload": {"type": "container_upload", "file_id": "file_1"},
        "mcp_tool_listing": {"type": "mcp_tool_listing", "tools": []},
        "compaction": {"type": "compaction", "content": "summary"},
    },
    "otel": {
        "text": {"type": "text", "content": "Hi"},
        "reasoning": {"type": "reasoning", "content": "..."},
        "blob": {"type": "blob", "modality": "image", "content": ""},
        "file": {"type": "file", "modality": "image", "file_id": "f"},
        "uri": {"type": "uri", "modality": "image", "uri": "https://x/y.png"},
    },
    "vercel": {
        "text": {"type": "text", "text": "Hi"},
        "reasoning": {"type": "reasoning", "text": "..."},
        "step-start": {"type": "step-start"},
        "source-url": {"type": "source-url", "sourceId": "s", "url": "https://x"},
        "source-document": {"type": "source-document", "sourceId": "s", "title": "t"},
        "file": {"type": "file", "mediaType": "image/png", "url": "https://x/y.png"},
        "image": {"type": "image", "image": "https://x/y.png"},
    },
    "gemini": {
        "text": {"text": "Hi"},
        "thought": {"thought": True, "thoughtSignature": "s"},
        "inlineData": {"inlineData": {"mimeType": "image/png", "data": ""}},
        "inline_data": {"inline_data": {"mime_type": "image/png", "data": b""}},
        "fileData": {"fileData": {"fileUri": "gs://x"}},
        "file_data": {"file_data": {"file_uri": "gs://x"}},
        "executableCode": {"executableCode": {"language": "PYTHON", "code": "1"}},
        "executable_code": {"executable_code": {"language": "PYTHON", "code": "1"}},
        "codeExecutionResult": {"codeExecutionResult": {"outcome": "OUTCOME_OK"}},
        "code_execution_result": {"code_execution_result": {"outcome": "OUTCOME_OK"}},
        "thoughtSignature": {"thoughtSignature": "c2ln"},
        "thought_signature": {"thought_signature": b"sig"},
        "toolCall": {"toolCall": {"id": "t1", "toolType": "GOOGLE_SEARCH", "args": {}}},
        "tool_call": {"tool_call": {"id": "t1", "tool_type": "GOOGLE_SEARCH", "args": {}}},
        "toolResponse": {"toolResponse": {"id": "t1", "response": {}}},
        "tool_response": {"tool_response": {"id": "t1", "response": {}}},
    },
    "bedrock": {
        "reasoningContent": {"reasoningContent": {"reasoningText": {"text": "..."}}},
        "image": {"image": {"format": "png", "source": {"bytes": b""}}},
        "document": {"document": {"format": "txt", "name": "d", "source": {"bytes": b""}}},
        "video": {"video": {"format": "mp4", "source": {"bytes": b""}}},
        "cachePoint": {"cachePoint": {"type": "default"}},
        "guardContent": {"guardContent": {"text": {"text": "x"}}},
    },
    "pydantic_ai": {
        "text": {"part_kind": "text", "content": "Hi"},
        "thinking": {"part_kind": "thinking", "content": "..."},
        "file": {"part_kind": "file", "content": {}},
        "user-prompt": {"part_kind": "user-prompt", "content": "Hi"},
        "system-prompt": {"part_kind": "system-prompt", "content": "Be brief."},
        "instruction": {"part_kind": "instruction", "content": "Be brief."},
        "retry-feedback": {"part_kind": "retry-feedback", "content": "Try again."},
        "speech": {"part_kind": "speech", "content": {}},
        "model-settings-delta": {"part_kind": "model-settings-delta", "settings": {}},
        "tool-availability-delta": {"part_kind": "tool-availability-delta", "tools": []},
    },
    # the Claude Agent SDK's blocks as dataclasses.asdict writes them
    "claude_agent": {"thinking": {"thinking": "The order first.", "signature": "sig"}},
    # the lines of its CLI's stream-json output
    "claude_agent_cli": {
        "stream_event": {
            "type": "stream_event",
            "uuid": "u1",
            "session_id": "s-1",
            "event": {"type": "content_block_delta", "index": 0, "delta": {}},
            "parent_tool_use_id": None,
        },
        "rate_limit_event": {
            "type": "rate_limit_event",
            "rate_limit_info": {"status": "allowed"},
            "uuid": "u2",
            "session_id": "s-1",
        },
    },
}
ALLOWLISTS: dict[str, frozenset[str] | tuple[str, ...]] = {
    "openai": openai.CALL_FREE_TYPES,
    "anthropic": anthropic.CALL_FREE_TYPES,
    "otel": otel.CALL_FREE_TYPES,
    "vercel": vercel.CALL_FREE_TYPES,
    "gemini": gemini.CALL_FREE_KEYS,
    "bedrock": bedrock.CALL_FREE_KEYS,
    "pydantic_ai": pydantic_ai.CALL_FREE_KINDS,
    "claude_agent": claude_agent.CALL_FREE_KEYS,
    "claude_agent_cli": claude_agent.CALL_FREE_LINE_TYPES,
}
# Where each provider's call-free shapes appear: a message of that provider.
_WRAPPERS = {
    "openai": lambda block: {"role": "user", "content": [block]},
    "anthropic": lambda block: {"role": "assistant", "content": [block]},
    "otel": lambda block: {"role": "assistant", "parts": [block]},
    "vercel": lambda block: {"role": "assistant", "parts": [block]},
    "gemini": lambda block: {"role": "model", "parts": [block]},
    "bedrock": lambda block: {"role": "assistant", "content": [block]},
    "pydantic_ai": lambda block: {"kind": "response", "parts": [block]},
    "claude_agent": lambda block: {"content": [block], "model": "claude"},
    "claude_agent_cli": lambda line: [line],
}


@pytest.mark.parametrize("provider", sorted(ALLOWLISTS))
def test_every_allowlist_entry_has_an_example(provider: str) -> None:
    assert set(CALL_FREE_EXAMPLES[provider]) == set(ALLOWLISTS[provider])


@pytest.mark.parametrize(
    ("provider", "entry"),
    [
        (provider, entry)
        for provider in CALL_FREE_EXAMPLES
        for entry in CALL_FREE_EXAMPLES[provider]
    ],
)
def test_a_call_free_shape_gives_no_call(provider: str, entry: str) -> None:
    example = CALL_FREE_EXAMPLES[provider][entry]
    assert to_calls(example) == []
    assert to_calls([_WRAPPERS[provider](example)]) == []


def test_call_free_types_are_read_by_no_call_and_nothing_else_is() -> None:
    typed = ("openai", "anthropic", "otel", "vercel", "claude_agent_cli")
    listed = set().union(*(ALLOWLISTS[name] for name in typed))
    listed |= set(NO_CALL_TYPES)  # stream events, each tested in tests/test_streams.py
    assert {kind for kind, handler in _readers.TYPES.items() if handler is no_call} == listed
    # and LangGraph's messages-chunk metadata, tested in tests/test_frameworks.py (its
    # interrupt update holds no call but sets a status: tests/test_call_status.py)
    keys = set(gemini.CALL_FREE_KEYS) | set(bedrock.CALL_FREE_KEYS)
    keys |= set(claude_agent.CALL_FREE_KEYS)
    keys |= {"langgraph_step"}
    assert {key for key, handler in _readers.KEYS if handler is no_call} == keys


@pytest.mark.parametrize(
    "obj",
    [
        {"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}},
        {"part_kind": "retry-prompt", "content": "Fix the output", "tool_name": None},
        {"role": "assistant", "content": "Hi"},
        {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": ""}]},
    ],
)
def test_other_call_free_shapes(obj: object) -> None:
    assert to_calls(obj) == []


# --- never silently empty: every call shape, in every container that holds it ------------

# (the shapes and their containers are in shapes.py: toolmatch record's tests use them too)
# Any accepted call can also sit in a list or tuple of such objects, or in a LangGraph
# state, update or stream part.
_OUTER = [
    lambda obj: obj,
    lambda obj: [obj],
    lambda obj: (obj,),
    lambda obj: [[obj]],
    lambda obj: {"messages": [obj]},
    lambda obj: [{"agent": {"messages": obj}}],
    lambda obj: {"type": "updates", "ns": [], "data": {"agent": {"messages": [obj]}}},
]


@st.composite
def _wrapped_calls(draw: st.DrawFn) -> tuple[object, str]:
    name = draw(st.text(alphabet="abcdefgh_", min_size=1, max_size=8))
    args = draw(st.dictionaries(st.sampled_from(["q", "city", "n"]), st.integers(), max_size=2))
    shapes = call_shapes(name, args, "call_1")
    kind = draw(st.sampled_from(sorted(shapes)))
    call = draw(st.sampled_from(shapes[kind]))
    others = draw(st.lists(st.sampled_from(shapes[kind]), max_size=2))
    items = [*draw(st.permutations([call, *others]))]
    container = draw(st.sampled_from(CONTAINERS[kind] + CONTAINERS["items"]))
    outer = draw(st.sampled_from(_OUTER))
    return outer(container(items)), name


@settings(max_examples=400, deadline=None)
@given(_wrapped_calls())
def test_no_accepted_call_shape_in_an_accepted_container_gives_no_call(
    case: tuple[object, str],
) -> None:
    obj, name = case
    calls = to_calls(obj)
    assert calls
    assert name in [call.name for call in calls]


# --- docs/formats.md lists exactly the table ---------------------------------------------


def _documented() -> dict[str, tuple[set[str], set[str]]]:
    """Each '### By ...' list of the accepted-shapes section: (all values, the no-call ones)."""
    text = DOC.read_text(encoding="utf-8").split("## Accepted shapes", 1)[1]
    found: dict[str, tuple[set[str], set[str]]] = {}
    for section in re.split(r"^### ", text, flags=re.MULTILINE)[1:]:
        title, _, body = section.partition("\n")
        listed: set[str] = set()
        free: set[str] = set()
        for bullet in re.split(r"^- ", body, flags=re.MULTILINE)[1:]:
            calls, _, call_free = bullet.partition("*no call*")
            # Backticked values; those in parentheses explain, they are not values.
            values = re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", calls))
            free_values = re.findall(r"`([^`]+)`", re.sub(r"\([^)]*\)", "", call_free))
            listed.update(values, free_values)
            free.update(free_values)
        found[title.strip()] = (listed, free)
    return found


def test_the_docs_list_every_type_of_the_table() -> None:
    listed, free = _documented()["By `type`"]
    prefixes = {f"{prefix}<name>" for prefix, _ in _readers.TYPE_PREFIXES}
    assert listed == set(_readers.TYPES) | prefixes
    assert free == {kind for kind, handler in _readers.TYPES.items() if handler is no_call}


def test_the_docs_list_every_object_role_and_key_of_the_table() -> None:
    documented = _documented()
    objects = {"" if value == '""' else value for value in documented["By `object`"][0]}
    assert objects == set(_readers.OBJECTS)  # the docs write the empty object as `""`
    assert documented["By `role`"][0] == set(_readers.ROLES)
    listed, free = documented["By key"]
    assert listed == {key for key, _ in _readers.KEYS}
    assert free == {key for key, handler in _readers.KEYS if handler is no_call}


def test_the_docs_list_every_span_convention_of_the_table() -> None:
    assert _documented()["By span attribute"] == (set(_readers.SPANS), set())


def test_the_docs_list_keys_in_the_tables_order() -> None:
    text = DOC.read_text(encoding="utf-8").split("### By key", 1)[1]
    text = re.sub(r"\([^)]*\)", "", text.split("*no call*", 1)[0])
    order = [key for key in re.findall(r"`([^`]+)`", text) if key in dict(_readers.KEYS)]
    table = [key for key, handler in _readers.KEYS if handler is not no_call]
    assert sorted(order, key=table.index) == order


# --- the Reading contract the stream and framework readers build on ----------------------


def test_a_reading_fills_reserved_places_and_finishes_its_states_in_order() -> None:
    finished: list[str] = []

    class Assembly:
        def __init__(self) -> None:
            self.slot = -1

        def finish(self, reading: Any) -> None:
            finished.append("assembly")
            reading.fill(self.slot, ToolCall("streamed", {}, "c1"))
            reading.state(Late)  # a state started while finishing is finished too

    class Late:
        def finish(self, reading: Any) -> None:
            finished.append("late")

    reading = _readers.new_reading()
    reading.state(Assembly).slot = reading.reserve()
    reading.call("after", None, "c2", "input[1]")
    reading.result("c1", "ok", False)
    assert reading.state(Assembly) is reading.state(Assembly)
    assert reading.finish() == [
        ToolCall("streamed", {}, "c1", result="ok", failed=False),
        ToolCall("after", {}, "c2"),
    ]
    assert finished == ["assembly", "late"]


def test_a_reserved_place_left_empty_is_an_error_of_the_reader() -> None:
    reading = _readers.new_reading()
    reading.reserve()
    with pytest.raises(RuntimeError, match="reserved a place for a call and never filled it"):
        reading.finish()


def test_read_each_consumes_an_iterator_once_naming_each_place() -> None:
    reading = _readers.new_reading()
    items = iter([{"name": "a"}, "text", {"name": 3}])
    with pytest.raises(TypeError, match=r"^input\[2\]: a tool call's name must be a string"):
        reading.read_each(items, "input", text=True)
    assert next(items, None) is None


# --- mappings of one key set are told apart by their values, whatever came before ---------

ENTRY = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}


@pytest.mark.parametrize(
    "first",
    [
        {"role": "assistant", "tool_calls": [ENTRY]},
        {"role": 5, "tool_calls": [ENTRY]},
        {"role": None, "tool_calls": [ENTRY]},
    ],
)
def test_a_key_set_read_before_does_not_decide_a_mapping_whose_values_differ(
    first: dict[str, Any],
) -> None:
    """A role that is no string, or not set, leaves the choice to the other keys: the
    entries are read as tool calls, as they are when that mapping comes first."""
    calls = [ToolCall("f", {}, id="call_1")]
    assert to_calls(first) == calls
    assert to_calls({"role": 5, "tool_calls": [ENTRY]}) == calls
    assert to_calls({"role": None, "tool_calls": [ENTRY]}) == calls
    assert to_calls({"role": "assistant", "tool_calls": [ENTRY]}) == calls


def test_a_key_set_of_no_row_is_read_by_its_whole_shape_each_time() -> None:
    assert to_calls({"agent": None}) == []  # a LangGraph node that returned nothing
    with pytest.raises(
        TypeError, match=r"^to_calls cannot read tool calls from input: \{'agent': 1\}"
    ):
        to_calls({"agent": 1})
    assert to_calls({"agent": {"messages": [{"role": "assistant", "tool_calls": [ENTRY]}]}}) == [
        ToolCall("f", {}, id="call_1", agent="agent")  # made by that node
    ]
    assert to_calls({"agent": None}) == []


def test_a_type_that_is_no_string_leaves_the_choice_to_the_keys() -> None:
    for kind in (["tool_use"], {"a": 1}, 3, None):
        assert to_calls([{"type": kind, "name": "f", "args": {}}]) == [ToolCall("f", {})]


def test_items_past_the_precomputed_places_are_named_too() -> None:
    items = [{"name": "a"}] * 300 + [{"name": 3}]
    with pytest.raises(TypeError, match=r"^input\[300\]: a tool call's name must be a string"):
        to_calls(items)
    with pytest.raises(TypeError, match=r"^input\[255\]: a tool call's name must be a string"):
        to_calls([{"name": "a"}] * 255 + [{"name": 3}])


def test_a_value_not_set_under_the_deciding_key_does_not_change_the_decision() -> None:
    message = {"role": "assistant", "content": None, "tool_calls": [ENTRY]}
    assert to_calls(message) == [ToolCall("f", {}, id="call_1")]
    assert to_calls({"role": "assistant", "content": "Done.", "tool_calls": None}) == []
    assert to_calls({"role": None, "content": None, "tool_calls": [ENTRY]}) == [
        ToolCall("f", {}, id="call_1")
    ]
