"""A huge page's HTML cut into pieces that parse on their own, so that no stage holds its
whole tree.

A lexbor tree costs five to twenty-five times its page (prose to table cells) and the
converter's own tree as much again: a page of tens of megabytes would take gigabytes, held at
once. A huge page is read instead as pieces of about ``PIECE_CHARS`` or ``PIECE_TAGS``, each
cut where a block (a paragraph, heading, list, table, ``div``...) ends or begins while every
element still open is a plain container (``body``, ``div``, ``section``...), so that no line of
text, list, table or code block is split. A piece after
the first opens again inside the elements around its cut (their start tags repeated), so it
parses to the part of the page it holds, in its place. A page with no such place for too long
(one giant list or table) is cut between its items (``_may_cut``).

The tag stream is read without a parse: raw text (scripts, styles, comments) is skipped whole,
and the implied ends of HTML (a ``<p>`` ended by the next block, a ``<li>`` by the next item)
are applied, so the open elements are known at every tag.
"""

from __future__ import annotations

import re
from typing import NamedTuple

PIECE_CHARS = 1 << 20  # 1 MiB: a piece's tree is ~5 MiB of prose
PIECE_TAGS = 1 << 15  # or 32768 tags: ~10 MiB of tree, whatever the markup (a table's cells cost ~25x)
# Containers whose content reads the same cut in two: their pieces join as paragraphs do.
_PLAIN = frozenset("html body main article section div center header footer aside nav form".split())
_VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# Start tags that end an open <p> (HTML's "close a p element" list).
_ENDS_P = frozenset("address article aside blockquote details dialog div dl dd dt fieldset figcaption figure "
                    "footer form h1 h2 h3 h4 h5 h6 header hgroup hr li main menu nav ol p pre section table ul"
                    .split())
# A start tag that ends the open element of the same kind, up to (not past) the given boundaries.
_ENDS_SAME = {"li": ("ul", "ol", "menu"), "dt": ("dl",), "dd": ("dl",), "tr": ("table",), "option": ("select",)}
_ITEMS = frozenset("li dt dd tr tbody thead tfoot".split())  # of lists and tables
_PLAIN_OR_LISTS = _PLAIN | frozenset("ul ol dl menu table tbody thead tfoot".split())
_SIBLINGS = {"dt": ("dt", "dd"), "dd": ("dt", "dd")}
_TOKEN = re.compile(
    r"<!--.*?(?:-->|\Z)"
    r"|<(script|style|textarea|title|xmp|noembed|noframes)\b[^>]*>.*?(?:</\1\s*>|\Z)"
    # a tag (not a table cell: the row around it is tracked, so no cut falls inside it anyway,
    # and the cells are most tags of a table); a ">" in quotes is no end
    r"""|<(/?)(?!t[dh][\s/>])([a-zA-Z][a-zA-Z0-9:-]*)(?:[^>"']++|"[^"]*+"|'[^']*+')*+>""",
    re.S | re.I)
_SCRIPT = re.compile(r"<script\b[^>]*>.*?(?:</script\s*>|\Z)", re.S | re.I)


class Piece(NamedTuple):
    start: int
    end: int
    context: str
    """The start tags of the elements open at ``start``, to put before the piece."""


def pieces(html: str, chars: int | None = None, tags_wanted: int | None = None) -> list[Piece]:
    """Where ``html`` is cut: pieces of about ``chars`` (``PIECE_CHARS``) characters or
    ``tags_wanted`` (``PIECE_TAGS``) tags, whichever comes first, in order, covering it. A cut
    falls after an end tag or before a start tag (``<p>`` after ``<p>`` ends the first one: old
    pages seldom close them)."""
    chars, tags_wanted = chars or PIECE_CHARS, tags_wanted or PIECE_TAGS
    found, stack, start, context, tags, counted = [], [], 0, "", 0, 0
    for match in _TOKEN.finditer(html):
        closing, name = match.group(2, 3)
        if name is None:
            continue  # a comment or raw text
        tags += html.count("<", counted, match.end())  # every tag since the last (cells too), cheaply
        counted = match.end()
        if not name.islower():
            name = name.lower()
        if closing:
            if stack and stack[-1][0] == name:
                stack.pop()
            else:
                _close(stack, name)
            at = match.end()
        elif name in _VOID or match.group().endswith("/>"):
            continue
        else:
            if name in _ENDS_P or name in _ENDS_SAME:
                _end_implied(stack, name)
            at = match.start()
        if (at - start >= chars or tags >= tags_wanted and at > start) and _may_cut(
                name, stack, max((at - start) // chars, tags // tags_wanted)):
            found.append(Piece(start, at, context))
            start, context, tags = at, "".join(tag for _, tag in stack), 0
        if not closing:
            stack.append((name, match.group()))
    if start < len(html) or not found:
        found.append(Piece(start, len(html), context))
    return found


def _may_cut(block: str, stack: list, sizes: int) -> bool:
    """Whether a piece ``sizes`` times the wanted size may end where ``block`` ends or begins:
    at a block among plain containers; past 2x also at an item of a list or table among them;
    past 4x at any tag, wherever it is, so that a piece never grows without bound."""
    if sizes >= 4:
        return True
    if sizes >= 2:
        return (block in _ENDS_P or block in _ITEMS) and all(name in _PLAIN_OR_LISTS for name, _ in stack)
    return block in _ENDS_P and all(name in _PLAIN for name, _ in stack)


def piece_html(html: str, piece: Piece) -> str:
    return piece.context + html[piece.start:piece.end]


def outline(html: str, cut: list[Piece]) -> str:
    """The first piece (the head and the top of the body) and every script after it: what the
    verdict, structured data and structure signature of a huge page read."""
    first = cut[0]
    return html[: first.end] + "".join(match.group() for match in _SCRIPT.finditer(html, first.end))


def _end_implied(stack: list, name: str) -> None:
    """Pops the elements a start tag ``name`` ends by itself (an open ``<p>``, a sibling item)."""
    if stack and stack[-1][0] == "p" and name in _ENDS_P:
        stack.pop()
    bounds = _ENDS_SAME.get(name)
    if bounds:
        same = _SIBLINGS.get(name, (name,))
        for depth in range(len(stack) - 1, -1, -1):
            open_name = stack[depth][0]
            if open_name in same:
                del stack[depth:]
                break
            if open_name in bounds:
                break


def _close(stack: list, name: str) -> None:
    for depth in range(len(stack) - 1, -1, -1):
        if stack[depth][0] == name:
            del stack[depth:]
            return
