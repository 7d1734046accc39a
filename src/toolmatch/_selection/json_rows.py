"""A run's result as JSON text, written straight from its turns' verdicts: the body of each
row of ``toolmatch check --format json``.

The text is what ``json.dumps`` makes of ``{"passed": ..., "turns": [result.as_dict() ...]}``,
byte for byte (the results' dicts stay the API's JSON; tests/test_json_rows.py compares the
two), without the result objects and dicts in between: a row holds every expectation's
verdict and candidates, and the report writes one for every run. What is the same for
every run of a turn (its options, each expectation's repr and args) is written once per
spec turn and spliced in.
"""

from __future__ import annotations

import json
import math
from json.encoder import encode_basestring_ascii

from toolmatch._calls.call import said_status
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.results import f1_of, jsonable, ratio_of

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._matchers.base import Mismatch
    from toolmatch._selection.results import ChosenAlternative
    from toolmatch._selection.run import RunAlternatives, RunVerdict
    from toolmatch._selection.turn import _Turn, _Verdict

__all__ = ["run_json", "value_json"]

_MAX_JSON_DEPTH = 50  # as jsonable's
_string = encode_basestring_ascii
_PASSED_SCORE = '{"numerator": 1, "denominator": 1, "value": 1.0}'
_BOOL = {True: "true", False: "false"}
# How many layouts of passed turns a spec turn keeps: runs of many shapes keep the first.
_KEPT_LAYOUTS = 512


def value_json(value: Any, depth: int = 0) -> str:
    """``json.dumps(jsonable(value, depth))``, the plain JSON types written here, anything
    else through those two (a key that is not a string, a subclass, past the depth)."""
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


def _raw(value: object) -> str:
    """A field written as it is (``json.dumps`` of it, raising as that does)."""
    if type(value) is str:
        return _string(value)
    if value is None:
        return "null"
    return json.dumps(value)


def _indices(indices: Sequence[int]) -> str:
    return ", ".join(map(str, indices))


def _ratio(numerator: int, denominator: int) -> str:
    value = ratio_of(numerator, denominator)
    return f'{{"numerator": {numerator}, "denominator": {denominator}, "value": {value!r}}}'


class _Template:
    """What a spec turn's rows share, as JSON text: its options' keys, and each
    expectation's check up to its ``matching_call_indices``, passed and failed (its own
    keys, ``expected_tool`` to ``args_asserted``, in between)."""

    __slots__ = ("options", "passed", "failed", "layouts")

    def __init__(self, turn: _Turn) -> None:
        options = {
            "distinct": turn.distinct,
            "ordered": turn.ordered,
            "exhaustive": turn.exhaustive,
            "max_calls": turn.max_calls,
            "no_repeats": turn.no_repeats,
        }
        self.options = json.dumps(options)[1:-1]
        heads = [
            json.dumps(expectation._json_head())[1:-1]
            for expectation in turn.selection.expectations
        ]
        self.passed = [f'{{"passed": true, {head}, "matching_call_indices": [' for head in heads]
        self.failed = [f'{{"passed": false, {head}, "matching_call_indices": [' for head in heads]
        # The layouts of its passed turns, by their verdicts' indices (see _turn).
        self.layouts: dict[tuple[object, ...], _Layout] = {}


def _template(turn: _Turn) -> _Template:
    template: _Template | None = turn.json_template
    if template is None:
        template = turn.json_template = _Template(turn)
    return template


# A candidate's keys after "id" when the call has no parse error, result, failed flag,
# agent or status and matches: most candidates' in most runs.
_PLAIN_TAIL = (
    ', "parse_error": null, "result": null, "failed": null, "matched": true, "mismatches": []}'
)
# What follows a passed check's matched_call_index when it has no calls of its own.
_PASSED_TAIL = (
    ', "assigned_call_indices": null, "unmatched_reason": null, '
    f'"score": {_PASSED_SCORE}, "candidates": ['
)


def _call_fields(call: ToolCall) -> str:
    """``"agent"`` and ``"status"`` where a result's dict has them (``_agent_json``)."""
    agent = "" if call.agent is None else f', "agent": {_raw(call.agent)}'
    status = said_status(call)
    return agent if status is None else f'{agent}, "status": {_raw(status)}'


def _mismatches(mismatches: Sequence[Mismatch]) -> str:
    return ", ".join(
        [
            f'{{"path": {_raw(mismatch.path)}, "reason": {_raw(mismatch.reason)}}}'
            for mismatch in mismatches
        ]
    )


def _candidate(index: int, call: ToolCall, mismatches: Sequence[Mismatch]) -> str:
    """A candidate, as ``Candidate.as_dict`` gives it."""
    name, id_, error, result, failed = (
        call.name,
        call.id,
        call.parse_error,
        call.result,
        call.failed,
    )
    head = (
        f'{{"index": {index}, "name": {_string(name) if type(name) is str else _raw(name)}, '
        f'"args": {value_json(call.args)}, '
        f'"id": {_string(id_) if type(id_) is str else _raw(id_)}'
    )
    if (
        error is None
        and result is None
        and failed is None
        and call.agent is None
        and call.status is None
        and not mismatches
    ):
        return head + _PLAIN_TAIL
    return (
        f'{head}, "parse_error": {_raw(error)}, "result": {value_json(result)}, '
        f'"failed": {_BOOL[failed] if type(failed) is bool else _raw(failed)}'
        f'{_call_fields(call)}, "matched": {"false" if mismatches else "true"}, '
        f'"mismatches": [{_mismatches(mismatches)}]}}'
    )


class _Layout:
    """A turn's text less its candidates' (``texts``, one more than ``slots``): each slot
    is a candidate's call index, and the function explaining why the call does not match
    its expectation, or None when it does. A passed turn's layout is the same for every
    run whose verdict has the same indices: :func:`_turn` keeps it per spec turn."""

    __slots__ = ("first", "slots", "_written")

    def __init__(self) -> None:
        self.first = ""  # the text before the first slot
        # Each slot, with the text after it.
        self.slots: list[tuple[int, Callable[[ToolCall], tuple[Mismatch, ...]] | None, str]] = []
        self._written: list[str] = []

    def write(self, text: str) -> None:
        self._written.append(text)

    def slot(self, index: int, explain: Callable[[ToolCall], tuple[Mismatch, ...]] | None) -> None:
        self._end()
        self.slots.append((index, explain, ""))

    def done(self) -> _Layout:
        self._end()
        return self

    def _end(self) -> None:
        text = "".join(self._written)
        self._written = []
        if self.slots:
            index, explain, _ = self.slots[-1]
            self.slots[-1] = (index, explain, text)
        else:
            self.first = text

    def fill(self, calls: Sequence[ToolCall]) -> str:
        """The turn's text, with the candidates of ``calls`` in the slots."""
        parts = [self.first]
        for index, explain, text in self.slots:
            call = calls[index]
            parts.append(_candidate(index, call, () if explain is None else explain(call)))
            parts.append(text)
        return "".join(parts)


def _passed_check(layout: _Layout, verdict: _Verdict, number: int, head: str) -> None:
    """Expectation ``number``'s check, passed, as ``ToolCheck.as_dict`` gives it."""
    matching = verdict.matching[number]
    every = verdict.assigned
    first = str(matching[0]) if matching else "null"
    layout.write(f'{head}{_indices(matching)}], "matched_call_index": {first}')
    if every is None:
        layout.write(_PASSED_TAIL)
    else:
        layout.write(
            f', "assigned_call_indices": [{_indices(every[number] or ())}], '
            f'"unmatched_reason": null, "score": {_PASSED_SCORE}, "candidates": ['
        )
    explain = verdict.turn.selection.expectations[number]._explain_call
    matched = set(matching)
    for position, index in enumerate(verdict.candidates[number]):
        if position:
            layout.write(", ")
        layout.slot(index, None if index in matched else explain)
    layout.write("]}")


def _failed_check(layout: _Layout, verdict: _Verdict, number: int, head: str) -> None:
    """Expectation ``number``'s check, failed: its reason, score and the candidates judged
    for them, as the result makes them."""
    check = dict(verdict._failed_checks())[number]
    matching = check.matching_call_indices
    assigned = check.assigned_call_indices
    own = "null" if assigned is None else f"[{_indices(assigned)}]"
    numerator, denominator, _ = check._score_parts()
    candidates = [
        _candidate(candidate.index, candidate.call, candidate.mismatches)
        for candidate in check.candidates
    ]
    layout.write(
        f'{head}{_indices(matching)}], "matched_call_index": '
        f'{str(matching[0]) if matching else "null"}, "assigned_call_indices": {own}, '
        f'"unmatched_reason": {_raw(check.unmatched_reason)}, '
        f'"score": {_ratio(numerator, denominator)}, "candidates": [{", ".join(candidates)}]}}'
    )


def _ignored(verdict: _Verdict) -> str:
    """The calls left out, as ``IgnoredCall.as_dict`` gives them."""
    rows = []
    for index in sorted(verdict.ignored):
        ignored = verdict._ignored_call(index)
        call, by = ignored.call, ignored.by
        rows.append(
            f'{{"index": {index}, "name": {_raw(call.name)}, "args": {value_json(call.args)}'
            f'{_call_fields(call)}, "by": {"null" if by is None else by}, '
            f'"pattern": {_string(ignored._pattern_text())}}}'
        )
    return ", ".join(rows)


def _chosen(chosen: ChosenAlternative) -> str:
    return (
        f'{{"of": {_string(chosen.of)}, "number": {chosen.number}, "count": {chosen.count}, '
        f'"passed": {_BOOL[chosen.passed]}}}'
    )


def _layout(verdict: _Verdict, number: int, chosen: list[ChosenAlternative]) -> _Layout:
    """Turn ``number``'s result as ``TurnResult.as_dict`` gives it, less its candidates when
    they need no words of their failure; ``chosen``: the alternatives it is from."""
    plan = verdict.turn
    template = _template(plan)
    count = len(verdict.matching)
    layout = _Layout()
    if verdict.passed:  # nothing failed: no check, no problem (the engine's verdict)
        problems: list[str] = []
        failed: list[int] = []
    else:
        problems = verdict.own_problems()
        failed = verdict._failed_numbers()
    reason = verdict.reason
    expected = plan.selection.expected_calls
    if not expected and count:  # no call expected: the never count instead of the pairing
        scores = (
            '"precision": null, "recall": null, "f1": null, '
            f'"never": {{"broken": {len(failed)}, "of": {count}}}'
        )
    else:
        judged = verdict.kept_count
        matched, met = verdict._pairs()
        scores = (
            f'"precision": {_ratio(matched, judged)}, "recall": {_ratio(met, expected)}, '
            f'"f1": {f1_of(ratio_of(matched, judged), ratio_of(met, expected))!r}'
        )
    passes = reason is None and not problems and not failed
    layout.write(
        f'{{"passed": {"true" if passes else "false"}, "turn": {number}, '
        f'"reason": {"null" if reason is None else _raw(reason)}, '
        f'"problems": [{", ".join(map(_raw, problems))}], {template.options}, '
        f'"call_count": {len(verdict.calls)}, '
        f'"ignored": [{_ignored(verdict) if verdict.ignored else ""}], '
        f'"unexpected_call_indices": [{_indices(verdict.unexpected)}], {scores}, '
        '"checks": ['
    )
    failing = set(failed)
    for index in range(count):
        if index:
            layout.write(", ")
        if index in failing:
            _failed_check(layout, verdict, index, template.failed[index])
        else:
            _passed_check(layout, verdict, index, template.passed[index])
    layout.write("]")
    if chosen:
        layout.write(f', "alternatives": [{", ".join(map(_chosen, chosen))}]')
    layout.write("}")
    return layout.done()


def _turn(verdict: _Verdict, number: int, case: ChosenAlternative | None) -> str:
    """Turn ``number``'s result, as ``TurnResult.as_dict`` gives it."""
    chosen = [] if case is None else [case]
    if verdict.chosen is not None:
        chosen.append(verdict.chosen)
    if not verdict.passed or verdict.ignored:  # words, or calls left out: this run's own
        return _layout(verdict, number, chosen).fill(verdict.calls)
    # A passed turn's text is its indices' and its calls': the same indices, the same layout.
    assigned = verdict.assigned
    key = (
        number,
        len(verdict.calls),
        tuple(map(tuple, verdict.matching)),
        tuple(map(tuple, verdict.candidates)),
        None if assigned is None else tuple(tuple(got or ()) for got in assigned),
        *((each.of, each.number, each.count, each.passed) for each in chosen),
    )
    layouts = _template(verdict.turn).layouts
    layout = layouts.get(key)
    if layout is None:
        layout = _layout(verdict, number, chosen)
        if len(layouts) < _KEPT_LAYOUTS:
            layouts[key] = layout
    return layout.fill(verdict.calls)


def run_json(verdict: RunVerdict | RunAlternatives) -> str:
    """A run's ``{"passed": ..., "turns": [...]}``, every turn judged, as JSON text."""
    case = verdict.chosen()
    turns = ", ".join([_turn(each, number, case) for number, each in enumerate(verdict.verdicts())])
    return f'{{"passed": {"true" if verdict.passed else "false"}, "turns": [{turns}]}}'
