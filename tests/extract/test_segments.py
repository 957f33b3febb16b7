"""A huge page is read in pieces, never as one tree (issue 22.3: memory per page), by plain calls.

Real pages from fixtures/ are cut into small pieces to show that the pieces read as the whole
page does; the huge page is synthetic on purpose (a size attack, built in code).
"""

import re
from itertools import pairwise

import pytest

from conftest import ROOT

from crawlforge.extract import dom, segments
from crawlforge.extract import markdown as markdown_module
from crawlforge.extract.dom import ParsedPage
from crawlforge.extract.extractors import base
from crawlforge.extract.markdown import html_to_markdown, page_markdown
from crawlforge.extract.structured import page_structured_data
from crawlforge.spiders.site import page_links

FIXTURES = ROOT / "fixtures"
REAL = ["botwall/normal/it-learner_de_windows_autotuning_tables_pre.html",
        "demo/articles/hacks_mozilla_org_fetch_api_code_tables.html",
        "markdown/statisticsglobe_com_ggplot2_font_size_code.html",
        "pagehelpers/stardewvalleywiki.com.penny.html"]
URL = "https://example.com/page"
_START_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9-]*)")


def read(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8", errors="replace")


@pytest.mark.parametrize("name", REAL)
def test_pieces_cover_the_page_and_are_cut_between_blocks_among_plain_containers(name):
    html = read(name)
    cut = segments.pieces(html, 10_000)
    assert len(cut) > 3
    assert "".join(html[piece.start:piece.end] for piece in cut) == html
    for before, piece in pairwise(cut):
        ended = re.search(r"</([a-zA-Z0-9]+)\s*>$", html[: piece.start])  # a cut after an end tag
        begun = re.match(r"<([a-zA-Z0-9]+)", html[piece.start :])  # or before a start tag
        blocks = {match.group(1).lower() for match in (ended, begun) if match}
        opened = {name.lower() for name in _START_TAG.findall(piece.context)}
        size = before.end - before.start
        if size < 2 * 10_000:  # a piece of the wanted size: at a block among plain ones
            assert blocks & segments._ENDS_P and opened <= segments._PLAIN
        elif size < 4 * 10_000:  # a long list or table: between its items
            assert blocks & (segments._ENDS_P | segments._ITEMS) and opened <= segments._PLAIN_OR_LISTS


@pytest.mark.parametrize("name", REAL)
def test_a_page_read_in_pieces_has_the_markdown_of_the_whole_page(name, monkeypatch):
    html = read(name)
    whole = html_to_markdown(html, URL, main_content=False)  # one tree
    monkeypatch.setattr(dom, "KEEP_MAX_CHARS", 20_000)
    monkeypatch.setattr(segments, "PIECE_CHARS", 20_000)
    assert ParsedPage(html).huge and len(ParsedPage(html).pieces) > 3
    assert html_to_markdown(html, URL, max_bytes=20_000) == whole  # over max_bytes: the whole body, in pieces


def test_raw_text_and_quoted_angle_brackets_are_not_tags():
    html = ("<body><div data-x='a > b'><p>one</p></div><script>var s = '</div><div>';</script>"
            "<!-- </p></div> --><p>two</p><p>three</p></body>")
    cut = segments.pieces(html, 10)
    assert [(piece.context, html[piece.start:piece.end]) for piece in cut] == [
        ("", "<body><div data-x='a > b'>"),
        ("<body><div data-x='a > b'>", "<p>one</p>"),
        ("<body><div data-x='a > b'>", "</div><script>var s = '</div><div>';</script><!-- </p></div> -->"),
        ("<body>", "<p>two</p>"),  # the div was ended by its own end tag, not the script's or the comment's
        ("<body>", "<p>three</p>"),
        ("<body>", "</body>")]


def synthetic_huge_article(paragraphs: int) -> str:
    """A size attack: a page of many paragraphs, its data and last link at the very end."""
    paragraph = "<p>" + " ".join(f"word{i}" for i in range(40)) + " <a href='x'>link</a></p>\n"
    return ('<html><head><title>huge</title><base href="https://example.com/base/"></head><body><article>'
            '<p>first paragraph</p><div itemscope itemtype="https://schema.org/Product">'
            '<span itemprop="sku">H-1</span></div>' + paragraph * paragraphs + "<p>last paragraph <a href='/end'>end</a></p>"
            '</article><script type="application/ld+json">{"@context": "https://schema.org", '
            '"@type": "Article", "headline": "The huge page"}</script></body></html>')


def test_a_huge_page_is_read_in_pieces_and_never_parsed_whole(monkeypatch):
    html = synthetic_huge_article(30_000)  # ~7 MB
    parsed_sizes = []  # of every lexbor and lxml parse
    parse_page, parse_tree = dom.parse_page, base.parse_tree
    monkeypatch.setattr(dom, "parse_page", lambda text, *rest: parsed_sizes.append(len(text)) or parse_page(text, *rest))
    monkeypatch.setattr(base, "parse_tree", lambda text: parsed_sizes.append(len(text)) or parse_tree(text))
    page = ParsedPage(html)
    assert page.huge and len(page.pieces) > 5
    markdown = page_markdown(page, URL)
    assert markdown.startswith("first paragraph") and "last paragraph [end](https://example.com/end)" in markdown
    assert markdown.count("word39") == 30_000
    data = page_structured_data(page, URL).structured_data
    assert data["headline"] == "The huge page"  # its script, after the pieces
    assert data["sku"] == "H-1"  # microdata in its first piece, through lxml
    links = page_links(page, URL, "utf-8")
    assert links == ["https://example.com/base/x", "https://example.com/end"]
    assert max(parsed_sizes) < 2 * segments.PIECE_CHARS < len(html)


def synthetic_dense_table(rows: int) -> str:
    """A size attack in dense markup: one table of tiny cells, whose tree costs ~25x its text."""
    row = "<tr>" + "".join(f"<td>cell {i}</td>" for i in range(8)) + "</tr>\n"
    return "<html><head><title>table</title></head><body><table>" + row * rows + "</table></body></html>"


def test_dense_markup_is_cut_by_its_tag_count_between_the_rows_of_its_table(monkeypatch):
    html = synthetic_dense_table(2000)
    cut = segments.pieces(html, 10**9, 1000)  # a size in characters never reached
    assert len(cut) >= 16  # ~34,000 tags: past 2x the wanted tags, cut between rows
    for piece in cut[1:-1]:
        text = html[piece.start:piece.end].strip()
        assert piece.context == "<html><body><table>" and text.startswith("<tr>") and text.endswith(("</tr>", "</table>"))
    monkeypatch.setattr(dom, "KEEP_MAX_CHARS", 50_000)
    monkeypatch.setattr(segments, "PIECE_TAGS", 1000)
    markdown = html_to_markdown(html, URL, max_bytes=50_000)
    assert markdown.count("| cell 0 | cell 1 |") == 2000  # every row, in a table of each piece


def test_a_huge_pages_plain_spans_give_way_to_their_text_and_hidden_ones_stay_hidden(monkeypatch):
    """html-to-markdown's time grows with the square of the spans in one block."""
    span = "<span>" + " ".join(f"word{i}" for i in range(10)) + "</span> "
    html = ('<html><body><p><span hidden>secret one</span><span style="display: none">secret two</span>'
            + span * 100_000 + "</p></body></html>")  # ~6.5 MB, one paragraph
    converted = []
    convert = markdown_module.convert
    monkeypatch.setattr(markdown_module, "convert", lambda text, options: converted.append(text) or convert(text, options))
    markdown = html_to_markdown(html, URL)
    assert markdown.count("word9") == 100_000 and "secret" not in markdown
    assert len(converted) >= 2 and sum(text.count("<span") for text in converted) == 2  # only the hidden ones
