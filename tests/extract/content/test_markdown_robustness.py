"""html_to_markdown never raises or stalls on hostile or broken input (synthetic inputs)."""

import pytest

from crawlforge.extract.markdown import html_to_markdown

URL = "https://example.org/page"


@pytest.mark.parametrize("html", ["", "   ", "\n\t", "<html></html>", "<!-- only a comment -->"])
def test_synthetic_empty_documents_give_empty_markdown(html):
    assert html_to_markdown(html, URL) == ""


def test_synthetic_fragment_without_html_element():
    assert html_to_markdown("<p>Hello <b>world</b></p>", URL) == "Hello **world**\n"


def test_synthetic_xml_declaration_is_ignored():
    html = '<?xml version="1.0" encoding="utf-8"?>\n<html><body><p>Body text here.</p></body></html>'
    assert html_to_markdown(html, URL) == "Body text here.\n"


def test_synthetic_lone_surrogates_and_nul_do_not_raise():
    assert "bad" in html_to_markdown("<p>bad \ud800 text\x00 here</p>", URL)


def test_synthetic_bytes_with_invalid_utf8_are_decoded_with_replacement():
    assert html_to_markdown(b"<p>caf\xe9 au lait</p>", URL) == "caf\ufffd au lait\n"


@pytest.mark.parametrize("opening", ["<div>", '<div class="x">', "<span>", "<ul><li>", "<div>a"])
def test_synthetic_50k_deep_nesting_is_flattened(opening):
    """Without the nesting cap this takes minutes (lexbor and tree walks grow with depth²)."""
    html = opening * 50_000 + "deep text" + "</div>" * 50_000
    assert "deep text" in html_to_markdown(html, URL)


def test_synthetic_20mb_page_is_converted_whole_without_scoring():
    html = "<html><body><nav>menu</nav>" + "<p>Lorem ipsum dolor sit amet.</p>" * 600_000 + "</body></html>"
    assert len(html) > 20_000_000
    markdown = html_to_markdown(html, URL)
    assert markdown.startswith("menu\n\nLorem ipsum dolor sit amet.")
    assert markdown.count("Lorem ipsum") == 600_000


def test_synthetic_huge_nested_article_is_converted_in_pieces_keeping_every_paragraph_in_order():
    """Past a megabyte the HTML goes to the converter in pieces cut between block children,
    however deep the paragraphs sit; none is lost, split or run into the next."""
    paragraphs = "".join(f"<p>Paragraph {n} of the story, <b>bold</b> and plain.</p>" for n in range(150_000))
    html = f"<html><body><main><article><div class='body'>{paragraphs}</div></article></main></body></html>"
    assert len(html) > 8_000_000
    blocks = html_to_markdown(html, URL).strip().split("\n\n")
    assert blocks == [f"Paragraph {n} of the story, **bold** and plain." for n in range(150_000)]


def test_synthetic_page_over_max_bytes_skips_main_content_scoring():
    html = "<body><nav>Site menu</nav><article><p>" + "Words of the story. " * 40 + "</p></article></body>"
    assert "Site menu" not in html_to_markdown(html, URL)
    assert "Site menu" in html_to_markdown(html, URL, max_bytes=100)


def test_synthetic_nested_code_tables_are_unwrapped_once():
    prose = "<p>" + "Some words here, and more. " * 20 + "</p>"
    html = (f"<article>{prose}<table><tr><td><table><tr><td><pre>1\n2</pre></td>"
            "<td><pre>x = 1\ny = 2</pre></td></tr></table><pre>z=3</pre></td></tr></table></article>")
    markdown = html_to_markdown(html, URL)
    assert markdown.endswith("```\nx = 1\ny = 2\n```\n\n```\nz=3\n```\n")
