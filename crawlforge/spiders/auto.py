"""``scrapy crawl auto -a urls_file=FILE``: each URL goes to the template that claims it, and
any other page through the generic page pipeline, as ``site`` would (without following links).

A template that claims a URL may still leave it: it rejects the answer (a site that only
shares the URL shape, a wall), or its endpoint answers an HTTP error. The page itself is then
fetched and processed as a generic page, and its item's ``template_fallback`` says which
template was tried and why it was left (stats ``auto/fallback/<template>``).
"""

from __future__ import annotations

import scrapy
from scrapy.spidermiddlewares.httperror import HttpError

from crawlforge.extensions.ledger import ID_KEY
from crawlforge.spiders.base import CrawlforgeSpider, content_type, is_html, is_pdf_response, page_item, pdf_item
from crawlforge.spiders.templates import REGISTRY, render_meta, template_failure, template_results
from crawlforge.templates import TemplateError
from crawlforge.templates.registry import fetch_url


class AutoSpider(CrawlforgeSpider):
    name = "auto"

    async def start(self):
        for url in self.start_urls:
            template = REGISTRY.route(url)
            meta = {"crawlforge_url": url, "crawlforge_template": template and template.id}
            if template is None:
                yield scrapy.Request(url, callback=self.parse, meta=meta)
                continue
            meta.update(render_meta(template))
            yield scrapy.Request(fetch_url(template, url), callback=self.parse, errback=self.template_failed,
                                 meta=meta)

    def parse(self, response):
        template_id = response.meta.get("crawlforge_template")
        if not template_id:
            yield from self.generic(response)
            return
        template = REGISTRY.get(template_id)
        self.crawler.stats.inc_value(f"auto/template/{template_id}")
        try:
            results = template_results(REGISTRY, template, response)
        except (TemplateError, ValueError) as error:
            results = self.fall_back(response.request, template, *template_failure(template, error), response)
        yield from results

    def template_failed(self, failure):
        """The template's endpoint failed (an HTTP error, a refused connection): read the page instead."""
        request = failure.request
        template = REGISTRY.get(request.meta["crawlforge_template"])
        if fetch_url(template, request.meta["crawlforge_url"]) == request.meta["crawlforge_url"]:
            return []  # the page itself failed: it would fail again, and the ledger records why
        if failure.check(HttpError):
            detail = f"{request.url} answered HTTP {failure.value.response.status}"
        else:
            detail = f"{request.url}: {failure.getErrorMessage()}"
        return self.fall_back(request, template, "template_fetch_failed", f"{template.id}: {detail}")

    def fall_back(self, request, template, reason: str, detail: str, response=None) -> list:
        """Process the URL as a generic page after ``template`` left it: the response itself when
        the template read the page URL, else a new fetch of the page."""
        url = request.meta["crawlforge_url"]
        fallback = {"template": template.id, "reason": reason, "detail": detail}
        self.logger.info("%s left %s (%s); reading it as a generic page", template.id, url, detail)
        self.crawler.stats.inc_value(f"auto/fallback/{template.id}")
        if response is not None and fetch_url(template, url) == url:
            return self.generic(response, fallback)
        meta = {"crawlforge_url": url, "crawlforge_template": None, "crawlforge_fallback": fallback}
        if ID_KEY in request.meta:
            meta[ID_KEY] = request.meta[ID_KEY]  # one URL to the ledger, settled by the page's item
        return [scrapy.Request(url, callback=self.parse, meta=meta, dont_filter=True)]

    def generic(self, response, fallback: dict | None = None) -> list:
        fallback = fallback or response.meta.get("crawlforge_fallback")
        if is_pdf_response(response):
            return [pdf_item(response, template_fallback=fallback)]
        if is_html(response):
            self.crawler.stats.inc_value("auto/generic")
            return [page_item(response, template_fallback=fallback)]
        if fallback:
            detail = (f"{fallback['detail']}; as a generic page it is not HTML either "
                      f"(served as {content_type(response) or 'no type'})")
        else:
            detail = "no template claims this URL and it is not an HTML page"
        self.fail(response.url, "not_html", detail, status=response.status)
        return []
