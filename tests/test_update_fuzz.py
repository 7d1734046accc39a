"""`check --update` over generated YAML specs: anchors, merge keys, explicit keys, flow and
block styles, every YAML line break in strings, CRLF and a BOM. Run in-process through
the command's `main`, derandomized: it writes the spec, or refuses cleanly, never raises."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolmatch import load_test_cases
from toolmatch._cli.main import main

BREAKS = ["\n", "\r", "\r\n", "\t", "\x85", "\u2028", "\u2029", "é"]
texts = st.lists(st.sampled_from(["a", " ", "#", ":", *BREAKS]), max_size=4).map("".join)
values = st.one_of(st.integers(-3, 3), texts, st.lists(st.integers(0, 2), max_size=2))


def quoted(value: object) -> str:
    return json.dumps(value, ensure_ascii=True)  # JSON is YAML: escapes, one line


@st.composite
def specs(draw: st.DrawFn) -> tuple[str, dict[str, object], dict[str, object]]:
    """A spec's text, the arguments its expectation of f holds, and the recorded ones."""
    keys = draw(st.lists(st.sampled_from(["x", "y", "a\nb", "z"]), min_size=1, unique=True))
    expected = {key: draw(values) for key in keys}
    recorded = {key: draw(values) for key in keys if draw(st.booleans())}
    recorded.update({key: draw(values) for key in draw(st.lists(st.sampled_from(["w", "v"])))})
    style = draw(st.sampled_from(["block", "flow", "explicit"]))
    if style == "flow":
        args = " {" + ", ".join(f"{quoted(k)}: {quoted(v)}" for k, v in expected.items()) + "}"
    else:
        lines = [
            f"\n          ? {quoted(k)}\n          : {quoted(v)}"
            if style == "explicit" or "\n" in k
            else f"\n          {quoted(k)}: {quoted(v)}"
            for k, v in expected.items()
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
            if status == 2:
                assert after == text.encode("utf-8"), err
                return
            assert status in (0, 1), err
            load_test_cases(str(path))  # it loads
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
