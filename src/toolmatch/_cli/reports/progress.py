"""The progress bar of ``toolmatch check``, on stderr: the bytes of the traces read."""

from __future__ import annotations

import sys

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import IO

    from toolmatch._runs.traces import TracesSource

__all__ = ["Progress", "progress_bar"]

_PROGRESS_EVERY = 0.1  # seconds between progress redraws


class Progress:
    """A tqdm bar on stderr over the bytes of the traces read, with the runs checked so far.

    tqdm comes with the ``cli`` extra; without it there is simply no bar.
    """

    def __init__(self, stream: IO[str], total_bytes: int | None) -> None:
        from tqdm import tqdm

        self.bar = tqdm(
            total=total_bytes,
            unit="B",
            unit_scale=True,
            desc="toolmatch",
            file=stream,
            leave=False,
            mininterval=_PROGRESS_EVERY,
            dynamic_ncols=True,
        )
        self.read = 0

    def update(self, runs: int, traces: TracesSource) -> None:
        self.bar.set_postfix_str(f"{runs:,} run(s) checked", refresh=False)
        self.bar.update(traces.bytes - self.read)
        self.read = traces.bytes

    def clear(self) -> None:
        """Wipe the bar before a report line is printed; the next update draws it again."""
        self.bar.clear()

    def close(self) -> None:
        self.bar.close()


def progress_bar(total_bytes: int | None) -> Progress | None:
    if not sys.stderr.isatty():
        return None
    try:
        return Progress(sys.stderr, total_bytes)
    except ImportError:  # tqdm is not installed: no bar, nothing else changes
        return None
