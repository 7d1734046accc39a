"""MCP: JSON-RPC messages. A ``tools/call`` request is a call (``params.name``,
``params.arguments``, the request ``id``); the response of that id is its result."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import Reading, as_data, cannot_read, wrong_shape

if TYPE_CHECKING:
    from typing import Any

__all__ = ["read_call_tool_result", "read_json_rpc"]


def read_json_rpc(data: Mapping[str, Any], where: str, reading: Reading) -> None:
    """A JSON-RPC request, notification or response.

    A response's ``result`` is a ``CallToolResult``: its ``content`` is the result and its
    ``isError`` (``is_error`` as mcp 2's ``model_dump()`` writes it) says whether the tool
    failed (status ``"failed"``); a JSON-RPC ``error`` is a protocol error, not the tool's:
    status ``"error"`` (failed, the tool never ran), the error object its result. Responses
    to other requests answer no call, and are ignored like any result without its call.
    """
    method = data.get("method")
    if "jsonrpc" not in data and "params" not in data:
        raise cannot_read(data, where)  # a 'method' alone: some other record, not JSON-RPC
    if method is None:
        error = data.get("error")
        if error is not None:
            reading.result(data.get("id"), error, True, "error")
            return
        result = as_data(data.get("result"))
        if isinstance(result, Mapping) and "content" in result:
            failed = result.get("isError")
            if failed is None:  # mcp 2's model_dump() writes its field name, not the alias
                failed = result.get("is_error")
            reading.result(data.get("id"), result.get("content"), bool(failed))
        return
    if method != "tools/call":
        return  # initialize, tools/list, notifications, ...: no call
    params = as_data(data.get("params"))
    inner = f"{where}.params"
    if not isinstance(params, Mapping):
        raise wrong_shape(inner, "an object", params)
    reading.call(params.get("name"), params.get("arguments"), data.get("id"), inner)


_LONE_RESULT = (
    "it is an MCP CallToolResult, which names neither its tool nor the id of the request it "
    "answers: pass the session's JSON-RPC messages (each tools/call request and the response "
    "of its id), as a transport logs them"
)


def read_call_tool_result(obj: object, where: str, reading: Reading) -> None:
    """A ``CallToolResult`` by itself (what ``call_tool`` returns, or its dump, told by its
    ``isError``): no call can be paired with it, so an error saying what to pass, never a
    reading without the failure it records. A mapping without ``content`` is something
    else: an error without that advice."""
    if isinstance(obj, Mapping) and "content" not in obj:
        raise cannot_read(obj, where)
    raise cannot_read(obj, where, _LONE_RESULT)
