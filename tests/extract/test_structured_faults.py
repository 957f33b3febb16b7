"""Hostile and broken inputs: warnings or errors entries, never exceptions.

The pages here are synthetic on purpose (fault cases built in code), not captures.
"""

import json
import random

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crawlforge.extract.frontmatter import parse_document, render_document
from crawlforge.extract.structured import extract_structured_data

URL = "https://shop.example/p/1"


def ld(block: str) -> str:
    return f'<html><head><title>t</title><script type="application/ld+json">{block}</script></head><body></body></html>'


def test_comments_trailing_commas_and_control_characters_are_tolerated():
    block = '<!-- x -->\n{"@type": "Product", "name": "Tea\x01pot", "offers": {"price": "9,50", "priceCurrency": "eur",},}'
    data = extract_structured_data(ld(block), URL)
    assert data.structured_data["product_name"].startswith("Tea")
    assert (data.structured_data["price"], data.structured_data["currency"]) == ("9.50", "EUR")


def test_wrong_types_are_read_as_text_or_ignored():
    block = json.dumps({"@type": ["Thing", "Product"], "name": ["Lamp", "Lampe"], "brand": [{"name": "Acme"}],
                        "sku": 1234, "image": {"url": "/i/lamp.jpg"}, "offers": [{"price": True}, "free"]})
    data = extract_structured_data(ld(block), URL)
    assert data.structured_data == {"product_name": "Lamp", "brand": "Acme", "sku": "1234",
                                    "image": "https://shop.example/i/lamp.jpg"}


def test_ten_megabyte_broken_script_is_a_warning():
    block = '{"@type": "Product", "name": "' + "x" * (10 * 1024 * 1024)
    data = extract_structured_data(ld(block), URL)
    assert data.errors == []
    assert [w["extractor"] for w in data.warnings] == ["json-ld"]
    assert "too large to read" in data.warnings[0]["message"]  # over BLOCK_MAX_CHARS: not even parsed


def test_broken_block_over_a_megabyte_is_not_repaired():
    block = '{"@type": "Product", "name": "' + "x" * (1024 * 1024)
    data = extract_structured_data(ld(block), URL)
    assert "too large to repair" in data.warnings[0]["message"]


def test_deeply_nested_json_ld_does_not_raise():
    data = extract_structured_data(ld("[" * 100_000 + "]" * 100_000), URL)
    assert data.structured_data == {}


def test_deeply_nested_product_json_does_not_raise():
    html = ('<script type="application/json" data-product-json>' + '{"a":' * 50_000 + "1" + "}" * 50_000
            + "</script><script>var meta = " + "[" * 50_000 + "</script>Shopify")
    data = extract_structured_data(html, URL)
    assert data.platform_data == {}


def test_binary_garbage_does_not_raise():
    garbage = random.Random(7).randbytes(200_000)
    for html in (garbage.decode("latin-1"), garbage.decode("utf-8", "replace"), garbage):
        data = extract_structured_data(html, URL)
        assert data.errors == []


def test_nul_bytes_and_xml_declaration():
    html = '<?xml version="1.0" encoding="iso-8859-1"?><html><head><title>a\x00b</title></head></html>'
    assert extract_structured_data(html, URL).meta["title"].startswith("a")


def test_a_spec_that_is_not_an_extractor_is_a_configuration_error():
    with pytest.raises(TypeError, match="join"):
        extract_structured_data(ld("{}"), URL, extractors=["os.path:join"])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(
        st.sampled_from(["@type", "@graph", "name", "offers", "price", "brand", "hasVariant", "image",
                         "mainEntity", "availability", "priceCurrency", "sku", "author", "x"]), children, max_size=5),
    max_leaves=30,
)
tags = st.sampled_from(["<script type=\"application/ld+json\">", "</script>", "<div itemscope itemtype=\"http://schema.org/Product\">",
                        "<span itemprop=\"price\">", "</div>", "<meta property=\"og:title\" content=\"", "\">", "<title>",
                        "<!--", "-->", "var meta = {", "ShopifyAnalytics.meta = ", "<body class=\"is--ctl-detail woocommerce\">"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(tags | st.text(max_size=30) | json_values.map(json.dumps), max_size=12))
def test_random_html_and_json_never_raise(parts):
    data = extract_structured_data("".join(parts), URL)
    assert data.errors == []
    json.dumps(data.to_dict())
    frontmatter, markdown = parse_document(render_document(data.to_frontmatter(), "body"))
    assert frontmatter == data.to_frontmatter() and markdown == "body"
