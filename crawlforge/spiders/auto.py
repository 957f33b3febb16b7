"""``scrapy crawl auto -a urls_file=FILE``: each URL goes to the template that claims it, and
any other page through the generic page pipeline, as ``site`` would (without following links)."""

from __future__ import annotations

import scrapy

from crawlforge.spiders.base import CrawlforgeSpider, is_html, page_item
from crawlforge.spiders.templates import REGISTRY, render_meta, run_template
from crawlforge.templates.registry import fetch_url


class AutoSpider(CrawlforgeSpider):
    name = "auto"

    async def start(self):
        for url in self.start_urls:
            template = REGISTRY.detect(url)
            meta = {"crawlforge_url": url, "crawlforge_template": template and template.id}
            if template is not None:
                meta.update(render_meta(template))
            yield scrapy.Request(fetch_url(template, url), callback=self.parse, meta=meta)

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
