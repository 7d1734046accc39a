"""promptfoo: ``get_assert(output, context)`` called as promptfoo calls a ``type: python``
assertion's ``file://`` function: its arguments as JSON, its result as JSON, checked as a
GradingResult. With promptfoo's npm package at hand (``PROMPTFOO_PYTHON_WRAPPER``: its
``dist/src/python/wrapper.py``, which ``.ci/integrations`` unpacks), promptfoo's own Python
wrapper runs the assertion file (docs/integrations.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolmatch.integrations.promptfoo import get_assert

SPEC = {
    "turns": [
        {
            "expected_tools": [
                {"name": "search_flights", "args": {"origin": "OSL", "destination": "CDG"}},
                "book_flight",
            ],
            "ordered": True,
        }
    ]
}
GOOD = [
    {
        "id": "c1",
        "type": "function",
        "function": {
            "name": "search_flights",
            "arguments": '{"origin": "OSL", "destination": "CDG"}',
        },
    },
    {"id": "c2", "type": "function", "function": {"name": "book_flight", "arguments": "{}"}},
]
BAD = [
    {"id": "c1", "type": "function", "function": {"name": "book_flight", "arguments": "{}"}},
    {
        "id": "c2",
        "type": "function",
        "function": {
            "name": "search_flights",
            "arguments": '{"origin": "OSL", "destination": "ORY"}',
        },
    },
]
# The assertion file a user writes beside promptfooconfig.yaml: value: file://toolmatch_assert.py
ASSERT_FILE = "from toolmatch.integrations.promptfoo import get_assert\n"


def _context(spec_in: str = "config") -> dict[str, Any]:
    """The context promptfoo gives an assertion (runAssertion), as JSON carries it."""
    context: dict[str, Any] = {
        "prompt": "Book me a flight from Oslo to Paris",
        "vars": {"request": "Oslo to Paris"},
        "test": {"vars": {"request": "Oslo to Paris"}, "assert": [{"type": "python"}]},
        "logProbs": None,
        "provider": {"id": "openai:chat:gpt-4.1", "label": None},
        "providerResponse": {"output": GOOD, "tokenUsage": {"total": 10}},
    }
    if spec_in == "config":
        context["config"] = {"toolmatch": SPEC}
    else:
        context["vars"]["toolmatch"] = SPEC
    return context


def _is_grading_result(result: object) -> bool:
    """promptfoo's own test of a python assertion's dict (isGradingResult, promptfoo 0.123.1)."""
    return (
        isinstance(result, dict)
        and isinstance(result.get("pass"), bool)
        and isinstance(result.get("score"), (int, float))
        and isinstance(result.get("reason"), str)
        and isinstance(result.get("componentResults", []), list)
        and isinstance(result.get("namedScores", {}), dict)
    )


def _called_as_promptfoo(output: object, context: dict[str, Any]) -> dict[str, Any]:
    """The arguments through JSON, the result through JSON (ensure_ascii=False), as
    promptfoo's wrapper passes them."""
    arguments = json.loads(json.dumps([output, context]))
    result = get_assert(*arguments)
    data: dict[str, Any] = json.loads(
        json.dumps({"type": "final_result", "data": result}, ensure_ascii=False)
    )["data"]
    return data


@pytest.mark.parametrize("spec_in", ["config", "vars"])
def test_a_passing_run(spec_in: str) -> None:
    graded = _called_as_promptfoo(GOOD, _context(spec_in))
    assert _is_grading_result(graded)
    assert (graded["pass"], graded["score"]) == (True, 1.0)
    assert [component["pass"] for component in graded["componentResults"]] == [True, True]
    assert graded["namedScores"] == {"toolmatch": 1.0, "toolmatch_f1": 1.0}


def test_a_failing_run_has_one_component_per_expectation_and_the_order() -> None:
    graded = _called_as_promptfoo(BAD, _context())
    assert _is_grading_result(graded)
    assert graded["pass"] is False
    assert graded["score"] == 0.5  # book_flight matched, search_flights did not
    components = graded["componentResults"]
    assert [(component["pass"], component["score"]) for component in components] == [
        (False, 0.5),
        (True, 1.0),
    ]
    assert components[0]["reason"].startswith(
        "turn 0, expectation 0: FAILED ExpectedTool('search_flights', {'origin': 'OSL', "
        "'destination': 'CDG'}): call 1: destination: expected 'CDG', got 'ORY'"
    )
    assert components[1]["reason"].startswith(
        "turn 0, expectation 1: PASSED ExpectedTool('book_flight')"
    )
    assert "destination: expected 'CDG', got 'ORY'" in graded["reason"]


def test_a_problem_of_the_turn_is_a_component_of_its_own() -> None:
    context = _context()
    context["config"]["toolmatch"] = {"expected_tools": ["search_flights"], "max_calls": 1}
    graded = _called_as_promptfoo(GOOD, context)
    assert graded["pass"] is False
    assert graded["componentResults"] == [
        {"pass": True, "score": 1.0, "reason": graded["componentResults"][0]["reason"]},
        {
            "pass": False,
            "score": 0.0,
            "reason": "turn 0, expected at most 1 call(s) in the turn, got 2",
        },
    ]


def test_json_text_output_is_read() -> None:
    graded = _called_as_promptfoo(json.dumps(GOOD), _context())
    assert graded["pass"] is True


def test_no_spec_is_an_error_naming_where_it_was_looked_for() -> None:
    context = _context()
    del context["config"]
    with pytest.raises(ValueError, match=r"^no toolmatch spec") as error:
        get_assert(GOOD, context)
    assert str(error.value) == (
        "no toolmatch spec: neither the assertion's config nor the test's vars has a "
        "'toolmatch' key (got config None, vars {'request': 'Oslo to Paris'}): put the spec "
        "under the assertion's config, config: {toolmatch: ...}"
    )
    with pytest.raises(TypeError, match=r"^get_assert takes promptfoo's assertion context"):
        get_assert(GOOD, "context")  # type: ignore[arg-type]


WRAPPER = os.environ.get("PROMPTFOO_PYTHON_WRAPPER")


@pytest.mark.skipif(
    not WRAPPER,
    reason="promptfoo's Python wrapper not found: set PROMPTFOO_PYTHON_WRAPPER to "
    "dist/src/python/wrapper.py of the promptfoo npm package (.ci/integrations does)",
)
@pytest.mark.parametrize(("output", "passed"), [(GOOD, True), (BAD, False)])
def test_promptfoos_own_wrapper_runs_the_assertion_file(
    tmp_path: Path, output: object, passed: bool
) -> None:
    """promptfoo runs ``python wrapper.py FILE get_assert INPUT OUTPUT`` and reads
    ``{"type": "final_result", "data": ...}`` from OUTPUT."""
    assertion = tmp_path / "toolmatch_assert.py"
    assertion.write_text(ASSERT_FILE, encoding="utf-8")
    given = tmp_path / "input.json"
    given.write_text(json.dumps([output, _context()]), encoding="utf-8")
    written = tmp_path / "output.json"
    assert WRAPPER is not None
    run = subprocess.run(
        [sys.executable, WRAPPER, str(assertion), "get_assert", str(given), str(written)],
        capture_output=True,
        text=True,
        check=False,
        cwd=Path(WRAPPER).parent,
    )
    assert run.returncode == 0, run.stderr
    result = json.loads(written.read_text(encoding="utf-8"))
    assert result["type"] == "final_result"
    graded = result["data"]
    assert _is_grading_result(graded)
    assert graded["pass"] is passed
    assert len(graded["componentResults"]) == 2
