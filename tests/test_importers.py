"""``import_bfcl`` / ``import_tau2`` and ``toolmatch import``: benchmark ground truth as specs.

Over real data: lines of bfcl-eval's possible answers and tau2-bench's tasks (see the
READMEs under tests/data). Each import is written as YAML, loaded back with
``load_test_cases``, and judged against calls built from the ground truth itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import commands
from bfcl_data import BFCL_DOC_FILES
from toolmatch import (
    Exact,
    ExpectedTool,
    ExpectedTurn,
    Fuzzy,
    Literal,
    Maybe,
    OneOf,
    TestCase,
    import_bfcl,
    import_tau2,
    load_test_cases,
    spec_yaml,
    to_calls,
)

yaml = pytest.importorskip("yaml")

DATA = Path(__file__).parent / "data"
NAN = float("nan")
BFCL = DATA / "bfcl"
TAU2 = DATA / "tau2"
ANSWERS = BFCL / "possible_answer"
DOCS = BFCL / "multi_turn_func_doc"
MULTI_TURN_DOCS = [
    DOCS / "gorilla_file_system.json",
    DOCS / "posting_api.json",
    DOCS / "vehicle_control.json",
]


def jsonl(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def round_trip(spec: dict[str, Any]) -> list[Any]:
    """The spec as a file would hold it: written as YAML, read back, loaded."""
    return load_test_cases(yaml.safe_load(spec_yaml(spec)))


def toolmatch(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolmatch", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=None if env is None else {**os.environ, **env},
        timeout=120,
    )


# --- BFCL's acceptable values, as calls -----------------------------------------------------

_OMITTED = ""


def first_answer(values: list[Any]) -> Any:
    """The first acceptable value that is not BFCL's "may be omitted", read as BFCL does."""
    for value in values:
        if value == _OMITTED:
            continue
        if isinstance(value, dict) and value and all(isinstance(v, list) for v in value.values()):
            return dict_answer(value)
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            return [dict_answer(item) for item in value]
        return value
    return _OMITTED


def dict_answer(answer: dict[str, list[Any]]) -> dict[str, Any]:
    chosen = {
        key: next((v for v in values if v != _OMITTED), _OMITTED) for key, values in answer.items()
    }
    return {key: value for key, value in chosen.items() if value != _OMITTED}


def answer_calls(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """One call per ground-truth call: each parameter its first acceptable value."""
    calls = []
    for call in entry["ground_truth"]:
        [(name, parameters)] = call.items()
        args = {param: first_answer(values) for param, values in parameters.items()}
        calls.append({"name": name, "args": {k: v for k, v in args.items() if v != _OMITTED}})
    return calls


def satisfiable(entry: dict[str, Any]) -> bool:
    """Whether BFCL's own checker can pass the entry: no key whose acceptable values are []."""

    def empty_somewhere(values: list[Any]) -> bool:
        if not values:
            return True
        return any(
            isinstance(value, dict)
            and all(isinstance(v, list) for v in value.values())
            and any(not v for v in value.values())
            for value in values
        )

    return not any(
        empty_somewhere(values)
        for call in entry["ground_truth"]
        for parameters in call.values()
        for values in parameters.values()
    )


# --- BFCL single-turn and parallel ----------------------------------------------------------


def test_a_simple_entry_becomes_one_exact_exhaustive_case() -> None:
    [entry] = [
        e for e in jsonl(ANSWERS / "BFCL_v4_simple_python.json") if e["id"] == "simple_python_2"
    ]
    assert entry["ground_truth"] == [{"math.hypot": {"x": [4], "y": [5], "z": ["", 0]}}]
    assert import_bfcl([entry]) == {
        "test_cases": [
            {
                "name": "simple_python_2",
                "expected_tools": [
                    {
                        "name": {"$literal": "math.hypot"},
                        "exact": True,
                        "args": {
                            "x": {"$one_of": [4]},
                            "y": {"$one_of": [5]},
                            "z": {"$maybe": {"$one_of": [0]}},
                        },
                    }
                ],
                "exhaustive": True,
            }
        ]
    }
    [case] = round_trip(import_bfcl([entry]))
    assert case.name == "simple_python_2"
    assert case.passes([[{"name": "math.hypot", "args": {"x": 4, "y": 5}}]])
    assert case.passes([[{"name": "math.hypot", "args": {"x": 4, "y": 5, "z": 0}}]])
    assert case.passes([[{"name": "math.hypot", "args": {"x": 4.0, "y": 5, "z": 0}}]])
    # a wrong value, a missing required one, one beyond the possible answer
    assert not case.passes([[{"name": "math.hypot", "args": {"x": 4, "y": 6}}]])
    assert not case.passes([[{"name": "math.hypot", "args": {"x": 4}}]])
    assert not case.passes([[{"name": "math.hypot", "args": {"x": 4, "y": 5, "w": 1}}]])
    # the exact name, and exactly one call
    assert not case.passes([[{"name": "math.hypot_v2", "args": {"x": 4, "y": 5}}]])
    assert not case.passes([[{"name": "math_hypot", "args": {"x": 4, "y": 5}}]])
    twice = {"name": "math.hypot", "args": {"x": 4, "y": 5}}
    assert not case.passes([[twice, twice]])
    assert not case.passes([[]])


def test_a_parameter_only_bfcl_may_omit_is_absent() -> None:
    entry = {"id": "e", "ground_truth": [{"f": {"q": ["a", "b"], "debug": [""]}}]}
    [tool] = import_bfcl([entry])["test_cases"][0]["expected_tools"]
    assert tool["args"] == {"q": {"$one_of": ["a", "b"]}, "debug": {"$absent": True}}
    [case] = round_trip(import_bfcl([entry]))
    assert case.passes([[{"name": "f", "args": {"q": "b"}}]])
    assert not case.passes([[{"name": "f", "args": {"q": "b", "debug": True}}]])
    assert not case.passes([[{"name": "f", "args": {"q": "c"}}]])


def test_an_argument_named_like_a_matcher_key_is_an_argument() -> None:
    [entry] = [
        e for e in jsonl(ANSWERS / "BFCL_v4_live_multiple.json") if e["id"] == "live_multiple_2-1-0"
    ]
    [case] = round_trip(import_bfcl([entry]))
    ride = {"loc": "2150 Shattuck Ave, Berkeley, CA", "type": "plus", "time": 10}
    assert case.passes([[{"name": "uber.ride", "args": ride}]])
    assert not case.passes([[{"name": "uber.ride", "args": {**ride, "type": "black"}}]])


def test_a_dict_answer_is_read_key_by_key() -> None:
    [entry] = [
        e for e in jsonl(ANSWERS / "BFCL_v4_live_multiple.json") if e["id"] == "live_multiple_0-0-0"
    ]
    [tool] = import_bfcl([entry])["test_cases"][0]["expected_tools"]
    preferences = tool["args"]["new_preferences"]
    assert preferences == {
        "$one_of": [
            {
                "size": {"$one_of": ["large"]},
                "milk_type": {"$one_of": ["coconut"]},
                "sweetness_level": {"$one_of": ["extra"]},
                "temperature": {"$one_of": ["hot"]},
                "special_instructions": {
                    "$one_of": [
                        "served boiling hot",
                        "serve boiling hot",
                        "boiling hot",
                        "served 'boiling hot'",
                    ]
                },
            }
        ]
    }
    [case] = round_trip(import_bfcl([entry]))
    wanted = {
        "size": "large",
        "milk_type": "coconut",
        "sweetness_level": "extra",
        "temperature": "hot",
    }
    run = {
        "drink_id": "latte",
        "new_preferences": {**wanted, "special_instructions": "boiling hot"},
    }
    assert case.passes([[{"name": "ChaDri.change_drink", "args": run}]])
    # BFCL's dict checker: no key beyond the answer's, every key it does not mark omittable
    extra = {**run, "new_preferences": {**run["new_preferences"], "foam": "none"}}
    assert not case.passes([[{"name": "ChaDri.change_drink", "args": extra}]])
    missing = {**run, "new_preferences": wanted}
    assert not case.passes([[{"name": "ChaDri.change_drink", "args": missing}]])


def test_a_list_of_dict_answers_is_read_dict_by_dict_in_order() -> None:
    [entry] = [
        e for e in jsonl(ANSWERS / "BFCL_v4_simple_python.json") if e["id"] == "simple_python_96"
    ]
    [case] = round_trip(import_bfcl([entry]))
    age = {"field": "age", "operation": ">", "value": "25"}
    job = {"field": "job", "operation": "=", "value": "engineer"}
    query = {"name": "database.query", "args": {"table": "user", "conditions": [age, job]}}
    assert case.passes([[query]])
    swapped = {"name": "database.query", "args": {"table": "user", "conditions": [job, age]}}
    assert not case.passes([[swapped]])


def test_a_dict_inside_a_dict_answer_is_compared_as_written() -> None:
    [entry] = [
        e
        for e in jsonl(ANSWERS / "BFCL_v4_live_multiple.json")
        if e["id"] == "live_multiple_121-46-0"
    ]
    ego = import_bfcl([entry])["test_cases"][0]["expected_tools"][0]["args"]["ego_info"]
    assert ego == {
        "$one_of": [
            {
                "position": {"$one_of": [{"lateral": 10.5, "longitudinal": 50}]},
                "orientation": {"$one_of": [30]},
            }
        ]
    }
    [case] = round_trip(import_bfcl([entry]))
    assert case.passes([answer_calls(entry)])


def test_acceptable_values_that_look_like_matchers_stay_data() -> None:
    entry = {
        "id": "odd",
        "ground_truth": [
            {
                "f": {
                    "pattern": [{"regex": "a.*"}, ""],  # not a dict answer: its value is no list
                    "rule": [{"regex": ["x"], "ignore_case": [True]}],  # a dict answer
                    "tags": [[{"$ref": "a"}]],
                }
            }
        ],
    }
    args = import_bfcl([entry])["test_cases"][0]["expected_tools"][0]["args"]
    assert args == {
        "pattern": {"$maybe": {"$one_of": [{"$literal": {"regex": "a.*"}}]}},
        "rule": {
            "$one_of": [
                {"$exact": {"regex": {"$one_of": ["x"]}, "ignore_case": {"$one_of": [True]}}}
            ]
        },
        "tags": {"$one_of": [[{"$literal": {"$ref": "a"}}]]},
    }
    [case] = round_trip(import_bfcl([entry]))
    run = {
        "pattern": {"regex": "a.*"},
        "rule": {"regex": "x", "ignore_case": True},
        "tags": [{"$ref": "a"}],
    }
    assert case.passes([[{"name": "f", "args": run}]])
    assert not case.passes([[{"name": "f", "args": {**run, "pattern": "abc"}}]])


def test_no_acceptable_value_is_a_parameter_nothing_passes() -> None:
    # BFCL's own checker cannot pass live_simple_112-68-0 either: five keys accept nothing.
    [entry] = [
        e for e in jsonl(ANSWERS / "BFCL_v4_live_simple.json") if e["id"] == "live_simple_112-68-0"
    ]
    assert not satisfiable(entry)
    args = import_bfcl([entry])["test_cases"][0]["expected_tools"][0]["args"]
    assert args["acc_routing_start"] == {"$not": {"$any": True}}
    [case] = round_trip(import_bfcl([entry]))
    assert not case.passes([answer_calls(entry)])
    everything = {key: [] for key in args} | {"outofscope": ["what is the weather like"]}
    assert not case.passes([[{"name": "record", "args": everything}]])


def test_a_parallel_entry_is_distinct_and_in_any_order() -> None:
    [entry] = jsonl(ANSWERS / "BFCL_v4_parallel.json")
    [spec_case] = import_bfcl([entry])["test_cases"]
    assert (spec_case["distinct"], spec_case["exhaustive"]) == (True, True)
    [case] = round_trip(import_bfcl([entry]))
    swift = {"name": "spotify.play", "args": {"artist": "Taylor Swift", "duration": 20}}
    maroon = {"name": "spotify.play", "args": {"artist": "Maroon 5", "duration": 15}}
    assert case.passes([[swift, maroon]])
    assert case.passes([[maroon, swift]])
    assert not case.passes([[swift, swift]])
    assert not case.passes([[swift]])
    assert not case.passes([[swift, maroon, maroon]])


SINGLE_TURN = sorted(
    path for path in ANSWERS.glob("BFCL_v4_*.json") if "multi_turn" not in path.name
)


@pytest.mark.parametrize("path", SINGLE_TURN, ids=lambda p: p.stem)
def test_every_single_turn_fixture_loads_back_and_passes_its_own_answers(path: Path) -> None:
    entries = jsonl(path)
    cases = round_trip(import_bfcl(path))
    assert [case.name for case in cases] == [entry["id"] for entry in entries]
    for entry, case in zip(entries, cases, strict=True):
        assert case.passes([answer_calls(entry)]) is satisfiable(entry), entry["id"]
        renamed = [{**call, "name": call["name"] + "_x"} for call in answer_calls(entry)]
        assert not case.passes([renamed]), entry["id"]


def test_the_yaml_reads_back_as_the_same_expectations() -> None:
    for path in sorted(ANSWERS.glob("BFCL_v4_*.json")):
        functions = MULTI_TURN_DOCS if "multi_turn" in path.name else None
        spec = import_bfcl(path, functions)
        assert yaml.safe_load(spec_yaml(spec)) == spec
        assert repr(round_trip(spec)) == repr(load_test_cases(spec))
    for path in sorted(TAU2.glob("*/tasks.json")):
        spec = import_tau2(path)
        assert yaml.safe_load(spec_yaml(spec)) == spec
        assert repr(round_trip(spec)) == repr(load_test_cases(spec))


def test_the_import_is_the_expectations_one_would_build_in_python() -> None:
    [case] = round_trip(import_bfcl(ANSWERS / "BFCL_v4_parallel.json"))
    plays = [
        ExpectedTool(
            Literal("spotify.play"), Exact({"artist": OneOf(artist), "duration": OneOf(n)})
        )
        for artist, n in (("Taylor Swift", 20), ("Maroon 5", 15))
    ]
    built = TestCase("parallel_0", [ExpectedTurn(plays, distinct=True, exhaustive=True)])
    assert repr(case) == repr(built)
    [entry] = [
        e for e in jsonl(ANSWERS / "BFCL_v4_simple_python.json") if e["id"] == "simple_python_2"
    ]
    [case] = round_trip(import_bfcl([entry]))
    args = Exact({"x": OneOf(4), "y": OneOf(5), "z": Maybe(OneOf(0))})
    built = TestCase(
        "simple_python_2",
        [ExpectedTurn([ExpectedTool(Literal("math.hypot"), args)], exhaustive=True)],
    )
    assert repr(case) == repr(built)


# --- BFCL multi-turn ------------------------------------------------------------------------


def test_multi_turn_entries_become_ordered_turns_named_from_the_docs() -> None:
    path = ANSWERS / "BFCL_v4_multi_turn_base.json"
    entries = jsonl(path)
    spec = import_bfcl(path, MULTI_TURN_DOCS)
    first = spec["test_cases"][0]
    assert first["name"] == "multi_turn_base_0"
    assert first["turns"][2] == {
        "ordered": True,
        "expected_tools": [
            {"name": {"$literal": "sort"}, "args": {"file_name": "final_report.pdf"}}
        ],
    }
    docs = [doc for docs in MULTI_TURN_DOCS for doc in jsonl(docs)]
    cases = round_trip(spec)
    for entry, case in zip(entries, cases, strict=True):
        run = [
            [call for text in texts for call in to_calls(text, syntax="python", tools=docs)]
            for texts in entry["ground_truth"]
        ]
        assert case.passes(run), entry["id"]
        assert not case.passes([list(reversed(turn)) for turn in run]), entry["id"]
        assert not case.passes(run[:-1]), entry["id"]


def test_an_empty_ground_truth_turn_wants_no_call() -> None:
    entry = {"id": "miss", "ground_truth": [["cd(folder='docs')"], []]}
    spec = import_bfcl([entry])
    assert spec["test_cases"][0]["turns"][1] == {"exhaustive": True, "expected_tools": []}
    [case] = round_trip(spec)
    assert case.passes([[{"name": "cd", "args": {"folder": "docs"}}], []])
    assert not case.passes([[{"name": "cd", "args": {"folder": "docs"}}], [{"name": "ls"}]])


def test_positional_ground_truth_without_docs_names_the_place() -> None:
    entries = jsonl(ANSWERS / "BFCL_v4_multi_turn_base.json")
    with pytest.raises(ValueError, match="multi_turn_base_0") as caught:
        import_bfcl(entries)
    assert str(caught.value) == (
        "possible_answers[0] (multi_turn_base_0), ground_truth[2][0]: sort at line 1, column 1 "
        "passes 1 argument by position, and no tools= were given to name it; give the function "
        "docs (functions=, or --functions)"
    )


def test_function_docs_are_named_by_file_and_line(tmp_path: Path) -> None:
    entries = jsonl(ANSWERS / "BFCL_v4_multi_turn_base.json")
    docs = MULTI_TURN_DOCS[0]
    first = jsonl(docs)[0]["name"]
    with pytest.raises(ValueError, match="again") as caught:
        import_bfcl(entries, [docs, docs])
    assert str(caught.value) == (
        f"{docs}:1: defines {first!r} again ({docs}:1 did first); give the docs of the "
        "classes the entries involve"
    )
    bad = tmp_path / "docs.json"
    bad.write_text(
        '{"name": "cd", "parameters": {"type": "dict", "properties": {}}}\n{"nope": 1}\n'
    )
    with pytest.raises(ValueError, match="not a tool definition") as caught:
        import_bfcl(entries, bad)
    assert str(caught.value).startswith(
        f"{bad}:2: tools[0] is not a tool definition: {{'nope': 1}} (dict)"
    )


# --- tau2-bench -----------------------------------------------------------------------------


def tau2_tasks(domain: str) -> list[dict[str, Any]]:
    tasks: list[dict[str, Any]] = json.loads((TAU2 / domain / "tasks.json").read_text("utf-8"))
    return tasks


def action_calls(task: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"name": action["name"], "args": action["arguments"]}
        for action in task["evaluation_criteria"]["actions"]
    ]


def test_a_tau2_task_is_one_turn_of_exact_names_in_any_order() -> None:
    spec = import_tau2(TAU2 / "banking_knowledge" / "tasks.json")
    assert spec["test_cases"][1] == {
        "name": "task_005",
        "expected_tools": [
            # compare_args: [] asserts no argument
            {"name": {"$literal": "transfer_to_human_agents"}},
            # only the compared arguments: time_verified is not among them
            {
                "name": {"$literal": "log_verification"},
                "args": {
                    "name": "9K2X7M4P1N8Q3R5T6A",
                    "user_id": "9K2X7M4P1N8Q3R5T6A",
                    "address": "9K2X7M4P1N8Q3R5T6A",
                    "email": "9K2X7M4P1N8Q3R5T6A",
                    "phone_number": "9K2X7M4P1N8Q3R5T6A",
                    "date_of_birth": "9K2X7M4P1N8Q3R5T6A",
                },
            },
            {
                "name": {"$literal": "change_user_email"},
                "args": {"user_id": "6680a37184", "new_email": "kenji.tanaka@gmail.com"},
            },
        ],
    }
    task = tau2_tasks("banking_knowledge")[1]
    [_, case] = round_trip(spec)
    assert not case.turns[0].distinct
    assert not case.turns[0].ordered
    calls = action_calls(task)
    assert case.passes([calls])
    assert case.passes([list(reversed(calls))])
    calls[0]["args"] = {"summary": "anything at all"}
    calls[1]["args"] = {**calls[1]["args"], "time_verified": "another time"}
    assert case.passes([calls])
    calls[2]["args"] = {**calls[2]["args"], "new_email": "someone@else.com"}
    assert not case.passes([calls])


def test_without_compare_args_the_arguments_the_call_passes_are_compared() -> None:
    [task, _] = tau2_tasks("airline")
    assert all("compare_args" not in action for action in task["evaluation_criteria"]["actions"])
    spec = import_tau2(TAU2 / "airline" / "tasks.json")
    assert spec["test_cases"][0]["expected_tools"][1] == {
        "name": {"$literal": "get_reservation_details"},
        "exact": True,
        "args": {"reservation_id": {"$maybe": "Q69X3R"}},
    }
    [case, transfer] = round_trip(spec)
    calls = action_calls(task)
    assert case.name == "1"
    assert case.passes([calls])
    assert not case.passes([[calls[0], {**calls[1], "args": {"reservation_id": "Q69X3S"}}]])
    assert not case.passes([[calls[0]]])
    assert not case.passes([[calls[0], {**calls[1], "name": "get_reservation_details_v2"}]])
    # As in tau2-bench: a call may leave out an argument of the action, not add one.
    assert case.passes([[calls[0], {**calls[1], "args": {}}]])
    extra = {**calls[1], "args": {**calls[1]["args"], "verbose": True}}
    assert not case.passes([[calls[0], extra]])
    # task 13 compares no argument of its one action
    assert transfer.passes([[{"name": "transfer_to_human_agents", "args": {"summary": "?"}}]])


def test_one_call_may_satisfy_two_equal_actions_as_in_tau2() -> None:
    [task] = tau2_tasks("retail")
    lookups = [
        a for a in task["evaluation_criteria"]["actions"] if a["name"] == "get_order_details"
    ]
    assert [lookup["arguments"] for lookup in lookups] == [
        {"order_id": "#W5490111"},
        {"order_id": "#W7387996"},
    ]
    [case] = round_trip(import_tau2([task]))
    calls = action_calls(task)
    others = [call for call in calls if call["name"] != "get_order_details"]
    first, second = (call for call in calls if call["name"] == "get_order_details")
    assert case.passes([calls])
    assert case.passes([[second, *others, first]])  # in any order
    assert not case.passes([[*others, first]])  # one lookup stands for one order only
    # A lookup passing no order_id is equal to both actions in tau2-bench's comparison
    # (it compares the arguments the call passes): one such call satisfies both.
    assert case.passes([[*others, {"name": "get_order_details", "args": {}}]])
    # Two equal actions: one call satisfies both, two calls too.
    twice = {**task, "evaluation_criteria": {"actions": [lookups[0], lookups[0]]}}
    [case] = round_trip(import_tau2([twice]))
    assert case.passes([[first]])
    assert case.passes([[first, first]])
    assert not case.passes([[second]])


def _tau2_verdict(actions: list[dict[str, Any]], calls: list[dict[str, Any]]) -> bool:
    """tau2-bench's action check at the fixtures' commit (``ActionEvaluator``, reward 1 when
    every action is found): each action against every call, on its own."""

    def same(action: dict[str, Any], call: dict[str, Any]) -> bool:
        if action["name"] != call["name"]:
            return False
        compared = action.get("compare_args")
        keys = list(call["args"]) if compared is None else compared
        if not keys:
            return True
        passed = {key: value for key, value in call["args"].items() if key in keys}
        wanted = {key: value for key, value in action["arguments"].items() if key in keys}
        return passed == wanted

    return all(any(same(action, call) for call in calls) for action in actions)


# bools left out: tau2-bench compares with Python's ==, where True == 1 (docs/importers.md).
_VALUES = st.sampled_from([1, 1.0, 2, "x", "X", None, [1], {"k": 1}])
_ARGS = st.dictionaries(st.sampled_from(["a", "b"]), _VALUES, max_size=2)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "name": st.sampled_from(["f", "g"]),
                "arguments": _ARGS,
                "compare_args": st.one_of(
                    st.none(), st.lists(st.sampled_from(["a", "b", "c"]), unique=True)
                ),
            }
        ),
        min_size=1,
        max_size=3,
    ),
    st.lists(
        st.fixed_dictionaries({"name": st.sampled_from(["f", "g"]), "args": _ARGS}), max_size=4
    ),
)
def test_the_imported_case_gives_tau2s_verdict(
    actions: list[dict[str, Any]], calls: list[dict[str, Any]]
) -> None:
    task = {"id": "t", "evaluation_criteria": {"actions": actions}}
    [case] = load_test_cases(import_tau2([task]))
    assert case.passes([calls]) is _tau2_verdict(actions, calls)


def test_a_compared_argument_the_action_lacks_must_be_missing() -> None:
    task = {
        "id": "t",
        "evaluation_criteria": {
            "actions": [
                {"action_id": "t_0", "name": "f", "arguments": {"a": 1}, "compare_args": ["a", "b"]}
            ]
        },
    }
    [tool] = import_tau2([task])["test_cases"][0]["expected_tools"]
    assert tool["args"] == {"a": 1, "b": {"$absent": True}}
    [case] = round_trip(import_tau2([task]))
    assert case.passes([[{"name": "f", "args": {"a": 1, "c": 2}}]])
    assert not case.passes([[{"name": "f", "args": {"a": 1, "b": 2}}]])


def test_a_bool_is_not_a_number_here_as_everywhere_in_toolmatch() -> None:
    # tau2-bench compares with Python's ==, where True == 1: the one difference left.
    task = {"id": "t", "evaluation_criteria": {"actions": [{"name": "f", "arguments": {"n": 1}}]}}
    [case] = round_trip(import_tau2([task]))
    assert _tau2_verdict(
        task["evaluation_criteria"]["actions"], [{"name": "f", "args": {"n": True}}]
    )
    assert not case.passes([[{"name": "f", "args": {"n": True}}]])
    assert case.passes([[{"name": "f", "args": {"n": 1.0}}]])


def test_a_task_without_actions_expects_nothing() -> None:
    spec = import_tau2([{"id": 0, "evaluation_criteria": {"actions": []}}, {"id": "x"}])
    assert spec == {
        "test_cases": [
            {"name": "0", "expected_tools": []},
            {"name": "x", "expected_tools": []},
        ]
    }


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("function", "data", "message"),
    [
        (
            import_bfcl,
            [3],
            "possible_answers[0]: a BFCL entry must be an object with an id and a ground_truth, got 3 (int)",
        ),
        (
            import_bfcl,
            [{"id": "x"}],
            "possible_answers[0] (x): ground_truth must be a list, got missing",
        ),
        (
            import_bfcl,
            [{"id": "x", "ground_truth": {}}],
            "possible_answers[0] (x): ground_truth must be a list, got {} (dict)",
        ),
        (
            import_bfcl,
            [{"id": "x", "ground_truth": [{"f": {"a": 1}}]}],
            "possible_answers[0] (x), ground_truth[0].f.a: the acceptable values must be a list, got 1 (int)",
        ),
        (
            import_bfcl,
            [{"id": "x", "ground_truth": [{"f": {}, "g": {}}]}],
            "possible_answers[0] (x), ground_truth[0]: a call must be an object with one function name, got {'f': {}, 'g': {}} (dict)",
        ),
        (
            import_bfcl,
            [{"id": "x", "ground_truth": [{"f": [1]}]}],
            "possible_answers[0] (x), ground_truth[0].f: the parameters must be an object, got [1] (list)",
        ),
        (
            import_bfcl,
            [{"id": "m", "ground_truth": [["cd(folder=x)"]]}],
            "possible_answers[0] (m), ground_truth[0][0]: argument 'folder' is not a literal: x",
        ),
        (
            import_bfcl,
            [{"id": "m", "ground_truth": [[3]]}],
            "possible_answers[0] (m), ground_truth[0][0]: a multi-turn call must be Python call text, got 3 (int)",
        ),
        (import_bfcl, 5, "possible_answers must be a path or a list of entries, got 5 (int)"),
        (
            import_tau2,
            ["x"],
            "tasks[0]: a tau2-bench task must be an object with an id, got 'x' (str)",
        ),
        (
            import_tau2,
            [{"id": 1, "evaluation_criteria": {"actions": {}}}],
            "tasks[0] (1).evaluation_criteria.actions: must be a list or null, got {} (dict)",
        ),
        (
            import_tau2,
            [{"id": 1, "evaluation_criteria": {"actions": [{"arguments": {}}]}}],
            "tasks[0] (1).evaluation_criteria.actions[0].name: missing; an action needs the tool's name",
        ),
        (
            import_tau2,
            [{"id": 1, "evaluation_criteria": {"actions": [{"name": "f", "compare_args": "a"}]}}],
            "tasks[0] (1).evaluation_criteria.actions[0].compare_args: must be a list or null, got 'a' (str)",
        ),
        (
            import_tau2,
            [{"id": 1, "evaluation_criteria": {"actions": [7]}}],
            "tasks[0] (1).evaluation_criteria.actions[0]: must be an object, got 7 (int)",
        ),
    ],
)
def test_bad_ground_truth_names_its_place(function: Any, data: Any, message: str) -> None:
    with pytest.raises((ValueError, TypeError)) as caught:
        function(data)
    assert str(caught.value) == message


def test_a_json_lines_file_names_the_bad_line(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_text('{"id": "a", "ground_truth": []}\n{"id": "b", "ground_truth": [}\n')
    with pytest.raises(ValueError, match="invalid JSON") as caught:
        import_bfcl(answers)
    assert str(caught.value) == f"{answers}:2:30: invalid JSON: Expecting value"


def test_ground_truth_deeper_than_a_spec_may_be_is_refused_where_it_goes_too_deep(
    tmp_path: Path,
) -> None:
    tasks = tmp_path / "tasks.json"
    deep = "[" * 200 + "]" * 200
    tasks.write_text(
        f'[{{"id": "1", "evaluation_criteria": {{"actions": [{{"name": "f", "arguments": {{"a": {deep}}}}}]}}}}]'
    )
    with pytest.raises(ValueError, match="nested too deeply") as caught:
        import_tau2(tasks)
    assert str(caught.value) == (
        f"{tasks}[0].evaluation_criteria.actions[0].arguments.a"
        + "[0]" * 95
        + ": nested too deeply: more than 100 mappings and lists inside one another"
    )
    answers = tmp_path / "answers.json"
    answers.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match="nested too deeply") as caught:
        import_bfcl(answers)
    assert str(caught.value) == (
        f"{answers}: nested too deeply: more than 100 mappings and lists inside one another"
    )


def test_a_file_that_is_not_utf_8_is_refused(tmp_path: Path) -> None:
    answers = tmp_path / "answers.json"
    answers.write_bytes(b'{"id": "caf\xe9"}\n')
    with pytest.raises(ValueError, match="UTF-8") as caught:
        import_bfcl(answers)
    assert str(caught.value) == f"{answers}: not UTF-8 text: byte 11 cannot be decoded"


# --- the command ----------------------------------------------------------------------------


def test_toolmatch_import_bfcl_writes_a_spec_that_toolmatch_check_reads(tmp_path: Path) -> None:
    answers = ANSWERS / "BFCL_v4_parallel.json"
    written = toolmatch("import", "bfcl", str(answers), "-o", str(tmp_path / "spec.yaml"))
    assert (written.returncode, written.stdout, written.stderr) == (0, "", "")
    printed = toolmatch("import", "bfcl", str(answers))
    assert printed.returncode == 0
    assert printed.stdout == (tmp_path / "spec.yaml").read_text("utf-8")
    assert printed.stdout.startswith("test_cases:\n- name: parallel_0\n")
    [entry] = jsonl(answers)
    calls = answer_calls(entry)
    traces = tmp_path / "traces.jsonl"
    runs = [
        {"case": "parallel_0", "turns": [calls[::-1]]},
        {"case": "parallel_0", "turns": [calls[:1]]},
    ]
    traces.write_text("".join(json.dumps(run) + "\n" for run in runs))
    checked = toolmatch("check", str(tmp_path / "spec.yaml"), str(traces))
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[0] == "PASS parallel_0"
    assert checked.stdout.splitlines()[1] == "FAIL parallel_0 (run 2)"
    assert checked.stdout.splitlines()[-1] == "1 passed, 1 failed"


def test_toolmatch_import_bfcl_multi_turn_takes_several_function_doc_files(tmp_path: Path) -> None:
    answers = ANSWERS / "BFCL_v4_multi_turn_base.json"
    docs = [arg for path in MULTI_TURN_DOCS for arg in ("--functions", str(path))]
    result = toolmatch("import", "bfcl", str(answers), *docs)
    assert result.returncode == 0, result.stderr
    assert yaml.safe_load(result.stdout) == import_bfcl(answers, MULTI_TURN_DOCS)
    missing = toolmatch("import", "bfcl", str(answers))
    assert missing.returncode == 2
    assert missing.stdout == ""
    assert missing.stderr.startswith(
        f"toolmatch: {answers}:1 (multi_turn_base_0), ground_truth[2][0]: sort "
    )


def test_the_spec_is_printed_as_utf_8_whatever_the_console(tmp_path: Path) -> None:
    # live_simple_165-98-0's names, on a console that can only write ASCII
    entry = {"id": "names", "ground_truth": [{"extract": {"name": ["\u674e\u96f7"]}}]}
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps(entry) + "\n", encoding="utf-8")
    result = toolmatch("import", "bfcl", str(answers), env={"PYTHONIOENCODING": "ascii"})
    assert (result.returncode, result.stderr) == (0, "")
    assert "name: {$one_of: [\u674e\u96f7]}" in result.stdout
    assert yaml.safe_load(result.stdout) == import_bfcl([entry])


def test_toolmatch_import_tau2(tmp_path: Path) -> None:
    tasks = TAU2 / "retail" / "tasks.json"
    result = toolmatch("import", "tau2", str(tasks), "-o", str(tmp_path / "spec.yaml"))
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    [case] = load_test_cases(tmp_path / "spec.yaml")
    assert case.name == "10"
    assert not case.turns[0].distinct
    assert case.turns[0].expected_tools[0] == [
        {"name": "find_user_id_by_email", "args": {"email": "mia.garcia2723@example.com"}}
    ]
    assert case.turns[0].expected_tools[0] == [{"name": "find_user_id_by_email", "args": {}}]
    assert case.turns[0].expected_tools[0] != [
        {"name": "find_user_id_by_email", "args": {"email": "mia@example.com"}}
    ]
    assert repr(case.turns[0].expected_tools[0].name) == "Literal('find_user_id_by_email')"


def test_toolmatch_import_reports_unreadable_files(tmp_path: Path) -> None:
    result = toolmatch("import", "tau2", str(tmp_path / "nope.json"))
    assert (result.returncode, result.stdout) == (2, "")
    assert (
        result.stderr
        == f"toolmatch: cannot read {tmp_path / 'nope.json'}: No such file or directory\n"
    )
    out = tmp_path / "missing" / "spec.yaml"
    result = toolmatch("import", "tau2", str(TAU2 / "retail" / "tasks.json"), "-o", str(out))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"toolmatch: cannot write {out}: No such file or directory\n"
    result = toolmatch("import", "nope", "x")
    assert result.returncode == 2
    assert "invalid choice: 'nope'" in result.stderr


# --- all of BFCL, when bfcl-eval is installed -----------------------------------------------

_BFCL_EVAL = find_spec("bfcl_eval")  # finding the package does not import it


@pytest.mark.skipif(_BFCL_EVAL is None, reason="bfcl-eval is not installed")
def test_all_of_bfcl_s_single_turn_ground_truth_imports_and_loads_back(tmp_path: Path) -> None:
    assert _BFCL_EVAL is not None
    assert _BFCL_EVAL.submodule_search_locations
    data = Path(next(iter(_BFCL_EVAL.submodule_search_locations))) / "data" / "possible_answer"
    entries = passed = unsatisfiable = 0
    failures = []
    for path in sorted(data.glob("BFCL_v4_*.json")):
        if any(part in path.name for part in ("multi_turn", "memory", "web_search")):
            continue  # multi-turn above; memory and web search answers are texts, not calls
        answers = jsonl(path)
        spec = tmp_path / f"{path.stem}.yaml"
        written = toolmatch("import", "bfcl", str(path), "-o", str(spec))
        assert (written.returncode, written.stderr) == (0, ""), path.name
        cases = load_test_cases(spec)  # the file, read as toolmatch check reads it
        for entry, case in zip(answers, cases, strict=True):
            entries += 1
            if not satisfiable(entry):
                unsatisfiable += 1
                continue
            if case.passes([answer_calls(entry)]):
                passed += 1
            else:
                failures.append(entry["id"])
    assert not failures, failures
    # v4: 2,501 single-turn entries; 2 have a key that accepts no value (BFCL cannot pass them)
    assert (entries, unsatisfiable, passed) == (2501, 2, 2499)


@pytest.mark.skipif(_BFCL_EVAL is None, reason="bfcl-eval is not installed")
def test_all_of_bfcl_s_multi_turn_ground_truth_imports_and_passes_itself() -> None:
    assert _BFCL_EVAL is not None
    assert _BFCL_EVAL.submodule_search_locations
    data = Path(next(iter(_BFCL_EVAL.submodule_search_locations))) / "data"
    docs: dict[str, list[Any]] = {}
    entries = 0
    failures = []
    for answers in sorted(data.glob("possible_answer/BFCL_v4_multi_turn_*.json")):
        questions = {entry["id"]: entry for entry in jsonl(data / answers.name)}
        for entry in jsonl(answers):
            tools = []
            for name in questions[entry["id"]]["involved_classes"]:
                if name not in docs:
                    docs[name] = jsonl(data / "multi_turn_func_doc" / BFCL_DOC_FILES[name])
                tools.extend(docs[name])
            [case] = round_trip(import_bfcl([entry], tools))
            run = [
                [call for text in texts for call in to_calls(text, syntax="python", tools=tools)]
                for texts in entry["ground_truth"]
            ]
            entries += 1
            if not case.passes(run):
                failures.append(entry["id"])
    assert not failures, failures
    assert entries == 800  # v4: four multi-turn categories of 200 entries


def test_spec_yaml_writes_a_value_used_twice_twice_and_refuses_objects() -> None:
    one_of = {"$one_of": ["a", "b"]}
    spec = {
        "test_cases": [
            {"name": "a", "expected_tools": [{"name": "f", "args": {"x": one_of, "y": one_of}}]}
        ]
    }
    text = spec_yaml(spec)
    assert "&" not in text
    assert "*" not in text
    assert yaml.safe_load(text) == spec
    with pytest.raises(TypeError) as caught:
        spec_yaml({"test_cases": [{"name": "a", "expected_tools": [Fuzzy("f")]}]})
    assert str(caught.value) == (
        "spec_yaml writes plain data (dicts, lists, strings, numbers, booleans, None), got "
        "Fuzzy('f') (toolmatch.Fuzzy)"
    )


def test_toolmatch_import_o_json_writes_json(tmp_path: Path) -> None:
    answers = ANSWERS / "BFCL_v4_parallel.json"
    spec = tmp_path / "spec.json"
    written = toolmatch("import", "bfcl", str(answers), "-o", str(spec))
    assert (written.returncode, written.stdout, written.stderr) == (0, "", "")
    assert json.loads(spec.read_text("utf-8")) == import_bfcl(answers)


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE")
def test_a_spec_that_cannot_be_written_whole_leaves_the_previous_one(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("the previous spec", encoding="utf-8")
    answers = str(ANSWERS / "BFCL_v4_parallel.json")
    result = commands.toolmatch("import", "bfcl", answers, "-o", spec, largest_file=100)
    assert (result.returncode, result.stderr) == (
        2,
        f"toolmatch: cannot write {spec}: File too large; {spec} is unchanged\n",
    )
    assert spec.read_text(encoding="utf-8") == "the previous spec"
    assert os.listdir(tmp_path) == ["spec.yaml"]


# --- an importer writes a spec that loads, or refuses naming the entry (issue 29) -----------

REFUSED = [
    (
        import_tau2,
        [{"id": 1, "evaluation_criteria": {"actions": [{"name": "f", "compare_args": [{}]}]}}],
        "tasks[0] (1).evaluation_criteria.actions[0].compare_args[0]: must be an argument name "
        "(a string), got {} (dict)",
    ),
    (
        import_tau2,
        [{"id": 1, "evaluation_criteria": {"actions": [{"name": "f", "compare_args": [1]}]}}],
        "tasks[0] (1).evaluation_criteria.actions[0].compare_args[0]: must be an argument name "
        "(a string), got 1 (int)",
    ),
    (
        import_tau2,
        [{"id": "7"}, {"id": "8"}, {"id": 7}],
        "tasks[2] (7): duplicate task id '7'; first used by tasks[0]",
    ),
    (
        import_tau2,
        [{"id": "7", "evaluation_criteria": {"actions": [{"name": "f", "arguments": {"x": NAN}}]}}],
        "tasks[0] (7): the spec would not load: expected_tools[0].args.x.$maybe: NaN never "
        "equals anything; use {$type: float} or remove it",
    ),
    (
        import_bfcl,
        [{"id": "a", "ground_truth": []}, {"id": "a", "ground_truth": []}],
        "possible_answers[1] (a): duplicate entry id 'a'; first used by possible_answers[0]",
    ),
    (
        import_bfcl,
        [{"id": "a", "ground_truth": [{"f": {"x": [NAN]}}]}],
        "possible_answers[0] (a): the spec would not load: expected_tools[0].args.x.$one_of[0]: "
        "NaN never equals anything; use {$type: float} or remove it",
    ),
    (
        import_bfcl,
        [{"id": "a", "ground_truth": [{"f": {"x": [{"k": [NAN]}]}}]}],
        "possible_answers[0] (a): the spec would not load: "
        "expected_tools[0].args.x.$one_of[0].k.$one_of[0]: NaN never equals anything; use "
        "{$type: float} or remove it",
    ),
]


@pytest.mark.parametrize(("function", "data", "message"), REFUSED, ids=[m for _, _, m in REFUSED])
def test_ground_truth_that_would_not_load_is_refused_naming_the_entry(
    function: Any, data: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=r"^(tasks|possible_answers)") as caught:
        function(data)
    assert str(caught.value) == message


def test_toolmatch_import_refuses_with_exit_2_and_writes_nothing(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.json"
    tasks.write_text('[{"id": "1"}, {"id": "1"}]')
    out = tmp_path / "spec.yaml"
    result = toolmatch("import", "tau2", str(tasks), "-o", str(out))
    assert (result.returncode, result.stdout) == (2, "")
    assert (
        result.stderr
        == f"toolmatch: {tasks}[1] (1): duplicate task id '1'; first used by {tasks}[0]\n"
    )
    assert not out.exists()
    answers = tmp_path / "answers.json"
    answers.write_text('{"id": "a", "ground_truth": [{"f": {"x": [NaN]}}]}\n')
    result = toolmatch("import", "bfcl", str(answers), "-o", str(out))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.startswith(f"toolmatch: {answers}:1 (a): the spec would not load: ")
    assert "Traceback" not in result.stderr
    assert not out.exists()


# Values hostile to a spec: NaN and infinities, matcher look-alikes, non-string keys' kin.
_HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=3),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "a", "$x", "(", "a..b", "2026-01-02"]),
    st.sampled_from(
        [
            {"$regex": "("},
            {"regex": "("},
            {"$absent": True},
            {"$maybe": 1},
            {"fuzzy": 3},
            {"$literal": 1},
            {"$one_of": []},
        ]
    ),
)
_JSON = st.recursive(
    _HOSTILE,
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(
            st.sampled_from(["a", "b", "$regex", "regex", "", "$absent"]), children, max_size=3
        ),
    ),
    max_leaves=8,
)
_IDS = st.one_of(st.sampled_from(["1", "2", "x", ""]), st.integers(0, 2), _HOSTILE)


def _tau2_tasks() -> st.SearchStrategy[Any]:
    action = st.fixed_dictionaries(
        {},
        optional={
            "name": st.one_of(st.sampled_from(["f", "g", ""]), _HOSTILE),
            "arguments": st.one_of(
                st.dictionaries(st.sampled_from(["a", "b", "$regex", ""]), _JSON, max_size=3), _JSON
            ),
            "compare_args": st.one_of(
                st.lists(st.one_of(st.sampled_from(["a", "b", ""]), _JSON), max_size=3), _JSON
            ),
        },
    )
    task = st.fixed_dictionaries(
        {"id": _IDS},
        optional={
            "evaluation_criteria": st.one_of(
                st.fixed_dictionaries({"actions": st.lists(action, max_size=3)}), _JSON
            )
        },
    )
    return st.lists(st.one_of(task, _JSON), min_size=1, max_size=3)


def _bfcl_entries() -> st.SearchStrategy[Any]:
    parameters = st.dictionaries(
        st.sampled_from(["a", "b", "$regex", "regex", ""]),
        st.one_of(st.lists(st.one_of(_JSON, st.just("")), max_size=3), _JSON),
        max_size=3,
    )
    call = st.one_of(
        st.dictionaries(st.sampled_from(["f", "g", "$any"]), parameters, min_size=1, max_size=1),
        _JSON,
    )
    truth = st.one_of(
        st.lists(call, max_size=3),
        st.lists(
            st.lists(
                st.sampled_from(
                    ["f(a=1)", "g()", "f(a=float('nan'))", "f(1)", "h(a=[1, {'$regex': '('}])"]
                ),
                max_size=2,
            ),
            min_size=1,
            max_size=2,
        ),
        _JSON,
    )
    entry = st.fixed_dictionaries(
        {"id": st.one_of(st.sampled_from(["a", "b"]), _IDS)}, optional={"ground_truth": truth}
    )
    return st.lists(st.one_of(entry, _JSON), min_size=1, max_size=3)


def _loads_or_refuses(function: Any, data: Any, what: str) -> None:
    refusal = None
    try:
        spec = function(data)
    except (TypeError, ValueError) as error:
        refusal = str(error)
    if refusal is not None:
        assert refusal.startswith(what), refusal
        return
    load_test_cases(spec)
    load_test_cases(yaml.safe_load(spec_yaml(spec)))  # what `toolmatch import` writes


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tau2_tasks())
def test_every_tau2_import_loads_or_is_refused_naming_the_task(tasks: Any) -> None:
    _loads_or_refuses(import_tau2, tasks, "tasks[")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_bfcl_entries())
def test_every_bfcl_import_loads_or_is_refused_naming_the_entry(entries: Any) -> None:
    _loads_or_refuses(import_bfcl, entries, "possible_answers[")


@pytest.mark.parametrize("path", sorted(ANSWERS.glob("*.json")), ids=lambda p: p.name)
def test_every_bfcl_fixture_imports_to_a_spec_that_loads(path: Path) -> None:
    docs = MULTI_TURN_DOCS if "multi_turn" in path.name else None
    load_test_cases(yaml.safe_load(spec_yaml(import_bfcl(path, docs))))


@pytest.mark.parametrize("path", sorted(TAU2.glob("*/tasks.json")), ids=lambda p: p.parent.name)
def test_every_tau2_fixture_imports_to_a_spec_that_loads(path: Path) -> None:
    load_test_cases(yaml.safe_load(spec_yaml(import_tau2(path))))


def test_ground_truth_without_entries_is_refused_naming_the_file(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.json"
    tasks.write_text("[]")
    result = toolmatch("import", "tau2", str(tasks))
    assert (result.returncode, result.stdout) == (2, "")
    assert (
        result.stderr == f"toolmatch: {tasks}: holds no entries; a spec needs at least one case\n"
    )
    with pytest.raises(ValueError, match="holds no entries") as caught:
        import_bfcl([])
    assert str(caught.value) == "possible_answers: holds no entries; a spec needs at least one case"
