"""Order constraints as written, optional steps in place, never after / before, first and
last (issue 37, deliverables 1 to 3): each sentence of docs/selection.md's "What an order
means" and the sections after it, and the engine against a brute force written from those
words."""

from __future__ import annotations

import itertools
import pickle
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commands import toolmatch
from strategies import order_closure
from toolmatch import (
    ANY,
    AnyOrder,
    ConfigError,
    ExpectedTool,
    ExpectedTurn,
    InOrder,
    check_turn,
    load_test_cases,
)


def named(*names: str) -> list[dict[str, object]]:
    return [{"name": name, "args": {}} for name in names]


def reasons(result: Any) -> list[str | None]:
    return [check.unmatched_reason for check in result.checks]


BALANCE_FIRST = [
    [ExpectedTool("check_balance", id="balance"), ExpectedTool("refund", after=["balance"])],
    [ExpectedTool("refund", id="refund"), ExpectedTool("check_balance", before=["refund"])],
    [InOrder(ExpectedTool("check_balance"), ExpectedTool("refund"))],
]


# --- What an order means -----------------------------------------------------------------------


@pytest.mark.parametrize("ordered", [False, True])
def test_rule_1_each_call_taken_comes_after_every_call_the_earlier_step_takes(
    ordered: bool,
) -> None:
    steps = [ExpectedTool("a", count=2), ExpectedTool("b")]
    turn: Any = steps if ordered else [InOrder(*steps)]
    assert check_turn(turn, named("a", "a", "b"), ordered=ordered).passed
    result = check_turn(turn, named("a", "b", "a"), ordered=ordered)
    assert not result.passed
    assert not result.checks[1].passed


def test_rule_2_no_call_of_the_later_step_before_the_first_of_the_earlier() -> None:
    early = named("refund", "check_balance", "refund")
    for turn in BALANCE_FIRST:
        result = check_turn(turn, early)
        assert not result.passed
    assert reasons(check_turn(BALANCE_FIRST[0], early)) == [
        None,
        "refund (call 0) comes before balance (call 1); it must come after",
    ]
    assert reasons(check_turn(BALANCE_FIRST[1], early)) == [
        "refund (call 0) comes before check_balance (call 1); it must come after",
        None,
    ]
    ordered = check_turn(
        [ExpectedTool("check_balance"), ExpectedTool("refund")], early, ordered=True
    )
    assert reasons(ordered) == [
        None,
        "refund (call 0) comes before check_balance (call 1); it must come after",
    ]


def test_rule_3_the_earlier_step_may_come_again_after_the_later() -> None:
    again = named("check_balance", "refund", "check_balance")
    for turn in BALANCE_FIRST:
        assert check_turn(turn, again).passed
    assert check_turn(
        [ExpectedTool("check_balance"), ExpectedTool("refund")], again, ordered=True
    ).passed
    # To forbid it: a never after the later step, or an exhaustive turn.
    forbidden = [*BALANCE_FIRST[0], ExpectedTool.never("check_balance", after=["refund"])]
    forbidden[1] = ExpectedTool("refund", id="refund", after=["balance"])
    assert not check_turn(forbidden, again).passed
    assert not check_turn(BALANCE_FIRST[2], again, exhaustive=True).passed


def test_a_call_matching_both_steps_is_never_out_of_place() -> None:
    twice = [InOrder(ExpectedTool("get"), ExpectedTool("get"))]
    assert check_turn(twice, named("get", "get")).passed
    narrower = [InOrder(ExpectedTool("get"), ExpectedTool("get", {"id": 1}))]
    assert check_turn(
        narrower, [{"name": "get", "args": {"id": 2}}, {"name": "get", "args": {"id": 1}}]
    ).passed


def test_repeated_sessions_pass_in_sequence() -> None:
    session = InOrder(ExpectedTool("login"), ExpectedTool("get"))
    assert check_turn([AnyOrder(session, session)], named("login", "get", "login", "get")).passed


def test_the_order_holds_through_other_steps() -> None:
    steps = [
        ExpectedTool("a", id="a"),
        ExpectedTool("b", id="b", after=["a"]),
        ExpectedTool("c", after=["b"]),
    ]
    # c before a: c follows a through b.
    result = check_turn(steps, named("c", "a", "b", "c"))
    assert reasons(result) == [None, None, "c (call 0) comes before a (call 1); it must come after"]


# --- Optional steps ----------------------------------------------------------------------------


def test_an_optional_step_may_be_left_out_and_is_in_place_when_called() -> None:
    steps = [
        InOrder(
            ExpectedTool("lookup"), ExpectedTool("notify", optional=True), ExpectedTool("refund")
        )
    ]
    assert check_turn(steps, named("lookup", "refund")).passed
    assert check_turn(steps, named("lookup", "notify", "notify", "refund")).passed
    late = check_turn(steps, named("lookup", "refund", "notify"))
    assert reasons(late) == [
        None,
        "notify (call 2) comes after refund (call 1); it must come before",
        None,
    ]
    early = check_turn(steps, named("notify", "lookup", "refund"))
    assert reasons(early) == [
        None,
        "notify (call 0) comes before lookup (call 1); it must come after",
        None,
    ]


def test_an_optional_step_in_an_ordered_turn() -> None:
    steps = [ExpectedTool("lookup"), ExpectedTool("notify", optional=True), ExpectedTool("refund")]
    assert check_turn(steps, named("lookup", "refund"), ordered=True).passed
    assert check_turn(steps, named("lookup", "notify", "refund"), ordered=True).passed
    late = check_turn(steps, named("lookup", "refund", "notify"), ordered=True)
    assert reasons(late) == [
        None,
        "notify (call 2) comes after refund (call 1); it must come before",
        None,
    ]


def test_an_optional_steps_calls_keep_the_earlier_steps_calls_before_them() -> None:
    # The lookup that comes after the notify cannot be the one the order takes.
    steps = [InOrder(ExpectedTool("lookup"), ExpectedTool("notify", optional=True))]
    assert check_turn(steps, named("lookup", "notify", "lookup")).passed
    result = check_turn(steps, named("notify", "lookup"))
    assert reasons(result) == [
        None,
        "notify (call 0) comes before lookup (call 1); it must come after",
    ]
    both = [InOrder(ExpectedTool("lookup", count=2), ExpectedTool("notify", optional=True))]
    assert check_turn(both, named("lookup", "lookup", "notify")).passed
    result = check_turn(both, named("lookup", "notify", "lookup"))
    assert reasons(result) == [
        None,
        "notify (call 1) comes before lookup (call 2); it must come after",
    ]


def test_two_optional_steps_keep_their_order() -> None:
    steps = [
        InOrder(
            ExpectedTool("a"), ExpectedTool("x", optional=True), ExpectedTool("y", optional=True)
        )
    ]
    assert check_turn(steps, named("a", "x", "y")).passed
    assert check_turn(steps, named("a", "y")).passed
    result = check_turn(steps, named("a", "y", "x"))
    assert reasons(result) == [None, "x (call 2) comes after y (call 1); it must come before", None]


def test_an_optional_step_caps_its_calls_with_max_count() -> None:
    steps = [InOrder(ExpectedTool("a"), ExpectedTool("x", optional=True, max_count=1))]
    assert check_turn(steps, named("a", "x")).passed
    assert reasons(check_turn(steps, named("a", "x", "x"))) == [
        None,
        "expected at most 1 matching call(s), got 2",
    ]


def test_an_optional_step_without_a_place_is_refused() -> None:
    with pytest.raises(ValueError, match="has no place") as raised:
        check_turn([ExpectedTool("a"), ExpectedTool("x", optional=True)], named("a"))
    assert str(raised.value) == (
        "expected[1]: ExpectedTool('x', optional=True) has no place in an order, so it asserts "
        "nothing: put it in an in_order group or an ordered turn, give it before / after, or a "
        "max_count"
    )
    with pytest.raises(ValueError, match="its place") as raised:
        ExpectedTool("x", optional=True).check(named("x"))
    assert str(raised.value) == (
        "ExpectedTool('x', optional=True) asserts only its place in an order: judge it in an "
        "ordered turn or an InOrder (check_turn, ExpectedTurn), or give it max_count"
    )
    assert named("x") != ExpectedTool("x", optional=True)
    # With a cap, or a place by id, it is welcome.
    assert ExpectedTool("x", optional=True, max_count=1).check(named("x")).passed
    placed = [ExpectedTool("a", id="a"), ExpectedTool("x", optional=True, after=["a"])]
    assert reasons(check_turn(placed, named("x", "a"))) == [
        None,
        "x (call 0) comes before a (call 1); it must come after",
    ]


def test_optional_refuses_a_count_and_pickles() -> None:
    with pytest.raises(ValueError, match="no count") as raised:
        ExpectedTool("x", optional=True, count=2)
    assert str(raised.value) == (
        "ExpectedTool optional takes no count: an optional step may take no call; leave out "
        "count (max_count=N caps its calls)"
    )
    with pytest.raises(TypeError) as type_error:
        ExpectedTool("x", optional=1)  # type: ignore[arg-type]
    assert str(type_error.value) == "ExpectedTool optional must be True or False, got 1"
    step = ExpectedTool("x", {"a": 1}, optional=True, max_count=2)
    assert step.count == 0
    assert repr(pickle.loads(pickle.dumps(step))) == repr(step)
    assert str(step.check(named("y"))).splitlines()[1] == (
        "  required: at most 2 matching calls, at its place; found 0"
    )


# --- Never after, never before -------------------------------------------------------------------


def test_never_after_and_before_name_the_offending_calls() -> None:
    turn = [
        ExpectedTool("cancel", id="cancel"),
        ExpectedTool.never("refund", after=["cancel"]),
        ExpectedTool.never("delete", before=["cancel"]),
    ]
    assert check_turn(turn, named("refund", "cancel", "delete")).passed
    result = check_turn(turn, named("delete", "cancel", "refund", "cancel", "refund"))
    assert reasons(result) == [
        None,
        "expected no matching call after cancel (call 1), got 2: call 2 refund({}), call 4 "
        "refund({})",
        "expected no matching call before cancel (call 1), got 1: call 0 delete({})",
    ]
    many = check_turn(turn, named("cancel", *["refund"] * 5))
    assert many.checks[1].unmatched_reason == (
        "expected no matching call after cancel (call 0), got 5: call 1 refund({}), call 2 "
        "refund({}), call 3 refund({}) and 2 more"
    )
    # No call of cancel: nothing to check here (cancel's own check fails).
    assert reasons(check_turn(turn, named("refund"))) == [
        "expected 1 matching call(s), got 0: no call's name contains 'cancel'; the turn "
        "called 'refund'",
        None,
        None,
    ]
    assert str(result.checks[1]).splitlines()[1] == (
        "  required: no matching call after cancel; found 2: calls 2, 4"
    )
    assert result.never_broken is None  # the turn expects calls: scored by precision and recall


def test_never_after_needs_a_turn_and_an_id_it_knows() -> None:
    never = ExpectedTool.never("refund", after=["cancel"])
    assert repr(never) == "ExpectedTool.never('refund', after=['cancel'])"
    assert repr(pickle.loads(pickle.dumps(never))) == repr(never)
    with pytest.raises(ValueError, match="judge it in a turn"):
        never.check(named("refund"))
    with pytest.raises(ValueError, match="no expectation") as raised:
        check_turn([never], named("refund"))
    assert str(raised.value) == (
        "expected[0].after[0]: no expectation in the turn has the id 'cancel' (ids: none)"
    )
    # A never-after takes no call, so it makes no order: the turn stays as it was.
    turn = [ExpectedTool("cancel", id="cancel"), never, ExpectedTool("cancel")]
    assert check_turn(turn, named("cancel")).passed


# --- First and last -----------------------------------------------------------------------------


def test_first_and_last_name_the_call_that_does_not_match() -> None:
    transfers = [
        {"name": "transfer", "args": {"to": "sales"}},
        {"name": "log", "args": {}},
        {"name": "transfer", "args": {"to": "billing"}},
    ]
    assert ExpectedTool("transfer", {"to": "billing"}, last=True).check(transfers).passed
    assert ExpectedTool("transfer", {"to": "sales"}, first=True).check(transfers).passed
    check = ExpectedTool("transfer", {"to": "sales"}, last=True).check(transfers)
    assert check.unmatched_reason == (
        "the last call whose name contains 'transfer' is call 2 transfer({'to': 'billing'}): "
        "to: expected 'sales', got 'billing'"
    )
    from toolmatch import Regex

    check = ExpectedTool(
        Regex("trans.*"), {"to": "x", "n": 1}, first=True, count=0, max_count=9
    ).check(transfers)
    assert check.unmatched_reason == (
        "the first call whose name matches Regex('trans.*') is call 0 transfer({'to': 'sales'}): "
        "2 mismatches (to, n)"
    )
    # Ignored calls are not among them; no call of the name leaves it to the count.
    result = check_turn(
        [ExpectedTool("transfer", {"to": "billing"}, first=True)],
        transfers,
        ignore=[ExpectedTool("transfer", {"to": "sales"})],
    )
    assert result.passed
    assert ExpectedTool("x", optional=True, max_count=1, last=True).check(transfers).passed


# --- spec files, the schema, lint ----------------------------------------------------------------


def test_a_spec_spells_optional_never_after_first_and_last() -> None:
    [case] = load_test_cases(
        {
            "test_cases": [
                {
                    "name": "refund",
                    "ordered": True,
                    "expected_tools": [
                        {"name": "check_balance", "id": "balance"},
                        {"name": "notify", "optional": True},
                        {"name": "refund", "last": True, "args": {"order": 7}},
                        {
                            "name": "check_balance",
                            "never": True,
                            "after": ["balance"],
                            "args": {"deep": True},
                        },
                    ],
                }
            ]
        }
    )
    [turn] = case.turns
    assert isinstance(turn, ExpectedTurn)
    assert [repr(tool) for tool in turn.expected_tools] == [
        "ExpectedTool('check_balance', id='balance')",
        "ExpectedTool('notify', optional=True)",
        "ExpectedTool('refund', {'order': 7}, last=True)",
        "ExpectedTool.never('check_balance', {'deep': True}, after=['balance'])",
    ]


@pytest.mark.parametrize(
    ("item", "place", "message"),
    [
        (
            {"name": "f", "never": True, "id": "a", "first": True},
            "expected_tools[0].never",
            "never: true takes no call, so it has no id and no place of its own: leave out id, "
            "first (after / before: no matching call after / before another expectation's "
            "first call)",
        ),
        (
            {"name": "f", "optional": True, "count": 2},
            "expected_tools[0].optional",
            "takes no count: an optional step may take no call; leave out count (max_count: N "
            "caps its calls)",
        ),
        (
            {"name": "f", "last": "yes"},
            "expected_tools[0].last",
            "must be true or false, got 'yes'",
        ),
    ],
)
def test_spec_mistakes_name_their_place(item: dict[str, Any], place: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        load_test_cases({"test_cases": [{"name": "c", "ordered": True, "expected_tools": [item]}]})
    [problem] = raised.value.problems
    assert (problem.path, problem.message) == (
        f"test_cases[0](c).{place.removeprefix('')}",
        message,
    )


def test_the_cli_reports_an_order_broken_as_written(tmp_path: Any) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: refund\n"
        "    expected_tools:\n"
        "      - in_order: [check_balance, {name: log, optional: true}, refund]\n",
        encoding="utf-8",
    )
    traces = tmp_path / "runs.jsonl"
    traces.write_text(
        '{"case": "refund", "turns": [[{"name": "refund"}, {"name": "check_balance"}, '
        '{"name": "refund"}]]}\n',
        encoding="utf-8",
    )
    done = toolmatch("check", str(spec), str(traces))
    assert done.returncode == 1
    assert done.stdout == (
        "FAIL refund\n"
        "  turn 0, expected_tools[0].in_order[2]: ExpectedTool('refund')\n"
        "    refund (call 0) comes before check_balance (call 1); it must come after\n"
        "0 passed, 1 failed\n"
    )


# --- brute force, from the docs' words ------------------------------------------------------------

# A step: (name, the value its argument v must have or None for any, count, optional).
Step = tuple[str, int | None, int, bool]
steps_strategy = st.lists(
    st.tuples(
        st.sampled_from("ab"), st.sampled_from([None, 1, 2]), st.integers(1, 2), st.booleans()
    ),
    min_size=1,
    max_size=4,
)
calls_strategy = st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from([1, 2])), max_size=6)


def _as_written(
    steps: list[Step], calls: list[tuple[str, int]], edges: set[tuple[int, int]]
) -> bool:
    """docs/selection.md's words, tried on every pairing: each step that is not optional takes
    exactly its count of calls of its own that match it; when a comes before b, (1) every
    call b takes comes after every call a takes, (2) no call that matches b comes before the
    first call that matches a; an optional step takes no call, and in (1) the calls it takes
    are every call that matches it and not the other step."""
    matches = [
        {
            index
            for index, (called, value) in enumerate(calls)
            if called == name and want in (None, value)
        }
        for name, want, _, _ in steps
    ]
    owners = [
        [
            None,
            *(n for n, (_, _, _, optional) in enumerate(steps) if not optional and i in matches[n]),
        ]
        for i in range(len(calls))
    ]
    pairs = order_closure(edges)

    def _strays(a: int, b: int) -> list[int]:
        return _stray_calls(matches, pairs, a, b)

    for chosen in itertools.product(*owners):
        taken = [{i for i, owner in enumerate(chosen) if owner == n} for n in range(len(steps))]
        if any(
            len(taken[n]) != count
            for n, (_, _, count, optional) in enumerate(steps)
            if not optional
        ):
            continue

        def takes(step: int, other: int, taken: list[set[int]] = taken) -> set[int]:
            return matches[step] - matches[other] if steps[step][3] else taken[step]

        if all(
            all(x < y for x in takes(a, b) for y in takes(b, a)) and not _strays(a, b)
            for a, b in pairs
        ):
            return True
    return False


def _stray_calls(matches: list[set[int]], pairs: set[tuple[int, int]], a: int, b: int) -> list[int]:
    """The calls that match b before the first call that matches a, and no step that need
    not come after a (other than b) but b itself."""
    if not matches[a]:
        return []
    covers = [s for s in range(len(matches)) if s != b and (a, s) not in pairs]
    return [
        c for c in matches[b] if c < min(matches[a]) and not any(c in matches[s] for s in covers)
    ]


def _tool(step: Step, **keys: Any) -> ExpectedTool:
    name, want, count, optional = step
    args = None if want is None else {"v": want}
    if optional:
        return ExpectedTool(name, args, optional=True, **keys)
    return ExpectedTool(name, args, count=count, **keys)


@settings(max_examples=500, deadline=None, database=None)
@given(steps_strategy, calls_strategy, st.sampled_from(["ordered", "in_order", "ids"]), st.data())
def test_the_engine_agrees_with_the_docs_words(
    steps: list[Step], made: list[tuple[str, int]], how: str, data: Any
) -> None:
    calls = [{"name": name, "args": {"v": value}} for name, value in made]
    count = len(steps)
    if how == "ids":
        edges = {
            (i, j)
            for i, j in data.draw(st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3))))
            if i < j < count
        }
        placed = {n for edge in edges for n in edge}
        tools = [
            _tool(
                step,
                id=f"s{n}",
                after=[f"s{i}" for i, j in sorted(edges) if j == n],
                **({"max_count": 6} if step[3] and n not in placed else {}),
            )
            for n, step in enumerate(steps)
        ]
        result = check_turn(tools, calls, distinct=True)
    else:
        edges = {(i, i + 1) for i in range(count - 1)}
        if count == 1 and steps[0][3]:
            return  # alone, an optional step has no place: refused (tested above)
        tools = [_tool(step) for step in steps]
        if how == "ordered":
            result = check_turn(tools, calls, ordered=True)
        elif count == 1:
            result = check_turn(tools, calls, distinct=True)
        else:
            result = check_turn([InOrder(*tools)], calls)
    assert result.passed == _as_written(steps, made, edges)
    if not result.passed:
        assert any(not check.passed for check in result.checks) or result.problems


def test_the_brute_force_reads_the_docs_examples() -> None:
    # The brute force says what the docs' examples say, so it is the words it claims to be.
    balance, refund = ("b", None, 1, False), ("r", None, 1, False)
    assert not _as_written([balance, refund], [("r", 1), ("b", 1), ("r", 1)], {(0, 1)})
    assert _as_written([balance, refund], [("b", 1), ("r", 1), ("b", 1)], {(0, 1)})
    log = ("l", None, 1, True)
    assert _as_written([balance, log, refund], [("b", 1), ("r", 1)], {(0, 1), (1, 2)})
    assert not _as_written([balance, log, refund], [("b", 1), ("r", 1), ("l", 1)], {(0, 1), (1, 2)})


def test_any_name_matcher_keeps_the_rules() -> None:
    # ANY matches every call, so no call of a later step is before its first.
    steps = [InOrder(ExpectedTool(ANY), ExpectedTool("b"))]
    assert check_turn(steps, named("b", "a")).checks[1].unmatched_reason is not None
    assert check_turn(steps, named("a", "b")).passed


def test_an_ignore_pattern_takes_no_optional_first_or_last() -> None:
    with pytest.raises(ValueError, match="ignore pattern") as raised:
        check_turn([], [], ignore=[ExpectedTool("log", last=True)])
    assert str(raised.value) == (
        "ignore[0] is ExpectedTool('log', last=True): an ignore pattern selects calls, so "
        "optional, first and last mean nothing there; write ExpectedTool(name, args) without them"
    )
    with pytest.raises(ConfigError) as error:
        load_test_cases(
            {
                "test_cases": [
                    {"name": "c", "expected_tools": [], "ignore": [{"name": "log", "first": True}]}
                ]
            }
        )
    assert [problem.path for problem in error.value.problems] == [
        "test_cases[0](c).ignore[0].first"
    ]


@pytest.mark.parametrize("grouped", [False, True])
def test_an_exhaustive_turn_expects_an_optional_steps_calls(grouped: bool) -> None:
    steps = [ExpectedTool("lookup"), ExpectedTool("notify", optional=True), ExpectedTool("refund")]
    turn: Any = [InOrder(*steps)] if grouped else steps

    def judged(*names: str) -> Any:
        return check_turn(turn, named(*names), ordered=not grouped, exhaustive=True)

    assert judged("lookup", "refund").passed
    assert judged("lookup", "notify", "notify", "refund").passed
    assert judged("lookup", "x", "refund").problems == ("call 1 x({}) is not expected",)
    late = judged("lookup", "refund", "notify")
    assert (late.problems, reasons(late)) == (
        (),
        [None, "notify (call 2) comes after refund (call 1); it must come before", None],
    )
