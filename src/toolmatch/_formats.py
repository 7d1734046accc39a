"""``to_calls``: the tool calls in whatever the user holds, as a list of ``ToolCall``.

No SDK is imported: an SDK object is read through ``model_dump()`` (pydantic: OpenAI,
Anthropic, LangChain, google-genai, MCP, Ollama), ``to_dict()``, its dataclass fields
(pydantic-ai) or a fixed set of attributes (an OpenTelemetry ``ReadableSpan``), and then
read like the provider's JSON. Both the JSON spelling (``functionCall``) and the Python one
(``function_call``) are accepted where they differ.

Shapes are told apart by distinctive keys, checked in this order (first match wins):

1. a ``ToolCall``; a list or tuple: each item in order, an unknown item raises;
2. JSON-RPC (``jsonrpc``, or ``method`` with ``params``): a ``tools/call`` request is one
   call (``params.name``, ``params.arguments``, the request ``id``), any other message none;
3. one call by itself, by its type or key: a Responses item of type ``function_call``,
   ``custom_tool_call`` or ``mcp_call`` (its ``call_id`` is the id); an Anthropic block of
   type ``tool_use``, ``server_tool_use`` or ``mcp_tool_use``; a LangChain
   ``invalid_tool_call``; a Chat Completions / Ollama tool call (a ``function`` object) or
   a ``custom`` one; a Vercel AI SDK part (``tool-call``, ``dynamic-tool``, or a UI part
   ``tool-<name>`` with ``toolCallId`` and ``state``); a pydantic-ai ``ToolCallPart``
   (``part_kind``); a Bedrock ``toolUse`` item; a Gemini part with ``functionCall``;
4. a pydantic-ai part of another ``part_kind``: no call;
5. a wrapper: OTLP JSON (``resourceSpans`` / ``scopeSpans`` / ``spans``); an OpenTelemetry
   span (``name`` and ``attributes``), a call when it has ``gen_ai.tool.name`` and is not
   some other ``gen_ai.operation.name``, else none; a completion's ``choices`` or a Gemini
   response's ``candidates`` (more than one is ``ValueError``: those are alternative
   answers, not one turn); LangChain's ``messages_to_dict`` entry (``type`` and ``data``);
   an untyped object's ``message`` (a choice, an Ollama response, Bedrock's ``output``)
   or ``output`` (a Responses response: its items, unknown ones skipped);
6. a message (``role``, ``tool_calls``, ``invalid_tool_calls``, ``content`` or ``parts``):
   none if spoken by anyone but the model (user, system, developer, tool, LangChain
   ``human``..., a pydantic-ai ``ModelRequest``); else its ``tool_calls`` and
   ``invalid_tool_calls`` when it has those keys (OpenAI, Ollama, LangChain: the content is
   then not read, so LangChain's raw provider blocks do not count twice), else the legacy
   ``function_call``, else the calls among its ``content`` or ``parts`` (other blocks,
   such as text, are skipped);
7. a plain call: ``name`` and one of ``args`` / ``arguments`` / ``input`` (this covers
   LangChain tool calls, OpenTelemetry ``tool_call`` parts, Gemini ``FunctionCall``s);
8. any other typed object (a ``type`` string) or a content part without a call (``text``,
   ``functionResponse``, ``toolResult``, ...): no call;
9. anything else, ``None`` included: ``TypeError`` naming what it got and listing the
   accepted shapes.

A string or bytes given to ``to_calls`` itself is parsed as JSON first.
"""

from __future__ import annotations

from toolmatch._calls import ToolCall
from toolmatch._describe import short_repr, type_name
from toolmatch._readers import read_calls
from toolmatch._reading import parse_arguments

__all__ = ["parse_arguments", "to_calls"]


def to_calls(obj: object) -> list[ToolCall]:
    """The tool calls ``obj`` holds, in order, from any common provider format.

    ``obj`` may be an SDK object or its JSON: an OpenAI completion or response, an Anthropic
    message, a Gemini response, LangChain messages, MCP requests, Bedrock Converse output,
    OpenTelemetry spans, or a list of calls; a message without calls gives ``[]``.

    >>> to_calls([{"name": "search", "arguments": '{"q": "paris"}'}])
    [ToolCall(name='search', args={'q': 'paris'})]
    >>> message = {"role": "assistant", "content": [
    ...     {"type": "text", "text": "Let me look."},
    ...     {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "paris"}},
    ... ]}
    >>> to_calls(message)
    [ToolCall(name='search', args={'q': 'paris'}, id='toolu_1')]
    """
    if isinstance(obj, (str, bytes, bytearray)):
        obj = _json(obj)
    return read_calls(obj, "input")


def _json(text: str | bytes | bytearray) -> object:
    import json  # here, not at the top: `import toolmatch` stays fast

    try:
        return json.loads(text)
    except ValueError:
        raise TypeError(
            f"to_calls got a {type_name(text)} that is not JSON: {short_repr(text)}; pass "
            "the SDK object, its dict, or its JSON text"
        ) from None
