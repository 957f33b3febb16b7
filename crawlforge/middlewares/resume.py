"""When a request is done, the spider side: its callback's output was consumed (or raised) and
every item from it went through the pipelines. Told to all as ``crawlforge.signals.request_done``:
the JOBDIR frontier marks the request done then, so an item is on disk before its URL is; the
ledger ends a URL that gave no item, and the page is released (``crawlforge.parsed``). Items of requests fetched
again after a kill carry ``resumed_refetch: true``."""

from __future__ import annotations

from itemadapter import ItemAdapter, is_item
from scrapy import Request, signals

from crawlforge.parsed import release
from crawlforge.signals import request_done


def mark_refetched(item) -> None:
    adapter = ItemAdapter(item)
    if "resumed_refetch" in adapter.field_names() or isinstance(item, dict):
        adapter["resumed_refetch"] = True


class ResumeMiddleware:
    """Spider middleware placed first, so it sees the final output of each callback."""

    def __init__(self, crawler):
        self.crawler = crawler
        self.pending: dict[int, int] = {}  # id(request) -> items not yet through the pipelines
        # id(request) -> (response, exception, follow-ups), once the callback's output is consumed
        self.exhausted: dict[int, tuple] = {}
        for signal in (signals.item_scraped, signals.item_dropped, signals.item_error):
            crawler.signals.connect(self.item_finished, signal=signal)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    async def process_spider_output(self, response, result):
        request = response.request
        exception, followups = None, []
        try:
            async for element in result:
                if isinstance(element, Request):
                    followups.append(element)
                elif is_item(element):
                    self.pending[id(request)] = self.pending.get(id(request), 0) + 1
                    if request.meta.get("crawlforge_refetch"):
                        mark_refetched(element)
                yield element
        except Exception as exc:  # the callback raised: done all the same, with its reason
            exception = exc
            raise
        finally:
            self.exhausted[id(request)] = (response, exception, followups)
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
        response, exception, followups = self.exhausted.pop(id(request))
        self.crawler.signals.send_catch_log(request_done, request=request, exception=exception, followups=followups)
        release(response, self.crawler.stats)
