"""HTML for notebooks: small escaped tables, shared by every result that renders itself."""

from __future__ import annotations

from collections.abc import Iterable

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["TextDisplay", "html_block", "html_table", "verdict_html"]

_TEXT = "font-family:monospace;font-size:12px;text-align:left"
_STYLE = f"border-collapse:collapse;{_TEXT}"
_CELL = "border:1px solid #ccc;padding:2px 6px;vertical-align:top;text-align:left"


def _escape(text: object) -> str:
    import html  # here, not at the top: `import toolmatch` stays fast

    return html.escape(str(text))


class TextDisplay:
    """Mixin: ``str()`` and IPython's pretty printer show the object's ``lines()``."""

    __slots__ = ()

    def lines(self) -> list[str]:
        raise NotImplementedError

    def __str__(self) -> str:
        return "\n".join(self.lines())

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(str(self))


def verdict_html(passed: bool) -> str:
    """A coloured PASSED or FAILED label."""
    colour, word = ("#1a7f37", "PASSED") if passed else ("#cf222e", "FAILED")
    return f'<b style="color:{colour}">{word}</b>'


def html_table(
    headers: Iterable[str],
    rows: Iterable[Iterable[object]],
    caption: str = "",
    *,
    trusted_columns: frozenset[int] = frozenset(),
) -> str:
    """A compact table; every cell is escaped except the columns named in ``trusted_columns``;
    ``caption`` (HTML, escaped already) is a block above it, as wide as its text.

    >>> table = html_table(["path", "reason"], [["a", "<missing>"]])
    >>> "<td" in table and "&lt;missing&gt;" in table and "<missing>" not in table
    True
    """
    head = "".join(f'<th style="{_CELL}">{_escape(header)}</th>' for header in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td style="{_CELL}">{cell if column in trusted_columns else _escape(cell)}</td>'
            for column, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    # Above the table, not its <caption>: a caption wraps at the table's width, however
    # narrow its columns are.
    title = html_block(caption) if caption else ""
    return f'{title}<table style="{_STYLE}"><tr>{head}</tr>{body}</table>'


def html_block(html: str) -> str:
    """Lines of HTML (escaped already) as a block in the tables' type, as wide as the text
    needs: a table's caption, or what has no rows to show.

    >>> html_block("no mismatch<br>none")
    '<div style="font-family:monospace;font-size:12px;text-align:left">no mismatch<br>none</div>'
    """
    return f'<div style="{_TEXT}">{html}</div>'
