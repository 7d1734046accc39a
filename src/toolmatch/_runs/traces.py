"""Reading TRACES: a file, a directory of files, or standard input, as numbered records.

:func:`trace_blocks` yields every record of TRACES (JSON Lines, ``.gz``, ``.json``,
Parquet, a directory of them: docs/cli.md) with a number, in blocks as read (JSON Lines a
read's lines at a time), :func:`trace_items` one at a time, and
:meth:`TracesSource.place` says which file and line, row or item a number is.
:func:`read_item` gives the record an item holds, which
``--case-key/--turns-key/--one-turn`` map onto a run (``envelope.py``).
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
import zlib
from bisect import bisect_right
from contextlib import suppress
from io import BytesIO
from typing import NamedTuple

from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._readers.reading import scan_object
from toolmatch._runs.envelope import RecordError
from toolmatch._runs.json_text import DECLINED, fast_loads

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator
    from typing import IO, Any

    # A piece of TRACES read: the number of its first record, how many numbers it takes,
    # and its item: the Lines of JSON Lines read at once, or one record read already.
    Block = tuple[int, int, object]

__all__ = [
    "Lines",
    "Place",
    "Rows",
    "TracesSource",
    "Span",
    "StoppedError",
    "TracesError",
    "not_checked",
    "read_item",
    "same_file",
    "lines_of",
    "trace_blocks",
    "trace_items",
]

# What reading a traces file can raise: a gzip file's damaged or cut-off data is not OSError.
_READ_ERRORS = (OSError, EOFError, zlib.error)


def same_file(path: str, other: str | int) -> bool:
    """Whether ``path`` names the file ``other`` (a path or an open file's descriptor) is:
    a report or a spec is never written over the traces it comes from."""
    try:
        return os.path.samestat(os.stat(path), os.stat(other))
    except OSError:  # nothing there yet, or unreachable: not the other file
        return False


class StoppedError(Exception):
    """The run stopped before its end: a worker died or the traces could not be read.

    ``problem`` says what happened, ``first`` is the number of the first record not checked
    and ``advice`` ends the message; :meth:`TracesSource.stopped` says it with the record's
    place.
    """

    def __init__(self, problem: str, first: int, advice: str = "") -> None:
        super().__init__(problem, first, advice)
        self.problem = problem
        self.first = first
        self.advice = advice

    def __str__(self) -> str:
        return f"{self.problem}; {not_checked(self.first)}{self.advice}"


def not_checked(first_line: int) -> str:
    return f"the lines from line {first_line} on were not checked"


class TracesError(Exception):
    """TRACES cannot be read at all (missing, not gzip, not Parquet, a directory with no
    traces): the message names it; ``toolmatch check`` exits with status 2."""


LINE, ROW, ITEM = "line", "row", "item"


class Place(NamedTuple):
    """Where a record of TRACES is: its file, and its line, Parquet row or ``.json`` item.

    >>> str(Place("runs/a.jsonl", "line", 3)), str(Place("runs/b.parquet", "row", 7))
    ('runs/a.jsonl:3', 'runs/b.parquet:row 7')
    """

    file: str
    unit: str  # LINE, ROW or ITEM
    number: int  # 1-based

    def __str__(self) -> str:
        if self.unit == LINE:
            return f"{self.file}:{self.number}"
        return f"{self.file}:{self.unit} {self.number}"


class _Unreadable(NamedTuple):
    """An item that is a record found bad while its file was read (a ``.json`` file)."""

    message: str
    case: str | None = None


def read_item(item: object) -> object:
    """The record an item of :func:`trace_items` holds: a JSON Lines line (bytes) read as
    JSON; a Parquet row or a ``.json`` file's run, read already, as it is.

    Raises :class:`RecordError` for a line or record that cannot be read, in the words
    ``toolmatch check`` reports (docs/cli.md).

    >>> read_item(b'{"case": "lookup", "turns": []}\\n'), read_item({"case": "lookup"})
    ({'case': 'lookup', 'turns': []}, {'case': 'lookup'})
    >>> try:
    ...     read_item(b"[1, 2")
    ... except RecordError as error:
    ...     print(error)
    invalid JSON: Expecting ',' delimiter at column 6
    """
    if type(item) is bytes:  # a line, read with orjson when it can read it
        run = fast_loads(item)
        return run if run is not DECLINED else _read_line(item)
    if isinstance(item, _Unreadable):
        raise RecordError(item.message, item.case)
    return item


def _read_line(raw: bytes) -> object:
    """A line the fast parser declined: read as ``json`` reads it, or refused in its words."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"not UTF-8 text: byte {error.start} cannot be decoded") from None
    run = scan_object(text)  # a line of one JSON object, as most are
    if run is not None:
        return run
    text = text.rstrip("\r\n").lstrip("\ufeff")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"invalid JSON: {error.msg} at column {error.colno}") from None
    except RecursionError:
        try:
            _, case = _deep_value(text, _SPACE.match(text).end())  # type: ignore[union-attr]
        except ValueError:
            case = None
        raise RecordError(_TOO_DEEP, case) from None
    except ValueError as error:  # valid JSON, but an integer too long for Python to read
        name, message = _too_long_integer(text, error, _SPACE.match(text).end())  # type: ignore[union-attr]
        raise RecordError(message, name) from None


def _too_long_integer(text: str, error: ValueError, start: int) -> tuple[str | None, str]:
    """The case and the message for JSON text that json refused with a ``ValueError``.

    Python reads integers of at most ``sys.get_int_max_str_digits()`` digits; the value at
    ``start`` is read again with its integers only measured, so that the error names the
    run's case.
    """
    longest = 0

    def measure(digits: str) -> None:
        nonlocal longest
        longest = max(longest, len(digits.lstrip("-")))

    run, _ = json.JSONDecoder(parse_int=measure).raw_decode(text, start)
    name = run.get("case") if isinstance(run, dict) else None
    limit = sys.get_int_max_str_digits()
    if longest <= limit:  # not the digit limit after all: an error nobody expected
        raise error
    message = (
        f"a number of {longest:,} digits is longer than the {limit:,} digits Python reads; "
        "PYTHONINTMAXSTRDIGITS=0 lifts the limit"
    )
    return (name if isinstance(name, str) else None), message


_TOO_DEEP = "invalid JSON: nested too deeply"
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STRUCTURE = re.compile(r'["\[\]{}]')
_CASE_VALUE = re.compile(r'[ \t\n\r]*:[ \t\n\r]*("[^"\\]*(?:\\.[^"\\]*)*")', re.DOTALL)


def _deep_value(text: str, start: int) -> tuple[int, str | None]:
    """Where the JSON value at ``start``, nested too deeply for ``json`` to read, ends, and
    the ``"case"`` its top level names: found by its brackets alone, without recursion, so
    that the run is reported as its case's and the runs after it are still read.

    Raises ``ValueError`` when its brackets or a string never close.

    >>> _deep_value('{"turns": [[[]]], "case": "lookup"} []', 0)
    (35, 'lookup')
    """
    depth = 0
    case = None
    position = start
    while True:
        found = _STRUCTURE.search(text, position)
        if found is None:
            raise ValueError("the value never ends")
        if found.group() == '"':
            string = _STRING.match(text, found.start())
            if string is None:
                raise ValueError("a string never ends")
            position = string.end()
            # At the top of an object, a string followed by a colon is a key.
            if depth == 1 and text[start] == "{" and string.group() == '"case"':
                value = _CASE_VALUE.match(text, position)
                if value is not None:
                    position = value.end()
                    with suppress(ValueError):
                        case = json.loads(value.group(1))
            continue
        position = found.end()
        depth += 1 if found.group() in "[{" else -1
        if depth == 0:
            return position, case


def _reason(error: BaseException) -> str:
    return str(getattr(error, "strerror", None) or error)


# Kinds of trace files ------------------------------------------------------------------------


class _Kind(NamedTuple):
    unit: str  # what its records are numbered by
    open: Callable[[str], Any]
    read: Callable[[Any, str, TracesSource, Collection[str] | None], Iterator[Block]]


class _LinesFile(NamedTuple):
    lines: IO[bytes]
    packed: IO[bytes] | None  # under gzip, the file on disk, whose position the progress shows
    at: tuple[str, tuple[int, int]] | None = None  # the file on disk its lines are read from

    def close(self) -> None:
        self.lines.close()
        if self.packed is not None:
            self.packed.close()


_READ_BUFFER = 1 << 20


def _open_lines(path: str) -> _LinesFile:
    # A large buffer: fewer reads, each of which lets another thread take the GIL (the
    # --jobs pool's), and this thread then waits to get it back.
    lines = open(path, "rb", buffering=_READ_BUFFER)  # noqa: SIM115  # trace_items closes it
    return _LinesFile(lines, None, _on_disk(lines, path))


def _open_gzip_lines(path: str) -> _LinesFile:
    import gzip

    packed = open(path, "rb")  # noqa: SIM115  # trace_items closes it
    try:
        lines = gzip.GzipFile(fileobj=packed, mode="rb")
        lines.peek(1)  # not a gzip file: fail here, as open() fails for a missing one
    except BaseException:
        packed.close()
        raise
    return _LinesFile(lines, packed)  # type: ignore[arg-type]  # a GzipFile reads as IO[bytes]


def _read_lines(
    file: _LinesFile, path: str, source: TracesSource, columns: Collection[str] | None
) -> Iterator[Block]:
    return _line_blocks(file.lines, path, source, file.packed, file.at)


class Span(Record):
    """Where a block of lines is in a file on disk: what a ``--jobs`` worker is sent for
    :class:`Lines` read there. It reads them again itself, instead of the main process
    copying them to it through a pipe, and finds out a file replaced meanwhile (by its
    device and inode, ``file``), cut short, or rewritten so that the lines counted are no
    longer there (not as many, or not whole). The main process never reads the bytes again.

    >>> Span("runs.jsonl", (2049, 1234), 0, 4096, 3).lines
    3
    """

    __slots__ = _fields = ("path", "file", "offset", "size", "lines")
    path: str
    file: tuple[int, int]
    offset: int
    size: int
    lines: int

    def read(self) -> Lines:
        """The lines again; ``OSError`` when the file no longer holds the lines counted."""
        with open(self.path, "rb") as file:
            status = os.fstat(file.fileno())
            before = self.offset > 0  # the byte before the block, which ends a line
            file.seek(self.offset - before)
            data = file.read(self.size + before)
        if before:
            before = data[:1] != b"\n"
            data = data[1:]
        lines = BytesIO(data).readlines()
        if (
            before
            or (status.st_dev, status.st_ino) != self.file
            or len(data) != self.size
            or len(lines) != self.lines
        ):
            raise OSError("the file changed while it was checked")
        return Lines(lines, self.size)


class Lines:
    """A block of JSON Lines read at once: each line's bytes, blank ones too, their
    ``size`` in bytes, and, read from a file on disk, where they are (its :class:`Span`,
    which is what it pickles as: the main process sends a worker no bytes of it).

    >>> list(Lines([b'{"case": "a"}\\n', b"\\n"], 15))
    [b'{"case": "a"}\\n', b'\\n']
    """

    # Not a list: a list's subclass copies the lines it is made of.
    __slots__ = ("lines", "size", "span")

    def __init__(self, lines: list[bytes], size: int, span: Span | None = None) -> None:
        self.lines = lines
        self.size = size
        self.span = span

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.lines)

    def __len__(self) -> int:
        return len(self.lines)

    def __reduce__(self) -> tuple[Any, ...]:
        span = self.span
        return (Lines, (self.lines, self.size)) if span is None else span.__reduce__()

    def split(self, count: int) -> tuple[Lines, Lines]:
        """The first ``count`` lines and the rest, each with its place in the file."""
        first = self.lines[:count]
        taken = sum(map(len, first))
        head, tail = Lines(first, taken), Lines(self.lines[count:], self.size - taken)
        span = self.span
        if span is not None:
            path, file, offset = span.path, span.file, span.offset
            head.span = Span(path, file, offset, taken, count)
            tail.span = Span(path, file, offset + taken, tail.size, span.lines - count)
        return head, tail


class Rows(list):  # type: ignore[type-arg]  # of records
    """A batch of Parquet rows read at once, each a record (a dict): one block for many
    rows, so that the report writes them at once, as it writes a block of lines.

    >>> Rows([{"case": "a"}, {"case": "b"}])
    [{'case': 'a'}, {'case': 'b'}]
    """

    __slots__ = ()


# Bytes asked of a file at a time. A block holds the whole lines of what one read gave, so
# a --jobs task is a few blocks, not an object per line, and a pipe's lines are judged as
# they come: a read gives what is there.
_BLOCK = 1 << 16


def _line_blocks(
    file: IO[bytes],
    path: str,
    source: TracesSource,
    packed: IO[bytes] | None = None,
    at: tuple[str, tuple[int, int]] | None = None,  # the file on disk they are read from
) -> Iterator[Block]:
    start = source.bytes
    offset = 0
    pieces: list[bytes] = []  # a line read only in part so far

    def counted(lines: list[bytes], size: int) -> Block:
        nonlocal offset
        first = source.lines + 1
        count = len(lines)
        source.lines += count
        span = None if at is None else Span(*at, offset, size, count)
        offset += size
        if packed is None:
            source.bytes += size
        else:
            source.bytes = start + packed.tell()
        return first, count, Lines(lines, size, span)

    carried = 0  # the bytes of pieces
    try:
        while True:
            data = file.read1(_BLOCK)  # type: ignore[attr-defined]  # a buffered reader
            if not data:
                break
            if data.find(b"\n") < 0:  # the middle of a line longer than a read
                pieces.append(data)
                carried += len(data)
                continue
            # Split at b"\n" only, each line keeping its end (bytes.splitlines splits at
            # b"\r" too).
            lines = BytesIO(data).readlines()
            size = carried + len(data)
            if pieces:
                pieces.append(lines[0])
                lines[0] = b"".join(pieces)
                pieces.clear()
                carried = 0
            if lines[-1][-1] != _NEWLINE:
                rest = lines.pop()
                pieces.append(rest)
                carried = len(rest)
                size -= carried
            yield counted(lines, size)
        if pieces:  # the last line has no newline
            yield counted([b"".join(pieces)], carried)
    except _READ_ERRORS as error:
        raise StoppedError(
            f"cannot read the traces {path}: {_reason(error)}", source.lines + 1
        ) from None


_NEWLINE = ord("\n")


def _on_disk(file: IO[bytes], path: str) -> tuple[str, tuple[int, int]] | None:
    """``path`` and its device and inode when ``file`` is a regular file, which a worker can
    read again."""
    status = os.fstat(file.fileno())
    return (path, (status.st_dev, status.st_ino)) if stat.S_ISREG(status.st_mode) else None


def lines_of(first: int, block: Lines) -> Iterator[tuple[int, bytes]]:
    """The lines of a block of JSON Lines that are not blank, each with its number.

    >>> list(lines_of(7, Lines([b'{"case": "a"}\\n', b"\\n", b"  \\r\\n", b'{"case": "b"}'], 32)))
    [(7, b'{"case": "a"}\\n'), (10, b'{"case": "b"}')]
    """
    number = first
    for line in block:
        if not line.isspace():  # the file gives no empty line; isspace stops at a '{'
            yield number, line
        number += 1


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_BOM = b"\xef\xbb\xbf"


def _read_json(
    file: IO[bytes], path: str, source: TracesSource, columns: Collection[str] | None
) -> Iterator[Block]:
    """A ``.json`` file: a JSON array of runs, one run, or JSON Lines (as Spark and Ray
    write ``.json`` files), told apart by its first line that is not blank."""
    peeked: list[bytes] = []
    try:
        for raw in file:
            peeked.append(raw)
            if raw.strip():
                break
        first = peeked[-1].removeprefix(_BOM).lstrip() if peeked else b""
        document = first.startswith(b"[")
        try:
            json.loads(first)
        except json.JSONDecodeError:  # the first line is not a value by itself
            document = True
        except (ValueError, RecursionError):  # a value, if one too big or deep for Python
            pass
        if not document:
            file.seek(0)  # a file on disk: read from its start again, by blocks
            yield from _line_blocks(file, path, source, at=_on_disk(file, path))
            return
        data = b"".join(peeked) + file.read()
    except _READ_ERRORS as error:
        raise StoppedError(
            f"cannot read the traces {path}: {_reason(error)}", source.lines + 1
        ) from None
    source.bytes += len(data)
    yield from _json_document(data, path, source)


class _BadTextError(Exception):
    def __init__(self, message: str, line: int, case: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        self.case = case


class _TooDeepError(_BadTextError):
    """A value nested too deeply to read, whose end was found: what follows can be read."""

    def __init__(self, line: int, case: str | None, end: int) -> None:
        super().__init__(_TOO_DEEP, line, case)
        self.end = end


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _decoded(text: str, start: int) -> tuple[object, int]:
    """The JSON value at ``start`` and where it ends, or a :class:`_BadTextError` at its line."""
    try:
        return _DECODER.raw_decode(text, start)
    except json.JSONDecodeError as error:
        raise _BadTextError(
            f"invalid JSON: {error.msg} at column {error.colno}", error.lineno
        ) from None
    except RecursionError:
        line = _line_of(text, start)
        try:
            end, case = _deep_value(text, start)
        except ValueError:
            raise _BadTextError(_TOO_DEEP, line) from None
        raise _TooDeepError(line, case, end) from None
    except ValueError as error:  # an integer too long for Python to read
        name, message = _too_long_integer(text, error, start)
        raise _BadTextError(message, _line_of(text, start), name) from None


def _extra(text: str, position: int, message: str = "Extra data") -> _BadTextError:
    error = json.JSONDecodeError(message, text, position)
    return _BadTextError(f"invalid JSON: {error.msg} at column {error.colno}", error.lineno)


def _json_document(data: bytes, path: str, source: TracesSource) -> Iterator[Block]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        byte = error.start - (data.rfind(b"\n", 0, error.start) + 1)
        yield source.bad_record(path, line, f"not UTF-8 text: byte {byte} cannot be decoded")
        return
    text = text.removeprefix("\ufeff")
    start = _SPACE.match(text).end()  # type: ignore[union-attr]  # it matches anywhere
    if start == len(text):  # an empty file (Spark writes one for an empty partition)
        return
    if not text.startswith("[", start):
        yield from _json_run(text, start, path, source)
    else:
        yield from _json_array(text, start, path, source)


def _json_run(text: str, start: int, path: str, source: TracesSource) -> Iterator[Block]:
    """A ``.json`` file holding one run, from ``start``; a bad record when it is not one."""
    try:
        run, end = _decoded(text, start)
        if _SPACE.match(text, end).end() < len(text):  # type: ignore[union-attr]
            raise _extra(text, _SPACE.match(text, end).end())  # type: ignore[union-attr]
    except _BadTextError as bad:
        yield source.bad_record(path, bad.line, str(bad), bad.case)
        return
    yield source.record(path, LINE, _line_of(text, start), run)


def _json_array(text: str, start: int, path: str, source: TracesSource) -> Iterator[Block]:
    """A ``.json`` file holding an array of runs, ``[`` at ``start``, read a run at a time:
    a bad one ends it, since its end cannot be known."""
    position = _SPACE.match(text, start + 1).end()  # type: ignore[union-attr]
    number = 0
    try:
        if text.startswith("]", position):
            position += 1
        else:
            while True:
                number += 1
                try:
                    run, end = _decoded(text, position)
                except _TooDeepError as deep:  # reported as its case's run; the next is read
                    run, end = _Unreadable(str(deep), deep.case), deep.end
                yield source.record(path, ITEM, number, run)
                position = _SPACE.match(text, end).end()  # type: ignore[union-attr]
                if text.startswith(",", position):
                    position = _SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
                elif text.startswith("]", position):
                    position += 1
                    break
                else:
                    raise _extra(text, position, "Expecting ',' delimiter")
    except _BadTextError as bad:
        message = f"{bad}; the rest of the array was not read"
        yield source.bad_record(path, bad.line, message, bad.case)
        return
    rest = _SPACE.match(text, position).end()  # type: ignore[union-attr]
    if rest < len(text):
        extra = _extra(text, rest)
        yield source.bad_record(path, extra.line, str(extra))


_ROWS_PER_BATCH = 1024  # Parquet rows turned into Python at a time: memory stays flat
_PARQUET_EXTRA = 'pip install "toolmatch[parquet]"'


def _parquet() -> Any:
    try:
        import pyarrow.parquet
    except ImportError:
        raise ImportError(f"reading Parquet needs pyarrow: {_PARQUET_EXTRA}") from None
    return pyarrow.parquet


def _open_parquet(path: str) -> Any:
    return _parquet().ParquetFile(path)


def _read_parquet(
    file: Any, path: str, source: TracesSource, columns: Collection[str] | None
) -> Iterator[Block]:
    import pyarrow

    rows = file.metadata.num_rows
    size = source.sizes.get(path, 0)
    start = source.bytes
    wanted = None
    if columns is not None:
        wanted = [name for name in file.schema_arrow.names if name in columns]
    done = 0
    try:
        batches = file.iter_batches(batch_size=_ROWS_PER_BATCH, columns=wanted)
        for batch in _read_ahead(batches):
            done += batch.num_rows
            source.bytes = start + size * done // max(rows, 1)  # as much as the rows read
            if batch.num_rows:
                first = source.lines + 1
                source.lines += batch.num_rows
                yield first, batch.num_rows, Rows(batch.to_pylist())
    except (OSError, pyarrow.ArrowException) as error:
        raise StoppedError(
            f"cannot read the traces {path}: {_reason(error)}", source.lines + 1
        ) from None


def _read_ahead(batches: Iterator[Any]) -> Iterator[Any]:
    """``batches``, the next one decoded in a thread while the caller checks this one:
    pyarrow decodes without the GIL, so on a second core the decoding costs no wall time,
    and two batches at most are held."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="toolmatch-parquet") as pool:
        pending = pool.submit(next, batches, None)
        while (batch := pending.result()) is not None:
            pending = pool.submit(next, batches, None)
            yield batch


_JSON_LINES = _Kind(LINE, _open_lines, _read_lines)
_GZIP_LINES = _Kind(LINE, _open_gzip_lines, _read_lines)
_JSON = _Kind(LINE, lambda path: open(path, "rb", buffering=_READ_BUFFER), _read_json)  # noqa: SIM115
_PARQUET = _Kind(ROW, _open_parquet, _read_parquet)

# The files a directory's traces are, by the end of their names, longest first.
_IN_A_DIRECTORY = (
    (".jsonl.gz", _GZIP_LINES),
    (".jsonl", _JSON_LINES),
    (".json", _JSON),
    (".parquet", _PARQUET),
)
_TRACE_NAMES = ".jsonl, .jsonl.gz, .json or .parquet"
_SHOWN_SKIPPED = 3


def _kind_of_file(path: str) -> _Kind:
    """A file named as TRACES: any name but these is JSON Lines, as it always was."""
    if path.endswith(".parquet"):
        return _PARQUET
    if path.endswith(".json"):
        return _JSON
    if path.endswith(".gz"):
        return _GZIP_LINES
    return _JSON_LINES


def _kind_in_directory(name: str) -> _Kind | None:
    return next((kind for ending, kind in _IN_A_DIRECTORY if name.endswith(ending)), None)


def _open_errors(kind: _Kind) -> tuple[type[BaseException], ...]:
    if kind is _PARQUET:
        import pyarrow

        return (*_READ_ERRORS, pyarrow.ArrowException)
    return _READ_ERRORS


class TracesSource:
    """TRACES being read: its files, where each record came from, and the records (lines,
    rows, items) and bytes read so far.

    ``TracesSource(path)`` takes a file, a directory or ``-`` for standard input. A
    directory's files are every ``*.jsonl``, ``*.jsonl.gz``, ``*.json`` and ``*.parquet``
    under it, in sorted order, but for the files ``besides`` names (such as the spec); one
    named alone is opened now, so that a file that cannot be read fails before anything is
    checked; ``stdin`` is what ``-`` reads instead of standard input (a copy, read twice by
    ``--update``). Raises :class:`TracesError` saying why TRACES cannot be read. Records are
    numbered from 1 across all the files; :meth:`place` says where a number is.
    """

    def __init__(
        self, path: str, besides: Collection[str] = (), stdin: IO[bytes] | None = None
    ) -> None:
        self.stdin = path == "-"
        self.name = "<stdin>" if self.stdin else path
        self.lines = 0  # every record read so far: lines (blank ones too), rows, items
        self.bytes = 0  # of the files on disk
        self.directory = not self.stdin and os.path.isdir(path)
        self.skipped: list[str] = []  # a directory's files that are not traces
        # A directory's files and folders reached again through a link: the path, what it
        # is ("file" or "folder") and the path it was read at.
        self.again: list[tuple[str, str, str]] = []
        self.sizes: dict[str, int] = {}
        self._files: list[tuple[str, _Kind]] = []
        self._opened: Any = None  # the file named alone, opened
        self._firsts: list[int] = []  # each segment's first number
        self._segments: list[tuple[str, str, int]] = []  # its file, unit, first place number
        if self.stdin:
            self._files.append((self.name, _JSON_LINES))
            self._opened = _LinesFile(sys.stdin.buffer if stdin is None else stdin, None)
            return
        if self.directory:
            self._list(path, besides)
            return
        kind = _kind_of_file(path)
        self._files.append((path, kind))
        try:
            self._opened = kind.open(path)
            self.sizes[path] = os.stat(path).st_size
        except ImportError as error:
            raise TracesError(f"cannot read the traces {path}: {error}") from None
        except _open_errors(kind) as error:
            if self._opened is not None:
                self._opened.close()
            raise TracesError(f"cannot read the traces {path}: {_reason(error)}") from None

    def _list(self, folder: str, besides: Collection[str]) -> None:
        others = set()
        for other in besides:
            with suppress(OSError):  # nothing there: nothing to leave out
                status = os.stat(other)
                others.add((status.st_dev, status.st_ino))
        try:
            self._walk(folder, others)
        except OSError as error:
            where = error.filename if isinstance(error.filename, str) else folder
            raise TracesError(f"cannot read the traces {where}: {_reason(error)}") from None
        if not self._files:
            raise TracesError(
                f"no traces in the directory {folder}: no {_TRACE_NAMES} file under it"
            )
        if any(kind is _PARQUET for _, kind in self._files):
            try:
                _parquet()
            except ImportError as error:
                first = next(path for path, kind in self._files if kind is _PARQUET)
                raise TracesError(f"cannot read the traces {first}: {error}") from None

    def _walk(self, top: str, others: set[tuple[int, int]]) -> None:
        """Lists the trace files under ``top``, depth first in sorted order, each real file
        and folder once (by device and inode): a folder reached again through a link is
        skipped whole, so the walk takes time in proportion to the folders, not to the
        ways there. No recursion: a folder may be nested deeper than Python recurses."""

        def entries(directory: str) -> Iterator[os.DirEntry[str]]:
            with os.scandir(directory) as scanned:
                return iter(sorted(scanned, key=lambda entry: entry.name))

        def key_of(status: os.stat_result) -> tuple[int, int]:
            return status.st_dev, status.st_ino

        listed: dict[tuple[int, int], str] = {}  # each file listed, with its path
        walked: dict[tuple[int, int], str] = {}  # each folder walked, with its path
        top_key = key_of(os.stat(top))
        walked[top_key] = top
        inside = {top_key}  # the folders the walk is in: a link to one would loop
        stack = [(top_key, entries(top))]
        while stack:
            folder_key, pending = stack[-1]
            entry = next(pending, None)
            if entry is None:
                stack.pop()
                inside.discard(folder_key)
                continue
            if entry.name.startswith((".", "_")):  # hidden, or a writer's own (_SUCCESS)
                continue
            if entry.is_dir():
                key = key_of(entry.stat())
                if key in inside:  # a link to a folder it is in: never followed, quietly
                    continue
                first = walked.get(key)
                if first is not None:  # through a link: each of its runs would count twice
                    self.again.append((entry.path, "folder", first))
                    continue
                walked[key] = entry.path
                inside.add(key)
                stack.append((key, entries(entry.path)))
                continue
            kind = _kind_in_directory(entry.name)
            if kind is None or not entry.is_file():
                self.skipped.append(entry.path)
                continue
            status = entry.stat()
            key = key_of(status)
            if key in others:  # the spec, say: not traces
                continue
            first = listed.get(key)
            if first is not None:  # through a link: its runs would count twice
                self.again.append((entry.path, "file", first))
                continue
            listed[key] = entry.path
            self._files.append((entry.path, kind))
            self.sizes[entry.path] = status.st_size

    @property
    def size(self) -> int | None:
        """The bytes of all the files, for the progress bar; ``None`` for standard input."""
        return None if self.stdin else sum(self.sizes.values())

    @property
    def files(self) -> list[str]:
        """The files read, in order (empty for standard input)."""
        return [] if self.stdin else [path for path, _ in self._files]

    def warnings(self) -> list[str]:
        """Lines saying which entries of a directory were skipped, if any were: those that
        are no trace file, then each file reached again through a link."""
        lines = []
        if len(self.skipped) == 1:
            lines.append(f"skipped {self.skipped[0]}: not a {_TRACE_NAMES} file")
        elif self.skipped:
            shown = ", ".join(self.skipped[:_SHOWN_SKIPPED])
            if len(self.skipped) > _SHOWN_SKIPPED:
                shown += f" and {len(self.skipped) - _SHOWN_SKIPPED} more"
            lines.append(
                f"skipped {len(self.skipped)} entries of {self.name} that are not "
                f"{_TRACE_NAMES} files: {shown}"
            )
        lines += (f"skipped {path}: the same {what} as {first}" for path, what, first in self.again)
        return lines

    def close(self) -> None:
        if self._opened is not None:
            self._opened.close()
            self._opened = None

    def __enter__(self) -> TracesSource:
        return self

    def __exit__(self, *exception: object) -> None:
        self.close()

    def begin(self, path: str, unit: str, first_place: int = 1) -> None:
        """The next records are ``path``'s, numbered by ``unit`` from ``first_place`` on."""
        self._firsts.append(self.lines + 1)
        self._segments.append((path, unit, first_place))

    def record(self, path: str, unit: str, place: int, record: object) -> Block:
        """One record read whole at ``place`` (a ``.json`` file's), numbered."""
        if not self._segments or self._segments[-1][:2] != (path, unit) or unit == LINE:
            self.begin(path, unit, place)
        self.lines += 1
        return self.lines, 1, record

    def bad_record(self, path: str, line: int, message: str, case: str | None = None) -> Block:
        return self.record(path, LINE, line, _Unreadable(message, case))

    def place(self, number: int) -> Place:
        """Where the record numbered ``number`` is."""
        index = bisect_right(self._firsts, number) - 1
        if index < 0:  # nothing read yet: the first file's start
            path, kind = self._files[0]
            return Place(path, kind.unit, 1)
        path, unit, first_place = self._segments[index]
        return Place(path, unit, first_place + number - self._firsts[index])

    def not_checked(self, number: int) -> str:
        """From which record on nothing was checked, for a run that stopped early."""
        place = self.place(number)
        if self.directory:
            return f"the runs from {place} on were not checked"
        return f"the {place.unit}s from {place.unit} {place.number} on were not checked"

    def stopped(self, error: StoppedError) -> str:
        """The message of a run that stopped early, with the place it stopped at."""
        return f"{error.problem}; {self.not_checked(error.first)}{error.advice}"


def trace_blocks(source: TracesSource, columns: Collection[str] | None = None) -> Iterator[Block]:
    """Every record of TRACES, numbered from 1 across its files, in blocks as read.

    A block is ``(first, count, item)``: the number of its first record, how many numbers
    it takes, and its item: :class:`Lines` of JSON Lines (:func:`lines_of` gives those not
    blank, with their numbers), :class:`Rows` of Parquet (dicts, read in batches of rows so
    memory stays flat), or one record: a run of a ``.json`` file. :func:`read_item` gives a
    line's or an item's record, and ``source.place(number)`` its file and line, row or item.
    ``columns`` are the top-level fields a record needs: Parquet files read only those
    columns (all, when ``None``). Files of a directory are opened as they come; one that
    cannot be read raises :class:`StoppedError`, as a file cut off does.

    >>> import json, pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.jsonl").write_text('{"case": "x", "turns": []}\\n\\n{"case": "y"}\\n')
    >>> _ = (folder / "b.json").write_text(json.dumps([{"case": "z", "turns": []}]))
    >>> with TracesSource(str(folder)) as source:
    ...     for first, count, item in trace_blocks(source):
    ...         print(first, count, os.path.basename(source.place(first).file), type(item))
    1 3 a.jsonl <class 'toolmatch._runs.traces.Lines'>
    4 1 b.json <class 'dict'>
    """
    for path, kind in source._files:
        source.begin(path, kind.unit)
        opened, source._opened = source._opened, None
        try:
            if opened is None:
                try:
                    opened = kind.open(path)
                except _open_errors(kind) as error:
                    raise StoppedError(
                        f"cannot read the traces {path}: {_reason(error)}", source.lines + 1
                    ) from None
            done = source.bytes
            yield from kind.read(opened, path, source, columns)
            if path in source.sizes:
                source.bytes = done + source.sizes[path]
        finally:
            if opened is not None:
                opened.close()


def trace_items(
    source: TracesSource, columns: Collection[str] | None = None
) -> Iterator[tuple[int, object]]:
    """Every record of :func:`trace_blocks`, as ``(number, item)``: a JSON Lines line's
    bytes (blank lines skipped, but numbered) or a record read already.

    >>> import pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.jsonl").write_text('{"case": "x", "turns": []}\\n\\n{"case": "y"}\\n')
    >>> _ = (folder / "b.json").write_text('[{"case": "z", "turns": []}]')
    >>> with TracesSource(str(folder)) as source:
    ...     for number, item in trace_items(source):
    ...         file, unit, place = source.place(number)
    ...         print(number, os.path.basename(file), unit, place, read_item(item)["case"])
    1 a.jsonl line 1 x
    3 a.jsonl line 3 y
    4 b.json item 1 z
    """
    for first, _, item in trace_blocks(source, columns):
        if type(item) is Lines:
            yield from lines_of(first, item)
        elif type(item) is Rows:
            yield from enumerate(item, first)
        else:
            yield first, item
