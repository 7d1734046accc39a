"""toolmatch.explain(expected, actual): every mismatch, with its path, on either side."""

from __future__ import annotations

from toolmatch import ANY, Approx, Fuzzy, Mismatch, Partial, Regex, explain


def lines(expected: object, actual: object) -> list[str]:
    return [str(mismatch) for mismatch in explain(expected, actual)]


def test_equal_values_explain_nothing() -> None:
    assert explain({"a": Fuzzy("1,000")}, {"a": 1000}) == []
    assert explain([1, 2], [1, 2]) == []


def test_every_mismatch_not_only_the_first() -> None:
    expected = {"a": Fuzzy("206588"), "b": 1, "c": Regex("x+"), "d": ANY}
    assert lines(expected, {"a": 205000, "c": "y", "d": None, "e": 0}) == [
        "a: fuzzy '206588' does not match 205000",
        "b: missing",
        "c: regex 'x+' does not match 'y'",
        "e: unexpected key, with value 0",
    ]


def test_paths_into_nested_lists_and_dicts() -> None:
    expected = {"items": [{"id": 1}, {"id": 2}, {"id": Regex("[0-9]+")}]}
    actual = {"items": [{"id": 1}, {"id": 2}, {"id": "x"}]}
    assert explain(expected, actual) == [
        Mismatch("items[2].id", "regex '[0-9]+' does not match 'x'")
    ]


def test_matchers_on_the_right_side() -> None:
    assert lines({"a": 205000}, {"a": Fuzzy("206588")}) == [
        "a: fuzzy '206588' does not match 205000"
    ]
    assert lines("x", Regex("y")) == ["regex 'y' does not match 'x'"]


def test_nested_matchers_report_their_inner_paths() -> None:
    expected = {"args": Partial({"q": "paris", "n": Approx(5)})}
    assert lines(expected, {"args": {"q": "rome"}}) == [
        "args.q: expected 'paris', got 'rome'",
        "args.n: missing",
    ]


def test_plain_parts_follow_python_equality() -> None:
    # `==` on a plain dict says True == 1, so nothing is reported there.
    assert explain({"flag": True, "a": Regex("x")}, {"flag": 1, "a": "x"}) == []
    assert lines([1, 2], (1, 2)) == ["expected [1, 2], got (1, 2)"]


def test_odd_keys_are_quoted_in_paths() -> None:
    assert lines({"my key": 1, 3: 2}, {"my key": 2, 3: 3}) == [
        "['my key']: expected 1, got 2",
        "[3]: expected 2, got 3",
    ]


def test_long_values_are_shortened() -> None:
    (mismatch,) = explain({"text": Regex("short")}, {"text": "x" * 500})
    assert mismatch.reason.endswith("...")
    assert len(mismatch.reason) < 120


def test_mismatch_as_dict() -> None:
    assert Mismatch("a", "missing").as_dict() == {"path": "a", "reason": "missing"}
