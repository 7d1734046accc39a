"""Call selection (seed 000 sections 1, 5, 6): ``ExpectedTool``, ``check_turn``, ``check_turns``,
``assert_called``.

Each (expectation, call) pair is judged once per turn; the verdicts then feed the
per-expectation results and, when asked, the distinct or ordered assignment.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

from toolmatch._base import Matcher, Mismatch
from toolmatch._calls import ToolCall
from toolmatch._canonical import canonical_key, literal_args_key
from toolmatch._describe import short_repr, type_name
from toolmatch._explain import explain
from toolmatch._formats import to_calls
from toolmatch._mappings import Partial
from toolmatch._pairing import assign_distinct, assign_ordered
from toolmatch._results import Candidate, ToolCheck, TurnResult, closest_candidate

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from typing import Any

    from toolmatch._base import ConstructorArgs

__all__ = ["ExpectedTool", "assert_called", "check_turn", "check_turns"]

_MISSING: Any = object()
_SHOWN_CONFLICTS = 5
_SHOWN_NAMES = 8
_NAMES_REMEMBERED = 4096


def _validated_name(name: object) -> str | Matcher:
    if isinstance(name, Matcher):
        return name
    if not isinstance(name, str):
        raise TypeError(
            "ExpectedTool name must be a str (matched as a substring of the tool name) or a "
            f"matcher such as Regex('get_.*'), got {short_repr(name)} ({type_name(name)})"
        )
    if not name:
        raise ValueError(
            "ExpectedTool name must not be empty: '' is in every tool name; "
            "write ExpectedTool(ANY) to select any tool"
        )
    return name


def _args_matcher(args: object) -> Matcher | None:
    if args is None:
        return None
    if isinstance(args, Matcher):
        return args
    if isinstance(args, Mapping):
        return Partial(dict(args))
    raise TypeError(
        "ExpectedTool args must be a dict of expected arguments, a matcher such as "
        f"Exact({{...}}), or None, got {short_repr(args)} ({type_name(args)})"
    )


def _validated_counts(count: object, max_count: object) -> tuple[int, int | None]:
    if isinstance(count, bool) or not isinstance(count, int):
        raise TypeError(
            f"ExpectedTool count must be an int >= 1, got {short_repr(count)} ({type_name(count)})"
        )
    if count < 1:
        raise ValueError(
            f"ExpectedTool count must be >= 1, got {count}; "
            "use ExpectedTool.never(name, args) to assert that no call matches"
        )
    if max_count is None:
        return count, None
    if isinstance(max_count, bool) or not isinstance(max_count, int):
        raise TypeError(
            "ExpectedTool max_count must be an int >= count or None, got "
            f"{short_repr(max_count)} ({type_name(max_count)})"
        )
    if max_count < count:
        raise ValueError(f"ExpectedTool max_count ({max_count}) must be >= count ({count})")
    return count, max_count


def _rebuild_never(name: str | Matcher, args: Mapping[str, Any] | Matcher | None) -> ExpectedTool:
    return ExpectedTool.never(name, args)


class ExpectedTool(Matcher):
    """An expected tool call in a turn: a tool ``name``, its ``args``, how many calls (seed 000).

    A ``str`` name selects calls whose name contains it, case-sensitively; a matcher
    (``Regex``, ``Literal``...) selects names it matches. ``args`` as a dict asserts
    those keys only (``Partial``); a matcher such as ``Exact({...})`` judges the whole
    args dict; ``None`` asserts the name only. At least ``count`` and at most
    ``max_count`` calls must match. It is a matcher over a turn's calls, so it can
    sit on either side of ``==``.

    >>> from toolmatch import Fuzzy
    >>> calls = [{"name": "web_search", "args": {"q": "Paris ", "limit": 5}}]
    >>> calls == ExpectedTool("search", {"q": Fuzzy("paris")})
    True
    >>> ExpectedTool("search", {"q": "rome"}).check(calls).unmatched_reason
    "call 0: q: expected 'rome', got 'Paris '"
    """

    __slots__ = (
        "name",
        "args",
        "count",
        "max_count",
        "_selects",
        "_args_matcher",
        "_args_check",
        "_literal_key",
        "_alone",
        "_repr",
    )
    name: str | Matcher
    args: Mapping[str, Any] | Matcher | None
    count: int
    max_count: int | None
    _selects: Callable[[str], bool]
    _args_matcher: Matcher | None
    _args_check: Callable[[object], bool] | None
    _literal_key: tuple[tuple[str, ...], tuple[Hashable, ...]] | None
    _alone: _Selection
    _repr: str | None

    def __init__(
        self,
        name: str | Matcher,
        args: Mapping[str, Any] | Matcher | None = None,
        count: int = 1,
        max_count: int | None = None,
    ) -> None:
        count, max_count = _validated_counts(count, max_count)
        self._setup(name, args, count, max_count)

    @classmethod
    def never(
        cls, name: str | Matcher, args: Mapping[str, Any] | Matcher | None = None
    ) -> ExpectedTool:
        """An expectation that no call in the turn matches ``name`` and ``args``.

        >>> ExpectedTool.never("delete").check([{"name": "delete_file"}]).unmatched_reason
        'expected no matching call, got 1'
        """
        tool = cls.__new__(cls)
        tool._setup(name, args, 0, 0)
        return tool

    def _setup(self, name: object, args: object, count: int, max_count: int | None) -> None:
        name = _validated_name(name)
        matcher = _args_matcher(args)
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "args", dict(args) if isinstance(args, Mapping) else args)
        set_(self, "count", count)
        set_(self, "max_count", max_count)
        if isinstance(name, str):
            set_(self, "_selects", lambda tool: name in tool)
        else:
            set_(self, "_selects", name.__eq__)
        set_(self, "_args_matcher", matcher)
        set_(self, "_args_check", None if matcher is None else matcher.__eq__)
        literal = isinstance(args, Mapping) and not isinstance(args, Matcher)
        set_(self, "_literal_key", literal_args_key(args) if literal else None)
        set_(self, "_alone", _Selection([self]))
        set_(self, "_repr", None)

    @property
    def is_never(self) -> bool:
        """Whether this expectation asserts that no call matches (made by :meth:`never`)."""
        return self.max_count == 0

    def _constructor_args(self) -> ConstructorArgs:
        args: tuple[object, ...] = (self.name,) if self.args is None else (self.name, self.args)
        options: dict[str, object] = {}
        if self.count != 1:
            options["count"] = self.count
        if self.max_count is not None:
            options["max_count"] = self.max_count
        return args, options

    def __repr__(self) -> str:
        # Made once: every result of this expectation shows it (toolmatch check --format
        # json prints it for each run), and an expectation does not change.
        if self._repr is None:
            if self.is_never:
                name, args = self.name, self.args
                arguments = repr(name) if args is None else f"{name!r}, {args!r}"
                shown = f"ExpectedTool.never({arguments})"
            else:
                shown = super().__repr__()
            object.__setattr__(self, "_repr", shown)
            return shown
        return self._repr

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self.is_never:
            return (_rebuild_never, (self.name, self.args))
        return super().__reduce_ex__(protocol)

    def matches(self, actual: object) -> bool:
        try:
            calls = to_calls(actual)
        except Exception:  # not calls at all (TypeError) or ambiguous ones (ValueError)
            return False
        _, matching = _match_turn(self._alone, calls, use_index=False)[0]
        return self._count_met(len(matching))

    def _count_met(self, found: int) -> bool:
        return found >= self.count and (self.max_count is None or found <= self.max_count)

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
        call_list = to_calls(calls)
        candidates, matching = _match_turn(self._alone, call_list, use_index=False)[0]
        return self._judge(call_list, candidates, matching)

    def _explain_call(self, call: ToolCall) -> tuple[Mismatch, ...]:
        """Why ``call`` (of a selected name) does not match; ``()`` when it does."""
        if self._args_matcher is None:
            return ()
        if call.parse_error is not None:
            return (Mismatch("", call.parse_error),)
        # explain() never answers an empty list for a mismatch, so this is the full reason.
        return tuple(explain(self._args_matcher, call.args))

    def _call_matches(self, call: ToolCall) -> bool:
        check = self._args_check
        return check is None or (call.parse_error is None and check(call.args))

    def _requirement_text(self) -> str:
        count, most = self.count, self.max_count
        if most == 0:
            return "no matching call"
        if most is None:
            return f"at least {count} matching call{'s' if count > 1 else ''}"
        if most == count:
            return f"exactly {count} matching call{'s' if count > 1 else ''}"
        return f"between {count} and {most} matching calls"

    def _no_candidate_text(self, calls: Sequence[ToolCall]) -> str:
        verb = "contains" if isinstance(self.name, str) else "matches"
        text = f"no call's name {verb} {self.name!r}"
        if not calls:
            return f"{text}: the turn has no calls"
        names = list(dict.fromkeys(call.name for call in calls))
        shown = ", ".join(repr(name) for name in names[:_SHOWN_NAMES])
        more = f" and {len(names) - _SHOWN_NAMES} more" if len(names) > _SHOWN_NAMES else ""
        return f"{text}; the turn called {shown}{more}"

    def _judge(
        self,
        calls: Sequence[ToolCall],
        candidate_indices: Sequence[int],
        matching: Sequence[int],
    ) -> ToolCheck:
        found = len(matching)
        candidates: tuple[Candidate, ...] | None = None
        reason: str | None
        if self._count_met(found):
            reason = None
        elif self.max_count is not None and found > self.max_count:
            if self.max_count == 0:
                reason = f"expected no matching call, got {found}"
            else:
                reason = f"expected at most {self.max_count} matching call(s), got {found}"
        elif not candidate_indices:
            reason = (
                f"expected {self.count} matching call(s), got 0: {self._no_candidate_text(calls)}"
            )
        elif found == 0:
            candidates = tuple(
                Candidate(index, calls[index], self._explain_call(calls[index]))
                for index in candidate_indices
            )
            reason = _closest_reason(candidates)
        else:
            reason = f"expected {self.count} matching call(s), got {found}"
        return ToolCheck(self, calls, candidate_indices, matching, reason, candidates=candidates)


def _closest_reason(candidates: Sequence[Candidate]) -> str:
    closest = closest_candidate(candidates)
    if closest.call.parse_error is None:
        for mismatch in closest.mismatches:
            # A top-level key: the path is the bare name (seed 000 section 5's wording).
            if mismatch.reason == "missing" and mismatch.path.isidentifier():
                return f"arg '{mismatch.path}' missing"
    reasons = "; ".join(str(mismatch) for mismatch in closest.mismatches)
    return f"call {closest.index}: {reasons}"


class _Selection:
    """Which of a turn's expectations select each tool name, worked out once per name.

    Tool names repeat from run to run, so a spec's turn keeps one of these for all the runs
    it judges: a call's candidates are then one dict lookup away. A name matcher is asked
    once per distinct name (matchers are pure). At most ``_NAMES_REMEMBERED`` names are
    kept, so memory stays flat on a trace of ever-new names.
    """

    __slots__ = ("expectations", "demands", "_selects", "_known")

    def __init__(self, expectations: Sequence[ExpectedTool]) -> None:
        self.expectations = list(expectations)
        # The calls each expectation needs of its own when calls are distinct or ordered.
        self.demands = [0 if tool.is_never else tool.count for tool in self.expectations]
        self._selects = [expectation._selects for expectation in self.expectations]
        self._known: dict[str, tuple[int, ...]] = {}

    def selecting(self, name: str) -> tuple[int, ...]:
        """The numbers of the expectations that select ``name``, in order."""
        known = self._known.get(name)
        if known is None:
            known = tuple(number for number, selects in enumerate(self._selects) if selects(name))
            if len(self._known) >= _NAMES_REMEMBERED:
                self._known.clear()
            self._known[name] = known
        return known


def _match_turn(
    selection: _Selection, calls: Sequence[ToolCall], *, use_index: bool = True
) -> list[tuple[list[int], list[int]]]:
    """For each expectation: the calls whose name it selects, and those that also match."""
    expectations = selection.expectations
    candidates: list[list[int]] = [[] for _ in expectations]
    known = selection._known
    for index, call in enumerate(calls):
        numbers = known.get(call.name)
        if numbers is None:
            numbers = selection.selecting(call.name)
        for number in numbers:
            candidates[number].append(index)

    matching: list[list[int]] = []
    indexed: dict[tuple[str, ...], list[int]] = {}
    for number, expectation in enumerate(expectations):
        check = expectation._args_check
        selected = candidates[number]
        if check is None or not selected:
            matching.append(selected)
        elif use_index and expectation._literal_key is not None:
            matching.append([])
            indexed.setdefault(expectation._literal_key[0], []).append(number)
        else:
            found = []
            for index in selected:
                call = calls[index]
                if call.parse_error is None and check(call.args):
                    found.append(index)
            matching.append(found)
    for keys, members in indexed.items():
        _match_indexed(keys, members, selection, calls, matching)
    return list(zip(candidates, matching, strict=True))


def _match_indexed(
    keys: tuple[str, ...],
    members: list[int],
    selection: _Selection,
    calls: Sequence[ToolCall],
    matching: list[list[int]],
) -> None:
    """Match literal expectations asserting the same keys by looking each call's values up."""
    expectations = selection.expectations
    table: dict[tuple[Hashable, ...], list[int]] = {}
    for number in members:
        literal = expectations[number]._literal_key
        assert literal is not None
        table.setdefault(literal[1], []).append(number)
    # Which members select each name, as a set: K literal expectations over M calls of one
    # name then cost M lookups, not K x M comparisons.
    member_set = frozenset(members)
    takers_of_name: dict[str, frozenset[int]] = {}
    for index, call in enumerate(calls):
        takers = takers_of_name.get(call.name)
        if takers is None:
            takers = takers_of_name[call.name] = member_set.intersection(
                selection.selecting(call.name)
            )
        if not takers or call.parse_error is not None:
            continue
        values = []
        for key in keys:
            value = call.args.get(key, _MISSING)
            if value is _MISSING:
                break
            values.append(canonical_key(value))
        else:
            if None in values:
                # A value without a canonical key (an odd type): compare the slow way.
                found = [number for number in members if expectations[number]._call_matches(call)]
            else:
                found = table.get(tuple(values), [])
            for number in found:
                if number in takers:
                    matching[number].append(index)


def _expectation_list(expected: object, where: str = "expected") -> list[ExpectedTool]:
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


def check_turn(
    expected: Sequence[ExpectedTool],
    calls: object,
    *,
    distinct: bool = False,
    ordered: bool = False,
) -> TurnResult:
    """Judge one turn's calls against a list of expectations.

    By default each expectation is judged on its own, so one call may satisfy two
    (seed 000). With ``distinct=True`` each expectation needs calls of its own, found
    by an optimal assignment; with ``ordered=True`` the expectations must be met in
    their order by distinct calls (others may sit between).

    >>> from toolmatch import ExpectedTool
    >>> expected = [ExpectedTool("s", {"q": "x"}), ExpectedTool("s", {"q": "x", "lim": 5})]
    >>> calls = [{"name": "s", "args": {"q": "x", "lim": 5}}, {"name": "s", "args": {"q": "x"}}]
    >>> check_turn(expected, calls, distinct=True).passed
    True
    >>> check_turn(expected, calls, ordered=True).passed
    False
    """
    _check_flag("distinct", distinct)
    _check_flag("ordered", ordered)
    expectations = _expectation_list(expected)
    selection = _Selection(expectations)
    return _check_turn(selection, to_calls(calls), distinct=distinct, ordered=ordered)


def _check_turn(
    selection: _Selection,
    calls: list[ToolCall],
    *,
    distinct: bool,
    ordered: bool,
    turn: int | None = None,
    reason: str | None = None,
    use_index: bool = True,
) -> TurnResult:
    expectations = selection.expectations
    matched = _match_turn(selection, calls, use_index=use_index)
    checks = [
        expectation._judge(calls, candidates, matching)
        for expectation, (candidates, matching) in zip(expectations, matched, strict=True)
    ]
    if distinct or ordered:
        checks = _assign(selection, calls, matched, checks, ordered)
    return TurnResult(
        tuple(checks),
        len(calls),
        distinct=distinct or ordered,
        ordered=ordered,
        turn=turn,
        reason=reason,
    )


def _turn_passes(
    selection: _Selection, calls: list[ToolCall], *, distinct: bool, ordered: bool
) -> bool:
    """Whether :func:`_check_turn` would pass the turn, without building its results."""
    matched = _match_turn(selection, calls)
    matchings = []
    for expectation, (_, matching) in zip(selection.expectations, matched, strict=True):
        if not expectation._count_met(len(matching)):
            return False
        matchings.append(matching)
    if not (distinct or ordered):
        return True
    # Every expectation passes on its own here, so each demands what _assign gives it.
    demands = selection.demands
    assigned = (assign_ordered if ordered else assign_distinct)(demands, matchings)
    for got, demand in zip(assigned, demands, strict=True):
        if got is None or len(got) < demand:
            return False
    return True


def _assign(
    selection: _Selection,
    calls: list[ToolCall],
    matched: list[tuple[list[int], list[int]]],
    checks: list[ToolCheck],
    ordered: bool,
) -> list[ToolCheck]:
    """Re-judge each expectation on the calls it gets for itself."""
    # Expectations that fail anyway take no calls, so they cannot starve the others.
    expectations = selection.expectations
    demands = [
        demand if check.passed else 0
        for demand, check in zip(selection.demands, checks, strict=True)
    ]
    matchings = [matching for _, matching in matched]
    if ordered:
        assigned = assign_ordered(demands, matchings)
    else:
        assigned = list(assign_distinct(demands, matchings))
    owner = {call: number for number, got in enumerate(assigned) if got for call in got}
    result = []
    for number, (expectation, check) in enumerate(zip(expectations, checks, strict=True)):
        got = assigned[number] or []
        reason = check.unmatched_reason
        if reason is None and len(got) < demands[number]:
            if ordered:
                reason = _order_reason(number, expectation, matchings[number], assigned)
            else:
                reason = _distinct_reason(expectation, matchings[number], got, owner)
        candidates, matching = matched[number]
        result.append(
            ToolCheck(
                expectation,
                calls,
                candidates,
                matching,
                reason,
                assigned_call_indices=got,
                candidates=check._candidates,
            )
        )
    return result


def _distinct_reason(
    expectation: ExpectedTool, matching: list[int], got: list[int], owner: dict[int, int]
) -> str:
    taken = [call for call in matching if call not in set(got)]
    conflicts = [
        f"call {call} is needed by expectation {owner[call]} too"
        if call in owner
        else f"call {call} is unavailable"
        for call in taken[:_SHOWN_CONFLICTS]
    ]
    if len(taken) > _SHOWN_CONFLICTS:
        conflicts.append(f"and {len(taken) - _SHOWN_CONFLICTS} more")
    return (
        f"expected {expectation.count} matching call(s) of its own, got {len(got)}: "
        + "; ".join(conflicts)
    )


def _order_reason(
    number: int,
    expectation: ExpectedTool,
    matching: list[int],
    assigned: list[list[int] | None],
) -> str:
    previous = next((earlier for earlier in range(number - 1, -1, -1) if assigned[earlier]), None)
    if previous is None:  # cannot happen: alone, the expectation has enough calls
        return f"expected {expectation.count} matching call(s) in order, got fewer"
    previous_calls = assigned[previous]
    assert previous_calls
    last = previous_calls[-1]
    after = [call for call in matching if call > last]
    early = [call for call in matching if call <= last]
    reason = (
        f"expected {expectation.count} matching call(s) after call {last} "
        f"(the last call used by expectation {previous}), got {len(after)}"
    )
    if early:
        shown = ", ".join(str(call) for call in early[:_SHOWN_CONFLICTS])
        more = ", ..." if len(early) > _SHOWN_CONFLICTS else ""
        reason += f"; matching call(s) {shown}{more} come at or before it"
    return reason


def check_turns(
    expected_turns: Sequence[Sequence[ExpectedTool]],
    call_turns: Sequence[object],
    *,
    distinct: bool = False,
    ordered: bool = False,
) -> list[TurnResult]:
    """Judge each turn's calls against that turn's expectations only (seed 000 section 6).

    A turn present on one side only fails with a ``reason``; options are as for :func:`check_turn`.

    >>> from toolmatch import ExpectedTool
    >>> results = check_turns([[ExpectedTool("search")], [ExpectedTool("search")]],
    ...                       [[{"name": "search"}, {"name": "search"}]])
    >>> [result.passed for result in results]
    [True, False]
    >>> results[1].reason
    'turn 1 has no calls: got 1 call turn(s) for 2 expected turn(s)'
    """
    _check_flag("distinct", distinct)
    _check_flag("ordered", ordered)
    for where, value in (("expected_turns", expected_turns), ("call_turns", call_turns)):
        if not isinstance(value, (list, tuple)):
            raise TypeError(
                f"{where} must be a list with one entry per turn, got {short_repr(value)} "
                f"({type_name(value)})"
            )
    expectation_turns = [
        _expectation_list(turn, f"expected_turns[{number}]")
        for number, turn in enumerate(expected_turns)
    ]
    turns = [(_Selection(expectations), distinct, ordered) for expectations in expectation_turns]
    return judge_turns(turns, read_turns(call_turns, "call_turns"))


_NO_TURN = (_Selection(()), False, False)


def read_turns(call_turns: Sequence[object], where: str) -> list[list[ToolCall]]:
    """Each turn's calls; one :func:`to_calls` cannot read raises ``TypeError`` naming it,
    and one it will not guess at (several choices) ``ValueError``, named the same way."""
    calls_per_turn = []
    for number, turn in enumerate(call_turns):
        try:
            calls_per_turn.append(to_calls(turn))
        except TypeError as error:
            raise TypeError(f"{where}[{number}]: {error}") from None
        except ValueError as error:
            raise ValueError(f"{where}[{number}]: {error}") from None
    return calls_per_turn


def judge_turns(
    turns: Sequence[tuple[_Selection, bool, bool]], calls_per_turn: Sequence[list[ToolCall]]
) -> list[TurnResult]:
    """Each turn's calls against that turn's (expectations, distinct, ordered) only.

    A turn present on one side only fails with a ``reason``.
    """
    results = []
    for number in range(max(len(turns), len(calls_per_turn))):
        reason = None
        if number >= len(calls_per_turn) or number >= len(turns):
            missing = (
                "has no calls" if number >= len(calls_per_turn) else "has calls but no expectations"
            )
            reason = (
                f"turn {number} {missing}: got {len(calls_per_turn)} call turn(s) for "
                f"{len(turns)} expected turn(s)"
            )
        selection, distinct, ordered = turns[number] if number < len(turns) else _NO_TURN
        calls = calls_per_turn[number] if number < len(calls_per_turn) else []
        results.append(
            _check_turn(
                selection,
                calls,
                distinct=distinct,
                ordered=ordered,
                turn=number,
                reason=reason,
            )
        )
    return results


def turns_pass(
    turns: Sequence[tuple[_Selection, bool, bool]], calls_per_turn: Sequence[list[ToolCall]]
) -> bool:
    """Whether :func:`judge_turns` would pass every turn, without building the results."""
    if len(turns) != len(calls_per_turn):
        return False
    return all(
        _turn_passes(selection, calls, distinct=distinct, ordered=ordered)
        for (selection, distinct, ordered), calls in zip(turns, calls_per_turn, strict=True)
    )


def assert_called(
    calls: object,
    name: str | Matcher,
    args: Mapping[str, Any] | Matcher | None = None,
    count: int = 1,
    max_count: int | None = None,
) -> ToolCheck:
    """Assert that ``calls`` hold a call of ``name`` with ``args``; return the passing check.

    The ``AssertionError`` message is the check's full explanation.

    >>> assert_called([{"name": "search", "args": {"q": "paris"}}], "search", {"q": "paris"})
    <ToolCheck passed ExpectedTool('search', {'q': 'paris'}) matching=[0]>
    >>> assert_called([{"name": "search", "args": {}}], "search", {"q": "paris"})
    Traceback (most recent call last):
    AssertionError: FAILED ExpectedTool('search', {'q': 'paris'}): arg 'q' missing
      required: at least 1 matching call; found 0
      call 0 search({}): q: missing
    """
    __tracebackhide__ = True
    check = ExpectedTool(name, args, count, max_count).check(calls)
    if not check.passed:
        raise AssertionError(str(check))
    return check


def assert_turn(
    expected: Sequence[ExpectedTool],
    calls: object,
    *,
    distinct: bool = False,
    ordered: bool = False,
) -> TurnResult:
    """Assert that one turn's ``calls`` meet every expectation; return the passing result.

    ``expected`` is what :func:`check_turn` takes; the ``AssertionError`` message is the
    turn's full explanation.

    >>> calls = [{"name": "search", "args": {"q": "x", "lim": 5}}, {"name": "search"}]
    >>> expected = [ExpectedTool("search", {"q": "x"}), ExpectedTool("search")]
    >>> assert_turn(expected, calls, distinct=True)
    <TurnResult passed: 2 of 2 expectation(s) met over 2 call(s)>
    """
    __tracebackhide__ = True
    result = check_turn(expected, calls, distinct=distinct, ordered=ordered)
    if not result.passed:
        raise AssertionError(str(result))
    return result
