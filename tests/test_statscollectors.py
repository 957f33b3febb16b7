"""The stats collector: Scrapy's MemoryStatsCollector, the same counts, for every crawl."""

from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.project import get_project_settings
from scrapy.utils.test import get_crawler

from crawlforge.statscollectors import StatsCollector


def counted(stats) -> dict:
    stats.open_spider()
    stats.inc_value("pages")
    stats.inc_value("pages", 2, spider=None)  # the deprecated argument is still taken
    stats.set_value("status", "ok")
    stats.max_value("largest", 5)
    stats.max_value("largest", 3)
    stats.min_value("smallest", 5)
    stats.min_value("smallest", 3)
    return stats.get_stats()


def test_the_project_counts_with_it_and_counts_as_scrapy_does():
    crawler = get_crawler(settings_dict={"STATS_CLASS": get_project_settings()["STATS_CLASS"]})
    assert type(crawler.stats) is StatsCollector
    scrapys = counted(MemoryStatsCollector(get_crawler()))
    assert counted(crawler.stats) == scrapys == {"pages": 3, "status": "ok", "largest": 5, "smallest": 3}
