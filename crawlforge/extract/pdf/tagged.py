"""A tagged PDF's page, read from its structure tree (PDF 32000-1, 14.8): the tree gives the
reading order and says what is a heading, a paragraph, a list item or a table, and leaves out
the page's artifacts (running headers, footers, page numbers)."""

from __future__ import annotations

from collections import defaultdict

from crawlforge.extract.pdf.blocks import Block, is_bold
from crawlforge.extract.pdf.layout import dominant_size
from crawlforge.extract.pdf.text import join_lines

HEADINGS = {"H": 1, **{f"H{level}": level for level in range(1, 7)}}
PARAGRAPHS = frozenset({"P", "LBody", "Caption", "BlockQuote", "Quote", "Note", "TOCI", "Code", "Title"})
CELLS = frozenset({"TH", "TD"})
MIN_TAGGED_SHARE = 0.5  # of the page's characters: a tree covering less is a poor guide
SPACE_GAP = 0.2  # font sizes between two characters with no space character between them


def tagged_blocks(page) -> list[Block] | None:
    """The page's blocks from its structure tree, or None when it has none worth following."""
    try:
        tree = page.structure_tree
    except Exception:  # noqa: BLE001 - a broken tree: the layout still reads the page
        return None
    chars = defaultdict(list)
    for char in page.chars:
        if char.get("mcid") is not None:
            chars[char["mcid"]].append(char)
    if not tree or sum(map(len, chars.values())) < len(page.chars) * MIN_TAGGED_SHARE:
        return None
    blocks: list[Block] = []
    for element in tree:
        walk(element, chars, blocks)
    return blocks


def walk(element: dict, chars: dict, blocks: list[Block]) -> None:
    kind = element.get("type", "")
    if kind in HEADINGS:
        add(blocks, Block("heading", element_text(element, chars), level=HEADINGS[kind]))
    elif kind == "LI":
        add(blocks, Block("item", element_text(element, chars)))
    elif kind == "Table":
        rows = [row_cells(row, chars) for row in descendants(element, "TR")]
        if rows := [row for row in rows if row]:
            blocks.append(Block("table", rows=rows))
    elif kind in PARAGRAPHS or (element.get("mcids") and not element.get("children")):
        # its type too, so a paragraph set large (a title tagged P) is still a heading
        own = list(element_chars(element, chars))
        add(blocks, Block("paragraph", element_text(element, chars), size=dominant_size(own) if own else 0.0,
                          bold=bool(own) and all(is_bold(char["fontname"]) for char in own if char["text"].strip())))
    else:
        for child in element.get("children", ()):
            walk(child, chars, blocks)


def row_cells(row: dict, chars: dict) -> list[str]:
    """A table row's cell texts, left to right on the page: some producers tag the cells of a
    row in another order than they show them."""
    cells = [cell for cell in row.get("children", ()) if cell.get("type") in CELLS]
    lefts = [min((char["x0"] for char in element_chars(cell, chars)), default=None) for cell in cells]
    if None not in lefts:
        cells = [cell for _, cell in sorted(zip(lefts, cells), key=lambda pair: pair[0])]
    return [element_text(cell, chars) for cell in cells]


def add(blocks: list[Block], block: Block) -> None:
    if block.text:
        blocks.append(block)


def descendants(element: dict, kind: str):
    for child in element.get("children", ()):
        if child.get("type") == kind:
            yield child
        else:
            yield from descendants(child, kind)


def element_chars(element: dict, chars: dict):
    for mcid in element.get("mcids", ()):
        yield from chars.get(mcid, ())
    for child in element.get("children", ()):
        yield from element_chars(child, chars)


def element_text(element: dict, chars: dict) -> str:
    """Its ``ActualText`` when it has one, else its marked content's and its children's."""
    if element.get("actual_text") is not None:
        return element["actual_text"].strip()
    lines = [content_text(chars.get(mcid, ())) for mcid in element.get("mcids", ())]
    lines += [element_text(child, chars) for child in element.get("children", ())]
    return join_lines(lines)


def content_text(chars) -> str:
    """Characters of one marked content, with the spaces a layout leaves as gaps put back."""
    text = ""
    previous = None
    for char in chars:
        if previous is not None and not text.endswith(" ") and char["text"] != " " and (
                abs(char["top"] - previous["top"]) > previous["size"] / 2
                or char["x0"] - previous["x1"] > previous["size"] * SPACE_GAP):
            text += " "
        text += char["text"]
        previous = char
    return text
