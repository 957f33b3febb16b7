"""The one parse of each page (``extract.dom.ParsedPage``), carried from the verdict middleware
through the spider to the item pipelines beside the response and the item, never in them: no
request (pickled into a JOBDIR) or exported item holds it, and it goes with its response or item.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from crawlforge.extract.charset import utf8_body
from crawlforge.extract.dom import ParsedPage

_BY_RESPONSE: WeakKeyDictionary = WeakKeyDictionary()


def response_page(response) -> ParsedPage:
    """The parsed page of a text response, the same one for every component that asks (its parse
    reads the body itself when that is the text's UTF-8)."""
    page = _BY_RESPONSE.get(response)
    if page is None or page.html is not response.text:
        text = response.text
        page = _BY_RESPONSE[response] = ParsedPage(text, utf8_body(response.body, text, response.encoding))
    return page


def item_page(item, html: str) -> ParsedPage:
    """The parsed page an item carries when its ``html`` is that page's, else a new one (kept on
    items that can carry it: ``Page``'s private ``parsed``)."""
    page = getattr(item, "_parsed", None)
    if page is None or page.html is not html:
        page = ParsedPage(html)
        if hasattr(item, "_parsed"):
            item._parsed = page
    return page


def release(response) -> None:
    """Frees the tree of a response's parse once its request is done. A response a spider read
    with ``response.css()`` is in a reference cycle with its selector, so it and its tree live
    until the garbage collector runs; crawls holding trees that long grew ~100 KB a page."""
    page = _BY_RESPONSE.pop(response, None)
    if page is not None:
        page.release()
