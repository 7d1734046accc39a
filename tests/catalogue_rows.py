"""The catalogue matchers as a spec file spells them (docs/config.md's matcher table), each
with values it matches and values it refuses."""

from __future__ import annotations

import datetime
import uuid

TODAY = datetime.date.today().isoformat()
WEEK_AWAY = (datetime.date.today() + datetime.timedelta(days=7)).isoformat()

ROWS = [
    ("{$gt: 0}", [1, 0.5], [0, True, "1"]),
    ("{$ge: 1}", [1, 2.5], [0.9]),
    ("{$lt: 100}", [99], [100]),
    ("{$le: 50}", [50], [51]),
    ("{$between: [1, 50]}", [1, 50, 20.5], [0, 51, "20"]),
    ("{$between: [1, 50], inclusive: false}", [2], [1, 50]),
    (
        '{$datetime: {near: "2026-12-01T10:00:00Z", within: PT1H}}',
        ["2026-12-01T10:30:00Z", "2026-12-01T11:30:00+01:00"],
        ["2026-12-01T12:00:00Z", "next tuesday"],
    ),
    ("{$datetime: true}", ["2026-12-01T10:00:00"], ["2026-12-01", 3]),
    ("{$date: {near: today, within_days: 1}}", [TODAY], [WEEK_AWAY, "soon"]),
    ("{$date: true}", ["2026-02-28"], ["2026-02-30"]),
    ("{$unordered: [a@x.io, {regex: 'b.*'}]}", [["bob@x.io", "a@x.io"]], [["a@x.io"], "ab"]),
    ("{$contains_all: [a, b]}", [["c", "b", "a"]], [["a"]]),
    ("{$each: {$gt: 0}}", [[1, 2], []], [[1, -2]]),
    ("{$len: 3}", [[1, 2, 3], "abc"], [[1]]),
    ("{$len: {$between: [1, 3]}}", [["a"], "ab"], [[]]),
    ('{$starts_with: "weather in"}', ["weather in Paris"], ["Paris weather"]),
    ("{$ends_with: .pdf, case_insensitive: true}", ["report.PDF"], ["report.doc"]),
    ("{$uuid: true}", [str(uuid.uuid4())], ["1234"]),
    ("{$uuid: 4}", [str(uuid.uuid4())], [str(uuid.uuid1())]),
    ("{$email: true}", ["ada@example.com"], ["ada"]),
    (
        "{$url: {scheme: https, host: example.com}}",
        ["https://example.com/a"],
        ["http://example.com/a", "https://example.org"],
    ),
    ("{$url: {host: {$ends_with: .example.com}}}", ["https://api.example.com"], ["https://x.io"]),
    ("{$json: {status: open}}", ['{"status": "open"}'], ['{"status": "closed"}', "{"]),
    ("{$conforms_to: {type: integer, minimum: 1}}", [3], [0, "3"]),
]
