"""Retry 429 and 503 answers after the wait the server asked for (``Retry-After``), or after
an exponential backoff when it named none. Scrapy's RetryMiddleware retries at once."""

from __future__ import annotations

import asyncio
import email.utils
import time

from scrapy.downloadermiddlewares.retry import RetryMiddleware

BACKOFF_CODES = (429, 503)


def retry_delay(retry_after: str | None, attempt: int, base: float, cap: float,
                now: float | None = None) -> float:
    """Seconds to wait before retry number ``attempt`` (0 for the first): the header's
    delta-seconds or HTTP-date when it parses, else ``base * 2 ** attempt``; never over ``cap``."""
    delay = base * 2 ** attempt
    value = (retry_after or "").strip()
    if value.isdigit():
        delay = float(value)
    elif value:
        try:
            delay = email.utils.parsedate_to_datetime(value).timestamp() - (now or time.time())
        except (TypeError, ValueError):
            pass
    return max(0.0, min(delay, cap))


class RetryAfterMiddleware(RetryMiddleware):
    """Replaces Scrapy's RetryMiddleware (same settings); waits before retrying a 429/503.
    The wait holds the request's download slot, so the site gets no other request from this
    slot meanwhile. ``CRAWLFORGE_RETRY_BACKOFF_BASE`` and ``CRAWLFORGE_RETRY_AFTER_MAX`` tune it."""

    def __init__(self, settings):
        super().__init__(settings)
        self.base = settings.getfloat("CRAWLFORGE_RETRY_BACKOFF_BASE")
        self.cap = settings.getfloat("CRAWLFORGE_RETRY_AFTER_MAX")

    async def process_response(self, request, response):
        retries = request.meta.get("retry_times", 0)
        if (response.status in BACKOFF_CODES and response.status in self.retry_http_codes
                and not request.meta.get("dont_retry")
                and retries < request.meta.get("max_retry_times", self.max_retry_times)):
            header = response.headers.get(b"Retry-After")
            delay = retry_delay(header.decode("latin-1") if header else None, retries, self.base, self.cap)
            self.crawler.stats.inc_value(f"retry/backoff/{response.status}")
            self.crawler.stats.inc_value("retry/backoff_seconds", delay)
            await asyncio.sleep(delay)
        return super().process_response(request, response)
