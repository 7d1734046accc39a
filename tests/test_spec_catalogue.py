"""Spec-file spellings of the catalogue matchers (docs/config.md's matcher table), loaded
from YAML and compared with real values: each key matches what its row says and refuses
what its row refuses."""

from __future__ import annotations

import datetime
import uuid

import pytest

from toolmatch import ConfigError, load_test_cases, matcher_from_config

yaml = pytest.importorskip("yaml")

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


@pytest.mark.parametrize(("text", "matching", "refused"), ROWS, ids=[row[0] for row in ROWS])
def test_each_catalogue_key_matches_what_its_row_says(
    text: str, matching: list[object], refused: list[object]
) -> None:
    matcher = matcher_from_config(yaml.safe_load(text))
    for value in matching:
        assert matcher == value, (text, value)
    for value in refused:
        assert matcher != value, (text, value)


def test_catalogue_keys_nest_inside_data_and_args() -> None:
    [case] = load_test_cases(
        yaml.safe_load(
            """
test_cases:
  - name: book
    expected_tools:
      - name: book_flight
        args:
          passengers: {$between: [1, 9]}
          recipients: {$unordered: [a@x.io, b@x.io]}
          filters: {$json: {status: open, limit: {$le: 50}}}
"""
        )
    )
    good = {
        "passengers": 2,
        "recipients": ["b@x.io", "a@x.io"],
        "filters": '{"status": "open", "limit": 20}',
    }
    bad = {**good, "filters": '{"status": "open", "limit": 80}'}
    assert case.check([[{"name": "book_flight", "args": good}]])[0].passed
    [result] = case.check([[{"name": "book_flight", "args": bad}]])
    assert not result.passed
    assert "filters<json>.limit" in str(result)


def test_ignore_args_leaves_keys_out_on_both_sides() -> None:
    [case] = load_test_cases(
        yaml.safe_load(
            """
test_cases:
  - name: search
    expected_tools:
      - name: search
        args: {q: paris, trace: {span_id: s1}}
        exact: true
        ignore_args: ['*_id', trace.span_id]
"""
        )
    )
    same = {"q": "paris", "request_id": "r9", "trace": {"span_id": "s2"}}
    extra = {"q": "paris", "page": 2, "trace": {"span_id": "s2"}}
    assert case.check([[{"name": "search", "args": same}]])[0].passed
    assert not case.check([[{"name": "search", "args": extra}]])[0].passed


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        (
            "{$satisfies: is_valid}",
            "args.$satisfies",
            "Satisfies is Python only: a spec file cannot name code; check this value with "
            "Satisfies(function, description) in a Python test, or use a $ matcher",
        ),
        (
            "{$datetime: {near: today, within_days: 1}}",
            "args.$datetime",
            "unknown option 'within_days'; IsDatetime takes near, within, tz_aware",
        ),
        (
            "{$date: soon}",
            "args.$date",
            "must be true or a mapping of near, within_days, got 'soon' (str)",
        ),
        ("{$url: example.com}", "args.$url", "must be a mapping, got 'example.com' (str)"),
        ("{$contains_all: []}", "args.$contains_all", "must be a non-empty list, got []"),
    ],
)
def test_catalogue_spelling_mistakes_are_load_errors_at_their_place(
    text: str, path: str, message: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        matcher_from_config(yaml.safe_load(text))
    assert (path, message) in [(problem.path, problem.message) for problem in caught.value.problems]
