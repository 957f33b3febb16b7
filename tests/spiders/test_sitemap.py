"""Sitemaps: real robots.txt and sitemap files read with Scrapy's parser, then real crawls of the
fixture server's generated sitemap index (gzipped children, lastmod) by `sitemap` and `site`."""

from urllib.request import urlopen

from scrapy.http import Request, Response, XmlResponse
from scrapy.utils.sitemap import sitemap_urls_from_robots
from scrapy.utils.test import get_crawler

from conftest import ROOT

from crawlforge.spiders.sitemap import SitemapSpider, parse_sitemap

SITEMAPS = ROOT / "fixtures" / "sitemaps"
SITEMAPS_ORG_URLS = 84  # <url> entries in the sitemaps.org sitemap


def sitemap_spider(**settings) -> SitemapSpider:
    """The spider as a crawl with these settings builds it (``-a lastmod_after=`` is a setting)."""
    crawler = get_crawler(SitemapSpider, settings_dict=settings)
    crawler.spider = SitemapSpider.from_crawler(crawler, url="https://www.sitemaps.org/")
    return crawler.spider


def test_robots_sitemap_lines_are_found_in_real_robots_files():
    google = (SITEMAPS / "robots_google_com_2019.txt").read_bytes()
    assert list(sitemap_urls_from_robots(google)) == ["https://www.google.com/sitemap.xml"]
    ncbi = list(sitemap_urls_from_robots((SITEMAPS / "robots_ncbi_nlm_nih_gov_2019.txt").read_bytes()))
    assert len(ncbi) == 20
    assert "https://www.ncbi.nlm.nih.gov/escan?p=gene/sitemap_index.xml" in ncbi


def test_real_sitemap_entries_carry_loc_and_lastmod():
    entries = list(parse_sitemap((SITEMAPS / "sitemap_sitemaps_org.xml").read_bytes()))
    assert len(entries) == SITEMAPS_ORG_URLS
    assert entries[0] == {"loc": "https://www.sitemaps.org/", "lastmod": "2016-11-21"}


def test_sitemap_declaring_the_wrong_encoding_is_still_read():
    sitemap = parse_sitemap((SITEMAPS / "sitemap_declared_utf16_synthetic.xml").read_bytes())
    assert sitemap.type == "urlset"
    assert len(list(sitemap)) == SITEMAPS_ORG_URLS


def test_gzipped_sitemap_served_as_binary_becomes_page_requests():
    spider = sitemap_spider()
    body = (SITEMAPS / "sitemap_sitemaps_org.xml.gz").read_bytes()
    url = "https://www.sitemaps.org/sitemap.xml.gz"
    response = Response(url, body=body, headers={"Content-Type": "application/x-gzip"}, request=Request(url))
    requests = list(spider._parse_sitemap(response))
    assert len(requests) == SITEMAPS_ORG_URLS
    assert requests[1].url == "https://www.sitemaps.org/protocol.html"
    assert requests[1].meta["crawlforge_lastmod"] == "2016-11-21"


def test_lastmod_after_skips_older_entries():
    spider = sitemap_spider(CRAWLFORGE_LASTMOD_AFTER="2017-01-01")
    body = (SITEMAPS / "sitemap_sitemaps_org.xml").read_bytes()
    response = XmlResponse("https://www.sitemaps.org/sitemap.xml", body=body)
    assert list(spider._parse_sitemap(response)) == []
    assert spider.crawler.stats.get_value("sitemap/skipped_lastmod") == SITEMAPS_ORG_URLS


def test_sitemap_spider_harvests_an_index_of_gzipped_sitemaps(fixture_server, crawl):
    result = crawl("sitemap", args={"url": fixture_server.url("/_sitemap/30/10/index.xml")})
    urls = [item["url"] for item in result.items]
    assert sorted(urls) == sorted(fixture_server.url(f"/_gen/30/{i}") for i in range(30))
    assert result.stats["sitemap/sitemapindex"] == 1
    assert result.stats["sitemap/urlset"] == 3


def test_sitemap_spider_lastmod_after_harvests_only_recent_pages(fixture_server, crawl):
    result = crawl("sitemap", args={"url": fixture_server.url("/_sitemap/30/10/index.xml"),
                                    "lastmod_after": "2026-01-20"})
    # lastmod of page i is day i % 28 + 1: days 20..28 are pages 19..27
    assert sorted(int(item["url"].rsplit("/", 1)[1]) for item in result.items) == list(range(19, 28))


def test_site_finds_the_sitemap_named_in_robots_txt(make_server, crawl, tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    server = make_server(root)
    (root / "robots.txt").write_text(f"User-agent: *\nAllow: /\n\nSitemap: {server.url('/_sitemap/12/5/index.xml')}\n")
    result = crawl("site", args={"url": server.url("/"), "sitemap": "only"})
    assert sorted(item["url"] for item in result.items) == sorted(server.url(f"/_gen/12/{i}") for i in range(12))
    assert result.stats["sitemap/robots_sitemaps"] == 1


def test_site_falls_back_to_sitemap_xml_and_also_follows_links(make_server, crawl, tmp_path):
    root = tmp_path / "site"
    root.mkdir()
    server = make_server(root)
    # no robots.txt: /sitemap.xml is tried; it is the generator's urlset of pages 0..4 of 40
    (root / "sitemap.xml").write_bytes(urlopen(server.url("/_sitemap/40/5/0.xml")).read())
    result = crawl("site", args={"url": server.url("/_gen/40/39"), "sitemap": "also", "max_depth": 0})
    urls = sorted(item["url"] for item in result.items)
    assert urls == sorted([server.url("/_gen/40/39")] + [server.url(f"/_gen/40/{i}") for i in range(5)])
