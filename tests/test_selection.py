"""Call selection (docs/selection.md, docs/semantics.md): ExpectedTool, ToolCheck, turns, assert_called."""

from __future__ import annotations

import itertools
import json
import pickle
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolmatch import (
    ANY,
    Exact,
    ExpectedTool,
    ExpectedTurn,
    Fuzzy,
    Literal,
    Regex,
    ToolCall,
    ToolCheck,
    TurnResult,
    assert_called,
    check_turn,
    check_turns,
    explain,
)
from toolmatch._core.pairing import assign_distinct, assign_ordered
from toolmatch._selection.matching import _NAMES_REMEMBERED, Selection  # the memory bound only


def call(name: str, **args: object) -> dict[str, object]:
    return {"name": name, "args": args}


# --- selection by name substring, case-sensitive --------------------------


def test_name_is_a_case_sensitive_substring() -> None:
    calls = [call("web_search", q="paris"), call("Search", q="paris")]
    check = ExpectedTool("search", {"q": "paris"}).check(calls)
    assert check.passed
    assert check.matching_call_indices == (0,)
    assert [candidate.index for candidate in check.candidates] == [0]
    assert not ExpectedTool("SEARCH").check(calls).passed


def test_name_matcher_selects_by_that_matcher() -> None:
    calls = [call("search_web"), call("web_search")]
    assert ExpectedTool(Regex("search_.*")).check(calls).matching_call_indices == (0,)
    assert ExpectedTool(Literal("web_search")).check(calls).matching_call_indices == (1,)
    assert ExpectedTool(Literal("search")).check(calls).passed is False
    assert ExpectedTool(ANY, count=2).check(calls).passed


def test_name_only_expectation_ignores_arguments() -> None:
    check = ExpectedTool("search").check([call("search", q="anything")])
    assert check.passed
    assert check.args_asserted is False
    assert ExpectedTool("search", {}).check([call("search")]).args_asserted is True


def test_unasserted_arguments_are_ignored() -> None:
    assert ExpectedTool("s", {"a": 206588, "b": "x"}).check([call("s", a=206588.0, b="x", c="y")])


def test_any_call_wins_and_first_match_is_reported() -> None:
    # SC-006 row 23: two subtract calls, the second matches.
    calls = [call("subtract", a=205000), call("subtract", a="206,588"), call("subtract", a=206588)]
    check = ExpectedTool("subtract", {"a": Fuzzy("206588")}).check(calls)
    assert check.passed
    assert check.matched_call_index == 1
    assert check.matching_call_indices == (1, 2)
    assert [candidate.matched for candidate in check.candidates] == [False, True, True]


def test_selection_is_order_independent() -> None:
    calls = [call("s", a=1), call("s", a=2)]
    expected = ExpectedTool("s", {"a": 2})
    assert expected.check(calls).passed
    assert expected.check(calls[::-1]).passed


def test_args_matcher_judges_the_whole_args_dict() -> None:
    calls = [call("s", q="x", lim=5)]
    assert not ExpectedTool("s", Exact({"q": "x"})).check(calls).passed
    assert ExpectedTool("s", Exact({"q": "x", "lim": 5})).check(calls).passed


# --- counts, upper bounds and never ---------------------------------------------------------


def test_count_is_a_minimum() -> None:
    calls = [call("s", q="x"), call("s", q="y"), call("s", q="x")]
    assert ExpectedTool("s", {"q": "x"}, count=2).check(calls).passed
    check = ExpectedTool("s", {"q": "x"}, count=3).check(calls)
    assert not check.passed
    assert check.unmatched_reason == "expected 3 matching call(s), got 2"


def test_max_count_is_a_maximum() -> None:
    calls = [call("s"), call("s"), call("s")]
    assert ExpectedTool("s", count=1, max_count=3).check(calls).passed
    check = ExpectedTool("s", count=1, max_count=2).check(calls)
    assert check.unmatched_reason == "expected at most 2 matching call(s), got 3"
    assert check.matching_call_indices == (0, 1, 2)


def test_never() -> None:
    calls = [call("delete_file", path="/tmp"), call("read_file", path="/etc")]
    assert ExpectedTool.never("delete", {"path": "/etc"}).check(calls).passed
    check = ExpectedTool.never("delete").check(calls)
    assert check.unmatched_reason == "expected no matching call, got 1"
    assert check.matched_call_index == 0
    assert ExpectedTool.never("write").check(calls).passed
    assert ExpectedTool.never("write").check([]).passed


# --- unmatched reasons ------------------------------------------------------------------


def test_missing_argument_reason_is_worded_as_the_seed() -> None:
    check = ExpectedTool("s", {"a": 206588}).check([call("s", b=1)])
    assert check.unmatched_reason == "arg 'a' missing"


def test_reason_names_the_closest_candidate() -> None:
    calls = [call("s", a=1, b=1), call("s", a=2, b=9), call("s", a=1, b=3)]
    check = ExpectedTool("s", {"a": 2, "b": 3}).check(calls)
    # Calls 1 and 2 each miss one key; the earlier one is named.
    assert check.unmatched_reason == "call 1: b: expected 3, got 9"
    assert [len(candidate.mismatches) for candidate in check.candidates] == [2, 1, 1]


def test_missing_wins_when_the_closest_candidate_lacks_a_key() -> None:
    calls = [call("s", a=5, b=6), call("s", b=3)]
    assert ExpectedTool("s", {"a": 1, "b": 3}).check(calls).unmatched_reason == "arg 'a' missing"


def test_no_candidate_reason_lists_the_called_tools() -> None:
    check = ExpectedTool("search").check([call("fetch"), call("lookup"), call("fetch")])
    assert check.unmatched_reason == (
        "expected 1 matching call(s), got 0: no call's name contains 'search'; "
        "the turn called 'fetch', 'lookup'"
    )
    empty = ExpectedTool(Regex("get_.*")).check([])
    assert empty.unmatched_reason == (
        "expected 1 matching call(s), got 0: no call's name matches Regex('get_.*'): "
        "the turn has no calls"
    )


def test_parse_error_never_matches_an_args_assertion() -> None:
    broken = ToolCall("search", {}, parse_error="arguments are not valid JSON: Expecting value")
    check = ExpectedTool("search", {"q": ANY}).check([broken])
    assert not check.passed
    assert check.unmatched_reason == "call 0: arguments are not valid JSON: Expecting value"
    assert [str(m) for m in check.candidates[0].mismatches] == [
        "arguments are not valid JSON: Expecting value"
    ]
    # An empty assertion still needs readable arguments; a name-only one does not.
    assert not ExpectedTool("search", {}).check([broken]).passed
    assert ExpectedTool("search").check([broken]).passed
    parsed = ExpectedTool("search", {"q": "x"}).check([{"name": "search", "arguments": '{"q": '}])
    assert parsed.unmatched_reason is not None
    assert parsed.unmatched_reason.startswith("call 0: arguments are not valid JSON")


# --- the matcher protocol -------------------------------------------------------------------


def test_inline_comparison_from_either_side() -> None:
    calls = [call("web_search", q="Paris ")]
    expected = ExpectedTool("search", {"q": Fuzzy("paris")})
    assert calls == expected
    assert expected == calls
    assert calls != ExpectedTool("search", {"q": "rome"})
    assert ToolCall("search", {"q": "paris"}) == ExpectedTool("search")


def test_unreadable_calls_compare_unequal_without_raising() -> None:
    expected = ExpectedTool("search")
    assert (expected == 42) is False
    assert (expected != "not calls") is True
    assert ([object()] == expected) is False
    assert expected.matches(None) is False


def test_explain_on_an_expectation() -> None:
    mismatches = explain(ExpectedTool("s", {"a": 1}), [call("s")])
    assert [str(m) for m in mismatches] == ["arg 'a' missing"]
    assert explain(ExpectedTool("s"), [call("s")]) == []
    (unreadable,) = explain(ExpectedTool("s"), 42)
    assert unreadable.reason.startswith("to_calls cannot read tool calls from input: 42 (int)")


def test_check_raises_on_unreadable_calls() -> None:
    with pytest.raises(TypeError, match=r"cannot read tool calls from input: 42 \(int\)"):
        ExpectedTool("s").check(42)


# --- construction -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "error", "message"),
    [
        (
            (5,),
            TypeError,
            "ExpectedTool name must be a str (matched as a substring of the called tool's name) "
            "or a "
            "matcher such as Regex('get_.*'), got 5 (int)",
        ),
        (
            ("",),
            ValueError,
            "ExpectedTool name must not be empty: '' is in every tool name; "
            "write ExpectedTool(ANY) to select any tool",
        ),
        (
            ("s", "q=x"),
            TypeError,
            "ExpectedTool args must be a dict of expected arguments, a matcher such as "
            "Exact({...}), or None, got 'q=x' (str)",
        ),
        (("s", None, True), TypeError, "ExpectedTool count must be an int >= 0, got True (bool)"),
        (("s", None, 1.0), TypeError, "ExpectedTool count must be an int >= 0, got 1.0 (float)"),
        (("s", None, -1), ValueError, "ExpectedTool count must be >= 0, got -1"),
        (
            ("s", None, 0),
            ValueError,
            "ExpectedTool count must be >= 1 without max_count, got 0; to assert that no call "
            "matches, write ExpectedTool.never(name, args) (count=0 with max_count=N allows at "
            "most N)",
        ),
        (
            ("s", None, 2, 1),
            ValueError,
            "ExpectedTool max_count must be >= count (2), got 1",
        ),
        (
            ("s", None, 1, False),
            TypeError,
            "ExpectedTool max_count must be an int >= count or None, got False (bool)",
        ),
    ],
)
def test_construction_errors(
    arguments: tuple[Any, ...], error: type[Exception], message: str
) -> None:
    name, *rest = arguments
    args = rest[0] if rest else None
    counts = dict(zip(("count", "max_count"), rest[1:], strict=False))
    with pytest.raises(error) as raised:
        ExpectedTool(name, args, **counts)
    assert str(raised.value) == message


def test_counts_are_keywords() -> None:
    with pytest.raises(TypeError, match="positional"):
        ExpectedTool("s", None, 2)  # type: ignore[misc]


def test_never_validates_its_arguments() -> None:
    with pytest.raises(TypeError, match="ExpectedTool name must be a str"):
        ExpectedTool.never(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ExpectedTool args must be a dict"):
        ExpectedTool.never("s", [1])  # type: ignore[arg-type]


def test_repr_is_constructor_like_with_defaults_omitted() -> None:
    assert repr(ExpectedTool("s")) == "ExpectedTool('s')"
    assert repr(ExpectedTool("s", {"q": Fuzzy("x")}, count=2, max_count=4)) == (
        "ExpectedTool('s', {'q': Fuzzy('x')}, count=2, max_count=4)"
    )
    assert repr(ExpectedTool(Regex("a.*"), Exact({"q": 1}))) == (
        "ExpectedTool(Regex('a.*'), Exact({'q': 1}))"
    )
    assert (
        repr(ExpectedTool.never("rm", {"path": "/"})) == "ExpectedTool.never('rm', {'path': '/'})"
    )


@pytest.mark.parametrize(
    "expected",
    [
        ExpectedTool("s"),
        ExpectedTool("s", {"q": Fuzzy("x"), "n": 2}, count=2, max_count=3),
        ExpectedTool(Regex("s.*"), Exact({"q": "x"})),
        ExpectedTool.never("s", {"q": "x"}),
    ],
    ids=repr,
)
def test_pickling_round_trips(expected: ExpectedTool) -> None:
    copy = pickle.loads(pickle.dumps(expected))
    assert repr(copy) == repr(expected)
    calls = [call("s", q="x", n=2), call("s", q="x", n=2.0), call("t")]
    assert copy.check(calls).as_dict() == expected.check(calls).as_dict()


def test_expectations_are_immutable_and_copy_their_args() -> None:
    args = {"q": "x"}
    expected = ExpectedTool("s", args)
    args["q"] = "y"
    assert expected.args == {"q": "x"}
    assert expected == [call("s", q="x")]
    with pytest.raises(AttributeError, match="immutable"):
        expected.count = 3  # type: ignore[misc]
    check = expected.check([])
    with pytest.raises(AttributeError, match="immutable"):
        check.passed = True  # type: ignore[misc]


# --- ToolCheck output as API --------------------------------------------------------------


def test_str_of_a_failed_check() -> None:
    calls = [call("search", q="rome", lim=5), call("fetch", url="x"), call("search", lim=5)]
    check = ExpectedTool("search", {"q": "paris", "lim": 5}, count=1).check(calls)
    assert not check
    assert str(check) == (
        "FAILED ExpectedTool('search', {'q': 'paris', 'lim': 5}): "
        "call 0: q: expected 'paris', got 'rome'\n"
        "  required: at least 1 matching call; found 0\n"
        "  score 1/2 = 0.50: the closest call matches 1 of 2 asserted argument(s)\n"
        "  call 0 search({'q': 'rome', 'lim': 5}): q: expected 'paris', got 'rome'\n"
        "  call 2 search({'lim': 5}): q: missing"
    )


def test_str_of_a_passed_check_and_long_values() -> None:
    long_text = "x" * 200
    calls = [call("search", q=long_text), call("search", q="y")]
    check = ExpectedTool("search", {"q": long_text}, max_count=1).check(calls)
    assert check
    lines = str(check).splitlines()
    assert lines[0].startswith("PASSED ExpectedTool('search', {'q': 'xxxx")
    assert lines[1] == "  required: exactly 1 matching call; found 1: call 0"
    assert lines[2] == "  call 0 search({'q': '" + "x" * 57 + "'...}): matches"
    assert lines[3].startswith("  call 1 search({'q': 'y'}): q: expected 'xxx")
    assert len(lines[0]) == len("PASSED ") + 120
    assert lines[0].endswith("x...")
    assert all(len(line) < 250 for line in lines)


def test_str_caps_the_number_of_candidates() -> None:
    calls = [call("s", i=index) for index in range(25)]
    lines = str(ExpectedTool("s", {"i": 99}).check(calls)).splitlines()
    assert lines[-1] == "  ... and 15 more candidate call(s)"
    assert len(lines) == 3 + 10 + 1


def test_requirement_wording() -> None:
    assert "required: exactly 2 matching calls" in str(
        ExpectedTool("s", count=2, max_count=2).check([])
    )
    assert "required: no matching call; found 0" in str(ExpectedTool.never("s").check([]))


def test_as_dict_is_json_and_round_trips() -> None:
    calls = [
        ToolCall("search", {"q": "rome", "when": Decimal("1.5"), "n": float("nan")}, id="c1"),
        call("search", q="paris"),
    ]
    check = ExpectedTool("search", {"q": Fuzzy("Paris")}, max_count=5).check(calls)
    data = check.as_dict()
    assert json.loads(json.dumps(data, allow_nan=False)) == data
    assert data["passed"] is True
    assert data["expected_tool"] == "ExpectedTool('search', {'q': Fuzzy('Paris')}, max_count=5)"
    assert data["args"] == {"q": "Fuzzy('Paris')"}
    assert data["matched_call_index"] == 1
    assert data["assigned_call_indices"] is None
    assert data["candidates"][0]["args"] == {"q": "rome", "when": "Decimal('1.5')", "n": "nan"}
    assert data["candidates"][0]["id"] == "c1"
    assert data["candidates"][0]["mismatches"] == [
        {"path": "q", "reason": "fuzzy 'Paris' does not match 'rome'"}
    ]


def test_tool_check_type() -> None:
    check = ExpectedTool("s").check([call("s")])
    assert isinstance(check, ToolCheck)
    assert repr(check) == "<ToolCheck passed ExpectedTool('s') matching=[0]>"


# --- check_turn -----------------------------------------------------------------------------


def test_one_call_may_satisfy_two_expectations_by_default() -> None:
    expected = [ExpectedTool("s", {"q": "x"}), ExpectedTool("s", {"lim": 5})]
    result = check_turn(expected, [call("s", q="x", lim=5)])
    assert result.passed
    assert isinstance(result, TurnResult)
    assert not check_turn(expected, [call("s", q="x", lim=5)], distinct=True)


def test_distinct_uses_an_optimal_assignment() -> None:
    # Greedy pairing gives the first call to the first expectation and then fails.
    expected = [ExpectedTool("s", {"q": "x"}), ExpectedTool("s", {"q": "x", "lim": 5})]
    calls = [call("s", q="x", lim=5), call("s", q="x")]
    result = check_turn(expected, calls, distinct=True)
    assert result.passed
    assert [check.assigned_call_indices for check in result.checks] == [(1,), (0,)]


def test_distinct_counts_need_calls_of_their_own() -> None:
    expected = [ExpectedTool("s", count=2), ExpectedTool("s", {"q": "x"})]
    calls = [call("s", q="x"), call("s", q="y"), call("s", q="z")]
    assert check_turn(expected, calls, distinct=True).passed
    result = check_turn(expected, calls[:2], distinct=True)
    assert not result.passed
    assert [check.passed for check in result.checks] == [True, False]
    assert result.checks[1].unmatched_reason == (
        "expected 1 matching call(s) of its own, got 0: call 0 is needed by expectation 0 too"
    )


def test_distinct_leaves_failing_and_never_expectations_out_of_the_pairing() -> None:
    expected = [
        ExpectedTool("s", {"q": "x"}, count=5),
        ExpectedTool.never("rm"),
        ExpectedTool("s", {"q": "x"}),
    ]
    result = check_turn(expected, [call("s", q="x")], distinct=True)
    assert [check.passed for check in result.checks] == [False, True, True]
    assert result.checks[0].unmatched_reason == "expected 5 matching call(s), got 1"
    assert result.checks[2].assigned_call_indices == (0,)


def test_ordered_expectations_form_a_subsequence() -> None:
    expected = [ExpectedTool("search"), ExpectedTool("fetch", count=2), ExpectedTool("answer")]
    calls = [
        call("plan"),
        call("search"),
        call("fetch"),
        call("log"),
        call("fetch"),
        call("answer"),
    ]
    result = check_turn(expected, calls, ordered=True)
    assert result.passed
    assert [check.assigned_call_indices for check in result.checks] == [(1,), (2, 4), (5,)]
    assert result.distinct
    assert result.ordered


def test_ordered_failure_says_where() -> None:
    expected = [ExpectedTool("search"), ExpectedTool("fetch"), ExpectedTool("answer")]
    calls = [call("fetch"), call("search"), call("answer")]
    result = check_turn(expected, calls, ordered=True)
    assert [check.passed for check in result.checks] == [True, False, True]
    assert result.checks[1].unmatched_reason == (
        "fetch (call 0) comes before search (call 1); it must come after"
    )
    assert check_turn(expected, calls).passed
    # A later step that the earlier one's calls match too: no call after the earlier one's.
    narrower = [ExpectedTool("search"), ExpectedTool("search", {"q": "x"})]
    result = check_turn(narrower, [call("search", q="x"), call("search", q="y")], ordered=True)
    assert result.checks[1].unmatched_reason == (
        "expected 1 matching call(s) after call 0 (the last call used by expectation 0), got 0; "
        "matching call(s) 0 come at or before it"
    )


def test_turn_result_text_and_dict() -> None:
    expected = [ExpectedTool("search"), ExpectedTool("fetch")]
    result = check_turn(expected, [call("search", q="x")], distinct=True)
    assert str(result) == (
        "turn FAILED (distinct): 1 of 2 expectation(s) met over 1 call(s)\n"
        "  score: precision 1/1 = 1.00, recall 1/2 = 0.50, f1 0.67\n"
        "  expectation 0: PASSED ExpectedTool('search')\n"
        "    required: at least 1 matching call; found 1: call 0\n"
        "    calls of its own: 0\n"
        "    call 0 search({'q': 'x'}): matches\n"
        "  expectation 1: FAILED ExpectedTool('fetch'): expected 1 matching call(s), got 0: "
        "no call's name contains 'fetch'; the turn called 'search'\n"
        "    required: at least 1 matching call; found 0\n"
        "    score 0/1 = 0.00: no call of this name\n"
        "    calls of its own: none\n"
        "    no call's name contains 'fetch'; the turn called 'search'"
    )
    data = result.as_dict()
    assert json.loads(json.dumps(data)) == data
    assert (data["passed"], data["distinct"], data["call_count"]) == (False, True, 1)
    assert [check["passed"] for check in data["checks"]] == [True, False]


def test_check_turn_rejects_bad_input() -> None:
    with pytest.raises(TypeError, match=r"expected must be a list of ExpectedTool"):
        check_turn(ExpectedTool("s"), [])  # type: ignore[arg-type]
    with pytest.raises(
        TypeError,
        match=r"expected\[1\] must be an ExpectedTool, InOrder or AnyOrder, got 's' \(str\)",
    ):
        check_turn([ExpectedTool("s"), "s"], [])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="distinct must be True or False, got 1"):
        check_turn([], [], distinct=1)  # type: ignore[arg-type]
    assert check_turn([], []).passed


# --- check_turns ------------------------------------------------------------------------


def test_calls_never_count_toward_another_turn() -> None:
    expected_turns = [[ExpectedTool("search", count=2)], [ExpectedTool("search")]]
    call_turns = [[call("search")], [call("search"), call("search")]]
    results = check_turns(expected_turns, call_turns)
    assert [result.passed for result in results] == [False, True]
    assert [result.turn for result in results] == [0, 1]
    assert results[0].checks[0].unmatched_reason == "expected 2 matching call(s), got 1"


def test_a_turn_missing_on_either_side_fails_clearly() -> None:
    more_expected = check_turns([[ExpectedTool("s")], [ExpectedTool.never("s")]], [[call("s")]])
    assert [result.passed for result in more_expected] == [True, False]
    assert (
        more_expected[1].reason == "turn 1 has no calls: got 1 call turn(s) for 2 expected turn(s)"
    )
    more_calls = check_turns([[]], [[], [call("s")]])
    assert [result.passed for result in more_calls] == [True, False]
    assert more_calls[1].reason == (
        "turn 1 has calls but no expectations: got 2 call turn(s) for 1 expected turn(s)"
    )
    assert str(more_calls[1]).splitlines()[1] == f"  {more_calls[1].reason}"


def test_check_turns_options_and_errors() -> None:
    expected = [[ExpectedTool("s"), ExpectedTool("s")]]
    assert check_turns(expected, [[call("s")]])[0].passed
    assert not check_turns(expected, [[call("s")]], distinct=True)[0].passed
    with pytest.raises(
        TypeError, match=r"call_turns\[0\]: to_calls cannot read tool calls from input: 5 \(int\)"
    ):
        check_turns(expected, [5])
    with pytest.raises(TypeError, match="call_turns must be a list with one entry per turn"):
        check_turns(expected, "s")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"expected_turns\[0\]\[0\] must be an ExpectedTool"):
        check_turns([["s"]], [[]])  # type: ignore[list-item]


# --- assert_called ------------------------------------------------------------------------


def test_assert_called() -> None:
    calls = [call("search", q="paris"), call("search", q="rome")]
    check = assert_called(calls, "search", {"q": "rome"})
    assert check.matched_call_index == 1
    assert assert_called(calls, "search", count=2, max_count=2)
    with pytest.raises(AssertionError) as raised:
        assert_called(calls, "search", {"q": "berlin"})
    assert str(raised.value) == str(ExpectedTool("search", {"q": "berlin"}).check(calls))
    with pytest.raises(AssertionError, match="expected at most 1 matching call"):
        assert_called(calls, "search", max_count=1)
    with pytest.raises(ValueError, match="must be >= 1 without max_count, got 0"):
        assert_called(calls, "search", count=0)


# --- pairing against brute force --------------------------------------------------------------


def _owner_choices(demands: list[int], matches: list[list[int]], calls: int) -> Any:
    options = [
        [None, *[number for number, found in enumerate(matches) if index in found]]
        for index in range(calls)
    ]
    for owners in itertools.product(*options):
        if all(owners.count(number) <= demand for number, demand in enumerate(demands)):
            yield owners


instances = st.integers(1, 6).flatmap(
    lambda calls: st.tuples(
        st.just(calls),
        st.lists(
            st.tuples(st.integers(0, 2), st.sets(st.integers(0, calls - 1))),
            min_size=0,
            max_size=4,
        ),
    )
)


@settings(max_examples=200, deadline=None)
@given(instances)
def test_distinct_assignment_is_maximum(instance: tuple[int, list[tuple[int, set[int]]]]) -> None:
    calls, wanted = instance
    demands = [demand for demand, _ in wanted]
    matches = [sorted(found) for _, found in wanted]
    assigned = assign_distinct(demands, matches)
    used = [index for got in assigned for index in got]
    assert len(used) == len(set(used))
    for got, demand, found in zip(assigned, demands, matches, strict=True):
        assert len(got) <= demand
        assert set(got) <= set(found)
        assert got == sorted(got)
    best = max(
        sum(owner is not None for owner in owners)
        for owners in _owner_choices(demands, matches, calls)
    )
    assert len(used) == best
    feasible = any(
        all(owners.count(number) == demand for number, demand in enumerate(demands))
        for owners in _owner_choices(demands, matches, calls)
    )
    assert feasible == all(
        len(got) == demand for got, demand in zip(assigned, demands, strict=True)
    )


@settings(max_examples=200, deadline=None)
@given(instances)
def test_ordered_assignment_finds_a_subsequence_when_one_exists(
    instance: tuple[int, list[tuple[int, set[int]]]],
) -> None:
    calls, wanted = instance
    demands = [demand for demand, _ in wanted]
    matches = [sorted(found) for _, found in wanted]
    assigned = assign_ordered(demands, matches)

    def in_order(owners: tuple[int | None, ...]) -> bool:
        blocks = [
            [index for index, owner in enumerate(owners) if owner == number]
            for number, demand in enumerate(demands)
            if demand
        ]
        return all(left[-1] < right[0] for left, right in itertools.pairwise(blocks))

    feasible = any(
        all(owners.count(number) == demand for number, demand in enumerate(demands))
        and in_order(owners)
        for owners in _owner_choices(demands, matches, calls)
    )
    assert feasible == all(got is not None for got in assigned)
    taken = [index for got in assigned if got for index in got]
    assert taken == sorted(set(taken))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from("ab"), st.integers(0, 2)), max_size=4),
    st.lists(st.tuples(st.sampled_from("ab"), st.integers(0, 2)), max_size=6),
)
def test_check_turn_distinct_matches_brute_force(
    expected: list[tuple[str, int]], actual: list[tuple[str, int]]
) -> None:
    expectations = [ExpectedTool(name, {"v": value}) for name, value in expected]
    calls = [call(name, v=value) for name, value in actual]
    feasible = any(
        len(set(chosen)) == len(chosen)
        and all(actual[index] == want for index, want in zip(chosen, expected, strict=True))
        for chosen in itertools.product(range(len(actual)), repeat=len(expected))
    )
    assert check_turn(expectations, calls, distinct=True).passed == feasible


# --- the literal index gives the pairwise answer -----------------------------------------------

literals = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([2**53, 2**53 + 1, 10**400, 0.1, -0.0, 1.5, float("nan"), float("inf")])
    | st.sampled_from([Decimal("1.5"), Decimal("0.1"), Fraction(1, 2), Fraction(1, 3)])
    | st.floats(allow_nan=True, width=16)
    | st.sampled_from(["x", "X", "", " x"]),
    lambda children: (
        st.lists(children, max_size=3)
        | st.tuples(children, children)
        | st.dictionaries(st.sampled_from(["k", "j"]), children, max_size=2)
    ),
    max_leaves=6,
)


TRICKY = [
    True,
    1,
    1.0,
    False,
    0,
    -0.0,
    None,
    "1",
    2**53,
    2**53 + 1,
    float(2**53),
    10**400,
    Decimal("0.1"),
    0.1,
    Fraction(1, 10),
    Decimal("1"),
    Fraction(1, 2),
    0.5,
    float("nan"),
    float("inf"),
    Decimal("Infinity"),
    [1, True],
    (1.0, True),
    [1, 1],
    {"k": 1},
    {"k": True},
    {"k": 1.0},
    {1: "x"},
    {True: "x"},
    {"k", "j"},
    object(),
]


def _indexed(expectations: list[ExpectedTool], calls: list[ToolCall]) -> list[tuple[int, ...]]:
    """Each expectation's matching calls in one turn, where literal expectations are looked
    up by their values' canonical keys."""
    return [check.matching_call_indices for check in check_turn(expectations, calls).checks]


def _pairwise(expectations: list[ExpectedTool], calls: list[ToolCall]) -> list[tuple[int, ...]]:
    """The same, each expectation alone: every call compared with ``==``."""
    return [expectation.check(calls).matching_call_indices for expectation in expectations]


def test_indexed_matching_equals_pairwise_on_tricky_values() -> None:
    expectations = [ExpectedTool("s", {"a": value}) for value in TRICKY]
    calls = [ToolCall("s", {"a": value}) for value in TRICKY]
    indexed = _indexed(expectations, calls)
    assert indexed == _pairwise(expectations, calls)
    assert indexed[0] == (0,)  # True matches only True
    assert indexed[1] == (1, 2, 15)  # 1 matches 1, 1.0 and Decimal("1")


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(TRICKY) | literals, st.sampled_from(TRICKY) | literals)
def test_looking_values_up_agrees_with_literal(expected: object, actual: object) -> None:
    # Two literal expectations in one turn: the turn looks the call's value up by its key.
    expectations = [ExpectedTool("s", {"a": expected}), ExpectedTool("s", {"a": "other"})]
    [matching, _] = _indexed(expectations, [ToolCall("s", {"a": actual})])
    assert (matching == (0,)) == (Literal(expected) == actual)


def _twin(value: object) -> object:
    """A value of another type that Literal may still call equal (1 and 1.0, list and tuple)."""
    if isinstance(value, bool) or value is None:
        return int(value) if isinstance(value, bool) else value
    if isinstance(value, int) and abs(value) < 2**60:
        return float(value)
    if isinstance(value, float) and value.is_integer():
        return Fraction(value)
    if isinstance(value, list):
        return tuple(_twin(item) for item in value)
    if isinstance(value, tuple):
        return [_twin(item) for item in value]
    if isinstance(value, dict):
        return {key: _twin(item) for key, item in value.items()}
    return value


@settings(max_examples=150, deadline=None)
@given(st.lists(literals, min_size=1, max_size=4), st.data())
def test_indexed_matching_equals_pairwise(pool: list[object], data: st.DataObject) -> None:
    # Values come from one small pool, as-is or as a twin, so that many pairs do match.
    values = st.sampled_from(pool) | st.sampled_from(pool).map(_twin)
    expected = data.draw(
        st.lists(
            st.tuples(
                st.sampled_from(["s", "t", "st"]),
                st.dictionaries(st.sampled_from(["a", "b"]), values, max_size=2),
            ),
            max_size=5,
        )
    )
    actual = data.draw(
        st.lists(
            st.tuples(
                st.sampled_from(["s", "t", "xt"]),
                st.dictionaries(st.sampled_from(["a", "b", "c"]), values, max_size=3),
            ),
            max_size=8,
        )
    )
    expectations = [ExpectedTool(name, args) for name, args in expected]
    calls = [ToolCall(name, args) for name, args in actual]
    calls.append(ToolCall("s", {}, parse_error="bad"))
    pairwise = _pairwise(expectations, calls)
    assert _indexed(expectations, calls) == pairwise
    for expectation, matching in zip(expectations, pairwise, strict=True):
        args = expectation.args
        assert isinstance(args, dict)
        assert matching == tuple(
            index
            for index, one in enumerate(calls)
            if str(expectation.name) in one.name
            and one.parse_error is None
            and all(
                key in one.args and Literal(value) == one.args[key] for key, value in args.items()
            )
        )


def test_large_distinct_turn_is_correct() -> None:
    # 100 expectations over 1,000 calls of one tool (the performance case; timed elsewhere).
    calls = [call("search", q=f"v{index % 100}", n=index) for index in range(1000)]
    expected = [ExpectedTool("search", {"q": f"v{index}"}, count=10) for index in range(100)]
    result = check_turn(expected, calls, distinct=True)
    assert result.passed
    assigned = [index for check in result.checks for index in check.assigned_call_indices or ()]
    assert sorted(assigned) == list(range(1000))
    crowded = check_turn([*expected, ExpectedTool("search")], calls, distinct=True)
    assert [check.passed for check in crowded.checks].count(False) == 1


# --- a turn remembers which expectations select each name, across runs ----------------------


def test_a_kept_selection_judges_later_turns_like_a_fresh_one() -> None:
    expectations = [
        ExpectedTool("search", {"q": "x"}),
        ExpectedTool(Regex("fetch_.*")),
        ExpectedTool("s"),
    ]
    kept = ExpectedTurn(expectations)  # judges every run with one remembered selection
    turns = [
        [ToolCall("web_search", {"q": "x"}), ToolCall("fetch_page")],
        [ToolCall("fetch"), ToolCall("search", {"q": "y"})],
        [ToolCall("web_search", {"q": "x"}), ToolCall("status")],
    ]
    for calls in turns * 2:
        assert kept.check(calls).as_dict() == check_turn(expectations, calls).as_dict()
    names = [ToolCall("web_search"), ToolCall("fetch_page"), ToolCall("other")]
    candidates = [[c.index for c in check.candidates] for check in kept.check(names).checks]
    assert candidates == [[0], [1], [0]]


def test_a_name_matcher_is_asked_once_per_distinct_name() -> None:
    asked: list[object] = []

    class Recording(Regex):
        def matches(self, actual: object) -> bool:
            asked.append(actual)
            return super().matches(actual)

    turn = ExpectedTurn([ExpectedTool(Recording("get_.*"))])
    for _ in range(3):
        turn.check([ToolCall("get_weather"), ToolCall("get_weather"), ToolCall("put")])
    assert asked == ["get_weather", "put"]


def test_remembered_names_are_bounded_and_forgetting_changes_no_verdict() -> None:
    selection = Selection([ExpectedTool("tool_1")])
    for number in range(_NAMES_REMEMBERED + 10):
        name = f"tool_{number}"
        assert selection.selecting(name) == ((0,) if "tool_1" in name else ())
    assert len(selection._known) <= _NAMES_REMEMBERED
    assert selection.selecting("tool_1") == (0,)
