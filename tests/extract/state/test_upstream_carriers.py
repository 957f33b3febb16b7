"""Upstream conformance: tests/carriers.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 067322582ff41fa6af6099554a9db4d7a9214a13 (the stored version):
readInertiaPage / isInertiaPageScript / readShopify / isShopifyProductJsonScript /
readJsonAttributes as crawlforge.extract.state.carriers.read_inertia_page / ... /
read_json_attributes (``min_bytes``), on the upstream captures in fixtures/embedded.
The linear-time bound of the last upstream case is not ported (speed lives in bench/).
"""

import json

from conftest import ROOT

from crawlforge.extract.state.carriers import (
    is_inertia_page_script,
    is_shopify_product_json_script,
    read_inertia_page,
    read_json_attributes,
    read_shopify,
)

FIXTURES = ROOT / "fixtures" / "embedded"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def big_object(size: int, extra: dict | None = None) -> dict:
    return {**(extra or {}), "padding": "x" * size}


def stringify(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def entity_encoded(value) -> str:
    return stringify(value).replace("&", "&amp;").replace('"', "&quot;")


COPY_LOOP = "for (var attr in meta) { window.ShopifyAnalytics.meta[attr] = meta[attr]; }"

# --- read_shopify: allbirds ---------------------------------------------------------------

ALLBIRDS = read_shopify(fixture("../structured/embedded-state/allbirds-product.html"))


def test_allbirds_variants_and_prices_come_from_analytics_meta():
    product = ALLBIRDS["value"]["meta"]["product"]
    assert product["handle"] == "mens-cruiser-medium-grey"
    assert len(product["variants"]) == 14
    assert product["variants"][0] == {
        "id": 41222385270864,
        "price": 10500,
        "name": "Men's Cruiser - Medium Grey (Blizzard Sole) - 8",
        "public_title": "8",
        "sku": "A11599M080",
    }
    assert all(v["price"] == 10500 for v in product["variants"])


def test_allbirds_currency_is_folded_in():
    assert ALLBIRDS["value"]["meta"]["currency"] == "USD"
    assert ALLBIRDS["value"]["meta"]["page"]["pageType"] == "product"


def test_allbirds_has_no_theme_product_json():
    assert "product_json" not in ALLBIRDS["value"]
    assert ALLBIRDS["warnings"] == []


# --- read_shopify: theme product JSON -----------------------------------------------------


def test_product_json_id_block_is_parsed():
    result = read_shopify(fixture("../structured/embedded-state/shopify-nativecos-product-json-id.html"))
    assert result["warnings"] == []
    assert len(result["value"]["product_json"]) == 1
    product = result["value"]["product_json"][0]
    assert product["handle"] == "clean-hair-trio"
    assert len(product["variants"]) == 3
    assert product["variants"][0]["price"] == 2800
    assert len(result["value"]["meta"]["product"]["variants"]) == 3
    assert result["value"]["meta"]["currency"] == "USD"


def test_data_product_json_keeps_the_themes_shape():
    result = read_shopify(fixture("../structured/embedded-state/shopify-kyomo-data-product-json.html"))
    assert result["warnings"] == []
    assert list(result["value"]["product_json"][0]) == ["product", "selected_variant_id"]
    assert result["value"]["product_json"][0]["product"]["handle"] == "emerald-gold-with-black-leather"
    assert result["value"]["meta"]["product"]["variants"][0]["price"] == 21700
    assert result["value"]["meta"]["currency"] == "EUR"


def test_broken_product_json_block_is_a_warning():
    result = read_shopify('<script type="application/json" data-product-json>{"product": </script>')
    assert result["value"] == {}
    assert "product JSON <script> block is not valid JSON" in result["warnings"][0]


# --- read_shopify: meta forms -------------------------------------------------------------


def test_direct_meta_assignment_is_read():
    html = '<script>window.ShopifyAnalytics.meta = {"page":{"pageType":"home"}};</script>'
    assert read_shopify(html) == {"value": {"meta": {"page": {"pageType": "home"}}}, "warnings": []}


def test_meta_or_empty_alone_is_not_state():
    assert read_shopify("<script>window.ShopifyAnalytics.meta = window.ShopifyAnalytics.meta || {};</script>") is None


def test_var_meta_without_the_copy_loop_is_not_shopifys():
    assert read_shopify('<script>var meta = {"a":1};</script>') is None


def test_js_meta_literal_is_reported():
    result = read_shopify(f"<script>var meta = {{product: {{id: 1}}}};\n{COPY_LOOP}</script>")
    assert result["value"] == {}
    assert result["warnings"][0].startswith("ShopifyAnalytics.meta ")
    assert "not a JSON literal" in result["warnings"][0]


def test_unterminated_meta_literal_does_not_raise():
    assert len(read_shopify(f'<script>var meta = {{"product":{{"id":1;\n{COPY_LOOP}')["warnings"]) == 1


def test_page_with_neither_carrier_is_none():
    assert read_shopify("<html><body>hi</body></html>") is None
    assert read_shopify(None) is None


# --- is_shopify_product_json_script -------------------------------------------------------


def test_product_json_script_matches_the_two_theme_forms():
    assert is_shopify_product_json_script(' type="application/json" data-product-json') is True
    assert is_shopify_product_json_script(' type="application/json" id="ProductJson-template--27654679756974__main"') is True
    assert is_shopify_product_json_script(" id='ProductJson-x' type='application/json'") is True


def test_product_json_script_rejects_look_alikes():
    assert is_shopify_product_json_script(' id="shopify-features" type="application/json"') is False
    assert is_shopify_product_json_script(' type="application/json" data-product-json-extra') is False
    assert is_shopify_product_json_script(' type="text/javascript" data-product-json') is False
    assert is_shopify_product_json_script(' type="application/json" id="MyProductJson-1"') is False
    assert is_shopify_product_json_script(None) is False


# --- read_inertia_page --------------------------------------------------------------------


def test_inertia_classic_data_page_attribute():
    result = read_inertia_page(fixture("inertia-demo-data-page.html"))
    assert result["warnings"] == []
    value = result["value"]
    assert value["component"] == "Auth/Login"
    assert value["props"] == {"errors": {}, "auth": {"user": None}, "flash": {"success": None, "error": None}}
    assert value["url"] == "/login"
    assert value["version"] == "b00b9c1be26a6c28d7b36b0a5820a8a3"


def test_inertia_script_carrier():
    result = read_inertia_page(fixture("inertia-laracasts-script.html"))
    assert result["warnings"] == []
    value = result["value"]
    assert (value["component"], value["url"]) == ("Home/Home", "/")
    assert value["version"] == "b5182fe9bd9e9f99485a64a40c47f205"
    assert len(value["props"]["featuredSeries"]) == 30
    assert value["props"]["featuredSeries"][0]["title"] == "Customizing Filament For User-Facing Apps"
    assert len(value["props"]["instructors"]) == 35


def test_is_inertia_page_script_recognises_only_the_script_carrier():
    assert is_inertia_page_script(' data-page="app" type="application/json"') is True
    assert is_inertia_page_script(' type="application/json" id="x"') is False
    assert is_inertia_page_script(' data-page="app"') is False


def test_page_without_inertia_is_none():
    assert read_inertia_page(fixture("../structured/embedded-state/allbirds-product.html")) is None
    assert read_inertia_page('<div id="app" data-page="app"></div>') is None
    assert read_inertia_page(None) is None


def test_commented_out_carrier_is_ignored():
    assert read_inertia_page('<!-- <div data-page="{&quot;component&quot;:&quot;X&quot;}"></div> -->') is None


def test_broken_inertia_json_is_a_warning_with_a_null_value():
    attr_form = read_inertia_page('<div id="app" data-page="{&quot;component&quot;:"></div>')
    assert attr_form["value"] is None
    assert "data-page attribute " in attr_form["warnings"][0] and "not a JSON object" in attr_form["warnings"][0]
    script_form = read_inertia_page('<script data-page="app" type="application/json">{"component":</script>')
    assert script_form["value"] is None
    assert "<script data-page" in script_form["warnings"][0]


def test_unterminated_data_page_attribute_does_not_raise():
    assert read_inertia_page('<div data-page="{&quot;component&quot;:1' + "x" * 10000) is None


# --- read_json_attributes -----------------------------------------------------------------


def test_allbirds_two_json_objects_over_2kb():
    found = read_json_attributes(fixture("../structured/embedded-state/allbirds-product.html"))
    assert [{k: e[k] for k in ("tag", "attribute", "id")} for e in found] == [
        {"tag": "div", "attribute": "data-product-object", "id": None},
        {"tag": "div", "attribute": "data-colorway-variants", "id": None},
    ]
    product = found[0]["data"]
    assert product["handle"] == "mens-cruiser-medium-grey"
    assert product["price"] == 10500
    assert product["sizes"]["8"]["sku"] == "A11599M080"
    assert isinstance(found[1]["data"]["mens-cruiser-verdant-green"], list)
    assert found[1]["data"]["mens-cruiser-verdant-green"][0]["title"] == "8"


def test_allbirds_arrays_and_small_objects_under_a_low_threshold():
    names = [e["attribute"] for e in read_json_attributes(fixture("../structured/embedded-state/allbirds-product.html"), min_bytes=2)]
    assert "data-product-tags" not in names
    assert "data-gallery-lifestyle-images" not in names
    assert "data-shopify-remote-tracking" in names


def test_skips_data_page():
    assert read_json_attributes(fixture("inertia-demo-data-page.html"), min_bytes=2) == []
    html = f'<div id="app" data-page="{entity_encoded(big_object(3000, {"component": "X"}))}"></div>'
    assert read_json_attributes(html) == []


def test_reads_the_tag_id_wherever_it_sits_entity_decoded():
    value = entity_encoded(big_object(3000, {"a": '<b> & "c"'}))
    html = (
        f'<section class="x" data-config="{value}" hidden id="hero&amp;main">'
        f"<span id='first' data-state='{stringify(big_object(2500))}'></span></section>"
    )
    found = read_json_attributes(html)
    assert len(found) == 2
    assert {k: found[0][k] for k in ("tag", "attribute", "id")} == {"tag": "section", "attribute": "data-config", "id": "hero&main"}
    assert found[0]["data"]["a"] == '<b> & "c"'
    assert found[1]["id"] == "first"


def test_ignores_small_values_arrays_and_invalid_json():
    html = (
        f'<div data-small="{entity_encoded({"a": 1})}"></div>'
        f'<div data-list="{entity_encoded([big_object(3000)])}"></div>'
        f"<div data-broken='{{\"a\": {'1' * 3000},}}'></div>"
        f'<div data-text="{{{"y" * 3000}}}"></div>'
    )
    assert read_json_attributes(html) == []


def test_caps_the_result_at_50():
    one = f"<i data-x='{stringify(big_object(2100))}'></i>"
    assert len(read_json_attributes(one * 60)) == 50


def test_hostile_input():
    assert read_json_attributes(f"<div data-x='{{\"a\":\"{'z' * 5000}") == []
    assert read_json_attributes(f"<div data-x='{stringify(big_object(6 * 1024 * 1024))}'></div>") == []
    assert len(read_json_attributes(f"<div data-x='{stringify(big_object(1024 * 1024))}'></div>")) == 1
    assert read_json_attributes(None) == []


def test_page_of_unclosed_quotes_and_tag_openers_yields_nothing():
    html = '<a data-x="{' * 50000 + "<b data-y='{" * 50000
    assert read_json_attributes(html) == []
    assert read_inertia_page(html) is None
    assert read_shopify(html) is None
