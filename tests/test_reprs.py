"""Every exported value prints as Python that rebuilds it (inline-snapshot writes reprs as code).

The reprs are evaluated with toolmatch's exported names in scope, plus ``re`` and
``datetime``: a ``Regex``'s flags print as ``re.IGNORECASE`` and a ``datetime`` argument as
``datetime.datetime(...)``, which need those imports and nothing else.
"""

from __future__ import annotations

import datetime
import re
import warnings

import pytest

import toolmatch
from toolmatch import (
    ANY,
    Absent,
    AllOf,
    AnyOf,
    AnyOrder,
    Approx,
    Between,
    Candidate,
    Capture,
    ChosenAlternative,
    ConfigError,
    ConfigProblem,
    ConformsTo,
    Contains,
    ContainsAll,
    Each,
    EndsWith,
    Exact,
    ExpectedTool,
    ExpectedTurn,
    Fuzzy,
    Ge,
    Gt,
    IgnoredCall,
    InOrder,
    IsDate,
    IsDatetime,
    IsEmail,
    IsJSON,
    IsType,
    IsURL,
    IsUUID,
    JudgedBy,
    Le,
    Len,
    Literal,
    Lt,
    Matcher,
    Maybe,
    Mismatch,
    Not,
    NotRecordedError,
    OneOf,
    Partial,
    Ref,
    Regex,
    Satisfies,
    Similar,
    SpecWarning,
    StartsWith,
    TestCase,
    ToolCall,
    Unordered,
    check_turn,
)

# The samples build a ConformsTo, which needs jsonschema.
pytest.importorskip("jsonschema")

UTC = datetime.timezone.utc
TURN = ExpectedTurn([ExpectedTool("search", {"q": "paris"})], ordered=True, max_calls=3)

# One entry per exported class (or singleton): constructor forms with their options.
SAMPLES: dict[str, list[object]] = {
    "Mismatch": [Mismatch("a.b", "expected 1, got 2")],
    "Literal": [Literal("x"), Literal({"$fuzzy": "a"}), Literal(["a", 1], trim_strings=True)],
    "Partial": [
        Partial({"q": "paris", "debug": Absent}),
        Partial({"q": " Paris "}, trim_strings=True, case_insensitive=True, ignore=["trace*"]),
    ],
    "Exact": [Exact({"q": Fuzzy("paris"), "n": Maybe(1)}), Exact({"q": "a"}, ignore=["id"])],
    "Maybe": [Maybe(1), Maybe(Regex("a+"))],
    "Absent": [Absent],
    "Fuzzy": [Fuzzy("New York"), Fuzzy("(9+6)*3", whitespace="remove")],
    "Similar": [Similar("New York", min=0.5), Similar("a b", above=0.25, case_insensitive=True)],
    "Regex": [
        Regex("a.*"),
        Regex("a", re.IGNORECASE),
        Regex(re.compile("^a$", re.IGNORECASE | re.MULTILINE)),
        Regex("a", timeout=1.5),
    ],
    "StartsWith": [StartsWith("call_"), StartsWith("Call_", case_insensitive=True)],
    "EndsWith": [EndsWith(".pdf"), EndsWith(".PDF", case_insensitive=True)],
    "IsUUID": [IsUUID(), IsUUID(4)],
    "IsEmail": [IsEmail()],
    "IsURL": [IsURL(), IsURL(scheme="https", host=EndsWith(".org"), path=StartsWith("/p"))],
    "IsJSON": [IsJSON(), IsJSON({"a": 1}), IsJSON(Partial({"a": 1}))],
    "Gt": [Gt(1)],
    "Ge": [Ge(1.5)],
    "Lt": [Lt(3)],
    "Le": [Le(-2)],
    "Between": [Between(1, 3), Between(0.5, 2.5, inclusive=False)],
    "IsDatetime": [
        IsDatetime(),
        IsDatetime(tz_aware=True),
        IsDatetime("2026-01-01T00:00:00Z", "PT1H"),
        IsDatetime(datetime.datetime(2026, 1, 1, tzinfo=UTC), datetime.timedelta(hours=1)),
        IsDatetime(datetime.date(2026, 1, 1), within=datetime.timedelta(days=1), tz_aware=False),
    ],
    "IsDate": [IsDate(), IsDate("2026-01-01"), IsDate(datetime.date(2026, 1, 1), 2)],
    "Unordered": [Unordered([1, 2]), Unordered([Gt(0), "a"])],
    "ContainsAll": [ContainsAll([1]), ContainsAll([Gt(1), 2])],
    "Each": [Each(IsType(int)), Each(1)],
    "Len": [Len(2), Len(Between(1, 2))],
    "ANY": [ANY],
    "OneOf": [OneOf(1, "a", None)],
    "Approx": [Approx(3), Approx(3, abs=1), Approx(2.5, rel=0.1)],
    "Contains": [Contains("a"), Contains(Gt(1))],
    "IsType": [IsType(int), IsType(int, str), IsType(type(None)), IsType(bool, list, dict)],
    # a named function prints as its name: valid where that name is in scope
    "Satisfies": [Satisfies(callable, "a callable")],
    "ConformsTo": [ConformsTo({"type": "integer", "minimum": 1}), ConformsTo(True)],
    "JudgedBy": [JudgedBy("polite")],
    "Capture": [Capture("order"), Capture("order", match=StartsWith("ord_"))],
    "Ref": [Ref("order")],
    "AllOf": [
        AllOf(Gt(1), Lt(3)),
        AllOf(1),
        AllOf(1, Gt(0)),  # `1 & Gt(0)` would be int's & first: printed as a call
        AllOf(AnyOf(Gt(5), Lt(0)), Not(2)),
    ],
    "AnyOf": [
        AnyOf(1, 2),  # `1 | 2` is 3
        AnyOf(Regex("[0-9]+"), None),
        AnyOf({"a": 1}, {"b": 2}),  # `{'a': 1} | {'b': 2}` merges the dicts
        AnyOf(Gt(1) & Lt(3), 5),
        AnyOf(Literal("x", trim_strings=True), "y"),
    ],
    "Not": [Not(1), Not(Gt(1)), Not(AnyOf(Gt(1), 0)), Not({"a": 1})],
    "ToolCall": [
        ToolCall("search"),
        ToolCall("search", {"q": "paris", "n": [1, 2.5, None]}, id="call_1"),
        ToolCall("cd", {}, parse_error="not JSON"),
        ToolCall("get", {"q": "x"}, result={"temp": 21}, failed=False),
    ],
    "ExpectedTool": [
        ExpectedTool("search"),
        ExpectedTool("search", {"q": Fuzzy("paris")}),
        ExpectedTool(Regex("get_.*"), Partial({"q": 1}), count=2, max_count=3),
        ExpectedTool("search", count=0, max_count=1, result=Contains("ok"), failed=False),
        ExpectedTool.never("delete"),
        ExpectedTool.never("delete", {"path": "/"}, failed=True),
        ExpectedTool("refund", agent="billing"),
        ExpectedTool.never("refund", agent=Regex("tri.*")),
        ExpectedTool("refund", id="refund", before=["notify"], after=["check", "lookup"]),
    ],
    "InOrder": [InOrder(ExpectedTool("a"), AnyOrder(ExpectedTool("b"), ExpectedTool("c")))],
    "AnyOrder": [AnyOrder(InOrder(ExpectedTool("a"), ExpectedTool("b")), ExpectedTool("c"))],
    "Candidate": [Candidate(0, ToolCall("a", {"b": 1}), (Mismatch("b", "expected 2"),))],
    "IgnoredCall": [
        IgnoredCall(1, ToolCall("log"), 0, "log*"),
        IgnoredCall(0, ToolCall("log", agent="triage"), None, "billing"),
    ],
    "ConfigError": [ConfigError([ConfigProblem("args.a", "bad")], source="spec.yaml")],
    "ConfigProblem": [ConfigProblem("args.a", "must be a string")],
    "NotRecordedError": [NotRecordedError("ExpectedTool.never('a', agent='b') asserts who ...")],
    "SpecWarning": [SpecWarning("args.a", "is data now"), SpecWarning("a", "b", source="s.yaml")],
    "TestCase": [
        TestCase("weather", [TURN, ExpectedTurn([])], max_calls=4),
        TestCase.one_of("either", [TURN], TestCase("b", [ExpectedTurn([])], max_calls=2)),
    ],
    "OneOfTurns": [ExpectedTurn.one_of(TURN, ExpectedTurn([], agent="user"))],
    "ChosenAlternative": [ChosenAlternative("case", 1, 3, False)],
    "ExpectedTurn": [
        TURN,
        ExpectedTurn([ExpectedTool("a")], distinct=True, exhaustive=True, no_repeats=True),
        ExpectedTurn([], ignore=[ExpectedTool("log")]),
        ExpectedTurn([InOrder(ExpectedTool("a"), ExpectedTool("b")), ExpectedTool("c")]),
    ],
}

# Outcomes, not values one writes: their repr is a one-line summary in angle brackets
# (docs/pytest.md), as Python's convention is for what no expression rebuilds.
RESULTS = {"ToolCheck", "TurnResult"}
NOT_VALUES = {"Matcher", "ExpectedItem", "__version__"}  # the abstract base classes, and a str

PROBES: list[object] = [
    None,
    True,
    0,
    1,
    2,
    2.5,
    3,
    -2,
    "a",
    "Call_1",
    " Paris ",
    "x.pdf",
    "2026-01-01",
    "2026-01-01T00:30:00Z",
    "0b7d5c57-9a5a-4f0e-8c1e-1f0d7b3a6f11",
    "a@b.co",
    "https://x.org/p",
    '{"a": 1}',
    [1, 2],
    [2, 1],
    [ToolCall("search", {"q": "paris"})],
    {"a": 1},
    {"q": "paris"},
    {"q": "paris", "debug": True},
    ToolCall("search", {"q": "paris", "n": [1, 2.5, None]}, id="call_1"),
]


def _namespace() -> dict[str, object]:
    namespace = {name: getattr(toolmatch, name) for name in toolmatch.__all__}
    return {**namespace, "re": re, "datetime": datetime}


def test_every_export_is_sampled_or_named_as_a_function_or_result():
    classes = {
        name
        for name in toolmatch.__all__
        if not callable(getattr(toolmatch, name)) or isinstance(getattr(toolmatch, name), type)
    }
    assert classes - NOT_VALUES - RESULTS == set(SAMPLES)


@pytest.mark.parametrize(
    "value", [value for values in SAMPLES.values() for value in values], ids=repr
)
def test_repr_is_python_that_rebuilds_the_value(value):
    text = repr(value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SpecWarning)
        rebuilt = eval(text, _namespace())
    assert type(rebuilt) is type(value)
    assert repr(rebuilt) == text
    if isinstance(value, Matcher):
        assert [probe == rebuilt for probe in PROBES] == [probe == value for probe in PROBES]
    elif type(value).__eq__ is not object.__eq__:
        assert rebuilt == value


def test_a_call_holding_matchers_rebuilds_to_the_same_expectation():
    expected = ToolCall("get", {"q": Fuzzy("paris"), "n": Approx(3, abs=1)}, id="c1")
    rebuilt = eval(repr(expected), _namespace())
    assert (
        repr(rebuilt)
        == "ToolCall(name='get', args={'q': Fuzzy('paris'), 'n': Approx(3, abs=1)}, id='c1')"
    )
    assert rebuilt == ToolCall("get", {"q": "Paris", "n": 3.5}, id="c1")
    assert rebuilt != ToolCall("get", {"q": "Paris", "n": 5}, id="c1")


def test_singletons_print_as_their_names():
    assert (repr(ANY), repr(Absent)) == ("ANY", "Absent")
    assert eval("ANY", _namespace()) is ANY
    assert eval("Absent", _namespace()) is Absent


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (AnyOf(1, 2), "AnyOf(1, 2)"),
        (AnyOf(Gt(1), 2, 3), "Gt(1) | 2 | 3"),
        (AllOf(AnyOf(Gt(1), 2), Lt(3)), "(Gt(1) | 2) & Lt(3)"),
        (AllOf(AnyOf(1, Gt(2)), Lt(3)), "AnyOf(1, Gt(2)) & Lt(3)"),
        (Not(AnyOf(Gt(1), 2)), "~(Gt(1) | 2)"),
        (~Gt(1), "~Gt(1)"),
        (Not(1), "Not(1)"),
        (IsType(type(None), int), "IsType(type(None), int)"),
        (ConfigError([ConfigProblem("a", "b")]), "ConfigError([ConfigProblem('a', 'b')])"),
        (SpecWarning("a", "b", source="s"), "SpecWarning('a', 'b', source='s')"),
    ],
)
def test_operators_only_where_python_builds_the_matcher_from_them(value, text):
    assert repr(value) == text


def test_results_print_a_summary_not_code():
    result = check_turn([ExpectedTool("search")], [{"name": "search"}])
    assert repr(result).startswith("<TurnResult passed")
    assert repr(result.checks[0]).startswith("<ToolCheck passed ExpectedTool('search')")
