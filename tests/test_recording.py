"""Cases recorded from runs (``toolmatch._authoring.recording``): what one run writes, how values that vary
across runs are loosened, and that the spec never fails a run it was recorded from."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strategies import json_values, keys
from toolmatch import NotRecordedError, TestCase, ToolCall, load_test_cases
from toolmatch._authoring.recording import (
    calls_of_run,
    kept_turn_count,
    recorded_case,
    recorded_spec,
)
from toolmatch._authoring.splicing import SpecText
from toolmatch._authoring.update_plan import apply_to_data
from toolmatch._authoring.widening import widening
from toolmatch._calls.definitions import read_tool_definitions
from toolmatch._spec.writing import NEEDS_RUAMEL, plain_data, spec_text

yaml = pytest.importorskip("yaml")

Runs = list[list[list[ToolCall]]]


def passes_or_cannot_say(case: TestCase, run: list[list[ToolCall]]) -> bool:
    """Whether ``case`` passes ``run``, or cannot judge it: a run whose calls of one tool
    record an agent or status and others not cannot meet an assertion that caps them
    (docs/selection.md, "Fields the input does not record"); never a failure."""
    try:
        return case.passes(run)
    except NotRecordedError:
        unsaid = [
            call for turn in run for call in turn if call.agent is None or call.status is None
        ]
        return bool(unsaid)


def written(*cases: Any) -> str:
    return spec_text(recorded_spec(cases))


def loaded(text: str) -> Any:
    return {case.name: case for case in load_test_cases(yaml.safe_load(text))}


def args_of(runs: list[dict[str, Any]]) -> str:
    """The args block written for one call ``f`` recorded with these arguments in each run,
    dedented."""
    text = written(recorded_case("c", [[[ToolCall("f", args)]] for args in runs]))
    return textwrap.dedent(text.split("    args:\n", 1)[1])


def test_one_run_is_written_as_recorded() -> None:
    run = [
        [ToolCall("search_flights", {"from": "FRA", "to": "JFK", "passengers": 2})],
        [ToolCall("hold_seat", {"seat": "14C"}), ToolCall("book", {})],
        [],
    ]
    text = written(recorded_case("book_flight", [run]))
    assert text == textwrap.dedent("""\
        test_cases:
        - name: book_flight
          turns:
          - exhaustive: true
            expected_tools:
            - name: {$literal: search_flights}
              exact: true
              args:
                from: FRA
                to: JFK
                passengers: 2
          - ordered: true
            exhaustive: true
            expected_tools:
            - name: {$literal: hold_seat}
              exact: true
              args:
                seat: 14C
            - name: {$literal: book}
              exact: true
          - exhaustive: true
            expected_tools: []
        """)
    case = loaded(text)["book_flight"]
    assert case.passes(run)
    assert not case.passes([run[0], run[1][::-1], []])  # another order
    assert not case.passes([run[0], run[1], [ToolCall("cancel", {})]])  # a call not recorded
    assert not case.passes([run[0], [*run[1][:1], ToolCall("book", {"x": 1})], []])  # exact


def test_a_single_turn_case_has_its_keys_on_the_case() -> None:
    text = written(recorded_case("lookup", [[[ToolCall("get_weather", {"city": "Paris"})]]]))
    assert text == textwrap.dedent("""\
        test_cases:
        - name: lookup
          exhaustive: true
          expected_tools:
          - name: {$literal: get_weather}
            exact: true
            args:
              city: Paris
        """)


def test_values_that_read_as_matchers_or_as_other_yaml_types_are_written_to_read_back() -> None:
    args = {
        "filter": {"regex": "a.*"},
        "price": {"$gt": 3},
        "answer": "yes",
        "time": "12:30",
        "zip": "01234",
        "day": "2026-01-02",
        "empty": "",
        "text": "two\nlines \u2028",
        "breaks": [
            "a\x85b",
            "c\u2029d",
            {"e\x85": "\x1b[2J"},
        ],  # read as line breaks unless escaped
        "next\x85line": 1,
        "big": 10**30,
        "none": None,
    }
    run = [[ToolCall("f", args)]]
    text = written(recorded_case("c", [run]))
    assert "      filter: {$literal: {regex: a.*}}\n" in text
    assert "      price: {$literal: {$gt: 3}}\n" in text
    assert "      answer: 'yes'\n" in text
    assert '      - "a\\Nb"\n      - "c\\Pd"\n' in text  # escaped, as YAML reads them back
    assert loaded(text)["c"].passes(run)


def test_nan_is_written_as_its_type() -> None:
    assert args_of([{"x": float("nan")}]) == "x: {$type: float}  # observed: NaN; rule: nan\n"


def test_unreadable_arguments_are_not_asserted() -> None:
    run = [[ToolCall("f", {}, parse_error="Expecting value: line 1 column 1 (char 0)")]]
    text = written(recorded_case("c", [run]))
    assert text.endswith(
        "  - name: {$literal: f}  # arguments not asserted: unreadable in 1 of 1 run(s): "
        '"Expecting value: line 1 column 1 (ch...\n'
    )
    assert loaded(text)["c"].passes(run)


# Loosening across runs ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "line"),
    [
        ([3, 5, 4], "{$between: [0, 16]}  # observed: 3, 5, 4; rule: prediction-interval"),
        ([40, 41, 43], "{$between: [23, 59]}  # observed: 40, 41, 43; rule: prediction-interval"),
        (
            [40, 41, 43, 40, 42],
            "{$between: [34, 48]}  # observed: 40, 41, 43, 42; rule: prediction-interval",
        ),
        (
            [39.99, 40.01],
            "{$between: [38.89, 41.11]}  # observed: 39.99, 40.01; rule: prediction-interval",
        ),
        ([48213, 50877, 91002], "{$type: int}  # observed: 48213, 50877, 91002; rule: id-number"),
        (
            [3.14, 3.1416, 3.14159],
            "{$approx: 3.14, abs: 0.005}  # observed: 3.14, 3.1416, 3.14159; rule: rounding",
        ),
        (
            [0.3, 0.30000000000000004],
            "{$approx: 0.3, abs: 0.05}  # observed: 0.3, 0.30000000000000004; rule: rounding",
        ),
        ([2, 2.5], "{$between: [0.0, 29.9]}  # observed: 2, 2.5; rule: prediction-interval"),
        ([3, 3.2], "{$between: [0.0, 14.2]}  # observed: 3, 3.2; rule: prediction-interval"),
        ([2.5, 2.46], "{$approx: 2.5, abs: 0.05}  # observed: 2.5, 2.46; rule: rounding"),
        (
            ["6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "0c1d2e3f-3b4d-4e5f-8a9b-6f1c0e2a4a5b"],
            '{$uuid: 4}  # observed: "6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "0c1d2e3f-3b4d-4e5f-8a9b-6f1c0e2a4a5b"; rule: uuid',
        ),
        (
            ["6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "6f1c0e2a-3b4d-1e5f-8a9b-0c1d2e3f4a5b"],
            '{$uuid: true}  # observed: "6f1c0e2a-3b4d-4e5f-8a9b-0c1d2e3f4a5b", "6f1c0e2a-3b4d-1e5f-8a9b-0c1d2e3f4a5b"; rule: uuid',
        ),
        (
            ["6f1c0e2a-3b4d-df5f-8a9b-0c1d2e3f4a5b", "6f1c0e2a-3b4d-df5f-8a9b-0c1d2e3f4a5c"],
            '{$uuid: true}  # observed: "6f1c0e2a-3b4d-df5f-8a9b-0c1d2e3f4a5b", "6f1c0e2a-3b4d-df5f-8a9b-0c1d2e3f4a5c"; rule: uuid',
        ),
        (
            ["2026-12-01T10:00:00Z", "2026-12-02T11:30:00+01:00"],
            '{$datetime: {tz_aware: true}}  # observed: "2026-12-01T10:00:00Z", "2026-12-02T11:30:00+01:00"; rule: datetime',
        ),
        (
            ["2026-12-01T10:00:00", "2026-12-02T11:30:00"],
            '{$datetime: {tz_aware: false}}  # observed: "2026-12-01T10:00:00", "2026-12-02T11:30:00"; rule: datetime',
        ),
        (
            ["2026-12-01T10:00:00", "2026-12-02T11:30:00Z"],
            '{$datetime: true}  # observed: "2026-12-01T10:00:00", "2026-12-02T11:30:00Z"; rule: datetime',
        ),
        (
            ["2026-12-01", "2026-12-24"],
            '{$date: true}  # observed: "2026-12-01", "2026-12-24"; rule: date',
        ),
        (
            ["ORD-20931", "ORD-11230"],
            '{regex: \'ORD-[0-9]{5}\'}  # observed: "ORD-20931", "ORD-11230"; rule: id-shape',
        ),
        (
            ["ORD-7", "ORD-11230"],
            '{regex: \'ORD-[0-9]+\'}  # observed: "ORD-7", "ORD-11230"; rule: id-shape',
        ),
        (["Paris", "Rome"], '{$type: str}  # observed: "Paris", "Rome"; rule: any-string'),
        (
            ["a1b2c3", "9f8e7d"],
            '{regex: \'[0-9a-f]{6}\'}  # observed: "a1b2c3", "9f8e7d"; rule: id-shape',
        ),
        (["x9Q", "AbC"], '{$type: str}  # observed: "x9Q", "AbC"; rule: any-string'),
        (
            ["call_abc123", "call_x9"],
            '{regex: \'call_[0-9a-z]+\'}  # observed: "call_abc123", "call_x9"; rule: id-shape',
        ),
        (
            ["call_abc-1", "call_x"],
            '{$type: str}  # observed: "call_abc-1", "call_x"; rule: any-string',
        ),
        (
            ["report (final).pdf", "report 2.pdf"],
            '{$type: str}  # observed: "report (final).pdf", "report 2.pdf"; rule: text',
        ),
        (
            ["Book a flight to Paris", "Book flights to Paris"],
            '{$type: str}  # observed: "Book a flight to Paris", "Book flights to Paris"; rule: text',
        ),
        (
            ["sure thing", "I cannot help with that."],
            '{$type: str}  # observed: "sure thing", "I cannot help with that."; rule: text',
        ),
        ([True, False], "{$type: bool}  # observed: true, false; rule: type"),
        (
            [None, 3, 5],
            "{$any_of: [null, {$between: [0, 115]}]}  # observed: null, 3, 5; rule: kinds",
        ),
        (
            [["a", "b", "c"], ["c", "a", "b"]],
            '{$unordered: [a, b, c]}  # observed: ["a", "b", "c"], ["c", "a", "b"]; rule: unordered',
        ),
        (
            [[1, 2], [1, 2, 3], []],
            "{$each: {$between: [0, 7]}}  # observed: [1, 2], [1, 2, 3], []; rule: each",
        ),
        (
            [1, 2, 3, 4, 5, 6, 7],
            "{$between: [0, 13]}  # observed: 1, 2, 3, 4, 5, ... (7 distinct); "
            "rule: prediction-interval",
        ),
        (
            ["xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx!", "y?"],
            '{$type: str}  # observed: "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..., "y?"; rule: any-string',
        ),
    ],
)
def test_a_value_that_varies_becomes_what_its_rule_makes_of_it(
    values: list[Any], line: str
) -> None:
    runs = [[[ToolCall("f", {"v": value})]] for value in values]
    text = written(recorded_case("c", runs))
    assert text.split("    args:\n", 1)[1] == f"      v: {line}\n"
    case = loaded(text)["c"]
    assert all(case.passes(run) for run in runs)


def test_equal_values_stay_literal_and_parts_that_differ_are_loosened_in_place() -> None:
    block = args_of(
        [
            {"q": "paris", "days": 3, "opts": {"units": "metric", "page": 1}, "ids": [1, 2]},
            {"q": "paris", "days": 3.0, "opts": {"units": "metric", "page": 2}, "ids": [1, 3]},
        ]
    )
    assert block == textwrap.dedent("""\
              q: paris
              days: 3
              opts:
                units: metric
                page: {$between: [0, 57]}  # observed: 1, 2; rule: prediction-interval
              ids:
              - 1
              - {$between: [0, 58]}  # observed: 2, 3; rule: prediction-interval
        """)


def test_keys_missing_from_some_runs_are_maybe() -> None:
    block = args_of([{"q": "a", "limit": 10}, {"q": "a"}, {"q": "a", "limit": 20}])
    assert block == textwrap.dedent("""\
              q: a
              limit: {$maybe: {$between: [0, 567]}}  # observed: 10, 20; rule: prediction-interval; missing in 1 of 3
        """)


def test_a_data_mapping_with_keys_that_read_as_a_matcher_is_wrapped_in_exact() -> None:
    runs = [[[ToolCall("f", {"v": {"$ref": "#/a", "n": n}})]] for n in (1, 2)]
    text = written(recorded_case("c", runs))
    assert textwrap.dedent(text.split("    args:\n", 1)[1]) == textwrap.dedent("""\
              v:
                $exact:
                  $ref: '#/a'
                  'n': {$between: [0, 57]}  # observed: 1, 2; rule: prediction-interval
        """)
    case = loaded(text)["c"]
    assert all(case.passes(run) for run in runs)
    assert not case.passes([[ToolCall("f", {"v": {"$ref": "#/a", "n": 1, "x": 0}})]])


def test_tools_called_in_only_some_runs_are_ignored_and_listed() -> None:
    runs = [
        [[ToolCall("search", {"q": "a"}), ToolCall("log", {"level": "debug"})]],
        [[ToolCall("search", {"q": "a"})]],
        [[ToolCall("log", {"level": "info"}), ToolCall("search", {"q": "a"})]],
    ]
    text = written(recorded_case("c", runs))
    assert text == textwrap.dedent("""\
        test_cases:
        - name: c  # recorded from 3 runs
          exhaustive: true
          ignore:
          - name: {$literal: log}
            max_count: 1  # observed: in 2 of 3 runs, once each; rule: optional-call
          expected_tools:  # ignored, not in every run: "log" {"level": "debug"} in run 1; "log" {"level": "info"} in run 3
          - name: {$literal: search}
            exact: true
            args:
              q: a
        """)
    case = loaded(text)["c"]
    assert all(case.passes(run) for run in runs)
    assert not case.passes([[ToolCall("search", {"q": "a"}), ToolCall("delete_account", {})]])
    twice = [ToolCall("log", {"level": "info"}), ToolCall("search", {"q": "a"}), runs[0][0][1]]
    assert not case.passes([twice])  # more logs than any run made


def test_a_turn_whose_order_varies_is_distinct_not_ordered() -> None:
    runs = [
        [[ToolCall("a", {}), ToolCall("b", {})]],
        [[ToolCall("b", {}), ToolCall("a", {})]],
    ]
    text = written(recorded_case("c", runs))
    assert text == textwrap.dedent("""\
        test_cases:
        - name: c  # recorded from 2 runs
          exhaustive: true
          expected_tools:
          - name: {$literal: a}
            exact: true
          - name: {$literal: b}
            exact: true
        """)
    same_order = written(recorded_case("c", [runs[0], runs[0]]))
    assert "  ordered: true\n" in same_order
    # A call of an expected tool that only some runs make, told apart by nothing: left out,
    # so the turn is not exhaustive, and distinct keeps one call for each expectation.
    left_out = written(recorded_case("c", [[runs[0][0] + [ToolCall("a", {})]], runs[1]]))
    assert "  distinct: true\n" in left_out
    assert "exhaustive" not in left_out


def test_calls_of_one_name_are_paired_in_order_by_their_arguments() -> None:
    runs = [
        [[ToolCall("fetch", {"page": 1}), ToolCall("fetch", {"page": 2})]],
        [[ToolCall("fetch", {"page": 1}), ToolCall("fetch", {"page": 3})]],
    ]
    text = written(recorded_case("c", runs))
    assert "      page: 1\n" in text
    assert "      page: {$between: [0, 58]}  # observed: 2, 3; rule: prediction-interval\n" in text
    # An extra call is left out, not paired with the call the other run made.
    runs = [
        [[ToolCall("search", {"q": "x", "n": 1}), ToolCall("search", {"q": "y", "n": 1})]],
        [[ToolCall("search", {"q": "y", "n": 2})]],
        [[ToolCall("search", {"q": "y", "n": 3}), ToolCall("search", {"q": "z", "n": 3})]],
    ]
    text = written(recorded_case("c", runs))
    assert text == textwrap.dedent("""\
        test_cases:
        - name: c  # recorded from 3 runs
          expected_tools:  # left out, not in every run: "search" {"q": "x", "n": 1} in run 1; "search" {"q": "z", "n": 3} in run 3
          - name: {$literal: search}
            exact: true
            args:
              q: 'y'
              'n': {$between: [0, 14]}  # observed: 1, 2, 3; rule: prediction-interval
        """)


def test_runs_with_another_number_of_turns_are_left_out() -> None:
    two = [[ToolCall("a", {})], [ToolCall("b", {})]]
    runs = [[[ToolCall("a", {})]], two, two, []]
    assert kept_turn_count(runs) == 2
    assert kept_turn_count([[[]], [[], []]]) == 2  # a tie: the later run's
    assert kept_turn_count([[], []]) is None
    text = written(recorded_case("c", runs))
    assert text.startswith(
        "test_cases:\n- name: c  # recorded from 2 runs; 2 run(s) with another number of turns "
        "left out\n"
    )
    with pytest.raises(
        ValueError, match=r"^case 'c': no run has a turn; a case needs at least one$"
    ):
        recorded_case("c", [[], []])


def test_without_loosening_the_last_run_is_written() -> None:
    runs = [[[ToolCall("f", {"n": 1})]], [[ToolCall("f", {"n": 2})]]]
    text = written(recorded_case("c", runs, loosen="none"))
    assert text.startswith("test_cases:\n- name: c  # the last of 2 runs\n")
    assert text.endswith("      'n': 2\n")


def test_calls_of_run_reads_every_format_and_json_text() -> None:
    openai_message = {
        "role": "assistant",
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}
        ],
    }
    assert calls_of_run([openai_message, []]) == [[ToolCall("f", {"a": 1}, id="c1")], []]
    assert calls_of_run('[[{"name": "g"}]]') == [[ToolCall("g", {})]]
    with pytest.raises(TypeError, match=r"^turns\[1\]: to_calls cannot read"):
        calls_of_run([[], 42])
    with pytest.raises(TypeError, match=r"^turns must be a list with one entry of calls per turn"):
        calls_of_run({"name": "f"})


def test_without_ruamel_building_a_case_names_the_extra() -> None:
    code = (
        "import sys; sys.modules['ruamel'] = None\n"
        "from toolmatch import ToolCall\n"
        "from toolmatch._authoring.recording import recorded_case\n"
        "try:\n"
        "    recorded_case('c', [[[ToolCall('f')]]])\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout == NEEDS_RUAMEL + "\n"


# The property: a recorded spec never fails a run it was recorded from ---------------------------

strings_alike = st.one_of(
    st.from_regex(r"ORD-[0-9]{1,5}", fullmatch=True),
    st.from_regex(r"[A-Z][a-z]{2,6}", fullmatch=True),
    st.from_regex(r"call_[a-z0-9]{1,6}(\.pdf)?", fullmatch=True),
    st.uuids().map(str),
    st.datetimes().map(lambda moment: moment.isoformat()),
    st.dates().map(lambda day: day.isoformat()),
)
argument_names = st.one_of(keys, st.sampled_from(["regex", "fuzzy", "$x", "n", "y", "yes", "id"]))
argument_values = st.one_of(
    json_values,
    strings_alike,
    st.sampled_from([{"regex": "a"}, {"fuzzy": "b"}, {"$gt": 1}, [1, 2], [2, 1]]),
)


def alike(value: Any) -> st.SearchStrategy[Any]:
    """A value of the same kind as ``value``, often close to it: what varies between runs."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers(value - 5, value + 5)
    if isinstance(value, float):
        return st.one_of(st.floats(), st.just(round(value, 2)) if value == value else st.floats())
    if isinstance(value, str):
        return st.one_of(strings_alike, st.just(value[:3]), st.just(value + "x"))
    if isinstance(value, list):
        return st.one_of(st.permutations(value), st.lists(argument_values, max_size=3))
    if isinstance(value, dict) and value:
        return st.builds(dict, st.just(value)).flatmap(
            lambda copy: alike(next(iter(copy.values()))).map(
                lambda first: {**copy, next(iter(copy)): first}
            )
        )
    return argument_values


# Who made a call and how it ended, where the trace records them (None: it does not).
agents = st.sampled_from([None, "billing", "Billing", "support", "agent_12"])
statuses = st.sampled_from([None, "succeeded", "failed", "denied", "pending"])


@st.composite
def run_sets(draw: st.DrawFn) -> Runs:
    """Runs of one case: a first run, then runs made from it with values changed, calls
    dropped, added or reordered, now and then a turn more or fewer."""
    names = st.sampled_from(["search", "fetch", "book"])
    arguments = st.dictionaries(argument_names, argument_values, max_size=4)

    def call() -> ToolCall:
        who = draw(agents)
        if draw(st.integers(0, 9)) == 0:
            return ToolCall(draw(names), {}, parse_error="Expecting value", agent=who)
        return ToolCall(draw(names), draw(arguments), agent=who, status=draw(statuses))

    turns = draw(st.integers(1, 3))
    first = [[call() for _ in range(draw(st.integers(0, 3)))] for _ in range(turns)]
    runs = [first]
    for _ in range(draw(st.integers(0, 4))):
        run = []
        for calls in first:
            changed = []
            for original in calls:
                action = draw(st.sampled_from(["keep", "keep", "values", "drop"]))
                if action == "keep":
                    changed.append(original)
                elif action == "values":
                    args = dict(original.args)
                    for key in draw(st.lists(st.sampled_from(sorted(args) or ["k"]), max_size=2)):
                        if draw(st.integers(0, 3)):
                            args[key] = draw(alike(args.get(key)))
                        else:
                            args.pop(key, None)
                    changed.append(
                        ToolCall(
                            original.name,
                            args,
                            parse_error=original.parse_error,
                            agent=draw(st.one_of(st.just(original.agent), agents)),
                            status=draw(st.one_of(st.just(original.status), statuses)),
                        )
                    )
            if draw(st.booleans()):
                changed.append(call())
            run.append(draw(st.permutations(changed)) if draw(st.booleans()) else changed)
        if draw(st.integers(0, 5)) == 0:
            run = run[:-1] if len(run) > 1 else [*run, []]
        runs.append(run)
    return runs


BOOK_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "n": {"type": "string", "format": "email"},
        "y": {"type": "string", "format": "date"},
        "yes": {"type": "string", "enum": ["a", "b"]},
        "regex": {"type": "object", "properties": {"a": {"format": "uuid"}}, "required": []},
    },
    "required": ["id"],
}


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    run_sets(),
    st.sampled_from(["none", "strict", "varying"]),
    st.sampled_from([(), ["fetch"]]),
    st.booleans(),
)
def test_a_recorded_spec_never_fails_a_run_it_was_recorded_from(
    runs: Runs, loosen: str, read_only: list[str], schemas: bool
) -> None:
    # A read-only tool (by its definition) may be ignored; the others are loosened as
    # always, steered by the schemas of "book" when given (formats, an integer id, an
    # enum, optional arguments), whatever the runs send.
    definitions: list[dict[str, Any]] = [{"name": name} for name in read_only]
    if schemas:
        definitions.append({"name": "book", "parameters": BOOK_SCHEMA})
    tools = read_tool_definitions(definitions)
    text = written(recorded_case("case", runs, loosen=loosen, tools=tools, read_only=read_only))
    [case] = load_test_cases(yaml.safe_load(text))
    if loosen != "none":
        count = kept_turn_count(runs)
        recorded = [run for run in runs if len(run) == count]
    else:
        recorded = runs[-1:]
    for run in recorded:
        assert case.passes(run), (text, run)


schema_values = st.one_of(
    json_values,
    st.fixed_dictionaries(
        {},
        optional={
            "type": st.one_of(st.sampled_from(["integer", "string", "number"]), json_values),
            "format": st.one_of(st.sampled_from(["uuid", "email", "uri", "date"]), json_values),
            "enum": st.one_of(st.lists(st.sampled_from(["a", "b", 1, None])), json_values),
        },
    ),
)


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    run_sets(),
    st.dictionaries(argument_names, schema_values, max_size=4),
    st.one_of(st.none(), st.lists(argument_names, max_size=3)),
)
def test_any_definition_steers_without_raising_and_never_fails_the_runs(
    runs: Runs, properties: dict[str, Any], required: Any
) -> None:
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required is not None:
        parameters["required"] = required
    tools = read_tool_definitions([{"name": "book", "parameters": parameters}])
    text = written(recorded_case("case", runs, tools=tools))
    [case] = load_test_cases(yaml.safe_load(text))
    count = kept_turn_count(runs)
    for run in runs:
        if len(run) == count:
            assert case.passes(run), (text, run)


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.data(), st.sampled_from(["strict", "varying"]))
def test_a_loosened_value_accepts_every_value_observed(data: st.DataObject, loosen: str) -> None:
    base = data.draw(argument_values)
    values = [base, *data.draw(st.lists(alike(base), min_size=1, max_size=5))]
    runs = [[[ToolCall("f", {"v": value})]] for value in values]
    text = written(recorded_case("case", runs, loosen=loosen))
    [case] = load_test_cases(yaml.safe_load(text))
    for run in runs:
        assert case.passes(run), (text, run)


# Widening a spec with more runs (record --into) ------------------------------------------------


def test_widening_drops_ordered_when_a_new_run_calls_in_another_order() -> None:
    first = [[ToolCall("a", {"n": 1}), ToolCall("b", {})]]
    spec = plain_data(recorded_spec([recorded_case("c", [first])]))
    assert spec["test_cases"][0]["ordered"] is True
    plan = widening(spec, {"c": [[[ToolCall("b", {}), ToolCall("a", {"n": 2})]]]})
    widened = apply_to_data(spec, plan.edits)
    assert "ordered" not in widened["test_cases"][0]
    assert widened["test_cases"][0]["expected_tools"][0]["args"] == {"n": {"$between": [0, 57]}}
    assert plan.not_done == []


def test_widening_follows_the_definitions_as_recording_does() -> None:
    tools = read_tool_definitions(
        [
            {
                "name": "book",
                "parameters": {
                    "type": "object",
                    "properties": {
                        "party": {"type": "integer"},
                        "note": {"type": "string"},
                        "table_id": {"type": "integer"},
                    },
                    "required": ["party", "table_id"],
                },
            }
        ]
    )
    first = [[ToolCall("book", {"party": 4, "note": "Window seat", "table_id": 12})]]
    spec = plain_data(recorded_spec([recorded_case("c", [first])]))
    more = [[ToolCall("book", {"party": 5, "note": "A quiet table", "table_id": 7})]]
    plan = widening(spec, {"c": [more]}, tools=tools)
    widened = apply_to_data(spec, plan.edits)
    assert widened["test_cases"][0]["expected_tools"][0]["args"] == {
        "party": {"$between": [0, 60]},
        "note": {"$maybe": {"$type": "str"}},  # optional by definition, as record writes it
        "table_id": {"$type": "int"},  # an integer id by definition
    }
    assert plan.not_done == []


@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(run_sets(), run_sets())
def test_widening_never_fails_a_run_the_spec_passed(runs: Runs, more: Runs) -> None:
    spec = plain_data(recorded_spec([recorded_case("case", runs)]))
    plan = widening(spec, {"case": more})
    [case] = load_test_cases(apply_to_data(spec, plan.edits))
    count = kept_turn_count(runs)
    for run in runs:
        if len(run) == count:
            assert passes_or_cannot_say(case, run), (spec, plan.edits, run)


@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(run_sets(), run_sets(), st.sampled_from([(), ["fetch"], ["fetch", "search"]]), st.booleans())
def test_widening_a_recorded_specs_text_with_definitions_never_fails_its_runs(
    runs: Runs, more: Runs, read_only: list[str], schemas: bool
) -> None:
    # Through the text, as record --into writes it: with read-only tools the spec has
    # other-lookup entries and caps, whose edits share a turn's ignore list.
    definitions: list[dict[str, Any]] = [{"name": name} for name in read_only]
    if schemas:
        definitions.append({"name": "book", "parameters": BOOK_SCHEMA})
    tools = read_tool_definitions(definitions)
    case = recorded_case("case", runs, tools=tools, read_only=read_only)
    spec = SpecText("spec.yaml", written(case).encode())
    plan = widening(spec.data, {"case": more}, tools=tools, read_only=read_only)
    text, _, not_placed = spec.edited(plan.edits, plan.where)
    assert not_placed == [], (spec.text, plan.edits)
    [widened] = load_test_cases(SpecText("spec.yaml", text.encode()).data)
    count = kept_turn_count(runs)
    for run in runs:
        if len(run) == count:
            assert passes_or_cannot_say(widened, run), (spec.text, text, run)
