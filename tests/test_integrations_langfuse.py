"""Langfuse: ``toolmatch_evaluator`` on a trace's observations as Langfuse's API returns
them (``ObservationV2``), a passing and a failing run, the ``Evaluation`` objects it returns
(docs/integrations.md)."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

api = pytest.importorskip(
    "langfuse.api", reason="Langfuse is not installed: pip install 'toolmatch[langfuse]'"
)
langfuse = pytest.importorskip("langfuse")

from shapes import langfuse_observation  # noqa: E402
from toolmatch.integrations.langfuse import toolmatch_evaluator  # noqa: E402

SPEC = {
    "expected_tools": [
        {"name": "lookup_order", "args": {"order": 7}},
        {"name": "refund", "args": {"order": 7}, "result": "done"},
    ]
}


def _observations(order: int = 7) -> list[Any]:
    """A run's observations: an agent and its two tools, called for ``order``."""
    observation = partial(langfuse_observation, api)

    return [
        observation("o1", "AGENT", "support", None),
        observation("o2", "TOOL", "lookup_order", "o1", input={"order": order}, output="delivered"),
        observation("o3", "TOOL", "refund", "o1", input={"order": order}, output="done"),
    ]  # fmt: skip


def _by_name(evaluations: list[Any]) -> dict[str, Any]:
    assert all(isinstance(each, langfuse.Evaluation) for each in evaluations)
    return {each.name: each for each in evaluations}


def test_a_passing_run_from_the_items_metadata() -> None:
    evaluate = toolmatch_evaluator()
    evaluations = _by_name(
        evaluate(input="refund order 7", output=_observations(), metadata={"toolmatch": SPEC})
    )
    assert (evaluations["toolmatch"].value, evaluations["toolmatch"].data_type) == (1.0, "BOOLEAN")
    assert evaluations["toolmatch"].comment.startswith("turn 0 PASSED")
    assert (evaluations["toolmatch_f1"].value, evaluations["toolmatch_f1"].data_type) == (
        1.0,
        "NUMERIC",
    )


@pytest.mark.parametrize(
    "dump",
    [
        lambda observations: observations,
        lambda observations: [o.model_dump(mode="json", by_alias=True) for o in observations],
        lambda observations: json.loads(
            api.ObservationsV2Response(data=observations, meta={"cursor": None}).json()
        ),
    ],
    ids=["objects", "json", "page"],
)
def test_a_failed_refund_and_a_wrong_argument(dump: Any) -> None:
    evaluate = toolmatch_evaluator(SPEC, name="refund_tools")
    evaluations = _by_name(evaluate(input=None, output=dump(_observations(order=8))))
    verdict = evaluations["refund_tools"]
    assert verdict.value == 0.0
    assert "call 0: order: expected 7, got 8" in verdict.comment
    assert "call 1: order: expected 7, got 8" in verdict.comment
    assert evaluations["refund_tools_f1"].value == 0.0


def test_no_spec_is_an_error() -> None:
    with pytest.raises(ValueError, match=r"^no toolmatch spec") as error:
        toolmatch_evaluator()(input=None, output=_observations(), metadata=None)
    assert str(error.value) == (
        "no toolmatch spec: none was given, and the item's metadata has no 'toolmatch' key "
        "(got None): pass spec=, or put the spec under metadata['toolmatch']"
    )
