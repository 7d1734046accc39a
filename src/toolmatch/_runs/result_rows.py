"""The rows ``toolmatch check --format json`` wrote, read back from their files (plain or
``.gz``): for ``toolmatch report`` and for ``--baseline``, whoever wrote them (one process,
``--jobs``, batches of Ray or Spark each writing a file)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    import hashlib

__all__ = ["ResultsError", "read_rows"]


class ResultsError(Exception):
    """A results file that cannot be read, or holds what ``--format json`` does not write."""


_WHAT = "a file that toolmatch check --format json wrote"


def read_rows(
    path: str, digest: hashlib._Hash | None = None, *, passing: bytes | None = None
) -> Iterator[tuple[int, dict[str, object]]]:
    """Each row of the results file at ``path`` with its line number, blank lines skipped;
    ``digest`` is updated with the file's bytes (uncompressed) as they are read. A line that
    opens with ``passing`` (a row's head as toolmatch writes it, ``b'{"type": "case"'``) is
    passed over unparsed.

    >>> import tempfile, os
    >>> folder = tempfile.mkdtemp()
    >>> with open(os.path.join(folder, "r.jsonl"), "w") as file:
    ...     _ = file.write('{"type": "missing", "case": "a"}\\n\\n')
    >>> list(read_rows(os.path.join(folder, "r.jsonl")))
    [(1, {'type': 'missing', 'case': 'a'})]
    >>> list(read_rows(os.path.join(folder, "r.jsonl"), passing=b'{"type": "missing"'))
    []
    """
    import gzip

    try:
        file = gzip.open(path, "rb") if path.endswith(".gz") else open(path, "rb")  # noqa: SIM115
    except OSError as error:
        raise ResultsError(f"cannot read {path}: {error.strerror or error}") from None
    with file:
        number = 0
        try:
            for number, line in enumerate(file, 1):
                if digest is not None:
                    digest.update(line)
                if not line.strip() or (passing is not None and line.startswith(passing)):
                    continue
                yield number, _row(path, number, line)
        except (OSError, EOFError) as error:
            why = getattr(error, "strerror", None) or error
            raise ResultsError(f"cannot read {path} after line {number}: {why}") from None


def _row(path: str, number: int, line: bytes) -> dict[str, object]:
    try:
        row = json.loads(line)
    except ValueError as error:  # UnicodeDecodeError included
        raise ResultsError(f"{path}:{number}: not JSON ({error}); pass {_WHAT}") from None
    if not isinstance(row, dict) or not isinstance(row.get("type"), str):
        got = short_repr(row) if not isinstance(row, dict) else "an object without a type"
        raise ResultsError(
            f"{path}:{number}: expected a row with a type, got {got} ({type_name(row)}); "
            f"pass {_WHAT}"
        )
    return row
