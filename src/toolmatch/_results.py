"""Call selection results: ``Candidate``, ``ToolCheck``, ``TurnResult``; readable, JSON-ready."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from toolmatch._base import Mismatch
from toolmatch._calls import ToolCall
from toolmatch._describe import short_repr
from toolmatch._display import TextDisplay, html_table, verdict_html
from toolmatch._record import Record

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from typing import Any

    from toolmatch._selection import ExpectedTool

__all__ = ["Candidate", "ToolCheck", "TurnResult"]

_SHOWN_CANDIDATES = 10
_MAX_JSON_DEPTH = 50


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


def _args_json(args: object) -> Any:
    if args is None or isinstance(args, dict):
        return jsonable(args)
    return repr(args)  # a matcher: its constructor-like repr says what it asserts


def _shortened(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _call_text(call: ToolCall) -> str:
    return f"{call.name}({short_repr(call.args)})"


def _escape_text(text: str) -> str:
    import html  # here, not at the top: `import toolmatch` stays fast

    return html.escape(text)


def _indices_text(indices: Sequence[int]) -> str:
    return ", ".join(str(index) for index in indices) if indices else "none"


class Candidate(Record):
    """A call whose name the expectation selects: its ``index`` in the turn, and why it matched.

    ``mismatches`` is empty when the call's arguments match, else every reason they do not.

    >>> from toolmatch import ExpectedTool
    >>> check = ExpectedTool("search", {"q": "paris"}).check([{"name": "search", "args": {}}])
    >>> print(check.candidates[0])
    call 0 search({}): q: missing
    """

    __slots__ = _fields = ("index", "call", "mismatches")
    index: int
    call: ToolCall
    mismatches: tuple[Mismatch, ...]

    def __init__(self, index: int, call: ToolCall, mismatches: tuple[Mismatch, ...]) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "call", call)
        object.__setattr__(self, "mismatches", mismatches)

    @property
    def matched(self) -> bool:
        """Whether the call matches the expectation's arguments."""
        return not self.mismatches

    def __str__(self) -> str:
        verdict = "; ".join(str(m) for m in self.mismatches) if self.mismatches else "matches"
        return f"call {self.index} {_call_text(self.call)}: {verdict}"

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: index, the call's fields, and the verdict."""
        return {
            "index": self.index,
            "name": self.call.name,
            "args": jsonable(self.call.args),
            "id": self.call.id,
            "parse_error": self.call.parse_error,
            "result": jsonable(self.call.result),
            "failed": self.call.failed,
            "matched": self.matched,
            "mismatches": [mismatch.as_dict() for mismatch in self.mismatches],
        }


def closest_candidate(candidates: Sequence[Candidate]) -> Candidate:
    """The non-matching candidate with the fewest mismatches (the earliest on a tie)."""
    failing = [candidate for candidate in candidates if not candidate.matched]
    return min(failing, key=lambda candidate: (len(candidate.mismatches), candidate.index))


class ToolCheck(TextDisplay):
    """The verdict of one :class:`ExpectedTool` on one turn's calls (``bool(check)`` is ``passed``).

    >>> from toolmatch import ExpectedTool
    >>> check = ExpectedTool("search", {"q": "paris"}).check([{"name": "web_search", "args": {}}])
    >>> check.passed, check.unmatched_reason
    (False, "arg 'q' missing")
    >>> print(check)
    FAILED ExpectedTool('search', {'q': 'paris'}): arg 'q' missing
      required: at least 1 matching call; found 0
      call 0 web_search({}): q: missing
    """

    __slots__ = (
        "expected_tool",
        "passed",
        "matching_call_indices",
        "assigned_call_indices",
        "unmatched_reason",
        "_calls",
        "_candidate_indices",
        "_candidates",
        "_explain_call",
    )
    expected_tool: ExpectedTool
    passed: bool
    matching_call_indices: tuple[int, ...]
    assigned_call_indices: tuple[int, ...] | None
    unmatched_reason: str | None
    _calls: Sequence[ToolCall]
    _candidate_indices: Sequence[int]
    _candidates: tuple[Candidate, ...] | None
    _explain_call: Callable[[ToolCall], tuple[Mismatch, ...]]

    def __init__(
        self,
        expected_tool: ExpectedTool,
        calls: Sequence[ToolCall],
        candidate_indices: Sequence[int],
        matching_call_indices: Sequence[int],
        unmatched_reason: str | None,
        *,
        assigned_call_indices: Sequence[int] | None = None,
        candidates: tuple[Candidate, ...] | None = None,
    ) -> None:
        set_ = object.__setattr__
        set_(self, "expected_tool", expected_tool)
        set_(self, "passed", unmatched_reason is None)
        set_(self, "matching_call_indices", tuple(matching_call_indices))
        set_(
            self,
            "assigned_call_indices",
            None if assigned_call_indices is None else tuple(assigned_call_indices),
        )
        set_(self, "unmatched_reason", unmatched_reason)
        set_(self, "_calls", calls)
        set_(self, "_candidate_indices", candidate_indices)
        set_(self, "_candidates", candidates)
        set_(self, "_explain_call", expected_tool._explain_call)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ToolCheck is immutable")

    @property
    def args_asserted(self) -> bool:
        """Whether the expectation asserts arguments (``False`` for a name-only expectation)."""
        return self.expected_tool.args is not None

    @property
    def matched_call_index(self) -> int | None:
        """The first matching call's index in the turn (seed 000 section 1), or ``None``."""
        return self.matching_call_indices[0] if self.matching_call_indices else None

    @property
    def candidates(self) -> tuple[Candidate, ...]:
        """Every call whose name the expectation selects, in turn order, with its verdict."""
        if self._candidates is None:
            found = self._judge_candidates(self._candidate_indices)
            object.__setattr__(self, "_candidates", found)
            return found
        return self._candidates

    def _judge_candidates(self, indices: Sequence[int]) -> tuple[Candidate, ...]:
        matching = set(self.matching_call_indices)
        calls = self._calls
        return tuple(
            Candidate(
                index, calls[index], () if index in matching else self._explain_call(calls[index])
            )
            for index in indices
        )

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return (
            f"<ToolCheck {'passed' if self.passed else 'failed'} {self.expected_tool!r}"
            f" matching={list(self.matching_call_indices)}>"
        )

    def lines(self) -> list[str]:
        """The explanation as lines (``str(check)`` joins them)."""
        expected = self.expected_tool
        title = _shortened(repr(expected))
        head = f"PASSED {title}" if self.passed else f"FAILED {title}: "
        if not self.passed:
            head += str(self.unmatched_reason)
        found = len(self.matching_call_indices)
        summary = f"  required: {expected._requirement_text()}; found {found}"
        if found:
            plural = "s" if found > 1 else ""
            summary += f": call{plural} {_indices_text(self.matching_call_indices)}"
        lines = [head, summary]
        if self.assigned_call_indices is not None:
            lines.append(f"  calls of its own: {_indices_text(self.assigned_call_indices)}")
        # Only the shown candidates are explained: a long turn must not cost a full report.
        if self._candidates is None:
            shown = self._judge_candidates(self._candidate_indices[:_SHOWN_CANDIDATES])
        else:
            shown = self._candidates[:_SHOWN_CANDIDATES]
        if not shown:
            lines.append(f"  {expected._no_candidate_text(self._calls)}")
        for candidate in shown:
            lines.append(f"  {candidate}")
        hidden = len(self._candidate_indices) - _SHOWN_CANDIDATES
        if hidden > 0:
            lines.append(f"  ... and {hidden} more candidate call(s)")
        return lines

    def _repr_html_(self) -> str:
        """A table of the candidate calls and why each did or did not match."""
        head, summary, *_ = self.lines()
        caption = f"{verdict_html(self.passed)} {_escape_text(head.split(' ', 1)[1])}"
        caption += f"<br>{_escape_text(summary.strip())}"
        shown = self.candidates[:_SHOWN_CANDIDATES]
        rows: list[tuple[object, ...]] = [
            (
                candidate.index,
                candidate.call.name,
                short_repr(candidate.call.args),
                "; ".join(str(mismatch) for mismatch in candidate.mismatches) or "matches",
            )
            for candidate in shown
        ]
        hidden = len(self.candidates) - len(shown)
        if hidden > 0:
            rows.append(("...", f"and {hidden} more", "", ""))
        return html_table(["call", "name", "args", "verdict"], rows, caption)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the verdict, the expectation and every candidate."""
        expected = self.expected_tool
        return {
            "passed": self.passed,
            "expected_tool": repr(expected),
            "name": expected.name if isinstance(expected.name, str) else repr(expected.name),
            "args": _args_json(expected.args),
            "count": expected.count,
            "max_count": expected.max_count,
            "args_asserted": self.args_asserted,
            "matching_call_indices": list(self.matching_call_indices),
            "matched_call_index": self.matched_call_index,
            "assigned_call_indices": (
                None if self.assigned_call_indices is None else list(self.assigned_call_indices)
            ),
            "unmatched_reason": self.unmatched_reason,
            "candidates": [candidate.as_dict() for candidate in self.candidates],
        }


class TurnResult(TextDisplay, Record):
    """The verdicts of a turn's expectations (``bool(result)`` is ``passed``).

    ``reason`` says what is wrong with the turn as a whole (a turn missing on one side).

    >>> from toolmatch import ExpectedTool, check_turn
    >>> result = check_turn([ExpectedTool("search"), ExpectedTool("fetch")], [{"name": "search"}])
    >>> result.passed, [check.passed for check in result.checks]
    (False, [True, False])
    """

    __slots__ = _fields = ("checks", "call_count", "distinct", "ordered", "turn", "reason")
    checks: tuple[ToolCheck, ...]
    call_count: int
    distinct: bool
    ordered: bool
    turn: int | None
    reason: str | None

    def __init__(
        self,
        checks: tuple[ToolCheck, ...],
        call_count: int,
        distinct: bool = False,
        ordered: bool = False,
        turn: int | None = None,
        reason: str | None = None,
    ) -> None:
        for field, value in zip(
            self._fields, (checks, call_count, distinct, ordered, turn, reason), strict=True
        ):
            object.__setattr__(self, field, value)

    @property
    def passed(self) -> bool:
        """Whether every expectation passed and nothing is wrong with the turn itself."""
        return self.reason is None and all(check.passed for check in self.checks)

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        met = sum(check.passed for check in self.checks)
        verdict = "passed" if self.passed else "failed"
        turn = "" if self.turn is None else f" turn {self.turn}"
        return (
            f"<TurnResult{turn} {verdict}: {met} of {len(self.checks)} expectation(s) met"
            f" over {self.call_count} call(s)>"
        )

    def lines(self) -> list[str]:
        """The explanation as lines (``str(result)`` joins them)."""
        name = "turn" if self.turn is None else f"turn {self.turn}"
        modes = [
            mode for mode, on in (("distinct", self.distinct), ("ordered", self.ordered)) if on
        ]
        mode_text = f" ({', '.join(modes)})" if modes else ""
        met = sum(check.passed for check in self.checks)
        head = (
            f"{name} {'PASSED' if self.passed else 'FAILED'}{mode_text}: "
            f"{met} of {len(self.checks)} expectation(s) met over {self.call_count} call(s)"
        )
        lines = [head]
        if self.reason is not None:
            lines.append(f"  {self.reason}")
        for number, check in enumerate(self.checks):
            first, *rest = check.lines()
            lines.append(f"  expectation {number}: {first}")
            lines.extend(f"  {line}" for line in rest)
        return lines

    def _repr_html_(self) -> str:
        """A row per expectation, then the candidates of each one that failed."""
        head = self.lines()[0]
        caption = f"{verdict_html(self.passed)} {_escape_text(head.split(' ', 2)[-1])}"
        if self.reason is not None:
            caption += f"<br>{_escape_text(self.reason)}"
        rows = [
            (
                number,
                _shortened(repr(check.expected_tool)),
                verdict_html(check.passed),
                check.unmatched_reason or f"calls {_indices_text(check.matching_call_indices)}",
            )
            for number, check in enumerate(self.checks)
        ]
        table = html_table(
            ["#", "expectation", "verdict", "reason"], rows, caption, trusted_columns=frozenset({2})
        )
        failed = [check._repr_html_() for check in self.checks if not check.passed]
        return table + "".join(failed)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict of the turn and each expectation's verdict."""
        return {
            "passed": self.passed,
            "turn": self.turn,
            "reason": self.reason,
            "distinct": self.distinct,
            "ordered": self.ordered,
            "call_count": self.call_count,
            "checks": [check.as_dict() for check in self.checks],
        }
