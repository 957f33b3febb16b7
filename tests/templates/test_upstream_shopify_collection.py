"""Upstream conformance: tests/shopify-collection.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit c4003726e9dac4995b9c632b2207a6a1b5be2b53 (templates.md §0.1): the
shopify-collection list connector on the upstream captures (fixtures/templates/shopify).
"""

import json
import re

import pytest

from conftest import ROOT

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()
TEMPLATE = REGISTRY.get("shopify-collection")
FIXTURES = ROOT / "fixtures" / "templates" / "shopify"
DEATH_WISH = (FIXTURES / "deathwishcoffee-collection.json").read_text(encoding="utf-8")
ALLBIRDS = (FIXTURES / "allbirds-collection.json").read_text(encoding="utf-8")
DEATH_WISH_URL = "https://www.deathwishcoffee.com/collections/all/products.json"
ALLBIRDS_URL = "https://www.allbirds.com/collections/mens/products.json?limit=2"


def run(body: str, url: str = DEATH_WISH_URL) -> dict:
    return TEMPLATE.extract_list(body, url)


# --- URL resolution -----------------------------------------------------------------------


def test_collection_page_url_becomes_the_json_listing():
    assert TEMPLATE.resolve_url("https://www.allbirds.com/collections/mens") == "https://www.allbirds.com/collections/mens/products.json"
    assert TEMPLATE.resolve_url("https://www.allbirds.com/collections/mens/") == "https://www.allbirds.com/collections/mens/products.json"


def test_locale_prefixed_path_still_resolves():
    assert (
        TEMPLATE.resolve_url("https://shop.example.com/en-ca/collections/sale")
        == "https://shop.example.com/en-ca/collections/sale/products.json"
    )


def test_json_url_is_not_doubled():
    url = "https://shop.example.com/collections/mens/products.json"
    assert TEMPLATE.resolve_url(url) == url


def test_paging_params_survive_storefront_params_do_not():
    assert (
        TEMPLATE.resolve_url("https://shop.example.com/collections/mens?sort_by=price-desc&limit=50&page=2")
        == "https://shop.example.com/collections/mens/products.json?limit=50&page=2"
    )


def test_url_without_a_collection_is_left_alone():
    url = "https://shop.example.com/pages/about"
    assert TEMPLATE.resolve_url(url) == url


# --- list_url -----------------------------------------------------------------------------


def test_store_and_collection_build_the_endpoint():
    assert TEMPLATE.list_url({"store": "www.allbirds.com", "collection": "mens"}) == "https://www.allbirds.com/collections/mens/products.json"


def test_store_with_a_scheme_is_accepted():
    assert (
        TEMPLATE.list_url({"store": "https://www.deathwishcoffee.com", "collection": "all"})
        == "https://www.deathwishcoffee.com/collections/all/products.json"
    )


def test_limit_and_page_are_passed_through():
    assert (
        TEMPLATE.list_url({"store": "shop.example.com", "collection": "sale", "limit": 250, "page": 3})
        == "https://shop.example.com/collections/sale/products.json?limit=250&page=3"
    )


def test_missing_parameter_is_named():
    with pytest.raises(ValueError, match='"store" parameter'):
        TEMPLATE.list_url({"collection": "mens"})
    with pytest.raises(ValueError, match='"collection" parameter'):
        TEMPLATE.list_url({"store": "shop.example.com"})
    with pytest.raises(ValueError, match='"store" parameter'):
        TEMPLATE.list_url()


def test_limit_past_the_cap_is_refused():
    with pytest.raises(ValueError, match="1 to 250"):
        TEMPLATE.list_url({"store": "s.example", "collection": "c", "limit": 1000})
    with pytest.raises(ValueError, match="1 to 250"):
        TEMPLATE.list_url({"store": "s.example", "collection": "c", "limit": 0})
    with pytest.raises(ValueError, match="1 or more"):
        TEMPLATE.list_url({"store": "s.example", "collection": "c", "page": 0})


# --- extraction ---------------------------------------------------------------------------


def test_real_collection_comes_back_whole():
    data = run(DEATH_WISH)
    assert data["count"] == 2 == len(data["items"])
    assert data["collection"] == "all"
    assert [p["handle"] for p in data["items"]] == ["2026-death-wish-coffee-mug", "all-american-tank"]


def test_every_item_carries_the_product_fields():
    fields = ["title", "vendor", "product_type", "handle", "product_id", "price", "compare_at_price", "on_sale",
              "price_min", "price_max", "available", "variants", "options", "description", "tags", "images",
              "published_at", "updated_at"]  # fmt: skip
    for item in run(DEATH_WISH)["items"]:
        for field in fields:
            assert field in item, f"{item['handle']} is missing {field}"


def test_price_and_compare_at_come_from_the_store():
    mug = run(DEATH_WISH)["items"][0]
    assert (mug["price"], mug["compare_at_price"], mug["on_sale"]) == ("34.20", "38.00", True)


def test_no_compare_at_price_is_not_on_sale():
    tank = run(DEATH_WISH)["items"][1]
    assert tank["compare_at_price"] is None and tank["on_sale"] is False


def test_stock_comes_from_the_endpoints_flag():
    tank = run(DEATH_WISH)["items"][1]
    assert [[v["title"], v["available"]] for v in tank["variants"]] == [
        ["S", False], ["M", False], ["L", False], ["XL", False], ["2XL", True], ["3XL", False],
    ]  # fmt: skip
    assert tank["available"] is True


def test_fully_sold_out_product_reports_false():
    sold_out = run(ALLBIRDS, ALLBIRDS_URL)["items"][1]
    assert all(v["available"] is False for v in sold_out["variants"])
    assert sold_out["available"] is False


def test_currency_is_null_not_assumed():
    assert all(item["currency"] is None for item in run(DEATH_WISH)["items"])


def test_inventory_counts_are_null():
    assert all(v["inventory_quantity"] is None for v in run(DEATH_WISH)["items"][1]["variants"])


def test_multi_variant_pricing_reports_a_range():
    shoe = run(ALLBIRDS, ALLBIRDS_URL)["items"][0]
    assert len(shoe["variants"]) == 3
    assert (shoe["price_min"], shoe["price_max"]) == ("140.00", "140.00")
    assert shoe["options"] == ["Size"]


def test_descriptions_are_copy_not_markup():
    mug = run(DEATH_WISH)["items"][0]
    assert "<" not in mug["description"]
    assert re.match(r"Mugs up to 2026\.", mug["description"])


def test_each_item_is_addressable():
    assert run(ALLBIRDS, ALLBIRDS_URL)["items"][0]["url"] == "https://www.allbirds.com/products/mens-dasher-nz-anthracite"


def test_second_store_parses_identically():
    data = run(ALLBIRDS, ALLBIRDS_URL)
    assert data["collection"] == "mens"
    assert data["count"] == 2
    assert all(p["title"] and p["price"] and p["vendor"] == "Allbirds" for p in data["items"])
    assert len(data["items"][0]["tags"]) == 16


# --- paging -------------------------------------------------------------------------------


def test_requested_limit_is_reported_back():
    assert run(DEATH_WISH)["limit"] == 30
    assert run(ALLBIRDS, ALLBIRDS_URL)["limit"] == 2
    assert run(DEATH_WISH)["page"] == 1
    assert run(DEATH_WISH, f"{DEATH_WISH_URL}?page=4")["page"] == 4


def test_full_page_is_the_only_more_signal():
    assert run(ALLBIRDS, ALLBIRDS_URL)["has_more"] is True
    assert run(DEATH_WISH)["has_more"] is False


def test_total_available_is_absent():
    assert "total_available" not in run(DEATH_WISH)


def test_empty_collection_is_an_answer():
    data = run('{"products":[]}')
    assert data["count"] == 0 and data["items"] == [] and data["has_more"] is False


# --- rejection and registration -----------------------------------------------------------


def test_non_shopify_response_fails_clearly():
    for body in ("<html><body>not json</body></html>", json.dumps({"items": []}), json.dumps({"product": {}})):
        with pytest.raises(ValueError, match="Not a Shopify collection endpoint"):
            run(body)


def test_registered_as_a_list_connector():
    listed = next(t for t in REGISTRY.list() if t["id"] == "shopify-collection")
    assert listed["mode"] == "list"


def test_detect_picks_it_for_a_collection_url_not_a_product_url():
    assert REGISTRY.detect("https://www.allbirds.com/collections/mens").id == "shopify-collection"
    assert REGISTRY.detect("https://www.allbirds.com/collections/mens/products/dasher").id == "shopify-product"


def test_run_list_dispatches_and_reports_the_url():
    result = REGISTRY.run_list("shopify-collection", ALLBIRDS, url=ALLBIRDS_URL)
    assert result["template"] == "shopify-collection"
    assert result["template_name"] == "Shopify Collection"
    assert result["url"] == ALLBIRDS_URL
    assert result["data"]["count"] == 2


def test_run_refuses_it_naming_the_method_to_call():
    with pytest.raises(ValueError, match=r"returns a list, not a single entity\. Use runList\(\) instead"):
        REGISTRY.run("shopify-collection", ALLBIRDS, ALLBIRDS_URL)
