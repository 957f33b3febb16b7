"""extract_product on real product pages (fixtures/product, fixtures/structured) and on bad
input: concrete values and where each came from."""

import gzip
import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

from crawlforge.extract.extractors.appstate import AppStateExtractor
from crawlforge.extract.markdown import html_to_markdown
from crawlforge.extract.product import extract_product
from crawlforge.extract.structured import extract_structured_data

PRODUCT, STRUCTURED = ROOT / "fixtures" / "product", ROOT / "fixtures" / "structured"
JOHN_LEWIS = "https://www.johnlewis.com/google-nest-mini-hands-free-smart-speaker-2nd-gen/p4781720"
HAPPY_COFFEE = "https://de.happycoffee.org/products/happy-coffee-sidamo-bio-kaffeebohnen"


def page(path: Path) -> str:
    raw = path.read_bytes()
    return (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")


def test_lower_case_json_ld_type_is_read_and_the_shown_product_code_is_the_sku():
    record = extract_product(page(PRODUCT / "johnlewis-1bb37817.html.gz"), JOHN_LEWIS)
    assert record["name"] == "Google Nest Mini Hands-Free Smart Speaker, 2nd Gen, Chalk"
    assert (record["price"], record["currency"], record["availability"]) == ("49.00", "GBP", "InStock")
    assert (record["brand"], record["sku"], record["mpn"]) == ("Google", "83810610", "238368885")
    assert record["provenance"] == {
        "name": "json-ld", "price": "json-ld", "currency": "json-ld", "sku": "visible", "mpn": "json-ld",
        "brand": "json-ld", "availability": "json-ld", "image": "json-ld", "description": "json-ld"}
    assert record["is_product"] is True and record["list_price"] is None


def test_selling_price_is_the_cheapest_offer_in_stock_not_a_cheaper_sold_out_size():
    record = extract_product(page(PRODUCT / "zalando-c3ed0221.html.gz"),
                             "https://www.zalando.ie/mustang-winter-boots-graphit-mu312m00l-c11.html")
    assert (record["price"], record["currency"], record["availability"]) == ("70.5", "EUR", "InStock")
    assert (record["name"], record["brand"], record["sku"]) == ("Lace-up ankle boots - graphit", "Mustang", "MU312M00L-C11")
    assert len(record["variants"]) == 9
    assert {v["price"] for v in record["variants"] if v["availability"] == "OutOfStock"} >= {"62.95"}


def test_sale_price_with_its_struck_through_list_price():
    record = extract_product(page(STRUCTURED / "product" / "almedina_net_codigo_trabalho_magento.html"),
                             "https://www.almedina.net/c-digo-do-trabalho-anotado-1589482272.html")
    assert (record["price"], record["list_price"], record["currency"]) == ("71.91", "79.90", "EUR")
    # Magento's own price box for the form's product: finalPrice 71.910401 shown as "71,91 €",
    # oldPrice shown "79,90 €" (the related products' boxes hold other prices)
    assert record["provenance"]["price"] == "magento" and record["provenance"]["list_price"] == "magento"


def test_magento_price_box_of_the_add_to_cart_product():
    html = page(PRODUCT / "almedina-91f0a111.html.gz")
    data = extract_structured_data(html, "https://www.almedina.net/the-one-device-the-secret-history-of-the-iphone-1605177813.html")
    assert data.platform_data["magento"] == {"product_id": "78916", "price": "10.75", "list_price": "11.95",
                                             "currency": "EUR"}
    record = extract_product(html, "https://www.almedina.net/the-one-device-the-secret-history-of-the-iphone-1605177813.html")
    assert (record["price"], record["currency"], record["provenance"]["price"]) == ("10.75", "EUR", "magento")
    assert record["is_product"] is True


def test_markup_out_of_stock_next_to_a_live_buy_button_is_in_stock():
    record = extract_product(page(PRODUCT / "johnlewis-f48e9949.html.gz"),
                             "https://www.johnlewis.com/gant-akron-leather-chelsea-boot/cognac/p5095418")
    assert (record["price"], record["currency"], record["sku"]) == ("136.00", "GBP", "39139301")
    assert (record["availability"], record["provenance"]["availability"]) == ("InStock", "visible")


def test_markup_out_of_stock_without_a_buy_button_stays_out_of_stock():
    record = extract_product(page(PRODUCT / "ikea-897bc5b5.html.gz"),
                             "https://www.ikea.com/gb/en/p/djungelskog-soft-toy-brown-bear-00402813/")
    assert (record["price"], record["sku"]) == ("25", "004.028.13")
    assert (record["availability"], record["provenance"]["availability"]) == ("OutOfStock", "json-ld")


def test_product_in_embedded_app_state_is_the_one_named_like_the_page():
    html = page(PRODUCT / "johnlewis-f48e9949.html.gz")
    url = "https://www.johnlewis.com/gant-akron-leather-chelsea-boot/cognac/p5095418"
    data = extract_structured_data(html, url, extractors=[AppStateExtractor])  # as on a page without markup
    assert data.structured_data == {"product_name": "GANT Akron Leather Chelsea Boot, Cognac", "price": "136.00",
                                    "currency": "GBP"}
    assert data.provenance["structured_data.price"] == "embedded:next_data"


def test_a_priced_object_in_a_blogs_app_state_is_no_product():
    html = page(PRODUCT / "wcxb-2972.html.gz")  # a gift membership, 50.00 USD, in __PRELOADED_STATE__
    assert extract_structured_data(html, "https://netflixtechblog.com/", extractors=[AppStateExtractor]).is_empty()
    record = extract_product(html, "https://netflixtechblog.com/")
    assert record["price"] is None and record["is_product"] is False


def test_a_site_templates_own_fields_when_the_url_is_its_product_page():
    html = (ROOT / "fixtures" / "templates" / "amazon" / "amazon-ae-atomic-habits-excerpt.html").read_text(encoding="utf-8")
    record = extract_product(html, "https://www.amazon.ae/dp/1847941834")
    assert (record["name"], record["price"], record["currency"]) == (
        "Atomic Habits: the life-changing million-copy #1 bestseller", "55.00", "AED")
    assert (record["brand"], record["availability"]) == ("James Clear", "InStock")
    assert record["provenance"]["price"] == "template:amazon-product" and record["is_product"] is True
    assert extract_product(html, "https://shop.example/dp/1847941834")["price"] is None  # not the template's site


def test_page_with_only_a_visible_price_under_its_heading():
    record = extract_product(page(PRODUCT / "wcxb-3065.html.gz"), "https://www.oneplus.com/us/13")
    assert (record["name"], record["price"], record["currency"]) == ("OnePlus 13", "899.99", "USD")
    assert record["warnings"] == []  # a reader that raised would be listed here
    assert record["availability"] == "InStock"  # an enabled "Add to cart" button
    assert set(record["provenance"].values()) == {"visible"} and record["is_product"] is True


def test_variant_url_selects_that_variants_price_and_sku():
    html = page(STRUCTURED / "product" / "shopify_happycoffee_de_sidamo.html")
    assert (extract_product(html, HAPPY_COFFEE)["price"], extract_product(html, HAPPY_COFFEE)["sku"]) == (
        "27.90", "TL-4COA-V28E")
    chosen = extract_product(html, HAPPY_COFFEE + "?variant=14612548190317")
    assert (chosen["price"], chosen["sku"], chosen["currency"]) == ("16.90", "LO-QFZJ-R12X", "EUR")
    assert chosen["provenance"]["price"] == "shopify"


def test_an_article_is_not_a_product():
    record = extract_product(page(STRUCTURED / "eval" / "rosa-mag.de.womanking.html"), "https://www.rosa-mag.de/x")
    assert record["is_product"] is False
    assert record["price"] is None and record["sku"] is None


def test_product_markdown_opens_with_name_price_stock_and_facts_once():
    markdown = html_to_markdown(page(PRODUCT / "johnlewis-1bb37817.html.gz"), JOHN_LEWIS)
    assert markdown.startswith(
        "# Google Nest Mini Hands-Free Smart Speaker, 2nd Gen, Chalk\n\nPrice: 49.00 GBP · In stock\n\n"
        "- Brand: Google\n- SKU: 83810610\n")
    assert markdown.count("# Google Nest Mini Hands-Free Smart Speaker") == 1
    assert "Bring the power of Google" in markdown  # the description follows


# Bad input: synthetic pages built here, each a fault real pages show.

def synthetic_product_page(ld_json: str, body: str = "") -> str:
    return (f'<html><head><script type="application/ld+json">{ld_json}</script></head>'
            f"<body><h1>Widget</h1>{body}</body></html>")


def test_broken_json_ld_gives_no_price_and_a_warning():
    record = extract_product(synthetic_product_page('{"@type": "Product", "name": "Widget", "offers": {"price": '),
                             "https://shop.example/widget")
    assert record["price"] is None
    assert any("JSON-LD block 1 is not valid JSON" in w for w in record["warnings"])


def test_ten_megabytes_of_offers_give_no_price_and_a_warning():
    offers = ",".join('{"@type": "Offer", "price": "%d.99", "priceCurrency": "EUR"}' % i for i in range(180_000))
    html = synthetic_product_page('{"@type": "Product", "name": "Widget", "offers": [' + offers + "]}")
    assert len(html) > 10 * 1024 * 1024
    record = extract_product(html, "https://shop.example/widget")
    assert record["price"] is None
    assert any("JSON-LD block 1 is too large to read" in w for w in record["warnings"])


def test_call_for_price_is_no_price():
    record = extract_product(synthetic_product_page(
        '{"@type": "Product", "name": "Widget", "offers": {"@type": "Offer", "price": "Call for price"}}',
        '<span class="price">Call for price</span><button>Add to cart</button>'), "https://shop.example/widget")
    assert record["price"] is None and record["currency"] is None
    assert record["name"] == "Widget" and record["is_product"] is False
    assert record["warnings"] == ["json-ld: offer price 'Call for price' is no amount; price left empty."]


def test_json_ld_price_without_currency_keeps_the_amount_and_warns():
    record = extract_product(synthetic_product_page(
        '{"@type": "Product", "name": "Widget", "offers": {"@type": "Offer", "price": "12.50"}}'),
        "https://shop.example/widget")
    assert (record["price"], record["currency"], record["provenance"]["price"]) == ("12.50", None, "json-ld")
    assert record["warnings"] == ["json-ld: price 12.50 has no currency; currency left empty."]


def test_visible_price_without_currency_keeps_the_amount_and_warns():
    record = extract_product(synthetic_product_page("{}", '<span class="price">12.50</span><button>Add to cart</button>'),
                             "https://shop.example/widget")
    assert (record["price"], record["currency"], record["name"]) == ("12.50", None, "Widget")
    assert any("shows no currency" in w for w in record["warnings"])


def test_garbage_never_raises():
    for html in ("", "<html>", "\x00\x01<<<>>>", '<script type="application/ld+json">[[[[' * 2000, None):
        record = extract_product(html, "not a url")
        assert record["price"] is None and record["is_product"] is False


def test_scrapy_product_prints_each_field_and_its_source(tmp_path):
    out = subprocess.run([str(Path(sys.executable).with_name("scrapy")), "product",
                          str(PRODUCT / "johnlewis-1bb37817.html.gz"), "--url", JOHN_LEWIS],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert 'price         "49.00"  (json-ld)' in out.stdout
    assert 'sku           "83810610"  (visible)' in out.stdout
    assert "is_product: true" in out.stdout
    assert json.loads(out.stdout.split("currency", 1)[1].split()[0]) == "GBP"
