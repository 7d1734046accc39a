"""toolmatch inside inspect_ai, run by inspect_ai itself: ``eval`` of a task whose solver
calls a tool, on the mock model (offline: every output carries its usage, so no tokenizer is
fetched), scored by toolmatch's scorer over epochs."""

from __future__ import annotations

import gc
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip(
    "inspect_ai", reason="inspect_ai is not installed: pip install 'toolmatch[inspect-ai]'"
)

from inspect_ai import Epochs, Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import pass_k
from inspect_ai.solver import generate, use_tools
from inspect_ai.tool import tool

from toolmatch import pass_hat_k
from toolmatch.integrations.inspect_ai import toolmatch_scorer

PARIS = [{"name": "get_weather", "args": {"city": "Paris"}}]

# inspect_ai's own warnings, not toolmatch's to test: its retries use a tenacity argument
# tenacity deprecates, and its eval leaves anyio streams to the garbage collector.
pytestmark = [
    pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated"),
    pytest.mark.filterwarnings(
        "ignore:Exception ignored in.*MemoryObjectReceiveStream"
        ":pytest.PytestUnraisableExceptionWarning"
    ),
]


@pytest.fixture(scope="module", autouse=True)
def _streams_collected() -> Iterator[None]:
    """The anyio streams inspect_ai's eval leaves behind, collected before the next module's
    tests (another framework's), where their warnings would land."""
    yield
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


@tool
def get_weather() -> Any:
    async def execute(city: str) -> str:
        """The weather in a city.

        Args:
            city: The city.
        """
        return f"sunny in {city}"

    return execute


def _outputs(*cities: str) -> list[ModelOutput]:
    """The mock model's answers: for each city, a call of the tool, then a final text."""
    usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    outputs = []
    for city in cities:
        call = ModelOutput.for_tool_call("mockllm/model", "get_weather", {"city": city})
        done = ModelOutput.from_content("mockllm/model", "sunny")
        for output in (call, done):
            output.usage = usage  # else the mock model counts tokens with a downloaded encoding
            outputs.append(output)
    return outputs


def _run(samples: list[Sample], scorer: Any, cities: list[str], tmp_path: Path, **task: Any) -> Any:
    model = get_model("mockllm/model", custom_outputs=_outputs(*cities))
    [log] = eval(
        Task(
            dataset=samples,
            solver=[use_tools(get_weather()), generate()],
            scorer=scorer,
            **task,
        ),
        model=model,
        log_dir=str(tmp_path),
        display="none",
        max_samples=1,
    )
    assert log.status == "success", log.error
    return log


def test_a_sample_passes_and_a_wrong_argument_fails_naming_it(tmp_path: Path) -> None:
    samples = [Sample(id="paris", input="Weather?"), Sample(id="lyon", input="Weather?")]
    log = _run(samples, toolmatch_scorer(PARIS), ["Paris", "Lyon"], tmp_path)
    scores = {sample.id: sample.scores["toolmatch"] for sample in log.samples}
    right, wrong = scores["paris"], scores["lyon"]
    assert (right.value, right.metadata) == ("C", {"f1": 1.0})
    assert (wrong.value, wrong.metadata) == ("I", {"f1": 0.0})
    assert wrong.explanation.splitlines()[0] == (
        "turn 0 FAILED: 0 of 1 expectation(s) met over 1 call(s)"
    )
    assert (
        wrong.explanation.splitlines()[-1].endswith(
            "get_weather({'city': 'Lyon'}) id='for_tool_call_"  # the mock model's own call id
        )
        or "city: expected 'Paris', got 'Lyon'" in wrong.explanation.splitlines()[-1]
    )
    [metric] = log.results.scores
    assert metric.metrics["accuracy"].value == 0.5


def test_the_spec_comes_from_the_samples_metadata(tmp_path: Path) -> None:
    samples = [
        Sample(id="paris", input="Weather?", metadata={"toolmatch": PARIS}),
        Sample(id="forecast", input="Weather?", metadata={"toolmatch": ["get_forecast"]}),
    ]
    log = _run(samples, toolmatch_scorer(), ["Paris", "Paris"], tmp_path)
    scores = {sample.id: sample.scores["toolmatch"] for sample in log.samples}
    right, wrong = scores["paris"], scores["forecast"]
    assert (right.value, wrong.value) == ("C", "I")
    assert (
        "  expectation 0: FAILED ExpectedTool('get_forecast'): expected 1 matching call(s), "
        "got 0: no call's name contains 'get_forecast'; the turn called 'get_weather'"
    ) in wrong.explanation.splitlines()


def test_inspects_pass_k_over_epochs_is_toolmatchs_pass_hat_k(tmp_path: Path) -> None:
    samples = [Sample(id="flaky", input="Weather?")]
    cities = ["Paris", "Lyon", "Paris", "Paris"]
    log = _run(samples, toolmatch_scorer(PARIS), cities, tmp_path, epochs=Epochs(4, pass_k(2)))
    [sample_score] = log.results.scores
    assert sample_score.metrics["accuracy"].value == pytest.approx(pass_hat_k(4, 3, 2))
