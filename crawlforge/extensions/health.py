"""The health check at the end of a crawl: fill rates against a baseline (or the templates'
required fields), and the shares of blocked pages and of errors. Alarms are logged as errors,
counted in ``health/alarms`` and kept in ``health/messages``; the project's ``crawl`` command
then exits with ``EXIT_CODE``.

Settings: ``CRAWLFORGE_HEALTH_ENABLED``, ``CRAWLFORGE_HEALTH_BASELINE`` (a file written by
``scrapy health FEED --save FILE``), ``CRAWLFORGE_HEALTH_MARGIN``,
``CRAWLFORGE_HEALTH_REQUIRED_NULL_SHARE``, ``CRAWLFORGE_HEALTH_MAX_BLOCKED_SHARE``,
``CRAWLFORGE_HEALTH_MAX_ERROR_SHARE``, ``CRAWLFORGE_HEALTH_MIN_URLS``. Rules:
``crawlforge.report.health``.
"""

from __future__ import annotations

import logging

from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawlforge.report.fillrate import FillRates
from crawlforge.report.health import Outcome, Thresholds, check, load_baseline

logger = logging.getLogger(__name__)
EXIT_CODE = 3  # not 1 (a crawl that failed to start) nor 2 (a usage error)


def thresholds_from(settings) -> Thresholds:
    return Thresholds(
        margin=settings.getfloat("CRAWLFORGE_HEALTH_MARGIN"),
        required_null_share=settings.getfloat("CRAWLFORGE_HEALTH_REQUIRED_NULL_SHARE"),
        max_blocked_share=settings.getfloat("CRAWLFORGE_HEALTH_MAX_BLOCKED_SHARE"),
        max_error_share=settings.getfloat("CRAWLFORGE_HEALTH_MAX_ERROR_SHARE"),
        min_urls=settings.getint("CRAWLFORGE_HEALTH_MIN_URLS"),
    )


def outcome_from(stats: dict) -> Outcome:
    """The URL ledger's counts, and the verdict middleware's walls (``verdict/blocked/<vendor>``)."""
    blocked = sum(v for k, v in stats.items() if k.startswith("verdict/blocked/"))
    return Outcome(requested=stats.get("ledger/requested", 0), errors=stats.get("ledger/errors", 0),
                   blocked=blocked)


class HealthCheck:
    def __init__(self, crawler, baseline: FillRates | None, thresholds: Thresholds):
        self.crawler = crawler
        self.baseline = baseline
        self.thresholds = thresholds

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        if not settings.getbool("CRAWLFORGE_HEALTH_ENABLED"):
            raise NotConfigured
        path = settings.get("CRAWLFORGE_HEALTH_BASELINE")
        extension = cls(crawler, load_baseline(path) if path else None, thresholds_from(settings))
        # connected after the URL ledger (a lower EXTENSIONS number), which settles its counts first
        crawler.signals.connect(extension.spider_closed, signal=signals.spider_closed)
        return extension

    def spider_closed(self, spider, reason=None):
        stats = self.crawler.stats.get_stats()
        alarms = check(FillRates.from_stats(stats), outcome_from(stats), self.baseline, self.thresholds)
        self.crawler.stats.set_value("health/alarms", len(alarms))
        if alarms:
            self.crawler.stats.set_value("health/messages", alarms)
            logger.error("Health check failed (%d alarm%s):\n  %s", len(alarms),
                         "" if len(alarms) == 1 else "s", "\n  ".join(alarms))
