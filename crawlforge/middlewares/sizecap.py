"""Size cap: ``DOWNLOAD_MAXSIZE`` with a ledger record that says how large and what the limit was.

Scrapy aborts a download whose Content-Length or received bytes pass the cap, and
HttpCompressionMiddleware one whose decompressed body does; neither says so to anyone but the
log. ``SizeCapMiddleware`` watches ``headers_received``/``bytes_received`` for the cap (per
request ``meta["download_maxsize"]`` as in Scrapy) and, when Scrapy's abort arrives, reports
``too_large`` with ``limit`` and ``size`` (the declared size, or the bytes received so far: at
least that many). It also caps responses that came another way (the browser).
"""

from __future__ import annotations

from scrapy import signals
from scrapy.exceptions import IgnoreRequest

from crawlforge.signals import report_failure

TOO_LARGE_KEY = "crawlforge_too_large"
RECEIVED_KEY = "crawlforge_bytes_received"


def max_size(request, default: int) -> int:
    return int(request.meta.get("download_maxsize", default) or 0)


class SizeCapMiddleware:
    """Downloader middleware: a too-large response is a ``too_large`` ledger record, never an item."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.default_max = crawler.settings.getint("DOWNLOAD_MAXSIZE")
        crawler.signals.connect(self.headers_received, signal=signals.headers_received)
        crawler.signals.connect(self.bytes_received, signal=signals.bytes_received)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def headers_received(self, headers, body_length, request):
        """``body_length`` is Twisted's ``UNKNOWN_LENGTH`` (a string) without Content-Length."""
        limit = max_size(request, self.default_max)
        if limit and isinstance(body_length, int) and body_length > limit:
            request.meta[TOO_LARGE_KEY] = {"limit": limit, "size": body_length,
                                           "detail": f"Content-Length {body_length} exceeds limit of {limit} bytes"}

    def bytes_received(self, data, request):
        received = request.meta.get(RECEIVED_KEY, 0) + len(data)
        request.meta[RECEIVED_KEY] = received
        limit = max_size(request, self.default_max)
        if limit and received > limit and TOO_LARGE_KEY not in request.meta:
            request.meta[TOO_LARGE_KEY] = {"limit": limit, "size": received,
                                           "detail": f"at least {received} bytes exceeds limit of {limit} bytes"}

    def process_request(self, request):
        request.meta.pop(TOO_LARGE_KEY, None)  # a retry or redirect hop starts counting afresh
        request.meta.pop(RECEIVED_KEY, None)

    def process_response(self, request, response):
        limit = max_size(request, self.default_max)
        if limit and len(response.body) > limit:
            self.report(request, {"limit": limit, "size": len(response.body),
                                  "detail": f"{len(response.body)} bytes exceeds limit of {limit} bytes"})
            raise IgnoreRequest(f"Response body too large: {len(response.body)} bytes exceeds limit of {limit} bytes")
        return response

    def process_exception(self, request, exception):
        if too_large := request.meta.get(TOO_LARGE_KEY):
            self.report(request, too_large)

    def report(self, request, too_large: dict):
        self.crawler.stats.inc_value("sizecap/too_large")
        report_failure(self.crawler, request, "download", "too_large",
                       f"Response body too large: {too_large['detail']}",
                       limit=too_large["limit"], size=too_large["size"])
