"""``check --update new|fix|all``: the changes planned on a spec's data from the recorded runs
(what each mode changes, and what it never touches: docs/cli.md, "Updating the spec").
The command (``_cli/update.py``) locks, refuses, splices and replaces the file.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Sequence

from toolmatch._authoring.update_plan import Append, NotDone, Plan, Rekey, Replace, value_at
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.judging import expected_turn
from toolmatch._selection.case import TestCase
from toolmatch._selection.expectation import AGENT_MISMATCH, STATUS_MISMATCH
from toolmatch._selection.groups import item_paths
from toolmatch._selection.unrecorded import NotRecordedError
from toolmatch._spec.errors import ConfigError
from toolmatch._spec.importing import escaped
from toolmatch._spec.matcher_keys import matcher_from_config, matcher_key

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._runs.envelope import Envelope, ErrorKeys
    from toolmatch._runs.syntax import PythonTurns
    from toolmatch._selection.results import ToolCheck, TurnResult
    from toolmatch._selection.run import ExpectedTurn

    Path = tuple[Any, ...]

__all__ = ["Runs", "read_runs", "plan_new", "plan"]


def _quiet_matcher(config: object) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a 0.1 spelling was reported when the spec loaded
        return matcher_from_config(config)


def _value_ok(expected: object, recorded: object) -> bool:
    """Whether the spec's value (plain data, matchers as written) accepts the recorded one."""
    try:
        return bool(_quiet_matcher(expected) == recorded)
    except ConfigError:  # {$maybe: ...} out of a mapping: judged with its key
        return False


def _key_ok(key: object, expected: object, recorded: dict[Any, Any]) -> bool:
    """Whether ``key: expected``, in a mapping, accepts what the recorded mapping has there
    (nothing at all counts for ``$maybe`` and ``$absent``)."""
    present = {key: recorded[key]} if key in recorded else {}
    try:
        return bool(_quiet_matcher({"$exact": {key: expected}}) == present)
    except ConfigError:
        return False


def _holds_matcher(value: object) -> bool:
    """Whether a matcher is in ``value``; ``{$literal: ...}`` is a plain value, written so."""
    if isinstance(value, dict):
        key = matcher_key(value)
        if key == "$literal":
            return False
        return key is not None or any(map(_holds_matcher, value.values()))
    if isinstance(value, list):
        return any(map(_holds_matcher, value))
    return False


def _turn_path(index: int, raw: Any, result: TurnResult, number: int) -> Path:
    """Where turn ``number`` of case ``index`` (``raw``, as written) is in the spec, as
    ``result`` checked it: with ``one_of``, the chosen alternative's (the case's, then the
    turn's) is the one fixed."""
    turn: Path = ("test_cases", index)
    body = raw
    for chosen in result.alternatives:
        if chosen.of == "case":
            turn += ("one_of", chosen.number)
            body = raw["one_of"][chosen.number]
    if "turns" in body:
        turn += ("turns", number)
    return turn + tuple(
        step
        for chosen in result.alternatives
        if chosen.of == "turn"
        for step in ("one_of", chosen.number)
    )


def _reads_as_matcher(
    expected: dict[Any, Any], delete: list[Any], add: list[tuple[Any, Any]]
) -> bool:
    """Whether a data mapping with the keys of ``expected`` less ``delete`` plus those of
    ``add`` would read as a matcher (``{regex: ...}``)."""
    keys = [key for key in expected if key not in delete] + [key for key, _ in add]
    return matcher_key(dict.fromkeys(keys)) is not None


def _dropped_arguments(path: Path, delete: list[Any]) -> tuple[tuple[Path, str], ...]:
    """What dropping the arguments ``delete`` weakens: each is no longer asserted."""
    return tuple(
        ((*path, key), f"argument {short_repr(key)} dropped: the recorded call has none")
        for key in delete
    )


def _writable(value: object) -> bool:
    """Whether a spec can hold ``value`` as a plain value that equals it: a JSON value (a
    Parquet column may hold a timestamp or a decimal), not NaN, and no lone surrogate (JSON
    text can hold one, a UTF-8 file cannot)."""
    import json

    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        return bool(_quiet_matcher(escaped(value)) == value)
    except (ConfigError, TypeError, UnicodeEncodeError, ValueError):
        return False


# A candidate's mismatch paths for what an expectation asserts of the call beyond its
# arguments and outcome, and the spec key of each.
_ASSERTED_OF_CALL = {AGENT_MISMATCH: "agent", STATUS_MISMATCH: "status"}


class Planner(Plan):
    """The edits that make each case's last run pass where only values stand in its way."""

    def __init__(self, data: Any, allow_rename: bool = False) -> None:
        super().__init__(data)
        self.allow_rename = allow_rename  # --update-allow-rename
        # A turn's problems (a call not expected, too many calls) may be gone once its
        # expectations are fixed: each is reported only if the updated spec still has it.
        self.turn_problems: list[tuple[str, int, str, NotDone]] = []

    # A case --------------------------------------------------------------------------------

    def fix_case(self, index: int, case: TestCase, calls: list[list[ToolCall]]) -> None:
        try:
            results = case.check(calls)
        except NotRecordedError as error:  # no verdict, so no value to take from the run
            self.skip(("test_cases", index), f"{error}; no value to replace")
            return
        raw = self.data["test_cases"][index]
        for result in results:
            if result.passed:
                continue
            number = result.turn if result.turn is not None else 0
            turn = _turn_path(index, raw, result, number)
            if result.reason is not None:
                self.skip(turn, f"{result.reason}; not a value to replace")
                continue
            self.fix_turn(turn, result, calls[number], expected_turn(case, result))
            for problem in result.problems:
                note = NotDone(self.where(turn), f"{problem}; not a value to replace")
                self.turn_problems.append((case.name, number, problem, note))

    def problems_left(self, cases: Sequence[TestCase] | None, runs: Runs) -> list[NotDone]:
        """The turn problems the update did not fix: all of them when ``cases`` is ``None``
        (nothing was changed), else those the updated ``cases`` still find in the runs."""
        if cases is None:
            return [note for *_, note in self.turn_problems]
        by_name = {case.name: case for case in cases}
        results: dict[str, list[TurnResult]] = {}
        left = []
        for name, number, problem, note in self.turn_problems:
            if name not in results:
                results[name] = by_name[name].check(runs.last[name])
            for result in results[name]:
                if (result.turn if result.turn is not None else 0) != number:
                    continue
                if problem in result.problems:
                    left.append(note)
                break
        return left

    def fix_turn(
        self, turn: Path, result: TurnResult, calls: list[ToolCall], expected: ExpectedTurn | None
    ) -> None:
        # A check's number counts the expectations with groups opened: its item's path.
        paths = None if expected is None else item_paths(expected.expected_tools)
        claimed = {ignored.index for ignored in result.ignored}
        for check in result.checks:
            if check.passed:
                claimed.update(check.assigned_call_indices or check.matching_call_indices)
        for number, check in enumerate(result.checks):
            if not check.passed:
                path = (*turn, "expected_tools", *(paths[number] if paths else (number,)))
                self.fix_expected(path, value_at(self.data, path), check, calls, claimed)

    def fix_expected(
        self,
        path: Path,
        item: Any,
        check: ToolCheck,
        calls: list[ToolCall],
        claimed: set[int],
    ) -> None:
        if check.expected_tool.is_never or check.matching_call_indices:
            self.skip(path, f"{check.unmatched_reason}; not a value to replace")
            return
        closest = check.closest
        if closest is None:  # no call's name is selected: the name is what is wrong
            call = self.fix_name(path, item, check, calls, claimed)
            if call is None:
                return
        else:
            call = closest.call
        if isinstance(item, dict):
            self.fix_arguments(path, item, call)
            self.fix_outcome(path, item, call)
        if closest is not None:
            # Who made the call and how it ended are what the expectation asserts of it,
            # as its name is: never taken from the run, always said.
            for mismatch in closest.mismatches:
                key = _ASSERTED_OF_CALL.get(mismatch.path)
                if key is not None:
                    self.skip((*path, key), f"{mismatch.reason}; not a value to replace")

    def fix_name(
        self,
        path: Path,
        item: Any,
        check: ToolCheck,
        calls: list[ToolCall],
        claimed: set[int],
    ) -> ToolCall | None:
        """The call a wrongly named expectation stands for, its name fixed in the spec."""
        name_path = place = path if isinstance(item, str) else (*path, "name")
        name = value_at(self.data, name_path)
        if isinstance(name, dict) and matcher_key(name) == "$literal":
            name_path, name = (*name_path, "$literal"), name["$literal"]
        if not isinstance(name, str):
            self.skip(name_path, f"the name matcher {short_repr(name)} selects no call; kept it")
            return None
        free = [index for index in range(len(calls)) if index not in claimed]
        if not free:
            self.skip(
                path,
                f"{check.unmatched_reason}; no call of the turn is left to take its name from",
            )
            return None
        import difflib

        from toolmatch._matchers.explain import explain

        args = check.expected_tool.args

        def distance(index: int) -> tuple[int, float, int]:
            call = calls[index]
            mismatches = 0 if args is None else len(explain(args, call.args))
            likeness = difflib.SequenceMatcher(None, name, call.name).ratio()
            return mismatches, -likeness, index

        chosen = min(free, key=distance)
        new = calls[chosen].name
        if not _writable(new):
            why = f"the recorded {short_repr(new)} cannot be written in a spec"
            self.skip(name_path, why)
            return None
        renamed = f"renaming the tool {short_repr(name)} to {short_repr(new)}"
        if not self.allow_rename:
            self.skip(
                place,
                f"{renamed} changes which tool the expectation names; pass "
                "--update-allow-rename to rename it",
            )
            return None
        claimed.add(chosen)
        weakened = ((place, f"tool renamed from {short_repr(name)} to {short_repr(new)}"),)
        self.edits.append(Replace(name_path, new, weakened=weakened))
        return calls[chosen]

    def fix_arguments(self, path: Path, item: dict[Any, Any], call: ToolCall) -> None:
        if call.parse_error is not None:
            why = f"the recorded arguments could not be read: {call.parse_error}"
            self.skip((*path, "args"), why)
            return
        exact = item.get("exact") is True
        expected = item.get("args")
        recorded: dict[Any, Any] = dict(call.args)
        patterns = item.get("ignore_args")
        if patterns:
            from toolmatch._matchers.key_filter import KeyFilter

            strip = KeyFilter(patterns)
            recorded = strip(recorded)  # type: ignore[assignment]  # a dict stays a dict
            if isinstance(expected, dict):
                expected = strip(expected)
        if expected is None:
            if exact and recorded and self.all_writable(path, recorded):
                added = {key: escaped(value) for key, value in recorded.items()}
                if "args" in item:  # an empty args: takes the arguments in its place
                    self.edits.append(Replace((*path, "args"), added))
                else:
                    self.edits.append(Rekey(path, (), (("args", added),), after="name"))
            return
        self.fix_mapping((*path, "args"), expected, recorded, exact, "call")

    def fix_outcome(self, path: Path, item: dict[Any, Any], call: ToolCall) -> None:
        if "result" in item and not _value_ok(item["result"], call.result):
            if call.result is None:
                self.skip((*path, "result"), "the recorded call has no result to take")
            else:
                self.fix_value((*path, "result"), item["result"], call.result)
        failed = item.get("failed")
        if failed is not None and call.failed is not failed:
            if call.failed is None:
                self.skip((*path, "failed"), "the recorded call does not say whether it failed")
            else:
                self.edits.append(Replace((*path, "failed"), call.failed))

    def all_writable(self, path: Path, recorded: dict[Any, Any]) -> bool:
        for key, value in recorded.items():
            if not _writable(value):
                why = f"the recorded {short_repr(value)} cannot be written in a spec"
                self.skip((*path, key), why)
                return False
        return True

    # Values --------------------------------------------------------------------------------

    def fix_mapping(
        self, path: Path, expected: dict[Any, Any], recorded: dict[Any, Any], exact: bool, what: str
    ) -> None:
        """Each key whose value does not accept the recorded one: fixed, or removed when the
        recorded mapping lacks it; under ``exact``, the recorded keys it lacks are added."""
        edits, skipped = len(self.edits), len(self.not_done)
        delete = self._fix_keys(path, expected, recorded, what)
        add = self._added_keys(path, expected, recorded) if exact else []
        if what == "value" and _reads_as_matcher(expected, delete, add):
            # With these keys, the data mapping would read as a matcher ({regex: ...}):
            # it is written whole instead, in $literal.
            del self.edits[edits:], self.not_done[skipped:]
            self._write_whole(path, expected, recorded)
        elif delete or add:
            # An argument dropped from args no longer asserted; under exact (and in a data
            # mapping, compared whole) its absence is asserted instead.
            weakened = _dropped_arguments(path, delete) if what == "call" and not exact else ()
            self.edits.append(Rekey(path, tuple(delete), tuple(add), weakened=weakened))

    def _fix_keys(
        self, path: Path, expected: dict[Any, Any], recorded: dict[Any, Any], what: str
    ) -> list[Any]:
        """Fixes each key of ``expected`` whose value does not accept the recorded one; returns
        the keys to delete: those the recorded mapping lacks, unless a matcher (kept)."""
        delete = []
        for key, value in expected.items():
            if _key_ok(key, value, recorded):
                continue
            if key in recorded:
                self.fix_value((*path, key), value, recorded[key])
            elif _holds_matcher(value):
                self.skip(
                    (*path, key),
                    f"the recorded {what} has no {short_repr(key)}; kept the matcher "
                    f"{short_repr(value)}",
                )
            else:
                delete.append(key)
        return delete

    def _added_keys(
        self, path: Path, expected: dict[Any, Any], recorded: dict[Any, Any]
    ) -> list[tuple[Any, Any]]:
        """The recorded keys ``expected`` lacks, written as data, when all can be written."""
        extra = {key: value for key, value in recorded.items() if key not in expected}
        if self.all_writable(path, extra):
            return [(key, escaped(value)) for key, value in extra.items()]
        return []

    def _write_whole(self, path: Path, expected: dict[Any, Any], recorded: dict[Any, Any]) -> None:
        """The recorded mapping written in place of ``expected`` whole, in ``$literal``;
        skipped when ``expected`` holds matchers."""
        if _holds_matcher(expected):
            why = "kept: it holds matchers, and does not match the recorded"
            self.skip(path, f"{why} {short_repr(recorded)}")
        else:
            self.edits.append(Replace(path, escaped(recorded)))

    def fix_value(self, path: Path, expected: object, recorded: object) -> None:
        """``expected`` does not accept ``recorded``: its literal parts take the recorded ones."""
        if isinstance(expected, dict) and matcher_key(expected) is not None:
            self._fix_matcher(path, expected, recorded)
        elif isinstance(expected, dict) and isinstance(recorded, dict):
            self.fix_mapping(path, expected, recorded, True, "value")
        elif (
            isinstance(expected, list)
            and isinstance(recorded, list)
            and len(expected) == len(recorded)
        ):
            self._fix_items(path, expected, recorded)
        elif _holds_matcher(expected):
            self.skip(
                path,
                f"kept: it holds matchers, and does not match the recorded {short_repr(recorded)}",
            )
        elif not _writable(recorded):
            self.skip(path, f"the recorded {short_repr(recorded)} cannot be written in a spec")
        else:
            self.edits.append(Replace(path, escaped(recorded)))

    def _fix_matcher(self, path: Path, expected: dict[Any, Any], recorded: object) -> None:
        """A ``$literal`` takes the recorded value; any other matcher is kept, and said."""
        if matcher_key(expected) == "$literal" and _writable(recorded):
            self.edits.append(Replace((*path, "$literal"), recorded))
        else:
            self.skip(
                path,
                f"kept the matcher {short_repr(expected)}: it does not match the recorded "
                f"{short_repr(recorded)}",
            )

    def _fix_items(self, path: Path, expected: list[Any], recorded: list[Any]) -> None:
        """Each item of ``expected`` that does not accept the recorded one at its index."""
        for index, (inner, found) in enumerate(zip(expected, recorded, strict=True)):
            if not _value_ok(inner, found):
                self.fix_value((*path, index), inner, found)


class Runs:
    """What the update needs from TRACES: each spec case's last readable run, and every
    readable run of the cases the spec lacks (in the order their names first appear), each
    run as its turns' calls."""

    def __init__(self) -> None:
        self.last: dict[str, list[list[ToolCall]]] = {}
        self.new: dict[str, list[list[list[ToolCall]]]] = {}

    def for_cases(self, names: Iterable[str]) -> None:
        """Sorted again by the case names of the spec as it is read now, which may differ
        from those the runs were read for (another update added or removed a case)."""
        known = set(names)
        for name in [name for name in self.new if name in known]:
            self.last[name] = self.new.pop(name)[-1]
        for name in [name for name in self.last if name not in known]:
            self.new[name] = [self.last.pop(name)]


def read_runs(
    items: Iterable[tuple[int, object]],
    names: Iterable[str],
    envelope: Envelope | None,
    python: PythonTurns | None = None,
    error_keys: ErrorKeys | None = None,
) -> Runs:
    """The runs of the trace records (``trace_items``), read as ``toolmatch check`` and
    ``toolmatch record`` read them; a record that holds no readable run, or whose run did
    not complete (``error_keys``: its run is not evaluable), is left out (the check reports
    it). Only the last run of a case in ``names`` is kept."""
    from toolmatch._authoring.recording import calls_of_run
    from toolmatch._runs.envelope import RecordError
    from toolmatch._runs.traces import read_item

    known = set(names)
    runs = Runs()
    for _, item in items:
        try:
            run = read_item(item)
            if isinstance(run, dict) and error_keys is not None and error_keys.reason(run):
                continue
            if envelope is not None:
                run = envelope(run)
        except RecordError:
            continue
        if not isinstance(run, dict) or "turns" not in run:
            continue
        name = run.get("case")
        if not isinstance(name, str):
            continue
        try:
            calls = calls_of_run(run["turns"], python)
        except (TypeError, ValueError, RecursionError):
            continue
        if name in known:
            runs.last[name] = calls
        else:
            runs.new.setdefault(name, []).append(calls)
    return runs


def plan_new(runs: Runs, planner: Planner) -> None:
    """One case for each name with runs and no case, at the end of ``test_cases``, built by
    ``toolmatch record``'s builder from all of its runs (docs/record.md)."""
    from toolmatch._authoring.recording import recorded_case
    from toolmatch._spec.writing import plain_data

    added = len(planner.data["test_cases"])
    for name, calls in runs.new.items():
        place = f"test_cases[{added}]({name})"
        if not name:
            why = "a case name must be a non-empty string, got ''"
            planner.not_done.append(NotDone(f"test_cases[{added}]", why, "added"))
            continue
        try:
            case = recorded_case(name, calls)
        except ValueError as error:  # no run with a turn
            planner.not_done.append(NotDone(place, str(error), "added"))
            continue
        planner.edits.append(Append(("test_cases",), plain_data(case), case))
        added += 1


def plan(
    mode: str, data: Any, cases: Sequence[TestCase], runs: Runs, allow_rename: bool = False
) -> Planner:
    """The changes ``--update mode`` plans on the spec's ``data`` (whose loaded ``cases``
    they are) from ``runs``, in its planner's ``edits`` and ``not_done``; a tool name is
    changed only with ``allow_rename``. Raises :class:`ImportError` when a new case cannot
    be built (the cli extra is missing)."""
    planner = Planner(data, allow_rename)
    if mode in ("fix", "all"):
        by_name = {case.name: case for case in cases}
        for index, case_data in enumerate(data["test_cases"]):
            turns = runs.last.get(case_data["name"])
            if turns is not None:
                planner.fix_case(index, by_name[case_data["name"]], turns)
    if mode in ("new", "all"):
        plan_new(runs, planner)
    return planner
