"""Main-content markdown of each page."""

from __future__ import annotations

from itemadapter import ItemAdapter

from crawlforge.extract.dom import ParsedPage
from crawlforge.extract.markdown import PageContent, page_over_bytes, parsed_page_content
from crawlforge.pagework import PageWork
from crawlforge.parsed import READ_AFTER_MARKDOWN, item_page
from crawlforge.pipelines.isolation import optional_step


def taking_content(page: ParsedPage, url: str, **options) -> PageContent:
    """``parsed_page_content`` pruning the page's own tree (no copy): the markdown is the tree's
    last reader (``crawlforge.parsed``), and what later stages read of it is made first."""
    for make in READ_AFTER_MARKDOWN:
        page.shared(make)
    return parsed_page_content(page, url, take=True, **options)


class MarkdownPipeline:
    def __init__(self, crawler):
        self.stats = crawler.stats
        self.work = PageWork.of(crawler)
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
            html, taking_content, page, adapter.get("final_url") or adapter["url"], **self.options)
        return item
