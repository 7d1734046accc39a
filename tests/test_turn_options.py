"""Turn options (selection v2, issue 12): budgets, ignored calls, exhaustive turns and scores,
through the public API: check_turn, assert_turn, check_turns, ExpectedTurn and TestCase."""

from __future__ import annotations

import itertools
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolmatch import (
    ANY,
    ExpectedTool,
    ExpectedTurn,
    Literal,
    NotRecordedError,
    OneOf,
    Regex,
    TestCase,
    ToolCall,
    TurnResult,
    assert_turn,
    check_turn,
    check_turns,
)


def call(name: str, **args: object) -> dict[str, object]:
    return {"name": name, "args": args}


# --- every turn option, accepted alike everywhere --------------------------------------------


def _via_check_turn(expected: list[ExpectedTool], calls: object, **options: Any) -> TurnResult:
    return check_turn(expected, calls, **options)


def _via_assert_turn(expected: list[ExpectedTool], calls: object, **options: Any) -> TurnResult:
    try:
        return assert_turn(expected, calls, **options)
    except AssertionError:
        return check_turn(expected, calls, **options)


def _via_check_turns(expected: list[ExpectedTool], calls: object, **options: Any) -> TurnResult:
    (result,) = check_turns([expected], [calls], **options)
    return result


def _via_expected_turn(expected: list[ExpectedTool], calls: object, **options: Any) -> TurnResult:
    return ExpectedTurn(expected, **options).check(calls)


def _via_test_case(expected: list[ExpectedTool], calls: object, **options: Any) -> TurnResult:
    case = TestCase("case", [ExpectedTurn(expected, **options)])
    (result,) = case.check([calls])
    assert case.passes([calls]) == result.passed
    return result


ENTRY_POINTS: list[Callable[..., TurnResult]] = [
    _via_check_turn,
    _via_assert_turn,
    _via_check_turns,
    _via_expected_turn,
    _via_test_case,
]

OPTION_CASES: list[tuple[dict[str, Any], list[dict[str, object]], bool]] = [
    ({"distinct": True}, [call("s")], False),
    ({"ordered": True}, [call("t"), call("s")], False),
    ({"exhaustive": True}, [call("s"), call("t"), call("u")], False),
    ({"exhaustive": True, "ignore": [ExpectedTool("u")]}, [call("s"), call("t"), call("u")], True),
    (
        {"exhaustive": True, "ignore": [ExpectedTool("u", max_count=1)]},
        [call("s"), call("u"), call("t"), call("u")],
        False,
    ),
    ({"max_calls": 2}, [call("s"), call("t"), call("s")], False),
    ({"max_calls": 3}, [call("s"), call("t"), call("s")], True),
    ({"no_repeats": True}, [call("s", q=1), call("t"), call("s", q=1.0)], False),
    ({"no_repeats": True}, [call("s", q=1), call("t"), call("s", q=True)], True),
]


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda entry: entry.__name__[5:])
@pytest.mark.parametrize(("options", "calls", "passed"), OPTION_CASES)
def test_every_option_is_accepted_alike(
    entry: Callable[..., TurnResult],
    options: dict[str, Any],
    calls: list[dict[str, object]],
    passed: bool,
) -> None:
    expected = [ExpectedTool("s"), ExpectedTool("t")]
    result = entry(expected, calls, **options)
    assert result.passed is passed
    assert result.as_dict() == check_turn(expected, calls, **options).as_dict() | {
        "turn": result.turn
    }


BAD_OPTIONS: list[tuple[dict[str, Any], type[Exception], str]] = [
    ({"distinct": 1}, TypeError, "distinct must be True or False, got 1"),
    ({"ordered": "yes"}, TypeError, "ordered must be True or False, got 'yes'"),
    ({"exhaustive": None}, TypeError, "exhaustive must be True or False, got None"),
    ({"no_repeats": 0}, TypeError, "no_repeats must be True or False, got 0"),
    ({"max_calls": -1}, ValueError, "max_calls must be >= 0, got -1"),
    ({"max_calls": True}, TypeError, "max_calls must be an int >= 0 or None, got True (bool)"),
    ({"max_calls": 2.0}, TypeError, "max_calls must be an int >= 0 or None, got 2.0 (float)"),
    (
        {"ignore": ExpectedTool("s")},
        TypeError,
        "ignore must be a list of ExpectedTool, got ExpectedTool('s') (toolmatch.ExpectedTool)",
    ),
    ({"ignore": ["s"]}, TypeError, "ignore[0] must be an ExpectedTool, got 's' (str)"),
    (
        {"ignore": [ExpectedTool("s", count=2)]},
        ValueError,
        "ignore[0] is ExpectedTool('s', count=2): an ignore pattern selects calls, so count "
        "means nothing there; write ExpectedTool(name, args) without it (ignore patterns take "
        "max_count=N, not count: at most N matching calls left out)",
    ),
    (
        {"ignore": [ExpectedTool("s", count=0, max_count=2)]},
        ValueError,
        "ignore[0] is ExpectedTool('s', count=0, max_count=2): an ignore pattern selects "
        "calls, so count means nothing there; write ExpectedTool(name, args) without it "
        "(ignore patterns take max_count=N, not count: at most N matching calls left out)",
    ),
    (
        {"ignore": [ExpectedTool.never("s")]},
        ValueError,
        "ignore[0] is ExpectedTool.never('s'): an ignore pattern selects calls, so count "
        "means nothing there; write ExpectedTool(name, args) without it (ignore patterns take "
        "max_count=N, not count: at most N matching calls left out)",
    ),
]


@pytest.mark.parametrize("entry", ENTRY_POINTS, ids=lambda entry: entry.__name__[5:])
@pytest.mark.parametrize(("options", "error", "message"), BAD_OPTIONS)
def test_bad_options_are_refused_alike(
    entry: Callable[..., TurnResult],
    options: dict[str, Any],
    error: type[Exception],
    message: str,
) -> None:
    with pytest.raises(error) as raised:
        entry([ExpectedTool("s")], [], **options)
    assert str(raised.value) == message


def test_check_turns_checks_its_options_without_any_turn() -> None:
    with pytest.raises(TypeError, match="no_repeats must be True or False"):
        check_turns([], [], no_repeats="no")  # type: ignore[arg-type]


def test_test_case_max_calls_is_checked() -> None:
    with pytest.raises(ValueError, match="max_calls must be >= 0, got -3"):
        TestCase("case", [], max_calls=-3)


def test_turns_and_cases_keep_their_options_and_pickle() -> None:
    turn = ExpectedTurn(
        [ExpectedTool("s")],
        exhaustive=True,
        ignore=[ExpectedTool("get_")],
        max_calls=4,
        no_repeats=True,
    )
    assert (turn.distinct, turn.exhaustive, turn.max_calls, turn.no_repeats) == (
        False,
        True,
        4,
        True,
    )
    assert repr(turn.ignore) == "(ExpectedTool('get_'),)"
    case = TestCase("case", [turn], max_calls=5)
    copy = pickle.loads(pickle.dumps(case))
    assert repr(copy) == repr(case)
    calls = [[call("s"), call("get_x"), call("s")]]
    assert [r.as_dict() for r in copy.check(calls)] == [r.as_dict() for r in case.check(calls)]
    assert not case.passes(calls)  # call 2 is not expected


# --- budgets: count=0 caps, max_calls, no_repeats ---------------------------------------------


def test_a_cap_claims_no_call_in_distinct_mode() -> None:
    # The case: a cap next to an expectation of the same tool.
    calls = [call("search", q="a"), call("search", q="b")]
    expected = [ExpectedTool("search", {"q": "a"}), ExpectedTool("search", count=0, max_count=2)]
    result = check_turn(expected, calls, distinct=True)
    assert result.passed
    assert [check.assigned_call_indices for check in result.checks] == [(0,), ()]
    # With count=1 (the default), the bound claims a call of its own, as the issue says it must.
    claiming = [ExpectedTool("search", {"q": "a"}), ExpectedTool("search", max_count=2)]
    assert check_turn(claiming, calls[:1], distinct=True).checks[1].unmatched_reason == (
        "expected 1 matching call(s) of its own, got 0: call 0 is needed by expectation 0 too"
    )


def test_a_cap_bounds_the_matching_calls() -> None:
    calls = [call("search"), call("search"), call("search")]
    cap = ExpectedTool("search", count=0, max_count=2)
    assert repr(cap) == "ExpectedTool('search', count=0, max_count=2)"
    assert cap.check([]).passed
    assert cap.check(calls[:2]).passed
    check = cap.check(calls)
    assert check.unmatched_reason == "expected at most 2 matching call(s), got 3"
    assert str(check).splitlines()[1:3] == [
        "  required: at most 2 matching calls; found 3: calls 0, 1, 2",
        "  score 2/3 = 0.67: at most 2 of the 3 matching calls are allowed",
    ]
    assert pickle.loads(pickle.dumps(cap)).check(calls).as_dict() == check.as_dict()
    # count=0, max_count=0 is never.
    assert repr(ExpectedTool("rm", count=0, max_count=0)) == "ExpectedTool.never('rm')"


def test_max_calls_bounds_the_calls_not_ignored() -> None:
    calls = [call("get_weather"), call("search"), call("get_time"), call("book")]
    result = check_turn([ExpectedTool("book")], calls, max_calls=2)
    assert not result.passed
    assert [check.passed for check in result.checks] == [True]
    assert result.problems == ("expected at most 2 call(s) in the turn, got 4",)
    ignoring = check_turn([ExpectedTool("book")], calls, max_calls=2, ignore=[ExpectedTool("get_")])
    assert ignoring.passed
    over = check_turn([], calls, max_calls=1, ignore=[ExpectedTool("get_")])
    assert over.problems == (
        "expected at most 1 call(s) in the turn, got 2 (not counting 2 ignored)",
    )
    assert check_turn([], [], max_calls=0).passed
    assert not check_turn([], [call("x")], max_calls=0).passed


def test_no_repeats_uses_literal_rules() -> None:
    calls = [
        call("search", q="paris", n=1),
        call("search", q="paris", n=1.0),  # 1 == 1.0 by Literal rules: a repeat
        call("search", q="paris", n=True),  # a bool is not 1: not a repeat
        call("fetch", q="paris", n=1),  # another tool: not a repeat
        call("search", q="paris", n=1),
        call("search", q={"odd"}),  # a set has no canonical key: compared the slow way
        call("search", q={"odd"}),
    ]
    result = check_turn([ExpectedTool("search")], calls, no_repeats=True)
    assert not result.passed
    assert result.problems == (
        "calls 1, 4 repeat call 0: search({'q': 'paris', 'n': 1})",
        "call 6 repeats call 5: search({'q': {'odd'}})",
    )
    assert check_turn([ExpectedTool("search")], calls[:4], no_repeats=False).passed


def test_no_repeats_leaves_unreadable_arguments_alone() -> None:
    broken = ToolCall("search", {}, parse_error="arguments are not valid JSON")
    assert check_turn([], [broken, broken], no_repeats=True).passed
    ignored = check_turn(
        [], [call("a"), call("a")], no_repeats=True, ignore=[ExpectedTool(OneOf("a"))]
    )
    assert ignored.passed


def test_many_repeats_are_shortened() -> None:
    calls = [call("s", i=index % 12) for index in range(24)]
    problems = check_turn([], calls, no_repeats=True).problems
    assert problems[0] == "call 12 repeats call 0: s({'i': 0})"
    assert problems[-1] == "and 2 more repeated call(s)"
    assert len(problems) == 11


def test_test_case_max_calls_counts_every_turn() -> None:
    turn = ExpectedTurn([ExpectedTool("s")], ignore=[ExpectedTool("log")])
    case = TestCase("case", [turn, turn, turn], max_calls=4)
    runs = [[call("s"), call("log")], [call("s"), call("s")], [call("s"), call("s")]]
    results = case.check(runs)
    assert [result.passed for result in results] == [True, True, False]
    assert results[2].problems == (
        "expected at most 4 call(s) in the case, got 5 by the end of turn 2",
    )
    assert not case.passes(runs)
    assert case.passes([*runs[:2], [call("s"), call("log")]])


# --- ignored calls --------------------------------------------------------------------------

READ_ONLY = ("get_weather", "search_flights")


def test_ignored_calls_are_left_out_before_judging() -> None:
    calls = [
        call("get_weather", city="Paris"),
        call("book_flight", id="AF1"),
        call("cancel_reservation", reservation_id="ZZZ999"),
        call("search_flights", to="Rome"),
        call("cancel_reservation", reservation_id="AB12"),
    ]
    tool_failed = ExpectedTool("cancel", {"reservation_id": "ZZZ999"})
    ignore = [ExpectedTool(OneOf(*READ_ONLY)), tool_failed]
    expected = [
        ExpectedTool("book_flight"),
        ExpectedTool("cancel_reservation", {"reservation_id": "AB12"}),
    ]
    result = check_turn(expected, calls, exhaustive=True, ignore=ignore)
    assert result.passed
    assert [(ignored.index, ignored.by) for ignored in result.ignored] == [(0, 0), (2, 1), (3, 0)]
    assert [str(ignored) for ignored in result.ignored] == [
        "call 0 get_weather({'city': 'Paris'}) ignored by ignore[0] "
        "ExpectedTool(OneOf('get_weather', 'search_flights'))",
        "call 2 cancel_reservation({'reservation_id': 'ZZZ999'}) ignored by ignore[1] "
        "ExpectedTool('cancel', {'reservation_id': 'ZZZ999'})",
        "call 3 search_flights({'to': 'Rome'}) ignored by ignore[0] "
        "ExpectedTool(OneOf('get_weather', 'search_flights'))",
    ]
    # Indices stay the turn's own: the expectations are given calls 1 and 4.
    assert [check.assigned_call_indices for check in result.checks] == [(1,), (4,)]
    assert result.judged_calls == 2
    assert result.call_count == 5
    text = str(result).splitlines()
    assert text[0] == "turn PASSED (exhaustive): 2 of 2 expectation(s) met over 5 call(s)"
    assert text[1] == "  score: precision 2/2 = 1.00, recall 2/2 = 1.00, f1 1.00"
    assert text[2].startswith("  call 0 get_weather({'city': 'Paris'}) ignored by ignore[0]")
    data = result.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["ignored"][1] == {
        "index": 2,
        "name": "cancel_reservation",
        "args": {"reservation_id": "ZZZ999"},
        "by": 1,
        "pattern": "ExpectedTool('cancel', {'reservation_id': 'ZZZ999'})",
    }


def test_an_ignored_call_satisfies_nothing() -> None:
    calls = [call("get_weather")]
    result = check_turn([ExpectedTool("get_weather")], calls, ignore=[ExpectedTool("get_")])
    assert not result.passed
    assert result.checks[0].unmatched_reason == (
        "expected 1 matching call(s), got 0: no call's name contains 'get_weather' once ignored "
        "calls are left out: call 0 get_weather({}) ignored by ignore[0] ExpectedTool('get_')"
    )
    assert ExpectedTool.never("get_").check(calls).unmatched_reason is not None
    assert check_turn([ExpectedTool.never("get_")], calls, ignore=[ExpectedTool(ANY)]).passed


# --- exhaustive turns -----------------------------------------------------------------------


def test_an_exhaustive_turn_names_each_call_not_expected() -> None:
    calls = [
        call("search", q="x"),
        call("book", id=1),
        call("cancel_reservation", reservation_id="ZZZ999"),
        call("search", q="y"),
    ]
    expected = [ExpectedTool("search"), ExpectedTool("book")]
    assert check_turn(expected, calls, distinct=True).passed
    result = check_turn(expected, calls, exhaustive=True)
    assert not result.passed
    assert [check.passed for check in result.checks] == [True, True]
    assert result.unexpected_call_indices == (2, 3)
    assert result.problems == (
        "call 2 cancel_reservation({'reservation_id': 'ZZZ999'}) is not expected",
        "call 3 search({'q': 'y'}) is not expected",
    )
    assert str(result).splitlines()[:4] == [
        "turn FAILED (exhaustive): 2 of 2 expectation(s) met over 4 call(s)",
        "  call 2 cancel_reservation({'reservation_id': 'ZZZ999'}) is not expected",
        "  call 3 search({'q': 'y'}) is not expected",
        "  score: precision 2/4 = 0.50, recall 2/2 = 1.00, f1 0.67",
    ]
    assert result.distinct
    assert result.exhaustive
    twice = [*expected, ExpectedTool(Literal("search"))]
    assert check_turn(twice, calls, exhaustive=True).problems == (
        "call 2 cancel_reservation({'reservation_id': 'ZZZ999'}) is not expected",
    )


def test_exhaustive_claims_count_calls_and_a_range_up_to_max_count() -> None:
    calls = [call("search"), call("search"), call("search")]
    assert not check_turn([ExpectedTool("search")], calls, exhaustive=True).passed
    assert check_turn([ExpectedTool("search", count=3)], calls, exhaustive=True).passed
    ranged = check_turn([ExpectedTool("search", max_count=3)], calls, exhaustive=True)
    assert ranged.passed
    assert ranged.checks[0].assigned_call_indices == (0, 1, 2)
    assert ranged.precision == 1.0
    # A range never takes a call that another expectation needs.
    both = [ExpectedTool("search", max_count=3), ExpectedTool("search", count=2)]
    result = check_turn(both, calls, exhaustive=True)
    assert result.passed
    assert [len(check.assigned_call_indices or ()) for check in result.checks] == [1, 2]


def test_caps_and_nevers_claim_nothing_in_an_exhaustive_turn() -> None:
    calls = [call("search"), call("book")]
    expected = [ExpectedTool("book"), ExpectedTool("search", count=0, max_count=2)]
    result = check_turn(expected, calls, exhaustive=True)
    assert result.problems == ("call 0 search({}) is not expected",)
    assert check_turn(expected, calls, exhaustive=True, ignore=[ExpectedTool("search")]).passed


def test_calls_of_a_failed_expectation_are_not_called_unexpected() -> None:
    calls = [call("search"), call("book")]
    result = check_turn(
        [ExpectedTool("search", count=2), ExpectedTool("book")], calls, exhaustive=True
    )
    assert [check.unmatched_reason for check in result.checks] == [
        "expected 2 matching call(s), got 1",
        None,
    ]
    assert result.problems == ()
    assert not result.passed


def test_many_unexpected_calls_are_shortened() -> None:
    result = check_turn([], [call("x", i=index) for index in range(13)], exhaustive=True)
    assert result.problems[-1] == "and 3 more unexpected call(s)"
    assert len(result.problems) == 11
    assert result.unexpected_call_indices == tuple(range(13))


def test_ordered_and_exhaustive_is_a_strict_sequence() -> None:
    expected = [ExpectedTool("search"), ExpectedTool("book")]
    assert check_turn(expected, [call("search"), call("book")], ordered=True, exhaustive=True)
    between = check_turn(
        expected, [call("search"), call("log"), call("book")], ordered=True, exhaustive=True
    )
    assert between.problems == ("call 1 log({}) is not expected",)
    assert check_turn(
        expected,
        [call("search"), call("log"), call("book")],
        ordered=True,
        exhaustive=True,
        ignore=[ExpectedTool("log")],
    ).passed
    swapped = check_turn(expected, [call("book"), call("search")], ordered=True, exhaustive=True)
    assert not swapped.passed


def test_a_strict_sequence_with_ranges_is_cut_optimally() -> None:
    # Taking the earliest calls gives the range one search, ANY the second, and leaves
    # call 2 over.
    expected = [ExpectedTool("search", max_count=2), ExpectedTool(ANY)]
    calls = [call("search"), call("search"), call("book")]
    result = check_turn(expected, calls, ordered=True, exhaustive=True)
    assert result.passed
    assert [check.assigned_call_indices for check in result.checks] == [(0, 1), (2,)]
    # A range takes the matching calls right after its own; the rest break the sequence.
    stretched = check_turn(
        [ExpectedTool("search", max_count=3), ExpectedTool("book")],
        [call("search"), call("search"), call("book"), call("search")],
        ordered=True,
        exhaustive=True,
    )
    assert stretched.problems == ("call 3 search({}) is not expected",)
    assert [check.assigned_call_indices for check in stretched.checks] == [(0, 1), (2,)]


# brute force: an exhaustive turn passes exactly when some claim of every call exists


def _claims_exist(
    wanted: list[tuple[int, int]], matches: list[set[int]], calls: int, ordered: bool
) -> bool:
    # max_count bounds the matching calls, whoever claims them.
    if any(len(found) > high > low for (low, high), found in zip(wanted, matches, strict=True)):
        return False
    for owners in itertools.product(range(len(wanted)), repeat=calls):
        if any(index not in matches[owner] for index, owner in enumerate(owners)):
            continue
        if not all(
            low <= owners.count(number) <= high for number, (low, high) in enumerate(wanted)
        ):
            continue
        if ordered and list(owners) != sorted(owners):
            continue
        return True
    return False


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from("ab"), st.integers(1, 2), st.integers(0, 1)),
        min_size=1,
        max_size=3,
    ),
    st.lists(st.sampled_from("abc"), max_size=5),
    st.booleans(),
)
def test_exhaustive_matches_brute_force(
    wanted: list[tuple[str, int, int]], names: list[str], ordered: bool
) -> None:
    expected = [
        ExpectedTool(name, count=count, max_count=count + extra if extra else None)
        for name, count, extra in wanted
    ]
    calls = [call(name) for name in names]
    matches = [
        {index for index, called in enumerate(names) if called == name} for name, _, _ in wanted
    ]
    bounds = [(count, count + extra) for _, count, extra in wanted]
    result = check_turn(expected, calls, exhaustive=True, ordered=ordered)
    assert result.passed == _claims_exist(bounds, matches, len(calls), ordered)
    if not result.passed and all(check.passed for check in result.checks):
        assert result.problems  # a failing turn always says why


# --- scores ---------------------------------------------------------------------------------


def test_turn_scores_show_their_arithmetic() -> None:
    calls = [call("search"), call("fetch"), call("book"), call("pay")]
    expected = [
        ExpectedTool("search"),
        ExpectedTool("fetch"),
        ExpectedTool("book"),
        ExpectedTool("refund"),
    ]
    result = check_turn(expected, calls)
    assert (result.precision, result.recall) == (0.75, 0.75)
    assert result.f1 == pytest.approx(0.75)
    assert result.score_text() == "precision 3/4 = 0.75, recall 3/4 = 0.75, f1 0.75"
    assert "  score: precision 3/4 = 0.75, recall 3/4 = 0.75, f1 0.75" in str(result).splitlines()
    data = result.as_dict()
    assert data["recall"] == {"numerator": 3, "denominator": 4, "value": 0.75}
    assert data["precision"] == {"numerator": 3, "denominator": 4, "value": 0.75}
    assert data["f1"] == pytest.approx(0.75)
    assert "score: precision 3/4 = 0.75, recall 3/4 = 0.75" in result._repr_html_()


def test_scores_never_change_the_verdict() -> None:
    extra = check_turn([ExpectedTool("search")], [call("search"), call("log")])
    assert extra.passed
    assert extra.precision == 0.5
    assert extra.recall == 1.0
    none = check_turn([], [])
    assert none.passed
    assert (none.precision, none.recall, none.f1) == (1.0, 1.0, 1.0)
    nothing_done = check_turn([ExpectedTool("search")], [])
    assert (nothing_done.precision, nothing_done.recall, nothing_done.f1) == (1.0, 0.0, 0.0)


def test_scores_are_optimal_not_greedy() -> None:
    # A greedy pairing gives call 0 to the first expectation and scores 1/2.
    expected = [ExpectedTool("s", {"q": "x"}), ExpectedTool("s", {"q": "x", "lim": 5})]
    calls = [call("s", q="x", lim=5), call("s", q="x")]
    result = check_turn(expected, calls)
    assert (result.met_calls, result.matched_calls) == (2, 2)
    # Retries do not push a score above 1 (each expectation pairs with `count` calls).
    retried = check_turn([ExpectedTool("s")], [call("s"), call("s"), call("s")])
    assert (retried.precision, retried.recall) == (pytest.approx(1 / 3), 1.0)


def test_ordered_scores_use_the_longest_common_subsequence() -> None:
    expected = [ExpectedTool("a"), ExpectedTool("b"), ExpectedTool("c")]
    calls = [call("b"), call("c"), call("a")]
    assert check_turn(expected, calls).recall == 1.0
    ordered = check_turn(expected, calls, ordered=True)
    assert ordered.score_text() == "precision 2/3 = 0.67, recall 2/3 = 0.67, f1 0.67"


def test_tool_check_scores() -> None:
    calls = [call("s", a=1, b=2, c=3), call("s", a=1, b=0, c=0)]
    check = ExpectedTool("s", {"a": 1, "b": 2, "c": 4}).check(calls)
    assert check.score == pytest.approx(2 / 3)
    assert str(check).splitlines()[2] == (
        "  score 2/3 = 0.67: the closest call matches 2 of 3 asserted argument(s)"
    )
    assert check.as_dict()["score"] == {"numerator": 2, "denominator": 3, "value": 2 / 3}
    assert "score 2/3 = 0.67" in check._repr_html_()
    assert ExpectedTool("s", {"a": 1}).check(calls).score == 1.0
    assert ExpectedTool("s", count=3).check(calls).score == pytest.approx(2 / 3)
    assert ExpectedTool("t").check(calls).score == 0.0
    assert ExpectedTool.never("s").check(calls).score == 0.0
    nested = ExpectedTool("s", {"a": 1, "n": {"x": 1}}).check([call("s", a=1, n={"x": 2})])
    assert nested.score == 0.5
    broken = ToolCall("s", {}, parse_error="not JSON")
    assert ExpectedTool("s", {"a": 1}).check([broken]).score == 0.0
    distinct = check_turn([ExpectedTool("s", count=2), ExpectedTool("s")], calls, distinct=True)
    assert [check.score for check in distinct.checks] == [1.0, 0.0]


def _brute_pairs(
    counts: list[int], highs: list[int], matches: list[set[int]], calls: int
) -> tuple[int, int]:
    """The best (matched calls, met expected calls) over every one-to-one pairing."""
    best = (0, 0)
    best_met = 0
    for owners in itertools.product([None, *range(len(counts))], repeat=calls):
        if any(
            owner is not None and index not in matches[owner] for index, owner in enumerate(owners)
        ):
            continue
        held = [owners.count(number) for number in range(len(counts))]
        if any(got > high for got, high in zip(held, highs, strict=True)):
            continue
        met = sum(min(got, count) for got, count in zip(held, counts, strict=True))
        matched = sum(held)
        best_met = max(best_met, met)
        if (met, matched) > (best[1], best[0]):
            best = (matched, met)
    assert best[1] == best_met
    return best


def _brute_lcs(slots: list[set[int]], calls: int) -> int:
    """The longest common subsequence, by trying every subsequence of expected slots."""
    best = 0
    for size in range(min(len(slots), calls) + 1):
        for chosen in itertools.combinations(range(len(slots)), size):
            for picked in itertools.combinations(range(calls), size):
                if all(call in slots[slot] for slot, call in zip(chosen, picked, strict=True)):
                    best = max(best, size)
    return best


turn_strategy = st.tuples(
    st.lists(
        st.tuples(st.sampled_from("ab"), st.sampled_from([None, 1]), st.integers(1, 2)),
        max_size=3,
    ),
    st.lists(st.tuples(st.sampled_from("abc"), st.sampled_from([0, 1])), max_size=5),
)


@settings(max_examples=300, deadline=None)
@given(turn_strategy, st.booleans(), st.randoms(use_true_random=False))
def test_scores_match_brute_force_and_ignore_the_expected_order(
    turn: tuple[list[tuple[str, int | None, int]], list[tuple[str, int]]],
    ordered: bool,
    random: Any,
) -> None:
    wanted, made = turn
    expected = [
        ExpectedTool(name, None if value is None else {"v": value}, count=count)
        for name, value, count in wanted
    ]
    calls = [call(name, v=value) for name, value in made]
    matches = [
        {
            index
            for index, (called, got) in enumerate(made)
            if called == name and (value is None or got == value)
        }
        for name, value, _ in wanted
    ]
    counts = [count for _, _, count in wanted]
    result = check_turn(expected, calls, ordered=ordered)
    if ordered:
        slots = [found for found, count in zip(matches, counts, strict=True) for _ in range(count)]
        best = _brute_lcs(slots, len(calls))
        assert (result.matched_calls, result.met_calls) == (best, best)
    else:
        assert (result.matched_calls, result.met_calls) == _brute_pairs(
            counts, counts, matches, len(calls)
        )
        shuffled = list(expected)
        random.shuffle(shuffled)
        again = check_turn(shuffled, calls)
        assert (again.precision, again.recall, again.f1) == (
            result.precision,
            result.recall,
            result.f1,
        )
    assert result.expected_calls == sum(counts)
    assert 0.0 <= result.precision <= 1.0
    assert 0.0 <= result.recall <= 1.0


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("ab"), st.integers(1, 2), st.integers(0, 2)), max_size=3),
    st.lists(st.sampled_from("abc"), max_size=5),
)
def test_range_scores_match_brute_force(
    wanted: list[tuple[str, int, int]], names: list[str]
) -> None:
    expected = [
        ExpectedTool(name, count=count, max_count=count + extra if extra else None)
        for name, count, extra in wanted
    ]
    matches = [
        {index for index, called in enumerate(names) if called == name} for name, _, _ in wanted
    ]
    counts = [count for _, count, _ in wanted]
    highs = [count + extra for _, count, extra in wanted]
    result = check_turn(expected, [call(name) for name in names])
    assert (result.matched_calls, result.met_calls) == _brute_pairs(
        counts, highs, matches, len(names)
    )


def test_an_ignore_cap_leaves_out_the_first_matching_calls_and_judges_the_rest() -> None:
    calls = [call("log", n=1), call("book"), call("log", n=2), call("log", n=3)]
    capped = [ExpectedTool("log", max_count=2)]
    result = check_turn([ExpectedTool("book")], calls, exhaustive=True, ignore=capped)
    assert not result.passed
    assert [str(ignored) for ignored in result.ignored] == [
        "call 0 log({'n': 1}) ignored by ignore[0] ExpectedTool('log', max_count=2)",
        "call 2 log({'n': 2}) ignored by ignore[0] ExpectedTool('log', max_count=2)",
    ]
    # The call beyond the cap is judged like any other: an exhaustive turn does not expect it.
    assert result.unexpected_call_indices == (3,)
    assert result.problems == (
        "call 3 log({'n': 3}) is not expected: ignore[0] leaves out at most 2 matching calls",
    )
    assert result.first_failure() == result.problems[0]
    assert check_turn([ExpectedTool("book")], calls[:3], exhaustive=True, ignore=capped).passed
    one = [ExpectedTool("log", max_count=1)]
    assert check_turn([ExpectedTool("book")], calls[:3], exhaustive=True, ignore=one).problems == (
        "call 2 log({'n': 2}) is not expected: ignore[0] leaves out at most 1 matching call",
    )
    # Beyond the cap, a call counts toward max_calls and may meet an expectation.
    assert check_turn([], calls, max_calls=1, ignore=one).problems == (
        "expected at most 1 call(s) in the turn, got 3 (not counting 1 ignored)",
    )
    expected = [ExpectedTool("book"), ExpectedTool("log", {"n": 3})]
    assert check_turn(expected, calls, exhaustive=True, ignore=capped).passed
    # A turn that is not exhaustive fails no call beyond the cap by itself.
    assert check_turn([ExpectedTool("book")], calls, ignore=one).passed
    same = check_turn([ExpectedTool("book")], calls, exhaustive=True, ignore=capped)
    assert same.as_dict() == ExpectedTurn([ExpectedTool("book")], exhaustive=True,
                                          ignore=capped).check(calls).as_dict()  # fmt: skip


def test_ignore_caps_count_the_calls_each_entry_leaves_out() -> None:
    calls = [call("log", n=1), call("log", n=2), call("log", n=3), call("get_x")]
    # In list order: ignore[0] takes call 1 first, so ignore[1] still has room for two.
    ignore = [ExpectedTool("log", {"n": 2}), ExpectedTool("log", max_count=2)]
    result = check_turn([ExpectedTool("get_")], calls, exhaustive=True, ignore=ignore)
    assert result.passed
    assert [(ignored.index, ignored.by) for ignored in result.ignored] == [(0, 1), (1, 0), (2, 1)]
    # A full cap leaves a call to a later entry that matches it.
    ignore = [ExpectedTool("log", max_count=1), ExpectedTool("log", {"n": 3})]
    result = check_turn([ExpectedTool("get_")], calls, exhaustive=True, ignore=ignore)
    assert [(ignored.index, ignored.by) for ignored in result.ignored] == [(0, 0), (2, 1)]
    assert result.problems == (
        "call 1 log({'n': 2}) is not expected: ignore[0] leaves out at most 1 matching call",
    )


def test_an_ignore_cap_counts_only_the_turns_agents_calls() -> None:
    calls = [
        ToolCall("log", {"n": 1}, agent="user"),
        ToolCall("log", {"n": 2}, agent="bot"),
        ToolCall("log", {"n": 3}, agent="user"),
        ToolCall("log", {"n": 4}, agent="bot"),
    ]
    capped = [ExpectedTool("log", max_count=1)]
    result = check_turn([], calls, exhaustive=True, ignore=capped, agent="bot")
    # Another agent's calls are left out whatever the cap; the bot's second log is judged.
    assert [(ignored.index, ignored.by) for ignored in result.ignored] == [(0, 0), (1, 0), (2, 0)]
    assert result.problems == (
        "call 3 log({'n': 4}) by 'bot' is not expected: ignore[0] leaves out at most 1 matching "
        "call",
    )


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", "ab"]), st.one_of(st.none(), st.integers(1, 3))),
        min_size=1,
        max_size=3,
    ),
    st.lists(st.sampled_from(["a", "b", "c"]), max_size=6),
)
def test_ignore_caps_leave_out_what_each_entry_has_room_for_in_call_order(
    entries: list[tuple[str, int | None]], names: list[str]
) -> None:
    ignore = [ExpectedTool(Regex(f"[{chars}]"), max_count=cap) for chars, cap in entries]
    calls = [call(name) for name in names]
    # The rule, written out: entries in list order, each taking the calls it matches, in
    # call order, that no earlier entry took, up to its cap.
    taken: dict[int, int] = {}
    for number, (chars, cap) in enumerate(entries):
        room = len(calls) if cap is None else cap
        for index, name in enumerate(names):
            if name in chars and index not in taken and room:
                taken[index] = number
                room -= 1
    result = check_turn([], calls, exhaustive=True, ignore=ignore)
    assert [(ignored.index, ignored.by) for ignored in result.ignored] == sorted(taken.items())
    assert result.unexpected_call_indices == tuple(i for i in range(len(calls)) if i not in taken)
    assert result.passed is (len(taken) == len(calls))
    # A cap no turn reaches is no cap.
    roomy = [ExpectedTool(Regex(f"[{chars}]"), max_count=len(calls) or 1) for chars, _ in entries]
    uncapped = [ExpectedTool(Regex(f"[{chars}]")) for chars, _ in entries]
    assert [(i.index, i.by) for i in check_turn([], calls, ignore=roomy).ignored] == [
        (i.index, i.by) for i in check_turn([], calls, ignore=uncapped).ignored
    ]


def test_turns_with_ignore_caps_keep_them_and_pickle() -> None:
    turn = ExpectedTurn([], exhaustive=True, ignore=[ExpectedTool("log", max_count=1)])
    assert repr(turn.ignore) == "(ExpectedTool('log', max_count=1),)"
    copy = pickle.loads(pickle.dumps(TestCase("case", [turn])))
    assert copy.passes([[call("log")]])
    assert not copy.passes([[call("log"), call("log")]])


def test_ignored_calls_pickle() -> None:
    result = check_turn([], [call("log", n=1)], ignore=[ExpectedTool("log")])
    (ignored,) = result.ignored
    assert pickle.loads(pickle.dumps(ignored)) == ignored


# --- results and failed calls in expectations --------------------------------------------------


def test_a_result_matcher_judges_the_recorded_result() -> None:
    calls = [
        ToolCall("cancel", {"id": "ZZZ999"}, id="c1", result="Error: no such booking"),
        ToolCall("cancel", {"id": "AB12"}, id="c2", result="Cancelled AB12"),
    ]
    assert ExpectedTool("cancel", result=Regex("Cancelled .*")).check(
        calls
    ).matching_call_indices == (1,)
    check = ExpectedTool("cancel", {"id": "ZZZ999"}, result=Regex("Cancelled .*")).check(calls)
    assert check.unmatched_reason == (
        "call 0: (result): regex 'Cancelled .*' does not match 'Error: no such booking'"
    )
    assert [str(candidate) for candidate in check.candidates] == [
        "call 0 cancel({'id': 'ZZZ999'}): (result): regex 'Cancelled .*' does not match "
        "'Error: no such booking'",
        "call 1 cancel({'id': 'AB12'}): id: expected 'ZZZ999', got 'AB12'",
    ]


def test_a_plain_result_uses_literal_rules_and_paths_reach_inside() -> None:
    calls = [ToolCall("count", {}, result={"n": 1.0, "status": "ok"})]
    assert ExpectedTool("count", result={"n": 1, "status": "ok"}).check(calls).passed
    check = ExpectedTool("count", result={"n": True, "status": "ok"}).check(calls)
    assert check.unmatched_reason == "call 0: (result).n: expected True, got 1.0"
    listed = ExpectedTool("count", result=[1]).check([ToolCall("count", {}, result=[2])])
    assert listed.unmatched_reason == "call 0: (result)[0]: expected 1, got 2"


def test_a_call_without_a_recorded_result_never_matches_a_result_matcher() -> None:
    calls = [ToolCall("search", {"q": "x"}), ToolCall("fetch", {}, result="page")]
    with pytest.raises(NotRecordedError):  # the verdict turns on the unrecorded result
        ExpectedTool("search", result=ANY).check(calls)
    check = ExpectedTool("search", result=ANY, count=2).check(calls)
    assert check.unmatched_reason == "call 0 has no recorded result"
    assert str(check.candidates[0]) == "call 0 search({'q': 'x'}): (result): no recorded result"
    assert ExpectedTool("fetch", result=ANY).check(calls).passed
    both = ExpectedTool("search", {"q": "y"}, result=ANY).check(calls)
    assert both.unmatched_reason == ("call 0: 2 mismatches (q, (result))")
    assert both.lines()[-3:] == [
        "  call 0 search({'q': 'x'}):",
        "    q: expected 'y', got 'x'",
        "    (result): no recorded result",
    ]


def test_failed_selects_calls_by_their_flag() -> None:
    calls = [
        ToolCall("book", {"id": 1}, failed=True),
        ToolCall("book", {"id": 1}, failed=False),
        ToolCall("book", {"id": 2}),
    ]
    assert ExpectedTool("book", failed=True).check(calls).matching_call_indices == (0,)
    assert ExpectedTool("book", failed=False).check(calls).matching_call_indices == (1,)
    assert ExpectedTool("book").check(calls).matching_call_indices == (0, 1, 2)
    with pytest.raises(NotRecordedError):  # call 2 would match, but for its unrecorded flag
        ExpectedTool("book", {"id": 2}, failed=False).check(calls)
    check = ExpectedTool("book", {"id": 2}, failed=False, count=2).check(calls)
    assert check.unmatched_reason == "call 1: id: expected 2, got 1"  # the earliest closest
    assert [str(candidate) for candidate in check.candidates] == [
        "call 0 book({'id': 1}): id: expected 2, got 1; (failed): expected False, got True",
        "call 1 book({'id': 1}): id: expected 2, got 1",
        "call 2 book({'id': 2}): (failed): expected False, the trace does not say",
    ]
    assert ExpectedTool.never("book", failed=True).check(calls[1:2]).passed
    with pytest.raises(NotRecordedError):  # call 2 may have failed: the trace does not say
        ExpectedTool.never("book", failed=True).check(calls[1:])


def test_failed_and_retried_calls_are_ignored_by_their_result() -> None:
    # The case: a write the tool rejected, then the agent's successful retry.
    calls = [
        ToolCall("get_reservation", {"id": "AB12"}, result={"id": "AB12"}),
        ToolCall("cancel_reservation", {"id": "AB12"}, result="Error: try again"),
        ToolCall("cancel_reservation", {"id": "AB12"}, result="Cancelled"),
    ]
    expected = [ExpectedTool("cancel_reservation", {"id": "AB12"})]
    read_only = ExpectedTool(OneOf("get_reservation"))
    assert not check_turn(expected, calls, exhaustive=True, ignore=[read_only]).passed
    rejected = ExpectedTool(ANY, result=Regex("Error.*"))
    result = check_turn(expected, calls, exhaustive=True, ignore=[read_only, rejected])
    assert result.passed
    assert [(ignored.index, ignored.by) for ignored in result.ignored] == [(0, 0), (1, 1)]
    assert result.checks[0].assigned_call_indices == (2,)


def test_results_and_failed_in_repr_pickle_and_errors() -> None:
    tool = ExpectedTool("s", {"q": "x"}, count=2, result=Regex("ok.*"), failed=False)
    assert (
        repr(tool) == "ExpectedTool('s', {'q': 'x'}, count=2, result=Regex('ok.*'), failed=False)"
    )
    never = ExpectedTool.never("rm", result="done", failed=False)
    assert repr(never) == "ExpectedTool.never('rm', result='done', failed=False)"
    calls = [ToolCall("s", {"q": "x"}, result="ok 1", failed=False)] * 2
    for expected in (tool, never):
        copy = pickle.loads(pickle.dumps(expected))
        assert repr(copy) == repr(expected)
        assert copy.check(calls).as_dict() == expected.check(calls).as_dict()
    assert tool.check(calls).passed
    with pytest.raises(TypeError) as raised:
        ExpectedTool("s", failed="no")  # type: ignore[arg-type]
    assert str(raised.value) == (
        "ExpectedTool failed must be True, False or None (either), got 'no' (str)"
    )


def test_scores_count_the_result_and_failed_assertions() -> None:
    calls = [ToolCall("s", {"a": 1}, result="no", failed=True)]
    check = ExpectedTool("s", {"a": 1}, result="ok", failed=True).check(calls)
    assert check.score == pytest.approx(2 / 3)
    assert str(check).splitlines()[2] == (
        "  score 2/3 = 0.67: the closest call matches 2 of 3 assertions on its arguments, "
        "result and failed flag"
    )
    assert ExpectedTool("s", result="ok", count=2).check([ToolCall("s")]).score == 0.0


# --- messages at scale (item 6) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("indices", "shown"),
    [
        ([4], "call 4"),
        (list(range(10)), "calls 0, 1, 2, 3, 4, 5, 6, 7, 8, 9"),
        (list(range(11)), "calls 0-10 (11 calls)"),
        ([*range(20), 30, 31, 40], "calls 0-19, 30-31, 40 (23 calls)"),
        (list(range(0, 400, 2)), "calls 0, 2, 4, 6, 8, 10, 12, 14, ..., 398 (200 calls)"),
        (list(range(0, 22, 2)), "calls 0, 2, 4, 6, 8, 10, 12, 14, ..., 20 (11 calls)"),
    ],
)
def test_long_index_lists_are_shortened(indices: list[int], shown: str) -> None:
    calls = [{"name": "s" if index in indices else "other"} for index in range(max(indices) + 1)]
    check = ExpectedTool("s", count=len(indices) + 1).check(calls)
    assert check.lines()[1] == (
        f"  required: at least {len(indices) + 1} matching calls; found {len(indices)}: {shown}"
    )


def test_repeated_calls_are_listed_short() -> None:
    result = check_turn([], [{"name": "ping"}] * 30, no_repeats=True)
    assert result.problems == ("calls 1-29 (29 calls) repeat call 0: ping({})",)


def test_reason_lines_give_the_reason_then_the_closest_calls_mismatches() -> None:
    calls = [
        {"name": "book", "args": {"day": "mon", "seat": "1A", "meal": "veg"}},
        {"name": "book", "args": {"day": "tue", "seat": "2B", "meal": "veg"}},
    ]
    check = ExpectedTool("book", {"day": "tue", "seat": "1A", "meal": "meat"}).check(calls)
    assert check.unmatched_reason == "call 0: 2 mismatches (day, meal)"
    assert check.closest is not None
    assert check.closest.index == 0
    assert check.reason_lines() == [
        "call 0: 2 mismatches (day, meal)",
        "call 0 book({'day': 'mon', 'seat': '1A', 'meal': 'veg'}):",
        "  day: expected 'tue', got 'mon'",
        "  meal: expected 'meat', got 'veg'",
    ]
    one = ExpectedTool("book", {"day": "tue", "seat": "2B", "meal": "meat"}).check(calls)
    assert one.reason_lines() == ["call 1: meal: expected 'meat', got 'veg'"]
    assert ExpectedTool("book").check(calls).reason_lines() == []
    assert ExpectedTool("book").check(calls).closest is None


def test_a_failed_turn_results_repr_names_its_first_failure() -> None:
    calls = [{"name": "search"}, {"name": "search"}]
    passed = check_turn([ExpectedTool("search")], calls)
    assert repr(passed) == "<TurnResult passed: 1 of 1 expectation(s) met over 2 call(s)>"
    assert passed.first_failure() is None
    repeated = check_turn([ExpectedTool("search")], calls, no_repeats=True)
    assert repr(repeated) == (
        "<TurnResult failed: 1 of 1 expectation(s) met over 2 call(s); "
        "call 1 repeats call 0: search({})>"
    )
    [missing] = check_turns([], [calls])
    assert repr(missing) == (
        "<TurnResult turn 0 failed: 0 of 0 expectation(s) met over 2 call(s); turn 0 has "
        "calls but no expectations: got 1 call turn(s) for 0 expected turn(s)>"
    )


def test_an_expected_turn_refuses_what_is_not_a_list_of_expectations() -> None:
    with pytest.raises(
        TypeError,
        match=r"^expected_tools\[0\] must be an ExpectedTool, InOrder or AnyOrder, got 'x'",
    ):
        ExpectedTurn(["x"])  # type: ignore[list-item]
    with pytest.raises(TypeError, match=r"^expected_tools must be a list of ExpectedTool"):
        ExpectedTurn(ExpectedTool("x"))  # type: ignore[arg-type]


def test_a_turn_results_checks_read_alike_however_they_are_asked_for() -> None:
    # The judge makes a turn's failed checks first (a report of the failures needs only
    # those) and the others when first asked for: the verdict, the checks, their texts and
    # a pickled copy all agree, whichever is asked for first.
    expected = [ExpectedTool("search"), ExpectedTool("fetch"), ExpectedTool.never("delete")]
    calls = [call("search"), call("delete")]
    first = check_turn(expected, calls)
    assert not first.passed
    checks = first.checks
    assert first.checks is checks
    assert [check.passed for check in checks] == [True, False, False]
    other = check_turn(expected, calls)
    assert other.lines() == first.lines()  # the text before the checks were read
    assert [check.passed for check in other.checks] == [True, False, False]
    copy = pickle.loads(pickle.dumps(first))
    assert not copy.passed
    assert copy.lines() == first.lines()
    assert copy.as_dict() == first.as_dict()
