"""The Matcher base class: final ==, symmetry, hashing, truthiness, immutability, pickling,
composition and reprs (issue 2, deliverable 2)."""

from __future__ import annotations

import pickle
import re

import pytest

from toolmatch import ANY, AllOf, AnyOf, Approx, Fuzzy, IsType, Literal, Matcher, Not, OneOf, Regex

np = pytest.importorskip("numpy")


class IsEven(Matcher):
    def matches(self, actual: object) -> bool:
        return isinstance(actual, int) and actual % 2 == 0


class Plain:
    """An object with the default __eq__, which defers to the other side."""


@pytest.mark.parametrize(
    "value",
    ["abc", 3, 3.5, True, None, [1, 2], (1, 2), {"a": 1}, np.int64(3), np.float64(3.5), Plain()],
    ids=lambda value: type(value).__name__,
)
@pytest.mark.parametrize("matcher", [ANY, Regex("a.*"), Approx(3.0), IsEven(), ~IsType(str)])
def test_the_matcher_decides_from_either_side(matcher: Matcher, value: object) -> None:
    forward = matcher == value
    assert type(forward) is bool
    assert (value == matcher) is forward
    assert (matcher != value) is (not forward)
    assert (value != matcher) is (not forward)


def test_numpy_defers_to_the_matcher() -> None:
    assert (np.float64(3.0000001) == Approx(3.0)) is True
    assert (np.bool_(True) == Literal(True)) is True
    assert (np.int64(2) == Literal(2.0)) is True


def test_matchers_hash_by_identity() -> None:
    first, second = Regex("a"), Regex("a")
    assert len({first, second, first}) == 2
    lookup = {first: "first"}
    assert lookup[first] == "first"
    assert second not in lookup


def test_a_matcher_in_a_boolean_context_raises_with_a_hint() -> None:
    with pytest.raises(TypeError, match=r"no truth value.*compare it with `==`"):
        bool(Regex("a"))
    with pytest.raises(TypeError):
        assert Fuzzy("a") or True  # the bug this guard catches: a matcher used as a condition


def test_matchers_are_immutable() -> None:
    matcher = Regex("a")
    with pytest.raises(AttributeError, match="immutable"):
        matcher.pattern = "b"  # type: ignore[misc]
    with pytest.raises(AttributeError, match="immutable"):
        del matcher.pattern


@pytest.mark.parametrize(
    "matcher",
    [
        Literal({"a": [1, "x"]}, case_insensitive=True),
        Regex("a+", flags=re.IGNORECASE),
        Fuzzy("206,588"),
        Approx(3.0, rel=0.01, abs=0.5),
        OneOf(1, Regex("b")),
        Regex("a") & ~Fuzzy("b") | None,
        IsEven(),
    ],
    ids=repr,
)
def test_pickling_preserves_behaviour_and_repr(matcher: Matcher) -> None:
    copy = pickle.loads(pickle.dumps(matcher))
    assert repr(copy) == repr(matcher)
    for value in ["A", "aa", 206588, 3.01, 4, None, {"a": [1.0, "X"]}]:
        assert (copy == value) is (matcher == value)


def test_singletons_unpickle_to_themselves() -> None:
    from toolmatch import Absent

    assert pickle.loads(pickle.dumps(ANY)) is ANY
    assert pickle.loads(pickle.dumps(Absent)) is Absent


def test_subclasses_may_not_override_eq() -> None:
    with pytest.raises(TypeError, match=r"Matcher.__eq__ is final: override matches"):

        class Broken(Matcher):
            def __eq__(self, other: object) -> bool:
                return True


def test_a_subclass_without_matches_cannot_be_built() -> None:
    class Abstract(Matcher):
        pass

    with pytest.raises(TypeError, match="must define matches"):
        Abstract()


def test_a_raising_user_matcher_compares_false() -> None:
    class Raising(Matcher):
        def matches(self, actual: object) -> bool:
            raise RuntimeError("boom")

    assert (Raising() == 1) is False
    assert (Raising() == 1) is False
    assert Raising().explain(1) == "expected Raising(), got 1"


def test_a_user_matcher_returning_a_truthy_value_matches() -> None:
    class Search(Matcher):
        def matches(self, actual: object) -> bool:
            return re.search("x", str(actual))  # type: ignore[return-value]

    assert (Search() == "axb") is True
    assert (Search() == "ab") is False


class TestComposition:
    def test_operators_build_combinators(self) -> None:
        both = IsType(str) & Regex("[a-z]+")
        either = Regex("[0-9]+") | None
        assert isinstance(both, AllOf)
        assert isinstance(either, AnyOf)
        assert isinstance(~both, Not)
        assert both == "paris"
        assert both != "Paris"
        assert either == "42"
        assert either == None  # noqa: E711 (None is the value under test)
        assert either != "x"
        assert ~both == "Paris"

    def test_chains_flatten(self) -> None:
        a, b, c = Regex("a"), Regex("b"), Regex("c")
        assert len(((a & b) & c).matchers) == 3  # type: ignore[attr-defined]
        assert len((a | (b | c)).matchers) == 3  # type: ignore[attr-defined]
        assert len(AllOf(a & b, c).matchers) == 3

    def test_reprs_are_parenthesized_by_structure(self) -> None:
        a, b, c = Regex("a"), Regex("b"), Regex("c")
        assert repr(a & (b | c)) == "Regex('a') & (Regex('b') | Regex('c'))"
        assert repr((a & b) | c) == "(Regex('a') & Regex('b')) | Regex('c')"
        assert repr(~(a | b)) == "~(Regex('a') | Regex('b'))"
        assert repr(~a) == "~Regex('a')"

    def test_plain_values_become_literals(self) -> None:
        assert (Regex("x") | True) != 1  # Literal(True) keeps bools strict
        assert repr(Regex("x") | None) == "Regex('x') | None"

    def test_empty_chains_are_refused(self) -> None:
        with pytest.raises(ValueError, match="at least one matcher"):
            AllOf()
        with pytest.raises(ValueError, match="at least one matcher"):
            AnyOf()

    def test_explanations_compose(self) -> None:
        assert (IsType(str) & Regex("[a-z]+")).explain(5) == (
            "expected an instance of str, got 5 (int); regex '[a-z]+' does not match 5"
        )
        assert (Regex("[0-9]+") | Fuzzy("none")).explain("x") == (
            "none matched: regex '[0-9]+' does not match 'x'; fuzzy 'none' does not match 'x'"
        )
        assert (~ANY).explain(1) == "expected anything but ANY, got 1"


@pytest.mark.parametrize(
    ("matcher", "text"),
    [
        (Fuzzy("206588"), "Fuzzy('206588')"),
        (Regex("^2009.*$"), "Regex('^2009.*$')"),
        (Regex("a", flags=re.I), "Regex('a', flags=re.IGNORECASE)"),
        (Approx(3.0, rel=0.01), "Approx(3.0, rel=0.01)"),
        (Approx(3.0), "Approx(3.0)"),
        (Approx(3.0, abs=0.5), "Approx(3.0, abs=0.5)"),
        (OneOf(1, "a"), "OneOf(1, 'a')"),
        (IsType(int, float), "IsType(int, float)"),
        (Literal([1]), "Literal([1])"),
        (Literal("a", trim_strings=True), "Literal('a', trim_strings=True)"),
        (ANY, "ANY"),
    ],
)
def test_reprs_look_like_constructors_without_defaults(matcher: Matcher, text: str) -> None:
    assert repr(matcher) == text


def test_explain_is_none_on_a_match_and_one_line_otherwise() -> None:
    assert Fuzzy("206588").explain("206 588") is None
    assert Fuzzy("206588").explain(205000) == "fuzzy '206588' does not match 205000"


@pytest.mark.parametrize(
    ("kind", "values"),
    [
        ("Mismatch", {"path": "q", "reason": "missing"}),
        ("Candidate", {"index": 3, "call": "CALL", "mismatches": ()}),
        ("IgnoredCall", {"index": 3, "call": "CALL", "by": 1, "pattern": "PATTERN"}),
    ],
)
def test_value_records_take_their_fields_in_order_or_by_name(
    kind: str, values: dict[str, object]
) -> None:
    import toolmatch

    fill = {"CALL": toolmatch.ToolCall("s", {"q": 1}), "PATTERN": toolmatch.ExpectedTool("s")}
    values = {
        key: fill.get(value, value) if isinstance(value, str) else value
        for key, value in values.items()
    }
    record = getattr(toolmatch, kind)
    by_position, by_name = record(*values.values()), record(**values)
    assert by_position == by_name
    assert {key: getattr(by_name, key) for key in values} == values
    assert pickle.loads(pickle.dumps(by_name)) == by_name
    with pytest.raises(TypeError):
        record(*values.values(), "one too many")
    with pytest.raises(AttributeError, match=f"a {kind} is immutable"):
        by_name.index = 0  # type: ignore[misc]
