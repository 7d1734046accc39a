"""The envelope of a run: where a record of TRACES keeps its case and its turns
(``--case-key/--turns-key/--one-turn``, an :class:`Envelope`), and a run's turns as JSON
text (:func:`turns_value`), there and in ``check_runs`` and ``check_batch``.
"""

from __future__ import annotations

import json

from toolmatch._runs.json_text import DECLINED, fast_loads

__all__ = ["Envelope", "RecordError", "columns_of", "envelope_of", "turns_value"]

_MISSING = object()


class RecordError(Exception):
    """A record that cannot be read or mapped onto a run: the message, and its case's name
    when it was found."""

    def __init__(self, message: str, case: str | None = None) -> None:
        super().__init__(message)
        self.case = case

    def __reduce__(self) -> tuple[type[RecordError], tuple[str, str | None]]:
        return (RecordError, (str(self), self.case))


def turns_value(value: object) -> object:
    """A run's turns: JSON text (a string or UTF-8 bytes) read as JSON, anything else as it is.

    Turns are a list, never text, so text can only be the list written as JSON.

    >>> turns_value('[[{"name": "search"}]]'), turns_value([[]])
    ([[{'name': 'search'}]], [[]])
    """
    if not isinstance(value, (str, bytes)):
        return value
    turns = fast_loads(value)
    if turns is not DECLINED:
        return turns
    try:
        return json.loads(value)
    except (ValueError, RecursionError) as error:  # UnicodeDecodeError is a ValueError
        message = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        raise ValueError(f"the turns are text that is not JSON: {message}") from None


def _field(record: object, path: tuple[str, ...]) -> object:
    for key in path:
        if not isinstance(record, dict) or key not in record:
            return _MISSING
        record = record[key]
    return record


class Envelope:
    """Maps a record onto ``{"case": ..., "turns": ...}``: dotted paths to both fields, and
    whether the turns field holds one turn (a message list) rather than a list of turns.

    >>> envelope = Envelope("info.task_id", "traj", one_turn=True)
    >>> envelope({"info": {"task_id": "lookup"}, "traj": [{"role": "user", "content": "hi"}]})
    {'case': 'lookup', 'turns': [[{'role': 'user', 'content': 'hi'}]]}
    """

    __slots__ = ("case_key", "turns_key", "one_turn", "text_calls", "_case_path", "_turns_path")

    def __init__(
        self,
        case_key: str = "case",
        turns_key: str = "turns",
        one_turn: bool = False,
        text_calls: bool = False,
    ):
        self.case_key = case_key
        self.turns_key = turns_key
        self.one_turn = one_turn
        # --syntax python: one turn given as text is calls written as Python, not JSON
        self.text_calls = text_calls
        self._case_path = tuple(case_key.split("."))
        self._turns_path = tuple(turns_key.split("."))

    def __reduce__(self) -> tuple[type[Envelope], tuple[str, str, bool, bool]]:
        return (Envelope, (self.case_key, self.turns_key, self.one_turn, self.text_calls))

    def __call__(self, record: object) -> object:
        """The run the record holds; a record that is not a JSON object is left as it is."""
        if not isinstance(record, dict):
            return record  # reported as any line that is not a run
        case = _field(record, self._case_path)
        if case is _MISSING:
            raise RecordError(f"no {self.case_key!r} field (--case-key) in this record")
        name = case if isinstance(case, str) else None
        turns = _field(record, self._turns_path)
        if turns is _MISSING:
            raise RecordError(f"no {self.turns_key!r} field (--turns-key) in this record", name)
        if self.one_turn and self.text_calls and isinstance(turns, str):
            turns = [turns]
        elif self.one_turn:
            try:
                turns = [turns_value(turns)]
            except ValueError as error:
                raise RecordError(str(error), name) from None
        return {"case": case, "turns": turns}


def envelope_of(case_key: str, turns_key: str, one_turn: bool, text_calls: bool) -> Envelope | None:
    """The envelope of a command's ``--case-key/--turns-key/--one-turn`` (``text_calls``:
    ``--syntax python``); ``None`` for the trace format's own ``{"case": ..., "turns": [...]}``.

    >>> envelope_of("case", "turns", False, True) is None
    True
    >>> envelope_of("info.task_id", "messages", True, False).case_key
    'info.task_id'
    """
    if (case_key, turns_key, one_turn) == ("case", "turns", False):
        return None
    return Envelope(case_key, turns_key, one_turn, text_calls)


def columns_of(case_key: str, turns_key: str) -> set[str]:
    """The top-level fields holding the case and the turns: all a Parquet file must read.

    >>> sorted(columns_of("info.task_id", "messages"))
    ['info', 'messages']
    """
    return {key.partition(".")[0] for key in (case_key, turns_key)}
