"""The archive: every response the crawl fetched, written to WARC files as it arrives
(``-a archive=DIR_OR_S3_PREFIX`` or ``CRAWLFORGE_ARCHIVE``; ``scrapy reextract`` reads them).

Placed above Scrapy's redirect and decompression middlewares, its ``process_response`` runs
before theirs, so it sees each response as served: redirect hops, error pages, block pages,
robots.txt and sitemaps included, the body still compressed as the server sent it. A page the
browser rendered is archived as its DOM, linked to the plain response of the same URL when the
crawl fetched one first (``render=auto``). The warcinfo record names the spider and its
arguments, which is what ``scrapy reextract`` runs again.

A record the writer fails to write (a full disk) is logged and counted, and the crawl goes on.
(Records are written on the reactor thread: on the bench crawl a writer thread cost more in
contention for the interpreter lock than the compression it took off the reactor.)

An ``s3://`` prefix gets each file once it is complete (at rotation and at the close); files are
written to a temporary folder first. Settings: ``CRAWLFORGE_ARCHIVE``,
``CRAWLFORGE_ARCHIVE_MAX_BYTES``. Stats: ``archive/records``, ``archive/files``, ``archive/errors``.
"""

from __future__ import annotations

import json
import logging
import tempfile
from collections import OrderedDict
from pathlib import Path

from scrapy import signals
from scrapy.exceptions import NotConfigured
from scrapy.http import TextResponse
from scrapy.settings import SETTINGS_PRIORITIES
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from crawlforge.archive.warc import ArchiveWriter, Exchange, Rendered
from crawlforge.args import ArgumentError
from crawlforge.pipelines.documents import files_store

logger = logging.getLogger(__name__)
ARCHIVE_ARG = "archive"
SPIDER_FIELD = "crawlforge-spider"
ARGS_FIELD = "crawlforge-arguments"
SETTINGS_FIELD = "crawlforge-settings"
# Recorded for reextract: the render settings as the browser add-on left them, and every other
# CRAWLFORGE_* setting given on the command line, except where this run's outputs went.
RENDER_SETTINGS = ("CRAWLFORGE_RENDER", "CRAWLFORGE_RENDER_WAIT_FOR", "CRAWLFORGE_BROWSER_RETRY_BLOCKED")
RUN_SETTINGS = {"CRAWLFORGE_ARCHIVE", "CRAWLFORGE_STATS_FILE", "CRAWLFORGE_ERRORS_FEED",
                "CRAWLFORGE_DOCUMENTS_DIR", "CRAWLFORGE_REDIS_URL", "CRAWLFORGE_REPLAY",
                "CRAWLFORGE_CRAWL_ARGUMENTS"}  # recorded as the arguments
RECENT_RESPONSES = 1024  # plain responses a rendered page of the same URL may refer to


def recorded_settings(settings) -> dict:
    cmdline = SETTINGS_PRIORITIES["cmdline"]
    return {name: settings[name] for name in settings
            if name.startswith("CRAWLFORGE_") and name not in RUN_SETTINGS
            and (name in RENDER_SETTINGS or (settings.getpriority(name) or 0) >= cmdline)}


def header_pairs(headers) -> list[tuple[str, str]]:
    return [(name.decode("latin-1"), value.decode("latin-1"))
            for name, values in headers.items() for value in values]


def exchange_of(request, response) -> Exchange:
    return Exchange(url=response.url, status=response.status, headers=header_pairs(response.headers),
                    body=response.body, method=request.method, request_headers=header_pairs(request.headers),
                    request_body=request.body, protocol=response.protocol or "HTTP/1.1")


def rendered_of(request, response) -> Rendered:
    return Rendered(request_url=request.url, url=response.url, status=response.status,
                    headers=header_pairs(response.headers), body=response.body,
                    encoding=response.encoding if isinstance(response, TextResponse) else None)


def writable(folder: Path) -> Path:
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ArgumentError(f"-a archive: cannot write WARC files into {str(folder)!r} ({error})") from None
    return folder


class ArchiveMiddleware:
    """Downloader middleware writing a ``request`` + ``response`` record pair per response."""

    def __init__(self, crawler, uri: str):
        self.crawler = crawler
        self.stats = crawler.stats
        self.uri = uri
        self.remote = "://" in uri and not uri.startswith("file://")
        folder = self.spool_folder(crawler.settings) if self.remote else writable(Path(uri.removeprefix("file://")))
        leftovers = sorted(folder.glob("*.warc.gz")) if self.remote else []
        spider = crawler.spider
        arguments = {k: v for k, v in crawler.settings.getdict("CRAWLFORGE_CRAWL_ARGUMENTS").items() if k != ARCHIVE_ARG}
        self.writer = ArchiveWriter(folder, spider.name, crawler.settings.getint("CRAWLFORGE_ARCHIVE_MAX_BYTES"),
                                    {SPIDER_FIELD: spider.name, ARGS_FIELD: json.dumps(arguments, default=str),
                                     SETTINGS_FIELD: json.dumps(recorded_settings(crawler.settings), default=str)})
        self.plain_ids: OrderedDict[str, str] = OrderedDict()
        self.uploads: list[Deferred] = [self.upload(path) for path in leftovers]  # a killed run's files
        self.uploaded = 0
        if leftovers:
            logger.info("Uploading %d WARC files a killed crawl left in %s", len(leftovers), folder)

    @staticmethod
    def spool_folder(settings) -> Path:
        """Where files for a remote archive wait until complete: in JOBDIR, so a crawl resumed
        after a kill uploads what the killed one wrote (readable to its last whole record)."""
        if jobdir := settings.get("JOBDIR"):
            folder = Path(jobdir, "archive-spool")
            folder.mkdir(parents=True, exist_ok=True)
            return folder
        return Path(tempfile.mkdtemp(prefix="crawlforge-archive-"))

    @classmethod
    def from_crawler(cls, crawler):
        uri = crawler.settings.get("CRAWLFORGE_ARCHIVE")  # -a archive= sets it (crawlforge.args)
        if not uri:
            raise NotConfigured
        middleware = cls(crawler, str(uri))
        crawler.signals.connect(middleware.spider_closed, signals.spider_closed)
        return middleware

    def process_response(self, request, response):
        rendered = bool(request.meta.get("playwright"))
        count = 1 if rendered else 2  # a rendered DOM's record; a plain response's and its request's
        try:
            if rendered:
                self.writer.write_rendered(rendered_of(request, response), self.plain_ids.get(request.url))
            else:
                self.plain_ids[request.url] = self.writer.write_exchange(exchange_of(request, response))
                if len(self.plain_ids) > RECENT_RESPONSES:
                    self.plain_ids.popitem(last=False)
        except Exception as error:  # noqa: BLE001 - the archive must not cost the crawl its pages
            self.stats.inc_value("archive/errors", count)
            logger.error("Could not archive the response of %s: %s: %s", response.url, type(error).__name__, error)
            return response
        self.stats.inc_value("archive/records", count)
        if self.remote:
            self.upload_complete()
        return response

    def upload_complete(self, every: bool = False) -> None:
        """Send the files the writer has finished (all of them at the close)."""
        files = self.writer.files
        last = len(files) if every else len(files) - 1
        while self.uploaded < last:
            path = files[self.uploaded]
            self.uploaded += 1
            self.uploads.append(self.upload(path))

    def upload(self, path: Path) -> Deferred:
        store = files_store(self.uri.rstrip("/") + "/", self.crawler.settings)
        stream = path.open("rb")
        result = store.persist_file(path.name, stream, info=None,
                                    headers={"Content-Type": "application/warc"})
        result.addBoth(lambda outcome: (stream.close(), path.unlink(missing_ok=True), outcome)[-1])
        return result

    async def spider_closed(self, spider):
        self.writer.close()
        self.stats.set_value("archive/files", len(self.writer.files))
        if self.remote:
            self.upload_complete(every=True)
            for upload in self.uploads:
                await maybe_deferred_to_future(upload)
        logger.info("Archived %d records in %d WARC files under %s", self.writer.records,
                    len(self.writer.files), self.uri)
