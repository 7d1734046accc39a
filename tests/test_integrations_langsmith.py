"""toolmatch inside LangSmith, run by LangSmith itself, offline: ``langsmith.evaluate`` with
nothing uploaded, and a test under LangSmith's pytest plugin with tracking off."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

pytest.importorskip(
    "langsmith", reason="LangSmith is not installed: pip install 'toolmatch[langsmith]'"
)

from langsmith import Client, evaluate
from langsmith.schemas import Example

from toolmatch.integrations.langsmith import toolmatch_evaluator

PARIS = [{"name": "get_weather", "args": {"city": "Paris"}}]


def _agent(inputs: dict[str, Any]) -> dict[str, Any]:
    """A LangGraph-like agent's final state: its messages, one call for the city asked."""
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get_weather", "arguments": f'{{"city": "{inputs["city"]}"}}'},
    }
    return {"messages": [{"role": "assistant", "content": None, "tool_calls": [call]}]}


def _examples(*cities: str, reference: object = None) -> list[Example]:
    dataset = uuid.uuid4()
    outputs = {} if reference is None else {"toolmatch": reference}
    return [
        Example(id=uuid.uuid4(), dataset_id=dataset, inputs={"city": city}, outputs=outputs)
        for city in cities
    ]


def _evaluate(examples: list[Example], evaluator: Any) -> list[dict[str, tuple[Any, Any]]]:
    # Nothing is uploaded: the client is never reached (its address refuses connections).
    client = Client(api_key="offline", api_url="http://127.0.0.1:9")
    results = evaluate(
        _agent, data=examples, evaluators=[evaluator], upload_runs=False, client=client
    )
    return [
        {each.key: (each.score, each.comment) for each in row["evaluation_results"]["results"]}
        for row in results
    ]


pytestmark = pytest.mark.filterwarnings("ignore:'upload_runs' parameter is in beta")


def test_a_run_passes_and_a_wrong_argument_fails_naming_it() -> None:
    right, wrong = _evaluate(_examples("Paris", "Lyon"), toolmatch_evaluator(PARIS))
    assert right["toolmatch"][0] is True
    assert right["toolmatch_f1"] == (1.0, None)
    assert wrong["toolmatch"][0] is False
    assert wrong["toolmatch_f1"] == (0.0, None)
    assert wrong["toolmatch"][1].splitlines()[-1] == (
        "    call 0 get_weather({'city': 'Lyon'}): city: expected 'Paris', got 'Lyon'"
    )


def test_the_spec_comes_from_the_examples_reference_outputs() -> None:
    [row] = _evaluate(_examples("Paris", reference=["get_forecast"]), toolmatch_evaluator())
    assert row["toolmatch"][0] is False
    assert (
        "  expectation 0: FAILED ExpectedTool('get_forecast'): expected 1 matching call(s), "
        "got 0: no call's name contains 'get_forecast'; the turn called 'get_weather'"
    ) in row["toolmatch"][1].splitlines()


def test_calls_key_reads_one_entry_of_the_outputs_and_names_a_missing_one() -> None:
    evaluator = toolmatch_evaluator(PARIS, key="tools", calls_key="messages")
    assert evaluator(_agent({"city": "Paris"}), {})["results"][0]["score"] is True
    with pytest.raises(KeyError, match="calls_key") as error:
        evaluator({"output": "sunny"}, {})
    assert error.value.args[0] == (
        "the run's outputs have no 'messages' (calls_key): got {'output': 'sunny'} (dict)"
    )


def test_a_run_without_a_spec_says_where_it_looked() -> None:
    with pytest.raises(ValueError, match="no toolmatch spec") as error:
        toolmatch_evaluator()(_agent({"city": "Paris"}), {"answer": "sunny"})
    assert str(error.value) == (
        "no toolmatch spec: none was given, and the example's reference_outputs has no "
        "'toolmatch' key (got {'answer': 'sunny'}): pass spec=, or put the spec under "
        "reference_outputs['toolmatch']"
    )


PLUGIN_TEST = """
import pytest

from toolmatch.integrations.langsmith import assert_tool_calls

PARIS = [{"name": "get_weather", "args": {"city": "Paris"}}]


@pytest.mark.langsmith
@pytest.mark.parametrize("city", ["Paris", "Lyon"])
def test_weather(city):
    assert_tool_calls(PARIS, [{"name": "get_weather", "args": {"city": city}}])
"""


# With tracking off LangSmith keeps no table of feedback to read back: a spy around its own
# log_feedback (which still runs, and refuses a call outside a LangSmith test) prints each.
SPY = """
import langsmith.testing

real = langsmith.testing.log_feedback


def spy(*args, **kwargs):
    real(*args, **kwargs)
    print("FEEDBACK", kwargs["key"], kwargs["score"])


langsmith.testing.log_feedback = spy
"""


def test_the_pytest_helper_logs_feedback_and_fails_with_the_explanation(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGSMITH_TEST_TRACKING", "false")
    pytester.makepyfile(test_weather=PLUGIN_TEST)
    pytester.makeconftest(SPY)
    result = pytester.runpytest_subprocess("-p", "langsmith_plugin", "-W", "ignore::Warning", "-rA")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "E           AssertionError: turn 0 FAILED: 0 of 1 expectation(s) met over 1 call(s)",
            "E               call 0 get_weather({'city': 'Lyon'}): city: expected 'Paris', got 'Lyon'",
        ]
    )
    feedback = [line for line in result.stdout.lines if line.startswith("FEEDBACK")]
    assert feedback == [
        "FEEDBACK toolmatch 0.0",  # the failed test's, in its captured output
        "FEEDBACK toolmatch_f1 0.0",
        "FEEDBACK toolmatch 1.0",  # the passed test's, shown by -rA
        "FEEDBACK toolmatch_f1 1.0",
    ]


def test_the_pytest_helper_outside_a_langsmith_test_is_refused_by_langsmith() -> None:
    from toolmatch.integrations.langsmith import assert_tool_calls

    with pytest.raises(ValueError, match="log_feedback should only be called within a pytest test"):
        assert_tool_calls(PARIS, [{"name": "get_weather", "args": {"city": "Paris"}}])
