"""``--syntax python`` and ``--functions``: turns given as Python call text, as BFCL's model
outputs hold them, checked against ``toolmatch import bfcl`` specs through the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from commands import jsonl, toolmatch
from toolmatch import check_runs, load_test_cases

BFCL = Path(__file__).resolve().parent / "data" / "bfcl"
DOCS = BFCL / "multi_turn_func_doc"
ALL_DOCS = [DOCS / name for name in ("gorilla_file_system.json", "posting_api.json")] + [
    DOCS / "vehicle_control.json"
]
FUNCTIONS = [arg for path in ALL_DOCS for arg in ("--functions", str(path))]


def result_entry(entry_id: str, result: object) -> dict[str, Any]:
    """A line of a BFCL result file (``BFCL_v4_<category>_result.json``, JSON Lines), as
    bfcl-eval's ``_llm_response_generation`` writes it: the id, the model's ``result``
    and the inference metadata beside them."""
    return {
        "id": entry_id,
        "result": result,
        "input_token_count": 512,
        "output_token_count": 24,
        "latency": 0.84,
    }


def imported(tmp_path: Path, answers: str, *docs: str) -> Path:
    spec = tmp_path / "spec.yaml"
    made = toolmatch("import", "bfcl", BFCL / "possible_answer" / answers, *docs, "-o", spec)
    assert (made.returncode, made.stderr) == (0, "")
    return spec


# simple_python: one model output a line, checked as one turn.
SIMPLE_RESULTS = [
    result_entry("simple_python_1", "[math.factorial(number=5)]"),
    result_entry("simple_python_2", "[math.hypot(x=4, y=6)]"),  # wrong on purpose: y is 5
    result_entry(
        "simple_python_96",
        "[database.query(table='user', conditions=[{'field': 'age', 'operation': '>', "
        "'value': '25'}, {'field': 'job', 'operation': '=', 'value': 'engineer'}])]",
    ),
]
SIMPLE_REPORT = """\
PASS simple_python_1
FAIL simple_python_2
  turn 0, expected_tools[0]: ExpectedTool(Literal('math.hypot'), Exact({'x': OneOf(4), \
'y': OneOf(5), 'z': Maybe(OneOf(0))}))
    call 0: y: expected one of 5, got 6
  turn 0: call 0 math.hypot({'x': 4, 'y': 6}) is not expected
PASS simple_python_96
2 passed, 1 failed
"""
ONE_TURN = ("--case-key", "id", "--turns-key", "result", "--one-turn")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_bfcl_single_turn_category_checks_end_to_end(tmp_path: Path, jobs: str) -> None:
    spec = imported(tmp_path, "BFCL_v4_simple_python.json")
    results = tmp_path / "BFCL_v4_simple_python_result.json"
    results.write_text(jsonl(*SIMPLE_RESULTS), encoding="utf-8")
    checked = toolmatch("check", spec, results, *ONE_TURN, "--syntax", "python", "--jobs", jobs)
    assert (checked.returncode, checked.stderr, checked.stdout) == (1, "", SIMPLE_REPORT)


def test_without_the_option_a_text_turn_is_json_text_as_before(tmp_path: Path) -> None:
    spec = imported(tmp_path, "BFCL_v4_simple_python.json")
    results = tmp_path / "result.json"
    results.write_text(jsonl(SIMPLE_RESULTS[0]), encoding="utf-8")
    checked = toolmatch("check", spec, "result.json", *ONE_TURN, cwd=tmp_path)
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[0] == (
        "ERROR result.json:1: the turns are text that is not JSON: Expecting value: "
        "line 1 column 2 (char 1)"
    )


# multi_turn_base: each turn the model's steps, its last one the reply in words.
MULTI_RESULTS = [
    result_entry(
        "multi_turn_base_0",
        [
            [
                "[cd(folder='document'), mkdir(dir_name='temp')]",
                "[mv(source='final_report.pdf', destination='temp')]",
                "I created temp and moved final_report.pdf into it.",
            ],
            [
                "[cd(folder='temp')]",
                "[grep(file_name='final_report.pdf', pattern='budget analysis')]",
                "The line holding 'budget analysis' is shown above.",
            ],
            ["[sort('final_report.pdf')]", "Sorted."],
            [
                "[cd(folder='..')]",
                "[mv(source='previous_report.pdf', destination='temp'), cd(folder='temp')]",
                "[diff(file_name1='final_report.pdf', file_name2='previous_report.pdf')]",
                "",
            ],
        ],
    ),
    result_entry(
        "multi_turn_base_56",
        [
            [
                "[get_zipcode_based_on_city('San Francisco'), "
                "get_zipcode_based_on_city('Rivermist')]",
                "[estimate_distance(cityA='94016', cityB='83214')]",
                "It is 980 km.",
            ],
            # wrong on purpose: the ground truth fills 40 gallons
            ["[displayCarStatus('fuel')]", "[fillFuelTank(fuelAmount=30)]", "Filled."],
            [
                "[lockDoors(unlock=False, door=['driver', 'passenger', 'rear_left', "
                "'rear_right'])]",
                "[pressBrakePedal(pedalPosition=1.0)]",
                "[startEngine(ignitionMode='START')]",
                "The engine is running.",
            ],
        ],
    ),
]
MULTI_REPORT = """\
PASS multi_turn_base_0
FAIL multi_turn_base_56
  turn 1, expected_tools[1]: ExpectedTool(Literal('fillFuelTank'), {'fuelAmount': 40})
    call 1: fuelAmount: expected 40, got 30
1 passed, 1 failed
"""


def test_a_bfcl_multi_turn_category_checks_end_to_end(tmp_path: Path) -> None:
    spec = imported(tmp_path, "BFCL_v4_multi_turn_base.json", *FUNCTIONS)
    results = tmp_path / "BFCL_v4_multi_turn_base_result.json"
    results.write_text(jsonl(*MULTI_RESULTS), encoding="utf-8")
    keys = ("--case-key", "id", "--turns-key", "result")
    checked = toolmatch("check", spec, results, *keys, "--syntax", "python", *FUNCTIONS)
    assert (checked.returncode, checked.stderr, checked.stdout) == (1, "", MULTI_REPORT)
    # The same verdicts in worker processes, the docs sent with the judge.
    both = toolmatch("check", spec, results, *keys, "--syntax", "python", *FUNCTIONS, "--jobs", "2")
    assert (both.returncode, both.stdout) == (1, MULTI_REPORT)


def test_positional_arguments_without_docs_are_the_runs_error(tmp_path: Path) -> None:
    spec = imported(tmp_path, "BFCL_v4_multi_turn_base.json", *FUNCTIONS)
    results = tmp_path / "result.json"
    results.write_text(jsonl(MULTI_RESULTS[1]), encoding="utf-8")
    keys = ("--case-key", "id", "--turns-key", "result")
    checked = toolmatch("check", spec, "result.json", *keys, "--syntax", "python", cwd=tmp_path)
    assert checked.returncode == 1
    assert checked.stdout.splitlines() == [
        "ERROR result.json:1: turns[0][0]: get_zipcode_based_on_city at line 1, column 2 "
        "passes 1 argument by position, and no tools= were given to name it",
        "MISSING multi_turn_base_0: no run in result.json",
        "1 error, 1 missing",
        "0 passed, 0 failed",
    ]


def test_a_text_turn_that_is_no_call_syntax_is_the_runs_error(tmp_path: Path) -> None:
    spec = imported(tmp_path, "BFCL_v4_simple_python.json")
    results = tmp_path / "result.json"
    results.write_text(
        jsonl(result_entry("simple_python_1", "The factorial of 5 is 120.")), encoding="utf-8"
    )
    checked = toolmatch("check", spec, "result.json", *ONE_TURN, "--syntax", "python", cwd=tmp_path)
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[0] == (
        "ERROR result.json:1: turns[0]: invalid Python call syntax at line 1, column 5: "
        "invalid syntax"
    )


def test_functions_without_python_syntax_is_bad_usage(tmp_path: Path) -> None:
    spec = imported(tmp_path, "BFCL_v4_simple_python.json")
    checked = toolmatch("check", spec, "-", "--functions", ALL_DOCS[0], stdin="")
    assert (checked.returncode, checked.stdout) == (2, "")
    assert checked.stderr == (
        "toolmatch: --functions names positional arguments in Python call text: it needs "
        "--syntax python\n"
    )


def test_unreadable_docs_are_bad_usage(tmp_path: Path) -> None:
    spec = imported(tmp_path, "BFCL_v4_simple_python.json")
    missing = tmp_path / "missing.json"
    checked = toolmatch("check", spec, "-", "--syntax", "python", "--functions", missing, stdin="")
    assert (checked.returncode, checked.stdout) == (2, "")
    assert checked.stderr == f"toolmatch: cannot read {missing}: No such file or directory\n"
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "cd", "parameters": 3}\n', encoding="utf-8")
    checked = toolmatch("check", spec, "-", "--syntax", "python", "--functions", bad, stdin="")
    assert checked.returncode == 2
    assert checked.stderr.startswith(f"toolmatch: {bad}:1: ")


def test_record_reads_text_turns_as_python_calls(tmp_path: Path) -> None:
    pytest.importorskip("ruamel.yaml")
    results = tmp_path / "result.json"
    results.write_text(jsonl(MULTI_RESULTS[1]), encoding="utf-8")
    spec = tmp_path / "spec.json"
    keys = ("--case-key", "id", "--turns-key", "result")
    recorded = toolmatch("record", results, *keys, "--syntax", "python", *FUNCTIONS, "-o", spec)
    assert (recorded.returncode, recorded.stderr) == (0, "")
    [case] = json.loads(spec.read_text(encoding="utf-8"))["test_cases"]
    first = case["turns"][0]["expected_tools"][0]
    assert (first["name"], first["args"]) == (
        {"$literal": "get_zipcode_based_on_city"},
        {"city": "San Francisco"},
    )
    checked = toolmatch("check", spec, results, *keys, "--syntax", "python", *FUNCTIONS)
    assert (checked.returncode, checked.stdout.splitlines()[-1]) == (0, "1 passed, 0 failed")


@pytest.mark.parametrize("jobs", [1, 2])
def test_check_runs_reads_text_turns_with_the_docs(jobs: int) -> None:
    text = (DOCS / "vehicle_control.json").read_text(encoding="utf-8")
    docs = [json.loads(line) for line in text.splitlines()]
    cases = load_test_cases(
        {
            "test_cases": [
                {
                    "name": "fuel",
                    "expected_tools": [{"name": "fillFuelTank", "args": {"fuelAmount": 40}}],
                }
            ]
        }
    )
    runs = [
        {"case": "fuel", "turns": ["[fillFuelTank(40)]"]},
        {"case": "fuel", "turns": [["[fillFuelTank(30)]", "Filled."]]},
    ]
    rows = list(check_runs(cases, runs, jobs=jobs, syntax="python", tools=docs))
    assert [(row["passed"], row["score"]) for row in rows] == [(True, 1.0), (False, 0.0)]
    with pytest.raises(ValueError, match=r"^syntax must be 'json' or 'python', got 'yaml'$"):
        check_runs(cases, runs, syntax="yaml")


def test_words_where_no_call_is_expected_are_the_answer(tmp_path: Path) -> None:
    # BFCL's irrelevance categories: no function fits, so the model should answer in words
    # (BFCL passes an entry whose output is no call syntax, or no call). Where a call is
    # expected, words stay the run's error.
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: irrelevance_0\n"
        "    expected_tools: []\n"
        "    exhaustive: true\n"
        "  - name: simple_python_1\n"
        "    expected_tools: [{name: {$literal: math.factorial}, args: {number: 5}}]\n"
        "  - name: either\n"
        "    one_of:\n"
        "      - expected_tools: [search]\n"
        "      - {expected_tools: [], exhaustive: true}\n",
        encoding="utf-8",
    )
    results = tmp_path / "result.json"
    results.write_text(
        jsonl(
            result_entry(
                "irrelevance_0", "I cannot compute the area of a triangle with these tools."
            ),
            result_entry("irrelevance_0", "[]"),
            result_entry("irrelevance_0", "[math.factorial(number=5)]"),
            result_entry("simple_python_1", "The factorial of 5 is 120."),
            result_entry("either", "No search is needed."),
        ),
        encoding="utf-8",
    )
    checked = toolmatch("check", spec, "result.json", *ONE_TURN, "--syntax", "python", cwd=tmp_path)
    assert (checked.returncode, checked.stderr) == (1, "")
    assert checked.stdout.splitlines() == [
        "PASS irrelevance_0",
        "PASS irrelevance_0 (run 2)",
        "FAIL irrelevance_0 (run 3)",
        "  turn 0: call 0 math.factorial({'number': 5}) is not expected",
        "ERROR result.json:4: turns[0]: invalid Python call syntax at line 1, column 5: "
        "invalid syntax",
        "PASS either",
        "TRIALS irrelevance_0: 2/3 passed, pass^1 0.667, pass^2 0.333, pass^3 0.000",
        "FLAKY irrelevance_0: turns[0].exhaustive no call that is not expected: "
        "failed in 1 of 3 runs (0.33)",
        "TRIALS simple_python_1: 0/1 passed, pass^1 0.000",
        "TRIALS either: 1/1 passed, pass^1 1.000",
        "TRIALS mean over 3 cases: pass^1 0.556, pass^2 0.333 (1 case), pass^3 0.000 (1 case)",
        "1 error",
        "3 passed, 1 failed",
    ]
    rows = check_runs(
        load_test_cases(spec),
        [{"case": "irrelevance_0", "turns": ["Sorry, no tool fits."]}],
        syntax="python",
    )
    assert [(row["passed"], row["reason"]) for row in rows] == [(True, "")]
