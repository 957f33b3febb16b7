"""A progress report every ``CRAWLFORGE_PROGRESS_INTERVAL`` seconds (0: off): pages/min, items,
errors by reason, blocked pages, queue size and, when the total is known, an ETA. On a terminal
(stderr is a TTY) it redraws one bar line, each frame ending with a newline so that a log
line never runs into it (after a log line the bar starts on a new line); otherwise it logs a
plain line.

The total is known for a URL list or a sitemap the spider does not follow links from
(``sitemap/urls``), or from ``max_pages``. Errors by reason are counted as components report
them (``crawlforge.signals.url_failed``) plus HTTP error statuses of the final responses of
scheduled URLs (retried responses never reach ``response_received``; robots.txt is not scheduled).
"""

from __future__ import annotations

import logging
import sys
from collections import Counter

from scrapy import signals as scrapy_signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.asyncio import create_looping_call

from crawlforge import signals
from crawlforge.extensions.ledger import ID_KEY
from crawlforge.report.progress import Snapshot, progress_bar, progress_line

logger = logging.getLogger(__name__)


def known_total(spider, stats: dict) -> int | None:
    if getattr(spider, "follow", False):
        return getattr(spider, "max_pages", None)
    return stats.get("sitemap/urls") or len(getattr(spider, "start_urls", []) or []) or None


class Progress:
    def __init__(self, crawler, interval: float, tty: bool):
        self.crawler = crawler
        self.interval = interval
        self.tty = tty
        self.errors: Counter[str] = Counter()
        self.previous_pages = 0
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
        crawler.signals.connect(extension.url_failed, signal=signals.url_failed)
        crawler.signals.connect(extension.response_received, signal=scrapy_signals.response_received)
        return extension

    def spider_opened(self, spider):
        if self.tty:
            logging.getLogger().addHandler(self.log_watch)
        self.task = create_looping_call(self.report)
        self.task.start(self.interval, now=False)

    def url_failed(self, reason, **_):
        self.errors[reason] += 1

    def response_received(self, response, request, **_):
        if response.status >= 400 and ID_KEY in request.meta:
            self.errors[f"http_{response.status}"] += 1

    def queue_size(self) -> int:
        scheduler = self.crawler.engine.scheduler
        return len(scheduler) if hasattr(scheduler, "__len__") else 0

    def snapshot(self, queue: int = 0) -> Snapshot:
        stats = self.crawler.stats.get_stats()
        pages = stats.get("response_received_count", 0)
        per_min, self.previous_pages = (pages - self.previous_pages) * 60 / self.interval, pages
        items, errors = stats.get("item_scraped_count", 0), dict(self.errors)
        return Snapshot(pages=pages, items=items, done=items + sum(errors.values()),
                        total=known_total(self.crawler.spider, stats), queue=queue,
                        seen=stats.get("ledger/requested") or stats.get("scheduler/enqueued", 0),
                        blocked=sum(v for k, v in stats.items() if k.startswith("verdict/blocked/")),
                        pages_per_min=per_min, errors=errors)

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
