"""Braintrust: ``toolmatch_scorer`` inside Braintrust's own ``Eval``, offline
(``no_send_logs=True``): a passing and a failing case, the scores Braintrust keeps and the
``Score`` objects the scorer gave it (docs/integrations.md)."""

from __future__ import annotations

from typing import Any

import pytest

braintrust = pytest.importorskip(
    "braintrust", reason="Braintrust is not installed: pip install 'toolmatch[braintrust]'"
)

from toolmatch.integrations.braintrust import toolmatch_scorer  # noqa: E402

SPEC = [{"name": "get_weather", "args": {"city": {"fuzzy": "Paris"}, "days": {"$approx": 3}}}]


def _task(input: dict[str, Any]) -> list[dict[str, Any]]:
    """The agent's calls: what the task returns and the scorer reads (OpenAI's shape)."""
    return [{"type": "function", "function": {"name": "get_weather", "arguments": input}}]


def _run(scorer: Any, cases: list[Any]) -> tuple[Any, list[list[Any]]]:
    """``Eval`` offline; the Score objects the scorer returned, case by case."""
    given: list[list[Any]] = []

    def spy(**arguments: Any) -> list[Any]:
        scores: list[Any] = scorer(**arguments)
        given.append(scores)
        return scores

    result = braintrust.Eval(
        "toolmatch-tests", data=cases, task=_task, scores=[spy], no_send_logs=True
    )
    return result, given


def test_a_passing_and_a_failing_case_in_eval() -> None:
    cases = [
        braintrust.EvalCase(input={"city": "paris", "days": 3.0}, metadata={"toolmatch": SPEC}),
        braintrust.EvalCase(input={"city": "Lyon", "days": 3}, metadata={"toolmatch": SPEC}),
    ]
    result, given = _run(toolmatch_scorer(), cases)
    assert [each.scores for each in result.results] == [
        {"toolmatch": 1.0, "toolmatch_f1": 1.0},
        {"toolmatch": 0.0, "toolmatch_f1": 0.0},
    ]
    # Eval scores its cases concurrently: the Score objects come in either order
    failed, passed = sorted(given, key=lambda scores: scores[0].score)
    assert [score.name for score in failed] == ["toolmatch", "toolmatch_f1"]
    explanation = failed[0].metadata["explanation"]
    assert "city: fuzzy 'Paris' does not match 'Lyon'" in explanation
    assert explanation.startswith("turn 0 FAILED")
    assert passed[0].metadata["explanation"].startswith("turn 0 PASSED")


def test_a_spec_given_and_a_name() -> None:
    cases = [braintrust.EvalCase(input={"city": "Paris", "days": 2})]
    result, given = _run(toolmatch_scorer(SPEC, name="weather"), cases)
    assert result.results[0].scores == {"weather": 0.0, "weather_f1": 0.0}
    assert "days: expected 3 ± 3e-06, got 2" in given[0][0].metadata["explanation"]


def test_a_case_without_a_spec_is_the_scorers_error() -> None:
    cases = [braintrust.EvalCase(input={"city": "Paris", "days": 3}, metadata={"other": 1})]
    scorer = toolmatch_scorer()
    result, given = _run(scorer, cases)
    assert given == []
    # Braintrust catches a scorer's error: the case has no toolmatch score, not a pass
    assert result.results[0].scores == {}
    with pytest.raises(ValueError, match=r"^no toolmatch spec") as error:
        scorer(input=None, output=[], metadata={"other": 1})
    assert str(error.value) == (
        "no toolmatch spec: none was given, and the case's metadata has no 'toolmatch' key "
        "(got {'other': 1}): pass spec=, or put the spec under metadata['toolmatch']"
    )


def test_a_case_of_several_turns_takes_a_list_of_turns() -> None:
    spec = {"turns": [{"expected_tools": ["lookup"]}, {"expected_tools": ["refund"]}]}
    scorer = toolmatch_scorer(spec)
    [score, f1] = scorer(input=None, output=[[{"name": "lookup"}], []])
    assert (score.score, f1.score) == (0.0, 0.5)
    with pytest.raises(TypeError) as error:
        scorer(input=None, output={"name": "lookup"})
    assert str(error.value) == (
        "the case 'toolmatch' expects 2 turns: the task's output must be a list with one entry "
        "of calls per turn, got {'name': 'lookup'} (dict)"
    )
