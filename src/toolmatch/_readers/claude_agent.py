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
from toolmatch._readers.reading import Reading, as_data, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CALL_FREE_CLASSES",
    "read_claude_message",
    "read_claude_result",
    "read_claude_server_result",
    "read_claude_session_message",
    "read_claude_tool_result",
    "read_claude_tool_use",
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
    denials = getattr(obj, "permission_denials", None)  # SDKs before these fields: none
    if denials is not None:
        if not isinstance(denials, (list, tuple)):
            raise wrong_shape(f"{where}.permission_denials", "a list", denials)
        for index, denial in enumerate(denials):
            data = as_data(denial)
            if not isinstance(data, Mapping):
                raise wrong_shape(f"{where}.permission_denials[{index}]", "an object", denial)
            reading.note_status(data.get("tool_use_id"), "denied")
    deferred = getattr(obj, "deferred_tool_use", None)
    if deferred is not None:
        reading.note_status(deferred.id, "pending")


def read_claude_session_message(obj: Any, where: str, reading: Reading) -> None:
    """A ``SessionMessage`` (``get_session_messages(...)``): its ``message``, the API's
    message, read as a chat message (not once per id: the SDK stores one API message as
    several entries of the same id, a content block each)."""
    message = as_data(obj.message)
    if not isinstance(message, Mapping):
        raise wrong_shape(f"{where}.message", "an object", message)
    messages.read_message(message, f"{where}.message", reading)


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
