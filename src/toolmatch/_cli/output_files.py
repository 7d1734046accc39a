"""The files the commands write (a spec, a JUnit report): whole or not at all.

Each is written to a temporary file in its folder and renamed over PATH once complete, so
PATH keeps what it held until then, and a reader never sees half of one. Through a
symbolic link, the file it names is replaced; a file replaced keeps its permissions, a new
one gets a new file's. A PATH that is not a file, such as ``/dev/stdout`` or a named
pipe, is written to.
"""

from __future__ import annotations

import os
import stat

from toolmatch._cli.console import fail, write_stdout
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import IO, Any

__all__ = ["Replacement", "unchanged", "write_file", "write_output"]


class Replacement:
    """The file that replaces PATH, open for writing (``file``): :meth:`commit` puts it in
    PATH's place, :meth:`discard` removes it. Raises ``OSError`` when it cannot be made."""

    def __init__(self, path: str, mode: str = "w") -> None:
        import tempfile

        encoding = None if "b" in mode else "utf-8"
        try:
            found: os.stat_result | None = os.stat(path)
        except OSError:  # nothing there yet
            found = None
        self.file: IO[Any]
        if found is not None and not stat.S_ISREG(found.st_mode):  # (a folder fails here)
            self.destination = None
            self.file = open(path, mode, encoding=encoding)  # noqa: SIM115  # closed in commit()
            return
        self.destination = os.path.realpath(path) if os.path.islink(path) else path
        if found is not None:
            self.mode = found.st_mode & 0o7777
        else:
            umask = os.umask(0)
            os.umask(umask)
            self.mode = 0o666 & ~umask
        folder, name = os.path.split(os.path.abspath(self.destination))
        self.file = tempfile.NamedTemporaryFile(  # noqa: SIM115  # renamed in commit()
            mode, encoding=encoding, dir=folder, prefix=f".{name}.", suffix=".tmp", delete=False
        )

    def commit(self) -> None:
        """Closes the file and renames it over PATH (the temporary file is private to its
        owner until then)."""
        self.file.close()
        if self.destination is not None:
            os.chmod(self.file.name, self.mode)
            os.replace(self.file.name, self.destination)
            self.destination = None  # nothing left to discard

    def discard(self) -> None:
        """Closes the file and removes it, PATH untouched (nothing once committed)."""
        import contextlib

        with contextlib.suppress(OSError):  # a full disk fails the flush that closing makes
            self.file.close()
        if self.destination is not None:
            self.destination = None
            os.unlink(self.file.name)


def unchanged(path: str) -> str:
    """What a refusal adds about PATH: that it still holds what it held, when it held a file."""
    return f"; {path} is unchanged" if os.path.isfile(path) else ""


def write_file(path: str, text: str) -> str | None:
    """Writes ``text`` to ``path`` as UTF-8, whole or not at all; ``None``, or the refusal
    ``cannot write PATH: why`` (the ``OSError``'s words), PATH then as it was."""
    why = _write_whole(path, text)
    return None if why is None else f"cannot write {path}: {why}{unchanged(path)}"


def _write_whole(path: str, text: str) -> str | None:
    """Writes ``text`` to ``path`` as :func:`write_file` does; ``None``, or why it could not."""
    try:
        data = text.encode("utf-8")  # before anything is opened: a failure loses nothing
    except UnicodeEncodeError as error:
        return f"{error.reason}: {error.object[error.start : error.end]!r}"
    try:
        replacement = Replacement(path, "wb")
    except OSError as error:
        return str(error.strerror or error)
    try:
        replacement.file.write(data)
        replacement.commit()
    except OSError as error:
        replacement.discard()
        return str(error.strerror or error)
    except BaseException:  # Ctrl-C: no temporary file left behind either
        replacement.discard()
        raise
    return None


def write_output(path: str | None, text: str) -> int:
    """``text`` written to ``path`` (:func:`write_file`), or to standard output without one;
    the exit status, 2 when it could not be written (said on stderr)."""
    if path is None:
        write_stdout(text)
        return 0
    refused = write_file(path, text)
    return 0 if refused is None else fail(refused)
