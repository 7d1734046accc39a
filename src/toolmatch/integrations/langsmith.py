"""toolmatch inside LangSmith: ``toolmatch_evaluator`` for ``langsmith.evaluate``, and
``assert_tool_calls`` for tests run by LangSmith's pytest plugin, which logs toolmatch's
verdict as the test's feedback beside the assertion (docs/integrations.md).

Importing this module imports LangSmith: ``pip install 'toolmatch[langsmith]'``.

>>> evaluator = toolmatch_evaluator([{"name": "get_weather", "args": {"city": "Paris"}}])
>>> messages = [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
...     "function": {"name": "get_weather", "arguments": '{"city": "Lyon"}'}}]}]
>>> passed, f1 = evaluator({"messages": messages}, {})["results"]
>>> passed["key"], passed["score"], f1["key"], f1["score"]
('toolmatch', False, 'toolmatch_f1', 0.0)
>>> print(passed["comment"].splitlines()[-1])
    call 0 get_weather({'city': 'Lyon'}): city: expected 'Paris', got 'Lyon'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from langsmith import testing

from toolmatch._core.describe import short_repr, type_name
from toolmatch._readers.to_calls import to_calls
from toolmatch.integrations._common import load_case, run_verdict, spec_from

__all__ = ["assert_tool_calls", "toolmatch_evaluator"]


def toolmatch_evaluator(
    spec: object = None, *, key: str = "toolmatch", calls_key: str | None = None
) -> Callable[[dict[str, Any], dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    """An evaluator for ``langsmith.evaluate``: each run's tool calls against ``spec``,
    or, without it, against the example's ``reference_outputs["toolmatch"]``.

    The calls are read by :func:`toolmatch.to_calls` from the run's ``outputs`` (a LangGraph
    state's ``messages``, say), or from ``outputs[calls_key]``; the run is one turn. Two
    feedbacks come back: ``key``, whether the run passed, with toolmatch's explanation as
    its comment, and ``<key>_f1``. A spec given here is loaded at once.
    """
    case = None if spec is None else load_case(spec, key)

    def toolmatch(outputs: dict[str, Any], reference_outputs: dict[str, Any]) -> dict[str, Any]:
        run_case = case
        if run_case is None:
            found = spec_from(
                None,
                reference_outputs,
                "the example's reference_outputs",
                field="reference_outputs",
            )
            run_case = load_case(found, key)
        source: object = outputs
        if calls_key is not None:
            if not isinstance(outputs, Mapping) or calls_key not in outputs:
                raise KeyError(
                    f"the run's outputs have no {calls_key!r} (calls_key): got "
                    f"{short_repr(outputs)} ({type_name(outputs)})"
                )
            source = outputs[calls_key]
        verdict = run_verdict(run_case, [to_calls(source)])
        return {
            "results": [
                {"key": key, "score": verdict.passed, "comment": verdict.explanation},
                {"key": f"{key}_f1", "score": verdict.f1},
            ]
        }

    toolmatch.__name__ = key  # LangSmith names an evaluator's run after its function
    return toolmatch


def assert_tool_calls(spec: object, calls: object, *, key: str = "toolmatch") -> None:
    """Judge ``calls`` (anything :func:`toolmatch.to_calls` reads: one turn) against
    ``spec`` inside a ``@pytest.mark.langsmith`` test: log the verdict as the test's feedback
    ``key`` (1 or 0) and ``<key>_f1``, then raise ``AssertionError`` with toolmatch's
    explanation if it failed. Outside a LangSmith test, ``log_feedback`` raises."""
    verdict = run_verdict(load_case(spec, key), [to_calls(calls)])
    testing.log_feedback(key=key, score=verdict.score)
    testing.log_feedback(key=f"{key}_f1", score=verdict.f1)
    if not verdict.passed:
        raise AssertionError(verdict.explanation)
