"""Giving expectations calls of their own: optimal distinct assignment and in-order assignment.

Both work on plain indices: ``demands[i]`` calls wanted by expectation ``i``, which
may take any call in ``matches[i]`` (sorted call indices).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Sequence

__all__ = ["assign_distinct", "assign_ordered"]


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
