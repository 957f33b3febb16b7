"""Serving a crawl from its archive: a download handler that answers each request with the
archived response of its URL, never touching the network (``scrapy reextract``).

Everything above the download handler runs as it did in the crawl: the downloader middlewares
(robots.txt, redirects, decompression, charset, verdict, rendering), the spider and the item
pipelines. A URL fetched more than once (a retry) gets its responses in archive order; a
request whose URL the archive lacks ends as a ledger record ``not_archived``. Stats:
``archive/replay/served``, ``archive/replay/missing``, ``archive/replay/unused`` (archived
responses no request asked for).
"""

from __future__ import annotations

import logging
from urllib.parse import urldefrag

from scrapy import signals
from scrapy.core.downloader.handlers.base import BaseDownloadHandler
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Headers
from scrapy.responsetypes import responsetypes

from crawlforge.archive.index import Archived, index_archive, read_record
from crawlforge.signals import report_failure

logger = logging.getLogger(__name__)


class Replay:
    """One crawl's archive and which of its responses were served: Scrapy builds a handler per
    scheme, and http and https share this."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.index = index_archive(crawler.settings.getlist("CRAWLFORGE_REPLAY"))
        self.served: dict[tuple[str, bool], int] = {}
        for path in self.index.truncated:
            logger.warning("%s ends with an incomplete record (a killed crawl?): read up to the last "
                           "complete one", path)
        crawler.signals.connect(self.spider_closed, signals.spider_closed)

    def next(self, request) -> Archived:
        # The archive has the URL as fetched: an HTTP client never sends the fragment.
        key = (urldefrag(request.url).url, bool(request.meta.get("playwright")))
        locations = self.index.records.get(key)
        if not locations:
            self.crawler.stats.inc_value("archive/replay/missing")
            detail = f"{request.url} is not in the archive" + (" as a rendered page" if key[1] else "")
            report_failure(self.crawler, request, "download", "not_archived", detail)
            raise IgnoreRequest(detail)
        position = self.served.get(key, 0)
        self.served[key] = position + 1
        self.crawler.stats.inc_value("archive/replay/served")
        return read_record(locations[min(position, len(locations) - 1)])

    def spider_closed(self, spider):
        used = sum(min(count, len(self.index.records[key])) for key, count in self.served.items())
        unused = len(self.index) - used
        self.crawler.stats.set_value("archive/replay/unused", unused)
        if unused:
            logger.warning("%d archived responses were not asked for on replay (the spider's "
                           "arguments or limits differ from the crawl's?)", unused)


class ArchiveReplayHandler(BaseDownloadHandler):
    """For ``http`` and ``https``; the files are ``CRAWLFORGE_REPLAY``, set by the command."""

    def __init__(self, crawler):
        super().__init__(crawler)
        replay = getattr(crawler, "crawlforge_replay", None)  # one for both schemes
        if replay is None:
            replay = crawler.crawlforge_replay = Replay(crawler)
        self.replay = replay

    async def download_request(self, request):
        archived = self.replay.next(request)
        headers = Headers(archived.headers)
        respcls = responsetypes.from_args(headers=headers, url=archived.url, body=archived.body)
        extra = {"flags": ["playwright"], "encoding": archived.encoding} if archived.rendered else {}
        return respcls(url=archived.url, status=archived.status, headers=headers, body=archived.body,
                       request=request, protocol="HTTP/1.1", **extra)
