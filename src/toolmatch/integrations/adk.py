"""Google ADK: a custom metric for an eval config's ``custom_metrics`` (docs/integrations.md).

ADK calls the function its ``code_config`` names with the metric (``EvalMetric``), the
actual invocations and the expected ones. Each actual invocation is one toolmatch turn: its
calls are its ``intermediate_data`` (the ``tool_uses`` with their ``tool_responses``, or the
invocation's events, each call made by its event's ``author``), read by
:func:`toolmatch.to_calls`. The spec is the metric's
criterion's ``toolmatch`` key (``"criteria": {"toolmatch": {"threshold": 1.0, "toolmatch":
SPEC}}``), or the one given to :func:`metric_for`. The ``EvaluationResult`` is toolmatch's
verdict: the run's f1 as the overall score, passed or failed as toolmatch decides, and one
per-invocation result a turn, its score the turn's, its explanation a rubric score's
rationale (ADK's one text field of a result).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch.integrations._common import load_case, run_verdict, spec_from

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._selection.case import TestCase

__all__ = ["metric_for", "toolmatch_metric"]

_NAME = "toolmatch"


def _invocation_calls(invocation: Any) -> list[object]:
    """An invocation's calls in a shape :func:`toolmatch.to_calls` reads: its events as
    session ``Event``s, each made by its ``author`` (an ``InvocationEvent`` alone reads as a
    chat message, which names no agent), or its tool uses and responses as the model's and
    the user's ``Content``."""
    data = invocation.intermediate_data
    if data is None:
        return []
    events = getattr(data, "invocation_events", None)
    if events is not None:
        from google.adk.events import Event

        return [Event(author=event.author, content=event.content) for event in events]
    from google.genai import types

    uses = [types.Part(function_call=call) for call in data.tool_uses]
    responses = [types.Part(function_response=response) for response in data.tool_responses]
    return [types.Content(role="model", parts=uses), types.Content(role="user", parts=responses)]


def _evaluate(
    case: TestCase, name: str, actual: Sequence[Any], expected: Sequence[Any] | None
) -> Any:
    from google.adk.evaluation.eval_rubrics import RubricScore
    from google.adk.evaluation.evaluator import EvalStatus, EvaluationResult, PerInvocationResult

    def status(passed: bool) -> EvalStatus:
        return EvalStatus.PASSED if passed else EvalStatus.FAILED

    verdict = run_verdict(case, [_invocation_calls(invocation) for invocation in actual])
    per_invocation = []
    for result in verdict.results:
        turn = result.turn
        if turn is None or turn >= len(actual):  # a turn the run lacks: said overall
            continue
        score = result._score()
        rationale = RubricScore(rubric_id=name, rationale=str(result), score=score)
        per_invocation.append(
            PerInvocationResult(
                actual_invocation=actual[turn],
                expected_invocation=expected[turn] if expected and turn < len(expected) else None,
                score=score,
                eval_status=status(result.passed),
                rubric_scores=[rationale],
            )
        )
    overall = RubricScore(rubric_id=name, rationale=verdict.explanation, score=verdict.f1)
    return EvaluationResult(
        overall_score=verdict.f1,
        overall_eval_status=status(verdict.passed),
        per_invocation_results=per_invocation,
        overall_rubric_scores=[overall],
    )


def toolmatch_metric(
    eval_metric: Any,
    actual_invocations: Sequence[Any],
    expected_invocations: Sequence[Any] | None = None,
    conversation_scenario: object = None,
) -> Any:
    """ADK's custom metric function (``"code_config": {"name":
    "toolmatch.integrations.adk.toolmatch_metric"}``): the invocations checked against the
    spec under the criterion's ``toolmatch`` key; the ``EvaluationResult``.

    >>> f"{toolmatch_metric.__module__}.{toolmatch_metric.__name__}"  # code_config's name
    'toolmatch.integrations.adk.toolmatch_metric'
    """
    criterion = eval_metric.criterion
    extra = None if criterion is None else criterion.model_extra
    spec = spec_from(None, extra, f"the criterion of the metric {eval_metric.metric_name!r}")
    case = load_case(spec, eval_metric.metric_name)
    return _evaluate(case, eval_metric.metric_name, actual_invocations, expected_invocations)


def metric_for(spec: object, name: str = _NAME) -> Callable[..., Any]:
    """A custom metric function with its spec given (one of the forms of
    docs/integrations.md), for a module of your own that ``code_config`` names; the spec is
    loaded at once.

    >>> metric = metric_for(["get_weather"])
    >>> metric.__name__
    'toolmatch'
    """
    case = load_case(spec, name)

    def metric(
        eval_metric: Any,
        actual_invocations: Sequence[Any],
        expected_invocations: Sequence[Any] | None = None,
        conversation_scenario: object = None,
    ) -> Any:
        return _evaluate(case, eval_metric.metric_name, actual_invocations, expected_invocations)

    metric.__name__ = metric.__qualname__ = name
    return metric
