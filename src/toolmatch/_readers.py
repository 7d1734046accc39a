"""Readers for each provider's tool-call shapes, over plain data or duck-typed SDK objects.

``read_item`` answers a list of calls for a shape it knows (``[]`` for a known shape that
holds no call, such as a text block or a user message) and ``None`` for a shape it does not
know; ``_formats.to_calls`` turns ``None`` into a ``TypeError``. The order of the checks in
``_read_mapping`` is documented in ``_formats``.

The commonest JSON shapes (plain calls, tool-use blocks and tool-call entries; completions,
choices and assistant messages around them) take shortcuts, ``_common_item`` and
``_common_wrapper``, that read them exactly as ``_read_mapping`` does, and a JSON object
given as arguments goes straight to json's scanner; the shortcuts decline anything else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from toolmatch._calls import ToolCall
from toolmatch._describe import short_repr, type_name
from toolmatch._reading import Reading, _json_arguments, as_data, parse_arguments
from toolmatch._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Literal, TypeAlias

    Data: TypeAlias = Mapping[str, Any]
    Handler: TypeAlias = Callable[[Any, str, Reading], None]

__all__ = ["as_data", "parse_arguments", "read_item", "read_items"]

_ARGUMENT_KEYS = ("args", "arguments", "input")
# A dict of just these keys is a call without arguments; a tool definition always has more.
_BARE_CALL_KEYS = frozenset({"name", "id"})

_ANTHROPIC_CALL_TYPES = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})
_RESPONSES_CALL_TYPES = frozenset({"function_call", "custom_tool_call", "mcp_call"})
_PYDANTIC_AI_CALL_KINDS = frozenset({"tool-call", "builtin-tool-call"})
# Who speaks a message that cannot hold the model's tool calls: roles of OpenAI, Anthropic,
# Gemini, Bedrock, Vercel and OTel messages, and LangChain message types.
_NOT_ASSISTANT = frozenset(
    {"user", "system", "developer", "tool", "function", "ipython", "human", "remove"}
)
# Keys that mark a content block or part carrying no call (Gemini parts, Bedrock content).
_CONTENT_KEYS = frozenset(
    {
        "text",
        "thought",
        "functionResponse",
        "function_response",
        "inlineData",
        "inline_data",
        "fileData",
        "file_data",
        "executableCode",
        "executable_code",
        "codeExecutionResult",
        "code_execution_result",
        "toolResult",
        "reasoningContent",
        "image",
        "document",
        "video",
        "cachePoint",
        "guardContent",
    }
)
_OTLP_ENVELOPES = ("resourceSpans", "scopeSpans", "spans")
_OTLP_VALUE_KEYS = ("stringValue", "intValue", "doubleValue", "boolValue")
_TEXT_BLOCK_KEYS = frozenset({"type", "text", "citations"})  # Anthropic's text block
# The keys of a chat completion, a choice and an assistant message, as the OpenAI and
# Anthropic SDKs dump them: no check before _message looks at any of them (see
# _common_wrapper).
_COMPLETION_KEYS = frozenset(
    {
        "id",
        "object",
        "created",
        "model",
        "choices",
        "usage",
        "system_fingerprint",
        "service_tier",
        "metadata",
        "moderation",
    }
)
_CHOICE_KEYS = frozenset({"index", "finish_reason", "logprobs", "message"})
_ASSISTANT_MESSAGE_KEYS = frozenset(
    {
        # OpenAI
        "role",
        "content",
        "tool_calls",
        "function_call",
        "refusal",
        "annotations",
        "audio",
        # Anthropic
        "id",
        "type",
        "model",
        "stop_reason",
        "stop_sequence",
        "stop_details",
        "usage",
        "container",
        "diagnostics",
    }
)


def read_items(items: Sequence[object], where: str, *, strict: bool) -> list[ToolCall]:
    """The calls in ``items``, in order; unknown items raise when ``strict``, else are skipped."""
    calls: list[ToolCall] = []
    for index, item in enumerate(items):
        if type(item) is dict:
            call = _common_item(item)
            if call is not None:
                if call is not False:
                    calls.append(call)
                continue
        item_where = f"{where}[{index}]"
        found = read_item(item, item_where)
        if found is None:
            if strict:
                raise unknown_shape(item, item_where)
            continue
        calls.extend(found)
    return calls


def read_item(obj: object, where: str) -> list[ToolCall] | None:
    """The calls in ``obj``; ``None`` when its shape is not one ``to_calls`` knows."""
    if type(obj) is dict:
        return _read_dict(obj, where)
    if isinstance(obj, ToolCall):
        return [obj]
    data = as_data(obj)
    if type(data) is dict:  # what an SDK object dumps to
        return _read_dict(data, where)
    if isinstance(data, (list, tuple)):
        return read_items(data, where, strict=True)
    if isinstance(data, Mapping):
        return _read_mapping(data, where)
    return None


def _read_dict(data: dict[str, Any], where: str) -> list[ToolCall] | None:
    calls = _common_wrapper(data, where)
    return _read_mapping(data, where) if calls is None else calls


def _common_item(data: dict[str, Any]) -> ToolCall | Literal[False] | None:
    """The call of one of the commonest JSON items, exactly as ``_read_mapping`` reads it;
    ``False`` for an item that holds no call, ``None`` for anything else (that path then
    reads it, naming where a problem is).

    A fast path: a run holds many items, and most are plain calls, Anthropic ``tool_use``
    blocks, OpenAI tool-call entries or text blocks. Only items that cannot fail are read
    here, so no ``where`` needs building for them.
    """
    kind = data.get("type")
    if kind is None:
        name = data.get("name")
        if type(name) is not str:
            return None
        # A plain call: besides 'name' and 'id', at most one key, an argument key. No other
        # reader claims such a dict (it has no 'jsonrpc' nor 'method'); _read_mapping
        # reaches _plain.
        if "id" in data:
            call_id = data["id"]
            others = len(data) - 2
        else:
            call_id = None
            others = len(data) - 1
        if others == 0:
            return _trusted_call(name, None, call_id)
        if others == 1:
            if "args" in data:
                return _trusted_call(name, data["args"], call_id)
            if "arguments" in data:
                return _trusted_call(name, data["arguments"], call_id)
            if "input" in data:
                return _trusted_call(name, data["input"], call_id)
        return None
    if "jsonrpc" in data or "method" in data:
        return None  # _read_mapping tries JSON-RPC before any type
    if kind == "tool_use":
        name = data.get("name")
        if type(name) is str:
            return _trusted_call(name, data.get("input"), data.get("id"))
        return None
    if kind == "function":
        function = data.get("function")
        if type(function) is dict and "parameters" not in function:
            name = function.get("name")
            if type(name) is str:
                return _trusted_call(name, function.get("arguments"), data.get("id"))
        return None
    if kind == "text" and _TEXT_BLOCK_KEYS.issuperset(data):
        return False
    return None


def _common_wrapper(data: dict[str, Any], where: str) -> list[ToolCall] | None:
    """The calls of the commonest JSON objects around items, exactly as ``_read_mapping``
    reads them: a chat completion, a choice, an assistant message of OpenAI or Anthropic;
    ``None`` for anything else.

    A fast path: ``_read_mapping`` tries a dozen shapes before it reaches a message. These
    are told by their keys alone: a dict of only the keys their SDKs dump, none of which an
    earlier check in ``_read_mapping`` looks at, with the values read below. Only what can
    be read without an error is read here, except the items, which ``read_items`` reads
    with the general path's ``where``.
    """
    keys = data.keys()
    if "choices" in data:
        if not keys <= _COMPLETION_KEYS:
            return None
        choices = data["choices"]
        if type(choices) is not list or len(choices) != 1:
            return None  # no choice, or alternatives (an error): the general path says so
        choice = choices[0]
        if type(choice) is not dict:
            return None
        data, where = choice, f"{where}.choices[0]"
        keys = data.keys()
    if "message" in data:
        if not keys <= _CHOICE_KEYS:
            return None
        message = data["message"]
        if type(message) is not dict:
            return None
        data, where = message, f"{where}.message"
        keys = data.keys()
    # An assistant message: OpenAI's (type absent) or Anthropic's (type 'message'). Its
    # 'role' keeps _single_call off a legacy 'function_call'.
    if (
        data.get("role") != "assistant"
        or not keys <= _ASSISTANT_MESSAGE_KEYS
        or data.get("type") not in (None, "message")
        or data.get("function_call") is not None
    ):
        return None
    if "tool_calls" in data:
        entries = data["tool_calls"]
        if type(entries) is list:
            return read_items(entries, f"{where}.tool_calls", strict=True)
        return [] if entries is None else None
    content = data.get("content")
    if type(content) is list:
        return read_items(content, f"{where}.content", strict=False)
    return [] if content is None or type(content) is str else None


def _trusted_call(name: str, raw_args: object, call_id: object) -> ToolCall | None:
    """``_call`` for a string name and JSON arguments; ``None`` for other arguments."""
    # parse_arguments' answers for a dict, a string and None, without its checks.
    if type(raw_args) is dict:
        args: dict[str, Any] = raw_args.copy()  # the caller may change theirs later
        error = None
    elif type(raw_args) is str:
        args, error = _json_arguments(raw_args)
    elif raw_args is None:
        args, error = {}, None
    else:
        return None  # an SDK object or an odd value: the general path reads it
    if call_id is not None and type(call_id) is not str:
        call_id = str(call_id)
    return ToolCall(name, args, call_id, error)


def unknown_shape(obj: object, where: str) -> TypeError:
    """The error for input of no known shape: what it got, where, and what is accepted."""
    if obj is None:
        # Usually an SDK's empty field, such as a text-only OpenAI message's tool_calls.
        return TypeError(
            f"to_calls got None at {where}; pass the message or response itself "
            "(a message without tool calls gives [])"
        )
    return TypeError(
        f"to_calls cannot read tool calls from {where}: {short_repr(obj)} ({type_name(obj)}).\n"
        "It accepts (as SDK objects or as plain dicts/JSON), or a list of any of them:\n"
        "- a ToolCall, or a dict with 'name' and 'args' / 'arguments' / 'input';\n"
        "- OpenAI Chat Completions: a completion, choice, message or tool call;\n"
        "- OpenAI Responses: a response, or its output items;\n"
        "- Anthropic Messages: a message, or its content blocks;\n"
        "- Google Gemini: a response, candidate, content or part;\n"
        "- LangChain: a message (AIMessage, HumanMessage, ...) or a tool call;\n"
        "- MCP: a JSON-RPC 'tools/call' request (other JSON-RPC messages hold no call);\n"
        "- AWS Bedrock Converse: a response, message or content item;\n"
        "- OpenTelemetry GenAI: a span (or OTLP JSON) or an output message or part;\n"
        "- Ollama: a chat response or message; Vercel AI SDK: a message or part;\n"
        "- pydantic-ai: a ModelResponse, ModelRequest or part."
    )


def _read_mapping(data: Data, where: str) -> list[ToolCall] | None:
    kind = data.get("type")
    if "jsonrpc" in data or (isinstance(data.get("method"), str) and "params" in data):
        return _mcp(data, where)
    call = _single_call(data, kind, where)
    if call is not None:
        return [call]
    if isinstance(data.get("part_kind"), str):
        return []  # a pydantic-ai part that is not a call (text, tool return, ...)
    calls = _container(data, kind, where)
    if calls is not None:
        return calls
    if _is_message(data):
        return _message(data, where)
    if isinstance(data.get("name"), str) and (
        any(key in data for key in _ARGUMENT_KEYS) or data.keys() <= _BARE_CALL_KEYS
    ):
        return [_plain(data, where)]
    if isinstance(kind, str):
        return []  # a typed block, part or item of some provider that carries no call
    if not _CONTENT_KEYS.isdisjoint(data):
        return []
    return None


def _single_call(data: Data, kind: object, where: str) -> ToolCall | None:
    """One call given by itself: a block, part, item or tool-call entry of a known provider."""
    if kind in _RESPONSES_CALL_TYPES:
        return _responses_call(data, where)
    if kind in _ANTHROPIC_CALL_TYPES:
        return _call(data.get("name"), data.get("input"), data.get("id"), where)
    if kind == "invalid_tool_call":
        return _langchain_invalid(data, where)
    if kind == "function" or isinstance(as_data(data.get("function")), Mapping):
        return _openai_function_call(data, where)
    if kind == "custom" and "custom" in data:
        return _openai_custom_call(data, where)
    if kind in ("tool-call", "dynamic-tool") or (
        isinstance(kind, str)
        and kind.startswith("tool-")
        and "toolCallId" in data
        and "state" in data
    ):
        return _vercel(data, kind, where)
    part_kind = data.get("part_kind")
    if part_kind in _PYDANTIC_AI_CALL_KINDS:
        return _call(data.get("tool_name"), data.get("args"), data.get("tool_call_id"), where)
    if "toolUse" in data:
        use = _mapping(data["toolUse"], f"{where}.toolUse")
        return _call(use.get("name"), use.get("input"), use.get("toolUseId"), f"{where}.toolUse")
    for key in ("functionCall", "function_call"):
        value = as_data(data.get(key))
        if isinstance(value, Mapping) and "role" not in data:
            return _call(value.get("name"), value.get("args"), value.get("id"), f"{where}.{key}")
    return None


def _container(data: Data, kind: object, where: str) -> list[ToolCall] | None:
    """Calls of an object that wraps messages: OTLP envelopes, spans, completions, responses."""
    for key in _OTLP_ENVELOPES:
        inner = as_data(data.get(key))
        if isinstance(inner, (list, tuple)):
            return read_items(inner, f"{where}.{key}", strict=False)
    attributes = _span_attributes(data)
    if attributes is not None:
        return _span(attributes, where)
    for key, noun in (("choices", "completion"), ("candidates", "response")):
        if key in data:
            return _only_option(data[key], key, noun, where)
    wrapped = as_data(data.get("data"))
    if isinstance(kind, str) and isinstance(wrapped, Mapping) and len(data) == 2:
        return _known(wrapped, f"{where}.data")  # LangChain's messages_to_dict()
    if isinstance(kind, str):
        return None  # a typed item's 'message' or 'output' is a payload, not a wrapper
    message = as_data(data.get("message"))
    if isinstance(message, Mapping):
        return _known(message, f"{where}.message")
    output = as_data(data.get("output"))
    if isinstance(output, (list, tuple)):
        return read_items(output, f"{where}.output", strict=False)
    if isinstance(output, Mapping):
        return _known(output, f"{where}.output")
    return None


def _is_message(data: Data) -> bool:
    return (
        isinstance(data.get("role"), str)
        or "tool_calls" in data
        or "invalid_tool_calls" in data
        or "content" in data
        or "parts" in data
    )


def _message(data: Data, where: str) -> list[ToolCall]:
    """A chat message of any provider; those not spoken by the model hold no call."""
    speaker = data.get("role")
    if not isinstance(speaker, str):
        speaker = data.get("type")  # LangChain names the speaker in 'type'
    if speaker in _NOT_ASSISTANT or data.get("kind") == "request":
        return []
    if "tool_calls" in data or "invalid_tool_calls" in data:
        # OpenAI, Ollama and LangChain messages: the parsed tool calls are authoritative,
        # the content is text (or, for LangChain, the provider's raw blocks: read twice).
        calls = _entries(data.get("tool_calls"), f"{where}.tool_calls")
        calls += _entries(data.get("invalid_tool_calls"), f"{where}.invalid_tool_calls")
        return calls + _legacy_function_call(data, where)
    legacy = _legacy_function_call(data, where)
    if legacy:
        return legacy
    for key in ("content", "parts"):
        value = as_data(data.get(key))
        if isinstance(value, (list, tuple)):
            return read_items(value, f"{where}.{key}", strict=False)
        if isinstance(value, Mapping):
            return _known(value, f"{where}.{key}")
    return []


def _entries(value: object, where: str) -> list[ToolCall]:
    entries = as_data(value)
    if entries is None:
        return []
    if not isinstance(entries, (list, tuple)):
        raise TypeError(f"{where} must be a list, got {short_repr(entries)} ({type_name(entries)})")
    return read_items(entries, where, strict=True)


def _legacy_function_call(data: Data, where: str) -> list[ToolCall]:
    """OpenAI's deprecated single ``function_call`` on an assistant message."""
    value = as_data(data.get("function_call"))
    if not isinstance(value, Mapping):
        return []
    inner = f"{where}.function_call"
    return [_call(value.get("name"), value.get("arguments"), None, inner)]


def _known(obj: Data, where: str) -> list[ToolCall]:
    found = _read_mapping(obj, where)
    if found is None:
        raise unknown_shape(obj, where)
    return found


def _only_option(value: object, key: str, noun: str, where: str) -> list[ToolCall]:
    options = as_data(value)
    if options is None:
        return []
    if not isinstance(options, (list, tuple)):
        found = f"{short_repr(options)} ({type_name(options)})"
        raise TypeError(f"{where}.{key} must be a list, got {found}")
    if len(options) > 1:
        raise ValueError(
            f"{where}: a {noun} with {len(options)} {key} holds {len(options)} alternative "
            f"answers, not one turn; pass the one to check, e.g. {noun}.{key}[0]"
        )
    if not options:
        return []
    return read_items(options, f"{where}.{key}", strict=True)


def _mcp(data: Data, where: str) -> list[ToolCall]:
    """A JSON-RPC message; only a ``tools/call`` request is a call."""
    if data.get("method") != "tools/call":
        return []
    params = _mapping(data.get("params"), f"{where}.params")
    return [_call(params.get("name"), params.get("arguments"), data.get("id"), f"{where}.params")]


def _span_attributes(data: Data) -> Mapping[str, Any] | None:
    """A span's attributes (a mapping, or OTLP JSON's key/value list), if ``data`` is a span."""
    if not isinstance(data.get("name"), str):
        return None
    attributes = as_data(data.get("attributes"))
    if isinstance(attributes, Mapping):
        return attributes
    if isinstance(attributes, (list, tuple)):
        flat: dict[str, Any] = {}
        for entry in attributes:
            if isinstance(entry, Mapping) and isinstance(entry.get("key"), str):
                value = entry.get("value")
                if isinstance(value, Mapping):
                    value = next((value[k] for k in _OTLP_VALUE_KEYS if k in value), None)
                flat[entry["key"]] = value
        return flat
    return None


def _span(attributes: Mapping[str, Any], where: str) -> list[ToolCall]:
    """An OTel GenAI ``execute_tool`` span is a call; any other span holds none."""
    operation = attributes.get("gen_ai.operation.name")
    if "gen_ai.tool.name" not in attributes or operation not in (None, "execute_tool"):
        return []
    return [
        _call(
            attributes["gen_ai.tool.name"],
            attributes.get("gen_ai.tool.call.arguments"),
            attributes.get("gen_ai.tool.call.id"),
            f"{where}.attributes",
        )
    ]


def _responses_call(data: Data, where: str) -> ToolCall:
    call_id = data.get("call_id")
    if call_id is None:
        call_id = data.get("id")
    if data.get("type") == "custom_tool_call":
        return _free_form_call(data.get("name"), data.get("input"), call_id, where)
    return _call(data.get("name"), data.get("arguments"), call_id, where)


def _openai_function_call(data: Data, where: str) -> ToolCall:
    inner = f"{where}.function"
    function = _mapping(data.get("function"), inner)
    if "parameters" in function and "arguments" not in function:
        raise TypeError(f"{inner} is a tool definition (it has 'parameters'), not a tool call")
    return _call(function.get("name"), function.get("arguments"), data.get("id"), inner)


def _openai_custom_call(data: Data, where: str) -> ToolCall:
    inner = f"{where}.custom"
    custom = _mapping(data.get("custom"), inner)
    return _free_form_call(custom.get("name"), custom.get("input"), data.get("id"), inner)


def _free_form_call(name: object, text: object, call_id: object, where: str) -> ToolCall:
    """OpenAI custom tools take free text, not JSON: the text becomes ``args['input']``."""
    if not isinstance(text, str):
        found = f"{short_repr(text)} ({type_name(text)})"
        raise TypeError(f"{where}: a custom tool call's input must be a string, got {found}")
    return ToolCall(_name(name, where), {"input": text}, _id(call_id))


def _vercel(data: Data, kind: object, where: str) -> ToolCall:
    name = data.get("toolName")
    if name is None and isinstance(kind, str) and kind.startswith("tool-"):
        name = kind.removeprefix("tool-")  # a UI message part is typed 'tool-<name>'
    raw = data["input"] if "input" in data else data.get("args")  # AI SDK 4 said 'args'
    return _call(name, raw, data.get("toolCallId"), where)


def _langchain_invalid(data: Data, where: str) -> ToolCall:
    """LangChain's ``invalid_tool_calls`` entry: never a match, its error is kept."""
    name = data.get("name")
    reason = data.get("error") or "the arguments could not be parsed"
    error = f"invalid tool call ({reason}); arguments: {short_repr(data.get('args'))}"
    return ToolCall(name if isinstance(name, str) else "", {}, _id(data.get("id")), error)


def _plain(data: Data, where: str) -> ToolCall:
    raw = next((data[key] for key in _ARGUMENT_KEYS if key in data), None)
    return _call(data.get("name"), raw, data.get("id"), where)


def _call(name: object, raw_args: object, call_id: object, where: str) -> ToolCall:
    args, error = parse_arguments(as_data(raw_args))
    return ToolCall(_name(name, where), args, _id(call_id), error)


def _name(name: object, where: str) -> str:
    if not isinstance(name, str):
        found = f"{short_repr(name)} ({type_name(name)})"
        raise TypeError(f"{where}: a tool call's name must be a string, got {found}")
    return name


def _id(call_id: object) -> str | None:
    return None if call_id is None else str(call_id)


def _mapping(value: object, where: str) -> Data:
    data = as_data(value)
    if not isinstance(data, Mapping):
        raise TypeError(f"{where} must be an object, got {short_repr(data)} ({type_name(data)})")
    return data


# --- the table ----------------------------------------------------------------------------

# 1. By concrete type, then by (module prefix, class name) over an object's MRO.
BY_TYPE: dict[type, Handler] = {}
BY_CLASS: dict[tuple[str, str], Handler] = {}
# 2. For mappings: the value of 'type', of 'object', of 'role', then distinctive keys.
TYPES: dict[str, Handler] = {}
OBJECTS: dict[str, Handler] = {}
ROLES: dict[str, Handler] = {}
KEYS: list[tuple[str, Handler]] = []


def new_reading() -> Reading:
    """A ``Reading`` that dispatches through this module's table."""
    return Reading(dispatch)


def read_calls(obj: object, where: str) -> list[ToolCall]:
    """The calls (with their results) in ``obj``, read at ``where``."""
    reading = Reading(dispatch)
    dispatch(obj, where, reading)
    return reading.finish()


def dispatch(obj: object, where: str, reading: Reading) -> None:
    """Hand ``obj`` to the reader of its shape; an unknown shape raises ``TypeError``."""
    handler = BY_TYPE.get(type(obj))
    if handler is None:
        handler = _by_class(obj)
    handler(obj, where, reading)


def _by_class(obj: object) -> Handler:
    if BY_CLASS:
        for kind in type(obj).__mro__:
            module = getattr(kind, "__module__", "") or ""
            handler = BY_CLASS.get((module.partition(".")[0], kind.__name__))
            if handler is not None:
                return handler
    if isinstance(obj, Mapping):
        return read_mapping
    return read_object


def read_mapping(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A mapping: by its 'type', 'object' or 'role' value, then by a distinctive key."""
    handler = _mapping_handler(data)
    if handler is not None:
        handler(data, where, reading)
        return
    found = _read_mapping(data, where)  # the previous reader, until every shape has a row
    if found is None:
        raise unknown_shape(data, where)
    for call in found:
        reading.add(call)


def _mapping_handler(data: Mapping[str, Any]) -> Handler | None:
    for key, table in (("type", TYPES), ("object", OBJECTS), ("role", ROLES)):
        value = data.get(key)
        if type(value) is str:
            handler = table.get(value)
            if handler is not None:
                return handler
    for key, handler in KEYS:
        if data.get(key) is not None:
            return handler
    return None


def read_object(obj: object, where: str, reading: Reading) -> None:
    """An object of no listed class: read as the data it dumps to."""
    if obj is None or isinstance(obj, (str, bytes, bytearray)):
        raise unknown_shape(obj, where)
    data = as_data(obj)
    if isinstance(data, Mapping):
        read_mapping(data, where, reading)
    elif isinstance(data, (list, tuple)):
        read_sequence(data, where, reading)
    else:
        raise unknown_shape(obj, where)


def read_sequence(items: Sequence[object], where: str, reading: Reading) -> None:
    """A list or tuple: each item in order."""
    reading.read_each(items, where)


def read_tool_call(call: ToolCall, where: str, reading: Reading) -> None:
    """A ``ToolCall``: itself."""
    reading.add(call)


BY_TYPE.update(
    {
        list: read_sequence,
        tuple: read_sequence,
        dict: read_mapping,
        ToolCall: read_tool_call,
        type(None): read_object,
        str: read_object,
    }
)
