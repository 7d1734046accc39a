"""A run of the checks against a baseline, an earlier one (``--baseline``): which cases
regressed, improved, are missing or new, and which checks became flaky (docs/cli.md,
Baselines).

A case's two pass rates are compared with Fisher's exact test, one-sided, on its passed and
failed runs: exact for the few trials a case usually has (3 to 10), where a test on
proportions' normal approximation is not. A change counts when its p-value is at most the
significance (``--significance``, 0.05 by default); a smaller one is reported as noise. A
case run once on both sides has no sample to test: a flip of its one verdict is the change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from toolmatch._runs.result_rows import read_rows
from toolmatch._runs.significance import fisher_worse

__all__ = [
    "CHANGE_KINDS",
    "REGRESSIONS",
    "Change",
    "Delta",
    "Side",
    "compare",
    "read_baseline",
    "sides_of",
]

# The kinds of change, in the order they are reported: what needs a look first.
CHANGE_KINDS = ("regressed", "missing", "flaky", "improved", "new", "noise")
# Those that fail the command (missing ones unless --allow-missing).
REGRESSIONS = frozenset({"regressed", "missing"})


class Side(NamedTuple):
    """A case's trials on one side: its runs, those that passed, and the places of the
    checks that failed in some of its runs but not all (flaky)."""

    runs: int
    passed: int
    flaky: tuple[str, ...] = ()

    @property
    def counts(self) -> str:
        return f"{self.passed}/{self.runs} passed"


class Change(NamedTuple):
    """One difference from the baseline. ``check`` is the flaky check's place (kind
    ``flaky``); ``p_value`` is Fisher's, None for single runs and cases on one side."""

    kind: str
    case: str
    before: Side | None
    after: Side | None
    p_value: float | None = None
    check: str | None = None

    def regression(self, allow_missing: bool = False) -> bool:
        """Whether it fails the command."""
        return self.kind == "regressed" or (self.kind == "missing" and not allow_missing)

    def why(self, significance: float) -> str:
        """The change in words, after its kind and case.

        >>> Change("regressed", "a", Side(4, 4), Side(4, 0), 0.014).why(0.05)
        '4/4 passed before, 0/4 passed now (p = 0.014, Fisher exact test, at most 0.05)'
        >>> Change("missing", "a", Side(2, 2), None).why(0.05)
        '2/2 passed before, no run now'
        """
        before = "no run" if self.before is None else self.before.counts
        after = "no run" if self.after is None else self.after.counts
        text = f"{before} before, {after} now"
        if self.kind == "flaky":
            return f"{self.check} failed in some runs now, not before ({after})"
        if self.p_value is None:
            return text if self.before is None or self.after is None else f"{text} (single runs)"
        relation = "more than" if self.kind == "noise" else "at most"
        test = f"p = {self.p_value:.3f}, Fisher exact test, {relation} {significance:g}"
        return f"{text} ({test})"


class Delta(NamedTuple):
    """The changes from a baseline, with the options that judged them."""

    changes: list[Change]
    significance: float = 0.05
    allow_missing: bool = False

    @property
    def regressions(self) -> list[Change]:
        """The changes that fail the command.

        >>> delta = Delta(compare({"a": Side(1, 1)}, {}), allow_missing=True)
        >>> [change.kind for change in delta.changes], delta.regressions
        (['missing'], [])
        """
        return [change for change in self.changes if change.regression(self.allow_missing)]

    def counts(self) -> dict[str, int]:
        """How many changes of each kind, every kind named."""
        counts = dict.fromkeys(CHANGE_KINDS, 0)
        for change in self.changes:
            counts[change.kind] += 1
        return counts

    def row(self, change: Change) -> dict[str, object]:
        """A change as a ``baseline`` row of ``--format json``."""
        return {
            "type": "baseline",
            "change": change.kind,
            "case": change.case,
            "check": change.check,
            "before": None if change.before is None else _side_row(change.before),
            "after": None if change.after is None else _side_row(change.after),
            "p_value": change.p_value,
            "regression": change.regression(self.allow_missing),
            "why": change.why(self.significance),
        }


def _side_row(side: Side) -> dict[str, int]:
    return {"runs": side.runs, "passed": side.passed}


def compare(
    before: Mapping[str, Side], after: Mapping[str, Side], significance: float = 0.05
) -> list[Change]:
    """The changes from ``before`` to ``after``, by kind (:data:`CHANGE_KINDS`), each kind
    in the order of ``after``'s cases (``before``'s for the missing ones).

    >>> [change.kind for change in compare({"a": Side(1, 1), "b": Side(1, 1)}, {"a": Side(1, 0)})]
    ['regressed', 'missing']
    """
    found: dict[str, list[Change]] = {kind: [] for kind in CHANGE_KINDS}
    for name, now in after.items():
        was = before.get(name)
        if was is None:
            found["new"].append(Change("new", name, None, now))
            continue
        change = _rates(name, was, now, significance)
        if change is not None:
            found[change.kind].append(change)
        found["flaky"].extend(_newly_flaky(name, was, now))
    for name, was in before.items():
        if name not in after:
            found["missing"].append(Change("missing", name, was, None))
    return [change for kind in CHANGE_KINDS for change in found[kind]]


def _newly_flaky(name: str, was: Side, now: Side) -> list[Change]:
    """A change for each check of case ``name`` flaky now and not before."""
    return [
        Change("flaky", name, was, now, check=place)
        for place in now.flaky
        if place not in was.flaky
    ]


def _rates(name: str, was: Side, now: Side, significance: float) -> Change | None:
    """The change of a case's pass rate, or None when it is the same."""
    # The rates compared exactly: passed / runs on each side, cross-multiplied.
    rate_then, rate_now = was.passed * now.runs, now.passed * was.runs
    if rate_then == rate_now:
        return None
    worse = rate_now < rate_then
    if was.runs == 1 and now.runs == 1:
        return Change("regressed" if worse else "improved", name, was, now)
    higher, lower = (was, now) if worse else (now, was)
    p_value = fisher_worse(higher.runs, higher.passed, lower.runs, lower.passed)
    kind = ("regressed" if worse else "improved") if p_value <= significance else "noise"
    return Change(kind, name, was, now, p_value)


def sides_of(rows: Iterable[Mapping[str, object]]) -> dict[str, Side]:
    """Each case's trials in ``--format json`` rows: its ``trials`` rows' counts and its
    ``check`` rows' failures, added up over every row of the case (several files' rows,
    from batches, make one side)."""
    runs: dict[str, list[int]] = {}
    checks: dict[str, dict[str, list[int]]] = {}
    for row in rows:
        kind = row["type"]
        if kind == "trials":
            counts = runs.setdefault(str(row["case"]), [0, 0])
            counts[0] += _count(row, "runs")
            counts[1] += _count(row, "passed")
        elif kind == "check":
            failed = checks.setdefault(str(row["case"]), {}).setdefault(str(row["check"]), [0, 0])
            failed[0] += _count(row, "failed")
            failed[1] += _count(row, "runs")
    return {
        name: Side(
            total,
            passed,
            tuple(
                place
                for place, (failed, checked) in checks.get(name, {}).items()
                if 0 < failed < checked
            ),
        )
        for name, (total, passed) in runs.items()
    }


def _count(row: Mapping[str, object], key: str) -> int:
    value = row.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a {row['type']} row's {key} must be a whole number >= 0, got {value!r}")
    return value


def read_baseline(path: str) -> dict[str, Side]:
    """The cases' trials in the results file at ``path`` (:func:`sides_of`); raises
    :class:`~toolmatch._runs.result_rows.ResultsError` for a file that is not one."""
    from toolmatch._runs.result_rows import ResultsError

    rows = []
    # A case row (most of the file, each with its turns) is passed over by its head: B9's
    # check --baseline on 100,000 runs spent a tenth of its time parsing them.
    for number, row in read_rows(path, passing=b'{"type": "case"'):
        if row["type"] in ("trials", "check"):
            try:
                sides_of([row])
            except KeyError as error:
                raise ResultsError(
                    f"{path}:{number}: a {row['type']} row without {error}"
                ) from None
            except ValueError as error:
                raise ResultsError(f"{path}:{number}: {error}") from None
            rows.append(row)
    if not any(row["type"] == "trials" for row in rows):
        raise ResultsError(
            f"{path}: no trials row, so no case's runs: pass a file that toolmatch check "
            "--format json wrote (a run with no case of the spec has none)"
        )
    return sides_of(rows)
