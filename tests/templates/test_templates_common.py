"""The JS-compatible helpers every template relies on (templates.md §0, §1, §5.11)."""

import math

import pytest

from conftest import ROOT

from crawlforge.templates.common import (
    as_document,
    attr,
    encode_uri_component,
    epoch_to_iso,
    first_truthy,
    html_to_text,
    iso_now,
    js_number_str,
    js_to_number,
    js_truthy,
    list_attr,
    list_text,
    safe_href,
    text,
    tidy,
)

FIXTURES = ROOT / "fixtures" / "templates"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("  a \n\t b  ", "a b"),
        ("\ufeffa\u00a0\u2028b\u3000", "a b"),
        ("a\x1cb", "a\x1cb"),  # U+001C is not JS whitespace
        ("   ", None),
        (None, None),
        (0, "0"),
        (26.0, "26"),
        (False, "false"),
    ],
)
def test_tidy_uses_js_whitespace_and_js_string(value, expected):
    assert tidy(value) == expected


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ("<p>Fish &amp; chips</p>\n<p>&lt;b&gt; is <em>bold</em></p>", "Fish & chips <b> is bold"),
        ("plain", "plain"),
        ("<p> </p>", None),
        ("", None),
        (None, None),
    ],
)
def test_html_to_text(html, expected):
    assert html_to_text(html) == expected


@pytest.mark.parametrize(
    ("seconds", "expected"),
    [
        (1340805096, "2012-06-27T13:51:36.000Z"),
        (1.5, "1970-01-01T00:00:01.500Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.000Z"),
        ("1340805096", None),
        (None, None),
        (True, None),
        (math.nan, None),
    ],
)
def test_epoch_to_iso(seconds, expected):
    assert epoch_to_iso(seconds) == expected


def test_iso_now_has_milliseconds_and_z():
    now = iso_now()
    assert len(now) == 24 and now[10] == "T" and now[19] == "." and now.endswith("Z")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("https://a.com/x", "https://a.com/x"),
        ("  HTTP://a.com  ", "HTTP://a.com"),
        ("/relative?q=1", "/relative?q=1"),
        ("//cdn.example.com/x", "//cdn.example.com/x"),
        ("#frag", "#frag"),
        ("javascript:alert(1)", None),
        ("java\tscript:alert(1)", None),
        ("data:text/html,x", None),
        ("mailto:a@b.c", None),
        ("\x00\x1f", None),
        (None, None),
        (5, None),
    ],
)
def test_safe_href(value, expected):
    assert safe_href(value) == expected


def test_encode_uri_component_keeps_js_safe_set():
    assert encode_uri_component("a b*'()!~._-/é?") == "a%20b*'()!~._-%2F%C3%A9%3F"


@pytest.mark.parametrize(
    ("number", "expected"),
    [(26, "26"), (26.0, "26"), (0.1, "0.1"), (1e21, "1e+21"), (1e-7, "1e-7"), (0.000001, "0.000001"), (-3.25, "-3.25")],
)
def test_js_number_str(number, expected):
    assert js_number_str(number) == expected


def test_js_truthiness_differs_from_python_for_containers():
    assert js_truthy([]) and js_truthy({}) and not js_truthy("") and not js_truthy(0) and not js_truthy(math.nan)
    assert first_truthy("", [], "x") == []
    assert first_truthy("", 0, None) is None


@pytest.mark.parametrize(("value", "expected"), [("50", 50), (" 0x10 ", 16), ("", 0), (None, 0), (2.5, 2.5)])
def test_js_to_number(value, expected):
    assert js_to_number(value) == expected


def test_js_to_number_nan():
    assert math.isnan(js_to_number("5a"))


def test_dom_helpers_read_like_cheerio():
    doc = as_document((FIXTURES / "github-repo-hono.html").read_text(encoding="utf-8"))
    assert text(doc, 'strong[itemprop="name"] a') == "hono"
    assert text(doc, "#no-such-id") is None
    assert attr(doc, "#repo-stars-counter-star", "title") == "32,407"
    assert attr(doc, "#issues-repo-tab-count", "data-pjax-replace") is None  # empty → None
    assert list_text(doc, ".Counter") == ["32.4k", "1.4k", "268"]
    assert list_attr(doc, "article a", "href") == [
        "https://github.com/honojs/hono/actions",
        "https://github.com/honojs/hono/blob/main/LICENSE",
    ]
