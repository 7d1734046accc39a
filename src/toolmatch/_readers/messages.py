"""Shapes every provider shares: a chat message, a plain call, a wrapper around a message.

A message of any speaker is read: the model's messages hold calls, the others may hold
tool results (an Anthropic user message's ``tool_result`` blocks, an OpenAI ``tool``
message). Where a message has ``tool_calls`` (OpenAI, Ollama, LangChain) those are the
calls and its content is text (or, for LangChain, the provider's raw blocks: read twice).
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._calls.call import FAILED_OF_STATUS, STATUSES
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers import llama_index
from toolmatch._readers.declared import CallShape
from toolmatch._readers.reading import Reading, as_data, cannot_read, list_at, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "PLAIN_CALL",
    "ROLES",
    "message_text",
    "read_message",
    "read_output",
    "read_plain_call",
    "read_wrapped",
]

# Who speaks a chat message, in OpenAI, Anthropic, Gemini, Bedrock, Vercel, Ollama and OTel.
ROLES = ("assistant", "model", "user", "system", "developer", "tool", "function", "ipython")
# A call by itself; other keys than these are its own fields (``read_plain_call``).
PLAIN_CALL = CallShape("name", ("args", "arguments", "input"), "id", closed=True)
# A dict of just these keys is a call without arguments; a tool definition always has more.
_BARE_CALL_KEYS = frozenset({"name", "id"})
_NO_ARGUMENTS = object()  # a plain call with none of PLAIN_CALL's argument keys


# The roles of the model's own messages: their text is what the agent says.
_MODEL_ROLES = ("assistant", "model")
# The blocks of a message's content that are text the model wrote.
_TEXT_BLOCKS = (None, "text", "output_text")


def message_text(content: object) -> str | None:
    """The text of a message's ``content`` (or ``parts``): a string, or its text blocks'
    texts joined (Anthropic's and LangChain's ``text``, a Responses ``output_text``, a
    Gemini part's ``text`` that is not a thought); ``None`` without any.

    >>> message_text([{"type": "text", "text": "It is "}, {"type": "tool_use"}, "sunny"])
    'It is sunny'
    """
    if isinstance(content, str):
        return content
    if not isinstance(content, (list, tuple)):
        return None
    texts = []
    for block in content:
        if isinstance(block, str):
            texts.append(block)
        elif (
            isinstance(block, Mapping)
            and isinstance(block.get("text"), str)
            and block.get("type") in _TEXT_BLOCKS
            and not block.get("thought")
        ):
            texts.append(block["text"])
    return "".join(texts) if texts else None


def read_message(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A chat message: its ``tool_calls``, else its legacy ``function_call``, else the
    blocks of its ``content`` or ``parts``; an OpenAI or tau2-bench ``tool`` message is a
    result. The model's message is what it said, for the final answer."""
    said = reading.answering and data.get("role") in _MODEL_ROLES
    start = reading.position() if said else 0
    tool_call_id = data.get("tool_call_id")
    if tool_call_id is not None:  # OpenAI's answer to a call (role 'tool')
        _read_tool_result(data, tool_call_id, reading)
    elif "tool_calls" in data or "invalid_tool_calls" in data:
        for key in ("tool_calls", "invalid_tool_calls"):
            entries = list_at(data, key, where)
            if entries is not None:
                reading.read_each(entries, f"{where}.{key}")
        legacy = data.get("function_call")
        if legacy is not None:
            _legacy_function_call(legacy, where, reading)
    else:
        _read_content(data, where, reading)
    if said:
        _said(data, start, reading)


def _read_tool_result(data: Mapping[str, Any], tool_call_id: object, reading: Reading) -> None:
    """A tool message's answer to the call of ``tool_call_id``. A LangChain ToolMessage
    dumped without its defaults (type 'tool') keeps a status only where the tool failed."""
    status = data.get("status")
    failed = None if status is None else status == "error"
    reading.result(tool_call_id, data.get("content"), failed)


def _said(data: Mapping[str, Any], start: int, reading: Reading) -> None:
    """The model's message ``data``, its calls recorded from ``start`` on, is what it said:
    its content, whose text is read when asked for."""
    content = data.get("content")
    if content is None:
        content = data.get("parts")
        if content is None and data.get("blocks") is not None:
            return  # a llama-index ChatMessage's dump: LlamaIndex records no answer
    reading.said(content, start)


def _read_content(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A message without ``tool_calls``: its legacy ``function_call``, a tau2-bench answer,
    else the blocks of its ``content`` or ``parts``."""
    legacy = data.get("function_call")
    if legacy is not None and _legacy_function_call(legacy, where, reading):
        return
    if data.get("role") == "tool" and _read_tau2_answers(data, where, reading):
        return
    for key in ("content", "parts"):
        value = data.get(key)
        if value is None:
            continue
        if type(value) is not list:  # JSON gives a list: skip as_data's call (one frame)
            value = as_data(value)
        if isinstance(value, (list, tuple)):
            reading.read_each(value, f"{where}.{key}", True)  # text
            return
        if isinstance(value, Mapping):
            reading.read(value, f"{where}.{key}")
            return
        if isinstance(value, str):
            return  # text
        raise wrong_shape(f"{where}.{key}", "a string, a list of blocks or an object", value)
    if data.get("blocks") is not None:  # a llama-index ChatMessage's dump: no content
        # read by its role as a chat message, it is LlamaIndex's: what it records is
        source, reading.source = reading.source, llama_index.read_llama_message_data
        llama_index.read_llama_message_data(data, where, reading)
        reading.source = source


def read_message_once(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A typed ``message`` (Anthropic's ``Message``, a Responses message item): once per
    identity, its ``id`` and its calls, whole or streamed; a final object, which messages
    without an id beside it may repeat (docs/formats.md, "Counted once")."""
    start = reading.position()
    read_message(data, where, reading)
    reading.final_object(data.get("id"), start, where)


def _read_tau2_answers(data: Mapping[str, Any], where: str, reading: Reading) -> bool:
    """tau2-bench's answers, if ``data`` is one: a ``ToolMessage`` (the call's ``id``, text
    ``content``, an ``error`` flag) or a ``MultiToolMessage`` (``tool_messages``).

    Vercel's tool messages may have an ``id`` too, but their content is a list of parts;
    OpenTelemetry's hold ``parts``.
    """
    answers = list_at(data, "tool_messages", where)
    if answers is not None:
        reading.read_each(answers, f"{where}.tool_messages")
        return True
    call_id = data.get("id")
    content = data.get("content")
    if call_id is None or "parts" in data or not (content is None or isinstance(content, str)):
        return False
    error = data.get("error")
    reading.result(call_id, content, None if error is None else bool(error))
    return True


def _legacy_function_call(value: object, where: str, reading: Reading) -> bool:
    """OpenAI's deprecated single ``function_call`` on an assistant message."""
    value = as_data(value)
    if not isinstance(value, Mapping):
        return False
    reading.call(value.get("name"), value.get("arguments"), None, f"{where}.function_call")
    return True


def read_plain_call(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A call by itself: ``name`` and one of ``args`` / ``arguments`` / ``input`` (LangChain
    and OTel ``tool_call`` entries, Gemini ``FunctionCall``s), or a bare ``name``; a tau2
    call names its caller, ``requestor``. The other fields ``ToolCall.as_dict()`` writes
    (``parse_error``, ``result``, ``failed``, ``agent``, ``status``) are read back as written."""
    raw = PLAIN_CALL.arguments(data, _NO_ARGUMENTS)
    if raw is _NO_ARGUMENTS:
        if not data.keys() <= _BARE_CALL_KEYS:
            raise cannot_read(data, where)  # a tool definition, or a shape of no provider
        raw = None
    parse_error = data.get("parse_error")
    failed = data.get("failed")
    agent = data.get("agent")
    status = data.get("status")
    if parse_error is not None or failed is not None or agent is not None or status is not None:
        _check_own_fields(parse_error, failed, agent, status, where)
    if agent is None:
        agent = data.get("requestor")
        if type(agent) is not str or not agent:
            agent = None
    reading.call(
        data.get("name"), raw, data.get("id"), where, parse_error, data.get("result"), failed,
        agent, status,
    )  # fmt: skip


def _check_own_fields(
    parse_error: object, failed: object, agent: object, status: object, where: str
) -> None:
    """Refuse the fields of ``ToolCall.as_dict()`` that hold what no call can."""
    for field, value in (("parse_error", parse_error), ("agent", agent)):
        if value is not None and type(value) is not str:
            raise wrong_shape(f"{where}.{field}", "a string or None", value)
    if failed is not None and failed is not True and failed is not False:
        raise wrong_shape(f"{where}.failed", "a bool or None", failed)
    if status is None:
        return
    if type(status) is not str or status not in FAILED_OF_STATUS:
        accepted = ", ".join(map(repr, STATUSES))
        raise wrong_shape(f"{where}.status", f"one of {accepted} or None", status)
    if failed is not None and failed is not FAILED_OF_STATUS[status]:
        raise ValueError(
            f"{where}: failed={failed!r} disagrees with status={status!r}: failed is True for "
            "'failed' and 'error', False for 'succeeded', None for 'denied' and 'pending'"
        )


def read_wrapped(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An untyped object around one message: a choice, an Ollama response."""
    message = data["message"]
    if type(message) is not dict:  # JSON's dict skips as_data and the Mapping ABC's check
        message = as_data(message)
        if not isinstance(message, Mapping):
            raise wrong_shape(f"{where}.message", "an object", message)
    reading.read(message, f"{where}.message")


def read_output(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An untyped object's ``output``: a Responses response's items, Bedrock's message."""
    output = as_data(data["output"])
    if isinstance(output, (list, tuple)):
        reading.read_each(output, f"{where}.output")
    elif isinstance(output, Mapping):
        reading.read(output, f"{where}.output")
    else:
        raise wrong_shape(f"{where}.output", "a list of items or an object", output)
