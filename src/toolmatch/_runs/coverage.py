"""``check --coverage``: per tool, the calls the runs made, those some expectation matched
and those ignored, counted from the judge's own verdicts (never matched a second time).

A :class:`Coverage` is kept by each process that judges (``--jobs`` workers send theirs
with each task's outcomes) and the counts are summed in the reporting process.
"""

from __future__ import annotations

from collections import Counter

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

    from toolmatch._selection.case import TestCase
    from toolmatch._selection.run import RunAlternatives, RunVerdict

__all__ = ["Coverage", "CoverageRow", "defined_names"]

# tool, calls, matched, ignored, defined (None when no tool is defined)
CoverageRow = tuple[str, int, int, int, "bool | None"]


class Coverage:
    """The calls counted so far, by tool name."""

    __slots__ = ("calls", "matched", "ignored")

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.matched: Counter[str] = Counter()  # by an expectation that is not never
        self.ignored: Counter[str] = Counter()  # left out by an ignore pattern

    def count(self, verdict: RunVerdict | RunAlternatives) -> None:
        """Count the calls of one run, from its every turn's verdict (of the alternative
        chosen, for a case with one_of)."""
        calls, matched, ignored = self.calls, self.matched, self.ignored
        for turn in verdict.verdicts():
            made = turn.calls
            calls.update(call.name for call in made)
            ignored.update(made[index].name for index in turn.ignored)
            expectations = turn.turn.selection.expectations
            claimed = {
                index
                for number, found in enumerate(turn.matching)
                if not expectations[number].is_never
                for index in found
            }
            matched.update(made[index].name for index in claimed)

    def add(self, other: Coverage) -> None:
        """Add the counts of ``other`` (a worker's) to these."""
        self.calls.update(other.calls)
        self.matched.update(other.matched)
        self.ignored.update(other.ignored)

    def take(self) -> Coverage:
        """The counts so far, these starting again from none (what a worker sends)."""
        taken = Coverage()
        taken.calls, taken.matched, taken.ignored = self.calls, self.matched, self.ignored
        self.calls, self.matched, self.ignored = Counter(), Counter(), Counter()
        return taken

    def rows(self, defined: Sequence[str] | None) -> tuple[list[CoverageRow], list[str] | None]:
        """A row per tool called, by name, and the defined tools never called, in their
        order; ``defined``: the names of the tools defined, ``None`` when none are."""
        known = None if defined is None else set(defined)
        rows: list[CoverageRow] = [
            (
                name,
                self.calls[name],
                self.matched[name],
                self.ignored[name],
                None if known is None else name in known,
            )
            for name in sorted(self.calls)
        ]
        never = None if defined is None else [name for name in defined if not self.calls[name]]
        return rows, never


def defined_names(cases: Sequence[TestCase], tools: Sequence[str] | None) -> list[str] | None:
    """The names of the tools ``--tools`` defines (``tools``), then those the spec's turns
    define (``tools:``), each once; ``None`` when none are defined."""
    names = dict.fromkeys(tools or ())
    for case in cases:
        for turn in case.every_turn():
            if turn.tools is not None:
                names.update(dict.fromkeys(definition.name for definition in turn.tools))
    return list(names) if names or tools is not None else None
