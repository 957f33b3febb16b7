"""``scrapy crawl auto -a urls_file=FILE``: each URL goes to the template that claims it, and
any other page through the generic page pipeline, as ``site`` would (without following links)."""

from __future__ import annotations

import scrapy

from crawlforge.spiders.base import CrawlforgeSpider, is_html, page_item
from crawlforge.spiders.templates import REGISTRY, run_template


class AutoSpider(CrawlforgeSpider):
    name = "auto"

    async def start(self):
        for url in self.start_urls:
            template = REGISTRY.detect(url)
            resolve = getattr(template, "resolve_url", None)
            fetch_url = resolve(url) if callable(resolve) else url
            meta = {"crawlforge_url": url, "crawlforge_template": template and template.id}
            if template is not None and not callable(getattr(template, "extract", None)):
                meta["crawlforge_render"] = False  # an API answer, read as served
            yield scrapy.Request(fetch_url, callback=self.parse, meta=meta)

    def parse(self, response):
        template_id = response.meta.get("crawlforge_template")
        if template_id:
            self.crawler.stats.inc_value(f"auto/template/{template_id}")
            yield from run_template(self, REGISTRY.get(template_id), response)
        elif is_html(response):
            self.crawler.stats.inc_value("auto/generic")
            yield page_item(response)
        else:
            self.fail(response.url, "not_html", "no template claims this URL and it is not an HTML page",
                      status=response.status)
