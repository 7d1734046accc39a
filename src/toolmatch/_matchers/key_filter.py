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

__all__ = ["KeyFilter"]

# Paths deeper than this are not followed (MAX_DEPTH bounds what could be compared anyway).
_MAX_STEPS = 100


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
        for pattern in patterns:
            if not isinstance(pattern, str):
                raise TypeError(
                    f"an ignore pattern must be a str, got {short_repr(pattern)} "
                    f"({type_name(pattern)})"
                )
            steps = tuple(str.__str__(pattern).split("."))
            if not all(steps) or len(steps) > _MAX_STEPS:
                raise ValueError(
                    f"ignore pattern {pattern!r} is not a dotted path of key globs like 'trace.*'"
                )
            paths.append(steps)
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
