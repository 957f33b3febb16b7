"""The page between Scrapy components, and the order in which its stages read it.

A crawled page is one ``extract.dom.ParsedPage``, made once per response by the verdict
middleware and handed to each stage as an argument. Between components it travels the Scrapy
way: on the response (``PageResponse.page``, as ``TextResponse`` keeps its selector), then on
the ``Page`` item (its private ``_parsed``, never exported); no request (pickled into a JOBDIR)
holds it. The stages, in the order a crawl runs them:

1. verdict (``middlewares.verdict``): reads the tree;
2. links (``spiders.site``): read before the spider yields the item, whose pipelines follow;
3. structured data, embedded state (``pipelines.structured``): read; the default registry's
   result is kept on the page, where the markdown's product record reads it again;
4. markdown (``pipelines.markdown``): the tree's last reader, which prunes the tree itself
   (``ParsedPage.take``) once what later stages read of it is made (``READ_AFTER_MARKDOWN``);
5. frontmatter, structure signature (``pipelines.frontmatter``, ``pipelines.signature``):
   read what the earlier stages left on the page;
6. when the request is done (``middlewares.resume``), the page is released (``release``).

No other stage changes the tree: one that must works on ``ParsedPage.copy()``.
"""

from __future__ import annotations

from scrapy.http import HtmlResponse

from crawlforge.extract.charset import utf8_body
from crawlforge.extract.dom import ParsedPage
from crawlforge.extract.structure import page_signature

# What the stages after the markdown read of a page's tree, made before the markdown takes it.
READ_AFTER_MARKDOWN = (page_signature,)


class PageResponse(HtmlResponse):
    """An HTML response carrying its page (``page``): it lives and dies with the response."""

    __slots__ = ("page",)


def carrying_page(response: HtmlResponse) -> PageResponse:
    """``response`` as a ``PageResponse`` with its page, made once (the parse reads the body
    itself when that is the text's UTF-8)."""
    if getattr(response, "page", None) is not None:
        return response
    text = response.text
    carrier = response.replace(cls=PageResponse)
    carrier._cached_ubody = text  # decoded already: TextResponse's own cache of its text
    carrier.page = ParsedPage(text, utf8_body(response.body, text, response.encoding))
    return carrier


def response_page(response) -> ParsedPage:
    """The page a response carries (``carrying_page``), else a new page of its text."""
    page = getattr(response, "page", None)
    if page is None:
        text = response.text
        page = ParsedPage(text, utf8_body(response.body, text, response.encoding))
    return page


def item_page(item, html: str) -> ParsedPage:
    """The page an item carries when its ``html`` is that page's, else a new one (kept on items
    that can carry it: ``Page``'s private ``_parsed``)."""
    page = getattr(item, "_parsed", None)
    if page is None or page.html is not html:
        page = ParsedPage(html)
        if hasattr(item, "_parsed"):
            item._parsed = page
    return page


def release(response, stats) -> None:
    """Frees the tree of a response's page once its request is done, and counts what its stages
    made (``page/made/<maker>``: a value made twice on one page shows there). A response a spider
    read with ``response.css()`` is in a reference cycle with its selector, so it and its tree
    would live until the garbage collector runs, and a crawl would grow with every page."""
    page = getattr(response, "page", None)
    if page is None:
        return
    for maker, count in page.runs.items():
        stats.inc_value(f"page/made/{maker}", count)
    page.runs.clear()
    page.release()
