"""The keys of an expected tool, one :class:`ToolKey` row each in :data:`TOOL_KEYS`.

The table is the one place a key is named: ``ExpectedTool`` checks its arguments through
it (:func:`check_tool_keys`, with the rules of ``validation.py``), the spec loader reads
its keys from it and reports the same rules' words at their places, and the JSON Schema's
expected tool and docs/config.md's table of its keys are made from (or checked against)
it. A new key is a row, its rule, and the engine's code for it.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._selection.validation import (
    check_agent,
    check_count,
    check_failed,
    check_flag,
    check_id,
    check_ids,
    check_max_count,
    check_name,
    check_optional,
    check_status,
)

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from toolmatch._selection.validation import Caller

    Rule = Callable[[Any, Caller, Mapping[str, Any]], object]

__all__ = ["NOT_WITH_NEVER", "TOOL_KEYS", "ToolKey", "check_tool_keys", "tool_key_names"]


def _args(value: object, caller: Caller, _given: Mapping[str, Any]) -> object:
    """Python's ``args``: a dict of expected arguments, a matcher, or ``None`` (a spec file's
    ``args``, ``exact`` and ``ignore_args`` are read into one of these first)."""
    if value is None or isinstance(value, (Matcher, Mapping)):
        return value
    raise TypeError(
        f"{caller.name('args')} must be a dict of expected arguments, a matcher such as "
        f"Exact({{...}}), or None, got {short_repr(value)} ({type_name(value)})"
    )


class ToolKey(Record):
    """One key of an expected tool: its ``name`` (a spec key, and a keyword of
    ``ExpectedTool`` unless it is only a spec file's spelling); ``kind``, how a spec value is
    read and what the JSON Schema says of it; ``ignore``, whether an ``ignore`` entry takes
    it; ``rule``, the check of its value (``None``: any value, or read by the loader into
    another key's); ``summary``, the JSON Schema's description; ``docs`` and
    ``docs_default``, its row in docs/config.md's table of an expected tool's keys;
    ``attribute``, the expectation's attribute that holds its value, written under its name
    in each check of ``--format json`` and ``ToolCheck.as_dict()`` (``None``: a spec file's
    spelling only, read into another key's).

    >>> [key.name for key in TOOL_KEYS if key.kind == "ids"]
    ['before', 'after']
    """

    __slots__ = _fields = (
        "name",
        "kind",
        "ignore",
        "rule",
        "summary",
        "docs",
        "docs_default",
        "attribute",
    )
    name: str
    kind: str
    ignore: bool
    rule: Rule | None
    summary: str
    docs: str
    docs_default: str
    attribute: str | None


TOOL_KEYS = (
    ToolKey(
        "name",
        "name",
        True,
        lambda value, caller, _given: check_name(value, caller),
        "a substring of the called tool's name, or a name matcher",
        "a non-empty string, matched as a **substring** of the called tool's name (`search` "
        "selects `web_search`), or a matcher mapping (below): `{$literal: search}` for exactly "
        "that name, `{regex: 'get_.*'}`, `{$one_of: [a, b]}`, `{$any: true}`",
        "required",
        "name",
    ),
    ToolKey(
        "args",
        "args",
        True,
        _args,
        "the expected arguments by name, each a value (a subset, unless exact)",
        "the expected arguments: a mapping from argument names, as the tool spells them, to "
        "values (below), asserted as a subset",
        "any arguments",
        "args",
    ),
    ToolKey(
        "exact",
        "flag",
        True,
        None,
        "true: no arguments beyond those in args",
        "`true`: the call has the arguments under `args` and no others (with no `args`: no "
        "arguments at all)",
        "`false`",
        None,
    ),
    ToolKey(
        "ignore_args",
        "key_patterns",
        True,
        None,
        "argument keys left out on both sides: dotted paths of globs",
        "a list of key patterns left out of the comparison on both sides (`Partial` / "
        "`Exact`'s `ignore=`): globs such as `'*_id'`, dotted paths such as `'trace.span_id'` "
        "for nested keys",
        "none",
        None,
    ),
    ToolKey(
        "count",
        "count",
        False,
        lambda value, caller, given: check_count(value, caller, given.get("max_count") is not None),
        "at least this many matching calls",
        "an int >= 0: at least this many matching calls (`0` only with `max_count`)",
        "`1`",
        "count",
    ),
    ToolKey(
        "max_count",
        "cap",
        True,
        lambda value, caller, given: check_max_count(value, caller, given.get("count", 1)),
        "at most this many; null: no limit",
        "an int >= `count`, or `null`: at most this many matching calls",
        "`null` (no limit)",
        "max_count",
    ),
    ToolKey(
        "never",
        "flag",
        False,
        None,
        "true: no call may match (with after / before: none after / before those ids' first)",
        "`true`: no call may match (cannot be combined with `count` or `max_count`); with "
        "`after` (`before`): no matching call after (before) the first call that matches each "
        "of those ([selection.md](selection.md#never-after-never-before))",
        "`false`",
        "is_never",
    ),
    ToolKey(
        "optional",
        "flag",
        False,
        lambda value, caller, given: check_optional(value, caller, given.get("count", 1)),
        "true: a step that may take no call; any call of it is at its place in the order",
        "`true`: a step that may be left out: it takes no call, and every call that matches it "
        "must be at its place in the order ([selection.md](selection.md#optional-steps-optional))"
        "; `max_count` caps it",
        "`false`",
        "optional",
    ),
    ToolKey(
        "result",
        "result",
        True,
        None,
        "what the tool's recorded result must match",
        "a value or matcher the call's recorded result must match (a call that records none: "
        "an error where the verdict turns on it)",
        "not checked",
        "result",
    ),
    ToolKey(
        "failed",
        "tristate",
        True,
        lambda value, caller, _given: check_failed(value, caller),
        "the call's recorded failed flag",
        "`true` or `false`: the call's recorded `failed` flag must be that (a call that records "
        "none: an error where the verdict turns on it); `null` for either",
        "either",
        "failed",
    ),
    ToolKey(
        "agent",
        "agent",
        True,
        lambda value, caller, _given: check_agent(value, caller),
        "who made the call: an agent's name (compared exactly) or a matcher",
        "who made the call ([selection.md](selection.md#whose-calls-agent)): an agent's name, "
        "compared exactly, or a matcher mapping (`{$regex: 'billing.*'}`); a call whose agent "
        "the trace does not record is an error where the verdict turns on it "
        "([selection.md](selection.md#fields-the-input-does-not-record))",
        "any agent",
        "agent",
    ),
    ToolKey(
        "status",
        "status",
        True,
        lambda value, caller, _given: check_status(value, caller),
        "how the call ended: a status name, a list of them, or a matcher",
        "how the call ended (`ToolCall.status`): `succeeded`, `failed`, `error`, `denied` or "
        "`pending`, a list of them (any of them), or a matcher mapping such as `{$regex: ...}`; "
        "a call whose trace records no status is an error where the verdict turns on it "
        '(docs/formats.md, "Call status")',
        "any status",
        "status",
    ),
    ToolKey(
        "id",
        "id",
        False,
        lambda value, caller, _given: check_id(value, caller),
        "names this expectation for before/after",
        "a non-empty string naming this expectation for `before` / `after`, unique in its turn",
        "none",
        "id",
    ),
    ToolKey(
        "before",
        "ids",
        False,
        lambda value, caller, _given: check_ids(value, caller, "before"),
        "ids of the expectations this one comes before",
        "a list of ids: this expectation comes before each of those: every call they take "
        "comes after every call it takes, and no call that matches them comes before the first "
        "call that matches it ([selection.md](selection.md#what-an-order-means))",
        "`[]`",
        "before",
    ),
    ToolKey(
        "after",
        "ids",
        False,
        lambda value, caller, _given: check_ids(value, caller, "after"),
        "ids of the expectations this one comes after",
        "a list of ids: this expectation comes after each of those, as `before` says from "
        "their side",
        "`[]`",
        "after",
    ),
    ToolKey(
        "first",
        "flag",
        False,
        lambda value, caller, _given: check_flag(value, caller, "first"),
        "true: the first of the turn's calls this name selects matches",
        "`true`: the first of the turn's calls whose name this selects must match it "
        "([selection.md](selection.md#first-and-last-first-last))",
        "`false`",
        "first",
    ),
    ToolKey(
        "last",
        "flag",
        False,
        lambda value, caller, _given: check_flag(value, caller, "last"),
        "true: the last of the turn's calls this name selects matches",
        "`true`: the last of the turn's calls whose name this selects must match it",
        "`false`",
        "last",
    ),
)
"""Every key of an expected tool, in the order the spec keys, the checks and the docs list
them."""

NOT_WITH_NEVER = ("id", "optional", "first", "last")
"""The keys a ``never`` refuses: it takes no call, so it has no id and no place of its own
(its ``after`` / ``before`` say where no matching call may be)."""


def tool_key_names(*, ignore: bool = False, kinds: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The keys' names, in order: those an ``ignore`` entry takes when ``ignore``, those of
    ``kinds`` when given."""
    return tuple(
        key.name
        for key in TOOL_KEYS
        if (key.ignore or not ignore) and (not kinds or key.kind in kinds)
    )


def check_tool_keys(
    given: dict[str, Any], caller: Caller, refused: Callable[[str, str], None] | None = None
) -> dict[str, Any]:
    """The values in ``given`` checked by their keys' rules, in the table's order (a rule
    sees the values checked before it). A refusal raises, or with ``refused``, is told to it
    as its place and its words (the spec loader's problems) and leaves the key out."""
    for key in TOOL_KEYS:
        if key.rule is None or key.name not in given:
            continue
        try:
            given[key.name] = key.rule(given[key.name], caller, given)
        except (TypeError, ValueError) as error:
            if refused is None:
                raise
            refused(caller.name(key.name), caller.words(key.name, error))
            del given[key.name]
    return given
