"""Fuzzy and Regex (docs/matchers.md, docs/semantics.md)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolmatch import Fuzzy, Regex


class TestFuzzy:
    @pytest.mark.parametrize(
        "actual",
        [206588, 206588.0, "206588", "206,588", "206 588", " 206588 ", "206_588", "206\u202f588"],
    )
    def test_the_seed_consequences_for_a_number(self, actual: object) -> None:
        assert Fuzzy("206588") == actual

    def test_percent_reads_as_a_fraction(self) -> None:
        assert Fuzzy("14.14%") == 0.1414
        assert Fuzzy("14.14 %") == "0.1414"
        assert Fuzzy("0.1414") == "14.14%"

    def test_case_and_whitespace(self) -> None:
        assert Fuzzy("YES") == "yes"
        assert Fuzzy("YES") == " yes "
        assert Fuzzy("new york") == "New\t York"

    def test_no_distance_tolerance(self) -> None:
        assert Fuzzy("206588") != 206000
        assert Fuzzy("206588") != 206588.1
        assert Fuzzy("paris") != "pari"

    def test_numbers_within_1e_9(self) -> None:
        assert Fuzzy("0.3") == 0.1 + 0.2

    def test_digit_groups_separated_by_spaces_read_as_numbers(self) -> None:
        assert Fuzzy("1 000 000") == 1_000_000
        assert Fuzzy("-1 234.5") == -1234.5
        assert Fuzzy("12 34") != 1234  # not groups of three: two numbers, compared as text

    def test_only_decimal_notation_reads_as_a_number(self) -> None:
        assert Fuzzy("nan") == "NaN"  # the reference compares float('nan') and fails
        assert Fuzzy("inf") != "infinity"
        assert Fuzzy("1e3") == 1000

    def test_none_and_bools_compare_as_their_text(self) -> None:
        assert Fuzzy("none") == None  # noqa: E711 (docs/semantics.md)
        assert Fuzzy("TRUE") == True  # noqa: E712

    def test_the_pattern_must_be_a_string(self) -> None:
        with pytest.raises(
            TypeError,
            match=r"Fuzzy pattern must be a str, got 206588 \(int\); write Fuzzy\('206588'\)",
        ):
            Fuzzy(206588)  # type: ignore[arg-type]

    def test_message(self) -> None:
        assert Fuzzy("206588").explain(205000) == "fuzzy '206588' does not match 205000"


class TestRegex:
    def test_fullmatch_anchoring(self) -> None:
        assert Regex("2009.*") == "2009 cash flow"
        assert Regex("^2009.*$") != "report 2009 cash flow"
        assert Regex("cash") != "2009 cash flow"

    def test_matches_str_of_the_actual_value(self) -> None:
        assert Regex(r"^181001(\.0+)?$") == 181001.0
        assert Regex(r"^181001(\.0+)?$") != "181001.5"
        assert Regex("None") == None  # noqa: E711 (docs/semantics.md)
        assert Regex("True") == True  # noqa: E712
        assert Regex(r"\[1, 2\]") == [1, 2]

    def test_flags_and_compiled_patterns(self) -> None:
        assert Regex("paris", flags=re.IGNORECASE) == "PARIS"
        assert Regex(re.compile("paris", re.IGNORECASE)) == "Paris"
        assert repr(Regex(re.compile("a"))) == "Regex('a')"

    def test_an_invalid_pattern_fails_at_construction(self) -> None:
        with pytest.raises(
            ValueError,
            match=r"invalid regular expression '\(unclosed': missing \), unterminated subpattern",
        ):
            Regex("(unclosed")

    def test_flags_with_a_compiled_pattern_are_refused(self) -> None:
        with pytest.raises(ValueError, match=r"put the flags in re\.compile"):
            Regex(re.compile("a"), flags=re.I)

    def test_bytes_and_other_patterns_are_refused(self) -> None:
        with pytest.raises(TypeError, match="str pattern"):
            Regex(re.compile(b"a"))  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="must be a str"):
            Regex(5)  # type: ignore[arg-type]

    def test_message(self) -> None:
        assert (
            Regex("^2009.*$").explain("report 2009")
            == "regex '^2009.*$' does not match 'report 2009'"
        )


@pytest.mark.parametrize(
    ("pattern", "flags", "value", "expected"),
    [
        ("[a-z]+", 0, "a" * 1000, True),  # long enough to need the time limit
        ("[a-z]+", 0, "a" * 1000 + "1", False),
        ("[a-z]+", re.I, "A" * 1000, True),
        (r"\w+", re.ASCII, "é" * 1000, False),  # re's ASCII flag is not regex's bit
        (r"\w+", 0, "é" * 1000, True),
        ("a.*", 0, "a" + "x" * 999 + "\n", False),  # . stops at a newline
        ("a.*", re.S, "a" + "x" * 999 + "\n", True),
        ("(?i)A+", 0, "a" * 1000, True),
        (r"\d+", 0, int("9" * 1000), True),  # str() of a non-string
    ],
)
def test_long_inputs_get_the_same_full_match(
    pattern: str, flags: int, value: object, expected: bool
) -> None:
    # Inputs long enough to be matched under the time limit (issue 17), by the regex
    # package when it is installed, keep re's full-match semantics.
    assert (Regex(pattern, flags) == value) is expected
    assert (Regex(pattern, flags).explain(value) is None) is expected


@pytest.mark.parametrize("shift", [0, 1, 2, 3])
def test_fuzzy_collapses_whitespace_across_chunks_like_on_short_text(shift: int) -> None:
    # Long text is normalized in chunks (issue 17), with the same result as in one piece.
    chunk = 1 << 16
    word = "Ab,c" * (chunk // 4 - 1)
    for gap in ("", " ", "  \t", " " * (chunk + 3)):
        text = " " * shift + word + gap + "X" * shift + gap + "y "
        expected = " ".join(text.lower().replace(",", "").split())
        assert Fuzzy(expected) == text
        assert Fuzzy(expected + "z") != text


class TestRegexRepr:
    @pytest.mark.parametrize(
        ("pattern", "shown"),
        [
            (r"https://example\.com/.*", r"Regex(r'https://example\.com/.*')"),
            ("plain", "Regex('plain')"),
            (r"it's \d", r"""Regex(r"it's \d")"""),  # its own quote: the other one
            (r"""a'b"c\d""", r"""Regex('a\'b"c\\d')"""),  # both quotes: no raw string can
            ("\\d\n", r"Regex('\\d\n')"),  # a newline: a raw string cannot hold one
            ("\\d\\\\", r"Regex(r'\d\\')"),  # an even run of backslashes at the end
            (r"x\'", r"""Regex(r"x\'")"""),
        ],
    )
    def test_a_backslash_shows_as_a_raw_string_when_one_can_hold_the_pattern(
        self, pattern: str, shown: str
    ) -> None:
        assert repr(Regex(pattern)) == shown
        assert eval(shown).pattern == pattern

    def test_options_follow_the_raw_pattern(self) -> None:
        assert repr(Regex(r"\d+", re.I, timeout=0.5)) == (
            r"Regex(r'\d+', flags=re.IGNORECASE, timeout=0.5)"
        )

    @given(st.text(alphabet=st.sampled_from("ab'\"\\.\n\t\u00e9*"), max_size=12))
    def test_the_repr_evaluates_to_the_same_pattern(self, pattern: str) -> None:
        try:
            regex = Regex(pattern)
        except ValueError:  # not a valid regular expression
            return
        rebuilt = eval(repr(regex), {"Regex": Regex, "re": re})
        assert (rebuilt.pattern, rebuilt.flags) == (pattern, regex.flags)
