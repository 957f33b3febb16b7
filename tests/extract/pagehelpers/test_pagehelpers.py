"""The page helpers (flatten_text, grid_tables, extract_link_records, absolute_urls, redact_pii) on real pages:
the Stardew Valley Wiki's "Penny" article (fixtures/pagehelpers, a MediaWiki page with data
tables, navboxes and a few hundred links) and a meedia.de article with a noscript pixel in its head."""

from collections import Counter

from selectolax.lexbor import LexborHTMLParser

from conftest import ROOT

from crawlforge.extract import absolute_urls, extract_link_records, flatten_text, grid_tables, redact_pii

PAGE_URL = "https://stardewvalleywiki.com/Penny"
HTML = (ROOT / "fixtures" / "pagehelpers" / "stardewvalleywiki.com.penny.html").read_text(
    encoding="utf-8"
)


def without_scripts() -> LexborHTMLParser:
    doc = LexborHTMLParser(HTML)
    for node in doc.css("script, style"):
        node.decompose()
    return doc


def test_the_infobox_reads_one_line_per_block():
    lines = flatten_text(without_scripts()).split("\n")
    assert lines[:8] == [
        "Penny", "From Stardew Valley Wiki", "Jump to: navigation, search", "Penny", "Information",
        "Birthday: Fall 2", "Lives In: Pelican Town", "Address: Trailer",
    ]  # fmt: skip
    assert all(line == line.strip() and line for line in lines)


def test_gift_tables_become_grids_of_one_header_row():
    doc = LexborHTMLParser(HTML)
    grid_tables(doc)
    gridded = [table for table in doc.css("table") if table.css_first("thead") is not None]
    assert len(gridded) == 13
    loves = gridded[0]
    assert [th.text().strip() for th in loves.css("thead th")] == ["Image", "Name", "Description", "Source", "Ingredients"]
    assert {len(tr.css("td")) for tr in loves.css("tbody tr")} == {5}
    assert [td.text().strip() for td in loves.css("tbody tr")[1].css("td")] == [
        "", "Diamond", "A rare and valuable gem.", "Mining", "",
    ]  # fmt: skip


def test_links_are_deduplicated_records_judged_by_the_page_host():
    records = extract_link_records(without_scripts(), PAGE_URL)
    assert len(records) == 252
    assert Counter(r["type"] for r in records) == {"internal": 229, "external": 23}
    assert len(extract_link_records(without_scripts(), PAGE_URL, dedupe=False)) == 657
    assert len({r["href"] for r in records}) == len(records)


def test_a_wiki_page_full_of_numbers_redacts_to_nothing():
    text = flatten_text(without_scripts())
    assert redact_pii(text) == {"text": text, "redaction": {"entities": {}, "count": 0}}


MEEDIA = (ROOT / "fixtures" / "pagehelpers" / "meedia.de.freenet.html").read_text(
    encoding="utf-8"
)


def test_a_noscript_pixel_in_the_head_does_not_end_the_head():
    # Parsed with scripting on, as cheerio: the pixel's <img> is noscript text, not an element.
    out = LexborHTMLParser(absolute_urls(MEEDIA, "https://meedia.de/"), scripting=True)
    assert len(out.css("head link")) == 28
    assert out.css_first('head link[rel="dns-prefetch"]').attributes["href"] == "//script.ioam.de"  # only img/a resolve
    assert not any("facebook.com/tr" in (img.attributes.get("src") or "") for img in out.css("img"))
