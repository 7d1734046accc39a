"""The Markdown report of ``toolmatch report --format markdown`` and ``check --markdown``:
the summary, the baseline's changes, the first failures with their argument tables and the
flaky checks, for ``$GITHUB_STEP_SUMMARY`` or a pull request comment (docs/cli.md).

It stays under GitHub's smallest limit, a comment's 65,536 characters (a job summary may
hold 1 MiB): failures are left out from the last, and counted, until it fits.
"""

from __future__ import annotations

from toolmatch import __version__
from toolmatch._cli.reports.results import Gathered, at_path
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from toolmatch._cli.reports.results import Failure

__all__ = ["LARGEST", "markdown_report"]

LARGEST = 65_536  # characters of a GitHub comment
FAILURES_SHOWN = 10


def _cell(value: object) -> str:
    """Text for a table cell or a line: Markdown and HTML characters escaped, one line."""
    text = str(value).replace("\r", "\\r").replace("\n", "\\n")
    for character in "\\`*_[]<>|~":
        text = text.replace(character, f"\\{character}")
    return text


def _code(value: object) -> str:
    """A code span: backticks cannot be escaped in one, so they become quotes."""
    text = str(value).replace("`", "'").replace("\r", "\\r").replace("\n", "\\n")
    return f"`{text}`".replace("|", "\\|")


def markdown_report(gathered: Gathered, failures: int = FAILURES_SHOWN) -> str:
    """The Markdown of ``gathered``'s rows, with at most ``failures`` failed runs."""
    head = _summary(gathered) + _baseline(gathered) + _not_evaluable(gathered)
    tail = [*_flaky(gathered), f"<sub>toolmatch {_cell(__version__)}</sub>", ""]
    shown = gathered.failures[:failures]
    while True:
        body = _failures(gathered, shown)
        text = "\n".join(head + body + tail)
        if len(text) <= LARGEST or not shown:
            return text
        shown = shown[: len(shown) // 2]


def _summary(gathered: Gathered) -> list[str]:
    status = gathered.exit_status
    counts = gathered.counts
    mark = ":x: FAIL" if status else ":white_check_mark: PASS"
    lines = [f"## toolmatch: {mark}", ""]
    results = ", ".join(_code(file.name) for file in gathered.files)
    lines.append(f"Results {results}; exit status {status}.")
    lines.append("")
    lines.append("| passed | failed | errors | missing | cases | mean pass rate |")
    lines.append("| ---: | ---: | ---: | ---: | ---: | ---: |")
    hat, _ = gathered.mean_curves()
    rate = f"{hat[0][1]:.3f}" if hat else "-"
    lines.append(
        f"| {counts['passed']:,} | {counts['failed']:,} | {counts['errors']:,} | "
        f"{len(gathered.missing):,} | {len(gathered.case_order):,} | {rate} |"
    )
    lines.append("")
    if len(hat) > 1:
        lines.append("Mean " + ", ".join(f"pass^{k} {value:.3f}" for k, value in hat) + ".")
        lines.append("")
    for gate in gathered.gates:
        below = gate.get("below_min_pass_rate") or []
        assert isinstance(below, list)
        names = ", ".join(_cell(name) for name in below) or "none"
        lines.append(f"Cases below --min-pass-rate {gate['min_pass_rate']}: {names}.")
        lines.append("")
    return lines


def _baseline(gathered: Gathered) -> list[str]:
    rows = gathered.baseline_rows_shown()
    if not rows and gathered.delta is None:
        return []
    lines = ["### Against the baseline", ""]
    if not rows:
        return [*lines, "No change from the baseline.", ""]
    lines += ["| change | case | what |", "| --- | --- | --- |"]
    for row in rows:
        kind = str(row["change"]).upper()
        mark = f"**{kind}**" if row.get("regression") else kind
        lines.append(f"| {mark} | {_cell(row['case'])} | {_cell(row['why'])} |")
    return [*lines, ""]


def _not_evaluable(gathered: Gathered) -> list[str]:
    count = gathered.counts["not_evaluable"]
    if not count:
        return []
    lines = [f"### Not evaluable ({count:,} runs)", ""]
    lines += [
        f"- **NOT EVALUABLE {_cell(title)}** at {_code(place)}: {_cell(reason)}"
        for place, title, reason in gathered.not_evaluable
    ]
    if count > len(gathered.not_evaluable):
        lines.append(f"- _{count - len(gathered.not_evaluable):,} more runs not shown._")
    return [*lines, ""]


def _failures(gathered: Gathered, shown: list[Failure]) -> list[str]:
    failed = gathered.counts["failed"]
    if not failed:
        return []
    lines = [f"### Failures ({failed:,} runs)", ""]
    for failure in shown:
        lines += _failure(failure)
    if failed > len(shown):
        lines += [f"_{failed - len(shown):,} more failed runs not shown._", ""]
    return lines


def _failure(failure: Failure) -> list[str]:
    lines = [f"**FAIL {_cell(failure.title)}** at {_code(failure.place)}", ""]
    for kind, text, check, _ in failure.parts():
        if kind != "check":
            lines.append(f"- {_cell(text)}")
            continue
        assert isinstance(check, dict)
        lines.append(
            f"- {_code(text)} {_code(check['expected_tool'])}: "
            f"{_cell(check.get('unmatched_reason'))}"
        )
        candidates = [each for each in check.get("candidates") or [] if each.get("mismatches")]
        if candidates:
            closest = min(candidates, key=lambda each: len(each["mismatches"]))
            lines += ["", "  | argument | expected | got | why |", "  | --- | --- | --- | --- |"]
            for mismatch in closest["mismatches"]:
                path = str(mismatch.get("path", ""))
                found, wanted = at_path(check.get("args"), path)
                here, got = at_path(closest.get("args"), path)
                lines.append(
                    f"  | {_code(path)} | {_code(wanted) if found else '-'} | "
                    f"{_code(short_repr(got)) if here else 'absent'} | "
                    f"{_cell(mismatch.get('reason'))} |"
                )
            lines.append("")
    return [*lines, ""]


def _flaky(gathered: Gathered) -> list[str]:
    checks = [each for each in gathered.checks() if each[3] < each[4]]
    if not checks:
        return []
    lines = ["### Flaky checks", "", "| case | check | failed in |", "| --- | --- | ---: |"]
    for case, check, description, failed, runs in checks[:20]:
        lines.append(
            f"| {_cell(case)} | {_code(check)} {_code(description)} | {failed} of {runs} |"
        )
    if len(checks) > 20:
        lines.append(f"| … | {len(checks) - 20} more | |")
    return [*lines, ""]
