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
from collections import Counter
from typing import NamedTuple

from toolmatch._authoring.carrying import Expected, carry_values
from toolmatch._authoring.loosening import (
    LEVELS,
    SHOWN_VALUES,
    Loosening,
    add_comment,
    all_equal,
    flow,
    loosened,
    mapping_node,
    node,
    ruamel_comments,
    shown,
    text_node,
)
from toolmatch._core.describe import short_repr, type_name
from toolmatch._core.limits import NESTED_TOO_DEEPLY, unbounded
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._runs.envelope import turns_value
from toolmatch._selection.run import read_turns
from toolmatch._spec.importing import exact_name

if TYPE_CHECKING:
    from collections.abc import Container, Iterable, Mapping, Sequence
    from typing import Any

    from toolmatch._calls.call import ToolCall
    from toolmatch._calls.definitions import ToolDefinition
    from toolmatch._runs.syntax import PythonTurns

__all__ = [
    "CALL_FIELDS",
    "add_comment",
    "calls_of_run",
    "MOST_ORDERED",
    "held_order",
    "kept_turn_count",
    "not_json",
    "recorded_case",
    "recorded_spec",
]

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
    return read_turns(turns if python is None else python(turns), "turns")


def kept_turn_count(runs: Sequence[Sequence[object]]) -> int | None:
    """How many turns the case recorded from ``runs`` has: the most common number among the
    runs with at least one turn, the later run's on a tie; ``None`` when no run has a turn.

    A case has one number of turns, and a run with more or fewer fails it (docs/record.md),
    so the runs with another number are left out of the case.

    >>> kept_turn_count([[[]], [[], []], [[], []]]), kept_turn_count([[[]], [[], []]])
    (2, 2)
    """
    lengths = [len(run) for run in runs if run]
    counts = Counter(lengths)
    # max keeps the first of the most common: read from the end, the later run's
    return max(reversed(lengths), key=counts.__getitem__) if lengths else None


def recorded_case(
    name: str,
    runs: Sequence[Sequence[Sequence[ToolCall]]],
    *,
    loosen: str = "varying",
    tools: Mapping[str, ToolDefinition] | None = None,
    read_only: Iterable[str] = (),
) -> Any:
    """The spec entry of case ``name`` recorded from ``runs`` (runs, then turns, then calls).

    Returns a ``ruamel.yaml`` ``CommentedMap``: ``name``, then the turn's keys for a
    single-turn case, or ``turns``. Each call is an expected tool with its exact name
    (``{$literal: ...}``), ``exact: true`` and its arguments. With ``loosen`` ``varying``
    or ``strict`` and several runs, values equal in every run stay as recorded, values
    that differ become what the rules of :mod:`toolmatch._authoring.loosening` make of them
    (with a comment listing them and naming the rule; ``tools``, the tools' definitions by
    name, steer them), the tools named in ``read_only`` are ignored (``varying``), calls
    missing from some runs are ignored or left out (listed in a comment on
    ``expected_tools``), and runs with another number of turns than
    :func:`kept_turn_count` are left out; with ``none``, the case is the last run's.
    ``toolmatch check --update new`` builds the
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
          q: {regex: 'ORD-[0-9]+'}  # observed: "ORD-20931", "ORD-11"; rule: id-shape
    """
    if loosen not in LEVELS:
        raise ValueError(f"loosen must be one of {', '.join(LEVELS)}, got {short_repr(loosen)}")
    comments = ruamel_comments()
    how = None if loosen == "none" else Loosening(loosen, tools, read_only)
    chosen = _chosen_runs(name, runs, how)
    case = comments.CommentedMap()
    case["name"] = text_node(name)
    notes = _case_notes(len(runs), len(chosen), how)
    if notes:
        add_comment(case, "; ".join(notes), "name")
    expected: list[Expected] = []  # every expected call, for the values carried between them
    turns = [
        _recorded_turn([run[number] for run in chosen], how or Loosening(), number, expected)
        for number in range(len(chosen[0]))
    ]
    if how is not None:
        carry_values(expected)
    if len(turns) == 1:
        case.update(turns[0])
        case.ca.items.update(turns[0].ca.items)
    else:
        case["turns"] = comments.CommentedSeq(turns)
    beyond = unbounded({"test_cases": [case]})  # measured as the file is: from its top
    if beyond is not None:
        raise ValueError(
            f"case {name!r}: {NESTED_TOO_DEEPLY}, counted from the top of the spec "
            "(the spec's own levels and the matchers written around values count too)"
        )
    return case


def _chosen_runs(
    name: str, runs: Sequence[Sequence[Sequence[ToolCall]]], how: Loosening | None
) -> list[Sequence[Sequence[ToolCall]]]:
    """The runs case ``name`` is recorded from: the last one without loosening, else those
    with :func:`kept_turn_count` turns. Raises ``ValueError`` when none has a turn, or when
    one holds what a spec cannot (arguments nested too deeply, values not JSON)."""
    if how is None:
        chosen = [runs[-1]] if runs else []
    else:
        count = kept_turn_count(runs)
        chosen = [run for run in runs if count is not None and len(run) == count]
    if not chosen or not chosen[0]:
        raise ValueError(f"case {name!r}: no run has a turn; a case needs at least one")
    for run in chosen:
        _check_depth(name, run)
        problem = not_json(run)
        if problem is not None:
            raise ValueError(f"case {name!r}: {problem}")
    return chosen


def _check_depth(name: str, run: Sequence[Sequence[ToolCall]]) -> None:
    """Raises ``ValueError`` naming the first call of ``run`` whose arguments nest deeper
    than a spec may: checked before anything recurses into them, as they could not load."""
    for number, calls in enumerate(run):
        for index, call in enumerate(calls):
            if unbounded(call.args) is not None:
                raise ValueError(
                    f"case {name!r}: turn {number}, call {index} ({short_repr(call.name)}): "
                    f"its arguments are {NESTED_TOO_DEEPLY} (a spec's limit)"
                )


def _case_notes(runs: int, chosen: int, how: Loosening | None) -> list[str]:
    """The comment on a case's name: how many runs it was recorded from, and how many were
    left out for another number of turns."""
    notes = []
    if runs > 1:
        notes.append(f"recorded from {chosen} runs" if how else f"the last of {runs} runs")
    if how and runs - chosen:
        notes.append(f"{runs - chosen} run(s) with another number of turns left out")
    return notes


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
    comments = ruamel_comments()
    spec = comments.CommentedMap()
    spec["test_cases"] = comments.CommentedSeq(cases)
    return spec


# Turns and calls -----------------------------------------------------------------------------


def _recorded_turn(
    runs: list[Sequence[ToolCall]],
    how: Loosening,
    number: int = 0,
    expected: list[Expected] | None = None,
) -> Any:
    """One turn's mapping from its calls in each run (see :func:`_paired`), with what it
    ignores or leaves out as docs/record.md says (rules ``optional-call`` and
    ``other-lookup``); each expected call is added to ``expected`` (as turn ``number``'s)."""
    read_only = how.ignored_read_only()
    called = {call.name for calls in runs for call in calls}
    split = _split_turn(runs, how, read_only)
    by_name = [name for name in read_only if name in split.varying or name not in called]
    turn = _turn_keys(split, by_name)
    tools, names = _turn_tools(split, how, ordered="ordered" in turn)
    if expected is not None:
        expected.extend(
            (number, pair, [calls[pair[run]] for run, calls in enumerate(split.runs)], tool)
            for pair, tool in zip(split.pairs, tools, strict=True)
        )
    if "exhaustive" in turn:
        lookups = _other_lookups(tools, names, [name for name in read_only if name in called])
        if lookups:
            turn.setdefault("ignore", ruamel_comments().CommentedSeq()).extend(lookups)
    turn["expected_tools"] = tools
    _comment_turn(turn, split, by_name)
    return turn


def _turn_tools(split: _SplitTurn, how: Loosening, *, ordered: bool) -> tuple[Any, list[str]]:
    """A turn's expected tools, one for each pair, with the order that held in every run
    where it varies (unless the turn is ``ordered``), and the names of their tools."""
    runs, pairs = split.runs, split.pairs
    tools = ruamel_comments().CommentedSeq(
        _expected_tool([calls[pair[run]] for run, calls in enumerate(runs)], len(runs), how)
        for pair in pairs
    )
    names = [runs[0][pair[0]].name for pair in pairs]
    if not ordered and len(pairs) <= MOST_ORDERED:
        _keep_held_order(tools, pairs, names, _early(split))
    if not tools:
        tools.fa.set_flow_style()
    return tools, names


def _turn_keys(split: _SplitTurn, by_name: list[str]) -> Any:
    """A turn's mapping with its ``ordered``, ``exhaustive``, ``ignore`` (the tools ignored
    by name, then the left-out calls' entries) and ``distinct``, as the split allows."""
    comments = ruamel_comments()
    turn = comments.CommentedMap()
    ordered = _always_in_order(split.pairs, len(split.runs)) and not any(
        i < j for i, j in _early(split)
    )
    if ordered:
        turn["ordered"] = True
    ignored = [node({"name": exact_name(name)}) for name in by_name] + split.patterns
    if split.blocked is None:
        turn["exhaustive"] = True
        if ignored:
            turn["ignore"] = comments.CommentedSeq(ignored)
    elif len(split.pairs) >= 2 and not ordered:
        turn["distinct"] = True
    return turn


class _SplitTurn(NamedTuple):
    """A turn's calls split into those every run makes and those some runs leave out."""

    runs: list[Sequence[ToolCall]]  # each run's calls, less the tools in ``varying``
    pairs: list[list[int]]  # :func:`_paired`
    left_out: dict[str, tuple[ToolCall, list[int]]]  # :func:`_left_out`
    patterns: list[Any]  # the ``ignore`` entries of the left-out calls
    blocked: str | None  # the tool whose left-out calls cost the turn ``exhaustive``
    varying: set[str]  # read-only tools whose calls vary, ignored by name


def _split_turn(runs: list[Sequence[ToolCall]], how: Loosening, read_only: list[str]) -> _SplitTurn:
    """The turn's pairs and left-out calls, with a read-only tool whose left-out calls would
    cost the turn ``exhaustive`` taken out of every run (ignored by name), until none is."""
    varying: set[str] = set()
    while True:
        kept: list[Sequence[ToolCall]] = [
            [call for call in calls if call.name not in varying] for calls in runs
        ]
        pairs = _paired(kept)
        left_out = _left_out(kept, pairs)
        patterns: list[Any] = []
        blocked = None
        for name in dict.fromkeys(call.name for call, _ in left_out.values()):
            pattern = _ignored(name, kept, pairs, left_out, how)
            if pattern is None:
                blocked = name
                break
            patterns.append(_capped(pattern, name, left_out, len(kept), read_only))
        if blocked is None or blocked not in read_only:
            return _SplitTurn(kept, pairs, left_out, patterns, blocked, varying)
        varying.add(blocked)


def _always_in_order(pairs: list[list[int]], runs: int) -> bool:
    """Whether at least two expected calls came in the same order in every run."""
    return len(pairs) >= 2 and all(
        all(before[run] < after[run] for before, after in itertools.pairwise(pairs))
        for run in range(runs)
    )


def _early(split: _SplitTurn) -> set[tuple[int, int]]:
    """:func:`_early_strays` of a turn that judges the calls no expectation stands for: an
    exhaustive turn ignores each such name (its ignore entry), so it finds none out of place."""
    return _early_strays(split.runs, split.pairs) if split.blocked is not None else set()


def _comment_turn(turn: Any, split: _SplitTurn, by_name: list[str]) -> None:
    """The comment on a turn's ``expected_tools``: the read-only tools ignored because their
    calls vary, and the calls not in every run (``ignored`` when the turn has ``ignore``)."""
    notes = []
    if split.varying:
        listed = [name for name in by_name if name in split.varying]
        notes.append("ignored, read-only by definition: " + ", ".join(map(shown, listed)))
    if split.left_out:
        notes.append(_listed(split.left_out, "ignored" if "ignore" in turn else "left out"))
    if notes:
        add_comment(turn, "; ".join(notes), "expected_tools")


def _other_lookups(tools: Any, names: list[str], read_only: list[str]) -> list[Any]:
    """Rule ``other-lookup`` (docs/record.md): for each tool of ``read_only`` that ``tools``
    (of the tools ``names``) expect, the ``ignore`` entry of its calls whose argument is none
    of the scalars every run's expected calls have there (so the spec still passes them)."""
    entries = []
    for name in read_only:
        expected = [tool for tool, named in zip(tools, names, strict=True) if named == name]
        if expected and all(isinstance(tool.get("args"), dict) for tool in expected):
            entries.extend(_lookups_of(name, expected))
    return entries


def _lookups_of(name: str, expected: list[Any]) -> list[Any]:
    """The ``other-lookup`` entries of ``name``'s ``expected`` tools (each with ``args``):
    one for each argument that is a scalar in every one of them."""
    entries = []
    for key in expected[0]["args"]:
        values = [tool["args"].get(key, _MISSING) for tool in expected]
        if all(_scalar(value) for value in values):  # else loosened, missing, or nested
            entries.append(_other_lookup(name, key, values))
    return entries


def _other_lookup(name: str, key: str, values: list[Any]) -> Any:
    """The ``ignore`` entry of the calls of ``name`` whose ``key`` is none of ``values``."""
    distinct: list[Any] = []
    for value in values:
        if not any(all_equal([value, seen]) for seen in distinct):
            distinct.append(value)
    other = {"$not": distinct[0] if len(distinct) == 1 else {"$one_of": distinct}}
    args = ruamel_comments().CommentedMap({key: node(other)})
    add_comment(
        args,
        f"rule: other-lookup (read-only by definition: a call with another {key} is "
        "ignored, the expected calls stay required)",
        key,
    )
    return ruamel_comments().CommentedMap(name=flow(node(exact_name(name))), args=args)


_MISSING = object()


def _scalar(value: object) -> bool:
    """Whether ``value`` is an argument value written as recorded: a string, number,
    boolean or null (a loosened value is a matcher's mapping)."""
    return value is None or isinstance(value, (str, int, float))


# More expected calls than this keep no order when it varies: the order search has its
# bounds (docs/selection.md), and a recorded spec must pass the runs it came from.
MOST_ORDERED = 50


def held_order(
    places: Sequence[Sequence[int | None]],
    names: Sequence[str],
    taken: Mapping[int, str] | None = None,
    early: set[tuple[int, int]] | frozenset[tuple[int, int]] = frozenset(),
) -> tuple[dict[int, str], list[list[int]]]:
    """The order that held in every run, ``places[i][run]`` being expectation ``i``'s call
    in that run (``None``: no call, no evidence): for each expectation, those whose calls
    came before its own in every run with both (the constraints implied by others left
    out; none for the later expectation of a pair in ``early``), and the ids they are named
    by: ``taken``'s (the ids the expectations have), else the tool's name, ``name-N`` for a
    name already used."""
    after = _direct_constraints(places, early)
    ids = dict(taken or {})
    for i in sorted({i for constraint in after for i in constraint} - set(ids)):
        # A tool called twice is two expectations: two ids.
        ids[i] = names[i] if names[i] not in ids.values() else f"{names[i]}-{i}"
    return ids, after


def _direct_constraints(
    places: Sequence[Sequence[int | None]], early: Container[tuple[int, int]]
) -> list[list[int]]:
    """For each expectation, those always before it that are not always before another of
    those (the constraints the others imply are left out)."""
    earlier = [
        {i for i, other in enumerate(places) if _always_before(other, place)} for place in places
    ]
    # An expectation that an early call would put out of place after one it follows follows
    # none: no path of constraints through others may order the pair either (earlier[j]
    # holds every expectation always before j, so a path's ends are in it).
    for j, before in enumerate(earlier):
        if any((i, j) in early for i in before):
            before.clear()
    _unchain(earlier)
    return [
        sorted(i for i in before if not any(i in earlier[k] for k in before)) for before in earlier
    ]


def _unchain(earlier: list[set[int]]) -> None:
    """Drop the constraints that would chain an order no run holds: ``k`` always before
    ``j`` and ``i`` always before ``k``, but not ``i`` before ``j`` (a run that leaves out
    ``k``'s call has ``j``'s before ``i``'s; ``k``'s place is known from other runs alone).
    ``j`` then no longer follows ``k``, so the constraints kept order no run breaks."""
    changed = True
    while changed:
        changed = False
        for before in earlier:
            for k in sorted(before):
                if earlier[k] - before:
                    before.discard(k)
                    changed = True


def _always_before(first: Sequence[int | None], then: Sequence[int | None]) -> bool:
    both = [(a, b) for a, b in zip(first, then, strict=True) if a is not None and b is not None]
    return bool(both) and all(a < b for a, b in both)


def _early_strays(
    runs: Sequence[Sequence[ToolCall]], pairs: list[list[int]]
) -> set[tuple[int, int]]:
    """The pairs ``(i, j)`` of expectations that cannot be ordered ``i`` before ``j``: in some
    run, a call of ``j``'s name that no expectation stands for comes before ``i``'s call, and
    would then be a call of the later step before the earlier one (docs/selection.md, "What an
    order means"; its arguments may match ``j``'s, so it is taken to)."""
    early: set[tuple[int, int]] = set()
    for run, calls in enumerate(runs):
        paired = {pair[run] for pair in pairs}
        strays: dict[str, int] = {}  # a name -> its first call no expectation stands for
        for index, call in enumerate(calls):
            if index not in paired:
                strays.setdefault(call.name, index)
        if not strays:
            continue
        for j, later in enumerate(pairs):
            first = strays.get(calls[later[run]].name)
            if first is None:
                continue
            early.update((i, j) for i, pair in enumerate(pairs) if first < pair[run] and i != j)
    return early


def _keep_held_order(
    tools: Any, pairs: list[list[int]], names: list[str], early: set[tuple[int, int]]
) -> None:
    """Where the runs' order varies, the order that held in every run, as ``after``
    constraints and the ``id`` they name (:func:`held_order`), none that a call no
    expectation stands for would break."""
    ids, after = held_order(pairs, names, early=early)
    for i, tool in enumerate(tools):
        if i in ids:
            tool["id"] = ids[i]
        if after[i]:
            tool["after"] = flow(ruamel_comments().CommentedSeq(ids[j] for j in after[i]))


def _ignored(
    name: str,
    runs: list[Sequence[ToolCall]],
    pairs: list[list[int]],
    left_out: dict[str, tuple[ToolCall, list[int]]],
    how: Loosening,
) -> Any:
    """The ``ignore`` entry for the calls of ``name`` left out of a turn: the name alone when
    no expectation stands for ``name``, else with the fewest arguments that tell the left-out
    calls apart (:func:`_telling_args`); ``None`` when none can (not exhaustive)."""
    entry = {"name": exact_name(name)}
    expected = [calls[pair[run]] for pair in pairs for run, calls in enumerate(runs)]
    expected = [call for call in expected if call.name == name]
    if not expected:
        return node(entry)
    extra = [call for call, _ in left_out.values() if call.name == name]
    args = _telling_args(name, extra, expected, how)
    if args is None:
        return None
    return ruamel_comments().CommentedMap(name=flow(node(exact_name(name))), args=args)


def _telling_args(
    name: str, extra: list[ToolCall], expected: list[ToolCall], how: Loosening
) -> Any:
    """The fewest of the ``extra`` calls' arguments of ``name`` (loosened, strings as
    ``fuzzy`` with ``varying``) that select none of the ``expected`` calls, or ``None``
    when no arguments can: some are unreadable, the extra calls have none, or all of them
    together select an expected call."""
    if any(call.parse_error is not None for call in extra + expected) or not any(
        call.args for call in extra
    ):
        return None
    args = mapping_node([call.args for call in extra], how, None, data=False)
    if how.level == "varying":
        for key, value in list(args.items()):
            if isinstance(value, str):
                args[key] = node({"fuzzy": value})
    if _selects_any(name, args, expected):
        return None
    _drop_needless(name, args, expected)
    return args


def _drop_needless(name: str, args: Any, expected: list[ToolCall]) -> None:
    """Takes out of ``args``, one key at a time, each key without which the rest still
    select none of the ``expected`` calls of ``name``."""
    for key in list(args):
        kept = ruamel_comments().CommentedMap((k, v) for k, v in args.items() if k != key)
        if kept and not _selects_any(name, kept, expected):
            del args[key]
            args.ca.items.pop(key, None)


_TIMES = {1: "once", 2: "twice"}


def _capped(
    pattern: Any,
    name: str,
    left_out: dict[str, tuple[ToolCall, list[int]]],
    runs: int,
    read_only: list[str],
) -> Any:
    """The ``ignore`` entry ``pattern`` of ``name``'s left-out calls (rule ``optional-call``,
    docs/record.md): with ``max_count`` when every run that makes them makes as many and the
    tool is not read-only, and a comment saying how often the runs made them, and why."""
    made = _times_made(name, left_out, runs)
    low, high = min(made), max(made)
    if low != high:
        how_often = f"{low} to {high} times"
    else:
        how_often = _TIMES.get(high, f"{high} times") + (" each" if len(made) > 1 else "")
    observed = f"observed: in {len(made)} of {runs} runs, {how_often}"
    entry = ruamel_comments().CommentedMap(name=flow(node(exact_name(name))))
    if "args" in pattern:
        entry["args"] = pattern["args"]
    if name in read_only:
        add_comment(entry, f"{observed}; rule: optional-call, read-only: no cap", "name")
    elif low != high:
        add_comment(entry, f"{observed}; rule: optional-call, the count varied: no cap", "name")
    else:
        entry["max_count"] = high
        add_comment(entry, f"{observed}; rule: optional-call", "max_count")
    return entry


def _times_made(name: str, left_out: dict[str, tuple[ToolCall, list[int]]], runs: int) -> list[int]:
    """How many of ``name``'s left-out calls each run that makes any makes, in run order."""
    counts = [0] * runs
    for call, numbers in left_out.values():
        if call.name == name:
            for number in numbers:
                counts[number - 1] += 1
    return [count for count in counts if count]


def _selects_any(name: str, args: Any, calls: list[ToolCall]) -> bool:
    """Whether the ignore entry of ``name`` with ``args`` would select any of ``calls``."""
    from toolmatch._selection.expectation import ExpectedTool
    from toolmatch._spec.loading import load_expected_tools
    from toolmatch._spec.writing import plain_data

    [tool] = load_expected_tools([{"name": exact_name(name), "args": plain_data(args)}])
    assert isinstance(tool, ExpectedTool)  # a mapping with a name, never a group
    return any(tool.check([call]).passed for call in calls)


def _paired(runs: list[Sequence[ToolCall]]) -> list[list[int]]:
    """The calls every run has, each as its index in every run, in the first run's order:
    a name called ``k`` times in the run that calls it least is ``k`` expectations, paired
    in the other runs by :func:`_aligned`; a call another run does not make is left out."""
    pairs: list[list[int]] = []
    for name in dict.fromkeys(call.name for call in runs[0]):
        pairs.extend(_paired_calls_of(name, runs))
    pairs.sort(key=lambda pair: pair[0])
    return pairs


def _paired_calls_of(name: str, runs: list[Sequence[ToolCall]]) -> list[list[int]]:
    """:func:`_paired`'s pairs of the calls of ``name``, in the fewest-calls run's order."""
    places = [[index for index, call in enumerate(calls) if call.name == name] for calls in runs]
    fewest = min(range(len(runs)), key=lambda run: len(places[run]))
    reference = [runs[fewest][index] for index in places[fewest]]
    kept = [
        [places[run][pick] for pick in _aligned(reference, [calls[i] for i in places[run]])]
        for run, calls in enumerate(runs)
    ]
    return [[kept[run][number] for run in range(len(runs))] for number in range(len(reference))]


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
    same = sum(
        key in call.args and all_equal([value, call.args[key]])
        for key, value in expected.args.items()
    )
    return same + (same == len(expected.args) == len(call.args))


def _left_out(
    runs: list[Sequence[ToolCall]], pairs: list[list[int]]
) -> dict[str, tuple[ToolCall, list[int]]]:
    """The calls of some runs that no expectation stands for, each once (by its name,
    arguments and parse error, whole: two calls shown alike are two calls), with the runs
    (from 1) that make it."""
    missing: dict[str, tuple[ToolCall, list[int]]] = {}
    for run, calls in enumerate(runs):
        kept = {pair[run] for pair in pairs}
        for index, call in enumerate(calls):
            if index not in kept:
                identity = repr((call.name, call.args, call.parse_error))
                missing.setdefault(identity, (call, []))[1].append(run + 1)
    return missing


def _listed(missing: dict[str, tuple[ToolCall, list[int]]], verb: str) -> str:
    """The comment listing the calls :func:`_left_out` found."""
    listed = []
    for call, numbers in list(missing.values())[:_SHOWN_CALLS]:
        numbers = list(dict.fromkeys(numbers))
        where = f"run {numbers[0]}" if len(numbers) == 1 else f"runs {_numbers(numbers)}"
        listed.append(f"{shown(call.name)} {shown(call.args)} in {where}")
    more = len(missing) - _SHOWN_CALLS
    text = f"{verb}, not in every run: " + "; ".join(listed)
    return text + (f"; and {more} more" if more > 0 else "")


def _numbers(numbers: list[int]) -> str:
    shown = ", ".join(map(str, numbers[:SHOWN_VALUES]))
    return shown + (f", ... ({len(numbers)} runs)" if len(numbers) > SHOWN_VALUES else "")


def _expected_tool(calls: list[ToolCall], runs: int, how: Loosening) -> Any:
    tool = ruamel_comments().CommentedMap()
    tool["name"] = flow(node(exact_name(calls[0].name)))
    unreadable = [call.parse_error for call in calls if call.parse_error is not None]
    if unreadable:
        # Any assertion on arguments fails a call whose arguments could not be read.
        add_comment(
            tool,
            f"arguments not asserted: unreadable in {len(unreadable)} of {runs} run(s): "
            + shown(unreadable[0]),
            "name",
        )
    else:
        tool["exact"] = True
        if any(call.args for call in calls):
            schema = how.schema(calls[0].name)
            tool["args"] = mapping_node([call.args for call in calls], how, schema, data=False)
    _who_and_how(tool, calls, how)
    return tool


# What a call records beyond its name and arguments that an expected tool asserts.
CALL_FIELDS = ("agent", "status")


def _who_and_how(tool: Any, calls: list[ToolCall], how: Loosening) -> None:
    """``agent`` and ``status`` on the expected tool of ``calls`` (one in each run) when the
    trace records them for every call: as recorded, or loosened as an argument's values are."""
    for field in CALL_FIELDS:
        values = [getattr(call, field) for call in calls]
        if any(value is None for value in values):
            continue
        value, comment = loosened(values, how)
        tool[field] = value
        if comment:
            add_comment(tool, comment, field)
