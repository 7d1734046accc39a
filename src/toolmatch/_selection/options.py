"""The turn options (``distinct``, ``ordered``, ``exhaustive``, ``ignore``, ``max_calls``,
``no_repeats``, ``tools``) and the expectation lists, each checked once where given."""

from __future__ import annotations

from toolmatch._calls.catalogue import ToolCatalogue
from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.expectation import ExpectedTool

if TYPE_CHECKING:
    from typing import Any

__all__ = ["check_max_calls", "expectation_list", "turn_options"]


def expectation_list(expected: object, where: str = "expected") -> list[ExpectedTool]:
    if isinstance(expected, ExpectedTool) or not isinstance(expected, (list, tuple)):
        raise TypeError(
            f"{where} must be a list of ExpectedTool, got {short_repr(expected)} "
            f"({type_name(expected)})"
        )
    for number, item in enumerate(expected):
        if not isinstance(item, ExpectedTool):
            raise TypeError(
                f"{where}[{number}] must be an ExpectedTool, got {short_repr(item)} "
                f"({type_name(item)})"
            )
    return list(expected)


def _check_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {short_repr(value)}")
    return value


def check_max_calls(max_calls: object) -> int | None:
    """``max_calls`` as given, once checked: ``None`` or an int >= 0."""
    if max_calls is None:
        return None
    if isinstance(max_calls, bool) or not isinstance(max_calls, int):
        raise TypeError(
            f"max_calls must be an int >= 0 or None, got {short_repr(max_calls)} "
            f"({type_name(max_calls)})"
        )
    if max_calls < 0:
        raise ValueError(f"max_calls must be >= 0, got {max_calls}")
    return max_calls


def _ignore_patterns(ignore: object) -> list[ExpectedTool]:
    patterns = expectation_list(ignore, "ignore")
    for number, pattern in enumerate(patterns):
        if pattern.count != 1 or pattern.max_count is not None:
            raise ValueError(
                f"ignore[{number}] is {pattern!r}: an ignore pattern selects calls, so count "
                "and max_count mean nothing there; write ExpectedTool(name, args) without them"
            )
    return patterns


def turn_options(
    *,
    distinct: object = False,
    ordered: object = False,
    exhaustive: object = False,
    ignore: object = (),
    max_calls: object = None,
    no_repeats: object = False,
    tools: object = None,
) -> dict[str, Any]:
    """The turn options, each checked: a bad one raises naming what it got."""
    for name, value in (
        ("distinct", distinct),
        ("ordered", ordered),
        ("exhaustive", exhaustive),
        ("no_repeats", no_repeats),
    ):
        _check_flag(name, value)
    return {
        "distinct": distinct,
        "ordered": ordered,
        "exhaustive": exhaustive,
        "ignore": _ignore_patterns(ignore),
        "max_calls": check_max_calls(max_calls),
        "no_repeats": no_repeats,
        "tools": _catalogue(tools),
    }


def _catalogue(tools: object) -> ToolCatalogue | None:
    """Tool definitions as given read into one catalogue (one given already stays itself)."""
    return tools if tools is None or isinstance(tools, ToolCatalogue) else ToolCatalogue(tools)
