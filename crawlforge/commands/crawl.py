"""``scrapy crawl``, which also exits non-zero when the health check raised an alarm.

Scrapy's own command exits 0 whatever happened during the crawl; this one keeps its behaviour
and sets ``crawlforge.extensions.health.EXIT_CODE`` when the ``health/alarms`` stat is non-zero.
"""

from __future__ import annotations

import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand

from crawlforge.extensions.health import EXIT_CODE


class Command(ScrapyCrawlCommand):
    crawler = None

    def _create_crawler(self, spidercls):
        self.crawler = super()._create_crawler(spidercls)
        return self.crawler

    def run(self, args, opts):
        super().run(args, opts)
        alarms = self.crawler.stats.get_value("health/messages") if self.crawler else None
        if alarms and not self.exitcode:
            print("crawlforge health check failed:\n  " + "\n  ".join(alarms), file=sys.stderr)
            self.exitcode = EXIT_CODE
