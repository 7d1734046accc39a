"""B4's hand-written floor: a checker written for B4's two specs and their six shapes only.

``python benchmarks/_b4_floor.py TRACES`` judges every run as ``toolmatch check`` does
and prints the same ``PASS``/``FAIL`` lines and summary, but knows in advance which case
holds which shape and which tool, and does nothing else: no shape detection, no
``ToolCall``s, no matcher objects, no reasons. It is the least work in Python any checker
of these specs must do once a line is parsed, so ``toolmatch check`` cannot get below it.
The first mix's cases (``SPEC`` in b4_cli.py) and the agent frameworks' (``AGENT_SPEC``
in _b4_agents.py) have names of their own, so one table serves both files. It imports
nothing from toolmatch.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any

_PERIOD = re.compile("2009-Q[1-4]").fullmatch
_SEAT = re.compile("[0-9]{1,2}[A-F]").fullmatch
_BOOKING = {"flight": "LH 401", "passengers": 2}


def _folded(text: object) -> str | None:
    """Fuzzy text: whitespace collapsed, case folded."""
    return " ".join(text.split()).casefold() if isinstance(text, str) else None


def _weather(turns: Any) -> bool:
    content = turns[0]["content"]
    calls = [(block["name"], block["input"]) for block in content if block["type"] == "tool_use"]
    weather = air = deleted = False
    for name, args in calls:
        if "get_weather" in name:
            weather = weather or (
                _folded(args.get("city")) == "new york"
                and args.get("days") == 3
                and args.get("units") in ("metric", "imperial")
            )
        if "get_air_quality" in name:
            air = air or _folded(args.get("city")) == "new york"
        deleted = deleted or "delete" in name
    return weather and air and not deleted


def _report(turns: Any) -> bool:
    choices = turns[0]["choices"]
    entries = choices[0]["message"]["tool_calls"]
    calls = [(entry["function"]["name"], entry["function"]["arguments"]) for entry in entries]
    financials, summaries = False, 0
    for name, raw in calls:
        args = json.loads(raw)  # every call's arguments are read, as toolmatch reads them
        if "fetch_financials" in name:
            revenue, period = args.get("revenue"), args.get("period")
            financials = financials or (
                isinstance(revenue, str)
                and revenue.replace(" ", "").replace(",", "") == "206588"
                and isinstance(period, str)
                and _PERIOD(period) is not None
            )
        if "summarize" in name:
            summaries += 1
    return financials and summaries <= 3


def _flight(turns: Any) -> bool:
    first, second = turns
    if not any("search_flights" in call["name"] for call in first):
        return False
    holds = [
        index
        for index, call in enumerate(second)
        if "hold_seat" in call["name"] and _SEAT(call["args"].get("seat", "")) is not None
    ]
    bookings = [
        index
        for index, call in enumerate(second)
        if "book_flight" in call["name"] and call["args"] == _BOOKING
    ]
    return bool(holds) and any(index > holds[0] for index in bookings)


_ORDER = re.compile("ord_[0-9]{4}").fullmatch
_FOUND = re.compile("found .*").fullmatch
_SUNNY = re.compile("Sunny.*").fullmatch
_HOTEL = re.compile("h_[0-9]+").fullmatch


def _near(value: object, expected: float) -> bool:
    """``$approx`` with its default tolerance: a number (never a bool) within 1e-6 of it."""
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and abs(value - expected) <= 1e-6 * abs(expected)
    )


def _matches(pattern: Callable[[str], object], value: object) -> bool:
    return isinstance(value, str) and pattern(value) is not None


def _refund(turns: Any) -> bool:
    """openai-agents items: ``function_call``s, their outputs paired by ``call_id``."""
    items = turns[0]
    outputs = {
        item["call_id"]: item["output"]
        for item in items
        if item.get("type") == "function_call_output"
    }
    looked = refunded = deleted = False
    for item in items:
        if item.get("type") != "function_call":
            continue
        name, args = item["name"], json.loads(item["arguments"])
        if "lookup_order" in name:
            looked = looked or (
                _matches(_ORDER, args.get("order_id"))
                and _matches(_FOUND, outputs.get(item["call_id"]))
            )
        if "refund" in name:
            refunded = refunded or (
                _near(args.get("amount"), 42.5) and args.get("currency") == "EUR"
            )
        deleted = deleted or "delete" in name
    return looked and refunded and not deleted


def _graph(turns: Any) -> bool:
    """LangGraph ``updates`` chunks: the AI messages' ``tool_calls``, the tool messages'
    contents and statuses paired by ``tool_call_id``."""
    calls, results = [], {}
    for chunk in turns[0]:
        for update in chunk.values():
            if not update:  # a node that updated nothing
                continue
            for message in update["messages"]:
                if message["type"] == "ai":
                    calls += message["tool_calls"]
                elif message["type"] == "tool":
                    results[message["tool_call_id"]] = message
    weather, forecasts = False, 0
    for call in calls:
        name, args = call["name"], call["args"]
        if "get_weather" in name and not weather:
            result = results.get(call["id"])
            weather = (
                _folded(args.get("city")) == "paris"
                and result is not None
                and _matches(_SUNNY, result["content"])
                and result["status"] != "error"
            )
        if "get_forecast" in name and _near(args.get("days"), 3):
            forecasts += 1
    return weather and forecasts >= 2


def _any_value(value: Any) -> Any:
    """An OTLP/JSON ``AnyValue`` as a plain value."""
    if "stringValue" in value:
        return value["stringValue"]
    if "intValue" in value:
        return int(value["intValue"])
    if "doubleValue" in value:
        return float(value["doubleValue"])
    if "boolValue" in value:
        return value["boolValue"]
    if "kvlistValue" in value:
        return {pair["key"]: _any_value(pair["value"]) for pair in value["kvlistValue"]["values"]}
    if "arrayValue" in value:
        return [_any_value(item) for item in value["arrayValue"]["values"]]
    return None


def _trip(turns: Any) -> bool:
    """OTLP/JSON exports: the GenAI ``execute_tool`` spans, by start time, in order."""
    spans = [
        span
        for export in turns[0]
        for resource in export["resourceSpans"]
        for scope in resource["scopeSpans"]
        for span in scope["spans"]
    ]
    spans.sort(key=lambda span: int(span["startTimeUnixNano"]))
    calls = []
    for span in spans:
        attributes = {pair["key"]: pair["value"] for pair in span["attributes"]}
        if attributes.get("gen_ai.operation.name") != {"stringValue": "execute_tool"}:
            continue
        name = _any_value(attributes["gen_ai.tool.name"])
        args = _any_value(
            attributes.get("gen_ai.tool.call.arguments", {"kvlistValue": {"values": []}})
        )
        calls.append((name, args, span.get("status", {}).get("code") == "STATUS_CODE_ERROR"))
    searches = [
        index
        for index, (name, args, _) in enumerate(calls)
        if "search_hotels" in name and _folded(args.get("city")) == "lisbon"
    ]
    bookings = [
        index
        for index, (name, args, failed) in enumerate(calls)
        if "book_hotel" in name
        and _matches(_HOTEL, args.get("hotel_id"))
        and args.get("nights") == 2
        and not failed
    ]
    return bool(searches) and any(index > searches[0] for index in bookings)


_CASES: dict[str, Callable[[Any], bool]] = {
    "weather_lookup": _weather,
    "quarterly_report": _report,
    "book_flight": _flight,
    "refund_order": _refund,
    "weather_graph": _graph,
    "trip_planner": _trip,
}


def main(path: str) -> int:
    passed = failed = 0
    out = sys.stdout
    with open(path, "rb") as file:
        for line in file:
            run = json.loads(line)
            name = run["case"]
            if _CASES[name](run["turns"]):
                passed += 1
                out.write(f"PASS {name}\n")
            else:
                failed += 1
                out.write(f"FAIL {name}\n")
    out.write(f"{passed} passed, {failed} failed\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
