"""Tool calls written as Python: ``cd(folder='docs')`` or ``[cd(folder='docs'), sort('a.txt')]``.

The text is parsed with ``ast`` and each argument read with ``ast.literal_eval``: nothing in
it is ever run. A call's arguments that are not literals (a name, a call, an f-string, an
unpacking) or that JSON cannot hold (a set, bytes, a complex number, a non-string key) give
that call a ``parse_error`` and no ``args``; tuples become lists. Positional arguments take
their names from the tool's definition (``tools=``, see ``toolmatch._calls.definitions``); without
one, or with more of them than it has parameters, the text is a ``ValueError`` naming the
call. So is text that is not one call or a bracketed list of calls.
"""

from __future__ import annotations

import ast
import re

from toolmatch._calls.call import ToolCall
from toolmatch._calls.definitions import ToolDefinition, read_tool_definitions
from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["NotCallsError", "python_calls", "read_syntax"]

# The line breaks Python's tokenizer knows (str.splitlines() knows more).
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# Whitespace before the first token means nothing, but the parser calls it an indent.
_LEADING = " \t\f\r\n"
_JSON_SCALARS = (str, int, float, bool, type(None))
_SHOWN = 60


class NotCallsError(ValueError):
    """Text that is not one call or a bracketed list of calls: words, or other code."""


def read_syntax(obj: object, syntax: str, tools: object) -> list[ToolCall]:
    """``to_calls(obj, syntax=..., tools=...)`` for any options but the defaults.

    >>> read_syntax("cd(folder='docs')", "python", None)
    [ToolCall(name='cd', args={'folder': 'docs'})]
    >>> read_syntax("cd(folder='docs')", "yaml", None)
    Traceback (most recent call last):
    ...
    ValueError: syntax must be 'json' or 'python', got 'yaml'
    """
    if syntax != "python":
        if syntax == "json":
            raise ValueError(
                "tools= names positional arguments in Python call syntax; pass "
                "syntax='python' (JSON arguments all have names)"
            )
        raise ValueError(f"syntax must be 'json' or 'python', got {short_repr(syntax)}")
    definitions = None if tools is None else read_tool_definitions(tools)
    if not isinstance(obj, str):
        raise TypeError(
            f"to_calls(syntax='python') reads text, got {short_repr(obj)} ({type_name(obj)})"
        )
    return python_calls(obj, definitions)


def python_calls(text: str, tools: Mapping[str, ToolDefinition] | None) -> list[ToolCall]:
    """The calls in ``text``, named from ``tools`` where they pass arguments by position.

    >>> python_calls("[cd(folder='docs'), spotify.play(artist='Queen')]", None)
    [ToolCall(name='cd', args={'folder': 'docs'}), \
ToolCall(name='spotify.play', args={'artist': 'Queen'})]
    >>> python_calls("cd(folder=os.getcwd())", None)[0].parse_error
    "argument 'folder' is not a literal: os.getcwd()"
    """
    source = _Source(text)
    return [_call(node, source, tools) for node in _call_nodes(source)]


class _Source:
    """The text without its leading whitespace, and positions in the text as given."""

    def __init__(self, text: str) -> None:
        self.body = text.lstrip(_LEADING)
        skipped = _LINE_BREAK.split(text[: len(text) - len(self.body)])
        self._line_shift = len(skipped) - 1
        self._column_shift = len(skipped[-1])
        self._lines = _LINE_BREAK.split(self.body)

    def at(self, line: int, column: int) -> str:
        """``line``, ``column`` (1-based, in the body) as a place in the text."""
        if line == 1:
            column += self._column_shift
        return f"line {line + self._line_shift}, column {column}"

    def of(self, node: ast.expr) -> str:
        # ast counts columns in UTF-8 bytes; users count characters.
        line = self._lines[node.lineno - 1]
        column = len(line.encode("utf-8", "surrogatepass")[: node.col_offset].decode("utf-8"))
        return self.at(node.lineno, column + 1)

    def text(self, node: ast.expr) -> str:
        segment = " ".join((ast.get_source_segment(self.body, node) or "").split())
        return segment if len(segment) <= _SHOWN else segment[: _SHOWN - 3] + "..."


def _call_nodes(source: _Source) -> list[ast.Call]:
    if not source.body:
        raise NotCallsError("expected a call or a list of calls, got no text")
    try:
        tree = ast.parse(source.body, mode="eval")
    except SyntaxError as error:
        place = ""
        if error.lineno:
            place = f" at {source.at(error.lineno, error.offset or 1)}"
        raise NotCallsError(f"invalid Python call syntax{place}: {error.msg}") from None
    except ValueError as error:  # null bytes, lone surrogates
        raise NotCallsError(f"invalid Python call syntax: {error}") from None
    except (MemoryError, RecursionError):
        raise NotCallsError("invalid Python call syntax: too deeply nested to parse") from None
    body = tree.body
    if isinstance(body, ast.Call):
        return [body]
    if not isinstance(body, ast.List):
        raise NotCallsError(
            f"expected a call or a list of calls at {source.of(body)}, got {source.text(body)}"
        )
    for item in body.elts:
        if not isinstance(item, ast.Call):
            raise NotCallsError(f"expected a call at {source.of(item)}, got {source.text(item)}")
    return body.elts  # type: ignore[return-value]  # each checked above


def _call(node: ast.Call, source: _Source, tools: Mapping[str, ToolDefinition] | None) -> ToolCall:
    name = _dotted_name(node.func)
    if name is None:
        raise NotCallsError(
            f"expected a tool name at {source.of(node.func)}, got {source.text(node.func)}"
        )
    if any(isinstance(argument, ast.Starred) for argument in node.args):
        return _broken(name, f"arguments unpacked with * cannot be read: {source.text(node)}")
    arguments: list[tuple[str, ast.expr]] = []
    if node.args:
        parameters = _positional_names(name, node, source, tools)
        arguments.extend(zip(parameters, node.args, strict=True))
    for keyword in node.keywords:
        if keyword.arg is None:
            return _broken(name, f"arguments unpacked with ** cannot be read: {source.text(node)}")
        arguments.append((keyword.arg, keyword.value))
    args: dict[str, Any] = {}
    for parameter, value_node in arguments:
        if parameter in args:
            return _broken(name, f"argument {parameter!r} is given twice")
        try:
            value = ast.literal_eval(value_node)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return _broken(
                name, f"argument {parameter!r} is not a literal: {source.text(value_node)}"
            )
        data, foreign = _json_data(value)
        if foreign is not None:
            return _broken(
                name,
                f"argument {parameter!r} holds {foreign}, which JSON cannot hold: "
                f"{source.text(value_node)}",
            )
        args[parameter] = data
    return ToolCall(name, args)


def _dotted_name(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _positional_names(
    name: str, node: ast.Call, source: _Source, tools: Mapping[str, ToolDefinition] | None
) -> tuple[str, ...]:
    count = len(node.args)
    passes = f"{name} at {source.of(node)} passes {_count(count, 'argument')} by position"
    them = "it" if count == 1 else "them"
    definition = None if tools is None else tools.get(name)
    if definition is None:
        if tools is None:
            raise ValueError(f"{passes}, and no tools= were given to name {them}")
        raise ValueError(f"{passes}, and tools= has no definition of {name!r} to name {them}")
    parameters = definition.parameters
    if count > len(parameters):
        listed = f" ({', '.join(parameters)})" if parameters else ""
        raise ValueError(
            f"{passes}, but {name!r} has {_count(len(parameters), 'parameter')}{listed}"
        )
    return parameters[:count]


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _json_data(value: object) -> tuple[object, str | None]:
    """``value`` with its tuples as lists, and what in it JSON cannot hold, if anything."""
    if isinstance(value, _JSON_SCALARS):
        return value, None
    if isinstance(value, (list, tuple)):
        items = []
        for item in value:
            data, foreign = _json_data(item)
            if foreign is not None:
                return None, foreign
            items.append(data)
        return items, None
    if isinstance(value, dict):
        mapping = {}
        for key, item in value.items():
            if not isinstance(key, str):
                return None, f"a dict key of type {type_name(key)}"
            data, foreign = _json_data(item)
            if foreign is not None:
                return None, foreign
            mapping[key] = data
        return mapping, None
    return None, f"a value of type {type_name(value)}"


def _broken(name: str, error: str) -> ToolCall:
    return ToolCall(name, {}, None, error)
