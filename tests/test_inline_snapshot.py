"""``assert to_calls(response) == snapshot()`` with inline-snapshot, through real pytest runs.

Each run is a subprocess (inline-snapshot keeps its state per process) in an environment
without the variables that make inline-snapshot stand down: ``CI`` and its kin, and
``PYTEST_XDIST_WORKER``.
"""

from __future__ import annotations

import pytest

from toolmatch import ANY, Approx, IsDatetime, IsUUID, Partial, StartsWith, ToolCall, to_calls

inline_snapshot = pytest.importorskip("inline_snapshot")

pytest_plugins = ["pytester"]

# inline-snapshot runs with --inline-snapshot=disable when any of these is set.
_CI_VARIABLES = (
    "CI",
    "bamboo.buildKey",
    "BUILD_ID",
    "BUILD_NUMBER",
    "BUILDKITE",
    "CIRCLECI",
    "CONTINUOUS_INTEGRATION",
    "GITHUB_ACTIONS",
    "HUDSON_URL",
    "JENKINS_URL",
    "TEAMCITY_VERSION",
    "TRAVIS",
    "PYTEST_XDIST_WORKER",
)

RESPONSE = """\
from inline_snapshot import snapshot
from openai.types.chat import ChatCompletionMessage

from toolmatch import to_calls


def response(n="3.2", id="call_1"):
    return ChatCompletionMessage(
        role="assistant",
        tool_calls=[
            {
                "id": id,
                "type": "function",
                "function": {
                    "name": "book",
                    "arguments": '{"id": "0b7d5c57-9a5a-4f0e-8c1e-1f0d7b3a6f11", '
                    '"when": "2026-12-01T10:00:00Z", "n": ' + n + ', '
                    '"filters": {"city": "Paris", "stars": 4}}',
                },
            }
        ],
    )

"""


@pytest.fixture
def run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    for name in _CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)

    def run_pytest(*flags: str) -> pytest.RunResult:
        options = [f"--inline-snapshot={','.join(flags)}"] if flags else []
        return pytester.runpytest_subprocess("-p", "no:cacheprovider", *options)

    return run_pytest


def test_create_writes_the_calls_as_importable_toolcall_code(pytester, run):
    test_file = pytester.makepyfile(
        RESPONSE + "\ndef test_calls():\n    assert to_calls(response()) == snapshot()\n"
    )
    run("create").assert_outcomes(passed=1, errors=1)  # the error says a value was created
    assert test_file.read_text() == RESPONSE.replace(
        "from toolmatch import to_calls\n",
        "from toolmatch import to_calls\n\nfrom toolmatch import ToolCall\n",
    ) + (
        "\ndef test_calls():\n"
        "    assert to_calls(response()) == snapshot([ToolCall(name='book', args={"
        "'id': '0b7d5c57-9a5a-4f0e-8c1e-1f0d7b3a6f11', 'when': '2026-12-01T10:00:00Z', "
        "'n': 3.2, 'filters': {'city': 'Paris', 'stars': 4}}, id='call_1')])"
    )
    run().assert_outcomes(passed=1)


def test_create_shows_only_the_fields_that_are_set(pytester, run):
    test_file = pytester.makepyfile(
        "from inline_snapshot import snapshot\n"
        "from toolmatch import ToolCall\n\n"
        "def test_calls():\n"
        "    calls = [ToolCall('cd', {}, parse_error='not JSON'),"
        " ToolCall('get', {'q': 'a\\nb\\n'}, result={'t': 21}, failed=False)]\n"
        "    assert calls == snapshot()\n"
    )
    run("create").assert_outcomes(passed=1, errors=1)
    assert test_file.read_text().splitlines()[-4:] == [
        "    assert calls == snapshot([ToolCall(name='cd', args={}, parse_error='not JSON'),"
        " ToolCall(name='get', args={'q': \"\"\"\\",
        "a",
        "b",
        '"""}, result={\'t\': 21}, failed=False)])',
    ]
    run().assert_outcomes(passed=1)


LOOSENED = (
    RESPONSE.replace("from toolmatch import to_calls", "from toolmatch import *")
    + """
def test_calls():
    assert to_calls(response()) == snapshot(
        [
            ToolCall(
                name="book",
                args={
                    "id": IsUUID(),
                    "when": IsDatetime(),
                    "n": Approx(3, abs=1),
                    "filters": Partial({"city": Fuzzy("paris")}),
                },
                id=\"call_1\",
            )
        ]
    )
"""
)


@pytest.mark.parametrize("flags", [("fix",), ("fix", "update"), ("fix", "update", "trim")])
def test_a_loosened_snapshot_that_matches_is_left_byte_for_byte(pytester, run, flags):
    test_file = pytester.makepyfile(LOOSENED)
    before = test_file.read_bytes()
    run(*flags).assert_outcomes(passed=1)
    assert test_file.read_bytes() == before


def test_matchers_may_stand_for_whole_fields(pytester, run):
    # Call ids change on every run: StartsWith keeps the snapshot passing, untouched.
    test_file = pytester.makepyfile(
        RESPONSE.replace("from toolmatch import to_calls", "from toolmatch import *")
        + """
def test_calls():
    assert to_calls(response(id="call_9")) == snapshot(
        [
            ToolCall(
                name="book",
                args=Partial({"n": Approx(3, abs=1), "filters": {"city": "Paris", "stars": 4}}),
                id=StartsWith("call_"),
            )
        ]
    )
"""
    )
    before = test_file.read_bytes()
    run("fix", "update").assert_outcomes(passed=1)
    assert test_file.read_bytes() == before


@pytest.mark.skipif(
    tuple(int(part) for part in inline_snapshot.__version__.split(".")[:2]) < (0, 36),
    reason="inline-snapshot tells its hooks the snapshot's value from 0.36 on",
)
def test_a_matcher_for_a_field_recorded_as_none_is_kept(pytester, run):
    test_file = pytester.makepyfile(
        "from inline_snapshot import snapshot\n"
        "from toolmatch import ANY, ToolCall\n\n"
        "def test_calls():\n"
        "    assert [ToolCall('search', {}), ToolCall('now', {})] == snapshot(\n"
        "        [ToolCall(name='search', args={}, id=ANY, failed=ANY),"
        " ToolCall(name='later', args={}, id=ANY)]\n"
        "    )\n"
    )
    before = test_file.read_text()
    run("fix", "update").assert_outcomes(passed=1, errors=1)
    assert test_file.read_text() == before.replace("name='later'", "name='now'")
    run().assert_outcomes(passed=1)


def test_fix_changes_the_literals_and_keeps_the_matchers(pytester, run):
    # The recorded id changed: fix writes the new one; n no longer matches its Approx,
    # which fix leaves as written, so the test fails until the user edits it.
    test_file = pytester.makepyfile(
        LOOSENED.replace("assert to_calls(response())", "assert to_calls(response('7', 'call_2'))")
    )
    before = test_file.read_text()
    result = run("fix")
    result.assert_outcomes(failed=1, errors=1)
    assert test_file.read_text() == before.replace('        id="call_1",', "        id='call_2',")
    run().assert_outcomes(failed=1, errors=1)  # the error: a snapshot still differs

    test_file.write_text(test_file.read_text().replace("Approx(3, abs=1)", "Approx(7, abs=1)"))
    run().assert_outcomes(passed=1)


def test_without_inline_snapshot_running_the_snapshot_is_a_plain_comparison(pytester, run):
    pytester.makepyfile(LOOSENED)
    assert run("disable").ret == 0
    pytester.makepyfile(LOOSENED.replace("Approx(3, abs=1)", "Approx(30, abs=1)"))
    assert run("disable").ret == 1


@pytest.mark.parametrize(
    "expected",
    [
        ToolCall(
            "book",
            {"id": IsUUID(), "when": IsDatetime(), "n": Approx(3, abs=1)},
            id="call_1",
        ),
        ToolCall("book", {"id": IsUUID(4), "when": "2026-12-01T10:00:00Z", "n": 3.2}, "call_1"),
        ToolCall("book", {"id": IsUUID(), "when": IsDatetime(), "n": Approx(3.2)}, id="call_1"),
    ],
)
def test_a_call_holding_matchers_equals_the_recorded_call_from_either_side(expected):
    recorded = to_calls(
        [
            {
                "name": "book",
                "args": {
                    "id": "0b7d5c57-9a5a-4f0e-8c1e-1f0d7b3a6f11",
                    "when": "2026-12-01T10:00:00Z",
                    "n": 3.2,
                },
                "id": "call_1",
            }
        ]
    )
    assert recorded == [expected]
    assert [expected] == recorded
    assert not (recorded != [expected])  # noqa: SIM202  (__ne__ from this side too)
    later = [ToolCall("book", {**recorded[0].args, "n": 9}, id="call_1")]
    assert later != [expected]
    assert [expected] != later


def test_a_matcher_may_stand_for_a_field_of_an_expected_call():
    expected = ToolCall("book", Partial({"n": Approx(3, abs=1)}), id=StartsWith("call_"))
    recorded = ToolCall("book", {"n": 3.2, "note": "x"}, id="call_7")
    assert recorded == expected
    assert expected == recorded
    assert ToolCall("book", {"n": 3.2}, id="toolu_7") != expected
    assert ToolCall("book", {"n": 5}, id="call_7") != expected
    assert ToolCall(ANY, ANY, ANY, ANY, ANY, ANY) == recorded
    assert repr(expected) == (
        "ToolCall(name='book', args=Partial({'n': Approx(3, abs=1)}), id=StartsWith('call_'))"
    )


def test_an_expected_call_is_not_read_as_a_recorded_one():
    expected = ToolCall("book", ANY, id=StartsWith("call_"))
    with pytest.raises(TypeError) as raised:
        to_calls([ToolCall("now"), expected])
    assert str(raised.value) == (
        "input[1] is an expected call, not a recorded one: its args, id are matchers: "
        "ToolCall(name='book', args=ANY, id=StartsWith('call_'))"
    )
    with pytest.raises(
        TypeError, match=r"^input\[0\] is an expected call.*its failed is a matcher"
    ):
        to_calls([ToolCall("now", failed=ANY)])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((3,), "ToolCall name must be a str, got 3"),
        (("a", [1]), "ToolCall args must be a dict, got [1] (list)"),
        (("a", {}, 7), "ToolCall id must be a str or None, got 7"),
        (("a", {}, None, b"x"), "ToolCall parse_error must be a str or None, got b'x'"),
        (("a", {}, None, None, None, "yes"), "ToolCall failed must be a bool or None, got 'yes'"),
    ],
)
def test_fields_that_are_neither_their_type_nor_a_matcher_are_refused(arguments, message):
    with pytest.raises(TypeError) as raised:
        ToolCall(*arguments)
    assert str(raised.value) == message


@pytest.mark.parametrize("flags", [(), ("disable",)])
def test_a_failing_snapshot_of_calls_prints_one_line_per_failing_field(pytester, run, flags):
    # n no longer matches its Approx and the id changed: a line each, nothing for the rest.
    pytester.makepyfile(
        LOOSENED.replace("assert to_calls(response())", "assert to_calls(response('7', 'call_2'))")
    )
    result = run(*flags)
    result.assert_outcomes(failed=1, errors=0 if flags else 1)
    assert [line for line in result.stdout.lines if line.startswith("E ")] == [
        "E       AssertionError: assert [ToolCall(name='book', args={'id': "
        "'0b7d5c57-9a5a-4f0e-8c1e-1f0d7b3a6f11', 'when': '2026-12-01T10:00:00Z', 'n': 7, 'f... "
        "== [ToolCall(name='book', args={'id': IsUUID(), 'when': IsDatetime(), 'n': "
        "Approx(3, abs=1), 'filters': Partial({'city':...",
        "E         [0].args.n: expected 3 ± 1, got 7",
        "E         [0].id: expected 'call_1', got 'call_2'",
    ]
