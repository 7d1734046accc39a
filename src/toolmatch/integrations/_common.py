"""What every framework's adapter shares: a spec read as one test case, and a run's calls
judged against it into the verdict an adapter maps to its framework's result type.

Each adapter takes its spec from its own arguments or from its framework's metadata
(:data:`METADATA_KEY`), reads its calls with :func:`toolmatch.to_calls`, and turns the
:class:`Verdict` into the framework's score and reason: the same words everywhere.

>>> case = load_case(["search"], "an example")
>>> verdict = run_verdict(case, [[{"name": "web_search"}]])
>>> verdict.passed, verdict.f1
(True, 1.0)
>>> print(verdict.explanation)
turn 0 PASSED: 1 of 1 expectation(s) met over 1 call(s)
  score: precision 1/1 = 1.00, recall 1/1 = 1.00, f1 1.00
  expectation 0: PASSED ExpectedTool('search')
    required: at least 1 matching call; found 1: call 0
    call 0 web_search({}): matches
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.case import TestCase, case_verdict
from toolmatch._spec.loading import load_test_cases

if TYPE_CHECKING:
    from toolmatch._selection.results import TurnResult

__all__ = ["METADATA_KEY", "SPEC_FORMS", "Verdict", "load_case", "run_verdict", "spec_from"]

METADATA_KEY = "toolmatch"
"""The key of a framework's metadata (a sample's, a case's, an example's) that holds the
spec when the adapter is given none."""

SPEC_FORMS = (
    "a TestCase, a spec's data with one test case ({'test_cases': [...]}), one case's data "
    "({'expected_tools': [...]} or {'turns': [...]}, its name optional), or a list of "
    "expected tools"
)
"""The spec forms every adapter accepts, as its messages name them."""


def spec_from(
    spec: object, metadata: object, where: str, key: str = METADATA_KEY, field: str = "metadata"
) -> object:
    """``spec`` when given, else the one under ``key`` in ``metadata`` (the framework's
    ``field``, found at ``where``); a missing spec raises ``ValueError`` naming where it was
    looked for.

    >>> spec_from(None, {"toolmatch": ["search"]}, "the sample's metadata")
    ['search']
    >>> spec_from(None, {"other": 1}, "the sample's metadata")
    Traceback (most recent call last):
    ...
    ValueError: no toolmatch spec: none was given, and the sample's metadata has no \
'toolmatch' key (got {'other': 1}): pass spec=, or put the spec under metadata['toolmatch']
    """
    if spec is not None:
        return spec
    if isinstance(metadata, Mapping) and key in metadata:
        return metadata[key]
    raise ValueError(
        f"no toolmatch spec: none was given, and {where} has no {key!r} key (got "
        f"{short_repr(metadata)}): pass spec=, or put the spec under {field}[{key!r}]"
    )


def load_case(spec: object, name: str) -> TestCase:
    """The test case ``spec`` gives (one of :data:`SPEC_FORMS`), named ``name`` when the
    spec names none; a spec holding several cases, or of another type, raises.

    >>> load_case({"expected_tools": ["search"]}, "lookup").name
    'lookup'
    >>> two = [{"name": "a", "expected_tools": ["a"]}, {"name": "b", "expected_tools": ["b"]}]
    >>> load_case({"test_cases": two}, "lookup")
    Traceback (most recent call last):
    ...
    ValueError: a toolmatch spec for one run must hold one test case, got 2: give the case \
itself, or its expected tools
    """
    if isinstance(spec, TestCase):
        return spec
    if isinstance(spec, Mapping) and "test_cases" in spec:
        cases = load_test_cases(spec)
        if len(cases) != 1:
            raise ValueError(
                f"a toolmatch spec for one run must hold one test case, got {len(cases)}: "
                "give the case itself, or its expected tools"
            )
        return cases[0]
    if isinstance(spec, Mapping):
        return load_test_cases({"test_cases": [{"name": name, **spec}]})[0]
    if isinstance(spec, Sequence) and not isinstance(spec, (str, bytes)):
        return load_test_cases({"test_cases": [{"name": name, "expected_tools": list(spec)}]})[0]
    raise TypeError(
        f"a toolmatch spec must be {SPEC_FORMS}; got {short_repr(spec)} ({type_name(spec)})"
    )


class Verdict(Record):
    """A run's verdict against its case: ``passed``; ``f1``, the mean of its turns' f1 (a
    turn of only ``never`` and caps: the share of them kept), as :func:`toolmatch.check_runs`
    scores a run; ``explanation``, each turn's result as ``str(result)`` writes it (every
    expectation with its per-argument reasons), one after the other; and the ``results``."""

    _fields = ("passed", "f1", "explanation", "results")
    __slots__ = _fields
    __hash__ = None  # type: ignore[assignment]  # its results are unhashable
    passed: bool
    f1: float
    explanation: str
    results: tuple[TurnResult, ...]

    @property
    def score(self) -> float:
        """The verdict as a number, for frameworks that score runs: 1.0 passed, else 0.0."""
        return 1.0 if self.passed else 0.0

    def first_failure(self) -> str:
        """The first failing turn's :meth:`TurnResult.first_failure`, or ``""`` if passed."""
        for result in self.results:
            failure = result.first_failure()
            if failure is not None:
                return failure if result.turn is None else f"turn {result.turn}: {failure}"
        return ""


def run_verdict(case: TestCase, turns: Sequence[object]) -> Verdict:
    """The :class:`Verdict` of a run, one entry of calls per turn (anything
    :func:`toolmatch.to_calls` reads), against ``case``."""
    verdict = case_verdict(case, list(turns))
    results = tuple(verdict.results())
    explanation = "\n".join(str(result) for result in results)
    return Verdict(verdict.passed, verdict.score(), explanation, results)
