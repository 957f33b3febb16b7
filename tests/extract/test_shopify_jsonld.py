"""shopify_product_from_jsonld (templates.md §5.13) on captured JSON-LD."""

import json

from conftest import ROOT

from crawlforge.extract.shopify import shopify_product_from_jsonld

FIXTURES = ROOT / "fixtures" / "embedded"
STRUCTURED = FIXTURES.parent / "structured"  # shared captures live there
GYMSHARK = (FIXTURES / "gymshark-productgroup.json").read_text(encoding="utf-8")
WEBPAGE = {"@context": "https://schema.org", "@type": "WebPage", "name": "A page"}


def page(*blocks):
    """The test's own wrapper around captured (or test-written) JSON-LD blocks."""
    scripts = "".join(
        f'<script type="application/ld+json">{b if isinstance(b, str) else json.dumps(b)}</script>' for b in blocks
    )
    return f"<html><head><title>Store</title>{scripts}</head><body><h1>Product</h1></body></html>"


def test_gymshark_product_group_variants_keyed_by_mpn():
    url = "https://www.gymshark.com/products/gymshark-arrival-5-shorts-black-ss22"
    out = shopify_product_from_jsonld(page(WEBPAGE, GYMSHARK), url)
    data = out["data"]
    assert out["found"] is True and data["source"] == "json-ld"
    assert (data["title"], data["vendor"], data["product_type"]) == ('Arrival 5" Shorts', "Gymshark | We Do Gym", "shorts")
    assert (data["handle"], data["product_id"], data["options"]) == (
        "gymshark-arrival-5-shorts-black-ss22", "6804846346442", ["size"])
    assert (data["price"], data["price_min"], data["price_max"], data["currency"]) == ("26.00", "26.00", "26.00", "USD")
    assert (data["available"], data["compare_at_price"], data["on_sale"]) == (True, None, None)
    assert [(v["id"], v["sku"], v["price"], v["available"], v["options"], v["inventory_quantity"])
            for v in data["variants"]] == [
        ("A2A1M-BBBB-XS", "A2A1M-BBBB", "26.00", True, ["xs"], None),
        ("A2A1M-BBBB-S", "A2A1M-BBBB", "26.00", True, ["s"], None),
    ]
    assert data["images"] == [
        "https://cdn.shopify.com/s/files/1/0156/6146/files/images-Arrival5ShortsBlackA2A1M_BBBB_1826_A_Edit.jpg?v=1750084637"]
    assert list(data) == ["title", "vendor", "product_type", "handle", "product_id", "price", "compare_at_price",
                          "on_sale", "currency", "price_min", "price_max", "available", "variants", "options",
                          "description", "images", "url", "source"]


def test_plain_product_offers_become_variants_and_bad_block_is_skipped():
    product = {
        "@type": "Product", "name": "Crest Hoodie", "brand": {"@type": "Brand", "name": "Acme"}, "sku": "B1A2",
        "description": "  A heavyweight\n hoodie. ",
        "image": ["https://cdn.example/1.jpg", {"@type": "ImageObject", "url": "https://cdn.example/2.jpg"},
                  "javascript:alert(1)"],
        "offers": [
            {"@type": "Offer", "price": "50.00", "priceCurrency": "GBP", "availability": "https://schema.org/InStock",
             "sku": "B1A2-S", "name": "S"},
            {"@type": "Offer", "price": 55, "priceCurrency": "GBP", "availability": "https://schema.org/OutOfStock",
             "sku": "B1A2-M", "name": "M"},
        ],
    }
    url = "https://store.example/products/crest-hoodie?variant=1"
    data = shopify_product_from_jsonld(page(WEBPAGE, "{not json", product), url)["data"]
    assert (data["handle"], data["product_id"], data["price"], data["price_max"]) == ("crest-hoodie", "B1A2", "50.00", "55.00")
    assert [(v["title"], v["price"], v["available"]) for v in data["variants"]] == [("S", "50.00", True), ("M", "55.00", False)]
    assert data["description"] == "A heavyweight hoodie."
    assert data["images"] == ["https://cdn.example/1.jpg", "https://cdn.example/2.jpg"]
    assert data["url"] == url


def test_aggregate_offer_inside_graph_with_thousands_separators():
    graph = {"@graph": [WEBPAGE, {"@type": ["Product"], "name": "Watch", "brand": "Omega", "offers": {
        "@type": "AggregateOffer", "lowPrice": "1,299.00", "highPrice": "1,499.00", "priceCurrency": "USD",
        "availability": "InStock"}}]}
    data = shopify_product_from_jsonld(page(graph), "https://store.example/products/watch")["data"]
    assert (data["vendor"], data["price"], data["price_max"], data["available"]) == ("Omega", "1299.00", "1499.00", True)


def test_real_product_pages_with_json_ld():
    ikea = (FIXTURES.parent / "demo" / "products" / "ikea_gb_moeckelby_table_jsonld.html").read_text(encoding="utf-8")
    data = shopify_product_from_jsonld(ikea, "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/")["data"]
    assert (data["title"], data["vendor"], data["price"], data["currency"]) == (
        "MÖCKELBY Table - oak 235x100 cm", "IKEA", "450.00", "GBP")
    assert data["handle"] is None
    zalando = (STRUCTURED / "product" / "zalando_ie_versace_jeans_jsonld.html").read_text(encoding="utf-8")
    data = shopify_product_from_jsonld(zalando, "https://www.zalando.ie/x.html")["data"]
    assert (data["vendor"], data["price"], data["currency"], len(data["variants"])) == (
        "Versace Jeans Couture", "344.00", "EUR", 8)
    assert [v["available"] for v in data["variants"]].count(False) == 1


def test_pages_without_a_product_say_why():
    collection = shopify_product_from_jsonld(page(WEBPAGE), "https://store.example/collections/all")
    assert collection == {"found": False, "reason": (
        "https://store.example/collections/all carries no schema.org Product JSON-LD — the product URL "
        "redirected to a collection page, so the product handle no longer exists")}
    other = shopify_product_from_jsonld("<html><body>nothing</body></html>", "https://store.example/products/x")
    assert other == {"found": False, "reason": "https://store.example/products/x carries no schema.org Product JSON-LD"}
    assert shopify_product_from_jsonld("", "https://store.example/products/x")["found"] is False


def test_captured_json_ld_pages_aggregate_offer_malformed_block_and_non_products():
    url = "https://www.apple.com/shop/buy-mac/macbook-air"
    for name in ("apple-macbook-air.html", "malformed-block.html"):
        data = shopify_product_from_jsonld((STRUCTURED / "json-ld" / name).read_text(encoding="utf-8"), url)["data"]
        assert (data["title"], data["price"], data["price_max"], data["currency"]) == (
            "MacBook Air", "1299.00", "3719.00", "USD")
        assert data["url"] == url
    for name in ("propertyfinder-buy.html", "ticketmaster-concerts.html"):
        assert shopify_product_from_jsonld((STRUCTURED / "json-ld" / name).read_text(encoding="utf-8"), url) == {
            "found": False, "reason": f"{url} carries no schema.org Product JSON-LD"}
