"""What the importers share: reading a benchmark's JSON, and writing values a spec keeps."""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._spec.matcher_keys import matcher_key

if TYPE_CHECKING:
    from typing import Any

__all__ = ["case_name", "escaped", "exact_name", "holds_matcher_form", "loadable", "refused"]


def refused(expected: str, value: object) -> ValueError:
    """The error of an entry that is not what was ``expected``: the ``value`` found, and its type.

    >>> refused("ids: must be a list", "a")
    ValueError("ids: must be a list, got 'a' (str)")
    """
    return ValueError(f"{expected}, got {short_repr(value)} ({type_name(value)})")


def exact_name(name: str) -> dict[str, str]:
    """The name matcher that selects exactly this tool (a bare name is a substring)."""
    return {"$literal": name}


def holds_matcher_form(value: object) -> bool:
    """Whether ``value`` holds a mapping the loader would read as a matcher (a ``$`` key)."""
    if isinstance(value, dict):
        return matcher_key(value) is not None or any(map(holds_matcher_form, value.values()))
    if isinstance(value, list):
        return any(map(holds_matcher_form, value))
    return False


def escaped(value: Any, *, holds_matchers: bool = False) -> Any:
    """``value`` written so that a spec reads it back as itself.

    A plain value with a mapping anywhere inside it that a spec would read as a matcher
    is wrapped whole in ``$literal``; a data mapping of matchers (``holds_matchers``) that
    looks like a matcher itself is wrapped in ``$exact``, which compares the same keys.

    >>> escaped({"type": "image", "regex": "a"}), escaped([{"regex": "a.*"}])
    ({'type': 'image', 'regex': 'a'}, {'$literal': [{'regex': 'a.*'}]})
    """
    if holds_matchers:
        return {"$exact": value} if matcher_key(value) is not None else value
    return {"$literal": value} if holds_matcher_form(value) else value


def case_name(name: str, where: str, first: dict[str, str], what: str) -> str:
    """``name`` as a case's name, once no entry before used it (``first``: name to place)."""
    if not name:
        raise ValueError(f"{where}: the {what} id must not be empty: it names the case")
    if name in first:
        raise ValueError(
            f"{where} ({name}): duplicate {what} id {name!r}; first used by {first[name]}"
        )
    first[name] = where
    return name


def loadable(
    cases: list[dict[str, Any]], places: list[str], source: object, what: str
) -> dict[str, Any]:
    """The spec of ``cases``, once the loader reads it; else a ``ValueError`` naming the
    entry (``places``, one per case) and the loader's first problem, so that an import
    never writes a spec that ``check`` refuses."""
    import os

    from toolmatch._spec.errors import ConfigError
    from toolmatch._spec.loading import load_test_cases_quietly

    if not cases:
        named = os.fspath(source) if isinstance(source, (str, os.PathLike)) else what
        raise ValueError(f"{named}: holds no entries; a spec needs at least one case")
    spec = {"test_cases": cases}
    try:
        load_test_cases_quietly(spec)
    except ConfigError as error:
        problem = error.problems[0]
        import re

        # The loader's path starts at the case: test_cases[N](name), or test_cases[N].
        found = re.match(r"test_cases\[(\d+)\]", problem.path)
        if found is None:
            raise ValueError(f"the spec would not load: {problem}") from None
        index = int(found[1])
        inside = problem.path[found.end() :]
        inside = inside.removeprefix(f"({cases[index]['name']})").removeprefix(".")
        where = f"{inside}: " if inside else ""
        raise ValueError(
            f"{places[index]}: the spec would not load: {where}{problem.message}"
        ) from None
    return spec
