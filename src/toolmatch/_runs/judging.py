"""Judging one recorded run: a trace record (or a run given as data) against its test case.

``toolmatch check`` (docs/cli.md), ``check_runs`` and ``check_batch`` (docs/parallel.md)
all judge through :class:`RecordJudge`; an :class:`Outcome` is what a record came to.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterable, Sequence

from toolmatch._core.describe import join_path, short_repr, shortened_list, type_name
from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.coverage import Coverage
from toolmatch._runs.envelope import Envelope, ErrorKeys, RecordError, turns_value
from toolmatch._runs.evaluation_events import (
    evaluation_attributes,
    log_record_json,
    run_ids,
)
from toolmatch._runs.traces import Lines, Rows, lines_of, read_item
from toolmatch._selection.case import TestCase, case_verdict
from toolmatch._selection.groups import item_paths
from toolmatch._selection.json_rows import run_json
from toolmatch._selection.results import TurnResult
from toolmatch._selection.run import ExpectedTurn, OneOfTurns
from toolmatch._selection.unrecorded import NotRecordedError

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._runs.evaluation_events import RunIds
    from toolmatch._runs.syntax import PythonTurns

__all__ = [
    "ERROR",
    "FAIL",
    "NOT_EVALUABLE",
    "PASS",
    "Outcome",
    "RecordJudge",
    "expectation_places",
    "expectation_text",
    "expected_turn",
    "failure_lines",
]

PASS, FAIL, ERROR = "pass", "fail", "error"
# A run of a case that cannot be judged: its record says it did not complete (--error-key),
# or a check asserts a field its input does not record. Never a pass, never a failure.
NOT_EVALUABLE = "not-evaluable"
_NO_DETAILS: list[str] = []  # every PASS outcome's report lines: never changed
_EXPECTATION_LIMIT = 160
_NO_IDS: RunIds = (None, None, None)


class Outcome(Record):
    """What a trace record came to, sent from the judge (in a worker process or not) to the
    report: ``kind`` (:data:`PASS`, :data:`FAIL`, :data:`NOT_EVALUABLE` or :data:`ERROR`),
    the record's ``number`` (its line, row or item), its ``case`` (``None`` when the record
    names none), the report's ``details`` lines, the ``message`` in one line (the first
    failure's place and reason, why the run cannot be judged, or the error), the run's
    result as a JSON object (``body``, when a format asked for it; ``check_runs`` carries
    the score there), and what failed in a failed run
    (``broken``: ``RunVerdict.broken``, for the trials' failed checks), and the run's
    verdict as an OTLP JSON log record (``event``, with ``--otel-events``). A new thing the
    report needs of a run is one more field.

    >>> Outcome(PASS, 3, "lookup", [], "", None, (), None).case
    'lookup'
    """

    __slots__ = _fields = (
        "kind", "number", "case", "details", "message", "body", "broken", "event",
    )  # fmt: skip
    __hash__ = None  # type: ignore[assignment]  # its details are a list
    kind: str
    number: int
    case: str | None
    details: list[str]
    message: str
    body: str | None
    broken: tuple[tuple[int | None, int | str], ...]
    event: str | None


class RecordJudge:
    """Judges trace records against the spec; sent once to each worker process."""

    def __init__(
        self,
        cases: Sequence[TestCase],
        want_json: bool,
        envelope: Envelope | None = None,
        python: PythonTurns | None = None,
        coverage: bool = False,
        events: str | None = None,
        plugins: Sequence[str] = (),
        error_keys: ErrorKeys | None = None,
    ) -> None:
        self.cases = {case.name: case for case in cases}
        # --plugin: the modules registering judges, imported again by each worker process
        self.plugins = tuple(plugins)
        self.want_json = want_json
        self.envelope = envelope  # where another trace format keeps case and turns
        self.python = python  # --syntax python: text turns read as Python calls
        # --coverage: the calls of the runs judged here, by tool (_runs/coverage.py)
        self.coverage = Coverage() if coverage else None
        # --otel-events: the evaluation's name, each run's verdict an event of that name
        self.events = events
        # --error-key: where a record says its run did not complete (None: not looked at)
        self.error_keys = error_keys

    def judge_block(self, first: int, item: object) -> list[Outcome]:
        """The outcomes of a block of ``trace_blocks``: its lines', its rows', or its one
        record's."""
        if type(item) is Lines:
            judge = self.judge
            return [judge(number, line) for number, line in lines_of(first, item)]
        if type(item) is Rows:
            judge = self.judge
            return [judge(number, row) for number, row in enumerate(item, first)]
        return [self.judge(first, item)]

    def judge(self, number: int, item: object) -> Outcome:
        """What an item of ``trace_items`` comes to: a line's bytes or a record read already."""
        try:
            return self._judge(number, item)
        except Exception as error:  # a run must never abort the others, whatever it holds
            return _bad(number, f"cannot check this run: {_reason(error)}")

    def _judge(self, number: int, item: object) -> Outcome:
        ids, run, incomplete = _NO_IDS, None, None
        try:
            record = run = read_item(item)
            if self.error_keys is not None and isinstance(record, dict):
                incomplete = self.error_keys.reason(record)
                if incomplete is not None:
                    run = self._case_only(record)  # a run cut short may hold no turns
            if incomplete is None and self.envelope is not None:
                run = self.envelope(record)
            if self.events is not None:
                ids = run_ids(record)
        except RecordError as error:
            case = error.case
            if case is None and isinstance(run, dict) and isinstance(run.get("case"), str):
                case = run["case"]
            return _bad(number, str(error), case)
        return self.run_outcome(number, run, ids, incomplete)

    def _case_only(self, record: dict[Any, Any]) -> dict[Any, Any]:
        """A run that did not complete, as its case alone: its turns are not judged."""
        if self.envelope is not None:
            return {"case": self.envelope.case_of(record)}
        return {"case": record["case"]} if "case" in record else {}

    def run_outcome(
        self, number: int, run: object, ids: RunIds = _NO_IDS, incomplete: str | None = None
    ) -> Outcome:
        """Judges a run read from its line; ``check_runs`` calls it with a run it was given.
        ``incomplete``: why its record says it did not complete, making it not evaluable."""
        if type(run) is not dict and not isinstance(run, dict):
            return _bad(
                number,
                'a run must be a JSON object {"case": NAME, "turns": [...]}, got '
                f"{short_repr(run)} ({type_name(run)})",
            )
        name = run.get("case")
        if type(name) is not str and not isinstance(name, str):
            found = "missing" if "case" not in run else f"{short_repr(name)} ({type_name(name)})"
            return _bad(number, f'"case" must be the name of a test case in the spec, got {found}')
        case = self.cases.get(name)
        if case is None:
            known = shortened_list(list(self.cases), short_repr)
            message = f"unknown case {short_repr(name)}; the spec has {known}"
            return _bad(number, message, name)
        if incomplete is not None:
            return self._not_evaluable(number, name, incomplete, ids)
        if "turns" not in run:
            return _bad(number, 'missing "turns": a list with one entry of calls per turn', name)
        return self._judge_turns(number, name, case, run, ids)

    def _judge_turns(
        self, number: int, name: str, case: TestCase, run: dict[Any, Any], ids: RunIds
    ) -> Outcome:
        """Judges the turns of a run of ``case``: from here on the line is its case's run,
        so whatever goes wrong is reported once, as this run's error, and the case is not
        missing."""
        try:
            turns = run["turns"]
            if type(turns) is not list:  # a list is read as it is: no call for most runs
                turns = turns_value(turns)
            if self.python is not None:
                turns = self.python(turns, case)
            return self._verdict(number, name, case, turns, ids)
        except NotRecordedError as error:  # the run holds no answer to what the case asks
            return self._not_evaluable(number, name, str(error), ids)
        except (TypeError, ValueError) as error:  # turns to_calls cannot read, with their place
            return _bad(number, str(error), name)
        except Exception as error:
            return _bad(number, f"cannot check this run: {_reason(error)}", name)

    def _verdict(self, number: int, name: str, case: TestCase, turns: Any, ids: RunIds) -> Outcome:
        """The outcome of a judged run; with ``--otel-events``, its event: the score judges
        every turn, the explanation is the report's lines for the run (two spaces less
        indented)."""
        # The run's calls end with its outcome: they need no copies of its args.
        verdict = case_verdict(case, turns, False)
        if self.coverage is not None:
            self.coverage.count(verdict)
        body = run_json(verdict) if self.want_json else None  # the same calls, read once
        kind, details, message = PASS, _NO_DETAILS, ""
        broken: tuple[tuple[int | None, int | str], ...] = ()
        if not verdict.passed:
            # A FAIL shows its failing turns only: the others need no words.
            details, message = failure_lines(verdict.failed_results(), case)
            # after failed_results: broken() reads only the turns judged so far
            kind, broken = FAIL, tuple(verdict.broken())
        event = None
        if self.events is not None:
            explanation = "\n".join(line[2:] for line in details)
            attributes = evaluation_attributes(
                self.events, verdict.passed, verdict.score(), explanation, ids[2], name
            )
            event = log_record_json(attributes, ids, time.time_ns())
        # Its case is the spec's own name object, and a PASS's details the one empty list:
        # shared objects, so a worker's chunk of outcomes pickles small.
        return Outcome(kind, number, case.name, details, message, body, broken, event)

    def _not_evaluable(self, number: int, name: str, reason: str, ids: RunIds) -> Outcome:
        """A run of case ``name`` that cannot be judged, and why; with ``--otel-events``, its
        event says so, with no score."""
        event = None
        if self.events is not None:
            attributes = evaluation_attributes(self.events, None, None, reason, ids[2], name)
            event = log_record_json(attributes, ids, time.time_ns())
        reason = reason.partition("\n")[0]
        return Outcome(NOT_EVALUABLE, number, name, [reason], reason, None, (), event)


def expected_turn(case: TestCase | None, result: TurnResult) -> ExpectedTurn | None:
    """The turn of ``case`` that ``result`` judged, in the alternatives it chose."""
    if case is None or result.turn is None:
        return None
    for chosen in result.alternatives:
        if chosen.of == "case":
            case = case.alternatives[chosen.number]
    if result.turn >= len(case.turns):
        return None
    turn = case.turns[result.turn]
    for chosen in result.alternatives:
        if chosen.of == "turn" and isinstance(turn, OneOfTurns):
            turn = turn.alternatives[chosen.number]
    return turn if isinstance(turn, ExpectedTurn) else None


def expectation_places(turn: ExpectedTurn | None) -> list[str] | None:
    """Each expectation's place in a turn with groups (``expected_tools[1].in_order[0]``);
    ``None`` when its number says where it is (``expected_tools[2]``)."""
    if turn is None:
        return None
    paths = item_paths(turn.expected_tools)
    if all(len(path) == 1 for path in paths):
        return None
    return [functools.reduce(join_path, path, "expected_tools") for path in paths]


def _bad(number: int, message: str, case: str | None = None) -> Outcome:
    # One line per bad trace line: to_calls lists every accepted format after its first.
    message = message.partition("\n")[0]
    return Outcome(ERROR, number, case, [message], message, None, (), None)


def _reason(error: BaseException) -> str:
    """``TypeName: message`` for an error nobody expected, even one whose ``str`` raises."""
    try:
        text = str(error)
    except Exception:
        text = ""
    return f"{type_name(error)}: {text}" if text else type_name(error)


def expectation_text(expectation: object) -> str:
    """An expectation as the report names it: its repr, shortened past 160 characters."""
    text = repr(expectation)
    if len(text) > _EXPECTATION_LIMIT:
        text = text[: _EXPECTATION_LIMIT - 3] + "..."
    return text


def failure_lines(
    results: Iterable[TurnResult], spec_case: TestCase | None = None
) -> tuple[list[str], str]:
    """The report's lines for a failed run, and its first failure in one line; each
    failure in the words of its result (``reason``, ``problems``, ``reason_lines()``).
    With the ``spec_case``, an expectation inside a group is named by its place in the spec."""
    lines: list[str] = []
    first = ""
    case = ""  # with a case's one_of: which alternative the places are in
    for result in results:
        if result.passed:
            continue
        turn, case = _turn_named(result, case, lines)
        if result.reason is not None:
            # A turn missing on one side: its expectations' failures would only repeat it.
            lines.append(f"  {turn}: {result.reason}")
            first = first or f"{turn}: {result.reason}"
            continue
        found = _check_lines(result, turn, spec_case, lines)
        first = first or found
        for problem in result.problems:
            lines.append(f"  {turn}: {problem}")
            first = first or f"{turn}: {problem}"
    return lines, first


def _turn_named(result: TurnResult, case: str, lines: list[str]) -> tuple[str, str]:
    """The failed turn's name in the report (``one_of[1], turn 0, one_of[2]``) with the
    lines saying the alternatives chosen added to ``lines``, and the case's alternative
    (``case``: ``""`` until one is said, said once)."""
    turn = f"turn {result.turn}"
    for chosen in result.alternatives:
        if chosen.of == "case":
            if not case:
                lines.append(f"  {chosen}")
                case = f"one_of[{chosen.number}], "
        else:
            lines.append(f"  {case}{turn}: {chosen}")
            turn = f"{turn}, one_of[{chosen.number}]"
    return case + turn, case


def _check_lines(
    result: TurnResult, turn: str, spec_case: TestCase | None, lines: list[str]
) -> str:
    """Adds to ``lines`` each failed expectation of the turn with its reasons; returns the
    first one in one line (``""`` when none failed)."""
    first = ""
    places = expectation_places(expected_turn(spec_case, result))
    for index, check in result._failed_checks():
        place = f"expected_tools[{index}]" if places is None else places[index]
        where = f"{turn}, {place}"
        lines.append(f"  {where}: {expectation_text(check.expected_tool)}")
        lines.extend(f"    {line}" for line in check.reason_lines())
        first = first or f"{where}: {check.unmatched_reason}"
    return first
