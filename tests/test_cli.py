"""`toolmatch check`, run as a user runs it: a subprocess, its output and its exit status."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from commands import DYING_JUDGE, jsonl, peak_rss_kib, toolmatch
from toolmatch._runs.workers import _CHUNK as CHUNK  # lines a worker judges per task

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

SPEC = """\
test_cases:
  - name: search
    expected_tools:
      - name: search
        args: {q: {fuzzy: "Paris"}}
  - name: refund
    turns:
      - expected_tools: [lookup_order]
      - expected_tools:
          - name: issue_refund
            args: {amount: {$approx: 42.5}}
  - name: quiet
    expected_tools:
      - {name: delete, never: true}
"""

SEARCH_OK = {"case": "search", "turns": [[{"name": "web_search", "args": {"q": " paris"}}]]}
SEARCH_BAD = {"case": "search", "turns": [[{"name": "web_search", "args": {"q": "rome"}}]]}
REFUND_OK = {
    "case": "refund",
    "turns": [
        [{"name": "lookup_order"}],
        [{"name": "issue_refund", "arguments": '{"amount": 42.5}'}],
    ],
}
QUIET_OK = {"case": "quiet", "turns": [[]]}


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def write_traces(tmp_path: Path, *runs: object) -> Path:
    path = tmp_path / "traces.jsonl"
    path.write_text(jsonl(*runs), encoding="utf-8")
    return path


class TestExitZeroAndOne:
    def test_all_passed(self, spec: Path, tmp_path: Path) -> None:
        traces = write_traces(tmp_path, SEARCH_OK, REFUND_OK, QUIET_OK)
        result = toolmatch("check", spec, traces)
        assert result.returncode == 0, result.stderr
        assert result.stdout == "PASS search\nPASS refund\nPASS quiet\n3 passed, 0 failed\n"
        assert result.stderr == ""

    def test_a_failure_shows_the_expectation_and_the_reason(
        self, spec: Path, tmp_path: Path
    ) -> None:
        refund_bad = {
            "case": "refund",
            "turns": [
                [{"name": "lookup_order"}],
                [{"name": "issue_refund", "args": {"amount": 40}}],
            ],
        }
        traces = write_traces(tmp_path, SEARCH_BAD, refund_bad, QUIET_OK)
        result = toolmatch("check", spec, traces)
        assert result.returncode == 1
        assert result.stdout == (
            "FAIL search\n"
            "  turn 0, expected_tools[0]: ExpectedTool('search', {'q': Fuzzy('Paris')})\n"
            "    call 0: q: fuzzy 'Paris' does not match 'rome'\n"
            "FAIL refund\n"
            "  turn 1, expected_tools[0]: ExpectedTool('issue_refund', {'amount': Approx(42.5)})\n"
            "    call 0: amount: expected 42.5 ± 4.25e-05, got 40\n"
            "PASS quiet\n"
            "1 passed, 2 failed\n"
        )

    def test_a_missing_turn_is_reported_once(self, spec: Path, tmp_path: Path) -> None:
        traces = write_traces(tmp_path, {"case": "refund", "turns": [[{"name": "lookup_order"}]]})
        result = toolmatch("check", spec, traces)
        assert result.stdout.splitlines()[:2] == [
            "FAIL refund",
            "  turn 1: turn 1 has no calls: got 1 call turn(s) for 2 expected turn(s)",
        ]

    def test_every_run_of_a_case_is_checked(self, spec: Path, tmp_path: Path) -> None:
        traces = write_traces(tmp_path, SEARCH_OK, SEARCH_BAD, SEARCH_OK, REFUND_OK, QUIET_OK)
        result = toolmatch("check", spec, traces)
        assert result.returncode == 1
        lines = result.stdout.splitlines()
        assert [line for line in lines if not line.startswith(" ")] == [
            "PASS search",
            "FAIL search (run 2)",
            "PASS search (run 3)",
            "PASS refund",
            "PASS quiet",
            "TRIALS search: 2/3 passed, pass^1 0.667, pass^2 0.333, pass^3 0.000",
            "FLAKY search: turns[0].expected_tools[0] ExpectedTool('search', {'q': Fuzzy('Paris')}): "
            "failed in 1 of 3 runs (0.33)",
            "TRIALS refund: 1/1 passed, pass^1 1.000",
            "TRIALS quiet: 1/1 passed, pass^1 1.000",
            "TRIALS mean over 3 cases: pass^1 0.889, pass^2 0.333 (1 case), pass^3 0.000 (1 case)",
            "4 passed, 1 failed",
        ]

    def test_bad_lines_are_reported_with_their_numbers_and_counted(
        self, spec: Path, tmp_path: Path
    ) -> None:
        traces = tmp_path / "traces.jsonl"
        traces.write_bytes(
            jsonl(
                SEARCH_OK,
                "",
                '{"case": "search", "turns": [',
                "[1, 2]",
                {"case": "nope", "turns": []},
                {"turns": []},
                {"case": "refund", "turns": [[{"name": "lookup_order"}], [42]]},
                {"case": "quiet"},
                "   ",
                SEARCH_BAD,
            ).encode()
            + b'{"case": "caf\xe9"}\n'
        )
        result = toolmatch("check", spec, traces)
        assert result.returncode == 1
        name = str(traces)
        # to_calls words its own message; the line number and the turn are the command's.
        lines = result.stdout.splitlines(keepends=True)
        assert lines[5].startswith(f"ERROR {name}:7: turns[1]: ")
        assert "42 (int)" in lines[5]
        lines[5] = f"ERROR {name}:7: turns[1]: <what to_calls says>\n"
        assert "".join(lines) == (
            "PASS search\n"
            f"ERROR {name}:3: invalid JSON: Expecting value at column 30\n"
            f'ERROR {name}:4: a run must be a JSON object {{"case": NAME, "turns": [...]}}, got [1, 2] (list)\n'
            f"ERROR {name}:5: unknown case 'nope'; the spec has 'search', 'refund', 'quiet'\n"
            f'ERROR {name}:6: "case" must be the name of a test case in the spec, got missing\n'
            f"ERROR {name}:7: turns[1]: <what to_calls says>\n"
            f'ERROR {name}:8: missing "turns": a list with one entry of calls per turn\n'
            "FAIL search (run 2)\n"
            "  turn 0, expected_tools[0]: ExpectedTool('search', {'q': Fuzzy('Paris')})\n"
            "    call 0: q: fuzzy 'Paris' does not match 'rome'\n"
            f"ERROR {name}:11: not UTF-8 text: byte 13 cannot be decoded\n"
            # Lines 7 and 8 are runs of refund and quiet that could not be checked: failed trials.
            "TRIALS search: 1/2 passed, pass^1 0.500, pass^2 0.000\n"
            "FLAKY search: turns[0].expected_tools[0] ExpectedTool('search', {'q': Fuzzy('Paris')}): "
            "failed in 1 of 2 runs (0.50)\n"
            "TRIALS refund: 0/1 passed, pass^1 0.000\n"
            "TRIALS quiet: 0/1 passed, pass^1 0.000\n"
            "TRIALS mean over 3 cases: pass^1 0.167, pass^2 0.000 (1 case)\n"
            "7 errors\n"
            "1 passed, 1 failed\n"
        )

    def test_a_case_without_a_run_is_missing(self, spec: Path, tmp_path: Path) -> None:
        traces = write_traces(tmp_path, SEARCH_OK, "oops")
        result = toolmatch("check", spec, traces)
        assert result.returncode == 1
        assert result.stdout.splitlines()[-5:] == [
            f"ERROR {traces}:2: invalid JSON: Expecting value at column 1",
            f"MISSING refund: no run in {traces}",
            f"MISSING quiet: no run in {traces}",
            "1 error, 2 missing",
            "1 passed, 0 failed",
        ]

    def test_stdin(self, spec: Path) -> None:
        result = toolmatch("check", spec, "-", stdin=jsonl(SEARCH_OK, REFUND_OK, "x", QUIET_OK))
        assert result.returncode == 1
        assert result.stdout.splitlines() == [
            "PASS search",
            "PASS refund",
            "ERROR <stdin>:3: invalid JSON: Expecting value at column 1",
            "PASS quiet",
            "1 error",
            "3 passed, 0 failed",
        ]

    def test_the_examples_make_a_demo(self) -> None:
        result = toolmatch("check", "examples/spec.yaml", "examples/traces.jsonl", cwd=ROOT)
        assert result.returncode == 1, result.stderr
        assert result.stderr == ""
        lines = result.stdout.splitlines()
        verdicts = [line for line in lines if not line.startswith(" ")]
        assert verdicts == [
            "PASS weather_lookup",
            "PASS quarterly_report",
            "PASS book_flight",
            "FAIL refund_damaged_order",
            "FAIL crawl_with_retries",
            "PASS translate_strict",
            "4 passed, 2 failed",
        ]
        assert "    call 0: amount: expected 42.5 ± 0.01, got 40.0" in lines
        assert "    expected at most 3 matching call(s), got 4" in lines


class TestExitTwo:
    def test_a_bad_spec_lists_every_problem_on_stderr(self, tmp_path: Path) -> None:
        spec = tmp_path / "spec.yaml"
        spec.write_text(
            "test_cases:\n  - name: a\n    expected_tools:\n"
            "      - {name: f, count: 0, args: {x: {regex: '('}}}\n",
            encoding="utf-8",
        )
        traces = write_traces(tmp_path, SEARCH_OK)
        result = toolmatch("check", spec, traces)
        assert result.returncode == 2
        assert result.stdout == ""
        assert result.stderr == (
            f"{spec}: test_cases[0](a).expected_tools[0].args.x.regex: invalid regular "
            "expression '(': missing ), unterminated subpattern at position 0\n"
            f"{spec}: test_cases[0](a).expected_tools[0].count: must be >= 1 without max_count, got 0; to assert "
            "that no call matches, write never: true (count: 0 with max_count: N allows at most N)\n"
        )

    def test_a_yaml_syntax_error_names_line_and_column(self, tmp_path: Path) -> None:
        spec = tmp_path / "spec.yaml"
        spec.write_text("test_cases:\n  - name: a\n   bad: [\n", encoding="utf-8")
        result = toolmatch("check", spec, write_traces(tmp_path, SEARCH_OK))
        assert result.returncode == 2
        assert result.stderr.startswith(f"{spec}:3:")
        assert "invalid YAML" in result.stderr
        assert "Traceback" not in result.stderr

    @pytest.mark.parametrize(
        "args",
        [
            (),
            ("check",),
            ("check", "spec.yaml"),
            ("check", "spec.yaml", "t.jsonl", "--jobs", "0"),
            ("check", "spec.yaml", "t.jsonl", "--jobs", "two"),
            ("check", "spec.yaml", "t.jsonl", "--format", "xml"),
            ("frobnicate",),
        ],
    )
    def test_bad_usage(self, args: tuple[str, ...]) -> None:
        result = toolmatch(*args)
        assert result.returncode == 2
        assert result.stderr.startswith("usage: toolmatch")
        assert "Traceback" not in result.stderr

    def test_unreadable_files(self, spec: Path, tmp_path: Path) -> None:
        traces = write_traces(tmp_path, SEARCH_OK)
        missing_spec = toolmatch("check", tmp_path / "nope.yaml", traces)
        assert (missing_spec.returncode, missing_spec.stderr) == (
            2,
            f"toolmatch: cannot read the spec {tmp_path / 'nope.yaml'}: No such file or directory\n",
        )
        missing_traces = toolmatch("check", spec, tmp_path / "nope.jsonl")
        assert (missing_traces.returncode, missing_traces.stderr) == (
            2,
            f"toolmatch: cannot read the traces {tmp_path / 'nope.jsonl'}: No such file or directory\n",
        )
        folder = toolmatch("check", spec, traces, "--junit-xml", tmp_path)
        assert folder.returncode == 2
        assert folder.stderr == f"toolmatch: cannot write {tmp_path}: Is a directory\n"


class TestMachineOutput:
    def test_json_lines(self, spec: Path, tmp_path: Path) -> None:
        traces = write_traces(tmp_path, SEARCH_OK, SEARCH_BAD, "{", {"case": "refund", "turns": 3})
        result = toolmatch("check", spec, traces, "--format", "json")
        assert result.returncode == 1
        records = [json.loads(line) for line in result.stdout.splitlines()]
        assert [record["type"] for record in records] == [
            "case",
            "case",
            "error",
            "error",
            "missing",
            "trials",
            "check",
            "trials",
            "summary",
        ]
        passed, failed, bad_json, bad_turns, missing, search, check, refund, summary = records
        assert {key: passed[key] for key in ("case", "run", "line", "passed")} == {
            "case": "search",
            "run": 1,
            "line": 1,
            "passed": True,
        }
        assert (failed["run"], failed["line"], failed["passed"]) == (2, 2, False)
        [turn] = failed["turns"]
        assert (
            turn["checks"][0]["unmatched_reason"]
            == "call 0: q: fuzzy 'Paris' does not match 'rome'"
        )
        assert turn["checks"][0]["candidates"][0]["args"] == {"q": "rome"}
        assert bad_json == {
            "type": "error",
            "line": 3,
            "message": "invalid JSON: Expecting property name enclosed in double quotes at column 2",
        }
        assert bad_turns["line"] == 4
        assert bad_turns["message"].startswith("turns must be a list")
        assert missing == {"type": "missing", "case": "quiet"}
        assert search == {
            "type": "trials",
            "case": "search",
            "runs": 2,
            "passed": 1,
            "pass_rate": 0.5,
            "k": [1, 2],
            "pass_k": {"1": 0.5, "2": 0.0},
        }
        assert check == {
            "type": "check",
            "case": "search",
            "check": "turns[0].expected_tools[0]",
            "description": "ExpectedTool('search', {'q': Fuzzy('Paris')})",
            "failed": 1,
            "runs": 2,
            "share": 0.5,
            "flaky": True,
        }
        # The run of line 4 could not be checked: a trial that did not pass.
        assert refund == {
            "type": "trials",
            "case": "refund",
            "runs": 1,
            "passed": 0,
            "pass_rate": 0.0,
            "k": [1],
            "pass_k": {"1": 0.0},
        }
        assert summary == {
            "type": "summary",
            "passed": 1,
            "failed": 1,
            "errors": 2,
            "missing": 1,
            "lines": 4,
            "cases": 2,
            "pass_rate": 0.25,
            "k": [1, 2],
            "pass_k": {"1": 0.25, "2": 0.0},
        }

    def test_junit_xml(self, spec: Path, tmp_path: Path) -> None:
        traces = write_traces(tmp_path, SEARCH_OK, SEARCH_BAD, "\x01 not json", QUIET_OK)
        report = tmp_path / "junit.xml"
        result = toolmatch("check", spec, traces, "--junit-xml", report)
        assert result.returncode == 1
        assert result.stdout.endswith("1 error, 1 missing\n2 passed, 1 failed\n")
        root = ElementTree.parse(report).getroot()
        assert root.tag == "testsuites"
        [suite] = root.findall("testsuite")
        assert {key: suite.get(key) for key in ("name", "tests", "failures", "errors")} == {
            "name": "spec",
            "tests": "5",
            "failures": "1",
            "errors": "2",
        }
        cases = suite.findall("testcase")
        assert [(case.get("name"), case.get("line")) for case in cases] == [
            ("search", "1"),
            ("search (run 2)", "2"),
            (f"{traces}:3", "3"),
            ("quiet", "4"),
            ("refund", None),
        ]
        assert {case.get("classname") for case in cases} == {"spec"}
        assert list(cases[0]) == []
        [failure] = list(cases[1])
        assert failure.tag == "failure"
        assert failure.get("message") == (
            "turn 0, expected_tools[0]: call 0: q: fuzzy 'Paris' does not match 'rome'"
        )
        assert failure.text is not None
        assert "ExpectedTool('search', {'q': Fuzzy('Paris')})" in failure.text
        [error] = list(cases[2])
        assert (error.tag, error.get("type")) == ("error", "trace-error")
        assert error.get("message") == "invalid JSON: Expecting value at column 1"
        [missing] = list(cases[4])
        assert (missing.tag, missing.get("type")) == ("error", "missing")
        assert missing.get("message") == f"no run in {traces}"


def mixed_runs(count: int) -> list[object]:
    """Passing, failing and bad lines in a repeating, irregular pattern."""
    runs: list[object] = []
    for number in range(count):
        city = "paris" if number % 7 else "rome"
        if number % 13 == 5:
            runs.append("not json")
        elif number % 11 == 3:
            runs.append(
                {
                    "case": "refund",
                    "turns": [
                        [{"name": "lookup_order"}],
                        [{"name": "issue_refund", "args": {"amount": number}}],
                    ],
                }
            )
        else:
            runs.append({"case": "search", "turns": [[{"name": "search", "args": {"q": city}}]]})
    return runs


@pytest.mark.parametrize("output", [(), ("--format", "json")])
def test_jobs_give_the_same_output_in_the_same_order(
    spec: Path, tmp_path: Path, output: tuple[str, ...]
) -> None:
    # More lines than a worker's chunk, so that several chunks interleave across workers.
    traces = write_traces(tmp_path, *mixed_runs(700))
    one = toolmatch("check", spec, traces, *output, "--junit-xml", tmp_path / "one.xml")
    two = toolmatch(
        "check", spec, traces, *output, "--jobs", "2", "--junit-xml", tmp_path / "two.xml"
    )
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert len(one.stdout.splitlines()) > 700
    assert (tmp_path / "one.xml").read_text() == (tmp_path / "two.xml").read_text()


def test_a_worker_that_dies_ends_the_run_with_an_error_instead_of_a_hang(
    spec: Path, tmp_path: Path
) -> None:
    (tmp_path / "dying.py").write_text(DYING_JUDGE, encoding="utf-8")
    runs: list[object] = [SEARCH_OK] * (3 * CHUNK + 8)
    runs[2 * CHUNK + 21] = {**SEARCH_OK, "die": True}  # in the third chunk
    traces = write_traces(tmp_path, *runs)
    script = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import dying; "
        "from toolmatch._cli.main import main; sys.exit(main(sys.argv[1:]))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script, "check", str(spec), str(traces), "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=120,  # the old pool waited forever here
        check=False,
    )
    assert completed.returncode == 2
    # Which chunk's result fails first depends on the workers' timing: the report stops at a
    # chunk's first line, never after the dying one, and everything before it was reported.
    reported = re.fullmatch(
        r"toolmatch: a worker process ended abruptly; the lines from line (\d+) on were not "
        r"checked \(run without --jobs to see whether a line causes it\)\n",
        completed.stderr,
    )
    assert reported is not None, completed.stderr
    first_unchecked = int(reported.group(1))
    assert first_unchecked in (1, CHUNK + 1, 2 * CHUNK + 1)
    assert completed.stdout.splitlines() == [
        "PASS search" if run == 1 else f"PASS search (run {run})"
        for run in range(1, first_unchecked)
    ]


@pytest.mark.skipif(sys.platform == "win32", reason="process groups and SIGINT are POSIX")
def test_ctrl_c_with_jobs_stops_every_process_quietly(spec: Path) -> None:
    # Ctrl-C signals the terminal's whole process group: the command and its workers.
    command = [sys.executable, "-m", "toolmatch", "check", str(spec), "-", "--jobs", "2"]
    process = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},  # each report line as it is printed
        # Ctrl-C as a terminal leaves it: a shell runs background jobs (CI scripts under
        # `&`, nohup) with it ignored, and the command, as it should, keeps it ignored.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdin is not None
    assert process.stdout is not None
    # More lines than the workers' window of chunks: some are reported while it waits. More
    # than a pipe holds goes each way, so one thread writes them and another reads the
    # report: neither side waits for the other.
    lines = jsonl(*[SEARCH_OK] * (16 * CHUNK)).encode()
    output = bytearray()
    reported = threading.Event()

    def feed() -> None:
        assert process.stdin is not None
        with contextlib.suppress(BrokenPipeError):  # the command has ended: lines not needed
            process.stdin.write(lines)
            process.stdin.flush()  # stdin stays open: the command waits for more lines

    def drain() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            output.extend(line)
            reported.set()

    threads = [threading.Thread(target=feed), threading.Thread(target=drain)]
    for thread in threads:
        thread.start()
    try:
        assert reported.wait(60), "no report line within a minute"
        assert output.startswith(b"PASS search\n")  # the workers are running
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=60)
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        raise
    finally:
        for thread in threads:
            thread.join()
        with contextlib.suppress(BrokenPipeError):  # lines still buffered for a closed pipe
            process.stdin.close()
    assert process.stderr is not None
    stderr = process.stderr.read()
    process.stderr.close()
    process.stdout.close()
    stdout = bytes(output)
    # The report's last lines too: they say how a run that was not interrupted ended.
    assert (process.returncode, stderr) == (130, b"toolmatch: interrupted\n"), stdout[-300:]


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss units differ by platform")
def test_memory_stays_flat_however_long_the_traces(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "test_cases": [
                    {"name": "ok", "expected_tools": ["s"]},
                    {"name": "bad", "expected_tools": [{"name": "s", "args": {"q": 1}}]},
                ]
            }
        ),
        encoding="utf-8",
    )
    passing = '{"case": "ok", "turns": [[{"name": "s"}]]}\n'
    failing = '{"case": "bad", "turns": [[{"name": "s", "args": {"q": 2}}]]}\n'
    block = passing * 8 + failing + "oops\n"  # passes, a failure and a bad line, in every 10
    short, long = tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    short.write_text(block * 100, encoding="utf-8")
    long.write_text(block * 10_000, encoding="utf-8")
    report = tmp_path / "junit.xml"
    short_peak = peak_rss_kib("check", spec, short, "--junit-xml", report)
    long_peak = peak_rss_kib("check", spec, long, "--junit-xml", report)
    assert ElementTree.parse(report).getroot()[0].get("tests") == "100000"
    # Holding the long file's lines or results would cost tens of megabytes; allow 2 MiB of noise.
    assert long_peak <= short_peak + 2048, (short_peak, long_peak)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("quiet", [False, True])
def test_progress_goes_to_stderr_only_on_a_terminal(
    spec: Path, tmp_path: Path, quiet: bool
) -> None:
    import os
    import pty

    traces = write_traces(tmp_path, SEARCH_OK, REFUND_OK, QUIET_OK)
    import fcntl
    import struct
    import termios

    leader, follower = pty.openpty()
    # A new pseudo-terminal is 0 columns wide, which leaves a progress bar no room at all.
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    options = ["--no-progress"] if quiet else []
    result = subprocess.run(
        [sys.executable, "-m", "toolmatch", "check", str(spec), str(traces), *options],
        stdout=subprocess.PIPE,
        stderr=follower,
        text=True,
        check=False,
    )
    os.close(follower)
    shown = b""
    try:
        while chunk := os.read(leader, 4096):
            shown += chunk
    except OSError:  # Linux reports the closed terminal as EIO
        pass
    os.close(leader)
    assert result.stdout == "PASS search\nPASS refund\nPASS quiet\n3 passed, 0 failed\n"
    if quiet:
        assert shown == b""
    else:
        assert b"toolmatch:" in shown  # tqdm's bar, with its description
        assert b"/235" in shown  # the bytes of the traces file
        assert shown.rstrip(b"\r").split(b"\r")[-1].strip() == b""  # wiped at the end


def test_version_and_the_console_script_entry() -> None:
    from toolmatch import __version__

    result = toolmatch("--version")
    assert (result.returncode, result.stdout) == (0, f"toolmatch {__version__}\n")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '[project.scripts]\ntoolmatch = "toolmatch._cli.main:main"\n' in pyproject


def test_a_missing_argument_does_not_hide_the_closest_calls_other_mismatches(
    tmp_path: Path,
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: refund\n"
        "    expected_tools:\n"
        "      - {name: issue_refund, args: {amount: 42.5, reason: damaged}}\n",
        encoding="utf-8",
    )
    run = {"case": "refund", "turns": [[{"name": "issue_refund", "args": {"reason": "late"}}]]}
    result = toolmatch("check", spec, write_traces(tmp_path, run))
    assert result.returncode == 1
    assert result.stdout.splitlines()[2:] == [
        "    arg 'amount' missing",  # the reason's wording, then what it leaves out
        "    call 0 issue_refund({'reason': 'late'}):",
        "      amount: missing",
        "      reason: expected 'damaged', got 'late'",
        "0 passed, 1 failed",
    ]


def test_several_mismatches_print_one_line_each_once(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n"
        "  - name: refund\n"
        "    expected_tools:\n"
        "      - {name: issue_refund, args: {amount: 42.5, reason: damaged}}\n",
        encoding="utf-8",
    )
    run = {
        "case": "refund",
        "turns": [[{"name": "issue_refund", "args": {"amount": 40, "reason": "late"}}]],
    }
    result = toolmatch("check", spec, write_traces(tmp_path, run))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        "FAIL refund",
        "  turn 0, expected_tools[0]: ExpectedTool('issue_refund', {'amount': 42.5, "
        "'reason': 'damaged'})",
        "    call 0: 2 mismatches (amount, reason)",
        "    call 0 issue_refund({'amount': 40, 'reason': 'late'}):",
        "      amount: expected 42.5, got 40",
        "      reason: expected 'damaged', got 'late'",
        "0 passed, 1 failed",
    ]


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss units differ by platform")
def test_memory_stays_flat_with_jobs_whatever_the_length_of_the_lines(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps({"test_cases": [{"name": "ok", "expected_tools": ["s"]}]}))
    # Lines of a quarter of a megabyte: a task of 1,024 of them would hold 256 MB at once.
    line = json.dumps({"case": "ok", "turns": [[{"name": "s", "args": {"q": "x" * 2**18}}]]})
    short, long = tmp_path / "short.jsonl", tmp_path / "long.jsonl"
    short.write_text(f"{line}\n" * 40, encoding="utf-8")
    long.write_text(f"{line}\n" * 400, encoding="utf-8")
    short_peak = peak_rss_kib("check", spec, short, "--jobs", "2")
    long_peak = peak_rss_kib("check", spec, long, "--jobs", "2")
    # The tasks in flight hold a few tens of megabytes on either file.
    assert long_peak <= short_peak + 40 * 1024, (short_peak, long_peak)


def test_json_rows_are_strict_json_whatever_the_values(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n- name: a\n  expected_tools:\n"
        "  - name: f\n    args: {x: .inf, z: [-.inf]}\n    result: .inf\n",
        encoding="utf-8",
    )
    call = '{"name": "f", "args": {"x": 1e400, "y": NaN}, "id": NaN, "result": -Infinity}'
    traces = tmp_path / "traces.jsonl"
    traces.write_text(f'{{"case": "a", "turns": [[{call}]]}}\n{{"case": NaN}}\n', "utf-8")

    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    result = toolmatch("check", spec, traces, "--format", "json", "--min-pass-rate", "1")
    rows = [json.loads(line, parse_constant=refuse) for line in result.stdout.splitlines()]
    [candidate] = rows[0]["turns"][0]["checks"][0]["candidates"]
    assert (candidate["args"], candidate["id"]) == ({"x": "inf", "y": "nan"}, "nan")
    assert rows[0]["turns"][0]["checks"][0]["args"] == {"x": "inf", "z": ["-inf"]}
    assert [row["type"] for row in rows] == ["case", "error", "trials", "summary"]


def test_a_junit_report_replaced_keeps_its_mode(spec: Path, tmp_path: Path) -> None:
    report = tmp_path / "junit.xml"
    report.write_text("the previous report", encoding="utf-8")
    report.chmod(0o640)
    result = toolmatch("check", spec, write_traces(tmp_path, SEARCH_OK), "--junit-xml", report)
    assert result.returncode == 1  # quiet has no run
    assert report.read_text(encoding="utf-8").startswith("<?xml")
    assert report.stat().st_mode & 0o777 == 0o640
