"""The one spider the service adds: ``map``, the project's ``site`` spider reading a site's
sitemaps and its start page's links without fetching the pages they name."""

from __future__ import annotations

from scrapy.exceptions import CloseSpider

from crawlforge.pagework import PageWork
from crawlforge.parsed import response_page
from crawlforge.spiders.site import SiteSpider, page_links


class MapSpider(SiteSpider):
    """URLs from robots.txt sitemaps (else ``/sitemap.xml``) and the start page's links, on the
    site, in the order found, at most ``limit``."""

    name = "map"

    def __init__(self, limit: int | str = 100, **kwargs):
        super().__init__(sitemap="also", **kwargs)
        self.limit = int(limit)
        self.found: dict[str, None] = {}

    def add(self, url: str) -> None:
        if len(self.found) >= self.limit:
            raise CloseSpider("map_limit")
        self.found.setdefault(url)

    def sitemap_page_request(self, loc: str, entry: dict):
        if self.follows(loc, loc):
            self.add(loc)
        return None

    async def parse(self, response):
        if self.page_or_failure(response) is None:
            return
        self.add(response.url)
        page = response_page(response)
        links = await PageWork.of(self.crawler).run(page.html, page_links, page, response.url, response.encoding)
        for url in links:
            if self.follows(url, response.url):
                self.add(url)
        return
        yield  # a callback that makes no item: the start page ends as no_item, not as an error
