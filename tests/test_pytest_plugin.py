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
            "E           score 1/2 = 0.50: 1 of the 2 required call(s) found",
            "E           call 2 search_news({'q': 'paris'}): matches",
            "E           call 0 search({'q': 'rome', 'limit': 5}): q: fuzzy 'paris' does not match 'rome'",
        ],
        consecutive=True,
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


AT_SCALE_TEST = """
from toolmatch import ExpectedTool, assert_called, assert_turn, check_turn

EXPECTED = {f"a{n:02}": n for n in range(30)}
CALLS = [  # call 1 is the closest: 2 of its 30 arguments are wrong, call 0 has all 30 wrong
    {"name": "search", "args": {f"a{n:02}": n + 1 for n in range(30)}},
    {"name": "search", "args": {f"a{n:02}": n + (n < 2) for n in range(30)}},
]

def test_assert_called():
    assert_called(CALLS + CALLS[1:], "search", EXPECTED)

def test_assert_turn():
    assert_turn([ExpectedTool("search", EXPECTED)], CALLS)

def test_many_calls():
    assert_called([{"name": "search"}] * 199, "search", count=200)

def test_never():
    calls = [{"name": "delete", "args": {"force": n >= 150}} for n in range(153)]
    assert_turn([ExpectedTool.never("delete", {"force": True})], calls)

def test_result_repr():
    result = check_turn([ExpectedTool("search"), ExpectedTool("fetch")], CALLS)
    assert result.passed, result
"""

SEARCH_HEAD = (
    "ExpectedTool('search', {'a00': 0, 'a01': 1, 'a02': 2, 'a03': 3, 'a04': 4, 'a05': 5, "
    "'a06': 6, 'a07': 7, 'a08': 8, 'a0...: call 1: 2 mismatches (a00, a01)"
)
CLOSEST = [
    "score 28/30 = 0.93: the closest call matches 28 of 30 asserted argument(s)",
    "call 1 search({'a00': 1, 'a01': 2, 'a02': 2, 'a03': 3, 'a04': 4, 'a05': 5, ...}):",
    "  a00: expected 0, got 1",
    "  a01: expected 1, got 2",
    "call 0 search({'a00': 1, 'a01': 2, 'a02': 3, 'a03': 4, 'a04': 5, 'a05': 6, ...}): "
    "30 mismatches (a00, a01, a02 and 27 more)",
]


def _e_lines(output: list[str], test: str) -> list[str]:
    start = next(index for index, line in enumerate(output) if f" {test} " in line)
    found = []
    for line in output[start + 1 :]:
        if line.startswith("E "):
            found.append(line[8:])
        elif found:
            break
    return found


def test_failures_at_scale_print_one_line_per_path_once_closest_first(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(AT_SCALE_TEST)
    result = pytester.runpytest_subprocess()  # a subprocess: see CALL_TEST's test
    result.assert_outcomes(failed=5)
    output = result.stdout.lines
    assert _e_lines(output, "test_assert_called") == [
        f"AssertionError: FAILED {SEARCH_HEAD}",
        "  required: at least 1 matching call; found 0",
        *(f"  {line}" for line in CLOSEST[:4]),
        "  call 2 search({'a00': 1, 'a01': 2, 'a02': 2, 'a03': 3, 'a04': 4, 'a05': 5, ...}): "
        "2 mismatches (a00, a01)",
        f"  {CLOSEST[4]}",
    ]
    assert _e_lines(output, "test_assert_turn") == [
        "AssertionError: turn FAILED: 0 of 1 expectation(s) met over 2 call(s)",
        "  score: precision 0/2 = 0.00, recall 0/1 = 0.00, f1 0.00",
        f"  expectation 0: FAILED {SEARCH_HEAD}",
        "    required: at least 1 matching call; found 0",
        *(f"    {line}" for line in CLOSEST),
    ]
    assert _e_lines(output, "test_many_calls") == [
        "AssertionError: FAILED ExpectedTool('search', count=200): expected 200 matching "
        "call(s), got 199",
        "  required: at least 200 matching calls; found 199: calls 0-198 (199 calls)",
        "  score 199/200 = 0.99: 199 of the 200 required call(s) found",
        *(f"  call {index} search({{}}): matches" for index in range(10)),
        "  ... and 189 more candidate call(s)",
    ]
    assert _e_lines(output, "test_never") == [
        "AssertionError: turn FAILED: 0 of 1 expectation(s) met over 153 call(s)",
        "  score: never: 1 of 1 broken",  # a turn of only never (docs/selection.md, Scores)
        "  expectation 0: FAILED ExpectedTool.never('delete', {'force': True}): expected no "
        "matching call, got 3",
        "    required: no matching call; found 3: calls 150, 151, 152",
        "    score 0/3 = 0.00: at most 0 of the 3 matching calls are allowed",
        *(f"    call {index} delete({{'force': True}}): matches" for index in (150, 151, 152)),
        "    call 0 delete({'force': False}): force: expected True, got False",
        *(
            f"    call {index} delete({{'force': False}}): force: expected True, got False"
            for index in range(1, 7)
        ),
        "    ... and 143 more candidate call(s)",
    ]
    assert _e_lines(output, "test_result_repr")[0] == (
        "AssertionError: <TurnResult failed: 1 of 2 expectation(s) met over 2 call(s); "
        "expectation 1: expected 1 matching call(s), got 0: no call's name contains 'fetch'; "
        "the turn called 'search'>"
    )


CALL_TEST = """
from toolmatch import ANY, ExpectedTool, Fuzzy, Partial, StartsWith, ToolCall, to_calls

CALLS = to_calls([
    {"name": "get_weather", "args": {"city": "Paris", "days": 3}, "id": "call_1"},
    {"name": "book", "args": {"hotel": "Ritz", "nights": 2}, "id": "call_2"},
])
EXPECTED = [
    ToolCall("get_weather", {"city": Fuzzy("rome"), "days": 3}, id=ANY),
    ToolCall("book", {"hotel": "Ritz", "nights": 2}, id="call_2"),
]

def test_list_matchers_right():
    assert CALLS == EXPECTED

def test_list_matchers_left():
    assert EXPECTED == CALLS

def test_no_id_in_the_expected_call():
    assert CALLS[:1] == [ToolCall("get_weather", {"city": Fuzzy("rome"), "days": 3})]

def test_one_call_without_matchers():
    assert CALLS[0] == ToolCall("get_forecast", {"city": "Paris", "days": 4}, id="call_1")

def test_whole_fields():
    assert CALLS[1:] == [ToolCall("book", Partial({"guests": 2}), id=StartsWith("toolu_"))]

def test_missing_call():
    assert CALLS[:1] == [EXPECTED[0], ToolCall("book", {"hotel": "Ritz"})]

def test_extra_call():
    assert CALLS == [ToolCall("get_weather", {"city": "Paris", "days": 3}, id=ANY)]

def test_turns_and_tuples():
    assert [tuple(CALLS)] == [(CALLS[0], ToolCall("book", {"hotel": "Ritz", "nights": 3}, "call_2"))]

def test_call_and_expected_tool():
    assert CALLS[1] == ExpectedTool("book", {"nights": 5})
"""


def test_tool_call_comparisons_print_one_line_per_failing_field_or_argument(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(CALL_TEST)
    # A subprocess: in process, pytester drops the modules an earlier run loaded lazily,
    # while toolmatch's lazy names keep their classes, and isinstance checks then fail.
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=9)
    output = result.stdout.lines
    weather = "ToolCall(name='get_weather', args={'city': 'Paris', 'days': 3}, id='call_1')"
    assert _e_lines(output, "test_list_matchers_right") == [
        f"AssertionError: assert [{weather}, ToolCall(name='book', args={{'hotel': '... == "
        "[ToolCall(name='get_weather', args={'city': Fuzzy('rome'), 'days': 3}, id=ANY), "
        "ToolCall(name='book', args={'hotel': ...",
        "  [0].args.city: fuzzy 'rome' does not match 'Paris'",
    ]
    assert _e_lines(output, "test_list_matchers_left")[1:] == [
        "  [0].args.city: fuzzy 'rome' does not match 'Paris'",
    ]
    assert _e_lines(output, "test_no_id_in_the_expected_call")[1:] == [
        "  [0].args.city: fuzzy 'rome' does not match 'Paris'",
        "  [0].id: expected None, got 'call_1'",
    ]
    assert _e_lines(output, "test_one_call_without_matchers") == [
        f"AssertionError: assert {weather} == ToolCall(name='get_forecast', args={{'city': "
        "'Paris', 'days': 4}, id='call_1')",
        "  name: expected 'get_forecast', got 'get_weather'",
        "  args.days: expected 4, got 3",
    ]
    assert _e_lines(output, "test_whole_fields")[1:] == [
        "  [0].args.guests: missing",
        "  [0].id: expected a str starting with 'toolu_', got 'call_2'",
    ]
    assert _e_lines(output, "test_missing_call")[1:] == [
        "  [0].args.city: fuzzy 'rome' does not match 'Paris'",
        "  [1]: missing, expected ToolCall(name='book', args={'hotel': 'Ritz'})",
    ]
    assert _e_lines(output, "test_extra_call")[1:] == [
        "  [1]: extra, got ToolCall(name='book', args={'hotel': 'Ritz', 'nights': 2}, id='call_2')",
    ]
    assert _e_lines(output, "test_turns_and_tuples") == [
        "AssertionError: assert [(ToolCall(name='get_weather', args={...}, id='call_1'), "
        "ToolCall(name='book', args={...}, id='call_2'))] == [(ToolCall(name='get_weather', "
        "args={...}, id='call_1'), ToolCall(name='book', args={...}, id='call_2'))]",
        "  [0][1].args.nights: expected 3, got 2",
    ]
    assert _e_lines(output, "test_call_and_expected_tool") == [
        "AssertionError: assert ToolCall(name='book', args={'hotel': 'Ritz', 'nights': 2}, "
        "id='call_2') == ExpectedTool('book', {'nights': 5})",
        "  FAILED ExpectedTool('book', {'nights': 5}): call 0: nights: expected 5, got 2",
        "    required: at least 1 matching call; found 0",
        "    score 0/1 = 0.00: the closest call matches 0 of 1 asserted argument(s)",
        "    call 0 book({'hotel': 'Ritz', 'nights': 2}): nights: expected 5, got 2",
    ]


def test_the_plugin_looks_for_each_class_in_its_module() -> None:
    import importlib

    import toolmatch
    from toolmatch._plugins.pytest_plugin import CLASS_MODULES

    for name, module in CLASS_MODULES.items():
        assert getattr(importlib.import_module(module), name) is getattr(toolmatch, name)


LAZY_TEST = """
import sys

from toolmatch import Fuzzy

def test_fuzzy():
    assert {"city": "Paris"} == {"city": Fuzzy("rome")}

def test_loaded():
    wings = ("toolmatch._selection", "toolmatch._readers", "toolmatch._calls")
    print("LOADED", sorted(name for name in sys.modules if name.startswith(wings)))
"""


def test_an_explained_failure_imports_only_what_it_compares(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(LAZY_TEST)
    result = pytester.runpytest_subprocess("-s", "-p", "no:inline_snapshot", "-p", "no:randomly")
    result.assert_outcomes(failed=1, passed=1)
    assert _e_lines(result.stdout.lines, "test_fuzzy")[1:] == [
        "  city: fuzzy 'rome' does not match 'Paris'"
    ]
    # Neither calls nor expectations took part: their modules stay unimported.
    assert any(line.endswith("LOADED []") for line in result.stdout.lines)
