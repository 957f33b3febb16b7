"""Upstream conformance: tests/shopify-jsonld.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 3684b074f86b336ce6c6f26c79de3f7e01e3b381 (the stored version):
shopifyProductFromJsonLd as crawlforge.extract.shopify.shopify_product_from_jsonld, on the
upstream Gymshark ProductGroup capture (fixtures/embedded/gymshark-productgroup.json).
"""

import json
import re

from conftest import ROOT

from crawlforge.extract.shopify import shopify_product_from_jsonld

GYMSHARK = (ROOT / "fixtures" / "embedded" / "gymshark-productgroup.json").read_text(
    encoding="utf-8"
)
WEBPAGE = {"@context": "https://schema.org", "@type": "WebPage", "name": "A page"}


def js_stringify(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def page(*blocks) -> str:
    scripts = "".join(
        f'<script type="application/ld+json">{b if isinstance(b, str) else js_stringify(b)}</script>' for b in blocks
    )
    return f"<html><head><title>Store</title>{scripts}</head><body><h1>Product</h1></body></html>"


GYM_URL = "https://www.gymshark.com/products/gymshark-arrival-5-shorts-black-ss22"
GYM = shopify_product_from_jsonld(page(WEBPAGE, GYMSHARK), GYM_URL)


def test_product_group_is_found_as_json_ld():
    assert GYM["found"] is True
    assert GYM["data"]["source"] == "json-ld"


def test_product_group_fields_with_entities_decoded():
    d = GYM["data"]
    assert d["title"] == 'Arrival 5" Shorts'
    assert d["vendor"] == "Gymshark | We Do Gym"
    assert d["product_type"] == "shorts"
    assert d["handle"] == "gymshark-arrival-5-shorts-black-ss22"
    assert d["product_id"] == "6804846346442"
    assert d["options"] == ["size"]
    assert d["url"] == GYM_URL
    assert d["images"] == [
        "https://cdn.shopify.com/s/files/1/0156/6146/files/images-Arrival5ShortsBlackA2A1M_BBBB_1826_A_Edit.jpg?v=1750084637"
    ]


def test_product_group_price_and_availability_from_variants():
    d = GYM["data"]
    assert (d["price"], d["price_min"], d["price_max"], d["currency"]) == ("26.00", "26.00", "26.00", "USD")
    assert d["available"] is True
    assert d["compare_at_price"] is None
    assert d["on_sale"] is None


def test_each_size_is_a_variant_keyed_by_mpn():
    rows = [[v["id"], v["sku"], v["price"], v["available"], v["options"], v["inventory_quantity"]] for v in GYM["data"]["variants"]]
    assert rows == [
        ["A2A1M-BBBB-XS", "A2A1M-BBBB", "26.00", True, ["xs"], None],
        ["A2A1M-BBBB-S", "A2A1M-BBBB", "26.00", True, ["s"], None],
    ]


PRODUCT = {
    "@context": "https://schema.org",
    "@type": "Product",
    "name": "Crest Hoodie",
    "brand": {"@type": "Brand", "name": "Acme"},
    "sku": "B1A2",
    "description": "  A heavyweight\n hoodie. ",
    "image": ["https://cdn.example/1.jpg", {"@type": "ImageObject", "url": "https://cdn.example/2.jpg"}, "javascript:alert(1)"],
    "offers": [
        {"@type": "Offer", "price": "50.00", "priceCurrency": "GBP", "availability": "https://schema.org/InStock", "sku": "B1A2-S", "name": "S"},
        {"@type": "Offer", "price": 55, "priceCurrency": "GBP", "availability": "https://schema.org/OutOfStock", "sku": "B1A2-M", "name": "M"},
    ],
}  # fmt: skip


def test_offers_become_variants_and_a_malformed_block_is_skipped():
    out = shopify_product_from_jsonld(page(WEBPAGE, "{not json", PRODUCT), "https://store.example/products/crest-hoodie?variant=1")
    assert out["found"] is True
    d = out["data"]
    assert (d["title"], d["vendor"], d["handle"], d["product_id"]) == ("Crest Hoodie", "Acme", "crest-hoodie", "B1A2")
    assert (d["price"], d["price_max"], d["currency"], d["available"]) == ("50.00", "55.00", "GBP", True)
    assert [[v["title"], v["price"], v["available"]] for v in d["variants"]] == [["S", "50.00", True], ["M", "55.00", False]]
    assert d["description"] == "A heavyweight hoodie."
    assert d["images"] == ["https://cdn.example/1.jpg", "https://cdn.example/2.jpg"]
    assert d["url"] == "https://store.example/products/crest-hoodie?variant=1"


def test_aggregate_offer_inside_graph():
    graph = {"@context": "https://schema.org", "@graph": [WEBPAGE, {
        "@type": ["Product"], "name": "Watch", "brand": "Omega",
        "offers": {"@type": "AggregateOffer", "lowPrice": "1,299.00", "highPrice": "1,499.00", "priceCurrency": "USD", "availability": "InStock"},
    }]}  # fmt: skip
    out = shopify_product_from_jsonld(page(graph), "https://store.example/products/watch")
    assert out["found"] is True
    assert (out["data"]["vendor"], out["data"]["price"], out["data"]["price_max"]) == ("Omega", "1299.00", "1499.00")
    assert out["data"]["available"] is True


def test_collection_page_names_the_retired_handle():
    out = shopify_product_from_jsonld(page(WEBPAGE), "https://store.example/collections/all")
    assert out["found"] is False
    assert re.search(r"no schema\.org Product JSON-LD", out["reason"])
    assert "redirected to a collection page" in out["reason"]


def test_any_other_page_says_only_that_nothing_was_found():
    out = shopify_product_from_jsonld("<html><body>nothing</body></html>", "https://store.example/products/x")
    assert out["found"] is False
    assert "collection" not in out["reason"]


def test_empty_input():
    assert shopify_product_from_jsonld("", "https://store.example/products/x")["found"] is False
