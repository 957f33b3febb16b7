"""``scrapy report ITEMS.jsonl [ERRORS.jsonl] -o report.html``: the crawl at a glance, as one
self-contained HTML file (charts inline, nothing fetched when it opens).

Without ERRORS.jsonl, the errors feed of the same run is read (``ITEMS.errors.jsonl``, where the
URL ledger writes it by default), and its stats from ``ITEMS.stats.json`` when the crawl wrote it.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, ClassVar

from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError

from crawlforge.args import ArgumentError, writable_file
from crawlforge.report.feed import read_jsonl, read_stats, sibling
from crawlforge.report.html import render
from crawlforge.report.summary import summarise

BAD_INPUT = 2


def errors_path(items_path: Path, given: str | None) -> Path | None:
    if given:
        return Path(given)
    beside = sibling(items_path, "errors.jsonl")
    return beside if beside.exists() else None


class Command(ScrapyCommand):
    requires_project = False
    requires_crawler_process = False
    default_settings: ClassVar[dict[str, Any]] = {"LOG_ENABLED": False}

    def syntax(self) -> str:
        return "ITEMS.jsonl [ERRORS.jsonl] -o report.html"

    def short_desc(self) -> str:
        return "Write a self-contained HTML report of a crawl's items and errors feeds"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("-o", "--output", metavar="FILE", default="report.html",
                            help="the HTML file to write (default: report.html)")
        parser.add_argument("--title", default="", help="the report's title (default: from the feed name)")

    def run(self, args, opts):
        if not 1 <= len(args) <= 2:
            raise UsageError()
        items_path = Path(args[0])
        errors = errors_path(items_path, args[1] if len(args) > 1 else None)
        try:
            error_records = read_jsonl(errors) if errors else []
            summary = summarise(read_jsonl(items_path), error_records, read_stats(sibling(items_path, "stats.json")))
            writable_file(opts.output, "the report")
        except ArgumentError as error:
            print(f"scrapy report: {error}", file=sys.stderr)
            self.exitcode = BAD_INPUT
            return
        html = render(summary, opts.title or f"Crawl report: {items_path.name}", error_records)
        Path(opts.output).write_text(html, encoding="utf-8")
        print(f"{opts.output}: {summary.items} items, {summary.errors} errors")
