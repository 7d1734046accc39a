"""The changes ``--update`` plans on a spec's data, each at a path of keys and indices.

A plan is a list of :data:`Edit` (:class:`Replace`, :class:`Rekey`, :class:`Append`);
:func:`apply_to_data` makes it on the data, ``toolmatch._authoring.splicing`` in the file's text;
:class:`NotDone` is a change left out, with why. An edit that widens or removes an
assertion says so in its ``weakened`` (each a path and what was weakened there), so the
commands print one line for each one made (docs/cli.md, docs/record.md).
"""

from __future__ import annotations

import functools

from toolmatch._core.describe import join_path
from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    Path = tuple[Any, ...]

__all__ = [
    "Append",
    "NotDone",
    "Plan",
    "Rekey",
    "Replace",
    "apply_to_data",
    "same_data",
    "value_at",
]


class Replace(Record):
    """The value at ``path`` becomes ``value``. ``comments`` are what a YAML spec says of it
    (``record --into``: the rule that loosened it and what was observed), each at a path
    inside the value (``()`` for the value itself); they are not data. ``weakened``: the
    assertions it widens or removes, each at its path, with what was weakened."""

    __slots__ = _fields = ("path", "value", "comments", "weakened")
    path: Path
    value: Any
    comments: tuple[tuple[Path, str], ...]
    weakened: tuple[tuple[Path, str], ...]

    def __init__(
        self,
        path: Path,
        value: Any,
        comments: tuple[tuple[Path, str], ...] = (),
        weakened: tuple[tuple[Path, str], ...] = (),
    ) -> None:
        self._assign(path, value, comments, weakened)


class Rekey(Record):
    """The mapping at ``path`` loses the keys ``delete`` and gains ``add`` (key, value pairs),
    placed after the key ``after`` when it stays, else after its last key; ``weakened`` as
    :class:`Replace` has it."""

    __slots__ = _fields = ("path", "delete", "add", "after", "weakened")
    path: Path
    delete: tuple[Any, ...]
    add: tuple[tuple[Any, Any], ...]
    after: Any
    weakened: tuple[tuple[Path, str], ...]

    def __init__(
        self,
        path: Path,
        delete: tuple[Any, ...],
        add: tuple[tuple[Any, Any], ...],
        after: Any = None,
        weakened: tuple[tuple[Path, str], ...] = (),
    ) -> None:
        self._assign(path, delete, add, after, weakened)


class Append(Record):
    """``item`` is added at the end of the list at ``path``; ``shown`` is how a YAML spec
    writes it (the record builder's mapping, with its comments); ``weakened`` as
    :class:`Replace` has it."""

    __slots__ = _fields = ("path", "item", "shown", "weakened")
    path: Path
    item: Any
    shown: Any
    weakened: tuple[tuple[Path, str], ...]

    def __init__(
        self, path: Path, item: Any, shown: Any, weakened: tuple[tuple[Path, str], ...] = ()
    ) -> None:
        self._assign(path, item, shown, weakened)


if TYPE_CHECKING:
    Edit = Replace | Rekey | Append


class NotDone(Record):
    """A change the update does not make: where (a spec path), why, and what was not done
    (``fixed``, or ``added`` for a new case)."""

    __slots__ = _fields = ("where", "why", "what")
    where: str
    why: str
    what: str

    def __init__(self, where: str, why: str, what: str = "fixed") -> None:
        self._assign(where, why, what)


class Plan:
    """The edits planned on a spec's ``data`` and the changes not done (each one that would
    have ``verb``), with :meth:`where` naming a path as the loader does."""

    verb = "fixed"

    def __init__(self, data: Any) -> None:
        self.data = data
        self.edits: list[Edit] = []
        self.not_done: list[NotDone] = []

    def where(self, path: Path) -> str:
        """``test_cases[3](refund).expected_tools[0].args.amount``."""
        if len(path) < 2:
            return "test_cases"
        case = f"test_cases[{path[1]}]({self.data['test_cases'][path[1]]['name']})"
        return functools.reduce(join_path, path[2:], case)

    def skip(self, path: Path, why: str) -> None:
        """The change at ``path`` is not made, for the reason ``why``."""
        self.not_done.append(NotDone(self.where(path), why, self.verb))


def value_at(data: Any, path: Path) -> Any:
    """The value at ``path`` (keys and indices) in ``data``."""
    for step in path:
        data = data[step]
    return data


def apply_to_data(data: Any, edits: Iterable[Edit]) -> Any:
    """A copy of ``data`` with the edits made (what the written file must read back as).

    Only the mappings and lists on the edits' paths are copied (the rest is shared with
    ``data``, which stays as it was): a spec of thousands of cases is not copied whole.

    >>> data = {"a": {"x": 1}, "b": [2]}
    >>> edited = apply_to_data(data, [Replace(("a", "x"), 3)])
    >>> edited, data, edited["b"] is data["b"]
    ({'a': {'x': 3}, 'b': [2]}, {'a': {'x': 1}, 'b': [2]}, True)
    """
    import copy

    holder = [data]
    made: list[Any] = []  # the copies, kept alive: their ids say what is ours to change
    ours: set[int] = set()

    def owned(path: Path) -> Any:
        """The container at ``path``, it and those it is in copied once."""
        container: Any = holder
        for step in (0, *path):
            value = container[step]
            if id(value) not in ours:
                value = copy.copy(value)
                made.append(value)
                ours.add(id(value))
                container[step] = value
            container = value
        return container

    for edit in edits:
        if isinstance(edit, Replace):
            owned(edit.path[:-1])[edit.path[-1]] = copy.deepcopy(edit.value)
        elif isinstance(edit, Rekey):
            mapping = owned(edit.path)
            items = [(key, value) for key, value in mapping.items() if key not in edit.delete]
            kept = [key for key, _ in items]
            place = kept.index(edit.after) + 1 if edit.after in kept else len(items)
            items[place:place] = copy.deepcopy(list(edit.add))
            mapping.clear()
            mapping.update(items)
        else:
            owned(edit.path).append(copy.deepcopy(edit.item))
    return holder[0]


def same_data(first: object, second: object) -> bool:
    """Equal, and of the same types throughout (``1``, ``1.0`` and ``True`` differ here)."""
    if type(first) is not type(second):
        return False
    if isinstance(first, dict):
        assert isinstance(second, dict)
        return _same_mapping(first, second)
    if isinstance(first, list):
        assert isinstance(second, list)
        return len(first) == len(second) and all(map(same_data, first, second))
    if isinstance(first, float) and first != first:  # NaN
        return second != second
    return first == second


def _same_mapping(first: dict[Any, Any], second: dict[Any, Any]) -> bool:
    """The same keys in the same order, each with the same data (:func:`same_data`)."""
    return list(first) == list(second) and all(same_data(first[key], second[key]) for key in first)
