"""What a page is made of, in reading order, before it is written as markdown."""

from __future__ import annotations

from dataclasses import dataclass, field

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
