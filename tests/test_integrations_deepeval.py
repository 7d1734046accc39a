"""toolmatch inside deepeval, run by deepeval itself: ``evaluate`` of test cases whose
``tools_called`` a run recorded, with telemetry off and nothing cached or uploaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "deepeval", reason="deepeval is not installed: pip install 'toolmatch[deepeval]'"
)

from deepeval import evaluate
from deepeval.evaluate import AsyncConfig, CacheConfig, DisplayConfig
from deepeval.test_case import LLMTestCase, ToolCall

from toolmatch.integrations.deepeval import ToolmatchMetric

PARIS = [{"name": "get_weather", "args": {"city": "Paris"}}]


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
    monkeypatch.chdir(tmp_path)  # deepeval writes its .deepeval folder where it runs


def _case(name: str, *calls: ToolCall) -> LLMTestCase:
    return LLMTestCase(name=name, input="Weather?", actual_output="sunny", tools_called=list(calls))


def _evaluate(cases: list[LLMTestCase], metric: ToolmatchMetric) -> dict[str, Any]:
    result = evaluate(
        cases,
        [metric],
        async_config=AsyncConfig(run_async=False),
        display_config=DisplayConfig(print_results=False, show_indicator=False),
        cache_config=CacheConfig(write_cache=False),
    )
    return {test.name: test.metrics_data[0] for test in result.test_results}


def test_a_case_passes_and_a_wrong_argument_fails_naming_it() -> None:
    cases = [
        _case("paris", ToolCall(name="get_weather", input_parameters={"city": "Paris"})),
        _case("lyon", ToolCall(name="get_weather", input_parameters={"city": "Lyon"})),
    ]
    results = _evaluate(cases, ToolmatchMetric(PARIS))
    right, wrong = results["paris"], results["lyon"]
    assert (right.name, right.score, right.success) == ("toolmatch", 1.0, True)
    assert (wrong.score, wrong.success) == (0.0, False)
    assert wrong.reason.splitlines()[-1] == (
        "    call 0 get_weather({'city': 'Lyon'}): city: expected 'Paris', got 'Lyon'"
    )


def test_optimal_pairing_where_a_greedy_one_passes_a_wrong_city() -> None:
    # Two searches expected, Paris and any city: the first call (Paris) may serve either,
    # and a greedy pairing that gives it to "any city" leaves Lyon for Paris.
    spec = [
        {"name": "get_weather", "args": {"city": {"$any": True}}},
        {"name": "get_weather", "args": {"city": "Paris"}},
    ]
    calls = [
        ToolCall(name="get_weather", input_parameters={"city": "Paris"}),
        ToolCall(name="get_weather", input_parameters={"city": "Lyon"}),
    ]
    [result] = _evaluate([_case("two", *calls)], ToolmatchMetric(spec)).values()
    assert (result.score, result.success) == (1.0, True)


def test_f1_scores_partial_credit_against_a_threshold() -> None:
    spec = [*PARIS, "get_forecast"]
    case = _case("half", ToolCall(name="get_weather", input_parameters={"city": "Paris"}))
    [result] = _evaluate([case], ToolmatchMetric(spec, threshold=0.6, score_as="f1")).values()
    assert (result.score, result.success) == (pytest.approx(2 / 3), True)


def test_score_as_takes_pass_or_f1_only() -> None:
    with pytest.raises(ValueError, match="score_as") as error:
        ToolmatchMetric(PARIS, score_as="recall")
    assert str(error.value) == "ToolmatchMetric: score_as must be 'pass' or 'f1', got 'recall'"
