"""Google ADK: ``toolmatch_metric`` as ADK runs a custom metric: an ``EvalConfig`` naming it
in ``custom_metrics``, its metrics read by ADK (``get_eval_metrics_from_config``), the
evaluator made by ADK's registry, invocations (ADK's ``Invocation``) evaluated; a passing and
a failing run, ADK's ``EvaluationResult`` read (docs/integrations.md).

google-adk pins versions the dev extra's SDKs disagree with: these tests run in an
environment of their own (``.ci/integrations``)."""

from __future__ import annotations

import asyncio
import warnings
from typing import Any

import pytest

pytest.importorskip(
    "google.adk.evaluation",
    reason="google-adk is not installed: pip install 'toolmatch[adk]' (in an environment of "
    "its own: .ci/integrations)",
)

# ADK warns, once, that its evaluation registry is experimental: said, not a failure
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", r"\[EXPERIMENTAL\]", UserWarning)
    from google.adk.evaluation.eval_case import (
        IntermediateData,
        Invocation,
        InvocationEvent,
        InvocationEvents,
    )
    from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config
    from google.adk.evaluation.evaluator import EvalStatus
    from google.adk.evaluation.metric_evaluator_registry import (
        MetricEvaluatorRegistry,
        register_custom_metrics_from_config,
    )
    from google.genai import types

SPEC = {
    "turns": [
        {"expected_tools": [{"name": "lookup_order", "args": {"order": 7}}]},
        {"expected_tools": [{"name": "refund", "args": {"order": 7, "amount": {"$approx": 42.5}}}]},
    ]
}
CONFIG = {
    "criteria": {"toolmatch": {"threshold": 1.0, "toolmatch": SPEC}},
    "custom_metrics": {
        "toolmatch": {"code_config": {"name": "toolmatch.integrations.adk.toolmatch_metric"}}
    },
}


def _invocation(
    number: int, name: str, args: dict[str, Any], events: bool = False, author: str = "support"
) -> Invocation:
    call = types.FunctionCall(id=f"call-{number}", name=name, args=args)
    response = types.FunctionResponse(id=f"call-{number}", name=name, response={"ok": True})
    if events:
        data: Any = InvocationEvents(
            invocation_events=[
                InvocationEvent(
                    author=author,
                    content=types.Content(role="model", parts=[types.Part(function_call=call)]),
                ),
                InvocationEvent(
                    author=author,
                    content=types.Content(
                        role="user", parts=[types.Part(function_response=response)]
                    ),
                ),
            ]
        )
    else:
        data = IntermediateData(tool_uses=[call], tool_responses=[response])
    return Invocation(
        invocation_id=f"inv-{number}",
        user_content=types.Content(role="user", parts=[types.Part(text="refund order 7")]),
        intermediate_data=data,
    )


def _evaluate(config: dict[str, Any], actual: list[Invocation]) -> Any:
    eval_config = EvalConfig.model_validate(config)
    registry = register_custom_metrics_from_config(eval_config, MetricEvaluatorRegistry())
    [metric] = [
        m for m in get_eval_metrics_from_config(eval_config) if m.metric_name == "toolmatch"
    ]
    evaluator = registry.get_evaluator(metric)
    return asyncio.run(evaluator.evaluate_invocations(actual, None, None))


@pytest.mark.parametrize("events", [False, True], ids=["tool_uses", "invocation_events"])
def test_a_passing_run_one_invocation_a_turn(events: bool) -> None:
    actual = [
        _invocation(0, "lookup_order", {"order": 7}, events),
        _invocation(1, "refund", {"order": 7, "amount": 42.5}, events),
    ]
    result = _evaluate(CONFIG, actual)
    assert (result.overall_score, result.overall_eval_status) == (1.0, EvalStatus.PASSED)
    assert [each.eval_status for each in result.per_invocation_results] == [EvalStatus.PASSED] * 2
    assert [each.actual_invocation.invocation_id for each in result.per_invocation_results] == [
        "inv-0",
        "inv-1",
    ]


def test_a_failing_run_names_the_argument() -> None:
    actual = [
        _invocation(0, "lookup_order", {"order": 7}),
        _invocation(1, "refund", {"order": 7, "amount": 40}),
    ]
    result = _evaluate(CONFIG, actual)
    assert (result.overall_score, result.overall_eval_status) == (0.5, EvalStatus.FAILED)
    first, second = result.per_invocation_results
    assert (first.score, first.eval_status) == (1.0, EvalStatus.PASSED)
    assert (second.score, second.eval_status) == (0.0, EvalStatus.FAILED)
    [rubric] = second.rubric_scores
    assert rubric.rubric_id == "toolmatch"
    assert "amount: expected 42.5 ± 4.25e-05, got 40" in rubric.rationale
    assert "amount: expected 42.5 ± 4.25e-05, got 40" in result.overall_rubric_scores[0].rationale


def test_the_events_author_is_the_calls_agent() -> None:
    # An invocation's events name the agent that made each call: an agent guard is judged.
    spec = {"expected_tools": [{"name": "refund", "args": {"order": 7}, "agent": "billing"}]}
    config = {**CONFIG, "criteria": {"toolmatch": {"threshold": 1.0, "toolmatch": spec}}}
    right = _evaluate(config, [_invocation(0, "refund", {"order": 7}, True, "billing")])
    assert right.overall_eval_status == EvalStatus.PASSED
    wrong = _evaluate(config, [_invocation(0, "refund", {"order": 7}, True, "support")])
    assert wrong.overall_eval_status == EvalStatus.FAILED
    assert "(agent): expected 'billing', got 'support'" in wrong.overall_rubric_scores[0].rationale


def test_a_criterion_without_a_spec_is_an_error() -> None:
    config = {**CONFIG, "criteria": {"toolmatch": 1.0}}
    with pytest.raises(ValueError, match=r"^no toolmatch spec") as error:
        _evaluate(config, [_invocation(0, "lookup_order", {"order": 7})])
    assert str(error.value) == (
        "no toolmatch spec: none was given, and the criterion of the metric 'toolmatch' has no "
        "'toolmatch' key (got {}): pass spec=, or put the spec under metadata['toolmatch']"
    )


def test_metric_for_a_spec_given() -> None:
    from toolmatch.integrations.adk import metric_for

    metric = metric_for(SPEC, "refunds")
    eval_config = EvalConfig.model_validate({"criteria": {"refunds": 1.0}})
    [eval_metric] = [
        m for m in get_eval_metrics_from_config(eval_config) if m.metric_name == "refunds"
    ]
    result = metric(eval_metric, [_invocation(0, "lookup_order", {"order": 7})], None, None)
    assert result.overall_eval_status == EvalStatus.FAILED
    assert "turn 1" in result.overall_rubric_scores[0].rationale
