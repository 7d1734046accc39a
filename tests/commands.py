"""The command as the tests run it: ``toolmatch`` in a subprocess, its peak memory, and traces
as JSON Lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run before the command (``python -c``), this makes a --jobs worker die, as one killed by
# the system would, on the first line that holds ``die``.
DYING_JUDGE = """
import os
from toolmatch._cli import main as _cli


class DyingJudge(_cli.RecordJudge):
    def judge(self, number, item):
        if b"die" in item:
            os._exit(9)
        return super().judge(number, item)


_cli.RecordJudge = DyingJudge
"""


def jsonl(*runs: object) -> str:
    """The runs as JSON Lines; a string is a line as it is written (a bad one, on purpose)."""
    return "".join((run if isinstance(run, str) else json.dumps(run)) + "\n" for run in runs)


def toolmatch(
    *args: str | Path,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 300,
    largest_file: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """``python -m toolmatch ARGS``, its output read as UTF-8; a hang fails after ``timeout``.
    ``env``: the environment; by default this one without ``CI``, so the command runs as on a
    developer's machine wherever the suite runs (a test of CI's behaviour sets it).
    ``largest_file``: the bytes a file it writes may hold, as on a full disk (POSIX only)."""
    if env is None:
        env = {key: value for key, value in os.environ.items() if key != "CI"}
    return subprocess.run(
        [sys.executable, "-m", "toolmatch", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        env=env,
        timeout=timeout,
        check=False,
        preexec_fn=None if largest_file is None else partial(_limit_files, largest_file),
    )


def _limit_files(size: int) -> None:
    import resource

    # Past it a write fails with EFBIG (Python ignores SIGXFSZ), as on a full disk.
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


PEAK_RSS = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_rss_kib(*args: str | Path) -> int:
    """The peak resident memory of `toolmatch` run in a fresh wrapper process (KiB on Linux)."""
    command = [sys.executable, "-c", PEAK_RSS, sys.executable, "-m", "toolmatch", *map(str, args)]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return int(output)
