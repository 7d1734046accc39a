"""Property tests of the Matcher base-class rules, over every matcher kind and random values.

Issue 2, deliverable 2: real-bool results, symmetry, ``!=`` as negation, no exceptions,
explanations that agree with ``==``, pickling, identity hashing, immutability,
statelessness, composition laws and the Literal laws.
"""

from __future__ import annotations

import json
import pickle
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from strategies import (
    json_values,
    json_values_without_nan,
    leaf_matchers,
    matchers,
    texts,
    values,
    values_without_nan,
)
from toolmatch import ANY, AllOf, AnyOf, Literal, Matcher, Mismatch, Not, explain

np = pytest.importorskip("numpy")

FAST = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI stays reproducible
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

value_lists = st.lists(values, min_size=1, max_size=6)


def outcome(matcher: Matcher, actual: object) -> bool:
    result = matcher == actual
    assert type(result) is bool, f"{matcher!r} == {actual!r} gave {result!r}"
    return result


# --- comparison: real bools, symmetric, != is negation, never raises ---------------------


@FAST
@given(matchers, values)
def test_eq_is_a_real_bool_from_either_side_and_agrees(matcher: Matcher, actual: Any) -> None:
    forward = matcher == actual
    backward = actual == matcher
    assert type(forward) is bool
    assert type(backward) is bool
    assert forward is backward, f"{matcher!r} vs {actual!r}: {forward} one way, {backward} back"


@FAST
@given(matchers, values)
def test_ne_is_exactly_the_negation_of_eq(matcher: Matcher, actual: Any) -> None:
    equal = matcher == actual
    assert (matcher != actual) is (not equal)
    assert (actual != matcher) is (not equal)


@FAST
@given(matchers, values)
def test_matches_inside_containers_as_python_compares_them(matcher: Matcher, actual: Any) -> None:
    equal = matcher == actual
    assert ([actual] == [matcher]) is equal
    assert ({"k": matcher} == {"k": actual}) is equal
    assert ((matcher, 1) == (actual, 1)) is equal


# --- explanations agree with == ------------------------------------------------------------


@FAST
@given(matchers, values)
def test_explain_is_none_exactly_when_equal(matcher: Matcher, actual: Any) -> None:
    reason = matcher.explain(actual)
    if matcher == actual:
        assert reason is None
    else:
        assert isinstance(reason, str)
        assert reason.strip(), f"empty explanation for {matcher!r} vs {actual!r}"
        assert "\n" not in reason


@FAST
@given(matchers, values)
def test_explain_function_is_empty_exactly_when_equal(matcher: Matcher, actual: Any) -> None:
    equal = matcher == actual
    for found in (explain(matcher, actual), explain(actual, matcher)):
        assert isinstance(found, list)
        assert (found == []) is equal
        for mismatch in found:
            assert isinstance(mismatch, Mismatch)
            assert isinstance(mismatch.path, str)
            assert mismatch.reason


@FAST
@given(matchers, values)
def test_explain_function_over_plain_containers_agrees_with_eq(
    matcher: Matcher, actual: Any
) -> None:
    expected_dict, actual_dict = {"k": matcher, "n": 1}, {"k": actual, "n": 1}
    assert (explain(expected_dict, actual_dict) == []) is (expected_dict == actual_dict)
    assert (explain(actual_dict, expected_dict) == []) is (expected_dict == actual_dict)
    assert (explain([matcher], [actual]) == []) is ([matcher] == [actual])


@FAST
@given(matchers, values)
def test_mismatches_are_empty_exactly_when_equal(matcher: Matcher, actual: Any) -> None:
    found = list(matcher.mismatches(actual))
    assert (found == []) is (matcher == actual)
    assert all(isinstance(item, Mismatch) and item.reason for item in found)
    assert all(item.path.startswith("here") for item in matcher.mismatches(actual, "here"))


@FAST
@given(matchers, values)
def test_every_matcher_including_any_and_absent(matcher: Matcher, actual: Any) -> None:
    equal = matcher == actual
    assert (matcher != actual) is (not equal)
    assert (actual != matcher) is (not equal)
    assert (matcher.explain(actual) is None) is equal
    assert (list(matcher.mismatches(actual)) == []) is equal


# --- pickling, repr, hashing, truthiness, immutability -------------------------------------


@FAST
@given(matchers, value_lists)
def test_pickle_round_trip_keeps_repr_and_behaviour(matcher: Matcher, actuals: list[Any]) -> None:
    for protocol in (2, pickle.HIGHEST_PROTOCOL):
        clone = pickle.loads(pickle.dumps(matcher, protocol=protocol))
        assert type(clone) is type(matcher)
        assert repr(clone) == repr(matcher)
        for actual in actuals:
            assert (clone == actual) is (matcher == actual), f"{matcher!r} vs {actual!r}"


@FAST
@given(matchers, value_lists)
def test_repr_is_a_stable_string(matcher: Matcher, actuals: list[Any]) -> None:
    before = repr(matcher)
    assert isinstance(before, str)
    assert before
    for actual in actuals:
        _ = matcher == actual
        _ = matcher.explain(actual)
    assert repr(matcher) == before
    assert str(matcher) == before


@FAST
@given(st.lists(matchers, min_size=1, max_size=5))
def test_hash_is_identity_so_matchers_live_in_sets_and_dicts(group: list[Matcher]) -> None:
    distinct = list({id(matcher): matcher for matcher in group}.values())
    as_keys = {matcher: index for index, matcher in enumerate(distinct)}
    assert len(as_keys) == len(distinct)
    for index, matcher in enumerate(distinct):
        assert isinstance(hash(matcher), int)
        assert hash(matcher) == hash(matcher)
        assert as_keys[matcher] == index
        assert matcher in set(distinct)
    assert len(set(distinct)) == len(distinct)


def test_equal_looking_matchers_are_different_set_members() -> None:
    assert Literal(1) not in {Literal(1)}
    assert len({Literal("x"), Literal("x")}) == 2


@FAST
@given(matchers)
def test_bool_raises_type_error_with_a_hint(matcher: Matcher) -> None:
    with pytest.raises(TypeError, match=r"truth value"):
        bool(matcher)
    with pytest.raises(TypeError):
        _ = matcher and True


@FAST
@given(matchers, st.sampled_from(["value", "pattern", "matchers", "new_attribute", "_check"]))
def test_setting_or_deleting_an_attribute_raises(matcher: Matcher, name: str) -> None:
    before = repr(matcher)
    with pytest.raises(AttributeError, match=r"immutable"):
        setattr(matcher, name, 1)
    with pytest.raises(AttributeError):
        delattr(matcher, name)
    assert repr(matcher) == before


# --- statelessness -------------------------------------------------------------------------


@FAST
@given(matchers, value_lists, st.randoms(use_true_random=False))
def test_answers_do_not_depend_on_order_or_repetition(
    matcher: Matcher, actuals: list[Any], random: Any
) -> None:
    first = [matcher == actual for actual in actuals]
    order = list(range(len(actuals)))
    random.shuffle(order)
    shuffled = {index: matcher == actuals[index] for index in order}
    assert [shuffled[index] for index in range(len(actuals))] == first
    assert [matcher == actual for actual in actuals] == first
    assert [matcher.explain(actual) is None for actual in actuals] == first


@settings(max_examples=10, deadline=None)
@given(matchers, st.lists(values, min_size=4, max_size=12))
def test_one_matcher_gives_the_same_answers_from_several_threads(
    matcher: Matcher, actuals: list[Any]
) -> None:
    expected = [matcher == actual for actual in actuals]
    work = actuals * 8
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(matcher.__eq__, work))
        reasons = list(pool.map(matcher.explain, work))
    assert results == expected * 8
    assert [reason is None for reason in reasons] == expected * 8


# --- composition laws ----------------------------------------------------------------------


@FAST
@given(matchers, matchers, values)
def test_and_or_not_follow_boolean_logic(a: Matcher, b: Matcher, actual: Any) -> None:
    a_result, b_result = a == actual, b == actual
    assert ((a & b) == actual) is (a_result and b_result)
    assert (AllOf(a, b) == actual) is (a_result and b_result)
    assert ((a | b) == actual) is (a_result or b_result)
    assert (AnyOf(a, b) == actual) is (a_result or b_result)
    assert ((~a) == actual) is (not a_result)
    assert (Not(a) == actual) is (not a_result)
    assert (~~a == actual) is a_result


@FAST
@given(matchers, values_without_nan, values)
def test_plain_values_compose_with_literal_rules(matcher: Matcher, plain: Any, actual: Any) -> None:
    literal_result = Literal(plain) == actual
    assert ((matcher | plain) == actual) is ((matcher == actual) or literal_result)
    assert ((plain | matcher) == actual) is (literal_result or (matcher == actual))
    assert ((matcher & plain) == actual) is ((matcher == actual) and literal_result)


def _flat_count(matcher: Matcher, kind: type) -> int:
    return len(matcher.matchers) if type(matcher) is kind else 1  # type: ignore[attr-defined]


@FAST
@given(matchers, matchers, matchers)
def test_chains_flatten(a: Matcher, b: Matcher, c: Matcher) -> None:
    chained_and = AllOf(a, b) & c
    assert len(chained_and.matchers) == sum(_flat_count(m, AllOf) for m in (a, b, c))  # type: ignore[attr-defined]
    chained_or = AnyOf(a, b) | c
    assert len(chained_or.matchers) == sum(_flat_count(m, AnyOf) for m in (a, b, c))  # type: ignore[attr-defined]
    assert len((a & b & c).matchers) == sum(_flat_count(m, AllOf) for m in (a, b, c))  # type: ignore[attr-defined]


def test_a_chain_of_three_leaves_holds_three_matchers() -> None:
    a, b, c = Literal(1), Literal(2), Literal(3)
    assert len((AllOf(a, b) & c).matchers) == 3  # type: ignore[attr-defined]
    assert len((a | b | c).matchers) == 3  # type: ignore[attr-defined]
    assert len((a & (b | c)).matchers) == 2  # type: ignore[attr-defined]


@FAST
@given(leaf_matchers, leaf_matchers, leaf_matchers)
def test_grouping_shows_in_the_repr(a: Matcher, b: Matcher, c: Matcher) -> None:
    assert repr(a & (b | c)) != repr((a & b) | c)
    assert repr(a | (b & c)) != repr((a | b) & c)
    assert repr(~(a & b)) != repr(~a & b)


# --- Literal laws --------------------------------------------------------------------------


@FAST
@given(values_without_nan)
def test_literal_equals_its_own_value(value: Any) -> None:
    assert Literal(value) == value
    assert value == Literal(value)
    assert Literal(value).explain(value) is None


@FAST
@given(json_values_without_nan)
def test_literal_equals_its_json_round_trip(value: Any) -> None:
    round_tripped = json.loads(json.dumps(value))
    assert Literal(value) == round_tripped
    assert Literal(round_tripped) == value


def _widen(value: Any) -> Any:
    """The same value as another type would carry it: ints as floats, lists as tuples."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int) and abs(value) < 2**53:
        return float(value)
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, list):
        return tuple(_widen(item) for item in value)
    if isinstance(value, tuple):
        return [_widen(item) for item in value]
    if isinstance(value, dict):
        return {key: _widen(item) for key, item in value.items()}
    return value


@FAST
@given(json_values_without_nan)
def test_literal_ignores_number_and_sequence_types(value: Any) -> None:
    assert Literal(value) == _widen(value)
    assert Literal(_widen(value)) == value


_WRAPPERS = st.lists(st.sampled_from(["list", "tuple", "dict", "pair", "partial"]), max_size=5)


def _wrap(value: Any, steps: list[str]) -> Any:
    for step in steps:
        if step == "list":
            value = [value]
        elif step == "tuple":
            value = (value,)
        elif step == "dict":
            value = {"k": value}
        elif step == "pair":
            value = ["x", value]
        else:
            value = {"a": 1, "b": value}
    return value


@FAST
@given(
    _WRAPPERS,
    st.sampled_from(
        [
            (True, 1),
            (True, 1.0),
            (False, 0),
            (False, 0.0),
            (True, np.int64(1)),
            (True, np.float64(1.0)),
            (True, Decimal(1)),
            (1, True),
            (0, False),
            (1.0, True),
            (np.int64(1), True),
            (1, np.bool_(True)),
            (Decimal(0), False),
            (None, False),
            (None, 0),
            (False, None),
            (0, None),
            ("", None),
            ("True", True),
        ]
    ),
)
def test_bools_and_none_are_strict_at_every_depth(steps: list[str], pair: tuple[Any, Any]) -> None:
    expected, actual = pair
    matcher = Literal(_wrap(expected, steps))
    assert matcher != _wrap(actual, steps)
    assert _wrap(actual, steps) != matcher
    assert matcher.explain(_wrap(actual, steps))


def _transform_strings(value: Any, change: Any) -> Any:
    """``value`` with every string *value* changed, keys untouched."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_transform_strings(item, change) for item in value]
    if isinstance(value, dict):
        return {key: _transform_strings(item, change) for key, item in value.items()}
    return value


OPTION_SETS = [
    {"trim_strings": True},
    {"case_insensitive": True},
    {"trim_strings": True, "case_insensitive": True},
]


@FAST
@given(json_values, values, st.sampled_from(OPTION_SETS))
def test_string_options_only_relax(value: Any, actual: Any, options: dict[str, bool]) -> None:
    if Literal(value) == actual:
        assert Literal(value, **options) == actual


@FAST
@given(json_values_without_nan, st.sampled_from([" ", "\t", "\n ", "\u00a0"]))
def test_trim_strings_ignores_surrounding_whitespace_of_values(value: Any, pad: str) -> None:
    padded = _transform_strings(value, lambda text: f"{pad}{text}{pad}")
    assert Literal(value, trim_strings=True) == padded
    assert Literal(padded, trim_strings=True) == value


@FAST
@given(json_values_without_nan)
def test_case_insensitive_ignores_case_of_values(value: Any) -> None:
    changed = _transform_strings(value, str.swapcase)
    assume(_transform_strings(changed, str.casefold) == _transform_strings(value, str.casefold))
    assert Literal(value, case_insensitive=True) == changed


@FAST
@given(json_values_without_nan.filter(lambda value: not isinstance(value, str)), texts)
def test_string_options_change_nothing_without_strings(value: Any, text: str) -> None:
    assume(text.strip() != text or text.casefold() != text)
    for options in OPTION_SETS:
        assert (Literal(value, **options) == value) is (Literal(value) == value)
    # keys are never trimmed nor folded
    changed_key = {f" {text.upper()} ": value}
    for options in OPTION_SETS:
        assert Literal({text: value}, **options) != changed_key


@FAST
@given(st.lists(texts, min_size=1, max_size=3), st.sampled_from(OPTION_SETS))
def test_string_options_reach_every_depth(words: list[str], options: dict[str, bool]) -> None:
    nested = {"a": [{"b": list(words)}], "c": tuple(words)}
    change = (
        (lambda text: f"  {text}\t")
        if options.get("trim_strings") and not options.get("case_insensitive")
        else (lambda text: text)
    )
    assert Literal(nested, **options) == _transform_strings(
        {"a": [{"b": list(words)}], "c": list(words)}, change
    )


def test_any_is_absorbing_and_neutral() -> None:
    assert (ANY | Literal(1)) == "anything"
    assert (ANY & Literal(1)) != "anything"
    assert (ANY & Literal(1)) == 1.0
