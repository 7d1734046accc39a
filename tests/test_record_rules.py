"""The rules ``toolmatch record`` loosens varying values with (docs/record.md, The rules):
each named in the value's comment, each accepting the values seen and the runs like them,
each still failing what breaks an agent."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

from toolmatch import ToolCall, load_test_cases
from toolmatch._authoring.recording import recorded_case, recorded_spec
from toolmatch._calls.definitions import read_tool_definitions
from toolmatch._spec.writing import spec_text

yaml = pytest.importorskip("yaml")


def written(case: Any) -> str:
    return spec_text(recorded_spec([case]))


def loaded(text: str) -> Any:
    [case] = load_test_cases(yaml.safe_load(text))
    return case


def one_value(values: list[Any], **options: Any) -> tuple[str, Any]:
    """The line written for argument ``v`` of a call ``f`` recorded with these values, and
    the case loaded from the spec."""
    runs = [[[ToolCall("f", {"v": value})]] for value in values]
    text = written(recorded_case("c", runs, **options))
    case = loaded(text)
    assert all(case.passes(run) for run in runs)  # never fails a run it came from
    return text.split("    args:\n", 1)[1].removeprefix("      v: ").rstrip("\n"), case


def passes(case: Any, value: Any) -> bool:
    return bool(case.passes([[ToolCall("f", {"v": value})]]))


ENUM_DEFINITION = [
    {
        "type": "function",
        "function": {
            "name": "f",
            "parameters": {
                "type": "object",
                "properties": {"v": {"type": "string", "enum": ["en", "fr", "de"]}},
            },
        },
    }
]


@pytest.mark.parametrize(
    ("values", "line", "also", "never"),
    [
        (
            ["Paris", "paris", " PARIS "],
            '{fuzzy: Paris}  # observed: "Paris", "paris", " PARIS "; rule: case-only',
            "PARIS  ",
            "Tokyo",
        ),
        (
            ["en", "fr", "en"],
            '{$one_of: [en, fr]}  # observed: "en", "fr"; rule: enum-like',
            "fr",
            "zz",
        ),
        (
            ["ORD-20931", "ORD-11230", "ORD-55555"],
            '{regex: \'ORD-[0-9]{5}\'}  # observed: "ORD-20931", "ORD-11230", "ORD-55555"; '
            "rule: id-shape",
            "ORD-00017",
            "ORD-1234",
        ),
        (
            ["usr_j8xk1hj4", "usr_hcfhypu7", "usr_ddfq6603"],
            '{regex: \'usr_[0-9a-z]{8}\'}  # observed: "usr_j8xk1hj4", "usr_hcfhypu7", '
            '"usr_ddfq6603"; rule: id-shape',
            "usr_abcdefgh",
            "usr_abc",
        ),
        (
            ["call_abc-1", "call_x9"],
            '{regex: call_.+}  # observed: "call_abc-1", "call_x9"; rule: id-affixes',
            "call_7",
            "toolu_7",
        ),
        (
            ["item arrived damaged", "damaged on arrival"],
            '{$type: str}  # observed: "item arrived damaged", "damaged on arrival"; rule: text',
            "the parcel was broken",
            7,
        ),
        (
            [39.99, 40.01],
            "{$between: [38.89, 41.11]}  # observed: 39.99, 40.01; rule: prediction-interval",
            41.11,
            41.12,
        ),
        ([3, 5, 4], "{$between: [0, 16]}  # observed: 3, 5, 4; rule: prediction-interval", 16, 17),
        (
            ["ana@example.com", "bo@example.org"],
            '{$email: true}  # observed: "ana@example.com", "bo@example.org"; rule: email',
            "cy@example.net",
            "cy at example.net",
        ),
        (
            ["https://example.com/a", "https://docs.example.org/b?x=1"],
            '{$url: {}}  # observed: "https://example.com/a", "https://docs.example.org/b?x=1"; '
            "rule: url",
            "http://example.net",
            "example.net/a",
        ),
        ([1, 2], "{$between: [0, 57]}  # observed: 1, 2; rule: prediction-interval", 57, 58),
        (
            [48213, 50877, 91002],
            "{$type: int}  # observed: 48213, 50877, 91002; rule: id-number",
            12345,
            "12345",
        ),
    ],
)
def test_each_rule_is_named_and_generalises_to_values_like_those_seen(
    values: list[Any], line: str, also: Any, never: Any
) -> None:
    written_line, case = one_value(values)
    assert written_line == line
    assert passes(case, also)
    assert not passes(case, never)


def test_equal_values_stay_literal_whatever_their_kind() -> None:
    assert one_value([40, 40.0])[0] == "40"
    assert one_value(["item arrived damaged"] * 3)[0] == "item arrived damaged"


def test_words_seen_once_each_are_not_an_enum_and_text_never_gets_a_word_regex() -> None:
    # Two words, each seen once: no evidence of a small set, so any string (record more
    # runs, or give the definitions, whose enum is used).
    assert one_value(["en", "fr"])[0] == '{$type: str}  # observed: "en", "fr"; rule: any-string'
    line, _case = one_value(["Book a flight to Paris", "Book flights to Paris"])
    assert line == (
        '{$type: str}  # observed: "Book a flight to Paris", "Book flights to Paris"; rule: text'
    )


def test_short_words_are_a_set_when_fewer_than_half_the_runs_brought_a_word_seen_once() -> None:
    # Good and Turing: the share of values seen once estimates the chance that the next run
    # brings a value not seen yet; the words are a set when that is below one half.
    line, case = one_value(["en", "fr", "en", "fr", "de"])
    assert line == '{$one_of: [en, fr, de]}  # observed: "en", "fr", "de"; rule: enum-like'
    assert not passes(case, "zz")
    for values in (["en", "fr", "de"], ["en", "en", "fr", "de"]):
        line, case = one_value(values)
        assert line.endswith("; rule: any-string"), values
        assert passes(case, "es")


def test_a_number_range_is_the_prediction_interval_of_the_next_value() -> None:
    # 99 %: mean 250.03, sd 0.306, t(0.995, 2) = 9.925, times sqrt(1 + 1/3): +- 3.50, rounded
    # outwards to the values' one decimal.
    line, case = one_value([249.7, 250.1, 250.3])
    assert line == (
        "{$between: [246.5, 253.6]}  # observed: 249.7, 250.1, 250.3; rule: prediction-interval"
    )
    assert passes(case, 250.5)
    assert passes(case, 249.5)
    assert not passes(case, 2501.0)  # a number far out: ten times the amount
    assert not passes(case, 246.4)
    # More runs, a narrower range: mean 250, sd 0.224, t(0.995, 4) = 4.604: +- 1.13.
    assert one_value([249.7, 250.1, 250.3, 249.9, 250.0])[0] == (
        "{$between: [248.8, 251.2]}  # observed: 249.7, 250.1, 250.3, 249.9, 250.0; "
        "rule: prediction-interval"
    )
    # Never narrower than the values' own spread on each side: 30 runs of 4, 5 and 6 predict
    # 2.67 to 7.33, and the range is 4 - 2 to 6 + 2.
    assert one_value([4.0, 5.0, 6.0] * 10)[0].startswith("{$between: [2.0, 8.0]}")


def test_numbers_beyond_floats_still_get_a_range() -> None:
    # Whole numbers too large for a float: the spread on each side, in whole numbers.
    huge = 10**400
    line, case = one_value([huge, huge, 5])
    assert "; rule: prediction-interval" in line
    assert passes(case, 2 * huge - 5)
    assert not passes(case, 2 * huge - 4)
    # Among floats, or where floats overflow: the values' own range.
    for values, below, above in (
        ([huge, 1.5], 1.4, huge + 1),
        ([1e308, -1e308], -1.5e308, 1.5e308),
    ):
        line, case = one_value(values)
        assert "; rule: prediction-interval" in line
        assert not passes(case, below)
        assert not passes(case, above)


def test_a_definitions_enum_is_the_set_of_values_allowed() -> None:
    tools = read_tool_definitions(ENUM_DEFINITION)
    line, case = one_value(["en", "fr"], tools=tools)
    assert line == '{$one_of: [en, fr, de]}  # observed: "en", "fr"; rule: enum'
    assert passes(case, "de")
    assert not passes(case, "zz")


def test_a_definitions_date_time_format_accepts_any_date_time() -> None:
    tools = read_tool_definitions(
        [{"name": "f", "parameters": {"properties": {"v": {"format": "date-time"}}}}]
    )
    line, case = one_value(["2026-12-01T10:00:00Z", "2026-12-02T11:30:00+01:00"], tools=tools)
    assert line.startswith("{$datetime: true}  # observed: ")
    assert line.endswith("; rule: datetime (definition)")
    assert passes(case, "2026-12-03T08:00:00")
    assert not passes(case, "tomorrow")


def test_strict_loosens_only_ids_times_and_uuids() -> None:
    assert one_value(["ORD-20931", "ORD-11230"], loosen="strict")[0] == (
        '{regex: \'ORD-[0-9]{5}\'}  # observed: "ORD-20931", "ORD-11230"; rule: id-shape'
    )
    assert one_value(["2026-12-01", "2026-12-24"], loosen="strict")[0] == (
        '{$date: true}  # observed: "2026-12-01", "2026-12-24"; rule: date'
    )
    line, case = one_value(["Paris", "paris"], loosen="strict")
    assert line == '{$one_of: [Paris, paris]}  # observed: "Paris", "paris"; rule: observed-only'
    assert not passes(case, "PARIS")
    line, case = one_value([39.99, 40.01], loosen="strict")
    assert line == "{$one_of: [39.99, 40.01]}  # observed: 39.99, 40.01; rule: observed-only"
    assert not passes(case, 40.0)


def test_a_level_that_does_not_exist_is_refused() -> None:
    with pytest.raises(
        ValueError, match=r"^loosen must be one of none, strict, varying, got False$"
    ):
        recorded_case("c", [[[ToolCall("f")]]], loosen=False)  # type: ignore[arg-type]


# Calls and turns ------------------------------------------------------------------------------

SEARCH = ToolCall("search", {"q": "release notes"})
OPEN = ToolCall("open_doc", {"id": "D-1"})


def test_a_tool_in_only_some_runs_is_ignored_and_the_turn_stays_exhaustive() -> None:
    weather = ToolCall("get_weather", {"city": "Lyon"})
    runs = [[[SEARCH, OPEN]], [[SEARCH, weather, OPEN]], [[SEARCH, OPEN]]]
    text = written(recorded_case("c", runs))
    assert text == textwrap.dedent("""\
        test_cases:
        - name: c  # recorded from 3 runs
          ordered: true
          exhaustive: true
          ignore:
          - name: {$literal: get_weather}
            max_count: 1  # observed: in 1 of 3 runs, once; rule: optional-call
          expected_tools:  # ignored, not in every run: "get_weather" {"city": "Lyon"} in run 2
          - name: {$literal: search}
            exact: true
            args:
              q: release notes
          - name: {$literal: open_doc}
            exact: true
            args:
              id: D-1
        """)
    case = loaded(text)
    assert case.passes([[SEARCH, ToolCall("get_weather", {"city": "Paris"}), OPEN]])
    # Once in the run that made it: a second lookup is a call the turn does not expect.
    assert not case.passes([[SEARCH, weather, weather, OPEN]])
    assert not case.passes([[SEARCH, OPEN, ToolCall("delete_account", {"id": "u1"})]])
    assert not case.passes([[SEARCH, OPEN, OPEN]])  # a repeated call
    assert not case.passes([[OPEN, SEARCH]])  # the order every run kept


def test_extra_calls_of_an_expected_tool_are_ignored_when_their_arguments_tell_them_apart() -> None:
    extra = [ToolCall("search", {"q": "changelog"}), ToolCall("search", {"q": "CHANGELOG "})]
    runs = [[[SEARCH, extra[0], OPEN]], [[SEARCH, OPEN]], [[SEARCH, extra[1], OPEN]]]
    text = written(recorded_case("c", runs))
    assert text.split("  expected_tools:")[0] == textwrap.dedent("""\
        test_cases:
        - name: c  # recorded from 3 runs
          ordered: true
          exhaustive: true
          ignore:
          - name: {$literal: search}
            args:
              q: {fuzzy: changelog}  # observed: "changelog", "CHANGELOG "; rule: case-only
            max_count: 1  # observed: in 2 of 3 runs, once each; rule: optional-call
        """)
    case = loaded(text)
    assert not case.passes([[SEARCH, SEARCH, OPEN]])  # the expected call, repeated
    assert not case.passes([[SEARCH, extra[0], extra[1], OPEN]])  # the extra one, repeated
    assert not case.passes([[SEARCH, OPEN, ToolCall("delete_account", {})]])


def test_an_ignore_entry_names_extra_calls_by_the_fewest_arguments_that_tell_them_apart() -> None:
    expected = ToolCall("search", {"q": "release notes", "limit": 10})
    extra = ToolCall("search", {"q": "changelog", "limit": 10})
    runs = [[[expected, extra, OPEN]], [[expected, OPEN]], [[expected, OPEN]]]
    text = written(recorded_case("c", runs))
    assert (
        "  ignore:\n  - name: {$literal: search}\n    args:\n      q: {fuzzy: changelog}\n" in text
    )
    case = loaded(text)
    assert case.passes([[expected, ToolCall("search", {"q": " Changelog", "limit": 20}), OPEN]])
    assert not case.passes([[expected, expected, OPEN]])
    strict = written(recorded_case("c", runs, loosen="strict"))
    assert "  ignore:\n  - name: {$literal: search}\n    args:\n      q: changelog\n" in strict


def test_an_ignore_entry_is_capped_at_the_count_every_run_that_makes_it_made() -> None:
    log = ToolCall("log_event", {"kind": "transfer"})
    runs = [[[SEARCH, log, log, OPEN]], [[SEARCH, OPEN]], [[SEARCH, log, OPEN, log]]]
    text = written(recorded_case("c", runs))
    assert text.split("  expected_tools:")[0].endswith(
        "  ignore:\n"
        "  - name: {$literal: log_event}\n"
        "    max_count: 2  # observed: in 2 of 3 runs, twice each; rule: optional-call\n"
    )
    case = loaded(text)
    assert all(case.passes(run) for run in runs)
    assert case.passes([[SEARCH, log, OPEN]])  # fewer is fine: a cap, not a count
    [result] = case.check([[SEARCH, log, log, OPEN, log]])
    assert result.problems == (
        "call 4 log_event({'kind': 'transfer'}) is not expected: ignore[0] leaves out at most "
        "2 matching calls",
    )
    three = [[[SEARCH, *[log] * 3, OPEN]], [[SEARCH, OPEN]], [[SEARCH, log, log, log, OPEN]]]
    assert "    max_count: 3  # observed: in 2 of 3 runs, 3 times each; rule: optional-call\n" in (
        written(recorded_case("c", three))
    )


def test_an_ignore_entry_whose_count_varied_gets_no_cap() -> None:
    log = ToolCall("log_event", {"kind": "transfer"})
    runs = [[[SEARCH, log, OPEN]], [[SEARCH, OPEN]], [[SEARCH, log, log, log, OPEN]]]
    text = written(recorded_case("c", runs))
    assert text.split("  expected_tools:")[0].endswith(
        "  ignore:\n"
        "  - name: {$literal: log_event}  # observed: in 2 of 3 runs, 1 to 3 times; "
        "rule: optional-call, the count varied: no cap\n"
    )
    case = loaded(text)
    assert all(case.passes(run) for run in runs)
    assert case.passes([[SEARCH, *[log] * 5, OPEN]])
    assert not case.passes([[SEARCH, log, OPEN, ToolCall("delete_account", {})]])


def test_a_turn_whose_order_varies_keeps_exhaustive_and_drops_ordered() -> None:
    runs = [[[SEARCH, OPEN]], [[OPEN, SEARCH]], [[SEARCH, OPEN]]]
    text = written(recorded_case("c", runs))
    assert "ordered" not in text
    assert "  exhaustive: true\n" in text
    case = loaded(text)
    assert case.passes([[OPEN, SEARCH]])
    assert not case.passes([[OPEN, SEARCH, SEARCH]])


def test_a_turn_whose_order_varies_keeps_the_order_that_held_in_every_run() -> None:
    # login first, then lookup and search in either order, then logout: the order that held
    # in every run is kept as after constraints, the rest left free.
    login, lookup, search, logout = (
        ToolCall(name) for name in ("login", "lookup", "search", "out")
    )
    runs = [[[login, lookup, search, logout]], [[login, search, lookup, logout]]]
    text = written(recorded_case("c", runs))
    assert "ordered" not in text
    assert text.split("  expected_tools:\n", 1)[1] == (
        "  - name: {$literal: login}\n    exact: true\n    id: login\n"
        "  - name: {$literal: lookup}\n    exact: true\n    id: lookup\n    after: [login]\n"
        "  - name: {$literal: search}\n    exact: true\n    id: search\n    after: [login]\n"
        "  - name: {$literal: out}\n    exact: true\n    after: [lookup, search]\n"
    )
    case = loaded(text)
    assert all(case.passes(run) for run in runs)
    assert case.passes([[login, search, lookup, logout]])
    [result] = case.check([[lookup, login, search, logout]])
    assert result.first_failure() == (
        "expectation 1: lookup (call 0) comes before login (call 1); it must come after"
    )
    assert not case.passes([[login, lookup, logout, search]])


def test_a_tool_expected_twice_gets_two_ids_and_a_long_turn_keeps_no_order() -> None:
    start, fetch, end = ToolCall("start"), ToolCall("fetch"), ToolCall("end")
    runs = [[[start, fetch, end, fetch]], [[start, end, fetch, fetch]]]
    text = written(recorded_case("c", runs))
    assert "id: fetch\n" in text
    assert "id: fetch-" not in text
    case = loaded(text)
    assert all(case.passes(run) for run in runs)
    assert not case.passes([[fetch, start, end, fetch]])
    both = [[[fetch, fetch, start, end]], [[fetch, fetch, end, start]]]
    text = written(recorded_case("c", both))
    assert "id: fetch\n" in text
    assert "id: fetch-1\n    after: [fetch]\n" in text
    assert text.count("after: [fetch-1]\n") == 2
    assert all(loaded(text).passes(run) for run in both)
    calls = [ToolCall(f"t{number}") for number in range(51)]
    long = [[calls], [calls[1::-1] + calls[2:]]]
    assert "after:" not in written(recorded_case("c", long))


READ_ONLY = [
    {"name": "get_user", "annotations": {"readOnlyHint": True}},
    {"name": "list_airports", "annotations": {"readOnlyHint": True}},
    {"name": "open_doc", "annotations": {"readOnlyHint": False}},
]


def test_read_only_tools_by_definition_are_ignored_in_varying_kept_in_strict() -> None:
    lookup = ToolCall("get_user", {"user_id": "u1"})
    runs = [[[lookup, OPEN]], [[lookup, lookup, OPEN]]]
    tools = read_tool_definitions(READ_ONLY)
    read_only = ["get_user", "list_airports"]
    text = written(recorded_case("c", runs, tools=tools, read_only=read_only))
    assert text == textwrap.dedent("""\
        test_cases:
        - name: c  # recorded from 2 runs
          exhaustive: true
          ignore:
          - name: {$literal: get_user}
          - name: {$literal: list_airports}
          expected_tools:  # ignored, read-only by definition: "get_user"
          - name: {$literal: open_doc}
            exact: true
            args:
              id: D-1
        """)
    case = loaded(text)
    assert case.passes([[OPEN]])
    assert case.passes([[ToolCall("list_airports"), OPEN]])
    assert not case.passes([[OPEN, ToolCall("delete_account")]])
    strict = written(recorded_case("c", runs, loosen="strict", tools=tools, read_only=read_only))
    assert "read-only" not in strict
    assert not loaded(strict).passes([[OPEN]])


def test_a_read_only_tool_every_run_calls_as_often_stays_expected() -> None:
    lookup = ToolCall("get_user", {"user_id": "u1"})
    runs = [[[lookup, OPEN]], [[lookup, OPEN]], [[lookup, OPEN]]]
    tools = read_tool_definitions(READ_ONLY)
    text = written(recorded_case("c", runs, tools=tools, read_only=["get_user", "list_airports"]))
    assert text.split("  - name: {$literal: open_doc}")[0] == textwrap.dedent("""\
        test_cases:
        - name: c  # recorded from 3 runs
          ordered: true
          exhaustive: true
          ignore:
          - name: {$literal: list_airports}
          - name: {$literal: get_user}
            args:
              user_id: {$not: u1}  # rule: other-lookup (read-only by definition: a call with another user_id is ignored, the expected calls stay required)
          expected_tools:
          - name: {$literal: get_user}
            exact: true
            args:
              user_id: u1
        """)
    case = loaded(text)
    assert case.passes([[lookup, ToolCall("list_airports"), OPEN]])  # a lookup no run made
    assert not case.passes([[OPEN]])  # the lookup every run made, skipped
    assert not case.passes([[lookup, lookup, OPEN]])  # and repeated
    assert not case.passes([[ToolCall("get_user", {"user_id": "u2"}), OPEN]])  # u1's skipped


LOOKUPS = [
    {"name": "search", "annotations": {"readOnlyHint": True}},
    {"name": "fetch", "annotations": {"readOnlyHint": True}},
    {"name": "book", "annotations": {"readOnlyHint": False}},
]


def test_other_lookup_a_read_only_call_with_other_constants_is_ignored() -> None:
    # Rule other-lookup: every run searched Rome, then Oslo (in that order), then booked; a
    # search of somewhere else changes nothing, so it is ignored; the two searches every
    # run made stay required, once each, and a write call's other values still fail.
    rome = ToolCall("search", {"city": "Rome", "day": 1, "note": "first"})
    oslo = ToolCall("search", {"city": "Oslo", "day": 1, "note": "then"})
    book = ToolCall("book", {"city": "Rome"})
    also = ToolCall("search", {"city": "Oslo", "day": 1, "note": "and then"})
    runs = [[[rome, oslo, book]], [[rome, also, book]]]
    tools = read_tool_definitions(LOOKUPS)
    text = written(recorded_case("c", runs, tools=tools, read_only=["search", "fetch"]))
    assert text == textwrap.dedent("""        test_cases:
        - name: c  # recorded from 2 runs
          ordered: true
          exhaustive: true
          ignore:
          - name: {$literal: fetch}
          - name: {$literal: search}
            args:
              city: {$not: {$one_of: [Rome, Oslo]}}  # rule: other-lookup (read-only by definition: a call with another city is ignored, the expected calls stay required)
          - name: {$literal: search}
            args:
              day: {$not: 1}  # rule: other-lookup (read-only by definition: a call with another day is ignored, the expected calls stay required)
          expected_tools:
          - name: {$literal: search}
            exact: true
            args:
              city: Rome
              day: 1
              note: first
          - name: {$literal: search}
            exact: true
            args:
              city: Oslo
              day: 1
              note: {$type: str}  # observed: "then", "and then"; rule: text
          - name: {$literal: book}
            exact: true
            args:
              city: Rome
        """)
    case = loaded(text)
    assert all(case.passes(run) for run in runs)
    lima = ToolCall("search", {"city": "Lima", "day": 1, "note": "first"})
    later = ToolCall("search", {"city": "Rome", "day": 2, "note": "first"})
    assert case.passes([[rome, lima, oslo, book]])  # a search no run made, anywhere
    assert case.passes([[later, rome, oslo, book]])  # another day
    assert not case.passes([[rome, oslo, rome, book]])  # a search every run made, repeated
    assert not case.passes([[lima, oslo, book]])  # Rome's, skipped
    assert not case.passes([[oslo, rome, book]])  # out of order
    # Not a lookup of something else: the note is loosened, so a call that differs only
    # there is a second Oslo search, and fails as a repeat.
    again = ToolCall("search", {"city": "Oslo", "day": 1, "note": "once more"})
    assert not case.passes([[rome, oslo, again, book]])
    assert not case.passes([[rome, oslo, book, ToolCall("book", {"city": "Lima"})]])
    strict = written(recorded_case("c", runs, loosen="strict", tools=tools, read_only=["search"]))
    assert "other-lookup" not in strict
    assert "other-lookup" not in written(recorded_case("c", runs))  # no definitions


def test_a_read_only_tool_in_only_some_runs_is_ignored_without_a_cap() -> None:
    lookup = ToolCall("get_user", {"user_id": "u1"})
    runs = [[[SEARCH, OPEN]], [[SEARCH, lookup, OPEN]], [[SEARCH, OPEN]]]
    tools = read_tool_definitions(READ_ONLY)
    read_only = ["get_user", "list_airports"]
    text = written(recorded_case("c", runs, tools=tools, read_only=read_only))
    assert text.split("  expected_tools:")[0].endswith(
        "  ignore:\n"
        "  - name: {$literal: list_airports}\n"
        "  - name: {$literal: get_user}  # observed: in 1 of 3 runs, once; "
        "rule: optional-call, read-only: no cap\n"
    )
    assert loaded(text).passes([[SEARCH, lookup, lookup, OPEN]])
    # strict keeps every call as any other: capped.
    strict = written(recorded_case("c", runs, loosen="strict", tools=tools, read_only=read_only))
    assert "    max_count: 1  # observed: in 1 of 3 runs, once; rule: optional-call\n" in strict
    assert not loaded(strict).passes([[SEARCH, lookup, lookup, OPEN]])


# Definitions steer: formats, integer ids, optional arguments ---------------------------------

UUIDS = ["0b7e3a52-8f1e-4c3b-9a55-2f0c1d9e6a10", "5d2c9e41-7a3b-4f6e-8c21-9e4b7a0d3f55"]


def defined(schema: dict[str, Any], required: list[str] | None = None) -> Any:
    parameters: dict[str, Any] = {"type": "object", "properties": {"v": schema}}
    if required is not None:
        parameters["required"] = required
    return read_tool_definitions([{"name": "f", "parameters": parameters}])


@pytest.mark.parametrize(
    ("schema", "loosen", "values", "line", "also", "never"),
    [
        (
            {"type": "string", "format": "uuid"},
            "varying",
            UUIDS,
            '{$uuid: true}  # observed: "0b7e3a52-8f1e-4c3b-9a55-2f0c1d9e6a10", '
            '"5d2c9e41-7a3b-4f6e-8c21-9e4b7a0d3f55"; rule: uuid (definition)',
            "6fa459ea-ee8a-3ca4-894e-db77e160355e",  # version 3: the format says any UUID
            "R-1042",
        ),
        (
            {"type": "string", "format": "email"},
            "strict",
            ["ana@example.com", "bo@example.org"],
            '{$email: true}  # observed: "ana@example.com", "bo@example.org"; '
            "rule: email (definition)",
            "cy@example.net",
            "cy at example.net",
        ),
        (
            {"type": "string", "format": "uri"},
            "strict",
            ["https://example.com/a", "https://example.org/b"],
            '{$url: {}}  # observed: "https://example.com/a", "https://example.org/b"; '
            "rule: url (definition)",
            "http://example.net",
            "example.net",
        ),
        (
            {"type": "string", "format": "date"},
            "strict",
            ["2026-12-01", "2026-12-24"],
            '{$date: true}  # observed: "2026-12-01", "2026-12-24"; rule: date (definition)',
            "2027-01-02",
            "tomorrow",
        ),
        (
            {"type": "integer"},
            "varying",
            [17, 342, 9],
            "{$type: int}  # observed: 17, 342, 9; rule: id-number (definition)",
            123456,
            "17",
        ),
    ],
)
def test_a_definitions_format_or_integer_id_is_the_shape_matcher(
    schema: dict[str, Any], loosen: str, values: list[Any], line: str, also: Any, never: Any
) -> None:
    key = "order_id" if schema["type"] == "integer" else "v"
    tools = read_tool_definitions(
        [{"name": "f", "parameters": {"type": "object", "properties": {key: schema}}}]
    )
    runs = [[[ToolCall("f", {key: value})]] for value in values]
    text = written(recorded_case("c", runs, loosen=loosen, tools=tools))
    assert text.split("    args:\n", 1)[1] == f"      {key}: {line}\n"
    case = loaded(text)
    assert all(case.passes(run) for run in runs)
    assert case.passes([[ToolCall("f", {key: also})]])
    assert not case.passes([[ToolCall("f", {key: never})]])


def test_a_format_the_values_do_not_all_have_steers_nothing() -> None:
    line, _case = one_value(["ORD-20931", "ORD-11230"], tools=defined({"format": "email"}))
    assert line.endswith("rule: id-shape")


def test_an_integer_that_is_no_id_keeps_its_range() -> None:
    line, _case = one_value([3, 5, 4], tools=defined({"type": "integer"}))
    assert line == "{$between: [0, 16]}  # observed: 3, 5, 4; rule: prediction-interval"
    assert [integer_rule(key) for key in ("paid", "valid", "idle")] == ["prediction-interval"] * 3
    named = ("id", "userId", "USER_ID", "order-id", "userID")
    assert [integer_rule(key) for key in named] == ["id-number (definition)"] * 5


def integer_rule(key: str) -> str:
    """The rule that loosens 3, 5, 4 in argument ``key``, which the definition types integer."""
    tools = read_tool_definitions(
        [{"name": "f", "parameters": {"properties": {key: {"type": "integer"}}}}]
    )
    runs = [[[ToolCall("f", {key: value})]] for value in (3, 5, 4)]
    return written(recorded_case("c", runs, tools=tools)).rstrip("\n").split("rule: ")[1]


def test_a_varying_argument_the_definition_does_not_require_may_be_left_out() -> None:
    tools = read_tool_definitions(
        [
            {
                "name": "book",
                "parameters": {
                    "type": "object",
                    "properties": {"party": {"type": "integer"}, "note": {"type": "string"}},
                    "required": ["party"],
                },
            }
        ]
    )
    notes = ("Window seat, please", "A quiet table", "Birthday dinner")
    runs = [
        [[ToolCall("book", {"party": party, "note": note})]]
        for party, note in zip((4, 5, 4), notes, strict=True)
    ]
    text = written(recorded_case("c", runs, tools=tools))
    assert text.split("    args:\n", 1)[1] == (
        "      party: {$between: [0, 11]}  # observed: 4, 5; rule: prediction-interval\n"
        '      note: {$maybe: {$type: str}}  # observed: "Window seat, please", "A quiet table", '
        '"Birthday dinner"; rule: text; optional by definition\n'
    )
    case = loaded(text)
    assert case.passes([[ToolCall("book", {"party": 4})]])
    assert not case.passes([[ToolCall("book", {"note": "Near the door"})]])  # party required
    constant = [[[ToolCall("book", {"party": 4, "note": "Near the door"})]]] * 2
    assert "      note: Near the door\n" in written(recorded_case("c", constant, tools=tools))


def test_a_definition_whose_format_or_type_is_no_name_steers_nothing() -> None:
    for schema in ({"format": ["uuid"]}, {"format": {"x": 1}}, {"type": ["integer"]}):
        line, _case = one_value(UUIDS, tools=defined(schema))
        assert line.endswith("; rule: uuid"), schema


def test_extra_calls_shown_alike_are_each_ignored() -> None:
    # Their comments cut both to the same 40 characters; the ignore entry is made of both.
    long = "a query long enough to be cut in the comment"
    extra = [ToolCall("search", {"q": long, "page": 2}), ToolCall("search", {"q": long})]
    runs = [[[SEARCH, extra[0], OPEN]], [[SEARCH, OPEN]], [[SEARCH, extra[1], OPEN]]]
    text = written(recorded_case("c", runs))
    case = loaded(text)
    assert all(case.passes(run) for run in runs), text
    assert not case.passes([[SEARCH, SEARCH, OPEN]])
