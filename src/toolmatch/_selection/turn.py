"""Call selection (docs/semantics.md, docs/selection.md): ``ExpectedTool``, ``check_turn``,
``check_turns``, ``assert_called``, ``assert_turn``.

One function, :func:`judge`, judges a turn: it leaves out the ignored calls, judges each
(expectation, call) pair once, counts, and when asked assigns calls of their own and
checks the turn's budgets. Its verdict is plain data; the results and their texts are
built from it only when wanted, so a verdict-only run (``TestCase.passes``, the CLI)
takes the same path and skips only the words.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence

from toolmatch._calls.call import ToolCall
from toolmatch._calls.catalogue import ToolCatalogue
from toolmatch._core.describe import join_path, short_repr, type_name
from toolmatch._core.pairing import (
    assign_covering,
    assign_distinct,
    assign_ordered,
    assign_sequence,
    common_subsequence,
    extend_ordered,
)
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch
from toolmatch._matchers.canonical import canonical_key, literal_args_key
from toolmatch._matchers.explain import explain
from toolmatch._matchers.literal import Literal, as_matcher
from toolmatch._matchers.mappings import Partial
from toolmatch._readers.to_calls import to_calls
from toolmatch._selection.expected import NO_RESULT
from toolmatch._selection.matching import _Selection, match_turn, numbered
from toolmatch._selection.reasons import (
    count_reason,
    distinct_reason,
    order_reason,
)
from toolmatch._selection.results import (
    Candidate,
    IgnoredCall,
    ToolCheck,
    TurnResult,
    call_text,
    indices_text,
)

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs
    from toolmatch._selection.expected import Expected

__all__ = ["ExpectedTool", "judge"]

_SHOWN_NAMES = 8
_SHOWN_CALLS = 10
_RESULT = "(result)"  # a mismatch path that no argument name can take
_FAILED = "(failed)"


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
            f"ExpectedTool count must be an int >= 0, got {short_repr(count)} ({type_name(count)})"
        )
    if count < 0:
        raise ValueError(f"ExpectedTool count must be >= 0, got {count}")
    if max_count is None:
        if count == 0:
            raise ValueError(
                "ExpectedTool count=0 without max_count asserts nothing: give max_count=N "
                "for at most N matching calls, or use ExpectedTool.never(name, args) to "
                "assert that no call matches"
            )
        return count, None
    if isinstance(max_count, bool) or not isinstance(max_count, int):
        raise TypeError(
            "ExpectedTool max_count must be an int >= count or None, got "
            f"{short_repr(max_count)} ({type_name(max_count)})"
        )
    if max_count < count:
        raise ValueError(f"ExpectedTool max_count ({max_count}) must be >= count ({count})")
    return count, max_count


def _validated_failed(failed: object) -> bool | None:
    if failed is not None and not isinstance(failed, bool):
        raise TypeError(
            "ExpectedTool failed must be True, False or None (either), got "
            f"{short_repr(failed)} ({type_name(failed)})"
        )
    return failed


def _call_check(result: Matcher | None, failed: bool | None) -> Callable[[ToolCall], bool] | None:
    """What a call must be beyond its name and arguments, as one check; ``None`` for nothing."""
    if result is None and failed is None:
        return None
    if result is None:
        return lambda call: call.failed is failed
    if failed is None:
        return lambda call: call.result is not None and result == call.result
    return lambda call: call.failed is failed and call.result is not None and result == call.result


def _under_result(path: str) -> str:
    """A mismatch path inside the recorded result, below the ``(result)`` path."""
    if not path:
        return _RESULT
    return f"{_RESULT}{path}" if path.startswith("[") else f"{_RESULT}.{path}"


@public
class ExpectedTool(Matcher):
    """An expected tool call in a turn: a tool ``name``, its ``args``, how many calls.

    A ``str`` name selects calls whose name contains it, case-sensitively; a matcher
    (``Regex``, ``Literal``...) selects names it matches. ``args`` as a dict asserts
    those keys only (``Partial``); a matcher such as ``Exact({...})`` judges the whole
    args dict; ``None`` asserts the name only. ``result`` (a matcher, or a plain value
    compared with Literal rules) must match the tool's recorded result; ``failed=True`` or
    ``False`` asks the call's ``failed`` flag to be that. At least ``count`` and at most
    ``max_count`` calls must match; ``count=0`` with a ``max_count`` is a pure cap ("at
    most 2"). It is a matcher over a turn's calls, so it can sit on either side of ``==``.

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
    >>> ExpectedTool("cancel", failed=False).check(done).unmatched_reason
    'call 0: (failed): expected False, the trace does not say'

    """

    __slots__ = (
        "name",
        "args",
        "count",
        "max_count",
        "result",
        "failed",
        "_selects",
        "_args_matcher",
        "_args_check",
        "_result_matcher",
        "_call_check",
        "_literal_key",
        "_arg_paths",
        "_alone",
        "_requirement",
        "_repr",
    )
    name: str | Matcher
    args: Mapping[str, Any] | Matcher | None
    count: int
    max_count: int | None
    result: object
    failed: bool | None
    _selects: Callable[[str], bool]
    _args_matcher: Matcher | None
    _args_check: Callable[[object], bool] | None
    _result_matcher: Matcher | None
    _call_check: Callable[[ToolCall], bool] | None
    _literal_key: tuple[tuple[str, ...], tuple[Hashable, ...]] | None
    _arg_paths: tuple[tuple[str, tuple[str, str]], ...]
    _alone: _Turn
    _requirement: str
    _repr: str | None

    def __init__(
        self,
        name: str | Matcher,
        args: Mapping[str, Any] | Matcher | None = None,
        *,
        count: int = 1,
        max_count: int | None = None,
        result: object = None,
        failed: bool | None = None,
    ) -> None:
        count, max_count = _validated_counts(count, max_count)
        self._setup(name, args, count, max_count, result, failed)

    @classmethod
    def never(
        cls,
        name: str | Matcher,
        args: Mapping[str, Any] | Matcher | None = None,
        *,
        result: object = None,
        failed: bool | None = None,
    ) -> ExpectedTool:
        """An expectation that no call in the turn matches ``name``, ``args``, ``result`` and
        ``failed``.

        >>> ExpectedTool.never("delete").check([{"name": "delete_file"}]).unmatched_reason
        'expected no matching call, got 1'
        """
        tool = cls.__new__(cls)
        tool._setup(name, args, 0, 0, result, failed)
        return tool

    def _setup(
        self,
        name: object,
        args: object,
        count: int,
        max_count: int | None,
        result: object,
        failed: object,
    ) -> None:
        name = _validated_name(name)
        matcher = _args_matcher(args)
        failed = _validated_failed(failed)
        result_matcher = None if result is None else as_matcher(result)
        set_ = object.__setattr__
        set_(self, "name", name)
        set_(self, "args", dict(args) if isinstance(args, Mapping) else args)
        set_(self, "count", count)
        set_(self, "max_count", max_count)
        set_(self, "result", result)
        set_(self, "failed", failed)
        if isinstance(name, str):
            set_(self, "_selects", lambda tool: name in tool)
        else:
            set_(self, "_selects", name.__eq__)
        set_(self, "_args_matcher", matcher)
        set_(self, "_args_check", None if matcher is None else matcher.__eq__)
        set_(self, "_result_matcher", result_matcher)
        set_(self, "_call_check", _call_check(result_matcher, failed))
        # Only arguments are looked up by key; a result or failed flag is checked call by call.
        literal = (
            isinstance(args, Mapping)
            and not isinstance(args, Matcher)
            and result_matcher is None
            and failed is None
        )
        set_(self, "_literal_key", literal_args_key(args) if literal else None)
        # For scores: each asserted argument's mismatch path, and the prefixes below it.
        tops = [join_path("", key) for key in args] if isinstance(args, Mapping) else []
        set_(self, "_arg_paths", tuple((top, (f"{top}.", f"{top}[")) for top in tops))
        # Alone, one expectation is looked up faster pair by pair than through the index.
        set_(self, "_alone", _Turn(_Selection([self], use_index=False)))
        # Said in every result of this expectation: worded once.
        set_(self, "_requirement", self._requirement_text())
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
        return args, {**options, **self._call_options()}

    def _call_options(self) -> dict[str, object]:
        options: dict[str, object] = {}
        if self.result is not None:
            options["result"] = self.result
        if self.failed is not None:
            options["failed"] = self.failed
        return options

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

    def __reduce_ex__(self, protocol: Any) -> Any:
        if self.is_never:
            return (type(self)._rebuild_never, (self.name, self.args, self.result, self.failed))
        return super().__reduce_ex__(protocol)

    @classmethod
    def _rebuild_never(
        cls,
        name: str | Matcher,
        args: Mapping[str, Any] | Matcher | None,
        result: object = None,
        failed: bool | None = None,
    ) -> ExpectedTool:
        return cls.never(name, args, result=result, failed=failed)

    def matches(self, actual: object) -> bool:
        try:
            calls = to_calls(actual)
        except Exception:  # not calls at all (TypeError) or ambiguous ones (ValueError)
            return False
        return judge(self._alone, calls).passed

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
        return judge(self._alone, to_calls(calls)).check(0)

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
            said = "the trace does not say" if call.failed is None else f"got {call.failed}"
            found.append(Mismatch(_FAILED, f"expected {self.failed}, {said}"))
        return tuple(found)

    def _call_matches(self, call: ToolCall) -> bool:
        check, extra = self._args_check, self._call_check
        return (check is None or (call.parse_error is None and check(call.args))) and (
            extra is None or extra(call)
        )

    def _credit(self, mismatches: Sequence[Mismatch]) -> tuple[int, int]:
        """How many of its parts (each argument, the result, the failed flag) a call with
        these mismatches meets, and how many there are: for :attr:`ToolCheck.score`."""
        paths = [mismatch.path for mismatch in mismatches]
        args_paths = [path for path in paths if not path.startswith((_RESULT, _FAILED))]
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
        for asserted, path in ((self._result_matcher, _RESULT), (self.failed, _FAILED)):
            if asserted is not None:
                parts += 1
                met += not any(found.startswith(path) for found in paths)
        return met, parts

    def _requirement_text(self) -> str:
        count, most = self.count, self.max_count
        if most == 0:
            return "no matching call"
        if most is None:
            return f"at least {count} matching call{'s' if count > 1 else ''}"
        if most == count:
            return f"exactly {count} matching call{'s' if count > 1 else ''}"
        if count == 0:
            return f"at most {most} matching call{'s' if most > 1 else ''}"
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


class _Turn:
    """What one turn expects, and how it is judged: every turn option, checked once."""

    __slots__ = (
        "selection",
        "ignoring",
        "distinct",
        "ordered",
        "exhaustive",
        "max_calls",
        "no_repeats",
        "tools",
    )

    def __init__(
        self,
        selection: _Selection,
        *,
        distinct: bool = False,
        ordered: bool = False,
        exhaustive: bool = False,
        ignore: Sequence[Expected] = (),
        max_calls: int | None = None,
        no_repeats: bool = False,
        tools: ToolCatalogue | None = None,
    ) -> None:
        self.selection = selection
        # A turn remembers names for its ignore patterns too: they are asked about every call.
        self.ignoring = _Selection(ignore, use_index=False) if ignore else None
        self.distinct = distinct or ordered or exhaustive
        self.ordered = ordered
        self.exhaustive = exhaustive
        self.max_calls = max_calls
        self.no_repeats = no_repeats
        self.tools = tools


class _Verdict:
    """What :func:`judge` found in one turn, as indices; :meth:`result` puts it into words."""

    # What only some turns find stays on the class until one does, so that a turn judged
    # without distinct calls, repeats or tool definitions sets none of it; ``passed`` is
    # set once judged, and made False by the run around the turn (``reason``, ``over``).
    ignored: Mapping[int, int] = {}  # call index -> the number of the first pattern ignoring it
    demands: Sequence[int] = ()
    assigned: list[list[int] | None] | None = None
    unexpected: Sequence[int] = ()
    repeats: Sequence[list[int]] = ()
    misfits: Sequence[int] = ()  # the kept calls that break their tool's definition
    reason: str | None = None  # the turn is missing on one side of the run
    over: str | None = None  # the run's calls go over its max_calls at this turn
    passed = False

    def __init__(
        self,
        turn: _Turn,
        calls: list[ToolCall],
        kept: list[int] | None,
        candidates: list[list[int]],
        matching: list[list[int]],
        met: list[bool],
    ) -> None:
        self.turn = turn
        self.calls = calls
        self.kept = kept  # the calls judged, when some are ignored
        self.candidates = candidates  # per expectation: the calls whose name it selects
        self.matching = matching  # per expectation: those that match it
        self.met = met  # whether each expectation's count of matching calls is allowed

    @property
    def kept_count(self) -> int:
        return len(self.calls) if self.kept is None else len(self.kept)

    def check(self, number: int) -> ToolCheck:
        """The result of expectation ``number``, with its reason in words."""
        expectation = self.turn.selection.expectations[number]
        calls = self.calls
        candidate_indices, matching = self.candidates[number], self.matching[number]
        candidates: tuple[Candidate, ...] | None = None
        if self.met[number]:
            reason = None
        else:
            reason, candidates = count_reason(expectation, calls, candidate_indices, matching)
        got: list[int] | None = None
        if self.assigned is not None:
            got = self.assigned[number] or []
            if reason is None and self._short(number):
                if self.turn.ordered:
                    reason = order_reason(number, expectation, matching, self.assigned)
                else:
                    reason = distinct_reason(expectation, matching, got, self._owners())
        score = (
            None
            if reason is None
            else functools.partial(_score, expectation, candidates, matching, got)
        )
        # Positional: a call with keywords costs more (the judge makes one per failed check).
        return ToolCheck(
            expectation,
            calls,
            candidate_indices,
            matching,
            reason,
            expectation._explain_call,
            expectation._requirement,
            expectation._no_candidate_text,
            got,
            candidates,
            score,
        )

    def _short(self, number: int) -> bool:
        """Whether expectation ``number`` got fewer calls of its own than it needs."""
        assigned = self.assigned
        return assigned is not None and len(assigned[number] or ()) < self.demands[number]

    def _failed_checks(self) -> list[tuple[int, ToolCheck]]:
        """The checks that fail, each with its number: those :meth:`check` gives a reason."""
        return [
            (number, self.check(number))
            for number, met in enumerate(self.met)
            if not met or self._short(number)
        ]

    def _checks(self, failed: list[tuple[int, ToolCheck]]) -> tuple[ToolCheck, ...]:
        """Every check, in order, those in ``failed`` as they were made."""
        made = dict(failed)
        return tuple(
            made[number] if number in made else self.check(number)
            for number in range(len(self.matching))
        )

    def _owners(self) -> dict[int, int]:
        assert self.assigned is not None
        return {call: number for number, got in enumerate(self.assigned) if got for call in got}

    def result(self, turn: int | None = None) -> TurnResult:
        """The turn's full result, with what the run around it found wrong here."""
        plan = self.turn
        calls = self.calls
        ignored: tuple[IgnoredCall, ...] = ()
        if plan.ignoring is not None:
            patterns = plan.ignoring.expectations
            ignored = tuple(
                IgnoredCall(index, calls[index], number, patterns[number])
                for index, number in sorted(self.ignored.items())
            )
        own = (
            self._problems()
            if plan.distinct or plan.max_calls is not None or plan.no_repeats or self.misfits
            else []
        )
        # The failed checks are made now, the others when first asked for: a report of the
        # failures (toolmatch check) shows no others.
        failed = self._failed_checks()
        # Positional, as in check(); the pairing gives matched_calls and met_calls (the 0s).
        return TurnResult(
            functools.partial(self._checks, failed),
            len(calls),
            plan.distinct,
            plan.ordered,
            turn,
            self.reason,
            plan.exhaustive,
            plan.max_calls,
            plan.no_repeats,
            ignored,
            tuple(self.unexpected),
            tuple(own) if self.over is None else (*own, self.over),
            0,
            0,
            plan.selection.expected_calls,
            self._pairs,
            failed,
        )

    def _problems(self) -> list[str]:
        plan, calls = self.turn, self.calls
        problems = [
            f"call {index} {call_text(calls[index])} is not expected"
            for index in self.unexpected[:_SHOWN_CALLS]
        ]
        if len(self.unexpected) > _SHOWN_CALLS:
            problems.append(f"and {len(self.unexpected) - _SHOWN_CALLS} more unexpected call(s)")
        if plan.max_calls is not None and self.kept_count > plan.max_calls:
            text = f"expected at most {plan.max_calls} call(s) in the turn, got {self.kept_count}"
            if self.ignored:
                text += f" (not counting {len(self.ignored)} ignored)"
            problems.append(text)
        for group in self.repeats[:_SHOWN_CALLS]:
            first, *later = group
            plural = "s" if len(later) > 1 else ""
            shown = indices_text(later)
            problems.append(
                f"call{plural} {shown} repeat{'' if plural else 's'} call {first}: "
                f"{call_text(calls[first])}"
            )
        if len(self.repeats) > _SHOWN_CALLS:
            problems.append(f"and {len(self.repeats) - _SHOWN_CALLS} more repeated call(s)")
        if self.misfits:
            assert plan.tools is not None
            for index in self.misfits[:_SHOWN_CALLS]:
                problems.extend(plan.tools.violations(index, calls[index]))
            if len(self.misfits) > _SHOWN_CALLS:
                problems.append(
                    f"and {len(self.misfits) - _SHOWN_CALLS} more call(s) breaking their "
                    "tool's definition"
                )
        return problems

    def _pairs(self) -> tuple[int, int]:
        """The calls paired with an expectation and the expected calls met, in the best pairing.

        Each expectation may be paired with up to ``max_count`` calls (``count`` without
        one); up to ``count`` of them meet expected calls. Unordered, the pairing is a
        maximum assignment; ordered, a longest common subsequence of the expected calls and
        the turn's.
        """
        expectations = self.turn.selection.expectations
        counts = [tool.count for tool in expectations]
        extras = _extras(expectations)
        matchings = self.matching
        every_check_met = self.assigned is not None and all(
            met and len(got or ()) >= demand
            for met, got, demand in zip(self.met, self.assigned, self.demands, strict=True)
        )
        if self.turn.ordered:
            # Met in order, the assignment already is a longest common subsequence.
            met_calls = sum(counts) if every_check_met else common_subsequence(counts, matchings)
            if not any(extras):
                return met_calls, met_calls
            highs = [count + extra for count, extra in zip(counts, extras, strict=True)]
            return common_subsequence(highs, matchings), met_calls
        if every_check_met and (self.turn.exhaustive or not any(extras)):
            assigned: Sequence[list[int] | None] = self.assigned or []
        else:
            assigned = assign_covering(counts, extras, matchings)
        matched_calls = sum(len(got or ()) for got in assigned)
        met_calls = sum(
            min(len(got or ()), count) for got, count in zip(assigned, counts, strict=True)
        )
        return matched_calls, met_calls


def _extras(expectations: Sequence[Expected]) -> list[int]:
    """The calls beyond its count each positive expectation's range allows."""
    return [
        tool.max_count - tool.count if tool.count and tool.max_count is not None else 0
        for tool in expectations
    ]


def judge(turn: _Turn, calls: list[ToolCall]) -> _Verdict:
    """Judge one turn's calls: the one place a verdict is reached (docs/selection.md)."""
    ignored: dict[int, int] | None = None
    kept: list[int] | None = None
    if turn.ignoring is not None:
        ignored = {}
        for number, found in enumerate(match_turn(turn.ignoring, calls)[1]):
            for index in found:
                ignored.setdefault(index, number)
        if ignored:
            kept = [index for index in range(len(calls)) if index not in ignored]
    selection = turn.selection
    candidates, matching = match_turn(selection, calls, kept)
    # Whether each count of matching calls is one its expectation allows.
    allowed = selection.allowed
    met = [len(found) in allowed[number] for number, found in enumerate(matching)]
    verdict = _Verdict(turn, calls, kept, candidates, matching, met)
    if ignored:
        verdict.ignored = ignored
    passed = all(met)
    if turn.distinct:
        passed = _assign(verdict, passed) and passed
    if turn.max_calls is not None and verdict.kept_count > turn.max_calls:
        passed = False
    if turn.no_repeats:
        verdict.repeats = _repeats(calls, kept)
        passed = passed and not verdict.repeats
    if turn.tools is not None:
        fits = turn.tools.fits
        judged = range(len(calls)) if kept is None else kept
        verdict.misfits = [index for index in judged if not fits(calls[index])]
        passed = passed and not verdict.misfits
    verdict.passed = passed
    return verdict


def _assign(verdict: _Verdict, all_met: bool) -> bool:
    """Give expectations calls of their own; whether each gets what it needs (and, for an
    exhaustive turn, whether every call is claimed)."""
    turn = verdict.turn
    expectations = turn.selection.expectations
    # Expectations that fail anyway take no calls, so they cannot starve the others.
    demands = turn.selection.counts
    if not all_met:
        demands = [count if met else 0 for count, met in zip(demands, verdict.met, strict=True)]
    matchings = verdict.matching
    assigned: list[list[int] | None]
    if turn.ordered:
        assigned = assign_ordered(demands, matchings)
    elif turn.exhaustive:
        extras = [
            extra if demand else 0
            for extra, demand in zip(_extras(expectations), demands, strict=True)
        ]
        assigned = list(assign_covering(demands, extras, matchings))
    else:
        assigned = list(assign_distinct(demands, matchings))
    # Indexed, not zipped: zip(strict=True) takes a keyword, a slow call on every turn.
    enough = [
        got is not None and len(got) >= demands[number] for number, got in enumerate(assigned)
    ]
    verdict.demands = demands
    if turn.exhaustive:
        order = list(range(len(verdict.calls))) if verdict.kept is None else verdict.kept
        if turn.ordered:
            assigned = _sequence(verdict, demands, matchings, assigned, order, all(enough))
        claimed = {call for got in assigned if got for call in got}
        # A call an expectation that failed would match is not unexpected: it is too few.
        short = {
            call
            for number, tool in enumerate(expectations)
            if tool.count and not (verdict.met[number] and enough[number])
            for call in matchings[number]
        }
        verdict.unexpected = [call for call in order if call not in claimed and call not in short]
    verdict.assigned = assigned
    return all(enough) and not verdict.unexpected


def _sequence(
    verdict: _Verdict,
    demands: list[int],
    matchings: list[list[int]],
    assigned: list[list[int] | None],
    order: list[int],
    in_order: bool,
) -> list[list[int] | None]:
    """For an ordered, exhaustive turn: the calls cut into one block per expectation, in
    order, if they can be; else the in-order assignment stretched over what it can cover."""
    expectations = verdict.turn.selection.expectations
    highs = [
        (tool.count if tool.max_count is None else tool.max_count) if demand else 0
        for tool, demand in zip(expectations, demands, strict=True)
    ]
    if in_order:
        claimers = [number for number, demand in enumerate(demands) if demand]
        place = {call: position for position, call in enumerate(order)}
        blocks = assign_sequence(
            [demands[number] for number in claimers],
            [highs[number] for number in claimers],
            [[place[call] for call in matchings[number]] for number in claimers],
            len(order),
        )
        if blocks is not None:
            cut: list[list[int] | None] = [[] for _ in expectations]
            for number, block in zip(claimers, blocks, strict=True):
                cut[number] = [order[position] for position in block]
            return cut
    return extend_ordered(assigned, highs, matchings, order)


def _repeats(calls: list[ToolCall], kept: list[int] | None) -> list[list[int]]:
    """Groups of calls with the same name and equal args (Literal rules), each in turn order."""
    groups: dict[tuple[str, Hashable], list[int]] = {}
    odd: list[list[int]] = []  # calls whose args have no canonical key: compared pair by pair
    for index, call in numbered(calls, kept):
        if call.parse_error is not None:
            continue  # unreadable arguments repeat nothing
        key = canonical_key(call.args)
        if key is not None:
            groups.setdefault((call.name, key), []).append(index)
            continue
        for group in odd:
            first = calls[group[0]]
            if first.name == call.name and Literal(first.args) == call.args:
                group.append(index)
                break
        else:
            odd.append([index])
    found = [group for group in (*groups.values(), *odd) if len(group) > 1]
    return sorted(found, key=lambda group: group[1])


def _score(
    expectation: Expected,
    candidates: Sequence[Candidate] | None,
    matching: Sequence[int],
    got: Sequence[int] | None,
) -> tuple[int, int, str]:
    """A failed check's partial credit as a fraction, and what it counts (docs/selection.md)."""
    found = len(matching)
    most = expectation.max_count
    if most is not None and found > most:
        return most, found, f"at most {most} of the {found} matching calls are allowed"
    count = expectation.count
    if found:
        have = found if found < count or got is None else len(got)
        return have, count, f"{have} of the {count} required call(s) found"
    if not candidates:
        return 0, 1, "no call of this name"
    best, parts = max(expectation._credit(candidate.mismatches) for candidate in candidates)
    if not parts:
        return 0, 1, "no call's arguments can be read"
    if expectation._call_check is None:
        what = "asserted argument(s)"
    else:
        what = "assertions on its arguments, result and failed flag"
    return best, parts, f"the closest call matches {best} of {parts} {what}"
