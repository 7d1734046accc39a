"""The rules that turn the values a case's runs disagree on into matchers (docs/record.md).

Each rule has a name, written in the value's comment beside what was observed
(``# observed: "Paris", "paris"; rule: case-only``), so a reviewer sees why a value became
what it is. The rules aim at the runs not recorded yet: a value that differs only in case
is ``$fuzzy``, a few short words most of which were seen again are ``$one_of``, an
identifier keeps its shape, text is any string, and a number gets the range the next run's
value falls in 99 times in 100 (its prediction interval), the wider the fewer runs there
are.

``Loosening`` holds the level (``varying``, or ``strict``: only ids, times and UUIDs are
loosened, anything else that varies is one of the values seen) and the tools' definitions
given with ``--tools``, whose enums and formats steer the choice.

ruamel.yaml (the ``cli`` extra) is imported when a value is built, never before.
"""

from __future__ import annotations

import math
import re
from collections import Counter

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.dates import IsDate, IsDatetime
from toolmatch._matchers.lists import Unordered
from toolmatch._matchers.literal import Literal, is_bool, is_number
from toolmatch._matchers.numbers import Approx
from toolmatch._matchers.shapes import IsEmail, IsURL, IsUUID
from toolmatch._matchers.strings import Fuzzy, Regex
from toolmatch._spec.importing import escaped
from toolmatch._spec.matcher_keys import matcher_key
from toolmatch._spec.writing import NEEDS_RUAMEL, one_line

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping
    from typing import Any

    from toolmatch._calls.definitions import ToolDefinition

__all__ = [
    "LEVELS",
    "SHOWN_VALUES",
    "Loosening",
    "add_comment",
    "all_equal",
    "flow",
    "flow_if_short",
    "loosened",
    "node",
    "optional_by_definition",
    "read_only_tools",
    "ruamel_comments",
    "shown",
    "text_node",
]

LEVELS = ("none", "strict", "varying")
SHOWN_VALUES = 5  # observed values listed in a comment; past them, a count
_VALUE_WIDTH = 40  # one observed value in a comment, at most
_ENUM_SIZE = 4  # an enum-like set has at most this many distinct values
_WORD = re.compile(r"[A-Za-z][A-Za-z_-]{0,23}")  # a short word: an enum's value, not an id
_ID_DIGITS = 5  # a whole number with this many digits or more, all distinct, is an id


class Loosening:
    """How values that vary are loosened: ``level`` (``varying`` or ``strict``) and the
    tools' definitions by name (from ``--tools``), which steer the rules.

    >>> Loosening("strict").level
    'strict'
    """

    __slots__ = ("level", "definitions", "read_only")

    def __init__(
        self,
        level: str = "varying",
        definitions: Mapping[str, ToolDefinition] | None = None,
        read_only: Iterable[str] = (),
    ) -> None:
        if level not in ("strict", "varying"):
            raise ValueError(f"loosen must be 'strict' or 'varying', got {level!r}")
        self.level = level
        self.definitions = dict(definitions or {})
        self.read_only = frozenset(read_only)

    def ignored_read_only(self) -> list[str]:
        """The tools, in the definitions' order, that ``varying`` may ignore: those the
        definitions mark read-only (``strict`` keeps every call)."""
        if self.level != "varying":
            return []
        return [name for name in self.definitions if name in self.read_only]

    def schema(self, tool: str) -> dict[str, Any] | None:
        """The JSON schema of ``tool``'s arguments from its definition, or ``None``."""
        definition = self.definitions.get(tool)
        return None if definition is None else definition.schema


def read_only_tools(tools: object) -> frozenset[str]:
    """The names of the definitions in ``tools`` (a list, as ``--tools`` reads it) that MCP's
    ``annotations`` mark ``readOnlyHint: true``.

    >>> sorted(read_only_tools([{"name": "get", "annotations": {"readOnlyHint": True}},
    ...                         {"name": "put", "annotations": {"readOnlyHint": False}}]))
    ['get']
    """
    names = set()
    for tool in tools if isinstance(tools, list) else []:
        annotations = tool.get("annotations") if isinstance(tool, dict) else None
        if isinstance(annotations, dict) and annotations.get("readOnlyHint") is True:
            name = tool.get("name")
            if isinstance(name, str):
                names.add(name)
    return frozenset(names)


def loosened(
    values: list[Any], how: Loosening, schema: object = None, key: object = None
) -> tuple[Any, str | None]:
    """The spec value accepting every one of ``values``, and its comment when it is loosened
    (``observed: ...; rule: NAME``): the values as recorded when they are all equal, else
    what the first rule that fits makes of them. ``schema`` is the values' JSON schema from
    a tool definition, when one is given, and ``key`` the argument they are the values of."""
    if all_equal(values):
        return node(escaped(values[0])), None
    schema = schema if isinstance(schema, dict) else {}
    kinds = _kinds(values)
    if len(kinds) > 1:
        options = [loosened(group, how, schema)[0] for group in kinds.values()]
        return node({"$any_of": options}), _observed(values, "kinds")
    kind = next(iter(kinds))
    if kind == "dict":
        return mapping_node(values, how, schema, data=True), None
    if kind == "list":
        return _sequence(values, how, schema.get("items"))
    return _one_kind(values, kind, how, schema, key)


def _one_kind(
    values: list[Any], kind: str, how: Loosening, schema: dict[str, Any], key: object
) -> tuple[Any, str | None]:
    """:func:`loosened` for differing values of one ``kind``: the definition's ``enum``, the
    format or range it declares, else the rules of their kind."""
    enum = schema.get("enum")
    if isinstance(enum, list) and all(any(all_equal([v, e]) for e in enum) for v in values):
        return node({"$one_of": [escaped(item) for item in enum]}), _observed(values, "enum")
    declared = _declared(values, schema, key)
    if declared is not None:
        value, rule = declared
    elif kind == "number":
        value, rule = _number(values, how)
    elif kind == "str":
        value, rule = _string(values, how, schema)
    else:
        value, rule = {"$type": kind}, "type"  # bools that differ
    return node(value), _observed(values, rule)


def all_equal(values: list[Any]) -> bool:
    """Whether every one of ``values`` equals the first, as a spec's literal compares."""
    try:
        expected = Literal(values[0])
    except (TypeError, ValueError):  # beyond what a matcher holds: compared part by part
        return False
    return all(expected == value for value in values)


def _kinds(values: list[Any]) -> dict[str, list[Any]]:
    groups: dict[str, list[Any]] = {}
    for value in values:
        groups.setdefault(_kind(value), []).append(value)
    return groups


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if is_bool(value):
        return "bool"
    if is_number(value):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "dict"
    return type(value).__name__


def mapping_node(
    values: list[dict[str, Any]], how: Loosening, schema: object, *, data: bool
) -> Any:
    """A mapping of every key of ``values``; a key missing from some is ``$maybe``, and so
    is one that varies and that ``schema`` (the mapping's JSON schema, when a definition
    gives it) defines but leaves out of the ``required`` list it gives. A data mapping
    whose keys read as a matcher is wrapped in ``$exact`` (same keys, no others)."""
    comments = ruamel_comments()
    mapping = comments.CommentedMap()
    schema = schema if isinstance(schema, dict) else {}
    schemas = schema.get("properties")
    schemas = schemas if isinstance(schemas, dict) else {}
    for key in dict.fromkeys(key for value in values for key in value):
        value, comment = _key_value(values, key, how, schema, schemas.get(key))
        mapping[text_node(key)] = value
        if comment:
            add_comment(mapping, comment, text_node(key))
    if data and matcher_key(mapping) is not None:
        return comments.CommentedMap({"$exact": mapping})
    return mapping


def _key_value(
    values: list[dict[str, Any]], key: str, how: Loosening, schema: dict[str, Any], item: object
) -> tuple[Any, str | None]:
    """:func:`mapping_node`'s value of ``key`` and its comment: the values it has, loosened
    (``item`` its JSON schema), as ``$maybe`` when some mappings lack it or when it varies
    and ``schema`` leaves it out of ``required``."""
    present = [value[key] for value in values if key in value]
    value, comment = loosened(present, how, item, key)
    if comment and optional_by_definition(schema, key) and len(present) == len(values):
        value = flow_if_short(ruamel_comments().CommentedMap({"$maybe": value}))
        comment += "; optional by definition"
    elif len(present) < len(values):
        value = flow_if_short(ruamel_comments().CommentedMap({"$maybe": value}))
        missing = f"missing in {len(values) - len(present)} of {len(values)}"
        comment = f"{comment}; {missing}" if comment else missing
    return value, comment


def _sequence(values: list[list[Any]], how: Loosening, items: object) -> tuple[Any, str | None]:
    """Lists that differ: the same items in another order are ``$unordered``; lists of one
    length compare item by item; others are ``$each`` of what every item is."""
    comments = ruamel_comments()
    if all(Unordered(values[0]) == value for value in values):
        unordered = {"$unordered": [escaped(item) for item in values[0]]}
        return node(unordered), _observed(values, "unordered")
    if len({len(value) for value in values}) == 1:
        sequence = comments.CommentedSeq()
        for index, column in enumerate(zip(*values, strict=True)):
            item, comment = loosened(list(column), how, items)
            sequence.append(item)
            if comment:
                add_comment(sequence, comment, index)
        return flow_if_short(sequence), None
    every = [item for value in values for item in value]
    return node({"$each": loosened(every, how, items)[0]}), _observed(values, "each")


# What a definition declares -----------------------------------------------------------------


def optional_by_definition(schema: object, key: str) -> bool:
    """Whether ``schema`` (an object's JSON schema from a definition) defines ``key`` and
    leaves it out of the ``required`` list it gives (none given: no evidence either way).
    An argument that varies and is optional is ``$maybe``: the agent chose to send it, and
    sent something else each time, so the next run may leave it out.

    >>> optional_by_definition({"properties": {"q": {}, "n": {}}, "required": ["q"]}, "n")
    True
    >>> optional_by_definition({"properties": {"q": {}, "n": {}}}, "n")
    False
    """
    if not isinstance(schema, dict):
        return False
    properties, required = schema.get("properties"), schema.get("required")
    return (
        isinstance(properties, dict)
        and key in properties
        and isinstance(required, list)
        and (key not in required)
    )


# A definition's ``format``: the matcher every value of that format passes, at every level
# (the definition declares the shape, as an id's own shape does), and the rule's name.
_FORMATS: dict[str, tuple[Any, Any, str]] = {
    "uuid": (IsUUID(), {"$uuid": True}, "uuid"),
    "email": (IsEmail(), {"$email": True}, "email"),
    "idn-email": (IsEmail(), {"$email": True}, "email"),
    "uri": (IsURL(), {"$url": {}}, "url"),
    "url": (IsURL(), {"$url": {}}, "url"),
    "iri": (IsURL(), {"$url": {}}, "url"),
    "date": (IsDate(), {"$date": True}, "date"),
    "date-time": (IsDatetime(), {"$datetime": True}, "datetime"),
}
# order_id, order-id, ORDER_ID, id, orderId, userID; never paid, valid
_ID_KEY = re.compile(r"(?:.*[_-])?(?:id|Id|ID)|.*[a-z0-9](?:Id|ID)")


def _declared(values: list[Any], schema: dict[str, Any], key: object) -> tuple[Any, str] | None:
    """What the definition says the values are, when every value is that: a ``format``'s
    shape, or, for an ``integer`` argument named as an id (``order_id``, ``userId``), any
    whole number (an id is not a quantity, however few digits it has)."""
    declared = schema.get("format")
    shape = _FORMATS.get(declared) if isinstance(declared, str) else None
    if shape is not None:
        matcher, value, rule = shape
        if all(matcher == item for item in values):
            return value, f"{rule} (definition)"
    if (
        schema.get("type") == "integer"
        and isinstance(key, str)
        and _ID_KEY.fullmatch(key)
        and all(type(item) is int for item in values)
    ):
        return {"$type": "int"}, "id-number (definition)"
    return None


# Numbers -------------------------------------------------------------------------------------


def _number(values: list[Any], how: Loosening) -> tuple[dict[str, Any], str]:
    if any(isinstance(value, float) and math.isnan(value) for value in values):
        # NaN equals nothing, so no range or tolerance can hold it.
        kind = "float" if all(isinstance(v, float) for v in values) else "number"
        return {"$type": kind}, "nan"
    if how.level == "strict":
        return {"$one_of": list(dict.fromkeys(values))}, "observed-only"
    if _id_numbers(values):
        return {"$type": "int"}, "id-number"
    rounded = _rounding(values)
    if rounded is not None:
        return rounded, "rounding"
    return _predicted(values), "prediction-interval"


def _id_numbers(values: list[Any]) -> bool:
    """Whether ``values`` read as ids: distinct whole numbers, each long enough to be one."""
    long = all(type(value) is int and abs(value) >= 10 ** (_ID_DIGITS - 1) for value in values)
    return long and len(set(values)) == len(values)


# Student's t at 0.995 (a two-sided 99 % interval) for 1 to 9 degrees of freedom; from 10
# on, the Cornish-Fisher series of :func:`_t_99` gives the same to the third decimal.
_T_99 = (63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250)
_Z_99 = 2.5758293035489  # the normal distribution's 0.995 quantile


def _t_99(freedom: int) -> float:
    """Student's t quantile at 0.995 for ``freedom`` degrees of freedom (Abramowitz and
    Stegun 26.7.5 past the table).

    >>> _t_99(2), round(_t_99(30), 3)
    (9.925, 2.75)
    """
    if freedom <= len(_T_99):
        return _T_99[freedom - 1]
    z, n = _Z_99, freedom
    return (
        z
        + (z**3 + z) / (4 * n)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * n**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * n**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * n**4)
    )


def _predicted(values: list[Any]) -> dict[str, Any]:
    """``$between`` the bounds of the 99 % prediction interval of one more value, never
    narrower than ``[min - s, max + s]`` (``s`` their spread), never below zero when no value
    is, and rounded outwards (rule ``prediction-interval``, docs/record.md)."""
    low, high = min(values), max(values)
    whole = all(type(value) is int for value in values)
    if not whole and not _finite_span(low, high):
        return {"$between": [low, high]}
    spread = high - low
    bounds = [low - spread, high + spread]
    predicted = _prediction(values, low, spread)
    if predicted is not None:
        if whole:
            predicted = (math.floor(predicted[0]), math.ceil(predicted[1]))
        bounds = [min(bounds[0], predicted[0]), max(bounds[1], predicted[1])]
    if low >= 0:
        bounds[0] = max(bounds[0], 0 if whole else 0.0)
    if whole or not all(map(math.isfinite, bounds)):
        return {"$between": bounds}
    return {"$between": _rounded_out(bounds, values)}


def _rounded_out(bounds: list[Any], values: list[Any]) -> list[float]:
    """``bounds`` rounded outwards to the values' decimals, never inside the values."""
    places = max(_decimals(value) for value in values)
    below, above = _outwards(bounds[0], places, "floor"), _outwards(bounds[1], places, "ceiling")
    return [min(below, min(values)), max(above, max(values))]


def _finite_span(low: Any, high: Any) -> bool:
    """Whether ``low``, ``high`` and the span between them are finite floats."""
    try:
        return all(math.isfinite(value) for value in (low, high, high - low))
    except OverflowError:  # a whole number too large for a float, among floats
        return False


def _prediction(values: list[Any], low: Any, spread: Any) -> tuple[float, float] | None:
    """The 99 % prediction interval of one more value, or ``None`` beyond what floats hold."""
    count = len(values)
    try:
        mean = low + math.fsum((value - low) / count for value in values)
        # Scaled by the spread, so that no square overflows before the root is taken.
        deviation = math.sqrt(
            math.fsum(((value - mean) / spread) ** 2 for value in values) / (count - 1)
        )
        half = _t_99(count - 1) * float(spread) * deviation * math.sqrt(1 + 1 / count)
    except (OverflowError, ZeroDivisionError):  # whole numbers beyond floats; a spread of 0.0
        return None
    interval = (mean - half, mean + half)
    return interval if all(map(math.isfinite, interval)) else None


def _decimals(value: Any) -> int:
    """How many decimals ``value`` is written with (``1e-05``: five)."""
    import decimal

    exponent = decimal.Decimal(repr(value)).as_tuple().exponent
    return max(0, -exponent) if isinstance(exponent, int) else 0


def _outwards(bound: float, places: int, direction: str) -> float:
    """``bound`` rounded to ``places`` decimals, down (``floor``) or up (``ceiling``)."""
    import decimal

    context = decimal.Context(prec=800, rounding=getattr(decimal, f"ROUND_{direction.upper()}"))
    exact = context.create_decimal(repr(bound))
    try:
        return float(exact.quantize(decimal.Decimal(1).scaleb(-places), context=context))
    except decimal.InvalidOperation:  # more digits than the context holds: as it is
        return bound


def _rounding(values: list[Any]) -> dict[str, Any] | None:
    """``$approx`` when the values are one number written to different precisions: each
    rounds, at the fewest decimals any of them has (at least one), to the same number."""
    if not all(
        type(value) is int or (type(value) is float and math.isfinite(value)) for value in values
    ):
        return None
    found = _rounded(values)
    if found is None:
        return None
    middle, unit = found
    for tolerance in (unit / 2, unit):
        if all(Approx(middle, abs=float(tolerance)) == value for value in values):
            return {"$approx": middle, "abs": float(tolerance)}
    return None


def _rounded(values: list[float]) -> tuple[float, Any] | None:
    """The number every one of ``values`` rounds to at the fewest decimals any has, and the
    unit of that last decimal; ``None`` when they round to several, or have no decimals
    (whole numbers are counts more often than roundings)."""
    import decimal

    context = decimal.Context(prec=800)  # enough for every float's digits
    try:
        exact = [context.create_decimal(repr(value)) for value in values]
        places = min(
            max(0, -int(number.normalize(context).as_tuple().exponent)) for number in exact
        )
        unit = decimal.Decimal(1).scaleb(-places)
        rounded = {number.quantize(unit, context=context) for number in exact}
    except decimal.InvalidOperation:
        return None
    if len(rounded) != 1 or places == 0:
        return None
    return float(rounded.pop()), unit


# Strings -------------------------------------------------------------------------------------

_DIGITS, _LOWER, _UPPER = "0-9", "a-z", "A-Z"
# Runs of letters and digits together: an id's letters and digits mix at random
# (``usr_a1b2``), and a pattern of separate letter and digit runs would fit a few values only.
_TOKENS = re.compile(r"[0-9A-Za-z]+|.", re.DOTALL)
_REGEX_SPECIAL = frozenset(".^$*+?{}[]\\|()")


def _string(values: list[str], how: Loosening, schema: dict[str, Any]) -> tuple[Any, str]:
    """The first of the string rules that fits (docs/record.md); ``strict`` writes the values
    seen instead of anything but a UUID, a datetime, a date or an identifier."""
    found = _timed(values)
    if found is None and how.level == "varying":
        found = _alike_strings(values)
    if found is None:
        found = _identifiers(values)
    if found is not None:
        return found
    if how.level == "strict":
        return {"$one_of": list(dict.fromkeys(values))}, "observed-only"
    if any(_words(value) > 1 for value in values):
        return {"$type": "str"}, "text"
    return {"$type": "str"}, "any-string"


def _alike_strings(values: list[str]) -> tuple[Any, str] | None:
    """``varying``'s rules for strings, in order: the same text but for case, whitespace or
    separators, email addresses, URLs, a few short words seen again; ``None`` if none fits."""
    if all(Fuzzy(values[0]) == value for value in values):
        return {"fuzzy": values[0]}, "case-only"
    if all(IsEmail() == value for value in values):
        return {"$email": True}, "email"
    if all(IsURL() == value for value in values):
        return {"$url": {}}, "url"
    return _enum_like(values)


def _enum_like(values: list[str]) -> tuple[Any, str] | None:
    """The values seen, when they are a few short words that read as a closed set."""
    distinct = list(dict.fromkeys(values))
    if (
        len(distinct) <= _ENUM_SIZE
        and _closed(values)
        and all(_WORD.fullmatch(value) for value in distinct)
    ):
        return {"$one_of": distinct}, "enum-like"
    return None


def _identifiers(values: list[str]) -> tuple[Any, str] | None:
    """The identifiers' pattern, by shape, else by the prefix and suffix they share, when
    every value is an identifier and matches it; ``None`` otherwise."""
    if not all(_identifier(value) for value in values):
        return None
    pattern = _shape(values)
    if pattern is not None and all(Regex(pattern) == value for value in values):
        return {"regex": pattern}, "id-shape"
    pattern = _affixes(values)
    if pattern is not None and all(Regex(pattern) == value for value in values):
        return {"regex": pattern}, "id-affixes"
    return None


def _closed(values: list[Any]) -> bool:
    """Whether ``values`` read as a closed set: fewer than half of them are seen only once
    (Good and Turing's estimate of the chance that the next value is new: docs/record.md).

    >>> _closed(["en", "fr", "en"]), _closed(["en", "fr", "de"]), _closed(["a", "a", "b", "c"])
    (True, False, False)
    """
    once = sum(count == 1 for count in Counter(values).values())
    return 2 * once < len(values)


def _timed(values: list[str]) -> tuple[Any, str] | None:
    """A UUID, datetime or date when every value is one."""
    if all(IsUUID() == value for value in values):
        return _uuids(values)
    if all(IsDatetime() == value for value in values):
        return _datetimes(values)
    if all(IsDate() == value for value in values):
        return {"$date": True}, "date"
    return None


def _uuids(values: list[str]) -> tuple[Any, str]:
    """``$uuid`` for UUIDs, with their version when they all have the first one's."""
    import uuid

    version = uuid.UUID(values[0]).version
    if version in range(1, 9) and all(IsUUID(version) == value for value in values):
        return {"$uuid": version}, "uuid"
    return {"$uuid": True}, "uuid"


def _datetimes(values: list[str]) -> tuple[Any, str]:
    """``$datetime`` for ISO datetimes, saying whether they carry a time zone when they all
    do or all do not."""
    # No window around the recorded instants: a run tomorrow writes tomorrow's time.
    for aware in (True, False):
        if all(IsDatetime(tz_aware=aware) == value for value in values):
            return {"$datetime": {"tz_aware": aware}}, "datetime"
    return {"$datetime": True}, "datetime"


def _identifier(value: str) -> bool:
    """Whether ``value`` looks like an id or key: one token with a digit in it, not a word."""
    if not value or any(character.isspace() for character in value):
        return False
    return any(character.isdigit() for character in value)


def _words(value: str) -> int:
    return len(value.split())


def _shape(values: list[str]) -> str | None:
    """A pattern of runs of letters and digits, when every value has as many runs between
    the same separators: equal runs as written, others as the classes of their characters,
    with their length when it is the same everywhere (``ORD-[0-9]{5}``)."""
    split = [_TOKENS.findall(value) for value in values]
    if len({len(parts) for parts in split}) != 1:
        return None
    pattern = []
    for column in zip(*split, strict=True):
        if len(set(column)) == 1:
            pattern.append(_escape(column[0]))
        elif all(part[0].isascii() and part[0].isalnum() for part in column):
            pattern.append(_run_pattern(column))
        else:
            return None  # a separator that differs: not one shape
    return "".join(pattern)


def _run_pattern(column: tuple[str, ...]) -> str:
    """The pattern of the runs of letters and digits at one place of the values: the classes
    of their characters, with their length when it is the same in every value."""
    characters = set("".join(column))
    classes = [
        name
        for name, test in ((_DIGITS, str.isdigit), (_LOWER, str.islower), (_UPPER, str.isupper))
        if any(test(character) for character in characters)
    ]
    if classes == [_DIGITS, _LOWER] and characters <= set("0123456789abcdef"):
        classes = ["0-9a-f"]
    lengths = {len(part) for part in column}
    count = next(iter(lengths))
    repeat = "+" if len(lengths) > 1 else ("" if count == 1 else f"{{{count}}}")
    return f"[{''.join(classes)}]{repeat}"


def _affixes(values: list[str]) -> str | None:
    """``prefix.+suffix`` when the values share a prefix and suffix that make at least half
    of the shortest value (and two characters): enough to say what the values are."""
    prefix = _common_prefix(values)
    rests = [value[len(prefix) :] for value in values]
    suffix = _common_prefix([rest[::-1] for rest in rests])[::-1]
    shortest = min(map(len, values))
    if len(prefix) + len(suffix) < max(2, shortest / 2):
        return None
    middles = [rest[: len(rest) - len(suffix)] for rest in rests]
    any_text = "(?s)" if any("\n" in middle or "\r" in middle for middle in middles) else ""
    middle = ".*" if any(not middle for middle in middles) else ".+"
    return f"{any_text}{_escape(prefix)}{middle}{_escape(suffix)}"


def _common_prefix(values: list[str]) -> str:
    first, last = min(values), max(values)  # what these two share, all values share
    length = 0
    while length < len(first) and first[length] == last[length]:
        length += 1
    return first[:length]


def _escape(text: str) -> str:
    """``text`` as a regex matching it, with only what must be escaped escaped."""
    return "".join("\\" + char if char in _REGEX_SPECIAL else _printable(char) for char in text)


def _printable(character: str) -> str:
    """``character``, or its escape when it is not printable (a line break: ``\\n``)."""
    return character if character.isprintable() else character.encode("unicode_escape").decode()


# YAML nodes ------------------------------------------------------------------------------------


def ruamel_comments() -> Any:
    """``ruamel.yaml.comments``, or the ``ImportError`` naming the extra."""
    try:
        from ruamel.yaml import comments
    except ImportError:
        raise ImportError(NEEDS_RUAMEL) from None
    return comments


def add_comment(node: Any, text: str, key: Any) -> None:
    """Put ``# text`` at the end of the line of ``key`` in ``node`` (a ruamel mapping or
    list), two spaces after the value however long the lines above are."""
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    # At column 0 the emitter writes the comment one space after the value: the text's own
    # leading space makes two, the usual distance.
    node._yaml_add_eol_comment([CommentToken(f" # {text}", CommentMark(0)), None], key=key)


def node(value: Any) -> Any:
    """``value`` (plain data, or nodes already made) as ruamel nodes: mappings and lists on
    one line when :func:`one_line` says so and nothing inside carries a comment."""
    comments = ruamel_comments()
    if isinstance(value, comments.CommentedBase):
        return value
    if isinstance(value, dict):
        return flow_if_short(
            comments.CommentedMap((text_node(key), node(item)) for key, item in value.items())
        )
    if isinstance(value, list):
        return flow_if_short(comments.CommentedSeq(node(item) for item in value))
    return text_node(value)


def text_node(value: Any) -> Any:
    """A string with an unprintable character double-quoted, where YAML escapes it: written
    as it is, a NEL or a line separator would be read back as a line break."""
    if isinstance(value, str) and not value.isprintable():
        from ruamel.yaml.scalarstring import DoubleQuotedScalarString

        return DoubleQuotedScalarString(value)
    return value


def flow_if_short(value: Any) -> Any:
    """``value`` (a ruamel node) on one line when it is short and holds no comment."""
    if not _has_comments(value) and one_line(value, loose=True):
        value.fa.set_flow_style()
    else:
        value.fa.set_block_style()
    return value


def flow(value: Any) -> Any:
    """``value`` (a ruamel node) on one line."""
    value.fa.set_flow_style()
    return value


def _has_comments(value: Any) -> bool:
    """Whether ``value`` or a node inside it carries a comment (which needs block style)."""
    comment = getattr(value, "ca", None)
    if comment is not None and comment.items:
        return True
    if isinstance(value, dict):
        return any(map(_has_comments, value.values()))
    if isinstance(value, list):
        return any(map(_has_comments, value))
    return False


def _observed(values: list[Any], rule: str) -> str:
    """``observed: v1, v2, ...; rule: NAME``: the distinct values as JSON, at most five,
    then a count, and the rule that loosened them."""
    distinct = list(dict.fromkeys(shown(value) for value in values))
    listed = ", ".join(distinct[:SHOWN_VALUES])
    if len(distinct) > SHOWN_VALUES:
        listed += f", ... ({len(distinct)} distinct)"
    return f"observed: {listed}; rule: {rule}"


def shown(value: Any) -> str:
    """``value`` as JSON on one line, shortened, with nothing a YAML line could break at."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    text = "".join(map(_printable, text))
    if len(text) > _VALUE_WIDTH:
        text = text[: _VALUE_WIDTH - 3] + "..."
    return text
