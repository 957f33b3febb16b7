"""Data tables rewritten as plain grids for a markdown converter (docs/templates.md §5.9).

A GFM pipe table is one header row over rows of equal width, each cell on one line. HTML tables
are not: a two-row header ("Height" over "m" and "ft"), a rowspan that leaves later rows a cell
short, a ``<div>`` that breaks a cell over lines. Tables without a header row (layout tables)
and nested tables are left as they are.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

from crawlforge.extract.dom import Document, as_document, node_text
from crawlforge.extract.state.jsutil import js_parse_int, js_trim

CELL_TAGS = ("th", "td")
CELL_BLOCKS = (
    "p, div, ul, ol, li, dl, dt, dd, h1, h2, h3, h4, h5, h6, blockquote, pre, figure, figcaption, center"
)
MAX_COLSPAN = 1000

Slot = tuple[LexborNode, str | None]  # (cell, None | "col" copy | "row" copy)


def grid_tables(doc: Document) -> str:
    """Rewrites each data table in place and returns the document's HTML.

    One ``<thead>`` row whose cells join the stacked header cells of their column ("Height m"),
    every body row as wide as the widest; a rowspan repeats on each row it covers, a colspan
    fills its first column and leaves the others empty. A parser passed in is edited in place.
    """
    document = as_document(doc)
    for table in document.css("table"):
        if not _has_nested_table(table):
            _regrid(table)
    return document.html


def _has_nested_table(table: LexborNode) -> bool:
    if any(node.mem_id != table.mem_id for node in table.css("table")):
        return True
    parent = table.parent
    while parent is not None:
        if parent.tag == "table":
            return True
        parent = parent.parent
    return False


def _regrid(table: LexborNode) -> None:
    rows = table.css("tr")
    if not rows:
        return
    grid = _grid(rows)
    header_rows = 0
    while header_rows < len(grid) - 1 and _is_header_row(grid[header_rows]):
        header_rows += 1
    if header_rows == 0:
        return
    width = max(_row_width(row) for row in grid)
    render = _CellRenderer()
    header = "".join(_header_cell(grid[:header_rows], column, render) for column in range(width))
    body = "".join(_body_row(row, width, render) for row in grid[header_rows:])
    caption = next((child.html for child in table.iter() if child.tag == "caption"), "")
    html = f"<table>{caption}<thead><tr>{header}</tr></thead><tbody>{body}</tbody></table>"
    table.replace_with(LexborHTMLParser(html, is_fragment=True).css_first("table"))


def _grid(rows: list[LexborNode]) -> list[dict[int, Slot]]:
    """Each row's slots by column, spans expanded (a later cell may overwrite a spanned slot)."""
    grid: list[dict[int, Slot]] = [{} for _ in rows]
    for r, row in enumerate(rows):
        column = 0
        for cell in (child for child in row.iter() if child.tag in CELL_TAGS):
            while column in grid[r]:
                column += 1
            colspan = _span(cell, "colspan", MAX_COLSPAN)
            for i in range(_span(cell, "rowspan", len(rows) - r)):
                for j in range(colspan):
                    grid[r + i][column + j] = (cell, "col" if j else "row" if i else None)
            column += colspan
    return grid


def _span(cell: LexborNode, name: str, limit: int) -> int:
    """``parseInt`` of the span attribute: a whole number from 1 to ``limit``, else 1."""
    number = js_parse_int(cell.attributes.get(name))
    return min(number, limit) if number is not None and number >= 1 else 1


def _row_width(row: dict[int, Slot]) -> int:
    return max(row) + 1 if row else 0


def _is_header_row(row: dict[int, Slot]) -> bool:
    """Some ``th``, and nothing but ``th`` or empty cells."""
    cells = [cell for cell, _ in row.values()]
    return any(cell.tag == "th" for cell in cells) and all(
        cell.tag == "th" or not js_trim(node_text(cell)) for cell in cells
    )


def _header_cell(header_rows: list[dict[int, Slot]], column: int, render) -> str:
    cells: list[LexborNode] = []
    for row in header_rows:
        slot = row.get(column)
        if slot is not None and all(slot[0] is not seen for seen in cells):
            cells.append(slot[0])
    return "<th>" + " ".join(html for html in map(render, cells) if html) + "</th>"


def _body_row(row: dict[int, Slot], width: int, render) -> str:
    cells = []
    for column in range(width):
        slot = row.get(column)
        cells.append(f"<td>{render(slot[0]) if slot is not None and slot[1] != 'col' else ''}</td>")
    return "<tr>" + "".join(cells) + "</tr>"


class _CellRenderer:
    """A cell's content on one line: ``<br>`` becomes a space, block elements spans and a space.

    Rendered once per cell, since a rowspan cell repeats on every row it covers.
    """

    def __init__(self):
        self._done: dict[int, str] = {}

    def __call__(self, cell: LexborNode) -> str:
        key = id(cell)
        if key not in self._done:
            self._done[key] = js_trim(self._inline(cell).inner_html or "")
        return self._done[key]

    @staticmethod
    def _inline(cell: LexborNode) -> LexborNode:
        if cell.css_first(f"br, {CELL_BLOCKS}") is None:
            return cell
        copy = cell.clone()
        for br in copy.css("br"):
            br.replace_with(" ")
        for block in copy.css(CELL_BLOCKS):
            span = cell.parser.create_node("span")
            for name, value in block.attributes.items():
                span.attrs[name] = "" if value is None else value
            for child in list(block.iter(include_text=True)):
                span.insert_child(child, move=True)
            block.insert_after(" ")
            block.replace_with(span, move=True)
        return copy
