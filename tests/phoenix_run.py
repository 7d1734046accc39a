"""The trace stores' run (``trace_store_runs.openinference_spans``) as Arize Phoenix keeps
it: its OpenTelemetry spans sent as OTLP, decoded by Phoenix's own collector code
(``phoenix.trace.otel.decode_otlp_span``), and written by Phoenix as its span JSON
(``span_to_json``) and as the records of its spans dataframe (``TraceDataset``'s, one row a
span, its attributes in columns ``attributes.<name>``); and the records of the spans
dataframe Phoenix's client reads back from a Phoenix server the run was sent to.
``tests/data/phoenix/`` holds the three: ``python tests/phoenix_run.py [URL]`` writes them
again, where arize-phoenix is installed (it cannot be beside the dev extra: it needs other
anthropic and google-genai versions)."""

from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "phoenix"


def write() -> None:
    """Phoenix's span JSON (one span a line) and its spans dataframe's records."""
    from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
    from phoenix.trace.otel import decode_otlp_span
    from phoenix.trace.span_json_encoder import spans_to_jsonl
    from phoenix.trace.trace_dataset import TraceDataset

    from trace_store_runs import openinference_spans

    request = encode_spans(openinference_spans())
    spans = [
        decode_otlp_span(span)
        for resource in request.resource_spans
        for scope in resource.scope_spans
        for span in scope.spans
    ]
    DATA.mkdir(parents=True, exist_ok=True)
    (DATA / "spans.jsonl").write_text(spans_to_jsonl(spans) + "\n", encoding="utf-8")
    # the dataframe's records (TraceDataset.save's Parquet cannot hold this run: pyarrow
    # refuses the empty struct of get_weather's schema)
    frame = TraceDataset.from_spans(spans).dataframe
    records = json.loads(frame.to_json(orient="records", date_format="iso"))
    text = json.dumps(records, indent=1) + "\n"
    (DATA / "spans_dataframe.json").write_text(text, encoding="utf-8")


def write_served(url: str) -> None:
    """The run sent to the Phoenix server at ``url`` (``phoenix serve``) by the OTLP
    exporter, and read back by Phoenix's client: its spans dataframe's records."""
    import time

    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from phoenix.client import Client

    from trace_store_runs import openinference_spans

    OTLPSpanExporter(endpoint=f"{url}/v1/traces").export(openinference_spans())
    time.sleep(3)  # the server writes what it received in the background
    frame = Client(base_url=url).spans.get_spans_dataframe(project_identifier="default")
    records = json.loads(frame.to_json(orient="records", date_format="iso"))
    text = json.dumps(records, indent=1) + "\n"
    (DATA / "served_spans_dataframe.json").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    import sys

    write()
    if len(sys.argv) > 1:  # the URL of a Phoenix server of no other spans
        write_served(sys.argv[1])
