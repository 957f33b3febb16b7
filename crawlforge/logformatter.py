"""Log lines that name an item by its URL instead of printing the whole item: a page item
carries its document, and a dropped page would fill the log."""

from __future__ import annotations

from itemadapter import ItemAdapter
from scrapy.logformatter import LogFormatter


class CrawlforgeLogFormatter(LogFormatter):
    def dropped(self, item, exception, response, spider):
        entry = super().dropped(item, exception, response, spider)
        entry["msg"] = "Dropped: %(exception)s"
        return entry

    def scraped(self, item, response, spider):
        entry = super().scraped(item, response, spider)
        entry["args"]["item"] = ItemAdapter(item).get("url") or type(item).__name__
        return entry
