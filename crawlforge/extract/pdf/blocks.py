"""What a page is made of, in reading order, before it is written as markdown."""

from __future__ import annotations

from dataclasses import dataclass, field

from crawlforge.extract.pdf.text import LINE_END_HYPHEN, join_lines

BOLD_MARKS = ("bold", "black", "heavy", "semibold", "demi")  # in PostScript font names


@dataclass
class Block:
    kind: str  # heading, paragraph, item (of a list) or table
    text: str = ""
    size: float = 0.0  # the font size most of its text is set in
    bold: bool = False
    lines: int = 1
    level: int = 0  # a heading's, when the PDF's structure names it
    rows: list[list[str]] = field(default_factory=list)


def is_bold(fontname: str) -> bool:
    name = fontname.lower()
    return any(mark in name for mark in BOLD_MARKS)


def merge_continued(blocks: list[Block]) -> list[Block]:
    """A paragraph cut by the end of a column or a page, and taken up in the next one in the
    same type: one paragraph again, when it stops on a hyphen or goes on in lower case."""
    merged: list[Block] = []
    for block in blocks:
        previous = merged[-1] if merged else None
        if previous is not None and previous.kind == block.kind == "paragraph" and previous.size == block.size \
                and previous.bold == block.bold and (LINE_END_HYPHEN.search(previous.text) or block.text[:1].islower()):
            previous.text = join_lines([previous.text, block.text])
            previous.lines += block.lines
        else:
            merged.append(block)
    return merged


def without_empty(rows: list[list[str]]) -> list[list[str]]:
    """Rows and columns with no text left out (the gaps of a form's ruled grid)."""
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    keep = [index for index in range(max(map(len, rows), default=0))
            if any(index < len(row) and row[index].strip() for row in rows)]
    return [[row[index] if index < len(row) else "" for index in keep] for row in rows]

