"""toolmatch inside MLflow, run by MLflow itself: traces of a traced agent written to a local
sqlite store, judged by ``mlflow.genai.evaluate`` with toolmatch's scorer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("mlflow", reason="MLflow is not installed: pip install 'toolmatch[mlflow]'")
pytest.importorskip("alembic", reason="MLflow's sqlite store needs alembic and sqlalchemy")

import mlflow

from toolmatch.integrations.mlflow import toolmatch_scorer

# MLflow's own warnings, not toolmatch's to test: its sqlite store uses a SQLAlchemy loader
# deprecated in 2.1, and mlflow.pyfunc warns of its own type hints as evaluate imports it.
pytestmark = [
    pytest.mark.filterwarnings("ignore::sqlalchemy.exc.SADeprecationWarning"),
    pytest.mark.filterwarnings("ignore:.*Any type hint is inferred as AnyType:UserWarning"),
]

PARIS = [{"name": "get_weather", "args": {"city": "Paris"}}]


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Any]]:
    """Two runs of a traced agent, asking for the weather in Paris, then in London."""
    store = tmp_path_factory.mktemp("mlflow")
    previous = mlflow.get_tracking_uri()
    with pytest.MonkeyPatch.context() as patch:
        # litellm, which the evaluation imports, fetches a price list unless told not to
        patch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
        mlflow.set_tracking_uri(f"sqlite:///{store}/mlflow.db")
        try:
            mlflow.create_experiment("toolmatch", artifact_location=store.as_uri())
            mlflow.set_experiment("toolmatch")

            @mlflow.trace(span_type="TOOL")
            def get_weather(city: str) -> str:
                return f"sunny in {city}"

            @mlflow.trace(span_type="AGENT", name="forecaster")
            def agent(city: str) -> str:
                return get_weather(city=city)

            ids = []
            for city in ("Paris", "London"):
                agent(city)
                ids.append(mlflow.get_last_active_trace_id())
            mlflow.flush_trace_async_logging()
            yield [mlflow.get_trace(trace_id, flush=True) for trace_id in ids]
        finally:
            mlflow.set_tracking_uri(previous)


def _evaluate(rows: list[dict[str, Any]], scorer: Any) -> Any:
    return mlflow.genai.evaluate(data=rows, scorers=[scorer])


def test_a_trace_passes_and_a_wrong_argument_fails_naming_it(traces: list[Any]) -> None:
    result = _evaluate([{"trace": trace} for trace in traces], toolmatch_scorer(PARIS))
    assert result.metrics == {"toolmatch/mean": 0.5, "toolmatch_f1/mean": 0.5}
    table = result.tables["eval_results"]
    assert table["toolmatch/value"].tolist() == [True, False]
    assert table["toolmatch_f1/value"].tolist() == [1.0, 0.0]
    rationale = table["toolmatch/rationale"].tolist()[1]
    assert rationale.splitlines()[0] == "turn 0 FAILED: 0 of 1 expectation(s) met over 1 call(s)"
    # the TOOL span's call, and the AGENT span it ran in
    assert rationale.splitlines()[-1] == (
        "    call 0 get_weather({'city': 'London'}) by 'forecaster': city: expected 'Paris', "
        "got 'London'"
    )


def test_the_spec_comes_from_each_rows_expectations(traces: list[Any]) -> None:
    rows = [
        {"trace": traces[0], "expectations": {"toolmatch_spec": PARIS}},
        {"trace": traces[1], "expectations": {"toolmatch_spec": ["get_forecast"]}},
    ]
    result = _evaluate(rows, toolmatch_scorer())
    table = result.tables["eval_results"]
    # the spec's expectation, named apart from the feedback, hides no column
    assert table["toolmatch/value"].tolist() == [True, False]
    assert (
        "  expectation 0: FAILED ExpectedTool('get_forecast'): expected 1 matching call(s), "
        "got 0: no call's name contains 'get_forecast'; the turn called 'get_weather'"
    ) in table["toolmatch/rationale"].tolist()[1].splitlines()


def test_a_row_without_a_spec_is_a_scorer_error_saying_where_it_looked(
    traces: list[Any],
) -> None:
    scorer = toolmatch_scorer()
    with pytest.raises(ValueError, match="no toolmatch spec") as error:
        scorer(trace=traces[0], expectations={"expected_response": "sunny"})
    assert str(error.value) == (
        "no toolmatch spec: none was given, and the row's expectations has no "
        "'toolmatch_spec' key (got {'expected_response': 'sunny'}): pass spec=, or put the "
        "spec under expectations['toolmatch_spec']"
    )


def test_the_scorer_called_alone_gives_its_two_feedbacks(traces: list[Any]) -> None:
    passed, f1 = toolmatch_scorer(PARIS, name="weather")(trace=traces[0])
    assert (passed.name, passed.value, f1.name, f1.value) == ("weather", True, "weather_f1", 1.0)


def test_a_bad_spec_raises_when_the_scorer_is_made() -> None:
    with pytest.raises(TypeError, match="a toolmatch spec must be"):
        toolmatch_scorer("get_weather")
