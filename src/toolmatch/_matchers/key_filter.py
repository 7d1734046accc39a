"""Keys left out by glob pattern, for ``Partial(..., ignore=[...])`` and ``Exact``.

A pattern is a dotted path of globs (``fnmatch`` rules, case-sensitive): ``"*_id"`` names
top-level keys, ``"trace.*"`` every key inside ``trace``. Lists on the way are entered item
by item without taking a step of the path, so ``"items.sku"`` reaches each item's ``sku``.
"""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["MAX_STEPS", "KeyFilter", "pattern_problem"]

# Paths deeper than this are not followed (MAX_DEPTH bounds what could be compared anyway).
MAX_STEPS = 100


def pattern_problem(pattern: str) -> str | None:
    """Why ``pattern`` is no dotted path of key globs (for a message), or None if it is one.

    >>> pattern_problem("trace.*"), pattern_problem("a..b")
    (None, "'a..b' is not a dotted path of key globs like 'trace.*': it has two dots in a row")
    """
    steps = pattern.split(".")
    if not pattern:
        reason = "it is empty"
    elif not steps[0]:
        reason = "it starts with a dot"
    elif not steps[-1]:
        reason = "it ends with a dot"
    elif not all(steps):
        reason = "it has two dots in a row"
    elif len(steps) > MAX_STEPS:
        reason = f"it has more than {MAX_STEPS} steps"
    else:
        return None
    return f"{pattern!r} is not a dotted path of key globs like 'trace.*': {reason}"


class KeyFilter:
    """Copies of dicts without the keys the patterns name; anything else is returned as is."""

    __slots__ = ("patterns", "_paths", "_match")
    patterns: tuple[str, ...]
    _paths: tuple[tuple[str, ...], ...]
    _match: Callable[[str, str], bool]

    def __init__(self, patterns: Sequence[str]) -> None:
        if isinstance(patterns, str) or not isinstance(patterns, (list, tuple)):
            raise TypeError(
                "ignore must be a list of key patterns like ['*_id', 'trace.*'], got "
                f"{short_repr(patterns)} ({type_name(patterns)})"
            )
        paths = []
        for index, pattern in enumerate(patterns):
            if not isinstance(pattern, str):
                raise TypeError(
                    f"an ignore pattern must be a str, got {short_repr(pattern)} "
                    f"({type_name(pattern)})"
                )
            text = str.__str__(pattern)
            problem = pattern_problem(text)
            if problem is not None:
                raise ValueError(f"ignore[{index}]: {problem}")
            paths.append(tuple(text.split(".")))
        from fnmatch import fnmatchcase  # here: only an ignoring matcher needs it (and re)

        self.patterns = tuple(str.__str__(pattern) for pattern in patterns)
        self._paths = tuple(paths)
        self._match = fnmatchcase

    def __call__(self, value: object) -> object:
        return self._strip(value, self._paths)

    def _strip(self, value: object, paths: tuple[tuple[str, ...], ...]) -> object:
        if isinstance(value, Mapping):
            match = self._match
            kept: dict[object, object] = {}
            for key, item in value.items():
                if isinstance(key, str):
                    here = [path for path in paths if match(key, path[0])]
                    if any(len(path) == 1 for path in here):
                        continue
                    deeper = tuple(path[1:] for path in here)
                    kept[key] = self._strip(item, deeper) if deeper else item
                else:
                    kept[key] = item
            return kept
        if isinstance(value, (list, tuple)) and any(
            isinstance(item, (Mapping, list, tuple)) for item in value
        ):
            return [self._strip(item, paths) for item in value]
        return value
