"""The public check and assert functions: ``check_turn``, ``check_turns``,
``assert_called``, ``assert_turn`` (docs/selection.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.judges import start_run
from toolmatch._readers.to_calls import to_calls
from toolmatch._selection.expectation import ExpectedItem, ExpectedTool
from toolmatch._selection.groups import order_plan, turn_items
from toolmatch._selection.matching import Selection
from toolmatch._selection.options import turn_options
from toolmatch._selection.results import ToolCheck, TurnResult
from toolmatch._selection.run import (
    ExpectedTurn,
    judge_alone,
    plan_of,
    read_answers,
    read_said,
    read_turns,
    run_verdict,
)
from toolmatch._selection.turn import TurnPlan

if TYPE_CHECKING:
    from typing import Any

__all__ = ["assert_called", "assert_turn", "check_turn", "check_turns"]


@public
def check_turn(
    expected: Sequence[ExpectedItem],
    calls: object,
    *,
    distinct: bool = False,
    ordered: bool = False,
    exhaustive: bool = False,
    ignore: Sequence[ExpectedTool] = (),
    max_calls: int | None = None,
    no_repeats: bool = False,
    tools: Sequence[object] | None = None,
    agent: str | Matcher | None = None,
    answer: object = None,
) -> TurnResult:
    """Judge one turn's calls against a list of expectations.

    By default each expectation is judged on its own, so one call may satisfy two.
    With ``distinct=True`` each expectation needs ``count`` calls of its own, found by an
    optimal assignment; with ``ordered=True`` the expectations must be met in their order
    by distinct calls (others may sit between); :class:`InOrder` and :class:`AnyOrder`
    items and ``before`` / ``after`` between expectations give a partial order; with
    ``exhaustive=True`` every call must
    also be claimed by an expectation. Calls matching an ``ignore`` pattern are left out
    first (at most ``max_count`` of them, the first, when it has one); ``max_calls`` bounds
    the calls left, ``no_repeats`` forbids the same call twice, and with ``tools`` (tool
    definitions, in any shape :func:`read_tool_definitions` reads) every call left must
    satisfy its tool's definition. With ``agent`` (a name or a
    matcher) only that agent's calls are judged, the others left out. ``answer`` (a value
    or a matcher) must match the turn's final answer, the text of the model's last message
    in ``calls`` (docs/selection.md).

    >>> from toolmatch import ExpectedTool
    >>> expected = [ExpectedTool("s", {"q": "x"}), ExpectedTool("s", {"q": "x", "lim": 5})]
    >>> calls = [{"name": "s", "args": {"q": "x", "lim": 5}}, {"name": "s", "args": {"q": "x"}}]
    >>> check_turn(expected, calls, distinct=True).passed
    True
    >>> check_turn(expected, calls, ordered=True).passed
    False
    >>> check_turn(expected[:1], calls, exhaustive=True).problems
    ("call 1 s({'q': 'x'}) is not expected",)
    """
    return _checked_turn(expected, calls, turn_options(locals()))


def _checked_turn(expected: object, calls: object, options: dict[str, Any]) -> TurnResult:
    """What :func:`check_turn` gives, for options already checked."""
    plan = order_plan(turn_items(expected), "expected", options["ordered"])
    turn = TurnPlan(Selection(plan.expectations), **options, after=plan.after, nevers=plan.nevers)
    start_run()
    said = None if turn.answer is None else read_said(calls)
    return judge_alone(turn, to_calls(calls), said).result()


@public
def check_turns(
    expected_turns: Sequence[Sequence[ExpectedItem]],
    call_turns: Sequence[object],
    *,
    distinct: bool = False,
    ordered: bool = False,
    exhaustive: bool = False,
    ignore: Sequence[ExpectedTool] = (),
    max_calls: int | None = None,
    no_repeats: bool = False,
    tools: Sequence[object] | None = None,
    agent: str | Matcher | None = None,
    answer: object = None,
) -> list[TurnResult]:
    """Judge each turn's calls against that turn's expectations only.

    A turn present on one side only fails with a ``reason``; the options are as for
    :func:`check_turn`, for every turn (``max_calls`` bounds each turn, ``answer`` checks
    each turn's final answer).

    >>> from toolmatch import ExpectedTool
    >>> results = check_turns([[ExpectedTool("search")], [ExpectedTool("search")]],
    ...                       [[{"name": "search"}, {"name": "search"}]])
    >>> [result.passed for result in results]
    [True, False]
    >>> results[1].reason
    'turn 1 has no calls: got 1 call turn(s) for 2 expected turn(s)'
    """
    for where, value in (("expected_turns", expected_turns), ("call_turns", call_turns)):
        if not isinstance(value, (list, tuple)):
            raise TypeError(
                f"{where} must be a list with one entry per turn, got {short_repr(value)} "
                f"({type_name(value)})"
            )
    options = turn_options(locals())
    turns = []
    for number, expectations in enumerate(expected_turns):
        turn = ExpectedTurn.__new__(ExpectedTurn)
        turn._setup(turn_items(expectations, f"expected_turns[{number}]"), options)
        turns.append(turn)
    start_run()
    calls = read_turns(call_turns, "call_turns")
    answers = read_answers(turns, call_turns, None)
    plans = [turn._plan for turn in turns]
    return run_verdict(plans, calls, None, answers, plan_of(turns)).results()


@public
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
      score 0/1 = 0.00: the closest call matches 0 of 1 asserted argument(s)
      call 0 search({}): q: missing
    """
    __tracebackhide__ = True
    check = ExpectedTool(name, args, count=count, max_count=max_count).check(calls)
    if not check.passed:
        raise AssertionError(str(check))
    return check


@public
def assert_turn(
    expected: Sequence[ExpectedItem],
    calls: object,
    *,
    distinct: bool = False,
    ordered: bool = False,
    exhaustive: bool = False,
    ignore: Sequence[ExpectedTool] = (),
    max_calls: int | None = None,
    no_repeats: bool = False,
    tools: Sequence[object] | None = None,
    agent: str | Matcher | None = None,
    answer: object = None,
) -> TurnResult:
    """Assert that one turn's ``calls`` meet every expectation; return the passing result.

    ``expected`` and the options are what :func:`check_turn` takes; the
    ``AssertionError`` message is the turn's full explanation.

    >>> calls = [{"name": "search", "args": {"q": "x", "lim": 5}}, {"name": "search"}]
    >>> expected = [ExpectedTool("search", {"q": "x"}), ExpectedTool("search")]
    >>> assert_turn(expected, calls, distinct=True)
    <TurnResult passed: 2 of 2 expectation(s) met over 2 call(s)>
    """
    __tracebackhide__ = True
    result = _checked_turn(expected, calls, turn_options(locals()))
    if not result.passed:
        raise AssertionError(str(result))
    return result
