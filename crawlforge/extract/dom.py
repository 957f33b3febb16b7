"""The parsed page the DOM helpers (page text, tables, links) share.

Upstream takes a cheerio document; here a helper takes HTML (``str``, or UTF-8 ``bytes``) or a
``LexborHTMLParser`` the caller already holds, so one page can be parsed once and handed to each.
"""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser, LexborNode

Document = str | bytes | LexborHTMLParser


def as_document(doc: Document) -> LexborHTMLParser:
    """The parser itself, or an HTML5 parse of the markup as cheerio's parse5 makes it.

    Scripting is on, as in cheerio (and a browser that runs scripts): ``<noscript>`` content is
    one text node, so a tracking ``<img>`` in a ``<noscript>`` in ``<head>`` does not end the head.
    """
    if isinstance(doc, LexborHTMLParser):
        return doc
    if isinstance(doc, bytes):
        doc = doc.decode("utf-8", errors="replace")
    if not isinstance(doc, str):
        raise TypeError(f"expected HTML or a LexborHTMLParser, not {type(doc).__name__}")
    return LexborHTMLParser(doc, scripting=True)


def node_text(node: LexborNode | None) -> str:
    """cheerio ``.text()``: every descendant text node, script and style included ("" for no node,
    as cheerio's empty selection)."""
    return node.text(deep=True, separator="", strip=False) if node is not None else ""
