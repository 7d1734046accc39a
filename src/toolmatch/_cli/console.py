"""What the commands write on the standard streams: messages on stderr, escaped so that no
value can forge a line, and data (a spec) on stdout exactly as a file would get it."""

from __future__ import annotations

import sys

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from toolmatch._spec.errors import ConfigError

    _T = TypeVar("_T")

__all__ = ["Stop", "config_problems", "fail", "printable", "read_input", "write_stdout"]


class Stop(Exception):  # noqa: N818  # not an error: how a step ends the command
    """Raised by a step of a command that ends it, its reason printed already: the command
    exits with ``status``.

    >>> Stop(2).status
    2
    """

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def printable(text: str) -> str:
    """``text`` with what could break or forge a report line (newlines, carriage returns,
    terminal escapes, any unprintable character) escaped as a Python repr escapes it."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def config_problems(error: ConfigError) -> int:
    """Print each problem of a spec that does not load on a line of its own, escaped,
    whatever the spec's names and values hold; the exit status of a bad spec, 2."""
    for problem in error.problems:
        print(printable(str(type(error)([problem], error.source))), file=sys.stderr)
    return 2


def fail(message: str) -> int:
    """Print ``toolmatch: message`` on stderr, escaped; the exit status of a bad input, 2."""
    print(printable(f"toolmatch: {message}"), file=sys.stderr)
    return 2


def read_input(read: Callable[[], _T]) -> _T:
    """What ``read()`` reads; a file it cannot read, or input it refuses with a ``TypeError``
    or ``ValueError``, ends the command (:class:`Stop`, exit status 2) saying why."""
    try:
        return read()
    except OSError as error:
        raise Stop(fail(f"cannot read {error.filename}: {error.strerror or error}")) from None
    except (TypeError, ValueError) as error:
        raise Stop(fail(str(error))) from None


def write_stdout(text: str) -> None:
    """``text`` on standard output as UTF-8, as a file gets it, whatever the console's
    encoding: a spec is data, and an escaped character would change it."""
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()
