"""Values carried between calls (docs/selection.md): a case's captures and references,
found once (:class:`CapturePlan`), the values a run offers each capture, and the turns
bound to one choice of them.

A run passes when some choice of one value per capture name makes it pass, each
capture's value being the one at its place in the call its expectation is paired with:
the run is judged with each capture and reference bound (``Captured``), choice after
choice, the values in the order the run offers them. A name binds one value: an
expectation with a capture that takes several calls takes calls with the same value there.
"""

from __future__ import annotations

import copy

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.canonical import canonical_key
from toolmatch._matchers.captures import COLLECTING, Capture, Captured, Ref
from toolmatch._matchers.literal import Literal
from toolmatch._matchers.walk import matchers_in
from toolmatch._selection.expectation import ExpectedTool
from toolmatch._selection.matching import _Selection
from toolmatch._selection.turn import _Turn

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from toolmatch._calls.call import ToolCall

__all__ = ["MAX_CHOICES", "Binding", "CapturePlan", "capture_plan", "too_many"]

MAX_CHOICES = 1024
"""The most choices of values a run is judged with; more is an error, never a guess."""

# A name's value and where it was taken, in words.
Binding = dict[str, tuple[object, str]]


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


class CapturePlan:
    """The captures and references of a case's turns (each turn given as its alternatives'
    ``_Turn``\\ s): the names, the expectations that capture (by turn), and which
    expectations hold either, to bind."""

    __slots__ = ("names", "capturing", "holding")

    def __init__(self, turns: Sequence[Sequence[_Turn]]) -> None:
        names: list[str] = []
        referred: list[str] = []
        self.capturing: list[tuple[int, ExpectedTool]] = []
        self.holding: set[int] = set()  # ids of the expectations holding a capture or a ref
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
                for expectation in plan.selection.expectations:
                    captures, refs = _names(expectation)  # type: ignore[arg-type]
                    if captures and expectation.count == 0:
                        raise ValueError(
                            f"{expectation!r} captures {captures[0]!r} but may take no call: "
                            "a capture takes the value of the call its expectation is paired "
                            "with; capture in an expectation with count >= 1"
                        )
                    if captures:
                        self.capturing.append((number, expectation))  # type: ignore[arg-type]
                        names += captures
                    if captures or refs:
                        self.holding.add(id(expectation))
                        referred += refs
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
        its capturing expectations match (their other captures and references aside)."""
        found: dict[str, list[tuple[object, str]]] = {name: [] for name in self.names}
        keys: dict[str, set[object]] = {name: set() for name in self.names}
        for number, expectation in self.capturing:
            if number >= len(calls_per_turn):
                continue
            for index, call in enumerate(calls_per_turn[number]):
                if not expectation._selects(call.name):
                    continue
                token = COLLECTING.set({})
                try:
                    matched = expectation._call_matches(call)
                    seen = COLLECTING.get()
                finally:
                    COLLECTING.reset(token)
                if not matched or not seen:
                    continue
                source = f"{call.name}, turn {number} call {index}"
                for name, values in seen.items():
                    for value in values:
                        _offer(found[name], keys[name], value, source)
        return [found[name] for name in self.names]

    def bind(self, plan: _Turn, binding: Binding) -> _Turn:
        """``plan`` with its captures and references bound; itself when it holds none."""
        holding = self.holding
        expectations = plan.selection.expectations
        patterns = plan.ignoring.expectations if plan.ignoring is not None else []
        if not any(id(each) in holding for each in (*expectations, *patterns)):
            return plan
        bound = copy.copy(plan)
        bound.selection = _Selection(
            [_bound(each, binding) if id(each) in holding else each for each in expectations],  # type: ignore[arg-type]
            use_index=plan.selection.use_index,
        )
        if plan.ignoring is not None:
            bound.ignoring = _Selection(
                [_bound(each, binding) if id(each) in holding else each for each in patterns],  # type: ignore[arg-type]
                use_index=False,
            )
        bound.json_template = None  # its expectations' JSON is theirs
        return bound


def capture_plan(turns: Sequence[Sequence[_Turn]]) -> CapturePlan | None:
    """The plan of a case's turns; ``None`` when no expectation captures or refers (a
    reference that names no capture, or a capture that can bind nothing, raises
    ``ValueError``).

    >>> from toolmatch import ExpectedTool, ExpectedTurn
    >>> turn = ExpectedTurn([ExpectedTool("create", result=Capture("id")),
    ...                      ExpectedTool("delete", {"id": Ref("id")})])
    >>> capture_plan([[turn._turn]]).names
    ['id']
    >>> capture_plan([[ExpectedTurn([ExpectedTool("a")])._turn]]) is None
    True
    """
    plan = CapturePlan(turns)
    return plan if plan.names or plan.holding else None


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


def _bound(expectation: ExpectedTool, binding: Binding) -> ExpectedTool:
    """``expectation`` made again with each capture and reference in it bound."""
    if expectation.is_never:
        return ExpectedTool._rebuild_never(
            expectation.name,
            _substitute(expectation.args, binding),
            result=_substitute(expectation.result, binding),
            failed=expectation.failed,
            agent=_substitute(expectation.agent, binding),
            status=_substitute(expectation.status, binding),
        )
    args, options = expectation._constructor_args()
    return ExpectedTool(
        *(_substitute(arg, binding) for arg in args),
        **{key: _substitute(value, binding) for key, value in options.items()},
    )


def _substitute(value: Any, binding: Binding) -> Any:
    """``value`` with each ``Capture`` and ``Ref`` in it bound; the same object where
    nothing inside it changes."""
    if isinstance(value, (Capture, Ref)):
        bound, source = binding[value.name]
        return Captured(value, bound, source)
    if isinstance(value, Matcher):
        made = value._constructor_args()
        if made is None:
            return value
        args, kwargs = made
        new_args = tuple(_substitute(arg, binding) for arg in args)
        new_kwargs = {key: _substitute(item, binding) for key, item in kwargs.items()}
        if all(new is old for new, old in zip(new_args, args, strict=True)) and all(
            new_kwargs[key] is kwargs[key] for key in kwargs
        ):
            return value
        return type(value)._rebuild(new_args, new_kwargs)
    if isinstance(value, dict):
        items = {key: _substitute(item, binding) for key, item in value.items()}
        return value if all(items[key] is value[key] for key in value) else items
    if isinstance(value, (list, tuple)):
        made_items = [_substitute(item, binding) for item in value]
        if all(new is old for new, old in zip(made_items, value, strict=True)):
            return value
        return made_items if isinstance(value, list) else tuple(made_items)
    return value


def too_many(counts: Sequence[int], names: Sequence[str]) -> ValueError:
    """The error for a run offering more choices than :data:`MAX_CHOICES`."""
    shown = ", ".join(f"{name!r} {count}" for name, count in zip(names, counts, strict=True))
    return ValueError(
        f"the run offers too many choices of captured values to judge ({shown}; at most "
        f"{MAX_CHOICES} choices in all): narrow a capture with a matcher, "
        "{$capture: name, match: ...} (Capture(name, matcher))"
    )
