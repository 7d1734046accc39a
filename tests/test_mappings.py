"""Partial and Exact argument dicts (docs/semantics.md, docs/arguments.md), Maybe, Absent."""

from __future__ import annotations

import pytest

from toolmatch import ANY, Absent, Exact, Fuzzy, Maybe, Partial, Regex


class TestPartial:
    def test_asserted_keys_present_and_matching_extras_ignored(self) -> None:
        assert Partial({"a": 206588}) == {"a": 206588.0, "b": "x"}
        assert Partial({"a": 206588}) != {"b": "x"}
        assert Partial({}) == {"anything": 1}

    def test_plain_values_use_literal_rules(self) -> None:
        assert Partial({"a": True}) != {"a": 1}
        assert Partial({"a": [1, 2]}) == {"a": (1.0, 2.0)}

    def test_only_the_top_level_is_partial(self) -> None:
        assert Partial({"a": {"b": 1}}) != {"a": {"b": 1, "c": 2}}
        assert Partial({"a": Partial({"b": 1})}) == {"a": {"b": 1, "c": 2}}

    def test_string_options(self) -> None:
        loose = Partial({"city": "paris"}, trim_strings=True, case_insensitive=True)
        assert loose == {"city": " Paris ", "other": 1}
        assert Partial({"City": "paris"}, case_insensitive=True) != {"city": "paris"}

    def test_not_a_mapping_never_matches(self) -> None:
        for value in (None, [("a", 1)], "a"):
            assert Partial({"a": 1}) != value

    def test_messages(self) -> None:
        assert Partial({"a": 206588}).explain({}) == "a: missing"
        assert Partial({"q": Fuzzy("paris"), "n": 5}).explain({"q": "rome", "n": 6}) == (
            "q: fuzzy 'paris' does not match 'rome'; n: expected 5, got 6"
        )
        assert Partial({"a": 1}).explain(None) == "expected a dict, got None (NoneType)"

    def test_needs_a_mapping(self) -> None:
        with pytest.raises(
            TypeError, match="Partial needs a dict of expected arguments, got \\[1\\] \\(list\\)"
        ):
            Partial([1])  # type: ignore[arg-type]

    def test_repr(self) -> None:
        assert (
            repr(Partial({"a": Regex("x")}, trim_strings=True))
            == "Partial({'a': Regex('x')}, trim_strings=True)"
        )


class TestExact:
    def test_key_sets_must_be_equal(self) -> None:
        assert Exact({"q": "paris"}) == {"q": "paris"}
        assert Exact({"q": "paris"}) != {"q": "paris", "limit": 5}
        assert Exact({"q": "paris", "limit": 5}) != {"q": "paris"}

    def test_message_names_unexpected_keys(self) -> None:
        assert (
            Exact({"q": "paris"}).explain({"q": "paris", "limit": 5})
            == "limit: unexpected key, with value 5"
        )


class TestMaybeAndAbsent:
    def test_maybe_allows_absence_and_checks_presence(self) -> None:
        expected = Exact({"q": "paris", "limit": Maybe(10)})
        assert expected == {"q": "paris"}
        assert expected == {"q": "paris", "limit": 10.0}
        assert expected != {"q": "paris", "limit": 20}
        assert expected.explain({"q": "paris", "limit": 20}) == "limit: expected 10, got 20"

    def test_maybe_of_a_matcher(self) -> None:
        assert Partial({"units": Maybe(Regex("metric|imperial"))}) != {"units": "kelvin"}

    def test_maybe_any_accepts_anything_or_nothing(self) -> None:
        assert Exact({"q": ANY, "debug": Maybe(ANY)}) == {"q": 1}
        assert Exact({"q": ANY, "debug": Maybe(ANY)}) == {"q": 1, "debug": None}

    def test_absent_requires_the_key_to_be_absent(self) -> None:
        expected = Partial({"q": "paris", "debug": Absent})
        assert expected == {"q": "paris", "x": 1}
        assert expected != {"q": "paris", "debug": None}
        assert expected.explain({"q": "paris", "debug": True}) == "debug: expected absent, got True"

    def test_absent_in_exact_does_not_count_as_an_expected_key(self) -> None:
        assert Exact({"q": "paris", "debug": Absent}) == {"q": "paris"}

    def test_literal_dicts_honour_them_too(self) -> None:
        from toolmatch import Literal

        assert Literal({"a": 1, "b": Maybe(2), "c": Absent}) == {"a": 1}
        assert Literal({"a": 1, "b": Maybe(2), "c": Absent}) != {"a": 1, "c": 3}

    def test_alone_they_are_plain_value_matchers(self) -> None:
        assert Maybe(1) == 1.0
        assert Absent != None  # noqa: E711 (a present value, even None, is not absent)

    def test_maybe_cannot_wrap_key_markers(self) -> None:
        with pytest.raises(TypeError, match="makes no sense"):
            Maybe(Absent)

    def test_reprs(self) -> None:
        assert (
            repr(Partial({"a": Maybe(1), "b": Absent})) == "Partial({'a': Maybe(1), 'b': Absent})"
        )
