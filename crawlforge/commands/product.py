"""``scrapy product URL_OR_FILE [--url URL]``: one page's product record and where each field
came from, for a quick look at what a crawl would store.

Its input is read as ``scrapy markdown`` reads it: a missing, binary or non-HTML file is one line
and exit 2, a gzipped page is unzipped, a page that could not be fetched is exit 1."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlparse
from urllib.request import url2pathname

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawlforge.commands.markdown import BAD_INPUT, read_page_file, target_url
from crawlforge.extract.charset import decode_body
from crawlforge.extract.product import FIELDS, extract_product

logger = logging.getLogger(__name__)


def report_for(html: str, url: str) -> str:
    """Each field with its value and source, then whether the page is a product page and
    any reader's warning."""
    record = extract_product(html, url)
    width = max(map(len, FIELDS))
    lines = [f"url: {url}", f"is_product: {json.dumps(record['is_product'])}"]
    for key in FIELDS:
        value = record[key]
        shown = f"{len(value)} variants" if key == "variants" and value else json.dumps(value, ensure_ascii=False)
        if key == "description" and value and len(shown) > 120:
            shown = shown[:117] + "..."
        source = record["provenance"].get(key)
        lines.append(f"{key:<{width}}  {shown}" + (f"  ({source})" if source else ""))
    lines += [f"warning: {warning}" for warning in record["warnings"]]
    return "\n".join(lines)


class Command(ScrapyCommand):
    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"CRAWLFORGE_PROGRESS_INTERVAL": 0}

    def syntax(self) -> str:
        return "URL_OR_FILE"  # a file may be gzipped (.gz), as benchmark snapshots are

    def short_desc(self) -> str:
        return "Print one page's product record (a URL, or a saved HTML file) and each field's source"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", help="the page's URL, for a file (its domain helps read a currency)")

    def process_options(self, args, opts):
        super().process_options(args, opts)
        if opts.loglevel is None and not opts.nolog:  # the project's INFO would bury the record
            self.settings.set("LOG_LEVEL", "WARNING", priority="cmdline")

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError()
        url, problem = target_url(args[0])
        if problem:
            logger.error("%s", problem)
            self.exitcode = BAD_INPUT
            return
        if url.startswith("file:"):
            html = decode_body(read_page_file(Path(url2pathname(urlparse(url).path))))["text"]
            print(report_for(html, opts.url or url))
            return
        self.fetch_and_print(url)

    def fetch_and_print(self, url: str):
        """Fetch through the project's own downloader middlewares (robots, SSRF guard, charset)."""
        import scrapy
        from scrapy.spidermiddlewares.httperror import HttpError

        reports, failures = [], []

        class OnePage(scrapy.Spider):
            name = "product-command"

            async def start(self):
                yield scrapy.Request(url, errback=self.failed)

            def parse(self, response):
                if not hasattr(response, "text"):
                    failures.append("not an HTML page")
                else:
                    reports.append(report_for(response.text, response.url))

            def failed(self, failure):
                if failure.check(HttpError):
                    failures.append(f"HTTP {failure.value.response.status}")
                else:
                    failures.append(failure.getErrorMessage() or type(failure.value).__name__)

        self.crawler_process.crawl(OnePage)
        self.crawler_process.start()
        if reports:
            print("\n".join(reports))
            return
        logger.error("No page from %s: %s", url, failures[0] if failures else "see the log above")
        self.exitcode = BAD_INPUT if failures == ["not an HTML page"] else 1
