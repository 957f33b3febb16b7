"""Write the crawl's final stats as JSON, for scripts, reports and tests to read."""

from __future__ import annotations

import json
from pathlib import Path

from scrapy import signals
from scrapy.exceptions import NotConfigured


class StatsFile:
    def __init__(self, crawler, path: str):
        self.crawler = crawler
        self.path = Path(path)

    @classmethod
    def from_crawler(cls, crawler):
        path = crawler.settings.get("CRAWLFORGE_STATS_FILE")
        if not path:
            raise NotConfigured
        extension = cls(crawler, path)
        # stats are final only after every spider_closed handler ran, so write on engine_stopped
        crawler.signals.connect(extension.write, signal=signals.engine_stopped)
        return extension

    def write(self):
        stats = self.crawler.stats.get_stats()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(stats, default=str, indent=1, sort_keys=True), encoding="utf-8")
