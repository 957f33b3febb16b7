"""Upstream conformance: tests/links.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 8330e10281149f790cdc4bc87eea1ea8a8528975 (the stored version):
extractLinkRecords as crawlforge.extract.pagehelpers.links.extract_link_records, its options as keyword
arguments (page_url, base_url, include_anchors, dedupe); the document is HTML or a parser.
"""

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.pagehelpers.links import extract_link_records

PAGE = "https://example.com/docs/page"


def links(html: str, **options) -> list[dict]:
    return extract_link_records(LexborHTMLParser(html), **(options or {"page_url": PAGE}))


def test_one_record_shape():
    [record] = links('<a href="/about" rel="nofollow">  About\n us </a>')
    assert record == {
        "href": "https://example.com/about",
        "text": "About us",
        "type": "internal",
        "domain": "example.com",
        "rel": "nofollow",
        "original_href": "/about",
    }
    assert list(record) == ["href", "text", "type", "domain", "rel", "original_href"]


def test_internal_is_the_same_hostname_another_host_is_external():
    records = links('<a href="http://example.com/x">a</a><a href="https://other.org/">b</a><a href="//cdn.example.com/y">c</a>')
    assert [r["type"] for r in records] == ["internal", "external", "external"]
    assert records[2]["href"] == "https://cdn.example.com/y"


def test_mailto_tel_and_javascript_are_other_only_mailto_and_tel_keep_their_href():
    records = links(
        '<a href="mailto:hi@example.com">Mail</a><a href="tel:+15551234">Call</a>'
        '<a href="javascript:void(0)">Cookie Settings</a><a href="java\tscript:alert(1)">x</a><a href="data:text/html,hi">d</a>'
    )
    assert [r["type"] for r in records] == ["other"] * 5
    assert records[0]["href"] == "mailto:hi@example.com"
    assert records[1]["href"] == "tel:+15551234"
    for record in records[2:]:  # javascript: (disguised by a tab or not) and data:
        assert record["href"] is None
        assert record["original_href"] is None
    assert all(r["domain"] is None for r in records)


def test_dedupes_on_the_url_without_fragment_or_trailing_slash_keeping_the_first():
    records = links('<a href="/a/">1</a><a href="/a">2</a><a href="/a#top">3</a><a href="/b?q=1">4</a><a href="/b?q=2">5</a>')
    assert [r["text"] for r in records] == ["1", "4", "5"]
    assert records[0]["href"] == "https://example.com/a/"


def test_dedupe_false_keeps_every_link():
    assert len(links('<a href="/a">1</a><a href="/a">2</a>', page_url=PAGE, dedupe=False)) == 2


def test_fragment_only_hrefs_are_skipped_unless_include_anchors():
    assert len(links('<a href="#top">Top</a>')) == 0
    [record] = links('<a href="#top">Top</a>', page_url=PAGE, include_anchors=True)
    assert record["type"] == "anchor"
    assert record["href"] == "#top"


def test_base_href_is_the_resolution_base_and_base_url_wins_over_it():
    html = '<head><base href="/assets/"></head><body><a href="img.png">i</a></body>'
    assert links(html)[0]["href"] == "https://example.com/assets/img.png"
    assert links(html, page_url=PAGE, base_url="https://mirror.net/")[0]["href"] == "https://mirror.net/img.png"


def test_internal_external_is_judged_by_the_page_host_even_under_base_href_elsewhere():
    [record] = links('<base href="https://cdn.example.net/"><a href="x">x</a>')
    assert record["href"] == "https://cdn.example.net/x"
    assert record["type"] == "external"


def test_no_page_and_no_base_a_relative_href_stays_as_written():
    records = extract_link_records('<a href="/x">x</a><a href="https://a.com/">a</a>')
    assert [[r["type"], r["href"]] for r in records] == [["relative", "/x"], ["external", "https://a.com/"]]


def test_no_page_url_base_url_decides_the_host():
    [record] = extract_link_records('<a href="/x">x</a>', base_url="https://example.com/")
    assert record["type"] == "internal"


def test_title_is_carried_when_present_empty_href_is_skipped():
    records = links('<a href="">empty</a><a href="/t" title="Tip">t</a>')
    assert len(records) == 1
    assert records[0]["title"] == "Tip"
