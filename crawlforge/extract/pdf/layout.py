"""A page without a structure tree, read from its layout: words cut into columns and blocks
where the page leaves white space (a recursive XY cut), blocks into paragraphs, and the
running headers, footers and page numbers of its top and bottom margins left out."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass, field

from crawlforge.extract.pdf.blocks import Block, is_bold
from crawlforge.extract.pdf.tables import inside, ruled_tables
from crawlforge.extract.pdf.text import group_lines, join_lines, line_text

WORD_OPTIONS = {"x_tolerance_ratio": 0.15, "extra_attrs": ["size", "fontname"]}
MARGIN_SHARE = 0.09  # of the page's height, at its top and at its bottom
REPEATED_SHARE = 0.4  # of the pages read, where a margin line recurs to be a running one (odd and even
# pages may run different ones, and the first page none)
PAGE_NUMBER = re.compile(r"^\W*(\d+|[ivxlcdm]+)(\W+(\d+|[ivxlcdm]+))?\W*$", re.I)
DIGITS = re.compile(r"\d+")
COLUMN_GAP = 0.75  # font sizes of white space between two columns
BLOCK_GAP = 0.6  # font sizes of white space between two blocks
MIN_COLUMN_SHARE = 0.18  # of the page's width: narrower "columns" are a table's, read in rows
INDENT = 0.8  # font sizes
UPRIGHT_SHARE = 0.25  # of a page's characters: with fewer upright, the page is read sideways


@dataclass
class PageText:
    width: float
    height: float
    words: list[dict]
    tables: list[Block] = field(default_factory=list)
    table_boxes: list[tuple] = field(default_factory=list)
    tagged: list[Block] | None = None


def read_page(page, tagged: list[Block] | None) -> PageText:
    """What the layout path needs of a page, so the page's parsed objects can go."""
    if tagged:
        return PageText(page.width, page.height, [], tagged=tagged)
    words = page.extract_words(**WORD_OPTIONS)
    upright = [word for word in words if word["upright"]]
    # text set sideways in a margin (a spine, a print mark) is no part of the flow; on a page
    # turned sideways it is about all the text there is
    if sum(len(word["text"]) for word in upright) >= sum(len(word["text"]) for word in words) * UPRIGHT_SHARE:
        words = upright
    found = ruled_tables(page, words)
    boxes = [box for box, _ in found]
    words = [word for word in words if not any(inside(word, box) for box in boxes)]
    return PageText(page.width, page.height, words, [table for _, table in found], boxes)


def margin_lines(page: PageText) -> list[tuple[str, list[dict]]]:
    """The lines of the page's top and bottom margins, each with its key: its text in lower
    case with numbers as ``#`` and none at its ends, so "Page 3 of 9" on every page is one
    running footer, and a header with the page number on the outer side (left on even pages,
    right on odd ones) one running header."""
    band = page.height * MARGIN_SHARE
    words = [w for w in page.words if w["top"] < band or w["bottom"] > page.height - band]
    return [(DIGITS.sub("#", line_text(line).lower()).strip("# "), line) for line in group_lines(words)]


def margin_keys(pages: list[PageText]) -> set[str]:
    """Keys of the margin lines found on enough of the pages (two at least)."""
    counts = Counter(key for page in pages for key in {key for key, _ in margin_lines(page)})
    least = max(2, len(pages) * REPEATED_SHARE)
    return {key for key, count in counts.items() if count >= least}


def body_words(page: PageText, running: set[str]) -> list[dict]:
    dropped = set()
    for key, line in margin_lines(page):
        if key in running or PAGE_NUMBER.match(line_text(line)):
            dropped.update(id(word) for word in line)
    return [word for word in page.words if id(word) not in dropped]


def page_blocks(page: PageText, running: set[str]) -> list[Block]:
    if page.tagged:
        return page.tagged
    words = body_words(page, running)
    size = statistics.median(w["size"] for w in words) if words else 10.0
    items = words + [{"x0": box[0], "top": box[1], "x1": box[2], "bottom": box[3], "table": table}
                     for box, table in zip(page.table_boxes, page.tables)]
    blocks = []
    for cell in xy_cut(items, size, page.width * MIN_COLUMN_SHARE):
        blocks.extend(cell_blocks(cell, size))
    return blocks


def split(items: list[dict], low: str, high: str, gap: float) -> list[list[dict]]:
    """``items`` in groups separated by more than ``gap`` of white space along one axis."""
    groups: list[list[dict]] = []
    end = None
    for item in sorted(items, key=lambda i: i[low]):
        if end is None or item[low] > end + gap:
            groups.append([])
            end = item[high]
        groups[-1].append(item)
        end = max(end, item[high])
    return groups


def xy_cut(items: list[dict], size: float, min_column: float) -> list[list[dict]]:
    """Columns first (white space from the top of the block to its bottom, each side wide
    enough to hold prose), then blocks one above the other, each cut again; the leaves in
    reading order."""
    columns = split(items, "x0", "x1", size * COLUMN_GAP)
    if len(columns) > 1 and all(max(i["x1"] for i in c) - min(i["x0"] for i in c) >= min_column for c in columns):
        return [leaf for column in columns for leaf in xy_cut(column, size, min_column)]
    rows = split(items, "top", "bottom", size * BLOCK_GAP)
    if len(rows) > 1:
        return [leaf for row in rows for leaf in xy_cut(row, size, min_column)]
    return [items]


def cell_blocks(items: list[dict], size: float) -> list[Block]:
    """A leaf of the cut: its tables, and its words as paragraphs."""
    tables = [(item["top"], item["table"]) for item in items if "table" in item]
    words = [item for item in items if "table" not in item]
    paragraphs = [(lines[0][0]["top"], paragraph_block(lines)) for lines in paragraphs_of(group_lines(words), size)]
    return [block for _, block in sorted(tables + paragraphs, key=lambda pair: pair[0])]


def paragraphs_of(lines: list[list[dict]], size: float) -> list[list[list[dict]]]:
    """Lines into paragraphs: a new one where the font changes, at a first-line indent, and
    after a short line that ends a sentence."""
    if not lines:
        return []
    left = min(line[0]["x0"] for line in lines)
    right = max(line[-1]["x1"] for line in lines)
    paragraphs = [[lines[0]]]
    for index, line in enumerate(lines[1:], 1):
        previous = lines[index - 1]
        following = lines[index + 1] if index + 1 < len(lines) else None
        indented = line[0]["x0"] > left + size * INDENT and (
            following is None or line[0]["x0"] > following[0]["x0"] + size * INDENT)
        short_end = previous[-1]["x1"] < right - (right - left) * 0.15 and line_text(previous)[-1:] in ".:!?"
        if indented or short_end or font_of(line) != font_of(previous):
            paragraphs.append([])
        paragraphs[-1].append(line)
    return paragraphs


def font_of(line: list[dict]) -> tuple[float, bool]:
    return round(dominant_size(line)), all(is_bold(word["fontname"]) for word in line)


def dominant_size(words: list[dict]) -> float:
    sizes = Counter()
    for word in words:
        sizes[round(word["size"], 1)] += len(word["text"])
    return sizes.most_common(1)[0][0]


def paragraph_block(lines: list[list[dict]]) -> Block:
    words = [word for line in lines for word in line]
    return Block("paragraph", join_lines([line_text(line) for line in lines]), size=dominant_size(words),
                 bold=all(is_bold(word["fontname"]) for word in words), lines=len(lines))
