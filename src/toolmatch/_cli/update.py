"""``toolmatch check SPEC TRACES --update new|fix|all``: the spec brought up to the recorded runs.

What each mode changes, and what it never touches, is in docs/cli.md ("Updating the
spec"). The changes are planned on the spec's data (:class:`Replace`, :class:`Rekey`,
:class:`Append`, each at a path of keys and indices), then made in the file's text:
a YAML spec gets each changed value spliced in where it stands, so every other byte
(comments, quotes, layout, anchors) stays as it was; a JSON spec is written again with
its own indentation. Before the file is replaced, the new text is read back and must
hold exactly the planned data, and load as a spec.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Sequence

from toolmatch._authoring.fixing import Runs, plan, read_runs
from toolmatch._authoring.update_plan import NotDone
from toolmatch._cli.console import fail, printable
from toolmatch._core.type_checking import TYPE_CHECKING
from toolmatch._selection.case import TestCase
from toolmatch._spec.errors import ConfigError

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import IO, Any

    from toolmatch._authoring.update_plan import Edit
    from toolmatch._cli.options import TracesOptions
    from toolmatch._runs.syntax import PythonTurns
    from toolmatch._runs.traces import TracesSource
    from toolmatch._spec.parsing import SpecDocument

    Path = tuple[Any, ...]

__all__ = [
    "in_ci",
    "print_diff",
    "refusal",
    "report_not_done",
    "report_weakened",
    "spooled",
    "update_spec",
]


def in_ci(environ: Mapping[str, str]) -> bool:
    """Whether ``CI`` says this runs on CI: set, not empty and not ``false`` (Vitest's rule).

    >>> in_ci({"CI": "true"}), in_ci({"CI": "1"}), in_ci({"CI": ""}), in_ci({"CI": "false"})
    (True, True, False, False)
    """
    return environ.get("CI", "") not in ("", "false")


# The command --------------------------------------------------------------------------------


def refusal(where: str, in_ci_allowed: bool, environ: Mapping[str, str]) -> str | None:
    """Why ``--update`` may not change the spec at ``where`` here, before anything is read
    (``in_ci_allowed``: ``--update-in-ci``); ``None`` when it may."""
    if in_ci(environ) and not in_ci_allowed:
        return (
            "--update does not change the spec on CI (CI is set in the environment); "
            "update it on your machine and commit it, or pass --update-in-ci"
        )
    import stat

    try:
        found = os.stat(where)
    except OSError:
        return None  # loading the spec says why it cannot be read
    if not stat.S_ISREG(found.st_mode):
        return f"cannot update the spec {where}: it is not a regular file"
    if not found.st_mode & 0o222 or not os.access(where, os.W_OK):
        return f"cannot update the spec {where}: it is read-only"
    return None


def spooled(file: IO[bytes]) -> IO[bytes]:
    """Standard input copied to a temporary file: the update reads the runs, then the check."""
    import shutil
    import tempfile

    spool = tempfile.TemporaryFile()  # noqa: SIM115  # the caller closes it
    try:
        shutil.copyfileobj(file, spool)
    except BaseException:
        spool.close()
        raise
    spool.seek(0)
    return spool


def update_spec(
    where: str,
    how: str,
    allow_rename: bool,
    cases: Sequence[TestCase],
    traces: TracesSource,
    traces_options: TracesOptions,
    python: PythonTurns | None,
    load: Callable[[SpecDocument], list[TestCase]],
    loaded: SpecDocument | None = None,
) -> int | list[TestCase]:
    """Updates the spec at ``where`` (``--update how``: new, fix or all; ``allow_rename``:
    ``--update-allow-rename``) from the runs of ``traces``, read as ``traces_options`` and
    ``python`` say; a run whose record says it did not complete (``--error-key``) changes
    nothing.

    ``loaded`` is the spec file ``cases`` were loaded from, read with its nodes: a spec
    that still holds its bytes under the lock is not read again, and the changes are
    planned and spliced on that one parse. ``load`` gives a spec file's cases.

    The runs are read first; then, holding the spec's lock, the spec is read, the changes
    planned and the new spec written whole, or nothing. Prints the change as a unified diff
    on stderr, then one line for each change it did not make; returns the cases of the
    spec as it is now, or 2 when it cannot update it.
    """
    from toolmatch._runs.traces import StoppedError, trace_items

    try:
        items = trace_items(traces, traces_options.columns())
        names = (case.name for case in cases)
        envelope, error_keys = traces_options.envelope(), traces_options.error_keys
        runs = read_runs(items, names, envelope, python, error_keys)
    except StoppedError as error:
        return fail(traces.stopped(error))
    try:
        lock = _locked(where)
    except OSError as error:
        return fail(f"cannot update the spec {where}: {error.strerror or error}")
    try:
        return _update_locked(where, how, allow_rename, runs, load, (loaded, cases))
    finally:
        if lock is not None:
            lock.close()  # which releases the lock


def _update_locked(
    where: str,
    how: str,
    allow_rename: bool,
    runs: Runs,
    load: Callable[[SpecDocument], list[TestCase]],
    loaded: tuple[SpecDocument | None, Sequence[TestCase]],
) -> int | list[TestCase]:
    from toolmatch._authoring.splicing import SpecText, SplicingError

    read = _read_spec(where, load, loaded)
    if isinstance(read, str):
        return fail(f"cannot update the spec {where}: {read}; the spec is unchanged")
    document, cases = read
    runs.for_cases(case.name for case in cases)
    spec = SpecText.of(document)
    try:
        planner = plan(how, spec.data, cases, runs, allow_rename)
    except ImportError as error:  # ruamel.yaml, from the cli extra
        return fail(str(error))
    try:
        text, made, not_placed = spec.edited(planner.edits, planner.where)
    except SplicingError as error:
        return fail(f"cannot update the spec {where}: {error} (a bug in toolmatch); unchanged")
    not_done = [*planner.not_done, *not_placed]
    if text == spec.text:
        report_not_done([*not_done, *planner.problems_left(None, runs)])
        return cases
    # The text as it was read back: the new spec's cases are loaded from that parse.
    updated = _replace_file(where, document.raw, spec.document_of(text), load)
    if isinstance(updated, str):
        return fail(f"cannot update the spec {where}: {updated}; the spec is unchanged")
    print_diff(where, spec.text, text)
    report_weakened(made, planner.where)
    report_not_done([*not_done, *planner.problems_left(updated, runs)])
    return updated


def _locked(where: str) -> IO[bytes] | None:
    """The spec file, open with an exclusive ``flock`` held until it is closed (``None`` on
    Windows): the lock is on the spec itself, so that nothing is left beside it. An update
    replaces the file by renaming, so a lock won on a file the path no longer names is let
    go, and the new file locked."""
    try:
        import fcntl
    except ImportError:  # Windows
        return None
    target = os.path.realpath(where)
    while True:
        file = open(target, "rb")  # noqa: SIM115  # the lock's owner closes it
        try:
            try:
                fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                print(
                    printable(f"toolmatch: waiting for another update of {where} to end"),
                    file=sys.stderr,
                )
                fcntl.flock(file.fileno(), fcntl.LOCK_EX)
            held, named = os.fstat(file.fileno()), os.stat(target)
        except BaseException:
            file.close()
            raise
        if (held.st_dev, held.st_ino) == (named.st_dev, named.st_ino):
            return file
        file.close()


def _read_spec(
    where: str,
    load: Callable[[SpecDocument], list[TestCase]],
    loaded: tuple[SpecDocument | None, Sequence[TestCase]],
) -> tuple[SpecDocument, list[TestCase]] | str:
    """The spec file, read with its nodes, and its cases, or why they cannot be: the
    document and cases ``loaded`` gives, when the spec still holds its bytes."""
    from toolmatch._spec.parsing import read_spec_document

    document, cases = loaded
    try:
        with open(where, "rb") as spec_file:
            raw = spec_file.read()
        # The same bytes load as the same cases (a tools: file the spec names is not read
        # again: the lock guards the spec alone).
        if document is not None and raw == document.raw:
            return document, list(cases)
        document = read_spec_document(where, raw, nodes=True)
        return document, load(document)
    except OSError as error:
        return f"cannot read it: {error.strerror or error}"
    except ConfigError as error:  # changed since the check loaded it
        problem = error.problems[0]
        return f"it changed, and no longer loads: {problem.path}: {problem.message}"


def _replace_file(
    where: str,
    before: bytes,
    document: SpecDocument,
    load: Callable[[SpecDocument], list[TestCase]],
) -> list[TestCase] | str:
    """Loads the new spec ``document`` (as the spec, so that a tools: path is relative to
    it as it is named), writes it whole beside the spec, then renames it over the spec (the
    file a symbolic link names) if that still holds ``before``; the cases it holds, or why
    it was not written."""
    import contextlib

    try:
        cases = load(document)
    except ConfigError as error:
        problem = error.problems[0]
        return f"the updated spec would not load: {problem.path}: {problem.message}"
    target = os.path.realpath(where)
    temporaries: list[str] = []
    try:
        temporary = _temporary(target, document.raw, temporaries)
        found = os.stat(target)
        os.chmod(temporary, found.st_mode & 0o7777)
        with contextlib.suppress(OSError, AttributeError):  # Windows has no chown
            os.chown(temporary, found.st_uid, found.st_gid)  # not ours to give: the updater's
        with open(target, "rb") as now:
            if now.read() != before:
                return "it changed since it was read (saved by hand?); run the update again"
        os.replace(temporary, target)
    except OSError as error:
        return f"cannot write {error.filename or where}: {error.strerror or error}"
    finally:
        for path in temporaries:
            if os.path.exists(path):
                os.unlink(path)
    return cases


def _temporary(beside: str, content: bytes, made: list[str]) -> str:
    """A new file holding ``content`` in the folder of ``beside``, with its suffix (which
    the loader reads by); its path is added to ``made``."""
    import tempfile

    folder, name = os.path.split(beside)
    suffix = "." + name.rpartition(".")[2]
    descriptor, path = tempfile.mkstemp(dir=folder or ".", prefix=f".{name}.", suffix=suffix)
    made.append(path)
    with os.fdopen(descriptor, "wb") as out:
        out.write(content)
    return path


def print_diff(where: str, before: str, after: str) -> None:
    """The diff from ``before`` to ``after`` of the file ``where``, on stderr."""
    from toolmatch._cli.diff import unified_diff

    for line in unified_diff(_lines(before), _lines(after), where):
        print(printable(line.rstrip("\r\n")), file=sys.stderr)


def report_weakened(made: Iterable[Edit], where: Callable[[Path], str]) -> None:
    """One line on stderr for each assertion the edits ``made`` widen or remove, its place
    named by ``where``: a fix that weakens a check is never silent."""
    for edit in made:
        for path, what in edit.weakened:
            print(printable(f"toolmatch: weakened: {where(path)}: {what}"), file=sys.stderr)


def report_not_done(not_done: Iterable[NotDone]) -> None:
    """One line on stderr for each change not made, with its place and why."""
    for item in not_done:
        print(printable(f"toolmatch: not {item.what}: {item.where}: {item.why}"), file=sys.stderr)


def _lines(text: str) -> list[str]:
    """The text's lines, each with its ``\\n``: a form feed, NEL or line separator inside
    a line is a character of it here, as in the editor the diff is read beside."""
    lines = [line + "\n" for line in text.split("\n")]
    lines[-1] = lines[-1][:-1]
    return lines if lines[-1] else lines[:-1]
