"""Sitemaps: found from robots.txt ``Sitemap:`` lines or ``/sitemap.xml``, read with Scrapy's own
``Sitemap`` parser, and harvested by ``scrapy crawl sitemap`` (or by ``site -a sitemap=...``).

robots.txt and sitemap files are not pages: their requests carry the ledger's ``NOT_PAGE_KEY``,
so only a file that cannot be read is an error record. Sitemap indexes nest at most
``CRAWLFORGE_SITEMAP_MAX_DEPTH`` levels below the first sitemap read."""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urljoin, urlparse

import scrapy
from lxml.etree import XMLSyntaxError
from scrapy.spiders import SitemapSpider as ScrapySitemapSpider
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots

from crawlforge.args import ArgumentError
from crawlforge.extensions.ledger import NOT_PAGE_KEY
from crawlforge.spiders.base import PDF_EXTENSION, CrawlforgeSpider

XML_DECLARATION = re.compile(rb"^\s*<\?xml[^>]*\?>")
DEPTH_KEY = "crawlforge_sitemap_depth"  # meta: how many indexes lead to this sitemap


def parse_sitemap(body: bytes) -> Sitemap | None:
    """Scrapy's streaming parser; a sitemap whose declaration names the wrong encoding (say
    UTF-16 on UTF-8 bytes) is read again without the declaration, so lxml detects it."""
    try:
        return Sitemap(body)
    except (StopIteration, XMLSyntaxError):
        pass
    try:  # the copy without the declaration is made only for such a sitemap
        return Sitemap(XML_DECLARATION.sub(b"", body, count=1))
    except (StopIteration, XMLSyntaxError):
        return None


def robots_url(url: str) -> str:
    return urljoin(url, "/robots.txt")


class SitemapDiscovery(ScrapySitemapSpider):
    """Finds and reads sitemaps for a spider; ``sitemap_page_request(loc, entry)`` turns each
    page entry into a request, ``lastmod_after`` (an ISO date) skips entries not modified
    since. Entries are read lazily: a 50,000-URL sitemap is never held as a list."""

    lastmod_after: str | None = None  # an ISO day (crawlforge.args.as_date)
    follow_pdf = True

    def sitemap_discovery_request(self, url: str) -> scrapy.Request:
        """robots.txt first; when it names no sitemap, ``/sitemap.xml`` of the same origin."""
        return scrapy.Request(robots_url(url), callback=self.parse_robots,
                              meta={"handle_httpstatus_all": True, NOT_PAGE_KEY: True}, dont_filter=True)

    def sitemap_request(self, url: str, depth: int = 0) -> scrapy.Request:
        return scrapy.Request(url, callback=self._parse_sitemap, meta={NOT_PAGE_KEY: True, DEPTH_KEY: depth})

    def parse_robots(self, response):
        urls = list(sitemap_urls_from_robots(response.body, base_url=response.url)) \
            if response.status == 200 else []
        self.crawler.stats.inc_value("sitemap/robots_sitemaps", len(urls))
        for url in urls or [urljoin(response.url, "/sitemap.xml")]:
            yield self.sitemap_request(url)

    def sitemap_filter(self, entries):
        """Entries (pages or child sitemaps) without a lastmod are kept: nothing says they are old;
        PDFs are left out with ``-a pdf=0``."""
        for entry in entries:
            if not self.follow_pdf and urlparse(entry.get("loc", "")).path.lower().endswith(PDF_EXTENSION):
                self.crawler.stats.inc_value("sitemap/skipped_pdf")
                continue
            lastmod = entry.get("lastmod")
            if self.lastmod_after and lastmod and lastmod[:10] < self.lastmod_after[:10]:
                self.crawler.stats.inc_value("sitemap/skipped_lastmod")
                continue
            yield entry

    def _parse_sitemap(self, response) -> Iterator[scrapy.Request]:
        body = self._get_sitemap_body(response)
        sitemap = parse_sitemap(body) if body else None
        if sitemap is None or sitemap.type not in ("sitemapindex", "urlset"):
            self.logger.warning("Ignoring invalid sitemap: %s", response)
            self.crawler.stats.inc_value("sitemap/invalid")
            return
        self.crawler.stats.inc_value(f"sitemap/{sitemap.type}")
        depth = getattr(response.request, "meta", {}).get(DEPTH_KEY, 0)  # 0: a sitemap given directly
        if sitemap.type == "sitemapindex" and depth >= self.crawler.settings.getint("CRAWLFORGE_SITEMAP_MAX_DEPTH"):
            self.logger.warning("Not following sitemap index %s: %d indexes deep (CRAWLFORGE_SITEMAP_MAX_DEPTH)",
                                response.url, depth)
            self.crawler.stats.inc_value("sitemap/depth_limited")
            return
        for entry in self.sitemap_filter(sitemap):
            if sitemap.type == "sitemapindex":
                if any(follow.search(entry["loc"]) for follow in self._follow):
                    yield self.sitemap_request(entry["loc"], depth + 1)
            elif request := self.sitemap_page_request(entry["loc"], entry):
                self.crawler.stats.inc_value("sitemap/urls")
                yield request

    def sitemap_page_request(self, loc: str, entry: dict) -> scrapy.Request | None:
        return scrapy.Request(loc, callback=self.parse, meta={"crawlforge_lastmod": entry.get("lastmod")})


class SitemapSpider(CrawlforgeSpider, SitemapDiscovery):
    """``scrapy crawl sitemap -a url=SITE_OR_SITEMAP_URL``: one item per HTML page or PDF a
    sitemap lists (``-a pdf=0``: pages only), links not followed. A URL ending in ``.xml`` or ``.xml.gz`` is read as a sitemap
    (or index); any other URL's robots.txt and ``/sitemap.xml`` are tried. ``lastmod_after=DATE``
    skips entries last modified before that day; ``max_pages`` stops after that many pages."""

    name = "sitemap"
    allow_no_urls = True  # seeds may come from Redis instead: checked in from_crawler

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.allowed_domains = sorted({urlparse(u).hostname for u in self.start_urls if urlparse(u).hostname})
        self.pages_requested = 0

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings  # the arguments, checked by crawlforge.args
        if not spider.start_urls and not settings.get("CRAWLFORGE_REDIS_URL"):
            raise ArgumentError("sitemap: give -a url=URL or -a urls_file=FILE (or seed a Redis crawl)")
        spider.max_pages = settings.getint("CRAWLFORGE_MAX_PAGES") or None
        spider.lastmod_after = settings.get("CRAWLFORGE_LASTMOD_AFTER") or None
        return spider

    async def start(self):
        for url in self.start_urls:
            yield self.seed_request(url)

    def seed_request(self, url: str) -> scrapy.Request:
        """A sitemap (``.xml``, ``.xml.gz``) is read as one; a site is asked for its sitemaps."""
        if re.search(r"\.xml(\.gz)?$", urlparse(url).path):
            return self.sitemap_request(url)
        return self.sitemap_discovery_request(url)

    def sitemap_page_request(self, loc: str, entry: dict) -> scrapy.Request | None:
        if self.max_pages is not None and self.pages_requested >= self.max_pages:
            self.crawler.stats.inc_value("sitemap/skipped_max_pages")
            return None
        self.pages_requested += 1
        return super().sitemap_page_request(loc, entry)

    def parse(self, response):
        if item := self.page_or_failure(response):
            yield item
