"""Main-content markdown of each page."""

from __future__ import annotations

from itemadapter import ItemAdapter
from scrapy.utils.conf import build_component_list
from scrapy.utils.misc import load_object

from crawlforge.extract.dom import ParsedPage
from crawlforge.extract.markdown import PageContent, page_over_bytes, parsed_page_content
from crawlforge.extract.structure import page_signature
from crawlforge.pagework import PageWork
from crawlforge.parsed import item_page
from crawlforge.pipelines.isolation import optional_step
from crawlforge.pipelines.structure import StructurePipeline


def taking_content(page: ParsedPage, url: str, signed: bool, **options) -> PageContent:
    """``parsed_page_content`` pruning the page's own tree (no copy), the markdown being the last
    stage to change it; with ``signed``, the structure signature, the one thing a later stage
    reads of the tree, is made from it first (a ``page.shared`` value)."""
    if signed:
        page.shared(page_signature)
    return parsed_page_content(page, url, take=True, **options)


def runs_after(crawler, pipeline: type, earlier: type) -> bool:
    """Whether the crawl's ``ITEM_PIPELINES`` run ``pipeline`` after ``earlier`` (or without it)."""
    order = [load_object(path) for path in build_component_list(crawler.settings.getwithbase("ITEM_PIPELINES"))]
    return pipeline in order and (earlier not in order or order.index(pipeline) > order.index(earlier))


class MarkdownPipeline:
    def __init__(self, crawler):
        self.stats = crawler.stats
        self.work = PageWork.of(crawler)
        self.signed = runs_after(crawler, StructurePipeline, type(self))
        settings = crawler.settings
        self.max_bytes = settings.getint("CRAWLFORGE_MARKDOWN_MAX_BYTES")
        self.options = {
            "main_content": settings.getbool("CRAWLFORGE_MARKDOWN_MAIN_CONTENT"),
            "include_images": settings.getbool("CRAWLFORGE_MARKDOWN_IMAGES"),
            "include_links": settings.getbool("CRAWLFORGE_MARKDOWN_LINKS"),
            "max_bytes": self.max_bytes,
            "tracking_params": tuple(settings.getlist("CRAWLFORGE_MARKDOWN_TRACKING_PARAMS")),
        }

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    @optional_step("markdown")
    async def process_item(self, item):
        adapter = ItemAdapter(item)
        html = adapter.get("html")
        if not html:
            return item
        page = item_page(item, html)
        if page_over_bytes(page, self.max_bytes):
            self.stats.inc_value("markdown/over_max_bytes")  # converted whole, without scoring
        adapter["markdown"], adapter["page_type"] = await self.work.run(
            html, taking_content, page, adapter.get("final_url") or adapter["url"], self.signed, **self.options)
        return item
