"""Langfuse: an evaluator for ``run_experiment(..., evaluators=[...])`` and
``run_batched_evaluation`` (docs/integrations.md).

The evaluator reads the ``output`` it is given as the run's calls, one turn: a trace's
observations as Langfuse's API returns them (``ObservationV2`` objects, their JSON, a page
of them), read by :func:`toolmatch.to_calls` as docs/formats.md describes, or anything else
it reads (messages, a response). The spec is the one given, else the item's
``metadata["toolmatch"]``. It returns two Langfuse ``Evaluation`` objects: NAME, a boolean
score (1 passed, 0 failed) whose comment is the explanation toolmatch prints, and NAME_f1,
the run's f1.
"""

from __future__ import annotations

from collections.abc import Callable

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch.integrations._common import load_case, run_verdict, spec_from

if TYPE_CHECKING:
    from typing import Any

__all__ = ["toolmatch_evaluator"]


def toolmatch_evaluator(spec: object = None, *, name: str = "toolmatch") -> Callable[..., Any]:
    """A Langfuse evaluator: checks each item's ``output`` against ``spec`` (one of the forms
    of docs/integrations.md), or against the spec in the item's ``metadata["toolmatch"]``;
    returns ``[Evaluation(name, 1 or 0, comment=explanation, data_type="BOOLEAN"),
    Evaluation(name + "_f1", f1, data_type="NUMERIC")]``. A spec given is loaded at once.

    >>> evaluator = toolmatch_evaluator(["get_weather"])
    >>> evaluator.__name__
    'toolmatch'
    """
    given = None if spec is None else load_case(spec, name)

    # Langfuse passes input and expected_output by name too: they go to kwargs, unread.
    def evaluate(*, output: object = None, metadata: object = None, **kwargs: object) -> list[Any]:
        from langfuse import Evaluation

        case = given or load_case(spec_from(None, metadata, "the item's metadata"), name)
        verdict = run_verdict(case, [output])
        return [
            Evaluation(
                name=name, value=verdict.score, comment=verdict.explanation, data_type="BOOLEAN"
            ),
            Evaluation(name=f"{name}_f1", value=verdict.f1, data_type="NUMERIC"),
        ]

    evaluate.__name__ = evaluate.__qualname__ = name
    return evaluate
