"""Hostile spec files and values: every mistake is a ConfigError at its place, loading is bounded,
and errors and results survive pickle, copy and deepcopy (also from a process pool).

The inputs that would recurse, hang or fill memory without the limits run in a subprocess with
a timeout and a memory cap, so a regression fails the test instead of the machine.
"""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import textwrap
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from toolmatch import (
    ConfigError,
    ExpectedTool,
    Regex,
    check_turns,
    load_expected_tools,
    load_test_cases,
)

yaml = pytest.importorskip("yaml")

TIMEOUT = 120  # seconds; a bounded load takes well under one, even on a busy machine
MEMORY = 2 << 30  # bytes of address space for a subprocess: an expanded bomb needs far more
DEEP = "nested too deeply: more than 100 mappings and lists inside one another"
REPEATED = (
    "aliases repeat more than 100,000 values by here; a spec file's aliases may repeat "
    "100,000 in all"
)


def _cap_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run(*command: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``command`` in a subprocess that cannot run longer than TIMEOUT nor grow past MEMORY."""
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=TIMEOUT,
        preexec_fn=_cap_memory if os.name == "posix" else None,
        check=False,
    )


def check_spec(tmp_path: Path, name: str, text: str) -> subprocess.CompletedProcess[str]:
    """``toolmatch check`` on a spec ``name`` holding ``text``, run from ``tmp_path``."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    (tmp_path / "traces.jsonl").write_text("", encoding="utf-8")
    return run(sys.executable, "-m", "toolmatch", "check", name, "traces.jsonl", cwd=tmp_path)


def load_error(tmp_path: Path, name: str, text: str) -> str:
    """The ConfigError message ``load_test_cases`` gives for a file ``name`` holding ``text``."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_test_cases(tmp_path / name)
    return str(caught.value).removeprefix(str(tmp_path) + os.sep)


def in_subprocess(code: str) -> str:
    """What ``code`` prints, run in a bounded subprocess; it must exit 0."""
    completed = run(sys.executable, "-c", textwrap.dedent(code))
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


def args_spec(value: str) -> str:
    """A spec whose one expected tool has ``args: {x: value}``, at line 5, column 19."""
    return (
        "test_cases:\n  - name: a\n    expected_tools:\n      - name: f\n"
        f"        args: {{x: {value}}}\n"
    )


# --- values YAML cannot read: a ConfigError at the value --------------------------------------

QUOTE = "; quote it to compare a string"
UNREADABLE = {
    "2026-02-30": f"cannot read '2026-02-30' as a date (day is out of range for month){QUOTE}",
    "2026-13-45": f"cannot read '2026-13-45' as a date (month must be in 1..12){QUOTE}",
    "2026-01-01T25:61:00": (
        f"cannot read '2026-01-01T25:61:00' as a date (hour must be in 0..23){QUOTE}"
    ),
    "9" * 5000: (
        f"cannot read '{'9' * 57}'... as an integer (Exceeds the limit (4300 digits) for integer "
        f"string conversion: value has 5000 digits){QUOTE}"
    ),
    "!!int abc": "cannot read 'abc' as an integer (invalid literal for int() with base 10: 'abc')",
    "!!float abc": "cannot read 'abc' as a number (could not convert string to float: 'abc')",
    "!!bool maybe": "cannot read 'maybe' as a boolean",
    "!!int ''": "cannot read '' as an integer",
    "!!timestamp soon": "cannot read 'soon' as a date",
    "!!set abc": "expected a mapping node, but found scalar",
    "!!map [a]": "expected a mapping node, but found sequence",
}


@pytest.mark.parametrize(("value", "message"), UNREADABLE.items(), ids=lambda v: v[:20])
def test_a_value_yaml_cannot_read_is_a_config_error_at_its_place(
    tmp_path: Path, value: str, message: str
) -> None:
    assert load_error(tmp_path, "spec.yaml", args_spec(value)) == (
        f"spec.yaml:5:19: invalid YAML: {message}"
    )


# --- aliases: a value that contains itself, and alias bombs ------------------------------------


def laughs(levels: int, width: int = 9) -> str:
    """The classic: each level's list repeats the level before it ``width`` times."""
    lines = ["l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for level in range(1, levels):
        lines.append(f"l{level}: &l{level} [" + ", ".join([f"*l{level - 1}"] * width) + "]")
    return "\n".join(lines) + (
        f"\ntest_cases: [{{name: a, expected_tools: [{{name: f, args: {{x: *l{levels - 1}}}}}]}}]\n"
    )


ALIAS_ERRORS = {
    "mapping containing itself": (
        args_spec("&y {z: *y}"),
        "spec.yaml:5:26: alias *y is inside the value it names; a value cannot contain itself",
    ),
    "list containing itself": (
        args_spec("&y [*y]"),
        "spec.yaml:5:23: alias *y is inside the value it names; a value cannot contain itself",
    ),
    "merge of itself": (
        args_spec("&y {<<: *y}"),
        "spec.yaml:5:27: alias *y is inside the value it names; a value cannot contain itself",
    ),
    "two values containing each other": (
        args_spec("&a {b: &b [*a]}"),
        "spec.yaml:5:30: alias *a is inside the value it names; a value cannot contain itself",
    ),
    # 9 ** 9 values, 100 GB once expanded; refused on the level whose aliases cross the limit.
    "billion laughs": (laughs(9), f"spec.yaml:6:10: {REPEATED}"),
    # Shallow anchors whose aliases, stacked, nest deeper than the limit.
    "nesting through aliases": (
        "a: &a "
        + "[" * 60
        + "]" * 60
        + "\nb: &b [*a]\ntest_cases: "
        + "[" * 40
        + "*b"
        + "]" * 40
        + "\n",
        f"spec.yaml:3:53: {DEEP}",
    ),
}


@pytest.mark.parametrize(("text", "error"), ALIAS_ERRORS.values(), ids=ALIAS_ERRORS)
def test_an_alias_that_would_expand_without_bound_is_refused_before_expanding(
    tmp_path: Path, text: str, error: str
) -> None:
    completed = check_spec(tmp_path, "spec.yaml", text)
    assert (completed.returncode, completed.stderr, completed.stdout) == (2, error + "\n", "")


def repeated(aliases: int) -> str:
    """A spec whose aliases repeat a 1,000-value list (999 items and itself) ``aliases`` times."""
    items = ", ".join(["x"] * 999)
    uses = ", ".join(["*list"] * aliases)
    return (
        "test_cases:\n  - name: a\n    expected_tools:\n      - name: f\n"
        f"        args: {{x: &list [{items}], y: [{uses}]}}\n"
    )


def test_aliases_may_repeat_100_000_values_and_no_more(tmp_path: Path) -> None:
    (tmp_path / "ok.yaml").write_text(repeated(100), encoding="utf-8")
    [case] = load_test_cases(tmp_path / "ok.yaml")
    args = {"x": ["x"] * 999, "y": [["x"] * 999] * 100}
    assert case.passes([[{"name": "f", "args": args}]])
    text = repeated(101)
    column = text.rindex("*list") - text.rindex("\n", 0, -1)
    assert load_error(tmp_path, "spec.yaml", text) == f"spec.yaml:5:{column}: {REPEATED}"


# --- nesting: 100 mappings and lists, in YAML, JSON and parsed values --------------------------


def nested_args(levels: int) -> str:
    """A JSON spec whose whole nesting, from the top of the file, is ``levels`` deep."""
    inner = levels - 6  # {test_cases: [{expected_tools: [{args: ...}]}]} holds five, [1] one
    return (
        '{"test_cases": [{"name": "a", "expected_tools": [{"name": "f", "args": '
        + '{"x": ' * (inner - 1)
        + '{"x": [1]}'
        + "}" * (inner - 1)
        + "}]}]}"
    )


@pytest.mark.parametrize("name", ["spec.json", "spec.yaml"])
def test_a_file_may_nest_100_levels_and_no_more(tmp_path: Path, name: str) -> None:
    # JSON is YAML too: the same text measures the same in both parsers.
    (tmp_path / name).write_text(nested_args(100), encoding="utf-8")
    [case] = load_test_cases(tmp_path / name)
    deepest: Any = {"x": [1]}
    for _ in range(100 - 7):
        deepest = {"x": deepest}
    assert case.passes([[{"name": "f", "args": deepest}]])
    text = nested_args(101)
    column = text.index("[1]") + 1
    assert load_error(tmp_path, name, text) == f"{name}:1:{column}: {DEEP}"


def test_a_deep_unclosed_file_is_refused_at_its_nesting_whatever_the_recursion_limit(
    tmp_path: Path,
) -> None:
    # A process that raised the limit (some libraries do) let json's C parser read the
    # nesting to its end and report the missing value there instead.
    before = sys.getrecursionlimit()
    for limit in (1_000, 50_000):
        sys.setrecursionlimit(limit)
        try:
            assert load_error(tmp_path, "spec.json", "[" * 10_000) == f"spec.json:1:101: {DEEP}"
            assert load_error(tmp_path, "spec.json", '{"test_cases": [\n  {"name": }\n]}') == (
                "spec.json:2:12: invalid JSON: Expecting value"
            )
        finally:
            sys.setrecursionlimit(before)


NOT = '{"$not": '
JSON_ARGS = '{"test_cases": [{"name": "a", "expected_tools": [{"name": "f", "args": {"x": '
DEEP_FILES = {
    "JSON matchers 400 deep": (
        "spec.json",
        JSON_ARGS + NOT * 400 + "1" + "}" * 400 + "}}]}]}",
        # The spec holds five levels, args a sixth: the 95th "not" is the 101st.
        f"spec.json:1:{len(JSON_ARGS) + len(NOT) * 94 + 1}: {DEEP}",
    ),
    "JSON lists 100,000 deep": (
        "spec.json",
        "[" * 100_000 + "]" * 100_000,
        f"spec.json:1:101: {DEEP}",
    ),
    "YAML lists 100,000 deep": (
        "spec.yaml",
        "[" * 100_000 + "]" * 100_000,
        f"spec.yaml:1:101: {DEEP}",
    ),
    "YAML blocks 400 deep": (
        "spec.yaml",
        "".join(f"{'  ' * level}k:\n" for level in range(400)),
        f"spec.yaml:101:201: {DEEP}",
    ),
}


@pytest.mark.parametrize(("name", "text", "error"), DEEP_FILES.values(), ids=DEEP_FILES)
def test_a_deeper_file_is_refused_at_its_place_with_exit_2(
    tmp_path: Path, name: str, text: str, error: str
) -> None:
    completed = check_spec(tmp_path, name, text)
    assert (completed.returncode, completed.stderr, completed.stdout) == (2, error + "\n", "")


ITSELF = "is the mapping or list it is in, or holds it; a value cannot contain itself"


def test_values_parsed_elsewhere_are_refused_past_the_limits_before_anything_recurses() -> None:
    # What yaml.safe_load makes of aliases: shared and cyclic lists and dicts.
    printed = in_subprocess(
        f"""
        import yaml
        from toolmatch import ConfigError, load_test_cases, matcher_from_config

        deep = 1
        for _ in range(400):
            deep = [deep]
        spec = {{"test_cases": [{{"name": "a", "expected_tools": [{{"name": "f", "args": {{"x": deep}}}}]}}]}}
        for make, value in [
            (matcher_from_config, {{"literal": deep}}),
            (load_test_cases, spec),
            (matcher_from_config, yaml.safe_load("&y {{x: *y}}")),
            (matcher_from_config, yaml.safe_load("{{a: &a [&b {{b: [*a]}}]}}")),
            (load_test_cases, yaml.safe_load({laughs(9)!r})),
        ]:
            try:
                make(value)
            except ConfigError as error:
                problem = error.problems[-1]  # the bomb's top-level anchors are unknown keys
                print(problem.path, problem.message, sep=" | ")
        """
    )
    assert printed.splitlines() == [
        f"args.literal{'[0]' * 99} | {DEEP}",
        f"test_cases[0](a).expected_tools[0].args.x{'[0]' * 99} | {DEEP}",
        f"args.x | {ITSELF}",
        f"args.a[0].b[0] | {ITSELF}",
        # l1 to l4 repeat 66,416 values; the first repeat of l4, in l5, adds 66,430 more.
        "test_cases[0](a).expected_tools[0].args.x[0][0][0][1] | repeats a mapping or list "
        "used before (as a YAML alias does), past 100,000 repeated values in all",
    ]


@pytest.mark.parametrize(
    ("pattern", "why"),
    [("a{99999999999}", "OverflowError"), ("(" * 1000 + ")" * 1000, "RecursionError")],
    ids=["huge repeat", "deep groups"],
)
def test_a_regex_re_cannot_compile_is_a_config_error_with_exit_2(
    tmp_path: Path, pattern: str, why: str
) -> None:
    completed = check_spec(tmp_path, "spec.yaml", args_spec(f"{{regex: '{pattern}'}}"))
    assert completed.returncode == 2, completed.stderr
    [line] = completed.stderr.splitlines()
    assert line.startswith("spec.yaml: test_cases[0](a).expected_tools[0].args.x.regex: ")
    assert why not in line


def test_counts_too_long_to_print_are_still_reported() -> None:
    huge = 10**5000  # more digits than Python prints
    with pytest.raises(ConfigError) as caught:
        load_expected_tools(
            [{"name": "f", "count": -huge}, {"name": "g", "count": 2, "max_count": huge - huge - 1}]
        )
    assert [problem.path for problem in caught.value.problems] == [
        "expected_tools[0].count",
        "expected_tools[1].max_count",
    ]
    assert caught.value.problems[0].message.startswith("must be >= 0, got ")


# --- errors and results travel: pickle, copy, deepcopy, process pools --------------------------

ROUND_TRIPS: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


def config_error() -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_test_cases(
            {"test_cases": [{"name": "a", "expected_tools": [{"name": "f", "count": 0}, 7]}]}
        )
    return caught.value


def problems(error: ConfigError) -> list[tuple[str, str]]:
    return [(problem.path, problem.message) for problem in error.problems]


@pytest.mark.parametrize("trip", ROUND_TRIPS.values(), ids=ROUND_TRIPS)
def test_a_config_error_survives_pickle_and_copy(trip: Callable[[Any], Any]) -> None:
    error = ConfigError(config_error().problems, source="spec.yaml")
    travelled = trip(error)
    assert type(travelled) is ConfigError
    assert str(travelled) == str(error)
    assert str(error).count("\n") == 1
    assert problems(travelled) == problems(error)
    assert travelled.source == "spec.yaml"


def test_a_config_error_comes_back_whole_from_a_worker_process(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases: [{name: a, expected_tools: [{name: f, count: 0}, 7]}]\n")
    with ProcessPoolExecutor(max_workers=1) as pool:
        error = pool.submit(load_test_cases, str(spec)).exception(timeout=TIMEOUT)
    assert isinstance(error, ConfigError)
    assert [path for path, _ in problems(error)] == [
        "test_cases[0](a).expected_tools[0].count",
        "test_cases[0](a).expected_tools[1]",
    ]
    assert str(error).splitlines()[0] == (
        f"{spec}: test_cases[0](a).expected_tools[0].count: must be >= 1 without max_count, got 0; to assert "
        "that no call matches, write never: true (count: 0 with max_count: N allows at most N)"
    )


EXPECTED = [
    [ExpectedTool("search", {"q": Regex("par.*")}), ExpectedTool("fetch", count=2)],
    [ExpectedTool("refund", {"amount": 42})],
]
CALLS = [
    [
        {"name": "web_search", "args": {"q": "rome"}},
        {"name": "web_search", "args": {"q": "paris"}},
        {"name": "fetch"},
    ],
    [{"name": "refund", "args": {"amount": "42"}}],
]


def shown(results: list[Any]) -> list[tuple[str, Any]]:
    """What a result says: its text and its JSON, which hold every verdict and reason."""
    return [(str(result), result.as_dict()) for result in results]


@pytest.mark.parametrize("trip", ROUND_TRIPS.values(), ids=ROUND_TRIPS)
def test_results_survive_pickle_and_copy(trip: Callable[[Any], Any]) -> None:
    results = check_turns(EXPECTED, CALLS)
    search, fetch = results[0].checks
    unjudged = search._candidates is None
    travelled = trip(results)
    assert shown(travelled) == shown(results)
    # A check keeps its candidates lazy: judged where it is read, by its own expectation.
    assert unjudged
    assert travelled[0].checks[0].candidates == search.candidates
    for value in (results[0], fetch, fetch.candidates[0]):
        again = trip(value)
        assert type(again) is type(value)
        assert str(again) == str(value)
    assert trip(fetch).as_dict() == fetch.as_dict()


def test_results_come_back_from_a_worker_process() -> None:
    with ProcessPoolExecutor(max_workers=1) as pool:
        results = pool.submit(check_turns, EXPECTED, CALLS).result(timeout=TIMEOUT)
    assert shown(results) == shown(check_turns(EXPECTED, CALLS))
    assert [result.passed for result in results] == [False, False]


# --- ignore_args patterns that are no dotted path (issue 29) ---------------------------------

BAD_PATTERNS = [
    ("", "it is empty"),
    ("a.", "it ends with a dot"),
    (".a", "it starts with a dot"),
    ("a..b", "it has two dots in a row"),
]


@pytest.mark.parametrize(("pattern", "reason"), BAD_PATTERNS, ids=[p for p, _ in BAD_PATTERNS])
def test_an_ignore_pattern_that_is_no_dotted_path_is_refused_saying_why(
    pattern: str, reason: str
) -> None:
    from toolmatch import Exact, Partial

    for kind in (Partial, Exact):
        with pytest.raises(ValueError, match="is not a dotted path") as caught:
            kind({"a": 1}, ignore=["*_id", pattern])
        assert str(caught.value) == (
            f"ignore[1]: {pattern!r} is not a dotted path of key globs like 'trace.*': {reason}"
        )


@pytest.mark.parametrize(("pattern", "reason"), BAD_PATTERNS, ids=[p for p, _ in BAD_PATTERNS])
def test_an_ignore_args_pattern_that_is_no_dotted_path_is_a_config_error_at_its_place(
    tmp_path: Path, pattern: str, reason: str
) -> None:
    from commands import toolmatch

    spec = tmp_path / "spec.yaml"
    text = yaml.safe_dump(
        {
            "test_cases": [
                {
                    "name": "a",
                    "expected_tools": [
                        {"name": "f", "args": {"x": 1}, "ignore_args": ["*_id", pattern]},
                        {"name": "g", "exact": True, "ignore_args": [pattern]},
                    ],
                    "ignore": [{"name": "h", "ignore_args": [pattern]}],
                }
            ]
        }
    )
    spec.write_text(text)
    message = f"{pattern!r} is not a dotted path of key globs like 'trace.*': {reason}"
    with pytest.raises(ConfigError) as caught:
        load_test_cases(spec)
    assert problems(caught.value) == [
        ("test_cases[0](a).expected_tools[0].ignore_args[1]", message),
        ("test_cases[0](a).expected_tools[1].ignore_args[0]", message),
        ("test_cases[0](a).ignore[0].ignore_args[0]", message),
    ]
    traces = tmp_path / "traces.jsonl"
    traces.write_text("")
    result = toolmatch("check", spec, traces, timeout=TIMEOUT)
    assert (result.returncode, result.stdout) == (2, "")
    assert f"{spec}: test_cases[0](a).expected_tools[0].ignore_args[1]: {message}" in result.stderr
    assert "Traceback" not in result.stderr


# --- files that never end: read no further than 64 MiB ------------------------------------------

ENDLESS = "larger than 64 MiB: toolmatch reads such a file whole, and takes 64 MiB at most"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_file_that_never_ends_is_an_error_not_a_memory_error(tmp_path: Path) -> None:
    (tmp_path / "zero.json").symlink_to("/dev/zero")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    (tmp_path / "traces.jsonl").write_text("", encoding="utf-8")
    spec = '{"test_cases": [{"name": "a", "tools": "zero.json", "expected_tools": ["s"]}]}'
    (tmp_path / "spec.json").write_text(spec, encoding="utf-8")
    (tmp_path / "plain.json").write_text(spec.replace('"zero.json"', "[]"), encoding="utf-8")
    toolmatch = (sys.executable, "-m", "toolmatch")
    commands = {
        ("check", "spec.json", "traces.jsonl"): (
            f"spec.json: test_cases[0](a).tools: zero.json: {ENDLESS}"
        ),
        ("check", "zero.yaml", "traces.jsonl"): f"zero.yaml: {ENDLESS}",
        ("lint", "plain.json", "--tools", "zero.json"): f"zero.json: {ENDLESS}",
        ("check", "plain.json", "traces.jsonl", "--syntax", "python", "--functions", "zero.json"): (
            f"toolmatch: zero.json: {ENDLESS}"
        ),
        ("import", "bfcl", "zero.json"): f"toolmatch: zero.json: {ENDLESS}",
        ("import", "tau2", "zero.json"): f"toolmatch: zero.json: {ENDLESS}",
    }
    for args, error in commands.items():
        completed = run(*toolmatch, *args, cwd=tmp_path)
        assert (completed.returncode, completed.stdout, completed.stderr) == (2, "", error + "\n")
    (tmp_path / "runs.jsonl").write_text('{"case": "a", "turns": [[]]}\n', encoding="utf-8")
    widened = run(*toolmatch, "record", "runs.jsonl", "--into", "zero.yaml", cwd=tmp_path)
    assert (widened.returncode, widened.stderr) == (
        2,
        f"toolmatch: cannot widen zero.yaml: zero.yaml: {ENDLESS}; it is unchanged\n",
    )
