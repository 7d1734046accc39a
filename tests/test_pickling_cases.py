"""Test cases pickle, with pickle and with the cloudpickle copies Ray and Spark ship closures
with, and their copies judge every run as the originals do (docs/parallel.md)."""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from catalogue_rows import ROWS
from toolmatch import ExpectedTool, ExpectedTurn, Fuzzy, Partial, TestCase, load_test_cases

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_RUNS = [
    json.loads(line)
    for line in (ROOT / "examples" / "traces.jsonl").read_text(encoding="utf-8").splitlines()
]


def _cloudpickle(module: str) -> Callable[[object], object]:
    def copy(value: object) -> object:
        pickler: Any = pytest.importorskip(module)
        return pickle.loads(pickler.dumps(value))

    return copy


COPIES = {
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
    "cloudpickle": _cloudpickle("cloudpickle"),
    "ray.cloudpickle": _cloudpickle("ray.cloudpickle"),
    "pyspark.cloudpickle": _cloudpickle("pyspark.cloudpickle"),
}


def _run(value: object) -> list[list[dict[str, Any]]]:
    return [[{"name": "tool", "args": {"value": value}}]]


@pytest.fixture(scope="module")
def catalogue_spec(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A YAML spec file with a case for each catalogue matcher row (tests/catalogue_rows.py)."""
    lines = ["test_cases:"]
    for index, (text, _, _) in enumerate(ROWS):
        lines.append(f"  - name: row {index}")
        lines.append(f"    expected_tools: [{{name: tool, args: {{value: {text}}}}}]")
    path = tmp_path_factory.mktemp("specs") / "catalogue.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("copy", COPIES.values(), ids=list(COPIES))
def test_a_spec_files_cases_copy_and_judge_as_the_originals(
    copy: Callable[[object], object], catalogue_spec: Path
) -> None:
    cases = load_test_cases(catalogue_spec)
    assert len(cases) == len(ROWS)
    copies = copy(cases)
    assert isinstance(copies, list)
    assert repr(copies) == repr(cases)
    for original, case, (text, matching, refused) in zip(cases, copies, ROWS, strict=True):
        assert isinstance(case, TestCase)
        for value in matching:
            assert case.passes(_run(value)), (text, value)
        for value in refused:
            assert not case.passes(_run(value)), (text, value)
            assert str(case.check(_run(value))) == str(original.check(_run(value)))


@pytest.mark.parametrize("copy", COPIES.values(), ids=list(COPIES))
def test_the_example_specs_cases_copy_and_judge_as_the_originals(
    copy: Callable[[object], object],
) -> None:
    cases = {case.name: case for case in load_test_cases(ROOT / "examples" / "spec.yaml")}
    copies = copy(cases)
    assert isinstance(copies, dict)
    assert repr(copies) == repr(cases)
    verdicts = [cases[run["case"]].passes(run["turns"]) for run in EXAMPLE_RUNS]
    assert verdicts == [True, True, True, False, False, True]
    for run in EXAMPLE_RUNS:
        original, copied = cases[run["case"]], copies[run["case"]]
        assert str(copied.check(run["turns"])) == str(original.check(run["turns"]))
        assert copied.passes(run["turns"]) is original.passes(run["turns"])


@pytest.mark.parametrize("copy", COPIES.values(), ids=list(COPIES))
def test_a_test_case_built_in_python_copies(copy: Callable[[object], object]) -> None:
    turn = ExpectedTurn([ExpectedTool("search", Partial({"q": Fuzzy("paris")}))], ordered=True)
    case = TestCase("lookup", [turn], max_calls=2)
    copied = copy(case)
    assert isinstance(copied, TestCase)
    assert repr(copied) == repr(case)
    assert (copied.name, copied.max_calls) == ("lookup", 2)
    good, bad = [[{"name": "search", "args": {"q": "PARIS"}}]], [[{"name": "search"}] * 3]
    assert copied.passes(good)
    assert not copied.passes(bad)
    assert str(copied.check(bad)) == str(case.check(bad))
