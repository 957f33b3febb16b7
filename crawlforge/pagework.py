"""A big page's pure work (parse, verdict, structured data, markdown, structure signature) runs
off the reactor thread.

An ordinary page costs milliseconds; a page of many megabytes costs seconds, and on the reactor
thread those seconds stop every download, timer and other page of the crawl. A page of at least
``CRAWLFORGE_PAGE_THREAD_MIN_CHARS`` characters is worked on in one worker thread instead: one,
so that two huge pages are never parsed at once. Smaller pages stay on the reactor, where the
hop to a thread would cost more than their work; 0 keeps every page there. Stats:
``pagework/threaded``.
"""

from __future__ import annotations

from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.threads import deferToThreadPool
from twisted.python.threadpool import ThreadPool


class PageWork:
    def __init__(self, crawler):
        self.stats = crawler.stats
        self.min_chars = crawler.settings.getint("CRAWLFORGE_PAGE_THREAD_MIN_CHARS")
        self.pool: ThreadPool | None = None

    @classmethod
    def of(cls, crawler) -> PageWork:
        """The crawl's one instance, shared by the components that work on pages."""
        work = getattr(crawler, "crawlforge_page_work", None)
        if work is None:
            work = crawler.crawlforge_page_work = cls(crawler)
        return work

    async def run(self, html: str | None, function, *args, **kwargs):
        """``function(*args, **kwargs)``, in the worker thread when ``html`` is big."""
        if not html or not self.min_chars or len(html) < self.min_chars:
            return function(*args, **kwargs)
        from twisted.internet import reactor  # noqa: PLC0415 - imported early it would install the default one

        if self.pool is None:
            self.pool = ThreadPool(1, 1, "crawlforge-pages")
            self.pool.start()
            reactor.addSystemEventTrigger("during", "shutdown", self.pool.stop)
        self.stats.inc_value("pagework/threaded")
        return await maybe_deferred_to_future(deferToThreadPool(reactor, self.pool, function, *args, **kwargs))
