"""ANY, OneOf, Approx, Contains and IsType (docs/matchers.md, docs/semantics.md)."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from toolmatch import ANY, Approx, Contains, Fuzzy, IsType, OneOf, Regex


class TestAny:
    def test_matches_everything_none_included(self) -> None:
        for value in (None, 0, "", [], {}, object(), float("nan")):
            assert value == ANY
            assert value == ANY

    def test_a_missing_key_is_still_missing(self) -> None:
        assert {"a": ANY} != {}
        assert {"a": ANY} == {"a": None}

    def test_never_explains(self) -> None:
        assert ANY.explain(None) is None


class TestOneOf:
    def test_candidates_use_literal_rules(self) -> None:
        assert OneOf(1, 2) == 2.0
        assert OneOf(1, 2) != True  # noqa: E712
        assert OneOf("a", None) == None  # noqa: E711

    def test_candidates_may_be_matchers(self) -> None:
        assert OneOf(Regex("[0-9]+"), Fuzzy("none")) == "None"
        assert OneOf(Regex("[0-9]+"), "x") != "y"

    def test_needs_a_candidate(self) -> None:
        with pytest.raises(ValueError, match="at least one candidate"):
            OneOf()

    def test_message(self) -> None:
        assert OneOf("celsius", "fahrenheit").explain("kelvin") == (
            "expected one of 'celsius', 'fahrenheit', got 'kelvin'"
        )


class TestApprox:
    def test_relative_tolerance_against_the_expected_value(self) -> None:
        assert Approx(100, rel=0.1) == 110
        assert Approx(100, rel=0.1) == 90
        assert Approx(100, rel=0.1) != 110.5  # |d| <= rel * |expected|, not pytest's symmetric form

    def test_the_larger_tolerance_wins(self) -> None:
        assert Approx(0.0, abs=0.01) == 0.005
        assert Approx(1.0, rel=0.5, abs=0.1) == 1.4

    def test_defaults(self) -> None:
        assert Approx(3.0) == 3.000002
        assert Approx(3.0) != 3.00001
        assert Approx(0) == 0
        assert Approx(0) != 1e-300  # abs defaults to 0: zero needs exact equality

    def test_numbers_of_any_kind_but_never_bools_or_strings(self) -> None:
        assert Approx(1) == Decimal("1.0000001")
        assert Approx(1) != True  # noqa: E712
        assert Approx(1) != "1"
        assert Approx(1) != None  # noqa: E711

    def test_infinities_and_nan(self) -> None:
        assert Approx(math.inf) == math.inf
        assert Approx(math.inf) != -math.inf
        assert Approx(1.0, abs=math.inf) != math.nan
        with pytest.raises(ValueError, match="can never match"):
            Approx(math.nan)

    def test_bad_tolerances_fail_at_construction(self) -> None:
        with pytest.raises(ValueError, match=r"Approx rel must be zero or positive, got -0\.1"):
            Approx(1, rel=-0.1)
        with pytest.raises(ValueError, match="Approx abs must be zero or positive"):
            Approx(1, abs=math.nan)
        with pytest.raises(TypeError, match="Approx needs a number, got '1' \\(str\\)"):
            Approx("1")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="Approx needs a number"):
            Approx(True)

    def test_messages(self) -> None:
        assert Approx(3.0, rel=0.01).explain(3.1) == "expected 3.0 ± 0.03, got 3.1"
        assert (
            Approx(3.0, rel=0.01).explain("3") == "expected a number near 3.0 ± 0.03, got '3' (str)"
        )


class TestContains:
    def test_substring_element_key(self) -> None:
        assert Contains("par") == "paris"
        assert Contains(2) == [1, 2]
        assert Contains(2) == (2.0,)
        assert Contains("a") == {"a", "b"}
        assert Contains("q") == {"q": 1}
        assert Contains(1) != {"q": 1}  # keys, not values

    def test_literal_rules_for_elements(self) -> None:
        assert Contains(1) != [True]
        assert Contains(True) != [1]

    def test_anything_else_never_matches(self) -> None:
        for value in (5, None, 2.0, object()):
            assert Contains(2) != value
        assert Contains(1) != "1"  # a str holds only strs

    def test_a_matcher_item_matches_any_element_or_key(self) -> None:
        assert Contains(Regex("id-[0-9]+")) == ["x", "id-7"]
        assert Contains(Regex("id-.*")) == {"id-1": None}
        assert Contains(Regex("id-.*")) != "my id-7"  # strings hold strs, not matches

    def test_messages(self) -> None:
        assert (
            Contains("rome").explain(["paris"])
            == "expected a value containing 'rome', got ['paris']"
        )
        assert Contains("x").explain(5) == (
            "expected a str, list, tuple, set or dict containing 'x', got 5 (int)"
        )


class TestIsType:
    def test_isinstance(self) -> None:
        assert IsType(int) == 3
        assert IsType(int, float) == 3.5
        assert IsType(str) != 3

    def test_bools_only_when_bool_is_listed(self) -> None:
        assert IsType(int) != True  # noqa: E712
        assert IsType(int, bool) == True  # noqa: E712
        assert IsType(bool) == False  # noqa: E712
        assert IsType(object) == True  # noqa: E712 (object means anything)

    def test_construction_errors(self) -> None:
        with pytest.raises(ValueError, match="at least one type"):
            IsType()
        with pytest.raises(TypeError, match="IsType takes types, got 'int' \\(str\\)"):
            IsType("int")  # type: ignore[arg-type]

    def test_message(self) -> None:
        assert IsType(int).explain(True) == "expected an instance of int, got True (bool)"
