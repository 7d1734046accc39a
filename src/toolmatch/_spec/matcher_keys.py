"""Matchers from configuration values (YAML or JSON).

One rule (:func:`matcher_key`) says which mappings are matchers: those with a ``$`` key,
and the seed's ``{fuzzy: ...}`` and ``{regex: ...}``; one table (:data:`MATCHER_KEYS`)
says how each is built, with the public constructors. Every mistake is found while
loading, with the exact path to it, and all of a file's mistakes are reported together in
one ``ConfigError`` (``toolmatch._spec.errors``). Test cases and files:
``toolmatch._spec.loading``.
"""

from __future__ import annotations

import math

from toolmatch._core.describe import join_path, short_repr, type_name
from toolmatch._core.flags import check_flag
from toolmatch._core.limits import unbounded
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.captures import Capture, Ref
from toolmatch._matchers.combinators import AllOf, AnyOf, Not
from toolmatch._matchers.dates import IsDate, IsDatetime
from toolmatch._matchers.judges import JudgedBy
from toolmatch._matchers.lists import ContainsAll, Each, Len, Unordered
from toolmatch._matchers.literal import Literal
from toolmatch._matchers.mappings import Absent, Exact, Maybe, Partial
from toolmatch._matchers.numbers import Approx, Between, Ge, Gt, Le, Lt
from toolmatch._matchers.shapes import EndsWith, IsEmail, IsJSON, IsURL, IsUUID, StartsWith
from toolmatch._matchers.similarity import Similar
from toolmatch._matchers.strings import Fuzzy, Regex
from toolmatch._matchers.values import ANY, Contains, IsType, OneOf
from toolmatch._spec.errors import Problems

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

__all__ = [
    "FIELD_KINDS",
    "ARGS_KEYS_01",
    "KEYS_01",
    "MATCHER_KEYS",
    "SEED_FORMS",
    "SEED_OPTIONS",
    "MatcherKey",
    "matcher_key",
    "build_arguments",
    "build_value",
    "matcher_from_config",
    "read_by_01",
]


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


def _anything() -> Matcher:
    return ANY


def _absent() -> Matcher:
    return Absent


def _regex(pattern: str, *, ignore_case: bool = False) -> Matcher:
    """``Regex`` with the file's one flag spelled as an option (``re.IGNORECASE`` is 2)."""
    check_flag(ignore_case, "ignore_case", in_spec=True)
    return Regex(pattern, flags=2 if ignore_case else 0)


def _by_name(make: Callable[..., Matcher]) -> Callable[..., Matcher]:
    """A builder of ``make`` from one mapping of its keyword arguments, as the "keywords" and
    "fields" readers pass them (each name checked against the row's ``fields``)."""

    def build(fields: dict[str, Any]) -> Matcher:
        return make(**fields)

    build.__name__ = build.__qualname__ = make.__name__
    return build


def _similar(fields: dict[str, Any]) -> Matcher:
    """``Similar`` from ``{$similar: {text: ..., min: ...}}``: its text is a field, so a
    missing one is said in the file's words, not as a missing positional argument."""
    if "text" not in fields:
        raise ValueError("needs text, the text to compare with, and min (or above)")
    return Similar(**fields)


_similar.__name__ = _similar.__qualname__ = "Similar"


def _uuid(version: object = None) -> Matcher:
    """``{$uuid: true}`` is any UUID, ``{$uuid: 4}`` a version-4 one."""
    return IsUUID(version)  # type: ignore[arg-type]  # its constructor checks it


def _conforms_to(schema: object) -> Matcher:
    """``ConformsTo`` for a spec file: a missing ``jsonschema`` is a load error, not a crash."""
    try:
        from toolmatch._matchers.json_schema import ConformsTo

        return ConformsTo(schema)  # type: ignore[arg-type]  # its constructor checks it
    except ImportError as error:
        raise ValueError(str(error)) from None


class MatcherKey:
    """One row of :data:`MATCHER_KEYS`: how a ``$`` key's mapping becomes a matcher.

    ``make`` is called with the key's value, read as ``reads`` says, as positional
    arguments, and each option present as a keyword argument. ``fields`` names the
    keys of the mapping that the "keywords" and "fields" readers take, each with its kind
    (see ``FIELD_KINDS``); the schema (``toolmatch._spec.schema``) reads the same row.

    >>> MATCHER_KEYS["$approx"]
    MatcherKey(Approx, 'number', {'rel': 'number', 'abs': 'number'})
    """

    __slots__ = ("make", "reads", "options", "fields")

    def __init__(
        self,
        make: Callable[..., Matcher],
        reads: str,
        options: dict[str, str] | None = None,
        fields: dict[str, str] | None = None,
    ) -> None:
        if reads not in _READERS:
            raise ValueError(f"unknown reader {reads!r}; known: {', '.join(_READERS)}")
        if (reads in _FIELD_READERS) != bool(fields):
            raise ValueError(f"fields go with the readers {', '.join(_FIELD_READERS)}, only")
        unknown = [kind for kind in (fields or {}).values() if kind not in FIELD_KINDS]
        if unknown:
            raise ValueError(f"unknown field kind {unknown[0]!r}; known: {', '.join(FIELD_KINDS)}")
        self.make = make
        self.reads = reads
        self.options = dict(options or {})
        self.fields = dict(fields or {})

    def __repr__(self) -> str:
        name = getattr(self.make, "__name__", repr(self.make))
        fields = f", fields={self.fields!r}" if self.fields else ""
        return f"MatcherKey({name}, {self.reads!r}, {self.options!r}{fields})"


SEED_FORMS: dict[str, str] = {"fuzzy": "$fuzzy", "regex": "$regex"}
"""The seed's bare forms, still matchers: ``{fuzzy: ...}`` alone, ``{regex: ...}`` with at
most ``ignore_case`` beside it; the ``$`` row each one is."""
SEED_OPTIONS: dict[str, tuple[str, ...]] = {"fuzzy": (), "regex": ("ignore_case",)}
"""The options a seed form may hold beside its key: the seed's, fixed. An option added
to a ``$`` row later (``$fuzzy``'s ``whitespace``) is the ``$`` form's alone, so a data
mapping that happens to hold it stays data."""

KEYS_01 = (
    "literal",
    "fuzzy",
    "regex",
    "any",
    "one_of",
    "approx",
    "contains",
    "type",
    "partial",
    "exact",
    "not",
    "maybe",
    "absent",
)
"""The bare matcher keys toolmatch 0.1 read (history: data now, but loading warns)."""
_OPTIONS_SINCE_01: dict[str, tuple[str, ...]] = {"fuzzy": ("whitespace",)}
"""Options of a 0.1 key's row that 0.1 did not have: a mapping holding one was data then."""
ARGS_KEYS_01 = ("partial", "exact", "literal", "any", "one_of", "not")
"""The 0.1 keys that could stand for a whole ``args`` mapping."""


def matcher_key(mapping: dict[Any, Any]) -> str | None:
    """The key that makes ``mapping``, in a value position, a matcher; ``None`` for data.

    A mapping is a matcher exactly when it has a key starting with ``$``, or is one of
    the seed's forms (``{fuzzy: ...}`` alone, ``{regex: ...}`` with at most
    ``ignore_case``); every other mapping is data.

    >>> matcher_key({"$approx": 3, "rel": 0.01}), matcher_key({"regex": "a.*"})
    ('$approx', 'regex')
    >>> matcher_key({"type": "restaurant", "city": "Paris"}) is None
    True
    """
    for key in mapping:
        if isinstance(key, str) and key.startswith("$"):
            return key
    for bare, options in SEED_OPTIONS.items():
        if bare in mapping and all(key == bare or key in options for key in mapping):
            return bare
    return None


@public
def matcher_from_config(value: object, path: str = "args") -> Matcher:
    """The matcher a configuration value describes; raises ``ConfigError`` listing every problem.

    A mapping with a ``$`` key is that matcher (``{"$approx": 3, "rel": 0.01}``), and so
    are the seed's ``{"fuzzy": ...}`` and ``{"regex": ...}``; every other value is data,
    compared by :class:`Literal` rules, with matchers anywhere inside it (see
    :func:`matcher_key` and docs/config.md).

    >>> matcher_from_config({"fuzzy": "206588"}) == "206,588"
    True
    >>> args = matcher_from_config({"city": {"regex": "Par.*"}, "days": {"$approx": 3}})
    >>> args == {"city": "Paris", "days": 3.0}
    True
    >>> matcher_from_config({"type": "restaurant"}) == {"type": "restaurant"}
    True
    """
    problems = Problems()
    built = build_value(value, path, problems)
    if not isinstance(built, Matcher):
        built = _made(path, problems, Literal, built)
    problems.raise_if_any()
    problems.emit_warnings(stacklevel=2)
    return built


def build_value(value: object, path: str, problems: Problems) -> Any:
    """``value`` in a value position, with every matcher mapping in it replaced by its matcher.

    A value beyond the limits (see :func:`unbounded`) is refused before anything recurses
    into it. Places that toolmatch 0.1 read as matchers and are data now are noted in
    ``problems.warnings``.
    """
    if _beyond_limits(value, path, problems):
        return ANY
    return _build(value, path, problems, True)


def build_arguments(mapping: dict[Any, Any], path: str, problems: Problems) -> dict[Any, Any]:
    """An ``args`` mapping: its keys are argument names whatever they are, its values value
    positions (a ``$maybe`` or ``$absent`` says whether the key may be missing)."""
    if _beyond_limits(mapping, path, problems):
        return {}
    return _entries(mapping, path, problems)


def _beyond_limits(value: object, path: str, problems: Problems) -> bool:
    """Whether ``value`` is beyond the limits (:func:`unbounded`), said at the place it is."""
    beyond = unbounded(value)
    if beyond is not None:
        keys, message = beyond
        for key in keys:
            path = join_path(path, key)
        problems.add(path, message)
    return beyond is not None


def _entries(mapping: dict[Any, Any], path: str, problems: Problems) -> dict[Any, Any]:
    """A mapping's values, each in a value position (where $maybe and $absent mean something)."""
    return {
        key: _build(item, join_path(path, key), problems, True) for key, item in mapping.items()
    }


def _made(
    path: str, problems: Problems, make: Callable[..., Matcher], *args: Any, **options: Any
) -> Matcher:
    """``make(*args, **options)``; ``ANY`` and a problem at ``path`` if it refuses them."""
    try:
        return make(*args, **options)
    except (TypeError, ValueError) as error:  # the constructor's rule, with the file's path
        problems.add(path, str(error))
        return ANY


def _build(value: object, path: str, problems: Problems, legacy: bool) -> Any:
    """``value`` in a value position; ``legacy``: whether 0.1 read matchers here."""
    if isinstance(value, dict):
        key = matcher_key(value)
        if key is not None:
            return _matcher(value, key, path, problems)
        inner = legacy
        if legacy:
            old = read_by_01(value, KEYS_01)
            if old is not None:
                problems.warn(
                    path,
                    f"{{{old}: ...}} is data now, not the {old} matcher toolmatch 0.1 read; "
                    f"for the matcher write {{${old}: ...}}, for data {{$literal: {{...}}}}",
                )
                inner = old != "literal"  # 0.1 compared what is inside a literal as written
        return {
            key: _build(item, join_path(path, key), problems, inner) for key, item in value.items()
        }
    if isinstance(value, list):
        return [
            _value(item, join_path(path, index), problems, legacy)
            for index, item in enumerate(value)
        ]
    return _scalar(value, path, problems)


def _scalar(value: object, path: str, problems: Problems) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and math.isnan(value):
            problems.add(path, "NaN never equals anything; use {$type: float} or remove it")
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


def _plain(value: object, path: str, problems: Problems) -> Any:
    """``value`` taken as written: its mappings are data whatever their keys."""
    if isinstance(value, dict):
        return {key: _plain(item, join_path(path, key), problems) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item, join_path(path, index), problems) for index, item in enumerate(value)]
    return _scalar(value, path, problems)


def _value(value: object, path: str, problems: Problems, legacy: bool = True) -> Any:
    """Build ``value`` where it stands for a value, not for a key: maybe and absent mean nothing."""
    built = _build(value, path, problems, legacy)
    if built is Absent or isinstance(built, Maybe):
        kind = "$absent" if built is Absent else "$maybe"
        problems.add(
            path,
            f"{kind} only means something as the value of a key in a mapping "
            "(it says whether the key may be missing)",
        )
        return ANY
    return built


def read_by_01(mapping: dict[Any, Any], keys: tuple[str, ...]) -> str | None:
    """The matcher key of ``keys`` that toolmatch 0.1 read ``mapping`` as, if it did.

    0.1 took a mapping with one of its keys, only that key's options beside it, and a
    value of the kind the key reads, as that matcher.
    """
    found = [key for key in mapping if key in keys]
    if len(found) != 1:
        return None
    old = found[0]
    row = MATCHER_KEYS["$" + old]
    newer = _OPTIONS_SINCE_01.get(old, ())
    if any(key != old and (key not in row.options or key in newer) for key in mapping):
        return None
    value = mapping[old]
    accepted = {
        "true": value is True,
        "values": isinstance(value, list) and bool(value),
        "types": value is None or (isinstance(value, str) and value in _TYPES),
        "number": isinstance(value, (int, float)) and not isinstance(value, bool),
        "text": isinstance(value, str),
        "mapping": isinstance(value, dict),
    }
    return old if accepted.get(row.reads, True) else None


def _matcher(mapping: dict[Any, Any], key: str, path: str, problems: Problems) -> Matcher:
    """The matcher ``mapping`` is, by its matcher ``key`` (a ``$`` key or a seed form)."""
    name = SEED_FORMS.get(key, key)
    row = MATCHER_KEYS.get(name)
    if row is None:
        import difflib

        close = difflib.get_close_matches(key, MATCHER_KEYS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        if name == "$satisfies":
            problems.add(
                f"{path}.{key}",
                "Satisfies is Python only: a spec file cannot name code; check this value "
                "with Satisfies(function, description) in a Python test, or use a $ matcher",
            )
            return ANY
        problems.add(
            f"{path}.{key}" if key[1:].isidentifier() else join_path(path, key),
            f"unknown matcher key {short_repr(key)}{hint}; a key starting with $ names a "
            f"matcher, one of: {', '.join(MATCHER_KEYS)} (for data with this key, wrap it: "
            "{$literal: {...}})",
        )
        return ANY
    others = [other for other in mapping if other != key]
    marked = [other for other in others if isinstance(other, str) and other.startswith("$")]
    if marked:
        problems.add(
            path,
            f"names two matchers, {key!r} and {marked[0]!r}; a matcher mapping has one "
            "(options are written without $)",
        )
        return ANY
    extra = [other for other in others if other not in row.options]
    if extra:
        allowed = ", ".join(row.options) or "none"
        problems.add(
            path,
            f"mixes the matcher key {key!r} with other keys {', '.join(map(repr, extra))} "
            f"(options allowed beside {key!r}: {allowed}; for data with these keys, wrap "
            "it: {$literal: {...}})",
        )
        return ANY
    # `args.when.$regex`, not join_path's quoted `args.when['$regex']`: a matcher key's place.
    where = f"{path}.{key}" if key[1:].isidentifier() else join_path(path, key)
    before = len(problems.found)
    args = _READERS[row.reads](mapping[key], where, problems, row)
    read = len(problems.found) == before
    options = {}
    for option in others:
        value = mapping[option]
        if row.options[option] == "bool" and not isinstance(value, bool):
            problems.add(join_path(path, option), f"must be true or false, got {short_repr(value)}")
        elif row.options[option] == "value":  # a value position: a matcher, or data
            options[option] = _value(value, join_path(path, option), problems)
        else:
            options[option] = value  # the constructor says what else is wrong with it
    if not read:
        return ANY
    built = _made(where, problems, row.make, *args, **options)  # also when an option is bad
    return ANY if len(problems.found) > before else built


def _read_true(value: object, path: str, problems: Problems, row: MatcherKey) -> tuple[Any, ...]:
    if value is not True:
        problems.add(path, f"must be true, got {short_repr(value)}")
    return ()


def _read_values(value: object, path: str, problems: Problems, row: MatcherKey) -> tuple[Any, ...]:
    if not isinstance(value, list) or not value:
        problems.add(path, f"must be a non-empty list, got {short_repr(value)}")
        return ()
    return tuple(_value(item, join_path(path, index), problems) for index, item in enumerate(value))


def _read_mapping(value: object, path: str, problems: Problems, row: MatcherKey) -> tuple[Any, ...]:
    if not isinstance(value, dict):
        problems.wrong(path, "must be a mapping", value)
        return ()
    return (_entries(value, path, problems),)


def _read_text(value: object, path: str, problems: Problems, row: MatcherKey) -> tuple[Any, ...]:
    if not isinstance(value, str):
        hint = ""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            hint = f'; quote it: "{value}"'
        problems.add(path, f"must be a string, got {short_repr(value)} ({type_name(value)}){hint}")
    return (value,)


def _read_types(value: object, path: str, problems: Problems, row: MatcherKey) -> tuple[Any, ...]:
    names = value if isinstance(value, list) and value else [value]
    types: list[type] = []
    for name in names:
        if name is None:
            name = "null"  # YAML reads an unquoted `null` as no value at all
        if not isinstance(name, str) or name not in _TYPES:
            problems.add(
                path,
                f"unknown type {short_repr(name)}; accepted: {', '.join(_TYPES)}, or a list "
                "of them",
            )
            return ()
        types.extend(_TYPES[name])
    return tuple(types)


def _read_bounds(value: object, path: str, problems: Problems, row: MatcherKey) -> tuple[Any, ...]:
    if not isinstance(value, list) or len(value) != 2:
        problems.add(path, f"must be a list of two numbers, low and high, got {short_repr(value)}")
        return ()
    return tuple(_plain(item, join_path(path, index), problems) for index, item in enumerate(value))


def _read_version(value: object, path: str, problems: Problems, row: MatcherKey) -> tuple[Any, ...]:
    if value is True:
        return ()
    if isinstance(value, bool) or not isinstance(value, int):
        problems.wrong(path, "must be true or a UUID version from 1 to 8", value)
        return ()
    return (value,)  # the constructor checks the range


def _read_fields(value: object, path: str, problems: Problems, row: MatcherKey) -> tuple[Any, ...]:
    """The row's named fields, as one mapping; "keywords" also reads ``true``: none of them."""
    names = ", ".join(row.fields)
    if value is True and row.reads == "keywords":
        return ({},)
    if not isinstance(value, dict):
        # the texts each reader had before it took fields: messages are API
        what = f"true or a mapping of {names}" if row.reads == "keywords" else "a mapping"
        problems.wrong(path, f"must be {what}", value)
        return ()
    unknown = [name for name in value if name not in row.fields]
    if unknown:
        maker = getattr(row.make, "__name__", "it")
        problems.add(path, f"unknown option {short_repr(unknown[0])}; {maker} takes {names}")
        return ()
    return (
        {
            name: (_value if row.fields[name] == "part" else _plain)(
                item, join_path(path, name), problems
            )
            for name, item in value.items()
        },
    )


_READERS: dict[str, Callable[[object, str, Problems, MatcherKey], tuple[Any, ...]]] = {
    "plain": lambda value, path, problems, row: (_plain(value, path, problems),),
    "value": lambda value, path, problems, row: (_value(value, path, problems),),
    "number": lambda value, path, problems, row: (value,),  # the constructor says what is wrong
    "values": _read_values,
    "mapping": _read_mapping,
    "text": _read_text,
    "name": _read_text,  # a name: a non-empty string (the constructor refuses an empty one)
    "true": _read_true,
    "types": _read_types,
    # a non-empty list of value positions, passed as one list
    "list": lambda value, path, problems, row: (list(_read_values(value, path, problems, row)),),
    "bounds": _read_bounds,
    "version": _read_version,
    # an int or a matcher; a JSON Schema: the constructors say what else is wrong
    "length": lambda value, path, problems, row: (_value(value, path, problems),),
    "schema": lambda value, path, problems, row: (_plain(value, path, problems),),
    "keywords": _read_fields,
    "fields": _read_fields,
}
_FIELD_READERS = ("keywords", "fields")
FIELD_KINDS = {
    "text": "a string, or null",
    "flag": "true or false, or null",
    "bool": "true or false",
    "string": "a string",
    "count": "an int >= 0",
    "number": "a number",
    "part": "a string or a matcher, or null",
}
"""What a field of a "keywords" or "fields" row takes: "part" is a value position, the
others are read as written (the constructor checks them; the schema states them)."""


_STRING_OPTIONS = {"trim_strings": "bool", "case_insensitive": "bool"}

# Every matcher key a spec file knows: its builder, how its value is read, its options.
# The one table: the loader, the docs table test and the legacy warnings all read it.
# Readers (see _READERS): "plain" a value taken as written, no matchers inside; "value" a
# value position (matchers inside); "values" a non-empty list of value positions, spread;
# "mapping" a mapping whose values are value positions; "text" a string; "name" a non-empty
# string; "number" a number;
# "true" only `true`, passing nothing; "types" a type name or a list of them; "bounds" a
# list of two numbers; "version" `true` or a UUID version; "length" an int or a matcher;
# "schema" a JSON Schema; "keywords" `true` or a mapping of the row's fields, "fields" that
# mapping only, each field of a FIELD_KINDS kind. Option kinds
# ("bool", "number", "text", "value") say what an option takes; each is passed as written, a
# "bool" checked first so that the message speaks YAML (true or false), a "value" read as a
# value position.
MATCHER_KEYS: dict[str, MatcherKey] = {
    "$literal": MatcherKey(Literal, "plain", _STRING_OPTIONS),
    "$fuzzy": MatcherKey(Fuzzy, "text", {"whitespace": "text"}),
    "$regex": MatcherKey(_regex, "text", {"ignore_case": "bool"}),
    "$any": MatcherKey(_anything, "true"),
    "$one_of": MatcherKey(OneOf, "values"),
    "$approx": MatcherKey(Approx, "number", {"rel": "number", "abs": "number"}),
    "$contains": MatcherKey(Contains, "value"),
    "$type": MatcherKey(IsType, "types"),
    "$partial": MatcherKey(Partial, "mapping", _STRING_OPTIONS),
    "$exact": MatcherKey(Exact, "mapping", _STRING_OPTIONS),
    "$not": MatcherKey(Not, "value"),
    "$all_of": MatcherKey(AllOf, "values"),
    "$any_of": MatcherKey(AnyOf, "values"),
    "$maybe": MatcherKey(Maybe, "value"),
    "$absent": MatcherKey(_absent, "true"),
    "$gt": MatcherKey(Gt, "number", {"strings": "bool"}),
    "$ge": MatcherKey(Ge, "number", {"strings": "bool"}),
    "$lt": MatcherKey(Lt, "number", {"strings": "bool"}),
    "$le": MatcherKey(Le, "number", {"strings": "bool"}),
    "$between": MatcherKey(Between, "bounds", {"inclusive": "bool", "strings": "bool"}),
    "$datetime": MatcherKey(
        _by_name(IsDatetime),
        "keywords",
        fields={"near": "text", "within": "text", "tz_aware": "flag"},
    ),
    "$date": MatcherKey(
        _by_name(IsDate), "keywords", fields={"near": "text", "within_days": "count"}
    ),
    "$unordered": MatcherKey(Unordered, "list"),
    "$contains_all": MatcherKey(ContainsAll, "list"),
    "$each": MatcherKey(Each, "value"),
    "$len": MatcherKey(Len, "length"),
    "$starts_with": MatcherKey(StartsWith, "text", {"case_insensitive": "bool"}),
    "$ends_with": MatcherKey(EndsWith, "text", {"case_insensitive": "bool"}),
    "$uuid": MatcherKey(_uuid, "version"),
    "$email": MatcherKey(IsEmail, "true"),
    "$url": MatcherKey(
        _by_name(IsURL), "fields", fields={"scheme": "part", "host": "part", "path": "part"}
    ),
    "$json": MatcherKey(IsJSON, "value"),
    "$conforms_to": MatcherKey(_conforms_to, "schema"),
    "$similar": MatcherKey(
        _similar,
        "fields",
        fields={"text": "string", "min": "number", "above": "number", "case_insensitive": "bool"},
    ),
    "$judge": MatcherKey(JudgedBy, "name"),
    "$capture": MatcherKey(Capture, "name", {"match": "value"}),
    "$ref": MatcherKey(Ref, "name"),
}
