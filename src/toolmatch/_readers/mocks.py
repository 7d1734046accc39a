"""Readers for ``unittest.mock`` test doubles: a mock standing in for the agent's tools.

A call recorded in ``mock_calls`` is a tool call named by the attribute it was made on
(``tools.get_weather(city="Paris")`` is ``get_weather``); a call of a mock itself takes the
mock's own name. Only what the mock has stored is read (``__dict__`` entries, tuple slots),
never its attributes, which would make children and record nothing the agent did: reading
a mock changes nothing on it. See docs/formats.md, "Test doubles".
"""

from __future__ import annotations

import sys

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import cannot_read

if TYPE_CHECKING:
    import inspect
    from typing import Any

    from toolmatch._readers.reading import Reading

__all__ = ["read_function", "read_mock", "read_mock_call", "read_mock_call_list"]


def read_mock(mock: object, where: str, reading: Reading) -> None:
    """A ``Mock`` / ``MagicMock`` / ``AsyncMock``: the calls in its ``mock_calls``."""
    _read_mock(mock, vars(mock).get("_mock_name"), where, reading)


def read_function(function: object, where: str, reading: Reading) -> None:
    """A function: one ``create_autospec`` (or ``patch(..., autospec=True)``) made, whose
    mock is its ``mock`` attribute; its own calls take the mock's name, else the
    function's. Any other function holds no run."""
    mock = vars(function).get("mock")
    if not isinstance(mock, sys.modules["unittest.mock"].NonCallableMock):
        raise cannot_read(function, where)
    name = vars(mock).get("_mock_name") or getattr(function, "__name__", None)
    _read_mock(mock, name, where, reading)


def _read_mock(mock: object, name: str | None, where: str, reading: Reading) -> None:
    calls: list[object] = mock.mock_calls  # type: ignore[attr-defined]  # a property: no child
    for index, recorded in enumerate(calls):
        _read_call(recorded, mock, name, f"{where}.mock_calls[{index}]", reading)


def read_mock_call_list(calls: list[object], where: str, reading: Reading) -> None:
    """A mock's ``mock_calls`` (or ``method_calls``) list by itself."""
    for index, recorded in enumerate(calls):
        _read_call(recorded, None, None, f"{where}[{index}]", reading)


def read_mock_call(recorded: object, where: str, reading: Reading) -> None:
    """One ``unittest.mock.call`` by itself, such as ``call.get_weather(city="Paris")``."""
    _read_call(recorded, None, None, where, reading)


def _read_call(
    recorded: object, mock: object | None, own: str | None, where: str, reading: Reading
) -> None:
    """One recorded call; ``own`` names the calls of ``mock`` itself."""
    # A _Call is a tuple: (name, args, kwargs), or (args, kwargs) for a call_args entry.
    # Its attributes are not read: on a _Call they make new calls.
    parts: tuple[Any, ...] = tuple(recorded)  # type: ignore[arg-type]
    name: str
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    name, args, kwargs = parts if len(parts) == 3 else ("", *parts)
    last = name.rpartition(".")[2]
    if last.startswith("__") and last.endswith("__"):
        return  # a Python protocol method a MagicMock recorded (len(), str(), with): no tool
    tool = name or own
    if tool is None:
        raise TypeError(f"{where}: {short_repr(recorded)} {_UNNAMED[mock is None]}")
    if not args:
        reading.call(tool, dict(kwargs), None, where)
        return
    signature = None if mock is None else _spec_signature(mock, name)
    if signature is None:
        holder = "a call by itself has no mock" if mock is None else "the mock has no spec"
        raise TypeError(
            f"{where}: {short_repr(recorded)} passes positional arguments, and {holder} to "
            "name them; make the mock with spec= or create_autospec(), or call it with keywords"
        )
    try:
        bound = signature.bind_partial(*args, **kwargs)
    except TypeError as error:
        unfit = f"arguments do not fit {tool}{_bare(signature)}: {error}"
        reading.call(tool, None, None, where, parse_error=unfit)
        return
    reading.call(tool, _named(bound), None, where)


_UNNAMED = {
    True: (
        "is a call of a mock itself, which names no tool; pass the mock (one made with "
        "name='get_weather' names its own calls)"
    ),
    False: (
        "is a call of the mock itself, and the mock has no name to give it; make it with "
        "name='get_weather', or call its attributes (tools.get_weather(...))"
    ),
}


def _bare(signature: inspect.Signature) -> str:
    """``signature`` without its annotations: ``(city, unit='C')``."""
    empty = signature.empty
    parameters = [each.replace(annotation=empty) for each in signature.parameters.values()]
    return str(signature.replace(parameters=parameters, return_annotation=empty))


def _named(bound: inspect.BoundArguments) -> dict[str, Any]:
    """Bound arguments by parameter name; ``**kwargs`` spread out, ``*args`` as a list."""
    import inspect

    parameters = bound.signature.parameters
    args: dict[str, Any] = {}
    for key, value in bound.arguments.items():
        kind = parameters[key].kind
        if kind is inspect.Parameter.VAR_KEYWORD:
            args.update(value)
        elif kind is inspect.Parameter.VAR_POSITIONAL:
            args[key] = list(value)
        else:
            args[key] = value
    return args


def _spec_signature(root: object, name: str) -> inspect.Signature | None:
    """The signature the spec gives the mock that made the call ``name`` under ``root``.

    An autospecced mock stores its own (``_spec_signature``); a child of a mock made with
    ``spec=SomeClass`` has none, and takes the signature of that class's attribute.
    """
    import inspect

    mock_module = sys.modules["unittest.mock"]
    mock, spec_class, attribute = root, None, ""
    for segment in name.split(".") if name else ():
        stored = vars(mock)
        attribute = segment.removesuffix("()")
        child = stored["_mock_children"].get(attribute)
        if not isinstance(child, mock_module.NonCallableMock):
            return None
        spec_class = stored.get("_spec_class")
        mock = child
        if segment.endswith("()"):  # a call on what the child returned
            mock = vars(child).get("_mock_return_value")
            if not isinstance(mock, mock_module.NonCallableMock):
                return None
            spec_class, attribute = None, ""
    own: inspect.Signature | None = vars(mock).get("_spec_signature")
    if own is not None or spec_class is None or not attribute:
        return own
    try:
        found = inspect.getattr_static(spec_class, attribute)
    except AttributeError:
        return None
    if isinstance(found, (staticmethod, classmethod)):
        return inspect.signature(getattr(spec_class, attribute))
    if not inspect.isfunction(found):
        return None
    signature = inspect.signature(found)
    parameters = list(signature.parameters.values())[1:]  # a method, read through an instance
    return signature.replace(parameters=parameters)
