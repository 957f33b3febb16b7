"""Upstream conformance: tests/tables.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 77ba65ea989446279ff2893d375c65cc6f3bf204 (the stored version): gridTables and
absoluteUrls as crawlforge.extract.grid_tables / absolute_urls (package level, as the test
imports them from the upstream index). Upstream edits a cheerio document in place; here each
helper edits a LexborHTMLParser in place (or parses an HTML string) and returns the document's
HTML. The table is upstream's inline cut of the main table of
https://en.wikipedia.org/wiki/List_of_tallest_buildings (2026-10-03), three rows.
"""

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract import absolute_urls, grid_tables

PAGE_URL = "https://en.wikipedia.org/wiki/List_of_tallest_buildings"

TABLE = """<table class="wikitable sortable"><tbody>
<tr><th rowspan="2"></th><th rowspan="2">Name</th><th colspan="2">Height</th><th rowspan="2">Floors</th><th rowspan="2">Image</th><th rowspan="2">Country</th></tr>
<tr><th>m</th><th>ft</th></tr>
<tr><td>1</td><td><b><a href="/wiki/Burj_Khalifa">Burj Khalifa</a></b></td><td>828</td><td>2,717</td><td><div class="center">163<br>(+ 2 below ground)</div></td>
<td><a href="/wiki/File:Burj_Khalifa.jpg"><img src="//upload.wikimedia.org/wikipedia/en/thumb/9/93/Burj_Khalifa.jpg/120px-Burj_Khalifa.jpg" alt=""></a></td><td rowspan="2">United Arab Emirates</td></tr>
<tr><td>2</td><td>Marina 101</td><td>425</td><td>1,394</td><td>101</td><td></td></tr>
<tr><td colspan="7">Under construction</td></tr>
</tbody></table>"""


def rows(doc: LexborHTMLParser) -> list[list[str]]:
    """Each row of the first table as its cells' trimmed text."""
    table = doc.css_first("table")
    return [
        [cell.text(deep=True, separator="", strip=False).strip() for cell in tr.iter() if cell.tag in ("th", "td")]
        for tr in table.css("tr")
    ]


def gridded(html: str) -> LexborHTMLParser:
    doc = LexborHTMLParser(html)
    grid_tables(doc)
    return doc


def first_row(all_rows: list[list[str]], first: str) -> list[str]:
    return next(row for row in all_rows if row[0] == first)


# --- gridTables ---------------------------------------------------------------------------


def test_one_header_row_and_every_row_has_the_same_number_of_columns():
    doc = gridded(TABLE)
    r = rows(doc)
    assert len(r) == 4
    assert {len(row) for row in r} == {7}
    assert r[0] == ["", "Name", "Height m", "Height ft", "Floors", "Image", "Country"]
    assert len(doc.css("thead tr")) == 1
    assert len(doc.css("thead th")) == 7
    assert not any("|".join(row) == "m|ft" for row in r), "the sub-header is not a row of its own"


def test_line_breaks_stay_inside_the_cell_a_rowspan_repeats_a_colspan_fills_its_first_column():
    doc = gridded(TABLE)
    r = rows(doc)
    assert first_row(r, "1")[4] == "163 (+ 2 below ground)"
    assert first_row(r, "2")[6] == "United Arab Emirates"
    assert first_row(r, "Under construction") == ["Under construction", "", "", "", "", "", ""]
    assert len(doc.css("td div, td br")) == 0, "no block element or <br> is left inside a cell"


def test_a_caption_is_kept():
    doc = gridded("<table><caption>Tallest</caption><tr><th>a</th></tr><tr><td>1</td></tr></table>")
    assert doc.css_first("table > caption").text() == "Tallest"


def test_a_table_with_no_header_row_is_left_as_it_is():
    html = '<table class="t"><tr><td>a</td><td colspan="2">b</td></tr><tr><td>c</td><td>d</td><td>e</td></tr></table>'
    doc = LexborHTMLParser(html)
    before = doc.html
    assert grid_tables(doc) == before
    assert doc.html == before


def test_a_nested_table_and_the_table_around_it_are_left_as_they_are():
    html = "<table><tr><th>x</th></tr><tr><td><table><tr><th>y</th></tr><tr><td>1</td></tr></table></td></tr></table>"
    doc = LexborHTMLParser(html)
    before = doc.html
    grid_tables(doc)
    assert doc.html == before


# --- absoluteUrls -------------------------------------------------------------------------


def test_protocol_relative_images_and_root_relative_links_resolve_against_the_page():
    doc = LexborHTMLParser(TABLE)
    absolute_urls(doc, PAGE_URL)
    assert doc.css_first("img").attributes["src"] == (
        "https://upload.wikimedia.org/wikipedia/en/thumb/9/93/Burj_Khalifa.jpg/120px-Burj_Khalifa.jpg"
    )
    assert doc.css_first("a").attributes["href"] == "https://en.wikipedia.org/wiki/Burj_Khalifa"


def test_base_href_is_the_base_and_anchor_links_stay_as_written():
    doc = LexborHTMLParser('<head><base href="/docs/"></head><body><a href="#top">t</a><a href="page">p</a><img src="i.png"></body>')
    absolute_urls(doc, "https://example.com/a/b")
    links = doc.css("a")
    assert links[0].attributes["href"] == "#top"
    assert links[1].attributes["href"] == "https://example.com/docs/page"
    assert doc.css_first("img").attributes["src"] == "https://example.com/docs/i.png"


def test_a_page_url_that_does_not_parse_leaves_relative_values_as_written():
    doc = LexborHTMLParser('<a href="/x">x</a>')
    absolute_urls(doc, "not a url")
    assert doc.css_first("a").attributes["href"] == "/x"


# --- the string form (crawlforge's): HTML in, the edited document's HTML out ---------------


def test_html_in_gives_the_edited_document_out():
    assert grid_tables(TABLE) == gridded(TABLE).html
    assert absolute_urls('<a href="/x">x</a>', "https://example.com/a") == (
        '<html><head></head><body><a href="https://example.com/x">x</a></body></html>'
    )
