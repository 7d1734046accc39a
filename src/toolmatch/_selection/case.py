"""A test case, a run's turns read as calls, and a run's verdict against its case: what
checking a run needs, whichever layer built the case (a spec file, or Python code).
"""

from __future__ import annotations

from toolmatch._core.immutable import Record
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.judges import start_run
from toolmatch._selection.run import (
    ExpectedTurn,
    OneOfTurns,
    RunAlternatives,
    RunVerdict,
    alternative_list,
    checks_answers,
    plan_of,
    read_answers,
    read_turns,
    run_verdict,
)
from toolmatch._selection.validation import KEYWORDS, check_budget, check_no_carried, list_of

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from toolmatch._selection.captures import CapturePlan
    from toolmatch._selection.results import TurnResult
    from toolmatch._selection.run import Plan

__all__ = ["TestCase", "case_verdict"]


# How a refusal of a case's turns names them (validation.list_of's listed and each).
_TURNS = (
    "ExpectedTurn or OneOfTurns",
    "an ExpectedTurn or OneOfTurns (a turn's expectations go in ExpectedTurn([...]))",
)


@public
class TestCase(Record):
    """A named test case from a spec: its expected ``turns``, in order, ``max_calls``, a
    bound on the calls of all its turns together (ignored calls not counted), and
    ``answer``, what the run's final answer (its last turn's) must match.

    >>> from toolmatch import load_test_cases
    >>> [case] = load_test_cases({"test_cases": [{"name": "lookup", "expected_tools": ["search"]}]})
    >>> case.name, len(case.turns)
    ('lookup', 1)
    >>> [result.passed for result in case.check([[{"name": "web_search"}]])]
    [True]
    """

    __test__ = False  # pytest: a configuration record, not a test class to collect
    _fields = ("name", "turns", "max_calls", "alternatives", "answer")
    __slots__ = (*_fields, "_plans", "_captures", "_answers")
    __hash__ = None  # type: ignore[assignment]
    name: str
    turns: tuple[ExpectedTurn | OneOfTurns, ...]
    max_calls: int | None
    alternatives: tuple[TestCase, ...]
    answer: object
    _plans: tuple[Plan, ...]
    _captures: CapturePlan | None
    _answers: bool

    def __init__(
        self,
        name: str,
        turns: Sequence[ExpectedTurn | OneOfTurns],
        max_calls: int | None = None,
        alternatives: Sequence[TestCase] = (),
        answer: object = None,
    ) -> None:
        """``alternatives``: see :meth:`one_of`, which makes a case of them."""
        if alternatives:
            cases = alternative_list(alternatives, TestCase, "a TestCase or a list of turns")
            if turns or max_calls is not None or answer is not None:
                raise ValueError(
                    "a case with alternatives has no turns, max_calls or answer of its own: "
                    "give them to each alternative"
                )
            for number, case in enumerate(cases):
                if case.alternatives:
                    raise ValueError(
                        f"one_of alternative {number} has alternatives of its own: list them "
                        "all in one one_of"
                    )
            alternatives = tuple(cases)
        self._assign(
            name,
            tuple(list_of(turns, (ExpectedTurn, OneOfTurns), "TestCase turns", *_TURNS)),
            check_budget(max_calls, KEYWORDS),
            tuple(alternatives),
            check_no_carried(answer, KEYWORDS, "answer"),
        )
        # What judges each turn, as a run's verdict takes them.
        object.__setattr__(self, "_plans", tuple(turn._plan for turn in self.turns))
        # The captures and references of its turns, found once (each alternative has its own).
        object.__setattr__(self, "_captures", plan_of(self.turns))
        # Whether a run's final answers are read: only for a check on one.
        object.__setattr__(self, "_answers", checks_answers(self.turns, answer))

    @classmethod
    def one_of(
        cls, name: str, *alternatives: TestCase | Sequence[ExpectedTurn | OneOfTurns]
    ) -> TestCase:
        """A case that passes when the run passes any of ``alternatives``, each a full list
        of turns or a ``TestCase`` (its turns and ``max_calls``; its name is not used).
        Its results are the first passing alternative's, else the closest one's (the best
        mean f1, then the fewest failures, then the first), noted in each
        :attr:`TurnResult.alternatives` (docs/selection.md).

        >>> from toolmatch import ExpectedTool
        >>> case = TestCase.one_of(
        ...     "refund",
        ...     [ExpectedTurn([ExpectedTool("refund")])],
        ...     [ExpectedTurn([ExpectedTool("escalate")]), ExpectedTurn([ExpectedTool("refund")])],
        ... )
        >>> case.passes([[{"name": "escalate"}], [{"name": "refund"}]])
        True
        >>> [str(chosen) for chosen in case.check([[{"name": "refund"}]])[0].alternatives]
        ["the case's alternative 0 (of 2) passed"]
        """
        # A list is an alternative's turns; anything else TestCase checks (and names).
        cases: list[Any] = [
            cls(name, item) if isinstance(item, (list, tuple)) else item for item in alternatives
        ]
        return cls(name, (), None, cases)

    def every_turn(self) -> list[ExpectedTurn]:
        """Every ``ExpectedTurn`` the case holds: its turns, each alternative of a turn's
        ``one_of``, and those of each of its own alternatives, in the spec's order.

        >>> from toolmatch import ExpectedTool
        >>> a, b = ExpectedTurn([ExpectedTool("a")]), ExpectedTurn([ExpectedTool("b")])
        >>> len(TestCase.one_of("c", [a], [a, ExpectedTurn.one_of(a, b)]).every_turn())
        4
        """
        bodies = self.alternatives or (self,)
        return [
            each
            for body in bodies
            for turn in body.turns
            for each in (turn.alternatives if isinstance(turn, OneOfTurns) else (turn,))
        ]

    def check(self, call_turns: Sequence[object]) -> list[TurnResult]:
        """Judge a recorded run, one entry of calls per turn, turn by turn.

        A turn present on one side only fails with a ``reason``, as in :func:`check_turns`;
        an entry :func:`to_calls` cannot read raises ``TypeError`` naming the turn, and one
        holding several alternative answers (choices) ``ValueError``, named the same way.
        """
        return case_verdict(self, call_turns).results()

    def passes(self, call_turns: Sequence[object]) -> bool:
        """Whether the run passes: ``check``'s verdict, without building its results.

        Faster than :meth:`check` when only the verdict counts, as over a large trace
        file; bad input raises as in :meth:`check`.

        >>> spec = {"test_cases": [{"name": "lookup", "expected_tools": ["search"]}]}
        >>> from toolmatch import load_test_cases
        >>> [case] = load_test_cases(spec)
        >>> case.passes([[{"name": "web_search"}]]), case.passes([[{"name": "fetch"}]])
        (True, False)
        """
        return case_verdict(self, call_turns, False).passed


def case_verdict(
    case: TestCase, call_turns: Sequence[object], copy_args: bool = True
) -> RunVerdict | RunAlternatives:
    """A recorded run's verdict against ``case``, its calls read once: ``passes`` is its
    ``passed``, ``check`` its ``results()``, and a caller that wants the results only for a
    failing run (``toolmatch check``) asks for them after the verdict. Without
    ``copy_args`` the calls' ``args`` may be the run's own dicts (see ``read_calls``)."""
    start_run()  # a judge's answers are kept for one run (docs/selection.md, "Judges by name")
    calls = read_turns(call_turns, "turns", copy_args)
    if case.alternatives:
        return RunAlternatives(
            [
                (
                    each._plans,
                    each.max_calls,
                    read_answers(each.turns, call_turns, each.answer) if each._answers else None,
                    each._captures,
                )
                for each in case.alternatives
            ],
            calls,
        )
    answers = read_answers(case.turns, call_turns, case.answer) if case._answers else None
    return run_verdict(case._plans, calls, case.max_calls, answers, case._captures)
