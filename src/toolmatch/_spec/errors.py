"""The errors and warnings a spec reports while loading, and the collector that gathers them.

Every mistake in a file is found while loading, with the exact path to it, and all of a
file's mistakes are reported together in one :class:`ConfigError`.
"""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["ConfigError", "ConfigProblem", "Problems", "SpecWarning"]


@public
class ConfigProblem:
    """One mistake in a configuration: where (``path``) and what is wrong (``message``).

    >>> print(ConfigProblem("args.amount.regex", "invalid regular expression '('"))
    args.amount.regex: invalid regular expression '('
    """

    __slots__ = ("path", "message")

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        self.message = message

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"

    def __repr__(self) -> str:
        return f"ConfigProblem({self.path!r}, {self.message!r})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return (self.path, self.message) == (other.path, other.message)

    def __hash__(self) -> int:
        return hash((self.path, self.message))


@public
class ConfigError(ValueError):
    """A configuration that cannot be loaded; lists every problem found, one per line.

    >>> try:
    ...     matcher_from_config({"fuzzy": 206588}, path="args.a")
    ... except ConfigError as error:
    ...     print(error)
    args.a.fuzzy: must be a string, got 206588 (int); quote it: "206588"
    """

    def __init__(self, problems: list[ConfigProblem], source: str | None = None) -> None:
        self.problems = list(problems)
        self.source = source
        lines = [str(problem) for problem in self.problems]
        if source is not None:
            lines = [f"{source}: {line}" for line in lines]
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[Any, ...]:
        # BaseException's would call ConfigError(message): problems are what it is made of.
        return (type(self), (self.problems, self.source), self.__dict__)

    def __repr__(self) -> str:
        # BaseException's would show ConfigError(message), which no constructor call takes.
        source = "" if self.source is None else f", source={self.source!r}"
        return f"ConfigError({self.problems!r}{source})"


class Problems:
    """Collects problems (and warnings) while loading, so one run reports all of a file's."""

    def __init__(self) -> None:
        self.found: list[ConfigProblem] = []
        self.warnings: list[ConfigProblem] = []

    def add(self, path: str, message: str) -> None:
        self.found.append(ConfigProblem(path, message))

    def wrong(self, path: str, expected: str, value: object) -> None:
        """A problem at ``path``: what was ``expected``, then the ``value`` found, and its type."""
        self.add(path, f"{expected}, got {short_repr(value)} ({type_name(value)})")

    def warn(self, path: str, message: str) -> None:
        self.warnings.append(ConfigProblem(path, message))

    def raise_if_any(self, source: str | None = None) -> None:
        if self.found:
            raise ConfigError(self.found, source)

    def spec_warnings(self, source: str | None = None) -> list[SpecWarning]:
        return [SpecWarning(found.path, found.message, source) for found in self.warnings]

    def emit_warnings(self, source: str | None = None, stacklevel: int = 2) -> None:
        """Each warning as a :class:`SpecWarning`, through :mod:`warnings`."""
        if self.warnings:
            import warnings

            for warning in self.spec_warnings(source):
                warnings.warn(warning, stacklevel=stacklevel + 1)


@public
class SpecWarning(UserWarning):
    """A spec that loads, written in a way whose meaning changed: ``path`` and ``message``.

    Loading a spec warns once for each place that toolmatch 0.1 read as a matcher and that
    is data now, naming the ``$`` spelling; see docs/config.md.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     days = matcher_from_config({"days": {"approx": 3}})
    >>> print(caught[0].message.path, "--", caught[0].message.message.partition(";")[0])
    args.days -- {approx: ...} is data now, not the approx matcher toolmatch 0.1 read
    >>> days == {"days": {"approx": 3}}
    True
    """

    def __init__(self, path: str, message: str, source: str | None = None) -> None:
        self.path = path
        self.message = message
        self.source = source
        text = f"{path}: {message}"
        super().__init__(text if source is None else f"{source}: {text}")

    def __reduce__(self) -> tuple[Any, ...]:
        # BaseException's would call SpecWarning(text): these three are what it is made of.
        return (type(self), (self.path, self.message, self.source), self.__dict__)

    def __repr__(self) -> str:
        source = "" if self.source is None else f", source={self.source!r}"
        return f"SpecWarning({self.path!r}, {self.message!r}{source})"
