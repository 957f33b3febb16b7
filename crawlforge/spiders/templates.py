"""One spider per site template, generated from the registry: ``scrapy crawl <template-id>``.

Entity templates (a product, a repository, a question) take ``-a url=URL`` or
``-a urls_file=FILE``; each URL is rewritten to the template's fetch URL and yields one item
carrying the template's fields (plus the page pipeline's output when the response is a page).
List connectors (a Shopify collection, a job board) also take their parameters as spider
arguments (``-a store=... -a collection=...``, ``-a company=...``) and yield one item per
entry, following the connector's pages until the list ends.
"""

from __future__ import annotations

import os
import re

import scrapy

from crawlforge.args import ArgumentError, flag_or_text
from crawlforge.items import Job, Page
from crawlforge.spiders.base import CrawlforgeSpider, content_type, is_html, page_item
from crawlforge.templates import TEMPLATES, TemplateError, TemplateRegistry
from crawlforge.templates.ats import ATS_TEMPLATES
from crawlforge.templates.registry import fetch_url

REGISTRY = TemplateRegistry()
JOB_SOURCES = frozenset(template.id for template in ATS_TEMPLATES)
# What a connector's next page keeps of the request meta (a new URL: not the ledger id).
PAGE_META = ("crawlforge_template", "crawlforge_render")


def render_meta(template) -> dict:
    """API answers (JSON, RSS) are read as served; only HTML templates may need a browser."""
    return {} if callable(getattr(template, "extract", None)) else {"crawlforge_render": False}


class TemplateSpider(CrawlforgeSpider):
    """Runs its ``template`` on every response it fetches."""

    template = None  # set on each generated class, with a registry of it alone, built once
    registry = None
    allow_no_urls = True  # a list connector may be driven by its parameters alone

    def __init__(self, url=None, urls_file=None, **params):
        super().__init__(url=url, urls_file=urls_file)
        self.params = {**getattr(self.template, "default_params", {}),
                       **{name: flag_or_text(value) for name, value in params.items()}}

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.resolve_api_key(crawler.settings)
        if not spider.start_urls:
            if not callable(getattr(spider.template, "list_url", None)):
                raise ArgumentError(f"{spider.name}: give -a url=URL or -a urls_file=FILE")
            try:
                spider.list_start_url = spider.template.list_url(spider.params)
            except TemplateError as error:  # a bad parameter stops the crawl here
                raise ArgumentError(str(error)) from None
        return spider

    def resolve_api_key(self, settings) -> None:
        """A connector that needs a key gets it from the environment variable (or setting) it
        names; without one the crawl stops before any request, naming what to set."""
        if not getattr(self.template, "requires_api_key", False):
            return
        name = self.template.credential_ref
        key = self.params.get("api_key") or os.environ.get(name) or settings.get(name)
        if not key:
            raise ArgumentError(f'{self.name} needs an API key: set the environment variable "{name}" '
                                f"(or the Scrapy setting of that name).")
        self.params["api_key"] = key

    async def start(self):
        meta = render_meta(self.template)
        for url in self.start_urls:
            yield scrapy.Request(fetch_url(self.template, url), callback=self.parse,
                                 meta={**meta, "crawlforge_url": url})
        if not self.start_urls:
            yield scrapy.Request(self.list_start_url, callback=self.parse, meta=meta)

    def parse(self, response):
        yield from run_template(self, self.registry, self.template, response, self.params)


def template_failure(template, error: Exception) -> tuple[str, str]:
    """(reason, detail) of a body the template rejected or could not read."""
    reason = "template_rejected" if isinstance(error, TemplateError) else "template_error"
    return reason, f"{template.id}: {error}"


def run_template(spider: CrawlforgeSpider, registry: TemplateRegistry, template, response,
                 params: dict | None = None):
    """Items (or next-page requests) from one template response; a rejected body ends the URL
    with an error record instead of an item of nulls."""
    try:
        yield from template_results(registry, template, response, params)
    except (TemplateError, ValueError) as error:
        url = response.meta.get("crawlforge_url", response.url)
        spider.fail(url, *template_failure(template, error), stage="template", status=response.status)


def template_results(registry: TemplateRegistry, template, response, params: dict | None = None):
    """What ``template`` makes of a response; raises ``TemplateError``/``ValueError`` on a body
    it rejects, before anything is yielded."""
    if callable(getattr(template, "extract_list", None)):
        return list_items(registry, template, response, params)
    return [entity_item(registry, template, response)]


def entity_item(registry: TemplateRegistry, template, response) -> Page:
    url = response.meta.get("crawlforge_url", response.url)
    result = registry.run(template.id, response.text, url, fetched_url=response.url)
    fields = {"template": template.id, "template_data": result["data"],
              "template_warnings": result.get("warnings", [])}
    if is_html(response):
        return page_item(response, **fields)
    return Page(url=url, final_url=response.url, status=response.status,
                content_type=content_type(response) or None, **fields)


def list_items(registry: TemplateRegistry, template, response, params: dict | None) -> list:
    data = registry.run_list(template.id, response.text, url=response.url, params=params)["data"]
    entries = data.get("items", [])
    results = [Job(**entry) if template.id in JOB_SOURCES else {"template": template.id, **entry}
               for entry in entries]
    next_page = getattr(template, "next_page_url", None)
    if entries and callable(next_page) and (next_url := next_page(response.url, data)):
        results.append(scrapy.Request(next_url, callback=response.request.callback,
                                      meta={key: response.meta[key] for key in PAGE_META if key in response.meta}))
    return results


def spider_class(template) -> type[TemplateSpider]:
    class_name = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", template.id)) + "Spider"
    attributes = {"name": template.id, "template": template, "registry": TemplateRegistry([template]),
                  "__module__": __name__, "__doc__": f"{template.name}: {template.description}"}
    if delay := getattr(template, "crawl_delay_seconds", None):
        # Scrapy's per-slot delay, and the floor AutoThrottle never goes below
        attributes["custom_settings"] = {"DOWNLOAD_DELAY": delay, "CRAWLFORGE_CRAWL_DELAY": delay}
    return type(class_name, (TemplateSpider,), attributes)


globals().update({cls.__name__: cls for cls in map(spider_class, TEMPLATES)})
