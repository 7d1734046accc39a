"""The HTML page of ``toolmatch report`` and ``check --html``: one file, no script, nothing
fetched, every value escaped, the same bytes for the same rows (docs/cli.md).

Failures come first, each with its argument table; then the cases with their pass rates and
pass^k, the trials' curves (inline SVG), the flaky and broken checks, the coverage and the
lint findings. The filters (failures, flaky) are radio buttons read by CSS alone.
"""

from __future__ import annotations

import html
from string import Template

from toolmatch import __version__
from toolmatch._cli.reports.results import FAILURES_SHOWN, Failure, Gathered, at_path, case_curves
from toolmatch._core.describe import short_repr
from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["html_page"]

# Rows of the cases' and the checks' tables; those after are counted.
CASES_SHOWN = 1000
CHECKS_SHOWN = 500


def _e(value: object) -> str:
    """Text for the page, escaped (quotes too: it may be an attribute)."""
    return html.escape(str(value), quote=True)


def _value(value: object) -> str:
    """A value of a call, shortened as the text report shortens it."""
    return _e(short_repr(value))


_PAGE = Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>$title</title>
<style>
$style
</style>
</head>
<body>
<input type="radio" name="show" id="show-all" class="filter" checked>
<input type="radio" name="show" id="show-failures" class="filter">
<input type="radio" name="show" id="show-flaky" class="filter">
<header>
$header
</header>
<nav class="filters" aria-label="filters">Show
<label for="show-all">everything</label>
<label for="show-failures">failures only</label>
<label for="show-flaky">flaky only</label>
</nav>
<main>
$sections
</main>
<footer>Written by toolmatch $version from the rows of
<code>toolmatch check --format json</code>.</footer>
</body>
</html>
""")

_STYLE = """
:root { --fail: #b42318; --pass: #067647; --flaky: #b54708; --muted: #5d6b7e;
  --line: #d8dee6; --soft: #f5f7fa; --code: #f0f2f5; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2633;
  margin: 0 auto; max-width: 1100px; padding: 0 24px 48px; background: #fff; }
h1 { font-size: 24px; margin: 24px 0 4px; }
h2 { font-size: 19px; margin: 32px 0 8px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; }
h3 { font-size: 16px; margin: 0 0 6px; }
code, .mono { font: 13px/1.45 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; }
code { background: var(--code); padding: 1px 4px; border-radius: 3px;
  overflow-wrap: anywhere; }
.status { display: inline-block; padding: 2px 10px; border-radius: 12px; color: #fff;
  font-weight: 600; font-size: 14px; vertical-align: middle; }
.status.fail { background: var(--fail); } .status.pass { background: var(--pass); }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px;
  margin: 12px 0; color: var(--muted); }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; color: #1d2633; }
.tiles { display: flex; flex-wrap: wrap; gap: 12px; margin: 16px 0 8px; }
.tile { border: 1px solid var(--line); border-radius: 8px; padding: 8px 16px;
  min-width: 110px; background: var(--soft); }
.tile b { display: block; font-size: 22px; }
.tile.bad b { color: var(--fail); } .tile.good b { color: var(--pass); }
.filter { position: absolute; opacity: 0; pointer-events: none; }
nav.filters { margin: 12px 0; color: var(--muted); }
nav.filters label { display: inline-block; border: 1px solid var(--line);
  border-radius: 14px; padding: 2px 12px; margin-left: 4px; cursor: pointer;
  color: #1d2633; }
#show-all:checked ~ nav label[for=show-all],
#show-failures:checked ~ nav label[for=show-failures],
#show-flaky:checked ~ nav label[for=show-flaky] { background: #1d2633; color: #fff; }
#show-failures:checked ~ main .passing,
#show-flaky:checked ~ main .steady { display: none; }
article.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail);
  border-radius: 6px; padding: 12px 16px; margin: 12px 0; }
.where { color: var(--muted); font-size: 13px; }
.check { margin: 10px 0 0; }
.label { display: inline-block; font-size: 12px; font-weight: 600; border-radius: 4px;
  padding: 0 6px; margin-right: 4px; }
.label.fail { background: #fee4e2; color: var(--fail); }
.label.flaky { background: #fef0c7; color: var(--flaky); }
.label.pass { background: #dcfae6; color: var(--pass); }
.label.other { background: var(--code); color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 6px 0; font-size: 14px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.why { color: var(--fail); }
details { margin: 4px 0; } summary { cursor: pointer; }
.bar { display: inline-block; height: 8px; background: #fee4e2; width: 80px;
  border-radius: 4px; overflow: hidden; vertical-align: middle; margin-right: 6px; }
.bar i { display: block; height: 100%; background: var(--pass); }
svg text { font: 11px system-ui, sans-serif; fill: var(--muted); }
.legend { font-size: 13px; color: var(--muted); }
.legend .hat { color: #175cd3; } .legend .at { color: #7a5af8; }
.more { color: var(--muted); font-style: italic; }
footer { margin-top: 40px; color: var(--muted); font-size: 13px; }
""".strip()


def html_page(gathered: Gathered) -> str:
    """The page for ``gathered``'s rows."""
    sections = [
        section(gathered)
        for section in (_baseline, _failures, _not_evaluable, _errors, _cases, _trials, _checks)
    ]
    sections += [_coverage(gathered), _findings(gathered)]
    status = gathered.exit_status
    title = f"toolmatch report: {'FAIL' if status else 'PASS'}"
    return _PAGE.substitute(
        title=_e(title),
        style=_STYLE,
        header=_header(gathered),
        sections="\n".join(section for section in sections if section),
        version=_e(__version__),
    )


def _header(gathered: Gathered) -> str:
    status = gathered.exit_status
    badge = "fail" if status else "pass"
    parts = [
        f'<h1>toolmatch report <span class="status {badge}">'
        f"{'FAIL' if status else 'PASS'}</span></h1>",
        '<dl class="meta">',
    ]
    for key, value in gathered.header.items():
        parts.append(f"<dt>{_e(key)}</dt><dd><code>{_e(value)}</code></dd>")
    for file in gathered.files:
        parts.append(
            f"<dt>results</dt><dd><code>{_e(file.name)}</code> "
            f'<span class="where">sha256 {_e(file.sha256[:16])}, {file.rows:,} rows</span></dd>'
        )
    parts.append(f"<dt>exit status</dt><dd>{status}</dd>")
    parts.append(f"<dt>toolmatch</dt><dd>{_e(__version__)}</dd>")
    parts.append("</dl>")
    counts = gathered.counts
    tiles: list[tuple[str, int | str, str]] = [
        ("passed", counts["passed"], "good"),
        ("failed", counts["failed"], "bad" if counts["failed"] else ""),
        ("errors", counts["errors"], "bad" if counts["errors"] else ""),
        ("missing", len(gathered.missing), "bad" if gathered.missing else ""),
        ("cases", len(gathered.case_order), ""),
    ]
    if counts["not_evaluable"]:  # apart from the failures: no check was made
        how = "bad" if gathered.not_evaluable_fails else ""
        tiles.insert(2, ("not evaluable", counts["not_evaluable"], how))
    regressions = gathered.baseline_regressions()
    if gathered.baseline_rows_shown() or gathered.delta is not None:
        tiles.append(("regressions", regressions, "bad" if regressions else "good"))
    hat, _ = gathered.mean_curves()
    if hat:
        tiles.append(("mean pass rate", f"{hat[0][1]:.3f}", ""))
    parts.append('<div class="tiles">')
    for what, figure, how in tiles:
        shown = f"{figure:,}" if isinstance(figure, int) else figure
        parts.append(f'<div class="tile {how}"><b>{shown}</b>{_e(what)}</div>')
    parts.append("</div>")
    for gate in gathered.gates:
        below = gate.get("below_min_pass_rate") or []
        assert isinstance(below, list)
        confidence = gate.get("confidence")
        at = "" if confidence is None else f" at {_e(confidence)} confidence"
        text = ", ".join(_e(name) for name in below) if below else "none"
        parts.append(
            f"<p>--min-pass-rate {_e(gate['min_pass_rate'])}{at}: cases below it: {text}</p>"
        )
    return "\n".join(parts)


def _baseline(gathered: Gathered) -> str:
    rows = gathered.baseline_rows_shown()
    if not rows and gathered.delta is None:
        return ""
    out = ['<section id="baseline">', "<h2>Against the baseline</h2>"]
    if not rows:
        out.append("<p>No change from the baseline.</p>")
    else:
        out.append("<table><tr><th>change</th><th>case</th><th>what</th></tr>")
        for row in rows:
            kind = str(row["change"])
            label = "fail" if row.get("regression") else ("flaky" if kind == "flaky" else "other")
            if kind == "improved":
                label = "pass"
            classes = "" if row.get("regression") else ' class="passing"'
            out.append(
                f'<tr{classes}><td><span class="label {label}">{_e(kind.upper())}</span></td>'
                f"<td>{_e(row['case'])}</td><td>{_e(row['why'])}</td></tr>"
            )
        out.append("</table>")
    out.append("</section>")
    return "\n".join(out)


def _failures(gathered: Gathered) -> str:
    failed = gathered.counts["failed"]
    if not failed:
        return ""
    out = ['<section id="failures" class="steady">', f"<h2>Failures ({failed:,} runs)</h2>"]
    flaky_cases = gathered.flaky_cases()
    for failure in gathered.failures:
        out.append(_failure(failure, flaky_cases))
    if failed > len(gathered.failures):
        out.append(
            f'<p class="more">{failed - len(gathered.failures):,} more failed runs are not '
            f"shown (the first {FAILURES_SHOWN} are); the results file holds every one.</p>"
        )
    out.append("</section>")
    return "\n".join(out)


def _failure(failure: Failure, flaky_cases: set[str]) -> str:
    flaky = ""
    if failure.row["case"] in flaky_cases:
        flaky = ' <span class="label flaky">FLAKY CASE</span>'
    out = [
        f'<article class="failure" id="{failure.anchor}">',
        f'<h3><span class="label fail">FAIL</span> {_e(failure.title)}{flaky}</h3>',
        f'<div class="where">at {_e(failure.place)}</div>',
    ]
    for kind, text, check, turn in failure.parts():
        if kind == "check":
            assert isinstance(check, dict)
            out.append(_check(str(text), check, turn))
        elif kind == "problem":
            out.append(f'<p class="check"><span class="label fail">FAILED</span>{_e(text)}</p>')
        else:
            out.append(f'<p class="{"why" if kind == "reason" else "where"}">{_e(text)}</p>')
    out.append("</article>")
    return "\n".join(out)


def _check(place: str, check: Mapping[str, object], turn: Mapping[str, object]) -> str:
    out = [
        '<div class="check">',
        f"<div><code>{_e(place)}</code> expected <code>{_e(check['expected_tool'])}</code></div>",
    ]
    if check.get("unmatched_reason"):
        out.append(f'<div class="why">{_e(check["unmatched_reason"])}</div>')
    candidates = check.get("candidates") or []
    assert isinstance(candidates, list)
    unexpected = set(turn.get("unexpected_call_indices") or [])  # type: ignore[call-overload]
    closest = _closest(candidates)
    if closest is not None:
        # a count's failure: every candidate matched, and the closest is any of them
        what = "matching call" if closest.get("matched") else "closest call"
        out.append(_call(what, closest, unexpected))
        mismatches = closest.get("mismatches") or []
        if mismatches:
            out.append(_argument_table(mismatches, check.get("args"), closest.get("args")))
        others = [each for each in candidates if each is not closest]
        if others:
            out.append(f"<details><summary>{len(others)} other candidate call(s)</summary>")
            out.extend(_call("call", each, unexpected) for each in others)
            out.append("</details>")
    out.append("</div>")
    return "\n".join(out)


def _closest(candidates: Sequence[Mapping[str, object]]) -> Mapping[str, object] | None:
    """The candidate call with the fewest mismatches (the first of those)."""
    unmatched = [each for each in candidates if not each.get("matched")] or list(candidates)
    if not unmatched:
        return None
    return min(unmatched, key=lambda each: len(each.get("mismatches") or []))  # type: ignore[arg-type]


def _call(what: str, call: Mapping[str, object], unexpected: set[object]) -> str:
    labels = []
    if call.get("index") in unexpected:
        labels.append('<span class="label fail">unexpected call</span>')
    for key in ("agent", "status"):
        if call.get(key) is not None:
            labels.append(f'<span class="label other">{key} {_e(call[key])}</span>')
    if call.get("failed"):
        labels.append('<span class="label fail">tool failed</span>')
    arguments = call.get("args")
    shown = _value(arguments) if arguments is not None else ""
    result = ""
    if call.get("result") is not None:
        result = f' <span class="where">returned</span> <code>{_value(call["result"])}</code>'
    error = ""
    if call.get("parse_error"):
        error = f' <span class="why">{_e(call["parse_error"])}</span>'
    return (
        f'<div class="where">{_e(what)} {_e(call.get("index"))}: {"".join(labels)}'
        f"<code>{_e(call.get('name'))}({shown})</code>{result}{error}</div>"
    )


def _argument_table(mismatches: object, expected: object, got: object) -> str:
    out = ["<table><tr><th>argument</th><th>expected</th><th>got</th><th>why</th></tr>"]
    assert isinstance(mismatches, list)
    for mismatch in mismatches:
        path = str(mismatch.get("path", ""))
        found, wanted = at_path(expected, path) if isinstance(expected, dict) else (False, None)
        here, value = at_path(got, path)
        expected_cell = f"<code>{_e(wanted)}</code>" if found else "<span class='where'>-</span>"
        got_cell = f"<code>{_value(value)}</code>" if here else "<span class='where'>absent</span>"
        out.append(
            f"<tr><td><code>{_e(path or '(the arguments)')}</code></td><td>{expected_cell}</td>"
            f'<td>{got_cell}</td><td class="why">{_e(mismatch.get("reason"))}</td></tr>'
        )
    out.append("</table>")
    return "\n".join(out)


def _not_evaluable(gathered: Gathered) -> str:
    count = gathered.counts["not_evaluable"]
    if not count:
        return ""
    out = [
        '<section id="not-evaluable" class="steady">',
        f"<h2>Not evaluable ({count:,} runs)</h2><ul>",
    ]
    for place, title, reason in gathered.not_evaluable:
        out.append(
            f'<li><span class="label other">NOT EVALUABLE</span>{_e(title)} at '
            f"<code>{_e(place)}</code>: {_e(reason)}</li>"
        )
    if count > len(gathered.not_evaluable):
        out.append(f'<li class="more">{count - len(gathered.not_evaluable):,} more runs</li>')
    out.append("</ul></section>")
    return "\n".join(out)


def _errors(gathered: Gathered) -> str:
    errors, missing = gathered.counts["errors"], gathered.missing
    if not errors and not missing:
        return ""
    out = ['<section id="errors" class="steady">', "<h2>Bad lines and missing cases</h2><ul>"]
    for place, message in gathered.errors:
        out.append(
            f'<li><span class="label fail">ERROR</span><code>{_e(place)}</code>: {_e(message)}</li>'
        )
    if errors > len(gathered.errors):
        out.append(f'<li class="more">{errors - len(gathered.errors):,} more bad lines</li>')
    for name in missing:
        out.append(f'<li><span class="label fail">MISSING</span>{_e(name)}: no run</li>')
    out.append("</ul></section>")
    return "\n".join(out)


def _cases(gathered: Gathered) -> str:
    trials = gathered.case_trials()
    if not trials:
        return ""
    flaky_cases = gathered.flaky_cases()
    out = [
        '<section id="cases">',
        f"<h2>Cases ({len(trials):,})</h2>",
        '<table><tr><th>case</th><th class="num">runs</th><th class="num">passed</th>'
        "<th>pass rate</th><th>pass^k</th><th>failed runs</th></tr>",
    ]
    for name, runs, passed in trials[:CASES_SHOWN]:
        classes = []
        if passed == runs:
            classes.append("passing")
        if name not in flaky_cases:
            classes.append("steady")
        rate = passed / runs
        hat, _ = case_curves(runs, passed)
        linked = gathered.failed_runs.get(name, [])
        links = ", ".join(
            f'<a href="#{anchor}">{_e(place)}</a>' if anchor else _e(place)
            for place, anchor in linked
        )
        more = gathered.failed_count[name] - len(linked)
        if more > 0:
            links += f" and {more:,} more"
        label = ' <span class="label flaky">flaky</span>' if name in flaky_cases else ""
        out.append(
            f'<tr class="{" ".join(classes)}"><td>{_e(name)}{label}</td>'
            f'<td class="num">{runs:,}</td><td class="num">{passed:,}</td>'
            f'<td><span class="bar"><i style="width:{rate * 100:.1f}%"></i></span>'
            f"{rate:.3f}</td><td>{_sparkline(hat)}</td><td>{links}</td></tr>"
        )
    out.append("</table>")
    if len(trials) > CASES_SHOWN:
        out.append(f'<p class="more">{len(trials) - CASES_SHOWN:,} more cases not shown.</p>')
    out.append("</section>")
    return "\n".join(out)


def _sparkline(points: list[tuple[int, float]]) -> str:
    """pass^k over k as a small line, 80 by 18 pixels."""
    if len(points) < 2:
        return f'<span class="where">{points[0][1]:.3f}</span>' if points else ""
    last = points[-1][0]
    path = " ".join(
        f"{2 + 76 * (index / (len(points) - 1)):.1f},{2 + 14 * (1 - value):.1f}"
        for index, (_, value) in enumerate(points)
    )
    return (
        f'<svg width="80" height="18" viewBox="0 0 80 18" role="img" '
        f'aria-label="pass^k from k=1 to {last}">'
        f'<polyline points="{path}" fill="none" stroke="#175cd3" stroke-width="1.5"/></svg>'
    )


def _curve(hat: list[tuple[int, float]], at: list[tuple[int, float]], label: str) -> str:
    """pass^k and pass@k over k, 360 by 160 pixels, k evenly spaced by its index."""
    width, height, left, bottom, top, right = 360, 160, 34, 22, 8, 10
    inner_w, inner_h = width - left - right, height - top - bottom
    count = len(hat)

    def x(index: int) -> float:
        return left + (inner_w * index / (count - 1) if count > 1 else inner_w / 2)

    def y(value: float) -> float:
        return top + inner_h * (1 - value)

    parts = [
        f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{_e(label)}">'
    ]
    for value in (0.0, 0.5, 1.0):
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="#d8dee6"/><text x="{left - 6}" y="{y(value) + 4:.1f}" '
            f'text-anchor="end">{value:.1f}</text>'
        )
    step = max(1, count // 8)
    for index, (k, _) in enumerate(hat):
        if index % step == 0 or index == count - 1:
            parts.append(
                f'<text x="{x(index):.1f}" y="{height - 6}" text-anchor="middle">{k}</text>'
            )
    for series, colour in ((at, "#7a5af8"), (hat, "#175cd3")):
        points = " ".join(f"{x(i):.1f},{y(value):.1f}" for i, (_, value) in enumerate(series))
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>'
        )
        for i, (_, value) in enumerate(series):
            parts.append(f'<circle cx="{x(i):.1f}" cy="{y(value):.1f}" r="2.5" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)


def _trials(gathered: Gathered) -> str:
    trials = gathered.case_trials()
    if not trials or max(runs for _, runs, _ in trials) < 2:
        return ""  # single runs: their curves only repeat PASS and FAIL
    hat, at = gathered.mean_curves()
    legend = (
        '<p class="legend"><span class="hat">&#9644; pass^k</span>: all of k runs pass; '
        '<span class="at">&#9644; pass@k</span>: at least one of k runs passes. The gap '
        "between them is the flakiness.</p>"
    )
    values = ", ".join(f"pass^{k} {value:.3f}" for k, value in hat)
    out = [
        '<section id="trials">',
        "<h2>Trials</h2>",
        legend,
        "<h3>Mean over the cases</h3>",
        _curve(hat, at, "mean pass^k and pass@k over k"),
        f'<p class="where">{_e(values)}</p>',
    ]
    shown = [each for each in trials if each[1] > 1][:CASES_SHOWN]
    for name, runs, passed in shown:
        case_hat, case_at = case_curves(runs, passed)
        classes = "passing steady" if passed == runs else ""
        out.append(
            f'<details class="{classes}"><summary>{_e(name)}: {passed:,}/{runs:,} passed, '
            f"pass^{runs} {case_hat[-1][1]:.3f}, pass@{runs} {case_at[-1][1]:.3f}</summary>"
        )
        out.append(_curve(case_hat, case_at, f"pass^k and pass@k of {name}"))
        out.append("</details>")
    out.append("</section>")
    return "\n".join(out)


def _checks(gathered: Gathered) -> str:
    checks = gathered.checks()
    if not checks:
        return ""
    out = [
        '<section id="checks">',
        "<h2>Flaky and broken checks</h2>",
        '<table><tr><th></th><th>case</th><th>check</th><th class="num">failed in</th>'
        '<th class="num">share</th><th>failed runs</th></tr>',
    ]
    for case, check, description, failed, runs in checks[:CHECKS_SHOWN]:
        flaky = failed < runs
        label = "flaky" if flaky else "fail"
        linked = gathered.failed_runs.get(case, [])
        links = ", ".join(
            f'<a href="#{anchor}">{_e(place)}</a>' for place, anchor in linked if anchor
        )
        out.append(
            f'<tr class="{"" if flaky else "steady"}"><td><span class="label {label}">'
            f"{'FLAKY' if flaky else 'BROKEN'}</span></td><td>{_e(case)}</td>"
            f"<td><code>{_e(check)}</code> {_e(description)}</td>"
            f'<td class="num">{failed:,} of {runs:,}</td><td class="num">{failed / runs:.2f}</td>'
            f"<td>{links}</td></tr>"
        )
    out.append("</table>")
    if len(checks) > CHECKS_SHOWN:
        out.append(f'<p class="more">{len(checks) - CHECKS_SHOWN:,} more checks not shown.</p>')
    out.append("</section>")
    return "\n".join(out)


def _coverage(gathered: Gathered) -> str:
    if not gathered.coverage and gathered.never_called is None:
        return ""
    out = [
        '<section id="coverage" class="passing steady">',
        "<h2>Tool coverage</h2>",
        '<table><tr><th>tool</th><th class="num">calls</th><th class="num">matched</th>'
        '<th class="num">ignored</th><th>defined</th></tr>',
    ]
    for name, (calls, matched, ignored, known) in gathered.coverage.items():
        defined = "" if known is None else ("yes" if known else "no")
        out.append(
            f'<tr><td><code>{_e(name)}</code></td><td class="num">{calls}</td>'
            f'<td class="num">{matched}</td><td class="num">{ignored}</td><td>{defined}</td></tr>'
        )
    out.append("</table>")
    if gathered.never_called is not None:
        never = [name for name in gathered.never_called if name not in gathered.coverage]
        shown = ", ".join(f"<code>{_e(name)}</code>" for name in never) or "none"
        out.append(f"<p>Defined, never called: {shown}</p>")
    out.append("</section>")
    return "\n".join(out)


def _findings(gathered: Gathered) -> str:
    if not gathered.findings:
        return ""
    out = ['<section id="lint">', "<h2>Lint findings (--strict)</h2><ul>"]
    for finding in gathered.findings:
        line = "" if finding.get("line") is None else f" (line {_e(finding['line'])})"
        out.append(
            f"<li><code>{_e(finding.get('place'))}</code>{line}: {_e(finding.get('message'))} "
            f'<span class="label other">{_e(finding.get("rule"))}</span></li>'
        )
    out.append("</ul></section>")
    return "\n".join(out)
