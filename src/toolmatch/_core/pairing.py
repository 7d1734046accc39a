"""Giving expectations calls of their own: optimal distinct assignment, in-order assignment,
strict sequences, and the sizes of the best pairings (for scores).

All work on plain indices: ``demands[i]`` calls wanted by expectation ``i``, which
may take any call in ``matches[i]`` (sorted call indices).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Sequence

__all__ = [
    "assign_covering",
    "assign_distinct",
    "assign_ordered",
    "assign_sequence",
    "common_subsequence",
    "extend_ordered",
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
    for number, demand in enumerate(demands):  # not zip(strict=True): a keyword call is slow
        found = matches[number]
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
