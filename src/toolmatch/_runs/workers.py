"""``--jobs N``: judging blocks of records in worker processes, in order, with memory
kept flat.

A worker that dies or Ctrl-C pressed while workers start ends the run cleanly
(docs/cli.md); :func:`judged_batches` with one job judges in this process.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from itertools import chain

from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._matchers.judges import import_plugins
from toolmatch._runs.traces import Lines, Span, StoppedError

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from types import TracebackType

    from toolmatch._runs.coverage import Coverage
    from toolmatch._runs.judging import Outcome, RecordJudge
    from toolmatch._runs.traces import Block

__all__ = ["InterruptsHeld", "judged_batches"]

# Records a worker judges per task: enough that a task takes long beside the time the pool's
# threads take to hand the next one over (they share the GIL with the report), and at most
# _CHUNK_BYTES of lines (and a block read), so that a file of long lines keeps memory flat.
_CHUNK = 1024
_CHUNK_BYTES = 1 << 21


_WORKER_JUDGE: RecordJudge | None = None


class InterruptsHeld:
    """Holds off Ctrl-C in this thread for a block; one pressed meanwhile is raised after it.

    Processes started in the block begin with Ctrl-C held too, whatever the start method:
    a signal mask survives fork and exec. Windows has no signal masks.
    """

    def __enter__(self) -> None:
        import signal

        if hasattr(signal, "pthread_sigmask"):
            self.previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        import signal

        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_SETMASK, self.previous)


def _start_worker(judge: RecordJudge) -> None:
    global _WORKER_JUDGE
    import signal

    # Ctrl-C reaches every process of the terminal's group: the main one stops the run and
    # ends the workers, so they ignore it. A worker starts with it held (see judged_batches);
    # ignoring it first discards one pressed while the worker started.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # A worker started without fork has none of the judges --plugin registered.
    import_plugins(judge.plugins)
    _WORKER_JUDGE = judge


def _judge_in_worker(task: list[Block]) -> tuple[list[Outcome], Coverage | None]:
    assert _WORKER_JUDGE is not None, "the pool initializer sets the judge"
    judge = _WORKER_JUDGE.judge_block
    outcomes = []
    for first, _, item in task:
        if type(item) is Span:  # lines of a file on disk: read here, not sent
            span = item
            try:
                item = span.read()
            except OSError as error:
                reason = error.strerror or error
                raise StoppedError(f"cannot read the traces {span.path}: {reason}", first) from None
        outcomes += judge(first, item)
    # --coverage: the task's counts travel with its outcomes
    coverage = _WORKER_JUDGE.coverage
    return outcomes, None if coverage is None else coverage.take()


def _worker_died(first_line: int) -> StoppedError:
    """A ``--jobs`` worker process ended abruptly (killed, out of memory, a crash)."""
    return StoppedError(
        "a worker process ended abruptly",
        first_line,
        " (run without --jobs to see whether a line causes it)",
    )


def judged_batches(
    # as trace_blocks gives them; for check_runs, (index, 1, run)
    judge: RecordJudge,
    blocks: Iterator[Block],
    jobs: int,
) -> Generator[list[Outcome], None, None]:
    """The records' outcomes in order, in batches as they become ready: a block's with one
    job, a task's with several (the report writes a batch at once)."""
    if jobs == 1:
        judge_block = judge.judge_block
        for first, _, item in blocks:
            yield judge_block(first, item)
        return
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    # Tasks are sent as they are read, a few per worker ahead of the one being reported,
    # so memory stays flat on a long file. Unlike multiprocessing.Pool, the executor notices
    # a worker that dies and fails its tasks instead of waiting for them forever.
    with InterruptsHeld():
        pool = ProcessPoolExecutor(jobs, initializer=_start_worker, initargs=(judge,))
    pending: deque[tuple[list[Block], Future[tuple[list[Outcome], Coverage | None]]]] = deque()
    stopped_at = 0  # the first record of a task the pool refused
    unread: StoppedError | None = None  # raised once what was read before it is reported
    ended = False
    rest: list[Block] = []  # the lines of a block read past the last task
    try:
        while True:
            task: list[Block] = []
            try:
                _fill(task, blocks, rest)
            except StoppedError as error:  # the traces cannot be read further: what was read
                unread = error  # is judged and reported first, as with one process
            if task:
                try:
                    # The pool starts its workers in submit(): they begin with Ctrl-C held,
                    # and this process gets one pressed meanwhile once they are started.
                    with InterruptsHeld():
                        future = pool.submit(_judge_in_worker, task)
                    pending.append((task, future))
                except BrokenProcessPool:  # a worker died since the last task was sent
                    stopped_at, task = task[0][0], []
                except OSError as error:  # no more processes or files for this user
                    raise StoppedError(
                        f"cannot start {jobs} worker processes: {error.strerror or error}",
                        task[0][0],
                    ) from None
            # Report what is ready; wait only when the window is full or the input ended.
            last = not task or unread is not None
            while pending and (last or len(pending) > jobs * 4 or pending[0][1].done()):
                sent, future = pending.popleft()
                try:
                    outcomes, counted = future.result()
                    if counted is not None and judge.coverage is not None:
                        judge.coverage.add(counted)
                except BrokenProcessPool:
                    raise _worker_died(sent[0][0]) from None
                except StoppedError:
                    raise
                except Exception:  # the pool could not send the task
                    # A run pickle cannot copy (a lambda, nesting too deep for it) is judged
                    # here, as with one process: the same verdicts whatever --jobs is.
                    outcomes = [
                        outcome
                        for first, _, item in sent
                        for outcome in judge.judge_block(first, item)
                    ]
                yield outcomes
            if stopped_at:
                raise _worker_died(stopped_at)
            if unread is not None:
                raise unread
            if not task:
                ended = True
                return
    finally:
        with InterruptsHeld():
            if not ended:
                _end_workers(pool)
            pool.shutdown(wait=True, cancel_futures=True)


def _fill(task: list[Block], blocks: Iterator[Block], rest: list[Block]) -> None:
    """Move the next task's blocks into ``task`` (those read before an error stay in it):
    first ``rest``, then those read; the lines of a block past ``_CHUNK`` go to ``rest``."""
    records = size = 0
    carried = rest.copy()
    rest.clear()
    for block in chain(carried, blocks):
        first, count, item = block
        if type(item) is Lines:
            if records + count > _CHUNK:
                taken = _CHUNK - records
                head, tail = item.split(taken)
                task.append((first, taken, head))
                rest.append((first + taken, count - taken, tail))
                return
            size += item.size
        task.append(block)
        records += count
        if records >= _CHUNK or size >= _CHUNK_BYTES:
            return


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Ends the workers of a run that stops early, instead of waiting for their tasks.

    Waiting could take as long as a line's comparison does, and their results are no
    longer wanted. The executor then sees its workers gone and cleans up by itself.
    """
    processes = list((pool._processes or {}).values())
    for process in processes:
        process.terminate()
    for process in processes:
        process.join()
    # A worker ended while it wrote its results leaves half a message in the pipe, and the
    # executor's thread would wait for the rest forever (seen with --jobs 2 | head). With
    # this process's copy of the pipe's writing end closed, no writer is left: it reads the
    # end of the pipe instead, and cleans up as for a worker that died.
    pool._result_queue._writer.close()  # type: ignore[attr-defined]
