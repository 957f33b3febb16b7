"""Write the crawl's final stats as JSON, for scripts, reports and tests to read: to
``CRAWLFORGE_STATS_FILE``, else beside a local items feed (``out.jsonl`` -> ``out.stats.json``),
where ``scrapy report`` finds them."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.exceptions import NotConfigured
from w3lib.url import file_uri_to_path

from crawlforge.report.feed import sibling


def local_feed_path(settings) -> Path | None:
    """The first items feed's file, when it is a local one."""
    feeds = settings.getdict("FEEDS")
    if not feeds:
        return None
    uri = str(next(iter(feeds)))
    scheme = urlsplit(uri).scheme
    if scheme == "file":
        return Path(file_uri_to_path(uri))
    if "%(" in uri:  # a name made per run (%(time)s): no one file to sit beside
        return None
    return Path(uri) if len(scheme) <= 1 else None  # a plain path (or a Windows drive letter)


class StatsFile:
    def __init__(self, crawler, path: str):
        self.crawler = crawler
        self.path = Path(path)

    @classmethod
    def from_crawler(cls, crawler):
        path = crawler.settings.get("CRAWLFORGE_STATS_FILE")
        if not path:
            feed = local_feed_path(crawler.settings)
            if feed is None:
                raise NotConfigured
            path = sibling(feed, "stats.json")
        extension = cls(crawler, path)
        # stats are final only after every spider_closed handler ran, so write on engine_stopped
        crawler.signals.connect(extension.write, signal=signals.engine_stopped)
        return extension

    def write(self):
        stats = self.crawler.stats.get_stats()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(stats, default=str, indent=1, sort_keys=True), encoding="utf-8")
