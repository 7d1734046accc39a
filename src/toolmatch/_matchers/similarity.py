"""``Similar``: text that shares enough of its words with an expected text.

The score is API-Bank's (its ``check_api_call_correctness`` for agenda, meeting and
reminder texts): the words of both texts as two sets, the size of their intersection
over the size of their union (docs/matchers.md has the formula and where it differs).
"""

from __future__ import annotations

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.flags import check_flag
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher

if TYPE_CHECKING:
    from toolmatch._matchers.base import ConstructorArgs


__all__ = ["Similar"]


def _bound(name: str, value: object, closed_low: bool) -> float:
    """``value`` as a threshold in its range (``min`` in (0, 1], ``above`` in [0, 1))."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(
            f"Similar {name} must be a number, got {short_repr(value)} ({type_name(value)})"
        )
    low_ok = value >= 0 if closed_low else value > 0
    high_ok = value < 1 if closed_low else value <= 1
    if not (low_ok and high_ok):  # NaN too
        shown = "[0, 1)" if closed_low else "(0, 1]"
        raise ValueError(
            f"Similar {name} must be in {shown}, the share of words the texts have in common; "
            f"got {value!r}"
        )
    return float(value)


def _shown(value: float) -> str:
    """A threshold as written: two decimals when that is exact, else all of them."""
    return f"{value:.2f}" if round(value, 2) == value else repr(value)


@public
class Similar(Matcher, _trusted=True):
    """A str whose words overlap ``text``'s enough: at least ``min`` (or more than
    ``above``) of the words in either text are in both (docs/matchers.md).

    Words are the runs between whitespace, punctuation included; ``case_insensitive=True``
    folds case first. The score is API-Bank's: shared distinct words over all distinct words.

    >>> topic = Similar("quarterly sales review", min=0.5)
    >>> topic == "sales review quarterly", topic == "quarterly review", topic == "sales"
    (True, True, False)
    >>> topic.explain("team lunch review")
    "expected text similar to 'quarterly sales review' (word overlap >= 0.50), got \
'team lunch review' (0.20)"
    """

    __slots__ = ("text", "min", "above", "case_insensitive", "_words", "_threshold")
    text: str
    min: float | None
    above: float | None
    case_insensitive: bool
    _words: frozenset[str]
    _threshold: float

    def __init__(
        self,
        text: str,
        *,
        min: float | None = None,
        above: float | None = None,
        case_insensitive: bool = False,
    ) -> None:
        if not isinstance(text, str):
            raise TypeError(
                f"Similar text must be a str, got {short_repr(text)} ({type_name(text)})"
            )
        check_flag(case_insensitive, "Similar case_insensitive")
        if (min is None) == (above is None):
            raise TypeError(
                "Similar needs one threshold, min (at least that share of words in common) "
                "or above (more than that share)"
                + (f"; got both, min {min!r} and above {above!r}" if min is not None else "")
            )
        text = str.__str__(text)  # its characters: a subclass must not decide its words
        words = self._split(text, case_insensitive)
        if not words:
            raise ValueError(
                f"Similar text must hold a word, got {short_repr(text)}; "
                "to match an empty string, compare with '' itself"
            )
        least = None if min is None else _bound("min", min, closed_low=False)
        over = None if above is None else _bound("above", above, closed_low=True)
        self._set(
            text=text,
            min=least,
            above=over,
            case_insensitive=case_insensitive,
            _words=words,
            _threshold=over if least is None else least,
        )

    @staticmethod
    def _split(text: str, fold: bool) -> frozenset[str]:
        return frozenset(str.split(str.casefold(text) if fold else text))

    def _overlap(self, actual: object) -> tuple[int, int] | None:
        """Shared and all distinct words of ``actual`` and the text; ``None`` for a non-str."""
        if not isinstance(actual, str):
            return None
        try:
            words = self._split(str.__str__(actual), self.case_insensitive)
        except Exception:  # a str subclass whose __str__ raises
            return None
        expected = self._words
        return len(expected & words), len(expected | words)  # the union is never empty

    def _passes(self, shared: int, total: int) -> bool:
        score = shared / total
        return score >= self._threshold if self.min is not None else score > self._threshold

    def matches(self, actual: object) -> bool:
        overlap = self._overlap(actual)
        return overlap is not None and self._passes(*overlap)

    def describe_mismatch(self, actual: object) -> str:
        rule = f"{'>=' if self.min is not None else '>'} {_shown(self._threshold)}"
        how = ", ignoring case" if self.case_insensitive else ""
        expected = f"expected text similar to {short_repr(self.text)} (word overlap {rule}{how})"
        overlap = self._overlap(actual)
        if overlap is None:
            return f"{expected}, got {short_repr(actual)} ({type_name(actual)})"
        shared, total = overlap
        # Rounded down, exactly: a score that fails never reads as the threshold it missed.
        score = 100 * shared // total
        return f"{expected}, got {short_repr(actual)} ({score // 100}.{score % 100:02d})"

    def _constructor_args(self) -> ConstructorArgs:
        options: dict[str, object] = (
            {"min": self.min} if self.min is not None else {"above": self.above}
        )
        if self.case_insensitive:
            options["case_insensitive"] = True
        return (self.text,), options
