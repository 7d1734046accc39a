"""Runs that cannot be judged: a record that says its run did not complete (``--error-key``,
``--completed-value``) and a check on a field the input does not record are NOT EVALUABLE,
never a pass, counted apart from failures in every format, left out of the trials, and
failing the command unless ``--not-evaluable pass-through`` (docs/cli.md, "Runs that
cannot be judged")."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from tests.commands import jsonl, toolmatch

from toolmatch._cli.main import _parser

SPEC = (
    "test_cases:\n"
    "  - name: refund\n"
    "    expected_tools: [issue_refund, {name: delete_account, never: true}]\n"
    "  - name: guard\n"
    "    expected_tools: [{name: refund, never: true, agent: triage}]\n"
)
REFUNDED = [[{"name": "issue_refund", "args": {}}]]
NOTHING: list[list[object]] = [[]]
UNRECORDED = (
    "turn 0: ExpectedTool.never('refund', agent='triage') asserts who made call 0 refund({}), "
    "which a plain call does not record: pass calls that hold their agent "
    '(ToolCall(agent=...), an "agent" key), or leave agent= out'
)


def did_not_complete(key: str, value: str) -> str:
    return f"the run did not complete: its {key!r} is {value} (--error-key)"


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def check(spec: Path, *runs: object, args: tuple[str, ...] = ()) -> tuple[int, list[str]]:
    done = toolmatch("check", spec, "-", *args, stdin=jsonl(*runs))
    assert done.stderr == ""
    return done.returncode, done.stdout.splitlines()


def test_a_run_whose_error_field_is_set_is_not_evaluable_never_a_pass(spec: Path) -> None:
    # A run cut short passes every never and cap: its verdict would be a lie.
    status, lines = check(
        spec,
        {"case": "refund", "turns": NOTHING, "error": "APIError: 529 overloaded"},
        {"case": "refund", "error": {"code": 504}},  # no turns: the harness stopped
        {"case": "refund", "turns": REFUNDED, "error": None},
        {"case": "refund", "turns": REFUNDED, "error": False},
        {"case": "refund", "turns": REFUNDED, "error": ""},
        {"case": "refund", "turns": REFUNDED, "error": 0},
        {"case": "refund", "error": "x" * 500},  # a harness's message: shown whole
        {"case": "refund", "error": "y" * 501},
    )
    assert status == 1
    assert lines == [
        "NOT EVALUABLE refund: " + did_not_complete("error", "'APIError: 529 overloaded'"),
        "NOT EVALUABLE refund (run 2): " + did_not_complete("error", "{'code': 504}"),
        "PASS refund (run 3)",
        "PASS refund (run 4)",
        "PASS refund (run 5)",
        "NOT EVALUABLE refund (run 6): " + did_not_complete("error", "0"),
        "NOT EVALUABLE refund (run 7): " + did_not_complete("error", repr("x" * 500)),
        "NOT EVALUABLE refund (run 8): "
        + did_not_complete("error", "'" + "y" * 57 + "'..."),  # shortened, as other values
        "MISSING guard: no run in <stdin>",
        "TRIALS refund: 3/3 passed (5 not evaluable), pass^1 1.000, pass^2 1.000, pass^3 1.000",
        "TRIALS mean over 1 case: pass^1 1.000, pass^2 1.000, pass^3 1.000",
        "1 missing",
        "3 passed, 0 failed, 5 not evaluable",
    ]


def test_a_check_on_a_field_the_input_does_not_record_is_not_evaluable(spec: Path) -> None:
    status, lines = check(
        spec,
        {"case": "guard", "turns": [[{"name": "refund"}]]},
        {"case": "refund", "turns": REFUNDED},
        args=("--not-evaluable", "pass-through"),
    )
    assert (status, lines) == (
        0,
        [
            f"NOT EVALUABLE guard: {UNRECORDED}",
            "PASS refund",
            "1 passed, 0 failed, 1 not evaluable",
        ],
    )


def test_the_gate_decides_the_exit_status_and_failures_still_fail(spec: Path) -> None:
    cut_short = {"case": "guard", "turns": NOTHING, "error": "timeout"}
    passed = {"case": "refund", "turns": REFUNDED}
    failed = {"case": "refund", "turns": NOTHING}
    assert check(spec, cut_short, passed)[0] == 1  # fail is the default
    assert check(spec, cut_short, passed, args=("--not-evaluable", "fail"))[0] == 1
    assert check(spec, cut_short, passed, args=("--not-evaluable", "pass-through"))[0] == 0
    assert check(spec, cut_short, failed, args=("--not-evaluable", "pass-through"))[0] == 1
    refused = toolmatch("check", spec, "-", "--not-evaluable", "skip", stdin="")
    assert refused.returncode == 2
    assert "argument --not-evaluable: invalid choice: 'skip' (choose from" in refused.stderr


def test_a_run_that_did_not_complete_still_names_a_case_of_the_spec(spec: Path) -> None:
    # Not evaluable is a run of a case: a record naming none is an error, as ever.
    status, lines = check(
        spec,
        {"case": "nope", "error": "timeout"},
        {"error": "timeout"},
        args=("--not-evaluable", "pass-through"),
    )
    assert status == 1
    assert lines[:2] == [
        "ERROR <stdin>:1: unknown case 'nope'; the spec has 'refund', 'guard'",
        'ERROR <stdin>:2: "case" must be the name of a test case in the spec, got missing',
    ]


def test_tau2_termination_reasons_with_error_key_and_completed_values(spec: Path) -> None:
    # tau2 ends a simulation with agent_stop or user_stop; max_steps and too_many_errors cut
    # it short.
    def simulation(reason: str, calls: list[object]) -> dict[str, object]:
        return {"info": {"task_id": "refund"}, "termination_reason": reason, "messages": calls}

    call = {
        "role": "assistant",
        "tool_calls": [
            {"id": "1", "name": "issue_refund", "arguments": {}, "requestor": "assistant"}
        ],
    }
    args = (
        "--case-key", "info.task_id", "--turns-key", "messages", "--one-turn",
        "--error-key", "termination_reason",
        "--completed-value", "agent_stop", "--completed-value", "user_stop",
    )  # fmt: skip
    status, lines = check(
        spec,
        simulation("agent_stop", [call]),
        simulation("user_stop", [call]),
        simulation("max_steps", []),
        simulation("too_many_errors", []),
        args=args,
    )
    assert status == 1
    assert lines[:4] == [
        "PASS refund",
        "PASS refund (run 2)",
        "NOT EVALUABLE refund (run 3): " + did_not_complete("termination_reason", "'max_steps'"),
        "NOT EVALUABLE refund (run 4): "
        + did_not_complete("termination_reason", "'too_many_errors'"),
    ]


def test_error_keys_replace_the_default_and_may_be_dotted_and_repeated(spec: Path) -> None:
    runs = [
        {"case": "refund", "turns": REFUNDED, "error": "ignored: not an error key now"},
        {"case": "refund", "turns": REFUNDED, "info": {"failure": "rate limited"}},
        {"case": "refund", "turns": REFUNDED, "aborted": True},
        {"case": "refund", "turns": REFUNDED, "info": {"failure": None}, "aborted": False},
    ]
    args = ("--error-key", "info.failure", "--error-key", "aborted")
    status, lines = check(spec, *runs, args=args)
    assert status == 1
    assert lines[:4] == [
        "PASS refund",
        "NOT EVALUABLE refund (run 2): " + did_not_complete("info.failure", "'rate limited'"),
        "NOT EVALUABLE refund (run 3): " + did_not_complete("aborted", "True"),
        "PASS refund (run 4)",
    ]


def test_json_rows_carry_it_apart_and_the_trials_count_the_others(spec: Path) -> None:
    status, lines = check(
        spec,
        {"case": "refund", "turns": REFUNDED},
        {"case": "refund", "turns": NOTHING, "error": "timeout"},
        {"case": "guard", "turns": [[{"name": "refund"}]]},
        args=("--format", "json"),
    )
    rows = [json.loads(line) for line in lines]
    assert status == 1
    assert rows[1] == {
        "type": "not_evaluable",
        "case": "refund",
        "run": 2,
        "line": 2,
        "reason": did_not_complete("error", "'timeout'"),
    }
    assert rows[2] == {
        "type": "not_evaluable", "case": "guard", "run": 1, "line": 3, "reason": UNRECORDED
    }  # fmt: skip
    trials = [row for row in rows if row["type"] == "trials"]
    assert trials == [
        {
            "type": "trials",
            "case": "refund",
            "runs": 1,
            "passed": 1,
            "not_evaluable": 1,
            "pass_rate": 1.0,
            "k": [1],
            "pass_k": {"1": 1.0},
        }
    ]  # guard: no run judged, so no pass rate
    summary = rows[-1]
    assert (summary["passed"], summary["failed"], summary["not_evaluable"]) == (1, 0, 2)
    assert summary["cases"] == 1


def test_junit_reports_it_skipped_with_its_reason(spec: Path, tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    traces = tmp_path / "runs.jsonl"
    traces.write_text(
        jsonl(
            {"case": "refund", "turns": REFUNDED},
            {"case": "refund", "turns": NOTHING, "error": "timeout"},
            {"case": "guard", "turns": NOTHING},
        ),
        encoding="utf-8",
    )
    done = toolmatch("check", spec, traces, "--junit-xml", report)
    assert done.returncode == 1
    [suite] = ElementTree.parse(report).getroot().findall("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "0", "0")
    assert suite.get("skipped") == "1"
    second = suite.findall("testcase")[1]
    assert (second.get("name"), second.get("line")) == ("refund (run 2)", "2")
    [skipped] = list(second)
    assert (skipped.tag, skipped.get("type"), skipped.get("message")) == (
        "skipped", "not-evaluable", did_not_complete("error", "'timeout'")
    )  # fmt: skip


def test_otel_events_label_it_not_evaluable_without_a_score(spec: Path, tmp_path: Path) -> None:
    events = tmp_path / "events.json"
    done = toolmatch(
        "check", spec, "-", "--otel-events", events,
        stdin=jsonl(
            {"case": "guard", "turns": [[{"name": "refund"}]], "response_id": "r1"},
            {"case": "refund", "error": "timeout"},
        ),
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    request = json.loads(events.read_text(encoding="utf-8"))
    records = request["resourceLogs"][0]["scopeLogs"][0]["logRecords"]
    attributes = [{a["key"]: a["value"] for a in record["attributes"]} for record in records]
    assert attributes == [
        {
            "gen_ai.evaluation.name": {"stringValue": "toolmatch"},
            "gen_ai.evaluation.score.label": {"stringValue": "not_evaluable"},
            "gen_ai.evaluation.explanation": {"stringValue": UNRECORDED},
            "gen_ai.response.id": {"stringValue": "r1"},
            "toolmatch.case": {"stringValue": "guard"},
        },
        {
            "gen_ai.evaluation.name": {"stringValue": "toolmatch"},
            "gen_ai.evaluation.score.label": {"stringValue": "not_evaluable"},
            "gen_ai.evaluation.explanation": {
                "stringValue": did_not_complete("error", "'timeout'")
            },
            "toolmatch.case": {"stringValue": "refund"},
        },
    ]


def test_min_pass_rate_is_over_the_runs_judged(spec: Path) -> None:
    runs = [
        {"case": "refund", "turns": REFUNDED},
        {"case": "refund", "turns": NOTHING, "error": "timeout"},
        {"case": "guard", "turns": NOTHING, "error": "timeout"},
    ]
    gate = ("--min-pass-rate", "1", "--not-evaluable", "pass-through")
    status, lines = check(spec, *runs, args=gate)
    # refund: 1/1; guard: no run judged, so no pass rate: as a case with no run.
    assert status == 1
    assert lines[-2:] == [
        "pass rate below 1: guard (no run judged, 1 not evaluable)",
        "1 passed, 0 failed, 2 not evaluable",
    ]
    status, _ = check(spec, *runs[:2], {"case": "guard", "turns": NOTHING}, args=gate)
    assert status == 0
    assert check(spec, *runs[:2], {"case": "guard", "turns": NOTHING}, args=gate[:2])[0] == 1


def test_worker_processes_judge_it_the_same(spec: Path) -> None:
    runs = [
        {"case": "refund", "turns": REFUNDED},
        {"case": "refund", "turns": NOTHING, "error": "timeout"},
        {"case": "guard", "turns": [[{"name": "refund"}]]},
    ] * 3
    args = ("--error-key", "error", "--completed-value", "none")
    assert check(spec, *runs, args=(*args, "--jobs", "2")) == check(spec, *runs, args=args)


def test_html_and_markdown_show_it_in_a_section_of_its_own(spec: Path, tmp_path: Path) -> None:
    traces = tmp_path / "runs.jsonl"
    traces.write_text(
        jsonl(
            {"case": "refund", "turns": REFUNDED},
            {"case": "refund", "turns": NOTHING},
            {"case": "refund", "turns": NOTHING, "error": "<timeout>"},
            {"case": "guard", "turns": [[{"name": "refund"}]]},
        ),
        encoding="utf-8",
    )
    html, markdown, rows = tmp_path / "r.html", tmp_path / "r.md", tmp_path / "rows.jsonl"
    done = toolmatch(
        "check", spec, traces, "--html", html, "--markdown", markdown, "--format", "json"
    )
    assert done.returncode == 1, done.stderr
    page = html.read_text(encoding="utf-8")
    assert '<div class="tile bad"><b>2</b>not evaluable</div>' in page
    assert "<h2>Not evaluable (2 runs)</h2>" in page
    assert (
        '<li><span class="label other">NOT EVALUABLE</span>refund (run 3) at '
        f"<code>{traces}:3</code>: the run did not complete: its &#x27;error&#x27; is "
        "&#x27;&lt;timeout&gt;&#x27; (--error-key)</li>"
    ) in page
    assert "<h2>Failures (1 runs)</h2>" in page  # apart from the failures
    text = markdown.read_text(encoding="utf-8")
    section = text.split("### Not evaluable (2 runs)\n\n", 1)[1].split("\n\n", 1)[0]
    assert section.splitlines() == [
        f"- **NOT EVALUABLE refund (run 3)** at `{traces}:3`: "
        + did_not_complete("error", r"'\<timeout\>'"),  # Markdown's escapes
        f"- **NOT EVALUABLE guard** at `{traces}:4`: {UNRECORDED}",
    ]
    # toolmatch report reads the same rows back, and the exit status the gate decided.
    rows.write_text(done.stdout, encoding="utf-8")
    again = tmp_path / "again.md"
    assert toolmatch("report", rows, "-o", again).returncode == 0
    text = again.read_text(encoding="utf-8")
    assert "### Not evaluable (2 runs)" in text
    assert "; exit status 1." in text
    without_failure = jsonl(
        {"case": "refund", "turns": REFUNDED}, {"case": "guard", "turns": [[{"name": "refund"}]]}
    )
    for gate, status in (("fail", 1), ("pass-through", 0)):
        checked = toolmatch(
            "check", spec, "-", "--format", "json", "--not-evaluable", gate, stdin=without_failure
        )
        assert checked.returncode == status
        rows.write_text(checked.stdout, encoding="utf-8")
        assert toolmatch("report", rows, "-o", again).returncode == 0
        assert f"; exit status {status}." in again.read_text(encoding="utf-8")


def test_every_flag_of_check_is_in_the_commands_docs() -> None:
    # --error-key, --completed-value and --not-evaluable among them: a flag nobody can read
    # about is a flag nobody uses right.
    [commands] = [
        action for action in _parser()._actions if isinstance(action, argparse._SubParsersAction)
    ]
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text("utf-8")
    flags = [
        flag
        for action in commands.choices["check"]._actions
        for flag in action.option_strings
        if flag.startswith("--") and flag != "--help"
    ]
    assert {"--error-key", "--completed-value", "--not-evaluable"} <= set(flags)
    assert [flag for flag in flags if f"`{flag}" not in docs] == []


def test_update_takes_nothing_from_a_run_that_did_not_complete(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n  - name: refund\n    expected_tools:\n"
        "      - {name: issue_refund, args: {order: 7}}\n",
        encoding="utf-8",
    )
    traces = tmp_path / "runs.jsonl"
    cut_short = {"name": "issue_refund", "args": {"order": 8}}
    traces.write_text(
        jsonl({"case": "refund", "turns": [[cut_short]], "error": "timeout"}), encoding="utf-8"
    )
    done = toolmatch("check", spec, traces, "--update", "fix")
    assert done.returncode == 1
    assert "{order: 7}" in spec.read_text(encoding="utf-8")  # unchanged
    assert done.stdout.splitlines()[0] == (
        "NOT EVALUABLE refund: " + did_not_complete("error", "'timeout'")
    )


def test_parquet_reads_the_error_keys_columns(spec: Path, tmp_path: Path) -> None:
    pyarrow = pytest.importorskip("pyarrow")
    import pyarrow.parquet as parquet

    path = tmp_path / "runs.parquet"
    table = pyarrow.table(
        {
            "case": ["refund", "refund"],
            "turns": [json.dumps(REFUNDED), "[]"],
            "info": [{"failure": None}, {"failure": "timeout"}],
        }
    )
    parquet.write_table(table, path)
    done = toolmatch("check", spec, path, "--error-key", "info.failure")
    assert done.stdout.splitlines()[:2] == [
        "PASS refund",
        f"NOT EVALUABLE refund (run 2): {did_not_complete('info.failure', repr('timeout'))}",
    ]


def test_record_writes_no_case_from_a_run_that_did_not_complete() -> None:
    runs = jsonl(
        {"case": "refund", "turns": REFUNDED},
        {"case": "refund", "turns": [[{"name": "delete_account"}]], "failure": "timeout"},
        {"case": "cut", "turns": NOTHING, "failure": "max_steps"},
    )
    done = toolmatch("record", "-", "--error-key", "failure", stdin=runs)
    assert done.returncode == 1  # written, but some lines are not in it
    assert "delete_account" not in done.stdout
    assert "name: cut" not in done.stdout
    assert done.stderr.splitlines() == [
        f"ERROR <stdin>:2: {did_not_complete('failure', repr('timeout'))}; not recorded",
        f"ERROR <stdin>:3: {did_not_complete('failure', repr('max_steps'))}; not recorded",
    ]
