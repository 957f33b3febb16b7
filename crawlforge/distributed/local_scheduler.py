"""The scheduler crawlforge runs with: Redis when ``CRAWLFORGE_REDIS_URL`` is set, a kill-safe
on-disk frontier when ``JOBDIR`` is set, Scrapy's own scheduler otherwise."""

from __future__ import annotations

from scrapy.core.scheduler import Scheduler as ScrapyScheduler


class Scheduler(ScrapyScheduler):
    """``SCHEDULER = "crawlforge.distributed.local_scheduler.Scheduler"`` builds the right one (a subclass of
    Scrapy's, so Scrapy's check of the scheduler interface passes)."""

    @classmethod
    def from_crawler(cls, crawler):
        if crawler.settings.get("CRAWLFORGE_REDIS_URL"):
            from crawlforge.distributed.scheduler import RedisScheduler  # scrapy-redis: harvest extra
            return RedisScheduler.from_crawler(crawler)
        if crawler.settings.get("JOBDIR"):
            from crawlforge.distributed.frontier import ResumableScheduler
            return ResumableScheduler.from_crawler(crawler)
        return super().from_crawler(crawler)
