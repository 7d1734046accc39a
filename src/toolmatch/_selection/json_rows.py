"""A run's result as JSON text, written straight from its turns' verdicts: the body of each
row of ``toolmatch check --format json``.

The text is ``{"passed": ..., "turns": [result.as_dict() ...]}`` as ``json.dumps`` writes it,
by the same writers (``json_text.py``) the results' ``as_dict`` reads back, without the
result objects and dicts in between: a row holds every expectation's verdict and
candidates, and the report writes one for every run. What is the same for every run of a
turn (its options, each expectation's repr and args) is written once per spec turn and
spliced in.
"""

from __future__ import annotations

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.json_text import (
    PASSED_SCORE,
    candidate_opening,
    candidate_rest,
    check_opening,
    check_prefix,
    never_json,
    options_json,
    pairing_json,
    turn_closing,
    turn_opening,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._matchers.base import Mismatch
    from toolmatch._selection.results import ChosenAlternative, ToolCheck
    from toolmatch._selection.run import RunAlternatives, RunVerdict
    from toolmatch._selection.turn import TurnPlan, TurnVerdict

__all__ = ["run_json"]

# How many layouts of passed turns a spec turn keeps, and how many of one turn number and
# call count (each looked at in turn): runs of many shapes keep the first.
_KEPT_LAYOUTS = 512
_KEPT_OF_A_COUNT = 8


class _Template:
    """What a spec turn's rows share, as JSON text: its options' keys, and each
    expectation's :func:`check_prefix`, passed and failed."""

    __slots__ = ("options", "passed", "failed", "layouts", "kept")

    def __init__(self, turn: TurnPlan) -> None:
        self.options = options_json(
            turn.distinct, turn.ordered, turn.exhaustive, turn.max_calls, turn.no_repeats
        )
        heads = [expectation._json_head() for expectation in turn.selection.expectations]
        self.passed = [check_prefix(True, head) for head in heads]
        self.failed = [check_prefix(False, head) for head in heads]
        # The layouts of its passed turns, by turn number and call count (see _turn_json).
        self.layouts: dict[tuple[int, int], list[_Layout]] = {}
        self.kept = 0


def _template(turn: TurnPlan) -> _Template:
    template: _Template | None = turn.json_template
    if template is None:
        template = turn.json_template = _Template(turn)
    return template


class _Layout:
    """A turn's text less its candidates' rests (``texts``, one more than ``slots``): each
    slot is a candidate's call index, and the function explaining why the call does not
    match its expectation, or None when it does; the text before a slot ends with the
    candidate's :func:`candidate_opening`. A passed turn's layout is the same for every run
    whose verdict has the same indices: :func:`_turn_json` keeps it per spec turn. Given
    ``calls``, a layout made for one run's turn only, each candidate is written at once
    (:meth:`text`)."""

    __slots__ = ("first", "slots", "indices", "_written", "_calls")

    def __init__(self, calls: Sequence[ToolCall] | None = None) -> None:
        self.first = ""  # the text before the first slot
        # The verdict's indices and alternatives it was made from: a kept layout's key.
        self.indices: tuple[object, ...] = ()
        # Each slot, with the text after it.
        self.slots: list[tuple[int, Callable[[ToolCall], tuple[Mismatch, ...]] | None, str]] = []
        self._written: list[str] = []
        self._calls = calls

    def write(self, text: str) -> None:
        self._written.append(text)

    def slot(self, index: int, explain: Callable[[ToolCall], tuple[Mismatch, ...]] | None) -> None:
        self._written.append(candidate_opening(index))
        calls = self._calls
        if calls is not None:
            call = calls[index]
            self._written.append(candidate_rest(call, () if explain is None else explain(call)))
            return
        self._end()
        self.slots.append((index, explain, ""))

    def done(self) -> _Layout:
        self._end()
        return self

    def text(self) -> str:
        """The text of a layout made with its run's calls (it has no slot), once done."""
        return self.first

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
            parts.append(candidate_rest(call, () if explain is None else explain(call)))
            parts.append(text)
        return "".join(parts)


def _passed_check(layout: _Layout, verdict: TurnVerdict, number: int, prefix: str) -> None:
    """Expectation ``number``'s check, passed, its candidates left as slots."""
    matching = verdict.matching[number]
    assigned = None if verdict.assigned is None else verdict.assigned[number] or ()
    layout.write(check_opening(prefix, matching, assigned, None, PASSED_SCORE))
    explain = verdict.turn.selection.expectations[number]._explain_call
    matched = set(matching)
    for position, index in enumerate(verdict.candidates[number]):
        if position:
            layout.write(", ")
        layout.slot(index, None if index in matched else explain)
    layout.write("]}")


def _layout(
    verdict: TurnVerdict,
    number: int,
    chosen: list[ChosenAlternative],
    calls: Sequence[ToolCall] | None = None,
) -> _Layout:
    """Turn ``number``'s result as ``TurnResult.as_dict`` gives it, less its candidates' rests
    (or with them, written from ``calls``); ``chosen``: the alternatives it is from."""
    plan = verdict.turn
    template = _template(plan)
    count = len(verdict.matching)
    layout = _Layout(calls)
    if verdict.passed:  # nothing failed: no check, no problem (the engine's verdict)
        problems: list[str] = []
        failed: dict[int, ToolCheck] = {}
    else:
        problems = verdict.own_problems()
        failed = dict(verdict._failed_checks())
    expected = plan.selection.expected_calls
    if not expected and count:  # no call expected: the never count instead of the pairing
        scores = never_json(len(failed), count)
    else:
        matched, met = verdict._pairs()
        scores = pairing_json(matched, verdict.kept_count, met, expected)
    reason = verdict.reason
    ignored = [verdict._ignored_call(index)._json_text() for index in sorted(verdict.ignored)]
    layout.write(
        turn_opening(
            reason is None and not problems and not failed,
            number,
            reason,
            problems,
            template.options,
            len(verdict.calls),
            ignored,
            verdict.unexpected,
            scores,
        )
    )
    for index in range(count):
        if index:
            layout.write(", ")
        check = failed.get(index)
        if check is None:
            _passed_check(layout, verdict, index, template.passed[index])
        else:  # a failed check's words are this run's own: written whole
            layout.write(check._json_text(template.failed[index]))
    layout.write(turn_closing([each._json_text() for each in chosen]))
    return layout.done()


def _turn_json(verdict: TurnVerdict, number: int, case: ChosenAlternative | None) -> str:
    """Turn ``number``'s result, as ``TurnResult.as_dict`` gives it."""
    chosen = [] if case is None else [case]
    if verdict.chosen is not None:
        chosen.append(verdict.chosen)
    if not verdict.passed or verdict.ignored:  # words, or calls left out: this run's own
        return _layout(verdict, number, chosen, verdict.calls).text()
    # A passed turn's text is its indices' and its calls': the same indices, the same layout.
    # The verdict's lists are compared as they are, not made into a hashable key: the rows
    # of 20,000 B4 runs 0.258 -> 0.233 s of CPU (best of 4, 2026-12-07).
    calls = verdict.calls
    template = _template(verdict.turn)
    kept = template.layouts.get((number, len(calls)))
    if kept is None:
        kept = template.layouts[number, len(calls)] = []
    indices = (verdict.matching, verdict.candidates, verdict.assigned, chosen)
    for layout in kept:
        if layout.indices == indices:
            return layout.fill(calls)
    layout = _layout(verdict, number, chosen)
    if len(kept) < _KEPT_OF_A_COUNT and template.kept < _KEPT_LAYOUTS:
        layout.indices = _copied(indices)
        kept.append(layout)
        template.kept += 1
    return layout.fill(calls)


def _copied(indices: tuple[Any, ...]) -> tuple[object, ...]:
    """A verdict's indices as a kept layout holds them: lists of its own."""
    matching, candidates, assigned, chosen = indices
    return (
        [list(each) for each in matching],
        [list(each) for each in candidates],
        None if assigned is None else [None if got is None else list(got) for got in assigned],
        list(chosen),
    )


def run_json(verdict: RunVerdict | RunAlternatives) -> str:
    """A run's ``{"passed": ..., "turns": [...]}``, every turn judged, as JSON text."""
    case = verdict.chosen()
    verdicts = verdict.verdicts()
    turns = ", ".join([_turn_json(each, number, case) for number, each in enumerate(verdicts)])
    return f'{{"passed": {"true" if verdict.passed else "false"}, "turns": [{turns}]}}'
