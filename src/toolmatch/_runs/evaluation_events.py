"""A run's verdict as an OpenTelemetry ``gen_ai.evaluation.result`` event: its attributes
(:func:`evaluation_attributes`, shared by ``toolmatch check --otel-events`` and
``toolmatch.integrations.otel``), the ids of the run it is about (:func:`run_ids`, read
from a trace record), and the event as an OTLP JSON log record (:func:`log_record_json`).

The attributes follow the GenAI semantic conventions' event as
open-telemetry/semantic-conventions-genai describes it at commit 997a19c
(docs/gen-ai/gen-ai-events.md; the conventions have no tagged release): docs/cli.md.
"""

from __future__ import annotations

import json

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.envelope import RecordError

if TYPE_CHECKING:
    from collections.abc import Mapping

    # A run's trace id, span id and response id, each None when the record has none.
    RunIds = tuple[str | None, str | None, str | None]

__all__ = [
    "EVENT_NAME",
    "FAIL_LABEL",
    "NOT_EVALUABLE_LABEL",
    "PASS_LABEL",
    "evaluation_attributes",
    "log_record_json",
    "logs_request_head",
    "run_ids",
]

EVENT_NAME = "gen_ai.evaluation.result"
PASS_LABEL, FAIL_LABEL = "pass", "fail"
NOT_EVALUABLE_LABEL = "not_evaluable"  # a run that cannot be judged: no score

_HEX = frozenset("0123456789abcdef")
_NO_IDS: RunIds = (None, None, None)


def evaluation_attributes(
    name: str,
    passed: bool | None,
    score: float | None,
    explanation: str,
    response_id: str | None = None,
    case: str | None = None,
) -> dict[str, str | float]:
    """The event's attributes: the evaluation's ``name``, the score's value (``score``, the
    mean of the turns' f1; left out when ``None``) and label (``pass`` or ``fail``;
    ``not_evaluable`` when ``passed`` is ``None``: a run that cannot be judged), the
    ``explanation`` (left out when empty: a run that passed), the evaluated response's id
    and the case's name (a toolmatch attribute) when known.

    >>> evaluation_attributes("toolmatch", False, 0.5, "turn 1: no call", None, "refund")
    ... # doctest: +NORMALIZE_WHITESPACE
    {'gen_ai.evaluation.name': 'toolmatch', 'gen_ai.evaluation.score.value': 0.5,
     'gen_ai.evaluation.score.label': 'fail', 'gen_ai.evaluation.explanation': 'turn 1: no call',
     'toolmatch.case': 'refund'}
    """
    attributes: dict[str, str | float] = {"gen_ai.evaluation.name": name}
    if score is not None:
        attributes["gen_ai.evaluation.score.value"] = float(score)
    label = NOT_EVALUABLE_LABEL if passed is None else PASS_LABEL if passed else FAIL_LABEL
    attributes["gen_ai.evaluation.score.label"] = label
    if explanation:
        attributes["gen_ai.evaluation.explanation"] = explanation
    if response_id is not None:
        attributes["gen_ai.response.id"] = response_id
    if case is not None:
        attributes["toolmatch.case"] = case
    return attributes


def _hex_id(record: Mapping[str, object], key: str, digits: int, what: str) -> str | None:
    """The id at ``key`` in lowercase hex (OTLP JSON's spelling), ``0x`` dropped; None when
    the record has none."""
    value = record.get(key)
    if value is None:
        return None
    text = value.lower() if isinstance(value, str) else None
    if text is not None and text.startswith("0x"):  # the OTel SDK's to_json() spelling
        text = text[2:]
    if text is None or len(text) != digits or not _HEX.issuperset(text) or not text.strip("0"):
        raise RecordError(
            f"{key} must be the run's {what} as {digits} hex digits, not all zero (an OTLP "
            f"{what.replace(' id', 'Id')}), got {short_repr(value)} ({type_name(value)})"
        )
    return text


def run_ids(record: object) -> RunIds:
    """The ids a trace record gives for its run's event: ``trace_id`` and ``span_id`` (hex,
    the span the event is parented to) and ``response_id`` (``gen_ai.response.id``).

    Raises :class:`RecordError` for an id that cannot be one, naming the field.

    >>> run_ids({"case": "refund", "turns": [], "trace_id": "0x5B8AA5A2D2C872E8321CF37308D69DF2"})
    ('5b8aa5a2d2c872e8321cf37308d69df2', None, None)
    """
    if not isinstance(record, dict) or not (record.keys() & {"trace_id", "span_id", "response_id"}):
        return _NO_IDS
    trace = _hex_id(record, "trace_id", 32, "trace id")
    span = _hex_id(record, "span_id", 16, "span id")
    if span is not None and trace is None:
        raise RecordError("span_id names a span of the run's trace: give its trace_id with it")
    response = record.get("response_id")
    if response is not None and (not isinstance(response, str) or not response):
        raise RecordError(
            "response_id must be the evaluated response's id as text (gen_ai.response.id), "
            f"got {short_repr(response)} ({type_name(response)})"
        )
    return trace, span, response


def _any_value(value: str | float) -> dict[str, str | float]:
    return {"stringValue": value} if isinstance(value, str) else {"doubleValue": value}


def log_record_json(attributes: Mapping[str, str | float], ids: RunIds, time_ns: int) -> str:
    """The event as a log record of OTLP JSON (``eventName``, ``attributes``, the trace and
    span ids in hex when known), made at ``time_ns``.

    >>> log_record_json({"gen_ai.evaluation.name": "toolmatch"}, (None, None, None), 7)
    ... # doctest: +NORMALIZE_WHITESPACE
    '{"timeUnixNano": "7", "observedTimeUnixNano": "7", "eventName": "gen_ai.evaluation.result",
      "attributes": [{"key": "gen_ai.evaluation.name", "value": {"stringValue": "toolmatch"}}]}'
    """
    trace, span, _ = ids
    record: dict[str, object] = {
        # 64-bit integers are strings in OTLP JSON
        "timeUnixNano": str(time_ns),
        "observedTimeUnixNano": str(time_ns),
        "eventName": EVENT_NAME,
        "attributes": [
            {"key": key, "value": _any_value(value)} for key, value in attributes.items()
        ],
    }
    if trace is not None:
        record["traceId"] = trace
    if span is not None:
        record["spanId"] = span
    return json.dumps(record, ensure_ascii=False)


def logs_request_head(version: str) -> tuple[str, str]:
    """The text of an OTLP JSON logs request before its log records, and after them: one
    resource (``service.name`` toolmatch) and one scope (toolmatch and its ``version``).

    >>> head, tail = logs_request_head("1.0")
    >>> json.loads(head + tail)["resourceLogs"][0]["scopeLogs"][0]["scope"]
    {'name': 'toolmatch', 'version': '1.0'}
    """
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": "toolmatch"}}]}
    scope = {"name": "toolmatch", "version": version}
    head = (
        f'{{"resourceLogs": [{{"resource": {json.dumps(resource)}, "scopeLogs": '
        f'[{{"scope": {json.dumps(scope)}, "logRecords": ['
    )
    return head, "]}]}]}"
