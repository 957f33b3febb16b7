"""Scrapy's HttpCompressionMiddleware, plus a ``too_large`` ledger record (with ``limit`` and
``size``) when a decompressed body passes the size cap."""

from __future__ import annotations

from scrapy.downloadermiddlewares.httpcompression import (
    HttpCompressionMiddleware as ScrapyHttpCompressionMiddleware,
)
from scrapy.exceptions import IgnoreRequest

from crawlforge.middlewares.sizecap import max_size
from crawlforge.signals import report_failure


class HttpCompressionMiddleware(ScrapyHttpCompressionMiddleware):
    """Scrapy's, plus a ``too_large`` ledger record when decompression passes the cap."""

    def __init__(self, stats=None, *, crawler=None):
        super().__init__(stats, crawler=crawler)
        self.crawler = crawler

    def process_response(self, request, response):
        try:
            return super().process_response(request, response)
        except IgnoreRequest as exc:
            size = getattr(exc.__cause__, "decompressed_size", None)
            if size is not None:
                limit = max_size(request, self._max_size)
                report_failure(self.crawler, request, "download", "too_large",
                               f"Response body too large: at least {size} bytes after decompression "
                               f"exceeds limit of {limit} bytes", limit=limit, size=size)
            raise
