"""``scrapy crawl``, with an exit code that says how the crawl went (README "Exit codes and
errors"): 0 it produced items, 1 it produced none and URLs failed, or its feed could not be
written, or it could not start, 2 a bad argument or setting (one line, before any request), 3 a
health alarm. Its last log line sums the crawl up either way.

Scrapy's own command exits 0 whatever happened during the crawl, and a spider that refuses its
arguments leaves two tracebacks; this one keeps Scrapy's behaviour otherwise. Only an
``ArgumentError`` (crawlforge.args) is a bad argument: any other exception that stops the crawl
is a bug and keeps its traceback.
"""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path
from urllib.parse import urlparse

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError
from twisted.internet.defer import Deferred

from crawlforge.args import ArgumentError, writable_file
from crawlforge.distributed import RedisUnavailable
from crawlforge.extensions.health import EXIT_CODE

logger = logging.getLogger(__name__)
NO_ITEM, BAD_ARGUMENTS = 1, 2
# the files a crawl writes, checked before any request
OUTPUT_SETTINGS = ("CRAWLFORGE_ERRORS_FEED", "CRAWLFORGE_STATS_FILE")


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else many or word + 's'}"


def reasons_text(stats: dict) -> str:
    """``ssrf_refused 2, http_error 1``: the error records by reason, most first (ties by name)."""
    reasons = Counter({key.removeprefix("ledger/errors/"): value for key, value in stats.items()
                       if key.startswith("ledger/errors/") and value})
    reasons["unmatched"] += stats.get("ledger/unmatched_errors", 0)
    return ", ".join(f"{reason} {n}" for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])) if n)


def failed_urls(stats: dict) -> int:
    return sum(value for key, value in stats.items() if key.startswith("ledger/errors/")) \
        + stats.get("ledger/unmatched_errors", 0)


def failure_summary(stats: dict) -> str | None:
    """``no item: 2 URLs failed (ssrf_refused 1, http_error 1)``, or None when the crawl
    produced an item or nothing failed."""
    if stats.get("item_scraped_count"):
        return None
    total = failed_urls(stats)
    if not total:
        return None
    return f"no item: {plural(total, 'URL')} failed ({reasons_text(stats)})"


def finished_summary(stats: dict) -> str:
    """``12 items, 2 URLs failed (http_error 2)``; for a crawl that found nothing to fetch, why."""
    failed = failed_urls(stats)
    text = f"{plural(stats.get('item_scraped_count', 0), 'item')}, {plural(failed, 'URL')} failed"
    if failed:
        text += f" ({reasons_text(stats)})"
    if skipped := stats.get("sitemap/skipped_lastmod"):
        text += f"; {plural(skipped, 'sitemap entry', 'sitemap entries')} older than lastmod_after skipped"
    if not stats.get("ledger/requested") and not stats.get("item_scraped_count"):
        text += "; no page was requested"
    return text


def feed_failures(stats: dict) -> int:
    return sum(value for key, value in stats.items() if key.startswith("feedexport/failed_count/"))


def local_path(uri: str) -> Path | None:
    """The file a feed URI names on this machine (a plain path or ``file://``), else None."""
    if "%(" in uri:  # a templated name (%(name)s, %(time)s): the folder before it is fixed
        uri = uri.split("%(")[0] + "feed"
    parsed = urlparse(uri)
    if parsed.scheme == "file":
        return Path(parsed.path)
    if not parsed.scheme or len(parsed.scheme) == 1:  # no scheme, or a Windows drive letter
        return Path(uri)
    return None


def check_outputs(settings) -> None:
    """Every local file the crawl will write (its feeds, errors feed and stats file) can be: a
    feed that cannot be written is found before any request, not after every page."""
    for uri in settings.getdict("FEEDS"):
        if (path := local_path(str(uri))) is not None:
            writable_file(path, "the feed")
    for name in OUTPUT_SETTINGS:
        if (uri := settings.get(name)) and (path := local_path(uri)) is not None:
            writable_file(path, name)


def known_error(error: BaseException | None) -> BaseException | None:
    """The ``ArgumentError`` or ``RedisUnavailable`` that stopped the crawl, when one did: Scrapy
    may raise another error (``Engine slot not assigned``) while closing after it."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, (ArgumentError, RedisUnavailable)):
            return error
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return None


class Command(ScrapyCrawlCommand):
    crawler = None

    def _create_crawler(self, spidercls):
        self.crawler = super()._create_crawler(spidercls)
        return self.crawler

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError("give one spider: scrapy crawl SPIDER" if not args else
                             "running 'scrapy crawl' with more than one spider is not supported")
        self.bootstrap_error = None
        try:
            crawler = self._create_crawler(args[0])
        except KeyError:
            logger.error("No spider named %r: `scrapy list` names them", args[0])
            self.exitcode = BAD_ARGUMENTS
            return
        try:
            check_outputs(self.settings)
            started = self.crawler_process.crawl(crawler, **opts.spargs)
            self.watch(started)
            self.crawler_process.start()
        except ArgumentError as error:  # a setting read as the reactor starts (the SSRF guard's)
            self.bootstrap_error = error
        self.exitcode = self.outcome()

    def watch(self, started) -> None:
        """Keep an exception that stopped the crawl before it ran, instead of letting asyncio
        (or Twisted) print it as unhandled."""
        if isinstance(started, Deferred):
            started.addErrback(lambda failure: setattr(self, "bootstrap_error", failure.value))
        else:
            started.add_done_callback(self.task_done)

    def task_done(self, task) -> None:
        if not task.cancelled() and task.exception() is not None:
            self.bootstrap_error = task.exception()

    def outcome(self) -> int:
        error = self.bootstrap_error
        if isinstance(known := known_error(error), ArgumentError):
            name, message = self.crawler.spidercls.name, str(known)
            logger.error("%s", message if message.startswith(f"{name}:") else f"{name}: {message}")
            return BAD_ARGUMENTS
        if known is not None:
            logger.error("The crawl could not start: %s", known)
            return 1
        if error is not None:
            logger.error("The crawl could not start", exc_info=error)
            return 1
        if self.crawler_process.bootstrap_failed:
            return 1
        stats = self.crawler.stats.get_stats()
        if failed := feed_failures(stats):
            logger.error("Crawl failed: %s could not be written (see the errors above); %s",
                         plural(failed, "feed"), finished_summary(stats))
            return 1
        if summary := failure_summary(stats):
            logger.error("Crawl failed: %s", summary)
            return NO_ITEM
        if alarms := stats.get("health/messages"):  # the health check logged them: not again
            logger.error("Crawl failed its health check (%s above): %s", plural(len(alarms), "alarm"),
                         finished_summary(stats))
            return EXIT_CODE
        if stats.get("item_scraped_count"):
            logger.info("Crawl finished: %s", finished_summary(stats))
        else:  # nothing failed, yet nothing came: say why, as loudly as a failure
            logger.warning("Crawl finished with no item: %s", finished_summary(stats))
        return 0
