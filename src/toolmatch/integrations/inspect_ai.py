"""toolmatch inside inspect_ai: ``toolmatch_scorer``, a scorer of a sample's tool calls
(docs/integrations.md).

The calls are read from the sample's transcript (its tool and model events), not from
``state.messages``: a solver that compacts or truncates the history loses none of them.
Over epochs, inspect_ai's own ``pass_k(k)`` reducer gives pass^k of its scores, the
estimator :func:`toolmatch.pass_hat_k` computes. Importing this module imports inspect_ai:
``pip install 'toolmatch[inspect-ai]'``.

>>> from inspect_ai.scorer import Scorer
>>> isinstance(toolmatch_scorer(["get_weather"]), Scorer)
True
"""

from __future__ import annotations

from inspect_ai.log import transcript
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Scorer, Target, accuracy, scorer
from inspect_ai.solver import TaskState

from toolmatch._readers.to_calls import to_calls
from toolmatch.integrations._common import load_case, run_verdict, spec_from

__all__ = ["toolmatch_scorer"]


@scorer(metrics=[accuracy()], name="toolmatch")
def toolmatch_scorer(spec: object = None) -> Scorer:
    """A scorer judging each sample's tool calls against ``spec``, or, without it, against
    the sample's ``metadata["toolmatch"]``; the sample's run is one turn.

    Its ``Score`` is ``CORRECT`` or ``INCORRECT``, with toolmatch's explanation (each
    argument's reason) as its ``explanation`` and the f1 of the best pairing of expected
    with actual calls in its ``metadata["f1"]``. A spec given here is loaded at once.
    """
    case = None if spec is None else load_case(spec, "toolmatch")

    async def score(state: TaskState, target: Target) -> Score:
        run_case = case
        if run_case is None:
            where = f"sample {state.sample_id!r}'s metadata"
            run_case = load_case(spec_from(None, state.metadata, where), str(state.sample_id))
        verdict = run_verdict(run_case, [to_calls(transcript())])
        return Score(
            value=CORRECT if verdict.passed else INCORRECT,
            explanation=verdict.explanation,
            metadata={"f1": verdict.f1},
        )

    return score
