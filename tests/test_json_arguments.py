"""JSON-text arguments: the scanner shortcut answers exactly what ``json.loads`` answers.

``_json_arguments`` hands a JSON object straight to json's C scanner; ``_loads_arguments``
is the ``json.loads`` path it falls back to. Both are compared on the same texts.
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import json_values, keys
from toolmatch import to_calls
from toolmatch._readers import reading as _reading
from toolmatch._readers.reading import _json_arguments, _loads_arguments

ARGUMENT_TEXTS = [
    '{"q": "paris"}',
    "{}",
    ' {"q": 1}',
    '{"q": 1} ',
    '{"q": 1}\n',
    '\t{"q": 1}\r\n',
    '{"q": 1}x',
    '{"q": 1} \t\r\n ',
    '{"q": 1}\u00a0',
    '{"q": 1}\f',
    '{"q": 1} x',
    '{"q": 1}{"r": 2}',
    '{"q": 1} // note',
    '{"q": ',
    '{"q": "pa',
    "{'q': 1}",
    '{"q": 1,}',
    "{q: 1}",
    "[1, 2]",
    '"text"',
    "3",
    "null",
    "",
    "   ",
    "\ufeff{}",
    '{"n": 1e400, "m": -1e400, "k": 1E5, "z": -0.0}',
    '{"n": NaN, "i": Infinity, "j": -Infinity}',
    '{"u": "\\u00e9\\ud83d\\ude00", "raw": "é😀", "lone": "\\ud800"}',
    '{"nested": {"a": [1, {"b": null}], "c": true}}',
    '{"dup": 1, "dup": 2}',
    '{"ctrl": "a\tb"}',
    '{"big": ' + "9" * 5000 + "}",
    '{"deep": ' + "[" * 100 + "]" * 100 + "}",
    "{" + '"a": {' * 50 + "}" * 51,
    "{\u00a0}",
    "{\u2028}",
]


@pytest.mark.parametrize("text", ARGUMENT_TEXTS, ids=lambda text: repr(text)[:40])
def test_argument_strings_read_as_json_loads_reads_them(text: str) -> None:
    expected = _loads_arguments(text)
    assert repr(_json_arguments(text)) == repr(expected)
    for raw in (text, text.encode()):
        (call,) = to_calls([{"name": "t", "arguments": raw}])
        assert repr((call.args, call.parse_error)) == repr(expected)


@pytest.mark.parametrize("text", ['{"q": 1}', '{"q": 1}\n', '{"q": [1, {}]} \t', "{}"])
def test_the_scanner_reads_an_object_without_json_loads(text: str) -> None:
    with mock.patch.object(_reading, "_loads_arguments", side_effect=AssertionError):
        assert _json_arguments(text) == (json.loads(text), None)


_WHITESPACE = st.text(alphabet=" \t\r\n\u00a0", max_size=2)


@st.composite
def _argument_texts(draw: st.DrawFn) -> str:
    value = draw(st.one_of(st.dictionaries(keys, json_values, max_size=4), json_values))
    text = json.dumps(
        value,
        ensure_ascii=draw(st.booleans()),
        indent=draw(st.sampled_from([None, 0, 2])),
        separators=draw(st.sampled_from([None, (",", ":"), (" , ", " : ")])),
    )
    cut = draw(st.integers(0, len(text)))
    if draw(st.booleans()):
        text = text[:cut]  # truncated: not valid JSON, mostly
    return draw(_WHITESPACE) + text + draw(_WHITESPACE)


@settings(max_examples=400, deadline=None)
@given(st.one_of(_argument_texts(), st.text(max_size=12), st.text(max_size=8).map("{".__add__)))
def test_random_argument_strings_read_alike(text: str) -> None:
    # repr, not ==: a NaN argument is not equal to itself.
    assert repr(_json_arguments(text)) == repr(_loads_arguments(text))
