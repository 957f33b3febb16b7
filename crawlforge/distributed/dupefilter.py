"""scrapy-redis' seen set, fingerprinting requests the way the crawler does."""

from __future__ import annotations

from scrapy_redis.dupefilter import RFPDupeFilter

from crawlforge.distributed import DUPEFILTER_KEY, connect


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
                   fingerprinter=spider.crawler.request_fingerprinter)

    def request_fingerprint(self, request):
        return self.fingerprinter.fingerprint(request).hex()
