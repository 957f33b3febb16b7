"""``scrapy crawl site``: crawl a website from a start URL, one item per HTML page or PDF."""

from __future__ import annotations

import re
from itertools import chain
from urllib.parse import urlparse

import scrapy
from scrapy.linkextractors import IGNORED_EXTENSIONS

from crawlforge.args import ArgumentError
from crawlforge.extract.content.urls import document_base, link_targets
from crawlforge.extract.dom import ParsedPage
from crawlforge.pagework import PageWork
from crawlforge.parsed import item_page
from crawlforge.spiders.base import PDF_EXTENSION, CrawlforgeSpider
from crawlforge.spiders.sitemap import SitemapDiscovery

# images, media, archives...: a tuple, so that one str.endswith call tests them all
SKIPPED_EXTENSIONS = tuple("." + extension for extension in IGNORED_EXTENSIONS)
SKIPPED_WITH_PDF = tuple(extension for extension in SKIPPED_EXTENSIONS if extension != PDF_EXTENSION)


def page_links(page: ParsedPage, url: str, encoding: str) -> list[str]:
    """The page's links; a huge page's from each of its pieces in turn (``ParsedPage.whole``)."""
    base = document_base(page.tree, url)
    return list(dict.fromkeys(chain.from_iterable(link_targets(tree, url, encoding, base) for tree in page.whole())))


class SiteSpider(CrawlforgeSpider, SitemapDiscovery):
    """Follows links within the start URLs' domains.

    Arguments: ``url`` or ``urls_file``; ``max_pages`` (requests scheduled, start URLs
    included), ``max_depth`` (link hops from a start URL), ``allow`` (a regex a followed URL
    must match; start URLs are always fetched), ``follow=0`` to fetch only the start URLs;
    ``sitemap=also`` adds the pages the site's sitemaps list (robots.txt ``Sitemap:`` lines,
    else ``/sitemap.xml``), ``sitemap=only`` fetches just those, without following links,
    ``sitemap=never`` (the default) ignores sitemaps; ``lastmod_after=DATE`` skips sitemap
    entries last modified before that day; ``pdf=0`` leaves links to PDFs alone.
    """

    name = "site"
    allow_no_urls = True  # seeds may come from Redis instead: checked in from_crawler

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.allowed_domains = sorted({urlparse(u).hostname for u in self.start_urls if urlparse(u).hostname})
        self.scheduled: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings  # the arguments, checked by crawlforge.args
        if not spider.start_urls and not settings.get("CRAWLFORGE_REDIS_URL"):
            raise ArgumentError("site: give -a url=URL or -a urls_file=FILE (or seed a Redis crawl)")
        spider.max_pages = settings.getint("CRAWLFORGE_MAX_PAGES") or None
        depth = settings.get("CRAWLFORGE_MAX_DEPTH")
        spider.max_depth = None if depth in (None, "") else int(depth)
        spider.follow = settings.getbool("CRAWLFORGE_FOLLOW")
        spider.allow = re.compile(allow) if (allow := settings.get("CRAWLFORGE_ALLOW")) else None
        spider.sitemap = settings.get("CRAWLFORGE_SITEMAP")
        spider.lastmod_after = settings.get("CRAWLFORGE_LASTMOD_AFTER") or None
        spider.skipped_extensions = SKIPPED_WITH_PDF if spider.follow_pdf else SKIPPED_EXTENSIONS
        return spider

    def follows_links(self) -> bool:
        return self.follow and self.sitemap != "only"

    def schedule(self, url: str, **meta) -> scrapy.Request | None:
        """A request for ``url`` unless it was scheduled already or a limit is reached."""
        if url in self.scheduled:
            return None
        if self.max_pages is not None and len(self.scheduled) >= self.max_pages:
            return None
        self.scheduled.add(url)
        return scrapy.Request(url, callback=self.parse, meta=meta)

    async def start(self):
        for url in self.start_urls:
            if self.sitemap != "never":
                yield self.sitemap_discovery_request(url)
            if self.sitemap != "only" and (request := self.schedule(url)):
                yield request

    def seed_request(self, url: str) -> scrapy.Request | None:
        """A seed from Redis (``scrapy seed``): crawled like a start URL."""
        return self.sitemap_discovery_request(url) if self.sitemap == "only" else self.schedule(url)

    def sitemap_page_request(self, loc: str, entry: dict) -> scrapy.Request | None:
        return self.schedule(loc, crawlforge_lastmod=entry.get("lastmod"),
                             crawlforge_follow=self.sitemap != "only")

    async def parse(self, response):
        item = self.page_or_failure(response)
        if item is None:
            return
        depth = response.meta.get("depth", 0)  # set by Scrapy's DepthMiddleware
        too_deep = self.max_depth is not None and depth >= self.max_depth
        links = []
        if not too_deep and item.html is not None and response.meta.get("crawlforge_follow", self.follow):
            page = item_page(item, item.html)  # read before the item goes on (``crawlforge.parsed``)
            links = await PageWork.of(self.crawler).run(page.html, page_links, page, response.url, response.encoding)
        yield item
        for url in links:
            if self.follows(url, response.url) and (request := self.schedule(url)):
                yield request

    def follows(self, url: str, page_url: str) -> bool:
        """A web page (or a PDF, unless ``-a pdf=0``) on the site that ``allow`` admits
        (Scrapy's link extractor skips the same file extensions, PDFs included)."""
        parts = urlparse(url)
        return (parts.scheme in ("http", "https") and not parts.path.lower().endswith(self.skipped_extensions)
                and (self.allow is None or self.allow.search(url) is not None) and self.on_site(url, page_url))

    def on_site(self, url: str, page_url: str) -> bool:
        """Within the start URLs' domains (subdomains included); seeded from Redis without
        start URLs, on the host of the page the link is on."""
        host = urlparse(url).hostname or ""
        domains = self.allowed_domains or [urlparse(page_url).hostname]
        return any(host == domain or host.endswith("." + domain) for domain in domains)
