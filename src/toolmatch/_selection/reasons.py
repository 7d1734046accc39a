"""Why an expectation fails, in words: too few or too many matching calls, the closest
call's mismatches, calls another expectation needs, calls out of order (docs/selection.md)."""

from __future__ import annotations

from collections.abc import Sequence

from toolmatch._calls.call import ToolCall
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.expectation_protocol import NO_RESULT
from toolmatch._selection.results import Candidate, closest_candidate, mismatch_summary

if TYPE_CHECKING:
    from toolmatch._selection.expectation_protocol import Expected

__all__ = ["count_reason", "distinct_reason", "order_reason"]

_SHOWN_CONFLICTS = 5


def count_reason(
    expectation: Expected,
    calls: Sequence[ToolCall],
    candidate_indices: Sequence[int],
    matching: Sequence[int],
) -> tuple[str, tuple[Candidate, ...] | None]:
    """Why an expectation's count is not met; the judged candidates, when they were needed."""
    found = len(matching)
    most = expectation.max_count
    if most is not None and found > most:
        if most == 0:
            return f"expected no matching call, got {found}", None
        return f"expected at most {most} matching call(s), got {found}", None
    if not candidate_indices:
        no_candidate = expectation._no_candidate_text(calls)
        return f"expected {expectation.count} matching call(s), got 0: {no_candidate}", None
    if found == 0:
        candidates = tuple(
            Candidate(index, calls[index], expectation._explain_call(calls[index]))
            for index in candidate_indices
        )
        return _closest_reason(candidates), candidates
    return f"expected {expectation.count} matching call(s), got {found}", None


def _closest_reason(candidates: Sequence[Candidate]) -> str:
    closest = closest_candidate(candidates)
    mismatches = closest.mismatches
    if len(mismatches) == 1 and mismatches[0].reason == NO_RESULT:
        return f"call {closest.index} has no recorded result"
    if closest.call.parse_error is None:
        for mismatch in mismatches:
            # A top-level key: the path is the bare name (docs/selection.md's wording).
            if mismatch.reason == "missing" and mismatch.path.isidentifier():
                return f"arg '{mismatch.path}' missing"
    if len(mismatches) == 1:
        return f"call {closest.index}: {mismatches[0]}"
    # The reasons follow, one per line, in the check's explanation: here only where.
    return f"call {closest.index}: {mismatch_summary(mismatches)}"


def distinct_reason(
    expectation: Expected, matching: list[int], got: list[int], owner: dict[int, int]
) -> str:
    taken = [call for call in matching if call not in set(got)]
    conflicts = [
        f"call {call} is needed by expectation {owner[call]} too"
        if call in owner
        else f"call {call} is unavailable"
        for call in taken[:_SHOWN_CONFLICTS]
    ]
    if len(taken) > _SHOWN_CONFLICTS:
        conflicts.append(f"and {len(taken) - _SHOWN_CONFLICTS} more")
    return (
        f"expected {expectation.count} matching call(s) of its own, got {len(got)}: "
        + "; ".join(conflicts)
    )


def order_reason(
    number: int,
    expectation: Expected,
    matching: list[int],
    assigned: list[list[int] | None],
) -> str:
    previous = next((earlier for earlier in range(number - 1, -1, -1) if assigned[earlier]), None)
    if previous is None:  # cannot happen: alone, the expectation has enough calls
        return f"expected {expectation.count} matching call(s) in order, got fewer"
    previous_calls = assigned[previous]
    assert previous_calls
    last = previous_calls[-1]
    after = [call for call in matching if call > last]
    early = [call for call in matching if call <= last]
    reason = (
        f"expected {expectation.count} matching call(s) after call {last} "
        f"(the last call used by expectation {previous}), got {len(after)}"
    )
    if early:
        shown = ", ".join(str(call) for call in early[:_SHOWN_CONFLICTS])
        more = ", ..." if len(early) > _SHOWN_CONFLICTS else ""
        reason += f"; matching call(s) {shown}{more} come at or before it"
    return reason
