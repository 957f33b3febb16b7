"""Blocks as markdown: headings from the font sizes of the document (set larger than its body
text, or all bold and short), tables as pipe tables with their first row as header."""

from __future__ import annotations

import re
from collections import Counter

from crawlforge.extract.pdf.blocks import Block, without_empty

HEADING_RATIO = 1.15  # of the body text's size
MAX_HEADING_CHARS = 200
MAX_BOLD_HEADING_CHARS = 120
MAX_LEVELS = 3  # of headings by size; all-bold ones come below them
ORDERED_LABEL = re.compile(r"^(\d+|[a-z])[.)]\s")
BULLET_LABEL = re.compile(r"^[\u2022\u25e6\u25aa\u25cf\u2023\u2043\u00b7*\-\u2013]\s*")
MARKDOWN_START = re.compile(r"^([#>+*-]|\d+[.)])(?=\s)")


def body_size(blocks: list[Block]) -> float:
    sizes = Counter()
    for block in blocks:
        if block.kind == "paragraph" and block.size:
            sizes[round(block.size * 2) / 2] += len(block.text)
    return sizes.most_common(1)[0][0] if sizes else 0.0


def heading_levels(blocks: list[Block]) -> dict[float, int]:
    """Each size larger than the body text's, largest first, down to ``MAX_LEVELS``."""
    body = body_size(blocks)
    larger = sorted({round(b.size * 2) / 2 for b in blocks if b.kind == "paragraph" and is_heading_size(b, body)},
                    reverse=True)
    return {size: min(rank, MAX_LEVELS) for rank, size in enumerate(larger, 1)}


def is_heading_size(block: Block, body: float) -> bool:
    return bool(body) and block.size >= body * HEADING_RATIO and len(block.text) <= MAX_HEADING_CHARS \
        and any(c.isalpha() for c in block.text)


def heading_level(block: Block, levels: dict[float, int]) -> int:
    if block.kind == "heading":
        return block.level
    if block.kind != "paragraph":
        return 0
    if (level := levels.get(round(block.size * 2) / 2)) is not None:
        return level
    if block.bold and block.lines == 1 and len(block.text) <= MAX_BOLD_HEADING_CHARS \
            and any(c.isalpha() for c in block.text) and block.text[-1:] not in ".,;":
        return min(len(set(levels.values())) + 1, 6)
    return 0


def table_markdown(rows: list[list[str]]) -> str:
    """A pipe table; a "table" of one column (a tagged frame around text) as its paragraphs."""
    rows = without_empty(rows)
    if not rows or len(rows[0]) < 2:
        return "\n\n".join(cell_text(row[0]) for row in rows)
    width = max(len(row) for row in rows)
    cells = [[cell_text(cell) for cell in row] + [""] * (width - len(row)) for row in rows]
    lines = ["| " + " | ".join(row) + " |" for row in cells]
    lines.insert(1, "|" + "---|" * width)
    return "\n".join(lines)


def cell_text(text: str | None) -> str:
    return " ".join((text or "").split()).replace("|", "\\|")


def list_item(text: str) -> str:
    """A list item keeps its own number; its bullet character becomes markdown's."""
    if ORDERED_LABEL.match(text):
        return text
    return "- " + BULLET_LABEL.sub("", text)


def render_blocks(blocks: list[Block]) -> str:
    levels = heading_levels(blocks)
    parts = []
    for block in blocks:
        if block.kind == "table":
            parts.append(table_markdown(block.rows))
        elif level := heading_level(block, levels):
            parts.append("#" * level + " " + " ".join(block.text.split()))
        elif block.kind == "item":
            parts.append(list_item(block.text))
        else:
            parts.append(MARKDOWN_START.sub(r"\\\1", block.text))
    return "\n\n".join(part for part in parts if part.strip())
