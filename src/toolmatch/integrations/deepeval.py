"""toolmatch inside deepeval: ``ToolmatchMetric``, a metric judging a test case's
``tools_called`` (docs/integrations.md).

Importing this module imports deepeval: ``pip install 'toolmatch[deepeval]'``.

>>> from deepeval.test_case import LLMTestCase, ToolCall
>>> metric = ToolmatchMetric([{"name": "get_weather", "args": {"city": "Paris"}}])
>>> case = LLMTestCase(input="Weather?", actual_output="sunny",
...     tools_called=[ToolCall(name="get_weather", input_parameters={"city": "Lyon"})])
>>> metric.measure(case), metric.is_successful()
(0.0, False)
>>> print(metric.reason.splitlines()[-1])
    call 0 get_weather({'city': 'Lyon'}): city: expected 'Paris', got 'Lyon'
"""

from __future__ import annotations

from typing import Any

from deepeval.metrics import BaseMetric
from deepeval.test_case import LLMTestCase, SingleTurnParams

from toolmatch._readers.to_calls import to_calls
from toolmatch.integrations._common import load_case, run_verdict

__all__ = ["ToolmatchMetric"]


class ToolmatchMetric(BaseMetric):
    """A deepeval metric: a test case's ``tools_called`` (the whole case one turn) against a
    toolmatch ``spec``, loaded at once.

    ``score`` is 1.0 when the calls pass, else 0.0 (``score_as="pass"``), or the f1 of the
    best pairing of expected with actual calls (``score_as="f1"``); the metric succeeds when
    the score reaches ``threshold`` (1.0: only a pass succeeds). ``reason`` is toolmatch's
    explanation, each argument's reason; ``score_breakdown`` holds both numbers.
    """

    # deepeval annotates this list as the type list[SingleTurnParams] itself
    _required_params = [SingleTurnParams.TOOLS_CALLED]  # type: ignore[assignment]  # noqa: RUF012

    def __init__(
        self, spec: object, threshold: float = 1.0, score_as: str = "pass", name: str = "toolmatch"
    ) -> None:
        if score_as not in ("pass", "f1"):
            raise ValueError(f"ToolmatchMetric: score_as must be 'pass' or 'f1', got {score_as!r}")
        self.case = load_case(spec, name)
        self.threshold = threshold
        self.score_as = score_as
        self.name = name
        self.include_reason = True
        self.async_mode = False
        self.strict_mode = False

    def measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """Judge ``test_case`` and set ``score``, ``reason``, ``success``."""
        verdict = run_verdict(self.case, [to_calls(test_case)])
        score = verdict.score if self.score_as == "pass" else verdict.f1
        self.score = score
        self.score_breakdown = {"passed": verdict.passed, "f1": verdict.f1}
        self.reason = verdict.explanation
        self.success = self.threshold is not None and score >= self.threshold
        return score

    async def a_measure(self, test_case: LLMTestCase, *args: Any, **kwargs: Any) -> float:
        """:meth:`measure`: checking calls waits for nothing."""
        return self.measure(test_case)

    def is_successful(self) -> bool:
        """Whether the last measured case reached the threshold."""
        return bool(self.success)

    @property
    def __name__(self) -> str:
        return self.name
