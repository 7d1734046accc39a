"""The Claude Agent SDK (claude-agent-sdk): the messages ``query()`` and ``ClaudeSDKClient``
yield, read as the SDK's own objects (dataclasses, told by their class).

An ``AssistantMessage`` holds the model's ``ToolUseBlock``s; a ``UserMessage`` holds the
``ToolResultBlock``s that answer them (``is_error`` makes a result failed). The SDK
splits one API message into one ``AssistantMessage`` per content block, all with the same
``message_id``: each is read, so no id is an identity here. The ``ResultMessage`` that
ends every run holds no call; its ``permission_denials`` and ``deferred_tool_use`` say how
calls ended (``"denied"``, ``"pending"``).
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers import anthropic, messages
from toolmatch._readers.reading import Reading, as_data, cannot_read, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CALL_FREE_CLASSES",
    "CALL_FREE_KEYS",
    "CALL_FREE_LINE_TYPES",
    "read_claude_line",
    "read_claude_message",
    "read_claude_result",
    "read_claude_result_block",
    "read_claude_result_fields",
    "read_claude_server_result",
    "read_claude_session_message",
    "read_claude_stream_event_fields",
    "read_claude_tool_result",
    "read_claude_tool_use",
    "read_claude_untyped",
]


def read_claude_message(obj: Any, where: str, reading: Reading) -> None:
    """An ``AssistantMessage`` or ``UserMessage``: its content blocks (a user's text: none)."""
    content = obj.content
    if isinstance(content, str):
        return
    if not isinstance(content, (list, tuple)):
        raise wrong_shape(f"{where}.content", "a string or a list of blocks", content)
    reading.read_each(content, f"{where}.content")


def read_claude_tool_use(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolUseBlock`` or ``ServerToolUseBlock``: a call."""
    reading.call(obj.name, obj.input, obj.id, where)


def read_claude_tool_result(obj: Any, where: str, reading: Reading) -> None:
    """A ``ToolResultBlock``: the answer to the call of its ``tool_use_id``; ``is_error``
    unset means success, as the API reads a ``tool_result`` block."""
    reading.result(obj.tool_use_id, obj.content, bool(obj.is_error))


def read_claude_server_result(obj: Any, where: str, reading: Reading) -> None:
    """A ``ServerToolResultBlock``: read as Anthropic's server tool results are."""
    block = {"tool_use_id": obj.tool_use_id, "content": obj.content}
    anthropic.read_server_tool_result(block, where, reading)


def read_claude_result(obj: Any, where: str, reading: Reading) -> None:
    """A ``ResultMessage``: no call. Each of its ``permission_denials`` (a call the
    permission check refused) makes that call ``"denied"``; its ``deferred_tool_use`` (a
    call a ``PreToolUse`` hook deferred, where the run stopped) makes that call
    ``"pending"``."""
    deferred = getattr(obj, "deferred_tool_use", None)  # SDKs before these fields: none
    denials = getattr(obj, "permission_denials", None)
    _note_endings(denials, None if deferred is None else deferred.id, where, reading)


def read_claude_result_fields(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``ResultMessage`` as data: the CLI's ``result`` line, or ``dataclasses.asdict``
    of the message; read as the message is."""
    deferred = as_data(data.get("deferred_tool_use"))
    if deferred is not None and not isinstance(deferred, Mapping):
        raise wrong_shape(f"{where}.deferred_tool_use", "an object", deferred)
    call_id = None if deferred is None else deferred.get("id")
    _note_endings(data.get("permission_denials"), call_id, where, reading)


def _note_endings(denials: object, deferred: object, where: str, reading: Reading) -> None:
    """The statuses a run's result sets: ``denials`` denied, the ``deferred`` call's id
    pending."""
    if denials is not None:
        if not isinstance(denials, (list, tuple)):
            raise wrong_shape(f"{where}.permission_denials", "a list", denials)
        for index, denial in enumerate(denials):
            data = as_data(denial)
            if not isinstance(data, Mapping):
                raise wrong_shape(f"{where}.permission_denials[{index}]", "an object", denial)
            reading.note_status(data.get("tool_use_id"), "denied")
    if deferred is not None:
        reading.note_status(deferred, "pending")


def read_claude_untyped(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A message with a ``subtype`` and no ``type``: a ``ResultMessage`` (``num_turns``)
    or a ``SystemMessage`` (``data``: no call) as ``dataclasses.asdict`` writes them."""
    if "num_turns" in data:
        read_claude_result_fields(data, where, reading)
    elif "data" not in data:
        raise cannot_read(data, where)


def read_claude_stream_event_fields(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``StreamEvent`` as ``dataclasses.asdict`` writes it (its ``session_id`` and the
    API's stream ``event``, an object): no call, as the message holds none."""
    if "session_id" not in data or not isinstance(data.get("event"), Mapping):
        raise cannot_read(data, where)


def read_claude_result_block(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A result block without its ``type``, as ``dataclasses.asdict`` writes it: a
    ``ToolResultBlock`` (it has ``is_error``, maybe ``None``) or a
    ``ServerToolResultBlock``, read as Anthropic's blocks of those types are."""
    if "is_error" in data:
        anthropic.read_tool_result(data, where, reading)
    else:
        anthropic.read_server_tool_result(data, where, reading)


def read_claude_line(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """An ``assistant`` or ``user`` line of the CLI's stream-json output, which ``query()``
    parses into its messages: its ``message``, the API's message, read as a chat message
    (not once per id: the CLI writes one API message as one line a content block)."""
    _read_api_message(data.get("message"), f"{where}.message", reading)


def read_claude_session_message(obj: Any, where: str, reading: Reading) -> None:
    """A ``SessionMessage`` (``get_session_messages(...)``): its ``message``, the API's
    message, read as a chat message (not once per id: the SDK stores one API message as
    several entries of the same id, a content block each)."""
    _read_api_message(as_data(obj.message), f"{where}.message", reading)


def _read_api_message(message: object, where: str, reading: Reading) -> None:
    if not isinstance(message, Mapping):
        raise wrong_shape(where, "an object", message)
    messages.read_message(message, where, reading)


# Messages and blocks that hold no call and no result: text, thinking, the run's system
# messages (its subclasses too: task and hook events), the partial messages of
# include_partial_messages (the AssistantMessage after them holds their calls whole), rate
# limits, a conversation reset.
CALL_FREE_CLASSES = (
    "TextBlock",
    "ThinkingBlock",
    "SystemMessage",
    "StreamEvent",
    "RateLimitEvent",
    "ConversationResetMessage",
)

# Blocks that hold no call as ``dataclasses.asdict`` writes them (no type): a ``ThinkingBlock``
# (a ``TextBlock`` is Gemini's call-free ``text`` key).
CALL_FREE_KEYS = ("thinking",)

# Lines of the CLI's stream-json output that hold no call: the partial messages of
# include_partial_messages (the assistant line after them holds their calls whole), rate
# limits.
CALL_FREE_LINE_TYPES = ("stream_event", "rate_limit_event")
