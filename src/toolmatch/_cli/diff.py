"""The unified diff ``--update`` and ``record --into`` print: difflib's, byte for byte, without
its quadratic time on a spec changed in many places.

``difflib.unified_diff`` pairs the lines by ``SequenceMatcher``, whose search for the longest
matching block scans every line of the range it is given. Its recursion splits a range at
the block it finds and searches both sides again, so on a spec changed in 2,000 places,
the equal stretches between them all about as long, each search takes the first of the
remaining stretches and the next one scans the whole rest again: 2,000 scans of the file.

Here the same recursion runs (difflib's own ``get_matching_blocks``), and only the search
is answered differently: the runs of matching lines are found once for the whole text,
each a diagonal stretch of equal lines difflib's search could match, and a range's
longest block is read off a tree of those runs, the tree's branches that cannot hold a
longer one left unvisited. The answer is difflib's in every case (the same block, its ties
broken the same way, extended the same way); the differential test checks it against
difflib over generated texts.
"""

from __future__ import annotations

import difflib

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

__all__ = ["LineMatcher", "unified_diff"]

# A run: its first line in each text and its length; a range's best is the longest, then
# the one that starts first in the old text, then in the new (difflib's order).
_Run = tuple[int, int, int]
_NOTHING = (-1, 0, 0)  # below every run's key (length, -start, -start)


class LineMatcher(difflib.SequenceMatcher[str]):
    """``difflib.SequenceMatcher(None, a, b)`` (autojunk on, no junk), its longest-block
    search answered from runs found once.

    >>> LineMatcher(list("abxcd"), list("abcd")).get_opcodes()
    [('equal', 0, 2, 0, 2), ('delete', 2, 3, 2, 2), ('equal', 3, 5, 2, 4)]
    """

    def __init__(self, a: Sequence[str], b: Sequence[str]) -> None:
        self._runs: list[_Run] | None = None
        self._old: Sequence[str] = a
        self._new: Sequence[str] = b
        super().__init__(None, a, b)

    def set_seq1(self, a: Sequence[str]) -> None:
        self._runs, self._old = None, a
        super().set_seq1(a)

    def set_seq2(self, b: Sequence[str]) -> None:
        self._runs, self._new = None, b
        super().set_seq2(b)

    def find_longest_match(
        self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None
    ) -> difflib.Match:
        """difflib's answer: the longest block of lines that are equal and, in a long text,
        not too common (difflib's "popular" lines), then grown over equal lines on both
        sides; ``(alo, blo, 0)`` grown when there is none."""
        a, b = self._old, self._new
        if ahi is None:
            ahi = len(a)
        if bhi is None:
            bhi = len(b)
        if self._runs is None:
            self._prepare()
        size, besti, bestj = self._longest(alo, ahi, blo, bhi)
        if size <= 0:
            besti, bestj, size = alo, blo, 0
        else:
            besti, bestj = -besti, -bestj
        # As difflib grows it (no line is junk here: its junk loops never run).
        while besti > alo and bestj > blo and a[besti - 1] == b[bestj - 1]:
            besti, bestj, size = besti - 1, bestj - 1, size + 1
        while besti + size < ahi and bestj + size < bhi and a[besti + size] == b[bestj + size]:
            size += 1
        return difflib.Match(besti, bestj, size)

    def _prepare(self) -> None:
        """The maximal runs of pairs difflib's search matches (equal lines, the new text's
        not popular), and the tree over them, ordered by their start in the old text."""
        b2j: dict[str, list[int]] = self.b2j  # type: ignore[attr-defined]
        runs: list[_Run] = []
        lengths: dict[int, int] = {}  # the runs ending on the line before, by their end in b
        nothing: list[int] = []
        for i, line in enumerate(self._old):
            found = lengths.get
            now = {j: found(j - 1, 0) + 1 for j in b2j.get(line, nothing)}
            runs.extend((i - k, j - k + 1, k) for j, k in lengths.items() if j + 1 not in now)
            lengths = now
        end = len(self._old)
        runs.extend((end - k, j - k + 1, k) for j, k in lengths.items())
        runs.sort()
        self._runs = runs
        self._starts = [run[0] for run in runs]
        size = 1
        while size < len(runs):
            size *= 2
        self._size = size
        # Per node: the best key of its runs unclipped, the furthest end of its runs in
        # each text, and the earliest start of its runs in the new one.
        keys = [_NOTHING] * (2 * size)
        a_ends = [-1] * (2 * size)
        b_ends = [-1] * (2 * size)
        b_starts = [len(self._new) + 1] * (2 * size)
        for index, (i, j, k) in enumerate(runs):
            node = size + index
            keys[node], a_ends[node], b_ends[node], b_starts[node] = (k, -i, -j), i + k, j + k, j
        for node in range(size - 1, 0, -1):
            left, right = 2 * node, 2 * node + 1
            keys[node] = max(keys[left], keys[right])
            a_ends[node] = max(a_ends[left], a_ends[right])
            b_ends[node] = max(b_ends[left], b_ends[right])
            b_starts[node] = min(b_starts[left], b_starts[right])
        self._tree = (keys, a_ends, b_ends, b_starts)

    def _longest(self, alo: int, ahi: int, blo: int, bhi: int) -> tuple[int, int, int]:
        """The best run's part within the range, as ``(length, -start in a, -start in b)``;
        its length is 0 or less when no run reaches into the range."""
        import bisect

        runs = self._runs
        assert runs is not None
        keys, a_ends, b_ends, b_starts = self._tree
        best = _NOTHING
        # Runs that start at or after ahi cannot reach into the range.
        stop = bisect.bisect_left(self._starts, ahi)
        stack = [(1, 0, self._size)]
        while stack:
            node, low, high = stack.pop()
            if (
                low >= stop
                or keys[node] <= best
                or a_ends[node] <= alo
                or b_ends[node] <= blo
                or b_starts[node] >= bhi
            ):
                continue
            if high - low == 1:
                i, j, k = runs[low]
                skip = max(0, alo - i, blo - j)
                length = min(k, ahi - i, bhi - j) - skip
                key = (length, -(i + skip), -(j + skip))
                if length > 0 and key > best:
                    best = key
                continue
            middle = (low + high) // 2
            halves = [(2 * node, low, middle), (2 * node + 1, middle, high)]
            # The half with the better runs is searched first: the other is then often cut.
            if keys[2 * node] > keys[2 * node + 1]:
                halves.reverse()
            stack.extend(halves)
        return best


def unified_diff(before: Sequence[str], after: Sequence[str], name: str) -> Iterator[str]:
    """``difflib.unified_diff(before, after, name, name)``, its lines in the same bytes.

    >>> print("".join(unified_diff(["a\\n", "b\\n"], ["a\\n", "c\\n"], "spec.yaml")), end="")
    --- spec.yaml
    +++ spec.yaml
    @@ -1,2 +1,2 @@
     a
    -b
    +c
    """
    started = False
    for group in LineMatcher(before, after).get_grouped_opcodes(3):
        if not started:
            started = True
            yield f"--- {name}\n"
            yield f"+++ {name}\n"
        first, last = group[0], group[-1]
        yield f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n"
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                yield from (" " + line for line in before[i1:i2])
                continue
            if tag in ("replace", "delete"):
                yield from ("-" + line for line in before[i1:i2])
            if tag in ("replace", "insert"):
                yield from ("+" + line for line in after[j1:j2])


def _range(start: int, stop: int) -> str:
    """A hunk's lines as unified diffs name them (difflib's ``_format_range_unified``)."""
    beginning, length = start + 1, stop - start
    if length == 1:
        return f"{beginning}"
    if not length:
        beginning -= 1
    return f"{beginning},{length}"
