"""``scrapy markdown URL_OR_FILE [--url URL]``: one page as a crawlforge document, for a quick
look at what a crawl would export.

The page goes through a one-request crawl, so the document is the item pipelines' own
(structured data, markdown and frontmatter settings, ``processed_at``, the size caps); a saved
file is fetched as a ``file://`` URL (a gzipped one, ``page.html.gz`` as the dev sets keep pages,
from an unzipped copy). A missing, binary or non-HTML input is one line and exit 2; a page that
could not be fetched, one line and exit 1.
"""

from __future__ import annotations

import gzip
import logging
import mimetypes
import tempfile
import zlib
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlparse
from urllib.request import url2pathname

import scrapy
from scrapy import signals
from scrapy.commands import ScrapyCommand
from scrapy.exceptions import UsageError
from scrapy.http import HtmlResponse
from scrapy.responsetypes import responsetypes

from crawlforge import signals as crawlforge_signals
from crawlforge.extensions.ledger import ID_KEY
from crawlforge.extract.pdf import is_pdf
from crawlforge.spiders.base import CrawlforgeSpider

logger = logging.getLogger(__name__)
BAD_INPUT = 2
BAD_INPUT_REASONS = ("not_html", "not_pdf", "pdf_encrypted", "pdf_error")
SNIFF_BYTES = 4096
GZIP_MAGIC = b"\x1f\x8b"


def is_gzip(path: Path) -> bool:
    with path.open("rb") as file:
        return file.read(2) == GZIP_MAGIC


def read_page_file(path: Path, size: int = -1) -> bytes:
    """A saved page's bytes (the first ``size``), unzipped when it is gzipped."""
    opener = gzip.open if is_gzip(path) else open
    with opener(path, "rb") as file:
        return file.read(size)


def file_problem(path: Path) -> str | None:
    """Why a saved file is not an HTML page, as Scrapy would type its response, else None."""
    if not path.is_file():
        return f"{path}: no such file" if not path.exists() else f"{path}: not a file"
    try:
        head = read_page_file(path, SNIFF_BYTES)
    except (EOFError, zlib.error, gzip.BadGzipFile):
        return f"{path}: not an HTML page (a damaged gzip file)"
    except OSError as error:
        return f"{path}: cannot be read ({error.strerror})"
    name = path.name.removesuffix(".gz") if is_gzip(path) else path.name
    if responsetypes.from_args(filename=name, body=head) is HtmlResponse or is_pdf(head):
        return None
    kind = mimetypes.guess_type(name)[0]
    if kind is None:
        kind = "binary data" if b"\0" in head else "text without HTML markup"
    return f"{path}: not an HTML page ({kind})"


def target_url(target: str) -> tuple[str | None, str | None]:
    """(URL to fetch, None) or (None, why the argument is neither a file nor a URL)."""
    if Path(target).exists() or not urlparse(target).scheme:
        if problem := file_problem(Path(target)):
            return None, problem
        return Path(target).resolve().as_uri(), None
    return target, None


def unzipped(url: str, folder: Path) -> str:
    """The URL to fetch: a gzipped file's unzipped copy in ``folder``, else ``url`` itself."""
    if not url.startswith("file:"):
        return url
    path = Path(url2pathname(urlparse(url).path))
    if not is_gzip(path):
        return url
    copy = folder / path.name.removesuffix(".gz")
    copy.write_bytes(read_page_file(path))
    return copy.as_uri()


class OnePage(CrawlforgeSpider):
    """The page, with ``page_url`` as its URL when given (a saved file's real address)."""

    name = "markdown-command"

    def __init__(self, page_url: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.page_url = page_url

    async def start(self):
        for url in self.start_urls:
            yield scrapy.Request(url, meta={"crawlforge_render": not url.startswith("file:")})

    def parse(self, response):
        if (item := self.page_or_failure(response)) is None:
            return
        if self.page_url:
            item.url = item.final_url = self.page_url
        yield item


class Command(ScrapyCommand):
    requires_project = False
    default_settings: ClassVar[dict[str, Any]] = {"CRAWLFORGE_PROGRESS_INTERVAL": 0}

    def syntax(self) -> str:
        return "URL_OR_FILE"

    def short_desc(self) -> str:
        return "Print one page (a URL, or a saved HTML or PDF file) as frontmatter + markdown"

    def add_options(self, parser):
        super().add_options(parser)
        parser.add_argument("--url", help="the page's URL, for a file (resolves its relative links)")
        parser.add_argument("--whole-page", action="store_true", help="convert the whole page, not the main content")

    def process_options(self, args, opts):
        super().process_options(args, opts)
        if opts.loglevel is None and not opts.nolog:  # the project's INFO would bury the page
            self.settings.set("LOG_LEVEL", "WARNING", priority="cmdline")

    def run(self, args, opts):
        if len(args) != 1:
            raise UsageError()
        url, problem = target_url(args[0])
        if problem:
            logger.error("%s", problem)
            self.exitcode = BAD_INPUT
            return
        with tempfile.TemporaryDirectory(prefix="crawlforge-markdown-") as folder:
            self.convert(args[0], unzipped(url, Path(folder)), opts.url or url, opts)

    def convert(self, target: str, url: str, page_url: str | None, opts) -> None:
        self.documents, self.failures = [], []
        crawler = self.crawler_process.create_crawler(OnePage)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.url_failed, signal=crawlforge_signals.url_failed)
        crawler.signals.connect(self.response_received, signal=signals.response_received)
        arguments = {"url": url, "page_url": page_url if page_url != url else None}
        if opts.whole_page:
            arguments["main_content"] = "0"
        self.crawler_process.crawl(crawler, **arguments)
        self.crawler_process.start()
        if self.documents:
            print("\n".join(self.documents))
            return
        reason, detail = self.failures[0] if self.failures else ("no_item", "see the log above")
        logger.error("No page from %s: %s", target, detail)
        self.exitcode = BAD_INPUT if reason in BAD_INPUT_REASONS else 1

    def item_scraped(self, item, **_):
        self.documents.append(item.document)

    def url_failed(self, reason, detail, **_):
        self.failures.append((reason, detail))

    def response_received(self, response, request, **_):
        if response.status >= 400 and ID_KEY in request.meta:  # the page, not robots.txt; the
            # ledger's http_error, which it only settles at the end
            self.failures.append(("http_error", f"HTTP {response.status}"))
