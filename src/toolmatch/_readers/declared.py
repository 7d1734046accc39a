"""Call shapes declared by their keys, and the reader of a list's items of one such shape.

A trace file repeats a few shapes a million times, most often a list of calls of one shape
(a turn of plain calls, a message's ``tool_use`` blocks, a completion's ``tool_calls``).
Where a shape's call is in fixed keys, its provider declares them once, as a ``CallShape``:
its row's reader reads those keys. When the dispatch table reads a mapping of a declared
row (``dispatch.DECLARED``), it gives the reading the reader ``CallShape.items_reader``
made for that mapping's key set, once per key set, and ``Reading.read_each`` hands it the
items after that mapping in its list: it reads a run of them in one loop, without
dispatching each. It stops at the first item of another key set or ``type``, or with a
value it does not take as it is (a name that is no string; arguments neither a dict nor a
JSON object's text; an id that is neither a string nor absent), which ``read_each`` hands
to the table as before: the made reader reads what the row's reader would, and a test keeps
the two readings equal (tests/test_reading_by_shape.py).
"""

from __future__ import annotations

from toolmatch._calls.call import checked_call
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import scan_object

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._readers.reading import Handler, ItemsReader, Reading

__all__ = ["CallShape"]


class CallShape:
    """Where a shape holds its call: the key of the tool's name, the keys that may hold
    its arguments (the first one present is read), the key of its id; with ``inside``,
    the name and arguments are in the mapping under that key, the id beside it. With
    ``closed``, a key of none of these (but ``type``) means more than the call: the row's
    reader reads such a mapping.

    >>> from toolmatch._readers.dispatch import new_reading
    >>> shape = CallShape("name", ("input",), "id")
    >>> read = shape.items_reader(("type", "id", "name", "input"), "tool_use", shape.read)
    >>> reading = new_reading()
    >>> blocks = [{"type": "tool_use", "id": f"t{n}", "name": "f", "input": {}} for n in (1, 2)]
    >>> read(blocks, 0, reading)  # the index of the first item it did not read
    2
    >>> reading.finish()
    [ToolCall(name='f', args={}, id='t1'), ToolCall(name='f', args={}, id='t2')]
    """

    __slots__ = ("args", "closed", "id", "inside", "name")

    def __init__(
        self,
        name: str,
        args: tuple[str, ...],
        call_id: str,
        inside: str | None = None,
        closed: bool = False,
    ) -> None:
        self.name = name
        self.args = args
        self.id = call_id
        self.inside = inside
        self.closed = closed

    def read(self, data: Mapping[str, Any], where: str, reading: Reading) -> None:
        """Read the call of ``data``, a mapping of this shape without ``inside``."""
        reading.call(data.get(self.name), self.arguments(data), data.get(self.id), where)

    def arguments(self, data: Mapping[str, Any], missing: object = None) -> object:
        """The value of the first argument key ``data`` has; ``missing`` without any."""
        for key in self.args:
            if key in data:
                return data[key]
        return missing

    def items_reader(
        self, keys: tuple[str, ...], kind: str | None, row: Handler
    ) -> ItemsReader | None:
        """The reader of a run of a list's mappings of exactly ``keys`` (and the ``type``
        value ``kind``, if not ``None``), read as the row's reader ``row`` reads one, which
        makes it their calls' source; ``None`` where the keys alone do not say where the
        call is (no name or argument key, a closed shape's other key)."""
        present = frozenset(keys)
        call_id = self.id if self.id in present else None
        if self.inside is None:
            args = next((key for key in self.args if key in present), None)
            if args is None or self.name not in present:
                return None
            known = {self.name, args}
        else:
            if self.inside not in present:
                return None
            args = self.args[0]  # an inner shape declares one argument key
            known = {self.inside}
        if call_id is not None:
            known.add(call_id)
        if kind is not None:
            known.add("type")
        # a mapping told by its keys is of this shape with these keys only (another key may
        # decide another row); a closed shape's other keys are its own fields
        if (kind is None or self.closed) and not present <= known:
            return None
        return _items_reader(len(keys), kind, self.inside, self.name, args, call_id, row)


def _items_reader(
    size: int,
    kind: str | None,
    inside: str | None,
    name_key: str,
    args_key: str,
    id_key: str | None,
    row: Handler,
) -> ItemsReader:
    """The loop ``CallShape.items_reader`` makes: what it stops at is read by the table."""

    def read(items: list[Any], start: int, reading: Reading) -> int:
        made: list[ToolCall] = []
        copy = reading.copy_args
        source = row if reading.source is None else reading.source
        agent = reading.agent
        for item in items[start:] if start else items:
            # the same key set: as many keys, the same type, each key the shape reads
            if type(item) is not dict or len(item) != size or item.get("type") != kind:
                break
            holder = item if inside is None else item.get(inside)
            if type(holder) is not dict:
                break
            try:
                name = holder[name_key]
                raw = holder[args_key]
                call_id = None if id_key is None else item[id_key]
            except KeyError:  # another key set
                break
            if type(name) is not str or (call_id is not None and type(call_id) is not str):
                break
            if type(raw) is dict:
                args = raw.copy() if copy else raw
            elif type(raw) is str:
                parsed = scan_object(raw)
                if parsed is None:
                    break
                args = parsed
            else:
                break
            made.append(checked_call(name, args, call_id, None, None, None, None, agent, source))
        reading.extend(made)
        return start + len(made)

    return read
