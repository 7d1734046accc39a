"""Cases written from recorded runs, with the values that vary between runs as matchers.

:func:`recorded_case` makes the spec entry of one case from its recorded runs, as a
``ruamel.yaml`` mapping that carries its layout and its comments (the observed values of
each loosened value). ``toolmatch record`` writes one per case; ``toolmatch check
--update new`` adds the cases a spec lacks with the same function. What is written, and
which matcher each kind of varying value becomes, is in docs/record.md.

ruamel.yaml (the ``cli`` extra) is imported when a case is built, never before.
"""

from __future__ import annotations

import itertools
import math
import re

from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.dates import IsDate, IsDatetime
from toolmatch._matchers.lists import Unordered
from toolmatch._matchers.literal import Literal, is_bool, is_number
from toolmatch._matchers.numbers import Approx
from toolmatch._matchers.shapes import IsUUID
from toolmatch._matchers.strings import Regex
from toolmatch._runs.envelope import turns_value
from toolmatch._spec.importing import escaped, exact_name
from toolmatch._spec.loading import read_run_turns
from toolmatch._spec.matcher_keys import NESTED_TOO_DEEPLY, matcher_key, unbounded
from toolmatch._spec.writing import NEEDS_RUAMEL, one_line

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._runs.syntax import PythonTurns

__all__ = [
    "add_comment",
    "calls_of_run",
    "kept_turn_count",
    "not_json",
    "recorded_case",
    "recorded_spec",
]

_SHOWN_VALUES = 5  # observed values listed in a comment; past them, a count
_VALUE_WIDTH = 40  # one observed value in a comment, at most
_SHOWN_CALLS = 5  # calls left out, listed on a turn


def calls_of_run(run_turns: object, python: PythonTurns | None = None) -> list[list[ToolCall]]:
    """A recorded run's turns (a list, or that list as JSON text), each read by :func:`to_calls`
    (its text turns as Python calls with ``python``, ``--syntax python``).

    Raises ``TypeError`` (or ``ValueError``) naming the turn that cannot be read, as
    ``toolmatch check`` reports it.

    >>> calls_of_run('[[{"name": "search", "args": {"q": "paris"}}], []]')
    [[ToolCall(name='search', args={'q': 'paris'})], []]
    """
    turns = turns_value(run_turns)
    return read_run_turns(turns if python is None else python(turns))


def kept_turn_count(runs: Sequence[Sequence[object]]) -> int | None:
    """How many turns the case recorded from ``runs`` has: the most common number among the
    runs with at least one turn, the later run's on a tie; ``None`` when no run has a turn.

    A case has one number of turns, and a run with more or fewer fails it (docs/record.md),
    so the runs with another number are left out of the case.

    >>> kept_turn_count([[[]], [[], []], [[], []]]), kept_turn_count([[[]], [[], []]])
    (2, 2)
    """
    counts: dict[int, int] = {}
    latest: dict[int, int] = {}
    for index, run in enumerate(runs):
        if run:
            counts[len(run)] = counts.get(len(run), 0) + 1
            latest[len(run)] = index
    if not counts:
        return None
    return max(counts, key=lambda turns: (counts[turns], latest[turns]))


def recorded_case(
    name: str, runs: Sequence[Sequence[Sequence[ToolCall]]], *, loosen: bool = True
) -> Any:
    """The spec entry of case ``name`` recorded from ``runs`` (runs, then turns, then calls).

    Returns a ``ruamel.yaml`` ``CommentedMap``: ``name``, then the turn's keys for a
    single-turn case, or ``turns``. Each call is an expected tool with its exact name
    (``{$literal: ...}``), ``exact: true`` and its arguments. With ``loosen`` and several
    runs, values equal in every run stay as recorded, values that differ become the
    narrowest matcher that accepts them all (with a comment listing them), calls missing
    from some runs are left out (listed in a comment on ``expected_tools``), and runs
    with another number of turns than :func:`kept_turn_count` are left out; without
    ``loosen``, the case is the last run's. ``toolmatch check --update new`` builds the
    cases it adds with this function. Raises ``ValueError`` when no run has a turn, or
    when the case would be nested deeper than a spec may be (docs/config.md, Limits).

    >>> from toolmatch import ToolCall
    >>> from toolmatch._spec.writing import spec_text
    >>> runs = [[[ToolCall("search", {"q": "ORD-20931"})]], [[ToolCall("search", {"q": "ORD-11"})]]]
    >>> print(spec_text(recorded_spec([recorded_case("lookup", runs)])), end="")
    test_cases:
    - name: lookup  # recorded from 2 runs
      exhaustive: true
      expected_tools:
      - name: {$literal: search}
        exact: true
        args:
          q: {regex: 'ORD-[0-9]+'}  # observed: "ORD-20931", "ORD-11"
    """
    comments = _ruamel()
    if not loosen:
        chosen = [runs[-1]] if runs else []
    else:
        count = kept_turn_count(runs)
        chosen = [run for run in runs if count is not None and len(run) == count]
    if not chosen or not chosen[0]:
        raise ValueError(f"case {name!r}: no run has a turn; a case needs at least one")
    for run in chosen:
        for number, calls in enumerate(run):
            for index, call in enumerate(calls):
                # Before anything recurses into them: deeper arguments could not load anyway.
                if unbounded(call.args) is not None:
                    raise ValueError(
                        f"case {name!r}: turn {number}, call {index} ({short_repr(call.name)}): "
                        f"its arguments are {NESTED_TOO_DEEPLY} (a spec's limit)"
                    )
        problem = not_json(run)
        if problem is not None:
            raise ValueError(f"case {name!r}: {problem}")
    case = comments.CommentedMap()
    case["name"] = _text(name)
    notes = []
    if len(runs) > 1:
        notes.append(
            f"recorded from {len(chosen)} runs" if loosen else f"the last of {len(runs)} runs"
        )
    left_out = len(runs) - len(chosen)
    if loosen and left_out:
        notes.append(f"{left_out} run(s) with another number of turns left out")
    if notes:
        add_comment(case, "; ".join(notes), "name")
    turns = [_turn([run[number] for run in chosen]) for number in range(len(chosen[0]))]
    if len(turns) == 1:
        for key, value in turns[0].items():
            case[key] = value
        _copy_comments(turns[0], case)
    else:
        case["turns"] = comments.CommentedSeq(turns)
    beyond = unbounded({"test_cases": [case]})  # measured as the file is: from its top
    if beyond is not None:
        raise ValueError(
            f"case {name!r}: {NESTED_TOO_DEEPLY}, counted from the top of the spec "
            "(the spec's own levels and the matchers written around values count too)"
        )
    return case


def not_json(turns: Sequence[Sequence[ToolCall]]) -> str | None:
    """What in a run's arguments a spec cannot hold, or ``None``: a spec holds JSON values
    only (strings, numbers, booleans, null, lists, mappings with string keys), and a
    Parquet column may hold others (a decimal, a timestamp, bytes).

    >>> from decimal import Decimal
    >>> from toolmatch import ToolCall
    >>> not_json([[ToolCall("f", {"x": [1, {"y": Decimal("1.5")}]})]])
    "turn 0, call 0 ('f'): args.x[1].y: Decimal('1.5') (decimal.Decimal) is not a JSON value, and \
a spec holds only those (store the column as JSON text)"
    """
    for number, calls in enumerate(turns):
        for index, call in enumerate(calls):
            found = _not_json(call.args)
            if found is not None:
                path, value = found
                return (
                    f"turn {number}, call {index} ({short_repr(call.name)}): {path}: "
                    f"{short_repr(value)} ({type_name(value)}) is not a JSON value, and a "
                    "spec holds only those (store the column as JSON text)"
                )
    return None


def _not_json(args: object) -> tuple[str, object] | None:
    """The first value in ``args`` that is not a JSON value, with its path (a key for a key)."""
    # Walked without recursion: a run's arguments may nest deeper than the stack.
    stack: list[tuple[str, object]] = [("args", args)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            for key, item in reversed(value.items()):
                if not isinstance(key, str):
                    return f"{path} (a key)", key
                stack.append((f"{path}.{key}", item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", item) for i, item in reversed(list(enumerate(value))))
        elif not (value is None or isinstance(value, (str, int, float))):
            return path, value
    return None


def recorded_spec(cases: Iterable[Any]) -> Any:
    """A spec mapping, ``test_cases``, holding ``cases`` (from :func:`recorded_case`).

    >>> from toolmatch import ToolCall
    >>> spec = recorded_spec([recorded_case("a", [[[ToolCall("f")]]])])
    >>> list(spec), spec["test_cases"][0]["name"]
    (['test_cases'], 'a')
    """
    comments = _ruamel()
    spec = comments.CommentedMap()
    spec["test_cases"] = comments.CommentedSeq(cases)
    return spec


def _ruamel() -> Any:
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


def _copy_comments(source: Any, target: Any) -> None:
    for key, comment in source.ca.items.items():
        target.ca.items[key] = comment


# Turns and calls -----------------------------------------------------------------------------


def _turn(runs: list[Sequence[ToolCall]]) -> Any:
    """One turn's mapping from its calls in each run (see :func:`_paired`)."""
    comments = _ruamel()
    pairs = _paired(runs)
    turn = comments.CommentedMap()
    if len(pairs) >= 2 and all(
        all(before[run] < after[run] for before, after in itertools.pairwise(pairs))
        for run in range(len(runs))
    ):
        turn["ordered"] = True
    left_out = _left_out(runs, pairs)
    if not left_out:
        turn["exhaustive"] = True
    elif len(pairs) >= 2 and "ordered" not in turn:
        turn["distinct"] = True
    tools = comments.CommentedSeq(
        _expected_tool([calls[pair[run]] for run, calls in enumerate(runs)], len(runs))
        for pair in pairs
    )
    if not tools:
        tools.fa.set_flow_style()
    turn["expected_tools"] = tools
    if left_out:
        add_comment(turn, left_out, "expected_tools")
    return turn


def _paired(runs: list[Sequence[ToolCall]]) -> list[list[int]]:
    """The calls every run has, each as its index in every run, in the first run's order.

    A name called ``k`` times in the run that calls it least is ``k`` expectations; in a run
    that calls it more often, the ``k`` calls kept are those, in order, whose arguments are
    most like the fewest-calls run's (so an extra call is left out, not paired with a
    different one). A call another run does not make is left out.
    """
    pairs: list[list[int]] = []
    for name in dict.fromkeys(call.name for call in runs[0]):
        places = [
            [index for index, call in enumerate(calls) if call.name == name] for calls in runs
        ]
        fewest = min(range(len(runs)), key=lambda run: len(places[run]))
        reference = [runs[fewest][index] for index in places[fewest]]
        if not reference:
            continue
        kept = [
            [places[run][pick] for pick in _aligned(reference, [calls[i] for i in places[run]])]
            for run, calls in enumerate(runs)
        ]
        pairs.extend(
            [kept[run][number] for run in range(len(runs))] for number in range(len(reference))
        )
    pairs.sort(key=lambda pair: pair[0])
    return pairs


def _aligned(reference: list[ToolCall], calls: list[ToolCall]) -> list[int]:
    """Which of ``calls`` (as many as ``reference`` has, in order) pair best with it: the
    most arguments equal, the earliest calls on a tie."""
    if len(calls) == len(reference):
        return list(range(len(calls)))
    rows, columns = len(reference), len(calls)
    # best[j][i]: the best score pairing the first j of reference within the first i calls
    best = [[0] * (columns + 1) for _ in range(rows + 1)]
    for j in range(1, rows + 1):
        for i in range(j, columns + 1):
            paired = best[j - 1][i - 1] + _likeness(reference[j - 1], calls[i - 1])
            best[j][i] = max(paired, best[j][i - 1]) if i > j else paired
    picks = []
    i = columns
    for j in range(rows, 0, -1):
        while i > j and best[j][i - 1] >= best[j][i]:
            i -= 1  # the same score without this call: an earlier one serves
        picks.append(i - 1)
        i -= 1
    return picks[::-1]


def _likeness(expected: ToolCall, call: ToolCall) -> int:
    """How many arguments two calls share with equal values (one more when all are equal)."""
    same = 0
    for key, value in expected.args.items():
        if key in call.args and _all_equal([value, call.args[key]]):
            same += 1
    return same + (same == len(expected.args) == len(call.args))


def _left_out(runs: list[Sequence[ToolCall]], pairs: list[list[int]]) -> str:
    """The comment listing the calls of some runs that no expectation stands for, or ``""``."""
    missing: dict[str, tuple[ToolCall, list[int]]] = {}
    for run, calls in enumerate(runs):
        kept = {pair[run] for pair in pairs}
        for index, call in enumerate(calls):
            if index not in kept:
                text = f"{_shown(call.name)} {_shown(call.args)}"
                missing.setdefault(text, (call, []))[1].append(run + 1)
    if not missing:
        return ""
    listed = []
    for text, (_, numbers) in list(missing.items())[:_SHOWN_CALLS]:
        numbers = list(dict.fromkeys(numbers))
        where = f"run {numbers[0]}" if len(numbers) == 1 else f"runs {_numbers(numbers)}"
        listed.append(f"{text} in {where}")
    more = len(missing) - _SHOWN_CALLS
    text = "left out, not in every run: " + "; ".join(listed)
    return text + (f"; and {more} more" if more > 0 else "")


def _numbers(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:_SHOWN_VALUES]))
    return shown + (f", ... ({len(numbers)} runs)" if len(numbers) > _SHOWN_VALUES else "")


def _expected_tool(calls: list[ToolCall], runs: int) -> Any:
    comments = _ruamel()
    tool = comments.CommentedMap()
    tool["name"] = _flow(_node(exact_name(calls[0].name)))
    unreadable = [call.parse_error for call in calls if call.parse_error is not None]
    if unreadable:
        # Any assertion on arguments fails a call whose arguments could not be read.
        add_comment(
            tool,
            f"arguments not asserted: unreadable in {len(unreadable)} of {runs} run(s): "
            + _shown(unreadable[0]),
            "name",
        )
        return tool
    tool["exact"] = True
    if any(call.args for call in calls):
        tool["args"] = _mapping([call.args for call in calls], data=False)
    return tool


# Values ------------------------------------------------------------------------------------


def _suggest(values: list[Any]) -> tuple[Any, str | None]:
    """The spec value accepting every one of ``values``, and its comment when it is loosened:
    the values as recorded when they are all equal, else the narrowest suggestion."""
    first = values[0]
    if _all_equal(values):
        return _node(escaped(first)), None
    if isinstance(first, dict) and all(isinstance(value, dict) for value in values):
        return _mapping(values, data=True), None
    if isinstance(first, list) and all(isinstance(value, list) for value in values):
        return _sequence(values)
    kinds = _kinds(values)
    if len(kinds) > 1:
        options = [_suggest(group)[0] for group in kinds.values()]
        return _node({"$any_of": options}), _observed(values)
    kind = next(iter(kinds))
    if kind == "number":
        return _node(_number(values)), _observed(values)
    if kind == "str":
        return _node(_string(values)), _observed(values)
    return _node({"$type": kind}), _observed(values)  # bools that differ


def _all_equal(values: list[Any]) -> bool:
    try:
        expected = Literal(values[0])
    except (TypeError, ValueError):  # beyond what a matcher holds: compared part by part
        return False
    for value in values:
        if expected != value:
            return False
    return True


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


def _mapping(values: list[dict[str, Any]], *, data: bool) -> Any:
    """A mapping of every key of ``values``; a key missing from some is ``$maybe``. A data
    mapping whose keys read as a matcher is wrapped in ``$exact`` (same keys, no others)."""
    comments = _ruamel()
    mapping = comments.CommentedMap()
    keys = list(dict.fromkeys(key for value in values for key in value))
    for key in keys:
        present = [value[key] for value in values if key in value]
        node, comment = _suggest(present)
        if len(present) < len(values):
            node = _flow_if_short(comments.CommentedMap({"$maybe": node}))
            missing = f"missing in {len(values) - len(present)} of {len(values)}"
            comment = f"{comment}; {missing}" if comment else missing
        mapping[_text(key)] = node
        if comment:
            add_comment(mapping, comment, _text(key))
    if data and matcher_key(mapping) is not None:
        return comments.CommentedMap({"$exact": mapping})
    return mapping


def _sequence(values: list[list[Any]]) -> tuple[Any, str | None]:
    """Lists that differ: the same items in another order are ``$unordered``; lists of one
    length compare item by item; others are ``$each`` of what every item is."""
    comments = _ruamel()
    if all(Unordered(values[0]) == value for value in values):
        return _node({"$unordered": [escaped(item) for item in values[0]]}), _observed(values)
    if len({len(value) for value in values}) == 1:
        sequence = comments.CommentedSeq()
        for index, column in enumerate(zip(*values, strict=True)):
            node, comment = _suggest(list(column))
            sequence.append(node)
            if comment:
                add_comment(sequence, comment, index)
        return _flow_if_short(sequence), None
    items = [item for value in values for item in value]
    return _node({"$each": _suggest(items)[0]}), _observed(values)


def _number(values: list[Any]) -> dict[str, Any]:
    if any(isinstance(value, float) and math.isnan(value) for value in values):
        # NaN equals nothing, so no range or tolerance can hold it.
        return {"$type": "float" if all(isinstance(v, float) for v in values) else "number"}
    rounded = _rounding(values)
    if rounded is not None:
        return rounded
    return {"$between": [min(values), max(values)]}


def _rounding(values: list[Any]) -> dict[str, Any] | None:
    """``$approx`` when the values are one number written to different precisions: each
    rounds, at the fewest decimals any of them has (at least one), to the same number."""
    import decimal

    if not all(type(value) in (int, float) and math.isfinite(value) for value in values):
        return None
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
    if len(rounded) != 1 or places == 0:  # whole numbers are counts more often than roundings
        return None
    center = rounded.pop()
    middle = float(center)
    for tolerance in (unit / 2, unit):
        suggestion = {"$approx": middle, "abs": float(tolerance)}
        if all(Approx(middle, abs=float(tolerance)) == value for value in values):
            return suggestion
    return None


_DIGITS, _LOWER, _UPPER = "0-9", "a-z", "A-Z"
_FINE_TOKENS = re.compile(r"[0-9]+|[a-z]+|[A-Z]+|.", re.DOTALL)
_COARSE_TOKENS = re.compile(r"[0-9A-Za-z]+|.", re.DOTALL)
_REGEX_SPECIAL = frozenset(".^$*+?{}[]\\|()")


def _string(values: list[str]) -> dict[str, Any]:
    """The narrowest of: a UUID, an ISO datetime or date, a regex of the strings' shape or
    of their shared prefix and suffix, any string."""
    if all(IsUUID() == value for value in values):
        import uuid

        version = uuid.UUID(values[0]).version
        if version in range(1, 9) and all(IsUUID(version) == value for value in values):
            return {"$uuid": version}
        return {"$uuid": True}
    if all(IsDatetime() == value for value in values):
        # No window around the recorded instants: a run tomorrow writes tomorrow's time.
        for aware in (True, False):
            if all(IsDatetime(tz_aware=aware) == value for value in values):
                return {"$datetime": {"tz_aware": aware}}
        return {"$datetime": True}
    if all(IsDate() == value for value in values):
        return {"$date": True}
    for pattern in (
        _shape(values, _FINE_TOKENS),
        _shape(values, _COARSE_TOKENS),
        _affixes(values),
    ):
        if pattern is not None and all(Regex(pattern) == value for value in values):
            return {"regex": pattern}
    return {"$type": "str"}


def _shape(values: list[str], tokens: re.Pattern[str]) -> str | None:
    """A pattern of runs of digits and letters, when every value has the same runs in the
    same places: equal runs as written, others as their class (``ORD-[0-9]{5}``)."""
    split = [tokens.findall(value) for value in values]
    if len({len(parts) for parts in split}) != 1:
        return None
    pattern = []
    for column in zip(*split, strict=True):
        if len(set(column)) == 1:
            pattern.append(_escape(column[0]))
            continue
        if not all(part[0].isascii() and part[0].isalnum() for part in column):
            return None  # a separator that differs: not one shape
        characters = set("".join(column))
        classes = [
            name
            for name, test in ((_DIGITS, str.isdigit), (_LOWER, str.islower), (_UPPER, str.isupper))
            if any(test(character) for character in characters)
        ]
        if tokens is _FINE_TOKENS and len(classes) > 1:
            return None
        if classes == [_DIGITS, _LOWER] and characters <= set("0123456789abcdef"):
            classes = ["0-9a-f"]
        lengths = {len(part) for part in column}
        count = next(iter(lengths))
        repeat = "+" if len(lengths) > 1 else ("" if count == 1 else f"{{{count}}}")
        pattern.append(f"[{''.join(classes)}]{repeat}")
    return "".join(pattern)


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
    escaped_text = []
    for character in text:
        if character in _REGEX_SPECIAL:
            escaped_text.append("\\" + character)
        elif character.isprintable():
            escaped_text.append(character)
        else:
            escaped_text.append(character.encode("unicode_escape").decode("ascii"))
    return "".join(escaped_text)


# YAML nodes ------------------------------------------------------------------------------------


def _node(value: Any) -> Any:
    """``value`` (plain data, or nodes already made) as ruamel nodes: mappings and lists on
    one line when :func:`one_line` says so and nothing inside carries a comment."""
    comments = _ruamel()
    if isinstance(value, comments.CommentedBase):
        return value
    if isinstance(value, dict):
        return _flow_if_short(
            comments.CommentedMap((_text(key), _node(item)) for key, item in value.items())
        )
    if isinstance(value, list):
        return _flow_if_short(comments.CommentedSeq(_node(item) for item in value))
    return _text(value)


def _text(value: Any) -> Any:
    """A string with an unprintable character double-quoted, where YAML escapes it: written
    as it is, a NEL or a line separator would be read back as a line break."""
    if isinstance(value, str) and not value.isprintable():
        from ruamel.yaml.scalarstring import DoubleQuotedScalarString

        return DoubleQuotedScalarString(value)
    return value


def _flow_if_short(node: Any) -> Any:
    if not _has_comments(node) and one_line(node, loose=True):
        node.fa.set_flow_style()
    else:
        node.fa.set_block_style()
    return node


def _flow(node: Any) -> Any:
    node.fa.set_flow_style()
    return node


def _has_comments(node: Any) -> bool:
    """Whether ``node`` or a node inside it carries a comment (which needs block style)."""
    comment = getattr(node, "ca", None)
    if comment is not None and comment.items:
        return True
    if isinstance(node, dict):
        return any(map(_has_comments, node.values()))
    if isinstance(node, list):
        return any(map(_has_comments, node))
    return False


def _observed(values: list[Any]) -> str:
    """``observed: v1, v2, ...``: the distinct values as JSON, at most five, then a count."""
    distinct = list(dict.fromkeys(_shown(value) for value in values))
    shown = ", ".join(distinct[:_SHOWN_VALUES])
    if len(distinct) > _SHOWN_VALUES:
        shown += f", ... ({len(distinct)} distinct)"
    return f"observed: {shown}"


def _shown(value: Any) -> str:
    """``value`` as JSON on one line, shortened, with nothing a YAML line could break at."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    text = "".join(
        character if character.isprintable() else character.encode("unicode_escape").decode()
        for character in text
    )
    if len(text) > _VALUE_WIDTH:
        text = text[: _VALUE_WIDTH - 3] + "..."
    return text
