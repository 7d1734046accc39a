"""Anthropic Messages: ``tool_use`` blocks (client, server and MCP tools) and their results."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.declared import CallShape
from toolmatch._readers.reading import Reading, as_data

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "CALL_FREE_TYPES",
    "SERVER_RESULT_TYPES",
    "TOOL_USE",
    "read_server_tool_result",
    "read_tool_result",
    "read_tool_use",
]

# Content blocks that hold no call and no result.
CALL_FREE_TYPES = frozenset(
    {
        "text",
        "thinking",
        "redacted_thinking",
        "image",
        "document",
        "search_result",
        "container_upload",
        "mcp_tool_listing",
        "compaction",
    }
)
# Results of Anthropic's server tools, answering a ``server_tool_use`` block by its id.
SERVER_RESULT_TYPES = frozenset(
    {
        "web_search_tool_result",
        "web_fetch_tool_result",
        "code_execution_tool_result",
        "bash_code_execution_tool_result",
        "text_editor_code_execution_tool_result",
        "tool_search_tool_result",
        "advisor_tool_result",
    }
)


# A ``tool_use``, ``server_tool_use`` or ``mcp_tool_use`` block.
TOOL_USE = CallShape("name", ("input",), "id")
read_tool_use = TOOL_USE.read


def read_tool_result(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A ``tool_result`` (or ``mcp_tool_result``) block; ``is_error`` absent means success,
    as the API reads it."""
    reading.result(data.get("tool_use_id"), data.get("content"), bool(data.get("is_error")))


def read_server_tool_result(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A server tool's result block: failed when its content is an ``..._error`` object."""
    content = data.get("content")
    inner = as_data(content)
    kind = inner.get("type") if isinstance(inner, Mapping) else None
    failed = isinstance(kind, str) and kind.endswith("_error")
    reading.result(data.get("tool_use_id"), content, failed)
