"""Log lines that name an item by its URL instead of printing the whole item: a page item
carries its document, and a dropped page would fill the log. The per-page DEBUG lines (crawled,
scraped) are not made at all when the crawl logs above DEBUG: Scrapy would build a log record for
each that its handler then drops.

A download that failed for good (a dead host, a refused connection) is one line naming the URL
and the error; Scrapy logs it with a traceback of some 40 lines, twice with robots.txt, after a
"Gave up retrying" line saying the same. Above DEBUG those tracebacks and repeats are left out
(``QuietDownloadErrors``); at DEBUG everything is logged as Scrapy logs it."""

from __future__ import annotations

import logging

from itemadapter import ItemAdapter
from scrapy.logformatter import LogFormatter

DOWNLOAD_ERROR_LOGGERS = ("scrapy.core.scraper", "scrapy.downloadermiddlewares.robotstxt",
                          "scrapy.downloadermiddlewares.retry")


class QuietDownloadErrors(logging.Filter):
    """A download error without its traceback; a robots.txt that failed says so; "Gave up
    retrying" after an exception goes to DEBUG, since the error line that follows says it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "scrapy.downloadermiddlewares.retry":
            if isinstance(record.args, dict) and isinstance(record.args.get("reason"), BaseException):
                record.levelno, record.levelname = logging.DEBUG, "DEBUG"
            return True
        if not str(record.msg).startswith("Error downloading") or not record.exc_info:
            return True
        error = record.exc_info[1]
        record.exc_info = record.exc_text = None
        if record.name == "scrapy.downloadermiddlewares.robotstxt":
            record.msg = "robots.txt could not be fetched for %(request)s: %(f_exception)s"
        elif "%(errmsg)s" not in str(record.msg) and isinstance(record.args, dict):
            record.msg = "Error downloading %(request)s: %(error)s"
            record.args = {**record.args, "error": str(error) or type(error).__name__}
        return True


def quiet_download_errors(quiet: bool) -> None:
    """One filter on each of Scrapy's download-error loggers when ``quiet``, none otherwise (a
    process may run crawls at different levels)."""
    for name in DOWNLOAD_ERROR_LOGGERS:
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, QuietDownloadErrors)]:
            logger.removeFilter(old)
        if quiet:
            logger.addFilter(QuietDownloadErrors())


class CrawlforgeLogFormatter(LogFormatter):
    def __init__(self, log_level: int = logging.DEBUG):
        self.per_page = log_level <= logging.DEBUG

    @classmethod
    def from_crawler(cls, crawler):
        level = crawler.settings.get("LOG_LEVEL")
        level = level if isinstance(level, int) else logging.getLevelName(str(level).upper())
        level = level if isinstance(level, int) else logging.DEBUG
        quiet_download_errors(level > logging.DEBUG)
        return cls(level)

    def crawled(self, request, response, spider):
        return super().crawled(request, response, spider) if self.per_page else None

    def dropped(self, item, exception, response, spider):
        entry = super().dropped(item, exception, response, spider)
        entry["msg"] = "Dropped: %(exception)s"
        return entry

    def scraped(self, item, response, spider):
        if not self.per_page:
            return None
        entry = super().scraped(item, response, spider)
        entry["args"]["item"] = ItemAdapter(item).get("url") or type(item).__name__
        return entry
