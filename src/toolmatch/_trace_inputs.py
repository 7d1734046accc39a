"""Other trace envelopes: where a record keeps its case and turns, and turns held as JSON text.

``toolmatch check --case-key/--turns-key/--one-turn`` (docs/cli.md) reads each record
through an :class:`Envelope`; every run's turns, there and in ``check_runs`` and
``check_batch``, may be JSON text (:func:`turns_value`).
"""

from __future__ import annotations

import json
import os
import zlib

from toolmatch._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO

__all__ = [
    "READ_ERRORS",
    "Envelope",
    "EnvelopeError",
    "Reading",
    "StoppedError",
    "not_checked",
    "numbered_lines",
    "open_traces",
    "turns_value",
]

# What reading a traces file can raise: a gzip file's damaged or cut-off data is not OSError.
READ_ERRORS = (OSError, EOFError, zlib.error)


def open_traces(path: str) -> tuple[IO[bytes], int | None]:
    """The traces file open for reading bytes, and its size when the bytes read add up to it.

    A name ending ``.gz`` is read through gzip; its size on disk is not the size read.
    """
    if path.endswith(".gz"):
        import gzip

        packed = gzip.GzipFile(path, "rb")
        try:
            packed.peek(1)  # not a gzip file: fail here, as open() fails for a missing one
        except BaseException:
            packed.close()
            raise
        return packed, None  # type: ignore[return-value]  # a GzipFile reads as IO[bytes] does
    file = open(path, "rb")  # noqa: SIM115  # the caller closes it
    return file, os.fstat(file.fileno()).st_size


_MISSING = object()


class EnvelopeError(Exception):
    """A record the envelope cannot map: the message, and the case's name when it was found."""

    def __init__(self, message: str, case: str | None = None) -> None:
        super().__init__(message)
        self.case = case


def turns_value(value: object) -> object:
    """A run's turns: JSON text (a string or UTF-8 bytes) read as JSON, anything else as it is.

    Turns are a list, never text, so text can only be the list written as JSON.

    >>> turns_value('[[{"name": "search"}]]'), turns_value([[]])
    ([[{'name': 'search'}]], [[]])
    """
    if not isinstance(value, (str, bytes)):
        return value
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

    __slots__ = ("case_key", "turns_key", "one_turn", "_case_path", "_turns_path")

    def __init__(self, case_key: str = "case", turns_key: str = "turns", one_turn: bool = False):
        self.case_key = case_key
        self.turns_key = turns_key
        self.one_turn = one_turn
        self._case_path = tuple(case_key.split("."))
        self._turns_path = tuple(turns_key.split("."))

    def __reduce__(self) -> tuple[type[Envelope], tuple[str, str, bool]]:
        return (Envelope, (self.case_key, self.turns_key, self.one_turn))

    def __call__(self, record: object) -> object:
        """The run the record holds; a record that is not a JSON object is left as it is."""
        if not isinstance(record, dict):
            return record  # reported as any line that is not a run
        case = _field(record, self._case_path)
        if case is _MISSING:
            raise EnvelopeError(f"no {self.case_key!r} field (--case-key) in this record")
        name = case if isinstance(case, str) else None
        turns = _field(record, self._turns_path)
        if turns is _MISSING:
            raise EnvelopeError(f"no {self.turns_key!r} field (--turns-key) in this record", name)
        if self.one_turn:
            try:
                turns = [turns_value(turns)]
            except ValueError as error:
                raise EnvelopeError(str(error), name) from None
        return {"case": case, "turns": turns}


class StoppedError(Exception):
    """The run stopped before its end: a worker died or the traces could not be read."""


def not_checked(first_line: int) -> str:
    return f"the lines from line {first_line} on were not checked"


class Reading:
    """Lines and bytes read so far: the summary counts every line, the progress shows bytes."""

    def __init__(self) -> None:
        self.lines = 0
        self.bytes = 0


def numbered_lines(file: IO[bytes], name: str, reading: Reading) -> Iterator[tuple[int, bytes]]:
    try:
        for raw in file:
            reading.lines += 1
            reading.bytes += len(raw)
            if not raw.isspace():  # the file gives no empty line; isspace stops at a '{'
                yield reading.lines, raw
    except READ_ERRORS as error:
        raise StoppedError(
            f"cannot read the traces {name}: {getattr(error, 'strerror', None) or error}; "
            f"{not_checked(reading.lines + 1)}"
        ) from None
