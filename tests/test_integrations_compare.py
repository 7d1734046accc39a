"""The table "On the same bad runs" of docs/integrations.md, run: each framework's own
deterministic tool-call check and toolmatch's adapter for it, on the same runs, in the
framework's own objects; the table's rows are these outcomes, word for word.

Each framework's rows are checked where the framework is installed (``.ci/integrations``):
the dev environment (LangSmith with openevals, MLflow), the evals environment (pydantic-evals,
deepeval), ADK's, and promptfoo's npm package (``PROMPTFOO_PACKAGE``, run by Node);
elsewhere its test skips, naming it."""

from __future__ import annotations

import asyncio
import base64
import json
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from toolmatch import NotRecordedError

DOCS = Path(__file__).resolve().parent.parent / "docs" / "integrations.md"
HEADING = "### On the same bad runs"

Expected = tuple[str, dict[str, Any]]
Call = tuple[str, dict[str, Any], str]  # name, arguments, the agent that made it


@dataclass(frozen=True)
class Run:
    """A bad (or valid) run: the calls every framework is told to expect, in the order
    written, what toolmatch's spec adds to each (an order, an agent), and the run's calls."""

    column: str
    expected: list[Expected]
    additions: list[dict[str, Any]]
    calls: list[Call]
    ordered: bool  # the framework's check in its ordered mode (else its unordered one)

    @property
    def spec(self) -> dict[str, Any]:
        return {
            "expected_tools": [
                {"name": name, "args": args, **added}
                for (name, args), added in zip(self.expected, self.additions, strict=True)
            ]
        }


def _weather(city: str) -> Expected:
    return ("get_weather", {"city": city})


ORDER: list[Expected] = [("lookup_order", {"order": 7}), ("refund", {"order": 7}), ("notify", {})]
# look the order up before the refund; the customer may be told at any point
ORDER_ADDITIONS: list[dict[str, Any]] = [{"id": "lookup"}, {"after": ["lookup"]}, {}]


def _by(agent: str, *expected: Expected) -> list[Call]:
    return [(name, args, agent) for name, args in expected]


RUNS = [
    # two cities expected; one of the two calls is right, the other asks for a third city
    Run(
        "wrong city",
        [_weather("Paris"), _weather("London")],
        [{}, {}],
        _by("support", _weather("London"), _weather("Berlin")),
        ordered=False,
    ),
    Run(
        "partial order broken",
        ORDER,
        ORDER_ADDITIONS,
        _by("support", ORDER[1], ORDER[0], ORDER[2]),
        ordered=False,
    ),
    # a valid run the order written in the list does not follow: a check in an ordered
    # mode must pass it to express the partial order
    Run(
        "partial order kept",
        ORDER,
        ORDER_ADDITIONS,
        _by("support", ORDER[2], ORDER[0], ORDER[1]),
        ordered=True,
    ),
    Run(
        "wrong agent",
        [("refund", {"order": 7})],
        [{"agent": "billing"}],
        _by("support", ("refund", {"order": 7})),
        ordered=False,
    ),
]


def outcome(passed: bool, score: float | None = None) -> str:
    """A cell of the table: the verdict, and the framework's number where it gives one."""
    verdict = "passes" if passed else "fails"
    return verdict if score is None else f"{verdict} ({score:.2g})"


def ours(check: Callable[[Run], bool], run: Run) -> str:
    """toolmatch's adapter on a run: its verdict, or the error where the framework's
    input does not record what the spec asserts."""
    try:
        return outcome(check(run))
    except NotRecordedError:
        return "error: agent not recorded"


def table() -> dict[str, list[str]]:
    """The rows of the docs' table, by their first cell."""
    text = DOCS.read_text(encoding="utf-8")
    assert HEADING in text, f"docs/integrations.md has no heading {HEADING!r}"
    lines = text.split(HEADING, 1)[1].strip().splitlines()
    rows: dict[str, list[str]] = {}
    for line in lines:
        if not line.startswith("|"):
            if rows:
                break
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        rows[cells[0]] = cells[1:]
    return rows


Judge = Callable[[Run], str]


def check_rows(
    framework: str,
    checks: dict[str, tuple[str, Judge]],
    adapter: str,
    reads: str,
    toolmatch: Callable[[Run], bool],
) -> None:
    """The framework's rows of the docs' table: each of its own ``checks`` (its name, how it
    was run, its outcome on a run), then toolmatch's ``adapter`` (what it reads, its
    verdict on a run), each its description and its outcomes on RUNS."""
    rows = {f"{framework}: {name}": (how, judge) for name, (how, judge) in checks.items()}
    rows[f"{framework}: toolmatch's `{adapter}`"] = (reads, lambda run: ours(toolmatch, run))
    documented = table()
    assert documented["check"] == ["as run", *(run.column for run in RUNS)]
    for label, (how, judge) in rows.items():
        assert documented.get(label) == [how, *(judge(run) for run in RUNS)], label


def test_the_table_is_found_and_read() -> None:
    rows = table()
    assert rows["check"][0] == "as run"
    # every framework row has a toolmatch row beside it
    frameworks = [label for label in rows if label not in {"check", "---"}]
    assert frameworks, "the table has no rows"
    assert all(len(cells) == len(RUNS) + 1 for cells in rows.values()), rows


# -- LangSmith: openevals' trajectory match ----------------------------------------------


def _langchain_messages(calls: list[Call]) -> list[Any]:
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    messages: list[Any] = [HumanMessage("refund order 7")]
    for number, (name, args, agent) in enumerate(calls):
        call = {"name": name, "args": args, "id": f"call-{number}"}
        messages.append(AIMessage("", name=agent, tool_calls=[call]))
        messages.append(ToolMessage("done", tool_call_id=f"call-{number}"))
    return messages


def test_langsmith_openevals_rows() -> None:
    pytest.importorskip("openevals", reason="openevals is not installed: LangSmith's row")
    from openevals.trajectory.match import create_trajectory_match_evaluator

    from toolmatch.integrations.langsmith import toolmatch_evaluator

    def theirs(run: Run) -> str:
        match = create_trajectory_match_evaluator(
            trajectory_match_mode="strict" if run.ordered else "unordered",
            tool_args_match_mode="exact",
        )
        reference = _langchain_messages([(name, args, "") for name, args in run.expected])
        result = match(outputs=_langchain_messages(run.calls), reference_outputs=reference)
        return outcome(result["score"])

    def toolmatch(run: Run) -> bool:
        messages = {"messages": _langchain_messages(run.calls)}
        passed, _ = toolmatch_evaluator(run.spec)(messages, {})["results"]
        return bool(passed["score"])

    check_rows(
        "LangSmith",
        {
            "openevals' trajectory match": (
                '`tool_args_match_mode="exact"`, `trajectory_match_mode="unordered"` '
                '(`"strict"` for the order kept)',
                theirs,
            ),
        },
        "toolmatch_evaluator",
        "LangChain messages, the agent an `AIMessage`'s `name`",
        toolmatch,
    )


# -- MLflow: ToolCallCorrectness with exact matching ------------------------------------


def _mlflow_trace(calls: list[Call]) -> Any:
    from mlflow.entities import Trace

    def ident(number: int, size: int) -> str:
        return base64.b64encode(number.to_bytes(size, "big")).decode()

    def span(number: int, name: str, kind: str, inputs: object, parent: int | None) -> Any:
        attributes = {
            "mlflow.traceRequestId": '"tr-1"',
            "mlflow.spanType": json.dumps(kind),
            "mlflow.spanInputs": json.dumps(inputs),
            "mlflow.spanOutputs": '"done"',
        }
        return {
            "trace_id": ident(1, 16),
            "span_id": ident(number, 8),
            "parent_span_id": None if parent is None else ident(parent, 8),
            "name": name,
            "start_time_unix_nano": number,
            "end_time_unix_nano": 100 - number,
            "status": {"code": "STATUS_CODE_OK", "message": ""},
            "attributes": attributes,
        }

    agents = sorted({agent for _, _, agent in calls})
    spans = [span(1 + n, agent, "AGENT", {}, None) for n, agent in enumerate(agents)]
    # the tools offered, on a model span: else the scorer asks an LLM which tools there were
    model = span(9, "chat", "CHAT_MODEL", {"messages": []}, 1)
    tools = [{"type": "function", "function": {"name": name}} for name, _, _ in calls]
    model["attributes"]["mlflow.chat.tools"] = json.dumps(tools)
    spans.append(model)
    spans += [
        span(10 + n, name, "TOOL", args, 1 + agents.index(agent))
        for n, (name, args, agent) in enumerate(calls)
    ]
    info = {
        "trace_id": "tr-1",
        "request_time": "2026-12-01T00:00:00Z",
        "state": "OK",
        "trace_location": {
            "type": "MLFLOW_EXPERIMENT",
            "mlflow_experiment": {"experiment_id": "0"},
        },
    }
    return Trace.from_dict({"info": info, "data": {"spans": spans}})


def test_mlflow_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("mlflow", reason="MLflow is not installed: MLflow's row")
    # litellm, which the scorers import, fetches a price list unless told not to
    monkeypatch.setenv("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from mlflow.genai.scorers import ToolCallCorrectness

    from toolmatch.integrations.mlflow import toolmatch_scorer

    def theirs(run: Run) -> str:
        scorer = ToolCallCorrectness(should_exact_match=True, should_consider_ordering=run.ordered)
        expected = [{"name": name, "arguments": args} for name, args in run.expected]
        feedback = scorer(
            trace=_mlflow_trace(run.calls), expectations={"expected_tool_calls": expected}
        )
        assert feedback.source.source_type == "CODE", feedback.source  # no judge asked
        return outcome(feedback.value == "yes")

    def toolmatch(run: Run) -> bool:
        passed, _ = toolmatch_scorer(run.spec)(trace=_mlflow_trace(run.calls))
        return bool(passed.value)

    check_rows(
        "MLflow",
        {
            "`ToolCallCorrectness`": (
                "`should_exact_match=True` (no judge), `should_consider_ordering=True` "
                "for the order kept",
                theirs,
            ),
        },
        "toolmatch_scorer",
        "the trace's `TOOL` spans, the agent their `AGENT` span",
        toolmatch,
    )


# -- deepeval: ToolCorrectnessMetric ------------------------------------------------------


def test_deepeval_rows(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("deepeval", reason="deepeval is not installed: deepeval's row")
    monkeypatch.setenv("DEEPEVAL_TELEMETRY_OPT_OUT", "1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)  # deepeval writes its .deepeval folder where it runs
    from deepeval.errors import DeepEvalError
    from deepeval.metrics import ToolCorrectnessMetric
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import LLMTestCase, ToolCall, ToolCallParams

    from toolmatch.integrations.deepeval import ToolmatchMetric

    # The metric builds its LLM at construction, even for its deterministic part: without a
    # key it refuses (the docs say so); a model that is never asked stands in for it.
    with pytest.raises(DeepEvalError, match="OpenAI API key is not configured"):
        ToolCorrectnessMetric()

    class NeverAsked(DeepEvalBaseLLM):  # type: ignore[misc]
        def __init__(self) -> None:
            pass

        def load_model(self) -> None:
            return None

        def generate(self, prompt: str, schema: object = None) -> str:
            raise AssertionError("ToolCorrectnessMetric asked its LLM")

        async def a_generate(self, prompt: str, schema: object = None) -> str:
            raise AssertionError("ToolCorrectnessMetric asked its LLM")

        def get_model_name(self) -> str:
            return "never asked"

    def case(calls: list[Call], expected: list[Expected]) -> LLMTestCase:
        return LLMTestCase(
            input="refund order 7",
            tools_called=[ToolCall(name=name, input_parameters=args) for name, args, _ in calls],
            expected_tools=[ToolCall(name=name, input_parameters=args) for name, args in expected],
        )

    def theirs(run: Run) -> str:
        metric = ToolCorrectnessMetric(
            model=NeverAsked(),
            evaluation_params=[ToolCallParams.INPUT_PARAMETERS],
            should_consider_ordering=run.ordered,
            async_mode=False,
        )
        score = metric.measure(case(run.calls, run.expected), _show_indicator=False)
        return outcome(metric.is_successful(), score)

    def toolmatch(run: Run) -> bool:
        metric = ToolmatchMetric(run.spec)
        metric.measure(case(run.calls, run.expected))
        return bool(metric.is_successful())

    check_rows(
        "deepeval",
        {
            "`ToolCorrectnessMetric`": (
                "`evaluation_params=[ToolCallParams.INPUT_PARAMETERS]`, its threshold 0.5; "
                "`should_consider_ordering=True` for the order kept",
                theirs,
            ),
        },
        "ToolmatchMetric",
        "`tools_called`, which names no agent",
        toolmatch,
    )


# -- Google ADK: tool_trajectory_avg_score ------------------------------------------------


def test_adk_rows() -> None:
    pytest.importorskip("google.adk.evaluation", reason="google-adk is not installed: ADK's row")
    with warnings.catch_warnings():  # ADK's registry says, once, that it is experimental
        warnings.filterwarnings("ignore", r"\[EXPERIMENTAL\]", UserWarning)
        from google.adk.evaluation.eval_case import Invocation, InvocationEvent, InvocationEvents
        from google.adk.evaluation.eval_config import EvalConfig, get_eval_metrics_from_config
        from google.adk.evaluation.evaluator import EvalStatus
        from google.adk.evaluation.metric_evaluator_registry import (
            DEFAULT_METRIC_EVALUATOR_REGISTRY,
            register_custom_metrics_from_config,
        )
        from google.genai import types

    def invocation(calls: list[Call]) -> Invocation:
        events = [
            InvocationEvent(
                author=agent,
                content=types.Content(
                    role="model",
                    parts=[types.Part(function_call=types.FunctionCall(name=name, args=args))],
                ),
            )
            for name, args, agent in calls
        ]
        return Invocation(
            user_content=types.Content(role="user", parts=[types.Part(text="refund order 7")]),
            intermediate_data=InvocationEvents(invocation_events=events),
        )

    def evaluate(config: dict[str, Any], name: str, run: Run) -> Any:
        eval_config = EvalConfig.model_validate(config)
        registry = register_custom_metrics_from_config(
            eval_config, DEFAULT_METRIC_EVALUATOR_REGISTRY
        )
        [metric] = [m for m in get_eval_metrics_from_config(eval_config) if m.metric_name == name]
        expected = [invocation([(name, args, "") for name, args in run.expected])]
        result = registry.get_evaluator(metric).evaluate_invocations(
            [invocation(run.calls)], expected, None
        )
        return asyncio.run(result) if asyncio.iscoroutine(result) else result

    def theirs(run: Run) -> str:
        match_type = "IN_ORDER" if run.ordered else "ANY_ORDER"
        criterion = {"threshold": 1.0, "match_type": match_type}
        config = {"criteria": {"tool_trajectory_avg_score": criterion}}
        result = evaluate(config, "tool_trajectory_avg_score", run)
        return outcome(result.overall_eval_status == EvalStatus.PASSED, result.overall_score)

    def toolmatch(run: Run) -> bool:
        config = {
            "criteria": {"toolmatch": {"threshold": 1.0, "toolmatch": run.spec}},
            "custom_metrics": {
                "toolmatch": {
                    "code_config": {"name": "toolmatch.integrations.adk.toolmatch_metric"}
                }
            },
        }
        result = evaluate(config, "toolmatch", run)
        return bool(result.overall_eval_status == EvalStatus.PASSED)

    check_rows(
        "Google ADK",
        {
            "`tool_trajectory_avg_score`": (
                '`"match_type": "ANY_ORDER"` (`"IN_ORDER"` for the order kept), threshold 1.0',
                theirs,
            ),
        },
        "toolmatch_metric",
        "the invocation's events, the agent each event's `author`",
        toolmatch,
    )


# -- pydantic-evals: ToolCorrectness, ArgumentCorrectness, TrajectoryMatch ----------------


def test_pydantic_evals_rows() -> None:
    pytest.importorskip("pydantic_evals", reason="pydantic-evals is not installed: its row")
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_evals import Case, Dataset
    from pydantic_evals.evaluators import (
        ArgumentCorrectness,
        Evaluator,
        ToolCorrectness,
        TrajectoryMatch,
    )

    from toolmatch.integrations.pydantic_evals import ToolCallsMatch

    # pydantic-evals records a case's spans through the global tracer provider, once set
    if not isinstance(trace.get_tracer_provider(), TracerProvider):
        trace.set_tracer_provider(TracerProvider())
    Agent.instrument_all()

    def report(run: Run, evaluators: list[Evaluator[Any, Any, Any]]) -> Any:
        """The run made by a pydantic-ai agent named after its calls' agent, one call a
        model response, its span tree judged by ``evaluators``."""
        [agent_name] = {agent for _, _, agent in run.calls}

        def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
            step = len(messages) // 2  # the prompt, then a response and its tool's return
            if step < len(run.calls):
                name, args, _ = run.calls[step]
                return ModelResponse(parts=[ToolCallPart(name, args)])
            return ModelResponse(parts=[TextPart("done")])

        agent = Agent(FunctionModel(model), name=agent_name)

        @agent.tool_plain
        def get_weather(city: str) -> str:
            return f"sunny in {city}"

        @agent.tool_plain
        def lookup_order(order: int) -> str:
            return "paid"

        @agent.tool_plain
        def refund(order: int) -> str:
            return "refunded"

        @agent.tool_plain
        def notify() -> str:
            return "sent"

        async def task(prompt: str) -> str:
            return (await agent.run(prompt)).output

        dataset = Dataset(
            name="compare", cases=[Case(name="run", inputs="go")], evaluators=evaluators
        )
        [case] = dataset.evaluate_sync(task, progress=False, max_concurrency=1).cases
        return case

    def theirs(run: Run) -> str:
        names = [name for name, _ in run.expected]
        if run.ordered:
            case = report(run, [TrajectoryMatch(expected_trajectory=names)])
            return f"scores {case.scores['TrajectoryMatch'].value:.2g}"
        arguments = [
            ArgumentCorrectness(
                tool_name=name,
                expected_arguments=args,
                occurrence=names[:number].count(name),  # the call of that name in its place
                evaluation_name=f"arguments {number}",
            )
            for number, (name, args) in enumerate(run.expected)
        ]
        case = report(run, [ToolCorrectness(expected_tools=names), *arguments])
        assert len(case.assertions) == 1 + len(arguments), case.assertions
        return outcome(all(result.value for result in case.assertions.values()))

    def toolmatch(run: Run) -> bool:
        case = report(run, [ToolCallsMatch(run.spec, calls_from="span_tree")])
        assert not case.evaluator_failures, case.evaluator_failures
        return bool(case.assertions["toolmatch"].value)

    check_rows(
        "pydantic-evals",
        {
            "its agentic evaluators": (
                "`ToolCorrectness` and an `ArgumentCorrectness` per expected call, all "
                "passed; `TrajectoryMatch` (`in_order`, a score) for the order kept",
                theirs,
            ),
        },
        "ToolCallsMatch",
        '`calls_from="span_tree"`, the agent its run\'s span',
        toolmatch,
    )


# -- promptfoo: tool-call-f1, and its trajectory assertions -------------------------------

# promptfoo's assertions, run by promptfoo's own runAssertion in Node: each job an
# assertion with the provider's output and, for the trajectory assertions, the run's trace
_PROMPTFOO = """
const { pathToFileURL } = await import("node:url");
const entry = pathToFileURL(process.env.PROMPTFOO_PACKAGE + "/dist/src/index.js");
const { assertions } = await import(entry.href);
const jobs = JSON.parse(process.argv[1]);
const results = [];
for (const job of jobs) {
  const trace = job.spans && { traceId: "trace-1", traceData: { traceId: "trace-1", spans: job.spans } };
  const result = await assertions.runAssertion({
    assertion: job.assertion, test: { vars: {} }, providerResponse: { output: job.output }, ...trace,
  });
  results.push({ pass: result.pass, score: result.score, reason: result.reason });
}
console.log(JSON.stringify(results));
"""


def test_promptfoo_rows(tmp_path: Path) -> None:
    import os
    import shutil
    import subprocess

    package = os.environ.get("PROMPTFOO_PACKAGE")
    if not package or shutil.which("node") is None:
        pytest.skip("promptfoo is not installed: set PROMPTFOO_PACKAGE to its npm package folder")
    from toolmatch.integrations.promptfoo import get_assert

    def output(calls: list[Call]) -> list[dict[str, Any]]:  # OpenAI tool calls, as providers give
        return [
            {"type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            for name, args, _ in calls
        ]

    def spans(calls: list[Call]) -> list[dict[str, Any]]:  # the run's trace: a span a call
        return [
            {
                "spanId": f"span-{number}",
                "name": name,
                "startTime": 10 * number,
                "endTime": 10 * number + 5,
                "attributes": {
                    "gen_ai.tool.name": name,
                    "gen_ai.tool.call.arguments": json.dumps(args),
                    "gen_ai.agent.name": agent,
                },
            }
            for number, (name, args, agent) in enumerate(calls)
        ]

    def run_assertions(jobs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        environment = {
            **os.environ,
            "PROMPTFOO_CONFIG_DIR": str(tmp_path),  # its database and logs, thrown away
            "PROMPTFOO_DISABLE_TELEMETRY": "1",
            "PROMPTFOO_DISABLE_UPDATE": "1",
        }
        completed = subprocess.run(
            ["node", "--input-type=module", "-e", _PROMPTFOO, json.dumps(jobs)],
            capture_output=True,
            text=True,
            env=environment,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )
        assert completed.returncode == 0, completed.stderr
        results: list[dict[str, Any]] = json.loads(completed.stdout.strip().splitlines()[-1])
        return results

    def f1_jobs(run: Run) -> list[dict[str, Any]]:
        assertion = {"type": "tool-call-f1", "value": [name for name, _ in run.expected]}
        return [{"assertion": assertion, "output": output(run.calls)}]

    def trajectory_jobs(run: Run) -> list[dict[str, Any]]:
        if run.ordered:
            names = [name for name, _ in run.expected]
            assertions = [{"type": "trajectory:tool-sequence", "value": names}]
        else:
            assertions = [
                {
                    "type": "trajectory:tool-args-match",
                    "value": {"name": name, "args": args, "mode": "exact"},
                }
                for name, args in run.expected
            ]
        return [{"assertion": a, "output": "done", "spans": spans(run.calls)} for a in assertions]

    # one Node process for every assertion: promptfoo takes seconds to load
    batches = [
        (kind, run, jobs(run))
        for kind, jobs in (("f1", f1_jobs), ("trajectory", trajectory_jobs))
        for run in RUNS
    ]
    results = iter(run_assertions([job for _, _, jobs in batches for job in jobs]))
    graded = {(kind, run.column): [next(results) for _ in jobs] for kind, run, jobs in batches}

    def f1(run: Run) -> str:
        [result] = graded["f1", run.column]
        return outcome(result["pass"], result["score"])

    def trajectory(run: Run) -> str:
        return outcome(all(result["pass"] for result in graded["trajectory", run.column]))

    def toolmatch(run: Run) -> bool:
        result = get_assert(output(run.calls), {"vars": {}, "config": {"toolmatch": run.spec}})
        return bool(result["pass"])

    check_rows(
        "promptfoo",
        {
            "`tool-call-f1`": ("the expected tool names, threshold 1", f1),
            "its trajectory assertions": (
                '`trajectory:tool-args-match` (`mode: "exact"`) per expected call, all passed; '
                "`trajectory:tool-sequence` for the order kept",
                trajectory,
            ),
        },
        "get_assert",
        "the provider's output, OpenAI tool calls, which name no agent",
        toolmatch,
    )
