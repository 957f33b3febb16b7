"""Upstream conformance: tests/shopify-product.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 163bb5e75fcf71d55709a6c518a4d8bd3e2ebf81 (the newest stored version): the
shopify-product template on the upstream's condensed /products/<handle>.json payloads. A JS
``undefined`` member, which JSON.stringify drops, is left out of the Python payload.
"""

import json

import pytest

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()
TEMPLATE = REGISTRY.get("shopify-product")


def variant(**over) -> dict:
    return {
        "id": 1, "title": "Default Title", "price": "11.99", "compare_at_price": "", "sku": "SKU-1",
        "option1": "Default Title", "inventory_management": "shopify", "inventory_policy": "deny",
        "inventory_quantity": 35, "price_currency": "USD", **over,
    }  # fmt: skip


def payload(over: dict | None = None, variants: list | None = None) -> str:
    product = {
        "id": 999,
        "title": "Light Roast Coffee (10oz Ground)",
        "vendor": "Death Wish Coffee",
        "product_type": "Coffee",
        "handle": "light-roast-10oz",
        "body_html": "<p>Smooth <strong>light</strong> roast.</p>",
        "tags": ["coffee", "light"],
        "options": [{"name": "Title"}],
        "images": [{"src": "https://cdn.example/1.jpg"}],
        "published_at": "2024-01-01T00:00:00-05:00",
        "updated_at": "2026-08-01T00:00:00-04:00",
        "variants": [variant()] if variants is None else variants,
        **(over or {}),
    }
    return json.dumps({"product": product})


def run(body: str, url: str = "https://shop.example.com/products/light-roast-10oz") -> dict:
    return TEMPLATE.extract_raw(body, url)


# --- URL resolution -----------------------------------------------------------------------


def test_product_page_url_becomes_the_json_endpoint():
    assert TEMPLATE.resolve_url("https://shop.example.com/products/light-roast-10oz") == "https://shop.example.com/products/light-roast-10oz.json"


def test_variant_query_and_trailing_slash_are_dropped():
    assert TEMPLATE.resolve_url("https://shop.example.com/products/tee?variant=42284735168567") == "https://shop.example.com/products/tee.json"
    assert TEMPLATE.resolve_url("https://shop.example.com/products/tee/") == "https://shop.example.com/products/tee.json"


def test_locale_prefixed_path_still_resolves():
    assert TEMPLATE.resolve_url("https://shop.example.com/en-ca/products/tee") == "https://shop.example.com/en-ca/products/tee.json"


def test_json_url_is_not_doubled():
    url = "https://shop.example.com/products/tee.json"
    assert TEMPLATE.resolve_url(url) == url


# --- extraction ---------------------------------------------------------------------------


def test_price_and_compare_at_come_from_the_store():
    data = run(payload(variants=[variant(price="75.00", compare_at_price="112.00")]))
    assert (data["price"], data["compare_at_price"], data["on_sale"], data["currency"]) == ("75.00", "112.00", True, "USD")


def test_absent_compare_at_price_is_null():
    data = run(payload())
    assert data["compare_at_price"] is None and data["on_sale"] is False


def test_zero_compare_at_price_reads_as_unset():
    data = run(payload(variants=[variant(price="110.00", compare_at_price="0.00")]))
    assert data["compare_at_price"] is None and data["on_sale"] is False


def test_free_product_keeps_its_zero_price():
    assert run(payload(variants=[variant(price="0.00")]))["price"] == "0.00"


def test_stock_is_derived_from_inventory():
    assert run(payload())["available"] is True
    assert run(payload(variants=[variant(inventory_quantity=0)]))["available"] is False


def test_untracked_variant_is_available():
    assert run(payload(variants=[variant(inventory_management=None, inventory_quantity=0)]))["available"] is True


def test_overselling_variant_is_available_at_zero_stock():
    assert run(payload(variants=[variant(inventory_policy="continue", inventory_quantity=0)]))["available"] is True


def test_unknowable_stock_reports_null():
    unknown = variant()
    del unknown["inventory_quantity"]
    data = run(payload(variants=[unknown]))
    assert data["variants"][0]["available"] is None
    assert data["available"] is None


def test_partly_sold_out_product_is_available():
    data = run(payload(variants=[variant(id=1, title="5", inventory_quantity=0), variant(id=2, title="6", inventory_quantity=4)]))
    assert data["available"] is True
    assert [v["available"] for v in data["variants"]] == [False, True]


def test_multi_variant_pricing_reports_a_range():
    data = run(payload(variants=[variant(id=1, price="140.00"), variant(id=2, price="95.50"), variant(id=3, price="180.00")]))
    assert (data["price_min"], data["price_max"]) == ("95.50", "180.00")
    assert len(data["variants"]) == 3


def test_tags_are_normalised_from_either_shape():
    assert run(payload({"tags": ["a", "b"]}))["tags"] == ["a", "b"]
    assert run(payload({"tags": "a, b, c"}))["tags"] == ["a", "b", "c"]
    assert run(payload({"tags": None}))["tags"] == []


def test_description_is_copy_not_markup():
    assert run(payload())["description"] == "Smooth light roast."


def test_non_shopify_response_fails_clearly():
    for body in ("<html><body>not json</body></html>", json.dumps({"items": []})):
        with pytest.raises(ValueError, match="Not a Shopify product endpoint"):
            run(body)


# --- registration -------------------------------------------------------------------------


def test_listed_and_matches_product_urls():
    assert any(t["id"] == "shopify-product" for t in REGISTRY.list())
    assert TEMPLATE.target_pattern.search("https://any-store.com/products/some-handle")


def test_run_dispatches_to_extract_raw_and_reports_the_fetched_url():
    result = REGISTRY.run(
        "shopify-product",
        payload(),
        "https://shop.example.com/products/light-roast-10oz",
        "https://shop.example.com/products/light-roast-10oz.json",
    )
    assert result["data"]["title"] == "Light Roast Coffee (10oz Ground)"
    assert result["fetchedUrl"] == "https://shop.example.com/products/light-roast-10oz.json"


def test_html_templates_still_run_through_the_parser():
    result = REGISTRY.run(
        "github-repo",
        '<html><body><div class="repository-content"><h1>owner/repo</h1></div></body></html>',
        "https://github.com/owner/repo",
    )
    assert result["data"]
    assert "fetchedUrl" not in result
