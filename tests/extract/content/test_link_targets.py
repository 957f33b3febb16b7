"""The site spider's links, from the page's one parse (``link_targets``), against Scrapy's own
link extractor on the same real pages."""

from __future__ import annotations

from urllib.parse import urljoin

from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor
from w3lib.url import safe_url_string

from conftest import FIXTURES
from crawlforge.extract.content.urls import link_targets
from crawlforge.extract.dom import ParsedPage

LINKS = FIXTURES / "links"


def both(name: str, url: str) -> tuple[list[str], list[str]]:
    response = HtmlResponse(url, body=(LINKS / name).read_bytes())
    scrapy_links = [link.url for link in LinkExtractor(unique=True).extract_links(response)]
    ours = [u for u in link_targets(ParsedPage(response.text).tree, url, response.encoding) if u.startswith("http")]
    return scrapy_links, ours


def test_links_of_a_menu_in_a_template_are_followed_as_scrapy_follows_them():
    scrapy_links, ours = both("dorzeczy.pl.eurostat.html", "https://dorzeczy.pl/ekonomia/183131/x.html")
    assert set(ours) == set(scrapy_links)
    assert "https://dorzeczy.pl/kultura" in ours  # only in the <template> header menu
    assert len(ours) == len(set(ours)) == 51


def test_a_base_href_late_in_the_head_resolves_the_links_as_a_browser_does():
    url = "https://www.autozeitung.de/adblue-diesel-tanken-ratgeber-180301.html"
    scrapy_links, ours = both("autozeitung.de-adblue.html", url)
    assert "https://www.autozeitung.de/#dropdown" in ours  # <base href="/"> is line 258
    assert f"{url}#dropdown" in scrapy_links  # Scrapy reads a base only in the first 4 KB
    assert set(ours) - {"https://www.autozeitung.de/#dropdown"} == set(scrapy_links) - {f"{url}#dropdown"}


def test_a_link_is_spelled_as_w3lib_spells_it_in_the_page_encoding():
    # a plain URL is left as it is, but not in an encoding that writes even an empty query
    # (UTF-16's byte-order mark): there w3lib adds one
    html = ('<a href="/a/b-c.html">1</a><a href="https://example.com/x?q=é">2</a>'
            '<a href="https://EXAMPLE.com/./y">3</a><a href="/a/b-c.html">4</a><a href="http://[x/">5</a>')
    for encoding in ("utf-8", "cp1252", "utf-16"):
        hrefs = ["/a/b-c.html", "https://example.com/x?q=é", "https://EXAMPLE.com/./y"]
        expected = [safe_url_string(urljoin("https://example.com/p", href), encoding=encoding) for href in hrefs]
        assert link_targets(ParsedPage(html).tree, "https://example.com/p", encoding) == expected, encoding
    # a base urljoin cannot read drops every link, a plain absolute one too (Scrapy's spelling)
    plain = ParsedPage('<a href="https://example.com/a">1</a>').tree
    assert link_targets(plain, "https://example.com/p") == ["https://example.com/a"]
    assert link_targets(plain, "http://[x/") == []
