"""``scrapy crawl``, with an exit code that says how the crawl went (README "Exit codes and
errors"): 0 it produced items, 1 it produced none and URLs failed (one summary line by
reason), 2 a bad argument or setting (one line, before any request), 3 a health alarm.

Scrapy's own command exits 0 whatever happened during the crawl, and a spider that refuses its
arguments leaves two tracebacks; this one keeps Scrapy's behaviour otherwise.
"""

from __future__ import annotations

import logging
from collections import Counter

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError
from twisted.internet.defer import Deferred

from crawlforge.extensions.health import EXIT_CODE

logger = logging.getLogger(__name__)
NO_ITEM, BAD_ARGUMENTS = 1, 2


def failure_summary(stats: dict) -> str | None:
    """``no item: 2 URLs failed (ssrf_refused 1, http_error 1)``, or None when the crawl
    produced an item or nothing failed."""
    if stats.get("item_scraped_count"):
        return None
    reasons = Counter({key.removeprefix("ledger/errors/"): value for key, value in stats.items()
                       if key.startswith("ledger/errors/") and value})
    reasons["unmatched"] += stats.get("ledger/unmatched_errors", 0)
    total = sum(reasons.values())
    if not total:
        return None
    parts = ", ".join(f"{reason} {n}" for reason, n in reasons.most_common() if n)
    return f"no item: {total} URL{'' if total == 1 else 's'} failed ({parts})"


class Command(ScrapyCrawlCommand):
    crawler = None

    def _create_crawler(self, spidercls):
        self.crawler = super()._create_crawler(spidercls)
        return self.crawler

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError("give one spider: scrapy crawl SPIDER" if not args else
                             "running 'scrapy crawl' with more than one spider is not supported")
        self.bootstrap_error = None
        try:
            crawler = self._create_crawler(args[0])
        except KeyError:
            logger.error("No spider named %r: `scrapy list` names them", args[0])
            self.exitcode = BAD_ARGUMENTS
            return
        started = self.crawler_process.crawl(crawler, **opts.spargs)
        self.watch(started)
        self.crawler_process.start()
        self.exitcode = self.outcome()

    def watch(self, started) -> None:
        """Keep an exception that stopped the crawl before it ran, instead of letting asyncio
        (or Twisted) print it as unhandled."""
        if isinstance(started, Deferred):
            started.addErrback(lambda failure: setattr(self, "bootstrap_error", failure.value))
        else:
            started.add_done_callback(self.task_done)

    def task_done(self, task) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.bootstrap_error = task.exception()

    def outcome(self) -> int:
        error = self.bootstrap_error
        if isinstance(error, ValueError):  # bad arguments and settings (crawlforge.args.ArgumentError...)
            name, message = self.crawler.spidercls.name, str(error)
            logger.error("%s", message if message.startswith(f"{name}:") else f"{name}: {message}")
            return BAD_ARGUMENTS
        if error is not None:
            logger.error("The crawl could not start", exc_info=error)
            return 1
        if self.crawler_process.bootstrap_failed:
            return 1
        stats = self.crawler.stats.get_stats()
        if summary := failure_summary(stats):
            logger.error("Crawl failed: %s", summary)
            return NO_ITEM
        if alarms := stats.get("health/messages"):
            logger.error("crawlforge health check failed:\n  %s", "\n  ".join(alarms))
            return EXIT_CODE
        return 0
