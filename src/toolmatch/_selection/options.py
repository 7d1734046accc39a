"""The turn options (``distinct``, ``ordered``, ``exhaustive``, ``ignore``, ``max_calls``,
``no_repeats``, ``tools``, ``agent``, ``answer``), one :class:`TurnOption` row each in
:data:`TURN_OPTIONS`, and the expectation lists; each checked once where given.

The table is the one place an option is named: the Python functions check through it,
the spec loader reads its keys from it, the JSON Schema and docs/config.md's table of a
turn's keys are made from (or checked against) it. A new option is a row, its check, and
the engine's code for it.
"""

from __future__ import annotations

from toolmatch._calls.catalogue import ToolCatalogue
from toolmatch._core.flags import check_flag
from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.expectation import ExpectedTool
from toolmatch._selection.validation import (
    KEYWORDS,
    check_agent,
    check_budget,
    check_no_carried,
    list_of,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

__all__ = ["TURN_OPTIONS", "TurnOption", "option_names", "turn_options"]


def _ignore_patterns(ignore: object) -> list[ExpectedTool]:
    patterns: list[ExpectedTool] = list_of(
        ignore, (ExpectedTool,), "ignore", "ExpectedTool", "an ExpectedTool"
    )
    for number, pattern in enumerate(patterns):
        if pattern.optional or pattern.first or pattern.last:
            raise ValueError(
                f"ignore[{number}] is {pattern!r}: an ignore pattern selects calls, so "
                "optional, first and last mean nothing there; write ExpectedTool(name, args) "
                "without them"
            )
        if pattern.count != 1:
            raise ValueError(
                f"ignore[{number}] is {pattern!r}: an ignore pattern selects calls, so count "
                "means nothing there; write ExpectedTool(name, args) without it (ignore "
                "patterns take max_count=N, not count: at most N matching calls left out)"
            )
        if pattern.id is not None or pattern.before or pattern.after:
            raise ValueError(
                f"ignore[{number}] is {pattern!r}: an ignore pattern selects calls, so id, "
                "before and after mean nothing there; write ExpectedTool(name, args) without them"
            )
    return patterns


def turn_options(given: Mapping[str, object]) -> dict[str, Any]:
    """The turn options in ``given`` (a public function's ``locals()``: its keyword
    arguments are the table's), each checked: a bad one raises naming what it got.

    The flags are checked first, then the others in the table's order: with several bad
    options, the one named is the one it always was.
    """
    checked: dict[str, object] = {
        option.name: check_flag(given[option.name], option.name)
        for option in TURN_OPTIONS
        if option.kind == "flag"
    }
    for option in TURN_OPTIONS:
        if option.kind != "flag":
            checked[option.name] = _CHECKS[option.kind](given[option.name])
    return {option.name: checked[option.name] for option in TURN_OPTIONS}


def _catalogue(tools: object) -> ToolCatalogue | None:
    """Tool definitions as given read into one catalogue (one given already stays itself)."""
    return tools if tools is None or isinstance(tools, ToolCatalogue) else ToolCatalogue(tools)


_CHECKS: dict[str, Callable[[object], object]] = {
    "patterns": _ignore_patterns,
    "budget": lambda max_calls: check_budget(max_calls, KEYWORDS),
    "tools": _catalogue,
    "agent": lambda agent: check_no_carried(check_agent(agent, KEYWORDS), KEYWORDS, "agent"),
    # any value (a plain one is compared by Literal rules) but a capture's or a reference
    "answer": lambda answer: check_no_carried(answer, KEYWORDS, "answer"),
}


class TurnOption(Record):
    """One turn option: its ``name`` (a keyword argument and a spec key), its ``kind``
    (``flag``, ``patterns``, ``budget``, ``tools``, ``agent`` or ``answer``: how a value is
    checked, read and described); ``case_wide``, whether a case with turns takes it for
    all its turns; ``summary``, the JSON Schema's description (``None``: none); ``docs``
    and ``docs_default``, its row in docs/config.md's table of a turn's keys."""

    __slots__ = _fields = ("name", "kind", "case_wide", "summary", "docs", "docs_default")
    name: str
    kind: str
    case_wide: bool
    summary: str | None
    docs: str
    docs_default: str


TURN_OPTIONS = (
    TurnOption(
        "distinct",
        "flag",
        False,
        "each expectation needs its own call",
        "`true`: each expectation needs its own call, two expectations cannot share one",
        "`false`",
    ),
    TurnOption(
        "ordered",
        "flag",
        False,
        "the expectations are met in this order",
        "`true`: the expectations must be met by calls in this order (implies `distinct`)",
        "`false`",
    ),
    TurnOption(
        "exhaustive",
        "flag",
        False,
        "every call not ignored must be expected",
        "`true`: every call not ignored must be claimed by an expectation (implies `distinct`)",
        "`false`",
    ),
    TurnOption(
        "ignore",
        "patterns",
        False,
        None,
        "a list of calls to leave out before judging, each written like an expected tool (a "
        "name, or a mapping with `name`, `args`, `exact`, `result`, `failed`, `agent`, "
        "`status`; no `count`), with `max_count: N` to leave out at most the first `N` "
        "matching calls ([selection.md](selection.md#leaving-calls-out-ignore))",
        "`[]`",
    ),
    TurnOption(
        "max_calls",
        "budget",
        True,
        "at most this many calls, ignored ones not counted",
        "an int >= 0: at most this many calls in the turn (ignored calls not counted)",
        "no limit",
    ),
    TurnOption(
        "no_repeats",
        "flag",
        False,
        "no two calls with the same name and arguments",
        "`true`: no two calls with the same name and equal arguments",
        "`false`",
    ),
    TurnOption(
        "tools",
        "tools",
        True,
        "the tools' definitions every call must satisfy: a JSON or YAML file (relative to "
        "the spec) or a list of definitions",
        "the tools' definitions every call not ignored must satisfy: the path of a JSON or "
        "YAML file holding a list of them, or the list itself "
        "([selection.md](selection.md#calls-that-fit-their-definitions-tools))",
        "none",
    ),
    TurnOption(
        "agent",
        "agent",
        True,
        "check only this agent's calls (a name, or a matcher); the others are left out",
        "the agent whose calls the turn checks: a name (compared exactly) or a matcher "
        "mapping; the other agents' calls are left out before judging, like ignored ones; a "
        "call whose agent the trace does not record is an error "
        "([selection.md](selection.md#whose-calls-agent))",
        "every agent's",
    ),
    TurnOption(
        "answer",
        "answer",
        False,
        "the turn's final answer (the text of the model's last message) must match this",
        "a value or a matcher mapping the turn's final answer must match: the text of the "
        "model's last message, when no call comes with it or after it "
        "([selection.md](selection.md#the-final-answer-answer)); in a case with turns, "
        "`answer:` beside `turns:` checks the run's final answer, its last turn's",
        "no check",
    ),
)
"""Every turn option, in the order the signatures, spec keys and messages list them."""


def option_names(kind: str | None = None) -> tuple[str, ...]:
    """The options' names, in order; only those of ``kind`` when given."""
    return tuple(option.name for option in TURN_OPTIONS if kind is None or option.kind == kind)
