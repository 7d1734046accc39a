"""Runs of turns: ``ExpectedTurn`` (one turn of a test case, with its options) and
``RunVerdict``, a run's verdict reached turn by turn (docs/selection.md)."""

from __future__ import annotations

from collections.abc import Sequence

from toolmatch._calls.call import ToolCall
from toolmatch._core.public import public
from toolmatch._core.record import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.to_calls import read_json_syntax, to_calls
from toolmatch._selection.expectation import ExpectedTool
from toolmatch._selection.groups import AnyOrder, InOrder, order_plan, turn_items
from toolmatch._selection.matching import _Selection
from toolmatch._selection.options import (
    TURN_OPTIONS,
    TurnOption,
    option_names,
    turn_options,
)
from toolmatch._selection.results import TurnResult
from toolmatch._selection.turn import _Turn, _Verdict, judge

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._calls.definitions import ToolDefinition

__all__ = ["ExpectedTurn", "RunVerdict", "read_turns"]


_NO_TURN = _Turn(_Selection(()))


@public
class ExpectedTurn(Record):
    """One turn of a :class:`TestCase`: its expected tools, and the options
    :func:`check_turn` takes (``distinct``, ``ordered``, ``exhaustive``, ``ignore``,
    ``max_calls``, ``no_repeats``, ``tools``: kept as the ``ToolDefinition`` values read).

    >>> turn = ExpectedTurn((ExpectedTool("search"),), distinct=True)
    >>> turn.check([{"name": "web_search"}]).passed
    True
    """

    _fields = ("expected_tools", *option_names())
    __slots__ = (*_fields, "_turn")
    __hash__ = None  # type: ignore[assignment]  # matchers hash by identity; so would a turn
    expected_tools: tuple[ExpectedTool | InOrder | AnyOrder, ...]
    distinct: bool
    ordered: bool
    exhaustive: bool
    ignore: tuple[ExpectedTool, ...]
    max_calls: int | None
    no_repeats: bool
    tools: tuple[ToolDefinition, ...] | None
    _turn: _Turn

    def __init__(
        self,
        expected_tools: Sequence[ExpectedTool | InOrder | AnyOrder],
        distinct: bool = False,
        ordered: bool = False,
        exhaustive: bool = False,
        ignore: Sequence[ExpectedTool] = (),
        max_calls: int | None = None,
        no_repeats: bool = False,
        tools: Sequence[object] | None = None,
    ) -> None:
        options = turn_options(locals())
        self._setup(turn_items(expected_tools, "expected_tools"), options)

    def _setup(
        self, expected_tools: list[ExpectedTool | InOrder | AnyOrder], options: dict[str, Any]
    ) -> None:
        """Keep the expectations and options, each checked already."""
        expected = tuple(expected_tools)
        plan = order_plan(expected, "expected_tools", options["ordered"])
        self._assign(expected, *(_kept(option, options[option.name]) for option in TURN_OPTIONS))
        # Kept for every run this turn judges: it remembers which expectations select a name.
        turn = _Turn(_Selection(plan.expectations), **options, after=plan.after)
        object.__setattr__(self, "_turn", turn)

    def check(self, calls: object, turn: int | None = None) -> TurnResult:
        """Judge one turn's calls (anything :func:`to_calls` reads) against this turn.

        >>> ExpectedTurn([ExpectedTool("fetch")]).check([{"name": "search"}], turn=2)
        <TurnResult turn 2 failed: 0 of 1 expectation(s) met over 1 call(s); expectation 0: \
expected 1 matching call(s), got 0: no call's name contains 'fetch'; the turn called 'search'>
        """
        return judge(self._turn, to_calls(calls)).result(turn)


def _kept(option: TurnOption, value: Any) -> object:
    """An option's checked value as a turn keeps it: ``ignore`` as a tuple, ``tools`` as
    the ``ToolDefinition`` values read."""
    if option.kind == "patterns":
        return tuple(value)
    if option.kind == "tools":
        return None if value is None else tuple(value.definitions.values())
    return value


def read_turns(
    call_turns: Sequence[object], where: str, copy_args: bool = True
) -> list[list[ToolCall]]:
    """Each turn's calls; one :func:`to_calls` cannot read raises ``TypeError`` naming it,
    and one it will not guess at (several choices) ``ValueError``, named the same way."""
    calls_per_turn = []
    for number, turn in enumerate(call_turns):
        try:
            calls_per_turn.append(read_json_syntax(turn, copy_args))
        except TypeError as error:
            raise TypeError(f"{where}[{number}]: {error}") from None
        except ValueError as error:
            raise ValueError(f"{where}[{number}]: {error}") from None
    return calls_per_turn


def _judge_run(
    turns: Sequence[ExpectedTurn],
    calls_per_turn: Sequence[list[ToolCall]],
    max_calls: int | None,
    judged: list[_Verdict],
    until_failure: bool = False,
) -> bool:
    """Judge the run's turns after those in ``judged``, adding each turn's verdict with what
    is wrong with the run around it: a turn missing on one side (its ``reason``), the run's
    calls going over ``max_calls`` at this turn (``over``). With ``until_failure``, the run
    stops at its first failing turn (a verdict needs no more). Whether every turn judged
    passed."""
    expected, recorded = len(turns), len(calls_per_turn)
    total = 0
    if judged and max_calls is not None:
        total = sum(verdict.kept_count for verdict in judged)
    passed = True
    # Not max(): a builtin's call costs more than the comparison.
    for number in range(len(judged), expected if expected > recorded else recorded):
        if number < expected and number < recorded:
            verdict = judge(turns[number]._turn, calls_per_turn[number])
        else:
            verdict = _judge_missing(turns, calls_per_turn, number)
        if max_calls is not None:
            before, total = total, total + verdict.kept_count
            if before <= max_calls < total:
                verdict.over = (
                    f"expected at most {max_calls} call(s) in the case, got {total} "
                    f"by the end of turn {number}"
                )
                verdict.passed = False
        judged.append(verdict)
        if not verdict.passed:
            passed = False
            if until_failure:
                break
    return passed


def _judge_missing(
    turns: Sequence[ExpectedTurn], calls_per_turn: Sequence[list[ToolCall]], number: int
) -> _Verdict:
    """A turn present on one side only: judged as if the other side were empty, failing."""
    if number >= len(calls_per_turn):
        verdict, missing = judge(turns[number]._turn, []), "has no calls"
    else:
        verdict, missing = judge(_NO_TURN, calls_per_turn[number]), "has calls but no expectations"
    verdict.reason = (
        f"turn {number} {missing}: got {len(calls_per_turn)} call turn(s) for "
        f"{len(turns)} expected turn(s)"
    )
    verdict.passed = False
    return verdict


class RunVerdict:
    """A run's verdict, reached turn by turn up to its first failing turn; :meth:`results`
    judges the turns after that one and puts every turn's verdict into words."""

    __slots__ = ("_turns", "_calls_per_turn", "_max_calls", "_judged", "passed")

    def __init__(
        self,
        turns: Sequence[ExpectedTurn],
        calls_per_turn: Sequence[list[ToolCall]],
        max_calls: int | None = None,
    ) -> None:
        self._turns = turns
        self._calls_per_turn = calls_per_turn
        self._max_calls = max_calls
        self._judged: list[_Verdict] = []
        # until_failure, passed positionally: a keyword would keep the call unspecialized
        self.passed = _judge_run(turns, calls_per_turn, max_calls, self._judged, True)

    def results(self) -> list[TurnResult]:
        """Each turn's full result."""
        _judge_run(self._turns, self._calls_per_turn, self._max_calls, self._judged)
        return [verdict.result(number) for number, verdict in enumerate(self._judged)]

    def failed_results(self) -> list[TurnResult]:
        """The full results of the turns that failed, in order: what a report of the
        failures needs, without the words of the turns that passed."""
        _judge_run(self._turns, self._calls_per_turn, self._max_calls, self._judged)
        return [
            verdict.result(number)
            for number, verdict in enumerate(self._judged)
            if not verdict.passed
        ]

    def verdicts(self) -> list[_Verdict]:
        """Every turn's verdict, as data (which calls each expectation matched), without
        words: what ``check --coverage`` counts."""
        _judge_run(self._turns, self._calls_per_turn, self._max_calls, self._judged)
        return self._judged
