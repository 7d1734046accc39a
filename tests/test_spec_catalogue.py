"""Spec-file spellings of the catalogue matchers (docs/config.md's matcher table), loaded
from YAML and compared with real values: each key matches what its row says and refuses
what its row refuses."""

from __future__ import annotations

import pytest

from catalogue_rows import ROWS
from toolmatch import ConfigError, load_test_cases, matcher_from_config

yaml = pytest.importorskip("yaml")


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
