"""Ordered comparisons on numbers sent as strings, opt-in (issue 37, deliverable 6):
``Gt(5, strings=True)``, ``{$gt: 5, strings: true}``, read as Fuzzy reads a number."""

from __future__ import annotations

from typing import Any

import pytest

from toolmatch import (
    Between,
    ConfigError,
    Fuzzy,
    Ge,
    Gt,
    Le,
    Lt,
    load_expected_tools,
)


@pytest.mark.parametrize(
    ("matcher", "text", "expected"),
    [
        (Gt(5, strings=True), "10000.0", True),
        (Gt(5, strings=True), "10,000.0", True),
        (Gt(5, strings=True), " 5 ", False),
        (Ge(5, strings=True), " 5 ", True),
        (Lt(5, strings=True), "4.99", True),
        (Le(1, strings=True), "50%", True),
        (Le(0.4, strings=True), "50%", False),
        (Between(1, 2000, strings=True), "1 234", True),
        (Between(1, 5, inclusive=False, strings=True), "5", False),
        (Gt(5, strings=True), "1e3", True),
        (Gt(5, strings=True), "inf", False),
        (Gt(5, strings=True), "nan", False),
        (Gt(5, strings=True), "ten", False),
        (Gt(5, strings=True), "", False),
    ],
)
def test_a_string_counts_by_the_number_fuzzy_reads(matcher: Any, text: str, expected: bool) -> None:
    assert (matcher == text) is expected


@pytest.mark.parametrize("text", ["10,000.0", " 1 234 ", "50%", "1e3", "-0.5", "ten", "nan"])
def test_the_reading_is_fuzzys(text: str) -> None:
    # A range squeezed to one number matches exactly the strings Fuzzy reads as it.
    for number in (10000.0, 1234.0, 0.5, 1000.0, -0.5):
        both = Ge(number, strings=True) == text and Le(number, strings=True) == text
        assert both is (Fuzzy(repr(number)) == text), (number, text)


def test_without_strings_a_string_is_no_number() -> None:
    for matcher in (Gt(5), Ge(5), Lt(5), Le(5), Between(1, 10)):
        assert matcher != "7"
    assert Gt(5, strings=True) == 7
    assert Gt(5, strings=True) != True  # noqa: E712


def test_the_mismatch_says_what_the_string_was_read_as() -> None:
    assert Gt(5, strings=True).explain("3") == "expected a number > 5, got '3' (read as 3.0)"
    assert Between(1, 2, strings=True).explain("x") == (
        "expected a number from 1 to 2, got 'x' (str, which does not read as a number)"
    )
    assert Gt(5).explain("7") == "expected a number > 5, got '7' (str)"


def test_strings_must_be_a_flag() -> None:
    with pytest.raises(TypeError) as raised:
        Gt(5, strings="yes")  # type: ignore[arg-type]
    assert str(raised.value) == "Gt strings must be True or False, got 'yes'"
    with pytest.raises(TypeError) as raised:
        Between(1, 2, strings=1)  # type: ignore[arg-type]
    assert str(raised.value) == "Between strings must be True or False, got 1"


def test_a_spec_spells_it() -> None:
    [tool] = load_expected_tools(
        [
            {
                "name": "pay",
                "args": {
                    "amount": {"$gt": 5, "strings": True},
                    "fee": {"$between": [0, 1], "inclusive": False, "strings": True},
                },
            }
        ]
    )
    assert repr(tool) == (
        "ExpectedTool('pay', {'amount': Gt(5, strings=True), 'fee': Between(0, 1, "
        "inclusive=False, strings=True)})"
    )
    assert tool.check([{"name": "pay", "args": {"amount": "10000.0", "fee": "0.5"}}]).passed
    with pytest.raises(ConfigError) as raised:
        load_expected_tools([{"name": "pay", "args": {"amount": {"$gt": 5, "strings": "yes"}}}])
    assert [problem.path for problem in raised.value.problems] == [
        "expected_tools[0].args.amount.strings"
    ]
