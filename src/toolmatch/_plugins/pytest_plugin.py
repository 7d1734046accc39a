"""What the pytest plugin prints for a failed ``==`` that involves toolmatch.

Imported on the first failed ``==`` once toolmatch is: it imports no module that a
comparison does not need. A value of a class whose module is not imported yet cannot be
in the comparison, so calls, expectations and results are looked for only when their
modules are loaded already (:func:`_loaded`).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.explain import explain, holds, holds_matcher

if TYPE_CHECKING:
    from toolmatch._selection.expectation import ExpectedTool

__all__ = ["explain_comparison"]

# Where the classes a comparison may hold are defined (tests/test_pytest_plugin.py checks
# each name against the class toolmatch exports).
CLASS_MODULES = {
    "ToolCall": "toolmatch._calls.call",
    "ExpectedTool": "toolmatch._selection.expectation",
    "ToolCheck": "toolmatch._selection.results",
    "TurnResult": "toolmatch._selection.results",
}


def _loaded(*names: str) -> tuple[type, ...]:
    """The classes of ``names`` whose modules are imported already, importing none."""
    found = []
    for name in names:
        module = sys.modules.get(CLASS_MODULES[name])
        if module is not None:
            found.append(getattr(module, name))
    return tuple(found)


def explain_comparison(left: object, right: object) -> list[str] | None:
    """The lines pytest shows for a failed ``left == right``; ``None`` when toolmatch takes no part.

    The first line shows both sides, shortened; then one line per failing path, nothing
    for the paths that matched. toolmatch takes part when a matcher or a ``ToolCall`` is
    on either side or anywhere inside it. The expected side is the one holding a matcher,
    else the right one, as in ``assert actual == expected``.

    >>> from toolmatch import Fuzzy
    >>> for line in explain_comparison({"a": Fuzzy("206588"), "b": 1}, {"a": 205000}):
    ...     print(line)
    {'a': Fuzzy('206588'), 'b': 1} == {'a': 205000}
    a: fuzzy '206588' does not match 205000
    b: missing
    """
    summary = f"{short_repr(left)} == {short_repr(right)}"
    expectations, results = _loaded("ExpectedTool"), _loaded("ToolCheck", "TurnResult")
    for expected, actual in ((left, right), (right, left)):
        if isinstance(expected, expectations):
            return [summary, *_selection_lines(expected, actual)]  # type: ignore[arg-type]
        if isinstance(expected, results):
            return [summary, *expected.lines()]  # type: ignore[attr-defined]
    if not (holds_matcher(left) or holds_matcher(right)):
        if not _compares_calls(left, right):
            return None
        left, right = right, left  # explain takes the expected value first
    mismatches = explain(left, right)
    if not mismatches:  # `==` said no, yet toolmatch finds no difference: say so, not nothing
        return [summary, "toolmatch found no mismatch; the values differ only by Python's =="]
    return [summary, *(str(mismatch) for mismatch in mismatches)]


def _selection_lines(expected: ExpectedTool, calls: object) -> list[str]:
    """The expectation, each candidate call with its index and verdict, found against required."""
    try:
        return expected.check(calls).lines()
    except Exception as error:  # not calls at all: say so instead of failing the report
        return [f"{expected!r} cannot read these calls: {str(error).partition(chr(10))[0]}"]


def _compares_calls(left: object, right: object) -> bool:
    """Whether calls take part and both sides are calls or plain containers.

    Another type may be a wrapper that its own plugin unwraps and explains (an
    inline-snapshot value, which compares as the calls it holds).
    """
    calls = _loaded("ToolCall")
    if not calls:
        return False
    call = calls[0]
    plain = (call, Mapping, list, tuple)
    return (
        isinstance(left, plain)
        and isinstance(right, plain)
        and (holds(left, call) or holds(right, call))
    )
