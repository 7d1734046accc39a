"""The rules a value of an expected tool or a turn must follow, each a small function
written once, that takes its caller: ``ExpectedTool(count=...)`` and a spec file's
``test_cases[0].expected_tools[1].count`` are refused in the same words.

A rule raises ``TypeError`` or ``ValueError`` whose text is the value's name as its caller
says it, then the words: ``ExpectedTool count must be >= 0, got -1``, or, for the spec
loader, its place and the same words (the loader reports the words at the place). Only
what the two languages spell differently is spelled by the caller (``None`` / ``null``,
``max_count=N`` / ``max_count: N``, a matcher / a matcher mapping).
"""

from __future__ import annotations

from toolmatch._calls.call import FAILED_OF_STATUS, STATUSES
from toolmatch._core.describe import join_path, short_repr, type_name
from toolmatch._core.flags import check_flag
from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.captures import Capture, Ref
from toolmatch._matchers.walk import matchers_in

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "KEYWORDS",
    "STATUS_NAMES",
    "Caller",
    "check_agent",
    "check_budget",
    "check_count",
    "check_failed",
    "check_failed_status",
    "check_no_carried",
    "check_id",
    "check_ids",
    "check_max_count",
    "check_name",
    "check_optional",
    "check_status",
    "list_of",
]

STATUS_NAMES = ", ".join(map(repr, STATUSES))


class Caller(Record):
    """Who checks a value: ``owner``, the name its keys are named after (``"ExpectedTool"``,
    ``""`` for a function's own keywords, or a spec file's place such as
    ``test_cases[0].expected_tools[1]``), and ``in_spec``, whether the words are a spec
    file's (``null``, ``true``, matcher mappings) or Python's.

    >>> Caller("ExpectedTool", False).name("count"), Caller("tools[0]", True).name("count")
    ('ExpectedTool count', 'tools[0].count')
    """

    __slots__ = _fields = ("owner", "in_spec")
    owner: str
    in_spec: bool

    def name(self, key: str) -> str:
        """``key`` as the caller names it: the start of every refusal of its value (``""``:
        the owner's own value, such as a spec file's bare tool name)."""
        if not key:
            return self.owner
        if self.in_spec:
            return join_path(self.owner, key)
        return f"{self.owner} {key}" if self.owner else key

    def says(self, python: str, spec: str) -> str:
        """What the caller's language calls a thing both have."""
        return spec if self.in_spec else python

    def words(self, key: str, error: Exception) -> str:
        """A refusal of ``key`` without its name: what the spec loader says at its place."""
        return str(error).removeprefix(f"{self.name(key)} ")


KEYWORDS = Caller("", in_spec=False)
"""The caller of a public function's own keyword arguments (``max_calls=...``)."""


def list_of(
    value: object, kinds: tuple[type, ...], where: str, listed: str, each: str
) -> list[Any]:
    """``value``, a list or tuple of ``kinds`` (``listed`` and ``each`` name them in a refusal,
    ``where`` names ``value``), as a list.

    >>> list_of([1, "2"], (int,), "counts", "ints", "an int")
    Traceback (most recent call last):
    TypeError: counts[1] must be an int, got '2' (str)
    """
    if isinstance(value, kinds) or not isinstance(value, (list, tuple)):
        raise TypeError(
            f"{where} must be a list of {listed}, got {short_repr(value)} ({type_name(value)})"
        )
    for number, item in enumerate(value):
        if not isinstance(item, kinds):
            raise TypeError(
                f"{where}[{number}] must be {each}, got {short_repr(item)} ({type_name(item)})"
            )
    return list(value)


def _refuse_type(caller: Caller, key: str, words: str, value: object) -> TypeError:
    return TypeError(f"{caller.name(key)} {words}, got {short_repr(value)} ({type_name(value)})")


def _natural(value: object, caller: Caller, key: str, kind: str) -> int:
    """``value``, an int >= 0 (``kind``, the words of its type, such as ``an int >= 0``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _refuse_type(caller, key, f"must be {kind}", value)
    if value < 0:
        raise ValueError(f"{caller.name(key)} must be >= 0, got {short_repr(value)}")
    return value


def check_count(value: object, caller: Caller, capped: bool) -> int:
    """An expected tool's ``count``: an int >= 0, and 0 only with a cap (``capped``).

    >>> check_count(0, Caller("tools[0]", True), False)
    Traceback (most recent call last):
    ValueError: tools[0].count must be >= 1 without max_count, got 0; to assert that no call matches, write never: true (count: 0 with max_count: N allows at most N)
    """  # noqa: E501
    count = _natural(value, caller, "count", "an int >= 0")
    if count == 0 and not capped:
        raise ValueError(
            f"{caller.name('count')} must be >= 1 without max_count, got 0; to assert that no "
            f"call matches, write {caller.says('ExpectedTool.never(name, args)', 'never: true')} "
            f"({caller.says('count=0', 'count: 0')} with "
            f"{caller.says('max_count=N', 'max_count: N')} allows at most N)"
        )
    return count


def check_max_count(value: object, caller: Caller, count: int) -> int | None:
    """An expected tool's ``max_count``: ``None`` (no limit) or an int >= its ``count``."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        none = caller.says("None", "null")
        raise _refuse_type(caller, "max_count", f"must be an int >= count or {none}", value)
    if value < count:
        raise ValueError(
            f"{caller.name('max_count')} must be >= count ({short_repr(count)}), got "
            f"{short_repr(value)}"
        )
    return value


def check_budget(value: object, caller: Caller, key: str = "max_calls") -> int | None:
    """A turn's or a case's ``max_calls``: ``None`` (no limit) or an int >= 0.

    >>> check_budget(-1, Caller("", False))
    Traceback (most recent call last):
    ValueError: max_calls must be >= 0, got -1
    """
    if value is None:
        return None
    return _natural(value, caller, key, f"an int >= 0 or {caller.says('None', 'null')}")


def check_name(value: object, caller: Caller, key: str = "name") -> str | Matcher:
    """A tool name: a non-empty string, matched as a substring, or a name matcher."""
    if isinstance(value, Matcher):
        return value
    if not isinstance(value, str):
        words = (
            f"must be a {caller.says('str', 'string')} (matched as a substring of the called "
            f"tool's name) or a {caller.says('matcher', 'matcher mapping')} such as "
            f"{caller.says('Regex(' + repr('get_.*') + ')', '{$literal: search}')}"
        )
        raise _refuse_type(caller, key, words, value)
    if not value:
        raise ValueError(
            f"{caller.name(key)} must not be empty: '' is in every tool name; write "
            f"{caller.says('ExpectedTool(ANY)', 'name: {$any: true}')} to select any tool"
        )
    return value


def check_agent(value: object, caller: Caller) -> str | Matcher | None:
    """An agent, of a call or of a turn: a name (compared exactly), a matcher, or ``None``
    (any agent; a spec file leaves the key out instead).

    >>> check_agent("", Caller("", False))
    Traceback (most recent call last):
    ValueError: agent must be an agent's name (a non-empty str, compared exactly), a matcher such as Regex('billing.*'), or None (any agent), got '' (str)
    """  # noqa: E501
    if (value is None and not caller.in_spec) or isinstance(value, Matcher):
        return value
    if isinstance(value, str) and value:
        return value
    words = caller.says(
        "must be an agent's name (a non-empty str, compared exactly), a matcher such as "
        "Regex('billing.*'), or None (any agent)",
        "must be an agent's name (a non-empty string, compared exactly) or a matcher mapping "
        "such as {$regex: 'billing.*'}",
    )
    refused = _refuse_type(caller, "agent", words, value)
    raise ValueError(str(refused)) if isinstance(value, str) else refused


# What a turn's or a case's own value is, that no capture or reference may be in.
_NO_CALL_S = {"answer": "the final answer", "agent": "the turn's agent"}


def check_no_carried(value: object, caller: Caller, key: str) -> object:
    """``value``, a turn's or a case's ``answer`` or ``agent``, refused when it holds a
    :class:`Capture` or a :class:`Ref`: those take a value of the call their expected tool is
    paired with, and the answer or the agent is no call's (one there could match nothing).

    >>> from toolmatch import Contains, Ref
    >>> check_no_carried(Contains(Ref("id")), Caller("", False), "answer")
    Traceback (most recent call last):
    ValueError: answer holds Ref('id'): a capture or a reference is a value of the call its expected tool is paired with, and the final answer is no call's; carry the value in an expected tool's args, result or agent
    """  # noqa: E501
    for matcher in matchers_in(value):
        if isinstance(matcher, (Capture, Ref)):
            kind = "capture" if isinstance(matcher, Capture) else "ref"
            shown = caller.says(repr(matcher), f"{{${kind}: {matcher.name}}}")
            raise ValueError(
                f"{caller.name(key)} holds {shown}: a capture or a reference is a value of the "
                f"call its expected tool is paired with, and {_NO_CALL_S[key]} is no call's; "
                "carry the value in an expected tool's args, result or agent"
            )
    return value


def check_failed(value: object, caller: Caller) -> bool | None:
    """A call's ``failed`` flag as expected: ``True``, ``False``, or ``None`` (either)."""
    if value is not None and not isinstance(value, bool):
        either = caller.says("True, False or None", "true, false or null")
        raise _refuse_type(caller, "failed", f"must be {either} (either)", value)
    return value


def check_status(value: object, caller: Caller) -> str | tuple[str, ...] | Matcher | None:
    """How an expected call ended: a status name, names (kept in ``STATUSES`` order, so the
    repr is stable) or a matcher."""
    if value is None or isinstance(value, Matcher):
        return value
    if isinstance(value, str):
        names: tuple[object, ...] = (value,)
    elif isinstance(value, (list, tuple, set, frozenset)) and value:
        names = tuple(value)
    else:
        kinds = caller.says(
            "a non-empty list or set of them, a matcher, or None",
            "a non-empty list of them or a matcher mapping",
        )
        raise _refuse_type(
            caller, "status", f"must be a status name ({STATUS_NAMES}), {kinds}", value
        )
    _check_status_names(names, caller)
    if isinstance(value, str):
        return value
    return tuple(name for name in STATUSES if name in names)


def _check_status_names(names: tuple[object, ...], caller: Caller) -> None:
    """Refuse the first of ``names`` that is not a status."""
    for name in names:
        if not isinstance(name, str) or name not in FAILED_OF_STATUS:
            raise ValueError(
                f"{caller.name('status')} {short_repr(name)} is not a status; accepted: "
                f"{STATUS_NAMES}"
            )


def check_failed_status(
    failed: bool | None, status: str | tuple[str, ...] | Matcher | None, given: object, owner: str
) -> None:
    """Refuses a ``failed`` flag and status names (both checked; ``given``, the status as
    given, is how the refusal shows it) that no call can meet."""
    if failed is None or status is None or isinstance(status, Matcher):
        return
    names = (status,) if isinstance(status, str) else status
    if all(FAILED_OF_STATUS[name] is not failed for name in names):
        raise ValueError(
            f"{owner} failed={failed} and status={short_repr(given)} can never both hold: "
            "failed is True for 'failed' and 'error', False for 'succeeded', None for "
            "'denied' and 'pending'"
        )


def check_id(value: object, caller: Caller) -> str | None:
    """An expectation's ``id``: a non-empty string naming it in its turn, or ``None``."""
    if value is not None and (not isinstance(value, str) or not value):
        none = caller.says("None", "null")
        words = f"must be a non-empty string naming this expectation or {none}"
        raise _refuse_type(caller, "id", words, value)
    return value


def check_ids(value: object, caller: Caller, key: str) -> tuple[str, ...]:
    """``before`` or ``after`` (``key``): the ids of other expectations in the turn."""
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        such = caller.says(f"{key}=['check_balance']", f"{key}: [check_balance]")
        words = f"must be a list of ids of other expectations in the turn, such as {such}"
        raise _refuse_type(caller, key, words, value)
    for item in value:
        if not isinstance(item, str) or not item:
            raise _refuse_type(caller, key, "must hold ids (non-empty strings)", item)
    return tuple(value)


def check_optional(value: object, caller: Caller, count: object) -> bool:
    """An expected tool's ``optional``: a flag; an optional step takes no ``count``.

    >>> check_optional(True, Caller("tools[0]", True), 2)
    Traceback (most recent call last):
    ValueError: tools[0].optional takes no count: an optional step may take no call; leave out count (max_count: N caps its calls)
    """  # noqa: E501
    optional = check_flag(value, caller.name("optional"), caller.in_spec)
    if optional and count != 1:
        raise ValueError(
            f"{caller.name('optional')} takes no count: an optional step may take no call; "
            f"leave out count ({caller.says('max_count=N', 'max_count: N')} caps its calls)"
        )
    return optional
