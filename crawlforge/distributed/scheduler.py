"""scrapy-redis' scheduler, fixed for Scrapy 2.19 in a thin subclass."""

from __future__ import annotations

from scrapy.settings import Settings
from redis.exceptions import RedisError
from scrapy_redis.scheduler import Scheduler

from crawlforge.distributed import DUPEFILTER_KEY, QUEUE_KEY, unavailable

DUPEFILTERS = {"set": "crawlforge.distributed.dupefilter.RedisDupeFilter",
               "bloom": "crawlforge.distributed.dupefilter.BloomDupeFilter"}


class RedisScheduler(Scheduler):
    """Differences from scrapy-redis 0.9.1:

    - stats are counted without the ``spider=`` argument Scrapy 2.19 deprecates;
    - the queue is never popped with a blocking timeout (that would stall the reactor);
      an idle worker waits through ``MAX_IDLE_TIME_BEFORE_CLOSE`` instead (see RedisSeeds);
    - the queue and seen set persist when a worker closes, since other workers may still be
      crawling: ``scrapy seed --reset`` clears them before a new harvest.
    """

    @classmethod
    def from_crawler(cls, crawler):
        settings = Settings(crawler.settings.copy_to_dict())
        settings.set("REDIS_URL", crawler.settings.get("CRAWLFORGE_REDIS_URL"))
        settings.set("SCHEDULER_PERSIST", True)
        settings.set("SCHEDULER_IDLE_BEFORE_CLOSE", 0)
        settings.set("SCHEDULER_QUEUE_KEY", QUEUE_KEY)
        settings.set("SCHEDULER_DUPEFILTER_KEY", DUPEFILTER_KEY)
        settings.set("DUPEFILTER_CLASS", DUPEFILTERS[crawler.settings.get("CRAWLFORGE_REDIS_DUPEFILTER")])
        settings.set("SCHEDULER_QUEUE_CLASS", crawler.settings.get("CRAWLFORGE_REDIS_QUEUE_CLASS"))
        try:
            scheduler = cls.from_settings(settings)  # pings the server
        except RedisError as error:
            raise unavailable(crawler.settings, error) from None
        scheduler.stats = crawler.stats
        return scheduler

    def enqueue_request(self, request):
        if not request.dont_filter and self.df.request_seen(request):
            self.df.log(request, self.spider)
            return False
        self.queue.push(request)
        self.stats.inc_value("scheduler/enqueued/redis")
        return True

    def next_request(self):
        request = self.queue.pop(0)
        if request is not None:
            self.stats.inc_value("scheduler/dequeued/redis")
        return request
