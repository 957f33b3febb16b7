"""Log lines that name an item by its URL instead of printing the whole item: a page item
carries its document, and a dropped page would fill the log. The per-page DEBUG lines (crawled,
scraped) are not made at all when the crawl logs above DEBUG: Scrapy would build a log record for
each that its handler then drops."""

from __future__ import annotations

import logging

from itemadapter import ItemAdapter
from scrapy.logformatter import LogFormatter


class CrawlforgeLogFormatter(LogFormatter):
    def __init__(self, log_level: int = logging.DEBUG):
        self.per_page = log_level <= logging.DEBUG

    @classmethod
    def from_crawler(cls, crawler):
        level = crawler.settings.get("LOG_LEVEL")
        level = level if isinstance(level, int) else logging.getLevelName(str(level).upper())
        return cls(level if isinstance(level, int) else logging.DEBUG)

    def crawled(self, request, response, spider):
        return super().crawled(request, response, spider) if self.per_page else None

    def dropped(self, item, exception, response, spider):
        entry = super().dropped(item, exception, response, spider)
        entry["msg"] = "Dropped: %(exception)s"
        return entry

    def scraped(self, item, response, spider):
        if not self.per_page:
            return None
        entry = super().scraped(item, response, spider)
        entry["args"]["item"] = ItemAdapter(item).get("url") or type(item).__name__
        return entry
