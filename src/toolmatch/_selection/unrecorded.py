"""A check on a field the input does not record: :class:`NotRecordedError`, never a pass.

A call records a field when its value is set (``None``: the trace does not say):
``agent``; ``failed`` and ``status`` together (a ``"denied"`` or ``"pending"`` call records
that it neither failed nor succeeded); ``result``. An expectation that asserts a field is
judged only where no call that could match it leaves that field unsaid; where one does,
the error names the format the call came from and what to pass to get the field
(docs/selection.md, "Fields the input does not record"). Issue 37 will make this error an
outcome of its own; it is raised here alone.
"""

from __future__ import annotations

from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.records import unrecorded_advice
from toolmatch._selection.results import call_text

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from toolmatch._calls.call import ToolCall
    from toolmatch._selection.expectation_protocol import Expected

__all__ = ["RECORDED", "NotRecordedError", "check_recorded", "not_recorded"]


@public
class NotRecordedError(ValueError):
    """A check asserts a field (``agent``, ``failed``, ``status``, ``result``) of a call
    whose input does not record it: the check can neither pass nor fail. Its message
    names the call, the format it came from and what to pass to get the field.

    >>> from toolmatch import ExpectedTool
    >>> try:
    ...     ExpectedTool.never("refund", agent="triage").check([{"name": "refund"}])
    ... except NotRecordedError as error:
    ...     print(error)  # doctest: +NORMALIZE_WHITESPACE
    ExpectedTool.never('refund', agent='triage') asserts who made call 0 refund({}), which a
    plain call does not record: pass calls that hold their agent (ToolCall(agent=...), an
    "agent" key), or leave agent= out
    """


def _has_status(call: ToolCall) -> bool:
    return call.status is not None


# Whether a call records each field a check may assert.
RECORDED: dict[str, Callable[[ToolCall], bool]] = {
    "agent": lambda call: call.agent is not None,
    "status": _has_status,
    "failed": _has_status,
    "result": lambda call: call.result is not None,
}


def not_recorded(subject: str, field: str, index: int, call: ToolCall) -> NotRecordedError:
    """The error for ``subject`` (an expectation's repr, an ignore pattern, the turn's
    option) asserting ``field`` of call ``index``, which does not record it."""
    shown = f"call {index} {call_text(call)}"
    what = {
        "agent": f"who made {shown}",
        "status": f"how {shown} ended",
        "failed": f"whether {shown} failed",
        "result": f"the result of {shown}",
    }[field]
    name, advice = unrecorded_advice(call, field)
    option = "the agent option" if subject.startswith("the turn's") else f"{field}="
    how = f"{advice}, or leave {option} out" if advice else f"leave {option} out"
    return NotRecordedError(f"{subject} asserts {what}, which {name} does not record: {how}")


def check_recorded(
    expectations: Sequence[Expected],
    numbers: Sequence[int],
    calls: Sequence[ToolCall],
    candidates: Sequence[Sequence[int]],
    matching: Sequence[Sequence[int]],
    allowed: Sequence[range] | None,
) -> None:
    """Raise where expectation ``numbers`` assert a field some of their candidates do not
    record and the verdict turns on it: the calls that would match but for it, counted as
    matching or not, give different verdicts. ``allowed``: each expectation's counts, or
    ``None`` for ignore patterns, which any such call makes undecided (leaving it out or
    judging it changes the turn)."""
    for number in numbers:
        expectation = expectations[number]
        found = matching[number]
        undecided = [
            (index, field)
            for index in candidates[number]
            if index not in found
            for field in (expectation._unrecorded(calls[index]),)
            if field is not None
        ]
        if not undecided:
            continue
        if allowed is not None:
            counts = allowed[number]
            low = len(found)
            if len({low + extra in counts for extra in range(len(undecided) + 1)}) == 1:
                continue  # the same verdict whichever way those calls went
            subject = repr(expectation)
        else:
            subject = f"ignore[{number}] {expectation!r}"
        index, field = undecided[0]
        raise not_recorded(subject, field, index, calls[index])
