"""``toolmatch lint``: the expectations of a loaded spec that can never fail or never pass.

Each rule (docs/cli.md, "Specs that cannot fail") reports a :class:`Finding` only when it
is certain: a matcher is said to accept every value only when its class can prove it
(``Matcher._accepts_everything``), and a name to select no defined tool only when the
tools are known (a turn's ``tools:``, or the definitions given to ``lint --tools``).
Mistakes the loader refuses (``count`` above ``max_count``, a case name used twice) never
get this far: the spec does not load.
"""

from __future__ import annotations

from toolmatch._core.describe import join_path, short_repr, shortened_list
from toolmatch._core.immutable import Record
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.captures import Capture
from toolmatch._matchers.judges import unregistered_judges
from toolmatch._matchers.mappings import Exact, Maybe, Partial
from toolmatch._matchers.strings import Regex
from toolmatch._matchers.values import ANY
from toolmatch._selection.groups import expectations_in, item_paths
from toolmatch._selection.run import ExpectedTurn

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any

    from toolmatch._selection.case import TestCase
    from toolmatch._selection.expectation import ExpectedTool
    from toolmatch._selection.run import OneOfTurns

__all__ = ["Finding", "lint_cases", "read_tool_names", "unregistered_judge_names", "with_lines"]


class Finding(Record):
    """One thing in a spec that can never fail or never pass: its ``place`` (a spec path,
    as the loader's errors name it), its ``rule``, what is wrong (``message``), the keys
    and indices that lead to it in the file's data (``steps``), and the file's ``line``
    where it is written (``None`` when unknown)."""

    __slots__ = _fields = ("place", "rule", "message", "steps", "line")
    place: str
    rule: str
    message: str
    steps: tuple[str | int, ...]
    line: int | None

    def __str__(self) -> str:
        return f"{self.place}: {self.message} [{self.rule}]"


class _Place:
    """A place in the spec: its path as the loader names it, and the steps to it."""

    __slots__ = ("text", "steps")

    def __init__(self, text: str, steps: tuple[str | int, ...]) -> None:
        self.text = text
        self.steps = steps

    def at(self, *keys: str | int) -> _Place:
        text = self.text
        for key in keys:
            text = join_path(text, key)
        return _Place(text, self.steps + keys)

    def finding(self, rule: str, message: str) -> Finding:
        return Finding(self.text, rule, message, self.steps, None)


def read_tool_names(path: str) -> tuple[str, ...]:
    """The names of the tool definitions in the JSON or YAML file ``path``, in order.

    Raises ``OSError`` for a file that cannot be read, ``ConfigError`` for one that is not
    JSON or YAML, ``TypeError`` / ``ValueError`` for definitions that cannot be read.
    """
    from toolmatch._calls.definitions import read_tool_definitions
    from toolmatch._spec.parsing import read_spec_file

    return tuple(read_tool_definitions(read_spec_file(path), path))


def with_lines(findings: list[Finding], path: str) -> list[Finding]:
    """``findings`` with the line of the spec file ``path`` where each is written, when it
    can be found: the file read as YAML nodes (JSON is YAML too), each finding's steps
    followed through them (through an alias, to its anchor's). Without PyYAML, for a file
    it cannot read, or past a merge key (``<<``), no line."""
    if not findings:
        return findings
    try:
        import yaml

        with open(path, encoding="utf-8-sig") as file:
            root = yaml.compose(file, Loader=yaml.SafeLoader)
    except Exception:  # no PyYAML, or a file it reads otherwise than the loader: no lines
        return findings
    return [
        Finding(found.place, found.rule, found.message, found.steps, _line(root, found.steps))
        for found in findings
    ]


def _line(node: Any, steps: tuple[str | int, ...]) -> int | None:
    import yaml

    for step in steps:
        if isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            if step >= len(node.value):
                return None
            node = node.value[step]
        elif isinstance(node, yaml.MappingNode) and isinstance(step, str):
            values = [
                value
                for key, value in node.value
                if isinstance(key, yaml.ScalarNode)
                and key.value == step
                and key.tag != "tag:yaml.org,2002:merge"
            ]
            if len(values) != 1:
                return None
            node = values[0]
        else:
            return None
    return int(node.start_mark.line) + 1


def lint_cases(
    cases: Sequence[TestCase], data: object, tools: Sequence[str] | None = None
) -> list[Finding]:
    """The findings of the ``cases`` loaded from the spec ``data`` (its parsed file, which
    says where each case's turns are written), in the spec's order; ``tools``: the names
    of the tools defined for every turn without a ``tools:`` of its own."""
    raw = data.get("test_cases") if isinstance(data, dict) else None
    written = raw if isinstance(raw, list) else []
    findings: list[Finding] = []
    seen: dict[str, str] = {}  # a case's expectations written out -> the first case's place
    for index, case in enumerate(cases):
        place = _Place(f"test_cases[{index}]({case.name})", ("test_cases", index))
        item = written[index] if index < len(written) else None
        for where, body, body_item in _bodies(case, place, item):
            several = isinstance(body_item, dict) and "turns" in body_item
            for number, turn in enumerate(body.turns):
                turn_place = where.at("turns", number) if several else where
                for alternative_place, expected in _turn_alternatives(turn, turn_place):
                    findings += _turn_findings(expected, alternative_place, tools)
            findings += _case_budget(body, where)
            findings += _answer_findings(body.answer, where.at("answer"))
        content = repr((case.turns, case.max_calls, case.alternatives))
        if content in seen:
            message = f"expects exactly what {seen[content]} expects"
            findings.append(place.finding("duplicate-case", message))
        else:
            seen[content] = place.text
    return findings


def _bodies(case: TestCase, place: _Place, item: object) -> list[tuple[_Place, TestCase, object]]:
    """The case itself, or each of its ``one_of`` alternatives, with its place and its
    written mapping."""
    if not case.alternatives:
        return [(place, case, item)]
    written = item.get("one_of") if isinstance(item, dict) else None
    items = written if isinstance(written, list) else []
    return [
        (place.at("one_of", number), body, items[number] if number < len(items) else None)
        for number, body in enumerate(case.alternatives)
    ]


def _turn_alternatives(
    turn: ExpectedTurn | OneOfTurns, place: _Place
) -> list[tuple[_Place, ExpectedTurn]]:
    """A turn with its place, or each of its ``one_of`` alternatives with theirs."""
    if isinstance(turn, ExpectedTurn):
        return [(place, turn)]
    return [(place.at("one_of", number), each) for number, each in enumerate(turn.alternatives)]


def _turn_findings(
    turn: ExpectedTurn, place: _Place, tools: Sequence[str] | None
) -> Iterator[Finding]:
    own = turn.tools is not None
    defined = [definition.name for definition in turn.tools] if turn.tools is not None else tools
    # Groups opened: each expectation at its place (expected_tools[1].in_order[0]).
    expected = expectations_in(turn.expected_tools)
    paths = item_paths(turn.expected_tools)
    places = [place.at("expected_tools", *path) for path in paths]
    named = [_Place("expected_tools", ()).at(*path).text for path in paths]
    positive = [number for number, tool in enumerate(expected) if tool.count]
    for number, pattern in enumerate(turn.ignore):
        where = place.at("ignore", number)
        yield from _unregistered(pattern, where)
        if _selects_every_call(pattern):
            starved = ", ".join(named[each] for each in positive)
            why = f"{starved} can never pass" if starved else "the turn can never fail"
            yield where.finding("ignore-everything", f"leaves out every call: {why}")
        # With the turn's own tools:, ignoring a tool it does not define is what lets a call
        # of it through: not vacuous.
        elif defined is not None and not own and not _selects_any(pattern, defined):
            why = _undefined(pattern, defined)
            yield where.finding("ignore-undefined", f"ignores no call: {why}")
    if turn.agent is not None:
        yield from _unregistered(turn.agent, place.at("agent"))
    yield from _answer_findings(turn.answer, place.at("answer"))
    for number, tool in enumerate(expected):
        where = places[number]
        yield from _unregistered(tool, where)
        if defined is not None and not _selects_any(tool, defined):
            # A never or a cap (count 0) passes without calls; any other needs one.
            rule = "never-undefined" if tool.is_never else "undefined-tool"
            verdict = "can never pass" if tool.count else "can never fail"
            yield where.finding(rule, f"{verdict}: {_undefined(tool, defined)}")
        if tool.count and turn.max_calls is not None and tool.count > turn.max_calls:
            yield where.finding(
                "count-above-max-calls",
                f"can never pass: it needs {tool.count} matching calls and the turn's "
                f"max_calls is {turn.max_calls}",
            )
        if tool.count:
            for other, never in enumerate(expected):
                if (
                    never.is_never
                    and not (never.after or never.before)
                    and _same_calls(tool, never)
                ):
                    yield where.finding(
                        "contradicts-never",
                        f"can never pass: {named[other]} forbids the calls it needs",
                    )
        yield from _order_findings(tool, expected, named, defined, where)
        if tool.args is not None:
            yield from _accepting(tool.args, where.at("args"))
        if tool.result is not None:
            yield from _accepting(tool.result, where.at("result"))
    needed = _least_calls(turn)
    if (
        turn.max_calls is not None
        and needed > turn.max_calls
        and all(tool.count <= turn.max_calls for tool in expected)
    ):
        yield place.at("max_calls").finding(
            "count-above-max-calls",
            f"can never pass: the expectations need {needed} calls of their own and "
            f"max_calls is {turn.max_calls}",
        )


def _order_findings(
    tool: ExpectedTool,
    expected: Sequence[ExpectedTool],
    named: Sequence[str],
    defined: Sequence[str] | None,
    where: _Place,
) -> Iterator[Finding]:
    """A never with after / before, or a first / last, that can never fail."""
    if (tool.first or tool.last) and _asserts_only_its_name(tool):
        key = "first" if tool.first else "last"
        yield where.at(key).finding(
            "place-matches-anything",
            f"can never fail: it asserts nothing beyond the name, so the {key} call of the "
            "name matches it whatever it is",
        )
    if not tool.is_never:
        return
    ids = {other.id: number for number, other in enumerate(expected) if other.id is not None}
    for key, names in (("after", tool.after), ("before", tool.before)):
        for index, name in enumerate(names):
            other = ids.get(name)
            if other is None:
                continue  # the loader refuses an unknown id: not here
            if defined is not None and not _selects_any(expected[other], defined):
                why = f"{named[other]} selects no defined tool, so it has no first call"
            elif key == "before" and _same_calls(tool, expected[other]):
                why = (
                    f"it is written as {named[other]} is, and no call that matches "
                    f"{named[other]} comes before the first that does"
                )
            else:
                continue
            yield where.at(key, index).finding("never-order-vacuous", f"can never fail: {why}")


def _asserts_only_its_name(tool: ExpectedTool) -> bool:
    return all(
        value is None for value in (tool.args, tool.result, tool.failed, tool.agent, tool.status)
    )


def _answer_findings(answer: object, place: _Place) -> list[Finding]:
    """A turn's or a case's ``answer`` that can never fail, or names a judge nobody
    registered. ``ANY`` is said here too: an answer check has no key to assert, and
    ``ANY`` accepts no answer as well (the run that ends on a call)."""
    if answer is None:
        return []
    found = list(_unregistered(answer, place))
    if answer is ANY:
        message = "ANY accepts every answer, none too: it can never fail"
        return [place.finding("accepts-everything", message), *found]
    return [*_accepting(answer, place), *found]


def _unregistered(value: object, place: _Place) -> Iterator[Finding]:
    """A finding for each judge ``value`` names that nobody registered: it accepts nothing."""
    for name in unregistered_judges(value):
        yield place.finding(
            "unregistered-judge",
            f"names the judge {name!r}, which nobody registered: it accepts no value (register "
            "it in a module given to --plugin, or in the toolmatch.judges entry point group)",
        )


def unregistered_judge_names(cases: Sequence[TestCase]) -> list[str]:
    """The judges the ``cases`` name that nobody registered, each once, in order."""
    names: list[str] = []
    for case in cases:
        for turn in case.every_turn():
            parts = [*turn.expected_tools, *turn.ignore, turn.agent, turn.answer]
            names += unregistered_judges(parts)
        names += unregistered_judges([body.answer for body in case.alternatives or (case,)])
    return list(dict.fromkeys(names))


def _case_budget(case: TestCase, place: _Place) -> list[Finding]:
    if case.max_calls is None:
        return []
    needed = sum(_least_calls(turn) for turn in case.turns)
    if needed <= case.max_calls:
        return []
    message = (
        f"can never pass: its turns need at least {needed} calls and max_calls is {case.max_calls}"
    )
    return [place.at("max_calls").finding("count-above-max-calls", message)]


def _least_calls(turn: ExpectedTurn | OneOfTurns) -> int:
    """The fewest calls (ignored ones not counted) with which the turn can pass."""
    if not isinstance(turn, ExpectedTurn):
        return min(_least_calls(each) for each in turn.alternatives)
    counts = [tool.count for tool in expectations_in(turn.expected_tools)]
    # A partial order (groups, before/after) gives each expectation calls of its own too.
    if turn._plan.distinct:
        return sum(counts)
    return max(counts, default=0)


def _accepts_everything(matcher: object) -> bool:
    return matcher is ANY or (isinstance(matcher, Matcher) and matcher._accepts_everything())


def _selects_every_call(pattern: ExpectedTool) -> bool:
    """Whether the ignore pattern leaves out every call: any name, nothing else asserted
    (arguments, result, failed flag, agent, status), no cap (one with a ``max_count``
    leaves the calls beyond it to be judged)."""
    return (
        pattern.max_count is None
        and _accepts_everything(pattern.name)
        and _asserts_only_its_name(pattern)
    )


def _selects_any(tool: ExpectedTool, names: Sequence[str]) -> bool:
    return any(tool._selects(name) for name in names)  # the judge's own rule for a name


def _undefined(tool: ExpectedTool, names: Sequence[str]) -> str:
    verb = "contains" if isinstance(tool.name, str) else "matches"
    defined = shortened_list(names) or "none"
    return f"no defined tool's name {verb} {tool.name!r} (defined: {defined})"


def _same_calls(tool: ExpectedTool, never: ExpectedTool) -> bool:
    """Whether the two select and match the very same calls: written the same."""
    parts = ("name", "args", "result", "failed", "agent", "status")
    return repr([getattr(tool, part) for part in parts]) == repr(
        [getattr(never, part) for part in parts]
    )


def _accepting(value: object, place: _Place) -> Iterator[Finding]:
    """Each matcher in ``value`` written as a check that accepts every value, and each
    regex that accepts every value without a line break (``.*``).

    ``ANY`` says so itself and asserts that its key is present: only the other spellings
    of it are reported (``$any_of`` holding ``ANY``, ``~Absent``, ``(?s).*``...).
    """
    if isinstance(value, Maybe):
        yield from _accepting(value.value, place)
    elif isinstance(value, Capture):  # it takes what its match takes
        yield from _accepting(value.match, place)
    elif isinstance(value, (Partial, Exact)):
        yield from _accepting(value._given, place)
    elif isinstance(value, Matcher):
        if value is not ANY and value._accepts_everything():
            yield place.finding(
                "accepts-everything", f"{short_repr(value)} accepts every value: it can never fail"
            )
        elif isinstance(value, Regex) and value._accepts_every_line():
            yield place.finding(
                "accepts-almost-everything",
                f"{short_repr(value)} accepts almost everything (every value without a line "
                "break): for any value write {$any: true}, else a pattern that says what you "
                "mean",
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _accepting(item, place.at(key))
    elif isinstance(value, (list, tuple)):
        for number, item in enumerate(value):
            yield from _accepting(item, place.at(number))
