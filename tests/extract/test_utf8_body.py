"""charset.utf8_body: the body is handed to the page's parse only when it is the text's UTF-8 byte
for byte, and the parse of a page given its body is the parse of its text."""

import codecs

from conftest import ROOT

from crawlforge.extract.charset import decode_body, utf8_body
from crawlforge.extract.dom import ParsedPage, utf8_html
from crawlforge.extract.structure import tree_signature

FIXTURES = ROOT / "fixtures"
ARTICLE = FIXTURES / "demo" / "articles" / "wikipedia_en_mozilla_tables_lists.html"
LATIN = FIXTURES / "charset" / "windows-1250_meta_rp_pl_polityka.html"


def decoded(body: bytes):
    result = decode_body(body, "text/html")
    return result["text"], result["encoding"]


def test_a_clean_utf8_body_is_the_texts_utf8():
    body = ARTICLE.read_bytes()
    text, codec = decoded(body)
    assert utf8_body(body, text, codec) is body
    assert body == text.encode("utf-8")


def test_a_body_in_another_charset_is_not():
    body = LATIN.read_bytes()
    text, codec = decoded(body)
    assert codec == "cp1250" and utf8_body(body, text, codec) is None


def test_a_bom_or_a_bad_byte_is_not():
    body = ARTICLE.read_bytes()
    with_bom = codecs.BOM_UTF8 + body
    assert utf8_body(with_bom, *decoded(with_bom)) is None  # the text has no BOM: one less character
    broken = body.replace(b"</title>", b"\xff</title>", 1)
    assert utf8_body(broken, *decoded(broken)) is None  # read in another charset
    text = broken.decode("utf-8", "replace")  # as Scrapy's response.text reads a body labelled UTF-8
    assert "\ufffd" in text and utf8_body(broken, text, "utf-8") is None
    assert utf8_body(body, decoded(body)[0], None) is None  # no codec known


def test_a_page_given_its_body_parses_as_its_text():
    body = ARTICLE.read_bytes()
    text, codec = decoded(body)
    given, encoded = ParsedPage(text, utf8_body(body, text, codec)), ParsedPage(text)
    assert given.shared(utf8_html) is body
    assert given.tree.html == encoded.tree.html
    assert tree_signature(given.tree) == tree_signature(encoded.tree)
