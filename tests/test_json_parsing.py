"""The parse step of TRACES with orjson and without: the same records, errors and output.

Where orjson is installed, a trace line is read by it unless it holds what orjson reads
otherwise or refuses (docs/cli.md): every line here is read both ways, in this process
(orjson hidden by ``sys.modules``) and by ``toolmatch check`` as a subprocess, and the
standard library's result is the one kept.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import commands
from shapes import CONTAINERS, call_shapes
from toolmatch._runs import json_text
from toolmatch._runs.envelope import RecordError, turns_value
from toolmatch._runs.traces import read_item

pytest.importorskip("orjson")

# Lines where orjson and json part ways, and the lines around them the readers see.
TRICKY_LINES = [
    b'{"case": "a", "turns": [], "n": 123456789012345678901234567890}\n',  # beyond 64 bits
    b'{"case": "a", "turns": [], "n": -9223372036854775809}\n',  # just below int64
    b'{"case": "a", "turns": [], "n": 18446744073709551615}\n',  # uint64's largest
    b'{"case": "a", "turns": [], "n": 18446744073709551616}\n',  # one more
    b'{"case": "a", "turns": [], "id": "12345678901234567890123"}\n',  # digits in a string
    b'{"case": "a", "turns": [], "id": "x12345678901234567890123"}\n',  # ... not opening it
    b'{"case": "a", "turns": [], "id": "\\"12345678901234567890123"}\n',  # after a quote in it
    b'{"case": "a", "turns": [], "t": "1796627370000000000", "n": 1796627370000000000}\n',
    b'{"case": "a", "turns": [], "x": NaN}\n',
    b'{"case": "a", "turns": [], "x": Infinity}\n',
    b'{"case": "a", "turns": [], "x": -Infinity}\n',
    b'{"case": "a", "turns": [], "x": [NaN, 1e400, -1e400]}\n',
    b'{"case": "a", "case": "b", "turns": []}\n',  # duplicate keys: the last wins
    b'{"b": 1, "case": "a", "b": 2, "turns": []}\n',  # ... at the first one's place
    b'{"case": "a", "turns": [], "s": "\\ud800"}\n',  # a lone surrogate escape
    b'{"case": "a", "turns": [], "s": "\\udc00x\\ud83d"}\n',
    b'{"case": "a", "turns": [], "s": "\\ud83d\\ude00"}\n',  # a pair: one character
    b'{"case": "a", "turns": [], "s": "\xed\xa0\x80"}\n',  # a surrogate in UTF-8: invalid
    b'{"case": "a", "turns": [], "s": "\xff"}\n',  # invalid UTF-8
    b'{"case": "caf\xc3\xa9", "turns": [], "s": "\xc0\xaf"}\n',  # an overlong encoding
    b'\xef\xbb\xbf{"case": "a", "turns": []}\n',  # a byte order mark
    b'  {"case": "a", "turns": []}  \r\n',
    b'{"case": "a", "turns": []}\x0c\n',  # a form feed after the value: not JSON space
    b'{"case": "a", "turns": [1,]}\n',  # a trailing comma
    b'{"case": "a", "turns": [], "n": 01}\n',  # a leading zero
    b'{"case": "a", "turns": [], "s": "tab\there"}\n',  # a control character in a string
    b'{"case": "a", "turns": [], "n": -0, "f": -0.0, "e": 1E2, "g": 2.5e-400}\n',
    b'{"case": "a", "turns": [], "f": 0.1, "g": 1.7976931348623157e308}\n',
    b'{"case": "a", "turns": [], "s": "\\u0000\\u001f\\"\\\\\\/"}\n',
    b'{"case": "a", "turns": []} {"case": "b"}\n',  # two values
    b"[1, 2\n",  # cut off
    b'"just a string"\n',
    b"[]\n",
    b"null\n",
    b"[" * 1100 + b"]" * 1100 + b"\n",  # deeper than orjson reads, not than json does
    b'{"case": "a", "turns": ' + b"[" * 5000 + b"]" * 5000 + b"}\n",  # deeper than json
    b'{"case": "a", "turns": [], "n": ' + b"9" * 5000 + b"}\n",  # past Python's digit limit
]


@contextmanager
def orjson_hidden() -> Iterator[None]:
    """As if orjson were not installed: its import fails, and the parse step looks again."""
    saved = sys.modules.get("orjson"), json_text._Parser.loads, json_text._Parser.found
    sys.modules["orjson"] = None  # type: ignore[assignment]
    json_text._Parser.found, json_text._Parser.loads = False, None
    try:
        yield
    finally:
        sys.modules["orjson"] = saved[0]  # type: ignore[assignment]
        json_text._Parser.loads, json_text._Parser.found = saved[1], saved[2]


def outcome(read: Callable[[Any], object], value: object) -> str:
    """What reading ``value`` gave, exactly: repr shows types (1, 1.0, True), key order,
    -0.0, nan and lone surrogates; an error its type and message."""
    try:
        return repr(read(value))
    except RecordError as error:
        return f"RecordError({str(error)!r}, case={error.case!r})"
    except ValueError as error:
        return f"ValueError({str(error)!r})"


def both_ways(read: Callable[[Any], object], values: list[Any]) -> tuple[list[str], list[str]]:
    """Each value read with orjson, and read with the standard library alone."""
    fast = [outcome(read, value) for value in values]
    with orjson_hidden():
        plain = [outcome(read, value) for value in values]
    return fast, plain


def test_the_fast_parser_reads_these_lines() -> None:
    """The differences are declined, not the lines the readers see every day."""
    assert json_text.fast_loads(b'{"case": "a", "turns": [[{"name": "x"}]]}\n') == {
        "case": "a",
        "turns": [[{"name": "x"}]],
    }
    declined = [line for line in TRICKY_LINES if json_text.fast_loads(line) is json_text.DECLINED]
    # Every line that orjson would read otherwise (a long integer) or refuse is declined;
    # so is one whose long run of digits is in a string but does not open it.
    assert len(declined) == 25
    # A run that opens a string (even after a quote in it) is read by orjson.
    assert [line in declined for line in TRICKY_LINES[4:8]] == [False, True, False, True]
    with orjson_hidden():
        assert json_text.fast_loads(b"{}") is json_text.DECLINED


def test_tricky_lines_read_as_json_reads_them() -> None:
    fast, plain = both_ways(read_item, TRICKY_LINES)
    assert fast == plain
    # The stdlib's own results and errors, line for line (a few, for what they are).
    assert plain[0] == repr({"case": "a", "turns": [], "n": 123456789012345678901234567890})
    assert plain[8] == repr({"case": "a", "turns": [], "x": math.nan})
    assert plain[12] == repr({"case": "b", "turns": []})
    assert plain[14] == repr({"case": "a", "turns": [], "s": "\ud800"})
    assert plain[17] == "RecordError('not UTF-8 text: byte 33 cannot be decoded', case=None)"
    assert plain[23] == "RecordError('invalid JSON: Expecting value at column 27', case=None)"


def test_turns_given_as_json_text_read_as_json_reads_them() -> None:
    texts: list[object] = [
        '[[{"name": "search", "args": {"n": 123456789012345678901234567890}}]]',
        '[[{"name": "search", "args": {"x": NaN, "s": "\\ud800"}}]]',
        '[[{"name": "search", "args": {"s": "\ud800"}}]]',  # a lone surrogate in the str
        '[[{"name": "search", "args": {"s": "caf\u00e9 \U0001f600"}}]]',
        '\ufeff[[{"name": "search"}]]',
        '[[{"name": "search"}]',
        b'[[{"name": "search", "args": {"s": "\xff"}}]]',
        '[[{"name": "search"}]]'.encode("utf-16"),
    ]
    fast, plain = both_ways(turns_value, texts)
    assert fast == plain


def reader_shaped_lines() -> Iterator[bytes]:
    """Runs of every call shape the readers accept, in each container, as JSON Lines."""
    args = {"city": "Zürich", "days": 3, "units": ["metric", None], "ratio": 0.25, "ok": True}
    for kind, shapes in call_shapes("get_weather", args, "call_1").items():
        items = [shape for shape in shapes if type(shape) is dict]  # JSON, not a ToolCall
        for container in CONTAINERS.get(kind, [lambda items: items]):
            turns = [container(items), container(items[:1])]
            yield json.dumps({"case": "weather", "turns": turns}).encode() + b"\n"


def test_every_reader_shape_reads_the_same() -> None:
    lines = list(reader_shaped_lines())
    assert len(lines) > 15
    fast, plain = both_ways(read_item, lines)
    assert fast == plain


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(alphabet=st.characters(codec=None, exclude_categories=())),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(value=json_values, ascii_only=st.booleans())
def test_any_json_reads_the_same(value: object, ascii_only: bool) -> None:
    """Whatever ``json.dumps`` writes, surrogates, NaN and big integers too, reads the same."""
    line = json.dumps({"case": "a", "turns": [], "value": value}, ensure_ascii=ascii_only)
    try:
        raw = line.encode() + b"\n"
    except UnicodeEncodeError:  # a lone surrogate written as itself: not UTF-8 text
        raw = line.encode("utf-8", "surrogatepass") + b"\n"
    fast, plain = both_ways(read_item, [raw])
    assert fast == plain


# toolmatch check as a subprocess with orjson not importable.
HIDE_ORJSON = (
    "import sys; sys.modules['orjson'] = None\n"
    "from toolmatch._cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


@pytest.mark.parametrize("report", ["text", "json"])
def test_check_prints_the_same_bytes_without_orjson(tmp_path: Path, report: str) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "test_cases": [
                    {"name": "a", "expected_tools": []},
                    {"name": "b", "expected_tools": []},
                    {
                        "name": "weather",
                        "turns": [{"expected_tools": ["get_weather"]}] * 2,
                    },
                ]
            }
        )
    )
    traces = tmp_path / "traces.jsonl"
    traces.write_bytes(b"".join([*TRICKY_LINES, *reader_shaped_lines()]))
    arguments = ["check", str(spec), str(traces), "--no-progress", "--format", report]
    fast = commands.toolmatch(*arguments)
    plain = subprocess.run(
        [sys.executable, "-c", HIDE_ORJSON, *arguments],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    assert (plain.returncode, plain.stdout, plain.stderr) == (
        fast.returncode,
        fast.stdout,
        fast.stderr,
    )
    assert fast.returncode == 1
    passed = (
        "PASS weather"
        if report == "text"
        else '"case": "weather", "run": 1, "line": 38, "passed": true'
    )
    assert passed in fast.stdout
    assert "15 errors" in fast.stdout if report == "text" else '"errors": 15' in fast.stdout
