"""promptfoo: ``get_assert(output, context)`` for a ``type: python`` assertion
(docs/integrations.md).

promptfoo runs the function named in ``value: file://PATH.py[:NAME]`` (``get_assert`` by
default) with the provider's ``output`` and the assertion's ``context``, both as JSON. The
spec is ``context["config"]["toolmatch"]`` (the assertion's ``config``), else the test's
``vars["toolmatch"]``; the calls are the ``output``, one turn (anything
:func:`toolmatch.to_calls` reads, JSON text included). The GradingResult passes when the run
passes, scores its f1, gives the explanation toolmatch prints as its reason, and lists one
``componentResults`` entry per expectation (and one per problem of a turn, such as an order
not kept), so promptfoo's viewer shows each check.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch.integrations._common import METADATA_KEY, load_case, run_verdict

if TYPE_CHECKING:
    from typing import Any

    from toolmatch._selection.results import TurnResult

__all__ = ["get_assert"]

_NAME = "toolmatch"


def _components(result: TurnResult) -> list[dict[str, Any]]:
    """One GradingResult per expectation of the turn, then one per problem of the turn."""
    turn = "" if result.turn is None else f"turn {result.turn}, "
    if result.reason is not None:  # the turn is missing on one side: no expectation judged
        return [{"pass": False, "score": 0.0, "reason": f"turn {result.turn}: {result.reason}"}]
    components = [
        {
            "pass": check.passed,
            "score": check.score,
            "reason": f"{turn}expectation {number}: {check}",
        }
        for number, check in enumerate(result.checks)
    ]
    components += [
        {"pass": False, "score": 0.0, "reason": f"{turn}{problem}"} for problem in result.problems
    ]
    return components


def get_assert(output: object, context: Mapping[str, Any]) -> dict[str, Any]:
    """The GradingResult of a promptfoo ``python`` assertion: ``pass``, ``score`` (the run's
    f1), ``reason`` (the explanation), ``componentResults`` (one per expectation) and
    ``namedScores`` (``toolmatch`` and ``toolmatch_f1``).

    >>> context = {"vars": {}, "config": {"toolmatch": ["get_weather"]}}
    >>> graded = get_assert('[{"name": "get_weather", "arguments": "{}"}]', context)
    >>> graded["pass"], graded["score"], len(graded["componentResults"])
    (True, 1.0, 1)
    """
    if not isinstance(context, Mapping):
        raise TypeError(
            "get_assert takes promptfoo's assertion context (a dict with vars and config) "
            f"second, got {short_repr(context)} ({type_name(context)})"
        )
    config, variables = context.get("config"), context.get("vars")
    if isinstance(config, Mapping) and METADATA_KEY in config:
        spec = config[METADATA_KEY]
    elif isinstance(variables, Mapping) and METADATA_KEY in variables:
        spec = variables[METADATA_KEY]
    else:
        raise ValueError(
            f"no toolmatch spec: neither the assertion's config nor the test's vars has a "
            f"{METADATA_KEY!r} key (got config {short_repr(config)}, vars "
            f"{short_repr(variables)}): put the spec under the assertion's config, "
            f"config: {{{METADATA_KEY}: ...}}"
        )
    case = load_case(spec, _NAME)
    verdict = run_verdict(case, [output])
    components = [each for result in verdict.results for each in _components(result)]
    return {
        "pass": verdict.passed,
        "score": verdict.f1,
        "reason": verdict.explanation,
        "componentResults": components,
        "namedScores": {_NAME: verdict.score, f"{_NAME}_f1": verdict.f1},
    }
