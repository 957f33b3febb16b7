"""Politeness shared by every worker of a Redis crawl: a host's delay and concurrency hold for
the whole crawl, not for each process.

Each worker's download slot spaces its own requests (robots.txt ``Crawl-delay``, a template's
pacing, ``DOWNLOAD_DELAY``, AutoThrottle); N workers alone would send a host N times that rate.
Here, before a request goes to its slot, the worker takes one of the host's
``CONCURRENT_REQUESTS_PER_DOMAIN`` leases in Redis and then reserves the host's next start time,
``delay`` seconds after the previous reservation of any worker, and waits for it. Both steps are
one Lua script each, so they are atomic, and both read Redis' clock, so workers on machines whose
clocks differ still agree. A lease is given back when the response (or the failure) comes back,
and expires after ``CRAWLFORGE_POLITENESS_LEASE_SECONDS`` if its worker died holding it.

Stats: ``politeness/waited`` (requests that waited for their host), ``politeness/wait_seconds``
(their total wait) and ``politeness/max_wait_seconds``.
"""

from __future__ import annotations

import asyncio
import time
import uuid

from scrapy.exceptions import NotConfigured

from crawlforge.distributed import connect

KEY = "crawlforge:politeness:%s"
LEASE_KEY = "crawlforge_politeness_lease"
LEASE_POLL_SECONDS = 0.1

# KEYS[1]: the host's next start time; ARGV[1]: the host's delay. Returns the wait, in seconds.
RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local start = math.max(now, tonumber(redis.call('GET', KEYS[1]) or '0'))
local delay = tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.6f', start + delay), 'EX', math.ceil(delay) + 3600)
return string.format('%.6f', start - now)
"""
# KEYS[1]: the host's leases (member: lease id, score: expiry); ARGV: limit, lease seconds, id.
LEASE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 60)
return 1
"""


class SharedPolitenessMiddleware:
    """Downloader middleware, after robots.txt and Crawl-delay (it reads the slot they set)."""

    def __init__(self, crawler, server):
        self.crawler = crawler
        self.stats = crawler.stats
        self.server = server
        self.reserve = server.register_script(RESERVE)
        self.lease = server.register_script(LEASE)
        settings = crawler.settings
        self.per_host = settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN")
        self.lease_seconds = settings.getfloat("CRAWLFORGE_POLITENESS_LEASE_SECONDS")

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.get("CRAWLFORGE_REDIS_URL") or not settings.getbool("CRAWLFORGE_SHARED_POLITENESS"):
            raise NotConfigured
        return cls(crawler, connect(settings))

    async def process_request(self, request):
        self.release(request)  # a retry or a redirect copies the meta of a request that held one
        key, slot = self.crawler.engine.downloader._get_slot(request)
        waited = await self.take_lease(request, KEY % f"{key}:leases")
        delay = max(slot.delay, 0.0)
        if delay:
            wait = float(self.reserve(keys=[KEY % f"{key}:next"], args=[delay]))
            if wait > 0:
                await asyncio.sleep(wait)
                waited += wait
            # the reservation spaced this request from every worker's, this one's included:
            # the local slot must not add its own delay on top
            slot.lastseen = min(slot.lastseen, time.monotonic() - delay)  # the slot's clock
        if waited:
            self.stats.inc_value("politeness/waited")
            self.stats.inc_value("politeness/wait_seconds", waited)
            self.stats.max_value("politeness/max_wait_seconds", waited)

    async def take_lease(self, request, leases_key: str) -> float:
        """Wait for one of the host's leases; the seconds waited."""
        lease_id, waited = uuid.uuid4().hex, 0.0
        while not self.lease(keys=[leases_key], args=[self.per_host, self.lease_seconds, lease_id]):
            await asyncio.sleep(LEASE_POLL_SECONDS)
            waited += LEASE_POLL_SECONDS
        request.meta[LEASE_KEY] = (leases_key, lease_id)
        return waited

    def release(self, request) -> None:
        held = request.meta.pop(LEASE_KEY, None)
        if held:
            self.server.zrem(*held)

    def process_response(self, request, response):
        self.release(request)
        return response

    def process_exception(self, request, exception):
        self.release(request)
