"""Values carried between calls (docs/selection.md): a case's captures and references,
found once (:class:`CapturePlan`), and the values a run offers each capture.

A run passes when some choice of one value per capture name makes it pass, each
capture's value being the one at its place in the call its expectation is paired with:
the run is judged under each choice (``BINDING``), choice after choice, the values in the
order the run offers them. A name binds one value: an expectation with a capture that
takes several calls takes calls with the same value there.
"""

from __future__ import annotations

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.canonical import canonical_key
from toolmatch._matchers.captures import COLLECTING, Capture, Ref
from toolmatch._matchers.literal import Literal
from toolmatch._matchers.walk import matchers_in
from toolmatch._selection.expectation import ExpectedTool
from toolmatch._selection.turn import TurnPlan

if TYPE_CHECKING:
    from collections.abc import Sequence

    from toolmatch._calls.call import ToolCall

__all__ = ["MAX_CHOICES", "Binding", "CapturePlan", "capture_plan", "too_many"]

MAX_CHOICES = 1024
"""The most choices of values a run is judged with; more is an error, never a guess."""

# A name's value, where it was taken, in words, and the value's matcher (None: unbound).
Binding = dict[str, tuple[object, str, Matcher | None]]


def _names(expectation: ExpectedTool) -> tuple[list[str], list[str]]:
    """The names ``expectation`` captures and those it refers to, each once."""
    captured: list[str] = []
    referred: list[str] = []
    for matcher in matchers_in(expectation):
        if isinstance(matcher, Capture):
            captured.append(matcher.name)
        elif isinstance(matcher, Ref):
            referred.append(matcher.name)
    return list(dict.fromkeys(captured)), list(dict.fromkeys(referred))


def _carried(expectation: ExpectedTool) -> tuple[list[str], list[str], list[Ref]]:
    """``expectation``'s captured and referred names (``_names``) and the references every
    call it matches holds (``_needed_refs``), found once: an expectation does not change,
    and every check of its case asks (B3's distinct turn, 100 expectations over 100 calls:
    1.06 -> 0.62 ms, walking every expectation's matchers at each check before)."""
    known: tuple[list[str], list[str], list[Ref]] | None = expectation._carried
    if known is None:
        known = (*_names(expectation), _needed_refs(expectation))
        object.__setattr__(expectation, "_carried", known)
    return known


class CapturePlan:
    """The captures and references of a case's turns (each turn given as its alternatives'
    ``TurnPlan``\\ s): the names, and the expectations that capture or narrow them (by turn)."""

    __slots__ = ("names", "capturing", "holding", "narrowing")

    def __init__(self, turns: Sequence[Sequence[TurnPlan]]) -> None:
        names: list[str] = []
        referred: list[str] = []
        # (turn, its TurnPlan, the expectation's number there, the expectation)
        self.capturing: list[tuple[int, TurnPlan, int, ExpectedTool]] = []
        self.holding: set[int] = set()  # ids of the expectations holding a capture or a ref
        # (turn, expectation, its references that every matching call must satisfy): a
        # value none of its calls holds there cannot pass, so it is not a choice
        self.narrowing: list[tuple[int, TurnPlan, int, ExpectedTool, list[Ref]]] = []
        for number, alternatives in enumerate(turns):
            for plan in alternatives:
                patterns = plan.ignoring.expectations if plan.ignoring is not None else []
                for pattern in patterns:
                    captures, refs = _names(pattern)  # type: ignore[arg-type]
                    if captures:
                        raise ValueError(
                            f"ignore pattern {pattern!r} captures {captures[0]!r}: a pattern "
                            "leaves calls out, it is paired with none; capture in an "
                            "expected tool"
                        )
                    if refs:
                        self.holding.add(id(pattern))
                        referred += refs
                for place, expectation in enumerate(plan.selection.expectations):
                    captures, refs, needed = _carried(expectation)  # type: ignore[arg-type]
                    if captures and expectation.count == 0:
                        raise ValueError(
                            f"{expectation!r} captures {captures[0]!r} but may take no call: "
                            "a capture takes the value of the call its expectation is paired "
                            "with; capture in an expectation with count >= 1"
                        )
                    if captures:
                        self.capturing.append((number, plan, place, expectation))  # type: ignore[arg-type]
                        names += captures
                    if captures or refs:
                        self.holding.add(id(expectation))
                        referred += refs
                    if needed and expectation.count and len(alternatives) == 1:
                        self.narrowing.append((number, plan, place, expectation, needed))  # type: ignore[arg-type]
        self.names = list(dict.fromkeys(names))
        for name in referred:
            if name not in self.names:
                raise ValueError(
                    f"Ref({name!r}) names no capture of the case; capture it first with "
                    f"{{$capture: {name}}} (Capture({name!r})) where its value appears"
                )

    def offered(self, calls_per_turn: Sequence[list[ToolCall]]) -> list[list[tuple[object, str]]]:
        """For each name, the values the run offers it, each once, in the order the run
        holds them, with where each was first taken: the values at its places in the calls
        its capturing expectations match (their other captures and references aside), less
        those a reference every passing run needs finds in no call (when any is left)."""
        found: dict[str, list[tuple[object, str]]] = {name: [] for name in self.names}
        keys: dict[str, set[object]] = {name: set() for name in self.names}
        selected: dict[int, tuple[tuple[int, ...], ...]] = {}  # per turn's plan: by name
        for number, plan, place, expectation in self.capturing:
            for index, call, seen in _collected(
                calls_per_turn, number, plan, place, expectation, selected
            ):
                source = f"{call.name}, turn {number} call {index}"
                for name in self.names:
                    for value in seen.get(name, ()):
                        _offer(found[name], keys[name], value, source)
        if all(len(values) <= 1 for values in found.values()):
            return [found[name] for name in self.names]  # one choice: nothing to narrow
        for number, plan, place, expectation, refs in self.narrowing:
            asked: dict[str, list[tuple[object, str]]] = {ref.name: [] for ref in refs}
            asked_keys: dict[str, set[object]] = {ref.name: set() for ref in refs}
            for _, _, seen in _collected(
                calls_per_turn, number, plan, place, expectation, selected
            ):
                for ref in refs:
                    for value in seen.get(id(ref), ()):
                        _offer(asked[ref.name], asked_keys[ref.name], value, "")
            for name, values in asked.items():
                kept = [(value, source) for value, source in found[name] if _among(value, values)]
                if kept:  # else no choice passes: the first explains why
                    found[name] = kept
        return [found[name] for name in self.names]


def capture_plan(turns: Sequence[Sequence[TurnPlan]]) -> CapturePlan | None:
    """The plan of a case's turns; ``None`` when no expectation captures or refers (a
    reference that names no capture, or a capture that can bind nothing, raises
    ``ValueError``).

    >>> from toolmatch import ExpectedTool, ExpectedTurn
    >>> turn = ExpectedTurn([ExpectedTool("create", result=Capture("id")),
    ...                      ExpectedTool("delete", {"id": Ref("id")})])
    >>> capture_plan([[turn._plan]]).names
    ['id']
    >>> capture_plan([[ExpectedTurn([ExpectedTool("a")])._plan]]) is None
    True
    """
    plan = CapturePlan(turns)
    return plan if plan.names or plan.holding else None


def _collected(
    calls_per_turn: Sequence[list[ToolCall]],
    number: int,
    plan: TurnPlan,
    place: int,
    expectation: ExpectedTool,
    selected: dict[int, tuple[tuple[int, ...], ...]],
) -> list[tuple[int, ToolCall, dict[object, list[object]]]]:
    """The calls of turn ``number`` that ``expectation`` (number ``place`` of ``plan``)
    matches with its captures and references collecting, each with what they collected;
    ``selected`` keeps each plan's calls by name for the run."""
    if number >= len(calls_per_turn):
        return []
    calls = calls_per_turn[number]
    known = selected.get(id(plan))
    if known is None:
        names = tuple(call.name for call in calls)
        known = plan.selection._by_names.get(names) or plan.selection.candidates(names)
        selected[id(plan)] = known
    found = []
    for index in known[place]:
        call = calls[index]
        token = COLLECTING.set({})
        try:
            matched = expectation._call_matches(call)
            seen = COLLECTING.get()
        finally:
            COLLECTING.reset(token)
        if matched and seen:
            found.append((index, call, seen))
    return found


def _needed_refs(expectation: ExpectedTool) -> list[Ref]:
    """The references in ``expectation``'s arguments and result reached through plain
    mappings and lists only: every call it matches holds the reference's value there."""
    found: list[Ref] = []
    stack: list[object] = [expectation.args, expectation.result]
    while stack:
        item = stack.pop()
        if isinstance(item, Ref):
            found.append(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return found


def _among(value: object, values: list[tuple[object, str]]) -> bool:
    matcher = Literal(value)
    return any(matcher == other for other, _ in values)


def _offer(found: list[tuple[object, str]], keys: set[object], value: object, source: str) -> None:
    """Add ``value`` to ``found`` unless an equal one (by Literal rules) is there."""
    key = canonical_key(value)
    if key is not None:
        if key in keys:
            return
        keys.add(key)
    elif any(Literal(value) == other for other, _ in found):
        return
    found.append((value, source))


def too_many(counts: Sequence[int], names: Sequence[str]) -> ValueError:
    """The error for a run offering more choices than :data:`MAX_CHOICES`."""
    shown = ", ".join(f"{name!r} {count}" for name, count in zip(names, counts, strict=True))
    return ValueError(
        f"the run offers too many choices of captured values to judge ({shown}; at most "
        f"{MAX_CHOICES} choices in all): narrow a capture with a matcher, "
        "{$capture: name, match: ...} (Capture(name, match=...))"
    )
