"""Feed a crawl from the seed URLs ``scrapy seed`` pushed to Redis, and keep an idle worker
alive while other workers may still add requests to the shared queue."""

from __future__ import annotations

import json
import time

import scrapy
from scrapy import signals
from scrapy.exceptions import DontCloseSpider, NotConfigured
from crawlforge.distributed import SEEDS_KEY, connect

IDLE_POLL = 0.5  # seconds between looks at the shared queue while this worker is idle


def seed_entry(url: str) -> str:
    """What ``scrapy seed`` pushes: the JSON entry scrapy-redis' RedisSpider reads too."""
    return json.dumps({"url": url})


class RedisSeeds:
    """On every idle tick, pops a batch of seeds (``{"url": ...}`` JSON) and schedules them
    through ``spider.seed_request(url)`` (a plain request to ``spider.parse`` when the spider
    has none). A worker with nothing to do closes after ``MAX_IDLE_TIME_BEFORE_CLOSE`` seconds
    (0: never). While idle it looks at the shared queue every half second: Scrapy's own idle
    heartbeat (5 s) would leave it asleep while another worker does all the work."""

    def __init__(self, crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.server = connect(settings)
        self.batch = settings.getint("CONCURRENT_REQUESTS")
        self.max_idle = settings.getfloat("MAX_IDLE_TIME_BEFORE_CLOSE")
        self.idle_since: float | None = None
        crawler.signals.connect(self.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(self.busy, signal=signals.request_reached_downloader)

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.get("CRAWLFORGE_REDIS_URL"):
            raise NotConfigured
        return cls(crawler)

    def pop_seeds(self, spider) -> list[str]:
        key = SEEDS_KEY % {"name": spider.name}
        with self.server.pipeline() as pipe:  # a transaction: two workers never pop the same seed
            entries, _ = pipe.lrange(key, 0, self.batch - 1).ltrim(key, self.batch, -1).execute()
        return [json.loads(entry)["url"] for entry in entries]

    def seed_request(self, spider, url: str) -> scrapy.Request | None:
        make = getattr(spider, "seed_request", None)
        return make(url) if make else scrapy.Request(url, callback=spider.parse)

    def busy(self, **kwargs):
        """Work came from the shared queue: idle time counts afresh."""
        self.idle_since = None

    def spider_idle(self, spider):
        urls = self.pop_seeds(spider)
        for url in urls:
            if request := self.seed_request(spider, url):
                self.crawler.engine.crawl(request)
        self.crawler.stats.inc_value("redis/seeds", len(urls))
        if urls:
            raise DontCloseSpider
        self.idle_since = self.idle_since or time.monotonic()
        if not self.max_idle or time.monotonic() - self.idle_since < self.max_idle:
            self.wake_up_soon()
            raise DontCloseSpider

    def wake_up_soon(self) -> None:
        """Ask the engine for its next request in IDLE_POLL seconds (Scrapy has no public hook:
        this schedules the engine slot's own ``nextcall``)."""
        from twisted.internet import reactor  # the installed one, once the crawl runs

        slot = getattr(self.crawler.engine, "_slot", None)
        if slot is not None:
            reactor.callLater(IDLE_POLL, slot.nextcall.schedule)
