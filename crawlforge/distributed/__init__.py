"""Distributed crawling: the frontier (queue and seen set) lives in Redis through scrapy-redis,
so any number of worker processes share one crawl. ``CRAWLFORGE_REDIS_URL`` switches it on."""

SEEDS_KEY = "%(name)s:start_urls"  # scrapy-redis' REDIS_START_URLS_KEY default
QUEUE_KEY = "%(spider)s:requests"
DUPEFILTER_KEY = "%(spider)s:dupefilter"


def redis_keys(spider_name: str) -> dict[str, str]:
    """The Redis keys a crawl of ``spider_name`` uses: seeds, request queue, seen set."""
    return {"seeds": SEEDS_KEY % {"name": spider_name},
            "queue": QUEUE_KEY % {"spider": spider_name},
            "dupefilter": DUPEFILTER_KEY % {"spider": spider_name}}


class RedisUnavailable(RuntimeError):
    """``CRAWLFORGE_REDIS_URL`` names a server that does not answer: the crawl cannot start."""


def unavailable(settings, error: Exception) -> RedisUnavailable:
    return RedisUnavailable(f"Redis at {settings.get('CRAWLFORGE_REDIS_URL')} cannot be reached ({error}): "
                            "start it, or fix CRAWLFORGE_REDIS_URL")


def connect(settings):
    """A Redis client for ``CRAWLFORGE_REDIS_URL``, with scrapy-redis' connection defaults
    (timeouts, retries) and ``REDIS_PARAMS``. scrapy-redis is imported only when used."""
    from scrapy.settings import Settings
    from scrapy_redis.connection import get_redis_from_settings

    return get_redis_from_settings(Settings({"REDIS_URL": settings.get("CRAWLFORGE_REDIS_URL"),
                                             "REDIS_PARAMS": settings.getdict("REDIS_PARAMS")}))
