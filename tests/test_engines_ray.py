"""examples/ray_check.py on Ray Data in local mode: the verdicts of ``toolmatch check``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine_traces import (
    DOCS,
    ROOT,
    SPEC,
    assert_agrees_with_check,
    command_verdicts,
    load_example,
    write_traces,
)
from toolmatch import check_batch, load_test_cases

ray = pytest.importorskip("ray")
# Ray warns of its own deprecated settings while reading its defaults.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray")


@pytest.fixture(scope="module")
def session() -> Iterator[None]:
    from ray.data import DataContext

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    context = DataContext.get_current()
    context.enable_progress_bars = False
    context.default_hash_shuffle_parallelism = 2  # a few rows: 200 shuffle tasks take seconds
    yield
    ray.shutdown()


@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_traces(tmp_path_factory.mktemp("ray") / "traces")


def test_the_pipeline_agrees_with_toolmatch_check(session: None, traces: Path) -> None:
    verdicts, rates = load_example("ray_check.py")["check_traces"](str(SPEC), str(traces))
    assert_agrees_with_check(verdicts.take_all(), rates, traces)


def test_read_json_would_add_every_runs_keys_to_every_run(session: None, traces: Path) -> None:
    # Why the example reads text: Arrow infers one struct for all the runs' turns, so a key
    # that only some runs have comes back as None in the others, and $absent then fails.
    [path] = [traces / "trials-1.jsonl"]
    lines = path.read_text(encoding="utf-8").splitlines()[4:6]
    (traces.parent / "two").mkdir()
    (traces.parent / "two" / "runs.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    read = ray.data.read_json(str(traces.parent / "two")).take_all()
    first_args = read[0]["turns"][0][0]["args"]
    assert first_args == {"text": "hello", "target": "fr", "formality": None}
    assert json.loads(lines[0])["turns"][0][0]["args"] == {"text": "hello", "target": "fr"}
    cases = load_test_cases(SPEC)
    as_read: dict[str, list[Any]] = {"case": [read[0]["case"]], "turns": [read[0]["turns"]]}
    assert check_batch(cases, as_read)["passed"] == [False]
    assert command_verdicts(traces.parent / "two")["trials-1.jsonl:5"]["passed"] is True


def test_read_text_would_cut_lines_that_toolmatch_check_reads_whole(
    session: None, tmp_path: Path
) -> None:
    # Why the example reads its own lines: read_text cuts a line at a raw U+2028 in a JSON
    # string, making two lines that are not JSON.
    (tmp_path / "runs.jsonl").write_bytes('{"case": "a\u2028b"}\n\n{}\n'.encode())
    read = [row["text"] for row in ray.data.read_text(str(tmp_path)).take_all()]
    assert read == ['{"case": "a', 'b"}', "{}"]


def test_the_docs_show_this_file() -> None:
    shown = '```py title="examples/ray_check.py"\n--8<-- "examples/ray_check.py"\n```\n'
    assert shown in DOCS.read_text(encoding="utf-8")  # mkdocs includes the file there


def test_read_json_fails_on_turns_of_different_shapes_and_misreads_through_pandas(
    session: None, tmp_path: Path
) -> None:
    # The example traces hold a message in one run's turns and a list of calls in another's.
    with pytest.raises(Exception, match="Extra data"):  # Arrow fails, then json.load does
        ray.data.read_json(str(ROOT / "examples" / "traces.jsonl")).take_all()
    # lines=True reads through pandas: a float to a nearby value, a case "1" as a number.
    run = {"case": "1", "turns": [[{"name": "tool", "args": {"value": 0.13436424411240122}}]]}
    (tmp_path / "runs.jsonl").write_text(json.dumps(run) + "\n", encoding="utf-8")
    [read] = ray.data.read_json(str(tmp_path), lines=True).take_all()
    assert read["case"] == 1
    assert read["turns"][0][0]["args"]["value"] == 0.134364244112401
