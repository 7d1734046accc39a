"""`toolmatch check --update`: the spec file changed to the recorded runs, run as a subprocess.

Each test compares the whole file after the update with its exact expected text: every
byte outside the changed values must be what it was.
"""

from __future__ import annotations

import fcntl
import json
import os
import stat
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import commands
from toolmatch._spec.importing import escaped

# The suite itself runs on CI: the command must not see that, except where a test says so.
QUIET_ENV = {key: value for key, value in os.environ.items() if key != "CI"}


toolmatch = partial(commands.toolmatch, env=QUIET_ENV)


jsonl = commands.jsonl


def run(case: str, *turns: list[dict[str, object]]) -> dict[str, object]:
    return {"case": case, "turns": list(turns)}


def call(name: str, **args: object) -> dict[str, object]:
    return {"name": name, "args": args}


def update(
    tmp_path: Path,
    spec: str,
    *runs: object,
    mode: str = "fix",
    name: str = "spec.yaml",
    options: tuple[str, ...] = (),
) -> tuple[subprocess.CompletedProcess[str], str]:
    """Runs ``check --update MODE`` (and ``options``) on a spec with this text; the result
    and the new text."""
    path = tmp_path / name
    path.write_bytes(spec.encode("utf-8"))
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(*runs), encoding="utf-8")
    result = toolmatch("check", path, traces, "--update", mode, *options)
    return result, path.read_bytes().decode("utf-8")


def not_fixed(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if line.startswith("toolmatch: ")]


def diff_of(result: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in result.stderr.splitlines() if not line.startswith("toolmatch: ")]


# Literal values -------------------------------------------------------------------------------

BLOCK_SPEC = """\
# Weather, by hand.
test_cases:
  - name: weather            # the first case
    expected_tools:
      - name: get_weather
        args:
          city: Paris        # the city asked for
          days: 3
          units: {$one_of: [metric, imperial]}
          lang: 'fr'
          note: |
            two
            lines

  - name: other              # untouched: it passes
    expected_tools: [lookup]
"""


def test_fix_replaces_only_the_failing_literal_values(tmp_path: Path) -> None:
    runs = [
        run(
            "weather",
            [call("get_weather", city="Lyon", days=4, units="metric", lang="en", note="one")],
        ),
        run("other", [call("lookup_order")]),
    ]
    result, text = update(tmp_path, BLOCK_SPEC, *runs)
    assert (
        text
        == """\
# Weather, by hand.
test_cases:
  - name: weather            # the first case
    expected_tools:
      - name: get_weather
        args:
          city: Lyon        # the city asked for
          days: 4
          units: {$one_of: [metric, imperial]}
          lang: 'en'
          note: one

  - name: other              # untouched: it passes
    expected_tools: [lookup]
"""
    )
    spec = str(tmp_path / "spec.yaml")
    assert result.stderr.splitlines() == [
        f"--- {spec}",
        f"+++ {spec}",
        "@@ -4,13 +4,11 @@",
        "     expected_tools:",
        "       - name: get_weather",
        "         args:",
        "-          city: Paris        # the city asked for",
        "-          days: 3",
        "+          city: Lyon        # the city asked for",
        "+          days: 4",
        "           units: {$one_of: [metric, imperial]}",
        "-          lang: 'fr'",
        "-          note: |",
        "-            two",
        "-            lines",
        "+          lang: 'en'",
        "+          note: one",
        " ",
        "   - name: other              # untouched: it passes",
        "     expected_tools: [lookup]",
    ]
    # The exit status and the report are the check's on the updated spec.
    assert (result.returncode, result.stdout) == (
        0,
        "PASS weather\nPASS other\n2 passed, 0 failed\n",
    )


def test_a_second_update_changes_nothing_and_passes(tmp_path: Path) -> None:
    runs = [
        run(
            "weather",
            [call("get_weather", city="Lyon", days=4, units="metric", lang="en", note="one")],
        ),
        run("other", [call("lookup_order")]),
    ]
    update(tmp_path, BLOCK_SPEC, *runs, mode="fix")
    first = (tmp_path / "spec.yaml").read_bytes()
    again = toolmatch("check", tmp_path / "spec.yaml", tmp_path / "traces.jsonl", "--update", "fix")
    assert (again.returncode, again.stderr) == (0, "")
    assert (tmp_path / "spec.yaml").read_bytes() == first


def test_the_last_run_of_a_case_is_the_one_taken(tmp_path: Path) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n"
    result, text = update(tmp_path, spec, run("a", [call("f", n=2)]), run("a", [call("f", n=3)]))
    assert text == "test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 3}}]\n"
    # The earlier run fails against the fixed spec: the check says so, and exits 1.
    assert result.returncode == 1
    assert result.stdout.splitlines()[0] == "FAIL a"
    assert result.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_values_the_loader_would_misread_are_quoted(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    expected_tools:
      - name: f
        args:
          country: SE
          zip: "75001"
          time: x
          version: x
          text: x
          looks_like_a_matcher: x
          nothing: x
"""
    recorded = call(
        "f",
        country="NO",
        zip="01234",
        time="12:30",
        version="1.10",
        text="a: b # c\nd",
        looks_like_a_matcher={"regex": "a.*"},
        nothing=None,
    )
    result, text = update(tmp_path, spec, run("a", [recorded]))
    assert (
        text
        == """\
test_cases:
  - name: a
    expected_tools:
      - name: f
        args:
          country: 'NO'
          zip: "01234"
          time: '12:30'
          version: '1.10'
          text: "a: b # c\\nd"
          looks_like_a_matcher: {$literal: {regex: a.*}}
          nothing: null
"""
    )
    assert result.returncode == 0, result.stdout


def test_nested_data_and_lists_change_leaf_by_leaf(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    expected_tools:
      - name: f
        args:
          filters:
            - {field: date, value: {regex: '2026-.*'}}   # a matcher inside a list
            - {field: city, value: Paris}
          venue: {type: restaurant, city: Paris, stars: 2}
          tags: [a, b]
          ids:
            - 1
            - 2
"""
    recorded = call(
        "f",
        filters=[{"field": "date", "value": "2026-03-01"}, {"field": "city", "value": "Rome"}],
        venue={"type": "restaurant", "city": "Rome", "price": 3},
        tags=["a", "b", "c"],
        ids=[7],
    )
    result, text = update(tmp_path, spec, run("a", [recorded]))
    assert (
        text
        == """\
test_cases:
  - name: a
    expected_tools:
      - name: f
        args:
          filters:
            - {field: date, value: {regex: '2026-.*'}}   # a matcher inside a list
            - {field: city, value: Rome}
          venue: {type: restaurant, city: Rome, price: 3}
          tags: [a, b, c]
          ids:
            - 7
"""
    )
    assert result.returncode == 0, result.stdout


def test_exact_arguments_gain_the_extra_ones_and_lose_the_missing_ones(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: block
    expected_tools:
      - name: book
        exact: true
        args:
          flight: LH 400     # the flight
          seat: 14C          # gone from the run
          meal: {$maybe: vegetarian}
  - name: flow
    expected_tools: [{name: search, args: {q: "old", gone: x}, exact: true}]
  - name: none
    expected_tools:
      - {name: ping, exact: true}
  - name: subset
    expected_tools:
      - name: find
        args: {q: x, limit: 5}
"""
    runs = [
        run("block", [call("book", flight="LH 401", passengers=2)]),
        run("flow", [call("search", q="new", page=2)]),
        run("none", [call("ping", host="example.com")]),
        run("subset", [call("find", q="y", extra=True)]),
    ]
    result, text = update(tmp_path, spec, *runs)
    assert (
        text
        == """\
test_cases:
  - name: block
    expected_tools:
      - name: book
        exact: true
        args:
          flight: LH 401     # the flight
          meal: {$maybe: vegetarian}
          passengers: 2
  - name: flow
    expected_tools: [{name: search, args: {q: "new", page: 2}, exact: true}]
  - name: none
    expected_tools:
      - {name: ping, args: {host: example.com}, exact: true}
  - name: subset
    expected_tools:
      - name: find
        args: {q: y}
"""
    )
    assert result.returncode == 0, result.stdout


def test_ignored_arguments_are_left_alone(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    expected_tools:
      - name: f
        exact: true
        ignore_args: ['*_id']
        args: {q: x, request_id: 1}
"""
    result, text = update(tmp_path, spec, run("a", [call("f", q="y", request_id=2, trace_id=3)]))
    assert text == spec.replace("q: x", "q: y")
    assert result.returncode == 0, result.stdout


def test_result_and_failed_take_the_recorded_ones(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    expected_tools:
      - {name: cancel, result: "Cancelled AB12", failed: false}
  - name: b
    expected_tools:
      - {name: cancel, result: {regex: 'Cancelled .*'}}
  - name: c
    expected_tools:
      - {name: cancel, result: done, failed: false}
"""

    def answered(result: str, failed: bool | None) -> list[dict[str, object]]:
        """A turn as an Anthropic message list: the call, then the tool's answer."""
        answer: dict[str, object] = {"type": "tool_result", "tool_use_id": "t1", "content": result}
        if failed is not None:
            answer["is_error"] = failed
        return [
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t1", "name": "cancel", "input": {}}],
            },
            {"role": "user", "content": [answer]},
        ]

    runs = [
        {"case": "a", "turns": [answered("Error: too late", True)]},
        {"case": "b", "turns": [answered("Error", None)]},
        {"case": "c", "turns": [[call("cancel")]]},  # plain calls record no result
    ]
    result, text = update(tmp_path, spec, *runs)
    assert text == spec.replace(
        'result: "Cancelled AB12", failed: false', 'result: "Error: too late", failed: true'
    )
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[1](b).expected_tools[0].result: kept the matcher {'regex': 'Cancelled .*'}: it does not match the recorded 'Error'",
        "toolmatch: not fixed: test_cases[2](c): turn 0: ExpectedTool('cancel', result='done', failed=False) asserts whether call 0 cancel({}) failed, which a plain call does not record: pass calls that hold it (ToolCall(failed=...), a \"failed\" key), or leave failed= out; no value to replace",
    ]
    assert result.returncode == 1


def test_who_made_a_call_and_how_it_ended_are_reported_not_fixed(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: refund
    expected_tools:
      - name: refund
        args: {order: 7}
        agent: billing
      - {name: lookup, status: succeeded}
"""
    runs = [
        run(
            "refund",
            [
                {"name": "refund", "args": {"order": 7}, "agent": "support"},
                {"name": "lookup", "args": {}, "status": "denied"},
            ],
        )
    ]
    result, text = update(tmp_path, spec, *runs)
    assert text == spec
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](refund).expected_tools[0].agent: expected "
        "'billing', got 'support'; not a value to replace",
        "toolmatch: not fixed: test_cases[0](refund).expected_tools[1].status: expected "
        "'succeeded', got 'denied'; not a value to replace",
    ]
    assert result.returncode == 1


# Names ----------------------------------------------------------------------------------------


def test_a_wrong_name_takes_the_recorded_one_when_renames_are_allowed(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: bare
    expected_tools:
      - get_tme              # a typo
      - get_date
  - name: mapping
    expected_tools:
      - name: serch_flights
        args: {to: JFK}
  - name: literal
    expected_tools:
      - name: {$literal: pay}
  - name: pattern
    expected_tools:
      - name: {regex: 'pay_.*'}
"""
    runs = [
        run("bare", [call("get_date"), call("get_time")]),
        # Two calls left: the one whose arguments fit best gets the name.
        run("mapping", [call("find_hotels", city="NYC"), call("find_flights", to="JFK")]),
        run("literal", [call("repay")]),
        run("pattern", [call("refund")]),
    ]
    result, text = update(tmp_path, spec, *runs, options=("--update-allow-rename",))
    assert (
        text
        == """\
test_cases:
  - name: bare
    expected_tools:
      - get_time              # a typo
      - get_date
  - name: mapping
    expected_tools:
      - name: find_flights
        args: {to: JFK}
  - name: literal
    expected_tools:
      - name: {$literal: repay}
  - name: pattern
    expected_tools:
      - name: {regex: 'pay_.*'}
"""
    )
    assert not_fixed(result) == [
        "toolmatch: weakened: test_cases[0](bare).expected_tools[0]: tool renamed from "
        "'get_tme' to 'get_time'",
        "toolmatch: weakened: test_cases[1](mapping).expected_tools[0].name: tool renamed from "
        "'serch_flights' to 'find_flights'",
        "toolmatch: weakened: test_cases[2](literal).expected_tools[0].name: tool "
        "renamed from 'pay' to 'repay'",
        "toolmatch: not fixed: test_cases[3](pattern).expected_tools[0].name: the name matcher "
        "{'regex': 'pay_.*'} selects no call; kept it",
    ]
    assert result.returncode == 1


def test_a_rename_is_refused_without_update_allow_rename(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: mapping
    expected_tools:
      - name: serch_flights
        args: {to: JFK}
"""
    result, text = update(tmp_path, spec, run("mapping", [call("find_flights", to="LAX")]))
    assert text == spec  # nor are the arguments fixed against another tool's call
    assert result.stderr.splitlines() == [
        "toolmatch: not fixed: test_cases[0](mapping).expected_tools[0].name: renaming the tool "
        "'serch_flights' to 'find_flights' changes which tool the expectation names; pass "
        "--update-allow-rename to rename it",
    ]
    assert result.returncode == 1


def test_update_allow_rename_needs_update_fix(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [f]\n", encoding="utf-8")
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f")])), encoding="utf-8")
    for options in ((), ("--update", "new")):
        result = toolmatch("check", spec, traces, "--update-allow-rename", *options)
        assert (result.returncode, result.stdout, result.stderr) == (
            2,
            "",
            "toolmatch: --update-allow-rename lets --update fix rename a tool: give --update "
            "fix or --update all with it\n",
        )


def test_a_fix_that_weakens_a_check_says_so(tmp_path: Path) -> None:
    # The audit's case: no alternative passes; the delete made with one of its asserted
    # arguments right is the closest, not the archive never made, and dropping the
    # argument the call lacked is said.
    spec = """\
test_cases:
  - name: mail
    turns:
      - one_of:
          - expected_tools:
              - name: archive_mail
                args: {folder: old}
          - expected_tools:
              - name: delete_mail
                args: {folder: spam, confirm: true}
"""
    result, text = update(tmp_path, spec, run("mail", [call("delete_mail", folder="spam")]))
    assert text == spec.replace("{folder: spam, confirm: true}", "{folder: spam}")
    assert not_fixed(result) == [
        "toolmatch: weakened: test_cases[0](mail).turns[0].one_of[1].expected_tools[0].args."
        "confirm: argument 'confirm' dropped: the recorded call has none",
    ]
    assert result.returncode == 0
    # Under exact: true the key's absence is asserted instead: nothing is weakened.
    exact = spec.replace(
        "args: {folder: spam, confirm: true}",
        "exact: true\n                args: {folder: spam, confirm: true}",
    )
    result, text = update(tmp_path, exact, run("mail", [call("delete_mail", folder="spam")]))
    assert text == exact.replace("{folder: spam, confirm: true}", "{folder: spam}")
    assert not_fixed(result) == []


def test_a_missing_call_is_not_removed_from_the_spec(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    expected_tools: [search, book]
"""
    result, text = update(tmp_path, spec, run("a", [call("web_search")]))
    assert text == spec
    assert result.stderr.splitlines() == [
        "toolmatch: not fixed: test_cases[0](a).expected_tools[1]: expected 1 matching "
        "call(s), got 0: no call's name contains 'book'; the turn called 'web_search'; no "
        "call of the turn is left to take its name from",
    ]
    assert result.returncode == 1


# What fix never changes -----------------------------------------------------------------------

MATCHER_SPEC = """\
test_cases:
  - name: matchers
    expected_tools:
      - name: get_weather
        args:
          city: {fuzzy: "New York"}
          days: {$approx: 3}
          code: {regex: 'ORD-[0-9]{5}'}
          units: {$one_of: [metric, imperial]}
          when: {$datetime: true}
          left_out: {$absent: true}
          note: old
  - name: counted
    expected_tools:
      - {name: fetch, count: 2}
      - {name: delete, never: true}
"""


def test_matchers_are_never_changed_and_say_why(tmp_path: Path) -> None:
    runs = [
        run(
            "matchers",
            [
                call(
                    "get_weather",
                    city="Boston",
                    days=3.0,
                    code="ORD-1",
                    units="kelvin",
                    when="2026-12-01T10:00:00Z",
                    left_out=1,
                    note="new",
                )
            ],
        ),
        run("counted", [call("fetch"), call("delete")]),
    ]
    result, text = update(tmp_path, MATCHER_SPEC, *runs)
    assert text == MATCHER_SPEC.replace("note: old", "note: new")
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](matchers).expected_tools[0].args.city: kept the matcher {'fuzzy': 'New York'}: it does not match the recorded 'Boston'",
        "toolmatch: not fixed: test_cases[0](matchers).expected_tools[0].args.code: kept the matcher {'regex': 'ORD-[0-9]{5}'}: it does not match the recorded 'ORD-1'",
        "toolmatch: not fixed: test_cases[0](matchers).expected_tools[0].args.units: kept the matcher {'$one_of': ['metric', 'imperial']}: it does not match the recorded 'kelvin'",
        "toolmatch: not fixed: test_cases[0](matchers).expected_tools[0].args.left_out: kept the matcher {'$absent': True}: it does not match the recorded 1",
        "toolmatch: not fixed: test_cases[1](counted).expected_tools[0]: expected 2 matching call(s), got 1; not a value to replace",
        "toolmatch: not fixed: test_cases[1](counted).expected_tools[1]: expected no matching call, got 1; not a value to replace",
    ]
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "0 passed, 2 failed"


def test_a_list_holding_matchers_keeps_its_length(tmp_path: Path) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {to: [{regex: 'a.*'}, b]}}]\n"
    result, text = update(tmp_path, spec, run("a", [call("f", to=["ab"])]))
    assert text == spec
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](a).expected_tools[0].args.to: kept: it holds "
        "matchers, and does not match the recorded ['ab']",
    ]


def test_turns_that_do_not_line_up_are_reported(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    turns:
      - expected_tools: [search]
      - expected_tools: [book]
  - name: b
    expected_tools: [search]
    exhaustive: true
"""
    runs = [run("a", [call("search")]), run("b", [call("search"), call("book")])]
    result, text = update(tmp_path, spec, *runs)
    assert text == spec
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](a).turns[1]: turn 1 has no calls: got 1 call "
        "turn(s) for 2 expected turn(s); not a value to replace",
        "toolmatch: not fixed: test_cases[1](b): call 1 book({}) is not expected; not a value "
        "to replace",
    ]


def test_a_turn_problem_the_fix_removes_is_not_reported(tmp_path: Path) -> None:
    # Before the fix, the call matches no expectation, so the exhaustive turn finds it not
    # expected; once its argument is fixed, it is expected, and nothing is left to report.
    spec = """\
test_cases:
  - name: book
    exhaustive: true
    expected_tools:
      - name: book
        args:
          party: 4
"""
    result, text = update(tmp_path, spec, run("book", [call("book", party=6)]))
    assert text == spec.replace("party: 4", "party: 6")
    assert (result.returncode, not_fixed(result)) == (0, [])
    # A problem the fix leaves is still reported: here a second call no expectation claims.
    result, text = update(
        tmp_path, spec, run("book", [call("book", party=6), call("book", party=2)])
    )
    assert text == spec.replace("party: 4", "party: 6")
    assert result.returncode == 1
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](book): call 1 book({'party': 2}) is not expected; "
        "not a value to replace",
    ]


# Anchors ----------------------------------------------------------------------------------------


def test_a_value_shared_through_an_anchor_is_not_changed(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    expected_tools:
      - name: f
        args: &units {units: metric}
      - name: g
        args:
          <<: *units
          days: 3
  - name: b
    expected_tools:
      - name: h
        args: *units
"""
    runs = [
        run("a", [call("f", units="imperial"), call("g", units="metric", days=4)]),
        run("b", [call("h", units="metric")]),
    ]
    result, text = update(tmp_path, spec, *runs)
    assert text == spec.replace("days: 3", "days: 4")
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](a).expected_tools[0].args.units: is shared "
        "through a YAML anchor or merge key (<<); change it by hand",
    ]


def test_an_anchor_used_nowhere_else_is_an_ordinary_value(tmp_path: Path) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools: [{name: f, args: &one {n: 1}}]\n"
    result, text = update(tmp_path, spec, run("a", [call("f", n=2)]))
    assert text == spec.replace("n: 1", "n: 2")
    assert result.returncode == 0


def test_windows_line_endings_stay(tmp_path: Path) -> None:
    spec = "test_cases:\r\n  - name: a\r\n    expected_tools:\r\n      - name: f\r\n        exact: true\r\n        args:\r\n          n: 1\r\n"
    result, text = update(tmp_path, spec, run("a", [call("f", n=2, m=3)]))
    assert text == spec.replace("n: 1\r\n", "n: 2\r\n          m: 3\r\n")
    assert result.returncode == 0


# JSON -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("indent", [2, 4])
def test_a_json_spec_is_written_with_its_indentation(tmp_path: Path, indent: int) -> None:
    data = {
        "test_cases": [
            {"name": "a", "expected_tools": [{"name": "f", "args": {"q": "café", "n": 1}}]}
        ]
    }
    result, text = update(
        tmp_path,
        json.dumps(data, indent=indent, ensure_ascii=False) + "\n",
        run("a", [call("f", q="thé", n=1)]),
        name="spec.json",
    )
    data["test_cases"][0]["expected_tools"][0]["args"]["q"] = "thé"
    assert text == json.dumps(data, indent=indent, ensure_ascii=False) + "\n"
    assert result.returncode == 0


def test_a_json_spec_is_written_as_strict_json(tmp_path: Path) -> None:
    # A recorded 1e400 is an infinity: JSON has no word for it, so it is written as
    # record writes it, the number 1e400, never as Infinity.
    spec = '{"test_cases": [{"name": "a", "expected_tools": [{"name": "f", "args": {"v": 1}}]}]}\n'
    traces = tmp_path / "traces.jsonl"
    traces.write_text(
        '{"case": "a", "turns": [[{"name": "f", "args": {"v": 1e400}}]]}\n', encoding="utf-8"
    )
    path = tmp_path / "spec.json"
    path.write_text(spec, encoding="utf-8")
    result = toolmatch("check", path, traces, "--update", "fix")
    assert path.read_text(encoding="utf-8") == spec.replace('"v": 1', '"v": 1e400')
    assert result.returncode == 0, result.stderr
    json.loads(path.read_text(encoding="utf-8"), parse_constant=pytest.fail)  # strict JSON


# The command ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["1", "true", "yes"])
def test_on_ci_the_update_is_refused(tmp_path: Path, value: str) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n")
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)])))
    before = spec.read_bytes()
    refused = toolmatch("check", spec, traces, "--update", "fix", env={**QUIET_ENV, "CI": value})
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (
        "toolmatch: --update does not change the spec on CI (CI is set in the environment); "
        "update it on your machine and commit it, or pass --update-in-ci\n"
    )
    assert spec.read_bytes() == before
    allowed = toolmatch(
        "check", spec, traces, "--update", "fix", "--update-in-ci", env={**QUIET_ENV, "CI": value}
    )
    assert allowed.returncode == 0
    assert (
        spec.read_text()
        == "test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 2}}]\n"
    )


@pytest.mark.parametrize("value", ["", "false"])
def test_ci_empty_or_false_is_not_ci(tmp_path: Path, value: str) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n")
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)])))
    result = toolmatch("check", spec, traces, "--update", "fix", env={**QUIET_ENV, "CI": value})
    assert result.returncode == 0
    assert "n: 2" in spec.read_text()


def test_a_read_only_spec_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n")
    spec.chmod(0o444)
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)])))
    before = spec.read_bytes()
    result = toolmatch("check", spec, traces, "--update", "fix")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"toolmatch: cannot update the spec {spec}: it is read-only\n"
    assert spec.read_bytes() == before
    assert sorted(path.name for path in tmp_path.iterdir()) == ["spec.yaml", "traces.jsonl"]


def test_the_file_keeps_its_mode_and_a_link_keeps_pointing_at_it(tmp_path: Path) -> None:
    real = tmp_path / "real.yaml"
    real.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n")
    real.chmod(0o640)
    link = tmp_path / "spec.yaml"
    link.symlink_to(real)
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)])))
    result = toolmatch("check", link, traces, "--update", "fix")
    assert result.returncode == 0
    assert link.is_symlink()
    assert "n: 2" in real.read_text()
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "real.yaml",
        "spec.yaml",
        "traces.jsonl",
    ]


def test_traces_from_standard_input_are_read_for_the_update_and_the_check(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n")
    result = toolmatch(
        "check",
        spec,
        "-",
        "--update",
        "fix",
        "--format",
        "json",
        stdin=jsonl(run("a", [call("f", n=2)])),
    )
    assert result.returncode == 0
    assert json.loads(result.stdout.splitlines()[-1])["passed"] == 1
    assert "n: 2" in spec.read_text()


def test_without_update_the_spec_is_never_written(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n")
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)])))
    result = toolmatch("check", spec, traces)
    assert result.returncode == 1
    assert "n: 1" in spec.read_text()


def test_an_unknown_mode_is_bad_usage(tmp_path: Path) -> None:
    result = toolmatch("check", "spec.yaml", "traces.jsonl", "--update", "everything")
    assert result.returncode == 2
    assert "argument --update: invalid choice: 'everything'" in result.stderr


def test_removed_keys_take_their_separators_and_lines_with_them(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    expected_tools:
      - {name: f, exact: true, args: {a: 1, b: 2, c: 3}}
      - name: g
        exact: true
        args:
          items:
            - id: 1          # gone
              gone: 2
              name: x
          last: 1
          tail: 2            # gone too
"""
    recorded = [call("f", a=1, c=3), call("g", items=[{"name": "x"}], last=1)]
    result, text = update(tmp_path, spec, run("a", recorded))
    assert (
        text
        == """\
test_cases:
  - name: a
    expected_tools:
      - {name: f, exact: true, args: {a: 1, c: 3}}
      - name: g
        exact: true
        args:
          items:
            - name: x
          last: 1
"""
    )
    assert result.returncode == 0, result.stdout


def test_an_empty_value_and_a_yml_suffix(tmp_path: Path) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools:\n      - name: f\n        args:\n          x:\n"
    result, text = update(tmp_path, spec, run("a", [call("f", x="set")]), name="spec.yml")
    assert text == spec.replace("x:\n", "x: set\n")
    assert result.returncode == 0


def test_a_value_no_spec_can_hold_is_reported(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n")
    traces = tmp_path / "traces.jsonl"
    traces.write_text('{"case": "a", "turns": [[{"name": "f", "args": {"n": NaN}}]]}\n')
    before = spec.read_bytes()
    result = toolmatch("check", spec, traces, "--update", "fix")
    assert spec.read_bytes() == before
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](a).expected_tools[0].args.n: the recorded nan "
        "cannot be written in a spec",
    ]
    assert result.returncode == 1


# New cases --------------------------------------------------------------------------------------

ORDER_RUNS = [
    run(
        "order_status",
        [call("lookup_order", order_id="ORD-20931", verbose="yes")],
        [call("notify", at="2026-12-01T10:00:00Z"), call("log")],
    ),
    run(
        "order_status",
        [call("lookup_order", order_id="ORD-11", verbose="yes")],
        [call("notify", at="2026-12-01T11:00:00Z"), call("log")],
    ),
]


def test_new_adds_the_cases_the_spec_lacks_indented_as_the_file_is(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: weather          # by hand
    expected_tools:
      - name: get_weather
        args: {city: {fuzzy: "New York"}}

  - name: other
    expected_tools: [lookup]
"""
    runs = [
        run("weather", [call("get_weather", city="new york")]),
        *ORDER_RUNS,
        run("ping", [call("ping", host="a")]),
        run("other", [call("search")]),  # fails, and new does not fix it
    ]
    result, text = update(tmp_path, spec, *runs, mode="new")
    assert (
        text
        == spec
        + """\

  - name: order_status  # recorded from 2 runs
    turns:
      - exhaustive: true
        expected_tools:
          - name: {$literal: lookup_order}
            exact: true
            args:
              order_id: {regex: 'ORD-[0-9]+'}  # observed: "ORD-20931", "ORD-11"; rule: id-shape
              verbose: 'yes'
      - ordered: true
        exhaustive: true
        expected_tools:
          - name: {$literal: notify}
            exact: true
            args:
              at: {$datetime: {tz_aware: true}}  # observed: "2026-12-01T10:00:00Z", "2026-12-01T11:00:00Z"; rule: datetime
          - name: {$literal: log}
            exact: true

  - name: ping
    exhaustive: true
    expected_tools:
      - name: {$literal: ping}
        exact: true
        args:
          host: a
"""
    )
    assert result.stdout.splitlines() == [
        "PASS weather",
        "PASS order_status",
        "PASS order_status (run 2)",
        "PASS ping",
        "FAIL other",
        "  turn 0, expected_tools[0]: ExpectedTool('lookup')",
        "    expected 1 matching call(s), got 0: no call's name contains 'lookup'; the turn called 'search'",
        "TRIALS weather: 1/1 passed, pass^1 1.000",
        "TRIALS other: 0/1 passed, pass^1 0.000",
        "TRIALS order_status: 2/2 passed, pass^1 1.000, pass^2 1.000",
        "TRIALS ping: 1/1 passed, pass^1 1.000",
        "TRIALS mean over 4 cases: pass^1 0.750, pass^2 1.000 (1 case)",
        "4 passed, 1 failed",
    ]
    assert result.returncode == 1


def test_new_follows_a_file_whose_lists_are_not_indented(tmp_path: Path) -> None:
    spec = "test_cases:\n- name: a\n  expected_tools:\n  - f\n"
    result, text = update(
        tmp_path, spec, run("a", [call("f")]), run("b", [call("g", n=1)]), mode="new"
    )
    assert text == spec + (
        "- name: b\n"
        "  exhaustive: true\n"
        "  expected_tools:\n"
        "  - name: {$literal: g}\n"
        "    exact: true\n"
        "    args:\n"
        "      'n': 1\n"  # YAML 1.1 rules (toolmatch record's) quote n, y, yes, on
    )
    assert result.returncode == 0


def test_new_in_a_flow_list_and_in_json(tmp_path: Path) -> None:
    runs = [run("a", [call("f")]), run("b", [call("g", n=1)]), run("b", [call("g", n=2)])]
    result, text = update(
        tmp_path, "test_cases: [{name: a, expected_tools: [f]}]   # flow\n", *runs, mode="new"
    )
    assert text == (
        "test_cases: [{name: a, expected_tools: [f]}, {name: b, exhaustive: true, expected_tools: "
        "[{name: {$literal: g}, exact: true, args: {n: {$between: [0, 57]}}}]}]   # flow\n"
    )
    assert result.returncode == 0
    data = {"test_cases": [{"name": "a", "expected_tools": ["f"]}]}
    result, text = update(
        tmp_path, json.dumps(data, indent=2) + "\n", *runs, mode="new", name="spec.json"
    )
    data["test_cases"].append(
        {
            "name": "b",
            "exhaustive": True,
            "expected_tools": [
                {"name": {"$literal": "g"}, "exact": True, "args": {"n": {"$between": [0, 57]}}}
            ],
        }
    )
    assert text == json.dumps(data, indent=2) + "\n"
    assert result.returncode == 0


def test_a_new_case_with_no_turn_is_not_added(tmp_path: Path) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools: [f]\n"
    result, text = update(
        tmp_path, spec, run("a", [call("f")]), {"case": "empty", "turns": []}, mode="new"
    )
    assert text == spec
    assert result.stderr == (
        "toolmatch: not added: test_cases[1](empty): case 'empty': no run has a turn; a case "
        "needs at least one\n"
    )


def test_a_new_case_after_a_case_that_ends_with_an_alias_is_reported(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: a
    expected_tools: &tools [f]
  - name: b
    expected_tools: *tools
"""
    result, text = update(tmp_path, spec, run("c", [call("g")]), mode="new")
    assert text == spec
    assert result.stderr == (
        "toolmatch: not added: test_cases: ends with a YAML alias; change the spec by hand\n"
    )


def test_all_fixes_and_adds_and_a_second_all_changes_nothing(tmp_path: Path) -> None:
    spec = BLOCK_SPEC
    runs = [
        run(
            "weather",
            [call("get_weather", city="Lyon", days=4, units="metric", lang="en", note="one")],
        ),
        run("other", [call("lookup_order")]),
        *ORDER_RUNS,
    ]
    result, text = update(tmp_path, spec, *runs, mode="all")
    assert "          city: Lyon        # the city asked for\n" in text
    assert text.endswith("          - name: {$literal: log}\n            exact: true\n")
    assert result.returncode == 0
    again = toolmatch("check", tmp_path / "spec.yaml", tmp_path / "traces.jsonl", "--update", "all")
    assert (again.returncode, again.stderr) == (0, "")
    assert (tmp_path / "spec.yaml").read_text() == text
    # fix alone adds nothing; new alone fixes nothing.
    fixed = update(tmp_path, spec, *runs, mode="fix")[1]
    assert "order_status" not in fixed
    assert "city: Lyon" in fixed
    added = update(tmp_path, spec, *runs, mode="new")[1]
    assert "order_status" in added
    assert "city: Paris" in added


def test_a_lone_surrogate_is_reported_not_written(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {q: x}}]\n")
    traces = tmp_path / "traces.jsonl"
    traces.write_text('{"case": "a", "turns": [[{"name": "f", "args": {"q": "\\ud800"}}]]}\n')
    before = spec.read_bytes()
    result = toolmatch("check", spec, traces, "--update", "fix")
    assert spec.read_bytes() == before
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](a).expected_tools[0].args.q: the recorded "
        "'\\ud800' cannot be written in a spec",
    ]


# Any literal arguments, any recorded ones -------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["a", "regex", "$x", "b"]), inner, max_size=3)
    ),
    max_leaves=6,
)
ARGS = st.dictionaries(st.sampled_from(["q", "n", "yes", "12:30", "x y"]), JSON_VALUES, max_size=4)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(expected=ARGS, recorded=ARGS, exact=st.booleans(), flow=st.booleans())
def test_fix_makes_any_literal_spec_pass_its_run_and_touches_nothing_else(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    expected: dict[str, object],
    recorded: dict[str, object],
    exact: bool,
    flow: bool,
) -> None:
    import yaml

    from toolmatch._cli.main import main

    monkeypatch.delenv("CI", raising=False)
    tool = {
        "name": "f",
        "exact": exact,
        "args": {key: escaped(value) for key, value in expected.items()},
    }
    case = yaml.safe_dump(
        {"name": "a", "expected_tools": [tool]},
        default_flow_style=flow,
        allow_unicode=True,
        sort_keys=False,
    )
    first, *rest = case.splitlines()  # the case as the first item of test_cases
    kept = "  # kept as it is\n  - name: b   # untouched\n    expected_tools: [g]\n"
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"test_cases:\n  - {first}\n" + "".join(f"    {line}\n" for line in rest) + kept,
        encoding="utf-8",
    )
    traces = tmp_path / "traces.jsonl"
    traces.write_text(
        jsonl(run("a", [call("f", **recorded)]), run("b", [call("g")])), encoding="utf-8"
    )
    status = main(["check", str(spec), str(traces), "--update", "fix"])
    out, err = capsys.readouterr()
    assert (status, out.splitlines()[-1]) == (0, "2 passed, 0 failed"), err
    text = spec.read_text(encoding="utf-8")
    assert text.endswith(kept)
    assert main(["check", str(spec), str(traces), "--update", "fix"]) == 0
    assert capsys.readouterr().err == ""
    assert spec.read_text(encoding="utf-8") == text


def test_jobs_and_the_junit_report_check_the_updated_spec(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n")
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)]), run("a", [call("f", n=2)])))
    report = tmp_path / "report.xml"
    result = toolmatch(
        "check", spec, traces, "--update", "fix", "--jobs", "2", "--junit-xml", report
    )
    assert (result.returncode, result.stdout) == (
        0,
        "PASS a\nPASS a (run 2)\nTRIALS a: 2/2 passed, pass^1 1.000, pass^2 1.000\n"
        "TRIALS mean over 1 case: pass^1 1.000, pass^2 1.000\n2 passed, 0 failed\n",
    )
    assert 'tests="2" failures="0" errors="0"' in report.read_text()


def test_new_cases_come_in_the_order_their_names_first_appear(tmp_path: Path) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools: [f]\n"
    names = ["zeta", "alpha", "mid", "beta"]
    runs = [run("a", [call("f")]), *(run(name, [call("g")]) for name in names)]
    result, text = update(tmp_path, spec, *runs, *reversed(runs[1:]), mode="new")
    assert [line for line in text.splitlines() if line.startswith("  - name: ")] == [
        "  - name: a",
        *(f"  - name: {name}  # recorded from 2 runs" for name in names),
    ]
    assert result.returncode == 0


def test_every_matcher_form_beside_a_fixed_literal_stays_byte_for_byte(tmp_path: Path) -> None:
    spec = """\
test_cases:
  - name: forms
    expected_tools:
      - name: {regex: 'get_.*', ignore_case: true}
        args:
          a: {$literal: Paris, case_insensitive: true}
          b: {$contains: damaged}
          c: {$type: [str, null]}
          d: {$partial: {q: paris}}
          e: {$not: {regex: 'DROP.*'}}
          f: {$all_of: [{$type: str}, {regex: 'a.*'}]}
          g: {$maybe: 20}
          h: {$gt: 0}
          i: {$between: [1, 50]}
          j: {$unordered: [x, {regex: 'y.*'}]}
          k: {$each: {$ge: 1}}
          l: {$len: {$le: 3}}
          m: {$starts_with: "weather in"}
          n: {$uuid: true}
          o: {$email: true}
          p: {$json: {status: open}}
          q: {fuzzy: "206,588"}
          r:
            - {$any: true}
            - {$approx: 42.5, abs: 0.01}
          note: old          # the only literal
"""
    recorded = call(
        "GET_weather",
        a="PARIS",
        b="arrived damaged",
        c=None,
        d={"q": "paris", "limit": 5},
        e="SELECT 1",
        f="abc",
        h=1,
        i=20,
        j=["yes", "x"],
        k=[1, 2],
        l=[1],
        m="weather in Paris",
        n="12345678-1234-4234-8234-123456789012",
        o="ada@example.com",
        p='{"status": "open"}',
        q=206588,
        r=[None, 42.505],
        note="new",
    )
    result, text = update(tmp_path, spec, run("forms", [recorded]))
    assert text == spec.replace("note: old ", "note: new ")
    assert (result.returncode, not_fixed(result)) == (0, [])


# Hardening v3 (issue 29): valid specs, strings with line breaks, merges, the transaction ----


def test_exact_with_an_empty_args_takes_the_recorded_arguments(tmp_path: Path) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools:\n      - name: f\n        exact: true\n        args:\n"
    result, text = update(tmp_path, spec, run("a", [call("f", n=1)]))
    assert text == spec.replace("args:\n", "args: {n: 1}\n")
    assert result.returncode == 0


RECORDED_EXPLICIT = """\
test_cases:
- name: a
  expected_tools:
  - name: f
    exact: true
    args:
      ? "a\\nb"
      : 1
      'y': 2
"""


def test_explicit_keys_are_removed_whole_and_added_beside(tmp_path: Path) -> None:
    result, text = update(tmp_path, RECORDED_EXPLICIT, run("a", [call("f", y=2)]))
    assert text == RECORDED_EXPLICIT.replace('      ? "a\\nb"\n      : 1\n', "")
    assert result.returncode == 0
    result, text = update(
        tmp_path, RECORDED_EXPLICIT, run("a", [call("f", **{"a\nb": 1, "y": 2, "z": 3})])
    )
    assert text == RECORDED_EXPLICIT + "      z: 3\n"
    assert result.returncode == 0


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ("a\nb", r'"a\nb"'),
        ("a\tb", r'"a\tb"'),
        ("a\rb", r'"a\rb"'),
        ("a\u2028b", r'"a\Lb"'),
        ("a\x85b", r'"a\Nb"'),
    ],
)
def test_a_new_case_holding_a_line_break_is_added_with_the_other_fixes(
    tmp_path: Path, value: str, written: str
) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n"
    result, text = update(
        tmp_path, spec, run("a", [call("f", n=2)]), run("b", [call("g", body=value)]), mode="all"
    )
    assert text == spec.replace("n: 1", "n: 2") + (
        "  - name: b\n"
        "    exhaustive: true\n"
        "    expected_tools:\n"
        "      - name: {$literal: g}\n"
        "        exact: true\n"
        "        args:\n"
        f"          body: {written}\n"
    )
    assert result.returncode == 0


def test_a_replaced_block_holding_a_nel_keeps_it(tmp_path: Path) -> None:
    spec = "test_cases:\n  - name: a\n    expected_tools:\n      - name: f\n        args:\n          x:\n            - 1\n            - 2\n"
    result, text = update(tmp_path, spec, run("a", [call("f", x={"k": "a\x85b"})]))
    assert text == spec.replace("            - 1\n            - 2\n", '            k: "a\\Nb"\n')
    assert result.returncode == 0


MERGED = """\
test_cases:
  - name: a
    expected_tools:
      - name: f
        exact: true
        args: &shared
          x: 1
      - name: g
        exact: true
        args:
          <<: *shared
          z: 3
"""


def test_a_mapping_merged_elsewhere_is_reported_and_the_other_fixes_made(tmp_path: Path) -> None:
    result, text = update(tmp_path, MERGED, run("a", [call("f", x=1, w=1), call("g", x=1, z=4)]))
    assert text == MERGED.replace("z: 3", "z: 4")
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](a).expected_tools[0].args: is shared through a "
        "YAML anchor or merge key (<<); change it by hand"
    ]
    assert result.returncode == 1


def test_a_literal_brought_in_by_a_merge_key_is_reported(tmp_path: Path) -> None:
    result, text = update(tmp_path, MERGED, run("a", [call("f", x=1), call("g", z=3)]))
    assert text == MERGED
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](a).expected_tools[1].args: 'x' is brought in by "
        "a merge key (<<); change it by hand"
    ]
    assert result.returncode == 1


def test_a_flow_mapping_keeps_each_comment_with_its_pair(tmp_path: Path) -> None:
    spec = (
        "test_cases:\n  - name: a\n    expected_tools:\n      - name: f\n        exact: true\n"
        "        args: {x: 1,  # the x\n               y: 2,  # the y\n               z: 3}  # the z\n"
    )
    result, text = update(tmp_path, spec, run("a", [call("f", x=1, y=2)]))
    assert text == spec.replace(
        "y: 2,  # the y\n               z: 3}  # the z\n", "y: 2  # the y\n               }\n"
    )
    assert result.returncode == 0


def test_a_json_spec_keeps_its_windows_line_endings(tmp_path: Path) -> None:
    data = {"test_cases": [{"name": "a", "expected_tools": [{"name": "f", "args": {"n": 1}}]}]}
    spec = json.dumps(data, indent=2).replace("\n", "\r\n") + "\r\n"
    result, text = update(tmp_path, spec, run("a", [call("f", n=2)]), name="spec.json")
    assert text == spec.replace('"n": 1', '"n": 2')
    assert result.returncode == 0


def test_the_diff_splits_lines_only_at_line_feeds(tmp_path: Path) -> None:
    spec = "# a\u2028# b\x85# c\ntest_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n"
    result, text = update(tmp_path, spec, run("a", [call("f", n=2)]))
    assert text == spec.replace("n: 1", "n: 2")
    assert (
        diff_of(result)[2:]
        == [
            "@@ -1,4 +1,4 @@",
            r" # a\u2028# b\x85# c",
            " test_cases:",
            "   - name: a",
            "-    expected_tools: [{name: f, args: {n: 1}}]",
            "+    expected_tools: [{name: f, args: {n: 2}}]",
            "PASS a",
            "1 passed, 0 failed",
        ][: len(diff_of(result)) - 2]
    )


def test_a_linked_spec_with_a_relative_tools_path_is_updated(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    definition = {"name": "f", "parameters": {"type": "object", "properties": {"n": {}}}}
    (tmp_path / "defs.json").write_text(json.dumps([definition]))
    real = tmp_path / "real" / "spec.yaml"
    spec = "test_cases:\n  - name: a\n    tools: defs.json\n    expected_tools: [{name: f, args: {n: 1}}]\n"
    real.write_text(spec)
    link = tmp_path / "spec.yaml"
    link.symlink_to(real)
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)])))
    result = toolmatch("check", link, traces, "--update", "fix")
    assert real.read_text() == spec.replace("n: 1", "n: 2")
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "defs.json",
        "real",
        "spec.yaml",
        "traces.jsonl",
    ]


TWO_CASES = "test_cases:\n  - name: a\n    expected_tools: [{name: f, args: {n: 1}}]\n"


def test_with_traces_on_stdin_the_spec_is_read_once_they_end(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(TWO_CASES)
    process = subprocess.Popen(
        [sys.executable, "-m", "toolmatch", "check", spec, "-", "--update", "fix"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=QUIET_ENV,
    )
    assert process.stdin is not None
    process.stdin.write(jsonl(run("a", [call("g", n=1), call("f", n=2)])))
    process.stdin.flush()
    time.sleep(1)  # the command has loaded the spec and waits for the end of its input
    # An expectation put before f: the fix planned on the spec read at the start would
    # land on it.
    edited = TWO_CASES.replace("[{name: f,", "[{name: g, args: {n: 1}}, {name: f,")
    spec.write_text(edited)  # saved by hand while the traces are read
    _, stderr = process.communicate(timeout=60)
    assert spec.read_text() == edited.replace("f, args: {n: 1}", "f, args: {n: 2}")
    assert process.returncode == 0, stderr


def test_an_update_waits_for_the_lock_of_another(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(TWO_CASES)
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)])))
    with spec.open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        process = subprocess.Popen(
            [sys.executable, "-m", "toolmatch", "check", spec, traces, "--update", "fix"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=QUIET_ENV,
        )
        assert process.stderr is not None
        assert (
            process.stderr.readline() == f"toolmatch: waiting for another update of {spec} to end\n"
        )
        # The other update renames its spec over this one, then lets go of its lock.
        other = tmp_path / "other.yaml"
        other.write_text(TWO_CASES + "  - name: b\n    expected_tools: [g]\n")
        other.replace(spec)
    process.communicate(timeout=60)
    assert spec.read_text() == (TWO_CASES + "  - name: b\n    expected_tools: [g]\n").replace(
        "n: 1", "n: 2"
    )
    assert process.returncode == 1  # b has no run


# Saved by hand right before the rename: the writer of the new file does it.
SAVED_BY_HAND = """
import sys
from toolmatch._cli import update

written, where = update._temporary, sys.argv.pop(1)

def _temporary(beside, content, made):
    path = written(beside, content, made)
    with open(where, "ab") as spec:
        spec.write(b"# saved by hand\\n")
    return path

update._temporary = _temporary
from toolmatch._cli.main import main
raise SystemExit(main())
"""


def test_a_spec_changed_before_the_rename_is_left_as_it_was_saved(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(TWO_CASES)
    traces = tmp_path / "traces.jsonl"
    traces.write_text(jsonl(run("a", [call("f", n=2)])))
    result = subprocess.run(
        [sys.executable, "-c", SAVED_BY_HAND, spec, "check", spec, traces, "--update", "fix"],
        capture_output=True,
        text=True,
        env=QUIET_ENV,
        timeout=60,
        check=False,
    )
    assert result.stderr == (
        f"toolmatch: cannot update the spec {spec}: it changed since it was read (saved by "
        "hand?); run the update again; the spec is unchanged\n"
    )
    assert result.returncode == 2
    assert spec.read_text() == TWO_CASES + "# saved by hand\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["spec.yaml", "traces.jsonl"]


def test_a_parquet_value_a_spec_cannot_hold_is_not_fixed_and_the_rest_is(tmp_path: Path) -> None:
    # Before: a timestamp column under --update fix ended in a TypeError traceback.
    pa = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    import datetime

    when = datetime.datetime(2026, 1, 1, 12, 0)
    calls = [[{"name": "book", "args": {"when": when, "seats": 2}}]]
    parquet.write_table(pa.table({"case": ["b"], "turns": [calls]}), tmp_path / "runs.parquet")
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n  - name: b\n    expected_tools:\n"
        "      - name: book\n        args: {when: '2025', seats: 1}\n",
        encoding="utf-8",
    )
    result = toolmatch("check", spec, tmp_path / "runs.parquet", "--update", "fix")
    assert result.returncode == 1, result.stderr
    assert not_fixed(result) == [
        "toolmatch: not fixed: test_cases[0](b).expected_tools[0].args.when: the recorded "
        "datetime.datetime(2026, 1, 1, 12, 0) cannot be written in a spec"
    ]
    assert spec.read_text(encoding="utf-8") == (
        "test_cases:\n  - name: b\n    expected_tools:\n"
        "      - name: book\n        args: {when: '2025', seats: 2}\n"
    )


def test_the_last_lines_of_the_last_case_removed_while_a_case_is_added(tmp_path: Path) -> None:
    # Before: the removed lines took the line break a new case is added before, and the
    # update was refused as "a bug in toolmatch" (found by tests/test_update_fuzz.py).
    spec = (
        "test_cases:\n  - name: a\n    expected_tools:\n      - name: f\n"
        "        exact: true\n        args:\n          x: 0\n          y: 0\n"
    )
    result, text = update(
        tmp_path, spec, run("a", [call("f", x=0)]), run("b", [call("g")]), mode="all"
    )
    assert text == spec.replace("          y: 0\n", "") + (
        "  - name: b\n"
        "    exhaustive: true\n"
        "    expected_tools:\n"
        "      - name: {$literal: g}\n"
        "        exact: true\n"
    )
    assert result.returncode == 0, result.stderr


def test_a_block_written_anew_in_a_windows_file_has_its_line_endings(tmp_path: Path) -> None:
    # Before: the new block's lines ended in LF alone (found by tests/test_update_fuzz.py).
    spec = "test_cases:\r\n  - name: a\r\n    expected_tools:\r\n      - name: f\r\n        exact: true\r\n        args:\r\n          n: 1\r\n"
    result, text = update(tmp_path, spec, run("a", [call("f", w=[0, 1])]))
    assert text == spec.replace("n: 1\r\n", "w:\r\n          - 0\r\n          - 1\r\n")
    assert result.returncode == 0
