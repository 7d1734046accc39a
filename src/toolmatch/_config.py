"""Matchers from configuration values (YAML or JSON), and the errors loading reports.

Every mistake is found while loading, with the exact path to it, and all of a file's
mistakes are reported together in one ``ConfigError``. Test cases and files: ``_cases``.
"""

from __future__ import annotations

import math

from toolmatch._base import MAX_DEPTH, Matcher
from toolmatch._combinators import Not
from toolmatch._describe import join_path, short_repr, type_name
from toolmatch._literal import Literal
from toolmatch._mappings import Absent, Exact, Maybe, Partial
from toolmatch._strings import Fuzzy, Regex
from toolmatch._values import ANY, Approx, Contains, IsType, OneOf

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

__all__ = [
    "MATCHER_OPTIONS",
    "MAX_NESTING",
    "MAX_REPEATED",
    "NESTED_TOO_DEEPLY",
    "ConfigError",
    "ConfigProblem",
    "Problems",
    "build_value",
    "matcher_from_config",
    "unbounded",
]

MAX_NESTING = MAX_DEPTH
"""How many mappings and lists a configuration may nest inside one another: the depth a
matcher may have, so the loader refuses at its place what a constructor would refuse."""
MAX_REPEATED = 100_000
"""How many values a configuration may repeat, in all, by using one mapping or list again
(a YAML alias does)."""
NESTED_TOO_DEEPLY = (
    f"nested too deeply: more than {MAX_NESTING} mappings and lists inside one another"
)
_CONTAINS_ITSELF = "is the mapping or list it is in, or holds it; a value cannot contain itself"
_REPEATS_TOO_MUCH = (
    f"repeats a mapping or list used before (as a YAML alias does), past {MAX_REPEATED:,} "
    "repeated values in all"
)


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


class ConfigError(ValueError):
    """A configuration that cannot be loaded; lists every problem found, one per line.

    >>> try:
    ...     matcher_from_config({"fuzzy": 206588}, path="args.a")
    ... except ConfigError as error:
    ...     print(error)
    args.a.fuzzy: a fuzzy pattern must be a string, got 206588 (int); quote it: fuzzy: "206588"
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


class Problems:
    """Collects problems while loading, so one run reports all of a file's mistakes."""

    def __init__(self) -> None:
        self.found: list[ConfigProblem] = []

    def add(self, path: str, message: str) -> None:
        self.found.append(ConfigProblem(path, message))

    def raise_if_any(self, source: str | None = None) -> None:
        if self.found:
            raise ConfigError(self.found, source)


_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (float,),
    "number": (int, float),
    "str": (str,),
    "bool": (bool,),
    "list": (list,),
    "dict": (dict,),
    "null": (type(None),),
}

_STRING_OPTIONS = ("trim_strings", "case_insensitive")

# Each matcher key, with the option keys that may stand beside it.
MATCHER_OPTIONS: dict[str, tuple[str, ...]] = {
    "literal": _STRING_OPTIONS,
    "fuzzy": (),
    "regex": ("ignore_case",),
    "any": (),
    "one_of": (),
    "approx": ("rel", "abs"),
    "contains": (),
    "type": (),
    "partial": _STRING_OPTIONS,
    "exact": _STRING_OPTIONS,
    "not": (),
    "maybe": (),
    "absent": (),
}


def matcher_from_config(value: object, path: str = "args") -> Matcher:
    """The matcher a configuration value describes; raises ``ConfigError`` listing every problem.

    A plain value is a :class:`Literal`; a dict with one matcher key (``fuzzy``, ``regex``,
    ``any``, ``one_of``, ``approx``, ``contains``, ``type``, ``partial``, ``exact``, ``not``,
    ``maybe``, ``absent``, ``literal``) is that matcher, at any depth.

    >>> matcher_from_config({"fuzzy": "206588"}) == "206,588"
    True
    >>> args = matcher_from_config({"city": {"regex": "Par.*"}, "days": 3})
    >>> args == {"city": "Paris", "days": 3.0}
    True
    """
    problems = Problems()
    built = build_value(value, path, problems)
    if not isinstance(built, Matcher):
        built = _made(path, problems, Literal, built)
    problems.raise_if_any()
    return built


def unbounded(value: object) -> tuple[list[Any], str] | None:
    """Where loading ``value`` would go past a limit, and why, or ``None``.

    The keys and indices to a mapping or list nested deeper than ``MAX_NESTING``, or to one
    that holds itself (an infinite depth), or to a repeat of one used before that takes the
    values repeated past ``MAX_REPEATED``, as parsed YAML aliases are; with the message.
    Walked once, without recursion, each mapping and list measured once, so that nothing
    after it recurses deeper than the limit or works longer than the repeats allow.

    >>> unbounded({"a": [1, {"b": 2}]}) is None
    True
    >>> loop = {"a": 1}
    >>> loop["self"] = loop
    >>> unbounded(loop)[0]
    ['self']
    """
    if not isinstance(value, (dict, list)):
        return None
    measured: dict[int, tuple[int, int]] = {}  # id -> (values in it, levels it nests)
    repeated = 0
    keys: list[Any] = []  # from value to the innermost open container
    # One frame per open container: it, its (key, item) pairs to go, values and levels so far.
    frames: list[list[Any]] = [[value, _pairs(value), 1 + _keys(value), 1]]
    open_ids = {id(value)}
    while frames:
        frame = frames[-1]
        for key, item in frame[1]:
            if not isinstance(item, (dict, list)):
                frame[2] += 1
                continue
            known = measured.get(id(item))
            if known is None:
                if id(item) in open_ids:
                    return [*keys, key], _CONTAINS_ITSELF
                if len(frames) >= MAX_NESTING:
                    return [*keys, key], NESTED_TOO_DEEPLY
                keys.append(key)
                open_ids.add(id(item))
                frames.append([item, _pairs(item), 1 + _keys(item), 1])
                break
            values, levels = known
            repeated += values
            if repeated > MAX_REPEATED:
                return [*keys, key], _REPEATS_TOO_MUCH
            if len(frames) + levels > MAX_NESTING:
                return [*keys, key], NESTED_TOO_DEEPLY
            frame[2] += values
            frame[3] = max(frame[3], levels + 1)
        else:
            frames.pop()
            open_ids.discard(id(frame[0]))
            measured[id(frame[0])] = (frame[2], frame[3])
            if frames:
                keys.pop()
                frames[-1][2] += frame[2]
                frames[-1][3] = max(frames[-1][3], frame[3] + 1)
    return None


def _pairs(container: dict[Any, Any] | list[Any]) -> Iterator[tuple[Any, Any]]:
    """A mapping's items; a list's items with their index."""
    if isinstance(container, dict):
        return iter(container.items())
    return enumerate(container)


def _keys(container: dict[Any, Any] | list[Any]) -> int:
    """The values a container's keys count for: a mapping's keys are values too, as in YAML."""
    return len(container) if isinstance(container, dict) else 0


def build_value(value: object, path: str, problems: Problems) -> Any:
    """``value`` with every matcher dict in it, at any depth, replaced by its matcher.

    A value beyond the limits (see :func:`unbounded`) is refused before anything recurses
    into it.
    """
    beyond = unbounded(value)
    if beyond is not None:
        keys, message = beyond
        for key in keys:
            path = join_path(path, key)
        problems.add(path, message)
        return ANY
    return _build(value, path, problems)


def _made(
    path: str, problems: Problems, make: Callable[..., Matcher], *args: Any, **options: Any
) -> Matcher:
    """``make(*args, **options)``; ``ANY`` and a problem at ``path`` if it refuses them."""
    try:
        return make(*args, **options)
    except (TypeError, ValueError) as error:  # a constructor's rule the loader does not repeat
        problems.add(path, str(error))
        return ANY


def _build(value: object, path: str, problems: Problems) -> Any:
    if isinstance(value, dict):
        keys = [key for key in value if key in MATCHER_OPTIONS]
        if not keys:
            return {
                key: _build(item, join_path(path, key), problems) for key, item in value.items()
            }
        if len(keys) > 1:
            problems.add(
                path,
                f"names two matcher kinds, {keys[0]!r} and {keys[1]!r}; a matcher dict has one "
                f"(to compare a literal dict with these keys, wrap it: {{literal: {{...}}}})",
            )
            return ANY
        kind = keys[0]
        extra = [key for key in value if key != kind and key not in MATCHER_OPTIONS[kind]]
        if extra:
            allowed = ", ".join(MATCHER_OPTIONS[kind]) or "none"
            problems.add(
                path,
                f"mixes the matcher key {kind!r} with other keys {', '.join(map(repr, extra))} "
                f"(options allowed beside {kind!r}: {allowed}; to compare a literal dict with "
                f"these keys, wrap it: {{literal: {{...}}}})",
            )
            return ANY
        return _BUILDERS[kind](value, join_path(path, kind), problems)
    if isinstance(value, list):
        return [_value(item, join_path(path, index), problems) for index, item in enumerate(value)]
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and math.isnan(value):
            problems.add(path, "NaN never equals anything; use {type: float} or remove it")
        return value
    if type_name(value) in ("datetime.date", "datetime.datetime"):
        # YAML reads an unquoted 2026-01-02 as a date; tool arguments arrive as JSON strings.
        text = value.isoformat()  # type: ignore[attr-defined]
        problems.add(path, f'YAML read {text} as a date; quote it to compare a string: "{text}"')
        return ANY
    problems.add(
        path, f"cannot be used in a configuration: {short_repr(value)} ({type_name(value)})"
    )
    return ANY


def _value(value: object, path: str, problems: Problems) -> Any:
    """Build ``value`` where it stands for a value, not for a key: maybe and absent mean nothing."""
    built = _build(value, path, problems)
    if built is Absent or isinstance(built, Maybe):
        kind = "absent" if built is Absent else "maybe"
        problems.add(
            path,
            f"{kind} only means something as the value of a key in args, partial or exact "
            "(it says whether the key may be missing)",
        )
        return ANY
    return built


def _string_options(spec: dict[str, Any], path: str, problems: Problems) -> dict[str, bool]:
    options = {}
    for name in _STRING_OPTIONS:
        if name in spec:
            if isinstance(spec[name], bool):
                options[name] = spec[name]
            else:
                parent = path.rpartition(".")[0]
                problems.add(
                    join_path(parent, name), f"must be true or false, got {short_repr(spec[name])}"
                )
    return options


def _literal(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    options = _string_options(spec, path, problems)
    return _made(path, problems, Literal, spec["literal"], **options)


def _fuzzy(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    pattern = spec["fuzzy"]
    if not isinstance(pattern, str):
        problems.add(
            path,
            f"a fuzzy pattern must be a string, got {short_repr(pattern)} ({type_name(pattern)}); "
            f'quote it: fuzzy: "{pattern}"',
        )
        return ANY
    return _made(path, problems, Fuzzy, pattern)


def _regex(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    pattern = spec["regex"]
    if not isinstance(pattern, str):
        problems.add(
            path, f"a regex must be a string, got {short_repr(pattern)} ({type_name(pattern)})"
        )
        return ANY
    ignore_case = spec.get("ignore_case", False)
    if not isinstance(ignore_case, bool):
        problems.add(
            join_path(path.rpartition(".")[0], "ignore_case"),
            f"must be true or false, got {short_repr(ignore_case)}",
        )
    compiled = _made(path, problems, Regex, pattern, flags=2 if ignore_case is True else 0)
    return compiled if isinstance(ignore_case, bool) else ANY  # flags=2 is re.IGNORECASE


def _any(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    if spec["any"] is not True:
        problems.add(
            path, f"must be true (any: true matches every value), got {short_repr(spec['any'])}"
        )
    return ANY


def _one_of(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    candidates = spec["one_of"]
    if not isinstance(candidates, list) or not candidates:
        problems.add(path, f"must be a non-empty list of candidates, got {short_repr(candidates)}")
        return ANY
    built = [
        _value(item, join_path(path, index), problems) for index, item in enumerate(candidates)
    ]
    return _made(path, problems, OneOf, *built)


def _approx(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    parent = path.rpartition(".")[0]
    arguments: dict[str, Any] = {}
    for key, where in (
        ("approx", path),
        ("rel", join_path(parent, "rel")),
        ("abs", join_path(parent, "abs")),
    ):
        if key not in spec:
            continue
        number = spec[key]
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            problems.add(where, f"must be a number, got {short_repr(number)} ({type_name(number)})")
        elif key != "approx" and not number >= 0:
            problems.add(where, f"must be zero or positive, got {short_repr(number)}")
        elif key == "approx" and isinstance(number, float) and math.isnan(number):
            problems.add(where, "NaN never matches anything")
        else:
            arguments[key] = number
    if len(arguments) != sum(key in spec for key in ("approx", "rel", "abs")):
        return ANY
    value = arguments.pop("approx")
    return _made(path, problems, Approx, value, **arguments)  # a number too large for a float


def _contains(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    return _made(path, problems, Contains, _value(spec["contains"], path, problems))


def _type(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    name = spec["type"]
    if name is None:
        name = "null"  # YAML reads an unquoted `null` as no value at all
    if not isinstance(name, str) or name not in _TYPES:
        problems.add(
            path,
            f"unknown type {short_repr(name)}; accepted: {', '.join(_TYPES)} (to compare a "
            "literal dict with a 'type' key, wrap it: {literal: {...}})",
        )
        return ANY
    return _made(path, problems, IsType, *_TYPES[name])


def _mapping(kind: Callable[..., Matcher]) -> Callable[[dict[str, Any], str, Problems], Matcher]:
    key = kind.__name__.lower()

    def build(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
        mapping = spec[key]
        options = _string_options(spec, path, problems)
        if not isinstance(mapping, dict):
            problems.add(
                path,
                f"must be a dict of arguments, got {short_repr(mapping)} ({type_name(mapping)})",
            )
            return ANY
        values = {
            name: _build(item, join_path(path, name), problems) for name, item in mapping.items()
        }
        return _made(path, problems, kind, values, **options)

    return build


def _not(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    return _made(path, problems, Not, _value(spec["not"], path, problems))


def _maybe(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    inner = _build(spec["maybe"], path, problems)
    if inner is Absent or isinstance(inner, Maybe):
        problems.add(path, "maybe cannot wrap absent or another maybe")
        return ANY
    return _made(path, problems, Maybe, inner)


def _absent(spec: dict[str, Any], path: str, problems: Problems) -> Matcher:
    if spec["absent"] is not True:
        problems.add(
            path, f"must be true (absent: true forbids the key), got {short_repr(spec['absent'])}"
        )
    return Absent


_BUILDERS: dict[str, Callable[[dict[str, Any], str, Problems], Matcher]] = {
    "literal": _literal,
    "fuzzy": _fuzzy,
    "regex": _regex,
    "any": _any,
    "one_of": _one_of,
    "approx": _approx,
    "contains": _contains,
    "type": _type,
    "partial": _mapping(Partial),
    "exact": _mapping(Exact),
    "not": _not,
    "maybe": _maybe,
    "absent": _absent,
}
