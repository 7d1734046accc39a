"""Values carried between calls: :class:`Capture` names the value at its place in the call
its expectation is paired with, and :class:`Ref` asks a later place for that same value
(``{$capture: name}``, ``{$ref: name}`` in a spec).

Written alone, a capture is its inner matcher and a reference matches nothing: what a
name holds is decided by a run's pairing (``toolmatch._selection.captures``), which
judges the run with each name bound to a value (:data:`BINDING`, set while it judges and
while its results are put into words).
"""

from __future__ import annotations

from contextvars import ContextVar

from toolmatch._core.describe import short_repr
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, Mismatch, nesting_depth
from toolmatch._matchers.literal import as_matcher
from toolmatch._matchers.values import ANY

if TYPE_CHECKING:
    from collections.abc import Iterator

    from toolmatch._matchers.base import ConstructorArgs

__all__ = [
    "BINDING",
    "COLLECTING",
    "UNBOUND",
    "Capture",
    "Ref",
    "bound_mismatch",
    "check_capture_name",
]

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
        name = check_capture_name(name, "Capture")
        inner = as_matcher(match)
        # match as given: what its repr and pickle rebuild it from.
        self._set(name=name, match=match, matcher=inner, _depth=nesting_depth((inner,), match))

    def matches(self, actual: object) -> bool:
        if self.matcher != actual:
            return False
        bound = _bound(self.name)
        if bound is not None:
            return bound[2] is not None and bound[2] == actual
        collected = COLLECTING.get()
        if collected is not None:
            collected.setdefault(self.name, []).append(actual)
        return True

    def mismatches(self, actual: object, path: str = "") -> Iterator[Mismatch]:
        if self.matcher != actual:
            yield from self.matcher._found_mismatches(actual, path, True)
        elif self != actual:
            yield Mismatch(path, self.describe_mismatch(actual))

    def describe_mismatch(self, actual: object) -> str:
        if self.matcher != actual:
            return self.matcher._safe_describe(actual)
        return bound_mismatch(self, actual) or f"expected {self!r}, got {short_repr(actual)}"

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
        self._set(name=check_capture_name(name, "Ref"))

    def matches(self, actual: object) -> bool:
        bound = _bound(self.name)
        if bound is not None:
            return bound[2] is not None and bound[2] == actual
        collected = COLLECTING.get()
        if collected is None:
            return False
        # While collecting, a reference holds back nothing, and notes what it was asked.
        collected.setdefault(id(self), []).append(actual)
        return True

    def describe_mismatch(self, actual: object) -> str:
        return bound_mismatch(self, actual) or (
            f"expected the value captured as {self.name!r}, but nothing captured it"
        )

    def _constructor_args(self) -> ConstructorArgs:
        return (self.name,), {}


UNBOUND = object()  # a name no call offered a value for

# While a run is judged under one choice of values: each name -> its value (UNBOUND: none
# offered), where the run first offered it (in words), and the value's matcher.
BINDING: ContextVar[dict[str, tuple[object, str, Matcher | None]] | None] = ContextVar(
    "binding", default=None
)


def _bound(name: str) -> tuple[object, str, Matcher | None] | None:
    binding = BINDING.get()
    return None if binding is None else binding.get(name)


def bound_mismatch(capture: Capture | Ref, actual: object) -> str | None:
    """Why ``actual`` is not the value ``capture``'s name holds in the run judged now;
    ``None`` when no run binds it."""
    bound = _bound(capture.name)
    if bound is None:
        return None
    value, source, _ = bound
    if value is UNBOUND:
        return f"expected the value captured as {capture.name!r}, but no call offered one"
    if isinstance(capture, Capture):  # a second call at a capture: a name holds one value
        return (
            f"expected {short_repr(value)}, the value {capture.name!r} holds ({source}), got "
            f"{short_repr(actual)}"
        )
    return (
        f"expected {short_repr(value)}, the value captured as {capture.name!r} ({source}), "
        f"got {short_repr(actual)}"
    )
