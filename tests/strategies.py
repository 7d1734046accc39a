"""Hypothesis strategies shared by the property tests: random values and random matchers."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import strategies as st

from toolmatch import (
    ANY,
    Absent,
    AllOf,
    AnyOf,
    Approx,
    Between,
    ConformsTo,
    Contains,
    ContainsAll,
    Each,
    EndsWith,
    Exact,
    Fuzzy,
    Ge,
    Gt,
    IsDate,
    IsDatetime,
    IsEmail,
    IsJSON,
    IsType,
    IsURL,
    IsUUID,
    Le,
    Len,
    Literal,
    Lt,
    Matcher,
    Maybe,
    Not,
    OneOf,
    Partial,
    Regex,
    Satisfies,
    StartsWith,
    Unordered,
)

np = pytest.importorskip("numpy")

# Whitespace, thousands separators and a few non-ASCII letters make strings that the
# string options (trim, case folding) and Fuzzy's normalization actually act on.
# (dotless i, capital and final sigma, a decomposed e-acute: case folding is not one-to-one)
_TRICKY_CHARACTERS = (
    " \t\n\u00a0\u202f,_.%-+0123456789aAzZ\u00df\u0130\u0131\u03a3\u03c3\u03c2\u00e9e\u0301"
)

texts = st.text(
    alphabet=st.one_of(st.sampled_from(_TRICKY_CHARACTERS), st.characters()),
    max_size=12,
)
keys = st.text(alphabet="abcxyz _-1", max_size=4)

# Strings with the shapes the string, date and JSON matchers look for (and near misses).
shaped_texts = st.sampled_from(
    [
        "2026-12-01",
        "2026-12-02",
        "2026-12-01T10:30:00Z",
        "2026-12-01T10:30:00",
        "2026-12-01T10:30:00+05:00",
        "2026-13-01",
        "next tuesday",
        "6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b",
        "6F1C0E2A-3B4D-1E5F-8A9B-0C1D2E3F4A5B",
        "6f1c0e2a3b4d4e5f8a9b0c1d2e3f4a5b",
        "ada@example.com",
        "ada@localhost",
        "https://api.example.com/v1?q=1",
        "http://[::1",
        "example.com/x",
        '{"status": "open", "ids": [1, 2]}',
        "[1, 2.0, true, null]",
        "NaN",
        "{oops",
    ]
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    texts,
    shaped_texts,
)


def _json_containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(keys, children, max_size=4),
    )


json_values = st.recursive(json_scalars, _json_containers, max_leaves=12)
"""What ``json.loads`` can give: None, bool, int, float (NaN, infinities), str, list, dict."""


def _no_nan(value: object) -> bool:
    if isinstance(value, float):
        return value == value
    if isinstance(value, Decimal):
        return not value.is_nan()
    if isinstance(value, dict):
        return all(_no_nan(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return all(_no_nan(item) for item in value)
    return True


json_values_without_nan = st.recursive(
    json_scalars.filter(_no_nan), _json_containers, max_leaves=12
)

extra_scalars = st.one_of(
    st.integers(min_value=-(2**63), max_value=2**63 - 1).map(np.int64),
    st.floats(allow_nan=True, allow_infinity=True).map(np.float64),
    st.booleans().map(np.bool_),
    st.decimals(allow_nan=True, allow_infinity=True),
)


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.lists(children, max_size=4),
        st.lists(children, max_size=4).map(tuple),
        st.dictionaries(keys, children, max_size=4),
    )


values = st.recursive(st.one_of(json_scalars, extra_scalars), _containers, max_leaves=12)
"""JSON-like values plus numpy scalars, Decimal and tuples, at any depth."""

values_without_nan = st.recursive(
    st.one_of(json_scalars, extra_scalars).filter(_no_nan), _containers, max_leaves=12
)

small_values = st.recursive(st.one_of(json_scalars, extra_scalars), _containers, max_leaves=3)

_PATTERNS = [
    r".*",
    r"^2009.*$",
    r"[0-9]+",
    r"\d+(\.\d+)?",
    r"[a-z]+",
    r"(?i)yes|no",
    r"\s*",
    r"None|True|False",
    r"\[.*\]",
    r"",
    r"ß+",
]
_FUZZY_PATTERNS = ["206588", "206,588", "206 588", "14.14%", "YES", " yes ", "-1.5e3", "nan"]
_TYPES = [int, float, str, bool, list, tuple, dict, type(None), object, Decimal, np.integer]


def _regexes() -> st.SearchStrategy[Matcher]:
    flags = st.sampled_from([0, re.IGNORECASE, re.DOTALL])
    fixed = st.builds(Regex, st.sampled_from(_PATTERNS), flags)
    escaped = texts.map(lambda text: Regex(re.escape(text)))
    compiled = st.sampled_from(_PATTERNS).map(lambda pattern: Regex(re.compile(pattern)))
    return st.one_of(fixed, escaped, compiled)


def _approxes() -> st.SearchStrategy[Matcher]:
    numbers = st.one_of(
        st.integers(min_value=-(10**6), max_value=10**6),
        st.floats(allow_nan=False, allow_infinity=True),
        st.floats(min_value=-1e6, max_value=1e6).map(np.float64),
        st.decimals(min_value=-(10**6), max_value=10**6, places=3),
    )
    tolerances = st.floats(min_value=0, max_value=1)
    return st.builds(Approx, numbers, rel=tolerances, abs=st.floats(min_value=0, max_value=10))


def _bounds() -> st.SearchStrategy[Matcher]:
    numbers = st.one_of(
        st.integers(min_value=-(10**6), max_value=10**6),
        st.floats(allow_nan=False, allow_infinity=True),
        st.decimals(min_value=-(10**6), max_value=10**6, places=2),
    )
    one_sided = st.builds(
        lambda kind, bound: kind(bound), st.sampled_from([Gt, Ge, Lt, Le]), numbers
    )
    pairs = st.tuples(numbers, numbers).map(sorted)
    between = st.builds(
        lambda pair, inclusive: Between(*pair, inclusive=inclusive or pair[0] == pair[1]),
        pairs,
        st.booleans(),
    )
    return st.one_of(one_sided, between)


_DATES = [
    lambda: IsDatetime(),
    lambda: IsDatetime("2026-12-01T10:00:00Z", "PT1H"),
    lambda: IsDatetime("2026-12-01", "P1D", tz_aware=False),
    lambda: IsDatetime("now", "P36500D"),
    lambda: IsDatetime(tz_aware=True),
    lambda: IsDate(),
    lambda: IsDate("2026-12-01", within_days=1),
    lambda: IsDate("today"),
]
_URLS = [
    lambda: IsURL(),
    lambda: IsURL(scheme="https", host=EndsWith("example.com")),
    lambda: IsURL(path=StartsWith("/v1")),
]


_SCHEMAS: list[Any] = [
    {"type": "integer", "minimum": 0},
    {"type": "string", "format": "date"},
    {"type": "object", "required": ["a"], "additionalProperties": {"type": "number"}},
    {"type": "array", "items": {"type": ["string", "null"]}, "maxItems": 2},
    True,
]


def _positive(value: object) -> bool:
    """A predicate for Satisfies: raises TypeError on anything that is not comparable."""
    return value > 0  # type: ignore[operator,no-any-return]


def _options() -> st.SearchStrategy[dict[str, bool]]:
    return st.fixed_dictionaries({"trim_strings": st.booleans(), "case_insensitive": st.booleans()})


def _kinds(builders: dict[str, st.SearchStrategy[Matcher]]) -> st.SearchStrategy[Matcher]:
    # Pick the kind first: a plain one_of over these branches draws a few kinds almost always.
    return st.sampled_from(list(builders)).flatmap(builders.__getitem__)


# The kinds issue 14 added, as the builders below name them.
CATALOGUE_KINDS = frozenset(
    {"bounds", "dates", "affixes", "IsUUID", "IsEmail", "IsURL", "IsJSON", "Satisfies", "Len"}
    | {"ConformsTo"}
    | {"Unordered", "ContainsAll", "Each", "Partial ignore", "Exact ignore"}
)


def _only(builders: dict[str, Any], kinds: frozenset[str] | None) -> dict[str, Any]:
    return builders if kinds is None else {k: v for k, v in builders.items() if k in kinds}


def _leaves(singletons: bool, kinds: frozenset[str] | None = None) -> st.SearchStrategy[Matcher]:
    builders = {
        "Literal": st.builds(
            lambda value, options: Literal(value, **options), small_values, _options()
        ),
        "Fuzzy": st.one_of(texts, st.sampled_from(_FUZZY_PATTERNS), st.integers().map(str)).map(
            Fuzzy
        ),
        "Regex": _regexes(),
        "Approx": _approxes(),
        "Contains": st.one_of(texts, json_scalars).map(Contains),
        "IsType": st.lists(st.sampled_from(_TYPES), min_size=1, max_size=3).map(
            lambda kinds: IsType(*kinds)
        ),
        "bounds": _bounds(),
        "dates": st.sampled_from(_DATES).map(lambda build: build()),
        "affixes": st.builds(
            lambda kind, text, fold: kind(text, case_insensitive=fold),
            st.sampled_from([StartsWith, EndsWith]),
            st.one_of(texts, st.sampled_from(["2026", "@example.com", "{", "https://"])),
            st.booleans(),
        ),
        "IsUUID": st.sampled_from([None, 1, 4]).map(IsUUID),
        "IsEmail": st.just(IsEmail()),
        "IsURL": st.sampled_from(_URLS).map(lambda build: build()),
        "IsJSON": st.one_of(st.just(IsJSON()), small_values.map(IsJSON)),
        "Satisfies": st.just(Satisfies(_positive, "a positive number")),
        "Len": st.integers(min_value=0, max_value=4).map(Len),
        "ConformsTo": st.sampled_from(_SCHEMAS).map(ConformsTo),
    }
    if singletons:
        builders.update({"ANY": st.just(ANY), "Absent": st.just(Absent)})
    return _kinds(_only(builders, kinds))


def _required(matcher: Matcher) -> bool:
    # Maybe and Absent only make sense as a mapping matcher's values.
    return matcher is not Absent and not isinstance(matcher, Maybe)


def _composites(
    children: st.SearchStrategy[Matcher], singletons: bool, kinds: frozenset[str] | None = None
) -> st.SearchStrategy[Matcher]:
    required = children.filter(_required)
    # Small plain parts: big ones overrun hypothesis's buffer and starve these branches.
    parts = st.one_of(required, small_values)
    absent = [st.just(Absent)] if singletons else []
    arguments = st.dictionaries(keys, st.one_of(parts, required.map(Maybe), *absent), max_size=3)
    options = _options()
    builders = {
        "Literal list": st.builds(
            lambda items, o: Literal(items, **o), st.lists(parts, max_size=3), options
        ),
        "Literal tuple": st.builds(
            lambda items, o: Literal(tuple(items), **o), st.lists(parts, max_size=3), options
        ),
        "Literal dict": st.builds(lambda mapping, o: Literal(mapping, **o), arguments, options),
        "Partial": st.builds(lambda mapping, o: Partial(mapping, **o), arguments, options),
        "Exact": st.builds(lambda mapping, o: Exact(mapping, **o), arguments, options),
        "OneOf": st.lists(parts, min_size=1, max_size=3).map(lambda items: OneOf(*items)),
        "AllOf": st.lists(children, min_size=1, max_size=3).map(lambda items: AllOf(*items)),
        "AnyOf": st.lists(children, min_size=1, max_size=3).map(lambda items: AnyOf(*items)),
        "Not": children.map(Not),
        "&": st.tuples(children, children).map(lambda pair: pair[0] & pair[1]),
        "|": st.tuples(children, children).map(lambda pair: pair[0] | pair[1]),
        "~": children.map(lambda matcher: ~matcher),
        "Maybe": st.one_of(required, small_values).map(Maybe),
        "Contains": st.one_of(required, texts).map(Contains),
        "Unordered": st.lists(parts, max_size=3).map(Unordered),
        "ContainsAll": st.lists(parts, max_size=3).map(ContainsAll),
        "Each": required.map(Each),
        "Len": required.map(Len),
        "IsJSON": required.map(IsJSON),
        "Partial ignore": st.builds(
            lambda mapping, ignore: Partial(mapping, ignore=ignore),
            arguments,
            st.lists(st.sampled_from(["a*", "*_id", "x.*", "*.b", "c"]), max_size=2),
        ),
        "Exact ignore": st.builds(
            lambda mapping, ignore: Exact(mapping, ignore=ignore),
            arguments,
            st.lists(st.sampled_from(["a*", "*_id", "x.*", "*.b", "c"]), max_size=2),
        ),
    }
    return _kinds(_only(builders, kinds))


def _matchers(singletons: bool) -> st.SearchStrategy[Matcher]:
    # Two levels by hand: st.recursive's draws hardly ever stop at a leaf.
    leaves = _leaves(singletons)
    shallow = st.one_of(leaves, _composites(leaves, singletons))
    return st.one_of(leaves, _composites(shallow, singletons))


leaf_matchers = _leaves(singletons=True)
"""One matcher of every kind that holds no other matcher."""

matchers = _matchers(singletons=True)
"""Matchers of every kind, composites holding random children at any depth."""


def _catalogue() -> st.SearchStrategy[Matcher]:
    leaves = _leaves(singletons=True)
    shallow = st.one_of(leaves, _composites(leaves, singletons=True))
    return st.one_of(
        _leaves(singletons=True, kinds=CATALOGUE_KINDS),
        _composites(shallow, singletons=True, kinds=CATALOGUE_KINDS),
    )


catalogue_matchers = _catalogue()
"""The matchers issue 14 added (and Partial/Exact with ignore=), holding any children."""


def order_closure(edges: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The pairs ``(earlier, later)`` the edges order, directly or through others: what the
    order tests' brute forces read "directly or through other steps" as."""
    pairs = set(edges)
    while True:
        more = {(i, k) for i, j in pairs for j2, k in pairs if j == j2} - pairs
        if not more:
            return pairs
        pairs |= more
