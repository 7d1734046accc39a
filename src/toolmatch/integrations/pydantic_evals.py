"""toolmatch inside pydantic-evals: ``ToolCallsMatch``, an evaluator of a case's tool calls,
and ``PassHatK``, a report evaluator plotting pass^k over repeated runs (docs/integrations.md).

Importing this module imports pydantic-evals: ``pip install 'toolmatch[pydantic-evals]'``.

>>> from pydantic_ai.messages import ModelResponse, ToolCallPart
>>> from pydantic_evals import Case, Dataset
>>> def task(city: str) -> list[ModelResponse]:  # a recorded run: the agent's messages
...     return [ModelResponse(parts=[ToolCallPart("get_weather", {"city": city})])]
>>> dataset = Dataset(
...     name="weather",
...     cases=[Case(name="paris", inputs="Paris"), Case(name="lyon", inputs="Lyon")],
...     evaluators=[ToolCallsMatch([{"name": "get_weather", "args": {"city": "Paris"}}])],
... )
>>> report = dataset.evaluate_sync(task, progress=False)
>>> [(case.name, case.assertions["toolmatch"].value) for case in report.cases]
[('paris', True), ('lyon', False)]
>>> print(report.cases[1].assertions["toolmatch"].reason.splitlines()[-1])
    call 0 get_weather({'city': 'Lyon'}): city: expected 'Paris', got 'Lyon'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic_evals.evaluators import (
    EvaluationReason,
    Evaluator,
    EvaluatorContext,
    ReportEvaluator,
    ReportEvaluatorContext,
)
from pydantic_evals.reporting.analyses import LinePlot, LinePlotCurve, LinePlotPoint

from toolmatch._readers.to_calls import to_calls
from toolmatch._runs.trials import pass_hat_k
from toolmatch.integrations._common import load_case, run_verdict, spec_from

__all__ = ["PassHatK", "ToolCallsMatch"]


@dataclass(repr=False)
class ToolCallsMatch(Evaluator[Any, Any, Any]):
    """An evaluator judging a case's tool calls against a toolmatch spec.

    ``spec`` is any form ``toolmatch.integrations`` accepts (JSON-able ones keep a dataset
    file writable); without it, the case's ``metadata["toolmatch"]``. The calls come from
    the case's output (``calls_from="output"``: pydantic-ai messages, an ``AgentRunResult``,
    anything :func:`toolmatch.to_calls` reads) or from its span tree (``"span_tree"``: the
    agent instrumented and an OpenTelemetry tracer provider set). Returns the assertion
    ``evaluation_name`` (an ``EvaluationReason``: passed, and toolmatch's explanation with
    each argument's reason) and the score ``<evaluation_name>_f1``; the whole run is one turn.
    """

    spec: Any = None
    calls_from: Literal["output", "span_tree"] = "output"
    evaluation_name: str = "toolmatch"

    def __post_init__(self) -> None:
        if self.calls_from not in ("output", "span_tree"):
            raise ValueError(
                f"ToolCallsMatch: calls_from must be 'output' or 'span_tree', got "
                f"{self.calls_from!r}"
            )

    def get_default_evaluation_name(self) -> str:
        """``evaluation_name``: the assertion's name in the report."""
        return self.evaluation_name

    def evaluate(self, ctx: EvaluatorContext[Any, Any, Any]) -> dict[str, EvaluationReason | float]:
        """The case's verdict: ``{name: EvaluationReason(passed, explanation), name_f1: f1}``."""
        name = ctx.name or "case"
        case = load_case(spec_from(self.spec, ctx.metadata, f"case {name}'s metadata"), name)
        source = ctx.output if self.calls_from == "output" else list(ctx.span_tree)
        verdict = run_verdict(case, [to_calls(source)])
        return {
            self.evaluation_name: EvaluationReason(verdict.passed, verdict.explanation),
            f"{self.evaluation_name}_f1": verdict.f1,
        }


@dataclass(repr=False)
class PassHatK(ReportEvaluator[Any, Any, Any]):
    """A report evaluator: pass^k of each case over its repeated runs
    (``evaluate_sync(task, repeat=n)``), as a ``LinePlot`` with a curve per case.

    A run passes when its ``assertion`` (a :class:`ToolCallsMatch`'s ``evaluation_name``)
    is true; a run whose task or evaluator failed counts as failed. pass^k at ``k`` runs is
    :func:`toolmatch.pass_hat_k` of the case's ``n`` runs, for ``k`` from 1 to ``n``. A
    report in which no run has the assertion raises ``ValueError``.
    """

    assertion: str = "toolmatch"
    title: str = "pass^k"

    def evaluate(self, ctx: ReportEvaluatorContext[Any, Any, Any]) -> LinePlot:
        """The plot: x is k, y the chance that k runs of the case all pass."""
        report = ctx.report
        groups = report.case_groups()
        runs: dict[str, tuple[list[Any], int]] = {}
        if groups is None:  # one run of each case
            for case in report.cases:
                runs.setdefault(case.name, ([], 0))[0].append(case)
            for failure in report.failures:
                cases, failed = runs.setdefault(failure.name, ([], 0))
                runs[failure.name] = (cases, failed + 1)
        else:
            runs = {group.name: (list(group.runs), len(group.failures)) for group in groups}
        present = {key for cases, _ in runs.values() for case in cases for key in case.assertions}
        if self.assertion not in present:
            raise ValueError(
                f"PassHatK: no run of the report has the assertion {self.assertion!r} (its "
                f"runs have {sorted(present)}): add ToolCallsMatch to the dataset's "
                "evaluators, or pass the assertion's name"
            )
        curves = []
        for name, (cases, failed) in runs.items():
            n = len(cases) + failed
            passed = sum(
                1
                for case in cases
                if self.assertion in case.assertions
                and case.assertions[self.assertion].value is True
            )
            points = [LinePlotPoint(x=k, y=pass_hat_k(n, passed, k)) for k in range(1, n + 1)]
            curves.append(LinePlotCurve(name=name, points=points))
        return LinePlot(
            title=self.title,
            x_label="k (runs)",
            y_label="pass^k",
            y_range=(0.0, 1.0),
            curves=curves,
        )
