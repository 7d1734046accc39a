"""``ExpectedTool``: one expected tool call in a turn (a name, its args, a result, a count),
checked when made, and the matcher that judges a turn's calls against it alone."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

from toolmatch._calls.call import ToolCall
from toolmatch._core.describe import join_path, short_repr, shortened_list
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch
from toolmatch._matchers.canonical import literal_args_key
from toolmatch._matchers.explain import explain
from toolmatch._matchers.literal import as_matcher
from toolmatch._matchers.mappings import Partial
from toolmatch._matchers.values import ANY
from toolmatch._readers.to_calls import to_calls
from toolmatch._selection.expectation_protocol import NO_RESULT
from toolmatch._selection.matching import Selection
from toolmatch._selection.results import ToolCheck, expectation_json
from toolmatch._selection.tool_keys import check_tool_keys
from toolmatch._selection.turn import TurnPlan
from toolmatch._selection.unrecorded import RECORDED
from toolmatch._selection.validation import Caller, check_failed_status

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs

__all__ = ["AGENT_MISMATCH", "STATUS_MISMATCH", "ExpectedItem", "ExpectedTool"]

_RESULT = "(result)"  # a mismatch path that no argument name can take
_FAILED = "(failed)"
AGENT_MISMATCH = "(agent)"
STATUS_MISMATCH = "(status)"
_CALLER = Caller("ExpectedTool", in_spec=False)


def _args_matcher(args: object) -> Matcher | None:
    """The matcher of ``args`` (checked): a dict is a subset of the arguments."""
    if args is None or isinstance(args, Matcher):
        return args
    return Partial(dict(args))  # type: ignore[call-overload]


def _with_agent(
    check: Callable[[ToolCall], bool] | None, agent: Matcher | None
) -> Callable[[ToolCall], bool] | None:
    """``check`` with the call's agent asked first, when one is asserted."""
    if agent is None:
        return check
    agent_matches = agent.__eq__
    if check is None:
        return lambda call: agent_matches(call.agent)
    return lambda call: agent_matches(call.agent) and check(call)


def _status_check(
    status: str | tuple[str, ...] | Matcher | None,
) -> Callable[[object], bool] | None:
    """Whether a call's status is one ``status`` accepts (``None``: any)."""
    if status is None:
        return None
    if isinstance(status, str):
        return lambda found: found == status  # not str.__eq__: NotImplemented is truthy
    if isinstance(status, tuple):
        return frozenset(status).__contains__
    return status.__eq__


def _call_check(
    result: Matcher | None, failed: bool | None, status: Callable[[object], bool] | None
) -> Callable[[ToolCall], bool] | None:
    """What a call must be beyond its name and arguments, as one check; ``None`` for nothing."""
    if result is None and failed is None:
        if status is None:
            return None
        return lambda call: status(call.status)
    if status is not None:
        outcome = _call_check(result, failed, None)
        assert outcome is not None
        return lambda call: status(call.status) and outcome(call)
    if result is None:
        return lambda call: call.failed is failed
    if failed is None:
        return lambda call: call.result is not None and result == call.result
    return lambda call: call.failed is failed and call.result is not None and result == call.result


def _set_order(
    tool: ExpectedTool, id: str | None, later: tuple[str, ...], earlier: tuple[str, ...]
) -> None:
    """Keep the expectation's id and its order constraints (each checked), refused where they
    cannot hold together (docs/selection.md)."""
    if (earlier or later) and tool.count == 0 and not tool.optional and not tool.is_never:
        raise ValueError(
            "ExpectedTool with count=0 may take no call, so before and after mean nothing "
            "on it: give count >= 1, write optional=True for a step that may be left out, or "
            "put the constraint on the other expectation"
        )
    for key, ids in (("before", later), ("after", earlier)):
        if id is not None and id in ids:
            raise ValueError(f"ExpectedTool {key} names its own id {id!r}")
    set_ = object.__setattr__
    set_(tool, "id", id)
    set_(tool, "before", later)
    set_(tool, "after", earlier)
    set_(tool, "_repr", None)
    set_(tool, "_json", None)
    set_(tool, "_carried", None)  # its captures and references: captures._carried


def _under_result(path: str) -> str:
    """A mismatch path inside the recorded result, below the ``(result)`` path."""
    if not path:
        return _RESULT
    return f"{_RESULT}{path}" if path.startswith("[") else f"{_RESULT}.{path}"


@public
class ExpectedItem:
    """What a turn's expected list holds: an :class:`ExpectedTool`, an :class:`InOrder` or
    an :class:`AnyOrder`, whose common base it is. A list that mixes them is, to a type
    checker, a list of ``ExpectedItem``, which every function and class taking a turn's
    expectations accepts; no other object is an item (a turn refuses it, a bare
    ``ExpectedItem`` too).

    >>> from toolmatch import ExpectedTool, InOrder, check_turn
    >>> steps = [ExpectedTool("login"), InOrder(ExpectedTool("get"), ExpectedTool("put"))]
    >>> all(isinstance(step, ExpectedItem) for step in steps)
    True
    >>> check_turn(steps, [{"name": "get"}, {"name": "put"}, {"name": "login"}]).passed
    True
    """

    __slots__ = ()


@public
class ExpectedTool(Matcher, ExpectedItem):
    """An expected tool call in a turn: a tool ``name``, its ``args``, how many calls.

    A ``str`` name selects calls whose name contains it, case-sensitively; a matcher
    (``Regex``, ``Literal``...) selects names it matches. ``args`` as a dict asserts
    those keys only (``Partial``); a matcher such as ``Exact({...})`` judges the whole
    args dict; ``None`` asserts the name only. ``result`` (a matcher, or a plain value
    compared with Literal rules) must match the tool's recorded result; ``failed=True`` or
    ``False`` asks the call's ``failed`` flag to be that; ``status`` (a name such as
    ``"succeeded"`` or ``"denied"``, a list of names, or a matcher) asks how the call
    ended (``ToolCall.status``). At least ``count`` and at most
    ``max_count`` calls must match; ``count=0`` with a ``max_count`` is a pure cap ("at
    most 2"). ``agent`` (a name, compared exactly, or a matcher; ``None``: any agent) must
    match who made the call, as the trace records it (:attr:`ToolCall.agent`). ``id`` names
    it in its turn, and ``before`` / ``after`` list the ids of the expectations whose calls
    must all come after / before its own (a partial order, with the groups
    :class:`InOrder` and :class:`AnyOrder`). It is a matcher over a turn's calls, so it can
    sit on either side of ``==``. Where a call that could match does not record a field it
    asserts (``failed`` of a call with no failure flag, say) and the verdict turns on it,
    judging raises :class:`NotRecordedError`.

    >>> from toolmatch import Fuzzy
    >>> calls = [{"name": "web_search", "args": {"q": "Paris ", "limit": 5}}]
    >>> calls == ExpectedTool("search", {"q": Fuzzy("paris")})
    True
    >>> ExpectedTool("search", {"q": "rome"}).check(calls).unmatched_reason
    "call 0: q: expected 'rome', got 'Paris '"
    >>> from toolmatch import Regex, ToolCall
    >>> done = [ToolCall("cancel", {"id": "ZZZ999"}, result="Error: no such booking")]
    >>> ExpectedTool("cancel", result=Regex("Error.*")) == done
    True
    >>> ExpectedTool("cancel", failed=False).check(done)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    toolmatch.NotRecordedError: ExpectedTool('cancel', failed=False) asserts whether call 0 ...
    >>> handed = [ToolCall("refund", {"order": 7}, agent="triage")]
    >>> ExpectedTool("refund", agent="billing").check(handed).unmatched_reason
    "call 0: (agent): expected 'billing', got 'triage'"
    >>> from toolmatch import check_turn
    >>> steps = [ExpectedTool("check", id="check"), ExpectedTool("pay", after=["check"])]
    >>> check_turn(steps, [{"name": "pay"}, {"name": "check"}]).checks[1].unmatched_reason
    'pay (call 0) comes before check (call 1); it must come after'
    >>> denied = [ToolCall("refund", {"order": 7}, status="denied")]
    >>> ExpectedTool("refund", status="succeeded").check(denied).unmatched_reason
    "call 0: (status): expected 'succeeded', got 'denied'"

    """

    __slots__ = (
        "name",
        "args",
        "count",
        "max_count",
        "result",
        "failed",
        "agent",
        "id",
        "before",
        "after",
        "status",
        "optional",
        "first",
        "last",
        "_selects",
        "_args_matcher",
        "_args_check",
        "_result_matcher",
        "_agent_matcher",
        "_call_check",
        "_asserted",
        "_literal_key",
        "_arg_paths",
        "_alone",
        "_requirement",
        "_repr",
        "_json",
        "_carried",
    )
    name: str | Matcher
    args: Mapping[str, Any] | Matcher | None
    count: int
    max_count: int | None
    result: object
    failed: bool | None
    agent: str | Matcher | None
    id: str | None
    before: tuple[str, ...]
    after: tuple[str, ...]
    status: str | tuple[str, ...] | Matcher | None
    optional: bool
    first: bool
    last: bool
    _selects: Callable[[str], bool]
    _args_matcher: Matcher | None
    _args_check: Callable[[object], bool] | None
    _result_matcher: Matcher | None
    _agent_matcher: Matcher | None
    _call_check: Callable[[ToolCall], bool] | None
    _asserted: tuple[tuple[str, Callable[[ToolCall], bool], Callable[[ToolCall], bool]], ...]
    _literal_key: tuple[tuple[str, ...], tuple[Hashable, ...]] | None
    _arg_paths: tuple[tuple[str, tuple[str, str]], ...]
    _alone: TurnPlan
    _requirement: str
    _repr: str | None
    _json: dict[str, Any] | None
    _carried: tuple[list[str], list[str], list[Any]] | None

    def __init__(
        self,
        name: str | Matcher,
        args: Mapping[str, Any] | Matcher | None = None,
        *,
        count: int = 1,
        max_count: int | None = None,
        result: object = None,
        failed: bool | None = None,
        agent: str | Matcher | None = None,
        id: str | None = None,
        before: Sequence[str] = (),
        after: Sequence[str] = (),
        status: str | Sequence[str] | set[str] | Matcher | None = None,
        optional: bool = False,
        first: bool = False,
        last: bool = False,
    ) -> None:
        given = check_tool_keys(dict(locals()), _CALLER)
        if given["optional"]:
            given["count"] = 0
        self._setup(given, status)

    @classmethod
    def never(
        cls,
        name: str | Matcher,
        args: Mapping[str, Any] | Matcher | None = None,
        *,
        result: object = None,
        failed: bool | None = None,
        agent: str | Matcher | None = None,
        status: str | Sequence[str] | set[str] | Matcher | None = None,
        after: Sequence[str] = (),
        before: Sequence[str] = (),
    ) -> ExpectedTool:
        """An expectation that no call in the turn matches ``name``, ``args``, ``result``,
        ``failed``, ``agent`` and ``status``; with ``after`` (``before``), the ids of other
        expectations in its turn, no such call after (before) the first call that matches
        each of those.

        >>> ExpectedTool.never("delete").check([{"name": "delete_file"}]).unmatched_reason
        'expected no matching call, got 1'
        >>> from toolmatch import check_turn
        >>> turn = [ExpectedTool("cancel", id="cancel"), ExpectedTool.never("refund", after=["cancel"])]
        >>> check_turn(turn, [{"name": "cancel"}, {"name": "refund"}]).checks[1].unmatched_reason
        'expected no matching call after cancel (call 0), got 1: call 1 refund({})'
        """  # noqa: E501
        tool = cls.__new__(cls)
        given = check_tool_keys(dict(locals()), _CALLER)
        tool._setup(
            dict(given, count=0, max_count=0, optional=False, first=False, last=False, id=None),
            status,
        )
        return tool

    def _setup(self, given: dict[str, Any], status_given: object) -> None:
        """Keep the checked keys in ``given`` and what judging needs of them (``status_given``:
        the status as given, for a refusal to show)."""
        name, args, result, failed, agent, status = map(
            given.__getitem__, ("name", "args", "result", "failed", "agent", "status")
        )
        check_failed_status(failed, status, status_given, "ExpectedTool")
        agent_matcher = None if agent is None else as_matcher(agent)
        matcher = _args_matcher(args)
        result_matcher = None if result is None else as_matcher(result)
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "args", dict(args) if isinstance(args, Mapping) else args)
        set_(self, "count", given["count"])
        set_(self, "max_count", given["max_count"])
        set_(self, "result", result)
        set_(self, "failed", failed)
        set_(self, "agent", agent)
        set_(self, "status", status)
        set_(self, "optional", given["optional"])
        set_(self, "first", given["first"])
        set_(self, "last", given["last"])
        if isinstance(name, str):
            set_(self, "_selects", lambda tool: name in tool)
        else:
            set_(self, "_selects", name.__eq__)
        set_(self, "_args_matcher", matcher)
        set_(self, "_args_check", None if matcher is None else matcher.__eq__)
        set_(self, "_result_matcher", result_matcher)
        set_(self, "_agent_matcher", agent_matcher)
        status_check = _status_check(status)
        outcome = _call_check(result_matcher, failed, status_check)
        set_(self, "_call_check", _with_agent(outcome, agent_matcher))
        # Each field asserted, whether a call records it, and whether it matches (agent=ANY
        # and status=ANY accept any call, an unrecorded one too: they assert nothing).
        asserted: list[tuple[str, Callable[[ToolCall], bool]]] = []
        if agent_matcher is not None and agent is not ANY:
            asserted.append(("agent", lambda call: agent_matcher == call.agent))
        if status_check is not None and status is not ANY:
            asserted.append(("status", lambda call: status_check(call.status)))
        if failed is not None:
            asserted.append(("failed", lambda call: call.failed is failed))
        if result_matcher is not None:
            asserted.append(("result", lambda call: result_matcher == call.result))
        set_(self, "_asserted", tuple((field, RECORDED[field], check) for field, check in asserted))
        # Only arguments are looked up by key; a result, failed flag, agent or status is
        # checked call by call.
        literal = (
            isinstance(args, Mapping)
            and not isinstance(args, Matcher)
            and result_matcher is None
            and failed is None
            and agent is None
            and status is None
        )
        _set_order(self, given["id"], given["before"], given["after"])
        set_(self, "_literal_key", literal_args_key(args) if literal else None)
        # For scores: each asserted argument's mismatch path, and the prefixes below it.
        tops = [join_path("", key) for key in args] if isinstance(args, Mapping) else []
        set_(self, "_arg_paths", tuple((top, (f"{top}.", f"{top}[")) for top in tops))
        # Alone, one expectation is looked up faster pair by pair than through the index.
        set_(self, "_alone", TurnPlan(Selection([self], use_index=False)))
        # Said in every result of this expectation: worded once.
        set_(self, "_requirement", self._requirement_text())

    @property
    def is_never(self) -> bool:
        """Whether this expectation asserts that no call matches (made by :meth:`never`)."""
        return self.max_count == 0

    def _constructor_args(self) -> ConstructorArgs:
        args: tuple[object, ...] = (self.name,) if self.args is None else (self.name, self.args)
        options: dict[str, object] = {}
        if self.optional:
            options["optional"] = True
        elif self.count != 1:
            options["count"] = self.count
        if self.max_count is not None:
            options["max_count"] = self.max_count
        return args, {**options, **self._call_options()}

    def _call_options(self) -> dict[str, object]:
        status = list(self.status) if isinstance(self.status, tuple) else self.status
        options = {
            "result": self.result,
            "failed": self.failed,
            "agent": self.agent,
            "id": self.id,
            "before": list(self.before) or None,
            "after": list(self.after) or None,
            "status": status,
            "first": self.first or None,
            "last": self.last or None,
        }
        return {key: value for key, value in options.items() if value is not None}

    def __repr__(self) -> str:
        # Made once: every result of this expectation shows it (toolmatch check --format
        # json prints it for each run), and an expectation does not change.
        if self._repr is None:
            if self.is_never:
                parts = (
                    [repr(self.name)] if self.args is None else [repr(self.name), repr(self.args)]
                )
                parts += [f"{key}={value!r}" for key, value in self._call_options().items()]
                shown = f"ExpectedTool.never({', '.join(parts)})"
            else:
                shown = super().__repr__()
            object.__setattr__(self, "_repr", shown)
            return shown
        return self._repr

    def _json_head(self) -> dict[str, Any]:
        # Made once, as the repr: every result of this expectation writes it as JSON.
        if self._json is None:
            object.__setattr__(self, "_json", expectation_json(self))
        assert self._json is not None
        return self._json

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self.is_never:
            rebuilt = (
                self.name,
                self.args,
                self.result,
                self.failed,
                self.agent,
                self.status,
                self.after,
                self.before,
            )
            return (type(self)._rebuild_never, rebuilt)
        return super().__reduce_ex__(protocol)

    @classmethod
    def _rebuild_never(
        cls,
        name: str | Matcher,
        args: Mapping[str, Any] | Matcher | None,
        result: object = None,
        failed: bool | None = None,
        agent: str | Matcher | None = None,
        status: str | Sequence[str] | Matcher | None = None,
        after: Sequence[str] = (),
        before: Sequence[str] = (),
    ) -> ExpectedTool:
        return cls.never(
            name,
            args,
            result=result,
            failed=failed,
            agent=agent,
            status=status,
            after=after,
            before=before,
        )

    def matches(self, actual: object) -> bool:
        if self._needs_turn():
            return False  # an order against other expectations: only a turn can judge it
        try:
            calls = to_calls(actual)
        except Exception:  # not calls at all (TypeError) or ambiguous ones (ValueError)
            return False
        return self._alone.judge(calls).passed

    def mismatches(self, actual: object, path: str = "") -> Any:
        try:
            check = self.check(actual)
        except Exception as error:
            yield Mismatch(path, str(error).partition("\n")[0])
            return
        if not check.passed:
            yield Mismatch(path, str(check.unmatched_reason))

    def describe_mismatch(self, actual: object) -> str:
        return "; ".join(str(mismatch) for mismatch in self.mismatches(actual)) or (
            f"expected {self!r}, got {short_repr(actual)}"
        )

    def check(self, calls: object) -> ToolCheck:
        """Judge one turn's calls (anything :func:`to_calls` reads) against this expectation.

        >>> check = ExpectedTool("search", count=2).check([{"name": "search"}, {"name": "fetch"}])
        >>> check.passed, check.matching_call_indices, check.unmatched_reason
        (False, (0,), 'expected 2 matching call(s), got 1')
        """
        if self.before or self.after:
            raise ValueError(
                f"{self!r} orders its calls against other expectations: judge it in a turn "
                "with them (check_turn, ExpectedTurn), not alone"
            )
        if self._needs_turn():
            raise ValueError(
                f"{self!r} asserts only its place in an order: judge it in an ordered turn or "
                "an InOrder (check_turn, ExpectedTurn), or give it max_count"
            )
        return self._alone.judge(to_calls(calls)).check(0)

    def _needs_turn(self) -> bool:
        """Whether only a turn can judge it: an order against others, or an optional step
        without a cap (alone, it asserts nothing)."""
        return bool(self.before or self.after) or (self.optional and self.max_count is None)

    def _explain_call(self, call: ToolCall) -> tuple[Mismatch, ...]:
        """Why ``call``, of a selected name and judged not to match, does not match."""
        found: list[Mismatch] = []
        if self._args_matcher is not None:
            if call.parse_error is not None:
                found.append(Mismatch("", call.parse_error))
            else:
                # As explain() gives it: never empty for a mismatch, so the full reason. With
                # nothing asserted beyond the args, they are what did not match: no need to
                # compare them again first.
                found += self._args_matcher._found_mismatches(
                    call.args, "", self._call_check is None
                )
        if self._result_matcher is not None:
            if call.result is None:
                found.append(Mismatch(_RESULT, NO_RESULT))
            else:
                found += (
                    Mismatch(_under_result(mismatch.path), mismatch.reason)
                    for mismatch in explain(self._result_matcher, call.result)
                )
        if self.failed is not None and call.failed is not self.failed:
            if call.failed is not None:
                said = f"got {call.failed}"
            elif call.status is not None:  # denied or pending: it neither failed nor succeeded
                said = f"the call's status is {call.status!r}"
            else:
                said = "the trace does not say"
            found.append(Mismatch(_FAILED, f"expected {self.failed}, {said}"))
        if self._agent_matcher is not None and self._agent_matcher != call.agent:
            if call.agent is None:
                found.append(
                    Mismatch(AGENT_MISMATCH, f"expected {self.agent!r}, the trace does not say")
                )
            else:
                found += (
                    Mismatch(AGENT_MISMATCH, mismatch.reason)
                    for mismatch in explain(self._agent_matcher, call.agent)
                )
        if self.status is not None:
            found += self._explain_status(call.status)
        return tuple(found)

    def _explain_status(self, status: object) -> list[Mismatch]:
        expected = self.status
        if isinstance(expected, Matcher):
            return [Mismatch(STATUS_MISMATCH, m.reason) for m in explain(expected, status)]
        if status in ((expected,) if isinstance(expected, str) else expected):  # type: ignore[operator]
            return []
        if isinstance(expected, str) or len(expected) == 1:  # type: ignore[arg-type]
            wanted = repr(expected if isinstance(expected, str) else expected[0])  # type: ignore[index]
        else:
            wanted = f"one of {', '.join(map(repr, expected))}"  # type: ignore[arg-type]
        said = "the trace does not say" if status is None else f"got {status!r}"
        return [Mismatch(STATUS_MISMATCH, f"expected {wanted}, {said}")]

    def _unrecorded(self, call: ToolCall) -> str | None:
        """The first field this asserts that ``call`` (of a selected name, not matching)
        does not record, when that is all that keeps it from matching: its arguments and
        every asserted field it records match. ``None`` otherwise."""
        check = self._args_check
        if check is not None and (call.parse_error is not None or not check(call.args)):
            return None
        missing = None
        for field, recorded, matches in self._asserted:
            if not recorded(call):
                missing = missing or field
            elif not matches(call):
                return None
        return missing

    def _call_matches(self, call: ToolCall) -> bool:
        check, extra = self._args_check, self._call_check
        return (check is None or (call.parse_error is None and check(call.args))) and (
            extra is None or extra(call)
        )

    def _credit(self, mismatches: Sequence[Mismatch]) -> tuple[int, int]:
        """How many of its parts (each argument, the result, the failed flag) a call with
        these mismatches meets, and how many there are: for :attr:`ToolCheck.score`."""
        paths = [mismatch.path for mismatch in mismatches]
        args_paths = [
            path
            for path in paths
            if not path.startswith((_RESULT, _FAILED, AGENT_MISMATCH, STATUS_MISMATCH))
        ]
        met = parts = 0
        args = self.args
        if isinstance(args, dict):
            parts += len(args)
            if "" not in args_paths:  # "": the arguments could not be read at all
                for top, below in self._arg_paths:
                    met += not any(path == top or path.startswith(below) for path in args_paths)
        elif args is not None:
            parts += 1
            met += not args_paths
        asserted_parts = (
            (self._result_matcher, _RESULT),
            (self.failed, _FAILED),
            (self._agent_matcher, AGENT_MISMATCH),
            (self.status, STATUS_MISMATCH),
        )
        for asserted, path in asserted_parts:
            if asserted is not None:
                parts += 1
                met += not any(found.startswith(path) for found in paths)
        return met, parts

    def _requirement_text(self) -> str:
        count, most = self.count, self.max_count
        if most == 0:
            if self.after or self.before:
                return "no matching call " + ", ".join(
                    f"{key} {', '.join(ids)}"
                    for key, ids in (("after", self.after), ("before", self.before))
                    if ids
                )
            return "no matching call"
        if self.optional:
            if most is None:
                return "any number of matching calls, at its place"
            return f"at most {most} matching call{'s' if most > 1 else ''}, at its place"
        if most is None:
            return f"at least {count} matching call{'s' if count > 1 else ''}"
        if most == count:
            return f"exactly {count} matching call{'s' if count > 1 else ''}"
        if count == 0:
            return f"at most {most} matching call{'s' if most > 1 else ''}"
        return f"between {count} and {most} matching calls"

    def _no_candidate_text(self, calls: Sequence[ToolCall], left_out: str = "") -> str:
        """``left_out``: the calls of its name the turn left out, in words, if any."""
        verb = "contains" if isinstance(self.name, str) else "matches"
        text = f"no call's name {verb} {self.name!r}"
        if left_out:
            return f"{text} once ignored calls are left out: {left_out}"
        if not calls:
            return f"{text}: the turn has no calls"
        names = list(dict.fromkeys(call.name for call in calls))
        return f"{text}; the turn called {shortened_list(names, repr)}"
