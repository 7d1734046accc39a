"""The envelope of a run: where a record of TRACES keeps its case and its turns
(``--case-key/--turns-key/--one-turn``, an :class:`Envelope`), where it says the run did not
complete (``--error-key``, :class:`ErrorKeys`), and a run's turns as JSON text
(:func:`turns_value`), there and in ``check_runs`` and ``check_batch``.
"""

from __future__ import annotations

import json

from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.json_text import DECLINED, fast_loads

if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "DEFAULT_ERROR_KEYS",
    "Envelope",
    "ErrorKeys",
    "RecordError",
    "columns_of",
    "envelope_of",
    "turns_value",
]

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

    def case_of(self, record: dict[object, object]) -> object:
        """The record's case field, as it is; raises :class:`RecordError` when it has none."""
        case = _field(record, self._case_path)
        if case is _MISSING:
            raise RecordError(f"no {self.case_key!r} field (--case-key) in this record")
        return case

    def __call__(self, record: object) -> object:
        """The run the record holds; a record that is not a JSON object is left as it is."""
        if not isinstance(record, dict):
            return record  # reported as any line that is not a run
        case = self.case_of(record)
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


# The field a record of TRACES says its run did not complete in, without --error-key.
DEFAULT_ERROR_KEYS = ("error",)


class ErrorKeys:
    """Where a record says its run did not complete (``keys``, dotted paths:
    ``--error-key``), and the text values there that say it did (``completed``:
    ``--completed-value``). A key that is absent, ``null``, ``false``, ``""`` or one of
    ``completed`` says nothing; any other value marks the run NOT EVALUABLE, the value shown.

    >>> keys = ErrorKeys(("termination_reason",), ("agent_stop", "user_stop"))
    >>> keys.reason({"termination_reason": "user_stop"}) is None
    True
    >>> keys.reason({"termination_reason": "max_steps"})
    "the run did not complete: its 'termination_reason' is 'max_steps' (--error-key)"
    """

    __slots__ = ("keys", "completed", "_paths")

    def __init__(self, keys: tuple[str, ...], completed: tuple[str, ...] = ()) -> None:
        self.keys = keys
        self.completed = completed
        # Split once: every record of TRACES is looked at.
        self._paths = tuple((key, tuple(key.split("."))) for key in keys)

    def __reduce__(self) -> tuple[type[ErrorKeys], tuple[tuple[str, ...], tuple[str, ...]]]:
        return (ErrorKeys, (self.keys, self.completed))

    def reason(self, record: dict[Any, Any]) -> str | None:
        """Why the record's run cannot be judged, or ``None`` when no key says so."""
        for key, path in self._paths:
            value = record.get(key) if len(path) == 1 else _field(record, path)
            if value is None or value is _MISSING or _says_completed(value, self.completed):
                continue
            return f"the run did not complete: its {key!r} is {_shown(value)} (--error-key)"
        return None


# A harness's message is why the run is reported: shown whole up to this many characters.
_MESSAGE_LIMIT = 500


def _shown(value: object) -> str:
    if isinstance(value, str) and len(value) <= _MESSAGE_LIMIT:
        return repr(value)
    return short_repr(value)


def _says_completed(value: object, completed: tuple[str, ...]) -> bool:
    # Compared by identity: `0 == False`, and a count of errors is a value to show.
    if value is None or value is False or value == "":
        return True
    return isinstance(value, str) and value in completed


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


def columns_of(case_key: str, turns_key: str, *others: str) -> set[str]:
    """The top-level fields holding the case, the turns and ``others`` (the error keys):
    all a Parquet file must read.

    >>> sorted(columns_of("info.task_id", "messages", "error"))
    ['error', 'info', 'messages']
    """
    return {key.partition(".")[0] for key in (case_key, turns_key, *others)}
