"""``Record``: the immutable value objects' shared behaviour, without importing dataclasses.

``dataclasses`` pulls in ``inspect`` and costs more import time than all of toolmatch.
"""

from __future__ import annotations

from toolmatch._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, ClassVar

__all__ = ["Record"]


class Record:
    """Equality, hashing, repr and pickling from ``_fields``; attributes cannot be set.

    Subclasses set ``__slots__`` and ``_fields`` and assign in ``__init__`` with
    ``object.__setattr__``.

    >>> class Point(Record):
    ...     __slots__ = _fields = ("x", "y")
    ...     def __init__(self, x: int, y: int) -> None:
    ...         object.__setattr__(self, "x", x)
    ...         object.__setattr__(self, "y", y)
    >>> Point(1, 2), Point(1, 2) == Point(1, 2)
    (Point(x=1, y=2), True)
    """

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, field) for field in self._fields)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a {type(self).__name__} is immutable")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{field}={value!r}" for field, value in zip(self._fields, self._values(), strict=True)
        )
        return f"{type(self).__name__}({fields})"

    def __reduce__(self) -> tuple[type[Record], tuple[Any, ...]]:
        return (type(self), self._values())
