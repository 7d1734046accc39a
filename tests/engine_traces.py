"""A small trace directory for the Ray and Spark tests, and what ``toolmatch check`` says of it.

The runs are the example traces (five provider shapes in one file) and trials of them that
an engine could read wrong: turns of different shapes, argument keys that only some runs
have (``$absent``, ``exact``), an explicit ``null``, ints beside floats of the same field,
floats that print long, an integer past 64 bits, turns given as JSON text, an unknown case
and a run without turns; and lines as written by hand, which only a reader that splits
lines at ``\n`` alone reads as ``toolmatch check`` does: a raw U+2028 in a string, a
carriage return between a line's tokens, and blank lines, which the command leaves out.
"""

from __future__ import annotations

import json
import runpy
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "examples" / "spec.yaml"
DOCS = ROOT / "docs" / "parallel.md"
CHECK = (sys.executable, "-m", "toolmatch", "check")


def _call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args}


def _weather(days: object, city: str = "new york") -> list[list[dict[str, Any]]]:
    return [[_call("get_weather", city=city, days=days, units="metric")]]


def _translate(**args: Any) -> list[list[dict[str, Any]]]:
    return [[_call("translate", **args)]]


def _fetches(count: int) -> list[list[dict[str, Any]]]:
    return [[_call("fetch_page", url=f"https://example.com/{page}") for page in range(count)]]


TRIALS: dict[str, list[tuple[str, object]]] = {
    "trials-1.jsonl": [
        ("weather_lookup", _weather(3)),
        ("weather_lookup", _weather(2.9999999999999996)),
        ("weather_lookup", _weather(1e-7)),
        ("weather_lookup", json.dumps(_weather(3.0, "New  York"))),  # turns as JSON text
        ("translate_strict", _translate(text="hello", target="fr")),
        ("translate_strict", _translate(text="hello", target="fr", formality=None)),
        ("translate_strict", _translate(text="hello", target="fr ", formality="tu")),
    ],
    "trials-2.jsonl": [
        ("crawl_with_retries", _fetches(2)),
        ("crawl_with_retries", _fetches(3)),
        ("crawl_with_retries", [[*_fetches(3)[0], _call("log", size=2**70, ratio=0.1)]]),
        ("translate_strict", _translate(text=2**70, target="FR")),
        ("translate_strict", _translate(text="été", target="fr", note='\u2603 "quoted"')),
        ("weather", _weather(3)),  # no such case
        ("book_flight", []),
    ],
}


def _raw(number: int, space: str = " ", note: str = "") -> str:
    # A passing weather_lookup run, written without json.dumps to keep its raw characters.
    return (
        f'{{"id": "raw.jsonl:{number}",{space}"case": "weather_lookup", "turns": [[{{"name": '
        f'"get_weather", "args": {{"city": "new york", "days": 3, "units": "metric", '
        f'"note": "{note}"}}}}]]}}'
    )


RAW_LINES = [_raw(1, note="line\u2028separator"), "", _raw(3, space="\r"), "  \r", _raw(5)]


def write_traces(directory: Path) -> Path:
    """The trace files, each run with an ``id``; returns the directory."""
    directory.mkdir()
    lines = (ROOT / "examples" / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    runs = [json.loads(line) for line in lines]
    files: dict[str, list[dict[str, Any]]] = {"examples.jsonl": runs}
    for name, trials in TRIALS.items():
        files[name] = [{"case": case, "turns": turns} for case, turns in trials]
    files["trials-2.jsonl"].append({"case": "book_flight"})  # no turns
    for name, file_runs in files.items():
        with (directory / name).open("w", encoding="utf-8") as file:
            for index, run in enumerate(file_runs):
                file.write(json.dumps({"id": f"{name}:{index + 1}", **run}) + "\n")
    (directory / "raw.jsonl").write_bytes("\n".join(RAW_LINES).encode("utf-8") + b"\n")
    return directory


def command_verdicts(directory: Path) -> dict[str, dict[str, Any]]:
    """``toolmatch check --format json`` on each file: every run's ``case``, ``passed``,
    ``score`` (the mean of its turns' f1) and ``reason`` (an error's message), by ``id``."""
    verdicts: dict[str, dict[str, Any]] = {}
    for path in sorted(directory.iterdir()):
        lines = path.read_bytes().split(b"\n")  # the command's lines: cut at \n alone
        done = subprocess.run(
            [*CHECK, str(SPEC), str(path), "--format", "json", "--no-progress"],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 1, done.stderr  # runs failed, and none could not be read
        for line in done.stdout.splitlines():
            row = json.loads(line)
            if row["type"] not in ("case", "error"):
                continue
            run = json.loads(lines[row["line"] - 1])
            turns = row.get("turns", [])
            verdicts[run["id"]] = {
                "id": run["id"],
                "case": run.get("case"),
                "passed": row.get("passed", False),
                "score": sum(turn["f1"] for turn in turns) / len(turns) if turns else 0.0,
                "error": row.get("message"),
            }
    return verdicts


def assert_agrees_with_check(
    runs: list[dict[str, Any]], rates: list[dict[str, Any]], directory: Path
) -> None:
    """An engine's rows, one per run (``case``, ``passed``, ``score``, ``reason``) and one
    per case (``case``, ``runs``, ``passed``, ``pass_rate``), say what ``toolmatch check``
    says of the files in ``directory``: the same verdicts, each as many times."""
    expected = command_verdicts(directory)
    verdicts = Counter((run["case"], run["passed"], run["score"]) for run in runs)
    assert verdicts == Counter(
        (verdict["case"], verdict["passed"], verdict["score"]) for verdict in expected.values()
    )
    for run in runs:
        assert (run["reason"] == "") is run["passed"]
    reasons = {run["reason"] for run in runs}
    assert {verdict["error"] for verdict in expected.values() if verdict["error"]} <= reasons
    counts = {rate["case"]: (rate["runs"], rate["passed"]) for rate in rates}
    assert counts == case_counts(expected)
    assert {rate["case"]: rate["pass_rate"] for rate in rates}["weather_lookup"] == 7 / 8


def case_counts(verdicts: dict[str, dict[str, Any]]) -> dict[str, tuple[int, int]]:
    """Each case's runs and passed runs."""
    runs = Counter(verdict["case"] for verdict in verdicts.values())
    passed = Counter(verdict["case"] for verdict in verdicts.values() if verdict["passed"])
    return {case: (count, passed[case]) for case, count in runs.items()}


def load_example(name: str) -> dict[str, Any]:
    """An example script's names, run as a script would be but not as ``__main__``: its
    functions are then pickled by value, so the engines' workers need no ``examples`` path.
    As for a script, its folder is on the path, for examples/trace_pieces.py."""
    if str(ROOT / "examples") not in sys.path:
        sys.path.insert(0, str(ROOT / "examples"))
    return runpy.run_path(str(ROOT / "examples" / name), run_name=name.removesuffix(".py"))
