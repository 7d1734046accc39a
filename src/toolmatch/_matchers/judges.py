"""Judges by name: checks Python code registers (``register_judge``, or an installed
package's entry point in the ``toolmatch.judges`` group) and a spec file names
(``{$judge: name}``, :class:`JudgedBy`). A spec never imports code: only what the
running program registered, or what an installed package declares, is a judge.

A judge's answer is kept per judge and value until the next run starts
(:func:`start_run`): the pairing and the explanation of one run ask it once for each
value, and see one answer, even from a judge that would answer differently next time.
"""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.canonical import canonical_key

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Sequence

    from toolmatch._matchers.base import ConstructorArgs

__all__ = [
    "ENTRY_POINT_GROUP",
    "JudgedBy",
    "find_judge",
    "import_plugins",
    "register_judge",
    "start_run",
    "unregistered_judges",
]

ENTRY_POINT_GROUP = "toolmatch.judges"

_JUDGES: dict[str, Callable[[object], object]] = {}
# (judge name, the value's canonical key) -> (passed, the judge's reason or None), this run's
_ANSWERS: dict[tuple[str, Hashable], tuple[bool, str | None]] = {}


@public
def register_judge(name: str, function: Callable[[object], object]) -> None:
    """Register ``function`` as the judge ``name`` that ``{$judge: name}`` (and
    :class:`JudgedBy`) asks. It is called with the value and answers ``True`` or
    ``False``, or a pair ``(passed, reason)``, the reason shown when it refuses; an
    exception is a refusal quoting it. Registering a name again replaces its judge.

    >>> def polite(text):
    ...     return ("please" in text, "no 'please' in it")
    >>> register_judge("polite", polite)
    >>> JudgedBy("polite") == "please refund me"
    True
    >>> JudgedBy("polite").explain("refund me")
    "judge 'polite' refused 'refund me': no 'please' in it"
    """
    if not isinstance(name, str) or not name:
        raise TypeError(f"a judge's name must be a non-empty str, got {short_repr(name)}")
    if not callable(function):
        raise TypeError(
            f"register_judge needs a callable, got {short_repr(function)} ({type_name(function)})"
        )
    _JUDGES[name] = function
    _ANSWERS.clear()  # answers of the judge this one replaces are not its answers


def start_run() -> None:
    """Forget the judges' answers: a new run is judged (``case_verdict``, ``check_turn``)."""
    _ANSWERS.clear()


def _entry_point(name: str) -> Callable[[object], object] | None:
    """The judge an installed package declares under ``name`` in ``toolmatch.judges``."""
    from importlib.metadata import entry_points

    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name == name:
            function = entry.load()
            if callable(function):
                _JUDGES[name] = function
                return function  # type: ignore[no-any-return]
    return None


def find_judge(name: str) -> Callable[[object], object] | None:
    """The judge registered as ``name``, or declared by an entry point; ``None``: neither.

    >>> find_judge("no such judge") is None
    True
    """
    found = _JUDGES.get(name)
    return found if found is not None else _entry_point(name)


def unregistered_judges(value: object) -> list[str]:
    """The names of the judges ``value`` (a matcher, or data holding matchers) asks
    that nobody registered, each once, in order.

    >>> unregistered_judges({"text": JudgedBy("nobody's judge")})
    ["nobody's judge"]
    """
    from toolmatch._matchers.walk import matchers_in

    names = [m.name for m in matchers_in(value) if isinstance(m, JudgedBy)]
    return [name for name in dict.fromkeys(names) if find_judge(name) is None]


def import_plugins(modules: Sequence[str]) -> None:
    """Import each module of ``modules`` (``toolmatch check --plugin``), in order, from
    Python's path and the current directory: a module registers its judges when imported.
    One that cannot be imported raises ``ImportError`` naming it.

    >>> import_plugins(["json"])
    """
    import os
    import sys
    from importlib import import_module

    if not modules:
        return
    here = os.getcwd()
    added = here not in sys.path
    if added:  # as `python -m` would: the installed command's path lacks it
        sys.path.append(here)
    try:
        for name in modules:
            try:
                import_module(name)
            except Exception as error:
                raise ImportError(
                    f"cannot import the plugin {name!r}: {type(error).__name__}: {error}"
                ) from error
    finally:
        if added:
            sys.path.remove(here)


def _verdict(answer: object) -> tuple[bool, str | None]:
    """A judge's answer as (passed, reason): a bool, or a pair (bool, str)."""
    if isinstance(answer, bool):
        return answer, None
    if (
        isinstance(answer, tuple)
        and len(answer) == 2
        and isinstance(answer[0], bool)
        and (answer[1] is None or isinstance(answer[1], str))
    ):
        return answer[0], answer[1]
    raise TypeError(
        f"answered {short_repr(answer)} ({type_name(answer)}); a judge answers True or False, "
        "or a pair (passed, reason)"
    )


@public
class JudgedBy(Matcher, _trusted=True):
    """A value the judge ``name`` accepts: a check registered in Python
    (:func:`register_judge`, or a package's ``toolmatch.judges`` entry point), which a
    spec file names as ``{$judge: name}``. A judge nobody registered accepts nothing, and
    its mismatch says so; ``toolmatch lint`` reports it and ``toolmatch check`` refuses
    the spec. Explanations name the judge and its reason.

    >>> register_judge("short", lambda text: (len(text) < 10, f"{len(text)} characters"))
    >>> JudgedBy("short") == "hi"
    True
    >>> JudgedBy("short").explain("a very long answer")
    "judge 'short' refused 'a very long answer': 18 characters"
    >>> JudgedBy("unknown").explain("hi")  # doctest: +ELLIPSIS
    "no judge named 'unknown' is registered: ..."
    """

    __slots__ = ("name",)
    name: str

    def __init__(self, name: str) -> None:
        if not isinstance(name, str) or not name:
            raise TypeError(f"a judge's name must be a non-empty str, got {short_repr(name)}")
        self._set(name=str.__str__(name))

    def _answer(self, actual: object) -> tuple[bool, str | None]:
        """The judge's (passed, reason) for ``actual``, asked once a run per value."""
        key = canonical_key(actual)
        cached = None if key is None else _ANSWERS.get((self.name, key))
        if cached is not None:
            return cached
        function = find_judge(self.name)
        if function is None:
            return False, (
                f"no judge named {self.name!r} is registered: register it with "
                "toolmatch.register_judge, declare it in the toolmatch.judges entry point "
                "group, or pass toolmatch check --plugin MODULE"
            )
        try:
            found = _verdict(function(actual))
        except Exception as error:
            found = (False, f"raised {type(error).__name__}: {error}")
        if key is not None:
            _ANSWERS[(self.name, key)] = found
        return found

    def matches(self, actual: object) -> bool:
        try:
            return self._answer(actual)[0]
        except Exception:  # a value whose key cannot be made: no match, never an error
            return False

    def describe_mismatch(self, actual: object) -> str:
        reason = self._answer(actual)[1]
        if find_judge(self.name) is None:
            return str(reason)
        refused = f"judge {self.name!r} refused {short_repr(actual)}"
        return f"{refused}: {reason}" if reason else refused

    def _constructor_args(self) -> ConstructorArgs:
        return (self.name,), {}
