"""Literal equality applied recursively, with its opt-in tolerances (docs/semantics.md)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from toolmatch import ANY, Fuzzy, Literal, Regex

np = pytest.importorskip("numpy")


class TestNumbersCompareByValue:
    @pytest.mark.parametrize(
        ("expected", "actual"),
        [
            (1, 1.0),
            (1.0, 1),
            (206588, 206588.0),
            (1, np.int64(1)),
            (2.5, np.float64(2.5)),
            (0.5, np.float32(0.5)),
            (Decimal("0.1"), 0.1),
            (0.1, Decimal("0.1")),
            (Decimal("2.50"), Fraction(5, 2)),
            (10**30, 10**30),
            (float("inf"), float("inf")),
        ],
        ids=repr,
    )
    def test_equal_values(self, expected: object, actual: object) -> None:
        assert Literal(expected) == actual

    @pytest.mark.parametrize(
        ("expected", "actual"),
        [
            (206588, 206000),
            (10**30, 10**30 + 1),  # ints compare exactly, never through a float
            (1, "1"),
            (1, None),
            (float("nan"), float("nan")),  # IEEE: NaN equals nothing
        ],
        ids=repr,
    )
    def test_different_values(self, expected: object, actual: object) -> None:
        assert Literal(expected) != actual

    def test_the_message_says_what_differs(self) -> None:
        assert Literal(206588).explain(206000) == "expected 206588, got 206000"
        assert Literal(1).explain("1") == "expected 1, got '1'"


class TestBoolsAreStrict:
    @pytest.mark.parametrize(
        ("expected", "actual"),
        [
            (True, 1),
            (1, True),
            (False, 0),
            (0, False),
            (0.0, False),
            ([True], [1]),
            ({"a": 1}, {"a": True}),
        ],
        ids=repr,
    )
    def test_at_every_depth(self, expected: object, actual: object) -> None:
        assert Literal(expected) != actual
        assert actual != Literal(expected)

    def test_bools_equal_bools_including_numpy(self) -> None:
        assert Literal(True) == True  # noqa: E712 (the comparison is what is tested)
        assert Literal(False) == np.bool_(False)
        assert Literal(True) != False  # noqa: E712

    def test_messages(self) -> None:
        assert Literal(True).explain(1) == "expected True, got 1"
        assert (
            Literal(1).explain(True) == "expected 1, got True (bool, which never equals a number)"
        )


class TestNone:
    def test_none_equals_only_none(self) -> None:
        assert Literal(None) == None  # noqa: E711
        for other in (0, "", [], False, "None"):
            assert Literal(None) != other


class TestStrings:
    def test_exact_by_default(self) -> None:
        assert Literal("Paris") == "Paris"
        assert Literal("Paris") != "paris"
        assert Literal("Paris") != " Paris"

    def test_trim_strings(self) -> None:
        assert Literal("Paris", trim_strings=True) == "  Paris\n"
        assert Literal("  Paris ", trim_strings=True) == "Paris"
        assert Literal("Paris", trim_strings=True) != "paris"

    def test_case_insensitive(self) -> None:
        assert Literal("Straße", case_insensitive=True) == "STRASSE"  # full case folding
        assert Literal("Paris", case_insensitive=True) != " paris"

    def test_options_apply_at_every_depth_to_values_only(self) -> None:
        loose = Literal(
            {"city": ["Paris "], "Mode": {"x": "FAST"}}, trim_strings=True, case_insensitive=True
        )
        assert loose == {"city": ["paris"], "Mode": {"x": " fast "}}
        assert loose != {"city": ["paris"], "mode": {"x": "fast"}}  # keys stay exact

    def test_options_do_not_reach_into_other_matchers(self) -> None:
        assert Literal({"a": Regex("x")}, case_insensitive=True) != {"a": "X"}

    def test_str_subclasses_compare_by_their_characters(self) -> None:
        class Shouting(str):
            def __eq__(self, other: object) -> bool:
                return True

            __hash__ = str.__hash__

        assert Literal("a") != Shouting("b")
        assert Literal("b") == Shouting("b")

    def test_messages(self) -> None:
        assert Literal("Paris").explain("Rome") == "expected 'Paris', got 'Rome'"
        assert Literal("a", trim_strings=True, case_insensitive=True).explain("b") == (
            "expected 'a' (trimmed, ignoring case), got 'b'"
        )
        assert Literal("1").explain(1) == "expected '1', got 1"


class TestContainers:
    def test_lists_and_tuples_are_interchangeable(self) -> None:
        assert Literal([1, 2]) == (1.0, 2.0)
        assert Literal((1, 2)) == [1, 2]
        assert Literal([1, 2]) != [2, 1]
        assert Literal([1, 2]) != [1, 2, 3]
        assert Literal(["ab"]) != "ab"

    def test_dicts_need_the_same_keys(self) -> None:
        assert Literal({"mode": "fast"}) == {"mode": "fast"}
        assert Literal({"mode": "fast"}) != {"mode": "fast", "extra": 1}
        assert Literal({"mode": "fast", "extra": 1}) != {"mode": "fast"}

    def test_sets(self) -> None:
        assert Literal({1, 2}) == {2.0, 1.0}
        assert Literal({1, 2}) != {1, 3}
        assert Literal(frozenset({True})) != {1}

    def test_nested_matchers_are_honoured_anywhere(self) -> None:
        expected = Literal({"items": [{"id": Regex("[0-9]+"), "tags": ANY}], "n": Fuzzy("1,000")})
        assert expected == {"items": [{"id": "42", "tags": None}], "n": 1000}
        assert expected != {"items": [{"id": "x", "tags": None}], "n": 1000}

    def test_other_values_use_their_own_equality_from_the_expected_side(self) -> None:
        assert Literal(b"raw") == b"raw"
        assert Literal(b"raw") != "raw"

    def test_messages_name_every_failing_path(self) -> None:
        assert Literal({"a": [1, {"b": 2}], "c": 3}).explain({"a": [1, {"b": 3}], "d": 3}) == (
            "a[1].b: expected 2, got 3; c: missing; d: unexpected key, with value 3"
        )
        assert Literal([1, 2]).explain([1]) == "expected 2 items, got 1: [1]"
        assert Literal({"a": 1}).explain([1]) == "expected a dict, got [1] (list)"
        assert Literal([1]).explain("1") == "expected a list, got '1' (str)"


class TestConstruction:
    def test_a_value_that_contains_itself_is_refused(self) -> None:
        loop: list[object] = [1]
        loop.append(loop)
        with pytest.raises(ValueError, match="contains itself"):
            Literal(loop)

    def test_a_shared_but_acyclic_value_is_fine(self) -> None:
        shared = [1]
        assert Literal([shared, shared]) == [[1], [1.0]]

    def test_matchers_inside_sets_are_refused(self) -> None:
        with pytest.raises(TypeError, match="cannot be paired"):
            Literal({Regex("a")})

    def test_options_must_be_bools(self) -> None:
        with pytest.raises(TypeError, match="trim_strings must be True or False"):
            Literal("a", trim_strings="yes")  # type: ignore[arg-type]


def test_exact_comparisons_stay_exact() -> None:
    # Decimals are compared on their own exponents, not through Fraction (issue 17).
    assert Literal(Decimal("2.50")) == Fraction(5, 2)
    assert Literal(Fraction(5, 2)) == Decimal("2.5")
    assert Literal(Decimal("1e400")) == 10**400
    assert Literal(Decimal("1e400")) != 10**400 + 1
    assert Literal(Fraction(1, 3)) != Decimal("0.3333333333333333333333333333")
    assert Literal(Decimal("-0")) == 0
    assert Literal(0) == Decimal("0E-99999999")
