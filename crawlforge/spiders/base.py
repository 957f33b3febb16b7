"""What every crawlforge spider shares: start URLs from ``-a url=`` or ``-a urls_file=``, and
turning an HTML or PDF response into a ``Page`` item for the page pipeline."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlparse

import scrapy
from scrapy import signals as scrapy_signals
from scrapy.http import Response, TextResponse
from w3lib.url import safe_url_string

from crawlforge.args import SPIDER_ARGUMENTS, ArgumentError, apply_arguments
from crawlforge.extract.pdf import is_pdf
from crawlforge.items import Page
from crawlforge.parsed import response_page
from crawlforge.signals import report_failure

HTML_TYPES = ("text/html", "application/xhtml+xml")
PDF_TYPES = ("application/pdf", "application/x-pdf")
PDF_EXTENSION = ".pdf"


def read_urls_file(path: str) -> list[str]:
    """One URL a line; blank lines and ``#`` comments are skipped."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ArgumentError(f"cannot read {path!r} as a file of URLs ({error})") from None
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def content_type(response: Response) -> str:
    return response.headers.get(b"Content-Type", b"").decode("latin-1")


def is_html(response: Response) -> bool:
    """Scrapy picks HtmlResponse from the Content-Type or, when there is none, from the body."""
    if not isinstance(response, TextResponse):
        return False
    declared = content_type(response).split(";")[0].strip().lower()
    return declared in HTML_TYPES or not declared


def is_pdf_response(response: Response) -> bool:
    """Served as a PDF, or carrying the ``%PDF-`` signature whatever the server called it
    (``application/octet-stream``, a saved file, a PDF mislabelled as HTML)."""
    declared = content_type(response).split(";")[0].strip().lower()
    return declared in PDF_TYPES or is_pdf(response.body)


def pdf_item(response: Response, **fields) -> Page:
    """A ``Page`` holding the PDF's bytes for the PDF pipeline (``crawlforge.pipelines.pdf``)."""
    meta = response.meta
    item = Page(
        url=meta.get("redirect_urls", [response.url])[0],
        final_url=response.url,
        status=response.status,
        content_type=PDF_TYPES[0],
        depth=meta.get("depth"),
        download_latency=meta.get("download_latency"),
        **fields,
    )
    item._body = response.body
    return item


def page_item(response: TextResponse, **fields) -> Page:
    """A ``Page`` holding the raw HTML, before any pipeline has touched it, and carrying the
    response's page for the pipelines (``crawlforge.parsed``)."""
    page = response_page(response)
    meta = response.meta
    item = Page(
        url=meta.get("redirect_urls", [response.url])[0],
        final_url=response.url,
        status=response.status,
        content_type=content_type(response) or None,
        encoding=meta.get("crawlforge_encoding") or response.encoding,
        encoding_source=meta.get("crawlforge_encoding_source"),
        depth=meta.get("depth"),
        download_latency=meta.get("download_latency"),
        rendered=bool(meta.get("playwright")),
        html=page.html,
        **fields,
    )
    item._parsed = page
    return item


def check_url(url: str) -> str:
    """``-a url=`` must be a URL Scrapy can fetch: a scheme, and a host for http(s)."""
    parsed = urlparse(url)
    if not parsed.scheme or (parsed.scheme in ("http", "https") and not parsed.hostname):
        raise ArgumentError(f"-a url must be an absolute URL such as https://example.com/, not {url!r}")
    return url


class CrawlforgeSpider(scrapy.Spider):
    """Base spider: ``-a url=URL`` (one) or ``-a urls_file=FILE`` (many). The crawl options of
    ``crawlforge.args.SPIDER_ARGUMENTS`` (``render``, ``max_pages``...) become settings, which
    components read; the spider is not given them."""

    def __init__(self, url: str | None = None, urls_file: str | None = None, **kwargs):
        super().__init__(**kwargs)
        urls = ([url] if url else []) + (read_urls_file(urls_file) if urls_file else [])
        # as Scrapy's Request reads them (a backslash is a "/"), so the host the off-site filter
        # allows is the host fetched
        self.start_urls = [safe_url_string(u) for u in urls]
        if url:
            check_url(self.start_urls[0])
        if not self.start_urls and not getattr(self, "allow_no_urls", False):
            raise ArgumentError(f"{self.name}: give -a url=URL or -a urls_file=FILE")

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        apply_arguments(kwargs, crawler.settings)
        if not crawler.settings.frozen:  # frozen: a crawler made by hand, with its settings final
            # the archive's record of the run, for reextract
            crawler.settings.set("CRAWLFORGE_CRAWL_ARGUMENTS", dict(kwargs), priority="cmdline")
        own = {name: value for name, value in kwargs.items() if name not in SPIDER_ARGUMENTS}
        spider = super().from_crawler(crawler, *args, **own)
        crawler.signals.connect(spider.publish_plan, signal=scrapy_signals.spider_opened)
        spider.follow_pdf = crawler.settings.getbool("CRAWLFORGE_PDF")
        return spider

    def publish_plan(self, spider=None):
        """What the crawl will fetch, as stats the progress line reads: the start URLs, and
        whether links are followed (then the total is unknown)."""
        self.crawler.stats.set_value("crawlforge/start_urls", len(self.start_urls))
        self.crawler.stats.set_value("crawlforge/follows_links", self.follows_links())

    def follows_links(self) -> bool:
        return False

    def page_or_failure(self, response):
        """The page item of an HTML or PDF response; anything else ends its URL as not_html."""
        if is_pdf_response(response):
            return pdf_item(response)
        if is_html(response):
            return page_item(response)
        self.fail(response.url, "not_html", f"served as {content_type(response) or 'no type'}, not HTML",
                  status=response.status)
        return None

    def fail(self, url: str, reason: str, detail: str, stage: str = "spider", **extra):
        """End ``url`` without an item: logged, counted, and written to the errors feed."""
        self.logger.warning("No item for %s: %s", url, detail)
        self.crawler.stats.inc_value(f"crawlforge/failed/{reason}")
        report_failure(self.crawler, None, stage, reason, detail, url=url, **extra)
