"""Partial order in a turn: InOrder / AnyOrder groups and before / after between expectations
(issue 27, deliverable 1), judged optimally and checked against brute force."""

from __future__ import annotations

import itertools
import json
import pickle
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from commands import jsonl, toolmatch
from strategies import order_closure
from toolmatch import (
    AnyOrder,
    ConfigError,
    ExpectedTool,
    ExpectedTurn,
    InOrder,
    assert_turn,
    check_turn,
    check_turns,
    load_test_cases,
)


def call(name: str, **args: object) -> dict[str, object]:
    return {"name": name, "args": args}


def calls_named(*names: str) -> list[dict[str, object]]:
    return [call(name) for name in names]


def reasons(result: Any) -> list[str | None]:
    return [check.unmatched_reason for check in result.checks]


# --- the semantics -----------------------------------------------------------------------------


def test_in_order_with_an_any_order_group_in_the_middle() -> None:
    steps = [
        InOrder(
            ExpectedTool("lookup"),
            AnyOrder(ExpectedTool("check_balance"), ExpectedTool("check_fraud")),
            ExpectedTool("refund"),
        )
    ]
    either = calls_named("lookup", "check_fraud", "check_balance", "refund")
    assert check_turn(steps, either).passed
    assert check_turn(steps, calls_named("lookup", "check_balance", "x", "check_fraud", "refund"))
    late = check_turn(steps, calls_named("lookup", "check_balance", "refund", "check_fraud"))
    assert not late.passed
    assert reasons(late) == [
        None,
        None,
        None,
        "refund (call 2) comes before check_fraud (call 3); it must come after",
    ]


def test_after_names_the_broken_constraint_exactly() -> None:
    expected = [
        ExpectedTool("check_balance", id="check_balance"),
        ExpectedTool("refund", after=["check_balance"]),
    ]
    calls = calls_named("a", "b", "c", "d", "e", "refund", "f", "check_balance")
    result = check_turn(expected, calls)
    assert not result.passed
    assert result.first_failure() == (
        "expectation 1: refund (call 5) comes before check_balance (call 7); it must come after"
    )
    assert (
        "  expectation 1: FAILED ExpectedTool('refund', after=['check_balance']): "
        "refund (call 5) comes before check_balance (call 7); it must come after"
    ) in str(result).splitlines()
    assert check_turn(expected, calls_named("check_balance", "refund")).passed


def test_before_is_after_seen_from_the_other_side() -> None:
    expected = [
        ExpectedTool("validate", before=["write"]),
        ExpectedTool("write_file", id="write"),
    ]
    assert check_turn(expected, calls_named("validate", "write_file")).passed
    result = check_turn(expected, calls_named("write_file", "validate"))
    assert reasons(result) == [
        None,
        "write (call 0) comes before validate (call 1); it must come after",
    ]


def test_the_pairing_is_searched_not_greedy() -> None:
    # Greedy would give call 0 (search) to the first AnyOrder item and then miss 'b after a'.
    expected = [
        AnyOrder(InOrder(ExpectedTool("s", id="a"), ExpectedTool("t")), ExpectedTool("s")),
    ]
    assert check_turn(expected, calls_named("s", "t", "s")).passed
    # Only one s before the t: the t must follow the s its sequence takes.
    assert check_turn(expected, calls_named("s", "s", "t")).passed
    result = check_turn(expected, calls_named("t", "s", "s"))
    assert reasons(result) == [None, "t (call 0) comes before a (call 1); it must come after", None]


def test_a_group_needs_calls_of_its_own_in_order() -> None:
    session = InOrder(ExpectedTool("login"), ExpectedTool("get"))
    expected = [AnyOrder(session, session)]
    # Each login alone has a get after it, and each get a login before it, but the second
    # login comes after both gets: no pairing gives both sessions calls of their own.
    result = check_turn(expected, calls_named("login", "get", "get", "login"))
    text = (
        "expected 1 matching call(s) of its own in the turn's order: no pairing gives every "
        "expectation of its group calls of their own in order"
    )
    assert reasons(result) == [text] * 4
    assert check_turn(expected, calls_named("login", "get", "login", "get")).passed


def test_a_later_step_before_the_earlier_one_breaks_the_order() -> None:
    # A b before the a is a b out of place, even though a later b would follow the a.
    expected = [InOrder(ExpectedTool("a"), AnyOrder(ExpectedTool("b"), ExpectedTool("b")))]
    result = check_turn(expected, calls_named("b", "a", "b", "b"))
    text = "b (call 0) comes before a (call 1); it must come after"
    assert reasons(result) == [None, text, text]
    assert check_turn(expected, calls_named("a", "b", "b")).passed


def test_count_reasons_come_first() -> None:
    expected = [InOrder(ExpectedTool("a"), ExpectedTool("b", count=2))]
    result = check_turn(expected, calls_named("a", "b"))
    assert reasons(result) == [None, "expected 2 matching call(s), got 1"]


def test_ordered_makes_the_top_level_list_a_sequence() -> None:
    expected = [ExpectedTool("a"), AnyOrder(ExpectedTool("b"), ExpectedTool("c"))]
    calls = calls_named("c", "a", "b")
    assert check_turn(expected, calls).passed
    result = check_turn(expected, calls, ordered=True)
    assert reasons(result) == [None, None, "c (call 0) comes before a (call 1); it must come after"]


def test_counts_above_one_take_blocks() -> None:
    expected = [InOrder(ExpectedTool("a", count=2), ExpectedTool("b"))]
    assert check_turn(expected, calls_named("a", "a", "b")).passed
    result = check_turn(expected, calls_named("a", "b", "a"))
    assert reasons(result) == [None, "b (call 1) comes before a (call 2); it must come after"]
    more = [InOrder(ExpectedTool("a"), ExpectedTool("b", count=2))]
    result = check_turn(more, calls_named("b", "a", "b"))
    assert reasons(result) == [None, "b (call 0) comes before a (call 1); it must come after"]
    # Two b's after the a, but too few: said as a count in order.
    result = check_turn(more, calls_named("a", "b"))
    assert reasons(result) == [None, "expected 2 matching call(s), got 1"]


def test_exhaustive_turn_with_groups() -> None:
    expected = [InOrder(ExpectedTool("a"), ExpectedTool("b"))]
    assert check_turn(expected, calls_named("a", "b"), exhaustive=True).passed
    result = check_turn(expected, calls_named("a", "b", "c"), exhaustive=True)
    assert result.problems == ("call 2 c({}) is not expected",)
    with pytest.raises(ValueError, match=r"^an exhaustive turn") as raised:
        check_turn(
            [InOrder(ExpectedTool("a", max_count=2), ExpectedTool("b"))], [], exhaustive=True
        )
    assert str(raised.value) == (
        "an exhaustive turn with groups or before/after takes exactly count calls per "
        "expectation: max_count above count is not supported there"
    )


def test_scores_count_the_expectations_met_in_order() -> None:
    expected = [InOrder(ExpectedTool("a"), ExpectedTool("b"), ExpectedTool("c"))]
    result = check_turn(expected, calls_named("a", "c", "b"))
    assert reasons(result) == [None, None, "c (call 1) comes before b (call 2); it must come after"]
    assert result.score_text() == "precision 2/3 = 0.67, recall 2/3 = 0.67, f1 0.67"
    assert check_turn(expected, calls_named("a", "b", "c")).recall == 1.0


def test_a_never_beside_groups_is_judged_as_ever() -> None:
    expected = [InOrder(ExpectedTool("a"), ExpectedTool("b")), ExpectedTool.never("delete")]
    result = check_turn(expected, calls_named("a", "b", "delete"))
    assert reasons(result) == [None, None, "expected no matching call, got 1"]


def test_turns_and_assert_turn_take_groups() -> None:
    steps = InOrder(ExpectedTool("a"), ExpectedTool("b"))
    turn = ExpectedTurn([steps])
    assert turn.expected_tools == (steps,)
    assert turn.check(calls_named("a", "b")).passed
    assert [r.passed for r in check_turns([[steps]], [calls_named("b", "a")])] == [False]
    with pytest.raises(AssertionError) as raised:
        assert_turn([steps], calls_named("b", "a"))
    assert "b (call 0) comes before a (call 1); it must come after" in str(raised.value)


def test_groups_repr_equality_and_pickle() -> None:
    steps = InOrder(ExpectedTool("a", id="x"), AnyOrder(ExpectedTool("b"), ExpectedTool("c")))
    assert repr(steps) == (
        "InOrder(ExpectedTool('a', id='x'), AnyOrder(ExpectedTool('b'), ExpectedTool('c')))"
    )
    tool = ExpectedTool("refund", after=["x"], before=["y"])
    assert repr(tool) == "ExpectedTool('refund', before=['y'], after=['x'])"
    assert (tool.id, tool.before, tool.after) == (None, ("y",), ("x",))
    again = pickle.loads(pickle.dumps(steps))
    assert repr(again) == repr(steps)
    assert repr(pickle.loads(pickle.dumps(tool))) == repr(tool)
    assert steps == steps
    assert InOrder(*steps.items) == steps


# --- mistakes are refused where made -------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (
            lambda: InOrder(ExpectedTool("a")),
            ValueError,
            "InOrder needs at least two items to order, got 1; write a single expectation as "
            "itself",
        ),
        (
            lambda: InOrder(ExpectedTool("a"), InOrder(ExpectedTool("b"), ExpectedTool("c"))),
            ValueError,
            "InOrder item 1 is an InOrder too: one inside another is the same group; list its "
            "items in the outer InOrder",
        ),
        (
            lambda: AnyOrder(ExpectedTool("a"), "b"),
            TypeError,
            "AnyOrder item 1 must be an ExpectedTool or an InOrder, got 'b' (str)",
        ),
        (
            lambda: AnyOrder(ExpectedTool("a"), ExpectedTool.never("b")),
            ValueError,
            "AnyOrder item 1 is ExpectedTool.never('b'): a never or a cap has no place in an "
            "order; list it beside the groups (optional=True makes a step that may be left out)",
        ),
        (
            lambda: InOrder(
                ExpectedTool("a"),
                AnyOrder(
                    ExpectedTool("b"),
                    InOrder(ExpectedTool("c"), AnyOrder(ExpectedTool("d"), ExpectedTool("e"))),
                ),
            ),
            ValueError,
            "groups nest at most 3 deep (InOrder > AnyOrder > InOrder); for a finer order, give "
            "the expectations ids and write before/after",
        ),
        (
            lambda: ExpectedTool("a", after="b"),
            TypeError,
            "ExpectedTool after must be a list of ids of other expectations in the turn, such "
            "as after=['check_balance'], got 'b' (str)",
        ),
        (
            lambda: ExpectedTool("a", id=""),
            TypeError,
            "ExpectedTool id must be a non-empty string naming this expectation or None, got "
            "'' (str)",
        ),
        (
            lambda: ExpectedTool("a", id="a", before=["a"]),
            ValueError,
            "ExpectedTool before names its own id 'a'",
        ),
        (
            lambda: ExpectedTool("a", count=0, max_count=2, after=["b"]),
            ValueError,
            "ExpectedTool with count=0 may take no call, so before and after mean nothing on "
            "it: give count >= 1, write optional=True for a step that may be left out, or put "
            "the constraint on the other expectation",
        ),
    ],
)
def test_bad_groups_and_constraints_fail_at_construction(
    build: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as raised:
        build()
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("expected", "message"),
    [
        (
            [ExpectedTool("a", id="x"), ExpectedTool("b", after=["y"])],
            "expected[1].after[0]: no expectation in the turn has the id 'y' (ids: 'x')",
        ),
        (
            [ExpectedTool("a", id="x"), InOrder(ExpectedTool("b", id="x"), ExpectedTool("c"))],
            "expected[1].in_order[0].id: 'x' is the id of expected[0] too; ids in a turn must "
            "differ",
        ),
        (
            [InOrder(ExpectedTool("a", id="a"), ExpectedTool("b", id="b", before=["a"]))],
            "expected[0].in_order[0]: the order constraints form a cycle: a before b before a",
        ),
        (
            [
                ExpectedTool("a", id="a", after=["c"]),
                ExpectedTool("b", id="b", after=["a"]),
                ExpectedTool("c", id="c", after=["b"]),
            ],
            "expected[0]: the order constraints form a cycle: a before b before c before a",
        ),
        (
            [ExpectedTool("a"), "b"],
            "expected[1] must be an ExpectedTool, InOrder or AnyOrder, got 'b' (str)",
        ),
    ],
)
def test_bad_turn_orders_fail_at_construction(expected: list[Any], message: str) -> None:
    with pytest.raises((ValueError, TypeError)) as raised:
        check_turn(expected, [])
    assert str(raised.value) == message


def test_bad_orders_in_expected_turns_name_their_place() -> None:
    with pytest.raises(ValueError, match=r"^expected_tools\[0\]") as raised:
        ExpectedTurn([ExpectedTool("a", after=["nope"])])
    assert str(raised.value) == (
        "expected_tools[0].after[0]: no expectation in the turn has the id 'nope' (ids: none)"
    )


# --- brute force ---------------------------------------------------------------------------------


def _feasible(
    demands: list[int],
    matches: list[set[int]],
    edges: set[tuple[int, int]],
    calls: int,
    exhaustive: bool = False,
) -> bool:
    """Whether some owner per call gives each expectation exactly its demand, in order."""
    owners = range(-1 if not exhaustive else 0, len(demands))
    for chosen in itertools.product(owners, repeat=calls):
        if any(owner >= 0 and index not in matches[owner] for index, owner in enumerate(chosen)):
            continue
        taken = [[i for i, owner in enumerate(chosen) if owner == n] for n in range(len(demands))]
        if any(len(got) != demand for got, demand in zip(taken, demands, strict=True)):
            continue
        # docs/selection.md, "What an order means": each call a later step takes comes after
        # every call the earlier one takes, and no call that matches the later step comes
        # before the first call that matches the earlier one.
        # (other than those that match a step that need not come after the earlier one).
        pairs = order_closure(edges)
        if all(taken[i][-1] < taken[j][0] for i, j in pairs) and all(
            not matches[i]
            or all(
                c >= min(matches[i])
                or any(
                    c in matches[s] for s in range(len(demands)) if s != j and (i, s) not in pairs
                )
                for c in matches[j]
            )
            for i, j in pairs
        ):
            return True
    return False


def _assignment_keeps_order(result: Any, edges: set[tuple[int, int]]) -> bool:
    got = [check.assigned_call_indices for check in result.checks]
    flat = [index for calls in got for index in calls]
    return len(flat) == len(set(flat)) and all(got[i][-1] < got[j][0] for i, j in edges)


@settings(max_examples=400, deadline=None, database=None)
@given(
    st.lists(st.tuples(st.sampled_from("abc"), st.integers(1, 2)), min_size=1, max_size=4),
    st.lists(st.sampled_from("abcd"), max_size=6),
    st.sets(st.tuples(st.integers(0, 3), st.integers(0, 3))),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_before_after_matches_brute_force(
    wanted: list[tuple[str, int]],
    names: list[str],
    pairs: set[tuple[int, int]],
    use_before: bool,
    exhaustive: bool,
    ordered: bool,
) -> None:
    count = len(wanted)
    edges = {(i, j) for i, j in pairs if i < j < count}  # i before j: acyclic
    expected = [
        ExpectedTool(
            name,
            count=demand,
            id=f"e{number}",
            after=[] if use_before else [f"e{i}" for i, j in sorted(edges) if j == number],
            before=[f"e{j}" for i, j in sorted(edges) if i == number] if use_before else [],
        )
        for number, (name, demand) in enumerate(wanted)
    ]
    matches = [
        {index for index, called in enumerate(names) if called == name} for name, _ in wanted
    ]
    demands = [demand for _, demand in wanted]
    calls = calls_named(*names)
    result = check_turn(expected, calls, distinct=True, exhaustive=exhaustive, ordered=ordered)
    if ordered:  # the top-level list is a sequence too
        edges |= {(number, number + 1) for number in range(count - 1)}
    assert result.passed == _feasible(demands, matches, edges, len(names), exhaustive)
    if result.passed:
        assert _assignment_keeps_order(result, edges)
    elif not result.passed and all(check.passed for check in result.checks):
        assert result.problems  # a failing turn always says why


def _shape(draw: Any, depth: int, kind: str) -> tuple[str, list[Any]]:
    size = draw(st.integers(2, 3))
    items: list[Any] = []
    for _ in range(size):
        if depth < 2 and draw(st.integers(0, 3)) == 0:
            items.append(_shape(draw, depth + 1, "any" if kind == "in" else "in"))
        else:
            items.append((draw(st.sampled_from("abc")), draw(st.integers(1, 2))))
    return kind, items


@st.composite
def shapes(draw: Any) -> tuple[str, list[Any]]:
    return _shape(draw, 0, draw(st.sampled_from(["in", "any"])))


def _build(shape: Any, tools: list[tuple[str, int]], edges: set[tuple[int, int]]) -> Any:
    """The group and its members; the edges the test derives on its own."""
    kind, items = shape
    built, members = [], []
    for item in items:
        if isinstance(item[1], list):
            group, inner = _build(item, tools, edges)
            built.append(group)
            members.append(inner)
        else:
            members.append([len(tools)])
            tools.append(item)
            built.append(ExpectedTool(item[0], count=item[1]))
    if kind == "in":
        for earlier, later in itertools.pairwise(members):
            edges.update((i, j) for i in earlier for j in later)
    return (InOrder if kind == "in" else AnyOrder)(*built), [n for m in members for n in m]


@settings(max_examples=300, deadline=None)
@given(shapes(), st.lists(st.sampled_from("abcd"), max_size=7))
def test_groups_match_brute_force(shape: Any, names: list[str]) -> None:
    tools: list[tuple[str, int]] = []
    edges: set[tuple[int, int]] = set()
    group, _ = _build(shape, tools, edges)
    if sum(demand for _, demand in tools) > 7:
        return  # more calls wanted than the brute force can try
    matches = [{index for index, called in enumerate(names) if called == name} for name, _ in tools]
    result = check_turn([group], calls_named(*names))
    demands = [demand for _, demand in tools]
    assert result.passed == _feasible(demands, matches, edges, len(names))
    if result.passed:
        assert _assignment_keeps_order(result, edges)
    else:
        assert any(not check.passed for check in result.checks)


def test_a_long_sequence_of_groups_is_fast_enough_to_judge() -> None:
    # 20 groups of 5 over 1,000 calls, met group by group: no search blows up.
    groups = [
        AnyOrder(*(ExpectedTool(f"t{group}_{item}") for item in range(5))) for group in range(20)
    ]
    names = [f"t{(index // 50)}_{index % 5}" for index in range(1_000)]
    assert check_turn([InOrder(*groups)], calls_named(*names)).passed


def test_identical_sequences_in_any_order_are_searched_once() -> None:
    # Twenty interchangeable sequences: the search treats them as one kind, not 20! orders.
    either = AnyOrder(*(InOrder(ExpectedTool("a"), ExpectedTool("b")) for _ in range(20)))
    assert check_turn([either], calls_named(*["a"] * 20, *["b"] * 20)).passed
    result = check_turn([either], calls_named("b", *["a"] * 23, *["b"] * 19))
    assert not result.passed


def test_conflicts_between_order_and_distinct_calls_are_found_without_search() -> None:
    # Each fetch needs a search of its own before it: 19 searches come before the fetches.
    either = AnyOrder(*(InOrder(ExpectedTool("s"), ExpectedTool(f"f{i}")) for i in range(20)))
    fetches = [f"f{i}" for i in range(20)]
    assert check_turn([either], calls_named(*["s"] * 20, *fetches)).passed
    result = check_turn([either], calls_named(*["s"] * 19, *fetches, "s"))
    assert not result.passed


def test_a_search_that_gives_up_fails_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import toolmatch._core.pairing as pairing

    monkeypatch.setattr(pairing, "SEARCH_STEPS", 1)
    either = AnyOrder(InOrder(ExpectedTool("a"), ExpectedTool("b")), ExpectedTool("a"))
    result = check_turn([either], calls_named("a", "a", "b"))
    text = (
        "the pairing search gave up (it visits at most 100000 states and places at most 200 "
        "calls in one group): split the group, or write fewer before/after constraints "
        "between expectations that match the same calls"
    )
    assert reasons(result) == [text, text, text]
    assert not result.passed


# --- spec files ----------------------------------------------------------------------------------

REFUND_SPEC = """
test_cases:
  - name: refund
    expected_tools:
      - lookup_order
      - {name: check_balance, id: balance}
      - {name: refund, after: [balance]}
      - in_order:
          - send_receipt
          - any_order: [log_event, {name: notify, args: {channel: email}}]
"""


def test_a_spec_spells_groups_and_constraints() -> None:
    [case] = load_test_cases(yaml_data(REFUND_SPEC))
    [turn] = case.turns
    # Matchers compare by what they match, not by value: the reprs say what was read.
    assert [repr(item) for item in turn.expected_tools] == [
        "ExpectedTool('lookup_order')",
        "ExpectedTool('check_balance', id='balance')",
        "ExpectedTool('refund', after=['balance'])",
        "InOrder(ExpectedTool('send_receipt'), AnyOrder(ExpectedTool('log_event'), "
        "ExpectedTool('notify', {'channel': 'email'})))",
    ]
    good = calls_named("lookup_order", "check_balance", "refund", "send_receipt", "log_event")
    good.append(call("notify", channel="email"))
    assert case.passes([good])
    bad = [good[0], good[2], good[1], *good[3:]]
    [result] = case.check([bad])
    assert result.first_failure() == (
        "expectation 2: refund (call 1) comes before balance (call 2); it must come after"
    )


def yaml_data(text: str) -> Any:
    return yaml.safe_load(text)


@pytest.mark.parametrize(
    ("expected_tools", "problems"),
    [
        (
            [{"name": "a", "after": ["nope"]}],
            [
                (
                    "test_cases[0](c).expected_tools[0].after[0]",
                    "no expectation in the turn has the id 'nope' (ids: none)",
                )
            ],
        ),
        (
            [{"in_order": ["a", {"name": "b", "id": "x"}]}, {"name": "c", "id": "x"}],
            [
                (
                    "test_cases[0](c).expected_tools[1].id",
                    "'x' is the id of expected_tools[0].in_order[1] too; ids in a turn must differ",
                )
            ],
        ),
        (
            [{"name": "a", "id": "a", "after": ["b"]}, {"name": "b", "id": "b", "after": ["a"]}],
            [
                (
                    "test_cases[0](c).expected_tools[0]",
                    "the order constraints form a cycle: a before b before a",
                )
            ],
        ),
        (
            [{"in_order": ["a"]}],
            [
                (
                    "test_cases[0](c).expected_tools[0].in_order",
                    "InOrder needs at least two items to order, got 1; write a single "
                    "expectation as itself",
                )
            ],
        ),
        (
            [{"in_order": ["a", {"in_order": ["b", "c"]}]}],
            [
                (
                    "test_cases[0](c).expected_tools[0].in_order",
                    "InOrder item 1 is an InOrder too: one inside another is the same group; "
                    "list its items in the outer InOrder",
                )
            ],
        ),
        (
            [{"in_order": ["a", "b"], "any_order": ["c", "d"]}],
            [
                (
                    "test_cases[0](c).expected_tools[0]",
                    "a group is a mapping with one key, in_order or any_order, holding its "
                    "items; got 'in_order', 'any_order'",
                )
            ],
        ),
        (
            [{"any_order": ["a", {"name": ""}]}],
            [
                (
                    "test_cases[0](c).expected_tools[0].any_order[1].name",
                    "must not be empty: '' is in every tool name; write name: {$any: true} to select any tool",
                )
            ],
        ),
        (
            [{"name": "a", "id": 3, "before": "b"}],
            [
                (
                    "test_cases[0](c).expected_tools[0].id",
                    "must be a non-empty string naming this expectation or null, got 3 (int)",
                ),
                (
                    "test_cases[0](c).expected_tools[0].before",
                    "must be a list of ids of other expectations in the turn, such as before: "
                    "[check_balance], got 'b' (str)",
                ),
            ],
        ),
        (
            [{"name": "a", "never": True, "id": "x"}],
            [
                (
                    "test_cases[0](c).expected_tools[0].never",
                    "never: true takes no call, so it has no id and no place of its own: leave out "
                    "id (after / before: no matching call after / before another expectation's "
                    "first call)",
                )
            ],
        ),
    ],
)
def test_spec_mistakes_in_orders_name_their_place(
    expected_tools: list[Any], problems: list[tuple[str, str]]
) -> None:
    with pytest.raises(ConfigError) as raised:
        load_test_cases({"test_cases": [{"name": "c", "expected_tools": expected_tools}]})
    assert [(problem.path, problem.message) for problem in raised.value.problems] == problems


def test_ordered_turn_in_a_spec_with_a_group(tmp_path: Any) -> None:
    spec = {
        "test_cases": [
            {
                "name": "c",
                "ordered": True,
                "expected_tools": ["a", {"any_order": ["b", "c"]}, "d"],
            }
        ]
    }
    [case] = load_test_cases(spec)
    assert case.passes([calls_named("a", "c", "b", "d")])
    assert not case.passes([calls_named("a", "c", "d", "b")])


def test_the_cli_text_report_names_the_broken_constraint(tmp_path: Any) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(REFUND_SPEC, encoding="utf-8")
    traces = tmp_path / "traces.jsonl"
    names = ["lookup_order", "refund", "check_balance", "send_receipt", "log_event"]
    run = {"case": "refund", "turns": [[*calls_named(*names), call("notify", channel="email")]]}
    traces.write_text(jsonl(run), encoding="utf-8")
    result = toolmatch("check", spec, traces)
    assert result.returncode == 1, result.stderr
    assert result.stdout == (
        "FAIL refund\n"
        "  turn 0, expected_tools[2]: ExpectedTool('refund', after=['balance'])\n"
        "    refund (call 1) comes before balance (call 2); it must come after\n"
        "0 passed, 1 failed\n"
    )
    # Inside a group, an expectation is named by its place in the spec.
    names = ["lookup_order", "check_balance", "refund", "send_receipt", "log_event"]
    run = {"case": "refund", "turns": [[*calls_named(*names), call("notify", channel="sms")]]}
    traces.write_text(jsonl(run), encoding="utf-8")
    result = toolmatch("check", spec, traces)
    assert result.stdout.splitlines()[:3] == [
        "FAIL refund",
        "  turn 0, expected_tools[3].in_order[1].any_order[1]: "
        "ExpectedTool('notify', {'channel': 'email'})",
        "    call 5: channel: expected 'email', got 'sms'",
    ]


def test_the_schema_accepts_groups_and_refuses_their_misuse() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from toolmatch import spec_schema

    validator = jsonschema.Draft202012Validator(spec_schema())

    def accepted(expected_tools: Any) -> bool:
        spec = {"test_cases": [{"name": "c", "expected_tools": expected_tools}]}
        return not list(validator.iter_errors(spec))

    assert accepted(yaml_data(REFUND_SPEC)["test_cases"][0]["expected_tools"])
    assert accepted([{"name": "f", "count": 0, "max_count": 2, "after": []}])
    assert not accepted([{"in_order": ["a", {"in_order": ["b", "c"]}]}])
    assert not accepted([{"any_order": ["a", {"name": "b", "never": True}]}])
    assert not accepted([{"in_order": ["a"]}])
    assert not accepted([{"in_order": ["a", "b"], "any_order": ["c", "d"]}])
    assert not accepted([{"name": "a", "never": True, "id": "x"}])
    assert not accepted([{"name": "a", "count": 0, "max_count": 1, "after": ["x"]}])


def test_update_fixes_an_expectation_inside_a_group_at_its_place(tmp_path: Any) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: c\n"
        "    expected_tools:\n"
        "      - lookup\n"
        "      - in_order:\n"
        "          - {name: search, args: {q: paris}}\n"
        "          - {name: book, args: {city: Paris}}\n",
        encoding="utf-8",
    )
    traces = tmp_path / "traces.jsonl"
    turn = [call("lookup"), call("search", q="paris"), call("book", city="Lyon")]
    traces.write_text(jsonl({"case": "c", "turns": [turn]}), encoding="utf-8")
    result = toolmatch("check", spec, traces, "--update", "fix")
    assert result.returncode == 0, result.stderr
    assert spec.read_text(encoding="utf-8").splitlines()[-1] == (
        "          - {name: book, args: {city: Lyon}}"
    )


def test_a_refused_item_does_not_make_its_id_unknown() -> None:
    spec = {
        "test_cases": [
            {
                "name": "c",
                "expected_tools": [
                    {"name": "a", "id": "x", "cout": 1},
                    {"name": "b", "after": ["x"]},
                ],
            },
            {"name": "d", "expected_tools": [{"name": "b", "after": ["y"]}]},
        ]
    }
    with pytest.raises(ConfigError) as raised:
        load_test_cases(spec)
    assert [problem.path for problem in raised.value.problems] == [
        "test_cases[0](c).expected_tools[0].cout",
        "test_cases[1](d).expected_tools[0].after[0]",
    ]


def test_an_exhaustive_spec_turn_with_a_range_in_a_group_is_refused_at_its_place() -> None:
    spec = {
        "test_cases": [
            {
                "name": "c",
                "exhaustive": True,
                "expected_tools": [{"in_order": [{"name": "a", "max_count": 2}, "b"]}],
            }
        ]
    }
    with pytest.raises(ConfigError) as raised:
        load_test_cases(spec)
    assert [(p.path, p.message) for p in raised.value.problems] == [
        (
            "test_cases[0](c)",
            "an exhaustive turn with groups or before/after takes exactly count calls per "
            "expectation: max_count above count is not supported there",
        )
    ]


def test_lint_reads_the_expectations_inside_groups_at_their_places(tmp_path: Any) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: c\n"
        "    max_calls: 1\n"
        "    expected_tools:\n"
        "      - in_order:\n"
        "          - lookup\n"
        "          - refund\n"
        "      - {name: refund, never: true}\n",
        encoding="utf-8",
    )
    result = toolmatch("lint", spec)
    assert result.returncode == 1, result.stderr
    # The max_calls finding: two calls of their own (a group implies distinct calls).
    assert result.stdout.splitlines() == [
        f"{spec}:7: test_cases[0](c).expected_tools[0].in_order[1]: can never pass: "
        "expected_tools[1] forbids the calls it needs [contradicts-never]",
        f"{spec}:3: test_cases[0](c).max_calls: can never pass: the expectations need 2 calls "
        "of their own and max_calls is 1 [count-above-max-calls]",
        "2 findings",
    ]


def test_an_ignore_pattern_takes_no_order() -> None:
    with pytest.raises(ValueError, match=r"^ignore\[0\]") as raised:
        check_turn([], [], ignore=[ExpectedTool("log", id="x")])
    assert str(raised.value) == (
        "ignore[0] is ExpectedTool('log', id='x'): an ignore pattern selects calls, so id, "
        "before and after mean nothing there; write ExpectedTool(name, args) without them"
    )


def test_an_order_cannot_be_judged_alone() -> None:
    refund = ExpectedTool("refund", after=["check"])
    calls = calls_named("check", "refund")
    assert (calls == refund) is False
    assert refund.describe_mismatch(calls) == (
        "ExpectedTool('refund', after=['check']) orders its calls against other expectations: "
        "judge it in a turn with them (check_turn, ExpectedTurn), not alone"
    )
    with pytest.raises(ValueError, match=r"not alone$"):
        refund.check(calls)
    # An id alone orders nothing: the expectation is judged as ever.
    assert calls == ExpectedTool("refund", id="refund")


def test_a_group_too_large_to_search_fails_and_says_so() -> None:
    # 150 interchangeable sequences over the same calls: 300 calls to place, past the bound.
    either = AnyOrder(*(InOrder(ExpectedTool("a"), ExpectedTool("b")) for _ in range(150)))
    result = check_turn([either], calls_named(*["a"] * 150, *["b"] * 150))
    assert not result.passed
    assert result.first_failure() == (
        "expectation 0: the pairing search gave up (it visits at most 100000 states and places "
        "at most 200 calls in one group): split the group, or write fewer before/after "
        "constraints between expectations that match the same calls"
    )
    # The same many expectations, each with calls of its own, need no search.
    steps = AnyOrder(*(InOrder(ExpectedTool(f"a{i}"), ExpectedTool(f"b{i}")) for i in range(150)))
    names = [f"a{i}" for i in range(150)] + [f"b{i}" for i in range(150)]
    assert check_turn([steps], calls_named(*names)).passed


def test_a_long_chain_of_before_is_checked_and_linted(tmp_path: Any) -> None:
    # Each names the one written before it: the order runs against the spec's.
    links = 1100
    chain = [{"name": "t0", "id": "e0"}] + [
        {"name": f"t{number}", "id": f"e{number}", "before": [f"e{number - 1}"]}
        for number in range(1, links)
    ]
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"test_cases": [{"name": "chain", "expected_tools": chain}]}))
    backwards = [call(f"t{number}") for number in reversed(range(links))]
    forwards = [call(f"t{number}") for number in range(links)]
    runs = jsonl({"case": "chain", "turns": [backwards]}, {"case": "chain", "turns": [forwards]})
    result = toolmatch("check", spec, "-", stdin=runs)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout.splitlines()[0] == "PASS chain"
    assert result.stdout.splitlines()[-1] == "1 passed, 1 failed"
    result = toolmatch("lint", spec)
    assert (result.returncode, result.stdout, result.stderr) == (0, "no findings\n", "")
    # Closed into a cycle: found, and told from the first expectation, without recursion.
    chain[0]["before"] = [f"e{links - 1}"]
    spec.write_text(json.dumps({"test_cases": [{"name": "chain", "expected_tools": chain}]}))
    result = toolmatch("lint", spec)
    names = " before ".join(f"e{number}" for number in [0, *reversed(range(1, links)), 0])
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"{spec}: test_cases[0](chain).expected_tools[0]: the order constraints form a cycle: "
        f"{names}\n"
    )


MIXED_LISTS = """\
from toolmatch import AnyOrder, ExpectedTool, ExpectedTurn, InOrder, assert_turn, check_turn, check_turns

expected = [ExpectedTool("login"), InOrder(ExpectedTool("a"), ExpectedTool("b"))]
check_turn(expected, [])
groups = [InOrder(ExpectedTool("a"), ExpectedTool("b")), AnyOrder(ExpectedTool("c"), ExpectedTool("d"))]
assert_turn(groups + [ExpectedTool("e")], [])
ExpectedTurn([AnyOrder(ExpectedTool("c"), ExpectedTool("d")), ExpectedTool("e")])
check_turns([[ExpectedTool("a")], [InOrder(ExpectedTool("a"), ExpectedTool("b"))]], [[], []])
check_turns([expected, groups], [[], []])
"""


def test_a_list_mixing_groups_and_expectations_type_checks(tmp_path: Any) -> None:
    # docs/selection.md writes such lists without an annotation: mypy --strict must accept them.
    api = pytest.importorskip("mypy.api")
    import toolmatch

    snippet = tmp_path / "snippet.py"
    snippet.write_text(MIXED_LISTS, encoding="utf-8")
    config = tmp_path / "mypy.ini"  # the toolmatch these tests import, wherever it is installed
    source = Path(toolmatch.__file__).resolve().parent.parent
    config.write_text(f"[mypy]\nmypy_path = {source}\n", encoding="utf-8")
    out, err, status = api.run(
        [
            "--strict",
            "--config-file",
            str(config),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--follow-imports",
            "silent",
            str(snippet),
        ]
    )
    assert (out, err, status) == ("Success: no issues found in 1 source file\n", "", 0)
