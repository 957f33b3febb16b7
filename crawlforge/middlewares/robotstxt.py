"""robots.txt: Scrapy's RobotsTxtMiddleware (Protego), made to hold for concurrent requests, and
the Crawl-delay it parses but does not honour.

Scrapy 2.19 makes every request to a host wait on one Deferred for its robots.txt; under the
asyncio reactor each wait converts that Deferred to a Future, which consumes its result, so from
the second waiter on the parser arrives as None and the request is let through unchecked. Our
``RobotsTxtMiddleware`` gives each waiter a Deferred of its own.

When a robots.txt is parsed (Scrapy's ``robots_parsed`` signal) its ``Crawl-delay`` for our user
agent becomes the least delay of that host's download slot, capped by
``CRAWLFORGE_MAX_CRAWL_DELAY``. A crawl (e.g. a template's spider, in its ``custom_settings``) can
ask for a least delay of its own with ``CRAWLFORGE_CRAWL_DELAY``, or per request with
``meta["crawlforge_crawl_delay"]``.
The larger delay wins; AutoThrottle may slow a slot further but never below it, and the slot's
random jitter is turned off so no request comes sooner than asked. Robots-denied URLs reach the
ledger through Scrapy's IgnoreRequest("Forbidden by robots.txt").

A robots.txt answering 5xx (after its retries) means "assume complete disallow" (RFC 9309
2.3.1.4), and so does one that cannot be fetched at all (a timeout, a reset: the RFC's
"unreachable"), where Scrapy would allow everything: the host's requests end as
``robots_unavailable`` until robots.txt is asked again, ``CRAWLFORGE_ROBOTS_RETRY_AFTER`` seconds
later. When the connection itself failed (DNS, refused, TLS), the page could not have been
fetched either, so its record keeps that reason (``dns``, ``connection_refused``, ``connection``).
"""

from __future__ import annotations

import logging
import time

from scrapy import signals
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware as ScrapyRobotsTxtMiddleware
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.defer import Deferred

from crawlforge.middlewares.ledger import classify
from crawlforge.signals import report_failure

logger = logging.getLogger(__name__)
META_KEY = "crawlforge_crawl_delay"


# The connection itself failed (no name, refused, TLS or a hang-up before any answer): the page's
# record keeps that reason, its own request would have met the same
UNANSWERED = frozenset({"dns", "connection_refused", "connection"})


class UnavailableRobots:
    """The robots.txt of a host whose server failed or could not be reached: nothing is allowed
    until ``retry_at``. ``detail`` says why; ``reason`` is the error records' reason."""

    def __init__(self, detail: str, retry_at: float, reason: str = "robots_unavailable", status: int | None = None):
        self.detail, self.retry_at, self.reason, self.status = detail, retry_at, reason, status

    def allowed(self, url, user_agent) -> bool:
        return False


class RobotsTxtMiddleware(ScrapyRobotsTxtMiddleware):
    """Scrapy's, with each request waiting for the host's robots.txt on a Deferred of its own,
    and a server error read as disallow-all for a while."""

    def __init__(self, crawler):
        super().__init__(crawler)
        self.retry_after = crawler.settings.getfloat("CRAWLFORGE_ROBOTS_RETRY_AFTER")

    async def robot_parser(self, request):
        netloc = urlparse_cached(request).netloc
        parser = self._parsers.get(netloc)
        if isinstance(parser, UnavailableRobots) and time.monotonic() >= parser.retry_at:
            del self._parsers[netloc]  # ask the server again
        pending = self._parsers.get(netloc)
        if not isinstance(pending, Deferred):
            return await super().robot_parser(request)
        waiter = Deferred()
        pending.addBoth(_pass_on, waiter)
        return await maybe_deferred_to_future(waiter)

    async def _parse_robots(self, response, netloc, request):
        if response.status < 500:
            return await super()._parse_robots(response, netloc, request)
        self._stats.inc_value("robotstxt/response_count")
        self._stats.inc_value(f"robotstxt/response_status_count/{response.status}")
        logger.warning("%s answered HTTP %d: its site is disallowed (RFC 9309) for %.0f s, then asked again",
                       response.url, response.status, self.retry_after)
        detail = f"{response.url} answered HTTP {response.status}: a server error disallows the whole site (RFC 9309)"
        self._unavailable(netloc, UnavailableRobots(detail, time.monotonic() + self.retry_after,
                                                    status=response.status))

    def _robots_error(self, exc, netloc):
        """A robots.txt that could not be fetched (after its retries) disallows its site as a 5xx
        does; one the crawl itself refused (IgnoreRequest: the SSRF guard...) stays Scrapy's allow."""
        if isinstance(exc, IgnoreRequest):
            return super()._robots_error(exc, netloc)
        self._stats.inc_value(f"robotstxt/exception_count/{type(exc)}")
        reason = classify(exc)[1]
        logger.warning("robots.txt of %s could not be fetched (%s): its site is disallowed (RFC 9309) for %.0f s, "
                       "then asked again", netloc, reason, self.retry_after)
        detail = (f"robots.txt of {netloc} could not be fetched ({reason}: {exc}): an unreachable robots.txt "
                  "disallows the whole site (RFC 9309)")
        self._unavailable(netloc, UnavailableRobots(detail, time.monotonic() + self.retry_after,
                                                    reason if reason in UNANSWERED else "robots_unavailable"))

    def _unavailable(self, netloc: str, parser: UnavailableRobots) -> None:
        waiting, self._parsers[netloc] = self._parsers[netloc], parser
        waiting.callback(parser)

    def process_request_2(self, rp, request):
        if isinstance(rp, UnavailableRobots):
            self._stats.inc_value("robotstxt/unavailable_refused")
            report_failure(self.crawler, request, "robots", rp.reason, rp.detail, status=rp.status)
            raise IgnoreRequest(rp.detail)
        super().process_request_2(rp, request)


def _pass_on(result, waiter: Deferred):
    """Fire ``waiter`` with the result and keep it in the chain for the next waiter."""
    waiter.callback(result)
    return result


class CrawlDelayMiddleware:
    """Downloader middleware keeping each slot's delay at or above what the site or spider asks."""

    def __init__(self, crawler):
        settings = crawler.settings
        if not settings.getbool("CRAWLFORGE_CRAWL_DELAY_ENABLED"):
            raise NotConfigured
        self.crawler = crawler
        self.max_delay = settings.getfloat("CRAWLFORGE_MAX_CRAWL_DELAY")
        self.crawl_delay = settings.getfloat("CRAWLFORGE_CRAWL_DELAY")
        self.user_agent = settings.get("ROBOTSTXT_USER_AGENT") or settings.get("USER_AGENT")
        self.robots_delays: dict[str, float] = {}  # hostname -> seconds
        crawler.signals.connect(self.robots_parsed, signal=signals.robots_parsed)
        # AutoThrottle lowers a slot's delay on each download; this puts the floor back before
        # the slot's queue moves on (the downloader sends the signal first).
        crawler.signals.connect(self.hold, signal=signals.response_downloaded)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def robots_parsed(self, robotparser, request):
        delay = getattr(robotparser, "crawl_delay", lambda ua: None)(self.user_agent)
        if not delay or delay <= 0:
            return
        if self.max_delay and delay > self.max_delay:
            logger.warning("%s asks for a Crawl-delay of %ss; capped at %ss (CRAWLFORGE_MAX_CRAWL_DELAY)",
                           urlparse_cached(request).netloc, delay, self.max_delay)
            self.crawler.stats.inc_value("crawldelay/capped")
            delay = self.max_delay
        self.robots_delays[urlparse_cached(request).hostname or ""] = delay
        self.crawler.stats.inc_value("crawldelay/hosts")

    def least_delay(self, request) -> float:
        """The largest of the host's Crawl-delay, the crawl's and the request's least delay."""
        asked = (
            self.robots_delays.get(urlparse_cached(request).hostname or "", 0.0),
            self.crawl_delay,
            float(request.meta.get(META_KEY) or 0),
        )
        return max(asked)

    def process_request(self, request):
        self.hold(request)

    def hold(self, request, response=None):
        """Keep the request's download slot at or above its least delay, without jitter."""
        delay = self.least_delay(request)
        if delay > 0:
            _, slot = self.crawler.engine.downloader._get_slot(request)
            slot.delay = max(slot.delay, delay)
            slot.jitter = 0.0
