"""B4's hand-written floor: a checker written for B4's spec and its three trace shapes only.

``python benchmarks/_b4_floor.py TRACES`` judges every run as ``toolmatch check`` does
and prints the same ``PASS``/``FAIL`` lines and summary, but knows in advance which case
holds which shape and which tool, and does nothing else: no shape detection, no
``ToolCall``s, no matcher objects, no reasons. It is the least work in Python any checker
of this spec must do once a line is parsed, so ``toolmatch check`` cannot get below it.
It imports nothing from toolmatch.
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


_CASES: dict[str, Callable[[Any], bool]] = {
    "weather_lookup": _weather,
    "quarterly_report": _report,
    "book_flight": _flight,
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
