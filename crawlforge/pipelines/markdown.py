"""Main-content markdown of each page."""

from __future__ import annotations

from itemadapter import ItemAdapter

from crawlforge.args import as_flag
from crawlforge.extract.markdown import page_content

SPIDER_ARGS = {"main_content": "main_content", "include_images": "images", "include_links": "links"}


class MarkdownPipeline:
    def __init__(self, crawler):
        self.stats = crawler.stats
        settings = crawler.settings
        self.max_bytes = settings.getint("CRAWLFORGE_MARKDOWN_MAX_BYTES")
        self.options = {
            "main_content": settings.getbool("CRAWLFORGE_MARKDOWN_MAIN_CONTENT"),
            "include_images": settings.getbool("CRAWLFORGE_MARKDOWN_IMAGES"),
            "include_links": settings.getbool("CRAWLFORGE_MARKDOWN_LINKS"),
            "max_bytes": self.max_bytes,
            "tracking_params": tuple(settings.getlist("CRAWLFORGE_MARKDOWN_TRACKING_PARAMS")),
        }
        # spider arguments win over settings: -a main_content=0, -a images=0, -a links=0
        for option, arg in SPIDER_ARGS.items():
            if (value := getattr(crawler.spider, arg, None)) is not None:
                self.options[option] = as_flag(value, arg)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def process_item(self, item):
        adapter = ItemAdapter(item)
        html = adapter.get("html")
        if not html:
            return item
        if len(html) > self.max_bytes:
            self.stats.inc_value("markdown/over_max_bytes")  # converted whole, without scoring
        adapter["markdown"], adapter["page_type"] = page_content(html, adapter.get("final_url") or adapter["url"],
                                                                 **self.options)
        return item
