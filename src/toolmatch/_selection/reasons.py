"""Why an expectation fails, in words: too few or too many matching calls, the closest
call's mismatches, calls another expectation needs, calls out of order (docs/selection.md)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence

from toolmatch._calls.call import ToolCall
from toolmatch._core.pairing import SEARCH_CALLS, SEARCH_STEPS, OrderWindows
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.expectation_protocol import NO_RESULT
from toolmatch._selection.results import (
    Candidate,
    IgnoredCall,
    call_text,
    closest_candidate,
    ignored_text,
    mismatch_summary,
)

if TYPE_CHECKING:
    from toolmatch._selection.expectation_protocol import Expected

__all__ = [
    "count_reason",
    "distinct_reason",
    "order_breaks",
    "order_label",
    "order_reason",
    "place_breaks",
    "unordered_reason",
    "window_breaks",
]

_SHOWN_CONFLICTS = 5


def count_reason(
    expectation: Expected,
    calls: Sequence[ToolCall],
    candidate_indices: Sequence[int],
    matching: Sequence[int],
    left_out: Sequence[IgnoredCall],
    no_candidate: Callable[[Sequence[ToolCall]], str],
) -> tuple[str, tuple[Candidate, ...] | None]:
    """Why an expectation's count is not met; the judged candidates, when they were needed.
    ``left_out``: the calls of its name the turn left out, named when they explain it;
    ``no_candidate``: the words for a turn with no call of its name."""
    found = len(matching)
    most = expectation.max_count
    if most is not None and found > most:
        if most == 0:
            return f"expected no matching call, got {found}", None
        return f"expected at most {most} matching call(s), got {found}", None
    if not candidate_indices:
        return f"expected {expectation.count} matching call(s), got 0: {no_candidate(calls)}", None
    candidates = None
    if found == 0:
        candidates = tuple(
            Candidate(index, calls[index], expectation._explain_call(calls[index]))
            for index in candidate_indices
        )
        reason = _closest_reason(candidates)
    else:
        reason = f"expected {expectation.count} matching call(s), got {found}"
    # A candidate judged explains those that do not match; one left out that would is news.
    hidden = [item for item in left_out if expectation._call_matches(item.call)]
    if hidden:
        many = len(hidden) > 1
        told = f"{len(hidden)} matching calls were" if many else "a matching call was"
        reason += f"; {told} ignored: {ignored_text(hidden)}"
    return reason, candidates


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
    number: int, expectation: Expected, matching: list[int], assigned: list[list[int] | None]
) -> str:
    previous = next((earlier for earlier in range(number - 1, -1, -1) if assigned[earlier]), None)
    if previous is None:  # cannot happen: alone, the expectation has enough calls
        return f"expected {expectation.count} matching call(s) in order, got fewer"
    previous_calls = assigned[previous]
    assert previous_calls
    last = previous_calls[-1]
    after = [call for call in matching if call > last]
    early = [call for call in matching if call <= last]
    return (
        f"expected {expectation.count} matching call(s) after call {last} "
        f"(the last call used by expectation {previous}), got {len(after)}{_early_note(early)}"
    )


def _early_note(early: list[int]) -> str:
    """What ``order_reason`` adds on the matching calls at or before the last one used by
    the expectation before: the first of them, or nothing when there are none."""
    if not early:
        return ""
    shown = ", ".join(str(call) for call in early[:_SHOWN_CONFLICTS])
    more = ", ..." if len(early) > _SHOWN_CONFLICTS else ""
    return f"; matching call(s) {shown}{more} come at or before it"


def order_label(expectation: Expected) -> str:
    """How an order message names an expectation: its ``id``, else its name."""
    if expectation.id is not None:
        return expectation.id
    name = expectation.name
    return name if isinstance(name, str) else repr(name)


def order_breaks(
    expectations: Sequence[Expected],
    demands: Sequence[int],
    matching: Sequence[Sequence[int]],
    after: Sequence[Sequence[int]],
) -> dict[int, str]:
    """The order constraints broken whatever the pairing, each on the later expectation.

    Each expectation is given its earliest calls after those the ones before it can end
    on, as if calls could be shared: one that then has too few breaks its constraint with
    the one before it that ends last. Ending as early as possible, that one names the
    latest call the constraint could have been met after. An expectation that breaks
    takes nothing, so those after it are judged against the others before them.
    """
    ends: dict[int, int] = {}
    broken: dict[int, str] = {}
    waiting = [len(earlier) for earlier in after]
    followers: list[list[int]] = [[] for _ in after]
    for number, earlier in enumerate(after):
        for other in earlier:
            followers[other].append(number)
    ready = [number for number in range(len(after)) if not waiting[number]]
    while ready:
        number = ready.pop(0)
        for follower in followers[number]:
            waiting[follower] -= 1
            if not waiting[follower]:
                ready.append(follower)
        demand = demands[number]
        if not demand:
            continue
        bound, binding = max(
            ((ends[other], other) for other in after[number] if other in ends), default=(-1, -1)
        )
        found = matching[number]
        start = bisect_right(found, bound)
        if len(found) - start >= demand:
            ends[number] = found[start + demand - 1]
            continue
        if not start:  # too few matching calls at all: the count's reason says so
            continue
        label, first = order_label(expectations[number]), order_label(expectations[binding])
        early = found[:start]
        if demand == 1:
            broken[number] = (
                f"{label} (call {early[-1]}) comes before {first} (call {bound}); "
                "it must come after"
            )
        else:
            shown = ", ".join(str(call) for call in early[:_SHOWN_CONFLICTS])
            more = ", ..." if len(early) > _SHOWN_CONFLICTS else ""
            broken[number] = (
                f"{label} (calls {shown}{more}) comes before {first} (call {bound}); it must "
                f"come after: {demand} matching calls after it, got {len(found) - start}"
            )
    return broken


def unordered_reason(expectation: Expected, gave_up: bool) -> str:
    """Why an expectation met in order alone, and with calls of its own, fails in the turn."""
    if gave_up:
        return (
            f"the pairing search gave up (it visits at most {SEARCH_STEPS} states and places "
            f"at most {SEARCH_CALLS} calls in one group): split the group, or write fewer "
            "before/after constraints between expectations that match the same calls"
        )
    return (
        f"expected {expectation.count} matching call(s) of its own in the turn's order: no "
        "pairing gives every expectation of its group calls of their own in order"
    )


def window_breaks(
    expectations: Sequence[Expected],
    demands: Sequence[int],
    matching: Sequence[Sequence[int]],
    windowed: Sequence[Sequence[int]],
    windows: OrderWindows,
) -> dict[int, str]:
    """The order broken by calls that match a step out of its place (docs/selection.md,
    "Partial order"), each said on the step whose call is out of place: a later step's call
    before the earlier one's first, an optional step's call after a later one's calls, or a
    step's calls kept from where an optional step's calls are."""
    broken: dict[int, str] = {}

    def say(on: int, call: int, word: str, other: int, other_call: int) -> None:
        must = "after" if word == "before" else "before"
        broken.setdefault(
            on,
            f"{order_label(expectations[on])} (call {call}) comes {word} "
            f"{order_label(expectations[other])} (call {other_call}); it must come {must}",
        )

    for on, call, word, other, other_call in windows.conflicts:
        say(on, call, word, other, other_call)
    for number, demand in enumerate(demands):
        if not demand or len(windowed[number]) >= demand or len(matching[number]) < demand:
            continue
        found, low, high = matching[number], windows.lows[number], windows.highs[number]
        by = windows.high_by[number]
        after_low = len(found) - bisect_right(found, low)
        if by >= 0 and (windows.low_by[number] < 0 or after_low >= demand):
            # The earlier step's calls would come after the later step's call at high.
            say(by, high, "before", number, found[bisect_right(found, high - 1)])
        else:
            # An optional step's call at low comes after this step's calls.
            say(windows.low_by[number], low, "after", number, found[bisect_right(found, low) - 1])
    return broken


def place_breaks(
    expectations: Sequence[Expected],
    calls: Sequence[ToolCall],
    candidates: Sequence[Sequence[int]],
    matching: Sequence[Sequence[int]],
    placed: Sequence[tuple[int, bool, bool]],
    nevers: Sequence[tuple[int, str, int]],
) -> dict[int, str]:
    """The expectations whose calls are out of their place: the first or last call of
    their name that does not match (``placed``), a never's call after or before the first
    call of another (``nevers``)."""
    broken: dict[int, str] = {}
    for number, first, last in placed:
        found = candidates[number]
        if not found:
            continue
        matches = set(matching[number])
        for wanted, which, index in ((first, "first", found[0]), (last, "last", found[-1])):
            if not wanted or index in matches:
                continue
            expectation = expectations[number]
            mismatches = expectation._explain_call(calls[index])
            why = str(mismatches[0]) if len(mismatches) == 1 else mismatch_summary(mismatches)
            verb = "contains" if isinstance(expectation.name, str) else "matches"
            broken[number] = (
                f"the {which} call whose name {verb} {expectation.name!r} is call {index} "
                f"{call_text(calls[index])}: {why}"
            )
            break
    for number, key, other in nevers:
        if number in broken or not matching[other]:
            continue
        bound = matching[other][0]
        found = matching[number]
        wrong = (
            [call for call in found if call > bound]
            if key == "after"
            else [call for call in found if call < bound]
        )
        if not wrong:
            continue
        shown = ", ".join(f"call {index} {call_text(calls[index])}" for index in wrong[:3])
        more = f" and {len(wrong) - 3} more" if len(wrong) > 3 else ""
        broken[number] = (
            f"expected no matching call {key} {order_label(expectations[other])} (call {bound}), "
            f"got {len(wrong)}: {shown}{more}"
        )
    return broken
