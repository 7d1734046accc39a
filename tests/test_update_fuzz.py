"""`check --update` over generated YAML specs: anchors, merge keys, explicit keys, flow and
block styles, every YAML line break in strings, CRLF and a BOM. Run in-process through
the command's `main`, derandomized: it refuses cleanly (exit 2, the spec byte for byte as
it was), or writes a spec that loads, holds the planned data (every planned change made or
reported as not made), and keeps every byte outside the values it changed, in order.
The expectation is computed with the planner the command uses, on the same inputs."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from toolmatch import load_test_cases
from toolmatch._authoring.fixing import plan, read_runs
from toolmatch._authoring.splicing import SpecText
from toolmatch._authoring.update_plan import Append, Rekey, Replace, apply_to_data, same_data
from toolmatch._cli.console import printable
from toolmatch._cli.main import main

if TYPE_CHECKING:
    from toolmatch._authoring.update_plan import Edit

BREAKS = ["\n", "\r", "\r\n", "\t", "\x85", "\u2028", "\u2029", "é"]
texts = st.lists(st.sampled_from(["a", " ", "#", ":", *BREAKS]), max_size=4).map("".join)
values = st.one_of(st.integers(-3, 3), texts, st.lists(st.integers(0, 2), max_size=2))


def quoted(value: object) -> str:
    return json.dumps(value, ensure_ascii=True)  # JSON is YAML: escapes, one line


def written(value: object, style: str) -> str:
    """``value`` in the spec's text: JSON (escaped), or a string single-quoted with its raw
    characters (the loader folds NEL, LS and PS in it: the spec holds what it reads). CR
    and LF stay escaped: the file's own line endings are the only ones it has."""
    if style == "single" and isinstance(value, str) and not {"\r", "\n"} & set(value):
        return "'" + value.replace("'", "''") + "'"
    return quoted(value)


@st.composite
def specs(draw: st.DrawFn) -> tuple[str, dict[str, object], dict[str, object]]:
    """A spec's text, the arguments its expectation of f holds, and the recorded ones."""
    keys = draw(st.lists(st.sampled_from(["x", "y", "a\nb", "z"]), min_size=1, unique=True))
    expected = {key: draw(values) for key in keys}
    recorded = {key: draw(values) for key in keys if draw(st.booleans())}
    recorded.update({key: draw(values) for key in draw(st.lists(st.sampled_from(["w", "v"])))})
    style = draw(st.sampled_from(["block", "flow", "flow-lines", "explicit"]))
    pairs = [
        (quoted(k), written(v, draw(st.sampled_from(["json", "single"]))))
        for k, v in expected.items()
    ]
    comments = [draw(st.sampled_from(["", "  # c", " #é:"])) for _ in pairs]
    if style == "flow":
        args = " {" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}" + comments[0]
    elif style == "flow-lines":
        items = [
            f"\n          {k}: {v}," + note for (k, v), note in zip(pairs, comments, strict=True)
        ]
        args = " {" + "".join(items) + "\n        }"
    else:
        lines = [
            f"\n          ? {k}\n          : {v}{note}"
            if style == "explicit" or "\\n" in k
            else f"\n          {k}: {v}{note}"
            for (k, v), note in zip(pairs, comments, strict=True)
        ]
        args = "".join(lines)
    merged = draw(st.booleans())
    anchor = " &shared" if merged else ""
    text = (
        "test_cases:  # the cases\n"
        "  - name: a\n"
        "    expected_tools:\n"
        "      - name: f\n"
        f"        exact: {draw(st.sampled_from(['true', 'false']))}\n"
        f"        args:{anchor}{args}\n"
    )
    if merged:
        text += "      - name: g\n        args:\n          <<: *shared\n          q: 1\n"
    if draw(st.booleans()):
        text += "  - name: b\n    expected_tools: [h]\n"
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text, expected, recorded


@pytest.mark.filterwarnings("ignore")
@settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(specs(), st.sampled_from(["fix", "all"]), st.booleans())
def test_update_writes_a_spec_that_loads_or_refuses_cleanly(
    capsys: pytest.CaptureFixture[str],
    spec: tuple[str, dict[str, object], dict[str, object]],
    mode: str,
    new_case: bool,
) -> None:
    text, _, recorded = spec
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "spec.yaml"
        path.write_bytes(text.encode("utf-8"))
        traces = Path(folder) / "traces.jsonl"
        runs = [
            {
                "case": "a",
                "turns": [[{"name": "f", "args": recorded}, {"name": "g", "args": {"q": 1}}]],
            }
        ]
        if new_case:
            runs.append(
                {"case": "n", "turns": [[{"name": "k", "args": {"s": "l\u2028m\x85\r\n"}}]]}
            )
        traces.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
        environ = os.environ.pop("CI", None)
        try:
            status = main(["check", str(path), str(traces), "--update", mode])
            after = path.read_bytes()
            err = capsys.readouterr().err
            assert "Traceback" not in err
            assert "a bug in toolmatch" not in err
            event(f"exit {status}")
            if status == 2:
                assert after == text.encode("utf-8"), err
                return
            assert status in (0, 1), err
            load_test_cases(str(path))  # it loads
            original = Path(folder) / "original.yaml"
            original.write_bytes(text.encode("utf-8"))
            spec, made = planned(original, traces, mode, err)
            event(f"{len(made)} edits made")
            # It equals the plan: what the planner planned, but what it reported not made.
            assert same_data(SpecText(str(path), after).data, apply_to_data(spec.data, made)), err
            # It keeps the bytes outside the changed values, in order, and the BOM.
            assert after.startswith(b"\xef\xbb\xbf") == text.startswith("\ufeff")
            kept_outside(spec, made, after.decode("utf-8-sig"))
            if "\n" not in text.replace("\r\n", ""):  # a CRLF file gets CRLF lines only
                assert b"\n" not in after.replace(b"\r\n", b""), after
            if after != text.encode("utf-8"):
                # What stays: the comment, the line endings, the BOM.
                assert after.startswith(text.encode("utf-8")[:14])
                assert after.count(b"\r\n") >= (1 if b"\r\n" in text.encode() else 0)
            # The plan is made: a second update changes nothing more.
            main(["check", str(path), str(traces), "--update", mode])
            capsys.readouterr()
            assert path.read_bytes() == after
        finally:
            if environ is not None:
                os.environ["CI"] = environ


def planned(original: Path, traces: Path, mode: str, err: str) -> tuple[SpecText, list[Edit]]:
    """The spec as read before the update, and the edits the command made: those its
    planner plans from the same inputs, but the ones it reported as not made."""
    cases = load_test_cases(str(original))
    spec = SpecText(str(original), original.read_bytes())
    lines = traces.read_bytes().splitlines(keepends=True)
    runs = read_runs(enumerate(lines), (case.name for case in cases), None)
    planner = plan(mode, spec.data, cases, runs)
    reported = err.splitlines()
    for note in planner.not_done:  # what the planner itself left out
        line = printable(f"toolmatch: not {note.what}: {note.where}: {note.why}")
        if line in reported:
            reported.remove(line)
    made = []
    for edit in planner.edits:
        what = "added" if isinstance(edit, Append) else "fixed"
        prefix = printable(f"toolmatch: not {what}: {planner.where(edit.path)}: ")
        if not any(line.startswith(prefix) for line in reported):
            made.append(edit)
    return spec, made


def changed_span(spec: SpecText, edit: Edit) -> tuple[int, int]:
    """The characters of the original text the edit may change: the value it replaces; the
    lines of the mapping it rekeys (through the end of its last line); the end of the
    last case's line, where a case is added."""
    node, _ = spec._node(edit.path)
    if isinstance(edit, Replace):
        return node.start_mark.index, spec._end(node)
    if isinstance(edit, Rekey):
        start = node.start_mark.index
        if not node.flow_style:
            start = spec._line_start(start)
        return start, spec._break_after(spec._line_end(spec._end(node)))
    at = spec._line_end(spec._end(node.value[-1]))
    return at, at


def kept_outside(spec: SpecText, made: list[Edit], new: str) -> None:
    """Every character of the original outside the changed spans is in ``new``, in order:
    the text before the first span starts it, the text after the last ends it."""
    spans: list[list[int]] = []
    for start, stop in sorted(changed_span(spec, edit) for edit in made):
        if spans and start <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], stop)
        else:
            spans.append([start, stop])
    old = spec.text
    bounds = [0, *(place for span in spans for place in span), len(old)]
    pieces = [old[bounds[i] : bounds[i + 1]] for i in range(0, len(bounds), 2)]
    assert new.startswith(pieces[0]), (old, new)
    assert new.endswith(pieces[-1]), (old, new)
    at = len(pieces[0])
    for piece in pieces[1:-1]:
        found = new.find(piece, at)
        assert found >= 0, (piece, old, new)
        at = found + len(piece)
    assert at <= len(new) - len(pieces[-1]) or len(pieces) == 1, (old, new)
