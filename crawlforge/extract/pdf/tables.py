"""Tables the page draws with lines (pdfplumber's lattice finder), as rows of cell texts.

A table ruled only around its header, its body one cell tall of many text lines, is common in
reports: such a spanning cell is cut into one row per text line, each word in the header's
column it sits under. So is a ruled row whose cells all hold the same number of lines (three
or more): several records drawn as one row. Two lines a cell are more often wrapped text."""

from __future__ import annotations

from crawlforge.extract.pdf.blocks import Block, without_empty
from crawlforge.extract.pdf.text import group_lines, join_lines, line_text

MIN_ROWS = 2
MIN_COLUMNS = 2
MANY_LINES = 3  # a header cell wraps onto two lines; a body crammed into one cell holds more


def inside(word: dict, box: tuple) -> bool:
    x = (word["x0"] + word["x1"]) / 2
    y = (word["top"] + word["bottom"]) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def ruled_tables(page, words: list[dict]) -> list[tuple[tuple, Block]]:
    found = []
    for table in page.find_tables():
        columns = column_spans(table)
        rows = without_empty([row for cells in table.rows for row in row_texts(cells.cells, columns, words)])
        if len(rows) >= MIN_ROWS and len(rows[0]) >= MIN_COLUMNS:
            found.append((table.bbox, Block("table", rows=rows)))
    return found  # a box of one column is a frame around text: its words stay in the flow


def column_spans(table) -> list[tuple]:
    """Each column as its narrowest cell: a cell spanning columns is no column's width."""
    spans = []
    for index in range(len(table.columns)):
        cells = [row.cells[index] for row in table.rows if index < len(row.cells) and row.cells[index]]
        spans.append(min(cells, key=lambda cell: cell[2] - cell[0]) if cells else table.columns[index].bbox)
    return spans


def row_texts(cells: list, columns: list[tuple], words: list[dict]) -> list[list[str]]:
    """One table row's cell texts; a row whose cell spans columns and holds several lines, one
    row per line."""
    cell_lines = [group_lines([word for word in words if inside(word, cell)]) if cell else [] for cell in cells]
    spanning = any(len(lines) >= MANY_LINES and sum(cell[0] <= (c[0] + c[2]) / 2 <= cell[2] for c in columns) > 1
                   for cell, lines in zip(cells, cell_lines) if cell)
    counts = [len(lines) for lines in cell_lines if lines]
    if not spanning and len(counts) > 1 and len(set(counts)) == 1 and counts[0] >= MANY_LINES:
        # several records in one ruled row, each cell a line of each
        return [[line_text(lines[index]) if lines else "" for lines in cell_lines] for index in range(counts[0])]
    if not spanning:
        return [[join_lines([line_text(line) for line in lines]) for lines in cell_lines]]
    box = (min(c[0] for c in cells if c), min(c[1] for c in cells if c),
           max(c[2] for c in cells if c), max(c[3] for c in cells if c))
    lines = group_lines([word for word in words if inside(word, box)])
    return [[line_text([w for w in line if column[0] <= (w["x0"] + w["x1"]) / 2 < column[2]]) for column in columns]
            for line in lines]
