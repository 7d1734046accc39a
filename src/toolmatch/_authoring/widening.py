"""``toolmatch record TRACES --into SPEC``: a spec widened by more good runs (docs/record.md).

:func:`widening` plans the changes on the spec's data, as ``check --update`` plans its
own (``toolmatch._authoring.update_plan``), so the file's text is edited in place and every
line it does not change is kept byte for byte: a literal argument value that the new runs
disagree with becomes what ``toolmatch record``'s rules make of it and of the values
seen, with the comment record writes for it (``# observed: ...; rule: ...``, in a YAML
spec); a matcher the spec holds is kept as written; a turn that is ``ordered`` loses it
when a new run calls its tools in another order, and an ``after`` constraint a new run
breaks is dropped, and so is an ``other-lookup`` ignore entry on an argument that is
widened; a case the spec lacks is added, recorded from its runs. What cannot be widened
(a run with another number of turns, a call the spec does not expect, an argument it does
not list) is left as it is and reported.
"""

from __future__ import annotations

from toolmatch._authoring.loosening import (
    Loosening,
    all_equal,
    flow,
    loosened,
    node,
    optional_by_definition,
    ruamel_comments,
)
from toolmatch._authoring.recording import CALL_FIELDS, MOST_ORDERED, held_order, recorded_case
from toolmatch._authoring.update_plan import Append, NotDone, Plan, Rekey, Replace, apply_to_data
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.unrecorded import NotRecordedError
from toolmatch._spec.importing import exact_name, holds_matcher_form
from toolmatch._spec.matcher_keys import matcher_from_config
from toolmatch._spec.writing import plain_data

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from typing import Any

    from toolmatch._authoring.update_plan import Path
    from toolmatch._calls.call import ToolCall
    from toolmatch._calls.definitions import ToolDefinition
    from toolmatch._selection.expectation import ExpectedTool

    Run = list[list[ToolCall]]
    Judged = tuple[int, Run, list[Any] | None]  # a run's number, its turns, its results

__all__ = ["Widening", "widening"]


class Widening(Plan):
    """The edits that widen a spec, and what was not done."""

    verb = "widened"

    def __init__(self, data: Any) -> None:
        super().__init__(data)
        self.unused: set[tuple[str, int]] = set()  # runs (case, from 1) reported, not used


def widening(
    data: Any,
    runs: Mapping[str, list[Run]],
    *,
    loosen: str = "varying",
    tools: Mapping[str, ToolDefinition] | None = None,
    read_only: Iterable[str] = (),
) -> Widening:
    """The changes that widen the spec ``data`` (its ``test_cases``) with ``runs`` (each
    case name's runs, in order), loosened at ``loosen`` (``varying`` or ``strict``).

    >>> from toolmatch import ToolCall
    >>> spec = {"test_cases": [{"name": "c", "expected_tools": [
    ...     {"name": {"$literal": "f"}, "exact": True, "args": {"q": "Paris", "n": 1}}]}]}
    >>> plan = widening(spec, {"c": [[[ToolCall("f", {"q": "paris", "n": 1})]]]})
    >>> [(edit.path[-1], edit.value, edit.comments) for edit in plan.edits]
    [('q', {'fuzzy': 'Paris'}, (((), 'observed: "Paris", "paris"; rule: case-only'),))]
    """
    how = Loosening(loosen, tools, read_only)
    plan = Widening(data)
    names = []
    for index, case in enumerate(data["test_cases"]):
        names.append(case["name"])
        if case["name"] in runs:
            _widen_case(plan, ("test_cases", index), case, runs[case["name"]], how)
    for name, new in runs.items():
        if name in names:
            continue
        try:
            built = recorded_case(name, new, loosen=loosen, tools=tools, read_only=read_only)
        except ValueError as error:
            plan.not_done.append(NotDone(f"test_cases[{len(names)}]", str(error), "added"))
            continue
        plan.edits.append(Append(("test_cases",), plain_data(built), built))
        names.append(name)
    _still_failing(plan, runs)
    return plan


def _widen_case(plan: Widening, path: Path, case: Any, runs: list[Run], how: Loosening) -> None:
    """The case's turns widened with ``runs``; under ``one_of`` (the case's or a turn's),
    the alternative the check chooses for each run (the first passing, else the closest)
    is widened with that run."""
    numbered = list(enumerate(runs, 1))
    if not _has_alternatives(case):
        _widen_body(plan, path, case, case["name"], [(n, run, None) for n, run in numbered], how)
        return
    results = _results(plan, path, case, runs)
    if results is None:
        return
    judged = [(number, run, found) for (number, run), found in zip(numbered, results, strict=True)]
    if "one_of" not in case:
        _widen_body(plan, path, case, case["name"], judged, how)
        return
    for number, items in sorted(_by_case_choice(judged).items()):
        body = case["one_of"][number]
        _widen_body(plan, (*path, "one_of", number), body, case["name"], items, how)


def _has_alternatives(case: Any) -> bool:
    """Whether the case, or one of its turns, has ``one_of``."""
    turns = case.get("turns")
    return "one_of" in case or any(
        isinstance(turn, dict) and "one_of" in turn for turn in turns or ()
    )


def _by_case_choice(judged: list[tuple[int, Run, list[Any]]]) -> dict[int, list[Judged]]:
    """The judged runs by the case's alternative the check chose for each (the first when
    none was chosen)."""
    chosen: dict[int, list[Judged]] = {}
    for item in judged:
        choices = [c.number for result in item[2] for c in result.alternatives if c.of == "case"]
        chosen.setdefault(choices[0] if choices else 0, []).append(item)
    return chosen


def _results(plan: Widening, path: Path, case: Any, runs: list[Run]) -> list[Any] | None:
    """Each run's results against the case as the check judges it, or ``None`` (said) when
    the case cannot be loaded alone (a ``tools:`` file named relative to the spec)."""
    from toolmatch._spec.errors import ConfigError
    from toolmatch._spec.loading import load_test_cases

    try:
        [loaded] = load_test_cases({"test_cases": [case]})
    except ConfigError as error:
        problem = error.problems[0]
        why = f"its alternatives cannot be told apart: {problem.path}: {problem.message}"
        plan.skip(path, f"{why}; not widened")
        return None
    return [loaded.check(run) for run in runs]


def _widen_body(
    plan: Widening, path: Path, body: Any, name: str, runs: list[Judged], how: Loosening
) -> None:
    """A case's turns (or one alternative's) widened with ``runs``: each run's number, its
    turns and, under ``one_of``, its results (which say the alternatives chosen)."""
    if "turns" in body:
        turns = [((*path, "turns", number), turn) for number, turn in enumerate(body["turns"])]
    else:
        turns = [(path, body)]
    kept = _same_length(plan, path, name, runs, len(turns))
    for number, (turn_path, turn) in enumerate(turns):
        alternatives = turn.get("one_of") if isinstance(turn, dict) else None
        if not isinstance(alternatives, list):
            _widen_turn(plan, turn_path, turn, [run[number] for run, _ in kept], how)
            continue
        for choice, calls in sorted(_by_turn_choice(kept, number).items()):
            where = (*turn_path, "one_of", choice)
            _widen_turn(plan, where, alternatives[choice], calls, how)


def _same_length(
    plan: Widening, path: Path, name: str, runs: list[Judged], turns: int
) -> list[tuple[Run, Any]]:
    """The runs with as many turns as the case, with their results; each other one is
    skipped, said, and counted unused."""
    kept = []
    for number, run, results in runs:
        if len(run) != turns:
            why = f"run {number} has {len(run)} turn(s), the case {turns}; not used"
            plan.skip(path, why)
            plan.unused.add((name, number))
        else:
            kept.append((run, results))
    return kept


def _by_turn_choice(kept: list[tuple[Run, Any]], number: int) -> dict[int, list[list[ToolCall]]]:
    """Turn ``number``'s calls of each run by the turn's alternative the check chose for it
    (the first when none was chosen)."""
    chosen: dict[int, list[list[ToolCall]]] = {}
    for run, results in kept:
        assert results is not None  # judged: the turn has alternatives
        choices = [c.number for c in results[number].alternatives if c.of == "turn"]
        chosen.setdefault(choices[0] if choices else 0, []).append(run[number])
    return chosen


def _widen_turn(
    plan: Widening, path: Path, turn: Any, runs: list[list[ToolCall]], how: Loosening
) -> None:
    tools = turn.get("expected_tools")
    if not isinstance(tools, list):
        return
    selectors = [_selector(tool) for tool in tools]
    places = _places(tools, selectors, runs)
    widened = _widen_tools(plan, path, tools, places, runs, how)
    new: list[Any] = []
    uncapped: set[int] = set()
    if turn.get("exhaustive") is True:
        uncapped = _uncapped(turn, runs)
        new = _new_tools(turn, [s for s in selectors if s is not None], runs, how)
    _change_ignore(plan, path, turn, new, widened, uncapped)
    if turn.get("ordered") is True and not _in_order(places, len(runs)):
        _drop_ordered(plan, path, tools, places)
    _widen_order(plan, path, tools, places)


def _drop_ordered(
    plan: Widening, path: Path, tools: list[Any], places: list[list[int | None]]
) -> None:
    """An ``ordered`` turn a new run reorders loses ``ordered``, keeping the order that held
    (:func:`_held_order_keys`); unless an ``optional`` step would then have no place in an
    order (the spec would not load): then the turn is reported not widened."""
    added = _held_order_keys(tools, places)
    placeless = _placeless(tools, added)
    if placeless:
        plan.skip(
            path,
            "a new run calls the tools in another order, and without ordered the optional "
            f"step {', '.join(placeless)} would have no place in an order; ordered kept",
        )
        return
    why = "ordered dropped: a new run calls the tools in another order"
    weakened = (((*path, "ordered"), why + _left_out(tools, places, added is not None)),)
    plan.edits.append(Rekey(path, ("ordered",), (), weakened=weakened))
    for index, keys in enumerate(added or ()):
        if keys:
            plan.edits.append(Rekey((*path, "expected_tools", index), (), keys))


def _placeless(tools: list[Any], added: list[tuple[tuple[str, Any], ...]] | None) -> list[str]:
    """The ``optional`` steps (shown) that no ``before`` / ``after`` places once the turn is
    not ``ordered``: neither the spec's nor those ``added`` (``None``: no order kept)."""
    gained = [dict(keys) for keys in added] if added is not None else [{} for _ in tools]
    written = [tool if isinstance(tool, dict) else {} for tool in tools]
    named = {
        name
        for tool in [*written, *gained]
        for key in ("before", "after")
        for name in tool.get(key) or ()
    }
    return [
        short_repr(_written_name(tool) or tool)
        for tool, keys in zip(written, gained, strict=True)
        if tool.get("optional") is True
        and not ({"before", "after"} & (tool.keys() | keys.keys()))
        and not ({tool.get("id"), keys.get("id")} & named)
    ]


def _left_out(tools: list[Any], places: list[list[int | None]], kept: bool) -> str:
    """What an ``ordered`` turn's rewrite says of the order it keeps (``kept``: as ``after``
    constraints), and of the steps a new run leaves out, whose place in it comes from the
    spec's order alone (docs/record.md)."""
    missing = [
        short_repr(_written_name(tool) or tool)
        for tool, found in zip(tools, places, strict=True)
        if None in found
    ]
    if not kept:
        shown = f" ({', '.join(missing)} left out by a new run)" if missing else ""
        return f"; no order is kept{shown}"
    if not missing:
        return "; the order that held is kept as after constraints"
    return (
        "; the order that held is kept as after constraints, those of "
        f"{', '.join(missing)} from the spec's order alone: a new run leaves "
        f"{'it' if len(missing) == 1 else 'them'} out"
    )


def _widen_tools(
    plan: Widening,
    path: Path,
    tools: list[Any],
    places: list[list[int | None]],
    runs: list[list[ToolCall]],
    how: Loosening,
) -> set[tuple[str, object]]:
    """Widens each expected tool's arguments, ``agent`` and ``status`` to the calls it
    stands for in the new runs; returns (tool, argument) for each literal widened."""
    widened: set[tuple[str, object]] = set()
    for index, (tool, found) in enumerate(zip(tools, places, strict=True)):
        calls = [runs[run][place] for run, place in enumerate(found) if place is not None]
        if not (isinstance(tool, dict) and calls):
            continue
        where = (*path, "expected_tools", index)
        if isinstance(tool.get("args"), dict):
            widened |= _widened_literals(plan, (*where, "args"), tool, calls, how)
        _widen_who_and_how(plan, where, tool, calls, how)
    return widened


def _widened_literals(
    plan: Widening, path: Path, tool: Any, calls: list[ToolCall], how: Loosening
) -> set[tuple[str, object]]:
    """Widens ``tool``'s arguments (:func:`_widen_args`); returns (tool, argument) for each
    one widened, when the tool is named by a plain or exact name."""
    before = len(plan.edits)
    _widen_args(plan, path, tool, calls, how)
    name = _written_name(tool)
    return {(name, edit.path[-1]) for edit in plan.edits[before:] if name}


def _in_order(places: list[list[int | None]], runs: int) -> bool:
    """Whether every run calls the expected tools it makes in the order they are written."""
    for run in range(runs):
        order = [place for found in places if (place := found[run]) is not None]
        if order != sorted(order):
            return False
    return True


def _places(
    tools: list[Any], selectors: list[Callable[[str], bool] | None], runs: list[list[ToolCall]]
) -> list[list[int | None]]:
    """For each expected tool, the index of the call it stands for in each run (``None``:
    none): the first call not taken that its name selects, as the check selects names; exact
    names take their calls first, so that ``search`` does not take ``web_search``'s."""
    first = sorted(range(len(tools)), key=lambda index: _written_name(tools[index], True) is None)
    places: list[list[int | None]] = [[None] * len(runs) for _ in tools]
    for run, calls in enumerate(runs):
        taken: set[int] = set()
        for index in first:
            selects = selectors[index]
            if selects is None:
                continue
            for place, call in enumerate(calls):
                if place not in taken and selects(call.name):
                    taken.add(place)
                    places[index][run] = place
                    break
    return places


def _held_order_keys(
    tools: list[Any], places: list[list[int | None]]
) -> list[tuple[tuple[str, Any], ...]] | None:
    """The ``id`` and ``after`` each expectation of an ``ordered`` turn a new run reorders
    gains, keeping the order that held in the spec and every new run as ``toolmatch record``
    writes it; ``None`` (no order kept) unless :func:`_as_record_writes`."""
    names = [name for tool in tools if isinstance(tool, dict) and (name := _written_name(tool))]
    if not _as_record_writes(tools, names):
        return None
    taken = {index: tool["id"] for index, tool in enumerate(tools) if "id" in tool}
    spec_order = [[index, *found] for index, found in enumerate(places)]
    ids, after = held_order(spec_order, names, taken)
    return [_order_keys(index, ids, after, taken) for index in range(len(tools))]


def _order_keys(
    index: int, ids: dict[int, str], after: list[list[int]], taken: dict[int, str]
) -> tuple[tuple[str, Any], ...]:
    """The ``id`` (unless it has one) and ``after`` that expectation ``index`` gains."""
    added: list[tuple[str, Any]] = []
    if index in ids and index not in taken:
        added.append(("id", ids[index]))
    if after[index]:
        added.append(("after", [ids[earlier] for earlier in after[index]]))
    return tuple(added)


def _as_record_writes(tools: list[Any], names: list[str]) -> bool:
    """Whether ``tools`` (of the written ``names``) are as record writes them: mappings
    named by a plain or exact name, one call each, with no order constraints of their own,
    and at most as many as record orders."""
    return (
        len(names) == len(tools)
        and len(tools) <= MOST_ORDERED
        and not any(
            tool.get("count", 1) != 1 or {"max_count", "never", "before", "after"} & tool.keys()
            for tool in tools
        )
    )


def _widen_order(
    plan: Widening, path: Path, tools: list[Any], places: list[list[int | None]]
) -> None:
    """An ``after`` constraint a new run breaks is dropped (the rest of the order kept), as
    ``ordered`` is when a new run reorders the turn."""
    ids = _indexes_by_id(tools)
    for index, tool in enumerate(tools):
        after = tool.get("after") if isinstance(tool, dict) else None
        if not isinstance(after, list):
            continue
        kept = [
            name
            for name in after
            if not (isinstance(name, str) and name in ids and _broken(places, index, ids[name]))
        ]
        if len(kept) < len(after):
            _drop_after(plan, (*path, "expected_tools", index), after, kept)


def _indexes_by_id(tools: list[Any]) -> dict[str, int]:
    """The index of each expected tool with an ``id``, by its id."""
    return {
        tool["id"]: index
        for index, tool in enumerate(tools)
        if isinstance(tool, dict) and isinstance(tool.get("id"), str)
    }


def _drop_after(plan: Widening, where: Path, after: list[Any], kept: list[Any]) -> None:
    """The edit of an expected tool's ``after`` keeping only ``kept`` (or removing it)."""
    dropped = ", ".join(short_repr(name) for name in after if name not in kept)
    weakened = (((*where, "after"), f"after {dropped} dropped: a new run breaks it"),)
    if kept:
        plan.edits.append(Replace((*where, "after"), kept, weakened=weakened))
    else:
        plan.edits.append(Rekey(where, ("after",), (), weakened=weakened))


def _broken(places: list[list[int | None]], index: int, earlier: int) -> bool:
    """Whether a run calls expectation ``earlier``'s tool after expectation ``index``'s."""
    return any(
        mine is not None and theirs is not None and theirs > mine
        for mine, theirs in zip(places[index], places[earlier], strict=True)
    )


def _uncapped(turn: Any, runs: list[list[ToolCall]]) -> set[int]:
    """The places of the ``ignore`` entries whose ``max_count`` a new run goes over: their cap
    is dropped, since the count varied and ``toolmatch record`` caps only a count that held
    (docs/record.md)."""
    from toolmatch._selection.expectation import ExpectedTool
    from toolmatch._spec.loading import load_expected_tools

    ignore = turn.get("ignore")
    uncapped: set[int] = set()
    if not isinstance(ignore, list):
        return uncapped
    earlier: list[ExpectedTool] = []  # the entries before: what they match is theirs
    for index, item in enumerate(ignore):
        fields = {"name": item} if isinstance(item, str) else item
        if not isinstance(fields, dict):
            return uncapped
        # The spec loaded, so the entry without its cap is an expected tool that loads.
        [pattern] = load_expected_tools(
            [{key: value for key, value in fields.items() if key != "max_count"}]
        )
        assert isinstance(pattern, ExpectedTool)  # a mapping with a name, never a group
        cap = fields.get("max_count")
        if isinstance(cap, int) and _over_cap(pattern, earlier, runs, cap):
            uncapped.add(index)
        earlier.append(pattern)
    return uncapped


def _over_cap(
    pattern: ExpectedTool, earlier: list[ExpectedTool], runs: list[list[ToolCall]], cap: int
) -> bool:
    """Whether a run makes more than ``cap`` calls that ``pattern`` selects and no
    ``earlier`` entry does (taken as so when a run does not record what an entry asserts:
    no count holds then)."""
    try:
        return any(
            sum(
                pattern.check([call]).passed
                and not any(before.check([call]).passed for before in earlier)
                for call in calls
            )
            > cap
            for calls in runs
        )
    except NotRecordedError:
        return True


def _new_tools(
    turn: Any,
    expected: list[Callable[[str], bool]],
    runs: list[list[ToolCall]],
    how: Loosening,
) -> list[Any]:
    """The ``ignore`` entries of the tools the new runs call that an exhaustive turn neither
    expects (``expected``: the expected tools' name selectors) nor ignores, written as
    ``toolmatch record`` writes them (:func:`_new_entry`)."""
    ignore = turn.get("ignore")
    if ignore is not None and not isinstance(ignore, list):
        return []
    known = [*expected, *(s for item in ignore or () if (s := _selector(item)) is not None)]
    read_only = how.ignored_read_only()
    return [_new_entry(name, runs, name in read_only) for name in _unselected(known, runs)]


def _unselected(known: list[Callable[[str], bool]], runs: list[list[ToolCall]]) -> list[str]:
    """The names the runs call that none of ``known`` selects, in the order first called."""
    return [
        name
        for name in dict.fromkeys(call.name for calls in runs for call in calls)
        if not any(selects(name) for selects in known)
    ]


def _new_entry(name: str, runs: list[list[ToolCall]], read_only: bool) -> dict[str, Any]:
    """The ``ignore`` entry of the new tool ``name``: capped at the count of its calls when
    every run that calls it calls it as often, and it is not read-only."""
    entry: dict[str, Any] = {"name": exact_name(name)}
    made = {count for calls in runs if (count := [call.name for call in calls].count(name))}
    if len(made) == 1 and not read_only:
        entry["max_count"] = made.pop()
    return entry


def _change_ignore(
    plan: Widening,
    path: Path,
    turn: Any,
    new: list[Any],
    widened: set[tuple[str, object]],
    uncapped: set[int],
) -> None:
    """The turn's ``ignore`` gains the entries ``new``, its entries at ``uncapped`` lose their
    ``max_count``, and it loses each entry of rule ``other-lookup`` on an argument whose
    literal is ``widened``: kept, it would hide the very calls the widened value accepts."""
    ignore = turn.get("ignore")
    ignore = ignore if isinstance(ignore, list) else None
    added = tuple(_added_line(path, entry) for entry in new)
    caps = _dropped_caps(path, ignore, uncapped)
    kept = [
        (index, entry)
        for index, entry in enumerate(ignore or ())
        if _other_lookup(entry) not in widened
    ]
    if ignore is not None and len(kept) < len(ignore):
        _rewrite_ignore(plan, path, kept, new, uncapped, caps, added)
        return
    _add_to_ignore(plan, path, turn, ignore, new, uncapped, caps, added)


def _rewrite_ignore(
    plan: Widening,
    path: Path,
    kept: list[tuple[int, Any]],
    new: list[Any],
    uncapped: set[int],
    caps: dict[int, tuple[Path, str]],
    added: tuple[tuple[Path, str], ...],
) -> None:
    """:func:`_change_ignore`'s edit when entries are dropped: one edit rewrites the list
    (``kept``, each entry with its index), so the caps dropped are dropped in it."""
    entries = [_uncap(entry) if index in uncapped else entry for index, entry in kept] + new
    rewritten = (("ignore", entries),) if entries else ()
    weakened = (*(caps[index] for index, _ in kept if index in caps), *added)
    plan.edits.append(Rekey(path, ("ignore",), rewritten, "exhaustive", weakened))


def _dropped_caps(
    path: Path, ignore: list[Any] | None, uncapped: set[int]
) -> dict[int, tuple[Path, str]]:
    """What dropping the ``max_count`` of each ``ignore`` entry at ``uncapped`` weakens."""
    if ignore is None:
        return {}
    return {
        index: (
            (*path, "ignore", index, "max_count"),
            f"max_count {ignore[index]['max_count']} dropped: a new run goes over it",
        )
        for index in uncapped
    }


def _uncap(entry: Any) -> dict[str, Any]:
    """An ``ignore`` entry without its ``max_count``."""
    return {key: value for key, value in entry.items() if key != "max_count"}


def _add_to_ignore(
    plan: Widening,
    path: Path,
    turn: Any,
    ignore: list[Any] | None,
    new: list[Any],
    uncapped: set[int],
    caps: dict[int, tuple[Path, str]],
    added: tuple[tuple[Path, str], ...],
) -> None:
    """:func:`_change_ignore`'s edits when no entry is dropped: each cap dropped in place,
    the ``new`` entries appended (or the ``ignore`` they make added)."""
    for index in sorted(uncapped):
        where = (*path, "ignore", index)
        plan.edits.append(Rekey(where, ("max_count",), (), weakened=(caps[index],)))
    if new and ignore is None and "ignore" not in turn:
        plan.edits.append(Rekey(path, (), (("ignore", new),), "exhaustive", added))
    elif new and ignore is not None:
        for entry, line in zip(new, added, strict=True):
            # Written as toolmatch record writes an entry: the name on one line.
            shown = ruamel_comments().CommentedMap(entry)
            shown["name"] = flow(node(entry["name"]))
            plan.edits.append(Append((*path, "ignore"), entry, shown, (line,)))


def _added_line(path: Path, entry: Any) -> tuple[Path, str]:
    """What an ``ignore`` entry added to an exhaustive turn weakens, at the turn's ``ignore``."""
    why = "a new run calls it, and the exhaustive turn no longer fails a run that does"
    return (*path, "ignore"), f"calls of {short_repr(_written_name(entry))} ignored: {why}"


def _other_lookup(entry: Any) -> tuple[str, object] | None:
    """(tool, argument) of an ``ignore`` entry written as rule ``other-lookup`` writes it."""
    if not isinstance(entry, dict) or set(entry) != {"name", "args"}:
        return None
    name, args = _written_name(entry), entry["args"]
    if name is None or not isinstance(args, dict) or len(args) != 1:
        return None
    [(key, value)] = args.items()
    if isinstance(value, dict) and list(value) == ["$not"]:
        return name, key
    return None


def _written_name(tool: Any, exact: bool = False) -> str | None:
    """The tool name an expected tool (or an ``ignore`` entry) is written with: a plain
    name (``search``, or ``name: search``), or the exact one, ``{$literal: search}``;
    ``None`` for a name matcher. With ``exact``, the exact name only."""
    name = tool.get("name") if isinstance(tool, dict) else tool
    if isinstance(name, str):
        return None if exact else name
    if isinstance(name, dict) and list(name) == ["$literal"] and isinstance(name["$literal"], str):
        literal: str = name["$literal"]
        return literal
    return None


def _selector(tool: Any) -> Callable[[str], bool] | None:
    """Which called names an expected tool (or an ``ignore`` entry) selects, as the check
    selects them: a plain name those that hold it, a name matcher those it matches;
    ``None`` for what names no tool (a group)."""
    name = tool.get("name") if isinstance(tool, dict) else tool
    if isinstance(name, str):
        return lambda called: name in called
    if isinstance(name, dict):
        matcher = matcher_from_config(name)  # the spec loaded: a name mapping is a matcher
        return lambda called: bool(matcher == called)
    return None


def _widen_args(
    plan: Widening, path: Path, tool: Any, calls: list[ToolCall], how: Loosening
) -> None:
    args = tool["args"]
    for key, value in args.items():
        if holds_matcher_form(value):
            continue  # what the user (or an earlier record) wrote is kept as it is
        present = [call.args[key] for call in calls if key in call.args]
        observed = [value, *present]
        if all_equal(observed) and len(present) == len(calls):
            continue
        written, comments = _widened_value(key, observed, len(calls), how, calls)
        weakened = (_loosened_line((*path, key), value, written),)
        plan.edits.append(Replace((*path, key), written, comments, weakened))
    if tool.get("exact") is True:
        _skip_extra_args(plan, path, args, calls)


def _skip_extra_args(plan: Widening, path: Path, args: Any, calls: list[ToolCall]) -> None:
    """Skips, for an ``exact`` tool, each argument of the new calls the spec lacks."""
    extra = dict.fromkeys(key for call in calls for key in call.args if key not in args)
    for key in extra:
        plan.skip(path, f"argument {short_repr(key)} of a new run is not in the spec")


def _widened_value(
    key: str, observed: list[Any], runs: int, how: Loosening, calls: list[ToolCall]
) -> tuple[Any, tuple[tuple[Path, str], ...]]:
    """The value argument ``key`` is widened to, ``observed`` being the spec's value then
    the values of the ``runs`` new calls that have the argument, with the comments
    toolmatch record writes for it, at the places in it they are about."""
    comments: list[tuple[Path, str]] = []
    missing = f"missing in {runs + 1 - len(observed)} of {1 + runs}"
    if all_equal(observed):
        written: Any = {"$maybe": plain_data(loosened(observed, how)[0])}
        return written, (((), missing),)
    schema = _schema(how, calls)
    properties = (schema or {}).get("properties")
    properties = properties if isinstance(properties, dict) else {}
    made, comment = loosened(observed, how, properties.get(key), key)
    written = plain_data(made)
    if len(observed) <= runs:
        written = {"$maybe": written}
        comment = f"{comment}; {missing}" if comment else missing
    elif optional_by_definition(schema, key):
        written = {"$maybe": written}
        comment = f"{comment}; optional by definition" if comment else comment
    if comment:
        comments.append(((), comment))
    comments += _comments_inside(made, ())
    return written, tuple(comments)


def _loosened_line(path: Path, value: Any, written: Any) -> tuple[Path, str]:
    """What widening the literal ``value`` at ``path`` into ``written`` weakens."""
    return path, f"literal {short_repr(value)} loosened to {short_repr(written)}"


def _widen_who_and_how(
    plan: Widening, path: Path, tool: dict[Any, Any], calls: list[ToolCall], how: Loosening
) -> None:
    """An ``agent`` or ``status`` written as a name that the new runs' calls disagree with,
    loosened with the values seen as ``toolmatch record`` loosens them (a matcher or a list
    of statuses is kept)."""
    for field in CALL_FIELDS:
        value = tool.get(field)
        if not isinstance(value, str):
            continue
        observed = [value, *(found for call in calls if (found := getattr(call, field)))]
        if all_equal(observed):
            continue
        made, comment = loosened(observed, how)
        written = plain_data(made)
        comments = (((), comment),) if comment else ()
        weakened = (_loosened_line((*path, field), value, written),)
        plan.edits.append(Replace((*path, field), written, comments, weakened))


def _comments_inside(value: Any, path: Path) -> list[tuple[Path, str]]:
    """The comments the rules put inside a loosened mapping or list (a ruamel node), each
    at its path in ``value``: a value in it that varied, with what was observed."""
    found: list[tuple[Path, str]] = []
    if isinstance(value, dict):
        entries: Iterable[tuple[Any, Any]] = value.items()
        slot = 2  # where ruamel keeps the comment at the end of a mapping's pair
    elif isinstance(value, list):
        entries, slot = enumerate(value), 0
    else:
        return found
    items = value.ca.items if hasattr(value, "ca") else {}
    for key, item in entries:
        tokens = items.get(key)
        token = tokens[slot] if tokens else None
        if token is not None:
            found.append(((*path, key), token.value.strip().removeprefix("#").strip()))
        found += _comments_inside(item, (*path, key))
    return found


def _schema(how: Loosening, calls: list[ToolCall]) -> dict[str, Any] | None:
    """The JSON schema of the arguments of the tool ``calls`` (an expected tool's, one in
    each run) call, if defined and they all call one tool."""
    names = {call.name for call in calls}
    return how.schema(names.pop()) if len(names) == 1 else None


def _still_failing(plan: Widening, runs: Mapping[str, list[Run]]) -> None:
    """Report each new run the widened spec still fails, with its first reason."""
    from toolmatch._spec.errors import ConfigError
    from toolmatch._spec.loading import load_test_cases

    try:
        cases = load_test_cases(apply_to_data(plan.data, plan.edits))
    except ConfigError as error:  # the command refuses to write such a spec
        problem = error.problems[0]
        plan.not_done.append(NotDone(problem.path, problem.message))
        return
    for index, case in enumerate(cases):
        for count, run in enumerate(runs.get(case.name, ()), 1):
            try:
                if (case.name, count) in plan.unused or case.passes(run):
                    continue
                failures = [
                    f"turn {number}: {result.first_failure()}"
                    for number, result in enumerate(case.check(run))
                    if not result.passed
                ]
                why = f"still fails the widened case: {failures[0] if failures else 'it fails'}"
            except NotRecordedError as error:  # neither passes nor fails: said as it is
                why = f"cannot be checked by the widened case: {error}"
            plan.not_done.append(
                NotDone(f"test_cases[{index}]({case.name})", f"run {count} {why}", plan.verb)
            )
