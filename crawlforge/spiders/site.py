"""``scrapy crawl site``: crawl a website from a start URL, one item per HTML page."""

from __future__ import annotations

import re
from itertools import chain
from urllib.parse import urlparse

import scrapy
from scrapy.linkextractors import IGNORED_EXTENSIONS

from crawlforge.args import ArgumentError, as_choice, as_count, as_flag
from crawlforge.extract.content.urls import document_base, link_targets
from crawlforge.extract.dom import ParsedPage
from crawlforge.pagework import PageWork
from crawlforge.parsed import item_page
from crawlforge.spiders.base import CrawlforgeSpider
from crawlforge.spiders.sitemap import SitemapDiscovery

SITEMAP_MODES = ("never", "also", "only")
# images, media, archives...: a tuple, so that one str.endswith call tests them all
SKIPPED_EXTENSIONS = tuple("." + extension for extension in IGNORED_EXTENSIONS)


def allow_pattern(allow: str) -> re.Pattern:
    try:
        return re.compile(allow)
    except re.error as error:
        raise ArgumentError(f"-a allow must be a regular expression, not {allow!r} ({error})") from None


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
    entries last modified before that day.
    """

    name = "site"
    allow_no_urls = True  # seeds may come from Redis instead: checked in from_crawler

    def __init__(self, max_pages: str | int | None = None, max_depth: str | int | None = None,
                 allow: str | None = None, follow: str | int = 1, sitemap: str = "never",
                 lastmod_after: str | None = None, **kwargs):
        super().__init__(**kwargs)
        self.sitemap = as_choice(sitemap, "-a sitemap", SITEMAP_MODES)
        self.lastmod_after = lastmod_after
        self.max_pages = None if max_pages is None else as_count(max_pages, "-a max_pages")
        self.max_depth = None if max_depth is None else as_count(max_depth, "-a max_depth")
        self.follow = as_flag(follow, "-a follow")
        self.allowed_domains = sorted({urlparse(u).hostname for u in self.start_urls if urlparse(u).hostname})
        self.allow = allow_pattern(allow) if allow else None
        self.scheduled: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler, *args, **kwargs):
        spider = super().from_crawler(crawler, *args, **kwargs)
        settings = crawler.settings
        if not spider.start_urls and not settings.get("CRAWLFORGE_REDIS_URL"):
            raise ArgumentError("site: give -a url=URL or -a urls_file=FILE (or seed a Redis crawl)")
        if spider.max_pages is None:
            spider.max_pages = as_count(settings.get("CRAWLFORGE_MAX_PAGES") or 0, "CRAWLFORGE_MAX_PAGES") or None
        if spider.max_depth is None:
            spider.max_depth = as_count(settings.get("CRAWLFORGE_MAX_DEPTH") or 0, "CRAWLFORGE_MAX_DEPTH") or None
        return spider

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
        if not too_deep and response.meta.get("crawlforge_follow", self.follow):
            page = item_page(item, item.html)  # read before the item goes on (``crawlforge.parsed``)
            links = await PageWork.of(self.crawler).run(page.html, page_links, page, response.url, response.encoding)
        yield item
        for url in links:
            if self.follows(url, response.url) and (request := self.schedule(url)):
                yield request

    def follows(self, url: str, page_url: str) -> bool:
        """A web page on the site that ``allow`` admits (Scrapy's link extractor skips the same
        file extensions)."""
        parts = urlparse(url)
        return (parts.scheme in ("http", "https") and not parts.path.lower().endswith(SKIPPED_EXTENSIONS)
                and (self.allow is None or self.allow.search(url) is not None) and self.on_site(url, page_url))

    def on_site(self, url: str, page_url: str) -> bool:
        """Within the start URLs' domains (subdomains included); seeded from Redis without
        start URLs, on the host of the page the link is on."""
        host = urlparse(url).hostname or ""
        domains = self.allowed_domains or [urlparse(page_url).hostname]
        return any(host == domain or host.endswith("." + domain) for domain in domains)
