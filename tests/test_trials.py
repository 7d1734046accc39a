"""Trials: several runs of one case, their pass rate and pass^k, in the library and in
`toolmatch check` run as a subprocess (docs/cli.md, Trials)."""

from __future__ import annotations

import json
import math
import sys
import xml.etree.ElementTree as ElementTree
from collections import Counter
from collections.abc import Iterable
from fractions import Fraction
from functools import partial
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import commands
from toolmatch import pass_hat_k
from toolmatch._runs.trials import mean_pass_k, pass_k_series, pass_k_stretches

# --- the estimator --------------------------------------------------------------------------


@given(st.lists(st.booleans(), min_size=1, max_size=9), st.data())
def test_pass_hat_k_is_the_mean_over_every_choice_of_k_trials(
    trials: list[bool], data: st.DataObject
) -> None:
    n, c = len(trials), sum(trials)
    k = data.draw(st.integers(1, n))
    choices = list(combinations(trials, k))
    all_passed = sum(all(choice) for choice in choices)
    assert pass_hat_k(n, c, k) == float(Fraction(all_passed, len(choices)))


@given(st.integers(1, 400), st.data())
def test_pass_hat_k_is_the_nearest_float_to_its_binomial_fraction(
    n: int, data: st.DataObject
) -> None:
    c = data.draw(st.integers(0, n))
    k = data.draw(st.integers(1, n))
    # int / int rounds correctly, whatever the sizes: the reference figure
    assert pass_hat_k(n, c, k) == math.comb(c, k) / math.comb(n, k)


def test_pass_hat_k_past_the_smallest_float() -> None:
    # Half of 3,000 runs passed: pass^k halves about every step and leaves the floats
    # near k = 840; every value from there on is 0.0, and the ones before it are exact.
    n, c = 3000, 1500
    gone = next(k for k in range(1, n + 1) if math.comb(c, k) / math.comb(n, k) == 0.0)
    assert 500 < gone < c
    for k in (gone - 2, gone - 1, gone, gone + 1, c, c + 1, n):
        assert pass_hat_k(n, c, k) == math.comb(c, k) / math.comb(n, k)
    assert pass_hat_k(n, c, gone - 1) > 0.0


def reference(n: int, c: int) -> list[float]:
    """pass^1 to pass^n, each C(c, k) / C(n, k) rounded once (int / int rounds correctly)."""
    values, passing, runs = [], 1, 1
    for k in range(1, n + 1):  # C(c, k) and C(n, k) from C(c, k - 1) and C(n, k - 1)
        passing, runs = passing * (c - k + 1) // k, runs * (n - k + 1) // k
        values.append(passing / runs)
    return values


@st.composite
def counts(draw: st.DrawFn, most: int = 3000) -> tuple[int, int]:
    """Runs and passing runs, the edges (none, all, all but one passed) often."""
    n = draw(st.integers(1, most))
    c = draw(st.one_of(st.sampled_from([0, n, max(n - 1, 0), n // 2]), st.integers(0, n)))
    return n, c


@settings(max_examples=200, deadline=None)
@given(counts())
def test_every_pass_k_of_a_series_is_the_nearest_float(case: tuple[int, int]) -> None:
    # whole series, through the subnormal floats to 0.0 when c / n is not near 1
    n, c = case
    assert list(pass_k_series(n, c)) == reference(n, c)


def test_series_that_pass_through_the_subnormal_floats() -> None:
    smallest = 5e-324  # 2 ** -1074
    for n, c in [(3000, 1500), (2500, 2000), (1200, 300), (2999, 2998)]:
        values, expected = list(pass_k_series(n, c)), reference(n, c)
        assert values == expected
    # two of them go below the normal floats, to within 10,000 steps of 2 ** -1074
    for n, c in [(3000, 1500), (2500, 2000)]:
        tiny = [value for value in reference(n, c) if 0.0 < value < sys.float_info.min]
        assert tiny
        assert min(tiny) < 1e4 * smallest


def test_values_that_are_exactly_a_rounding_midpoint() -> None:
    # (2 ** 54 - 3) / 2 ** 54 lies halfway between 1 - 2 ** -52 (even: it wins the tie) and
    # 1 - 2 ** -53; any bound on it above the exact value rounds up, so the nearest float
    # must come from the exact fraction. (2 ** 54 - 5) / 2 ** 54 ties upwards instead.
    n = 2**54
    assert pass_hat_k(n, n - 3, 1) == 1 - 2**-52 == (n - 3) / n
    assert pass_hat_k(n, n - 5, 1) == 1 - 2**-52 == (n - 5) / n
    assert pass_hat_k(n, n - 1, 1) == 1.0  # halfway between 1 - 2 ** -53 and 1.0
    # a midpoint at k = 2: 2 ** 55 - 1 divides c * (c - 1), and the quotient halved is odd
    n, c = 2**55, 33770646155976567
    exact = Fraction(c * (c - 1), n * (n - 1))
    assert exact.denominator == 2**54
    assert exact.numerator.bit_length() == 54
    assert pass_hat_k(n, c, 2) == float(exact) == math.comb(c, 2) / math.comb(n, 2)


def tallied(cases: list[tuple[tuple[int, int], int]]) -> Counter[tuple[int, int]]:
    """How many cases have each ``(n, c)``, from ``((n, c), cases)`` pairs."""
    by_counts = Counter[tuple[int, int]]()
    for case, times in cases:
        by_counts[case] += times
    return by_counts


@settings(deadline=None)
@given(st.lists(st.tuples(counts(1200), st.integers(1, 3)), min_size=1, max_size=5))
def test_each_mean_is_the_exact_mean_of_the_cases_values_rounded_once(
    cases: list[tuple[tuple[int, int], int]],
) -> None:
    by_counts = tallied(cases)
    series = {case: reference(*case) for case in by_counts}
    expected = []
    for k in range(1, max(n for n, _ in by_counts) + 1):
        having = [(case, times) for case, times in by_counts.items() if case[0] >= k]
        counted = sum(times for _, times in having)
        exact = sum(Fraction(series[case][k - 1]) * times for case, times in having)
        expected.append((float(exact / counted), counted))
    means = [mean for mean, times in mean_pass_k(by_counts) for _ in range(times)]
    assert means == expected


@settings(deadline=None)
@given(st.lists(st.tuples(counts(3000), st.integers(1, 3)), min_size=1, max_size=5))
def test_values_shown_with_three_decimals_are_the_same_when_those_below_it_are_not_computed(
    cases: list[tuple[tuple[int, int], int]],
) -> None:
    # What a text report asks for: every value below 0.0005 shows as 0.000 and is given as 0.0.
    by_counts = tallied(cases)

    def shown(stretches: Iterable[tuple[tuple[float, int], int]]) -> list[tuple[str, int]]:
        return [
            (f"{mean:.3f}", counted) for (mean, counted), times in stretches for _ in range(times)
        ]

    assert shown(mean_pass_k(by_counts, 0.0005)) == shown(mean_pass_k(by_counts))
    for n, c in by_counts:
        short = [
            f"{value:.3f}" for value, times in pass_k_stretches(n, c, 0.0005) for _ in range(times)
        ]
        assert short == [f"{value:.3f}" for value in pass_k_series(n, c)]


def test_pass_hat_k_takes_numpy_counts() -> None:
    import numpy as np

    # counts from a data frame's group-by are NumPy integers
    assert pass_hat_k(np.int64(4), np.int32(2), np.uint8(2)) == 1 / 6


def test_pass_hat_k_known_figures() -> None:
    assert [pass_hat_k(4, 2, k) for k in range(1, 5)] == [0.5, 1 / 6, 0.0, 0.0]
    assert [pass_hat_k(3, 3, k) for k in range(1, 4)] == [1.0, 1.0, 1.0]
    assert pass_hat_k(10, 7, 1) == 0.7  # pass^1 is the pass rate
    # a case of many runs that nearly all passed: C(n - k, 1) / C(n, 1)
    assert pass_hat_k(100_000, 99_999, 50_000) == 0.5


@pytest.mark.parametrize(
    ("args", "error", "message"),
    [
        ((4, 2, 2.0), TypeError, "pass_hat_k: k must be a whole number, got 2.0 (float)"),
        ((True, 1, 1), TypeError, "pass_hat_k: n must be a whole number, got True (bool)"),
        ((4, "2", 1), TypeError, "pass_hat_k: c must be a whole number, got '2' (str)"),
        ((0, 0, 1), ValueError, "pass_hat_k: n must be >= 1, got 0"),
        ((4, 5, 1), ValueError, "pass_hat_k: c must be from 0 to n (4), got 5"),
        ((4, -1, 1), ValueError, "pass_hat_k: c must be from 0 to n (4), got -1"),
        ((4, 2, 0), ValueError, "pass_hat_k: k must be from 1 to n (4), got 0"),
        ((4, 2, 5), ValueError, "pass_hat_k: k must be from 1 to n (4), got 5"),
    ],
)
def test_pass_hat_k_refuses_what_is_not_a_count(
    args: tuple[object, object, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error) as raised:
        pass_hat_k(*args)  # type: ignore[arg-type]
    assert str(raised.value) == message


# --- the command ----------------------------------------------------------------------------

SPEC = """\
test_cases:
  - {name: book, expected_tools: [book_flight]}
  - {name: cancel, expected_tools: [cancel_order]}
  - {name: seat, expected_tools: [change_seat]}
"""
BOOK = {"case": "book", "turns": [[{"name": "book_flight"}]]}
BOOK_WRONG = {"case": "book", "turns": [[{"name": "search_flights"}]]}
CANCEL = {"case": "cancel", "turns": [[{"name": "cancel_order"}]]}
SEAT = {"case": "seat", "turns": [[{"name": "change_seat"}]]}
SEAT_UNREADABLE = {"case": "seat"}  # no turns: it cannot be checked
FAILED_BOOK = (
    "  turn 0, expected_tools[0]: ExpectedTool('book_flight')\n"
    "    expected 1 matching call(s), got 0: no call's name contains 'book_flight'; "
    "the turn called 'search_flights'\n"
)


toolmatch = partial(commands.toolmatch, "check")


jsonl = commands.jsonl


@pytest.fixture
def spec(tmp_path: Path) -> Path:
    path = tmp_path / "spec.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return path


@pytest.fixture
def traces(tmp_path: Path) -> Path:
    """book: 2 passing runs of 4; cancel: 2 of 2; seat: 1 of 2 (its other run unreadable)."""
    path = tmp_path / "traces.jsonl"
    runs = (BOOK, BOOK_WRONG, CANCEL, SEAT_UNREADABLE, BOOK, BOOK_WRONG, CANCEL, SEAT)
    path.write_text(jsonl(*runs), encoding="utf-8")
    return path


def test_text_gives_each_case_its_trials_and_the_means(spec: Path, traces: Path) -> None:
    result = toolmatch(spec, traces)
    assert (result.returncode, result.stderr) == (1, "")
    assert result.stdout == (
        "PASS book\n"
        "FAIL book (run 2)\n"
        f"{FAILED_BOOK}"
        "PASS cancel\n"
        f'ERROR {traces}:4: missing "turns": a list with one entry of calls per turn\n'
        "PASS book (run 3)\n"
        "FAIL book (run 4)\n"
        f"{FAILED_BOOK}"
        "PASS cancel (run 2)\n"
        "PASS seat (run 2)\n"
        # k = 1, 2, 4, ... and the runs: book's pass^3 is not shown
        "TRIALS book: 2/4 passed, pass^1 0.500, pass^2 0.167, pass^4 0.000\n"
        # the check that failed in some of book's runs (docs/cli.md, tests/test_flaky.py)
        "FLAKY book: turns[0].expected_tools[0] ExpectedTool('book_flight'): "
        "failed in 2 of 4 runs (0.50)\n"
        "TRIALS cancel: 2/2 passed, pass^1 1.000, pass^2 1.000\n"
        "TRIALS seat: 1/2 passed, pass^1 0.500, pass^2 0.000\n"
        # pass^2: (1/6 + 1 + 0) / 3; pass^4 only book has
        "TRIALS mean over 3 cases: pass^1 0.667, pass^2 0.389, pass^4 0.000 (1 case)\n"
        "1 error\n"
        "5 passed, 2 failed\n"
    )


def test_json_gives_a_trials_row_per_case_and_the_means_in_the_summary(
    spec: Path, traces: Path
) -> None:
    result = toolmatch(spec, traces, "--format", "json")
    assert result.returncode == 1
    rows = result.stdout.splitlines()
    types = ["case"] * 3 + ["error"] + ["case"] * 4 + ["trials", "check"] + ["trials"] * 2
    assert [json.loads(row)["type"] for row in rows] == [*types, "summary"]
    assert rows[-5:] == [
        '{"type": "trials", "case": "book", "runs": 4, "passed": 2, "pass_rate": 0.5, '
        '"k": [1, 2, 4], "pass_k": {"1": 0.5, "2": 0.16666666666666666, "4": 0.0}}',
        '{"type": "check", "case": "book", "check": "turns[0].expected_tools[0]", '
        '"description": "ExpectedTool(\'book_flight\')", "failed": 2, "runs": 4, "share": 0.5, '
        '"flaky": true}',
        '{"type": "trials", "case": "cancel", "runs": 2, "passed": 2, "pass_rate": 1.0, '
        '"k": [1, 2], "pass_k": {"1": 1.0, "2": 1.0}}',
        '{"type": "trials", "case": "seat", "runs": 2, "passed": 1, "pass_rate": 0.5, '
        '"k": [1, 2], "pass_k": {"1": 0.5, "2": 0.0}}',
        '{"type": "summary", "passed": 5, "failed": 2, "errors": 1, "missing": 0, "lines": 8, '
        '"cases": 3, "pass_rate": 0.6666666666666666, "k": [1, 2, 4], '
        '"pass_k": {"1": 0.6666666666666666, "2": 0.3888888888888889, "4": 0.0}}',
    ]
    # each mean is the exact mean of the cases' figures, rounded once
    summary = json.loads(rows[-1])
    assert summary["pass_k"]["2"] == float((Fraction(1 / 6) + 1 + 0) / 3)


def test_junit_holds_the_trials_as_suite_properties(
    spec: Path, traces: Path, tmp_path: Path
) -> None:
    report = tmp_path / "junit.xml"
    result = toolmatch(spec, traces, "--junit-xml", report, "--min-pass-rate", "0.5")
    assert result.returncode == 0
    [suite] = ElementTree.parse(report).getroot()
    assert [child.tag for child in suite][:2] == ["properties", "testcase"]
    properties = [(item.get("name"), item.get("value")) for item in suite.find("properties")]
    assert properties == [
        (
            "trials:book",
            '{"runs": 4, "passed": 2, "pass_rate": 0.5, "k": [1, 2, 4], '
            '"pass_k": {"1": 0.5, "2": 0.16666666666666666, "4": 0.0}}',
        ),
        (
            "check:book:turns[0].expected_tools[0]",
            '{"description": "ExpectedTool(\'book_flight\')", "failed": 2, "runs": 4, '
            '"share": 0.5, "flaky": true}',
        ),
        (
            "trials:cancel",
            '{"runs": 2, "passed": 2, "pass_rate": 1.0, "k": [1, 2], '
            '"pass_k": {"1": 1.0, "2": 1.0}}',
        ),
        (
            "trials:seat",
            '{"runs": 2, "passed": 1, "pass_rate": 0.5, "k": [1, 2], '
            '"pass_k": {"1": 0.5, "2": 0.0}}',
        ),
        (
            "trials",
            '{"cases": 3, "pass_rate": 0.6666666666666666, "k": [1, 2, 4], '
            '"pass_k": {"1": 0.6666666666666666, "2": 0.3888888888888889, "4": 0.0}, '
            '"min_pass_rate": 0.5, "below_min_pass_rate": [], "lines_without_case": 0}',
        ),
    ]
    assert suite.get("tests") == "8"  # the trials are no test cases


def test_single_runs_print_no_trials_but_json_and_junit_keep_them(
    spec: Path, tmp_path: Path
) -> None:
    traces = tmp_path / "once.jsonl"
    traces.write_text(jsonl(BOOK_WRONG, CANCEL), encoding="utf-8")
    report = tmp_path / "junit.xml"
    text = toolmatch(spec, traces, "--junit-xml", report)
    assert text.stdout == (
        f"FAIL book\n{FAILED_BOOK}PASS cancel\nMISSING seat: no run in {traces}\n"
        "1 missing\n1 passed, 1 failed\n"
    )
    [suite] = ElementTree.parse(report).getroot()
    names = [item.get("name") for item in suite.find("properties")]
    assert names == ["trials:book", "trials:cancel", "trials"]
    rows = [
        json.loads(line) for line in toolmatch(spec, traces, "--format", "json").stdout.splitlines()
    ]
    assert [row["type"] for row in rows] == [
        "case",
        "case",
        "missing",
        "trials",
        "trials",
        "summary",
    ]
    assert (rows[3]["case"], rows[3]["pass_k"], rows[4]["case"]) == ("book", {"1": 0.0}, "cancel")
    # the missing case is in no mean
    assert (rows[-1]["cases"], rows[-1]["pass_rate"], rows[-1]["pass_k"]) == (2, 0.5, {"1": 0.5})


def test_no_case_ran(spec: Path, tmp_path: Path) -> None:
    rows = toolmatch(spec, "-", "--format", "json", stdin="oops\n").stdout.splitlines()
    summary = json.loads(rows[-1])
    assert (summary["cases"], summary["pass_rate"], summary["pass_k"]) == (0, None, {})
    assert "trials" not in {json.loads(row)["type"] for row in rows}


@pytest.mark.parametrize("output", [(), ("--format", "json")])
def test_jobs_give_the_same_trials(spec: Path, tmp_path: Path, output: tuple[str, ...]) -> None:
    # more lines than a worker's chunk, so that chunks interleave across the workers
    runs = [(BOOK, BOOK_WRONG, CANCEL, SEAT_UNREADABLE, SEAT, "{")[i % 6] for i in range(1500)]
    traces = tmp_path / "many.jsonl"
    traces.write_text(jsonl(*runs), encoding="utf-8")
    one = toolmatch(spec, traces, *output, "--junit-xml", tmp_path / "one.xml")
    two = toolmatch(spec, traces, *output, "--jobs", "2", "--junit-xml", tmp_path / "two.xml")
    assert one.returncode == two.returncode == 1
    assert one.stdout == two.stdout
    assert (tmp_path / "one.xml").read_text() == (tmp_path / "two.xml").read_text()
    [suite] = ElementTree.parse(tmp_path / "one.xml").getroot()
    book = json.loads(suite.find("properties/property[@name='trials:book']").get("value"))
    # book ran 500 times, half of them passing: pass^k at 1, 2, 4, ..., 256 and 500
    assert (book["runs"], book["passed"], book["k"]) == (500, 250, [*(2**p for p in range(9)), 500])
    assert list(book["pass_k"]) == [str(k) for k in book["k"]]
    assert all(
        value == math.comb(250, int(k)) / math.comb(500, int(k))
        for k, value in book["pass_k"].items()
    )


def test_long_series_are_written_whole_across_chunks(spec: Path, tmp_path: Path) -> None:
    # 2,500 runs of book, 4 in 5 passing: its values leave the floats at k = 1,724 and
    # its 0.0s run on across two chunks of the line; cancel ran 3 times, seat not at all.
    # --pass-k all: every k from 1 to the runs
    runs = [BOOK_WRONG if i % 5 == 0 else BOOK for i in range(2500)] + [CANCEL] * 3
    traces = tmp_path / "long.jsonl"
    traces.write_text(jsonl(*runs), encoding="utf-8")
    book, cancel = reference(2500, 2000), reference(3, 3)
    rows = toolmatch(spec, traces, "--format", "json", "--pass-k", "all").stdout.splitlines()
    trials = [json.loads(row) for row in rows if '"trials"' in row]
    assert [row["k"] for row in trials] == [list(range(1, 2501)), [1, 2, 3]]
    assert [row["pass_k"] for row in trials] == [
        {str(k): value for k, value in enumerate(values, 1)} for values in (book, cancel)
    ]
    means = json.loads(rows[-1])["pass_k"]
    assert list(means.values()) == [
        float((Fraction(book[k]) + Fraction(cancel[k])) / 2) if k < 3 else book[k]
        for k in range(2500)
    ]
    lines = toolmatch(spec, traces, "--pass-k", "all").stdout.splitlines()
    assert lines[-6] == "TRIALS book: 2000/2500 passed, " + ", ".join(
        f"pass^{k} {value:.3f}" for k, value in enumerate(book, 1)
    )
    assert lines[-3] == "TRIALS mean over 2 cases: " + ", ".join(
        f"pass^{k} {value:.3f}" + ("" if k <= 3 else " (1 case)")
        for k, value in enumerate(means.values(), 1)
    )


# --- --min-pass-rate ------------------------------------------------------------------------


def test_the_status_follows_the_pass_rates(spec: Path, traces: Path) -> None:
    # book 2/4, cancel 2/2, seat 1/2
    passing = toolmatch(spec, traces, "--min-pass-rate", "0.5")
    assert (passing.returncode, passing.stderr) == (0, "")
    assert passing.stdout.splitlines()[-2:] == ["1 error", "5 passed, 2 failed"]

    short = toolmatch(spec, traces, "--min-pass-rate", "0.6")
    assert short.returncode == 1
    assert short.stdout.splitlines()[-3:] == [
        "1 error",
        "pass rate below 0.6: book (2/4 passed), seat (1/2 passed)",
        "5 passed, 2 failed",
    ]
    everything = toolmatch(spec, traces, "--min-pass-rate", "1")
    assert everything.stdout.splitlines()[-2] == (
        "pass rate below 1: book (2/4 passed), seat (1/2 passed)"
    )
    summary = json.loads(
        toolmatch(spec, traces, "--min-pass-rate", ".6", "--format", "json").stdout.splitlines()[-1]
    )
    assert list(summary)[-3:] == ["min_pass_rate", "below_min_pass_rate", "lines_without_case"]
    assert (summary["min_pass_rate"], summary["below_min_pass_rate"]) == (0.6, ["book", "seat"])


def test_a_missing_case_has_a_pass_rate_of_0(spec: Path, tmp_path: Path) -> None:
    stdin = jsonl(BOOK, CANCEL)
    result = toolmatch(spec, "-", "--min-pass-rate", "0.1", stdin=stdin)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-3:] == [
        "1 missing",
        "pass rate below 0.1: seat (no run)",
        "2 passed, 0 failed",
    ]
    assert toolmatch(spec, "-", "--min-pass-rate", "0", stdin=stdin).returncode == 0


def test_a_bad_line_that_names_no_case_leaves_the_pass_rates_unknown(spec: Path) -> None:
    stdin = jsonl(BOOK, CANCEL, SEAT, "{", {"case": "unknown", "turns": []})
    result = toolmatch(spec, "-", "--min-pass-rate", "0.5", stdin=stdin)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-3:] == [
        "2 errors",
        "pass rate unknown: 2 lines name no case of the spec",
        "3 passed, 0 failed",
    ]
    one = toolmatch(spec, "-", "--min-pass-rate", "0.5", stdin=jsonl(BOOK, CANCEL, SEAT, "{"))
    assert one.stdout.splitlines()[-2] == "pass rate unknown: 1 line names no case of the spec"
    summary = json.loads(
        toolmatch(
            spec, "-", "--min-pass-rate", "0.5", "--format", "json", stdin=stdin
        ).stdout.splitlines()[-1]
    )
    assert (summary["below_min_pass_rate"], summary["lines_without_case"]) == ([], 2)


def test_a_run_that_could_not_be_checked_is_a_failed_trial(spec: Path) -> None:
    stdin = jsonl(BOOK, CANCEL, SEAT, SEAT_UNREADABLE)
    result = toolmatch(spec, "-", "--min-pass-rate", "0.75", stdin=stdin)
    assert result.returncode == 1
    assert result.stdout.splitlines()[-2] == "pass rate below 0.75: seat (1/2 passed)"


@pytest.mark.parametrize(
    ("rate", "runs", "passed"),
    [("0.8", 5, 4), ("0.7", 10, 7), ("0.3", 10, 3), ("2/3", 3, 2), ("1e-1", 10, 1)],
)
def test_the_rate_is_read_exactly(
    spec: Path, tmp_path: Path, rate: str, runs: int, passed: int
) -> None:
    stdin = jsonl(CANCEL, SEAT, *[BOOK] * passed, *[BOOK_WRONG] * (runs - passed))
    assert toolmatch(spec, "-", "--min-pass-rate", rate, stdin=stdin).returncode == 0
    one_fewer = jsonl(CANCEL, SEAT, *[BOOK] * (passed - 1), *[BOOK_WRONG] * (runs - passed + 1))
    assert toolmatch(spec, "-", "--min-pass-rate", rate, stdin=one_fewer).returncode == 1


@pytest.mark.parametrize("rate", ["1.5", "-0.1", "nan", "inf", "80%", "", "1/0", "half"])
def test_a_rate_outside_0_to_1_is_bad_usage(spec: Path, traces: Path, rate: str) -> None:
    result = toolmatch(spec, traces, "--min-pass-rate", rate)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == (
        "toolmatch check: error: argument --min-pass-rate: must be a number from 0 to 1, "
        f"such as 0.8, got {rate!r}"
    )


def test_a_bad_spec_is_still_status_2(tmp_path: Path, traces: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("test_cases: 3\n", encoding="utf-8")
    assert toolmatch(bad, traces, "--min-pass-rate", "0.5").returncode == 2
    assert toolmatch(bad, tmp_path / "none.jsonl", "--min-pass-rate", "0.5").returncode == 2


def test_case_names_cannot_forge_trials_lines(tmp_path: Path) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(
        json.dumps({"test_cases": [{"name": "a\nPASS b", "expected_tools": ["f"]}]}),
        encoding="utf-8",
    )
    run = {"case": "a\nPASS b", "turns": [[{"name": "g"}]]}
    result = toolmatch(spec, "-", "--min-pass-rate", "1", stdin=jsonl(run, run))
    lines = result.stdout.splitlines()
    assert lines[-5:] == [
        "TRIALS a\\nPASS b: 0/2 passed, pass^1 0.000, pass^2 0.000",
        "BROKEN a\\nPASS b: turns[0].expected_tools[0] ExpectedTool('f'): failed in all 2 runs",
        "TRIALS mean over 1 case: pass^1 0.000, pass^2 0.000",
        "pass rate below 1: a\\nPASS b (0/2 passed)",
        "0 passed, 2 failed",
    ]


# --- --pass-k -------------------------------------------------------------------------------


def test_pass_k_is_shown_at_doubling_k_and_the_runs(spec: Path, tmp_path: Path) -> None:
    # 10 runs of book, 9 passing; 66,000 runs would show 18 values, not 66,000
    stdin = jsonl(*[BOOK] * 9, BOOK_WRONG, CANCEL, CANCEL, CANCEL)
    lines = toolmatch(spec, "-", stdin=stdin).stdout.splitlines()
    assert lines[-6:-2] == [
        "TRIALS book: 9/10 passed, pass^1 0.900, pass^2 0.800, pass^4 0.600, pass^8 0.200, "
        "pass^10 0.000",
        "FLAKY book: turns[0].expected_tools[0] ExpectedTool('book_flight'): "
        "failed in 1 of 10 runs (0.10)",
        "TRIALS cancel: 3/3 passed, pass^1 1.000, pass^2 1.000, pass^3 1.000",
        "TRIALS mean over 2 cases: pass^1 0.950, pass^2 0.900, pass^4 0.600 (1 case), "
        "pass^8 0.200 (1 case), pass^10 0.000 (1 case)",
    ]
    rows = [
        json.loads(row)
        for row in toolmatch(spec, "-", "--format", "json", stdin=stdin).stdout.splitlines()
    ]
    book = next(row for row in rows if row["type"] == "trials")
    assert book["k"] == [1, 2, 4, 8, 10]
    assert book["pass_k"] == {str(k): pass_hat_k(10, 9, k) for k in (1, 2, 4, 8, 10)}
    assert rows[-1]["k"] == [1, 2, 4, 8, 10]


def test_pass_k_list_leaves_out_the_k_above_a_cases_runs(spec: Path, tmp_path: Path) -> None:
    stdin = jsonl(*[BOOK] * 4, BOOK_WRONG, CANCEL, CANCEL)
    result = toolmatch(spec, "-", "--pass-k", "5, 3,1,3", stdin=stdin)
    assert result.stdout.splitlines()[-6:-2] == [
        "TRIALS book: 4/5 passed, pass^1 0.800, pass^3 0.400, pass^5 0.000",
        "FLAKY book: turns[0].expected_tools[0] ExpectedTool('book_flight'): "
        "failed in 1 of 5 runs (0.20)",
        "TRIALS cancel: 2/2 passed, pass^1 1.000",
        "TRIALS mean over 2 cases: pass^1 0.900, pass^3 0.400 (1 case), pass^5 0.000 (1 case)",
    ]
    report = tmp_path / "junit.xml"
    rows = toolmatch(
        spec, "-", "--pass-k", "2,9", "--format", "json", "--junit-xml", report, stdin=stdin
    ).stdout.splitlines()
    trials = [json.loads(row) for row in rows if '"trials"' in row]
    assert [(row["k"], row["pass_k"]) for row in trials] == [
        ([2], {"2": 0.6}),
        ([2], {"2": 1.0}),
    ]
    assert json.loads(rows[-1])["k"] == [2]
    [suite] = ElementTree.parse(report).getroot()
    values = [
        json.loads(item.get("value"))
        for item in suite.find("properties")
        if item.get("name").startswith("trials")
    ]
    assert [(value["k"], value["pass_k"]) for value in values] == [
        ([2], {"2": 0.6}),
        ([2], {"2": 1.0}),
        ([2], {"2": 0.8}),
    ]


def test_a_case_with_fewer_runs_than_every_k_listed_shows_its_counts_only(spec: Path) -> None:
    stdin = jsonl(BOOK, BOOK, CANCEL, CANCEL)
    lines = toolmatch(spec, "-", "--pass-k", "3", stdin=stdin).stdout.splitlines()
    assert lines[-5:-2] == [
        "TRIALS book: 2/2 passed",
        "TRIALS cancel: 2/2 passed",
        "TRIALS mean over 2 cases",
    ]
    rows = toolmatch(spec, "-", "--pass-k", "3", "--format", "json", stdin=stdin).stdout
    summary = json.loads(rows.splitlines()[-1])
    assert (summary["pass_rate"], summary["k"], summary["pass_k"]) == (1.0, [], {})


def test_pass_k_all_shows_every_k(spec: Path) -> None:
    stdin = jsonl(*[BOOK] * 4, BOOK_WRONG)
    lines = toolmatch(spec, "-", "--pass-k", "all", stdin=stdin).stdout.splitlines()
    assert lines[-5] == (
        "TRIALS book: 4/5 passed, pass^1 0.800, pass^2 0.600, pass^3 0.400, pass^4 0.200, "
        "pass^5 0.000"
    )


@pytest.mark.parametrize(
    "value", ["0", "1,,2", "", "-1", "1.5", "every", "2,all", "٣", "1" * 5000, "+2"]
)
def test_a_bad_pass_k_is_bad_usage(spec: Path, traces: Path, value: str) -> None:
    result = toolmatch(spec, traces, "--pass-k", value)
    assert (result.returncode, result.stdout) == (2, "")
    shown = repr(value) if len(value) < 60 else f"'{value[:57]}'..."  # shortened
    assert result.stderr.splitlines()[-1] == (
        "toolmatch check: error: argument --pass-k: must be all or whole numbers of 1 or more "
        f"separated by commas, such as 1,2,5, got {shown}"
    )
