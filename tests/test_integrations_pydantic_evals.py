"""toolmatch inside pydantic-evals, run by pydantic-evals itself: a pydantic-ai agent on a
FunctionModel (offline), its dataset evaluated with ``evaluate_sync``, the report read."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip(
    "pydantic_evals",
    reason="pydantic-evals is not installed: pip install 'toolmatch[pydantic-evals]'",
)

from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_evals import Case, Dataset

from toolmatch.integrations.pydantic_evals import PassHatK, ToolCallsMatch

PARIS = [{"name": "get_weather", "args": {"city": "Paris"}}]


@pytest.fixture(scope="module", autouse=True)
def _event_loop_closed() -> Iterator[None]:
    """evaluate_sync runs on an event loop it sets on the main thread and leaves open: closed
    here, or the next framework to set one (inspect_ai's eval) orphans it, and its collection
    warns in that framework's tests."""
    yield
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        loop = asyncio.get_event_loop()
    loop.close()
    asyncio.set_event_loop(None)


def _weather_agent(cities: list[str] | None = None) -> Agent[None, str]:
    """An agent whose model asks for the weather in the city its prompt names, or in the
    next of ``cities`` each run."""

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) == 1:  # the user's prompt: call the tool
            prompt = messages[0].parts[0].content
            city = cities.pop(0) if cities is not None else prompt
            return ModelResponse(parts=[ToolCallPart("get_weather", {"city": city})])
        return ModelResponse(parts=[TextPart("sunny")])

    agent = Agent(FunctionModel(model))

    @agent.tool_plain
    def get_weather(city: str) -> str:
        return f"sunny in {city}"

    return agent


def _messages_task(cities: list[str] | None = None) -> Any:
    agent = _weather_agent(cities)

    # async: run_sync inside evaluate_sync's worker thread leaves an event loop open
    async def task(prompt: str) -> list[ModelMessage]:
        return (await agent.run(prompt)).all_messages()

    return task


def test_a_run_passes_and_a_wrong_argument_fails_naming_it() -> None:
    dataset = Dataset(
        name="weather",
        cases=[Case(name="right", inputs="Paris"), Case(name="wrong", inputs="London")],
        evaluators=[ToolCallsMatch(PARIS)],
    )
    report = dataset.evaluate_sync(_messages_task(), progress=False)
    right, wrong = report.cases
    assert right.assertions["toolmatch"].value is True
    assert right.scores["toolmatch_f1"].value == 1.0
    assert wrong.assertions["toolmatch"].value is False
    assert wrong.scores["toolmatch_f1"].value == 0.0
    reason = wrong.assertions["toolmatch"].reason
    assert reason is not None
    assert reason.splitlines()[0] == "turn 0 FAILED: 0 of 1 expectation(s) met over 1 call(s)"
    assert "    call 0 get_weather({'city': 'London'}): city: expected 'Paris', got 'London'" in (
        reason.splitlines()
    )


def test_the_spec_comes_from_the_cases_metadata_when_none_is_given() -> None:
    dataset = Dataset(
        name="weather",
        cases=[
            Case(name="paris", inputs="Paris", metadata={"toolmatch": PARIS}),
            Case(name="lyon", inputs="Lyon", metadata={"toolmatch": ["get_forecast"]}),
        ],
        evaluators=[ToolCallsMatch(evaluation_name="tools")],
    )
    report = dataset.evaluate_sync(_messages_task(), progress=False)
    assert [case.assertions["tools"].value for case in report.cases] == [True, False]
    reason = report.cases[1].assertions["tools"].reason
    assert reason is not None
    assert (
        "  expectation 0: FAILED ExpectedTool('get_forecast'): expected 1 matching call(s), got 0: "
        "no call's name contains 'get_forecast'; the turn called 'get_weather'"
    ) in reason.splitlines()


def test_a_case_without_a_spec_is_an_evaluator_failure_saying_where_it_looked() -> None:
    dataset = Dataset(
        name="weather",
        cases=[Case(name="bare", inputs="weather?")],
        evaluators=[ToolCallsMatch()],
    )
    report = dataset.evaluate_sync(_messages_task(), progress=False)
    [case] = report.cases
    assert case.assertions == {}
    [failure] = case.evaluator_failures
    assert failure.error_message == (
        "ValueError: no toolmatch spec: none was given, and case bare's metadata has no "
        "'toolmatch' key (got None): pass spec=, or put the spec under metadata['toolmatch']"
    )


def test_an_output_without_calls_to_read_fails_the_evaluator_not_the_run() -> None:
    dataset = Dataset(
        name="weather",
        cases=[Case(name="text", inputs="weather?")],
        evaluators=[ToolCallsMatch(PARIS)],
    )
    report = dataset.evaluate_sync(lambda prompt: 42, progress=False)
    [case] = report.cases
    assert case.assertions == {}
    [failure] = case.evaluator_failures
    assert failure.error_message == (
        "NoShapeError: to_calls cannot read tool calls from input: 42 (int); accepted shapes: "
        "https://github.com/toolmatch/toolmatch/blob/main/docs/formats.md#accepted-shapes"
    )


@pytest.fixture(scope="module")
def instrumented() -> None:
    # pydantic-evals records a case's spans through the global tracer provider, once set.
    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        trace.set_tracer_provider(TracerProvider())
    Agent.instrument_all()


@pytest.mark.usefixtures("instrumented")
def test_the_span_tree_gives_the_verdicts_the_messages_give() -> None:
    agent = _weather_agent()
    dataset = Dataset(
        name="weather",
        cases=[Case(name="right", inputs="Paris"), Case(name="wrong", inputs="London")],
        evaluators=[ToolCallsMatch(PARIS, calls_from="span_tree")],
    )

    async def task(prompt: str) -> str:
        return (await agent.run(prompt)).output

    report = dataset.evaluate_sync(task, progress=False)
    assert [case.assertions["toolmatch"].value for case in report.cases] == [True, False]
    reason = report.cases[1].assertions["toolmatch"].reason
    assert reason is not None
    # the span tree also names the agent that made the call
    assert reason.splitlines()[-1] == (
        "    call 0 get_weather({'city': 'London'}) by 'agent': city: expected 'Paris', got 'London'"
    )


def test_pass_hat_k_plots_each_case_over_its_repeated_runs() -> None:
    dataset = Dataset(
        name="weather",
        cases=[Case(name="flaky", inputs="weather?")],
        evaluators=[ToolCallsMatch(PARIS)],
        report_evaluators=[PassHatK()],
    )
    task = _messages_task(["Paris", "London", "Paris", "Lyon"])
    report = dataset.evaluate_sync(task, progress=False, repeat=4, max_concurrency=1)
    [plot] = report.analyses
    assert plot.type == "line_plot"
    [curve] = plot.curves
    assert curve.name == "flaky"
    assert [(point.x, point.y) for point in curve.points] == [
        (1, 0.5),
        (2, 1 / 6),
        (3, 0.0),
        (4, 0.0),
    ]


def test_pass_hat_k_without_the_assertion_in_the_report_says_so() -> None:
    dataset = Dataset(
        name="weather",
        cases=[Case(name="one", inputs="weather?")],
        evaluators=[ToolCallsMatch(PARIS, evaluation_name="tools")],
        report_evaluators=[PassHatK()],
    )
    report = dataset.evaluate_sync(_messages_task(), progress=False)
    assert report.analyses == []
    [failure] = report.report_evaluator_failures
    assert failure.error_message == (
        "ValueError: PassHatK: no run of the report has the assertion 'toolmatch' (its runs "
        "have ['tools']): add ToolCallsMatch to the dataset's evaluators, or pass the "
        "assertion's name"
    )


def test_calls_from_takes_output_or_span_tree_only() -> None:
    with pytest.raises(ValueError, match="calls_from") as error:
        ToolCallsMatch(PARIS, calls_from="messages")  # type: ignore[arg-type]
    assert str(error.value) == (
        "ToolCallsMatch: calls_from must be 'output' or 'span_tree', got 'messages'"
    )
