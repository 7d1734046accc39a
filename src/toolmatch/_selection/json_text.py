"""Results as JSON text: the one writer of a turn's JSON. ``TurnResult.as_dict()`` (and the
``as_dict`` of its checks, candidates, ignored calls and alternatives) reads back what these
functions write, and ``--format json``'s rows are written by them straight from the
verdicts (``json_rows.py``), without the result objects in between.

The text is what ``json.dumps`` writes of the dict: ASCII, ``", "`` and ``": "`` between
items, any value of a type JSON has no place for as its short repr (:func:`jsonable`).
"""

from __future__ import annotations

import functools
import json
import math
from json.encoder import encode_basestring_ascii

from toolmatch._calls.call import said_status
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.scores import f1_of, ratio_of

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._matchers.base import Mismatch

__all__ = [
    "PASSED_SCORE",
    "candidate_json",
    "candidate_opening",
    "candidate_rest",
    "check_opening",
    "check_prefix",
    "chosen_json",
    "ignored_json",
    "indices_json",
    "jsonable",
    "never_json",
    "options_json",
    "pairing_json",
    "turn_closing",
    "turn_opening",
    "value_json",
]

_MAX_JSON_DEPTH = 50
_string = encode_basestring_ascii


def jsonable(value: object, depth: int = 0) -> Any:
    """``value`` made of JSON types only; anything else becomes its short repr."""
    if value is None or isinstance(value, (str, bool, int)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else short_repr(value)
    if depth >= _MAX_JSON_DEPTH:
        return short_repr(value)
    if isinstance(value, dict):
        return {
            key if isinstance(key, str) else short_repr(key): jsonable(item, depth + 1)
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [jsonable(item, depth + 1) for item in value]
    return short_repr(value)


def value_json(value: Any, depth: int = 0) -> str:
    """``json.dumps(jsonable(value, depth))``, the plain JSON types written here, anything
    else through those two (a key that is not a string, a subclass, past the depth).

    >>> value_json({"q": "paris", "n": 3, "x": float("nan")})
    '{"q": "paris", "n": 3, "x": "nan"}'
    """
    kind = type(value)
    if kind is dict and depth < _MAX_JSON_DEPTH:
        parts = []
        for key, item in value.items():
            if type(key) is not str:
                return json.dumps(jsonable(value, depth))
            # A value of the common kinds is written here: a call of this function fewer.
            kind = type(item)
            if kind is str:
                parts.append(f"{_string(key)}: {_string(item)}")
            elif kind is int:
                parts.append(f"{_string(key)}: {int.__repr__(item)}")
            elif kind is float and math.isfinite(item):
                parts.append(f"{_string(key)}: {float.__repr__(item)}")
            else:
                parts.append(f"{_string(key)}: {value_json(item, depth + 1)}")
        return f"{{{', '.join(parts)}}}"
    if kind is str:
        return _string(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if kind is float:
        if math.isfinite(value):
            return float.__repr__(value)
        return _string(short_repr(value))
    if (kind is list or kind is tuple) and depth < _MAX_JSON_DEPTH:
        inner = depth + 1
        return f"[{', '.join([value_json(item, inner) for item in value])}]"
    return json.dumps(jsonable(value, depth))


def _text(value: object) -> str:
    """A field that is text or None (a name, an id, a reason), as :func:`value_json`
    writes it: most are one of those two."""
    if type(value) is str:
        return _string(value)
    return "null" if value is None else value_json(value)


def indices_json(indices: Sequence[int]) -> str:
    """Call indices as a JSON list.

    >>> indices_json((0, 2))
    '[0, 2]'
    """
    return f"[{', '.join(map(str, indices))}]"


_BOOL = {True: "true", False: "false"}
# A candidate's keys after "id" when the call has no parse error, result, failed flag,
# agent or status and matches: most candidates' in most runs.
_PLAIN_TAIL = (
    ', "parse_error": null, "result": null, "failed": null, "matched": true, "mismatches": []}'
)


def _call_fields(call: ToolCall) -> str:
    """``"agent"`` where the trace names the call's agent and ``"status"`` where it says
    more than ``failed``: a report of calls without them is written as before."""
    agent = "" if call.agent is None else f', "agent": {_text(call.agent)}'
    status = said_status(call)
    return agent if status is None else f'{agent}, "status": {_text(status)}'


def _mismatches(mismatches: Sequence[Mismatch]) -> str:
    return ", ".join(
        [
            f'{{"path": {_text(mismatch.path)}, "reason": {_text(mismatch.reason)}}}'
            for mismatch in mismatches
        ]
    )


def candidate_opening(index: int) -> str:
    """A candidate's text up to its call's name, the same for every call at ``index``: a
    passed turn's layout (``json_rows.py``) writes it once.

    >>> candidate_opening(2)
    '{"index": 2, "name": '
    """
    return f'{{"index": {index}, "name": '


def candidate_rest(call: ToolCall, mismatches: Sequence[Mismatch]) -> str:
    """A candidate's text after :func:`candidate_opening`: the call's fields, its verdict.

    >>> from toolmatch import ToolCall
    >>> candidate_rest(ToolCall("search", {"q": "x"}, id="c1"), ())
    '"search", "args": {"q": "x"}, "id": "c1", "parse_error": null, "result": null, \
"failed": null, "matched": true, "mismatches": []}'
    """
    name, id_, error, result, failed = (
        call.name,
        call.id,
        call.parse_error,
        call.result,
        call.failed,
    )
    # A name and an id are text in most calls: written here, a call of _text fewer each.
    name_text = _string(name) if type(name) is str else _text(name)
    args_text = value_json(call.args)
    id_text = _string(id_) if type(id_) is str else _text(id_)
    if (
        error is None
        and result is None
        and failed is None
        and call.agent is None
        and call.status is None
        and not mismatches
    ):
        return f'{name_text}, "args": {args_text}, "id": {id_text}{_PLAIN_TAIL}'
    return (
        f'{name_text}, "args": {args_text}, "id": {id_text}, '
        f'"parse_error": {_text(error)}, "result": {value_json(result)}, '
        f'"failed": {_BOOL[failed] if type(failed) is bool else _text(failed)}'
        f'{_call_fields(call)}, "matched": {"false" if mismatches else "true"}, '
        f'"mismatches": [{_mismatches(mismatches)}]}}'
    )


def candidate_json(index: int, call: ToolCall, mismatches: Sequence[Mismatch]) -> str:
    """A candidate call (``Candidate.as_dict``): its index, the call's fields, its verdict.

    >>> from toolmatch import ToolCall
    >>> candidate_json(0, ToolCall("search", {"q": "x"}), ())
    '{"index": 0, "name": "search", "args": {"q": "x"}, "id": null, "parse_error": null, \
"result": null, "failed": null, "matched": true, "mismatches": []}'
    """
    return candidate_opening(index) + candidate_rest(call, mismatches)


def ignored_json(index: int, call: ToolCall, by: int | None, pattern: str) -> str:
    """A call left out (``IgnoredCall.as_dict``): ``by`` the number of the ``ignore`` pattern
    that left it out, ``pattern`` its text.

    >>> from toolmatch import ToolCall
    >>> print(ignored_json(1, ToolCall("log", {}), 0, "ExpectedTool('log')"))
    {"index": 1, "name": "log", "args": {}, "by": 0, "pattern": "ExpectedTool('log')"}
    """
    return (
        f'{{"index": {index}, "name": {_text(call.name)}, "args": {value_json(call.args)}'
        f'{_call_fields(call)}, "by": {"null" if by is None else by}, '
        f'"pattern": {_string(pattern)}}}'
    )


def chosen_json(of: str, number: int, count: int, passed: bool) -> str:
    """Which alternative a result is from (``ChosenAlternative.as_dict``).

    >>> chosen_json("turn", 1, 2, True)
    '{"of": "turn", "number": 1, "count": 2, "passed": true}'
    """
    return (
        f'{{"of": {_string(of)}, "number": {number}, "count": {count}, "passed": {_BOOL[passed]}}}'
    )


def check_prefix(passed: bool, expectation: Mapping[str, Any]) -> str:
    """A check's text up to its ``matching_call_indices``: its verdict and its expectation's
    keys (``expectation_json``), the same in every check of the expectation.

    >>> print(check_prefix(True, {"expected_tool": "ExpectedTool('s')", "name": "s"}))
    {"passed": true, "expected_tool": "ExpectedTool('s')", "name": "s"
    """
    return f'{{"passed": {_BOOL[passed]}, {json.dumps(expectation)[1:-1]}'


def check_opening(
    prefix: str,
    matching: Sequence[int],
    assigned: Sequence[int] | None,
    reason: str | None,
    score: str,
) -> str:
    """A check's text (``ToolCheck.as_dict``) up to its candidates, which follow it, then
    ``]}``: ``prefix`` from :func:`check_prefix`, the calls that match and its own calls,
    why it failed, its score (:data:`PASSED_SCORE` or :func:`ratio_json`)."""
    first = str(matching[0]) if matching else "null"
    own = "null" if assigned is None else indices_json(assigned)
    return (
        f'{prefix}, "matching_call_indices": {indices_json(matching)}, '
        f'"matched_call_index": {first}, "assigned_call_indices": {own}, '
        f'"unmatched_reason": {"null" if reason is None else _text(reason)}, '
        f'"score": {score}, "candidates": ['
    )


# A failed run's scores are a few numbers that recur: written once each (the instructions of
# run_json on 3,000 B4 runs: 189.5M -> 181.1M, valgrind, 2026-12-07).
@functools.lru_cache(maxsize=1024)
def ratio_json(numerator: int, denominator: int) -> str:
    """A share as scores give it, with its parts.

    >>> ratio_json(1, 2)
    '{"numerator": 1, "denominator": 2, "value": 0.5}'
    """
    value = ratio_of(numerator, denominator)
    return f'{{"numerator": {numerator}, "denominator": {denominator}, "value": {value!r}}}'


# A passed check's score, 1 of 1: written once.
PASSED_SCORE = ratio_json(1, 1)


def options_json(
    distinct: bool, ordered: bool, exhaustive: bool, max_calls: int | None, no_repeats: bool
) -> str:
    """A turn's options, as the keys of its object.

    >>> options_json(True, False, False, None, False)
    '"distinct": true, "ordered": false, "exhaustive": false, "max_calls": null, \
"no_repeats": false'
    """
    options = {
        "distinct": distinct,
        "ordered": ordered,
        "exhaustive": exhaustive,
        "max_calls": max_calls,
        "no_repeats": no_repeats,
    }
    return json.dumps(options)[1:-1]


def never_json(broken: int, of: int) -> str:
    """The scores of a turn that expects no call: how many of its ``never`` and caps broke.

    >>> never_json(0, 1)
    '"precision": null, "recall": null, "f1": null, "never": {"broken": 0, "of": 1}'
    """
    never = f'{{"broken": {broken}, "of": {of}}}'
    return f'"precision": null, "recall": null, "f1": null, "never": {never}'


@functools.lru_cache(maxsize=1024)
def pairing_json(matched: int, judged: int, met: int, expected: int) -> str:
    """A turn's precision (``matched`` of the ``judged`` calls), recall (``met`` of the
    ``expected`` calls) and f1, as the keys of its object.

    >>> pairing_json(1, 2, 1, 1)
    '"precision": {"numerator": 1, "denominator": 2, "value": 0.5}, "recall": \
{"numerator": 1, "denominator": 1, "value": 1.0}, "f1": 0.6666666666666666'
    """
    f1 = f1_of(ratio_of(matched, judged), ratio_of(met, expected))
    return (
        f'"precision": {ratio_json(matched, judged)}, "recall": {ratio_json(met, expected)}, '
        f'"f1": {f1!r}'
    )


def turn_opening(
    passed: bool,
    turn: int | None,
    reason: str | None,
    problems: Sequence[str],
    options: str,
    call_count: int,
    ignored: Sequence[str],
    unexpected: Sequence[int],
    scores: str,
) -> str:
    """A turn's text (``TurnResult.as_dict``) up to its checks, which follow it, then
    :func:`turn_closing`: ``options`` from :func:`options_json`, each ignored call from
    :func:`ignored_json`, ``scores`` from :func:`never_json` or :func:`pairing_json`."""
    return (
        f'{{"passed": {_BOOL[passed]}, "turn": {"null" if turn is None else turn}, '
        f'"reason": {"null" if reason is None else _text(reason)}, '
        f'"problems": [{", ".join(map(_text, problems))}], {options}, '
        f'"call_count": {call_count}, "ignored": [{", ".join(ignored)}], '
        f'"unexpected_call_indices": {indices_json(unexpected)}, {scores}, "checks": ['
    )


def turn_closing(alternatives: Sequence[str]) -> str:
    """The end of a turn's text: its alternatives (from :func:`chosen_json`), only with
    ``one_of``, so a result without them is written as before."""
    if not alternatives:
        return "]}"
    return f'], "alternatives": [{", ".join(alternatives)}]}}'
