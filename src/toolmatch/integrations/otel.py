"""OpenTelemetry: a run's verdict as a ``gen_ai.evaluation.result`` event on a span you hold
(docs/integrations.md), the attributes ``toolmatch check --otel-events`` writes
(docs/cli.md), the GenAI semantic conventions' event as open-telemetry/
semantic-conventions-genai describes it at commit 997a19c.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.evaluation_events import EVENT_NAME, evaluation_attributes
from toolmatch.integrations._common import load_case, run_verdict

if TYPE_CHECKING:
    from toolmatch._selection.results import TurnResult

__all__ = ["add_verdict_event"]


def add_verdict_event(
    span: object,
    spec: object,
    turns: Sequence[object],
    *,
    name: str = "toolmatch",
    response_id: str | None = None,
) -> list[TurnResult]:
    """Checks ``turns`` (one entry of calls per turn, anything :func:`toolmatch.to_calls`
    reads) against ``spec`` (one of the forms of docs/integrations.md) and adds the verdict
    to ``span`` as a ``gen_ai.evaluation.result`` event: ``name``, the run's f1 as the score's
    value, ``pass`` or ``fail`` as its label, the explanation toolmatch prints when it
    failed, ``response_id`` as ``gen_ai.response.id`` when given, and the case's name as
    ``toolmatch.case``. Returns the turns' results.

    ``span`` is a recording OpenTelemetry span (the SDK's, before ``end()``); one that
    records nothing raises, rather than dropping the verdict.

    >>> from opentelemetry.sdk.trace import TracerProvider
    >>> with TracerProvider().get_tracer("agent").start_as_current_span("chat") as span:
    ...     results = add_verdict_event(span, ["get_weather"], [[{"name": "get_weather"}]])
    >>> [event.attributes["gen_ai.evaluation.score.label"] for event in span.events]
    ['pass']
    """
    is_recording = getattr(span, "is_recording", None)
    if not callable(is_recording) or not callable(getattr(span, "add_event", None)):
        raise TypeError(
            "add_verdict_event takes an OpenTelemetry span (with is_recording and add_event), "
            f"got {short_repr(span)} ({type_name(span)})"
        )
    if not is_recording():
        raise ValueError(
            f"the span {short_repr(span)} records nothing (ended, or not sampled): add the "
            "verdict before span.end(), or write it to a file with toolmatch check "
            "--otel-events"
        )
    case = load_case(spec, name)
    verdict = run_verdict(case, turns)
    explanation = "" if verdict.passed else verdict.explanation
    attributes = evaluation_attributes(
        name, verdict.passed, verdict.f1, explanation, response_id, case.name
    )
    span.add_event(EVENT_NAME, attributes)  # type: ignore[attr-defined]
    return list(verdict.results)
