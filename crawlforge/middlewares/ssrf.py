"""SSRF guard: refuse requests to loopback, private, link-local, metadata... addresses.

The host of every request (so every redirect hop, which Scrapy schedules as a new request) is
checked: literal addresses in any notation and local names as soon as the request is scheduled
(before an off-site filter can hide the attempt), other names after a DNS lookup, before download. ``GuardedResolver`` (set as ``TWISTED_DNS_RESOLVER``) checks the answers the
connection itself uses, so a name that re-resolves to a private address (DNS rebinding) fails too.

Settings: ``CRAWLFORGE_ALLOW_PRIVATE_NETWORKS`` (True turns the guard off),
``CRAWLFORGE_ALLOWED_NETWORKS`` (CIDR list let through, e.g. ``["127.0.0.1/32"]``).
A refused request raises IgnoreRequest and is a ledger record with reason ``ssrf_refused``;
the first refusal of each host is also a WARNING naming the setting that lets it through.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from urllib.parse import unquote

from scrapy import signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.resolver import CachingThreadedResolver
from scrapy.utils.defer import maybe_deferred_to_future
from scrapy.utils.httpobj import urlparse_cached
from twisted.internet.error import DNSLookupError

from crawlforge.args import ArgumentError
from crawlforge.extract import netguard
from crawlforge.extract.netguard import parse_host, refusal
from crawlforge.signals import report_failure

logger = logging.getLogger(__name__)
GUARDED_SCHEMES = ("http", "https", "ftp", "ws", "wss")


def guard_settings(settings) -> list | None:
    """The allow-list networks (None: the guard is off); one that is not a CIDR is a bad setting."""
    try:
        return netguard.guard_settings(settings)
    except ValueError as error:
        raise ArgumentError(f"CRAWLFORGE_ALLOWED_NETWORKS must be CIDRs such as 127.0.0.1/32,10.0.0.0/8 ({error})") \
            from None


class SsrfRefusedError(DNSLookupError):
    """A name resolved to an address the guard refuses."""


class SsrfGuardMiddleware:
    """Downloader middleware: refuses a request whose host is or resolves to a non-public address."""

    def __init__(self, crawler, resolve=None):
        allowed = guard_settings(crawler.settings)
        if allowed is None:
            raise NotConfigured
        self.crawler = crawler
        self.allowed = allowed
        self.resolve = resolve or self.resolve_with_reactor
        # The verdict before any lookup depends on the host alone, and a crawl asks about the
        # same few hosts thousands of times (every link found is scheduled, duplicates too).
        self.vet_host = lru_cache(maxsize=4096)(self._vet_host)
        self.warned: set[str] = set()
        crawler.signals.connect(self.request_scheduled, signal=signals.request_scheduled)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def _vet_host(self, host: str) -> tuple[str | None, bool]:
        """(why the host is refused before any lookup, whether it is a name to resolve)."""
        return refusal(host, allowed=self.allowed), parse_host(host) is None

    def request_scheduled(self, request):
        """Refuse literal and local hosts before anything else filters the request."""
        host = guarded_host(request)
        if host and (reason := self.vet_host(host)[0]):
            self.refuse(request, reason)

    async def process_request(self, request):
        host = guarded_host(request)
        if not host:
            return None
        reason, is_name = self.vet_host(host)
        if reason is None and is_name:
            reason = await self.check_name(host)
        if reason:
            self.refuse(request, reason)
        return None

    async def check_name(self, host: str) -> str | None:
        try:
            addresses = await self.resolve(host)
        except SsrfRefusedError as exc:
            return str(exc)
        except Exception:  # noqa: BLE001 - the download fails on its own, as a DNS error; the
            return None  # connection's lookup goes through GuardedResolver again
        return refusal(host, addresses, self.allowed)

    @staticmethod
    async def resolve_with_reactor(host: str) -> list[str]:
        from twisted.internet import reactor

        return [await maybe_deferred_to_future(reactor.resolve(host))]

    def refuse(self, request, reason: str):
        self.crawler.stats.inc_value("ssrf/refused")
        detail = f"Refused {request.url}: {reason}"
        if (host := guarded_host(request)) not in self.warned:
            self.warned.add(host)
            logger.warning("SSRF guard refused %s: %s; to crawl it, allow its network with "
                           "-s CRAWLFORGE_ALLOWED_NETWORKS=%s", host, reason, network_hint(host))
        report_failure(self.crawler, request, "ssrf", "ssrf_refused", detail)
        raise IgnoreRequest(detail)


def network_hint(host: str) -> str:
    """The CIDR of a literal address, else a placeholder for the address the name resolves to."""
    if (address := parse_host(host)) is None:
        return "<its address>/32"
    return f"{address}/{address.max_prefixlen}"


def guarded_host(request) -> str | None:
    """The host to check, for network schemes (data: and file: URLs have none to check),
    percent-decoded as a browser reads it (``%31%32%37.0.0.1`` is 127.0.0.1 to Chromium)."""
    url = urlparse_cached(request)
    return unquote(url.hostname) if url.scheme in GUARDED_SCHEMES and url.hostname else None


class GuardedResolver(CachingThreadedResolver):
    """Scrapy's caching resolver that fails lookups answering with a refused address."""

    def __init__(self, reactor, cache_size, timeout, allowed=None):
        super().__init__(reactor, cache_size, timeout)
        self.allowed = allowed

    @classmethod
    def from_crawler(cls, crawler, reactor):
        resolver = super().from_crawler(crawler, reactor)
        resolver.allowed = guard_settings(crawler.settings)
        return resolver

    def getHostByName(self, name, timeout=()):
        deferred = super().getHostByName(name, timeout)
        if self.allowed is not None:
            deferred.addCallback(self._vet, name)
        return deferred

    def _vet(self, address: str, name: str) -> str:
        if reason := refusal(name, [address], self.allowed):
            raise SsrfRefusedError(reason)
        return address
