"""The one implementation behind both surfaces: each request is a crawl of the project's own
spiders on the command's crawler runner, so it goes through the same downloader middlewares and
item pipelines as ``scrapy crawl``. A request waits for one of ``CRAWLFORGE_API_MAX_CONCURRENT``
turns and ends by ``CRAWLFORGE_API_DEADLINE``, waiting included."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field

from itemadapter import ItemAdapter
from scrapy import signals
from scrapy.utils.serialize import ScrapyJSONEncoder

from crawlforge.serve.errors import BadRequest, ServiceError
from crawlforge.serve.jobs import crawl_jobs
from crawlforge.serve.jsonschema import setting_value
from crawlforge.serve.ledger import CollectingLedger
from crawlforge.serve.options import CrawlOptions, MapOptions, ScrapeOptions
from crawlforge.serve.spiders import MapSpider

ENCODER = ScrapyJSONEncoder(ensure_ascii=False)


def exported(item) -> dict:
    """The item as the JSON lines feed writes it (fields as set by the pipelines, plain JSON)."""
    return json.loads(ENCODER.encode(dict(ItemAdapter(item).items())))


@dataclass
class Collector:
    """What one crawl produced; its bound method is the signal receiver (signals hold weak refs)."""

    items: list[dict] = field(default_factory=list)

    def item_scraped(self, item, **_):
        self.items.append(exported(item))


@dataclass
class Outcome:
    items: list[dict]
    errors: list[dict]
    spider: object


def error_of(errors: list[dict], url: str) -> dict:
    """The start URL's error record (the first, when redirects renamed it), as ``{reason, ...}``."""
    records = [r for r in errors if r.get("url") == url] or errors
    if not records:
        return {"reason": "no_item", "detail": "the page produced no item", "url": url}
    record = dict(records[0])
    record.pop("at", None)
    return record


class Service:
    def __init__(self, runner):
        self.runner = runner
        settings = runner.settings
        self.deadline = settings.getfloat("CRAWLFORGE_API_DEADLINE")
        self.turns = asyncio.Semaphore(max(1, settings.getint("CRAWLFORGE_API_MAX_CONCURRENT")))
        self.map_limit = settings.getint("CRAWLFORGE_API_MAP_LIMIT")
        self.llm_configured = bool(settings.get("CRAWLFORGE_LLM_BASE_URL") and settings.get("CRAWLFORGE_LLM_MODEL"))
        self.site = runner.spider_loader.load("site")
        self.stopping: set[asyncio.Task] = set()  # crawls stopped at their deadline, still closing
        self.jobs = crawl_jobs(runner, self.site)

    async def scrape(self, options: ScrapeOptions) -> dict:
        """``{"ok": true, "item"}`` or ``{"ok": false, "error"}`` with the ledger's record."""
        arguments = options.spider_arguments() | {"follow": "0"}
        if options.schema_ is not None:
            if not self.llm_configured:
                raise BadRequest("schema: no model server is configured "
                                 "(set CRAWLFORGE_LLM_BASE_URL and CRAWLFORGE_LLM_MODEL)")
            arguments["schema"] = setting_value(options.schema_)
        outcome = await self.run(self.site, arguments)
        if outcome.items:
            return {"ok": True, "item": outcome.items[0]}
        return {"ok": False, "error": error_of(outcome.errors, options.url)}

    async def map(self, options: MapOptions) -> dict:
        """The site's URLs: its sitemaps' entries and the start page's links."""
        limit = min(options.limit or self.map_limit, self.map_limit)
        outcome = await self.run(MapSpider, {"url": options.url, "limit": str(limit)})
        urls = list(outcome.spider.found)
        # the start page ends as no_item (a map makes none); another reason is a failure
        failures = [record for record in outcome.errors if record["reason"] != "no_item"]
        if not urls and failures:
            return {"ok": False, "error": error_of(failures, options.url)}
        return {"ok": True, "url": options.url, "urls": urls}

    async def start_crawl(self, options: CrawlOptions) -> dict:
        return {"ok": True, "id": await self.jobs.start(options)}

    async def crawl_status(self, job_id: str, offset: int = 0) -> dict:
        return await self.jobs.status(job_id, offset)

    async def run(self, spidercls, arguments: dict) -> Outcome:
        """One crawl of ``spidercls`` with spider ``arguments``, answered by the deadline. The
        crawl holds its turn until it has ended: one stopped at the deadline still has a
        download to finish or cancel."""
        loop = asyncio.get_running_loop()
        end = loop.time() + self.deadline
        try:
            await asyncio.wait_for(self.turns.acquire(), self.deadline)
        except TimeoutError:
            raise ServiceError("busy", f"no free turn within {self.deadline:g} s "
                                       "(CRAWLFORGE_API_MAX_CONCURRENT requests are running)") from None
        try:
            crawler = self.runner.create_crawler(spidercls)
            collector = Collector()
            crawler.signals.connect(collector.item_scraped, signal=signals.item_scraped)
            task = self.runner.crawl(crawler, **arguments)
        except BaseException:
            self.turns.release()
            raise
        task.add_done_callback(lambda _: self.turns.release())
        done, _ = await asyncio.wait({task}, timeout=max(end - loop.time(), 0))
        if not done:
            stopping = loop.create_task(crawler.stop_async())
            self.stopping.add(stopping)
            stopping.add_done_callback(self.stopping.discard)
            raise ServiceError("deadline", f"not done within {self.deadline:g} s (CRAWLFORGE_API_DEADLINE)")
        if (error := task.exception()) is not None:
            if isinstance(error, ValueError):  # a spider argument it refused (ArgumentError)
                raise BadRequest(str(error).splitlines()[0]) from None
            raise error
        ledger = crawler.get_extension(CollectingLedger)
        return Outcome(collector.items, ledger.records if ledger else [], crawler.spider)
