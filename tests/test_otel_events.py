"""Verdicts on traces: ``toolmatch check --otel-events PATH`` writes each run's verdict as an
OpenTelemetry ``gen_ai.evaluation.result`` event in an OTLP JSON file, checked here against
the OTel SDK's own encoding of the same events (docs/cli.md, "Verdicts as OpenTelemetry
events")."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from commands import jsonl, toolmatch

SPEC = """\
test_cases:
  - name: search
    expected_tools:
      - name: search
        args: {q: {fuzzy: "Paris"}}
  - name: refund
    turns:
      - expected_tools: [lookup_order]
      - expected_tools: [issue_refund]
"""

TRACE = "5b8aa5a2d2c872e8321cf37308d69df2"
SPAN = "051581bf3cb55c13"
SEARCH_OK = {
    "case": "search",
    "turns": [[{"name": "search", "args": {"q": "paris"}}]],
    "trace_id": TRACE,
    "span_id": SPAN,
}
SEARCH_BAD = {
    "case": "search",
    "turns": [[{"name": "search", "args": {"q": "rome"}}]],
    "response_id": "chatcmpl-7",
}
# turn 0 met, turn 1 has no call: half the run's score
REFUND_HALF = {"case": "refund", "turns": [[{"name": "lookup_order"}], []]}
SEARCH_EXPLANATION = (
    "turn 0, expected_tools[0]: ExpectedTool('search', {'q': Fuzzy('Paris')})\n"
    "  call 0: q: fuzzy 'Paris' does not match 'rome'"
)
REFUND_EXPLANATION = (
    "turn 1, expected_tools[0]: ExpectedTool('issue_refund')\n"
    "  expected 1 matching call(s), got 0: no call's name contains 'issue_refund': the turn "
    "has no calls"
)


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def _check(spec: Path, tmp_path: Path, *runs: object, args: tuple[str, ...] = ()) -> Any:
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(*runs), encoding="utf-8")
    events = tmp_path / "events.json"
    return toolmatch("check", spec, traces, "--otel-events", events, *args), events


def _records(events: Path) -> list[dict[str, Any]]:
    [request] = [json.loads(line) for line in events.read_text(encoding="utf-8").splitlines()]
    [resource] = request["resourceLogs"]
    [scope] = resource["scopeLogs"]
    assert scope["scope"]["name"] == "toolmatch"
    records: list[dict[str, Any]] = scope["logRecords"]
    return records


def _attributes(record: dict[str, Any]) -> dict[str, object]:
    return {each["key"]: next(iter(each["value"].values())) for each in record["attributes"]}


def test_each_run_is_an_event_with_its_score_label_and_explanation(
    spec: Path, tmp_path: Path
) -> None:
    result, events = _check(spec, tmp_path, SEARCH_OK, SEARCH_BAD, REFUND_HALF)
    assert result.returncode == 1, result.stderr
    records = _records(events)
    assert [record["eventName"] for record in records] == ["gen_ai.evaluation.result"] * 3
    assert [_attributes(record) for record in records] == [
        {
            "gen_ai.evaluation.name": "toolmatch",
            "gen_ai.evaluation.score.value": 1.0,
            "gen_ai.evaluation.score.label": "pass",
            "toolmatch.case": "search",
        },
        {
            "gen_ai.evaluation.name": "toolmatch",
            "gen_ai.evaluation.score.value": 0.0,
            "gen_ai.evaluation.score.label": "fail",
            "gen_ai.evaluation.explanation": SEARCH_EXPLANATION,
            "gen_ai.response.id": "chatcmpl-7",
            "toolmatch.case": "search",
        },
        {
            "gen_ai.evaluation.name": "toolmatch",
            "gen_ai.evaluation.score.value": 0.5,
            "gen_ai.evaluation.score.label": "fail",
            "gen_ai.evaluation.explanation": REFUND_EXPLANATION,
            "toolmatch.case": "refund",
        },
    ]
    # the explanation is the report's lines for the run, two spaces less indented
    assert REFUND_EXPLANATION.replace("\n", "\n  ") in result.stdout
    # parented to the span the record names; a record without ids has none
    assert (records[0]["traceId"], records[0]["spanId"]) == (TRACE, SPAN)
    assert records[1].keys().isdisjoint({"traceId", "spanId"})


def test_the_file_is_what_the_otel_sdk_encodes_for_the_same_events(
    spec: Path, tmp_path: Path
) -> None:
    """Parsed back as OTLP (hex ids, as OTLP JSON spells them, to protobuf's bytes), each log
    record equals the one the OTel SDK's logger and OTLP encoder make from the same event."""
    logs = pytest.importorskip("opentelemetry.sdk._logs")
    export = pytest.importorskip("opentelemetry.sdk._logs.export")
    encoder = pytest.importorskip("opentelemetry.exporter.otlp.proto.common._log_encoder")
    json_format = pytest.importorskip("google.protobuf.json_format")
    service = pytest.importorskip("opentelemetry.proto.collector.logs.v1.logs_service_pb2")
    from opentelemetry._logs import LogRecord

    result, events = _check(spec, tmp_path, SEARCH_OK, SEARCH_BAD)
    assert result.returncode == 1, result.stderr
    request = json.loads(events.read_text(encoding="utf-8"))
    records = request["resourceLogs"][0]["scopeLogs"][0]["logRecords"]
    for record in records:
        for key in ("traceId", "spanId"):
            if key in record:
                record[key] = base64.b64encode(bytes.fromhex(record[key])).decode()
    parsed = json_format.Parse(json.dumps(request), service.ExportLogsServiceRequest())

    exporter = export.InMemoryLogRecordExporter()
    provider = logs.LoggerProvider()
    provider.add_log_record_processor(export.SimpleLogRecordProcessor(exporter))
    logger = provider.get_logger("toolmatch", "0.1.0")
    for record in _records(events):
        ids = {
            name: int(record[key], 16)
            for name, key in (("trace_id", "traceId"), ("span_id", "spanId"))
            if key in record
        }
        logger.emit(
            LogRecord(
                timestamp=int(record["timeUnixNano"]),
                observed_timestamp=int(record["observedTimeUnixNano"]),
                event_name="gen_ai.evaluation.result",
                attributes=_attributes(record),
                **ids,
            )
        )
    expected = encoder.encode_logs(exporter.get_finished_logs())
    made = list(expected.resource_logs[0].scope_logs[0].log_records)
    for each in made:
        each.ClearField("body")  # the SDK sets an empty body; an event needs none
    assert list(parsed.resource_logs[0].scope_logs[0].log_records) == made
    assert parsed.resource_logs[0].scope_logs[0].scope.name == "toolmatch"


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        (
            {"trace_id": "xyz"},
            "trace_id must be the run's trace id as 32 hex digits, not all zero (an OTLP "
            "traceId), got 'xyz' (str)",
        ),
        (
            {"trace_id": "0" * 32},
            "trace_id must be the run's trace id as 32 hex digits, not all zero (an OTLP "
            f"traceId), got {'0' * 32!r} (str)",
        ),
        (
            {"trace_id": TRACE, "span_id": 5},
            "span_id must be the run's span id as 16 hex digits, not all zero (an OTLP "
            "spanId), got 5 (int)",
        ),
        (
            {"span_id": SPAN},
            "span_id names a span of the run's trace: give its trace_id with it",
        ),
        (
            {"response_id": ""},
            "response_id must be the evaluated response's id as text (gen_ai.response.id), "
            "got '' (str)",
        ),
    ],
)
def test_an_id_that_cannot_be_one_is_the_runs_error(
    spec: Path, tmp_path: Path, ids: dict[str, object], message: str
) -> None:
    run = {**SEARCH_BAD, "response_id": None, **ids}
    result, events = _check(spec, tmp_path, run)
    assert result.returncode == 1
    assert f"ERROR {tmp_path / 'traces.jsonl'}:1: {message}\n" in result.stdout
    assert _records(events) == []  # a run that cannot be checked has no verdict


def test_the_sdks_spelling_of_ids_and_an_envelope(spec: Path, tmp_path: Path) -> None:
    """``0x``-prefixed ids in capitals (the OTel SDK's ``to_json``), read beside a case and
    turns found elsewhere in the record (--case-key, --turns-key)."""
    run = {
        "task": {"id": "search"},
        "calls": [{"name": "search", "args": {"q": "paris"}}],
        "trace_id": "0x" + TRACE.upper(),
        "span_id": "0x" + SPAN,
    }
    result, events = _check(
        spec,
        tmp_path,
        run,
        args=("--case-key", "task.id", "--turns-key", "calls", "--one-turn"),
    )
    assert result.returncode == 1, result.stderr  # refund has no run
    [record] = _records(events)
    assert (record["traceId"], record["spanId"]) == (TRACE, SPAN)


def test_with_json_output_and_jobs_each_run_has_its_event(spec: Path, tmp_path: Path) -> None:
    runs = [SEARCH_OK, SEARCH_BAD] * 30
    result, events = _check(spec, tmp_path, *runs, args=("--format", "json", "--jobs", "2"))
    assert result.returncode == 1, result.stderr
    labels = [_attributes(record)["gen_ai.evaluation.score.label"] for record in _records(events)]
    assert labels == ["pass", "fail"] * 30
    assert json.loads(result.stdout.splitlines()[0])["passed"] is True


def test_without_the_flag_ids_are_not_read(spec: Path, tmp_path: Path) -> None:
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl({**SEARCH_OK, "trace_id": "xyz"}), encoding="utf-8")
    result = toolmatch("check", spec, traces)
    assert result.stdout.startswith("PASS search\n")


def test_the_events_file_is_never_an_input_or_the_junit_report(spec: Path, tmp_path: Path) -> None:
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(SEARCH_OK), encoding="utf-8")
    same = toolmatch("check", spec, traces, "--otel-events", traces)
    assert (same.returncode, same.stderr) == (
        2,
        f"toolmatch: cannot write {traces}: it is the traces file\n",
    )
    report = tmp_path / "report.xml"
    both = toolmatch("check", spec, traces, "--junit-xml", report, "--otel-events", report)
    assert (both.returncode, both.stderr) == (
        2,
        f"toolmatch: cannot write {report}: it is the JUnit report's file\n",
    )
    assert not report.exists()


def test_an_events_file_that_cannot_be_written(spec: Path, tmp_path: Path) -> None:
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(SEARCH_OK), encoding="utf-8")
    path = tmp_path / "missing" / "events.json"
    result = toolmatch("check", spec, traces, "--otel-events", path)
    assert result.returncode == 2
    assert result.stderr == f"toolmatch: cannot write {path}: No such file or directory\n"


def test_a_verdict_on_a_span_the_user_holds() -> None:
    """``toolmatch.integrations.otel.add_verdict_event``: the SDK's span gets the event, and
    its OTLP export (the SDK's encoder, as a collector receives it) holds it."""
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export")
    in_memory = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    encoder = pytest.importorskip("opentelemetry.exporter.otlp.proto.common.trace_encoder")
    from toolmatch.integrations.otel import add_verdict_event

    exporter = in_memory.InMemorySpanExporter()
    provider = sdk.TracerProvider()
    provider.add_span_processor(export.SimpleSpanProcessor(exporter))
    spec = [{"name": "search", "args": {"q": {"fuzzy": "Paris"}}}]
    with provider.get_tracer("agent").start_as_current_span("chat") as span:
        results = add_verdict_event(
            span, spec, [[{"name": "search", "args": {"q": "rome"}}]], response_id="chatcmpl-7"
        )
    assert [result.passed for result in results] == [False]
    [finished] = exporter.get_finished_spans()
    [event] = finished.events
    assert event.name == "gen_ai.evaluation.result"
    attributes = dict(event.attributes)
    explanation = attributes.pop("gen_ai.evaluation.explanation")
    assert attributes == {
        "gen_ai.evaluation.name": "toolmatch",
        "gen_ai.evaluation.score.value": 0.0,
        "gen_ai.evaluation.score.label": "fail",
        "gen_ai.response.id": "chatcmpl-7",
        "toolmatch.case": "toolmatch",
    }
    assert explanation == str(results[0])
    assert "q: fuzzy 'Paris' does not match 'rome'" in explanation
    [exported] = encoder.encode_spans([finished]).resource_spans[0].scope_spans[0].spans[0].events
    assert exported.name == "gen_ai.evaluation.result"


def test_a_passing_verdict_has_no_explanation_and_an_ended_span_is_refused() -> None:
    sdk = pytest.importorskip("opentelemetry.sdk.trace")
    from toolmatch.integrations.otel import add_verdict_event

    span = sdk.TracerProvider().get_tracer("agent").start_span("chat")
    add_verdict_event(span, ["search"], [[{"name": "search"}]], name="tools")
    [event] = span.events
    assert dict(event.attributes) == {
        "gen_ai.evaluation.name": "tools",
        "gen_ai.evaluation.score.value": 1.0,
        "gen_ai.evaluation.score.label": "pass",
        "toolmatch.case": "tools",
    }
    span.end()
    with pytest.raises(ValueError, match=r"records nothing") as error:
        add_verdict_event(span, ["search"], [[{"name": "search"}]])
    assert str(error.value).endswith(
        "records nothing (ended, or not sampled): add the verdict before span.end(), or write "
        "it to a file with toolmatch check --otel-events"
    )
    with pytest.raises(TypeError) as refused:
        add_verdict_event({"name": "chat"}, ["search"], [[]])
    assert str(refused.value) == (
        "add_verdict_event takes an OpenTelemetry span (with is_recording and add_event), got "
        "{'name': 'chat'} (dict)"
    )
