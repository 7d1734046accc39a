"""One MCP run, offline: a real ``mcp`` client connected in memory to a server of two
tools, calling both (the second fails), its JSON-RPC messages logged as a transport's log
would write them, one JSON line each."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import Any, NamedTuple


class McpRun(NamedTuple):
    """What a user holds after the run: the results ``call_tool`` returned, the JSON-RPC
    messages the client sent and received, and their log (JSON lines)."""

    results: list[Any]
    messages: list[Any]
    log: list[str]


class _Logged:
    """One side of the client's streams, logging each JSON-RPC message it carries."""

    def __init__(self, stream: Any, messages: list[Any], log: list[str]) -> None:
        self.stream, self.messages, self.log = stream, messages, log

    def _write(self, item: Any) -> Any:
        message = getattr(item, "message", None)  # a SessionMessage; not an Exception
        if message is not None:
            self.messages.append(message)
            self.log.append(message.model_dump_json(by_alias=True, exclude_none=True))
        return item

    async def send(self, item: Any) -> None:
        await self.stream.send(self._write(item))

    async def receive(self) -> Any:
        return self._write(await self.stream.receive())

    def __aiter__(self) -> _Logged:
        return self

    async def __anext__(self) -> Any:
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self.stream.aclose()

    async def __aenter__(self) -> _Logged:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def weather_server() -> Any:
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("weather")

    @server.tool()
    def search(q: str) -> str:
        """The weather in a city."""
        if q == "atlantis":
            raise ToolError("no such city")
        return f"sunny in {q}"

    return server


def mcp_run() -> McpRun:
    """search(q="paris") answers; search(q="atlantis") raises: an ``isError`` result."""
    from mcp import Client
    from mcp.client._memory import InMemoryTransport

    messages: list[Any] = []
    log: list[str] = []

    @asynccontextmanager
    async def transport() -> Any:
        async with InMemoryTransport(weather_server()) as (read, write):
            yield _Logged(read, messages, log), _Logged(write, messages, log)

    async def run() -> list[Any]:
        async with Client(transport(), mode="legacy") as client:
            return [
                await client.call_tool("search", {"q": "paris"}),
                await client.call_tool("search", {"q": "atlantis"}),
            ]

    return McpRun(asyncio.run(run()), messages, log)
