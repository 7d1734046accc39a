"""How results print: text everywhere, escaped HTML tables in notebooks (issue 4)."""

from __future__ import annotations

from toolmatch import Exact, ExpectedTool, Fuzzy, check_turn, explain


class FakePrinter:
    """IPython's pretty printer, reduced to what _repr_pretty_ uses."""

    def __init__(self) -> None:
        self.written = ""

    def text(self, text: str) -> None:
        self.written += text


CALLS = [
    {"name": "search", "args": {"q": "<script>alert(1)</script>"}},
    {"name": "fetch", "args": {}},
]


def test_explain_results_print_one_per_line_and_stay_a_list() -> None:
    found = explain({"a": Fuzzy("1"), "b": 2}, {"a": 3})
    assert isinstance(found, list)
    assert str(found) == "a: fuzzy '1' does not match 3\nb: missing"
    assert str(explain(1, 1)) == "no mismatch"
    printer = FakePrinter()
    found._repr_pretty_(printer, cycle=False)
    assert printer.written == str(found)


def test_explain_results_as_an_escaped_html_table() -> None:
    table = explain({"q": "<b>"}, {"q": "<i>"})._repr_html_()
    assert table.startswith("<table")
    assert "&lt;b&gt;" in table
    assert "<b>" not in table
    assert "(the value)" in explain(Exact({}), 3)._repr_html_()  # a mismatch at the top
    assert explain(1, 1)._repr_html_() == "<i>no mismatch</i>"


def test_a_tool_check_renders_its_candidates() -> None:
    check = ExpectedTool("search", {"q": "paris"}).check(CALLS)
    printer = FakePrinter()
    check._repr_pretty_(printer, cycle=False)
    assert printer.written == str(check)
    html = check._repr_html_()
    assert "FAILED" in html
    assert "&lt;script&gt;" in html
    assert "<script>" not in html
    assert "<td" in html
    assert "expected &#x27;paris&#x27;" in html


def test_a_turn_result_renders_each_expectation_and_the_failures_candidates() -> None:
    result = check_turn([ExpectedTool("fetch"), ExpectedTool("search", {"q": "paris"})], CALLS)
    assert repr(result) == (
        "<TurnResult failed: 1 of 2 expectation(s) met over 2 call(s); "
        "expectation 1: call 0: q: expected 'paris', got '<script>alert(1)</script>'>"
    )
    html = result._repr_html_()
    assert html.count("<table") == 2  # the turn's table, then the failed expectation's
    assert "PASSED" in html
    assert "FAILED" in html
    assert "<script>" not in html
    printer = FakePrinter()
    result._repr_pretty_(printer, cycle=False)
    assert printer.written.startswith("turn FAILED: 1 of 2 expectation(s) met over 2 call(s)")


def test_a_failed_check_without_candidates_renders_as_text_as_wide_as_it_needs() -> None:
    # Not the <caption> of an empty table: a caption wraps at its table's width.
    check = ExpectedTool("refund", {"order": 7}).check(CALLS)
    html = check._repr_html_()
    assert html == (
        '<div style="font-family:monospace;font-size:12px;text-align:left">'
        '<b style="color:#cf222e">FAILED</b> ExpectedTool(&#x27;refund&#x27;, '
        "{&#x27;order&#x27;: 7}): expected 1 matching call(s), got 0: no call&#x27;s name "
        "contains &#x27;refund&#x27;; the turn called &#x27;search&#x27;, &#x27;fetch&#x27;"
        "<br>required: at least 1 matching call; found 0"
        "<br>score 0/1 = 0.00: no call of this name</div>"
    )
    result = check_turn([ExpectedTool("refund", {"order": 7})], CALLS)
    assert result._repr_html_().endswith(html)
    # Every table's caption is such a block above it.
    with_calls = ExpectedTool("search", {"q": "paris"}).check(CALLS)._repr_html_()
    assert "<caption" not in with_calls
    assert with_calls.startswith(
        '<div style="font-family:monospace;font-size:12px;text-align:left">'
    )
    assert with_calls.index("</div><table") > 0
