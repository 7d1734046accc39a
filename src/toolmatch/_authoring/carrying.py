"""``toolmatch record``: values carried between calls, written as captures (docs/record.md).

Where a value of one expected call's result reappears as an argument of a later expected
call in every recorded run, the result is written with ``{$capture: name}`` at that
value's place and the argument as ``{$ref: name}``: the case then asserts that the value
flows, whatever it is in the next run. Only values that cannot match by chance count: a
string of three characters or more, or an integer of three digits or more.
"""

from __future__ import annotations

import json

from toolmatch._authoring.loosening import add_comment, flow, node, ruamel_comments
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from toolmatch._calls.call import ToolCall

__all__ = ["Expected", "carry_values", "distinctive"]

# An expected call as recording made it: its turn, its place in each run's turn, the call
# in each run, and the expected tool's mapping (a ruamel node) to write into.
Expected = tuple[int, "Sequence[int]", "Sequence[ToolCall]", "Any"]


def distinctive(value: object) -> bool:
    """Whether ``value`` is unlikely to reappear by chance: a string of three characters or
    more, or an int (not a bool) of three digits or more.

    >>> distinctive("ord_7"), distinctive("ok"), distinctive(1042), distinctive(7)
    (True, False, True, False)
    """
    if isinstance(value, str):
        return len(value) >= 3
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 100


def _fields(result: object) -> tuple[str, dict[str, object]]:
    """A result's top-level fields and how it holds them: ``dict`` (a mapping), ``json``
    (text of a JSON object), or ``whole`` (the result itself, under the key "")."""
    if isinstance(result, dict):
        return "dict", result
    if isinstance(result, str):
        try:
            parsed = json.loads(result)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict):
            return "json", parsed
    return "whole", {"": result}


def _later(source: Expected, target: Expected) -> bool:
    """Whether ``target``'s call comes after ``source``'s in every run."""
    if target[0] != source[0]:
        return target[0] > source[0]
    return all(late > early for early, late in zip(source[1], target[1], strict=True))


def carry_values(expected: Sequence[Expected]) -> int:
    """Write the captures and references ``expected`` (in turn and call order) hold;
    how many values are carried."""
    names: set[str] = set()
    captured: dict[int, tuple[str, dict[str, str]]] = {}  # source -> its form, key -> name
    carried = 0
    for target in expected:
        args_node = target[3].get("args")
        if args_node is None:
            continue
        for key in list(args_node):
            values = [call.args.get(key) for call in target[2]]
            if not all(distinctive(value) for value in values):
                continue
            found = _source(expected, target, values)
            if found is None:
                continue
            name = _name_for(captured, names, found, str(key))
            args_node[key] = flow(node({"$ref": name}))
            source = expected[found[0]][2][0].name
            observed = ", ".join(json.dumps(value) for value in dict.fromkeys(values))
            add_comment(args_node, f"observed: {observed}; carried from {source}'s result", key)
            carried += 1
    for number, (form, held) in captured.items():
        expected[number][3]["result"] = _result_node(form, held)
    return carried


def _source(
    expected: Sequence[Expected], target: Expected, values: list[object]
) -> tuple[int, str, str] | None:
    """The first expected call before ``target`` whose result holds ``values`` (one per
    run) at the same field in every run: its number, the result's form and the field."""
    for number, source in enumerate(expected):
        if source is target or not _later(source, target):
            continue
        forms = [_fields(call.result) for call in source[2]]
        if len({form for form, _ in forms}) != 1:
            continue
        field = _holding_field(forms, values)
        if field is not None:
            return number, forms[0][0], field
    return None


def _holding_field(forms: list[tuple[str, dict[str, object]]], values: list[object]) -> str | None:
    """The first field of the first run's result that holds, in every run, that run's value
    (of the same type), or ``None``."""
    for field in forms[0][1]:
        if all(
            field in fields and fields[field] == value and type(fields[field]) is type(value)
            for (_, fields), value in zip(forms, values, strict=True)
        ):
            return field
    return None


def _name_for(
    captured: dict[int, tuple[str, dict[str, str]]],
    names: set[str],
    found: tuple[int, str, str],
    key: str,
) -> str:
    """The name the value at ``found`` (source number, result form, field) is captured by:
    the one it has, or a new one after ``key`` kept in ``captured``."""
    number, form, field = found
    held = captured.setdefault(number, (form, {}))[1]
    name = held.get(field)
    if name is None:
        name = held[field] = _new_name(key, names)
    return name


def _new_name(key: str, names: set[str]) -> str:
    name, number = key or "value", 2
    while name in names:
        name, number = f"{key or 'value'}_{number}", number + 1
    names.add(name)
    return name


def _result_node(form: str, held: dict[str, str]) -> Any:
    if form == "whole":
        return flow(node({"$capture": held[""]}))
    comments = ruamel_comments()
    fields = comments.CommentedMap(
        (field, flow(node({"$capture": name}))) for field, name in held.items()
    )
    partial = comments.CommentedMap([("$partial", flow(fields))])
    if form == "json":
        return flow(comments.CommentedMap([("$json", flow(partial))]))
    return flow(partial)
