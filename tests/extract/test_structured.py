"""extract_structured_data on real product, article and Shopify pages (fixtures/structured)."""

import gzip

import pytest

from conftest import ROOT

from crawlforge.extract.extractors import Extractor, Finding
from crawlforge.extract.structured import extract_structured_data, page_structured_data

FIXTURES = ROOT / "fixtures" / "structured"


def run(path: str, url: str, **kwargs):
    return extract_structured_data((FIXTURES / path).read_text(encoding="utf-8"), url, **kwargs)


def test_ikea_json_ld_product_fields_and_provenance():
    data = run("product/ikea_gb_moeckelby_table_jsonld.html", "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/")
    product = data.structured_data
    assert product["product_name"] == "MÖCKELBY Table - oak 235x100 cm"
    assert (product["brand"], product["sku"]) == ("IKEA", "002.937.72")
    assert (product["price"], product["currency"], product["availability"]) == ("450", "GBP", "InStock")
    assert data.provenance["structured_data.price"] == "json-ld"
    assert data.provenance["meta.title"] == "opengraph"
    assert data.meta["canonical"] == "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/"
    assert data.sources_found == ["visible", "json-ld", "opengraph", "meta"]  # "Article no.: 002.937.72" shown
    assert data.conflicts == []
    assert data.errors == []


def test_zalando_offers_per_size_become_variants():
    data = run("product/zalando_ie_versace_jeans_jsonld.html", "https://www.zalando.ie/versace-jeans-couture-bull-baroque-slim-fit-jeans-azzurro-scuro-vei22g013-k11.html")
    product = data.structured_data
    assert (product["brand"], product["sku"], product["price"], product["currency"]) == (
        "Versace Jeans Couture", "VEI22G013-K11", "344", "EUR")
    assert len(product["variants"]) > 1
    assert product["variants"][0] == {
        "sku": "VEI22G013-K110029000", "price": "344", "currency": "EUR", "availability": "InStock"}


def test_ebay_microdata_price_in_pounds():
    data = run("product/ebay_com_itm_302474151804_microdata.html", "https://www.ebay.com/itm/302474151804")
    product = data.structured_data
    assert "Halloween Zombie Scars Tattoos Fake Blood Scab Scar Wound Costume Make-Up Kit UK" in product["product_name"]
    assert (product["price"], product["currency"], product["availability"]) == ("1.99", "GBP", "InStock")
    assert data.provenance["structured_data.price"] == "microdata"


def test_otto_microdata_brand_sku_gtin():
    data = run("product/otto_de_kaercher_k3_microdata.html", "https://www.otto.de/p/kaercher-hochdruckreiniger-k-3-full-control-848068924/")
    product = data.structured_data
    assert product["product_name"] == "KÄRCHER Hochdruckreiniger »K 3 Full Control«"
    assert (product["brand"], product["sku"], product["gtin"]) == ("KÄRCHER", "2800395267", "4054278533728")
    assert (product["price"], product["currency"]) == ("119.01", "EUR")


def test_fye_opengraph_product_namespace_fills_sku_and_gtin():
    data = run("product/fye_com_better_off_dead_opengraph_product.html", "https://www.fye.com/better-off-dead-exclusive-blu-ray-steelbook-fye.000000032429335302.html")
    product = data.structured_data
    assert product["product_name"] == "Better Off Dead [Exclusive Blu-ray Steelbook]"
    assert (product["price"], product["currency"], product["availability"]) == ("17.99", "USD", "InStock")
    assert (product["sku"], product["gtin"]) == ("fye.000000032429335302", "32429335302")
    assert data.provenance["structured_data.gtin"] == "opengraph"


def test_almedina_pre_tax_opengraph_price_is_a_recorded_conflict():
    data = run("product/almedina_net_codigo_trabalho_magento.html", "https://www.almedina.net/c-digo-do-trabalho-anotado-1589482272.html")
    assert data.structured_data["price"] == "71.91"
    assert data.conflicts == [{"field": "price", "source": "opengraph", "value": "67.8400",
                               "kept_source": "magento", "kept_value": "71.91"}]


def test_happycoffee_shopify_meta_outranks_microdata_and_opengraph():
    data = run("product/shopify_happycoffee_de_sidamo.html", "https://de.happycoffee.org/products/happy-coffee-sidamo-bio-kaffeebohnen")
    product, shopify = data.structured_data, data.platform_data["shopify"]
    assert (product["brand"], product["sku"], product["price"], product["currency"]) == (
        "Happy Coffee", "TL-4COA-V28E", "27.90", "EUR")
    assert data.provenance["structured_data.price"] == "shopify"
    assert {"field": "price", "source": "opengraph", "value": "16.90",
            "kept_source": "shopify", "kept_value": "27.90"} in data.conflicts
    assert shopify["product_id"] == 1553696882797 and shopify["vendor"] == "Happy Coffee"
    assert shopify["variants"][0] == {"id": 14612548223085, "name": "1KG / Espresso / Ganze Bohnen",
                                      "sku": "TL-4COA-V28E", "price": "27.90"}
    assert product["variants"][1]["name"] == "1KG / Filter / Ganze Bohnen"
    assert data.sources_found == ["shopify", "microdata", "opengraph", "meta"]


def test_mediamarkt_shopify_vendor_beats_microdata_brand_text():
    data = run("product/shopify_mediamarkt_pt_microondas_panasonic.html", "https://mediamarkt.pt/products/micro-ondas-panasonic-nn-k35hwmebg-800w-23l")
    assert data.structured_data["brand"] == "Panasonic"
    assert data.structured_data["price"] == "109.00"
    assert data.platform_data["shopify"]["product_type"] == "Microondas"
    assert data.platform_data["shopify"]["product_id"] == 1738666147883
    assert {"field": "brand", "source": "microdata", "value": "Ver mais artigos da Marca: Panasonic",
            "kept_source": "shopify", "kept_value": "Panasonic"} in data.conflicts


def test_kyomo_data_product_json_script_adds_title_tags_and_availability():
    data = run("embedded-state/shopify-kyomo-data-product-json.html", "https://kyomowatches.com/products/emerald-gold-with-black-leather")
    shopify = data.platform_data["shopify"]
    assert shopify["sources"] == ["ShopifyAnalytics.meta", "product_json"]
    assert shopify["title"] == "Watch 1X - Emerald/Gold with Black Leather"
    assert (shopify["vendor"], shopify["currency"]) == ("Kyomo Watches", "EUR")
    assert shopify["product_tags"] == ["__tab1:specifications-1x"]
    assert data.structured_data["price"] == "217.00"
    assert data.structured_data["availability"] == "InStock"
    assert data.structured_data["image"].startswith("https://cdn.shopify.com/s/files/1/0031/7921/7008/products/")


def test_nativecos_product_json_id_variants_carry_named_options():
    data = run("embedded-state/shopify-nativecos-product-json-id.html", "https://www.nativecos.com/products/clean-hair-trio")
    shopify = data.platform_data["shopify"]
    assert (shopify["product_type"], shopify["product_tags"]) == ("Bundle", ["bundle", "overhaul"])
    variants = data.structured_data["variants"]
    assert len(variants) == 3
    assert variants[0] == {"name": "Cashmere & Rain / Classic", "sku": "BNDL-CHT-0001", "price": "28.00",
                           "currency": "USD", "availability": "InStock",
                           "options": {"Scent": "Cashmere & Rain", "Colllection": "Classic"}}


def test_allbirds_meta_literal_in_a_comment_is_not_a_warning():
    data = run("embedded-state/allbirds-product.html", "https://www.allbirds.com/products/mens-cruiser-medium-grey")
    shopify = data.platform_data["shopify"]
    assert (shopify["vendor"], shopify["product_type"], shopify["currency"]) == ("Allbirds", "Shoes", "USD")
    assert data.structured_data["price"] == "105.00"
    assert data.warnings == []


def test_gymshark_product_group_has_variants():
    block = (FIXTURES.parent / "embedded" / "gymshark-productgroup.json").read_text(encoding="utf-8")
    html = f'<html><head><script type="application/ld+json">{block}</script></head></html>'
    data = extract_structured_data(html, "https://www.gymshark.com/products/gymshark-arrival-5-shorts-black-ss22")
    product = data.structured_data
    assert product["product_name"] == 'Arrival 5" Shorts'
    assert (product["brand"], product["category"]) == ("Gymshark | We Do Gym", "shorts")
    assert (product["price"], product["currency"]) == ("26", "USD")
    assert [v["options"] for v in product["variants"]][:2] == [{"size": "xs"}, {"size": "s"}]


def test_apple_aggregate_offer_low_price():
    data = run("json-ld/apple-macbook-air.html", "https://www.apple.com/shop/buy-mac/macbook-air")
    assert data.structured_data["product_name"] == "MacBook Air"
    assert (data.structured_data["price"], data.structured_data["currency"]) == ("1299", "USD")


def test_truncated_block_does_not_lose_the_good_blocks():
    data = run("json-ld/malformed-block.html", "https://www.apple.com/shop/buy-mac/macbook-air")
    assert data.structured_data["product_name"] == "MacBook Air"
    assert data.structured_data["price"] == "1299"
    assert [w["extractor"] for w in data.warnings] == ["json-ld"]
    assert "block 2" in data.warnings[0]["message"]


@pytest.mark.parametrize("path", ["json-ld/propertyfinder-buy.html", "json-ld/ticketmaster-concerts.html"])
def test_pages_without_product_or_article_have_only_meta(path):
    data = run(path, "https://example.org/")
    assert list(data.to_frontmatter()) == ["meta"]


def test_prices_only_in_app_state_are_not_invented():
    data = run("provenance/apple-macbook-air.html", "https://www.apple.com/shop/buy-mac/macbook-air")
    assert data.to_frontmatter() == {"meta": {"title": "Buy MacBook Air - Apple"}}


def test_shopware_5_buy_box_order_number():
    data = run("eval/ebrosia.de.zinfandel.html", "https://www.ebrosia.de/beringer-zinfandel-rose-stone-cellars-lieblich-suess")
    assert data.platform_data["shopware"] == {"ordernumber": "009345", "product_id": "855", "category_id": "240"}
    assert data.provenance["structured_data.sku"] == "visible"  # the order number the page prints
    assert (data.structured_data["price"], data.structured_data["currency"]) == ("7.49", "EUR")
    assert "image" not in data.structured_data  # srcset-only <img itemprop=image>


def test_shopware_zooroyal_markup_out_of_stock_but_shown_for_sale():
    data = run("eval/zooroyal.de.trixie.html", "https://www.zooroyal.de/trixie-natura-kleintierstall-mit-freilaufgehege")
    assert data.platform_data["shopware"] == {"ordernumber": "1000017279"}
    # its microdata (and app state) say out of stock, but the page shows an enabled
    # "In den Warenkorb" button and no notice: the shopper can buy it
    assert (data.structured_data["availability"], data.structured_data["gtin"]) == ("InStock", "4011905623016")
    assert data.provenance["structured_data.availability"] == "visible"
    assert {"field": "availability", "source": "microdata", "value": "OutOfStock", "kept_source": "visible",
            "kept_value": "InStock"} in data.conflicts


def test_wordpress_product_post_type_is_not_woocommerce():
    data = run("eval/coopbuddy.de.bee.html", "https://www.coopbuddy.de/games/bee-simulator/")
    assert "woocommerce" not in data.platform_data


def test_article_json_ld_entities_are_decoded():
    data = run("eval/rosa-mag.de.womanking.html", "https://rosa-mag.de/sheila-atim/")
    assert data.structured_data["headline"].startswith("Sheila Atim: \u201eThe Woman King")
    assert data.structured_data["date_published"] == "2022-10-06T20:18:03+00:00"


def test_head_tags_found_past_a_script_that_writes_head_end():
    data = run("eval/einfachspanien.de.malaga.html", "http://www.einfachspanien.de/malaga.html")
    assert data.meta["title"] == "Malaga, die quirlige Metropole in Andalusien"
    assert data.meta["description"].startswith("Spanien hat als Reiseland eine Menge zu bieten.")


def test_head_tags_found_after_php_warnings_before_html():
    data = run("eval/bibliothek2null.de.mai.html", "http://www.bibliothek2null.de/2014/05/18/alles-neue-mach-der-mai/")
    assert data.meta == {
        "title": "Alles Neue mach der Mai\u2026 | Bibliothek 2.0 und mehr",
        "description": "Innovative Ideen f\u00fcr Bibliotheken,  Freie Inhalte und Interessantes aus dem Web",
        "canonical": "http://www.bibliothek2null.de/2014/05/18/alles-neue-mach-der-mai/",
    }


def test_opengraph_read_past_a_tracking_pixel_in_a_noscript_in_the_head():
    data = run("eval/boingboing.net.millenials.html", "https://boingboing.net/2013/07/19/hating-millennials-the-preju.html")
    assert data.provenance["meta.title"] == "opengraph"
    assert data.meta["image"].startswith("https://")
    assert data.provenance["meta.image"] == "opengraph"


def test_head_tags_written_in_the_body_after_an_early_head_end():
    html = gzip.decompress((FIXTURES / "wcxb" / "0255.html.gz").read_bytes()).decode("utf-8")
    data = extract_structured_data(html, "https://www.flowguard.com/blog/choosing-plumbing-material-whats-the-difference")
    assert data.meta["title"] == "Choosing Plumbing Material: What's the Difference?"
    assert data.meta["description"].startswith("What does plumbing in a safe, well-protected home look like?")
    assert data.meta["canonical"] == "https://www.flowguard.com/blog/choosing-plumbing-material-whats-the-difference"


class AlwaysFails(Extractor):
    name = "broken"
    priority = 200

    def extract(self, page):
        raise RuntimeError("boom")


class PageLength(Extractor):
    name = "length"
    priority = 10

    def extract(self, page):
        return Finding(platform_data={"length": {"chars": len(page.html)}})


def test_failing_extractor_is_isolated_and_reported():
    data = run("product/ikea_gb_moeckelby_table_jsonld.html", "https://www.ikea.com/gb/", extractors=[
        AlwaysFails, "crawlforge.extract.extractors.jsonld:JsonLdExtractor"])
    assert data.errors == [{"extractor": "broken", "message": "RuntimeError: boom"}]
    assert data.structured_data["price"] == "450"


def test_user_extractor_by_module_path():
    data = run("json-ld/apple-macbook-air.html", "https://www.apple.com/", extractors=[f"{__name__}:PageLength"])
    assert data.platform_data == {"length": {"chars": 2639}}
    assert data.provenance == {"platform_data.length": "length"}


def test_empty_page_is_empty():
    data = extract_structured_data("", "https://example.org/")
    assert data.is_empty() and data.to_frontmatter() == {} and data.errors == []


def test_the_markdown_of_a_page_reads_its_own_structured_data_made_once_and_no_other_pages():
    from crawlforge.extract.dom import ParsedPage
    from crawlforge.extract.markdown import html_to_markdown, page_markdown

    ikea = ParsedPage((FIXTURES / "product" / "ikea_gb_moeckelby_table_jsonld.html").read_text(encoding="utf-8"))
    zalando = (FIXTURES / "product" / "zalando_ie_versace_jeans_jsonld.html").read_text(encoding="utf-8")
    url = "https://shop.example/p"
    alone = html_to_markdown(zalando, url)
    page = ParsedPage(zalando)
    page_structured_data(ikea, url)
    data = page_structured_data(page, url)
    assert page_markdown(page, url, take=True) == alone  # its own result, not the other page's
    assert page_structured_data(page, url) is data and page.runs["structured_data"] == 1  # made once
    assert ikea.runs["structured_data"] == 1
