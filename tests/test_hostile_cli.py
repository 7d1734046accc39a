"""`toolmatch check` under faults and hostile input (issue 17): dying workers, Ctrl-C, too
many workers, lines that break the checker, and output that could be forged or lost.

Every run is a subprocess with a timeout, so a hang fails its test instead of stalling the
suite; nothing here measures how long normal code takes.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

import commands
from toolmatch import ExpectedTool, check_turns, load_test_cases
from toolmatch._runs.workers import _CHUNK as CHUNK  # lines a worker judges per task

TIMEOUT = 60  # seconds a run may take before the test calls it hung
FORK_ON_LINUX = pytest.mark.skipif(
    not sys.platform.startswith("linux") or multiprocessing.get_start_method() != "fork",
    reason="finds the workers as the command's child processes in /proc",
)
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="process groups, SIGINT and pipes")


def ctrl_c_as_in_a_terminal() -> None:
    """In the command's process before it starts: Ctrl-C as a terminal leaves it. A shell
    runs background jobs (CI scripts under `&`, nohup) with it ignored, and the command, as it
    should, keeps it ignored."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


SPEC = """\
test_cases:
  - name: search
    expected_tools:
      - name: search
        args: {q: {fuzzy: "Paris"}}
  - name: quiet
    expected_tools:
      - {name: delete, never: true}
"""
SEARCH_OK = {"case": "search", "turns": [[{"name": "web_search", "args": {"q": " paris"}}]]}
SEARCH_BAD = {"case": "search", "turns": [[{"name": "web_search", "args": {"q": "rome"}}]]}
QUIET_OK = {"case": "quiet", "turns": [[]]}
UNBUFFERED = {**os.environ, "PYTHONUNBUFFERED": "1"}  # each report line as it is printed


jsonl = commands.jsonl


def command(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "toolmatch", "check", *map(str, args)]


toolmatch = partial(commands.toolmatch, "check", timeout=TIMEOUT)


def patched(script: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """`toolmatch` run after `script`, which patches the library to inject a fault."""
    return subprocess.run(
        [sys.executable, "-c", script + PATCHED_MAIN, *map(str, args)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )


PATCHED_MAIN = "\nimport sys\nfrom toolmatch._cli.main import main\nsys.exit(main(sys.argv[1:]))\n"


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


def write_traces(tmp_path: Path, *runs: object, name: str = "traces.jsonl") -> Path:
    path = tmp_path / name
    path.write_text(jsonl(*runs), encoding="utf-8")
    return path


def runs_of_search(count: int) -> list[str]:
    return ["search" if run == 1 else f"search (run {run})" for run in range(1, count + 1)]


def passes(count: int) -> list[str]:
    return [f"PASS {run}" for run in runs_of_search(count)]


def workers(pid: int) -> list[int]:
    """The child processes of `pid`: with the fork start method, its pool's workers."""
    found: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as file:
                found.extend(int(child) for child in file.read().split())
    except OSError:  # the process, or one of its threads, ended meanwhile
        pass
    return found


def wait_for(condition: Callable[[], object], what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {TIMEOUT} s"
        time.sleep(0.002)


def assert_no_process_left(group: int) -> None:
    """Every process of the command's group has ended (its workers were not left behind)."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return
    os.killpg(group, signal.SIGKILL)
    raise AssertionError("the command left processes running")


def kill(process: subprocess.Popen[bytes]) -> None:
    """End the command and every process of its group (it runs in a session of its own)."""
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate()


def finish(
    process: subprocess.Popen[bytes], stdin: str | None = None, timeout: float = TIMEOUT
) -> tuple[bytes, bytes]:
    """The process's output once it ends, after the last of its input if any; killed with
    its group if it does not end in time."""
    try:
        return process.communicate(None if stdin is None else stdin.encode(), timeout=timeout)
    except subprocess.TimeoutExpired:
        kill(process)
        raise AssertionError(f"still running after {timeout} s: hung") from None
    except BaseException:
        kill(process)
        raise


def usable_cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


MOST_JOBS = min(4 * usable_cpus(), 1024)

NOT_CHECKED = re.compile(
    r"toolmatch: a worker process ended abruptly; the lines from line (\d+) on were not "
    r"checked \(run without --jobs to see whether a line causes it\)\n"
)


def junit_cases(report: Path) -> list[tuple[str | None, str | None, str | None]]:
    """Each <testcase>'s name, and the type and message of its failure or error, if any."""
    suite = ElementTree.parse(report).getroot()[0]
    cases = []
    for case in suite.findall("testcase"):
        verdict = next(iter(case), None)
        cases.append(
            (
                case.get("name"),
                None if verdict is None else verdict.get("type"),
                None if verdict is None else verdict.get("message"),
            )
        )
    assert suite.get("tests") == str(len(cases))
    return cases


# Workers that die --------------------------------------------------------------------------


@FORK_ON_LINUX
def test_a_worker_killed_between_chunks_breaks_the_pool_inside_submit(
    spec: Path, tmp_path: Path
) -> None:
    report = tmp_path / "report.xml"
    process = subprocess.Popen(
        command(spec, "-", "--jobs", "2", "--junit-xml", report),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=ctrl_c_as_in_a_terminal,
    )
    assert process.stdin is not None
    try:
        process.stdin.write(jsonl(*[SEARCH_OK] * CHUNK).encode())  # one chunk, to a worker
        process.stdin.flush()
        wait_for(lambda: len(workers(process.pid)) == 2, "two workers")
        time.sleep(0.5)  # pacing only: the first chunk is most often judged by then
        os.kill(workers(process.pid)[0], signal.SIGKILL)
        # The pool stops its other worker too; then any new task is refused at submit().
        wait_for(lambda: not workers(process.pid), "end of the pool")
    except BaseException:
        kill(process)
        raise
    stdout, stderr = finish(process, stdin=jsonl(*[SEARCH_OK] * CHUNK))
    assert process.returncode == 2, stderr
    reported = NOT_CHECKED.fullmatch(stderr.decode())
    assert reported is not None, stderr
    # The first chunk's results are reported if the killed worker had finished it.
    first_unchecked = int(reported.group(1))
    assert first_unchecked in (1, CHUNK + 1)
    assert stdout.decode().splitlines() == passes(first_unchecked - 1)
    cases = junit_cases(report)
    assert cases[:-1] == [(name, None, None) for name in runs_of_search(first_unchecked - 1)]
    assert cases[-1] == (
        "toolmatch check",
        "incomplete",
        f"a worker process ended abruptly; the lines from line {first_unchecked} on were not "
        "checked (run without --jobs to see whether a line causes it)",
    )


# Ctrl-C ------------------------------------------------------------------------------------


@FORK_ON_LINUX
def test_ctrl_c_while_the_workers_start(spec: Path, tmp_path: Path) -> None:
    traces = write_traces(tmp_path, *[SEARCH_OK] * 20_000)
    for delay in (0.0, 0.0, 0.001, 0.003, 0.01):  # pacing only: the workers are starting
        process = subprocess.Popen(
            command(spec, traces, "--jobs", str(min(64, MOST_JOBS))),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
            preexec_fn=ctrl_c_as_in_a_terminal,
        )
        try:
            wait_for(partial(workers, process.pid), "worker")
            time.sleep(delay)
            os.killpg(process.pid, signal.SIGINT)  # as a terminal sends Ctrl-C: to every process
        except BaseException:
            kill(process)
            raise
        _, stderr = finish(process, timeout=20)
        assert (process.returncode, stderr) == (130, b"toolmatch: interrupted\n"), delay
        assert_no_process_left(process.pid)


SLOW_LINE = """
import time
from toolmatch._cli import main as _cli


class SlowJudge(_cli.RecordJudge):
    def judge(self, number, raw):
        if b'"slow"' in raw:
            time.sleep(600)  # as a comparison that never ends would
        return super().judge(number, raw)


_cli.RecordJudge = SlowJudge
"""


@FORK_ON_LINUX
def test_ctrl_c_while_a_worker_is_busy_stops_at_once_and_keeps_the_report(
    spec: Path, tmp_path: Path
) -> None:
    before = [SEARCH_OK] * (CHUNK + 36)  # the first chunk, and part of the second
    traces = write_traces(tmp_path, *before, {**SEARCH_OK, "slow": True}, SEARCH_OK)
    report = tmp_path / "report.xml"
    script = SLOW_LINE + PATCHED_MAIN
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            script,
            *map(str, ["check", spec, traces, "--jobs", "2", "--junit-xml", report]),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=ctrl_c_as_in_a_terminal,
        env=UNBUFFERED,
    )
    assert process.stdout is not None
    try:
        # The first chunk's lines are reported; the second chunk waits for the sleeping line.
        for _ in range(CHUNK):
            assert process.stdout.readline().startswith(b"PASS search")
        os.killpg(process.pid, signal.SIGINT)
    except BaseException:
        kill(process)
        raise
    stdout, stderr = finish(process, timeout=20)  # not the 600 s the worker sleeps
    assert (process.returncode, stdout, stderr) == (130, b"", b"toolmatch: interrupted\n")
    cases = junit_cases(report)
    assert cases == [(name, None, None) for name in runs_of_search(CHUNK)] + [
        (
            "toolmatch check",
            "incomplete",
            f"interrupted; the lines from line {CHUNK + 1} on were not checked",
        )
    ]
    assert_no_process_left(process.pid)


@POSIX
def test_ctrl_c_without_jobs_keeps_the_report(spec: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    process = subprocess.Popen(
        command(spec, "-", "--junit-xml", report),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=ctrl_c_as_in_a_terminal,
        env=UNBUFFERED,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        process.stdin.write(jsonl(SEARCH_OK, "", SEARCH_BAD).encode())
        process.stdin.flush()  # stdin stays open: the command waits for more lines
        assert process.stdout.readline() == b"PASS search\n"
        assert process.stdout.readline() == b"FAIL search (run 2)\n"
        for _ in range(2):  # the failure's two lines of detail
            process.stdout.readline()
        os.killpg(process.pid, signal.SIGINT)
    except BaseException:
        kill(process)
        raise
    _, stderr = finish(process, timeout=20)
    assert (process.returncode, stderr) == (130, b"toolmatch: interrupted\n")
    assert junit_cases(report) == [
        ("search", None, None),
        (
            "search (run 2)",
            "mismatch",
            "turn 0, expected_tools[0]: call 0: q: fuzzy 'Paris' does not match 'rome'",
        ),
        ("toolmatch check", "incomplete", "interrupted; the lines from line 4 on were not checked"),
    ]


# How many workers --------------------------------------------------------------------------

# Were the limit not enforced, the command would start this many processes: fail instead.
NO_POOL = """
import concurrent.futures

class NoPool:
    def __init__(self, *args, **kwargs):
        raise SystemExit("the command tried to start a pool of " + str(args[0]) + " workers")

concurrent.futures.ProcessPoolExecutor = NoPool
"""


@pytest.mark.parametrize("jobs", [MOST_JOBS + 1, 100_000, 2**31 - 1])
def test_too_many_jobs_are_refused_before_any_worker_starts(
    spec: Path, tmp_path: Path, jobs: int
) -> None:
    traces = write_traces(tmp_path, SEARCH_OK)
    result = patched(NO_POOL, "check", spec, traces, "--jobs", str(jobs))
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr.startswith("usage: toolmatch")
    assert result.stderr.endswith(
        f"toolmatch check: error: argument --jobs: must be at most {MOST_JOBS} (4 per usable "
        f"CPU, and {usable_cpus()} are usable here), got {jobs}\n"
    )


def test_a_number_of_jobs_too_long_to_read_is_refused_shortened(spec: Path, tmp_path: Path) -> None:
    traces = write_traces(tmp_path, SEARCH_OK)
    result = patched(NO_POOL, "check", spec, traces, "--jobs", "9" * 5000)
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr.endswith(
        f"toolmatch check: error: argument --jobs: must be a whole number >= 1, got "
        f"'{'9' * 57}'...\n"
    )


def test_jobs_above_the_absolute_limit_are_refused_on_any_machine(
    spec: Path, tmp_path: Path
) -> None:
    many_cpus = NO_POOL + "import os\nos.sched_getaffinity = lambda pid: set(range(4096))\n"
    many_cpus += "os.cpu_count = lambda: 4096\n"
    traces = write_traces(tmp_path, SEARCH_OK)
    result = patched(many_cpus, "check", spec, traces, "--jobs", "2000")
    assert result.returncode == 2, result.stderr
    assert result.stderr.endswith(
        "toolmatch check: error: argument --jobs: must be at most 1024, got 2000\n"
    )


# One outcome per line ----------------------------------------------------------------------


def two_choice_completion() -> dict[str, object]:
    chat = pytest.importorskip("openai.types.chat")
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "web_search", "arguments": '{"q": "paris"}'},
            }
        ],
    }
    completion = chat.ChatCompletion.model_validate(
        {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "gpt-test",
            "choices": [
                {"index": index, "finish_reason": "tool_calls", "message": message}
                for index in range(2)
            ],
        }
    )
    dumped: dict[str, object] = completion.model_dump(mode="json", exclude_none=True)
    return dumped


AMBIGUOUS = (
    "to_calls cannot read tool calls from input: a completion with 2 choices holds 2 alternative answers, not one turn; pass the "
    "one to check, e.g. completion.choices[0]"
)


def test_an_ambiguous_completion_is_one_error_naming_its_turn(spec: Path, tmp_path: Path) -> None:
    completion = two_choice_completion()
    traces = write_traces(tmp_path, {"case": "search", "turns": [completion]}, QUIET_OK)
    result = toolmatch(spec, traces)
    assert result.returncode == 1
    assert result.stdout == (
        f"ERROR {traces}:1: turns[0]: {AMBIGUOUS}\nPASS quiet\n1 error\n1 passed, 0 failed\n"
    )
    # The library says the same, with the same place as for input it cannot read.
    [case, _] = load_test_cases(spec)
    with pytest.raises(ValueError, match=f"^{re.escape(f'turns[0]: {AMBIGUOUS}')}$"):
        case.check([completion])
    with pytest.raises(ValueError, match=f"^{re.escape(f'call_turns[0]: {AMBIGUOUS}')}$"):
        check_turns([[ExpectedTool("search")]], [completion])


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_an_integer_too_long_for_python_is_one_error(spec: Path, tmp_path: Path, jobs: str) -> None:
    huge = '{"case": "search", "turns": [[{"name": "search", "args": {"q": -%s}}]]}' % ("7" * 5000)
    traces = write_traces(tmp_path, huge, QUIET_OK)
    message = (
        "a number of 5,000 digits is longer than the 4,300 digits Python reads; "
        "PYTHONINTMAXSTRDIGITS=0 lifts the limit"
    )
    text = toolmatch(spec, traces, "--jobs", jobs)
    assert text.returncode == 1, text.stderr
    assert text.stdout == f"ERROR {traces}:1: {message}\nPASS quiet\n1 error\n1 passed, 0 failed\n"
    records = [
        json.loads(line)
        for line in toolmatch(spec, traces, "--format", "json").stdout.split("\n")
        if line
    ]
    assert [record["type"] for record in records] == [
        "error",
        "case",
        "trials",
        "trials",
        "summary",
    ]
    assert records[0] == {"type": "error", "line": 1, "message": message}
    # The run that could not be checked is search's, and a trial that did not pass.
    assert records[2] == {
        "type": "trials",
        "case": "search",
        "runs": 1,
        "passed": 0,
        "pass_rate": 0.0,
        "k": [1],
        "pass_k": {"1": 0.0},
    }


def test_a_huge_integer_in_the_spec_gives_one_outcome(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"test_cases:\n  - name: n\n    expected_tools:\n"
        f"      - {{name: f, args: {{n: 0x{'f' * 5000}}}}}\n",
        encoding="utf-8",
    )
    traces = write_traces(tmp_path, {"case": "n", "turns": [[{"name": "f", "args": {"n": 1}}]]})
    result = toolmatch(spec, traces)
    assert result.returncode == 1, result.stderr
    # A failure (or, while such a number has no repr, an error), never also a missing case.
    first, *rest = result.stdout.splitlines()
    assert first.startswith(("FAIL n", f"ERROR {traces}:1: "))
    assert not any(line.startswith("MISSING") for line in rest)
    assert rest[-1] in ("0 passed, 1 failed", "0 passed, 0 failed")


BOOM = """
from toolmatch._runs import judging as _judging

def boom(*arguments):
    raise RuntimeError("the checker broke\\non a second line")

_judging.case_verdict = boom  # what the command judges a run's turns with
"""


def test_an_unexpected_error_is_one_error_with_its_reason(spec: Path, tmp_path: Path) -> None:
    traces = write_traces(tmp_path, SEARCH_OK)
    result = patched(BOOM, "check", spec, traces)
    assert result.returncode == 1, result.stderr
    assert result.stdout == (
        f"ERROR {traces}:1: cannot check this run: RuntimeError: the checker broke\n"
        "MISSING quiet: no run in " + str(traces) + "\n"
        "1 error, 1 missing\n"
        "0 passed, 0 failed\n"
    )


# Output that cannot be forged --------------------------------------------------------------


def test_case_names_cannot_forge_report_lines(tmp_path: Path) -> None:
    names = ["a\nPASS b", "c\rPASS d", "e\x1b[2Kf\u2028g", "ok é"]
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps(
            {
                "test_cases": [
                    {"name": name, "expected_tools": [{"name": "s", "args": {"q": "x\ny"}}]}
                    for name in names
                ]
            }
        ),
        encoding="utf-8",
    )
    ok = [{"name": "s", "args": {"q": "x\ny"}}]
    bad = [{"name": "s", "args": {"q": "z\nPASS w"}}]
    traces = write_traces(
        tmp_path,
        {"case": names[0], "turns": [ok]},
        {"case": names[1], "turns": [bad]},
        {"case": names[3], "turns": [ok]},
        name="t\nPASS.jsonl",
    )
    result = toolmatch(spec, traces)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        "PASS a\\nPASS b",
        "FAIL c\\rPASS d",
        "  turn 0, expected_tools[0]: ExpectedTool('s', {'q': 'x\\ny'})",
        "    call 0: q: expected 'x\\ny', got 'z\\nPASS w'",
        "PASS ok é",
        "MISSING e\\x1b[2Kf\\u2028g: no run in " + str(traces).replace("\n", "\\n"),
        "1 missing",
        "2 passed, 1 failed",
    ]


def test_spec_mistakes_cannot_forge_lines_either(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        'test_cases:\n  - name: "a\\nPASS b"\n    expected_tools: [{name: f, count: 0}]\n',
        encoding="utf-8",
    )
    result = toolmatch(spec, write_traces(tmp_path, SEARCH_OK))
    assert result.returncode == 2
    assert result.stderr == (
        f"{spec}: test_cases[0](a\\nPASS b).expected_tools[0].count: must be >= 1 without max_count, got 0; "
        "to assert that no call matches, write never: true (count: 0 with max_count: N allows at most N)\n"
    )


def test_an_unknown_case_name_is_shortened(spec: Path, tmp_path: Path) -> None:
    traces = write_traces(tmp_path, {"case": "x" * 1_000_000 + "\n", "turns": []})
    result = toolmatch(spec, traces)
    assert result.stdout.splitlines()[0] == (
        f"ERROR {traces}:1: unknown case '{'x' * 57}'...; the spec has 'search', 'quiet'"
    )


# The JUnit report --------------------------------------------------------------------------


def test_the_report_never_replaces_the_spec_or_the_traces(
    spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    traces = write_traces(tmp_path, SEARCH_OK, QUIET_OK)
    (tmp_path / "link.jsonl").symlink_to(traces)
    (tmp_path / "sub").mkdir()
    before = traces.read_bytes(), spec.read_bytes()
    monkeypatch.chdir(tmp_path)  # relative and absolute spellings of one file
    for report, what in [
        (traces, "the traces file"),
        ("./traces.jsonl", "the traces file"),
        (tmp_path / "link.jsonl", "the traces file"),
        ("spec.yaml", "the spec"),
        (tmp_path / "sub" / ".." / "spec.yaml", "the spec"),
    ]:
        result = toolmatch(spec, traces, "--junit-xml", report)
        assert (result.returncode, result.stdout, result.stderr) == (
            2,
            "",
            f"toolmatch: cannot write {report}: it is {what}\n",
        )
    with traces.open(encoding="utf-8") as stdin:  # the traces read from standard input
        piped = subprocess.run(
            command(spec, "-", "--junit-xml", traces),
            stdin=stdin,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    assert (piped.returncode, piped.stderr) == (
        2,
        f"toolmatch: cannot write {traces}: it is the traces file\n",
    )
    assert (traces.read_bytes(), spec.read_bytes()) == before


@POSIX
def test_the_report_is_replaced_whole_at_the_end(spec: Path, tmp_path: Path) -> None:
    folder = tmp_path / "reports"
    folder.mkdir()
    report = folder / "report.xml"
    report.write_text("the previous report", encoding="utf-8")
    previous = report.stat().st_ino
    process = subprocess.Popen(
        command(spec, "-", "--junit-xml", report),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=ctrl_c_as_in_a_terminal,
        env=UNBUFFERED,
    )
    assert process.stdin is not None
    assert process.stdout is not None
    try:
        process.stdin.write(jsonl(SEARCH_OK).encode())
        process.stdin.flush()
        assert process.stdout.readline() == b"PASS search\n"  # the run is under way
        assert report.read_text(encoding="utf-8") == "the previous report"
    except BaseException:
        kill(process)
        raise
    _, stderr = finish(process, stdin=jsonl(QUIET_OK))
    assert (process.returncode, stderr) == (0, b"")
    assert junit_cases(report) == [("search", None, None), ("quiet", None, None)]
    assert report.stat().st_ino != previous  # renamed into place, not rewritten
    assert os.listdir(folder) == ["report.xml"]  # no temporary file left behind
    umask = os.umask(0)
    os.umask(umask)
    assert report.stat().st_mode & 0o777 == 0o666 & ~umask


# | head --------------------------------------------------------------------------------------


@POSIX
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_reader_that_stops_early_ends_the_run_quietly(
    spec: Path, tmp_path: Path, jobs: str
) -> None:
    traces = write_traces(tmp_path, *[SEARCH_OK, SEARCH_BAD] * 10_000)
    shell = (
        f"set -o pipefail; {' '.join(map(repr, command(spec, traces, '--jobs', jobs)))} | head -n 3"
    )
    result = subprocess.run(
        ["bash", "-c", shell], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.splitlines() == [
        "PASS search",
        "FAIL search (run 2)",
        "  turn 0, expected_tools[0]: ExpectedTool('search', {'q': Fuzzy('Paris')})",
    ]


CHANGED_WHILE_CHECKED = """
import os
from toolmatch._runs import traces as _trace_inputs

read_again = _trace_inputs.Span.read


def read(self):
    if self.offset + self.size > KEPT:  # the file is cut short after the first task's lines
        os.truncate(self.path, KEPT)
    return read_again(self)


_trace_inputs.Span.read = read
"""


def test_a_file_changed_while_workers_read_it_stops_the_run_where_it_changed(
    spec: Path, tmp_path: Path
) -> None:
    # A worker reads its lines from the file on disk itself (the main process only counts
    # them): lines it cannot find there again are not checked, and the run says so.
    traces = write_traces(tmp_path, *[SEARCH_OK] * (3 * CHUNK))
    kept = CHUNK * len(jsonl(SEARCH_OK))
    script = CHANGED_WHILE_CHECKED.replace("KEPT", str(kept))
    result = patched(script, "check", spec, traces, "--jobs", "2")
    assert result.returncode == 2
    assert result.stdout.splitlines() == passes(CHUNK)
    assert result.stderr == (
        f"toolmatch: cannot read the traces {traces}: the file changed while it was checked; "
        f"the lines from line {CHUNK + 1} on were not checked\n"
    )


REPLACED_WHILE_CHECKED = """
import os
import time
from toolmatch._runs import traces as _trace_inputs

read_again = _trace_inputs.Span.read


def read(self):
    # Once the first task's lines are read, another file of lines as long is put there.
    if self.offset >= FIRST and os.path.exists(NEW):
        while not os.path.exists(NEW + ".read"):
            time.sleep(0.01)
        try:
            os.replace(NEW, self.path)
        except FileNotFoundError:  # the other worker was first
            pass
    lines = read_again(self)
    if self.offset + self.size == FIRST:
        open(NEW + ".read", "w").close()
    return lines


_trace_inputs.Span.read = read
"""


def test_a_file_replaced_while_workers_read_it_stops_the_run_where_it_changed(
    spec: Path, tmp_path: Path
) -> None:
    # The new file's lines are as long as the old one's: only its identity tells them apart.
    traces = write_traces(tmp_path, *[SEARCH_OK] * (3 * CHUNK))
    other = {"case": "search", "turns": [[{"name": "web_search", "args": {"q": "rome!!"}}]]}
    new = write_traces(tmp_path, *[other] * (3 * CHUNK), name="new.jsonl")
    assert new.stat().st_size == traces.stat().st_size
    first = CHUNK * len(jsonl(SEARCH_OK))
    script = REPLACED_WHILE_CHECKED.replace("NEW", repr(str(new))).replace("FIRST", str(first))
    result = patched(script, "check", spec, traces, "--jobs", "2")
    assert result.stdout.splitlines() == passes(CHUNK)
    assert result.stderr == (
        f"toolmatch: cannot read the traces {traces}: the file changed while it was checked; "
        f"the lines from line {CHUNK + 1} on were not checked\n"
    )
    assert result.returncode == 2


REWRITTEN_WHILE_CHECKED = """
import os
from toolmatch._runs import traces as _trace_inputs

read_again = _trace_inputs.Span.read


def read(self):
    # Past the first task's lines, the file is rewritten in place (the same inode) once,
    # with longer lines: the blocks there no longer hold the lines counted.
    if self.offset + self.size > KEPT:
        try:
            os.close(os.open(self.path + ".rewritten", os.O_CREAT | os.O_EXCL))
            with open(NEW, "rb") as new, open(self.path, "r+b") as file:
                file.seek(KEPT)
                file.write(new.read())
        except FileExistsError:  # the other worker was first
            pass
    return read_again(self)


_trace_inputs.Span.read = read
"""


def test_a_file_rewritten_in_place_while_workers_read_it_stops_the_run_where_it_changed(
    spec: Path, tmp_path: Path
) -> None:
    traces = write_traces(tmp_path, *[SEARCH_OK] * (3 * CHUNK))
    kept = CHUNK * len(jsonl(SEARCH_OK))
    new = write_traces(tmp_path, *[{**SEARCH_OK, "note": "longer"}] * (2 * CHUNK), name="new")
    script = REWRITTEN_WHILE_CHECKED.replace("KEPT", str(kept)).replace("NEW", repr(str(new)))
    result = patched(script, "check", spec, traces, "--jobs", "2")
    assert result.stdout.splitlines() == passes(CHUNK)
    assert result.stderr == (
        f"toolmatch: cannot read the traces {traces}: the file changed while it was checked; "
        f"the lines from line {CHUNK + 1} on were not checked\n"
    )
    assert result.returncode == 2


CTRL_C_BEFORE_WRITING = """
from toolmatch._cli.reports import report as _report

write_batch = _report.Report.flush
pressed = []

def flush(self):
    if self._pending and not pressed:  # Ctrl-C once a run is counted, before its line is out
        pressed.append(True)
        raise KeyboardInterrupt
    write_batch(self)

_report.Report.flush = flush
"""


def test_ctrl_c_between_counting_and_writing_still_reports_what_was_counted(
    spec: Path, tmp_path: Path
) -> None:
    traces = write_traces(tmp_path, SEARCH_OK, SEARCH_OK, SEARCH_OK)
    result = patched(CTRL_C_BEFORE_WRITING, "check", spec, traces)
    assert (result.returncode, result.stderr) == (130, "toolmatch: interrupted\n")
    # The first batch, the runs of the first block read (here the whole file), was counted
    # as checked (the JUnit report and the "not checked" line say so): its lines are written.
    assert result.stdout == "PASS search\nPASS search (run 2)\nPASS search (run 3)\n"
