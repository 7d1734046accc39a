"""Test cases from YAML or JSON files: expected tools, turns and cases, checked at load time.

Every mistake in a file is reported at once, each with its exact path, in one
``ConfigError``. PyYAML and json are imported only when a file is read, so
``import toolmatch`` stays light.
"""

from __future__ import annotations

from toolmatch._base import Matcher
from toolmatch._config import MATCHER_OPTIONS, Problems, build_value
from toolmatch._describe import join_path, short_repr, type_name
from toolmatch._record import Record
from toolmatch._selection import (
    ExpectedTool,
    ExpectedTurn,
    check_max_calls,
    judge_turns,
    read_turns,
    turns_pass,
)
from toolmatch._spec_files import read_spec_file

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs milliseconds
if TYPE_CHECKING:
    from collections.abc import Sequence
    from os import PathLike
    from typing import Any

    from toolmatch._calls import ToolCall
    from toolmatch._results import TurnResult

__all__ = ["TestCase", "load_expected_tools", "load_test_cases"]


_TOOL_KEYS = ("name", "args", "count", "max_count", "never")
_TURN_KEYS = ("expected_tools", "distinct", "ordered")
_CASE_KEYS = ("name", "turns", "expected_tools", "distinct", "ordered")
_TOP_KEYS = ("test_cases",)
# Matchers that can judge a whole arguments dict; the others judge one value.
_ARGS_MATCHERS = ("partial", "exact", "literal", "any", "one_of", "not")


class TestCase(Record):
    """A named test case from a spec: its expected ``turns``, in order, and ``max_calls``, a
    bound on the calls of all its turns together (ignored calls not counted).

    >>> [case] = load_test_cases({"test_cases": [{"name": "lookup", "expected_tools": ["search"]}]})
    >>> case.name, len(case.turns)
    ('lookup', 1)
    >>> [result.passed for result in case.check([[{"name": "web_search"}]])]
    [True]
    """

    __test__ = False  # pytest: a configuration record, not a test class to collect
    _fields = ("name", "turns", "max_calls")
    __slots__ = _fields
    __hash__ = None  # type: ignore[assignment]
    name: str
    turns: tuple[ExpectedTurn, ...]
    max_calls: int | None

    def __init__(
        self, name: str, turns: Sequence[ExpectedTurn], max_calls: int | None = None
    ) -> None:
        self._assign(name, tuple(turns), check_max_calls(max_calls))

    def check(self, call_turns: Sequence[object]) -> list[TurnResult]:
        """Judge a recorded run, one entry of calls per turn, turn by turn.

        A turn present on one side only fails with a ``reason``, as in :func:`check_turns`;
        an entry :func:`to_calls` cannot read raises ``TypeError`` naming the turn, and one
        holding several alternative answers (choices) ``ValueError``, named the same way.
        """
        return judge_turns(self.turns, self._read(call_turns), self.max_calls)

    def passes(self, call_turns: Sequence[object]) -> bool:
        """Whether the run passes: ``check``'s verdict, without building its results.

        Faster than :meth:`check` when only the verdict counts, as over a large trace
        file; bad input raises as in :meth:`check`.

        >>> spec = {"test_cases": [{"name": "lookup", "expected_tools": ["search"]}]}
        >>> [case] = load_test_cases(spec)
        >>> case.passes([[{"name": "web_search"}]]), case.passes([[{"name": "fetch"}]])
        (True, False)
        """
        return turns_pass(self.turns, self._read(call_turns), self.max_calls)

    @staticmethod
    def _read(call_turns: Sequence[object]) -> list[list[ToolCall]]:
        if not isinstance(call_turns, (list, tuple)):
            raise TypeError(
                f"turns must be a list with one entry of calls per turn, got "
                f"{short_repr(call_turns)} ({type_name(call_turns)})"
            )
        return read_turns(call_turns, "turns")


def load_expected_tools(data: object, path: str = "expected_tools") -> list[ExpectedTool]:
    """Expected tools from configuration data; raises ``ConfigError`` listing every problem.

    An item is a tool name, or a mapping with ``name`` and optionally ``args`` (a mapping
    asserted as a subset, its values matcher dicts or plain values, or one matcher dict for
    the whole arguments such as ``{exact: {...}}``), ``count``, ``max_count`` and ``never``.

    >>> refund = {"name": "refund", "args": {"amount": {"approx": 42}}}
    >>> tools = load_expected_tools(["search", refund])
    >>> tools[1] == [{"name": "issue_refund", "args": {"amount": 42.0}}]
    True
    >>> from toolmatch import ConfigError
    >>> try:
    ...     load_expected_tools([{"name": "refund", "count": 0}, {"name": ""}])
    ... except ConfigError as error:
    ...     for problem in error.problems:
    ...         print(problem.path, "--", problem.message.partition(";")[0])
    expected_tools[0].count -- must be >= 1, got 0
    expected_tools[1].name -- a tool name must not be empty: '' is in every tool name
    """
    problems = Problems()
    tools = _expected_tools(data, path, problems)
    problems.raise_if_any()
    return tools


def load_test_cases(source: str | PathLike[str] | object) -> list[TestCase]:
    """Test cases from a ``.yaml`` / ``.yml`` / ``.json`` file, or from already-parsed data.

    The layout is ``test_cases: [{name, turns: [{expected_tools: [...], distinct?, ordered?}]}]``;
    a case may instead carry ``expected_tools`` (and ``distinct`` / ``ordered``) itself, as its
    only turn. Every problem is reported at once in a ``ConfigError``; a file's problems
    carry its name. YAML needs PyYAML: ``pip install 'toolmatch[yaml]'``.

    >>> spec = {"test_cases": [
    ...     {"name": "refund", "turns": [
    ...         {"expected_tools": ["lookup_order"]},
    ...         {"expected_tools": [{"name": "refund", "args": {"amount": {"regex": "4[0-9"}}}]},
    ...     ]},
    ... ]}
    >>> from toolmatch import ConfigError
    >>> try:
    ...     load_test_cases(spec)
    ... except ConfigError as error:
    ...     print(error.problems[0].path)
    test_cases[0](refund).turns[1].expected_tools[0].args.amount.regex
    """
    import os  # here, not at the top: `import toolmatch` stays fast

    if isinstance(source, (str, os.PathLike)):
        where = os.fspath(source)
        data = read_spec_file(where)
        problems = Problems()
        cases = _test_cases(data, problems)
        problems.raise_if_any(where)
        return cases
    problems = Problems()
    cases = _test_cases(source, problems)
    problems.raise_if_any()
    return cases


def _unknown_keys(
    mapping: dict[Any, Any], accepted: tuple[str, ...], path: str, problems: Problems
) -> None:
    for key in mapping:
        if key in accepted:
            continue
        hint = ""
        if isinstance(key, str):
            import difflib

            close = difflib.get_close_matches(key, accepted, n=1)
            if close:
                hint = f" (did you mean {close[0]!r}?)"
        problems.add(
            join_path(path, key),
            f"unknown key {short_repr(key)}{hint}; accepted: {', '.join(accepted)}",
        )


def _flag(mapping: dict[Any, Any], key: str, path: str, problems: Problems) -> bool:
    value = mapping.get(key, False)
    if not isinstance(value, bool):
        problems.add(join_path(path, key), f"must be true or false, got {short_repr(value)}")
        return False
    return value


def _expected_tools(data: object, path: str, problems: Problems) -> list[ExpectedTool]:
    if not isinstance(data, list):
        problems.add(
            path,
            "must be a list of expected tools (tool names or mappings with a name), got "
            f"{short_repr(data)} ({type_name(data)})",
        )
        return []
    tools = []
    for index, item in enumerate(data):
        tool = _expected_tool(item, join_path(path, index), problems)
        if tool is not None:
            tools.append(tool)
    return tools


def _tool_name(name: object, path: str, problems: Problems) -> str | None:
    if not isinstance(name, str):
        problems.add(
            path,
            "a tool name must be a string (matched as a substring of the called tool's name), "
            f"got {short_repr(name)} ({type_name(name)})",
        )
        return None
    if not name:
        problems.add(path, "a tool name must not be empty: '' is in every tool name")
        return None
    return name


def _expected_tool(item: object, path: str, problems: Problems) -> ExpectedTool | None:
    if isinstance(item, str):
        bare = _tool_name(item, path, problems)
        return None if bare is None else ExpectedTool(bare)
    if not isinstance(item, dict):
        problems.add(
            path,
            f"must be a tool name or a mapping with {', '.join(_TOOL_KEYS)}; got "
            f"{short_repr(item)} ({type_name(item)})",
        )
        return None
    before = len(problems.found)
    _unknown_keys(item, _TOOL_KEYS, path, problems)
    name: str | None = None
    if "name" not in item:
        problems.add(
            join_path(path, "name"),
            "missing; every expected tool needs the tool name (matched as a substring)",
        )
    else:
        name = _tool_name(item["name"], join_path(path, "name"), problems)
    args = _tool_args(item.get("args"), join_path(path, "args"), problems)
    never = _flag(item, "never", path, problems)
    count, max_count = _tool_counts(item, path, problems)
    if never and ("count" in item or "max_count" in item):
        problems.add(
            join_path(path, "never"),
            "never: true asserts that no call matches; it cannot be combined with count or "
            "max_count",
        )
    if len(problems.found) > before or name is None:
        return None
    try:
        if never:
            return ExpectedTool.never(name, args)
        return ExpectedTool(name, args, count=count, max_count=max_count)
    except (TypeError, ValueError) as error:  # a rule ExpectedTool has that the loader lacks
        problems.add(path, str(error))
        return None


def _tool_args(args: object, path: str, problems: Problems) -> dict[str, Any] | Matcher | None:
    if args is None:
        return None
    if not isinstance(args, dict):
        problems.add(
            path,
            "must be a mapping of expected arguments (asserted as a subset) or one matcher "
            f"such as {{exact: {{...}}}}, got {short_repr(args)} ({type_name(args)})",
        )
        return None
    kinds = [key for key in args if key in MATCHER_OPTIONS]
    if len(kinds) == 1 and kinds[0] not in _ARGS_MATCHERS:
        kind = kinds[0]
        problems.add(
            join_path(path, kind),
            f"{kind!r} matches one value, not the whole arguments; accepted here: "
            f"{', '.join(_ARGS_MATCHERS)} (for an argument named {kind!r}, write "
            f"args: {{partial: {{{kind}: ...}}}})",
        )
        return None
    built = build_value(args, path, problems)
    if isinstance(built, dict):
        keys = [key for key in built if not isinstance(key, str)]
        for key in keys:
            problems.add(
                join_path(path, key),
                f"argument names must be strings, got {short_repr(key)} ({type_name(key)}); "
                "quote it",
            )
        return None if keys else built
    return built if isinstance(built, Matcher) else None


def _tool_counts(item: dict[Any, Any], path: str, problems: Problems) -> tuple[int, int | None]:
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int):
        problems.add(
            join_path(path, "count"),
            f"must be an int >= 1, got {short_repr(count)} ({type_name(count)})",
        )
        count = 1
    elif count < 1:
        problems.add(
            join_path(path, "count"),
            f"must be >= 1, got {short_repr(count)}; to assert that no call matches, write "
            "never: true",
        )
        count = 1
    max_count = item.get("max_count")
    if max_count is None:
        return count, None
    if isinstance(max_count, bool) or not isinstance(max_count, int):
        problems.add(
            join_path(path, "max_count"),
            f"must be an int >= count, or null, got {short_repr(max_count)} "
            f"({type_name(max_count)})",
        )
        return count, None
    if max_count < count:
        problems.add(
            join_path(path, "max_count"),
            f"must be >= count ({short_repr(count)}), got {short_repr(max_count)}",
        )
        return count, None
    return count, max_count


def _turn(data: object, path: str, problems: Problems) -> ExpectedTurn:
    if not isinstance(data, dict):
        problems.add(
            path,
            "a turn must be a mapping with expected_tools (and optionally distinct, ordered), "
            f"got {short_repr(data)} ({type_name(data)})",
        )
        return ExpectedTurn(())
    _unknown_keys(data, _TURN_KEYS, path, problems)
    if "expected_tools" not in data:
        problems.add(
            join_path(path, "expected_tools"),
            "missing; each turn lists its expected tools (an empty list expects nothing)",
        )
        tools = []
    else:
        tools = _expected_tools(data["expected_tools"], join_path(path, "expected_tools"), problems)
    distinct = _flag(data, "distinct", path, problems)
    ordered = _flag(data, "ordered", path, problems)
    return ExpectedTurn(tools, distinct=distinct, ordered=ordered)


def _case(data: object, index: int, problems: Problems) -> TestCase | None:
    path = f"test_cases[{index}]"
    if not isinstance(data, dict):
        problems.add(
            path,
            "a test case must be a mapping with name and turns (or expected_tools), got "
            f"{short_repr(data)} ({type_name(data)})",
        )
        return None
    name = data.get("name")
    if "name" not in data:
        problems.add(join_path(path, "name"), "missing; every test case needs a unique name")
    elif not isinstance(name, str) or not name:
        problems.add(
            join_path(path, "name"),
            f"must be a non-empty string, got {short_repr(name)} ({type_name(name)})",
        )
    else:
        path = f"{path}({name})"
    _unknown_keys(data, _CASE_KEYS, path, problems)
    turns: list[ExpectedTurn] = []
    if "turns" in data and "expected_tools" in data:
        problems.add(
            path,
            "has both turns and expected_tools; give turns: [...] for several turns, or "
            "expected_tools: [...] for a single turn",
        )
    elif "turns" in data:
        for key in ("distinct", "ordered"):
            if key in data:
                problems.add(
                    join_path(path, key),
                    f"goes in each turn when the case has turns: turns: [{{expected_tools: [...], "
                    f"{key}: true}}]",
                )
        raw_turns = data["turns"]
        if not isinstance(raw_turns, list) or not raw_turns:
            problems.add(
                join_path(path, "turns"),
                "must be a non-empty list of turns, each a mapping with expected_tools, got "
                f"{short_repr(raw_turns)} ({type_name(raw_turns)})",
            )
        else:
            turns = [
                _turn(turn, join_path(join_path(path, "turns"), number), problems)
                for number, turn in enumerate(raw_turns)
            ]
    elif "expected_tools" in data:
        single = {key: data[key] for key in _TURN_KEYS if key in data}
        turns = [_turn(single, path, problems)]
    else:
        problems.add(
            path,
            "has neither turns nor expected_tools; give turns: [...] for several turns, or "
            "expected_tools: [...] for a single turn",
        )
    if not isinstance(name, str) or not name:
        return None
    return TestCase(name, turns)


def _test_cases(data: object, problems: Problems) -> list[TestCase]:
    if not isinstance(data, dict):
        what = "is empty" if data is None else f"is {short_repr(data)} ({type_name(data)})"
        problems.add("test_cases", f"missing: the top level {what}; expected test_cases: [...]")
        return []
    _unknown_keys(data, _TOP_KEYS, "", problems)
    raw = data.get("test_cases")
    if "test_cases" not in data:
        problems.add("test_cases", "missing; the top level must have a test_cases list")
        return []
    if not isinstance(raw, list) or not raw:
        problems.add(
            "test_cases",
            f"must be a non-empty list of test cases, got {short_repr(raw)} ({type_name(raw)})",
        )
        return []
    cases = []
    first_use: dict[str, int] = {}
    for index, item in enumerate(raw):
        case = _case(item, index, problems)
        if case is None:
            continue
        if case.name in first_use:
            first = first_use[case.name]
            problems.add(
                f"test_cases[{index}]({case.name}).name",
                f"duplicate case name {short_repr(case.name)}; first used by test_cases[{first}]",
            )
            continue
        first_use[case.name] = index
        cases.append(case)
    return cases
