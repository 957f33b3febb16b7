"""Resume after a kill, the spider side: a request is done in the JOBDIR frontier only once its
callback's output was consumed and every item from it went through the pipelines; items of
requests fetched again after a kill carry ``resumed_refetch: true``."""

from __future__ import annotations

from itemadapter import ItemAdapter, is_item
from scrapy import signals
from scrapy.exceptions import NotConfigured

from crawlforge.distributed.frontier import ResumableScheduler


def mark_refetched(item) -> None:
    adapter = ItemAdapter(item)
    if "resumed_refetch" in adapter.field_names() or isinstance(item, dict):
        adapter["resumed_refetch"] = True


class ResumeMiddleware:
    """Tells the resumable scheduler when a request is done: its callback's output consumed and
    every item from it scraped, dropped or failed. Marks items of refetched requests."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.pending: dict[int, int] = {}  # id(request) -> items not yet through the pipelines
        self.exhausted: dict[int, object] = {}  # id(request) -> request, output fully consumed
        for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(self.item_finished, signal=signal)

    @classmethod
    def from_crawler(cls, crawler):
        if not crawler.settings.get("JOBDIR") or crawler.settings.get("CRAWLFORGE_REDIS_URL"):
            raise NotConfigured
        return cls(crawler)

    def scheduler(self):
        scheduler = self.crawler.engine.scheduler
        return scheduler if isinstance(scheduler, ResumableScheduler) else None

    async def process_spider_output(self, response, result):
        request = response.request
        async for element in result:
            if is_item(element):
                self.pending[id(request)] = self.pending.get(id(request), 0) + 1
                if request.meta.get("crawlforge_refetch"):
                    mark_refetched(element)
            yield element
        self.exhausted[id(request)] = request
        self.settle(request)

    def item_finished(self, item, response, **kwargs):
        request = getattr(response, "request", None)
        if request is not None and id(request) in self.pending:
            self.pending[id(request)] -= 1
            self.settle(request)

    def settle(self, request) -> None:
        if self.pending.get(id(request), 0) or id(request) not in self.exhausted:
            return
        self.pending.pop(id(request), None)
        del self.exhausted[id(request)]
        scheduler = self.scheduler()
        if scheduler is not None:  # not `if scheduler`: it has a __len__, 0 when the queue is empty
            scheduler.mark_done(request)
