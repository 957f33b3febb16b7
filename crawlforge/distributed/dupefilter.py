"""scrapy-redis' seen set, fingerprinting requests the way the crawler does; and a Bloom filter
in its place for harvests whose seen set would outgrow Redis' memory."""

from __future__ import annotations

import math

from scrapy_redis.dupefilter import RFPDupeFilter

from crawlforge.distributed import DUPEFILTER_KEY, connect

# KEYS[1]: the filter's bits; ARGV: bit positions. 1 when every bit was set already (seen).
SEEN_OR_ADD = """
local seen = 1
for i = 1, #ARGV do
  if redis.call('GETBIT', KEYS[1], ARGV[i]) == 0 then seen = 0 end
end
if seen == 0 then
  for i = 1, #ARGV do redis.call('SETBIT', KEYS[1], ARGV[i], 1) end
end
return seen
"""


class RedisDupeFilter(RFPDupeFilter):
    """scrapy-redis 0.9.1 hashes its own fingerprint (ignoring REQUEST_FINGERPRINTER_CLASS);
    this one uses the crawler's fingerprinter, so JOBDIR, the HTTP cache and Redis agree."""

    def __init__(self, server, key, debug=False, fingerprinter=None):
        super().__init__(server, key, debug)
        self.fingerprinter = fingerprinter

    @classmethod
    def from_spider(cls, spider):
        settings = spider.crawler.settings
        return cls(connect(settings), key=DUPEFILTER_KEY % {"spider": spider.name},
                   debug=settings.getbool("DUPEFILTER_DEBUG"),
                   fingerprinter=spider.crawler.request_fingerprinter, **cls.options(settings))

    @staticmethod
    def options(settings) -> dict:
        return {}

    def request_fingerprint(self, request):
        return self.fingerprinter.fingerprint(request).hex()


class BloomDupeFilter(RedisDupeFilter):
    """The seen set as a Bloom filter in one Redis string (``CRAWLFORGE_REDIS_DUPEFILTER=bloom``):
    a fixed size for ``CRAWLFORGE_BLOOM_CAPACITY`` URLs (18 MB for ten million at 0.1 %), against
    about 90 bytes per URL for the set. The price: a new URL is taken for a seen one, and skipped,
    with probability ``CRAWLFORGE_BLOOM_ERROR_RATE`` (rising past the capacity); never the
    other way round, so no page is fetched twice."""

    def __init__(self, server, key, debug=False, fingerprinter=None, capacity=10_000_000, error_rate=0.001):
        super().__init__(server, key, debug, fingerprinter)
        self.bits = max(8, math.ceil(-capacity * math.log(error_rate) / math.log(2) ** 2))
        self.hashes = max(1, round(self.bits / capacity * math.log(2)))
        self.seen_or_add = server.register_script(SEEN_OR_ADD)

    @staticmethod
    def options(settings) -> dict:
        return {"capacity": settings.getint("CRAWLFORGE_BLOOM_CAPACITY"),
                "error_rate": settings.getfloat("CRAWLFORGE_BLOOM_ERROR_RATE")}

    def positions(self, fingerprint: bytes) -> list[int]:
        """Double hashing on the fingerprint (already a uniform hash): k positions."""
        first, second = int.from_bytes(fingerprint[:8], "big"), int.from_bytes(fingerprint[8:16], "big") | 1
        return [(first + i * second) % self.bits for i in range(self.hashes)]

    def request_seen(self, request) -> bool:
        positions = self.positions(self.fingerprinter.fingerprint(request))
        return bool(self.seen_or_add(keys=[self.key], args=positions))
