"""Page text with one line per block element (docs/templates.md §5.8).

A plain ``.text()`` welds blocks together: ``<h1>Hi</h1><p>there</p>`` reads "Hithere" and table
rows run into each other. Block boundaries are marked with a private-use sentinel while the
text is read, so the source's own newlines can collapse to spaces and only the sentinels become
line breaks. A block starts and ends a line, so inline text just before one is not welded to it
(upstream b008adb, "July 2023If you collected"); the tree is only read, never changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from selectolax.lexbor import LexborNode

from crawlforge.extract.dom import Document, as_document
from crawlforge.extract.state.jsutil import WS, js_trim

BLOCK_TAGS = frozenset(
    "p div li tr h1 h2 h3 h4 h5 h6 blockquote pre table ul ol dl dt dd section article header "
    "footer main nav aside figure figcaption form fieldset caption".split()
)
CELL_TAGS = frozenset(("td", "th"))
SENTINEL = "\ue000"
_WS_RUN = re.compile(WS + "+")
_LINE_BREAKS = re.compile(" ?(?:\ue000 ?)+")

Root = None | str | LexborNode | Iterable[LexborNode]


def flatten_text(doc: Document, root: Root = None) -> str:
    """Text of ``root`` (default ``<body>``), one line per block, table cells space-separated.

    ``root`` may be a CSS selector, a node or several nodes; several roots are each read, a line
    break between them. Script and style text is read like any other, and so is ``<noscript>``
    markup (one text node when parsed with scripting on, as here and in cheerio): remove them first.
    """
    text = SENTINEL.join(_marked_text(node) for node in _roots(as_document(doc), root))
    return js_trim(_LINE_BREAKS.sub("\n", _WS_RUN.sub(" ", text)))


def _roots(document, root: Root) -> list[LexborNode]:
    if root is None:
        return [document.body] if document.body is not None else []
    if isinstance(root, str):
        return document.css(root)
    if isinstance(root, LexborNode):
        return [root]
    return list(root)


def _marked_text(root: LexborNode) -> str:
    """The descendants' text with a sentinel around blocks and for ``<br>``, a space after cells."""
    parts: list[str] = []
    stack: list = list(root.iter(include_text=True))[::-1]  # explicit stack: pages nest deeply
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        tag = item.tag
        if tag == "-text":
            parts.append(item.text_content or "")
        elif tag == "br":
            parts.append(SENTINEL)
        elif item.is_element_node:
            if tag in BLOCK_TAGS:
                parts.append(SENTINEL)
                stack.append(SENTINEL)
            elif tag in CELL_TAGS:
                stack.append(" ")
            stack.extend(list(item.iter(include_text=True))[::-1])
    return "".join(parts)
