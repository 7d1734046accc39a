"""matcher_from_config: every matcher key, and every load-time error with its message."""

from __future__ import annotations

import pytest

from toolmatch import ANY, Absent, Approx, ConfigError, Exact, IsType, Literal, matcher_from_config


def problems(value: object, path: str = "args") -> list[str]:
    with pytest.raises(ConfigError) as caught:
        matcher_from_config(value, path)
    return [str(problem) for problem in caught.value.problems]


class TestMatcherKeys:
    def test_plain_values_are_literals(self) -> None:
        matcher = matcher_from_config(206588)
        assert isinstance(matcher, Literal)
        assert matcher == 206588.0
        assert matcher_from_config(True) != 1

    def test_sc006_matcher_dicts(self) -> None:
        assert matcher_from_config({"fuzzy": "206588"}) == "206 588"
        assert matcher_from_config({"regex": "^2009.*$"}) == "2009 cash flow"
        assert matcher_from_config({"regex": "^2009.*$"}) != "report 2009 cash flow"

    def test_every_kind(self) -> None:
        assert matcher_from_config({"$any": True}) is ANY
        assert matcher_from_config({"$one_of": ["c", "f"]}) == "f"
        assert matcher_from_config({"$approx": 3.0, "rel": 0.01}) == 3.02
        assert repr(matcher_from_config({"$approx": 3, "abs": 0.5})) == repr(Approx(3, abs=0.5))
        assert matcher_from_config({"$contains": "par"}) == "paris"
        assert repr(matcher_from_config({"$type": "number"})) == repr(IsType(int, float))
        assert matcher_from_config({"$type": "null"}) == None  # noqa: E711
        assert matcher_from_config({"$partial": {"q": "x"}}) == {"q": "x", "n": 1}
        assert matcher_from_config({"$exact": {"q": "x"}}) != {"q": "x", "n": 1}
        assert matcher_from_config({"$not": {"regex": "drop.*"}}) == "select"
        assert matcher_from_config({"regex": "paris", "ignore_case": True}) == "PARIS"

    def test_maybe_and_absent_inside_mappings(self) -> None:
        spec = {"$exact": {"q": "x", "limit": {"$maybe": 10}, "debug": {"$absent": True}}}
        matcher = matcher_from_config(spec)
        assert matcher == {"q": "x"}
        assert matcher == {"q": "x", "limit": 10}
        assert matcher != {"q": "x", "debug": False}
        assert isinstance(matcher, Exact)
        assert matcher_from_config({"$absent": True}) is Absent

    def test_string_options(self) -> None:
        assert matcher_from_config({"$literal": "Paris", "case_insensitive": True}) == "PARIS"
        assert matcher_from_config({"$partial": {"q": "x"}, "trim_strings": True}) == {"q": " x "}

    def test_matcher_dicts_are_found_at_any_depth(self) -> None:
        spec = {
            "filters": [{"field": "date", "value": {"regex": "2026-.*"}}],
            "n": {"$one_of": [1, 2]},
        }
        assert matcher_from_config(spec) == {
            "filters": [{"field": "date", "value": "2026-01-02"}],
            "n": 2,
        }

    def test_literal_is_the_escape_hatch_for_keys_named_like_matchers(self) -> None:
        spec = {"$literal": {"$type": "image", "url": "x"}}
        assert matcher_from_config(spec) == {"$type": "image", "url": "x"}
        assert matcher_from_config({"$literal": {"regex": "a.*"}}) != {"regex": "abc"}


class TestErrors:
    def test_invalid_regex_names_its_path(self) -> None:
        assert problems({"amount": {"regex": "(unclosed"}}) == [
            "args.amount.regex: invalid regular expression '(unclosed': "
            "missing ), unterminated subpattern at position 0"
        ]

    def test_fuzzy_pattern_must_be_a_string(self) -> None:
        assert problems({"a": {"fuzzy": 206588}}) == [
            'args.a.fuzzy: must be a string, got 206588 (int); quote it: "206588"'
        ]

    def test_mixed_and_double_matcher_keys(self) -> None:
        (mixed,) = problems({"a": {"$regex": "x", "b": 1}})
        assert mixed.startswith("args.a: mixes the matcher key '$regex' with other keys 'b'")
        assert "{$literal: {...}}" in mixed
        (double,) = problems({"a": {"$regex": "x", "$fuzzy": "y"}})
        assert double.startswith("args.a: names two matchers, '$regex' and '$fuzzy'")

    def test_a_seed_form_with_another_key_is_data(self) -> None:
        assert matcher_from_config({"a": {"regex": "x", "b": 1}}) == {"a": {"regex": "x", "b": 1}}
        assert matcher_from_config({"fuzzy": "x", "b": 1}) != {"fuzzy": "X", "b": 1}

    def test_unknown_type_lists_the_accepted_ones(self) -> None:
        (found,) = problems({"kind": {"$type": "image"}})
        assert found.startswith(
            "args.kind.$type: unknown type 'image'; accepted: int, float, number, str, bool, list, dict, null, or a list of them"
        )

    def test_bad_values_of_each_kind(self) -> None:
        assert problems({"$any": False}) == ["args.$any: must be true, got False"]
        assert problems({"$one_of": []}) == ["args.$one_of: must be a non-empty list, got []"]
        assert problems({"$approx": "3"}) == ["args.$approx: Approx needs a number, got '3' (str)"]
        assert problems({"$approx": 3, "rel": -1}) == [
            "args.$approx: Approx rel must be zero or positive, got -1"
        ]
        assert problems({"$partial": [1]}) == ["args.$partial: must be a mapping, got [1] (list)"]
        assert problems({"$literal": "x", "trim_strings": "yes"}) == [
            "args.trim_strings: must be true or false, got 'yes'"
        ]

    def test_every_problem_is_reported_together(self) -> None:
        found = problems({"a": {"regex": "("}, "b": {"fuzzy": 1}, "c": [{"$type": "x"}]})
        assert [line.split(":")[0] for line in found] == [
            "args.a.regex",
            "args.b.fuzzy",
            "args.c[0].$type",
        ]

    def test_the_error_message_starts_with_the_path(self) -> None:
        with pytest.raises(ConfigError, match=r"^args\.a\.regex: invalid regular expression"):
            matcher_from_config({"a": {"regex": "("}})


class TestEdgeValues:
    def test_a_number_too_large_for_a_float_is_a_load_error(self) -> None:
        (found,) = problems({"$approx": 10**400})
        assert found.startswith("args.$approx: Approx value 1000")
        assert found.endswith("is not usable as a float: int too large to convert to float")

    def test_unquoted_yaml_null_names_the_null_type(self) -> None:
        assert matcher_from_config({"$type": None}) == None  # noqa: E711
        assert matcher_from_config({"$type": None}) != 0

    def test_a_bad_ignore_case_does_not_hide_a_bad_pattern(self) -> None:
        assert problems({"regex": "(", "ignore_case": "yes"}) == [
            "args.ignore_case: must be true or false, got 'yes'",
            "args.regex: invalid regular expression '(': missing ), unterminated subpattern at position 0",
        ]

    @pytest.mark.parametrize(
        ("spec", "path"),
        [
            ([{"$absent": True}], "args[0]"),
            ({"$not": {"$absent": True}}, "args.$not"),
            ({"$contains": {"$maybe": 1}}, "args.$contains"),
            ({"$one_of": [1, {"$maybe": 2}]}, "args.$one_of[1]"),
        ],
    )
    def test_maybe_and_absent_only_stand_for_keys(self, spec: object, path: str) -> None:
        (found,) = problems(spec)
        assert found.startswith(f"{path}: ")
        assert "only means something as the value of a key in a mapping" in found

    def test_maybe_and_absent_as_values_of_keys_load(self) -> None:
        assert matcher_from_config({"q": {"$maybe": 1}, "debug": {"$absent": True}}) == {}
