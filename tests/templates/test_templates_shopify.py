"""shopify-product and shopify-collection on real storefront captures (fixtures/templates)."""

import json

import pytest

from conftest import ROOT

from crawlforge.templates import TemplateError, TemplateRegistry, TemplateRejectedError
from crawlforge.templates.shopify import ShopifyCollection, ShopifyProduct, product_entity

FIXTURES = ROOT / "fixtures" / "templates"
REGISTRY = TemplateRegistry()
COLLECTION_URL = "https://deathwishcoffee.com/collections/mugs/products.json?limit=2"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def deathwish():
    return REGISTRY.run_list("shopify-collection", fixture("shopify/deathwishcoffee-collection.json"), url=COLLECTION_URL)


def test_collection_envelope_and_paging_fields():
    result = deathwish()
    assert list(result) == ["template", "template_name", "url", "data", "extractedAt"]
    data = result["data"]
    assert list(data) == ["collection", "items", "count", "page", "limit", "has_more"]
    assert (data["collection"], data["count"], data["page"], data["limit"], data["has_more"]) == ("mugs", 2, 1, 2, True)


def test_sale_item_keeps_price_strings_and_flags_on_sale():
    mug = deathwish()["data"]["items"][0]
    assert mug["title"] == "2026 Death Wish Coffee Mug"
    assert (mug["price"], mug["compare_at_price"], mug["on_sale"]) == ("34.20", "38.00", True)
    assert (mug["price_min"], mug["price_max"]) == ("34.20", "34.20")
    assert mug["currency"] is None  # the collection endpoint never sends price_currency
    assert mug["url"] == "https://deathwishcoffee.com/products/2026-death-wish-coffee-mug"
    assert mug["tags"] == ["HCM", "Merch", "Mug", "Sale", "Website Exclusive Sale"]
    assert mug["options"] == ["Title"]


def test_description_is_plain_text_with_entities_decoded():
    mug = deathwish()["data"]["items"][0]
    assert mug["description"].startswith("Mugs up to 2026. A symbol of new beginnings")
    assert "cart—only valid" in mug["description"]
    assert "<" not in mug["description"]


def test_entity_key_order_and_variant_shape():
    mug = deathwish()["data"]["items"][0]
    assert list(mug) == [
        "title", "vendor", "product_type", "handle", "product_id", "price", "compare_at_price",
        "on_sale", "currency", "price_min", "price_max", "available", "variants", "options",
        "description", "tags", "images", "published_at", "updated_at", "url",
    ]  # fmt: skip
    assert mug["variants"][0] == {
        "id": 41956717559863,
        "title": "Default Title",
        "price": "34.20",
        "compare_at_price": "38.00",
        "sku": "UMDWYM26K",
        "available": True,
        "inventory_quantity": None,
        "options": ["Default Title"],
    }


def test_one_variant_in_stock_makes_product_available():
    tank = deathwish()["data"]["items"][1]
    assert tank["title"] == "All-American Tank"
    assert [(v["title"], v["available"]) for v in tank["variants"]] == [
        ("S", False), ("M", False), ("L", False), ("XL", False), ("2XL", True), ("3XL", False),
    ]  # fmt: skip
    assert tank["available"] is True
    assert (tank["compare_at_price"], tank["on_sale"]) == (None, False)


def test_all_variants_sold_out_makes_product_unavailable():
    sold_out = REGISTRY.run_list("shopify-collection", fixture("shopify/allbirds-collection.json"), url=COLLECTION_URL)
    shoe = sold_out["data"]["items"][1]
    assert [v["available"] for v in shoe["variants"]] == [False, False, False]
    assert shoe["available"] is False


def test_allbirds_page_and_limit_come_from_the_url():
    body = fixture("shopify/allbirds-collection.json")
    data = REGISTRY.run_list(
        "shopify-collection", body, url="https://www.allbirds.com/collections/mens/products.json?limit=250&page=3"
    )["data"]
    assert (data["collection"], data["count"], data["page"], data["limit"], data["has_more"]) == ("mens", 2, 3, 250, False)
    first, second = data["items"]
    assert first["title"] == "Men's Dasher NZ - Anthracite (Dark Anthracite Sole)"
    assert (first["vendor"], first["product_type"], first["product_id"]) == ("Allbirds", "Shoes", 7205191974992)
    assert [v["title"] for v in first["variants"]] == ["8", "8.5", "9"]
    assert first["available"] is True and second["available"] is False
    assert first["images"] == [
        "https://cdn.shopify.com/s/files/1/1104/4168/files/A12416_26Q1_Dasher-NZ-Anthracite-Dark-Anthr_PDP_LEFT.png?v=1768948005"
    ]


def test_page_and_limit_defaults_without_query():
    data = REGISTRY.run_list("shopify-collection", fixture("shopify/allbirds-collection.json"), url="https://www.allbirds.com/collections/mens")[
        "data"
    ]
    assert (data["page"], data["limit"], data["has_more"]) == (1, 30, False)


def test_empty_collection_is_a_valid_answer():
    data = REGISTRY.run_list("shopify-collection", '{"products":[]}', url=COLLECTION_URL)["data"]
    assert (data["items"], data["count"], data["has_more"]) == ([], 0, False)


def test_product_endpoint_returns_the_shared_entity():
    product = json.loads(fixture("shopify/deathwishcoffee-collection.json"))["products"][0]
    result = REGISTRY.run("shopify-product", json.dumps({"product": product}), "https://deathwishcoffee.com/products/2026-death-wish-coffee-mug.json")
    assert result["data"] == product_entity(product)
    assert result["data"]["price"] == "34.20"
    assert "url" not in result["data"]


def test_product_currency_comes_from_the_first_variant():
    product = json.loads(fixture("shopify/allbirds-collection.json"))["products"][0]
    product["variants"][0]["price_currency"] = "USD"  # the product endpoint's extra field
    assert product_entity(product)["currency"] == "USD"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<!doctype html><title>Store</title>", "did not return JSON"),
        ('{"products": []}', "returned JSON without a product"),
        ('{"product": {"title": "x"}}', "returned JSON without a product"),
    ],
)
def test_product_rejects_bodies_that_are_not_the_endpoint(body, message):
    with pytest.raises(TemplateRejectedError, match=message) as error:
        ShopifyProduct().extract_raw(body, "https://a.com/products/x.json")
    assert str(error.value).startswith("Not a Shopify product endpoint: https://a.com/products/x.json")


def test_collection_rejects_json_without_products():
    with pytest.raises(TemplateRejectedError, match="returned JSON without a products array"):
        ShopifyCollection().extract_list('{"product": {}}', COLLECTION_URL)
    with pytest.raises(TemplateRejectedError, match="^Not a Shopify collection endpoint: .* did not return JSON"):
        ShopifyCollection().extract_list("<html></html>", COLLECTION_URL)


@pytest.mark.parametrize(
    ("url", "resolved"),
    [
        ("https://shop.example.com/products/tee?variant=42", "https://shop.example.com/products/tee.json"),
        ("https://shop.example.com/products/tee/", "https://shop.example.com/products/tee.json"),
        ("https://shop.example.com/en-ca/products/tee#reviews", "https://shop.example.com/en-ca/products/tee.json"),
        ("https://shop.example.com/products/tee.json", "https://shop.example.com/products/tee.json"),
        ("https://shop.example.com/pages/about", "https://shop.example.com/pages/about"),
    ],
)
def test_product_resolve_url(url, resolved):
    assert ShopifyProduct().resolve_url(url) == resolved


def test_product_resolve_url_raises_on_unparseable_url():
    with pytest.raises(ValueError):
        ShopifyProduct().resolve_url("not a url")


@pytest.mark.parametrize(
    ("url", "resolved"),
    [
        (
            "https://www.allbirds.com/collections/mens?sort_by=price-desc&limit=50&page=2",
            "https://www.allbirds.com/collections/mens/products.json?limit=50&page=2",
        ),
        ("https://www.allbirds.com/collections/mens/products/", "https://www.allbirds.com/collections/mens/products.json"),
        ("https://www.allbirds.com/en-ca/collections/mens#top", "https://www.allbirds.com/en-ca/collections/mens/products.json"),
        ("https://www.allbirds.com/collections/mens/products/dasher", "https://www.allbirds.com/collections/mens/products/dasher"),
    ],
)
def test_collection_resolve_url(url, resolved):
    assert ShopifyCollection().resolve_url(url) == resolved


def test_collection_list_url_builds_the_paged_endpoint():
    build = ShopifyCollection().list_url
    assert build({"store": "www.allbirds.com", "collection": "mens"}) == "https://www.allbirds.com/collections/mens/products.json"
    assert (
        build({"store": "http://shop.test:8080/", "collection": "sale items", "limit": 250, "page": "2"})
        == "http://shop.test:8080/collections/sale%20items/products.json?limit=250&page=2"
    )


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"collection": "mens"}, 'shopify-collection requires a "store" parameter: the storefront domain, e.g. "www.allbirds.com".'),
        ({"store": "a.com", "collection": ""}, 'requires a "collection" parameter'),
        ({"store": "a.com", "collection": "m", "limit": 251}, 'shopify-collection "limit" must be an integer from 1 to 250, got 251.'),
        ({"store": "a.com", "collection": "m", "limit": "ten"}, "got ten."),
        ({"store": "a.com", "collection": "m", "page": 0}, 'shopify-collection "page" must be an integer of 1 or more, got 0.'),
        ({"store": "a.com", "collection": "m", "page": 1.5}, "got 1.5."),
    ],
)
def test_collection_list_url_errors_name_the_parameter(params, message):
    with pytest.raises(TemplateError) as error:
        ShopifyCollection().list_url(params)
    assert message in str(error.value)


def test_collection_run_is_the_list_mixup_error():
    with pytest.raises(TemplateError, match=r'^Template "shopify-collection" returns a list, not a single entity\. Use runList\(\) instead\.$'):
        REGISTRY.run("shopify-collection", fixture("shopify/allbirds-collection.json"), "https://www.allbirds.com/collections/mens")


def test_collection_next_page_and_default_page_size_are_the_templates_own():
    collection = REGISTRY.get("shopify-collection")
    assert collection.default_params == {"limit": "250"}
    assert collection.next_page_url(COLLECTION_URL, {"has_more": True, "page": 1}).endswith("?limit=2&page=2")
    assert collection.next_page_url(COLLECTION_URL, {"has_more": False, "page": 1}) is None
    assert REGISTRY.get("shopify-product").next_page_url(COLLECTION_URL, {"has_more": True, "page": 1}) is None
