"""The log formatter: items named by URL; no per-page DEBUG line built when the crawl logs above DEBUG."""

from scrapy.exceptions import DropItem
from scrapy.http import HtmlResponse, Request
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from crawlforge.items import Page
from crawlforge.logformatter import CrawlforgeLogFormatter

URL = "https://example.com/page"


def formatter(level) -> CrawlforgeLogFormatter:
    return build_from_crawler(CrawlforgeLogFormatter, get_crawler(settings_dict={"LOG_LEVEL": level}))


def test_at_debug_an_item_is_logged_by_its_url():
    item, response = Page(url=URL, markdown="# A page " * 1000), HtmlResponse(URL, body=b"<p>x</p>")
    entry = formatter("DEBUG").scraped(item, response, None)
    assert entry["args"]["item"] == URL and formatter("debug").crawled(Request(URL), response, None)


def test_above_debug_no_per_page_line_is_made_but_drops_are_still_logged():
    item, response = Page(url=URL), HtmlResponse(URL, body=b"<p>x</p>")
    for level in ("INFO", "WARNING", 40):
        assert formatter(level).scraped(item, response, None) is None
        assert formatter(level).crawled(Request(URL), response, None) is None
    crawler = get_crawler(settings_dict={"LOG_LEVEL": "INFO"})
    spider = crawler._create_spider()
    dropped = build_from_crawler(CrawlforgeLogFormatter, crawler).dropped(item, DropItem("no document"), response, spider)
    assert dropped["msg"] == "Dropped: %(exception)s" and "item" not in dropped["msg"]
