"""Braintrust: a scorer for ``Eval(..., scores=[toolmatch_scorer()])`` (docs/integrations.md).

The scorer reads the task's output as the run's calls (anything :func:`toolmatch.to_calls`
reads: messages, a response, ``ToolCall`` objects), one turn; a case of several turns takes
a list with one entry of calls per turn. The spec is the one given, else the case's
``metadata["toolmatch"]``. It returns two Braintrust ``Score`` objects: NAME, 1 when the run
passed and 0 when it failed, with the explanation toolmatch prints (each expectation with
its per-argument reasons) in its metadata, and NAME_f1, the run's f1.
"""

from __future__ import annotations

from collections.abc import Callable

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch.integrations._common import load_case, run_verdict, spec_from

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._selection.case import TestCase

__all__ = ["run_turns", "toolmatch_scorer"]


def run_turns(case: TestCase, output: object) -> list[object]:
    """The run's turns in a task's ``output``: the output itself as the one turn of a case
    of one turn; the output's entries, one a turn, for a case of several.

    >>> from toolmatch import load_test_cases
    >>> [case] = load_test_cases({"test_cases": [{"name": "a", "expected_tools": ["search"]}]})
    >>> run_turns(case, [{"name": "search"}])
    [[{'name': 'search'}]]
    """
    cases = case.alternatives or (case,)
    if all(len(each.turns) == 1 for each in cases):
        return [output]
    if isinstance(output, (list, tuple)):
        return list(output)
    turns = max(len(each.turns) for each in cases)
    raise TypeError(
        f"the case {case.name!r} expects {turns} turns: the task's output must be a list with "
        f"one entry of calls per turn, got {short_repr(output)} ({type_name(output)})"
    )


def toolmatch_scorer(spec: object = None, *, name: str = "toolmatch") -> Callable[..., Any]:
    """A Braintrust scorer: checks each case's output against ``spec`` (one of the forms of
    docs/integrations.md), or against the spec in the case's ``metadata["toolmatch"]``;
    returns ``[Score(name, 1.0 or 0.0, metadata={"explanation": ...}),
    Score(name + "_f1", f1)]``. A spec given is loaded at once, so a bad one fails here.

    >>> scorer = toolmatch_scorer([{"name": "get_weather", "args": {"city": "Paris"}}])
    >>> scorer.__name__
    'toolmatch'
    """
    given = None if spec is None else load_case(spec, name)

    # Braintrust passes input, expected, trace, ... by name too: they go to kwargs, unread.
    def score(output: object = None, metadata: object = None, **kwargs: object) -> list[Any]:
        from braintrust import Score

        case = given or load_case(spec_from(None, metadata, "the case's metadata"), name)
        verdict = run_verdict(case, run_turns(case, output))
        explanation = {"explanation": verdict.explanation}
        return [
            Score(name=name, score=verdict.score, metadata=explanation),
            Score(name=f"{name}_f1", score=verdict.f1),
        ]

    score.__name__ = score.__qualname__ = name
    return score
