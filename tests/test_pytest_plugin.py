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


SELECTION_TEST = """
from toolmatch import ExpectedTool, Fuzzy, assert_called, assert_turn

CALLS = [
    {"name": "search", "args": {"q": "rome", "limit": 5}},
    {"name": "fetch", "args": {"url": "https://example.com/" + "x" * 300}},
    {"name": "search_news", "args": {"q": "paris"}},
]

def test_inline_expected_tool():
    assert CALLS == ExpectedTool("search", {"q": Fuzzy("paris")}, count=2)

def test_assert_called():
    assert_called(CALLS, "fetch", {"url": "https://example.org"})

def test_assert_turn():
    assert_turn([ExpectedTool("search"), ExpectedTool("delete")], CALLS)
"""


def test_selection_failures_show_expectation_candidates_and_counts(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(SELECTION_TEST)
    result = pytester.runpytest()
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(
        [
            "E       AssertionError: assert [{'name': 'search', 'args': {'q': 'rome', 'limit': 5}}, *... == ExpectedTool('search', {'q': Fuzzy('paris')}, count=2)",
            "E         FAILED ExpectedTool('search', {'q': Fuzzy('paris')}, count=2): expected 2 matching call(s), got 1",
            "E           required: at least 2 matching calls; found 1: call 2",
            "E           call 0 search({'q': 'rome', 'limit': 5}): q: fuzzy 'paris' does not match 'rome'",
            "E           call 2 search_news({'q': 'paris'}): matches",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "E       AssertionError: FAILED ExpectedTool('fetch', {'url': 'https://example.org'}): call 1: url: expected 'https://example.org', got 'https://example.com/xxx*'...",
            "E         required: at least 1 matching call; found 0",
        ]
    )
    result.stdout.fnmatch_lines(
        [
            "E       AssertionError: turn FAILED: 1 of 2 expectation(s) met over 3 call(s)",
            "E         expectation 0: PASSED ExpectedTool('search')",
            "E           required: at least 1 matching call; found 2: calls 0, 2",
            "E           call 0 search({'q': 'rome', 'limit': 5}): matches",
            "E           call 2 search_news({'q': 'paris'}): matches",
            "E         expectation 1: FAILED ExpectedTool('delete'): expected 1 matching call(s), got 0: no call's name contains 'delete'; the turn called 'search', 'fetch', 'search_news'",
        ]
    )
    # Long values are shortened: no line carries the whole 300-character URL.
    assert all("x" * 100 not in line for line in result.stdout.lines)
