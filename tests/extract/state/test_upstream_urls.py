"""Upstream conformance: tests/urls.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 5f9cf15106e38e2a4551c9091664b2524711dd19 (the stored version): safeHref as
crawlforge.extract.state.jsutil.safe_href, the one implementation the templates and the JSON-LD
Shopify reader share. That version of the test file covers safeHref only.
"""

from crawlforge.extract.state.jsutil import safe_href

SP, TAB, LF, NUL = chr(32), chr(9), chr(10), chr(0)


def test_keeps_http_and_https_urls_unchanged():
    assert safe_href("https://example.com/x?y=1#z") == "https://example.com/x?y=1#z"
    assert safe_href("http://a.b/c") == "http://a.b/c"
    assert safe_href("HTTPS://Example.com") == "HTTPS://Example.com"


def test_keeps_scheme_less_values():
    for value in ("/products/handle", "//cdn.example.com/a.js", "?q=1", "#section"):
        assert safe_href(value) == value


def test_drops_javascript_data_and_other_schemes():
    for value in (
        "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)", "file:///etc/passwd", "mailto:a@b.com", "tel:+15550000",
    ):  # fmt: skip
        assert safe_href(value) is None, value


def test_not_fooled_by_whitespace_or_control_characters():
    for value in (
        SP + SP + "javascript:alert(1)" + SP + SP, "java" + TAB + "script:alert(1)",
        "java" + LF + "script:alert(1)", SP + "javascript:alert(1)", NUL + "javascript:alert(1)",
    ):  # fmt: skip
        assert safe_href(value) is None, repr(value)


def test_none_for_empty_and_non_string_input():
    for value in ("", SP * 3, None, 42, {}):
        assert safe_href(value) is None, repr(value)
