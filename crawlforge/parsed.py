"""The one parse of each page (``extract.dom.ParsedPage``), carried from the verdict middleware
through the spider to the item pipelines beside the response and the item, never in them: no
request (pickled into a JOBDIR) or exported item holds it, and it goes with its response or item.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from crawlforge.extract.dom import ParsedPage

_BY_RESPONSE: WeakKeyDictionary = WeakKeyDictionary()


def response_page(response) -> ParsedPage:
    """The parsed page of a text response, the same one for every component that asks."""
    page = _BY_RESPONSE.get(response)
    if page is None or page.html is not response.text:
        page = _BY_RESPONSE[response] = ParsedPage(response.text)
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
