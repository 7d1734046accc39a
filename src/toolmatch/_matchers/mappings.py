"""Argument dicts: ``Partial`` (subset of keys), ``Exact`` (same keys), ``Maybe`` and ``Absent``."""

from __future__ import annotations

from collections.abc import Mapping

from toolmatch._core.describe import short_repr
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher, is_instance
from toolmatch._matchers.literal import (
    Delegating,
    MappingMatcher,
    as_matcher,
    building,
    string_options,
)

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, ClassVar

    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["Absent", "Exact", "Maybe", "Partial"]


class _ArgsMatcher(MappingMatcher):
    __slots__ = ("_given",)
    _given: Mapping[Any, Any]  # the mapping as written, before ignored keys were left out
    _exact_keys: ClassVar[bool] = False

    def __init__(
        self,
        mapping: Mapping[Any, Any],
        *,
        trim_strings: bool = False,
        case_insensitive: bool = False,
        ignore: Sequence[str] | None = None,
    ) -> None:
        given = mapping
        strip = None
        if ignore is not None:
            from toolmatch._matchers.key_filter import (
                KeyFilter,  # here: `import toolmatch` stays fast
            )

            strip = KeyFilter(ignore)
            if is_instance(mapping, Mapping):  # anything else: refused by MappingMatcher
                with building(mapping):
                    mapping = strip(mapping)  # type: ignore[assignment]
        super().__init__(
            mapping,
            exact=self._exact_keys,
            trim_strings=trim_strings,
            case_insensitive=case_insensitive,
        )
        self._set(_given=given, _strip=strip)

    def _constructor_args(self) -> ConstructorArgs:
        options = string_options(self.trim_strings, self.case_insensitive)
        if self._strip is not None:
            options["ignore"] = list(self._strip.patterns)  # type: ignore[attr-defined]
        return (self._given,), options


@public
class Partial(_ArgsMatcher, _trusted=True):
    """Every listed key is present and matches; other keys are ignored (Dokimos SUBSET).

    Values that are not matchers use :class:`Literal` rules. Only the top level is
    partial: a nested plain dict needs the same keys unless it is wrapped in ``Partial``.

    >>> Partial({"q": "paris"}) == {"q": "paris", "limit": 5}
    True
    >>> Partial({"q": "paris", "limit": 5}).explain({"q": "rome"})
    "q: expected 'paris', got 'rome'; limit: missing"

    ``ignore`` leaves out, on both sides, the keys its glob patterns name; a dotted
    pattern reaches nested dicts (docs/arguments.md):

    >>> expected = Partial({"q": "paris", "trace": {"span": 1}}, ignore=["trace.span"])
    >>> expected == {"q": "paris", "trace": {"span": 2, "up": 0}}
    False
    >>> expected == {"q": "paris", "trace": {"span": 2}}
    True
    """

    __slots__ = ()


@public
class Exact(_ArgsMatcher, _trusted=True):
    """Like :class:`Partial`, but the actual dict may hold no other keys (Dokimos EXACT).

    >>> Exact({"q": "paris"}) == {"q": "paris"}
    True
    >>> Exact({"q": "paris"}).explain({"q": "paris", "limit": 5})
    'limit: unexpected key, with value 5'
    >>> Exact({"q": "paris"}, ignore=["*_id"]) == {"q": "paris", "request_id": "r-1"}
    True
    """

    __slots__ = ()
    _exact_keys = True


@public
class Maybe(Delegating, _trusted=True):
    """Inside a mapping matcher: the key may be absent, and when present must match ``value``.

    >>> Exact({"q": "paris", "limit": Maybe(10)}) == {"q": "paris"}
    True
    >>> Exact({"q": "paris", "limit": Maybe(10)}) == {"q": "paris", "limit": 20}
    False
    """

    __slots__ = ("value",)
    _key_presence = "optional"
    value: object

    def __init__(self, value: object) -> None:
        matcher = as_matcher(value)
        if matcher._key_presence != "required":
            raise TypeError(
                f"Maybe({value!r}) makes no sense: its value must be a plain value or matcher"
            )
        super().__init__(matcher)
        self._set(value=value)

    def _constructor_args(self) -> ConstructorArgs:
        return (self.value,), {}


@public
class _AbsentKey(Matcher, _trusted=True):
    __slots__ = ()
    _key_presence = "forbidden"

    def matches(self, actual: object) -> bool:
        return False  # any value at all means the key is present

    def _accepts_nothing(self) -> bool:
        return True

    def describe_mismatch(self, actual: object) -> str:
        return f"expected absent, got {short_repr(actual)}"

    def __repr__(self) -> str:
        return "Absent"

    def __reduce_ex__(self, protocol: Any) -> str:
        return "Absent"


Absent = _AbsentKey()
"""Inside a mapping matcher: the key must not be present.

>>> Partial({"q": "paris", "debug": Absent}) == {"q": "paris"}
True
>>> Partial({"q": "paris", "debug": Absent}).explain({"q": "paris", "debug": True})
'debug: expected absent, got True'
"""
