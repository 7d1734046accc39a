"""``explain(expected, actual)``: every mismatch between two values, with its path."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

from toolmatch._core.describe import describe_found, join_path, short_repr
from toolmatch._core.immutable import Record
from toolmatch._core.public import public
from toolmatch._matchers.base import MAX_DEPTH, Matcher, Mismatch, Mismatches, is_instance

__all__ = ["explain", "holds", "holds_matcher"]


@public
def explain(expected: object, actual: object) -> Mismatches:
    """Every reason ``expected == actual`` is false, each with a path; ``[]`` when equal.

    Works on a matcher, or on plain dicts and lists holding matchers at any depth, on
    either side. Plain parts are judged as ``==`` judges them, matchers by their own rules.
    Two records of one type (two calls) are compared field by field, and two
    lists holding records item by item, a missing or extra item at its index.

    >>> from toolmatch import Fuzzy, Regex
    >>> expected = {"a": Fuzzy("206588"), "b": 1, "items": [{"id": Regex("[0-9]+")}]}
    >>> for mismatch in explain(expected, {"a": 205000, "items": [{"id": "x7"}]}):
    ...     print(mismatch)
    a: fuzzy '206588' does not match 205000
    b: missing
    items[0].id: regex '[0-9]+' does not match 'x7'

    >>> from toolmatch import ToolCall
    >>> expected = [ToolCall("search", {"q": Fuzzy("paris")}), ToolCall("fetch")]
    >>> for mismatch in explain(expected, [ToolCall("search", {"q": "rome"}, id="call_1")]):
    ...     print(mismatch)
    [0].args.q: fuzzy 'paris' does not match 'rome'
    [0].id: expected None, got 'call_1'
    [1]: missing, expected ToolCall(name='fetch', args={})
    """
    # is_instance, not isinstance: a lazy proxy's __class__ lookup may raise.
    if is_instance(expected, Matcher):
        return Mismatches(expected._found_mismatches(actual, ""))
    if is_instance(actual, Matcher):
        return Mismatches(actual._found_mismatches(expected, ""))
    if holds_matcher(actual) and not holds_matcher(expected):
        expected, actual = actual, expected
    try:
        return Mismatches(_plain_mismatches(expected, actual, "", 0))
    except Exception as error:  # a misbehaving value must not break a failure report
        return Mismatches([Mismatch("", f"could not compare: {type(error).__name__}: {error}")])


def holds_matcher(value: object) -> bool:
    """Whether ``value`` is a matcher or a dict, list, tuple or record holding one at any depth."""
    return holds(value, Matcher)


def holds(value: object, kind: type, depth: int = 0) -> bool:
    """Whether ``value`` is a ``kind`` or a dict, list, tuple or record holding one at any depth."""
    if is_instance(value, kind):
        return True
    if depth > MAX_DEPTH:
        return False
    try:
        if isinstance(value, Mapping):
            return any(holds(item, kind, depth + 1) for item in value.values())
        if isinstance(value, (list, tuple)):
            return any(holds(item, kind, depth + 1) for item in value)
        if is_instance(value, Record):
            return any(holds(item, kind, depth + 1) for item in value._values())
    except Exception:  # a hostile container is simply not one of ours
        return False
    return False


def _plain_mismatches(
    expected: object, actual: object, path: str, depth: int
) -> Iterator[Mismatch]:
    if expected is actual:
        return
    if is_instance(expected, Matcher):
        yield from expected._found_mismatches(actual, path)
        return
    if is_instance(actual, Matcher):
        yield from actual._found_mismatches(expected, path)
        return
    if depth > MAX_DEPTH:
        if not _equal(expected, actual):
            yield Mismatch(path, "differs (too deeply nested to explain further)")
        return
    yield from _container_mismatches(expected, actual, path, depth)


def _container_mismatches(
    expected: object, actual: object, path: str, depth: int
) -> Iterator[Mismatch]:
    """:func:`_plain_mismatches` for two values neither of which is a matcher: two dicts,
    lists, tuples or records of one type part by part, anything else whole."""
    if is_instance(expected, dict) and is_instance(actual, dict):
        yield from _dict_mismatches(expected, actual, path, depth)
        return
    same_sequence = (is_instance(expected, list) and is_instance(actual, list)) or (
        is_instance(expected, tuple) and is_instance(actual, tuple)
    )
    if same_sequence:
        yield from _sequence_mismatches(expected, actual, path, depth)  # type: ignore[arg-type]
        return
    if is_instance(expected, Record) and type(expected) is type(actual):
        yield from _record_mismatches(expected, actual, path, depth)
        return
    if not _equal(expected, actual):
        yield Mismatch(
            path, f"expected {short_repr(expected)}, got {describe_found(expected, actual)}"
        )


def _record_mismatches(
    expected: Record, actual: Record, path: str, depth: int
) -> Iterator[Mismatch]:
    """Each field of two records of one type that differs: Record's == compares the fields
    in order, and so does its explanation."""
    fields = zip(expected._fields, expected._values(), actual._values(), strict=True)
    for field, left, right in fields:
        yield from _plain_mismatches(left, right, join_path(path, field), depth + 1)


def _dict_mismatches(
    expected: dict[object, object], actual: dict[object, object], path: str, depth: int
) -> Iterator[Mismatch]:
    """Each expected key missing or with another value, then each unexpected key."""
    for key, value in expected.items():
        if key not in actual:
            yield Mismatch(join_path(path, key), "missing")
        else:
            yield from _plain_mismatches(value, actual[key], join_path(path, key), depth + 1)
    for key, value in actual.items():
        if key not in expected:
            yield Mismatch(join_path(path, key), f"unexpected key, with value {short_repr(value)}")


def _sequence_mismatches(
    expected: Sequence[object], actual: Sequence[object], path: str, depth: int
) -> Iterator[Mismatch]:
    records = any(is_instance(item, Record) for item in (*expected, *actual))
    if len(expected) != len(actual) and not records:
        found = f"got {len(actual)}: {short_repr(actual)}"
        yield Mismatch(path, f"expected {len(expected)} items, {found}")
        return
    # Calls (records) are explained index by index whatever the lengths: each one's
    # mismatches say more than a count.
    for index, (left, right) in enumerate(zip(expected, actual, strict=False)):
        yield from _plain_mismatches(left, right, join_path(path, index), depth + 1)
    for index in range(len(actual), len(expected)):
        yield Mismatch(join_path(path, index), f"missing, expected {short_repr(expected[index])}")
    for index in range(len(expected), len(actual)):
        yield Mismatch(join_path(path, index), f"extra, got {short_repr(actual[index])}")


def _equal(expected: object, actual: object) -> bool:
    try:
        return bool(expected == actual)
    except Exception:
        return False
