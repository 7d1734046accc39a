"""Argument matching, row by row: seed 000 section 7's SC-006 acceptance matrix, one row per
line, as the seed reads.

Each row asserts argument ``a`` (rows 16 and 17 other keys too) against the actual
arguments of one call, with the call-level rule of section 1: asserted keys must be
present and match, unasserted keys are ignored (``Partial``).
"""

from __future__ import annotations

import pytest

from toolmatch import Fuzzy, Partial, Regex

PASS, FAIL = True, False

SC_006 = [
    # row, expected args,                 actual args,                      result
    (1, {"a": 206588}, {"a": 206588}, PASS),
    (2, {"a": 206588}, {"a": 206588.0}, PASS),  # int <-> float
    (3, {"a": 206588}, {"a": 206000}, FAIL),
    (4, {"a": 206588.0}, {"a": 206588}, PASS),
    (5, {"a": Fuzzy("206588")}, {"a": "206,588"}, PASS),  # separator tolerance
    (6, {"a": Fuzzy("206588")}, {"a": "206 588"}, PASS),  # whitespace tolerance
    (7, {"a": Fuzzy("206588")}, {"a": 206588.0}, PASS),
    (8, {"a": Fuzzy("206588")}, {"a": 205000}, FAIL),
    (9, {"a": Fuzzy("14.14%")}, {"a": 0.1414}, PASS),  # percent
    (10, {"a": Fuzzy("YES")}, {"a": "yes"}, PASS),  # case
    (11, {"a": Fuzzy("YES")}, {"a": " yes "}, PASS),  # whitespace trim
    (12, {"a": Regex("^2009.*$")}, {"a": "2009 cash flow"}, PASS),  # anchored fullmatch
    (13, {"a": Regex("^2009.*$")}, {"a": "report 2009 cash flow"}, FAIL),  # not anchored at start
    (14, {"a": Regex(r"^181001(\.0+)?$")}, {"a": "181001.0"}, PASS),
    (15, {"a": Regex(r"^181001(\.0+)?$")}, {"a": "181001.5"}, FAIL),
    (16, {"a": 206588}, {}, FAIL),  # arg a missing
    (17, {"a": 206588, "b": "x"}, {"a": 206588, "b": "x", "c": "y"}, PASS),  # extras ignored
    (18, {"a": True}, {"a": True}, PASS),  # bool
    (19, {"a": True}, {"a": 1}, FAIL),  # bool is not int
    (20, {"a": [1, 2]}, {"a": [1, 2]}, PASS),  # list equality
    (21, {"a": [1, 2]}, {"a": [1.0, 2.0]}, PASS),  # element-wise numeric equality
    (22, {"a": {"mode": "fast"}}, {"a": {"mode": "fast"}}, PASS),  # dict equality
]


@pytest.mark.parametrize(
    ("row", "expected", "actual", "result"), SC_006, ids=[f"row{row[0]}" for row in SC_006]
)
def test_sc006_row(
    row: int, expected: dict[str, object], actual: dict[str, object], result: bool
) -> None:
    matcher = Partial(expected)
    assert (matcher == actual) is result
    assert (actual == matcher) is result  # the matcher decides from either side
    assert (matcher.explain(actual) is None) is result


def test_sc006_row23_any_call_wins() -> None:
    """Row 23: the turn has two calls; the second matches, so the expectation holds."""
    calls = [{"a": 205000}, {"a": "206,588"}]
    matcher = Partial({"a": Fuzzy("206588")})
    assert [matcher == args for args in calls] == [False, True]
    assert calls.index(matcher) == 1  # first matching call, as list.index finds it


def test_sc006_failure_reasons() -> None:
    assert Partial({"a": 206588}).explain({}) == "a: missing"
    assert Partial({"a": Fuzzy("206588")}).explain({"a": 205000}) == (
        "a: fuzzy '206588' does not match 205000"
    )
    assert Partial({"a": True}).explain({"a": 1}) == "a: expected True, got 1"
