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
from w3lib.url import add_or_replace_parameter

from crawlforge.items import Page
from crawlforge.args import SPIDER_ARGUMENTS, flag_or_text
from crawlforge.spiders.base import CrawlforgeSpider, content_type, is_html, page_item
from crawlforge.templates import TEMPLATES, MissingApiKeyError, TemplateError, TemplateRegistry
from crawlforge.templates.ats import ATS_TEMPLATES
from crawlforge.items import Job
from crawlforge.templates.registry import fetch_url

REGISTRY = TemplateRegistry()
JOB_SOURCES = frozenset(template.id for template in ATS_TEMPLATES)
# What a connector's next page keeps of the request meta (a new URL: not the ledger id).
PAGE_META = ("crawlforge_template", "crawlforge_render")
# Shopify answers up to 250 products a page; asking for fewer only means more requests.
DEFAULT_LIST_PARAMS = {"shopify-collection": {"limit": "250"}}


# The NPI registry silently caps `skip` at 1000 instead of failing, so paging stops there.
MAX_SKIP = 1000


def next_page_url(url: str, data: dict) -> str | None:
    """The connector's next page, from the paging fields its list result carries."""
    if data.get("has_more") and data.get("page"):
        return add_or_replace_parameter(url, "page", str(int(data["page"]) + 1))
    if data.get("more_possible") and data.get("limit"):
        skip = int(data.get("skip") or 0) + int(data["limit"])
        return add_or_replace_parameter(url, "skip", str(skip)) if skip <= MAX_SKIP else None
    return None


def render_meta(template) -> dict:
    """API answers (JSON, RSS) are read as served; only HTML templates may need a browser."""
    return {} if callable(getattr(template, "extract", None)) else {"crawlforge_render": False}


class TemplateSpider(CrawlforgeSpider):
    """Runs its ``template`` on every response it fetches."""

    template = None  # set on each generated class
    allow_no_urls = True  # a list connector may be driven by its parameters alone

    def __init__(self, url=None, urls_file=None, **params):
        options = {name: params.pop(name) for name in SPIDER_ARGUMENTS if name in params}  # settings by now
        super().__init__(url=url, urls_file=urls_file, **options)
        self.params = {**DEFAULT_LIST_PARAMS.get(self.template.id, {}),
                       **{name: flag_or_text(value) for name, value in params.items()}}

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        spider.resolve_api_key(crawler.settings)
        if not spider.start_urls:
            if not callable(getattr(spider.template, "list_url", None)):
                raise ValueError(f"{spider.name}: give -a url=URL or -a urls_file=FILE")
            spider.list_start_url = spider.template.list_url(spider.params)  # a bad parameter stops here
        return spider

    def resolve_api_key(self, settings) -> None:
        """A connector that needs a key gets it from the environment variable (or setting) it
        names; without one the crawl stops before any request, naming what to set."""
        if not getattr(self.template, "requires_api_key", False):
            return
        name = self.template.credential_ref
        key = self.params.get("api_key") or os.environ.get(name) or settings.get(name)
        if not key:
            raise MissingApiKeyError(f'{self.name} needs an API key: set the environment variable "{name}" '
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
        yield from run_template(self, self.template, response, self.params)


def run_template(spider: CrawlforgeSpider, template, response, params: dict | None = None):
    """Items (or next-page requests) from one template response; a rejected body ends the URL
    with an error record instead of an item of nulls."""
    url = response.meta.get("crawlforge_url", response.url)
    try:
        if callable(getattr(template, "extract_list", None)):
            yield from list_items(template, response, params)
        else:
            yield entity_item(template, response, url)
    except (TemplateError, ValueError) as error:
        reason = "template_rejected" if isinstance(error, TemplateError) else "template_error"
        spider.fail(url, reason, f"{template.id}: {error}", stage="template", status=response.status)


def entity_item(template, response, url: str) -> Page:
    result = TemplateRegistry([template]).run(template.id, response.text, url, fetched_url=response.url)
    fields = {"template": template.id, "template_data": result["data"],
              "template_warnings": result.get("warnings", [])}
    if is_html(response):
        return page_item(response, **fields)
    return Page(url=url, final_url=response.url, status=response.status,
                content_type=content_type(response) or None, **fields)


def list_items(template, response, params: dict | None):
    result = TemplateRegistry([template]).run_list(template.id, response.text, url=response.url, params=params)
    data = result["data"]
    for entry in data.get("items", []):
        yield Job(**entry) if template.id in JOB_SOURCES else {"template": template.id, **entry}
    if data.get("items") and (next_url := next_page_url(response.url, data)):
        yield scrapy.Request(next_url, callback=response.request.callback,
                             meta={key: response.meta[key] for key in PAGE_META if key in response.meta})


def spider_class(template) -> type[TemplateSpider]:
    class_name = "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", template.id)) + "Spider"
    attributes = {"name": template.id, "template": template, "__module__": __name__,
                  "__doc__": f"{template.name}: {template.description}"}
    if delay := getattr(template, "crawl_delay_seconds", None):
        attributes["download_delay"] = delay  # Scrapy's per-slot delay; AutoThrottle never goes below it
        attributes["crawl_delay_seconds"] = delay
    return type(class_name, (TemplateSpider,), attributes)


globals().update({cls.__name__: cls for cls in map(spider_class, TEMPLATES)})
