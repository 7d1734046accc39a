"""Which of a turn's calls each expectation selects by name and which of those match it:
the one pass over the calls that every verdict starts from (docs/selection.md)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from operator import attrgetter

from toolmatch._calls.call import ToolCall
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.canonical import canonical_key

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._selection.expectation_protocol import Expected

__all__ = ["Selection", "match_turn", "numbered"]


_MISSING: Any = object()
_NAMES_REMEMBERED = 4096
_LONGEST_REMEMBERED = 64  # calls in a turn whose names are remembered: memory stays flat
_name_of = attrgetter("name")
_NO_LIMIT = 2**62  # more calls than any turn holds


class Selection:
    """Which of a turn's expectations select each tool name, worked out once per name.

    Tool names repeat from run to run, so a spec's turn keeps one of these for all the runs
    it judges: a call's candidates are then one dict lookup away. A name matcher is asked
    once per distinct name (matchers are pure). At most ``_NAMES_REMEMBERED`` names are
    kept, so memory stays flat on a trace of ever-new names.

    Its fields, expectations by number:

    - ``expectations``: the turn's expectations, in order.
    - ``counts``: the matching calls each needs (and claims of its own when calls are
      distinct); ``expected_calls``: their sum; ``extras``: the calls beyond its count a
      positive expectation's ``max_count`` allows; ``allowed``: every count each allows, as
      a range.
    - ``placed``: ``(number, first, last)`` of those asserting the first or last call of
      their name.
    - ``use_index``: whether literal expectations are looked up by their canonical keys;
      ``plans``: how each judges its candidates: ``(number, its check of the args, its check
      of the rest of a call, its canonical key)``, a check ``None`` when there is nothing to
      check, the key ``None`` when it is not looked up.
    - ``asserting``: the numbers of those asserting a field a call may not record (agent,
      failed, status, result): their candidates are looked at again
      (``_selection/unrecorded.py``).
    """

    __slots__ = (
        "expectations",
        "use_index",
        "counts",
        "expected_calls",
        "extras",
        "allowed",
        "plans",
        "asserting",
        "placed",
        "_selects",
        "_known",
        "_by_names",
    )

    def __init__(self, expectations: Sequence[Expected], *, use_index: bool = True) -> None:
        self.expectations = list(expectations)
        self.counts = [tool.count for tool in self.expectations]
        self.expected_calls = sum(self.counts)
        self.extras = [
            tool.max_count - tool.count if tool.count and tool.max_count is not None else 0
            for tool in self.expectations
        ]
        # A never with after / before allows matching calls elsewhere: where they are is
        # checked against the other expectations' calls (turn.py).
        self.allowed = [
            range(
                tool.count,
                (
                    _NO_LIMIT
                    if tool.max_count is None or (tool.is_never and (tool.after or tool.before))
                    else tool.max_count
                )
                + 1,
            )
            for tool in self.expectations
        ]
        self.placed = [
            (number, tool.first, tool.last)
            for number, tool in enumerate(self.expectations)
            if tool.first or tool.last
        ]
        self.use_index = use_index
        self.plans = [
            (
                number,
                tool._args_check,
                tool._call_check,
                tool._literal_key[0] if use_index and tool._literal_key is not None else None,
            )
            for number, tool in enumerate(self.expectations)
        ]
        self.asserting = [number for number, tool in enumerate(self.expectations) if tool._asserted]
        self._selects = [expectation._selects for expectation in self.expectations]
        self._known: dict[str, tuple[int, ...]] = {}
        # A turn's tool names in call order -> each expectation's candidates among them.
        # Runs of one case mostly repeat a few sequences of names: a turn's candidates are
        # then one lookup, not a step per call and expectation.
        self._by_names: dict[tuple[str, ...], tuple[tuple[int, ...], ...]] = {}

    def selecting(self, name: str) -> tuple[int, ...]:
        """The numbers of the expectations that select ``name``, in order."""
        known = self._known.get(name)
        if known is None:
            known = tuple(number for number, selects in enumerate(self._selects) if selects(name))
            if len(self._known) >= _NAMES_REMEMBERED:
                self._known.clear()
            self._known[name] = known
        return known

    def selected(self, named: Iterable[tuple[int, str]]) -> list[list[int]]:
        """For each expectation, the numbers of the ``(number, name)`` pairs it selects."""
        found: list[list[int]] = [[] for _ in self.expectations]
        selecting = self.selecting
        for index, name in named:
            for number in selecting(name):
                found[number].append(index)
        return found

    def candidates(self, names: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
        """For each expectation, the numbers of the ``names`` it selects, in order."""
        candidates = tuple(map(tuple, self.selected(enumerate(names))))
        if len(names) <= _LONGEST_REMEMBERED:
            if len(self._by_names) >= _NAMES_REMEMBERED:
                self._by_names.clear()
            self._by_names[names] = candidates
        return candidates


def match_turn(
    selection: Selection, calls: Sequence[ToolCall], kept: Sequence[int] | None = None
) -> tuple[list[list[int]], list[list[int]]]:
    """For each expectation: the calls whose name it selects, and those that also match.

    Only the calls numbered in ``kept`` are judged (all of them when it is ``None``).
    """
    expectations = selection.expectations
    candidates: list[list[int]]
    if kept is None:
        names = tuple(map(_name_of, calls))
        known = selection._by_names.get(names)
        if known is None:
            known = selection.candidates(names)
        candidates = list(map(list, known))  # lists of the turn's own: a verdict keeps them
    else:
        candidates = selection.selected((index, calls[index].name) for index in kept)

    matching: list[list[int]] = []
    indexed: dict[tuple[str, ...], list[int]] = {}
    for number, check, extra, keys in selection.plans:
        selected = candidates[number]
        if extra is not None and selected:
            matches = expectations[number]._call_matches
            matching.append([index for index in selected if matches(calls[index])])
        elif check is None or not selected:
            matching.append(selected)
        elif keys is not None:
            matching.append([])
            indexed.setdefault(keys, []).append(number)
        else:
            found = []
            for index in selected:
                call = calls[index]
                if call.parse_error is None and check(call.args):
                    found.append(index)
            matching.append(found)
    for keys, members in indexed.items():
        _match_indexed(keys, members, selection, calls, kept, matching)
    return candidates, matching


def numbered(
    calls: Sequence[ToolCall], kept: Sequence[int] | None
) -> Iterable[tuple[int, ToolCall]]:
    return enumerate(calls) if kept is None else ((index, calls[index]) for index in kept)


def _match_indexed(
    keys: tuple[str, ...],
    members: list[int],
    selection: Selection,
    calls: Sequence[ToolCall],
    kept: Sequence[int] | None,
    matching: list[list[int]],
) -> None:
    """Match literal expectations asserting the same keys by looking each call's values up."""
    expectations = selection.expectations
    table: dict[tuple[Hashable, ...], list[int]] = {}
    for number in members:
        literal = expectations[number]._literal_key
        assert literal is not None
        table.setdefault(literal[1], []).append(number)
    # Which members select each name, as a set: K literal expectations over M calls of one
    # name then cost M lookups, not K x M comparisons.
    member_set = frozenset(members)
    takers_of_name: dict[str, frozenset[int]] = {}
    for index, call in numbered(calls, kept):
        takers = takers_of_name.get(call.name)
        if takers is None:
            takers = takers_of_name[call.name] = member_set.intersection(
                selection.selecting(call.name)
            )
        if not takers or call.parse_error is not None:
            continue
        values = []
        for key in keys:
            value = call.args.get(key, _MISSING)
            if value is _MISSING:
                break
            values.append(canonical_key(value))
        else:
            if None in values:
                # A value without a canonical key (an odd type): compare the slow way.
                found = [number for number in members if expectations[number]._call_matches(call)]
            else:
                found = table.get(tuple(values), [])
            for number in found:
                if number in takers:
                    matching[number].append(index)
