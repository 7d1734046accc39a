"""Giving expectations calls of their own: optimal distinct assignment, in-order assignment,
strict sequences, and the sizes of the best pairings (for scores).

All work on plain indices: ``demands[i]`` calls wanted by expectation ``i``, which
may take any call in ``matches[i]`` (sorted call indices).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Iterable, Sequence

__all__ = [
    "assign_covering",
    "assign_distinct",
    "assign_ordered",
    "assign_partial_order",
    "assign_sequence",
    "SEARCH_CALLS",
    "SEARCH_STEPS",
    "SearchLimitError",
    "common_subsequence",
    "extend_ordered",
    "Order",
    "OrderWindows",
    "order_windows",
    "within",
]


def assign_distinct(demands: Sequence[int], matches: Sequence[Sequence[int]]) -> list[list[int]]:
    """The calls each expectation gets when no call may serve two, as a maximum flow.

    Earlier expectations are served first: expectation ``i`` gets as many calls as any
    assignment could give it once expectations ``0..i-1`` have all they can get. So
    every demand is met whenever some assignment meets them all.

    >>> assign_distinct([1, 1], [[0, 1], [0]])  # greedy would give call 0 to the first
    [[1], [0]]
    """
    # Calls matched by the same set of expectations are interchangeable: flow goes to
    # these classes, so 1,000 calls of one kind cost as much as one.
    takers: dict[int, list[int]] = {}
    for expectation, (demand, found) in enumerate(zip(demands, matches, strict=True)):
        if demand > 0:
            for call in found:
                takers.setdefault(call, []).append(expectation)
    members_by_class: dict[tuple[int, ...], list[int]] = {}
    for call in sorted(takers):
        members_by_class.setdefault(tuple(takers[call]), []).append(call)
    classes = list(members_by_class.items())
    free = [len(members) for _, members in classes]
    reachable: list[list[int]] = [[] for _ in demands]
    for index, (signature, _) in enumerate(classes):
        for expectation in signature:
            reachable[expectation].append(index)
    # users[c][e]: how many calls of class c expectation e holds.
    users: list[dict[int, int]] = [{} for _ in classes]

    for expectation, demand in enumerate(demands):
        need = demand
        for index in reachable[expectation]:
            if need == 0:
                break
            take = min(free[index], need)
            if take:
                users[index][expectation] = users[index].get(expectation, 0) + take
                free[index] -= take
                need -= take
        while need > 0:
            pushed = _augment(expectation, need, reachable, users, free)
            if pushed == 0:
                break
            need -= pushed

    assigned: list[list[int]] = [[] for _ in demands]
    for (_, members), holders in zip(classes, users, strict=True):
        start = 0
        for expectation in sorted(holders):
            amount = holders[expectation]
            assigned[expectation].extend(members[start : start + amount])
            start += amount
    for calls in assigned:
        calls.sort()
    return assigned


def _augment(
    source: int,
    need: int,
    reachable: list[list[int]],
    users: list[dict[int, int]],
    free: list[int],
) -> int:
    """Find one path source -> class -> holder -> class ... -> class with room; push along it."""
    # came_from_class[c] = expectation that reached class c; came_from_exp[e] = class e left.
    came_from_class: dict[int, int] = {}
    came_from_exp: dict[int, int] = {source: -1}
    queue = deque([source])
    end = -1
    while queue and end < 0:
        expectation = queue.popleft()
        for index in reachable[expectation]:
            if index in came_from_class:
                continue
            came_from_class[index] = expectation
            if free[index] > 0:
                end = index
                break
            for holder, amount in users[index].items():
                if amount > 0 and holder not in came_from_exp:
                    came_from_exp[holder] = index
                    queue.append(holder)
    if end < 0:
        return 0
    # Walk back to find how much the path can carry.
    amount = min(need, free[end])
    index = end
    expectation = came_from_class[index]
    while expectation != source:
        previous = came_from_exp[expectation]
        amount = min(amount, users[previous][expectation])
        index = previous
        expectation = came_from_class[index]
    # Push: each expectation on the path takes the next class and gives up the one before.
    free[end] -= amount
    index = end
    expectation = came_from_class[index]
    while True:
        holders = users[index]
        holders[expectation] = holders.get(expectation, 0) + amount
        if expectation == source:
            break
        previous = came_from_exp[expectation]
        users[previous][expectation] -= amount
        if users[previous][expectation] == 0:
            del users[previous][expectation]
        index = previous
        expectation = came_from_class[index]
    return amount


def assign_ordered(
    demands: Sequence[int], matches: Sequence[Sequence[int]]
) -> list[list[int] | None]:
    """Calls for each expectation in turn, each after the calls the previous ones took.

    Taking the earliest calls is optimal for a subsequence. An expectation with
    demand 0 takes nothing; one that cannot be met gets ``None`` and takes nothing,
    so the ones after it are still judged.

    >>> assign_ordered([1, 1], [[0, 2], [1]])
    [[0], [1]]
    >>> assign_ordered([1, 1], [[2], [1]])
    [[2], None]
    """
    last = -1
    assigned: list[list[int] | None] = []
    for demand, found in zip(demands, matches, strict=True):
        if demand == 0:
            assigned.append([])
            continue
        start = bisect_right(found, last)
        taken = list(found[start : start + demand])
        if len(taken) < demand:
            assigned.append(None)
            continue
        assigned.append(taken)
        last = taken[-1]
    return assigned


def assign_covering(
    demands: Sequence[int], extras: Sequence[int], matches: Sequence[Sequence[int]]
) -> list[list[int]]:
    """As :func:`assign_distinct`, then each expectation takes up to ``extras[i]`` more calls.

    The extra calls never cost another expectation one of its ``demands``: they are
    served after every demand, and a later augmenting path only moves calls between
    holders. So as many calls as possible are covered while every demand that can be
    met is met.

    >>> assign_covering([1, 1], [1, 0], [[0, 1], [1, 2]])
    [[0, 1], [2]]
    """
    if not any(extras):
        return assign_distinct(demands, matches)
    assigned = assign_distinct([*demands, *extras], [*matches, *matches])
    count = len(demands)
    return [sorted(assigned[number] + assigned[count + number]) for number in range(count)]


def assign_sequence(
    lows: Sequence[int], highs: Sequence[int], matches: Sequence[Sequence[int]], size: int
) -> list[list[int]] | None:
    """Positions ``0..size-1`` cut into consecutive blocks, block ``i`` of ``lows[i]`` to
    ``highs[i]`` positions that all match expectation ``i``; ``None`` when no cut exists.

    A dynamic programme over the positions each block may end at.

    >>> assign_sequence([1, 1], [2, 1], [[0, 1, 2], [0, 1, 2]], 3)
    [[0, 1], [2]]
    >>> print(assign_sequence([1, 1], [1, 1], [[0], [2]], 3))
    None
    """
    # reach: each position the next block may start at (with where the block before began).
    reach: dict[int, int] = {0: -1}
    steps: list[dict[int, int]] = []
    for low, high, found in zip(lows, highs, matches, strict=True):
        hits = set(found)
        # run[p]: how many consecutive positions from p match this expectation.
        run = [0] * (size + 1)
        for position in range(size - 1, -1, -1):
            run[position] = run[position + 1] + 1 if position in hits else 0
        after: dict[int, int] = {}
        for start in sorted(reach):
            for length in range(low, min(high, run[start]) + 1):
                after.setdefault(start + length, start)
        steps.append(after)
        reach = after
        if not reach:
            return None
    if size not in reach:
        return None
    blocks: list[list[int]] = []
    end = size
    for after in reversed(steps):
        start = after[end]
        blocks.append(list(range(start, end)))
        end = start
    blocks.reverse()
    return blocks


def extend_ordered(
    assigned: Sequence[list[int] | None],
    highs: Sequence[int],
    matches: Sequence[Sequence[int]],
    order: Sequence[int],
) -> list[list[int] | None]:
    """An in-order assignment where each block also takes the unclaimed calls right after it
    that match it, up to ``highs[i]`` calls: what is left unclaimed then breaks the sequence.

    ``order`` lists the turn's call indices in order (calls not in it are not judged).

    >>> extend_ordered([[0], [2]], [2, 1], [[0, 1], [2]], [0, 1, 2, 3])
    [[0, 1], [2]]
    """
    claimed = {call for got in assigned if got for call in got}
    place = {call: position for position, call in enumerate(order)}
    extended: list[list[int] | None] = []
    for got, high, found in zip(assigned, highs, matches, strict=True):
        if not got:
            extended.append(got)
            continue
        hits = set(found)
        taken = list(got)
        position = place[taken[-1]] + 1
        while len(taken) < high and position < len(order):
            call = order[position]
            if call in claimed or call not in hits:
                break
            taken.append(call)
            claimed.add(call)
            position += 1
        extended.append(taken)
    return extended


def common_subsequence(counts: Sequence[int], matches: Sequence[Sequence[int]]) -> int:
    """The longest common subsequence of the expected calls (expectation ``i`` repeated
    ``counts[i]`` times, in order) and the turn's calls, where a pair is equal when the call
    is in ``matches[i]``: Hunt and Szymanski's method, over the matching pairs only.

    >>> common_subsequence([1, 1, 1], [[2], [0], [1]])  # calls b, c, a for expected a, b, c
    2
    """
    # tails[k]: the smallest call index that ends a common subsequence of length k + 1.
    tails: list[int] = []
    for count, found in zip(counts, matches, strict=True):
        for _ in range(count):
            for call in reversed(found):
                place = bisect_left(tails, call)
                if place == len(tails):
                    tails.append(call)
                else:
                    tails[place] = call
    return len(tails)


SEARCH_STEPS = 100_000
"""How many states the order search may visit in one group before it gives up."""

SEARCH_CALLS = 200
"""How many calls the order search may place in one group (one search step each, nested)."""


class SearchLimitError(Exception):
    """The order search visited :data:`SEARCH_STEPS` states without deciding, or was to
    place more than :data:`SEARCH_CALLS` calls: ``part`` lists the expectations it was for."""

    def __init__(self, part: Sequence[int] = ()) -> None:
        super().__init__(f"no decision within {SEARCH_STEPS} states")
        self.part = tuple(part)


def assign_partial_order(
    demands: Sequence[int], matches: Sequence[Sequence[int]], order: Order
) -> list[list[int] | None]:
    """Distinct calls for each expectation such that every call of expectation ``i`` comes
    before every call of ``j`` when ``i`` is in ``order.after[j]``.

    Optimal, never greedy: the expectations are cut where every one before the cut must
    precede every one after it (an ordered sequence of groups); the parts are met one after
    the other, each by the earliest calls it can end on, which no later part can regret.
    A part without constraints inside is a distinct assignment (a maximum flow) ended as
    early as possible; one with constraints inside is searched (:func:`_search_part`).
    The expectations of a part that cannot be met get ``None``, those with demand 0 ``[]``;
    the parts after it are still judged. Raises :class:`SearchLimitError` when a part's search
    exceeds :data:`SEARCH_STEPS` states.

    >>> assign_partial_order([1, 1], [[0, 2], [1]], Order([[], [0]]))  # 1 after 0
    [[0], [1]]
    >>> assign_partial_order([1, 1, 1], [[1], [0, 2], [2, 3]], Order([[], [0], [0]]))
    [[1], [2], [3]]
    >>> assign_partial_order([1, 1], [[1], [0]], Order([[], [0]]))
    [[1], None]
    """
    ordered_live = [number for number in order.sequence if demands[number] > 0]
    # ancestors[j]: every expectation that must come before j and takes calls, as a bit set.
    live_mask = sum(1 << number for number in ordered_live)
    ancestors = [mask & live_mask for mask in order.ancestors]
    assigned: list[list[int] | None] = [[] for _ in demands]
    start = -1
    for part in _series_parts(ordered_live, ancestors):
        got = _earliest_part(part, start, demands, matches, ancestors)
        if got is None:
            for number in part:
                assigned[number] = None
            continue
        for number, calls in zip(part, got, strict=True):
            assigned[number] = calls
        start = max(calls[-1] for calls in got)
    return assigned


def _series_parts(order: list[int], ancestors: list[int]) -> list[list[int]]:
    """``order`` cut wherever every expectation before the cut precedes every one after it."""
    # after[p]: the expectations every one from place p on must follow.
    after = [-1] * (len(order) + 1)
    for place in range(len(order) - 1, -1, -1):
        after[place] = after[place + 1] & ancestors[order[place]]
    parts: list[list[int]] = []
    current: list[int] = []
    prefix = 0
    for place, number in enumerate(order):
        current.append(number)
        prefix |= 1 << number
        if after[place + 1] & prefix == prefix:
            parts.append(current)
            current = []
    return parts


def _earliest_part(
    part: list[int],
    start: int,
    demands: Sequence[int],
    matches: Sequence[Sequence[int]],
    ancestors: list[int],
) -> list[list[int]] | None:
    """Calls after ``start`` for the expectations of ``part``, ending as early as possible."""
    found = [list(matches[number][bisect_right(matches[number], start) :]) for number in part]
    wanted = [demands[number] for number in part]
    part_mask = sum(1 << number for number in part)
    ordered = any(ancestors[number] & part_mask for number in part)
    local = {number: place for place, number in enumerate(part)}
    earlier = [
        [local[other] for other in part if ancestors[number] >> other & 1] if ordered else []
        for number in part
    ]
    earliest = _earliest_alone(wanted, found, earlier)
    if not isinstance(earliest, int):
        return earliest  # too few calls for one, or each's earliest calls, none shared
    if ordered:
        if _distinct(wanted, found) is None:
            return None
        got: list[list[int]] = [[] for _ in part]
        # Expectations that share no call and no constraint are searched apart.
        for cluster in _clusters(found, earlier):
            inside = {number: place for place, number in enumerate(cluster)}
            try:
                searched = _search_part(
                    [wanted[number] for number in cluster],
                    [found[number] for number in cluster],
                    [[inside[other] for other in earlier[number]] for number in cluster],
                )
            except SearchLimitError:
                raise SearchLimitError([part[number] for number in cluster]) from None
            if searched is None:
                return None
            for number, calls in zip(cluster, searched, strict=True):
                got[number] = calls
        return got
    # The least last call with which a distinct assignment meets every demand: no sooner
    # than each expectation's own earliest calls end, often exactly then.
    ends = sorted({call for calls in found for call in calls})
    low = bisect_left(
        ends, max(calls[demand - 1] for calls, demand in zip(found, wanted, strict=True))
    )
    fitted = _distinct(wanted, _up_to(found, ends[low]))
    if fitted is not None:
        return fitted
    best = _distinct(wanted, found)
    if best is None:
        return None
    low, high = low + 1, len(ends) - 1
    while low < high:
        middle = (low + high) // 2
        fitted = _distinct(wanted, _up_to(found, ends[middle]))
        if fitted is None:
            low = middle + 1
        else:
            high, best = middle, fitted
    return best  # the assignment at ends[high]: high moves only to a feasible end


def _earliest_alone(
    demands: list[int], matches: list[list[int]], earlier: list[list[int]]
) -> list[list[int]] | int | None:
    """Each expectation's earliest calls after the earliest its predecessors can end, as if
    calls could be shared: ``None`` if one has too few, the assignment if none is shared
    (every one then ends as early as it can at all), else how many are shared."""
    ends: list[int] = []
    taken: list[list[int]] = []
    seen: set[int] = set()
    shared = 0
    for number, before in enumerate(earlier):
        bound = max((ends[other] for other in before), default=-1)
        found = matches[number]
        start = bisect_right(found, bound)
        calls = found[start : start + demands[number]]
        if len(calls) < demands[number]:
            return None
        shared += sum(call in seen for call in calls)
        seen.update(calls)
        taken.append(calls)
        ends.append(calls[-1])
    return shared if shared else taken


def _clusters(found: list[list[int]], earlier: list[list[int]]) -> list[list[int]]:
    """The expectations grouped where a constraint or a shared call joins them, each group
    in the expectations' order (so still topological)."""
    links = [(other, number) for number, before in enumerate(earlier) for other in before]
    first_taker: dict[int, int] = {}
    for number, calls in enumerate(found):
        links.extend((first_taker.setdefault(call, number), number) for call in calls)
    return _joined(len(found), links)


def _joined(count: int, links: Sequence[tuple[int, int]]) -> list[list[int]]:
    """``0..count-1`` grouped by the links between them (union-find), each group in order."""
    root = list(range(count))

    def find(number: int) -> int:
        while root[number] != number:
            root[number] = root[root[number]]
            number = root[number]
        return number

    for one, other in links:
        root[find(one)] = find(other)
    groups: dict[int, list[int]] = {}
    for number in range(count):
        groups.setdefault(find(number), []).append(number)
    return list(groups.values())


def _up_to(found: list[list[int]], last: int) -> list[list[int]]:
    return [calls[: bisect_right(calls, last)] for calls in found]


def _distinct(demands: Sequence[int], matches: Sequence[Sequence[int]]) -> list[list[int]] | None:
    """A distinct assignment meeting every demand, or ``None`` if there is none."""
    got = assign_distinct(demands, matches)
    if all(len(calls) >= demand for calls, demand in zip(got, demands, strict=True)):
        return got
    return None


def _search_part(
    demands: list[int], matches: list[list[int]], earlier: list[list[int]]
) -> list[list[int]] | None:
    """The assignment ending earliest, searched over the calls in turn order.

    At each call, any expectation whose predecessors are all met and which matches it may
    take it. Taking it is never worse than leaving it (the state with one more call taken
    can follow any plan of the other), so only the choice of taker branches. A branch
    ending on the least end any plan could reach from its state stops the search there;
    a state no plan can finish from is dropped at once. Identical independent pieces (the
    same calls, counts and order inside) are interchangeable: a state is remembered with
    their progress sorted, and equal takers are tried once.
    """
    earliest = _earliest_alone(demands, matches, earlier)
    if not isinstance(earliest, int):
        return earliest  # no order at all, or the earliest calls of each, none shared
    if sum(demands) > SEARCH_CALLS:
        raise SearchLimitError
    count = len(demands)
    calls = sorted({call for found in matches for call in found})
    place = {call: position for position, call in enumerate(calls)}
    positions = [[place[call] for call in found] for found in matches]
    takers_at: list[list[int]] = [[] for _ in calls]
    for number, found in enumerate(positions):
        for position in found:
            takers_at[position].append(number)
    needs = [sum(1 << other for other in before) for before in earlier]
    pieces, piece_of, same = _pieces(demands, positions, earlier)
    never = len(calls)
    visits = [0]
    later: list[list[int]] = [[] for _ in demands]
    for number, before in enumerate(earlier):
        for other in before:
            later[other].append(number)
    seen: dict[tuple[object, ...], tuple[int, tuple[int, tuple[int, ...], int] | None]] = {}

    def canonical(position: int, taken: tuple[int, ...]) -> tuple[object, ...]:
        progress = [tuple(taken[number] for number in piece) for piece in pieces]
        return (position, *(tuple(sorted(progress[piece] for piece in group)) for group in same))

    def lowest(position: int, taken: tuple[int, ...], left: int) -> int:
        """No plan from here ends before this position (``never``: none ends at all)."""
        bound = position + left - 1
        if bound >= never:
            return never
        end = _windows(demands, positions, earlier, later, position, taken, never)
        return never if end is None else max(bound, end)

    def best(position: int, taken: tuple[int, ...], done: int, left: int) -> int:
        """The least position all demands can be met by, from ``position`` with ``taken``."""
        while position < never:
            if any(
                taken[number] < demands[number] and needs[number] & done == needs[number]
                for number in takers_at[position]
            ):
                break
            position += 1
        else:
            return never
        key = canonical(position, taken)
        known = seen.get(key)
        if known is not None:
            return known[0]
        visits[0] += 1
        if visits[0] > SEARCH_STEPS:
            raise SearchLimitError
        floor = lowest(position, taken, left)
        result: int = never
        choice: tuple[int, tuple[int, ...], int] | None = None
        tried = set()
        for number in takers_at[position] if floor < never else ():
            if taken[number] >= demands[number] or needs[number] & done != needs[number]:
                continue
            alike = alike_of(number, taken)
            if alike in tried:
                continue
            tried.add(alike)
            more = (*taken[:number], taken[number] + 1, *taken[number + 1 :])
            finished = done | (1 << number) if more[number] == demands[number] else done
            end = position if left == 1 else best(position + 1, more, finished, left - 1)
            if end < result:
                result, choice = end, alike
                if end <= floor:
                    break
        seen[key] = (result, choice)
        return result

    def alike_of(number: int, taken: tuple[int, ...]) -> tuple[int, tuple[int, ...], int]:
        piece = piece_of[number]
        return (same_of[piece], tuple(taken[one] for one in pieces[piece]), slot[number])

    same_of = {piece: group_number for group_number, group in enumerate(same) for piece in group}
    slot = {number: piece.index(number) for piece in pieces for number in piece}
    start = (0,) * count
    total = sum(demands)
    if best(0, start, 0, total) == never:
        return None
    assigned: list[list[int]] = [[] for _ in demands]
    taken, done, position = start, 0, 0
    for _ in range(total):
        while not any(
            taken[number] < demands[number] and needs[number] & done == needs[number]
            for number in takers_at[position]
        ):
            position += 1
        # The state was remembered up to the order of identical pieces: the choice is the
        # part a taker plays, and any taker playing it will do.
        choice = seen[canonical(position, taken)][1]
        number = next(
            number
            for number in takers_at[position]
            if taken[number] < demands[number]
            and needs[number] & done == needs[number]
            and alike_of(number, taken) == choice
        )
        assigned[number].append(calls[position])
        taken = (*taken[:number], taken[number] + 1, *taken[number + 1 :])
        if taken[number] == demands[number]:
            done |= 1 << number
        position += 1
    return assigned


def _pieces(
    demands: list[int], positions: list[list[int]], earlier: list[list[int]]
) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """The expectations cut into pieces no constraint joins, each piece's number for each
    expectation, and the pieces grouped by identity (the same calls, counts and order)."""
    count = len(demands)
    links = [(other, number) for number, before in enumerate(earlier) for other in before]
    pieces = _joined(count, links)
    piece_of = [0] * count
    for index, piece in enumerate(pieces):
        for number in piece:
            piece_of[number] = index
    groups: dict[tuple[object, ...], list[int]] = {}
    for index, piece in enumerate(pieces):
        local = {number: place for place, number in enumerate(piece)}
        signature = tuple(
            (tuple(positions[number]), demands[number], tuple(local[o] for o in earlier[number]))
            for number in piece
        )
        groups.setdefault(signature, []).append(index)
    return pieces, piece_of, list(groups.values())


def _windows(
    demands: list[int],
    positions: list[list[int]],
    earlier: list[list[int]],
    later: list[list[int]],
    position: int,
    taken: tuple[int, ...],
    never: int,
) -> int | None:
    """A bound on any plan from this state: each expectation still short may use only the
    calls between the earliest its predecessors can end and the latest its followers can
    start (numbers come after their predecessors: the numbering is topological); the least
    end if a distinct assignment within those windows exists, else ``None``.

    This relaxation keeps the order and the distinct calls but not both at once; it cuts
    the search down to the states where they conflict.
    """
    count = len(demands)
    needs = [demands[number] - taken[number] for number in range(count)]
    ends = [position - 1] * count  # a met expectation's calls all come before position
    firsts = [0] * count
    for number in range(count):
        need = needs[number]
        if not need:
            continue
        bound = position - 1
        if not taken[number]:
            for other in earlier[number]:
                bound = max(bound, ends[other])
        found = positions[number]
        first = bisect_right(found, bound)
        if first + need > len(found):
            return None
        firsts[number] = first
        ends[number] = found[first + need - 1]
    lasts = [never] * count  # the windows' ends, exclusive
    windows: list[list[int]] = [[] for _ in range(count)]
    for number in range(count - 1, -1, -1):
        need = needs[number]
        if not need:
            continue
        found = positions[number]
        limit = bisect_left(found, lasts[number])
        if limit - need < firsts[number]:
            return None
        windows[number] = found[firsts[number] : limit]
        start = found[limit - need]  # the latest it can start
        for other in earlier[number]:
            lasts[other] = min(lasts[other], start)
    short = [number for number in range(count) if needs[number]]
    if _distinct([needs[number] for number in short], [windows[n] for n in short]) is None:
        return None
    return max((ends[number] for number in short), default=position - 1)


class Order:
    """A partial order of a turn's expectations (``after[j]``: those ``j`` directly
    follows), with what follows from it alone, worked out once for every run the turn
    judges: ``sequence``, the expectations with each after those it follows; ``followers``,
    those that directly follow each; ``ancestors``, those each follows, directly or through
    others, as bits. Raises ``ValueError`` when the constraints form a cycle.

    >>> order = Order([[], [0], [1]])
    >>> order.sequence, order.followers, order.ancestors
    ([0, 1, 2], [[1], [2], []], [0, 1, 3])
    """

    __slots__ = ("after", "sequence", "followers", "ancestors")

    def __init__(self, after: Sequence[Sequence[int]]) -> None:
        self.after = after
        waiting = [len(set(earlier)) for earlier in after]
        self.followers: list[list[int]] = [[] for _ in after]
        for number, earlier in enumerate(after):
            for other in set(earlier):
                self.followers[other].append(number)
        ready = deque(number for number in range(len(after)) if waiting[number] == 0)
        self.sequence: list[int] = []
        while ready:
            number = ready.popleft()
            self.sequence.append(number)
            for follower in self.followers[number]:
                waiting[follower] -= 1
                if waiting[follower] == 0:
                    ready.append(follower)
        if len(self.sequence) != len(after):
            raise ValueError("the order constraints form a cycle")
        self.ancestors = [0] * len(after)
        for number in self.sequence:
            mask = 0
            for other in after[number]:
                mask |= (1 << other) | self.ancestors[other]
            self.ancestors[number] = mask


class OrderWindows:
    """Where each expectation's own calls may lie once the calls that match the others are
    read (docs/selection.md, "Partial order"): its calls come after ``lows[i]`` and before
    ``highs[i]``; ``low_by[i]`` / ``high_by[i]`` name the expectation that set the bound;
    ``conflicts`` lists what is broken whatever the pairing, each ``(expectation, its call,
    "before" or "after", the other expectation, its call)``."""

    __slots__ = ("lows", "highs", "low_by", "high_by", "conflicts")

    def __init__(self, count: int, never: int) -> None:
        self.lows = [-1] * count
        self.highs = [never] * count
        self.low_by: list[int] = [-1] * count
        self.high_by: list[int] = [-1] * count
        self.conflicts: list[tuple[int, int, str, int, int]] = []


def order_windows(
    matches: Sequence[Sequence[int]],
    order: Order,
    takes: Sequence[bool],
    optional: Sequence[int],
    never: int,
) -> OrderWindows | None:
    """The bounds and conflicts the calls that match the expectations put on an order
    (``order``: which directly follows which; ``takes``: the expectations that take calls;
    ``optional``: the optional steps that take none, which have a place in it too);
    ``None`` when no call can be out of place and no step is optional: nothing is bounded.

    For each pair (``a`` before ``b``, directly or through others): no call that matches
    ``b`` comes before the first call that matches ``a`` (a conflict when one does), unless
    it matches another expectation with a place that need not come after ``a``, whose call
    it may be. An expectation that takes no call (an optional step) holds every call that
    matches it and not the other, and those come after every call the steps before it take
    and before every call the steps after it take: bounds on those steps' calls, or, between
    two optional steps, a conflict.

    >>> windows = order_windows([[1], [0, 2]], Order([[], [0]]), [True, True], [], 3)
    >>> windows.conflicts
    [(1, 0, 'before', 0, 1)]
    >>> order_windows([[0, 2], [1]], Order([[], [0]]), [True, False], [1], 3).highs
    [1, 3]
    >>> order_windows([[0], [1, 2]], Order([[], [0]]), [True, True], [], 3) is None
    True
    """
    taking = takes  # those with a place in the order
    if optional:
        taking = list(takes)
        for number in optional:
            taking[number] = True
    firsts = [found[0] if found and taking[n] else -1 for n, found in enumerate(matches)]
    suspects = _suspects(matches, order, taking, firsts)
    if not (suspects or optional):
        return None  # a turn's calls in order: the run makes no windows
    windows = OrderWindows(len(matches), never)
    graph = _OrderGraph(matches, order, taking, takes, firsts)
    _out_of_place(graph, suspects, windows)
    for earlier, later in _optional_pairs(graph, optional):
        _bound_pair(graph, earlier, later, windows)
    return windows


def _suspects(
    matches: Sequence[Sequence[int]], order: Order, taking: Sequence[bool], firsts: list[int]
) -> list[int]:
    """The expectations with a place whose first call comes before the latest first call
    (``firsts``) of those they follow: only their pairs may be out of place, so only they
    are read pair by pair."""
    latest = [-1] * len(matches)
    for number in order.sequence:
        bound = -1
        for other in order.after[number]:
            bound = max(bound, latest[other], firsts[other])
        latest[number] = bound
    return [n for n, found in enumerate(matches) if taking[n] and found and found[0] < latest[n]]


class _OrderGraph:
    """The expectations' order and the calls that match them, with what ``order_windows``
    works out from them once: each one's first call, reach and set of calls."""

    def __init__(
        self,
        matches: Sequence[Sequence[int]],
        order: Order,
        taking: Sequence[bool],
        takes: Sequence[bool],
        firsts: list[int],
    ) -> None:
        self.matches, self.taking, self.takes, self.firsts = matches, taking, takes, firsts
        self.order = order
        self._below: dict[int, int] = {}
        self._sets: dict[int, frozenset[int]] = {}

    def takers(self) -> dict[int, int]:
        """Each call with the expectations with a place it matches, as bits."""
        found: dict[int, int] = {}
        for number, calls in enumerate(self.matches):
            if self.taking[number]:
                for call in calls:
                    found[call] = found.get(call, 0) | 1 << number
        return found

    def places(self) -> int:
        """The expectations with a place, as bits."""
        return sum(1 << number for number in range(len(self.matches)) if self.taking[number])

    @staticmethod
    def reach(start: int, links: Sequence[Sequence[int]]) -> int:
        """Those ``start`` reaches through ``links``, as bits."""
        seen, stack = 0, [start]
        while stack:
            for other in links[stack.pop()]:
                if not seen >> other & 1:
                    seen |= 1 << other
                    stack.append(other)
        return seen

    def ancestors(self, number: int) -> list[int]:
        """The expectations with a place that ``number`` follows, directly or not."""
        return self.members(self.order.ancestors[number])

    def descendants(self, number: int) -> int:
        """The expectations that follow ``number``, directly or not, as bits (kept)."""
        found = self._below.get(number)
        if found is None:
            found = self._below[number] = self.reach(number, self.order.followers)
        return found

    def members(self, mask: int) -> list[int]:
        """The expectations with a place in ``mask``."""
        return [n for n in range(mask.bit_length()) if mask >> n & 1 and self.taking[n]]

    def own(self, number: int) -> frozenset[int]:
        """The calls that match ``number``, as a set (kept)."""
        found = self._sets.get(number)
        if found is None:
            found = self._sets[number] = frozenset(self.matches[number])
        return found


def _out_of_place(graph: _OrderGraph, suspects: list[int], windows: OrderWindows) -> None:
    """Add to ``windows`` the conflicts of ``suspects``: a call before the first call of an
    expectation it must follow, that no other expectation free of that order may take."""
    takers, places = graph.takers(), graph.places()
    for later in suspects:
        for earlier in graph.ancestors(later):
            first = graph.firsts[earlier]
            if first < 0 or graph.matches[later][0] >= first:
                continue
            others = places & ~graph.descendants(earlier) & ~(1 << later)
            stray = next(
                (c for c in graph.matches[later] if c >= first or not takers[c] & others), first
            )
            if stray >= first:
                continue
            # Said on the step out of place: an optional earlier step's calls come late.
            if graph.takes[earlier]:
                windows.conflicts.append((later, stray, "before", earlier, first))
            else:
                windows.conflicts.append((earlier, first, "after", later, stray))


def _optional_pairs(graph: _OrderGraph, optional: Sequence[int]) -> list[tuple[int, int]]:
    """Each pair ``(earlier, later)`` in the order with an optional step in it, sorted."""
    pairs = {
        pair
        for step in optional
        for pair in [
            *((earlier, step) for earlier in graph.ancestors(step)),
            *((step, later) for later in graph.members(graph.descendants(step))),
        ]
    }
    return sorted(pairs)


def _bound_pair(graph: _OrderGraph, earlier: int, later: int, windows: OrderWindows) -> None:
    """Add to ``windows`` what a pair with an optional step puts on the other step's calls:
    a bound when that step takes calls, a conflict between two optional steps."""
    first = _first_outside(graph.matches[later], graph.own(earlier))
    last = _first_outside(reversed(graph.matches[earlier]), graph.own(later))
    if graph.takes[earlier]:
        if first is not None and first < windows.highs[earlier]:
            windows.highs[earlier], windows.high_by[earlier] = first, later
    elif graph.takes[later]:
        if last is not None and last > windows.lows[later]:
            windows.lows[later], windows.low_by[later] = last, earlier
    elif first is not None and last is not None and first < last:
        windows.conflicts.append((earlier, last, "after", later, first))


def within(found: Sequence[int], low: int, high: int) -> list[int]:
    """The calls of ``found`` (sorted) after ``low`` and before ``high``.

    >>> within([0, 2, 4, 6], 0, 6)
    [2, 4]
    """
    return list(found[bisect_right(found, low) : bisect_left(found, high)])


def _first_outside(calls: Iterable[int], outside: frozenset[int]) -> int | None:
    """The first of ``calls`` not in ``outside``, or ``None``."""
    return next((call for call in calls if call not in outside), None)
