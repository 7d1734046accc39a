"""The matcher catalogue v2 (issue 14, items 1-6 and 9): ranges, dates and times, lists,
string shapes, JSON in a string, predicates and ignored keys, through the public API."""

from __future__ import annotations

import functools
import pickle
import sys
import uuid
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import catalogue_matchers, shaped_texts, values
from toolmatch import (
    Between,
    ConformsTo,
    ContainsAll,
    Each,
    EndsWith,
    Exact,
    Ge,
    Gt,
    IsDate,
    IsDatetime,
    IsEmail,
    IsJSON,
    IsURL,
    IsUUID,
    Le,
    Len,
    Lt,
    Matcher,
    Maybe,
    Partial,
    Regex,
    Satisfies,
    StartsWith,
    Unordered,
    explain,
)
from toolmatch._matchers.base import Mismatches

np = pytest.importorskip("numpy")

UTC = timezone.utc
NEW_KINDS = (
    Gt, Ge, Lt, Le, Between, IsDatetime, IsDate, Unordered, ContainsAll, Each, Len,
    StartsWith, EndsWith, IsUUID, IsEmail, IsURL, IsJSON, Satisfies, ConformsTo,
)  # fmt: skip

# --- numbers -----------------------------------------------------------------------------


def test_bounds_compare_numbers_by_value_and_never_bools_or_nan() -> None:
    assert Gt(0) == 1
    assert Gt(0) != 0
    assert Gt(0) != True  # noqa: E712
    assert Ge(1) == 1.0
    assert Ge(1) == Decimal("1.00")
    assert Ge(1) == Fraction(3, 2)
    assert Lt(10) == np.int64(9)
    assert Lt(10) != np.float64("nan")
    assert Lt(10) != float("nan")
    assert Le(10) == 10
    assert Le(10) != "9"
    assert Le(Decimal("0.1")) == 0.1
    assert Gt(2**70) == 2**70 + 1
    assert Gt(2**70) != float(2**70)
    assert Lt(1) != Decimal("NaN")
    assert Lt(1) != Decimal("sNaN")
    assert Gt(float("-inf")) == -1e308


def test_between_is_inclusive_unless_asked() -> None:
    assert Between(1, 50) == 1
    assert Between(1, 50) == 50
    assert Between(1, 50) == 25.5
    assert Between(1, 50, inclusive=False) != 50
    assert Between(1, 50, inclusive=False) == 49.9
    assert Between(1, 50) != True  # noqa: E712
    assert Between(0, 1) != False  # noqa: E712
    assert Between(5, 5) == 5


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        (lambda: Between(5, 1), ValueError, "Between(5, 1) can never match: low is above high"),
        (
            lambda: Between(5, 5, inclusive=False),
            ValueError,
            "Between(5, 5, inclusive=False) can never match: low is at or above high",
        ),
        (lambda: Between("1", 5), TypeError, "Between low must be a number, got '1' (str)"),
        (lambda: Gt(True), TypeError, "Gt bound must be a number, got True (bool)"),
        (
            lambda: Le(float("nan")),
            ValueError,
            "Le bound cannot be NaN: nothing is above or below NaN",
        ),
        (
            lambda: Between(1, 5, inclusive=1),
            TypeError,
            "Between inclusive must be True or False, got 1",
        ),
    ],
)
def test_bad_bounds_are_refused_at_construction(build: Any, error: type, message: str) -> None:
    with pytest.raises(error) as raised:
        build()
    assert str(raised.value) == message


def test_number_mismatches_say_what_was_expected() -> None:
    assert Gt(0).explain(-1) == "expected a number > 0, got -1"
    assert Ge(0).explain(True) == "expected a number >= 0, got True (bool, which is not a number)"
    assert Lt(3).explain("2") == "expected a number < 3, got '2' (str)"
    assert Between(1, 50).explain(51) == "expected a number from 1 to 50, got 51"
    assert Between(1, 50, inclusive=False).explain(50) == (
        "expected a number strictly between 1 and 50, got 50"
    )


# --- dates and times ---------------------------------------------------------------------


def test_datetimes_from_iso_strings_and_objects() -> None:
    assert IsDatetime() == "2026-12-01T10:30:00Z"
    assert IsDatetime() == "2026-12-01T10:30:00.123456+05:30"
    assert IsDatetime() == datetime(2026, 12, 1, 10, 30)
    assert IsDatetime() != "2026-12-01"  # a date, not a datetime
    assert IsDatetime() != date(2026, 12, 1)
    assert IsDatetime() != 1764585000  # a number is not a datetime
    assert IsDatetime() != "2026-13-01T10:00:00"
    assert IsDatetime().explain("next tuesday") == "'next tuesday' is not an ISO 8601 datetime"
    assert IsDatetime().explain("2026-12-01") == (
        "'2026-12-01' is a date without a time (use IsDate)"
    )
    assert IsDatetime().explain(3) == "expected an ISO 8601 datetime, got 3 (int)"


def test_datetimes_near_a_moment() -> None:
    near = IsDatetime(near="2026-12-01T10:00:00Z", within="PT1H")
    assert near == "2026-12-01T10:59:59+00:00"
    assert near == "2026-12-01T11:30:00+01:30"  # the same instant in another offset
    assert near == datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    assert near == "2026-12-01T10:30:00"  # naive: read as UTC
    assert near != "2026-12-01T11:00:01Z"
    assert near.explain("2026-12-01T12:00:00Z") == (
        "expected a datetime within 1:00:00 of 2026-12-01 10:00:00+00:00, "
        "got 2026-12-01 12:00:00+00:00 (2:00:00 later)"
    )
    assert IsDatetime(datetime(2026, 12, 1, 10), timedelta(minutes=5)) == "2026-12-01T10:04:00"
    assert IsDatetime(date(2026, 12, 1), "P1D") == "2026-12-01T23:00:00"
    assert IsDatetime("2026-12-01T10:00:00Z") == "2026-12-01T10:00:00+00:00"  # within 0
    naive_near = IsDatetime(datetime(2026, 12, 1, 10), "PT1H")  # read as UTC against an offset
    assert naive_near == "2026-12-01T10:30:00+00:00"
    assert naive_near != "2026-12-01T10:30:00+05:00"
    assert naive_near.explain("2026-12-01T10:30:00+05:00") == (
        "expected a datetime within 1:00:00 of 2026-12-01 10:00:00, "
        "got 2026-12-01 10:30:00+05:00 (4:30:00 earlier)"
    )


def test_now_is_read_at_each_comparison_in_utc() -> None:
    recent = IsDatetime(near="now", within="PT1M")
    assert recent == datetime.now(UTC)
    assert recent == datetime.now(UTC).replace(tzinfo=None)  # naive: read as UTC
    assert recent == datetime.now(UTC).isoformat()
    assert recent != (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    assert recent.explain("2000-01-01T00:00:00Z").startswith(
        "expected a datetime within 0:01:00 of now, got 2000-01-01 00:00:00+00:00 ("
    )


def test_tz_aware_asks_for_an_offset_or_none() -> None:
    assert IsDatetime(tz_aware=True) == "2026-12-01T10:00:00+02:00"
    assert IsDatetime(tz_aware=True).explain("2026-12-01T10:00:00") == (
        "expected a datetime with a UTC offset, got '2026-12-01T10:00:00'"
    )
    assert IsDatetime(tz_aware=False) != "2026-12-01T10:00:00Z"


def test_durations_and_bad_date_matchers_fail_at_construction() -> None:
    assert repr(IsDatetime("now", "PT1H30M")) == "IsDatetime('now', within='PT1H30M')"
    with pytest.raises(ValueError, match="not an ISO 8601 duration") as raised:
        IsDatetime("now", "P1M")
    assert "years and months have no fixed length" in str(raised.value)
    with pytest.raises(ValueError, match="within needs near"):
        IsDatetime(within="PT1H")
    with pytest.raises(ValueError, match="must not be negative"):
        IsDatetime("now", timedelta(seconds=-1))
    with pytest.raises(TypeError, match="within must be a timedelta"):
        IsDatetime("now", 3600)
    with pytest.raises(ValueError, match="near 'soon' is not ISO 8601"):
        IsDatetime("soon")
    with pytest.raises(TypeError, match="tz_aware must be None, True or False"):
        IsDatetime(tz_aware=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="IsDate near must be a date"):
        IsDate(datetime(2026, 12, 1))
    with pytest.raises(ValueError, match="within_days needs near"):
        IsDate(within_days=2)


def test_dates() -> None:
    assert IsDate() == "2026-12-01"
    assert IsDate() == date(2026, 12, 1)
    assert IsDate() != datetime(2026, 12, 1)  # a datetime says more than a date
    assert IsDate() != "2026-12-01T10:00:00"
    assert IsDate().explain("next tuesday") == "'next tuesday' is not an ISO 8601 date"
    assert IsDate(near="2026-12-01", within_days=1) == "2026-11-30"
    assert IsDate(near="2026-12-01", within_days=1).explain("2026-11-28") == (
        "expected a date within 1 day of 2026-12-01, got 2026-11-28 (3 days earlier)"
    )
    assert IsDate(near=date(2026, 12, 1)).explain("2026-12-02") == (
        "expected the date 2026-12-01, got 2026-12-02 (1 day later)"
    )
    assert IsDate("today") == datetime.now(UTC).date().isoformat()


# --- lists -------------------------------------------------------------------------------


def test_unordered_pairs_matchers_optimally() -> None:
    assert Unordered([Regex("a.*"), "ab"]) == ["ab", "ac"]  # greedy would give 'ab' to a.*
    assert Unordered([Regex("a.*"), "ab"]) == ("ac", "ab")
    assert Unordered([1, 2, 2]) == [2, 1.0, 2]
    assert Unordered([1, 2, 2]) != [1, 1, 2]
    assert Unordered([True]) != [1]
    assert Unordered(["a", "b"]) != ["a", "b", "c"]
    assert Unordered([]) == []
    assert Unordered([]) != {}


def test_unordered_of_plain_strings_compares_characters_only() -> None:
    class Liar(str):
        def __eq__(self, other: object) -> bool:
            return True

        __hash__ = str.__hash__

    class Anything:
        def __eq__(self, other: object) -> bool:
            return True

        def __lt__(self, other: object) -> bool:
            return True

    assert Unordered(["a", "b"]) == [Liar("b"), "a"]  # a str subclass: its characters
    assert Unordered(["a", "b"]) != [Liar("x"), "a"]
    assert Unordered(["a", "b"]) != [Anything(), "a"]
    assert Unordered(["a", "b"]) != ["a", 1]


def test_unordered_mismatches_name_the_unpaired_items() -> None:
    expected = {"recipients": Unordered(["a@x.io", "b@x.io", "d@x.io"])}
    found = explain(expected, {"recipients": ["a@x.io", "d@x.io", "c@x.io"]})
    assert str(found) == (
        "recipients: no item left for expected 'b@x.io'\n"
        "recipients[2]: no expected item left for 'c@x.io'"
    )
    assert Unordered([1, 2]).explain([1]) == "expected 2 items in any order, got 1: [1]"
    assert Unordered([1, 2]).explain("12") == "expected a list, got '12' (str)"


def test_contains_all_pairs_each_expected_item_with_its_own() -> None:
    assert ContainsAll(["b", "a"]) == ["a", "x", "b"]
    assert ContainsAll(["a", "a"]) != ["a", "b"]
    assert ContainsAll([Regex("a.*"), "ab"]) == ["zz", "ab", "ac"]
    assert ContainsAll([]) == []
    assert ContainsAll([]) != "abc"
    assert ContainsAll(["a", "c"]).explain(["a", "b"]) == "no item left for expected 'c'"


def test_each_and_len() -> None:
    assert Each(Gt(0)) == [1, 2.5]
    assert Each(Gt(0)) == []
    assert Each(Gt(0)) != (1, -1)
    assert Each(Gt(0)).explain([1, -1, "x"]) == (
        "[1]: expected a number > 0, got -1; [2]: expected a number > 0, got 'x' (str)"
    )
    assert Each(1).explain(1) == "expected a list, got 1 (int)"
    assert Len(2) == ["a", "b"]
    assert Len(2) == ("a", "b")
    assert Len(2) == "ab"
    assert Len(2) == {"a": 1, "b": 2}
    assert Len(2) != 12
    assert Len(0) == ""
    assert Len(Between(1, 3)) == [1, 2, 3]
    assert Len(Between(1, 3)) != []
    assert Len(3).explain([1]) == "expected length 3, got 1: [1]"
    assert Len(Between(1, 3)).explain("abcd") == "length 4: expected a number from 1 to 3, got 4"
    assert Len(3).explain(5) == "expected a list, tuple, str or dict of length 3, got 5 (int)"
    with pytest.raises(ValueError, match="Len needs a length of 0 or more, got -1"):
        Len(-1)
    with pytest.raises(TypeError, match="Len needs an int or a matcher, got True"):
        Len(True)
    with pytest.raises(TypeError, match="Unordered needs a list of expected items, got 'abc'"):
        Unordered("abc")  # type: ignore[arg-type]


def test_list_paths_inside_arguments() -> None:
    found = explain(
        {"to": Each(IsEmail()), "cc": ContainsAll(["boss@x.io"])},
        {"to": ["a@x.io", "nope"], "cc": []},
    )
    assert found.lines() == [
        "to[1]: expected an e-mail address, got 'nope'",
        "cc: no item left for expected 'boss@x.io'",
    ]


# --- string shapes -----------------------------------------------------------------------


def test_prefixes_and_suffixes() -> None:
    assert StartsWith("weather in") == "weather in Paris"
    assert StartsWith("weather in") != "Weather in Paris"
    assert StartsWith("weather in", case_insensitive=True) == "WEATHER IN Paris"
    assert EndsWith(".PDF", case_insensitive=True) == "report.pdf"
    assert StartsWith("1") != 12  # only strings
    assert StartsWith("a").explain(3) == "expected a str starting with 'a', got 3 (int)"
    assert EndsWith(".pdf").explain("a.doc") == "expected a str ending with '.pdf', got 'a.doc'"
    with pytest.raises(TypeError, match="StartsWith needs a str, got 1"):
        StartsWith(1)  # type: ignore[arg-type]


def test_uuids() -> None:
    value = "6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b"
    assert IsUUID() == value
    assert IsUUID(4) == value
    assert IsUUID() == value.upper()
    assert IsUUID(4) == uuid.uuid4()
    assert IsUUID(1) == uuid.uuid1()
    assert IsUUID() != value.replace("-", "")  # only the canonical form
    assert IsUUID() != "{" + value + "}"
    assert IsUUID() != int(uuid.UUID(value))
    assert IsUUID(1).explain(value) == f"expected a version 1 UUID, got '{value}' (version 4)"
    assert IsUUID().explain(5) == "expected a UUID, got 5 (int)"
    with pytest.raises(ValueError, match="IsUUID version must be None or 1 to 8, got 9"):
        IsUUID(9)


def test_emails() -> None:
    assert IsEmail() == "ada.lovelace+tools@example.co.uk"
    for wrong in ["ada@localhost", "ada at example.com", ".ada@x.io", "a..b@x.io", "a@-x.io"]:
        assert IsEmail() != wrong, wrong
    assert IsEmail() != "a" * 250 + "@x.io"
    assert IsEmail().explain("nope") == "expected an e-mail address, got 'nope'"


def test_urls() -> None:
    assert IsURL() == "https://api.example.com/v1?q=1"
    assert IsURL() != "example.com/x"
    assert IsURL() != "mailto:ada@x.io"
    assert IsURL() != "http://[::1"
    assert IsURL() != "https://exa mple.com"
    assert IsURL(scheme="https", host="EXAMPLE.com") == "HTTPS://Example.COM/x"
    assert IsURL(host=EndsWith(".example.com")) == "https://api.example.com"
    assert IsURL(path=StartsWith("/v1")) != "https://api.example.com/v2"
    assert IsURL(host="example.com").explain("https://evil.com/x") == (
        "host: expected 'example.com', got 'evil.com'"
    )
    assert IsURL().explain(3) == "expected an absolute URL (scheme://host...), got 3 (int)"
    with pytest.raises(TypeError, match="IsURL host must be a str or a matcher, got 3"):
        IsURL(host=3)


def test_json_in_a_string_is_explained_with_paths_inside() -> None:
    assert IsJSON() == '{"a": 1}'
    assert IsJSON() == "null"
    assert IsJSON() != {"a": 1}
    assert IsJSON(None) == "null"
    assert IsJSON(None) != "0"
    assert IsJSON({"status": "open", "n": 1}) == '{"n": 1.0, "status": "open"}'
    assert IsJSON(Partial({"status": "open"})) == '{"status": "open", "x": 2}'
    assert IsJSON([1]) != "[true]"
    found = explain({"filters": IsJSON({"status": "open"})}, {"filters": '{"status": "closed"}'})
    assert str(found) == "filters<json>.status: expected 'open', got 'closed'"
    assert IsJSON().explain("NaN") == "expected a JSON str, got 'NaN' (NaN is not JSON)"
    assert IsJSON().explain("{oops").startswith("expected a JSON str, got '{oops' (Expecting")
    assert IsJSON() != "[" * 100_000 + "]" * 100_000  # too deep to parse: a mismatch


# --- predicates --------------------------------------------------------------------------


def _is_even(value: Any) -> bool:
    return bool(value % 2 == 0)


def test_satisfies_runs_the_function_and_quotes_its_exceptions() -> None:
    even = Satisfies(_is_even, "an even number")
    assert even == 4
    assert even != 3
    assert even != "4"
    assert repr(even) == "Satisfies(_is_even, 'an even number')"
    assert even.explain(3) == "expected an even number, got 3"
    assert even.explain(None) == (
        "expected an even number, got None: _is_even raised TypeError: "
        "unsupported operand type(s) for %: 'NoneType' and 'int'"
    )
    assert pickle.loads(pickle.dumps(even)) == 8
    with pytest.raises(TypeError, match="Satisfies needs a callable"):
        Satisfies("even", "an even number")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs a description"):
        Satisfies(_is_even, "")


def test_satisfies_with_a_cached_judge() -> None:
    calls: list[str] = []

    @functools.cache
    def judge(text: str) -> bool:
        calls.append(text)
        return "paris" in text.lower()

    about_paris = Satisfies(judge, "a query about Paris")
    assert about_paris == "Hotels in PARIS"
    assert about_paris != "Hotels in Rome"
    assert about_paris.explain("Hotels in Rome") == (
        "expected a query about Paris, got 'Hotels in Rome'"
    )
    assert calls == ["Hotels in PARIS", "Hotels in Rome"]  # the explanation hit the cache
    assert about_paris != ["unhashable"]  # lru_cache raised TypeError: a mismatch


def test_satisfies_lets_keyboard_interrupt_through() -> None:
    def interrupted(value: object) -> bool:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _ = Satisfies(interrupted, "anything") == 1


# --- keys by pattern ---------------------------------------------------------------------


def test_ignored_keys_are_left_out_on_both_sides() -> None:
    expected = Exact({"q": "paris", "request_id": "r-1"}, ignore=["*_id"])
    assert expected == {"q": "paris"}
    assert expected == {"q": "paris", "trace_id": "t-9", "request_id": "r-2"}
    assert expected != {"q": "paris", "limit": 5}
    assert repr(expected) == "Exact({'q': 'paris', 'request_id': 'r-1'}, ignore=['*_id'])"
    assert pickle.loads(pickle.dumps(expected)) == {"q": "paris", "span_id": 1}


def test_dotted_patterns_reach_nested_dicts_and_list_items() -> None:
    expected = Partial(
        {"q": "paris", "trace": {"span": 1, "name": "x"}, "items": [{"sku": "a", "at": 1}]},
        ignore=["trace.span", "items.at"],
    )
    assert expected == {
        "q": "paris",
        "trace": {"span": 2, "name": "x"},
        "items": [{"sku": "a", "at": 99}],
        "other": 1,
    }
    assert expected != {"q": "paris", "trace": {"span": 2, "name": "y"}, "items": [{"sku": "a"}]}
    assert expected.explain(
        {"q": "paris", "trace": {"name": "x", "extra": 1}, "items": [{"sku": "b"}]}
    ) == ("trace.extra: unexpected key, with value 1; items[0].sku: expected 'a', got 'b'")
    assert Partial({"trace": {"a": 1}}, ignore=["trace.*"]) == {"trace": {"b": 2}}
    assert Partial({"a": Maybe(1)}, ignore=["b"]) == {"b": 2}


def test_bad_ignore_patterns_are_refused() -> None:
    with pytest.raises(TypeError, match="ignore must be a list of key patterns"):
        Partial({}, ignore="*_id")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="an ignore pattern must be a str, got 3"):
        Partial({}, ignore=[3])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"'a\.\.b' is not a dotted path"):
        Exact({}, ignore=["a..b"])


# --- every new matcher: repr, pickling, notebook rendering, properties --------------------

REPRS = {
    "Gt(0)": Gt(0),
    "Between(1, 50)": Between(1, 50),
    "Between(1, 50, inclusive=False)": Between(1, 50, inclusive=False),
    "IsDatetime()": IsDatetime(),
    "IsDatetime('now', within='PT1H', tz_aware=True)": IsDatetime("now", "PT1H", tz_aware=True),
    "IsDate('today', within_days=2)": IsDate("today", within_days=2),
    "IsDate()": IsDate(),
    "Unordered(['a', Regex('b.*')])": Unordered(["a", Regex("b.*")]),
    "ContainsAll([1])": ContainsAll([1]),
    "Each(Gt(0))": Each(Gt(0)),
    "Len(Between(1, 3))": Len(Between(1, 3)),
    "StartsWith('a', case_insensitive=True)": StartsWith("a", case_insensitive=True),
    "EndsWith('.pdf')": EndsWith(".pdf"),
    "IsUUID()": IsUUID(),
    "IsUUID(4)": IsUUID(4),
    "IsEmail()": IsEmail(),
    "IsURL(scheme='https', host=EndsWith('.io'))": IsURL(scheme="https", host=EndsWith(".io")),
    "IsJSON()": IsJSON(),
    "IsJSON({'status': 'open'})": IsJSON({"status": "open"}),
    "Partial({'q': 1}, ignore=['*_id'])": Partial({"q": 1}, ignore=["*_id"]),
    "ConformsTo({'type': 'string', 'maxLength': 3})": ConformsTo(
        {"type": "string", "maxLength": 3}
    ),
}


@pytest.mark.parametrize("text", list(REPRS))
def test_constructor_like_reprs_that_rebuild_and_pickle(text: str) -> None:
    matcher = REPRS[text]
    assert repr(matcher) == text
    namespace = {kind.__name__: kind for kind in NEW_KINDS} | {"Regex": Regex, "Partial": Partial}
    assert repr(eval(text, namespace)) == text
    clone = pickle.loads(pickle.dumps(matcher))
    assert type(clone) is type(matcher)
    assert repr(clone) == text


def test_mismatches_render_in_notebooks_as_the_others_do() -> None:
    found = explain({"when": IsDatetime(), "n": Between(1, 3)}, {"when": "<soon>", "n": 4})
    assert isinstance(found, Mismatches)
    html = found._repr_html_()
    assert "&#x27;&lt;soon&gt;&#x27; is not an ISO 8601 datetime" in html
    assert "expected a number from 1 to 3, got 4" in html
    assert str(found) == (
        "when: '<soon>' is not an ISO 8601 datetime\nn: expected a number from 1 to 3, got 4"
    )


actuals = st.one_of(values, shaped_texts, st.lists(shaped_texts, max_size=4))
MANY = settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@MANY
@given(catalogue_matchers, actuals)
def test_new_matchers_never_raise_agree_from_both_sides_and_explain_consistently(
    matcher: Matcher, actual: Any
) -> None:
    forward = matcher == actual
    backward = actual == matcher
    assert type(forward) is bool
    assert forward is backward
    assert (matcher != actual) is (not forward)
    assert (actual != matcher) is (not forward)
    assert (matcher.explain(actual) is None) is forward
    assert (len(explain(matcher, actual)) == 0) is forward
    assert ({"k": matcher} == {"k": actual}) is forward
    clone = pickle.loads(pickle.dumps(matcher))
    assert repr(clone) == repr(matcher)
    assert (clone == actual) is forward


def test_the_new_matchers_are_exported_and_immutable() -> None:
    import toolmatch

    for kind in NEW_KINDS:
        assert kind.__name__ in toolmatch.__all__
    with pytest.raises(AttributeError, match="immutable"):
        Gt(1).bound = 2  # type: ignore[misc]


# --- ConformsTo (issue 14, item 7 in part: the matcher for one value) ---------------------

FLIGHTS = {
    "type": "object",
    "properties": {
        "origin": {"type": "string"},
        "passengers": {"type": "integer", "minimum": 1},
        "date": {"type": "string", "format": "date"},
        "cabin": {"enum": ["economy", "business"]},
    },
    "required": ["origin", "passengers"],
    "additionalProperties": False,
}


def test_conforms_to_checks_a_value_against_a_json_schema() -> None:
    flights = ConformsTo(FLIGHTS)
    assert flights == {"origin": "CDG", "passengers": 2, "cabin": "economy"}
    assert flights != {"origin": "CDG", "passengers": True}  # a bool is not an integer
    assert flights != {"origin": "CDG", "passengers": 2, "date": "next tuesday"}
    assert flights != "CDG"
    found = explain({"args": flights}, {"args": {"origin": 7, "pasengers": 2, "cabin": "first"}})
    assert found.lines() == [
        "args: 'passengers' is a required property",
        "args: Additional properties are not allowed ('pasengers' was unexpected)",
        "args.cabin: 'first' is not one of ['economy', 'business']",
        "args.origin: 7 is not of type 'string'",
    ]
    assert repr(pickle.loads(pickle.dumps(flights))) == repr(flights)
    assert repr(ConformsTo({"type": "integer"})) == "ConformsTo({'type': 'integer'})"


def test_conforms_to_refuses_bad_schemas_and_never_fetches() -> None:
    with pytest.raises(ValueError, match="ConformsTo got an invalid schema at type: 'nope'"):
        ConformsTo({"type": "nope"})
    with pytest.raises(TypeError, match="ConformsTo needs a JSON Schema"):
        ConformsTo([1])  # type: ignore[arg-type]
    remote = ConformsTo({"$ref": "https://example.com/schema.json"})
    assert remote != 1  # an unresolvable $ref is a mismatch: nothing is downloaded
    assert remote.explain(1).startswith("could not be validated: ")  # type: ignore[union-attr]


def test_conforms_to_names_the_extra_when_jsonschema_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(ImportError) as raised:
        ConformsTo({"type": "integer"})
    assert str(raised.value) == (
        "ConformsTo needs the jsonschema package: pip install 'toolmatch[schema]'"
    )
