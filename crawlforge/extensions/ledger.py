"""The URL ledger: every request the crawl scheduled ends as exactly one item or one error record.

A scheduled request gets a ledger id in ``request.meta["crawlforge_ledger_id"]``; its redirect
hops and retries carry the same id (Scrapy copies meta), so they are one URL to the ledger. The
first item scraped from any of its responses settles it as an item. Otherwise, when the spider
closes, it is written to the errors feed with the first specific reason a component reported
through ``crawlforge.signals.url_failed``, else ``http_error`` for an error status, else
``no_item``. Stats ``ledger/requested`` = ``ledger/items`` + ``ledger/errors``.

When the frontier outlives this process (a shared Redis queue, or JOBDIR after a graceful
stop), URLs still queued at the end, and redirect hops queued for any worker, are not this
run's to settle: they are counted as ``ledger/handed_over`` and left out of ``requested``. With
Redis a worker counts the URLs that reach its own downloader, since any worker may fetch what
another queued.

Settings: ``CRAWLFORGE_LEDGER_ENABLED``; ``CRAWLFORGE_ERRORS_FEED`` (any Scrapy feed URI; empty:
``errors.jsonl`` next to the first items feed, or none when there is no items feed). The errors
feed is replaced or appended to as the items feed is (``-O`` / ``-o``).
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from itertools import count
from urllib.parse import urlparse

from scrapy import signals as scrapy_signals
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.misc import build_from_crawler, load_object

from crawlforge import signals
from crawlforge.items import ErrorRecord

logger = logging.getLogger(__name__)
ID_KEY = "crawlforge_ledger_id"
SHARED = "shared"  # the id of a request queued in a shared frontier, not counted yet
ERRORS_FILE_NAME = "errors.jsonl"


@dataclass
class Entry:
    """One scheduled URL, with what happened to it so far."""

    url: str
    scheduled: int = 1
    status: int | None = None
    error: dict | None = None
    in_flight: bool = True  # the latest request was scheduled but has not reached the downloader
    retries: int = 0  # of the request whose response came last (Scrapy's retry_times)
    urls: list[str] = field(default_factory=list)


def errors_feed_uri(settings) -> str | None:
    """CRAWLFORGE_ERRORS_FEED, else ``errors.jsonl`` beside the first items feed."""
    if explicit := settings.get("CRAWLFORGE_ERRORS_FEED"):
        return str(explicit)
    feeds = settings.getdict("FEEDS")
    if not feeds:
        return None
    items_uri = str(next(iter(feeds)))
    head, sep, _ = items_uri.rpartition("/")
    return f"{head}{sep}{ERRORS_FILE_NAME}"


def errors_feed_overwrite(settings) -> bool:
    """Replace the errors feed when the items feed is replaced (``-O``), append with ``-o``."""
    feeds = settings.getdict("FEEDS")
    if not feeds:
        return True
    options = next(iter(feeds.values())) or {}
    return bool(options.get("overwrite", False))


def error_fields(url: str, stage: str, reason: str, detail: str = "", **extra) -> dict:
    """An errors-feed row: the ErrorRecord fields that are set."""
    known = {k: v for k, v in extra.items() if k in ErrorRecord.model_fields and v is not None}
    record = ErrorRecord(url=url, stage=stage, reason=reason, detail=detail or "", **known)
    return record.model_dump(exclude_none=True)


class UrlLedger:
    """Counts scheduled URLs, settles each as an item or an error, and writes the errors feed."""

    def __init__(self, crawler, feed_uri: str | None):
        self.crawler = crawler
        self.stats = crawler.stats
        self.feed_uri = feed_uri
        self.shared_frontier = bool(crawler.settings.get("CRAWLFORGE_REDIS_URL"))
        self.pending: dict[str, Entry] = {}
        self.by_url: dict[str, str] = {}
        # ids travel in request.meta through a shared queue: this process's own prefix keeps
        # another worker's ids from matching ours
        self.ids = (f"{os.getpid()}-{id(self):x}-{n}" for n in count(1))
        self.items = 0
        self.unmatched: list[dict] = []

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("CRAWLFORGE_LEDGER_ENABLED", True):
            raise NotConfigured
        ledger = cls(crawler, errors_feed_uri(crawler.settings))
        connect = crawler.signals.connect
        connect(ledger.request_scheduled, scrapy_signals.request_scheduled)
        connect(ledger.request_dropped, scrapy_signals.request_dropped)
        connect(ledger.request_reached_downloader, scrapy_signals.request_reached_downloader)
        connect(ledger.response_received, scrapy_signals.response_received)
        connect(ledger.item_scraped, scrapy_signals.item_scraped)
        connect(ledger.item_dropped, scrapy_signals.item_dropped)
        connect(ledger.item_error, scrapy_signals.item_error)
        connect(ledger.url_failed, signals.url_failed)
        connect(ledger.spider_closed, scrapy_signals.spider_closed)
        return ledger

    # -- what happens to a URL ------------------------------------------------------------
    def entry_of(self, request=None, url: str | None = None) -> Entry | None:
        ledger_id = request.meta.get(ID_KEY) if request is not None else None
        if ledger_id is None and url is not None:
            ledger_id = self.by_url.get(url)
        return self.pending.get(ledger_id)

    def request_scheduled(self, request):
        if self.shared_frontier and self.entry_of(request) is None:
            # any worker may fetch it: the one whose downloader it reaches counts it
            request.meta.setdefault(ID_KEY, SHARED)
            return
        self.register(request)

    def register(self, request):
        if entry := self.entry_of(request):
            entry.scheduled += 1  # a redirect hop or a retry of a URL already counted
        else:
            request.meta[ID_KEY] = ledger_id = next(self.ids)
            entry = self.pending[ledger_id] = Entry(request.url, scheduled=1)
            self.stats.inc_value("ledger/requested")
        entry.urls.append(request.url)
        entry.in_flight = True
        self.by_url[request.url] = request.meta[ID_KEY]

    def request_dropped(self, request):
        entry = self.entry_of(request)
        if entry is None:
            return
        if entry.scheduled == 1:  # the scheduler refused a new URL: it was never scheduled
            self._forget(request.meta[ID_KEY])
            self.stats.inc_value("ledger/requested", -1)
        elif request.url in request.meta.get("redirect_urls", ()):
            self._note(entry, error_fields(entry.url, "redirect", "redirect_loop",
                                           f"redirects lead back to {request.url}"))
        else:
            self._note(entry, error_fields(entry.url, "scheduler", "duplicate",
                                           f"{request.url} was already crawled"))

    def request_reached_downloader(self, request):
        if ID_KEY in request.meta and self.entry_of(request) is None:
            self.register(request)  # queued by another worker, or by a killed run (JOBDIR)
        if entry := self.entry_of(request):
            entry.in_flight = False

    def response_received(self, response, request):
        if entry := self.entry_of(request):
            entry.status = response.status
            entry.retries = request.meta.get("retry_times", 0)
            entry.in_flight = False

    def item_scraped(self, item, response=None):
        request = getattr(response, "request", None)
        ledger_id = request.meta.get(ID_KEY) if request is not None else None
        if ledger_id in self.pending:
            self._forget(ledger_id)
            self.items += 1
            self.stats.inc_value("ledger/items")

    def item_dropped(self, item, response=None, exception=None):
        self._note_response(response, "validation", "dropped", str(exception))

    def item_error(self, item, response=None, spider=None, failure=None):
        self._note_response(response, "pipeline", "pipeline_error", str(failure.value) if failure else "")

    def url_failed(self, url, stage, reason, detail="", request=None, **extra):
        if request is not None and ID_KEY not in request.meta:
            return  # not a scheduled request (robots.txt, an extension's own download)
        entry = self.entry_of(request, url)
        fields = error_fields(entry.url if entry else url, stage, reason, detail, **extra)
        if entry is None:
            logger.warning("Error for a URL the ledger did not schedule: %s", fields)
            self.unmatched.append(fields)
            self.stats.inc_value("ledger/unmatched_errors")
        else:
            self._note(entry, fields)

    def _note_response(self, response, stage, reason, detail):
        request = getattr(response, "request", None)
        if request is not None and (entry := self.entry_of(request)):
            self._note(entry, error_fields(entry.url, stage, reason, detail))

    @staticmethod
    def _note(entry: Entry, fields: dict) -> None:
        """The first specific reason wins; later ones are consequences of it."""
        if entry.error is None:
            entry.error = fields

    def _forget(self, ledger_id: int) -> None:
        entry = self.pending.pop(ledger_id)
        for url in entry.urls:
            if self.by_url.get(url) == ledger_id:
                del self.by_url[url]

    # -- the end of the crawl -------------------------------------------------------------
    def settle(self, entry: Entry) -> dict:
        """The error record of a URL that ended without an item."""
        if entry.error:
            return entry.error
        if entry.in_flight:
            return error_fields(entry.url, "scheduler", "not_fetched",
                                f"{entry.urls[-1]} was scheduled but never fetched: filtered when scheduled "
                                "(e.g. off-site) or still queued when the crawl ended")
        if entry.status is not None and 300 <= entry.status < 400:
            return error_fields(entry.url, "redirect", "redirect_limit",
                                f"still redirecting after {entry.scheduled} requests", status=entry.status)
        if entry.status is not None and entry.status >= 400:
            retried = f" after {entry.retries} {'retry' if entry.retries == 1 else 'retries'}" if entry.retries else ""
            return error_fields(entry.url, "http", "http_error",
                                f"HTTP {entry.status}{retried}", status=entry.status)
        return error_fields(entry.url, "spider", "no_item",
                            "the response was handled but produced no item", status=entry.status)

    def handed_over(self, entry: Entry, reason: str | None) -> bool:
        """Still queued in a frontier that outlives this run (Redis, or JOBDIR after a
        graceful stop): the run that fetches it settles it."""
        if entry.error is not None:
            return False
        if self.shared_frontier:
            return entry.in_flight or (entry.status is not None and 300 <= entry.status < 400)
        return entry.in_flight and reason == "shutdown" and bool(self.crawler.settings.get("JOBDIR"))

    async def spider_closed(self, spider, reason=None):
        handed_over = [e for e in self.pending.values() if self.handed_over(e, reason)]
        if handed_over:
            self.stats.set_value("ledger/handed_over", len(handed_over))
            self.stats.inc_value("ledger/requested", -len(handed_over))
        records = [self.settle(e) for e in self.pending.values() if not self.handed_over(e, reason)]
        for record in records:
            self.stats.inc_value(f"ledger/errors/{record['reason']}")
        self.stats.set_value("ledger/requested", self.stats.get_value("ledger/requested", 0))
        self.stats.set_value("ledger/items", self.items)
        self.stats.set_value("ledger/errors", len(records))
        if self.feed_uri:
            await self.write(records + self.unmatched, spider)

    async def write(self, records: list[dict], spider) -> None:
        uri = self.feed_uri % {"name": spider.name, "time": _uri_time()} if "%(" in self.feed_uri \
            else self.feed_uri
        storages = self.crawler.settings.getwithbase("FEED_STORAGES")
        storage_cls = load_object(storages.get(urlparse(uri).scheme, storages["file"]))
        overwrite = errors_feed_overwrite(self.crawler.settings)
        storage = build_from_crawler(storage_cls, self.crawler, uri, feed_options={"overwrite": overwrite})
        file = storage.open(spider)
        for record in records:
            file.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")
        result = storage.store(file)
        if result is not None:
            await maybe_deferred_to_future(result)
        logger.info("Wrote %d error records to %s", len(records), uri)


def _uri_time() -> str:
    return datetime.now(tz=timezone.utc).replace(microsecond=0).isoformat().replace(":", "-")
