"""HTML for notebooks: small escaped tables, shared by every result that renders itself."""

from __future__ import annotations

from collections.abc import Iterable

from toolmatch._core.type_checking import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

__all__ = ["TextDisplay", "html_table", "verdict_html"]

_STYLE = "border-collapse:collapse;font-family:monospace;font-size:12px;text-align:left"
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
    """A compact table; every cell is escaped except the columns named in ``trusted_columns``.

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
    title = f"<caption style='text-align:left'>{caption}</caption>" if caption else ""
    return f'<table style="{_STYLE}">{title}<tr>{head}</tr>{body}</table>'
