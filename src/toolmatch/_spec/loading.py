"""Test cases from YAML or JSON files: expected tools, turns and cases, checked at load time.

Every mistake in a file is reported at once, each with its exact path, in one
``ConfigError``. PyYAML and json are imported only when a file is read, so
``import toolmatch`` stays light.
"""

from __future__ import annotations

from toolmatch._calls.catalogue import ToolCatalogue
from toolmatch._core.describe import join_path, short_repr, type_name
from toolmatch._core.flags import check_flag
from toolmatch._core.public import public
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.base import Matcher
from toolmatch._matchers.key_filter import pattern_problem
from toolmatch._matchers.mappings import Absent, Exact, Maybe, Partial
from toolmatch._selection.case import TestCase
from toolmatch._selection.expectation import ExpectedTool
from toolmatch._selection.groups import AnyOrder, InOrder, order_problems
from toolmatch._selection.options import TURN_OPTIONS, option_names
from toolmatch._selection.run import ExpectedTurn, OneOfTurns
from toolmatch._selection.tool_keys import (
    NOT_WITH_NEVER,
    TOOL_KEYS,
    check_tool_keys,
    tool_key_names,
)
from toolmatch._selection.validation import (
    Caller,
    check_agent,
    check_budget,
    check_name,
    check_no_carried,
)
from toolmatch._spec.errors import ConfigError, Problems
from toolmatch._spec.matcher_keys import ARGS_KEYS_01, build_arguments, build_value, read_by_01
from toolmatch._spec.parsing import SpecDocument, read_spec_file

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from os import PathLike
    from typing import Any, TypeVar

    from toolmatch._spec.errors import SpecWarning

    _T = TypeVar("_T")

__all__ = [
    "load_expected_tools",
    "load_test_cases",
    "load_spec_document",
    "load_test_cases_quietly",
]


_EXPECTED_KEYS = tool_key_names()
_IGNORE_KEYS = tool_key_names(ignore=True)
_GROUPS: dict[str, type[InOrder] | type[AnyOrder]] = {"in_order": InOrder, "any_order": AnyOrder}
# The keys an ignore entry refuses with a reason rather than as unknown.
_NO_COUNT = {
    "count": " (ignore patterns take max_count, not count: max_count: N leaves out at most the "
    "first N matching calls)",
    "never": "",
}
_TURN_KEYS = ("expected_tools", *option_names())
_CASE_KEYS = ("name", "turns", *_TURN_KEYS, "one_of")
_ALTERNATIVE_KEYS = ("turns", *_TURN_KEYS)  # a case's alternative: a case without its name
_TOP_KEYS = ("test_cases",)
# What a 0.1 file meant by args: {KEY: ...}, and how 0.2 says it.
_ARGS_01 = {
    "exact": "write the arguments under args and exact: true beside it",
    "partial": "write the arguments under args directly (a subset is the default)",
    "literal": "write the arguments under args and exact: true beside it",
    "any": "leave args out to accept any arguments",
    "one_of": "a spec file has no alternatives for the whole arguments: write one case each",
    "not": "a spec file has no negation of the whole arguments: list what must hold instead",
}


@public
def load_expected_tools(
    data: object, path: str = "expected_tools"
) -> list[ExpectedTool | InOrder | AnyOrder]:
    """Expected tools from configuration data; raises ``ConfigError`` listing every problem.

    An item is a tool name, or a mapping with ``name`` and optionally ``args`` (argument
    names, whatever they are, to values: plain values or matcher mappings, asserted as a
    subset unless ``exact: true`` stands beside it), ``count``, ``max_count``, ``never``,
    ``result``, ``failed``, ``agent``, ``status``, ``id``, ``before`` and ``after``; or a
    group, ``{in_order: [...]}`` or ``{any_order: [...]}``. A place that toolmatch 0.1 read as
    a matcher and that is data now warns with a :class:`SpecWarning` (see docs/config.md).

    >>> refund = {"name": "refund", "args": {"amount": {"$approx": 42}}}
    >>> tools = load_expected_tools(["search", refund])
    >>> tools[1] == [{"name": "issue_refund", "args": {"amount": 42.0}}]
    True
    >>> from toolmatch import ConfigError
    >>> try:
    ...     load_expected_tools([{"name": "refund", "count": 0}, {"name": ""}])
    ... except ConfigError as error:
    ...     for problem in error.problems:
    ...         print(problem.path, "--", problem.message.partition(";")[0])
    expected_tools[0].count -- must be >= 1 without max_count, got 0
    expected_tools[1].name -- must not be empty: '' is in every tool name
    """
    problems = Problems()
    tools = _expected_tools(data, path, problems)
    for place, problem in order_problems(tools, False, path) if not problems.found else ():
        problems.add(f"{path}{place}", problem)
    problems.raise_if_any()
    problems.emit_warnings(stacklevel=2)
    return tools


@public
def load_test_cases(source: str | PathLike[str] | object) -> list[TestCase]:
    """Test cases from a ``.yaml`` / ``.yml`` / ``.json`` file, or from already-parsed data.

    The layout is ``test_cases: [{name, max_calls?, turns: [{expected_tools: [...], ...}]}]``
    (a turn's options: ``distinct``, ``ordered``, ``exhaustive``, ``ignore``, ``max_calls``,
    ``no_repeats``); a case may instead carry ``expected_tools`` and those options itself,
    as its only turn. Every problem is reported at once in a ``ConfigError``; a file's
    problems carry its name; places whose meaning changed since toolmatch 0.1 warn with a
    :class:`SpecWarning` once the spec loads. YAML needs PyYAML: ``pip install 'toolmatch[yaml]'``.

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
    cases, problems, where = _load(source)
    problems.emit_warnings(where, stacklevel=2)
    return cases


def load_test_cases_quietly(
    source: str | PathLike[str] | object,
) -> tuple[list[TestCase], list[SpecWarning]]:
    """:func:`load_test_cases`, with its warnings returned instead of issued (for the CLI,
    which prints each on one line)."""
    cases, problems, where = _load(source)
    return cases, problems.spec_warnings(where)


def load_spec_document(document: SpecDocument) -> tuple[list[TestCase], list[SpecWarning]]:
    """:func:`load_test_cases_quietly` of a spec file already read (``--update`` plans its
    changes on the same parse), its problems named as the file's."""
    cases, problems, where = _load(document)
    return cases, problems.spec_warnings(where)


def _load(source: str | PathLike[str] | object) -> tuple[list[TestCase], Problems, str | None]:
    import os  # here, not at the top: `import toolmatch` stays fast

    where = None
    data = source
    if isinstance(source, (str, os.PathLike)):
        where = os.fspath(source)
        data = read_spec_file(where)
    elif isinstance(source, SpecDocument):
        where, data = source.where, source.data
    problems = Problems()
    # A tools: path is relative to the spec file; for data already parsed, to the working
    # directory (docs/config.md).
    files = _ToolFiles("" if where is None else os.path.dirname(where))
    cases = _test_cases(data, problems, files)
    problems.raise_if_any(where)
    return cases, problems, where


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


def _checked(
    problems: Problems, caller: Caller, key: str, rule: Callable[[], _T], default: _T
) -> _T:
    """What ``rule`` (a check of ``key``'s value) returns, or ``default`` once its refusal is
    a problem at the key's place, in the rule's words."""
    try:
        return rule()
    except (TypeError, ValueError) as error:
        problems.add(caller.name(key), caller.words(key, error))
        return default


def _flag(mapping: dict[Any, Any], key: str, path: str, problems: Problems) -> bool:
    caller = Caller(path, in_spec=True)
    value = mapping.get(key, False)
    return _checked(problems, caller, key, lambda: check_flag(value, caller.name(key), True), False)


def _expected_tools(
    data: object, path: str, problems: Problems
) -> list[ExpectedTool | InOrder | AnyOrder]:
    if not isinstance(data, list):
        problems.wrong(
            path, "must be a list of expected tools (tool names or mappings with a name)", data
        )
        return []
    tools: list[ExpectedTool | InOrder | AnyOrder] = []
    for index, item in enumerate(data):
        where = join_path(path, index)
        if isinstance(item, dict) and "name" not in item and any(key in item for key in _GROUPS):
            tool: ExpectedTool | InOrder | AnyOrder | None = _group(item, where, problems)
        else:
            tool = _expected_tool(item, where, problems)
        if tool is not None:
            tools.append(tool)
    return tools


def _group(item: dict[Any, Any], path: str, problems: Problems) -> InOrder | AnyOrder | None:
    """``{in_order: [...]}`` or ``{any_order: [...]}``, built by ``InOrder`` / ``AnyOrder``."""
    keys = [key for key in item if key in _GROUPS]
    if len(item) != 1:
        others = [key for key in item if key not in _GROUPS]
        problems.add(
            path,
            f"a group is a mapping with one key, in_order or any_order, holding its items; got "
            f"{', '.join(short_repr(key) for key in [*keys, *others])}",
        )
        return None
    key = keys[0]
    where = join_path(path, key)
    before = len(problems.found)
    items = _expected_tools(item[key], where, problems)
    if len(problems.found) > before:
        return None
    try:
        return _GROUPS[key](*items)
    except (TypeError, ValueError) as error:  # the groups' own rules: nesting, sizes
        problems.add(where, str(error))
        return None


def _matcher_mapping(raw: object, path: str, problems: Problems) -> Matcher | None:
    """A spec mapping read as a matcher that judges a value (not ``$maybe`` or ``$absent``,
    which say whether a key may be missing); ``None`` when it is none (its problems said)."""
    built = build_value(raw, path, problems)
    if isinstance(built, Matcher) and not (built is Absent or isinstance(built, Maybe)):
        return built
    return None


def _tool_name(name: dict[Any, Any], path: str, problems: Problems) -> Matcher | None:
    """A name written as a mapping: a matcher (``None`` when it is none, said)."""
    built = build_value(name, path, problems)
    if isinstance(built, Matcher) and not (built is Absent or isinstance(built, Maybe)):
        return built
    if not isinstance(built, Matcher):
        problems.add(
            path,
            "a tool name mapping must be a matcher, with a $ key ({$literal: search} for "
            "the exact name, {$one_of: [...]}, {$any: true}) or {regex: ...}; got "
            f"{short_repr(name)}",
        )
    else:
        problems.add(path, "a tool name cannot be $maybe or $absent: every call has a name")
    return None


def _status_mapping(status: dict[Any, Any], path: str, problems: Problems) -> Matcher | None:
    """A status written as a mapping: a matcher (``None`` when it is none, said)."""
    built = _matcher_mapping(status, path, problems)
    if built is None:
        problems.add(
            path, f"a status mapping must be a matcher with a $ key, got {short_repr(status)}"
        )
    return built


def _agent_mapping(agent: dict[Any, Any], path: str, problems: Problems) -> object:
    """An agent written as a mapping: a matcher; the mapping itself when it is data, for the
    agent's rule to refuse; ``None`` when a matcher inside it is refused (said)."""
    before = len(problems.found)
    built = _matcher_mapping(agent, path, problems)
    return agent if built is None and len(problems.found) == before else built


# The keys a spec file may write as a matcher mapping, and how each is read (the name's,
# read first, is _tool_name).
_MAPPINGS: dict[str, Callable[[dict[Any, Any], str, Problems], object]] = {
    "agent": _agent_mapping,
    "status": _status_mapping,
}


def _name(item: dict[Any, Any], path: str, problems: Problems) -> str | Matcher | None:
    """An expected tool's name, read (a mapping into its matcher) and checked; ``None`` when
    it is missing or refused (said)."""
    if "name" not in item:
        problems.add(
            join_path(path, "name"),
            "missing; every expected tool needs the tool name (matched as a substring)",
        )
        return None
    raw = item["name"]
    name = _tool_name(raw, join_path(path, "name"), problems) if isinstance(raw, dict) else raw
    if isinstance(raw, dict) and name is None:
        return None
    caller = Caller(path, in_spec=True)
    return _checked(problems, caller, "name", lambda: check_name(name, caller), None)


def _spec_values(
    item: dict[Any, Any], path: str, problems: Problems, ignore: bool
) -> dict[str, Any]:
    """An expected tool's values as a spec file writes them, read into what its keys' rules
    check: matcher mappings into matchers, ``args`` with ``exact`` and ``ignore_args`` into
    one matcher. A value refused here is said, and left out."""
    given = {key.name: item[key.name] for key in TOOL_KEYS if key.rule and key.name in item}
    given.pop("name", None)  # read and checked first: its problems come before the others'
    name = _name(item, path, problems)
    exact = _flag(item, "exact", path, problems)
    patterns = _ignore_args(item, path, problems)
    given["args"] = _tool_args(item.get("args"), exact, patterns, join_path(path, "args"), problems)
    if ignore:
        given["max_count"] = _ignore_cap(item, path, problems)
    for key, read in _MAPPINGS.items():
        if isinstance(given.get(key), dict):
            given[key] = read(item[key], join_path(path, key), problems)
            if given[key] is None:
                del given[key]
    return given if name is None else {"name": name, **given}


def _expected_tool(
    item: object, path: str, problems: Problems, ignore: bool = False
) -> ExpectedTool | None:
    accepted = _IGNORE_KEYS if ignore else _EXPECTED_KEYS
    caller = Caller(path, in_spec=True)
    if isinstance(item, str):
        bare = _checked(problems, caller, "", lambda: check_name(item, caller, ""), None)
        return None if bare is None else ExpectedTool(bare)
    if not isinstance(item, dict):
        problems.add(
            path,
            f"must be a tool name or a mapping with {', '.join(accepted)}; got "
            f"{short_repr(item)} ({type_name(item)})",
        )
        return None
    before = len(problems.found)
    if ignore:
        _ignore_keys(item, accepted, path, problems)
    else:
        _unknown_keys(item, accepted, path, problems)
    given = _spec_values(item, path, problems, ignore)
    never = _flag(item, "never", path, problems)
    _never_with(
        never,
        item,
        ("count", "max_count"),
        path,
        problems,
        "never: true asserts that no call matches; it cannot be combined with count or max_count",
    )
    result = _tool_result(item, join_path(path, "result"), problems)
    _never_with(
        never,
        item,
        NOT_WITH_NEVER,
        path,
        problems,
        "never: true takes no call, so it has no id and no place of its own: leave out "
        f"{', '.join(key for key in NOT_WITH_NEVER if key in item)} (after / before: no "
        "matching call after / before another expectation's first call)",
    )
    checked = check_tool_keys(given, caller, problems.add)
    if len(problems.found) > before or "name" not in checked:
        return None
    checked["result"] = result
    return _built_tool(checked, never, path, problems)


def _built_tool(
    checked: dict[str, Any], never: bool, path: str, problems: Problems
) -> ExpectedTool | None:
    """The expected tool of the ``checked`` keys, or ``None`` with the problem said."""
    try:
        # With never: true, a count or an order is said above: what is left, never takes.
        return (ExpectedTool.never if never else ExpectedTool)(**checked)
    except (TypeError, ValueError) as error:  # a rule across keys, ExpectedTool's alone
        problems.add(path, str(error))
        return None


def _ignore_keys(
    item: dict[Any, Any], accepted: tuple[str, ...], path: str, problems: Problems
) -> None:
    """An ignore pattern's keys: a count there means nothing (said with what to write
    instead), and any other key it does not accept is unknown."""
    for key, instead in _NO_COUNT.items():
        if key in item:
            problems.add(
                join_path(path, key),
                f"an ignore pattern selects calls, so {key} means nothing there{instead}; "
                f"accepted: {', '.join(accepted)}",
            )
    _unknown_keys({key: None for key in item if key not in _NO_COUNT}, accepted, path, problems)


def _never_with(
    never: bool,
    item: dict[Any, Any],
    keys: Iterable[str],
    path: str,
    problems: Problems,
    message: str,
) -> None:
    """Refuses, at ``never``, an expected tool with ``never: true`` and any of ``keys``."""
    if never and any(key in item for key in keys):
        problems.add(join_path(path, "never"), message)


def _agent(mapping: dict[Any, Any], path: str, problems: Problems) -> str | Matcher | None:
    """A turn's or a case's ``agent``: a name, or a matcher mapping read through the
    matcher-key table; ``None`` when absent or bad."""
    if "agent" not in mapping:
        return None
    caller = Caller(path, in_spec=True)
    raw = mapping["agent"]
    value = _agent_mapping(raw, caller.name("agent"), problems) if isinstance(raw, dict) else raw
    if value is None and raw is not None:  # a matcher inside it refused, and said
        return None
    return _checked(
        problems,
        caller,
        "agent",
        lambda: check_agent(check_no_carried(value, caller, "agent"), caller),
        None,
    )


def _tool_result(item: dict[Any, Any], path: str, problems: Problems) -> object:
    if "result" not in item:
        return None
    result = item["result"]
    if result is None:
        problems.add(
            path,
            "result: null asserts nothing (a call without a recorded result has none); leave "
            "result out, or give the value or matcher the result must match",
        )
        return None
    built = build_value(result, path, problems)
    if built is Absent or isinstance(built, Maybe):
        problems.add(path, "a result cannot be $maybe or $absent: it is a value, not a key")
        return None
    return built


def _ignore_args(item: dict[Any, Any], path: str, problems: Problems) -> list[str] | None:
    """The key patterns of ``ignore_args`` (``Partial`` / ``Exact``'s ``ignore``), if any."""
    patterns = item.get("ignore_args")
    if patterns is None:
        return None
    if not isinstance(patterns, list) or not all(isinstance(p, str) for p in patterns):
        problems.add(
            join_path(path, "ignore_args"),
            f"must be a list of key patterns (strings such as '*_id'), got {short_repr(patterns)}",
        )
        return None
    found = len(problems.found)
    for index, pattern in enumerate(patterns):
        problem = pattern_problem(pattern)
        if problem is not None:
            problems.add(join_path(join_path(path, "ignore_args"), index), problem)
    return patterns if len(problems.found) == found else None


def _tool_args(
    args: object, exact: bool, ignore: list[str] | None, path: str, problems: Problems
) -> dict[str, Any] | Matcher | None:
    if args is None:
        if exact:
            return Exact({}, ignore=ignore)
        return None
    if not isinstance(args, dict):
        problems.wrong(
            path,
            "must be a mapping of argument names to expected values (a subset; exact: true "
            "beside args for exactly these)",
            args,
        )
        return None
    names = _argument_names_problems(args, path, problems)
    built = build_arguments(args, path, problems)
    if names:
        return None
    if ignore:
        return (Exact if exact else Partial)(built, ignore=ignore)
    return Exact(built) if exact else built


def _argument_names_problems(args: dict[Any, Any], path: str, problems: Problems) -> list[Any]:
    """The argument names of ``args`` that are not strings, each said; with a warning when
    a name is one toolmatch 0.1 read as a matcher for the whole arguments."""
    names = [key for key in args if not isinstance(key, str)]
    for key in names:
        problems.add(
            join_path(path, key),
            f"argument names must be strings, got {short_repr(key)} ({type_name(key)}); quote it",
        )
    old = read_by_01(args, ARGS_KEYS_01)
    if old is not None:
        problems.warn(
            path,
            f"{{{old}: ...}} names an argument {old!r} now (toolmatch 0.1 read it as a matcher "
            f"for the whole arguments); {_ARGS_01[old]}",
        )
    return names


def _ignore_cap(item: dict[Any, Any], path: str, problems: Problems) -> int | None:
    """An ``ignore`` entry's ``max_count``: the most matching calls it leaves out (``None``:
    every one). It has no count, so it is refused below 1, where it would leave out none."""
    cap = item.get("max_count")
    if cap is None:
        return None
    if isinstance(cap, bool) or not isinstance(cap, int):
        problems.wrong(
            join_path(path, "max_count"),
            "must be an int >= 1 (at most that many matching calls left out), or null (every one)",
            cap,
        )
        return None
    if cap < 1:
        problems.add(
            join_path(path, "max_count"),
            f"must be >= 1, got {short_repr(cap)}: the entry would leave out no call; remove "
            "it to judge every call it matches",
        )
        return None
    return cap


def _max_calls(mapping: dict[Any, Any], path: str, problems: Problems) -> int | None:
    caller = Caller(path, in_spec=True)
    value = mapping.get("max_calls")
    return _checked(problems, caller, "max_calls", lambda: check_budget(value, caller), None)


class _ToolFiles:
    """Where a spec's ``tools:`` paths start, and the files read so far: a file several turns
    name is read, and its validators built, once."""

    __slots__ = ("base", "read")

    def __init__(self, base: str) -> None:
        self.base = base
        self.read: dict[str, tuple[Any, list[str]]] = {}


def _tools(mapping: dict[Any, Any], path: str, problems: Problems, files: _ToolFiles) -> Any:
    """The turn option ``tools``: a file of definitions, or a list of them; ``None`` if bad."""
    import os

    where = join_path(path, "tools")
    raw = mapping["tools"]
    if isinstance(raw, str) and raw:
        label = os.path.join(files.base, raw)
        if label not in files.read:
            files.read[label] = _tools_file(label)
        catalogue, messages = files.read[label]
        for message in messages:
            problems.add(where, message)
        return catalogue
    if not isinstance(raw, list):
        problems.wrong(
            where,
            "must be the path of a JSON or YAML file of tool definitions (relative to the "
            "spec), or a list of definitions",
            raw,
        )
        return None
    catalogue, messages = _catalogue(raw, where)
    for message in messages:
        problems.add(where, message)
    return catalogue


def _tools_file(label: str) -> tuple[Any, list[str]]:
    try:
        raw = read_spec_file(label)
    except OSError as error:
        return None, [f"cannot read {label}: {error.strerror or error}"]
    except ConfigError as error:
        return None, [f"{problem.path}: {problem.message}" for problem in error.problems]
    return _catalogue(raw, label)


def _catalogue(raw: object, label: str) -> tuple[Any, list[str]]:
    try:
        return ToolCatalogue(raw, label), []
    # ImportError: no jsonschema, a load error at its place rather than a crash
    except (TypeError, ValueError, ImportError) as error:
        return None, [str(error)]


def _expected_turn(
    data: object,
    path: str,
    problems: Problems,
    files: _ToolFiles | None = None,
    inherited: Any = None,
    case_agent: str | Matcher | None = None,
) -> ExpectedTurn:
    if not isinstance(data, dict):
        problems.wrong(
            path,
            f"a turn must be a mapping with expected_tools (and optionally "
            f"{', '.join(option_names())})",
            data,
        )
        return ExpectedTurn(())
    _unknown_keys(data, _TURN_KEYS, path, problems)
    tools, read_whole = _turn_tools(data, path, problems)
    flags = {key: _flag(data, key, path, problems) for key in option_names("flag")}
    ignore = _ignore_patterns(data, path, problems)
    max_calls = _max_calls(data, path, problems)
    # A ToolCatalogue already built: ExpectedTurn takes it as it takes definitions.
    catalogue = inherited
    if "tools" in data:
        catalogue = _tools(data, path, problems, files or _ToolFiles(""))
    agent = _agent(data, path, problems) if "agent" in data else case_agent
    answer = _answer(data, path, problems)
    found = _order_problems(tools, flags["ordered"], path, problems) if read_whole else []
    try:
        return ExpectedTurn(
            tools,
            ignore=ignore,
            max_calls=max_calls,
            tools=catalogue,
            agent=agent,
            answer=answer,
            **flags,
        )
    except ValueError as error:  # an order ExpectedTurn refuses: reported above, or here
        if read_whole and not found:
            problems.add(path, str(error))
        return ExpectedTurn(())


def _order_problems(
    tools: list[Any], ordered: bool, path: str, problems: Problems
) -> list[tuple[str, str]]:
    """What is wrong with the order of a turn's expected tools, each said at its place."""
    where = join_path(path, "expected_tools")
    found = order_problems(tools, ordered)
    for place, problem in found:
        problems.add(f"{where}{place}", problem)
    return found


def _turn_tools(data: dict[Any, Any], path: str, problems: Problems) -> tuple[list[Any], bool]:
    """A turn's expected tools, and whether the list was read whole (no item refused: an
    item refused takes its id along, so the order is judged on a list read whole only)."""
    if "expected_tools" not in data:
        problems.add(
            join_path(path, "expected_tools"),
            "missing; each turn lists its expected tools (an empty list expects nothing)",
        )
        return [], False
    before = len(problems.found)
    tools = _expected_tools(data["expected_tools"], join_path(path, "expected_tools"), problems)
    return tools, len(problems.found) == before


def _ignore_patterns(data: dict[Any, Any], path: str, problems: Problems) -> list[ExpectedTool]:
    """The patterns of a turn's ``ignore`` list (none without one), each refused one said."""
    ignore: list[ExpectedTool] = []
    if "ignore" not in data:
        return ignore
    where = join_path(path, "ignore")
    raw = data["ignore"]
    if not isinstance(raw, list):
        problems.wrong(
            where, "must be a list of calls to leave out (tool names or mappings with a name)", raw
        )
        return ignore
    for index, item in enumerate(raw):
        pattern = _expected_tool(item, join_path(where, index), problems, ignore=True)
        if pattern is not None:
            ignore.append(pattern)
    return ignore


def _case(data: object, index: int, problems: Problems, files: _ToolFiles) -> TestCase | None:
    path = f"test_cases[{index}]"
    if not isinstance(data, dict):
        problems.wrong(
            path, "a test case must be a mapping with name and turns (or expected_tools)", data
        )
        return None
    name = data.get("name")
    path = _case_path(data, path, problems)
    if "one_of" in data:
        return _one_of_case(data, name, path, problems, files)
    _unknown_keys(data, _CASE_KEYS, path, problems)
    turns, max_calls, answer = _case_body(data, path, problems, files)
    if not isinstance(name, str) or not name:
        return None
    try:
        return TestCase(name, turns, max_calls, (), answer)
    except ValueError as error:  # its captures and references, which only the case can see
        problems.add(path, str(error))
        return None


def _answer(mapping: dict[Any, Any], path: str, problems: Problems) -> object:
    """A turn's or a case's ``answer``: a value position (a plain value, or a matcher
    mapping); ``None`` when absent."""
    if "answer" not in mapping:
        return None
    where = join_path(path, "answer")
    if mapping["answer"] is None:
        problems.add(where, "must be a value or a matcher the final answer must match, got null")
        return None
    caller = Caller(path, in_spec=True)
    answer = build_value(mapping["answer"], where, problems)
    return _checked(
        problems, caller, "answer", lambda: check_no_carried(answer, caller, "answer"), None
    )


def _case_path(data: dict[Any, Any], path: str, problems: Problems) -> str:
    """The case's place named with its name (``test_cases[0](lookup)``), or as it is with
    the problem with its name said."""
    name = data.get("name")
    if "name" not in data:
        problems.add(join_path(path, "name"), "missing; every test case needs a unique name")
    elif not isinstance(name, str) or not name:
        problems.wrong(join_path(path, "name"), "must be a non-empty string", name)
    else:
        return f"{path}({name})"
    return path


def _one_of_case(
    data: dict[Any, Any], name: object, path: str, problems: Problems, files: _ToolFiles
) -> TestCase | None:
    """A case with ``one_of``: its alternatives, each a case body."""
    before = len(problems.found)
    alternatives = _case_alternatives(data, path, problems, files)
    # A bad alternative is said at its place: the case is not built without it.
    if not isinstance(name, str) or not name or len(problems.found) > before:
        return None
    try:
        return TestCase(
            name, (), None, [TestCase(name, *body[:2], (), body[2]) for body in alternatives]
        )
    except (TypeError, ValueError) as error:  # a rule TestCase has that the loader lacks
        problems.add(join_path(path, "one_of"), str(error))
        return None


def _case_body(
    data: dict[Any, Any], path: str, problems: Problems, files: _ToolFiles
) -> tuple[list[ExpectedTurn | OneOfTurns], int | None, object]:
    """A case's turns, ``max_calls`` and ``answer`` (of the case itself, or of one of its
    alternatives): the case's answer is its run's, given beside ``turns``; in a case of
    one turn, ``answer`` is that turn's, the same answer."""
    turns: list[ExpectedTurn | OneOfTurns] = []
    max_calls = answer = None
    if "turns" in data and "expected_tools" in data:
        problems.add(
            path,
            "has both turns and expected_tools; give turns: [...] for several turns, or "
            "expected_tools: [...] for a single turn",
        )
    elif "turns" in data:
        turns, max_calls, answer = _turns(data, path, problems, files)
    elif "expected_tools" in data:
        single = {key: data[key] for key in _TURN_KEYS if key in data}
        turns = [_expected_turn(single, path, problems, files)]
    else:
        problems.add(
            path,
            "has neither turns nor expected_tools; give turns: [...] for several turns, or "
            "expected_tools: [...] for a single turn",
        )
    return turns, max_calls, answer


def _turns(
    data: dict[Any, Any], path: str, problems: Problems, files: _ToolFiles
) -> tuple[list[ExpectedTurn | OneOfTurns], int | None, object]:
    """The turns of a case that has ``turns``, and its ``max_calls`` (all its turns
    together); a turn's own option written on the case is refused, saying where it goes."""
    for option in TURN_OPTIONS:
        key = option.name
        if key in data and not option.case_wide and option.kind != "answer":
            problems.add(
                join_path(path, key),
                f"goes in each turn when the case has turns: turns: [{{expected_tools: [...], "
                f"{key}: {'[...]' if option.kind == 'patterns' else 'true'}}}]",
            )
    max_calls = _max_calls(data, path, problems)  # the case's: all its turns together
    # The case's tools are every turn's, unless a turn names its own.
    case_tools = _tools(data, path, problems, files) if "tools" in data else None
    case_agent = _agent(data, path, problems)
    answer = _answer(data, path, problems)  # the run's: its last turn's
    raw_turns = data["turns"]
    if not isinstance(raw_turns, list) or not raw_turns:
        problems.wrong(
            join_path(path, "turns"),
            "must be a non-empty list of turns, each a mapping with expected_tools",
            raw_turns,
        )
        return [], max_calls, answer
    turns = [
        _turn_or_alternatives(
            turn,
            join_path(join_path(path, "turns"), number),
            problems,
            files,
            case_tools,
            case_agent,
        )
        for number, turn in enumerate(raw_turns)
    ]
    return turns, max_calls, answer


def _alternative_items(raw: object, path: str, problems: Problems, what: str) -> list[Any]:
    """The items of a ``one_of`` list; a problem at ``path`` when it is no list of two or more."""
    if not isinstance(raw, list) or len(raw) < 2:
        problems.wrong(path, f"must be a list of two or more alternatives, each {what}", raw)
        return []
    return raw


def _beside_one_of(
    data: dict[Any, Any],
    path: str,
    problems: Problems,
    owner: str,
    alone: tuple[str, ...],
    keys: tuple[str, ...],
) -> None:
    """A problem for each key beside a case's or a turn's ``one_of`` (``alone`` may be
    there): one of its alternatives' ``keys`` goes in each alternative."""
    example = "turns: [...]" if owner == "case" else "expected_tools: [...]"
    for key in data:
        if key in alone:
            continue
        if key in keys:
            message = (
                f"goes in each alternative when the {owner} has one_of: one_of: [{{{example}, "
                f"{key}: ...}}, ...]"
            )
        else:
            message = (
                f"unknown key {short_repr(key)}; a {owner} with one_of has "
                f"{' and '.join(alone)} only"
            )
        problems.add(join_path(path, key), message)


def _case_alternatives(
    data: dict[Any, Any], path: str, problems: Problems, files: _ToolFiles
) -> list[tuple[list[ExpectedTurn | OneOfTurns], int | None, object]]:
    """A case's ``one_of``: each alternative a case without a name (``turns``, or
    ``expected_tools`` for a single turn, with their options); nothing else beside it."""
    _beside_one_of(data, path, problems, "case", ("name", "one_of"), _ALTERNATIVE_KEYS)
    where = join_path(path, "one_of")
    what = "a mapping with turns (or expected_tools), as a case without its name"
    bodies = []
    for number, item in enumerate(_alternative_items(data["one_of"], where, problems, what)):
        place = join_path(where, number)
        if not isinstance(item, dict):
            problems.wrong(place, f"an alternative must be {what}", item)
            continue
        _unknown_keys(item, _ALTERNATIVE_KEYS, place, problems)
        bodies.append(_case_body(item, place, problems, files))
    return bodies


def _turn_or_alternatives(
    data: object,
    path: str,
    problems: Problems,
    files: _ToolFiles,
    inherited: Any,
    case_agent: str | Matcher | None,
) -> ExpectedTurn | OneOfTurns:
    """A turn of a case's ``turns``: a turn, or ``{one_of: [turn, ...]}``, its alternatives."""
    if not isinstance(data, dict) or "one_of" not in data:
        return _expected_turn(data, path, problems, files, inherited, case_agent)
    _beside_one_of(data, path, problems, "turn", ("one_of",), _TURN_KEYS)
    where = join_path(path, "one_of")
    items = _alternative_items(
        data["one_of"], where, problems, "a turn (a mapping with expected_tools)"
    )
    turns = [
        _expected_turn(item, join_path(where, number), problems, files, inherited, case_agent)
        for number, item in enumerate(items)
    ]
    return OneOfTurns(turns) if len(turns) > 1 else ExpectedTurn(())


def _test_cases(data: object, problems: Problems, files: _ToolFiles) -> list[TestCase]:
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
        problems.wrong("test_cases", "must be a non-empty list of test cases", raw)
        return []
    cases = []
    first_use: dict[str, int] = {}
    for index, item in enumerate(raw):
        case = _case(item, index, problems, files)
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
