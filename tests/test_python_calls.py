"""``to_calls(text, syntax="python")``: calls written as Python, over real BFCL data."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bfcl_data import BFCL_DOC_FILES
from toolmatch import ExpectedTool, ToolCall, assert_called, to_calls

BFCL_FIXTURES = Path(__file__).parent / "data" / "bfcl"
SORT = {
    "name": "sort",
    "parameters": {
        "type": "dict",
        "properties": {"file_name": {"type": "string"}, "reverse": {"type": "boolean"}},
        "required": ["file_name"],
    },
}


def exactly(message: str) -> str:
    """A ``match=`` pattern for exactly ``message``."""
    return f"^{re.escape(message)}$"


def python(text: str, tools: list[Any] | None = None) -> list[ToolCall]:
    return to_calls(text, syntax="python", tools=tools)


# --- reading calls ----------------------------------------------------------------------


def test_one_call_and_a_bracketed_list() -> None:
    assert python("cd(folder='docs')") == [ToolCall("cd", {"folder": "docs"})]
    assert python("[cd(folder='docs'), sort(file_name='report.pdf', reverse=True)]") == [
        ToolCall("cd", {"folder": "docs"}),
        ToolCall("sort", {"file_name": "report.pdf", "reverse": True}),
    ]
    assert python("now()") == [ToolCall("now", {})]


def test_an_empty_list_holds_no_call() -> None:
    assert python("[]") == []
    assert python(" [ ] ") == []


def test_values_are_literals_and_tuples_become_lists() -> None:
    (call,) = python(
        "f(s='a' 'b', i=-3, x=2.5, big=10**0 if False else 1, n=None, t=True, "
        "l=[1, (2, 3)], d={'k': {'n': [None]}}, e=1e999)"
    )
    assert call.parse_error == "argument 'big' is not a literal: 10**0 if False else 1"
    (call,) = python(
        "f(s='a' 'b', i=-3, x=2.5, n=None, t=True, l=[1, (2, 3)], d={'k': {'n': [None]}}, e=1e999)"
    )
    assert call == ToolCall(
        "f",
        {
            "s": "ab",
            "i": -3,
            "x": 2.5,
            "n": None,
            "t": True,
            "l": [1, [2, 3]],
            "d": {"k": {"n": [None]}},
            "e": float("inf"),
        },
    )
    assert call.parse_error is None


def test_dotted_names_are_kept() -> None:
    assert python("[math.sqrt(x=1), spotify.play(artist='Queen', duration=3)]") == [
        ToolCall("math.sqrt", {"x": 1}),
        ToolCall("spotify.play", {"artist": "Queen", "duration": 3}),
    ]


def test_ids_are_none_and_text_around_the_calls_is_ignored() -> None:
    assert python("\n   [\n  cd(folder='a'),  # first\n  cd(folder='b'),\n]\n") == [
        ToolCall("cd", {"folder": "a"}, None),
        ToolCall("cd", {"folder": "b"}, None),
    ]


# --- arguments that cannot be read: that call's parse_error -----------------------------


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("cd(folder=os.getcwd())", "argument 'folder' is not a literal: os.getcwd()"),
        ("cd(folder=name)", "argument 'folder' is not a literal: name"),
        ("cd(folder=f'{x}')", "argument 'folder' is not a literal: f'{x}'"),
        ("cd(folder=[1, x])", "argument 'folder' is not a literal: [1, x]"),
        ("cd(folder=lambda: 1)", "argument 'folder' is not a literal: lambda: 1"),
        ("cd(folder={[1]: 2})", "argument 'folder' is not a literal: {[1]: 2}"),
        (
            "cd(folder={1, 2})",
            "argument 'folder' holds a value of type set, which JSON cannot hold: {1, 2}",
        ),
        (
            "cd(folder=set())",
            "argument 'folder' holds a value of type set, which JSON cannot hold: set()",
        ),
        (
            "cd(folder=b'x')",
            "argument 'folder' holds a value of type bytes, which JSON cannot hold: b'x'",
        ),
        (
            "cd(folder=1j)",
            "argument 'folder' holds a value of type complex, which JSON cannot hold: 1j",
        ),
        (
            "cd(folder=...)",
            "argument 'folder' holds a value of type ellipsis, which JSON cannot hold: ...",
        ),
        (
            "cd(folder={1: 'a'})",
            "argument 'folder' holds a dict key of type int, which JSON cannot hold: {1: 'a'}",
        ),
        (
            "cd(folder=[{'a': {2}}])",
            "argument 'folder' holds a value of type set, which JSON cannot hold: [{'a': {2}}]",
        ),
        ("cd(*folders)", "arguments unpacked with * cannot be read: cd(*folders)"),
        ("cd(**options)", "arguments unpacked with ** cannot be read: cd(**options)"),
        ("cd(folder='a', folder='b')", "argument 'folder' is given twice"),
        ("sort('a.txt', file_name='b.txt')", "argument 'file_name' is given twice"),
    ],
)
def test_an_unreadable_argument_is_the_call_s_parse_error(text: str, error: str) -> None:
    (call,) = python(text, tools=[SORT])
    assert call == ToolCall(call.name, {}, None, error)


def test_only_the_broken_call_has_a_parse_error_and_checks_fail_with_it() -> None:
    calls = python("[cd(folder='docs'), cd(folder=os.path.join('a', 'b'))]")
    assert calls[0] == ToolCall("cd", {"folder": "docs"})
    assert calls[1] == ToolCall(
        "cd", {}, None, "argument 'folder' is not a literal: os.path.join('a', 'b')"
    )
    check = ExpectedTool("cd", {"folder": "a/b"}).check(calls[1:])
    assert not check.passed
    assert check.unmatched_reason == (
        "call 0: argument 'folder' is not a literal: os.path.join('a', 'b')"
    )
    assert_called(calls, "cd", {"folder": "docs"})


def test_a_long_argument_is_shown_shortened() -> None:
    (call,) = python(f"cd(folder=join({'x' * 100!r}))")
    assert call.parse_error == f"argument 'folder' is not a literal: join('{'x' * 51}..."


# --- positional arguments: named from tools= --------------------------------------------


def test_positional_arguments_are_named_in_declared_order() -> None:
    assert python("sort('report.pdf')", tools=[SORT]) == [
        ToolCall("sort", {"file_name": "report.pdf"})
    ]
    assert python("sort('report.pdf', True)", tools=[SORT]) == [
        ToolCall("sort", {"file_name": "report.pdf", "reverse": True})
    ]
    assert python("sort('report.pdf', reverse=False)", tools=[SORT]) == [
        ToolCall("sort", {"file_name": "report.pdf", "reverse": False})
    ]


def test_positional_arguments_name_dotted_tools_from_bfcl_docs() -> None:
    entries = jsonl(BFCL_FIXTURES / "BFCL_v4_simple_python.json")
    tools = [doc for entry in entries for doc in entry["function"]]
    assert python("[math.factorial(5), math.hypot(4, 5)]", tools=tools) == [
        ToolCall("math.factorial", {"number": 5}),
        ToolCall("math.hypot", {"x": 4, "y": 5}),
    ]


@pytest.mark.parametrize(
    ("text", "tools", "message"),
    [
        (
            "sort('report.pdf')",
            None,
            "sort at line 1, column 1 passes 1 argument by position, and no tools= were "
            "given to name it",
        ),
        (
            "[cd(folder='a'), sort('a', 'b')]",
            None,
            "sort at line 1, column 18 passes 2 arguments by position, and no tools= were "
            "given to name them",
        ),
        (
            "cd('docs')",
            [SORT],
            "cd at line 1, column 1 passes 1 argument by position, and tools= has no "
            "definition of 'cd' to name it",
        ),
        (
            "sort('a', True, 3)",
            [SORT],
            "sort at line 1, column 1 passes 3 arguments by position, but 'sort' has 2 "
            "parameters (file_name, reverse)",
        ),
        (
            "\n  now(1)",
            [{"name": "now"}],
            "now at line 2, column 3 passes 1 argument by position, but 'now' has 0 parameters",
        ),
    ],
)
def test_positional_arguments_that_cannot_be_named_are_an_error(
    text: str, tools: list[Any] | None, message: str
) -> None:
    with pytest.raises(ValueError, match=exactly(message)):
        python(text, tools=tools)


# --- text that is not calls: ValueError with the place ----------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected a call or a list of calls, got no text"),
        ("  \n ", "expected a call or a list of calls, got no text"),
        ("42", "expected a call or a list of calls at line 1, column 1, got 42"),
        ("cd", "expected a call or a list of calls at line 1, column 1, got cd"),
        (
            "(cd(folder='a'), ls())",
            "expected a call or a list of calls at line 1, column 1, got (cd(folder='a'), ls())",
        ),
        ("[cd(folder='a'), 'ls']", "expected a call at line 1, column 18, got 'ls'"),
        ("[cd(folder='a'),\n *more]", "expected a call at line 2, column 2, got *more"),
        ("x[0](a=1)", "expected a tool name at line 1, column 1, got x[0]"),
        ("  get()(a=1)", "expected a tool name at line 1, column 3, got get()"),
        ("[é(a=1), 'é'.upper(x=1)]", "expected a tool name at line 1, column 10, got 'é'.upper"),
        ("cd(folder='a'", "invalid Python call syntax at line 1, column 3: '(' was never closed"),
        ("cd(folder='a') ls()", "invalid Python call syntax at line 1, column 16: invalid syntax"),
        ("\n\n  é(a=1) ls()", "invalid Python call syntax at line 3, column 10: invalid syntax"),
        ("cd(folder='a'); ls()", "invalid Python call syntax at line 1, column 15: invalid syntax"),
        ("import os", "invalid Python call syntax at line 1, column 1: invalid syntax"),
        (
            "cd(folder='\0')",
            "invalid Python call syntax: source code string cannot contain null bytes",
        ),
    ],
)
def test_text_that_is_not_calls_is_a_value_error(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=exactly(message)):
        python(text)


def test_python_syntax_reads_only_text() -> None:
    with pytest.raises(
        TypeError,
        match=exactly("to_calls(syntax='python') reads text, got b\"cd(folder='a')\" (bytes)"),
    ):
        to_calls(b"cd(folder='a')", syntax="python")


def test_an_unknown_syntax_is_a_value_error() -> None:
    with pytest.raises(
        ValueError, match=exactly("syntax must be 'json' or 'python', got 'Python'")
    ):
        to_calls("cd(folder='a')", syntax="Python")


def test_tools_without_python_syntax_is_a_value_error() -> None:
    with pytest.raises(
        ValueError,
        match=exactly(
            "tools= names positional arguments in Python call syntax; pass syntax='python' "
            "(JSON arguments all have names)"
        ),
    ):
        to_calls([{"name": "sort", "args": {}}], tools=[SORT])


def test_json_stays_the_default_and_does_not_load_the_python_reader() -> None:
    assert to_calls('[{"name": "cd", "args": {"folder": "a"}}]') == [
        ToolCall("cd", {"folder": "a"})
    ]
    assert to_calls('[{"name": "cd"}]', syntax="json") == [ToolCall("cd", {})]
    with pytest.raises(TypeError, match="not JSON"):
        to_calls("cd(folder='a')")
    code = "import sys, toolmatch\ntoolmatch.to_calls('[]')\nprint('toolmatch._readers.python_text' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_bad_tools_are_reported_even_when_no_call_needs_them() -> None:
    with pytest.raises(TypeError) as error:
        python("cd(folder='a')", tools=[{"type": "web_search"}])
    assert str(error.value).startswith("tools[0] is not a tool definition: {'type': 'web_search'}")


def test_inputs_too_big_for_the_parser_are_value_errors() -> None:
    # In a subprocess with a timeout: a parser that recursed or hung would not stop the suite.
    code = (
        "from toolmatch import to_calls\n"
        "for text in ['f(x=' + '-' * 100_000 + '1)', '[' * 100_000, '[' + 'f(),' * 100_000 + ']']:\n"
        "    try:\n"
        "        print(len(to_calls(text, syntax='python')))\n"
        "    except ValueError as error:\n"
        "        print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines() == [
        "invalid Python call syntax: too deeply nested to parse",
        "invalid Python call syntax at line 1, column 201: too many nested parentheses",
        "100000",
    ]


# --- nothing is ever run ----------------------------------------------------------------

SENTINEL = Path(tempfile.gettempdir()) / "toolmatch-python-calls-ran-code"
_RUNS = [  # each would create SENTINEL if anything evaluated it
    f"open({str(SENTINEL)!r}, 'w')",
    f"__import__('pathlib').Path({str(SENTINEL)!r}).touch()",
    f"exec(\"open({str(SENTINEL)!r}, 'w')\")",
    f"(lambda: open({str(SENTINEL)!r}, 'w'))()",
    f"[open({str(SENTINEL)!r}, 'w') for _ in 'x']",
    f"__import__('os').system('touch {SENTINEL}')",
]
_VALUES = ["1", "-2.5", "'s'", "None", "True", "[1, 'a']", "{'k': (1, 2)}", "x", "*xs", "**kw"]
_fragments = st.sampled_from(_RUNS + _VALUES)
_names = st.sampled_from(["sort", "cd", "math.sqrt", "x[0]", "f()", *_RUNS])
_arguments = st.one_of(
    _fragments,
    st.tuples(st.sampled_from(["file_name", "reverse", "folder"]), _fragments).map("=".join),
)
_calls = st.builds(
    lambda name, arguments: f"{name}({', '.join(arguments)})",
    _names,
    st.lists(_arguments, max_size=4),
)
_tokens = st.sampled_from(["(", ")", "[", "]", ",", "=", ".", "'", "\n", " ", "sort", "1", *_RUNS])
python_like_texts = st.one_of(
    _calls,
    st.lists(_calls, max_size=4).map(lambda calls: "[" + ", ".join(calls) + "]"),
    st.lists(_tokens, max_size=12).map("".join),
    st.text(max_size=40),
)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(python_like_texts)
def test_any_text_gives_calls_or_a_value_error_and_runs_nothing(text: str) -> None:
    try:
        calls = python(text, tools=[SORT])
    except ValueError:
        pass
    else:
        for call in calls:
            assert isinstance(call, ToolCall)
            if call.parse_error is not None:
                assert call.args == {}
            json.dumps(call.as_dict())  # the args are JSON data
    assert not SENTINEL.exists(), f"reading {text!r} ran code"


def test_the_sentinel_would_catch_code_that_ran() -> None:
    # The property above can fail: evaluating one of its texts does create the file.
    try:
        eval(_RUNS[1])  # the test's own eval, never toolmatch's
        assert SENTINEL.exists()
    finally:
        SENTINEL.unlink(missing_ok=True)


# --- real BFCL data ---------------------------------------------------------------------


def jsonl(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def bfcl_multi_turn(data: Path) -> Iterator[tuple[str, int, str, list[dict[str, Any]]]]:
    """(entry id, turn, call text, the entry's function docs) for each multi-turn
    ground-truth call under ``data``, laid out as in the bfcl-eval package."""
    docs: dict[str, list[dict[str, Any]]] = {}
    for answers in sorted(data.glob("possible_answer/BFCL_v4_multi_turn_*.json")):
        questions = {entry["id"]: entry for entry in jsonl(data / answers.name)}
        for entry in jsonl(answers):
            tools = []
            for name in questions[entry["id"]]["involved_classes"]:
                if name not in docs:
                    docs[name] = jsonl(data / "multi_turn_func_doc" / BFCL_DOC_FILES[name])
                tools.extend(docs[name])
            for turn, texts in enumerate(entry["ground_truth"]):
                for text in texts:
                    yield entry["id"], turn, text, tools


def test_bfcl_multi_turn_ground_truth() -> None:
    read: dict[str, list[list[ToolCall]]] = {}
    for entry, turn, text, tools in bfcl_multi_turn(BFCL_FIXTURES):
        turns = read.setdefault(entry, [])
        if turn == len(turns):
            turns.append([])
        turns[turn].extend(python(text, tools=tools))
    assert read == {
        "multi_turn_base_0": [
            [
                ToolCall("cd", {"folder": "document"}),
                ToolCall("mkdir", {"dir_name": "temp"}),
                ToolCall("mv", {"source": "final_report.pdf", "destination": "temp"}),
            ],
            [
                ToolCall("cd", {"folder": "temp"}),
                ToolCall("grep", {"file_name": "final_report.pdf", "pattern": "budget analysis"}),
            ],
            [ToolCall("sort", {"file_name": "final_report.pdf"})],
            [
                ToolCall("cd", {"folder": ".."}),
                ToolCall("mv", {"source": "previous_report.pdf", "destination": "temp"}),
                ToolCall("cd", {"folder": "temp"}),
                ToolCall(
                    "diff", {"file_name1": "final_report.pdf", "file_name2": "previous_report.pdf"}
                ),
            ],
        ],
        "multi_turn_base_56": [
            [
                ToolCall("get_zipcode_based_on_city", {"city": "San Francisco"}),
                ToolCall("get_zipcode_based_on_city", {"city": "Rivermist"}),
                ToolCall("estimate_distance", {"cityA": "94016", "cityB": "83214"}),
            ],
            [
                ToolCall("displayCarStatus", {"option": "fuel"}),
                ToolCall("fillFuelTank", {"fuelAmount": 40}),
            ],
            [
                ToolCall(
                    "lockDoors",
                    {"unlock": False, "door": ["driver", "passenger", "rear_left", "rear_right"]},
                ),
                ToolCall("pressBrakePedal", {"pedalPosition": 1.0}),
                ToolCall("startEngine", {"ignitionMode": "START"}),
            ],
        ],
    }


def test_a_bfcl_turn_reads_the_same_as_one_python_list() -> None:
    for _, _, text, tools in bfcl_multi_turn(BFCL_FIXTURES):
        assert python(f"[{text}]", tools=tools) == python(text, tools=tools)


def test_bfcl_positional_ground_truth_needs_the_docs() -> None:
    with pytest.raises(
        ValueError,
        match=exactly(
            "sort at line 1, column 1 passes 1 argument by position, and no tools= were given "
            "to name it"
        ),
    ):
        python("sort('final_report.pdf')")


_BFCL_EVAL = find_spec("bfcl_eval")  # finding the package does not import it


@pytest.mark.skipif(_BFCL_EVAL is None, reason="bfcl-eval is not installed")
def test_all_of_bfcl_s_multi_turn_ground_truth_parses_with_its_docs() -> None:
    assert _BFCL_EVAL is not None
    assert _BFCL_EVAL.submodule_search_locations
    data = Path(next(iter(_BFCL_EVAL.submodule_search_locations))) / "data"
    entries: set[str] = set()
    calls = 0
    failures = []
    for entry, turn, text, tools in bfcl_multi_turn(data):
        entries.add(entry)
        try:
            (call,) = python(text, tools=tools)
        except ValueError as error:
            failures.append(f"{entry} turn {turn}: {text}: {error}")
            continue
        if call.parse_error is not None:
            failures.append(f"{entry} turn {turn}: {text}: {call.parse_error}")
        calls += 1
    assert not failures, "\n".join(failures)
    # v4 has four multi-turn categories of 200 entries
    assert len(entries) >= 800
    assert calls >= 4000


@pytest.mark.skipif(_BFCL_EVAL is None, reason="bfcl-eval is not installed")
def test_all_of_bfcl_s_function_docs_name_positional_arguments() -> None:
    assert _BFCL_EVAL is not None
    assert _BFCL_EVAL.submodule_search_locations
    data = Path(next(iter(_BFCL_EVAL.submodule_search_locations))) / "data"
    docs = 0
    for path in sorted(data.glob("BFCL_v4_*.json")):
        if path.name == "BFCL_v4_format_sensitivity.json":  # one JSON document, no docs
            continue
        for entry in jsonl(path):
            for doc in entry.get("function", []):
                parameters = list(doc["parameters"]["properties"])
                text = f"{doc['name']}({', '.join(map(str, range(len(parameters))))})"
                (call,) = python(text, tools=[doc])
                assert call.args == dict(zip(parameters, range(len(parameters)), strict=True))
                docs += 1
    assert docs >= 8000  # v4: 8726 docs over 3641 entries
