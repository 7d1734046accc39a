"""``to_calls``: the tool calls in whatever the user holds, as a list of ``ToolCall``.

No SDK is imported: an SDK object is read through ``model_dump()`` (pydantic: OpenAI,
Anthropic, LangChain, google-genai, MCP, Ollama), ``to_dict()``, its dataclass fields
(pydantic-ai) or a fixed set of attributes (an OpenTelemetry ``ReadableSpan``), and then
read like the provider's JSON. Both the JSON spelling (``functionCall``) and the Python one
(``function_call``) are accepted where they differ.

The accepted shapes, and the order they are told apart in, are the table in
``toolmatch._readers.dispatch``; docs/formats.md lists them for users (a test keeps the two equal).

A string or bytes given to ``to_calls`` itself is parsed as JSON first; with
``syntax="python"`` a string is read as Python calls instead (``toolmatch._readers.python_text``).
"""

from __future__ import annotations

from collections.abc import Sequence

from toolmatch._calls.call import ToolCall
from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._readers.dispatch import read_answer, read_calls
from toolmatch._readers.reading import ROOT, parse_arguments
from toolmatch._readers.records import answer_unrecorded

__all__ = ["final_answer", "parse_arguments", "read_final", "read_json_syntax", "to_calls"]


@public
def to_calls(
    obj: object, *, syntax: str = "json", tools: Sequence[object] | None = None
) -> list[ToolCall]:
    """The tool calls ``obj`` holds, in order, from any common provider format.

    ``obj`` may be an SDK object or its JSON: an OpenAI completion or response, an Anthropic
    message, a Gemini response, LangChain messages, MCP requests, Bedrock Converse output,
    OpenTelemetry spans, or a list of calls; a message without calls gives ``[]``.

    With ``syntax="python"``, ``obj`` is text of calls written as Python, one or a bracketed
    list; nothing in it is run. ``tools``, the tools' definitions (OpenAI, Anthropic, MCP,
    Gemini or BFCL shapes), names positional arguments, and is only for that syntax.

    >>> to_calls([{"name": "search", "arguments": '{"q": "paris"}'}])
    [ToolCall(name='search', args={'q': 'paris'})]
    >>> message = {"role": "assistant", "content": [
    ...     {"type": "text", "text": "Let me look."},
    ...     {"type": "tool_use", "id": "toolu_1", "name": "search", "input": {"q": "paris"}},
    ... ]}
    >>> to_calls(message)
    [ToolCall(name='search', args={'q': 'paris'}, id='toolu_1')]
    >>> sort = {"name": "sort", "parameters": {"properties": {"file_name": {}}}}
    >>> to_calls("[cd(folder='docs'), sort('report.pdf')]", syntax="python", tools=[sort])
    [ToolCall(name='cd', args={'folder': 'docs'}), \
ToolCall(name='sort', args={'file_name': 'report.pdf'})]
    """
    if syntax != "json" or tools is not None:
        from toolmatch._readers.python_text import read_syntax

        return read_syntax(obj, syntax, tools)
    return read_json_syntax(obj)


def read_json_syntax(obj: object, copy_args: bool = True) -> list[ToolCall]:
    """``to_calls`` with its default syntax: text is parsed as JSON first; ``copy_args``
    as for ``read_calls``.

    >>> read_json_syntax('[{"name": "search"}]')
    [ToolCall(name='search', args={})]
    """
    if isinstance(obj, (str, bytes, bytearray)):
        obj = _json(obj)
    return read_calls(obj, ROOT, copy_args)


def _json(text: str | bytes | bytearray) -> object:
    import json  # here, not at the top: `import toolmatch` stays fast

    try:
        return json.loads(text)
    except ValueError:
        raise TypeError(
            f"to_calls got a {type_name(text)} that is not JSON: {short_repr(text)}; pass "
            "the SDK object, its dict, or its JSON text"
        ) from None


@public
def final_answer(obj: object) -> str | None:
    """The final answer in ``obj`` (anything :func:`to_calls` reads): the text of the
    model's last message, ``None`` when that message has no text or holds calls, or when
    a call comes after it (the run did not end on an answer).

    Formats that record the model's messages record it: chat messages (OpenAI, Anthropic,
    Gemini, Ollama, Vercel, tau2-bench), a Responses output, LangChain and LangGraph
    messages (docs/formats.md, "What each format records"). Where ``obj`` holds no message
    of the model (a plain list of calls, spans, streamed chunks), there is no answer to
    read: ``ValueError`` names the format and what to pass.

    >>> final_answer([{"role": "user", "content": "Weather in Paris?"},
    ...               {"role": "assistant", "content": "It is sunny."}])
    'It is sunny.'
    >>> final_answer([{"name": "search"}])
    Traceback (most recent call last):
    ...
    ValueError: a plain call records no message of the model, so no final answer: pass the \
run's messages (the model's replies with its calls), or leave answer out
    """
    if isinstance(obj, (str, bytes, bytearray)):
        obj = _json(obj)
    unrecorded, text = read_final(obj)
    if unrecorded is not None:
        raise ValueError(unrecorded)
    return text


def read_final(obj: object) -> tuple[str | None, str | None]:
    """Why ``obj`` (read as :func:`to_calls` reads it, not a JSON text) records no final
    answer, its format named (``None``: it records one), and the answer.

    >>> read_final([{"role": "assistant", "content": "Done."}])
    (None, 'Done.')
    """
    recorded, text, calls = read_answer(obj, ROOT)
    return (None if recorded else answer_unrecorded(calls)), text
