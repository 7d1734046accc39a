"""B2 fuzzy: ``Fuzzy`` against the reference pseudocode of seed 000, section 3.

The reference below is that pseudocode written out as it stands: it normalizes both sides
and tries to parse both as numbers on every call. ``Fuzzy`` does the expected side once, at
construction. Before timing, both are run over a sample of patterns and values: they must
agree everywhere except where ``Fuzzy`` documents a fix (digits grouped by spaces, such as
"206 588", which the reference leaves unparsed; and words such as "nan" or "inf", which the
reference reads as numbers).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable

from benchmarks._report import Config, Section, timed_figure
from benchmarks._timing import Contender, compare

TITLE = "fuzzy: Fuzzy vs the reference pseudocode (seed 000 section 3)"


def _normalize(s: str) -> str:
    s = s.strip().lower()
    s = re.sub(r"[,_\u202f]", "", s)
    s = re.sub(r"\s+", " ", s)
    return s  # noqa: RET504 (kept as the seed writes it)


def _try_parse_number(s: str) -> float | None:
    pct = False
    if s.endswith("%"):
        s = s[:-1].strip()
        pct = True
    try:
        v = float(s)
        return v / 100 if pct else v
    except ValueError:
        return None


def match_fuzzy(pattern: str, actual: object) -> bool:
    """The reference, as seed 000 section 3 writes it."""
    s_expected = _normalize(pattern)
    s_actual = _normalize(str(actual))
    n_e = _try_parse_number(s_expected)
    n_a = _try_parse_number(s_actual)
    if n_e is not None and n_a is not None:
        return math.isclose(n_e, n_a, rel_tol=0.0, abs_tol=1e-9)
    return s_expected == s_actual


# Timed pairs, by kind of input: (pattern, actual), matching and not.
CASES: dict[str, list[tuple[str, object]]] = {
    "numeric": [
        ("206588", 206588),
        ("206588", 206588.0),
        ("206588", "206,588"),
        ("206588", " 206588 "),
        ("206588", 205000),
        ("1,250.50", 1250.5),
        ("1,250.50", "1250.5"),
        ("-3.5", "-3.50"),
    ],
    "percent": [
        ("14.14%", 0.1414),
        ("14.14%", "14.14 %"),
        ("14.14%", "0.1414"),
        ("14.14%", 0.15),
        ("5%", 0.05),
        ("5%", "5 %"),
    ],
    "text": [
        ("New York", "new  york"),
        ("New York", "NEW YORK "),
        ("New York", "Boston"),
        ("YES", "yes"),
        ("YES", " yes "),
        ("YES", "no"),
        ("metric", "Metric"),
        ("celsius", "fahrenheit"),
    ],
}

# The agreement sample: every pattern against every value.
SAMPLE_PATTERNS = [
    "206588", "206,588", "1,250.50", "-3.5", "0", "1e3", "14.14%", "5%", "0.1414",
    "New York", "YES", "none", "true", "2009 cash flow", "nan", "inf", "206 588",
]  # fmt: skip
SAMPLE_VALUES: list[object] = [
    206588, 206588.0, "206588", "206,588", " 206588 ", "206_588", "206\u202f588", 205000,
    1250.5, "1250.50", -3.5, "-3.50", 0, 0.0, "0.0", "-0", 1000, "1E3", "1,000",
    0.1414, "14.14 %", "14.14%", 0.05, "5 %", "new  york", "NEW YORK", "yes", " Yes ",
    None, True, False, "2009  Cash Flow", [1, 2], "nan", "NaN", "inf", "-inf", "Infinity",
    float("inf"), float("nan"), "206 588", "1 250.50", 1e300, 10**400,
]  # fmt: skip


# The documented fixes, stated independently of toolmatch's code: "206 588" reads as a
# number, and only plain decimal notation does ("nan", "inf", "infinity" stay words).
SPACE_GROUPED = re.compile(r"[+-]?\d{1,3}(?: \d{3})+(?:\.\d*)?")
PLAIN_DECIMAL = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?")


def documented_difference(text: str) -> str | None:
    """Which documented fix a normalized string falls under, if any."""
    number = text[:-1].strip() if text.endswith("%") else text
    if SPACE_GROUPED.fullmatch(number):
        return "digits grouped by spaces"
    if _try_parse_number(text) is not None and not PLAIN_DECIMAL.fullmatch(number):
        return "non-decimal word read as a number"
    return None


def disagreements(
    patterns: Iterable[str], values: Iterable[object]
) -> tuple[dict[str, list[str]], list[str]]:
    """The documented differences by reason, and every undocumented one, over the product."""
    from toolmatch import Fuzzy

    documented: dict[str, list[str]] = {}
    undocumented: list[str] = []
    values = list(values)
    for pattern in patterns:
        matcher = Fuzzy(pattern)
        for value in values:
            try:
                mine: object = matcher == value
            except Exception as error:
                mine = f"raised {type(error).__name__}"
            try:
                theirs: object = match_fuzzy(pattern, value)
            except Exception as error:
                theirs = f"raised {type(error).__name__}"
            if mine == theirs:
                continue
            reasons = {documented_difference(_normalize(pattern))}
            if isinstance(value, str):
                reasons.add(documented_difference(_normalize(value)))
            reasons.discard(None)
            if reasons and isinstance(mine, bool) and isinstance(theirs, bool):
                for reason in reasons:
                    example = f"Fuzzy({pattern!r}) == {value!r} is {mine}"
                    documented.setdefault(reason, []).append(example)  # type: ignore[arg-type]
            else:
                shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
                undocumented.append(
                    f"Fuzzy({pattern!r}) == {shown}: toolmatch {mine}, reference {theirs}"
                )
    return documented, undocumented


def run(config: Config) -> Section:
    from toolmatch import Fuzzy

    section = Section("B2", TITLE)
    documented, undocumented = disagreements(SAMPLE_PATTERNS, SAMPLE_VALUES)
    total = len(SAMPLE_PATTERNS) * len(SAMPLE_VALUES)
    section.notes.append(
        f"agreement sample: {len(SAMPLE_PATTERNS)} patterns x {len(SAMPLE_VALUES)} values "
        f"= {total} pairs; differences, all documented fixes: "
        + (
            "; ".join(
                f"{reason} ({len(examples)}, e.g. `{examples[0]}`)"
                for reason, examples in documented.items()
            )
            or "none"
        )
    )
    section.errors += [f"undocumented difference: {line}" for line in undocumented]

    contenders: dict[str, Contender] = {}
    for kind, pairs in CASES.items():
        for pattern, value in pairs:
            if (Fuzzy(pattern) == value) is not match_fuzzy(pattern, value):
                section.errors.append(f"timed pair disagrees: {pattern!r} vs {value!r}")
        matchers = [(Fuzzy(pattern), value) for pattern, value in pairs]
        contenders[f"toolmatch|{kind}"] = Contender(
            "for m, v in pairs: m == v", {"pairs": matchers}
        )
        contenders[f"reference|{kind}"] = Contender(
            "for p, v in pairs: match(p, v)", {"pairs": pairs, "match": match_fuzzy}
        )
    timings = compare(contenders, rounds=config.rounds, sample_seconds=config.sample_seconds)
    for kind, pairs in CASES.items():
        section.figures.append(
            timed_figure(
                f"{kind} ({len(pairs)} pairs, per pair)",
                "Fuzzy",
                timings[f"toolmatch|{kind}"],
                "reference",
                timings[f"reference|{kind}"],
                per=len(pairs),
                max_ratio=0.5,
                budget="<= 0.5x (2x faster)",
            )
        )
    return section
