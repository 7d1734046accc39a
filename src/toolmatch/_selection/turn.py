"""The turn engine (docs/semantics.md, docs/selection.md): ``TurnPlan``, a turn's expectations
with its options, and :meth:`TurnPlan.judge`, which reaches its verdict.

One method, :meth:`TurnPlan.judge`, judges a turn: it leaves out the ignored calls, judges each
(expectation, call) pair once, counts, and when asked assigns calls of their own and
checks the turn's budgets. Its verdict is plain data; the results and their texts are
built from it only when wanted, so a verdict-only run (``TestCase.passes``, the CLI)
takes the same path and skips only the words.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence

from toolmatch._calls.call import ToolCall
from toolmatch._calls.catalogue import ToolCatalogue
from toolmatch._core.pairing import (
    Order,
    OrderWindows,
    SearchLimitError,
    assign_covering,
    assign_distinct,
    assign_ordered,
    assign_partial_order,
    assign_sequence,
    common_subsequence,
    extend_ordered,
    order_windows,
    within,
)
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.canonical import canonical_key
from toolmatch._matchers.captures import BINDING
from toolmatch._matchers.literal import Literal, as_matcher
from toolmatch._selection.matching import Selection, match_turn, numbered
from toolmatch._selection.reasons import (
    count_reason,
    distinct_reason,
    order_breaks,
    order_reason,
    place_breaks,
    unordered_reason,
    window_breaks,
)
from toolmatch._selection.results import (
    Candidate,
    ChosenAlternative,
    IgnoredCall,
    ToolCheck,
    TurnResult,
    call_text,
    ignored_text,
    indices_text,
)
from toolmatch._selection.scores import turn_score
from toolmatch._selection.unrecorded import NotRecordedError, check_recorded, not_recorded

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from toolmatch._matchers.base import Matcher, Mismatch
    from toolmatch._selection.expectation_protocol import Expected

    _T = TypeVar("_T")
    _R = TypeVar("_R")

__all__ = ["TurnPlan", "TurnVerdict", "answer_problem", "under_binding"]

_SHOWN_CALLS = 10
OTHER_AGENT = -1  # in a verdict's ``ignored``: left out as another agent's call
_ALL_KEPT = (None, None, None)  # _ignored_and_kept's answer for a turn that leaves none out


class TurnPlan:
    """What one turn expects, and how it is judged: every turn option, checked once.

    Its fields, expectations by number:

    - ``selection``: the expectations, and which of them select each tool name;
      ``ignoring``: the ``ignore=`` patterns likewise (``None``: none); ``ignore_caps``:
      each pattern's ``max_count``, when any has one (``None``: none capped).
    - ``distinct`` (set by ``ordered``, ``exhaustive`` and an order too), ``ordered``,
      ``exhaustive``, ``max_calls``, ``no_repeats``, ``tools`` (a ``ToolCatalogue``),
      ``agent``: the turn options as given; ``agent_matches``: ``agent``'s matcher's ``==``.
    - ``answer``: the matcher of the turn's final answer (``None``: not checked).
    - ``after``: per expectation, those whose calls all come before its own (groups,
      ``before``/``after``; ``None``: no partial order); ``order``: the ``Order``
      of those it directly follows, when the turn has any order (``None``: none);
      ``optional_steps``: the numbers of its optional steps.
    - ``nevers``: each never with ``after``/``before``: (its number, the key, the other's).
    - ``leaves_out``, ``placed``, ``limited``: whether the turn leaves calls out (``ignore``,
      ``agent``), has places or ordered nevers to keep, has limits (``max_calls``,
      ``no_repeats``, ``tools``): a turn without pays nothing for them in its runs.
    - ``json_template``: what the turn's rows of ``--format json`` share, written on first
      use (``_selection/json_rows.py``).
    """

    __slots__ = (
        "selection",
        "ignoring",
        "ignore_caps",
        "distinct",
        "ordered",
        "exhaustive",
        "max_calls",
        "no_repeats",
        "tools",
        "agent",
        "agent_matches",
        "answer",
        "after",
        "nevers",
        "order",
        "optional_steps",
        "leaves_out",
        "placed",
        "limited",
        "json_template",
    )

    def __init__(
        self,
        selection: Selection,
        *,
        distinct: bool = False,
        ordered: bool = False,
        exhaustive: bool = False,
        ignore: Sequence[Expected] = (),
        max_calls: int | None = None,
        no_repeats: bool = False,
        tools: ToolCatalogue | None = None,
        agent: str | Matcher | None = None,
        answer: object = None,
        after: Sequence[Sequence[int]] | None = None,
        nevers: Sequence[tuple[int, str, int]] = (),
    ) -> None:
        self.selection = selection
        # Names are remembered for the ignore patterns too: they are asked about every call.
        self.ignoring = Selection(ignore, use_index=False) if ignore else None
        caps = [pattern.max_count for pattern in ignore]
        self.ignore_caps = caps if any(cap is not None for cap in caps) else None
        self.distinct = distinct or ordered or exhaustive
        self.ordered = ordered
        self.exhaustive = exhaustive
        self.max_calls = max_calls
        self.no_repeats = no_repeats
        self.tools = tools
        self.agent = agent
        self.agent_matches = None if agent is None else as_matcher(agent).__eq__
        self.answer = None if answer is None else as_matcher(answer)
        self.after = after
        self.nevers = nevers
        count = len(selection.expectations)
        # Worked out once here, not in every run the turn judges (B4's ordered turn).
        self.order = (
            Order(after)
            if after is not None
            else Order([[number - 1] if number else [] for number in range(count)])
            if ordered
            else None
        )
        self.optional_steps = [
            number for number, tool in enumerate(selection.expectations) if tool.optional
        ]
        self.leaves_out = self.ignoring is not None or agent is not None
        self.placed = bool(selection.placed or nevers)
        self.limited = max_calls is not None or no_repeats or tools is not None
        self.json_template: Any = None
        if after is not None:
            self.distinct = True
            if exhaustive and any(selection.extras):
                raise ValueError(
                    "an exhaustive turn with groups or before/after takes exactly count calls "
                    "per expectation: max_count above count is not supported there"
                )

    def judge(
        self, calls: list[ToolCall], said: tuple[str | None, str | None] | None = None
    ) -> TurnVerdict:
        """Judge one turn's calls (and ``said``, its final answer as ``Reading.final_answer``
        gives it, when the turn checks it): the one place a verdict is reached
        (docs/selection.md)."""
        ignored, kept, over_cap = _ignored_and_kept(self, calls) if self.leaves_out else _ALL_KEPT
        selection = self.selection
        candidates, matching = match_turn(selection, calls, kept)
        if selection.asserting:
            check_recorded(
                selection.expectations, selection.asserting, calls, candidates, matching,
                selection.allowed,
            )  # fmt: skip
        met = [
            len(found) in allowed
            for allowed, found in zip(selection.allowed, matching, strict=True)
        ]
        verdict = TurnVerdict(self, calls, kept, candidates, matching, met)
        if ignored:
            verdict.ignored = ignored
        if over_cap:
            verdict.over_cap = over_cap
        passed = all(met)
        if self.placed:
            passed = _in_place(verdict, calls) and passed
        if self.distinct:
            passed = _assign(verdict, passed) and passed
        if self.limited:
            passed = _limits_held(verdict, calls, kept) and passed
        if self.answer is not None:
            passed = _answer_held(verdict, said) and passed
        verdict.passed = passed
        return verdict


class TurnVerdict:
    """What :meth:`TurnPlan.judge` found in one turn, as indices; :meth:`result` puts it into words.

    Its fields, calls and expectations by number:

    - ``turn``: the ``TurnPlan`` judged; ``calls``: the turn's calls; ``kept``: the calls
      judged when some are left out (``None``: all).
    - ``candidates``, ``matching``: per expectation, the calls whose name it selects, and
      those of them that match it; ``met``: whether its count of matching calls is allowed.
    - ``ignored``: call -> the ``ignore=`` pattern that left it out (``OTHER_AGENT``: the
      turn's agent did); ``over_cap``: call -> the capped pattern it matched, its cap full.
    - ``demands``: the calls each expectation claims of its own (0 for one failing anyway);
      ``assigned``: those it got (``None``: calls are not distinct; an entry ``None``: too
      few); ``unexpected``: the calls an exhaustive turn left unclaimed.
    - ``repeats``: groups of repeated calls (``no_repeats``); ``misfits``: the kept calls
      that break their tool's definition (``tools``).
    - ``out_of_order``: expectation -> the order constraint it breaks, in words.
    - ``reason``: the turn is missing on one side of the run; ``over``: the run's calls go
      over its ``max_calls`` at this turn; ``answer_problems``: what is wrong with the final
      answer (the turn's own ``answer=``, then the case's), in words.
    - ``passed``: set once judged, made ``False`` by the run around the turn.
    - ``chosen``: which of a turn's alternatives this is (``one_of``), set by the run.
    - ``failed_checks``: the failing checks, made when first asked for.
    - ``binding``: the captured values the run was judged with; its words use them too.
    """

    __slots__ = (
        "turn",
        "calls",
        "kept",
        "candidates",
        "matching",
        "met",
        "ignored",
        "over_cap",
        "demands",
        "assigned",
        "unexpected",
        "repeats",
        "misfits",
        "out_of_order",
        "reason",
        "over",
        "answer_problems",
        "passed",
        "chosen",
        "failed_checks",
        "binding",
    )

    def __init__(
        self,
        turn: TurnPlan,
        calls: list[ToolCall],
        kept: list[int] | None,
        candidates: list[list[int]],
        matching: list[list[int]],
        met: list[bool],
    ) -> None:
        self.turn = turn
        self.calls = calls
        self.kept = kept
        self.candidates = candidates
        self.matching = matching
        self.met = met
        self.ignored: Mapping[int, int] = {}
        self.over_cap: Mapping[int, int] = {}
        self.demands: Sequence[int] = ()
        self.assigned: list[list[int] | None] | None = None
        self.unexpected: Sequence[int] = ()
        self.repeats: Sequence[list[int]] = ()
        self.misfits: Sequence[int] = ()
        self.out_of_order: Mapping[int, str] = {}
        self.reason: str | None = None
        self.over: str | None = None
        self.answer_problems: Sequence[str] = ()
        self.passed = False
        self.chosen: ChosenAlternative | None = None
        self.failed_checks: list[tuple[int, ToolCheck]] | None = None
        self.binding: dict[str, tuple[object, str, Matcher | None]] | None = None

    @property
    def kept_count(self) -> int:
        return len(self.calls) if self.kept is None else len(self.kept)

    def check(self, number: int) -> ToolCheck:
        """The result of expectation ``number``, with its reason in words (under the
        captured values the turn was judged with, if any)."""
        if self.binding is None:
            return self._check(number)
        return under_binding(self.binding, self._check, number)

    def _check(self, number: int) -> ToolCheck:
        expectation = self.turn.selection.expectations[number]
        calls = self.calls
        candidate_indices, matching = self.candidates[number], self.matching[number]
        candidates: tuple[Candidate, ...] | None = None
        no_candidate: Callable[[Sequence[ToolCall]], str] = expectation._no_candidate_text
        if self.met[number]:
            reason = None
        else:
            # Worded only for a failure: the calls of its name the turn left out, if any.
            left_out = self._left_out(expectation) if self.ignored else ()
            if left_out and not candidate_indices:  # its reason and lines say it only then
                told = ignored_text(left_out)
                no_candidate = functools.partial(expectation._no_candidate_text, left_out=told)
            reason, candidates = count_reason(
                expectation, calls, candidate_indices, matching, left_out, no_candidate
            )
        got: list[int] | None = None
        if self.assigned is None:
            if reason is None and number in self.out_of_order:
                reason = self.out_of_order[number]
        else:
            got = self.assigned[number] or []
            if reason is None and number in self.out_of_order:
                reason, got = self.out_of_order[number], []
            elif reason is None and self._short(number):
                if self.turn.ordered:
                    reason = order_reason(number, expectation, matching, self.assigned)
                else:
                    reason = distinct_reason(expectation, matching, got, self._owners())
        score = (
            None
            if reason is None
            else functools.partial(_score, expectation, candidates, matching, got)
        )
        explain_call: Callable[[ToolCall], tuple[Mismatch, ...]] = expectation._explain_call
        if self.binding is not None:  # a candidate explained later, under the same values
            explain_call = functools.partial(under_binding, self.binding, explain_call)
        return ToolCheck(
            expectation,
            calls,
            candidate_indices,
            matching,
            reason,
            explain_call,
            expectation._requirement,
            no_candidate,
            assigned_call_indices=got,
            candidates=candidates,
            score=score,
        )

    def _ignored_call(self, index: int) -> IgnoredCall:
        number, call = self.ignored[index], self.calls[index]
        if number == OTHER_AGENT:
            agent: Any = self.turn.agent  # set whenever a call is another agent's
            return IgnoredCall(index, call, None, agent)
        assert self.turn.ignoring is not None
        return IgnoredCall(index, call, number, self.turn.ignoring.expectations[number])

    def _left_out(self, expectation: Expected) -> tuple[IgnoredCall, ...]:
        """The calls left out of the turn whose name ``expectation`` selects."""
        selects, calls = expectation._selects, self.calls
        return tuple(
            self._ignored_call(index)
            for index in sorted(self.ignored)
            if selects(calls[index].name)
        )

    def _short(self, number: int) -> bool:
        """Whether expectation ``number`` got fewer calls of its own than it needs."""
        assigned = self.assigned
        return assigned is not None and len(assigned[number] or ()) < self.demands[number]

    def _failed_numbers(self) -> list[int]:
        """The numbers of the expectations that fail: those :meth:`check` gives a reason."""
        return [
            number
            for number, met in enumerate(self.met)
            if not met or self._short(number) or number in self.out_of_order
        ]

    def _failed_checks(self) -> list[tuple[int, ToolCheck]]:
        """The checks that fail, each with its number: made once, for the result and the
        JSON row of a run alike (``--format json`` writes both)."""
        made = self.failed_checks
        if made is None:
            made = self.failed_checks = [
                (number, self.check(number)) for number in self._failed_numbers()
            ]
        return made

    def score(self) -> float:
        """The turn's one number, as its result's (``TurnResult._score``) without the result:
        what a run's score needs of a turn that passed."""
        matched, met = self._pairs()
        expected = self.turn.selection.expected_calls
        return turn_score(matched, self.kept_count, met, expected, self._never_counts)

    def _never_counts(self) -> tuple[int, int]:
        return len(self._failed_numbers()), len(self.met)

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

    def broken(self) -> list[int | str]:
        """What fails in this turn, for the trials' failed checks (docs/cli.md): each
        failing expectation's number (one breaking its order constraints too), then the name
        of each turn option broken."""
        plan, met = self.turn, self.met
        broken: list[int | str] = [
            number for number in range(len(met)) if not met[number] or number in self.out_of_order
        ]
        assigned = self.assigned
        if assigned is not None:
            demands = self.demands
            # Enough calls match, but not enough of their own: the order or the pairing.
            if any(len(got or ()) < demands[number] for number, got in enumerate(assigned)):
                broken.append(
                    "ordered" if plan.ordered else "exhaustive" if plan.exhaustive else "distinct"
                )
            if self.unexpected and "exhaustive" not in broken:
                broken.append("exhaustive")
        if plan.max_calls is not None and self.kept_count > plan.max_calls:
            broken.append("max_calls")
        if self.repeats:
            broken.append("no_repeats")
        if self.misfits:
            broken.append("tools")
        if any(problem.startswith(_TURN_ANSWER) for problem in self.answer_problems):
            broken.append("answer")
        return broken

    def result(self, turn: int | None = None) -> TurnResult:
        """The turn's full result, with what the run around it found wrong here."""
        plan = self.turn
        calls = self.calls
        ignored = tuple(map(self._ignored_call, sorted(self.ignored)))
        # The failed checks are made now, the others when first asked for: a report of the
        # failures (toolmatch check) shows no others.
        failed = self._failed_checks()
        # The pairing gives matched_calls and met_calls when first asked for.
        return TurnResult(
            functools.partial(self._checks, failed),
            len(calls),
            distinct=plan.distinct,
            ordered=plan.ordered,
            turn=turn,
            reason=self.reason,
            exhaustive=plan.exhaustive,
            max_calls=plan.max_calls,
            no_repeats=plan.no_repeats,
            ignored=ignored,
            unexpected_call_indices=tuple(self.unexpected),
            problems=tuple(self.own_problems()),
            expected_calls=plan.selection.expected_calls,
            pairing=self._pairs,
            failed=failed,
        )

    def own_problems(self) -> list[str]:
        """What the turn's own options (and the run's ``max_calls`` here) find wrong."""
        plan = self.turn
        problems = (
            self._problems()
            if plan.distinct or plan.max_calls is not None or plan.no_repeats or self.misfits
            else []
        )
        if self.over is not None:
            problems.append(self.over)
        return [*problems, *self.answer_problems]

    def _problems(self) -> list[str]:
        plan, calls = self.turn, self.calls
        problems = [
            f"call {index} {call_text(calls[index])} is not expected{self._over_cap(index)}"
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

    def _over_cap(self, index: int) -> str:
        """Why call ``index``, which an ignore pattern matches, was judged: its cap was full."""
        number = self.over_cap.get(index)
        if number is None:
            return ""
        assert self.turn.ignoring is not None
        cap = self.turn.ignoring.expectations[number].max_count
        return f": ignore[{number}] leaves out at most {cap} matching call{'s' if cap != 1 else ''}"

    def _pairs(self) -> tuple[int, int]:
        """The calls paired with an expectation and the expected calls met, in the best pairing.

        Each expectation may be paired with up to ``max_count`` calls (``count`` without
        one); up to ``count`` of them meet expected calls. Unordered, the pairing is a
        maximum assignment; ordered, a longest common subsequence of the expected calls and
        the turn's.
        """
        counts = self.turn.selection.counts
        extras = self.turn.selection.extras
        matchings = self.matching
        every_check_met = (
            self.assigned is not None
            and not self.out_of_order
            and all(
                met and len(got or ()) >= demand
                for met, got, demand in zip(self.met, self.assigned, self.demands, strict=True)
            )
        )
        if self.turn.after is not None:
            # What the order pairing gives the expectations that keep their order: calls
            # beyond count are not paired (docs/selection.md).
            assigned_calls = self.assigned or []
            met_calls = sum(
                min(len(got or ()), count)
                for number, (got, count) in enumerate(zip(assigned_calls, counts, strict=True))
                if number not in self.out_of_order
            )
            return met_calls, met_calls
        if self.turn.ordered:
            # Met in order, the assignment already is a longest common subsequence.
            met_calls = sum(counts) if every_check_met else common_subsequence(counts, matchings)
            if not any(extras):
                return met_calls, met_calls
            highs = [count + extra for count, extra in zip(counts, extras, strict=True)]
            return common_subsequence(highs, matchings), met_calls
        if every_check_met and (self.turn.exhaustive or not any(extras)):
            assigned: Sequence[list[int] | None] = self.assigned or []
        elif sum(map(len, matchings)) == len(set().union(*matchings)):
            # No call matches two expectations: none can take another's, so each is paired
            # with as many of its own as it may take, as the maximum assignment pairs them.
            matched_calls = met_calls = 0
            for found, count, extra in zip(matchings, counts, extras, strict=True):
                got = min(len(found), count + extra)
                matched_calls += got
                met_calls += min(got, count)
            return matched_calls, met_calls
        else:
            assigned = assign_covering(counts, extras, matchings)
        matched_calls = sum(len(got or ()) for got in assigned)
        met_calls = sum(
            min(len(got or ()), count) for got, count in zip(assigned, counts, strict=True)
        )
        return matched_calls, met_calls


def under_binding(
    binding: dict[str, tuple[object, str, Matcher | None]], function: Callable[[_T], _R], value: _T
) -> _R:
    """``function(value)`` under the captured values ``binding``."""
    token = BINDING.set(binding)
    try:
        return function(value)
    finally:
        BINDING.reset(token)


_TURN_ANSWER = "the final answer"
NO_ANSWER = "the turn ends without one (the model's last message holds calls, or no text)"


def answer_problem(matcher: Matcher, said: tuple[str | None, str | None], what: str) -> str | None:
    """What is wrong with a final answer ``said`` (why the input records no final answer,
    ``None`` when it records the model's messages, and the text) against ``matcher``,
    opening with ``what``; ``None`` when it matches. An input that records no message of
    the model raises ``NotRecordedError`` naming its format, as a check on any field the
    input does not record."""
    unrecorded, text = said
    if unrecorded is not None:
        raise NotRecordedError(f"{what} is checked ({matcher!r}), but {unrecorded}")
    if text is None:
        return None if matcher == None else f"{what}: {NO_ANSWER}"  # noqa: E711 (a matcher's ==)
    found = matcher.explain(text)
    return None if found is None else f"{what}: {found}"


def _ignored_and_kept(
    turn: TurnPlan, calls: list[ToolCall]
) -> tuple[dict[int, int] | None, list[int] | None, dict[int, int] | None]:
    """The calls the turn leaves out (``ignore=`` patterns, other agents), with the pattern
    or ``OTHER_AGENT`` that left each out; those it keeps (``None``: all); and those a full
    cap left in."""
    ignored: dict[int, int] | None = None
    kept: list[int] | None = None
    over_cap: dict[int, int] | None = None
    if turn.ignoring is not None:
        ignored = {}
        selected_by, found_by = match_turn(turn.ignoring, calls)
        if turn.ignoring.asserting:
            patterns = turn.ignoring
            check_recorded(
                patterns.expectations, patterns.asserting, calls, selected_by, found_by, None
            )
        if turn.ignore_caps is None:
            for number, found in enumerate(found_by):
                for index in found:
                    ignored.setdefault(index, number)
        else:
            over_cap = _capped(turn, turn.ignore_caps, calls, found_by, ignored)
        if ignored:
            kept = [index for index in range(len(calls)) if index not in ignored]
    if turn.agent_matches is not None:
        ignored, kept = _other_agents(turn, calls, ignored)
    return ignored, kept, over_cap


def _in_place(verdict: TurnVerdict, calls: list[ToolCall]) -> bool:
    """Whether the calls keep the turn's places and ``never`` steps; what breaks them goes
    into ``verdict.out_of_order``."""
    turn, selection = verdict.turn, verdict.turn.selection
    out_of_place = place_breaks(
        selection.expectations, calls, verdict.candidates, verdict.matching, selection.placed,
        turn.nevers,
    )  # fmt: skip
    if out_of_place:
        verdict.out_of_order = out_of_place
    return not out_of_place


def _limits_held(verdict: TurnVerdict, calls: list[ToolCall], kept: list[int] | None) -> bool:
    """Whether the kept calls keep the turn's ``max_calls``, ``no_repeats`` and ``tools``;
    what breaks the last two goes into the verdict."""
    turn = verdict.turn
    held = turn.max_calls is None or verdict.kept_count <= turn.max_calls
    if turn.no_repeats:
        verdict.repeats = _repeats(calls, kept)
        held = held and not verdict.repeats
    if turn.tools is not None:
        fits = turn.tools.fits
        judged = range(len(calls)) if kept is None else kept
        verdict.misfits = [index for index in judged if not fits(calls[index])]
        held = held and not verdict.misfits
    return held


def _answer_held(verdict: TurnVerdict, said: tuple[str | None, str | None] | None) -> bool:
    """Whether ``said`` is the final answer the turn checks; a problem goes into the
    verdict."""
    answer = verdict.turn.answer
    assert answer is not None
    if said is None:
        raise ValueError(
            f"the turn checks its final answer ({answer!r}), but was given no "
            "messages to read it from"
        )
    problem = answer_problem(answer, said, _TURN_ANSWER)
    if problem is not None:
        verdict.answer_problems = [problem]
    return problem is None


def _capped(
    turn: TurnPlan,
    caps: list[int | None],
    calls: list[ToolCall],
    found_by: list[list[int]],
    ignored: dict[int, int],
) -> dict[int, int]:
    """Leave out, into ``ignored``, what each pattern matches, in list order, up to its
    ``max_count``: the first matching calls in call order that no earlier pattern left out
    (another agent's call is left out too, and not counted: the turn judges only its
    agent's). Returns the calls a full cap left in, with the pattern that matched first."""
    agent_matches = turn.agent_matches
    over: dict[int, int] = {}
    for number, found in enumerate(found_by):
        cap = caps[number]
        if cap is None:
            for index in found:
                ignored.setdefault(index, number)
            continue
        for index in found:
            if index in ignored:
                continue
            if agent_matches is not None and not _is_agents(turn, index, calls[index]):
                ignored[index] = number
            elif cap:
                ignored[index] = number
                cap -= 1
            else:
                over.setdefault(index, number)
    return {index: number for index, number in over.items() if index not in ignored}


def _other_agents(
    turn: TurnPlan, calls: list[ToolCall], ignored: dict[int, int] | None
) -> tuple[dict[int, int], list[int]]:
    """The calls left out (the ignored ones, then the other agents'), and those kept."""
    left_out = {} if ignored is None else ignored
    for index, call in enumerate(calls):
        if index not in left_out and not _is_agents(turn, index, call):
            left_out[index] = OTHER_AGENT
    return left_out, [index for index in range(len(calls)) if index not in left_out]


def _is_agents(turn: TurnPlan, index: int, call: ToolCall) -> bool:
    """Whether call ``index`` is the turn's agent's; a call that names no agent cannot say."""
    if call.agent is None:
        raise not_recorded(f"the turn's agent={turn.agent!r}", "agent", index, call)
    assert turn.agent_matches is not None
    return turn.agent_matches(call.agent)


def _assign(verdict: TurnVerdict, all_met: bool) -> bool:
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
    breaks: dict[int, str] = {}
    if turn.order is not None:
        matchings, windows = _windowed(verdict, demands)
        if windows is not None:
            # What breaks the order whatever the pairing is said before what the pairing finds.
            breaks = window_breaks(expectations, demands, verdict.matching, matchings, windows)
            _out_of_order(verdict, breaks)
    if turn.after is not None:
        assigned = _in_partial_order(verdict, demands, matchings)
    elif turn.ordered:
        assigned = assign_ordered(demands, matchings)
    elif turn.exhaustive:
        extras = [
            extra if demand else 0
            for extra, demand in zip(turn.selection.extras, demands, strict=True)
        ]
        assigned = list(assign_covering(demands, extras, matchings))
    else:
        assigned = list(assign_distinct(demands, matchings))
    verdict.demands = demands
    if breaks and turn.after is None and turn.ordered:
        assigned = _excused(verdict, demands, matchings, assigned, breaks)
    enough = [
        got is not None and len(got) >= demand
        for got, demand in zip(assigned, demands, strict=True)
    ]
    if turn.exhaustive:
        order = list(range(len(verdict.calls))) if verdict.kept is None else verdict.kept
        if turn.ordered and turn.after is None:
            assigned = _sequence(verdict, demands, matchings, assigned, order, all(enough))
        claimed = {call for got in assigned if got for call in got}
        # An optional step's calls are its own: out of place, its reason says so.
        claimed.update(
            call
            for number, tool in enumerate(expectations)
            if tool.optional
            for call in verdict.matching[number]
        )
        # A call an expectation that failed would match is not unexpected: it is too few.
        short = {
            call
            for number, tool in enumerate(expectations)
            if tool.count and not (verdict.met[number] and enough[number])
            for call in verdict.matching[number]
        }
        verdict.unexpected = [call for call in order if call not in claimed and call not in short]
    verdict.assigned = assigned
    return all(enough) and not verdict.unexpected and not verdict.out_of_order


def _windowed(
    verdict: TurnVerdict, demands: list[int]
) -> tuple[list[list[int]], OrderWindows | None]:
    """Each expectation's matching calls within the bounds the other steps' calls set
    (docs/selection.md, "What an order means"), and those bounds (``None``: nothing bounded,
    nothing out of place)."""
    turn = verdict.turn
    order = turn.order
    assert order is not None
    matchings = verdict.matching
    takes = [demand > 0 for demand in demands]
    optional = [number for number in turn.optional_steps if not takes[number]]
    never = len(verdict.calls)
    windows = order_windows(matchings, order, takes, optional, never)
    if windows is None:
        return matchings, None
    lows, highs = windows.lows, windows.highs
    if not windows.conflicts and all(low < 0 for low in lows) and all(h == never for h in highs):
        return matchings, None
    windowed = [
        within(found, lows[number], highs[number])
        if lows[number] >= 0 or highs[number] < never
        else found
        for number, found in enumerate(matchings)
    ]
    return windowed, windows


def _excused(
    verdict: TurnVerdict,
    demands: list[int],
    windowed: list[list[int]],
    assigned: list[list[int] | None],
    breaks: Mapping[int, str],
) -> list[list[int] | None]:
    """An ordered turn's assignment where each step that lost its calls only to another
    step's call out of place (which that step's reason names) takes its calls in order as
    if that call were not there."""
    matchings = verdict.matching
    short = {
        number
        for number, got in enumerate(assigned)
        if got is None and number not in breaks and len(matchings[number]) >= demands[number]
    }
    if not short:
        return assigned
    relaxed = assign_ordered(
        demands,
        [matchings[number] if number in short else found for number, found in enumerate(windowed)],
    )
    return [relaxed[number] if number in short else got for number, got in enumerate(assigned)]


def _out_of_order(verdict: TurnVerdict, broken: Mapping[int, str]) -> None:
    """Add ``broken`` to the verdict's constraints broken, keeping those said before."""
    if broken:
        verdict.out_of_order = {**broken, **verdict.out_of_order}


def _in_partial_order(
    verdict: TurnVerdict, demands: list[int], matchings: list[list[int]]
) -> list[list[int] | None]:
    """Calls of their own for the expectations, in the turn's partial order (``matchings``:
    the calls each may take); when there is none, a distinct assignment, with the broken
    constraints in ``verdict.out_of_order``."""
    after, order = verdict.turn.after, verdict.turn.order
    assert after is not None
    assert order is not None
    limit: SearchLimitError | None = None
    try:
        assigned = assign_partial_order(demands, matchings, order)
    except SearchLimitError as error:
        assigned, limit = [], error
    if limit is None and all(got is not None for got in assigned):
        return assigned
    expectations = verdict.turn.selection.expectations
    relaxed = assign_distinct(demands, verdict.matching)
    broken = order_breaks(expectations, demands, matchings, after)
    unmet = (
        limit.part
        if limit is not None
        else [number for number, got in enumerate(assigned) if got is None]
    )
    if not broken and all(
        len(matchings[number]) >= demands[number] and len(relaxed[number]) >= demands[number]
        for number in unmet
    ):
        # Met in order if calls could be shared, and with calls of their own in any order,
        # but not both: the group that cannot be met says so (or that the search gave up).
        for number in unmet:
            if demands[number]:
                broken[number] = unordered_reason(expectations[number], limit is not None)
    _out_of_order(verdict, broken)
    return list(relaxed)


def _sequence(
    verdict: TurnVerdict,
    demands: list[int],
    matchings: list[list[int]],
    assigned: list[list[int] | None],
    order: list[int],
    in_order: bool,
) -> list[list[int] | None]:
    """For an ordered, exhaustive turn: the calls cut into one block per expectation, in
    order, if they can be; else the in-order assignment stretched over what it can cover."""
    expectations = verdict.turn.selection.expectations
    # An optional step takes a block of its calls too, maybe empty.
    optional = len(order)
    highs = [
        (tool.count if tool.max_count is None else tool.max_count)
        if demand
        else (optional if tool.max_count is None else tool.max_count)
        if tool.optional
        else 0
        for tool, demand in zip(expectations, demands, strict=True)
    ]
    if in_order:
        claimers = [
            number
            for number, demand in enumerate(demands)
            if demand or expectations[number].optional
        ]
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
    if most == 0 and (expectation.after or expectation.before):
        return 0, 1, "a matching call where none may be"
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
