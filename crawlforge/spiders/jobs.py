"""``scrapy crawl jobs -a boards_file=FILE``: many job boards across platforms into one feed of
job items, all of the one job shape.

A boards file has one board a line: a board URL (``https://boards.greenhouse.io/stripe``,
``https://jobs.lever.co/leverdemo``), whose platform is detected, or a connector id followed by
a company (``ashby-jobs ramp``) or by the API URL to read (``lever-postings https://...``).
"""

from __future__ import annotations

import scrapy

from crawlforge.args import ArgumentError
from crawlforge.spiders.base import CrawlforgeSpider, read_urls_file
from crawlforge.spiders.templates import JOB_SOURCES, REGISTRY, render_meta, run_template
from crawlforge.templates.registry import fetch_url


def board_request(line: str) -> tuple[str, str]:
    """(connector id, URL to fetch) for one line of a boards file."""
    first, _, rest = line.partition(" ")
    rest = rest.strip()
    if first in JOB_SOURCES:
        template = REGISTRY.get(first)
        if rest.startswith(("http://", "https://")):
            return first, rest
        return first, template.list_url({"company": rest})
    template = REGISTRY.detect(first)
    if template is None or template.id not in JOB_SOURCES:
        raise ArgumentError(f"No job-board connector claims {first!r}; write the connector id before it, "
                         f"one of: {', '.join(sorted(JOB_SOURCES))}")
    return template.id, fetch_url(template, first)


class JobsSpider(CrawlforgeSpider):
    name = "jobs"
    allow_no_urls = True

    def __init__(self, boards_file: str | None = None, **kwargs):
        super().__init__(**kwargs)
        if not boards_file:
            raise ArgumentError("jobs: give -a boards_file=FILE (one board URL, or 'connector-id company', a line)")
        self.boards = [board_request(line) for line in read_urls_file(boards_file)]

    async def start(self):
        for template_id, url in self.boards:
            yield scrapy.Request(url, callback=self.parse,
                                 meta={"crawlforge_template": template_id, **render_meta(REGISTRY.get(template_id))})

    def parse(self, response):
        template_id = response.meta["crawlforge_template"]
        self.crawler.stats.inc_value(f"jobs/boards/{template_id}")
        yield from run_template(self, REGISTRY, REGISTRY.get(template_id), response)
