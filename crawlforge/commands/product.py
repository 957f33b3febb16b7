"""``scrapy product URL_OR_FILE [--url URL]``: one page's product record and where each field
came from, for a quick look at what a crawl would store."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawlforge.extract.charset import decode_body
from crawlforge.extract.product import FIELDS, extract_product


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
    default_settings: ClassVar[dict[str, Any]] = {"LOG_LEVEL": "WARNING"}

    def syntax(self) -> str:
        return "URL_OR_FILE"  # a file may be gzipped (.gz), as benchmark snapshots are

    def short_desc(self) -> str:
        return "Print one page's product record (a URL, or a saved HTML file) and each field's source"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", help="the page's URL, for a file (its domain helps read a currency)")

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError()
        target = args[0]
        if Path(target).is_file():
            raw = Path(target).read_bytes()
            html = decode_body(gzip.decompress(raw) if target.endswith(".gz") else raw)["text"]
            print(report_for(html, opts.url or Path(target).resolve().as_uri()))
            return
        self.fetch_and_print(target)

    def fetch_and_print(self, url: str):
        """Fetch through the project's own downloader middlewares (robots, SSRF guard, charset)."""
        import scrapy

        reports = []

        class OnePage(scrapy.Spider):
            name = "product-command"

            async def start(self):
                yield scrapy.Request(url)

            def parse(self, response):
                reports.append(report_for(response.text, response.url))

        self.crawler_process.crawl(OnePage)
        self.crawler_process.start()
        if not reports:
            self.exitcode = 1
            print(f"No page from {url}: see the log above.")
        print("\n".join(reports))
