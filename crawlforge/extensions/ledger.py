"""The URL ledger: every request the crawl scheduled ends as exactly one item or one error record.

A scheduled request gets a ledger id in ``request.meta["crawlforge_ledger_id"]``; its redirect
hops and retries carry the same id (Scrapy copies meta), so they are one URL to the ledger. The
first item scraped from any of its responses settles it as an item. An error record is appended
to the errors feed as soon as its URL ends: a failure reported through
``crawlforge.signals.url_failed`` before the spider saw a response (the first specific reason
wins), a redirect chain at ``REDIRECT_MAX_TIMES`` (``redirect_limit``), a spider exception
(``spider_error``), or a response whose callback and items are done without an item
(``crawlforge.signals.request_done``: ``http_error``, ``not_modified`` for a 304, else
``no_item``). What is left when the spider closes ends then (``not_fetched``...). Each record's
``at`` is when its URL ended. Requests marked ``meta["crawlforge_not_page"]`` (robots.txt and
sitemap files a spider reads) are counted only when they fail: they are not pages, so a read
file without an item is no error. Stats ``ledger/requested`` = ``ledger/items`` + ``ledger/errors``.

When the frontier outlives this process (a shared Redis queue, or JOBDIR after a graceful
stop), URLs still queued at the end, and redirect hops queued for any worker, are not this
run's to settle: they are counted as ``ledger/handed_over`` and left out of ``requested``. With
Redis a worker counts the URLs that reach its own downloader, since any worker may fetch what
another queued.

Settings: ``CRAWLFORGE_LEDGER_ENABLED``; ``CRAWLFORGE_ERRORS_FEED`` (any Scrapy feed URI; empty:
named after the first items feed, ``out.jsonl`` -> ``out.errors.jsonl``, or none when there is
no items feed). The errors feed is replaced or appended to as the items feed is (``-O`` / ``-o``).
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
from scrapy.http import Response
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.misc import build_from_crawler, load_object

from crawlforge import signals
from crawlforge.items import ErrorRecord, utc_now
from crawlforge.report.feed import sibling_name

logger = logging.getLogger(__name__)
ID_KEY = "crawlforge_ledger_id"
GENERATION_KEY = "crawlforge_ledger_generation"  # which of its URL's requests this one is
NOT_PAGE_KEY = "crawlforge_not_page"  # meta: a file the spider reads (robots.txt, a sitemap)
SHARED = "shared"  # the id of a request queued in a shared frontier, not counted yet
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


@dataclass
class Entry:
    """One scheduled URL, with what happened to it so far."""

    url: str
    scheduled: int = 1
    status: int | None = None
    error: dict | None = None
    in_flight: bool = True  # the latest request was scheduled but has not reached the downloader
    retries: int = 0  # of the request whose response came last (Scrapy's retry_times)
    at_spider: bool = False  # a response of it went to the spider: the spider's side ends it
    not_page: bool = False
    handles_status: bool = False  # the spider reads every status itself (handle_httpstatus_all)
    urls: list[str] = field(default_factory=list)


def errors_feed_uri(settings) -> str | None:
    """CRAWLFORGE_ERRORS_FEED, else named after the first items feed, in its folder."""
    if explicit := settings.get("CRAWLFORGE_ERRORS_FEED"):
        return str(explicit)
    feeds = settings.getdict("FEEDS")
    if not feeds:
        return None
    head, sep, name = str(next(iter(feeds))).rpartition("/")
    return f"{head}{sep}{sibling_name(name, 'errors.jsonl')}"


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


def spider_error_fields(entry: Entry, exception: BaseException) -> dict:
    return error_fields(entry.url, "spider", "spider_error", f"{exception.__class__.__name__}: {exception}",
                        status=entry.status)


def redirect_limit_reached(request, response, max_times: int) -> bool:
    """The redirect middleware will drop this response's hop: the chain is at its limit."""
    meta = request.meta
    if response.status not in REDIRECT_STATUSES or b"Location" not in response.headers \
            or meta.get("dont_redirect") or meta.get("handle_httpstatus_all") \
            or response.status in meta.get("handle_httpstatus_list", ()):
        return False
    return meta.get("redirect_ttl", max_times) <= 0 or meta.get("redirect_times", 0) + 1 > max_times


class UrlLedger:
    """Counts scheduled URLs, settles each as an item or an error, and writes the errors feed."""

    def __init__(self, crawler, feed_uri: str | None):
        self.crawler = crawler
        self.stats = crawler.stats
        self.feed_uri = feed_uri
        self.shared_frontier = bool(crawler.settings.get("CRAWLFORGE_REDIS_URL"))
        self.max_redirects = crawler.settings.getint("REDIRECT_MAX_TIMES") \
            if crawler.settings.getbool("REDIRECT_ENABLED") else 0
        self.pending: dict[str, Entry] = {}
        self.by_url: dict[str, str] = {}
        self.ended: set[str] = set()  # ids written as errors: later reports are consequences
        # ids travel in request.meta through a shared queue: this process's own prefix keeps
        # another worker's ids from matching ours
        self.ids = (f"{os.getpid()}-{id(self):x}-{n}" for n in count(1))
        self.items = 0
        self.errors = 0
        self.storage = self.file = None

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.getbool("CRAWLFORGE_LEDGER_ENABLED"):
            raise NotConfigured
        ledger = cls(crawler, errors_feed_uri(crawler.settings))
        connect = crawler.signals.connect
        connect(ledger.request_scheduled, scrapy_signals.request_scheduled)
        connect(ledger.request_dropped, scrapy_signals.request_dropped)
        connect(ledger.request_reached_downloader, scrapy_signals.request_reached_downloader)
        connect(ledger.response_downloaded, scrapy_signals.response_downloaded)
        connect(ledger.response_received, scrapy_signals.response_received)
        connect(ledger.item_scraped, scrapy_signals.item_scraped)
        connect(ledger.item_dropped, scrapy_signals.item_dropped)
        connect(ledger.item_error, scrapy_signals.item_error)
        connect(ledger.spider_error, scrapy_signals.spider_error)
        connect(ledger.url_failed, signals.url_failed)
        connect(ledger.request_done, signals.request_done)
        connect(ledger.spider_opened, scrapy_signals.spider_opened)
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
            entry = self.pending[ledger_id] = Entry(
                request.url, scheduled=1, not_page=bool(request.meta.get(NOT_PAGE_KEY)),
                handles_status=bool(request.meta.get("handle_httpstatus_all")))
            if not entry.not_page:
                self.stats.inc_value("ledger/requested")
        request.meta[GENERATION_KEY] = entry.scheduled
        entry.urls.append(request.url)
        entry.in_flight = True
        self.by_url[request.url] = request.meta[ID_KEY]

    def request_dropped(self, request):
        entry = self.entry_of(request)
        if entry is None:
            return
        if entry.scheduled == 1:  # the scheduler refused a new URL: it was never scheduled
            self._forget(request.meta[ID_KEY])
            if not entry.not_page:
                self.stats.inc_value("ledger/requested", -1)
        elif request.url in request.meta.get("redirect_urls", ()):
            self.end(request, error_fields(entry.url, "redirect", "redirect_loop",
                                           f"redirects lead back to {request.url}"))
        else:
            self.end(request, error_fields(entry.url, "scheduler", "duplicate",
                                           f"{request.url} was already crawled"))

    def request_reached_downloader(self, request):
        if ID_KEY in request.meta and self.entry_of(request) is None \
                and request.meta[ID_KEY] not in self.ended:
            self.register(request)  # queued by another worker, or by a killed run (JOBDIR)
        if entry := self.entry_of(request):
            entry.in_flight = False

    def response_downloaded(self, response, request):
        """Every response, before the middlewares: a hop the redirect middleware will drop."""
        if (entry := self.entry_of(request)) and self.max_redirects \
                and redirect_limit_reached(request, response, self.max_redirects):
            self.end(request, error_fields(entry.url, "redirect", "redirect_limit",
                                           f"{response.url} still redirects after {len(entry.urls)} requests",
                                           status=response.status))

    def response_received(self, response, request):
        if entry := self.entry_of(request):
            entry.status = response.status
            entry.retries = request.meta.get("retry_times", 0)
            entry.in_flight = False
            entry.at_spider = True

    def item_scraped(self, item, response=None):
        request = getattr(response, "request", None)
        ledger_id = request.meta.get(ID_KEY) if request is not None else None
        if ledger_id in self.pending:
            entry = self._forget(ledger_id)
            self.items += 1
            self.stats.inc_value("ledger/items")
            if entry.not_page:  # a spider that makes items of its files: they were pages
                self.stats.inc_value("ledger/requested")

    def item_dropped(self, item, response=None, exception=None):
        self._note_response(response, "validation", "dropped", str(exception))

    def item_error(self, item, response=None, spider=None, failure=None):
        self._note_response(response, "pipeline", "pipeline_error", str(failure.value) if failure else "")

    def spider_error(self, failure, response=None, spider=None):
        """A callback raised: its URL ends with the exception, not as a generic ``no_item``."""
        request = response.request if isinstance(response, Response) else None
        if request is not None and (entry := self.entry_of(request)):
            self.end(request, spider_error_fields(entry, failure.value))

    def url_failed(self, url, stage, reason, detail="", request=None, **extra):
        if request is not None and ID_KEY not in request.meta:
            return  # not a scheduled request (robots.txt, an extension's own download)
        ledger_id = request.meta[ID_KEY] if request is not None else self.by_url.get(url)
        if ledger_id in self.ended:
            return  # a consequence of the reason already written
        entry = self.pending.get(ledger_id)
        fields = error_fields(entry.url if entry else url, stage, reason, detail, **extra)
        if entry is None:
            logger.warning("Error for a URL the ledger did not schedule: %s", fields)
            self.stats.inc_value("ledger/unmatched_errors")
            self.write(fields)
        elif entry.at_spider:
            self._note(entry, fields)  # the spider's side ends it (request_done)
        else:
            self._finish(ledger_id, entry, fields)

    def request_done(self, request, exception=None, followups=()):
        """The callback of one of the URL's responses is done, and the items it made."""
        entry = self.entry_of(request)
        if entry is None or request.meta.get(GENERATION_KEY) != entry.scheduled:
            return  # settled as an item, or a later request of the URL is under way
        if any(followup.meta.get(ID_KEY) == request.meta[ID_KEY] for followup in followups):
            return  # the callback fetches the URL another way (a fallback): that request ends it
        if exception is not None:
            self._note(entry, spider_error_fields(entry, exception))
        self.end(request, self.settle(entry))

    def _note_response(self, response, stage, reason, detail):
        request = getattr(response, "request", None)
        if request is not None and (entry := self.entry_of(request)):
            self._note(entry, error_fields(entry.url, stage, reason, detail))

    @staticmethod
    def _note(entry: Entry, fields: dict) -> None:
        """The first specific reason wins; later ones are consequences of it."""
        if entry.error is None:
            entry.error = fields

    def end(self, request, fields: dict) -> None:
        """The URL of ``request`` ends now without an item: its record goes to the feed."""
        ledger_id = request.meta.get(ID_KEY)
        if entry := self.pending.get(ledger_id):
            self._finish(ledger_id, entry, fields)

    def _finish(self, ledger_id: str, entry: Entry, fields: dict) -> None:
        self._note(entry, fields)
        self._forget(ledger_id)
        self.ended.add(ledger_id)
        if entry.not_page and not self.not_page_failed(entry):
            return
        if entry.not_page:
            self.stats.inc_value("ledger/requested")
        self.errors += 1
        self.stats.inc_value(f"ledger/errors/{entry.error['reason']}")
        self.write({**entry.error, "at": utc_now()})

    @staticmethod
    def not_page_failed(entry: Entry) -> bool:
        """A file the spider reads is worth a record only when it could not be read."""
        return entry.error["reason"] != "no_item"

    def _forget(self, ledger_id: str) -> Entry:
        entry = self.pending.pop(ledger_id)
        for url in entry.urls:
            if self.by_url.get(url) == ledger_id:
                del self.by_url[url]
        return entry

    # -- the end of a URL, or of the crawl ------------------------------------------------
    def settle(self, entry: Entry) -> dict:
        """The error record of a URL that ended without an item."""
        if entry.error:
            return entry.error
        if entry.in_flight:
            return error_fields(entry.url, "scheduler", "not_fetched",
                                f"{entry.urls[-1]} was scheduled but never fetched: filtered when scheduled "
                                "(e.g. off-site) or still queued when the crawl ended")
        if entry.status == 304:
            return error_fields(entry.url, "http", "not_modified",
                                "HTTP 304: not modified since the copy the request named", status=304)
        if entry.status is not None and 300 <= entry.status < 400:
            return error_fields(entry.url, "redirect", "redirect_limit",
                                f"still redirecting after {entry.scheduled} requests", status=entry.status)
        if entry.status is not None and entry.status >= 400 and not entry.handles_status:
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

    def spider_opened(self, spider):
        self.open_feed()

    async def spider_closed(self, spider, reason=None):
        handed_over = [e for e in self.pending.values() if self.handed_over(e, reason) and not e.not_page]
        if handed_over:
            self.stats.set_value("ledger/handed_over", len(handed_over))
            self.stats.inc_value("ledger/requested", -len(handed_over))
        for ledger_id, entry in list(self.pending.items()):
            if not self.handed_over(entry, reason):
                self._finish(ledger_id, entry, self.settle(entry))
        self.stats.set_value("ledger/requested", self.stats.get_value("ledger/requested", 0))
        self.stats.set_value("ledger/items", self.items)
        self.stats.set_value("ledger/errors", self.errors)
        await self.close_feed()

    # -- the errors feed: appended to as URLs end ------------------------------------------
    def open_feed(self) -> None:
        if not self.feed_uri or self.file is not None:
            return
        spider = self.crawler.spider
        uri = self.feed_uri % {"name": spider.name, "time": _uri_time()} if "%(" in self.feed_uri \
            else self.feed_uri
        storages = self.crawler.settings.getwithbase("FEED_STORAGES")
        storage_cls = load_object(storages.get(urlparse(uri).scheme, storages["file"]))
        overwrite = errors_feed_overwrite(self.crawler.settings)
        self.storage = build_from_crawler(storage_cls, self.crawler, uri, feed_options={"overwrite": overwrite})
        self.file, self.uri = self.storage.open(spider), uri

    def write(self, record: dict) -> None:
        self.open_feed()
        if self.file is not None:
            self.file.write(json.dumps(record, ensure_ascii=False).encode("utf-8") + b"\n")

    async def close_feed(self) -> None:
        self.open_feed()  # an empty feed still says this run had no errors
        if self.file is None:
            return
        result = self.storage.store(self.file)
        if result is not None:
            await maybe_deferred_to_future(result)
        logger.info("Wrote %d error records to %s", self.errors, self.uri)
        self.file = None


def _uri_time() -> str:
    return datetime.now(tz=timezone.utc).replace(microsecond=0).isoformat().replace(":", "-")
