"""Incremental recrawls: ``-a since=FEED`` compares each page with a previous run's feed (the
``CRAWLFORGE_BASELINE`` comparison of the structure pipeline sets ``content_changed``), and
``-a skip_unchanged=1`` (``CRAWLFORGE_SKIP_UNCHANGED``) drops pages whose content did not change."""

from __future__ import annotations

from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem, NotConfigured



class SkipUnchangedPipeline:
    """After the structure pipeline: a page whose content hash equals the previous run's
    (``content_changed`` is False) is dropped, so the feed holds only what changed."""

    def __init__(self, stats):
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("CRAWLFORGE_SKIP_UNCHANGED"):
            raise NotConfigured
        return cls(crawler.stats)

    def process_item(self, item):
        if ItemAdapter(item).get("content_changed") is False:
            self.stats.inc_value("incremental/unchanged_skipped")
            raise DropItem("content unchanged since the previous run")
        return item
