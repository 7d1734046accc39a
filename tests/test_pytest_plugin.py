"""The pytest plugin, through real pytest runs (pytester): the report lines are the API."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

TEN_ARGUMENT_TEST = """
from toolmatch import ANY, Approx, Fuzzy, Regex

ACTUAL = {
    "city": "Paris", "country": "FR", "days": 3, "units": "metric", "lang": "fr",
    "date": "2026-12-01", "budget": 1200.0, "adults": 2, "children": 0, "pets": False,
}
EXPECTED = {
    "city": Fuzzy("paris"), "country": "FR", "days": Approx(5), "units": ANY, "lang": "fr",
    "date": Regex(r"2027-.*"), "budget": Approx(1200), "adults": 2, "children": 0, "pets": False,
}

def test_matchers_on_the_left():
    assert EXPECTED == ACTUAL

def test_matchers_on_the_right():
    assert ACTUAL == EXPECTED
"""


def test_two_wrong_arguments_give_exactly_two_lines_from_either_side(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(TEN_ARGUMENT_TEST)
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    output = result.stdout.lines
    left = "E       AssertionError: assert {'city': Fuzzy('paris'), 'country': 'FR', "
    right = "E       AssertionError: assert {'city': 'Paris', 'country': 'FR', "
    summaries = [index for index, line in enumerate(output) if line.startswith((left, right))]
    assert [output[index][:50] for index in summaries] == [left[:50], right[:50]]
    for start in summaries:
        assert output[start + 1 : start + 4] == [
            "E         days: expected 5 ± 5e-06, got 3",
            "E         date: regex '2027-.*' does not match '2026-12-01'",
            "",
        ]


def test_missing_arguments_and_nested_paths(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from toolmatch import Partial, Regex

        def test_nested():
            assert {"items": [{"id": Regex("[0-9]+")}], "q": 1} == {"items": [{"id": "x"}]}
        """
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "E       AssertionError: assert {'items': [{'id': Regex('[0-9]+')}], 'q': 1} == {'items': [{'id': 'x'}]}",
            "E         items[0].id: regex '[0-9]+' does not match 'x'",
            "E         q: missing",
        ]
    )


def test_a_single_matcher(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from toolmatch import Fuzzy

        def test_fuzzy():
            assert 205000 == Fuzzy("206588")
        """
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(
        [
            "E       AssertionError: assert 205000 == Fuzzy('206588')",
            "E         fuzzy '206588' does not match 205000",
        ]
    )


def test_plain_comparisons_are_left_to_pytest(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import toolmatch

        def test_plain():
            assert {"a": 1} == {"a": 2}
        """
    )
    result = pytester.runpytest()
    result.stdout.fnmatch_lines(["E         Differing items:"])
    result.stdout.no_fnmatch_line("*toolmatch found*")
    result.stdout.no_fnmatch_line("E         a: *")


def test_the_plugin_is_registered_by_entry_point(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_ok(): pass")
    result = pytester.runpytest_subprocess("--trace-config")
    result.stdout.fnmatch_lines(["*pytest_toolmatch*"])
