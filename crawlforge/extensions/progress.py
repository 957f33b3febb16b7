"""A progress report every ``CRAWLFORGE_PROGRESS_INTERVAL`` seconds (0: off): items, errors by
reason, URLs/min, queue size and, when the total is known, done/total and an ETA. On a terminal
(stderr is a TTY) it redraws one bar line, each frame ending with a newline so that a log
line never runs into it (after a log line the bar starts on a new line); otherwise it logs a
plain line.

The total is known for a URL list or a sitemap the spider does not follow links from
(``sitemap/urls``), or from ``max_pages``. Items, errors by reason and URLs seen are the URL
ledger's counts (``ledger/*``), so the line agrees with the errors feed and the crawl's last
line: done = items + errors, each URL counted once however many block pages or retries it had.
"""

from __future__ import annotations

import logging
import sys

from scrapy import signals as scrapy_signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import create_looping_call

from crawlforge.report.progress import Snapshot, progress_bar, progress_line

logger = logging.getLogger(__name__)


def known_total(max_pages: int, stats: dict) -> int | None:
    """``max_pages`` (0: none) bounds any crawl; one that follows no links knows its URLs: a
    sitemap's (``sitemap/urls``) or its start URLs (the spider's ``crawlforge/*`` stats)."""
    if stats.get("crawlforge/follows_links"):
        return max_pages or None
    planned = stats.get("sitemap/urls") or stats.get("crawlforge/start_urls")
    return min(filter(None, (max_pages, planned)), default=None)


def ledger_errors(stats: dict) -> dict[str, int]:
    return {key.removeprefix("ledger/errors/"): value for key, value in stats.items()
            if key.startswith("ledger/errors/") and value}


class Progress:
    def __init__(self, crawler, interval: float, tty: bool):
        self.crawler = crawler
        self.interval = interval
        self.tty = tty
        self.max_pages = crawler.settings.getint("CRAWLFORGE_MAX_PAGES")
        self.previous_done = 0
        self.task = None
        self.drawn = False  # the last line on stderr is a bar frame
        self.log_watch = LogWatch(self)
        self.log_watch.setLevel(crawler.settings.get("LOG_LEVEL"))  # only lines that are shown

    @classmethod
    def from_crawler(cls, crawler):
        interval = crawler.settings.getfloat("CRAWLFORGE_PROGRESS_INTERVAL")
        if interval <= 0:
            raise NotConfigured
        extension = cls(crawler, interval, sys.stderr.isatty())
        crawler.signals.connect(extension.spider_opened, signal=scrapy_signals.spider_opened)
        crawler.signals.connect(extension.spider_closed, signal=scrapy_signals.spider_closed)
        return extension

    def spider_opened(self, spider):
        if self.tty:
            logging.getLogger().addHandler(self.log_watch)
        self.task = create_looping_call(self.report)
        self.task.start(self.interval, now=False)

    def queue_size(self) -> int:
        scheduler = self.crawler.engine.scheduler
        return len(scheduler) if hasattr(scheduler, "__len__") else 0

    def snapshot(self, queue: int = 0) -> Snapshot:
        stats = self.crawler.stats.get_stats()
        items, errors = stats.get("ledger/items", stats.get("item_scraped_count", 0)), ledger_errors(stats)
        done = items + sum(errors.values())
        per_min, self.previous_done = (done - self.previous_done) * 60 / self.interval, done
        return Snapshot(items=items, done=done, total=known_total(self.max_pages, stats), queue=queue,
                        seen=stats.get("ledger/requested") or stats.get("scheduler/enqueued", 0),
                        per_min=per_min, errors=errors)

    def report(self):
        snap = self.snapshot(self.queue_size())
        if self.tty:
            redraw = "\x1b[1A\r\x1b[2K" if self.drawn else ""  # up over the previous frame
            sys.stderr.write(redraw + progress_bar(snap) + "\n")
            sys.stderr.flush()
            self.drawn = True
        else:
            logger.info("Progress: %s", progress_line(snap))

    def spider_closed(self, spider, reason=None):
        if self.task is not None and self.task.running:
            self.task.stop()
        logging.getLogger().removeHandler(self.log_watch)


class LogWatch(logging.Handler):
    """Notes that a log line was written below the bar, so the next frame must not replace it."""

    def __init__(self, progress: Progress):
        super().__init__()
        self.progress = progress

    def emit(self, record):
        self.progress.drawn = False
