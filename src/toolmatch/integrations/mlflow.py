"""toolmatch inside MLflow: ``toolmatch_scorer``, a scorer for ``mlflow.genai.evaluate``
judging a trace's tool calls (docs/integrations.md).

The calls are the trace's ``TOOL`` spans, each with its arguments and result, and the calls
its model spans asked for, as :func:`toolmatch.to_calls` reads an MLflow trace. Importing
this module imports MLflow: ``pip install 'toolmatch[mlflow]'``.

>>> check = toolmatch_scorer([{"name": "get_weather", "args": {"city": "Paris"}}])
>>> check.name
'toolmatch'
"""

from __future__ import annotations

from typing import Any

from mlflow.entities import Feedback, Trace
from mlflow.genai.scorers import Scorer, scorer

from toolmatch._readers.to_calls import to_calls
from toolmatch.integrations._common import load_case, run_verdict, spec_from

__all__ = ["EXPECTATIONS_KEY", "toolmatch_scorer"]

EXPECTATIONS_KEY = "toolmatch_spec"
"""The expectation holding a row's spec. MLflow keeps each expectation as an assessment
under its key, beside the feedbacks: one named ``toolmatch``, like the scorer's feedback,
would hide the feedback's column in the results table."""


def toolmatch_scorer(spec: object = None, *, name: str = "toolmatch") -> Scorer:
    """A scorer judging each trace's tool calls against ``spec``, or, without it, against
    the spec in the row's ``expectations["toolmatch_spec"]`` (:data:`EXPECTATIONS_KEY`);
    the whole trace is one turn.

    Each row gets two feedbacks: ``name``, whether the trace passed, with toolmatch's
    explanation (each argument's reason) as its rationale, and ``<name>_f1``, the f1 of the
    best pairing of expected with actual calls. A spec given here is loaded at once, so a
    bad one raises before any trace is scored.
    """
    case = None if spec is None else load_case(spec, name)

    def check(trace: Trace, expectations: dict[str, Any] | None = None) -> list[Feedback]:
        run_case = case
        if run_case is None:
            found = spec_from(
                None, expectations, "the row's expectations", EXPECTATIONS_KEY, "expectations"
            )
            run_case = load_case(found, name)
        verdict = run_verdict(run_case, [to_calls(trace)])
        return [
            Feedback(name=name, value=verdict.passed, rationale=verdict.explanation),
            Feedback(name=f"{name}_f1", value=verdict.f1),
        ]

    return scorer(check, name=name)
