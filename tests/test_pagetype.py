"""Page kinds and the main content each keeps, on real pages (fixtures/pagetypes/PROVENANCE.md)."""

import gzip
from pathlib import Path

import pytest
from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.content.pagetype import PAGE_TYPES, declared_type
from crawlforge.extract.markdown import page_content

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def load(name: str) -> str:
    return gzip.decompress((FIXTURES / "pagetypes" / name).read_bytes()).decode("utf-8")


def test_listing_keeps_item_names_and_prices():
    page = page_content(load("wcxb-0659.html.gz"), "https://jococups.com/shop/")
    assert page.page_type == "listing"
    assert "Joco Cup 4oz" in page.markdown and "Joco Cup 6oz" in page.markdown
    assert "$29.95" in page.markdown
    assert "Add to cart" not in page.markdown


def test_thread_keeps_the_replies_not_only_the_question():
    page = page_content(load("wcxb-4320.html.gz"), "https://festoolownersgroup.com/threads/"
                        "looking-for-beginner-woodworking-projects-that-reinforce-fundamentals.73409/")
    assert page.page_type == "forum"
    assert "TLDR - any beginner woodworking projects" in page.markdown  # the question
    assert "Take some risks, and forgive yourself if you fail." in page.markdown  # a reply
    assert "Search forums" not in page.markdown


def test_docs_page_keeps_body_and_code_without_site_navigation():
    page = page_content(load("wcxb-0684.html.gz"), "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html")
    assert page.page_type == "documentation"
    assert "The non-standard code 444 closes a connection" in page.markdown
    assert "```" in page.markdown and "limit_rate 10k;" in page.markdown
    assert "community forum (new)" not in page.markdown


def test_service_page_keeps_its_sections_without_the_footer():
    page = page_content(load("wcxb-4554.html.gz"), "https://cityofmarion.in.gov/government/departments/"
                        "building-department/home-repair-assistance-program")
    assert page.page_type == "service"
    assert "Real estate must be locat\xaded with\xadin the city of Marion" in page.markdown
    assert "Privacy Policy" not in page.markdown and "Like us on Facebook" not in page.markdown


def test_hub_page_keeps_its_link_lists():
    html = (FIXTURES / "demo" / "index.html").read_text(encoding="utf-8")
    page = page_content(html, "http://127.0.0.1:8000/")
    assert page.page_type == "hub"
    assert "- [IKEA: MÖCKELBY table](http://127.0.0.1:8000/products/ikea_gb_moeckelby_table_jsonld.html)" \
        in page.markdown
    assert "[anarc.at: a CDPATH replacement]" in page.markdown


def test_unclosed_aside_around_main_keeps_the_article():
    page = page_content(load("wcxb-4459.html.gz"), "https://www.fermyon.com/blog/startup-lessons-25-years")
    assert page.page_type == "article"
    assert "A harmonious team of 10 can outperform a dysfunctional team of 100" in page.markdown
    assert "Subscribe to Updates" not in page.markdown and "Contact Sales" not in page.markdown


def test_body_named_like_navigation_is_not_chrome():
    page = page_content(load("wcxb-0376.html.gz"), "https://www.synrgys.com/treadmill-repair-kankakee-il.html")
    assert "All repairs are warrantied for 90 days" in page.markdown
    assert "All Rights Reserved" not in page.markdown


@pytest.mark.parametrize(("html", "expected"), [
    # a category page carrying several products' JSON is a listing, not a product page
    ('<script type="application/ld+json">{"@type": "ItemList", "itemListElement": [{"@type": "Product"},'
     '{"@type": "Product"}]}</script>', "listing"),
    ('<script type="application/ld+json">{"@type": "Product", "name": "x"}</script>', "product"),
    ('<meta property="og:type" content="product">', "product"),
    ('<script type="application/ld+json">{"@type": "DiscussionForumPosting"}</script>', "forum"),
    ('<script type="application/ld+json">{"@type": ["NewsArticle"]}</script>', "article"),
    ("<p>no data</p>", None),
])
def test_declared_type_reads_the_pages_own_data(html, expected):
    assert declared_type(LexborHTMLParser(f"<html><head>{html}</head><body></body></html>")) == expected


def test_every_kind_is_documented():
    assert set(PAGE_TYPES) == {"article", "product", "listing", "documentation", "forum", "service", "hub",
                               "other"}
