"""Bad input (issue 2): a comparison never raises, and a matcher built wrong fails at once.

Every matcher kind meets actual values built to break it (deeply nested, cyclic, huge,
objects whose dunders raise or lie, numpy arrays): ``==`` answers the right bool, and
``explain`` says why without raising. Wrongly built matchers raise TypeError/ValueError
with a message naming the problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from typing import Any

import pytest

from toolmatch import (
    ANY,
    Absent,
    AllOf,
    AnyOf,
    Approx,
    Contains,
    Exact,
    Fuzzy,
    IsType,
    Literal,
    Matcher,
    Maybe,
    Not,
    OneOf,
    Partial,
    Regex,
    explain,
)

np = pytest.importorskip("numpy")

# --- hostile actual values -------------------------------------------------------------


class Explosive:
    """Every protocol method raises."""

    def _boom(self, *args: object, **kwargs: object) -> Any:
        raise RuntimeError("boom")

    __str__ = __repr__ = __format__ = __len__ = __iter__ = __getitem__ = _boom
    __eq__ = __ne__ = __lt__ = __hash__ = __bool__ = __float__ = __int__ = __index__ = _boom
    keys = items = values = get = __contains__ = _boom


class StrNotStr:
    """``__str__`` returns a non-string, so ``str(x)`` raises TypeError."""

    def __str__(self) -> Any:
        return 42

    __repr__ = __str__


class AlwaysEqual:
    """Claims to equal everything."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return "AlwaysEqual()"


class LyingInt(int):
    """An int whose ``==`` always says True."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = int.__hash__


class LyingStr(str):
    """A str whose ``==`` always says True and whose str()/repr() are somebody else's."""

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    __hash__ = str.__hash__

    def __str__(self) -> str:
        return "x"

    def __repr__(self) -> str:
        return "'x'"


class LowerLies(str):
    """A str whose ``lower()`` answers another word."""

    def lower(self) -> str:  # type: ignore[override]
        return "x"


class BadLen(list):  # type: ignore[type-arg]
    def __len__(self) -> int:
        raise RuntimeError("len")


class BadIter(list):  # type: ignore[type-arg]
    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError("iter")


class BadLenSet(set):  # type: ignore[type-arg]
    def __len__(self) -> int:
        raise RuntimeError("len")


class BadIterSet(set):  # type: ignore[type-arg]
    def __iter__(self) -> Iterator[Any]:
        raise RuntimeError("iter")


class RaisingMapping(Mapping[str, Any]):
    """A mapping with keys, but every lookup raises."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("lookup")

    def __iter__(self) -> Iterator[str]:
        return iter(["a", "b"])

    def __len__(self) -> int:
        return 2


class LyingLenMapping(Mapping[str, Any]):
    """Holds key 'a', but says it has no keys and is empty."""

    def __getitem__(self, key: str) -> Any:
        if key == "a":
            return 1
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("iter")

    def __len__(self) -> int:
        raise RuntimeError("len")


def _deep_list(depth: int) -> list[Any]:
    root: list[Any] = []
    current = root
    for _ in range(depth):
        child: list[Any] = []
        current.append(child)
        current = child
    return root


def _deep_dict(depth: int) -> dict[str, Any]:
    root: dict[str, Any] = {}
    current = root
    for _ in range(depth):
        child: dict[str, Any] = {}
        current["a"] = child
        current = child
    return root


def _cyclic_list() -> list[Any]:
    items: list[Any] = [1]
    items.append(items)
    return items


def _cyclic_dict() -> dict[str, Any]:
    mapping: dict[str, Any] = {"a": 1}
    mapping["self"] = mapping
    return mapping


HUGE_LIST = [0] * 10**6
HUGE_STR = "y" * 10**7

HOSTILE: dict[str, Any] = {
    "deep list": _deep_list(100_000),
    "deep dict": _deep_dict(100_000),
    "cyclic list": _cyclic_list(),
    "cyclic dict": _cyclic_dict(),
    "huge list": HUGE_LIST,
    "huge str": HUGE_STR,
    "huge int": 10**5000,  # str() refuses it (int max str digits)
    "int past float": 10**400,
    "explosive": Explosive(),
    "explosive in list": [Explosive()],
    "explosive in dict": {"a": Explosive()},
    "explosive in tuple": (Explosive(),),
    "str() not a str": StrNotStr(),
    "always equal": AlwaysEqual(),
    "always equal in dict": {"a": AlwaysEqual()},
    "always equal in list": [AlwaysEqual(), AlwaysEqual()],
    "lying int": LyingInt(7),
    "lying str": LyingStr("y"),
    "lying str in dict": {"a": LyingStr("y")},
    "bad len list": BadLen([1]),
    "bad iter list": BadIter([1]),
    "bad len set": BadLenSet({1}),
    "bad iter set": BadIterSet({1, 2}),  # the size matches, so the elements are visited
    "raising mapping": RaisingMapping(),
    "lying len mapping": LyingLenMapping(),
    "numpy vector": np.array([1, 2]),
    "numpy matrix": np.array([[1.0, np.nan]]),
    "numpy empty": np.array([]),
    "numpy 0-d str": np.array("y"),
    "decimal snan": Decimal("sNaN"),
    "bytes": b"\xff\x00",
}

# Python asks these values' own __eq__ first and it answers, so `actual == m` is theirs.
DO_NOT_DEFER = {
    "explosive",
    "always equal",
    "lying int",
    "lying str",
    "numpy vector",
    "numpy matrix",
    "numpy empty",
    "numpy 0-d str",
}

# One matcher of every kind that no hostile value above may match...
NEVER: dict[str, Matcher] = {
    "Literal int": Literal(1),
    "Literal str": Literal("x"),
    "Literal str options": Literal("x", trim_strings=True, case_insensitive=True),
    "Literal None": Literal(None),
    "Literal True": Literal(True),
    "Literal list": Literal([1]),
    "Literal nested": Literal({"a": [1, {"b": "x"}]}),
    "Literal dict": Literal({"a": 1}),
    "Literal set": Literal({1, 2}),
    "Fuzzy text": Fuzzy("x"),
    "Fuzzy number": Fuzzy("206,588"),
    "Regex": Regex("x"),
    "OneOf": OneOf(1, "x", Regex("z+")),
    "Approx": Approx(1.5, abs=0.1),
    "Contains": Contains("zz"),
    "Contains matcher": Contains(Literal(99)),
    "IsType": IsType(float, complex),
    "Partial": Partial({"a": 1}),
    "Exact": Exact({"a": 1}),
    "Partial optional": Partial({"zz": Maybe(1), "a": Regex("[0-9]")}),
    "Maybe": Maybe(1),
    "Absent": Absent,
    "AllOf": AllOf(IsType(str), Regex("x")),
    "AnyOf": Literal(1) | Regex("x"),
    "Not": ~IsType(object),
}

# ...and one of every kind that every hostile value must match.
ALWAYS: dict[str, Matcher] = {
    "ANY": ANY,
    "IsType object": IsType(object),
    "Not never": Not(Literal("never")),
    "AnyOf always": AnyOf(Literal(1), IsType(object)),
    "AllOf always": AllOf(IsType(object), ~Absent),
    "Maybe always": Maybe(IsType(object)),
    "Literal of a matcher": Literal(IsType(object)),
    "AnyOf with ANY": AnyOf(Literal(1), ANY),
    "AllOf with ANY": AllOf(ANY, IsType(object)),
    "Maybe of ANY": Maybe(ANY),
    "Literal of ANY": Literal(ANY),
}
assert not set(NEVER) & set(ALWAYS)

# Hostile values that the NEVER matchers rightly match, with the matchers they match.
RIGHTLY_MATCHED = {
    # it does hold a = 1; only its len() and iteration lie, and Partial needs neither
    ("lying len mapping", "Partial"),
    ("lying len mapping", "Partial optional"),
    # {"a": 1, "self": <itself>} has a = 1
    ("cyclic dict", "Partial"),
    ("cyclic dict", "Partial optional"),
}

HEAVY = {"huge list", "huge str"}  # each pass over them costs a scan: check less


def _check(matcher: Matcher, actual_name: str, expected: bool) -> None:
    actual = HOSTILE[actual_name]
    result = matcher == actual
    assert type(result) is bool
    assert result is expected, f"== gave {result}"
    reason = matcher.explain(actual)
    if expected:
        assert reason is None, f"explain gave {reason!r}"
    else:
        assert isinstance(reason, str)
        assert reason.strip()
        assert len(reason) < 2000, "an explanation must stay readable, whatever the value"
    if actual_name in HEAVY:
        return
    assert (matcher != actual) is (not expected)
    if actual_name not in DO_NOT_DEFER:
        backward = actual == matcher
        assert type(backward) is bool
        assert backward is expected, f"reflected == gave {backward}"
        assert (actual != matcher) is (not expected)
    found = explain(matcher, actual)
    mismatches = list(matcher.mismatches(actual, "arg"))
    if expected:
        assert found == []
        assert mismatches == []
    else:
        assert found
        assert all(mismatch.reason and len(str(mismatch)) < 2000 for mismatch in found)
        assert mismatches
        assert all(mismatch.path.startswith("arg") for mismatch in mismatches)


def _expected(matcher_name: str, actual_name: str) -> bool:
    return (matcher_name in ALWAYS) is not ((actual_name, matcher_name) in RIGHTLY_MATCHED)


@pytest.mark.parametrize(
    ("matcher_name", "matcher"),
    [pytest.param(name, matcher, id=name) for name, matcher in {**NEVER, **ALWAYS}.items()],
)
def test_hostile_values_get_a_bool_and_an_explanation(matcher_name: str, matcher: Matcher) -> None:
    failures = []
    for actual_name in HOSTILE:
        try:
            _check(matcher, actual_name, _expected(matcher_name, actual_name))
        except Exception as error:  # collect them all: one report per matcher
            failures.append(f"{actual_name}: {type(error).__name__}: {error}")
    assert not failures, f"{matcher!r} against:\n" + "\n".join(failures)


def _short_id(value: object) -> str:
    try:
        text = repr(value)
    except ValueError:  # an int too long to print
        return type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


# --- a hostile actual never decides a nested comparison ---------------------------------


@pytest.mark.parametrize(
    ("matcher", "actual"),
    [
        (Literal({"a": 1}), {"a": AlwaysEqual()}),
        (Literal({"a": "x"}), {"a": AlwaysEqual()}),
        (Literal({"a": None}), {"a": AlwaysEqual()}),
        (Literal({"a": True}), {"a": AlwaysEqual()}),
        (Literal({"a": True}), {"a": LyingInt(1)}),
        (Literal([1, "x"]), [AlwaysEqual(), AlwaysEqual()]),
        (Literal((1, [2])), (1, [LyingInt(3)])),
        (Literal({"a": "x"}), {"a": LyingStr("y")}),
        (Literal("x"), LyingStr("y")),
        (Literal(1), LyingInt(7)),
        (Literal(1.5), LyingInt(7)),
        (Literal(Decimal("1.5")), LyingInt(7)),
        (Literal({1, 2}), {AlwaysEqual(), 2}),
        (Literal(frozenset({"x"})), frozenset({LyingStr("y")})),
        (Literal({"when": Decimal(2)}), {"when": AlwaysEqual()}),
        (Partial({"a": 1}), {"a": AlwaysEqual(), "b": 2}),
        (Exact({"a": "x"}), {"a": AlwaysEqual()}),
        (Exact({"a": Maybe(1)}), {"a": AlwaysEqual()}),
        (OneOf(1, "x", None), AlwaysEqual()),
        (OneOf(1, "x"), LyingStr("y")),
        (Contains(1), [AlwaysEqual()]),
        (Contains("x"), [LyingStr("y")]),
        (Contains("x"), {AlwaysEqual(): 1}),
        (Contains("x"), LyingStr("y")),
        (Approx(1), AlwaysEqual()),
        (Approx(1), LyingInt(7)),
        (Fuzzy("x"), LyingStr("y")),
        (Regex("x"), LyingStr("y")),
        (IsType(int), AlwaysEqual()),
        (Not(ANY), AlwaysEqual()),
        (AllOf(IsType(int), Literal(1)), LyingInt(7)),
        (AnyOf(Literal(1), Literal("x")), AlwaysEqual()),
        (Maybe(1), AlwaysEqual()),
    ],
    ids=_short_id,
)
def test_a_lying_actual_never_decides(matcher: Matcher, actual: object) -> None:
    assert (matcher == actual) is False
    assert matcher.explain(actual)
    assert explain(matcher, actual)
    # inside plain containers the matcher is asked, not the liar
    assert ({"k": matcher} == {"k": actual}) is False
    assert explain({"k": matcher}, {"k": actual})


def test_plain_values_holding_a_liar_compare_strictly_inside_literal() -> None:
    assert Literal({"a": {"b": [1, 2]}}) != {"a": {"b": [1, LyingInt(5)]}}
    assert Literal({"a": {"b": [1, 2]}}) == {"a": {"b": [1, LyingInt(2)]}}  # same value
    assert Literal("y") == LyingStr("y")  # its characters, not its claims


def test_a_str_subclass_cannot_fake_its_lowercase() -> None:
    assert Fuzzy("x") != LowerLies("y")


# --- numpy -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("matcher", "actual", "expected"),
    [
        (Literal([1, 2]), np.array([1, 2]), False),  # an array is not a list
        (Literal(1), np.array([1]), False),
        (Literal(1), np.array(1), False),
        (Literal({"a": [1]}), {"a": np.array([1])}, False),
        (Approx(1), np.array([1.0]), False),
        (Contains(1), np.array([1, 2]), False),
        (Fuzzy("1"), np.array([1]), False),
        (Regex(r"\[1 2\]"), np.array([1, 2]), True),  # str(array)
        (IsType(np.ndarray), np.array([1]), True),
        (IsType(list), np.array([1]), False),
        (OneOf([1, 2], 1), np.array([1, 2]), False),
        (Partial({}), np.array([]), False),
        (AnyOf(ANY), np.array([np.nan]), True),
        (~Literal(1), np.array([1, 1]), True),
        (Literal(1.5), np.float32(1.5), True),
        (Literal(True), np.bool_(True), True),
        (Literal(1), np.bool_(True), False),
        (Approx(2.0), np.float16(2.0), True),
        (IsType(int), np.int64(1), False),  # numpy ints are not ints
        (IsType(np.integer), np.int64(1), True),
    ],
    ids=_short_id,
)
def test_numpy_values_get_the_right_answer_from_both_sides(
    matcher: Matcher, actual: Any, expected: bool
) -> None:
    assert (matcher == actual) is expected
    backward = actual == matcher
    assert type(backward) is bool, "numpy must hand the comparison to the matcher"
    assert backward is expected
    assert (matcher.explain(actual) is None) is expected


def test_a_numpy_bool_expected_value_is_strict() -> None:
    assert Literal(np.True_) != 1
    assert Literal([np.False_]) != [0.0]
    assert OneOf(np.True_) != 1


def test_keys_are_looked_up_as_dict_keys() -> None:
    # A decision, documented in docs/semantics.md: bools are strict in values at every
    # depth, but keys are found by dict lookup, where True and 1 are the same key.
    assert Literal({1: "x"}) == {True: "x"}
    assert Exact({True: "x"}) == {1: "x"}


# --- numbers past the edges -------------------------------------------------------------


def test_fuzzy_number_against_an_int_too_large_for_a_float() -> None:
    assert (Fuzzy("1") == 10**400) is False
    assert Fuzzy("1").explain(10**400)


def test_approx_infinity_matches_only_the_same_infinity() -> None:
    assert Approx(float("inf")) == float("inf")
    assert Approx(float("inf")) != 1.0
    assert Approx(float("inf")) != float("-inf")
    assert Approx(float("-inf")) != 5


@pytest.mark.parametrize(
    ("matcher", "actual"),
    [
        (Approx(1), 10**400),
        (Approx(1), Decimal("sNaN")),
        (Approx(1), Decimal("NaN")),
        (Literal(1), Decimal("sNaN")),
        (Literal(Decimal("sNaN")), Decimal("sNaN")),
        (Literal(1.0), 10**400),
        (Literal(np.float64(1.0)), 10**400),
        (Literal(10**400), float("inf")),
        (Literal(float("nan")), float("nan")),
        (Regex("1+"), 10**5000),
        (Fuzzy("x"), 10**5000),
        (Fuzzy("x"), Decimal("sNaN")),
    ],
    ids=_short_id,
)
def test_awkward_numbers_are_rejected_quietly(matcher: Matcher, actual: object) -> None:
    assert (matcher == actual) is False
    assert (actual == matcher) is False
    assert matcher.explain(actual)


# --- construction errors -----------------------------------------------------------------


def _cyclic() -> list[Any]:
    return _cyclic_list()


CONSTRUCTION_ERRORS: list[Any] = [
    # (build, exception, words the message must contain)
    (lambda: Regex("(unclosed"), ValueError, ["(unclosed", "missing )"]),
    (lambda: Regex("a{2,1}"), ValueError, ["a{2,1}", "min repeat greater than max repeat"]),
    (lambda: Regex(b"x"), TypeError, ["str"]),
    (lambda: Regex(re.compile(b"x")), TypeError, ["str"]),
    (lambda: Regex(42), TypeError, ["pattern", "42"]),
    (lambda: Regex("x", flags="i"), TypeError, ["flags"]),
    (lambda: Regex(re.compile("x"), flags=re.I), ValueError, ["flags", "compiled"]),
    (lambda: Approx(1, rel=-0.1), ValueError, ["rel", "-0.1"]),
    (lambda: Approx(1, abs=-1), ValueError, ["abs", "-1"]),
    (lambda: Approx(1, rel=float("nan")), ValueError, ["rel", "nan"]),
    (lambda: Approx(1, abs=float("nan")), ValueError, ["abs", "nan"]),
    (lambda: Approx(1, rel="0.1"), TypeError, ["rel", "number"]),
    (lambda: Approx(1, abs=True), TypeError, ["abs", "number"]),
    (lambda: Approx("3.0"), TypeError, ["number", "'3.0'"]),
    (lambda: Approx(None), TypeError, ["number", "None"]),
    (lambda: Approx(True), TypeError, ["number", "True"]),
    (lambda: Approx(float("nan")), ValueError, ["nan"]),
    (lambda: Approx(Decimal("NaN")), ValueError, ["nan"]),
    (lambda: IsType(), ValueError, ["IsType", "type"]),
    (lambda: IsType(1), TypeError, ["type", "1"]),
    (lambda: IsType(int, "str"), TypeError, ["type", "'str'"]),
    (lambda: IsType(0), TypeError, ["type"]),
    (lambda: OneOf(), ValueError, ["OneOf", "candidate"]),
    (lambda: AllOf(), ValueError, ["AllOf", "matcher"]),
    (lambda: AnyOf(), ValueError, ["AnyOf", "matcher"]),
    (lambda: Fuzzy(206588), TypeError, ["Fuzzy", "str", "206588"]),
    (lambda: Fuzzy(None), TypeError, ["Fuzzy", "str"]),
    (lambda: Literal(_cyclic()), ValueError, ["contains itself"]),
    (lambda: Literal({"a": _cyclic()}), ValueError, ["contains itself"]),
    (lambda: Partial({"a": _cyclic()}), ValueError, ["contains itself"]),
    (lambda: OneOf(_cyclic()), ValueError, ["contains itself"]),
    (lambda: Literal({ANY}), TypeError, ["set", "matcher"]),
    (lambda: Literal([frozenset({Regex("x")})]), TypeError, ["set", "matcher"]),
    (lambda: Exact({"a": {Fuzzy("x")}}), TypeError, ["set", "matcher"]),
    (lambda: Partial([("a", 1)]), TypeError, ["Partial", "dict"]),
    (lambda: Exact("a=1"), TypeError, ["Exact", "dict"]),
    (lambda: Partial(None), TypeError, ["Partial", "dict"]),
    (lambda: Literal("x", trim_strings="yes"), TypeError, ["trim_strings", "'yes'"]),
    (lambda: Literal("x", case_insensitive=1), TypeError, ["case_insensitive", "1"]),
    (lambda: Partial({}, trim_strings=None), TypeError, ["trim_strings"]),
    (lambda: Exact({}, case_insensitive="no"), TypeError, ["case_insensitive"]),
    (lambda: Maybe(Absent), TypeError, ["Maybe", "Absent"]),
    (lambda: Maybe(Maybe(1)), TypeError, ["Maybe"]),
]


@pytest.mark.parametrize(
    ("build", "error", "words"),
    CONSTRUCTION_ERRORS,
    ids=[f"{index}-{words[0]}" for index, (_, _, words) in enumerate(CONSTRUCTION_ERRORS)],
)
def test_a_matcher_built_wrong_raises_and_names_the_problem(
    build: Callable[[], object], error: type[Exception], words: list[str]
) -> None:
    with pytest.raises(error) as raised:
        build()
    message = str(raised.value)
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {message!r}"


def test_an_invalid_regex_message_carries_re_own_message() -> None:
    with pytest.raises(ValueError, match=r"unterminated") as raised:
        Regex("[a-")
    assert "'[a-'" in str(raised.value)
    assert raised.value.__cause__ is None or isinstance(raised.value.__cause__, re.error)


@pytest.mark.parametrize(
    "build", [lambda: Approx(10**400), lambda: Approx(1, rel=10**400)], ids=["value", "rel"]
)
def test_approx_of_an_int_too_large_for_a_float(build: Callable[[], object]) -> None:
    with pytest.raises((TypeError, ValueError), match=r"Approx"):
        build()


def test_approx_of_a_signaling_nan_names_approx() -> None:
    with pytest.raises(ValueError, match=r"Approx"):
        Approx(Decimal("sNaN"))
