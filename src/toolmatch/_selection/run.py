"""Runs of turns: ``ExpectedTurn`` (one turn of a test case, with its options),
``OneOfTurns`` (a turn's alternatives), ``RunVerdict``, a run's verdict reached turn by
turn, and ``RunAlternatives``, a run judged against a case's alternatives
(docs/selection.md)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from toolmatch._calls.call import ToolCall
from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.immutable import Record
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.captures import UNBOUND
from toolmatch._matchers.judges import start_run
from toolmatch._matchers.literal import as_matcher
from toolmatch._readers.to_calls import read_final, read_json_syntax, to_calls
from toolmatch._selection.captures import MAX_CHOICES, Binding, CapturePlan, capture_plan, too_many
from toolmatch._selection.expectation import ExpectedItem, ExpectedTool
from toolmatch._selection.groups import AnyOrder, InOrder, order_plan, turn_items
from toolmatch._selection.matching import Selection
from toolmatch._selection.options import TURN_OPTIONS, TurnOption, option_names, turn_options
from toolmatch._selection.results import ChosenAlternative, TurnResult
from toolmatch._selection.turn import TurnPlan, TurnVerdict, answer_problem, under_binding
from toolmatch._selection.unrecorded import NotRecordedError

if TYPE_CHECKING:
    from typing import Any, TypeAlias

    from toolmatch._calls.definitions import ToolDefinition
    from toolmatch._matchers.base import Matcher

    # An expected turn's plan, which judges its calls (ExpectedTurn._plan).
    Plan: TypeAlias = "TurnPlan | _Alternatives"

__all__ = [
    "ExpectedTurn",
    "OneOfTurns",
    "RunAlternatives",
    "RunVerdict",
    "alternative_list",
    "mean_score",
    "checks_answers",
    "judge_alone",
    "plan_of",
    "read_answers",
    "read_said",
    "read_turns",
    "run_verdict",
]


_NO_TURN = TurnPlan(Selection(()))


@public
class ExpectedTurn(Record):
    """One turn of a :class:`TestCase`: its expected tools, and the options
    :func:`check_turn` takes (``distinct``, ``ordered``, ``exhaustive``, ``ignore``,
    ``max_calls``, ``no_repeats``, ``tools``: kept as the ``ToolDefinition`` values read,
    ``agent``, ``answer``: what its final answer must match).

    >>> turn = ExpectedTurn((ExpectedTool("search"),), distinct=True)
    >>> turn.check([{"name": "web_search"}]).passed
    True
    """

    _fields = ("expected_tools", *option_names())
    __slots__ = (*_fields, "_plan")
    __hash__ = None  # type: ignore[assignment]  # matchers hash by identity; so would a turn
    expected_tools: tuple[ExpectedTool | InOrder | AnyOrder, ...]
    distinct: bool
    ordered: bool
    exhaustive: bool
    ignore: tuple[ExpectedTool, ...]
    max_calls: int | None
    no_repeats: bool
    tools: tuple[ToolDefinition, ...] | None
    agent: str | Matcher | None
    answer: object
    _plan: TurnPlan

    def __init__(
        self,
        expected_tools: Sequence[ExpectedItem],
        distinct: bool = False,
        ordered: bool = False,
        exhaustive: bool = False,
        ignore: Sequence[ExpectedTool] = (),
        max_calls: int | None = None,
        no_repeats: bool = False,
        tools: Sequence[object] | None = None,
        agent: str | Matcher | None = None,
        answer: object = None,
    ) -> None:
        options = turn_options(locals())
        self._setup(turn_items(expected_tools, "expected_tools"), options)

    def _setup(
        self, expected_tools: list[ExpectedTool | InOrder | AnyOrder], options: dict[str, Any]
    ) -> None:
        """Keep the expectations and options, each checked already."""
        expected = tuple(expected_tools)
        plan = order_plan(expected, "expected_tools", options["ordered"])
        self._assign(expected, *(_kept(option, options[option.name]) for option in TURN_OPTIONS))
        # Kept for every run this turn judges: it remembers which expectations select a name.
        turn = TurnPlan(
            Selection(plan.expectations), **options, after=plan.after, nevers=plan.nevers
        )
        object.__setattr__(self, "_plan", turn)

    def check(self, calls: object, turn: int | None = None) -> TurnResult:
        """Judge one turn's calls (anything :func:`to_calls` reads) against this turn.

        >>> ExpectedTurn([ExpectedTool("fetch")]).check([{"name": "search"}], turn=2)
        <TurnResult turn 2 failed: 0 of 1 expectation(s) met over 1 call(s); expectation 0: \
expected 1 matching call(s), got 0: no call's name contains 'fetch'; the turn called 'search'>
        """
        start_run()
        return judge_alone(self._plan, to_calls(calls), _said(self._plan, calls)).result(turn)

    @staticmethod
    def one_of(*alternatives: ExpectedTurn) -> OneOfTurns:
        """A turn that passes when any of ``alternatives`` passes (``one_of:`` in a spec).

        >>> turn = ExpectedTurn.one_of(ExpectedTurn([ExpectedTool("search")]),
        ...                            ExpectedTurn([ExpectedTool("lookup")]))
        >>> turn.check([{"name": "lookup"}]).passed
        True
        """
        return OneOfTurns(alternatives)


def alternative_list(alternatives: object, kind: type, what: str) -> list[Any]:
    """``alternatives`` as a list of at least two ``kind`` (``what`` names one); else a
    ``TypeError`` or ``ValueError`` naming what it got."""
    if not isinstance(alternatives, (list, tuple)):
        raise TypeError(
            f"one_of takes a list of two or more alternatives, each {what}, got "
            f"{short_repr(alternatives)} ({type_name(alternatives)})"
        )
    for number, item in enumerate(alternatives):
        if not isinstance(item, kind):
            raise TypeError(
                f"one_of alternative {number} must be {what}, got {short_repr(item)} "
                f"({type_name(item)})"
            )
    if len(alternatives) < 2:
        raise ValueError(
            f"one_of needs at least two alternatives, got {len(alternatives)}: a single one "
            "is the thing itself"
        )
    return list(alternatives)


@public
class OneOfTurns(Record):
    """A turn with several acceptable alternatives, each a full :class:`ExpectedTurn`
    (its expected tools and options): it passes when any passes. Its result is the first
    passing alternative's, or when none passes the closest one's (the best f1, then the
    most asserted arguments that match, then the most expectations whose tool was called,
    then the fewest failures, then the first), noted in :attr:`TurnResult.alternatives`.

    >>> turn = OneOfTurns([ExpectedTurn([ExpectedTool("search")]),
    ...                    ExpectedTurn([ExpectedTool("fetch"), ExpectedTool("read")])])
    >>> result = turn.check([{"name": "fetch"}])
    >>> result.passed, str(result.alternatives[0])
    (False, "none of the turn's 2 alternatives passed; the closest is alternative 1")
    """

    __slots__ = ("alternatives", "_plan")
    _fields = ("alternatives",)
    __hash__ = None  # type: ignore[assignment]  # as ExpectedTurn
    alternatives: tuple[ExpectedTurn, ...]
    _plan: _Alternatives

    def __init__(self, alternatives: Sequence[ExpectedTurn]) -> None:
        turns = alternative_list(alternatives, ExpectedTurn, "an ExpectedTurn")
        self._assign(tuple(turns))
        object.__setattr__(self, "_plan", _Alternatives([turn._plan for turn in turns]))

    def check(self, calls: object, turn: int | None = None) -> TurnResult:
        """Judge one turn's calls against the alternatives (see :class:`OneOfTurns`).

        >>> OneOfTurns([ExpectedTurn([]), ExpectedTurn([ExpectedTool("a")])]).check([]).passed
        True
        """
        start_run()
        said = read_said(calls) if self._plan.checks_answer else None
        return _result(judge_alone(self._plan, to_calls(calls), said), turn)


def read_said(calls: object) -> tuple[str | None, str | None]:
    """Why ``calls`` (anything :func:`to_calls` reads) records no final answer (``None``:
    it records the model's messages), and its final answer (:func:`read_final`)."""
    if isinstance(calls, (str, bytes, bytearray)):
        import json

        try:
            calls = json.loads(calls)
        except ValueError:
            return None, None  # to_calls says what is wrong with it
    return read_final(calls)


def _said(plan: TurnPlan, calls: object) -> tuple[str | None, str | None] | None:
    """The final answer of ``calls`` when ``plan`` checks it (read only then)."""
    return None if plan.answer is None else read_said(calls)


class _Alternatives:
    """A turn's alternatives as the run judges them: the first passing one's verdict, else
    the closest one's; the verdict keeps which it is (``chosen``)."""

    __slots__ = ("turns", "checks_answer")

    def __init__(self, turns: list[TurnPlan]) -> None:
        self.turns = turns
        self.checks_answer = any(turn.answer is not None for turn in turns)

    def judge(
        self, calls: list[ToolCall], said: tuple[str | None, str | None] | None = None
    ) -> TurnVerdict:
        # The choice rides on the verdict until its result is made (_result).
        verdicts = []
        for number, turn in enumerate(self.turns):
            verdict = turn.judge(calls, said)
            if verdict.passed:
                verdict.chosen = ChosenAlternative("turn", number, len(self.turns), True)
                return verdict
            verdicts.append(verdict)
        number = closest([[verdict.result()] for verdict in verdicts])
        verdict = verdicts[number]
        verdict.chosen = ChosenAlternative("turn", number, len(self.turns), False)
        return verdict


def _result(verdict: TurnVerdict, turn: int | None) -> TurnResult:
    """A verdict's result, noted with the alternative it is from, if any."""
    result = verdict.result(turn)
    chosen = verdict.chosen
    return result if chosen is None else result._chosen_from(chosen)


def _failures(result: TurnResult) -> int:
    return len(result._failed_checks()) + len(result.problems) + (result.reason is not None)


def _credit(result: TurnResult) -> float:
    """A turn's partial credit: the mean of its checks' scores (:attr:`ToolCheck.score`: a
    failed expectation's closest call's share of the asserted arguments that match)."""
    checks = result.checks
    return sum(check.score for check in checks) / len(checks) if checks else 0.0


def _called(result: TurnResult) -> int:
    """How many of a turn's failed expectations have a call of their name (a candidate)."""
    return sum(1 for check in result.checks if not check.passed and check._candidate_indices)


def closest(alternatives: Sequence[Sequence[TurnResult]]) -> int:
    """The number of the closest alternative, each given as its turns' results: the best
    mean f1, then the most partial credit (the mean of :func:`_credit`), then the most
    failed expectations whose tool was called (:func:`_called`), then the fewest failures
    (failed checks, problems, missing turns), then the first (docs/selection.md)."""
    best, best_key = 0, (-1.0, -1.0, 0, 0)
    for number, results in enumerate(alternatives):
        count = len(results)
        score = sum(result._score() for result in results) / count if count else 0.0
        credit = sum(map(_credit, results)) / count if count else 0.0
        called = sum(map(_called, results))
        key = (score, credit, called, -sum(_failures(result) for result in results))
        if key > best_key:
            best, best_key = number, key
    return best


def mean_score(scores: Sequence[float]) -> float:
    """A run's score: the mean of its turns' scores; 1.0 with no turn on either side (such a
    run passes).

    >>> mean_score([1.0, 0.5]), mean_score([])
    (0.75, 1.0)
    """
    return sum(scores) / len(scores) if scores else 1.0


def _kept(option: TurnOption, value: Any) -> object:
    """An option's checked value as a turn keeps it: ``ignore`` as a tuple, ``tools`` as
    the ``ToolDefinition`` values read."""
    if option.kind == "patterns":
        return tuple(value)
    if option.kind == "tools":
        return None if value is None else tuple(value.definitions.values())
    return value


def read_turns(call_turns: object, where: str, copy_args: bool = True) -> list[list[ToolCall]]:
    """Each turn's calls; ``call_turns`` not a list or tuple raises ``TypeError``, and so does
    a turn :func:`to_calls` cannot read, naming it; one it will not guess at (several
    choices) raises ``ValueError``, named the same way."""
    if not isinstance(call_turns, (list, tuple)):
        raise TypeError(
            f"{where} must be a list with one entry of calls per turn, got "
            f"{short_repr(call_turns)} ({type_name(call_turns)})"
        )
    calls_per_turn = []
    for number, turn in enumerate(call_turns):
        try:
            calls_per_turn.append(read_json_syntax(turn, copy_args))
        except TypeError as error:
            raise TypeError(f"{where}[{number}]: {error}") from None
        except ValueError as error:
            raise ValueError(f"{where}[{number}]: {error}") from None
    return calls_per_turn


class _Answers:
    """A run's final answers as its turns' checks need them: each recorded turn's (as
    ``Reading.final_answer`` gives it; ``None`` where no check reads it), and what is wrong
    with the run's own, its last turn's, against the case's ``answer`` (``None``: nothing)."""

    __slots__ = ("said", "problem")

    def __init__(
        self, said: Sequence[tuple[str | None, str | None] | None], case_answer: object
    ) -> None:
        self.said = said
        self.problem = None
        if case_answer is not None:
            last = said[-1] if said else (None, None)
            assert last is not None
            self.problem = answer_problem(
                as_matcher(case_answer), last, "the case's final answer (its last turn's)"
            )


def read_answers(
    turns: Sequence[ExpectedTurn | OneOfTurns], call_turns: Sequence[object], case_answer: object
) -> _Answers | None:
    """The final answers of a run's turns (``call_turns``, as given) that ``turns`` and the
    case's ``case_answer`` check, read only for those; ``None`` when nothing checks one."""
    last = len(call_turns) - 1
    wanted = [
        (number < len(turns) and _checks_answer(turns[number]._plan))
        or (number == last and case_answer is not None)
        for number in range(len(call_turns))
    ]
    if not any(wanted) and case_answer is None:
        return None
    said = [
        read_said(turn) if want else None for turn, want in zip(call_turns, wanted, strict=True)
    ]
    return _Answers(said, case_answer)


def checks_answers(turns: Sequence[ExpectedTurn | OneOfTurns], case_answer: object) -> bool:
    """Whether ``turns`` or the case's ``case_answer`` check a final answer."""
    return case_answer is not None or any(_checks_answer(turn._plan) for turn in turns)


def _checks_answer(plan: TurnPlan | _Alternatives) -> bool:
    return plan.answer is not None if isinstance(plan, TurnPlan) else plan.checks_answer


def _judge_missing(
    plans: Sequence[Plan], calls_per_turn: Sequence[list[ToolCall]], number: int
) -> TurnVerdict:
    """A turn present on one side only: judged as if the other side were empty, failing."""
    if number >= len(calls_per_turn):
        # A turn without calls has no answer either.
        verdict, missing = plans[number].judge([], (None, None)), "has no calls"
    else:
        verdict, missing = _NO_TURN.judge(calls_per_turn[number]), "has calls but no expectations"
    verdict.reason = (
        f"turn {number} {missing}: got {len(calls_per_turn)} call turn(s) for "
        f"{len(plans)} expected turn(s)"
    )
    verdict.passed = False
    return verdict


class RunVerdict:
    """A run's verdict, reached turn by turn up to its first failing turn; :meth:`results`
    judges the turns after that one and puts every turn's verdict into words. ``plans``:
    each expected turn's plan (``ExpectedTurn._plan``)."""

    __slots__ = (
        "_plans",
        "_calls_per_turn",
        "_max_calls",
        "_judged",
        "_answers",
        "_binding",
        "passed",
    )

    def __init__(
        self,
        plans: Sequence[Plan],
        calls_per_turn: Sequence[list[ToolCall]],
        max_calls: int | None = None,
        answers: _Answers | None = None,
        binding: Binding | None = None,
    ) -> None:
        self._plans = plans
        self._calls_per_turn = calls_per_turn
        self._max_calls = max_calls
        self._judged: list[TurnVerdict] = []
        self._answers = answers  # the final answers the turns and the case check, if any
        self._binding = binding  # the captured values the run is judged with, if any
        self.passed = self._judge(True)

    def _judge(self, until_failure: bool = False) -> bool:
        """Judge the turns not judged yet (see ``_judge_turns``), under the run's binding."""
        if self._binding is None:
            return self._judge_turns(until_failure)
        return under_binding(self._binding, self._judge_turns, until_failure)

    def _judge_turns(self, until_failure: bool) -> bool:
        """Judge the run's turns after those judged, adding each turn's verdict with what is
        wrong with the run around it: a turn missing on one side (its ``reason``), the run's
        calls going over ``max_calls`` at this turn (``over``). With ``until_failure``, the run
        stops at its first failing turn (a verdict needs no more). Whether every turn judged
        passed."""
        plans, calls_per_turn, judged = self._plans, self._calls_per_turn, self._judged
        max_calls, answers, binding = self._max_calls, self._answers, self._binding
        expected, recorded = len(plans), len(calls_per_turn)
        total = 0
        if judged and max_calls is not None:
            total = sum(verdict.kept_count for verdict in judged)
        passed = True
        for number in range(len(judged), max(expected, recorded)):
            if number < expected and number < recorded:
                said = None if answers is None else answers.said[number]
                try:
                    verdict = plans[number].judge(calls_per_turn[number], said)
                except NotRecordedError as error:
                    raise NotRecordedError(f"turn {number}: {error}") from None
            else:
                verdict = _judge_missing(plans, calls_per_turn, number)
            if binding is not None:
                verdict.binding = binding  # its words are put under the same values
            if answers is not None and answers.problem is not None and number == recorded - 1:
                # The case's answer is its run's, said where the run ends.
                verdict.answer_problems = [*verdict.answer_problems, answers.problem]
                verdict.passed = False
            if max_calls is not None:
                before, total = total, total + verdict.kept_count
                if before <= max_calls < total:
                    verdict.over = (
                        f"expected at most {max_calls} call(s) in the case, got {total} "
                        f"by the end of turn {number}"
                    )
                    verdict.passed = False
            judged.append(verdict)
            if not verdict.passed:
                passed = False
                if until_failure:
                    break
        return passed

    def results(self) -> list[TurnResult]:
        """Each turn's full result."""
        self._judge()
        return [_result(verdict, number) for number, verdict in enumerate(self._judged)]

    def score(self) -> float:
        """The mean of the turns' scores (each :class:`TurnResult`'s f1, or in a turn of only
        ``never`` and caps the share kept), judging every turn but putting none into words;
        1.0 for a run with no turn on either side."""
        self._judge()
        return mean_score([verdict.score() for verdict in self._judged])

    def broken(self) -> list[tuple[int | None, int | str]]:
        """What fails in the run's turns judged so far (every turn, after :meth:`results`
        or :meth:`failed_results`), as ``(turn, expectation number or option name)``; the
        case's own ``max_calls`` and a turn missing on one side (``"turns"``) have turn
        None."""
        broken: list[tuple[int | None, int | str]] = []
        case: list[tuple[int | None, int | str]] = []  # the case's own, each once, last
        for number, verdict in enumerate(self._judged):
            if verdict.passed:
                continue
            if verdict.reason is not None:  # its expectations' failures would only repeat it
                if (None, "turns") not in case:
                    case.append((None, "turns"))
                continue
            if verdict.chosen is not None:
                # Runs may choose different alternatives: the check is the turn's one_of,
                # failed only when none passed (not when the case's max_calls alone did).
                if not verdict.chosen.passed:
                    broken.append((number, "one_of"))
            else:
                broken += [(number, item) for item in verdict.broken()]
            if verdict.over is not None:  # set on one turn only
                case.insert(0, (None, "max_calls"))
            if self._answers is not None and self._answers.problem in verdict.answer_problems:
                case.append((None, "answer"))
        return broken + case

    def failed_results(self) -> list[TurnResult]:
        """The full results of the turns that failed, in order: what a report of the
        failures needs, without the words of the turns that passed."""
        self._judge()
        return [
            _result(verdict, number)
            for number, verdict in enumerate(self._judged)
            if not verdict.passed
        ]

    def verdicts(self) -> list[TurnVerdict]:
        """Every turn's verdict, as data (which calls each expectation matched), without
        words: what ``check --coverage`` counts and ``--format json`` writes."""
        if not self.passed:  # a run that passed has every turn judged (``__init__``)
            self._judge()
        return self._judged

    def chosen(self) -> ChosenAlternative | None:
        """Which of the case's alternatives the verdicts are from: None, it has none."""
        return None


def judge_alone(
    plan: TurnPlan | _Alternatives,
    calls: list[ToolCall],
    said: tuple[str | None, str | None] | None,
) -> TurnVerdict:
    """One turn judged on its own (``check_turn``, ``ExpectedTurn.check``), its captures
    bound as in a run of that one turn."""
    captures = capture_plan([_alternatives_of(plan)])
    if captures is None:
        return plan.judge(calls, said)
    answers = None if said is None else _Answers([said], None)
    return run_verdict([plan], [calls], None, answers, captures).verdicts()[0]


def plan_of(turns: Sequence[ExpectedTurn | OneOfTurns]) -> CapturePlan | None:
    """The captures and references of ``turns`` (``None``: none)."""
    return capture_plan([_alternatives_of(turn._plan) for turn in turns])


def _alternatives_of(plan: TurnPlan | _Alternatives) -> list[TurnPlan]:
    return [plan] if isinstance(plan, TurnPlan) else plan.turns


def run_verdict(
    plans: Sequence[Plan],
    calls_per_turn: Sequence[list[ToolCall]],
    max_calls: int | None,
    answers: _Answers | None,
    captures: CapturePlan | None,
) -> RunVerdict:
    """A run's verdict (``plans``: as :class:`RunVerdict` takes them); with ``captures``,
    the first choice of the captured values the run offers under which it passes, else the
    one with the best score (the first of equals)."""
    if captures is None:
        return RunVerdict(plans, calls_per_turn, max_calls, answers)
    offered = captures.offered(calls_per_turn)
    unbound: list[tuple[object, str, Matcher | None]] = [(UNBOUND, "", None)]
    choices = [
        [(value, source, as_matcher(value)) for value, source in values] or unbound
        for values in offered
    ]
    total = 1
    for values in choices:
        total *= len(values)
    if total > MAX_CHOICES:
        raise too_many([len(values) for values in offered], captures.names)
    best: RunVerdict | None = None
    best_score = -1.0
    for choice in itertools.product(*choices):
        binding: Binding = dict(zip(captures.names, choice, strict=True))
        verdict = RunVerdict(plans, calls_per_turn, max_calls, answers, binding)
        if verdict.passed or total == 1:
            return verdict
        score = verdict.score()
        if score > best_score:
            best, best_score = verdict, score
    assert best is not None
    return best


class RunAlternatives:
    """A run judged against a case's alternatives (each its turns and ``max_calls``): it
    passes when one does; its results are the first passing alternative's, else the
    closest one's (:func:`closest`), each noted with the case's :class:`ChosenAlternative`.
    Same interface as :class:`RunVerdict`."""

    __slots__ = ("_verdicts", "_count", "passed", "_results", "_number")

    def __init__(
        self,
        alternatives: Sequence[
            tuple[Sequence[Plan], int | None, _Answers | None, CapturePlan | None]
        ],
        calls_per_turn: Sequence[list[ToolCall]],
    ) -> None:
        self._count = len(alternatives)
        self._verdicts: list[RunVerdict] = []
        self._results: list[TurnResult] | None = None
        self._number = 0  # the chosen alternative, once the results have chosen it
        for plans, max_calls, answers, captures in alternatives:
            verdict = run_verdict(plans, calls_per_turn, max_calls, answers, captures)
            self._verdicts.append(verdict)
            if verdict.passed:
                break  # the first that passes is the one chosen: the others need no verdict
        self.passed = self._verdicts[-1].passed

    def results(self) -> list[TurnResult]:
        """The chosen alternative's results, each noted as the case's alternative."""
        if self._results is None:
            if self.passed:
                self._number, results = len(self._verdicts) - 1, self._verdicts[-1].results()
            else:
                every = [verdict.results() for verdict in self._verdicts]
                self._number = closest(every)
                results = every[self._number]
            chosen = ChosenAlternative("case", self._number, self._count, self.passed)
            self._results = [result._chosen_from(chosen) for result in results]
        return self._results

    def score(self) -> float:
        """The chosen alternative's score, as :meth:`RunVerdict.score` gives it (the results
        of every alternative are made to choose the closest, when none passes)."""
        if self.passed:
            return self._verdicts[-1].score()
        return mean_score([result._score() for result in self.results()])

    def verdicts(self) -> list[TurnVerdict]:
        """The chosen alternative's verdicts, as :meth:`RunVerdict.verdicts` gives them."""
        if not self.passed:
            self.results()  # the closest is chosen by the results' scores
        return self._verdicts[self._number if not self.passed else -1].verdicts()

    def chosen(self) -> ChosenAlternative:
        """Which of the case's alternatives :meth:`verdicts` and :meth:`results` are from."""
        if self.passed:
            return ChosenAlternative("case", len(self._verdicts) - 1, self._count, True)
        self.results()  # the closest is chosen by the results' scores
        return ChosenAlternative("case", self._number, self._count, False)

    def broken(self) -> list[tuple[int | None, int | str]]:
        """What fails, as :meth:`RunVerdict.broken` gives it: the case's ``one_of``, since
        runs may be closest to different alternatives."""
        return [] if self.passed else [(None, "one_of")]

    def failed_results(self) -> list[TurnResult]:
        """The chosen alternative's failed results (all of a passing one's pass)."""
        return [result for result in self.results() if not result.passed]
