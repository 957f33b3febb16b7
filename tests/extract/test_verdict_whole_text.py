"""The verdict's doc without its whole text (``parsed_page_doc(..., whole_text=False)``): a long
page keeps only the paragraphs the verdict needs, and every verdict stays what the whole text gives."""


import pytest

from conftest import ROOT

from crawlforge.extract.charset import decode_body
from crawlforge.extract.dom import ParsedPage
from crawlforge.extract.verdict import SHORT_PAGE_CHARS, document_verdict, needs_browser, parsed_page_doc

FIXTURES = ROOT / "fixtures"
PAGES = sorted([*(FIXTURES / "botwall").rglob("*.html"), *(FIXTURES / "demo").rglob("*.html"),
                *(FIXTURES / "embedded").rglob("*.html")])
PLAIN_FETCH = {"fetcher": "scrapy", "rendered": False}


def docs(path):
    page = ParsedPage(decode_body(path.read_bytes())["text"])
    return (parsed_page_doc(page, "https://example.com/page", 200),
            parsed_page_doc(page, "https://example.com/page", 200, whole_text=False))


@pytest.mark.parametrize("path", PAGES, ids=lambda path: path.name)
def test_the_verdict_of_the_short_doc_is_the_verdict_of_the_whole_one(path):
    whole, short = docs(path)
    assert document_verdict(short, PLAIN_FETCH) == document_verdict(whole, PLAIN_FETCH)
    assert needs_browser(short) == needs_browser(whole)
    assert (short["title"], short["html"]) == (whole["title"], whole["html"])
    assert (not short["text"]) == (not whole["text"])


def test_a_long_page_keeps_its_first_paragraphs_and_a_wall_its_whole_text():
    whole, short = docs(FIXTURES / "botwall" / "normal" / "lwn_net_weekly_edition_2015-03-26_tables.html")
    assert SHORT_PAGE_CHARS <= len(short["text"]) < len(whole["text"])
    assert whole["text"].startswith(short["text"].split(" ", 1)[0])
    whole, short = docs(FIXTURES / "botwall" / "upstream" / "datadome.html")
    assert short == whole
