"""``toolmatch report``, ``check --html`` / ``--markdown``, ``--baseline`` and
``--confidence``, run as a user runs them: the command in a subprocess, the page read by a
real HTML parser (html5lib, as browsers parse)."""

from __future__ import annotations

import gzip
import json
import math
import re
from pathlib import Path

import pytest

from commands import ROOT, jsonl, toolmatch
from toolmatch._runs.baseline import Side, compare
from toolmatch._runs.significance import fisher_worse, wilson_lower

html5lib = pytest.importorskip("html5lib")

SPEC = ROOT / "examples" / "spec.yaml"
TRACES = ROOT / "examples" / "traces.jsonl"

TWO_CASES = (
    "test_cases:\n"
    "  - {name: book, expected_tools: [book_flight]}\n"
    "  - {name: cancel, expected_tools: [cancel_order]}\n"
)
BOOK = {"case": "book", "turns": [[{"name": "book_flight"}]]}
SEARCH = {"case": "book", "turns": [[{"name": "search_flights"}]]}
CANCEL = {"case": "cancel", "turns": [[{"name": "cancel_order"}]]}


def results(tmp_path: Path, name: str = "results.jsonl") -> Path:
    path = tmp_path / name
    result = toolmatch("check", SPEC, TRACES, "--format", "json")
    assert result.returncode == 1
    path.write_text(result.stdout, encoding="utf-8")
    return path


def parsed(page: str) -> object:
    """The page as html5lib's strict parser reads it: any parse error fails."""
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(page)


def text_of(element: object) -> str:
    return "".join(element.itertext())  # type: ignore[attr-defined]


# Statistics --------------------------------------------------------------------------------


def exact_worse(n0: int, c0: int, n1: int, c1: int) -> float:
    passes = c0 + c1
    total = math.comb(n0 + n1, passes)
    return (
        sum(
            math.comb(n1, x) * math.comb(n0, passes - x)
            for x in range(c1 + 1)
            if 0 <= passes - x <= n0
        )
        / total
    )


@pytest.mark.parametrize(("n0", "n1"), [(1, 1), (5, 5), (10, 3), (20, 20), (2, 7)])
def test_fisher_is_the_hypergeometric_tail(n0: int, n1: int) -> None:
    for c0 in range(n0 + 1):
        for c1 in range(n1 + 1):
            assert fisher_worse(n0, c0, n1, c1) == pytest.approx(exact_worse(n0, c0, n1, c1))


def test_fisher_refuses_impossible_counts() -> None:
    message = (
        "fisher_worse: the before counts must be runs >= 1 and passed from 0 to runs, got 5 of 4"
    )
    with pytest.raises(ValueError, match=re.escape(message)):
        fisher_worse(4, 5, 4, 1)


def test_wilson_lower_bound() -> None:
    # One-sided 95%: z = 1.6449; 8 of 10 gives (0.8 + z²/20 - z √(0.016 + z²/400)) / (1 + z²/10)
    z = 1.6448536269514722
    expected = (0.8 + z * z / 20 - z * math.sqrt(0.016 + z * z / 400)) / (1 + z * z / 10)
    assert wilson_lower(8, 10, 0.95) == pytest.approx(expected)
    assert wilson_lower(10, 10, 0.95) < 1.0
    with pytest.raises(ValueError, match=r"confidence must be between 0 and 1, got 1\.5"):
        wilson_lower(1, 2, 1.5)


def test_compare_kinds_in_order() -> None:
    before = {"a": Side(10, 10), "b": Side(1, 0), "c": Side(3, 3), "d": Side(4, 4), "e": Side(4, 4)}
    after = {
        "a": Side(10, 4),  # p = 0.005: regressed
        "b": Side(1, 1),  # a single run each: the flip is the change
        "d": Side(4, 3, ("turns[0].expected_tools[0]",)),  # one failure in 4: noise
        "e": Side(4, 4),
        "f": Side(2, 2),
    }
    changes = compare(before, after)
    assert [(change.kind, change.case) for change in changes] == [
        ("regressed", "a"),
        ("missing", "c"),
        ("flaky", "d"),
        ("improved", "b"),
        ("new", "f"),
        ("noise", "d"),
    ]
    assert changes[0].why(0.05) == (
        "10/10 passed before, 4/10 passed now (p = 0.005, Fisher exact test, at most 0.05)"
    )
    assert changes[-1].why(0.05) == (
        "4/4 passed before, 3/4 passed now (p = 0.500, Fisher exact test, more than 0.05)"
    )


# toolmatch report --------------------------------------------------------------------------


def test_report_html_is_one_parsed_page_with_the_failure(tmp_path: Path) -> None:
    rows = results(tmp_path)
    page = tmp_path / "report.html"
    result = toolmatch("report", rows, "-o", page)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    text = page.read_text(encoding="utf-8")
    document = parsed(text)
    assert document.find(".//script") is None  # type: ignore[attr-defined]
    for element in document.iter():  # type: ignore[attr-defined]
        for attribute in ("src", "href"):
            value = element.get(attribute)
            assert value is None or value.startswith("#"), (element.tag, value)
    failure = document.find(".//article[@id='failure-1']")  # type: ignore[attr-defined]
    shown = " ".join(text_of(failure).split())
    assert shown.startswith("FAIL refund_damaged_order at line 4 ")
    assert "call 0: amount: expected 42.5 ± 0.01, got 40.0" in shown
    cells = [" ".join(text_of(cell).split()) for cell in failure.iter("td")]
    assert cells == ["amount", "Approx(42.5, abs=0.01)", "40.0", "expected 42.5 ± 0.01, got 40.0"]
    # byte-stable: the same rows, the same page
    again = toolmatch("report", rows)
    assert again.stdout == text


def test_report_escapes_every_value(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text('test_cases:\n  - {name: "<img src=x>", expected_tools: ["<b>"]}\n')
    traces = jsonl({"case": "<img src=x>", "turns": [[{"name": "<script>", "args": {"a": "&"}}]]})
    rows = toolmatch("check", spec, "-", "--format", "json", stdin=traces).stdout
    path = tmp_path / "rows.jsonl"
    path.write_text(rows)
    page = toolmatch("report", path).stdout
    document = parsed(page)
    assert document.find(".//img") is None  # type: ignore[attr-defined]
    assert document.find(".//script") is None  # type: ignore[attr-defined]
    assert "&lt;img src=x&gt;" in page


def test_report_reads_gzip_and_several_files(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(TWO_CASES)
    first = toolmatch("check", spec, "-", "--format", "json", stdin=jsonl(BOOK, CANCEL)).stdout
    second = toolmatch("check", spec, "-", "--format", "json", stdin=jsonl(SEARCH, CANCEL)).stdout
    (tmp_path / "a.jsonl.gz").write_bytes(gzip.compress(first.encode()))
    (tmp_path / "b.jsonl").write_text(second)
    result = toolmatch(
        "report", tmp_path / "a.jsonl.gz", tmp_path / "b.jsonl", "--format", "markdown"
    )
    assert result.returncode == 0
    assert "| 3 | 1 | 0 | 0 | 2 | 0.750 |" in result.stdout.splitlines()  # book 1/2, cancel 2/2
    assert f"**FAIL book** at `{tmp_path / 'b.jsonl'}: line 1`" in result.stdout


def test_report_refuses_what_check_did_not_write(tmp_path: Path) -> None:
    bad = tmp_path / "traces.jsonl"
    bad.write_text('{"case": "a", "turns": []}\n')
    result = toolmatch("report", bad)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == (
        f"toolmatch: {bad}:1: expected a row with a type, got an object without a type "
        "(dict); pass a file that toolmatch check --format json wrote\n"
    )
    missing = toolmatch("report", tmp_path / "none.jsonl")
    assert missing.returncode == 2
    assert missing.stderr.startswith(f"toolmatch: cannot read {tmp_path / 'none.jsonl'}: ")
    rows = results(tmp_path)
    same = toolmatch("report", rows, "-o", rows)
    assert (same.returncode, same.stderr) == (
        2,
        f"toolmatch: cannot write {rows}: it is the results file {rows}\n",
    )
    lone = toolmatch("report", rows, "--allow-missing")
    assert (lone.returncode, lone.stderr) == (
        2,
        "toolmatch: --allow-missing is for --baseline: give --baseline BASE too\n",
    )


def test_markdown_stays_under_a_comment(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        "test_cases:\n  - {name: long, expected_tools: [{name: f, args: {x: {$fuzzy: a}}}]}\n"
    )
    run = {"case": "long", "turns": [[{"name": "f", "args": {"x": "z" * 40_000}}]]}
    rows = toolmatch("check", spec, "-", "--format", "json", stdin=jsonl(*[run] * 30)).stdout
    path = tmp_path / "rows.jsonl"
    path.write_text(rows)
    text = toolmatch("report", path, "--format", "markdown").stdout
    assert len(text) <= 65_536
    assert "_30 more failed runs not shown._" in text or "more failed runs not shown" in text


def test_page_is_bounded_however_many_failures(tmp_path: Path) -> None:
    rows = results(tmp_path).read_text().splitlines()
    failing = next(row for row in rows if '"passed": false' in row)
    sizes = []
    for count in (200, 2_000):
        path = tmp_path / f"many{count}.jsonl"
        path.write_text("\n".join([failing] * count) + "\n")
        page = toolmatch("report", path).stdout
        assert f"{count - 100:,} more failed runs are not shown (the first 100 are)" in page
        sizes.append(len(page))
    assert sizes[1] - sizes[0] < 200  # the counts' digits only


# check --html, --markdown ------------------------------------------------------------------


def test_check_writes_the_page_beside_its_output(tmp_path: Path) -> None:
    page, markdown = tmp_path / "r.html", tmp_path / "r.md"
    result = toolmatch("check", SPEC, TRACES, "--html", page, "--markdown", markdown)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-1] == "4 passed, 2 failed"
    document = parsed(page.read_text(encoding="utf-8"))
    header = " ".join(text_of(document.find(".//header")).split())  # type: ignore[attr-defined]
    assert f"toolmatch check {SPEC} {TRACES} --html {page} --markdown {markdown}" in header
    assert f"at {TRACES}:4" in page.read_text(encoding="utf-8")
    assert markdown.read_text(encoding="utf-8").startswith("## toolmatch: :x: FAIL\n")
    refused = toolmatch("check", SPEC, TRACES, "--html", TRACES)
    assert (refused.returncode, refused.stderr) == (
        2,
        f"toolmatch: cannot write {TRACES}: it is the traces file\n",
    )


# --baseline --------------------------------------------------------------------------------


def test_baseline_regressed_missing_new_and_exit_status(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(TWO_CASES)
    base = tmp_path / "base.jsonl"
    base.write_text(
        toolmatch("check", spec, "-", "--format", "json", stdin=jsonl(*[BOOK] * 8, CANCEL)).stdout
    )
    spec.write_text(
        TWO_CASES.replace("cancel, expected_tools: [cancel_order]", "new, expected_tools: [x]")
    )
    now = jsonl(*[BOOK] * 2, *[SEARCH] * 6, {"case": "new", "turns": [[{"name": "x"}]]})
    result = toolmatch("check", spec, "-", "--baseline", base, stdin=now)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-6:] == [
        "BASELINE REGRESSED book: 8/8 passed before, 2/8 passed now (p = 0.003, Fisher exact "
        "test, at most 0.05)",
        "BASELINE MISSING cancel: 1/1 passed before, no run now",
        "BASELINE FLAKY book: turns[0].expected_tools[0] failed in some runs now, not before "
        "(2/8 passed)",
        "BASELINE NEW new: no run before, 1/1 passed now",
        "baseline: 1 regressed, 1 missing, 1 flaky, 0 improved, 1 new, 0 noise",
        "3 passed, 6 failed",
    ]
    rows = [
        json.loads(line)
        for line in toolmatch(
            "check", spec, "-", "--baseline", base, "--format", "json", stdin=now
        ).stdout.splitlines()
    ]
    assert rows[-1]["baseline"] == {
        "regressed": 1,
        "missing": 1,
        "flaky": 1,
        "improved": 0,
        "new": 1,
        "noise": 0,
    }
    assert rows[-1]["regressions"] == 2
    assert rows[-5] == {
        "type": "baseline",
        "change": "regressed",
        "case": "book",
        "check": None,
        "before": {"runs": 8, "passed": 8},
        "after": {"runs": 8, "passed": 2},
        "p_value": pytest.approx(0.0035, abs=1e-4),
        "regression": True,
        "why": "8/8 passed before, 2/8 passed now (p = 0.003, Fisher exact test, at most 0.05)",
    }
    junit = tmp_path / "junit.xml"
    toolmatch("check", spec, "-", "--baseline", base, "--junit-xml", junit, stdin=now)
    xml = junit.read_text()
    assert '<testcase classname="spec" name="toolmatch baseline" file="&lt;stdin&gt;">' in xml
    assert 'message="2 regression(s) from the baseline"' in xml
    # the page and the Markdown show the delta; report --baseline gates as check does
    current = tmp_path / "now.jsonl"
    current.write_text(toolmatch("check", spec, "-", "--format", "json", stdin=now).stdout)
    markdown = toolmatch("report", current, "--baseline", base, "--format", "markdown")
    assert markdown.returncode == 1
    assert (
        "| **REGRESSED** | book | 8/8 passed before, 2/8 passed now (p = 0.003, Fisher "
        "exact test, at most 0.05) |" in markdown.stdout
    )
    allowed = toolmatch("report", current, "--baseline", base, "--significance", "0.001")
    assert allowed.returncode == 1  # the missing case still is a regression
    lenient = toolmatch(
        "report", current, "--baseline", base, "--significance", "0.001", "--allow-missing"
    )
    assert lenient.returncode == 0
    assert "NOISE" in lenient.stdout


def test_a_flip_of_single_runs_is_the_change(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(TWO_CASES)
    base = tmp_path / "base.jsonl"
    base.write_text(
        toolmatch("check", spec, "-", "--format", "json", stdin=jsonl(SEARCH, CANCEL)).stdout
    )
    result = toolmatch("check", spec, "-", "--baseline", base, stdin=jsonl(BOOK, CANCEL))
    assert result.returncode == 0
    assert "BASELINE IMPROVED book: 0/1 passed before, 1/1 passed now (single runs)" in (
        result.stdout.splitlines()
    )


def test_baseline_that_is_not_results(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(TWO_CASES)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    result = toolmatch("check", spec, "-", "--baseline", empty, stdin=jsonl(BOOK))
    assert (result.returncode, result.stderr) == (
        2,
        f"toolmatch: --baseline: {empty}: no trials row, so no case's runs: pass a file that "
        "toolmatch check --format json wrote (a run with no case of the spec has none)\n",
    )


def test_baseline_reads_only_its_trials_and_check_rows(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(TWO_CASES)
    rows = toolmatch("check", spec, "-", "--format", "json", stdin=jsonl(BOOK, CANCEL)).stdout
    lines = rows.splitlines()
    case = next(n for n, line in enumerate(lines) if line.startswith('{"type": "case"'))
    trials = next(n for n, line in enumerate(lines) if line.startswith('{"type": "trials"'))
    base = tmp_path / "base.jsonl"
    # A case row is passed over by its head, damaged or not: the comparison never reads it.
    base.write_text("\n".join([*lines[:case], lines[case][:40], *lines[case + 1 :]]) + "\n")
    result = toolmatch("check", spec, "-", "--baseline", base, stdin=jsonl(BOOK, CANCEL))
    assert (result.returncode, result.stderr, result.stdout.splitlines()[-1]) == (
        0,
        "",
        "2 passed, 0 failed",
    )
    lines[trials] = lines[trials][:40]
    base.write_text("\n".join(lines) + "\n")
    result = toolmatch("check", spec, "-", "--baseline", base, stdin=jsonl(BOOK, CANCEL))
    assert result.returncode == 2
    assert result.stderr.startswith(f"toolmatch: --baseline: {base}:{trials + 1}: not JSON (")


# --confidence ------------------------------------------------------------------------------


def test_confidence_gates_on_the_wilson_lower_bound(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("test_cases:\n  - {name: book, expected_tools: [book_flight]}\n")
    five = jsonl(*[BOOK] * 5)
    plain = toolmatch("check", spec, "-", "--min-pass-rate", "0.8", stdin=five)
    assert plain.returncode == 0
    sure = toolmatch(
        "check", spec, "-", "--min-pass-rate", "0.8", "--confidence", "0.95", stdin=five
    )
    assert sure.returncode == 1
    assert sure.stdout.splitlines()[-2] == (
        "pass rate below 0.8 at 0.95 confidence: book (5/5 passed, at least 0.649)"
    )
    many = toolmatch(
        "check",
        spec,
        "-",
        "--min-pass-rate",
        "0.8",
        "--confidence",
        "0.95",
        "--format",
        "json",
        stdin=jsonl(*[BOOK] * 30),
    )
    summary = json.loads(many.stdout.splitlines()[-1])
    assert (many.returncode, summary["confidence"], summary["below_min_pass_rate"]) == (
        0,
        0.95,
        [],
    )
    alone = toolmatch("check", spec, "-", "--confidence", "0.95", stdin=five)
    assert (alone.returncode, alone.stderr) == (
        2,
        "toolmatch: --confidence is the confidence of --min-pass-rate's bound: give "
        "--min-pass-rate R too\n",
    )
    bad = toolmatch("check", spec, "-", "--min-pass-rate", "0.8", "--confidence", "95", stdin=five)
    assert bad.returncode == 2
    assert re.search(
        r"must be a number between 0 and 1 \(both excluded\), such as 0\.95, got '95'", bad.stderr
    )
