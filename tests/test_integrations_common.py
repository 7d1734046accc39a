"""The part every framework adapter shares: the spec forms, the spec found in metadata, and
a run's verdict with its f1 and explanation."""

from __future__ import annotations

import subprocess
import sys

import pytest

from toolmatch import ConfigError, ExpectedTool, ExpectedTurn, TestCase
from toolmatch.integrations._common import load_case, run_verdict, spec_from

WEATHER = [{"name": "get_weather", "args": {"city": "Paris"}}]


@pytest.mark.parametrize(
    "spec",
    [
        WEATHER,
        {"expected_tools": WEATHER},
        {"turns": [{"expected_tools": WEATHER}]},
        {"test_cases": [{"name": "named", "expected_tools": WEATHER}]},
        TestCase("named", [ExpectedTurn([ExpectedTool("get_weather", {"city": "Paris"})])]),
    ],
)
def test_every_spec_form_is_the_same_case(spec: object) -> None:
    case = load_case(spec, "fallback")
    assert case.name in ("named", "fallback")
    assert run_verdict(case, [[{"name": "get_weather", "args": {"city": "Paris"}}]]).passed
    assert not run_verdict(case, [[{"name": "get_weather", "args": {"city": "Lyon"}}]]).passed


def test_a_spec_names_its_case_or_takes_the_name_given() -> None:
    assert load_case({"name": "own", "expected_tools": ["a"]}, "given").name == "own"
    assert load_case(["a"], "given").name == "given"


def test_a_spec_of_another_type_is_refused_naming_the_forms() -> None:
    with pytest.raises(TypeError) as error:
        load_case("search", "x")
    assert str(error.value) == (
        "a toolmatch spec must be a TestCase, a spec's data with one test case "
        "({'test_cases': [...]}), one case's data ({'expected_tools': [...]} or "
        "{'turns': [...]}, its name optional), or a list of expected tools; got 'search' (str)"
    )


def test_a_bad_spec_raises_the_loaders_error_with_its_place() -> None:
    with pytest.raises(ConfigError, match=r"test_cases\[0\]\(x\)\.expected_tools\[0\]\.count"):
        load_case([{"name": "a", "count": 0}], "x")


def test_the_spec_is_looked_up_in_metadata_only_when_none_is_given() -> None:
    assert spec_from(["a"], {"toolmatch": ["b"]}, "m") == ["a"]
    assert spec_from(None, {"toolmatch": ["b"]}, "m") == ["b"]
    assert spec_from(None, {"spec": ["c"]}, "m", "spec", "expectations") == ["c"]
    with pytest.raises(ValueError, match="no toolmatch spec") as error:
        spec_from(None, None, "the case's metadata")
    assert str(error.value) == (
        "no toolmatch spec: none was given, and the case's metadata has no 'toolmatch' key "
        "(got None): pass spec=, or put the spec under metadata['toolmatch']"
    )


def test_a_failed_verdict_explains_each_argument_and_scores_f1() -> None:
    case = load_case([*WEATHER, "book"], "trip")
    verdict = run_verdict(case, [[{"name": "get_weather", "args": {"city": "London"}}]])
    assert (verdict.passed, verdict.score, verdict.f1) == (False, 0.0, 0.0)
    assert verdict.explanation.splitlines() == [
        "turn 0 FAILED: 0 of 2 expectation(s) met over 1 call(s)",
        "  score: precision 0/1 = 0.00, recall 0/2 = 0.00, f1 0.00",
        "  expectation 0: FAILED ExpectedTool('get_weather', {'city': 'Paris'}): call 0: city: expected 'Paris', got 'London'",
        "    required: at least 1 matching call; found 0",
        "    score 0/1 = 0.00: the closest call matches 0 of 1 asserted argument(s)",
        "    call 0 get_weather({'city': 'London'}): city: expected 'Paris', got 'London'",
        "  expectation 1: FAILED ExpectedTool('book'): expected 1 matching call(s), got 0: no call's name contains 'book'; the turn called 'get_weather'",
        "    required: at least 1 matching call; found 0",
        "    score 0/1 = 0.00: no call of this name",
        "    no call's name contains 'book'; the turn called 'get_weather'",
    ]
    assert verdict.explanation == "\n".join(str(result) for result in verdict.results)
    assert verdict.first_failure() == (
        "turn 0: expectation 0: call 0: city: expected 'Paris', got 'London'"
    )


def test_a_passing_verdict_scores_one_and_has_no_failure() -> None:
    verdict = run_verdict(
        load_case(WEATHER, "w"), [[{"name": "get_weather", "args": {"city": "Paris"}}]]
    )
    assert (verdict.passed, verdict.score, verdict.f1, verdict.first_failure()) == (
        True,
        1.0,
        1.0,
        "",
    )


def test_a_case_of_two_turns_given_one_fails_naming_the_missing_turn() -> None:
    case = load_case({"turns": [{"expected_tools": ["a"]}, {"expected_tools": ["b"]}]}, "two")
    verdict = run_verdict(case, [[{"name": "a"}]])
    assert not verdict.passed
    assert verdict.first_failure().startswith("turn 1: ")


def test_importing_the_integrations_imports_no_framework() -> None:
    code = (
        "import sys, toolmatch, toolmatch.integrations, toolmatch.integrations._common\n"
        "frameworks = ('pydantic_evals', 'inspect_ai', 'langsmith', 'mlflow', 'deepeval', "
        "'openevals', 'pydantic_ai')\n"
        "print(sorted(name for name in frameworks if name in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"
