"""Values carried between calls: :class:`Capture` names the value at its place in the call
its expectation is paired with, and :class:`Ref` asks a later place for that same value
(``{$capture: name}``, ``{$ref: name}`` in a spec).

Written alone, a capture is its inner matcher and a reference matches nothing: what a
name holds is decided by a run's pairing (``toolmatch._selection.captures``), which
judges the run with each name bound to a value (:class:`Captured`, :class:`Referenced`).
"""

from __future__ import annotations

from contextvars import ContextVar

from toolmatch._core.describe import short_repr
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, nesting_depth
from toolmatch._matchers.literal import as_matcher
from toolmatch._matchers.values import ANY

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from toolmatch._matchers.base import ConstructorArgs, Mismatch

__all__ = ["COLLECTING", "UNBOUND", "Capture", "Captured", "Ref", "check_capture_name"]

# While a run's candidate values are collected: each capture's name -> the values it saw,
# in order, at places whose inner matcher accepts them; each reference (by id) -> the
# values it was asked about.
COLLECTING: ContextVar[dict[object, list[object]] | None] = ContextVar("collecting", default=None)


def check_capture_name(name: object, what: str) -> str:
    """``name`` as a capture's name: a non-empty ``str``, else ``TypeError``."""
    if not isinstance(name, str) or not name:
        raise TypeError(f"{what} takes a capture's name, a non-empty str, got {short_repr(name)}")
    return str.__str__(name)


@public
class Capture(Matcher, _trusted=True):
    """Names the value at this place (an argument, a result, or deeper) ``name``, for a
    :class:`Ref` later in the case; ``match`` (any value or matcher) must match it too.
    In a turn or a case, the value is the one in the call this expectation is paired
    with (docs/selection.md, "Values carried between calls"); alone, it is its matcher.

    >>> from toolmatch import ExpectedTool, StartsWith, check_turn
    >>> steps = [ExpectedTool("create", result={"id": Capture("order", StartsWith("o"))}),
    ...          ExpectedTool("refund", {"order": Ref("order")})]
    >>> calls = [{"name": "create", "args": {}, "result": {"id": "o1"}},
    ...          {"name": "create", "args": {}, "result": {"id": "o2"}},
    ...          {"name": "refund", "args": {"order": "o2"}}]
    >>> check_turn(steps, calls).passed
    True
    >>> calls[2]["args"]["order"] = "o3"
    >>> print(check_turn(steps, calls).checks[1].unmatched_reason)
    call 2: order: expected 'o1', the value captured as 'order' (create, turn 0 call 0), got 'o3'
    """

    __slots__ = ("name", "match", "matcher", "_depth")
    name: str
    match: object
    matcher: Matcher

    def __init__(self, name: str, match: object = ANY) -> None:
        set_ = object.__setattr__
        set_(self, "name", check_capture_name(name, "Capture"))
        inner = as_matcher(match)
        set_(self, "match", match)  # as given: what its repr and pickle rebuild it from
        set_(self, "matcher", inner)
        set_(self, "_depth", nesting_depth((inner,), match))

    def matches(self, actual: object) -> bool:
        if self.matcher != actual:
            return False
        collected = COLLECTING.get()
        if collected is not None:
            collected.setdefault(self.name, []).append(actual)
        return True

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        return iter(self.matcher._found_mismatches(actual, path))

    def describe_mismatch(self, actual: object) -> str:
        return self.matcher._safe_describe(actual)

    def _constructor_args(self) -> ConstructorArgs:
        return (self.name,), ({} if self.match is ANY else {"match": self.match})


@public
class Ref(Matcher, _trusted=True):
    """The value a :class:`Capture` of the same ``name`` took in the run, compared by
    :class:`Literal` rules. Alone, outside a turn or case that captures ``name``, it
    matches nothing.

    >>> Ref("order") == "o1"
    False
    >>> Ref("order").explain("o1")
    "expected the value captured as 'order', but nothing captured it"
    """

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        object.__setattr__(self, "name", check_capture_name(name, "Ref"))

    def matches(self, actual: object) -> bool:
        collected = COLLECTING.get()
        if collected is None:
            return False
        # While collecting, a reference holds back nothing, and notes what it was asked.
        collected.setdefault(id(self), []).append(actual)
        return True

    def describe_mismatch(self, actual: object) -> str:
        return f"expected the value captured as {self.name!r}, but nothing captured it"

    def _constructor_args(self) -> ConstructorArgs:
        return (self.name,), {}


_UNBOUND = object()


class Captured(Matcher, _trusted=True):
    """A :class:`Capture` or a :class:`Ref` of a run, bound to ``value`` (taken at
    ``source``, a call in words; ``UNBOUND``: the run offered no value): the value, by
    :class:`Literal` rules, and a capture's own matcher. Prints as what it binds."""

    __slots__ = ("capture", "value", "source", "_literal")
    capture: Capture | Ref
    value: object
    source: str
    _literal: Matcher | None

    def __init__(
        self, capture: Capture | Ref, value: object, source: str, compiled: Matcher | None = None
    ) -> None:
        """``compiled``: ``value``'s matcher made already (a run's choice binds many places)."""
        set_ = object.__setattr__
        set_(self, "capture", capture)
        set_(self, "value", value)
        set_(self, "source", source)
        if compiled is None and value is not _UNBOUND:
            compiled = as_matcher(value)
        set_(self, "_literal", compiled)

    def matches(self, actual: object) -> bool:
        inner = self.capture
        if isinstance(inner, Capture) and inner.matcher != actual:
            return False
        literal = self._literal
        return literal is not None and literal == actual

    def describe_mismatch(self, actual: object) -> str:
        capture = self.capture
        if isinstance(capture, Capture) and capture.matcher != actual:
            return capture.matcher._safe_describe(actual)
        if self._literal is None:
            return f"expected the value captured as {capture.name!r}, but no call offered one"
        if isinstance(capture, Capture):  # a second call at a capture: one value a name
            return (
                f"expected {short_repr(self.value)}, the value {capture.name!r} holds "
                f"({self.source}), got {short_repr(actual)}"
            )
        return (
            f"expected {short_repr(self.value)}, the value captured as {capture.name!r} "
            f"({self.source}), got {short_repr(actual)}"
        )

    def _constructor_args(self) -> ConstructorArgs:
        return self.capture._constructor_args()

    def __repr__(self) -> str:
        return repr(self.capture)

    def __reduce_ex__(self, protocol: Any) -> tuple[type[Captured], tuple[object, ...]]:
        return (Captured, (self.capture, self.value, self.source))


UNBOUND = _UNBOUND
