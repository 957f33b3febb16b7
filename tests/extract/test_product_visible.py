"""extract_product on pages without markup (fixtures/product/visible: real product pages with
every script, microdata attribute and meta price stripped by product-visible's scorer) and on
pages that show prices but sell no one product: what a page shows is read by principle (the
price under the product's heading, outside other items' cards; labelled codes; the buy
button's state), each field with its provenance."""

import gzip
from pathlib import Path

from conftest import ROOT
from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.extractors.shown import _tag
from crawlforge.extract.extractors.values import plain_text
from crawlforge.extract.product import extract_product

PRODUCT = ROOT / "fixtures" / "product"
VISIBLE = PRODUCT / "visible"


def page(path: Path) -> str:
    return gzip.decompress(path.read_bytes()).decode("utf-8")


def record_of(name: str, url: str) -> dict:
    return extract_product(page(VISIBLE / name), url)


# Price: the tag under the product's heading; a "was"/UVP price is the list price.

def test_shown_price_under_the_heading_without_any_markup():
    record = record_of("ikea-0666abeb.html.gz", "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/")
    assert (record["price"], record["currency"], record["name"]) == ("450", "GBP", "MÖCKELBY Table, oak 235x100 cm")
    assert record["provenance"]["price"] == "visible" and record["is_product"] is True


def test_uvp_before_the_price_is_the_list_price():
    record = record_of("otto-040c3ea5.html.gz", "https://www.otto.de/p/kaercher-hochdruckreiniger-k-3-full-control-848068924/")
    assert (record["price"], record["list_price"], record["currency"]) == ("119.01", "149.99", "EUR")


def test_comma_decimal_price_of_a_finnish_page():
    record = record_of("zalando-6f905464.html.gz", "https://www.zalando.fi/superdry-spirit-sports-puffer-vaelikausitakki-nautical-yellow-su221u09p-e11.html")
    assert (record["price"], record["currency"]) == ("74.95", "EUR")


def test_a_b_stock_offer_in_the_buy_box_is_not_the_price():
    record = record_of("thomann-2947.html.gz", "https://www.thomann.de/gb/fender_player_ii_strat_rw_bcg.htm")
    assert (record["price"], record["currency"]) == ("675", "GBP")  # not "B-Stock available from £585"


def test_shipping_added_after_the_price_is_not_the_price():
    record = record_of("ebay-361022ee.html.gz", "https://www.ebay.ca/itm/123808916008")  # "GBP 11.19 +GBP 2.00 shipping"
    assert (record["price"], record["currency"]) == ("11.19", "GBP")


def test_a_json_ld_product_without_offers_takes_the_price_under_its_heading():
    html = page(PRODUCT / "wcxb-3061.html.gz")  # JSON-LD Product, no offers; "From $1099" under the h1, no buy button
    record = extract_product(html, "https://www.apple.com/macbook-air/")
    assert (record["price"], record["currency"], record["provenance"]["price"]) == ("1099", "USD", "visible")
    assert record["provenance"]["name"] == "json-ld" and record["is_product"] is True


def test_without_the_markup_naming_a_product_a_price_and_no_buy_button_is_no_offer():
    record = record_of("apple-3061.html.gz", "https://www.apple.com/macbook-air/")  # the same page, markup stripped
    assert record["price"] is None and record["is_product"] is False


def test_the_price_shown_before_the_buy_button_far_below_the_heading():
    # Ratings, key features and a reviews summary (some 1700 characters) between the h1 and
    # "Current price is USD $179.00", then "Add to cart".
    record = record_of("walmart-0615.html.gz", "https://www.walmart.com/ip/Ninja-Professional-Plus-Kitchen-Blender-"
                                               "System-with-Auto-iQ/562225800")
    assert (record["price"], record["currency"], record["provenance"]["price"]) == ("179", "USD", "visible")
    assert record["is_product"] is True


def test_a_classified_ads_price_above_its_title_in_the_titles_box():
    record = record_of("olx-d8ae57c7.html.gz", "https://www.olx.com.pk/item/suzuki-alto-vxr-2010-iid-1024643167")
    assert (record["price"], record["provenance"]["price"]) == ("635000", "visible")  # "Rs 635,000", then the h1


def test_a_price_filters_counts_marked_by_data_attributes_are_no_price():
    html = page(PRODUCT / "wcxb-2960.html.gz")  # a lens category: "$50 to $75 (25)" under its h1, cards with buttons
    record = extract_product(html, "https://www.adorama.com/l/Photography/Lenses/Mirrorless-Lenses")
    assert record["price"] is None and record["is_product"] is False


def test_a_related_items_carousel_with_its_own_buy_buttons_keeps_the_products_price():
    # Eleven "Add to Cart" buttons: the product's, then related kits' cards at $36.95 and more.
    record = record_of("ifixit-3022.html.gz", "https://www.ifixit.com/products/magnetic-project-mat")
    assert (record["price"], record["name"], record["is_product"]) == ("19.95", "Magnetic Project Mat", True)


def test_a_table_of_priced_plans_each_with_its_buy_button_is_no_product():
    for name, url in (("wcxb-4901.html.gz", "https://www.higheredjobs.com/career/ResumeService.cfm"),
                      ("wcxb-4899.html.gz", "https://employmentboost.com/professional-resume-writing-services-packages/")):
        record = extract_product(page(PRODUCT / name), url)  # a service's packages: "Order Now" under each price
        assert (record["is_product"], record["name"], record["price"]) == (False, None, None), name


def test_a_listings_first_card_is_no_product():
    html = page(PRODUCT / "wcxb-0659.html.gz")  # a shop page: a grid of cups, each with its price and button
    record = extract_product(html, "https://jococups.com/shop/")
    assert record["price"] is None and record["is_product"] is False


def test_a_listing_priced_in_a_currency_of_letters_is_no_product():
    html = page(PRODUCT / "wcxb-4280.html.gz")  # a grid of dashcams at "лв1201,45", one card with a "Pre-Order Now" button
    record = extract_product(html, "https://www.thedashcamstore.com/4k-dashcams/")
    assert record["price"] is None and record["is_product"] is False


def test_a_price_filters_option_is_no_price():
    html = page(PRODUCT / "wcxb-4158.html.gz")  # a category of two bread makers; "Under $250" is a filter's radio label
    record = extract_product(html, "https://www.cuisinart.com/shopping/appliances/bread-makers/")
    assert record["price"] is None and record["is_product"] is False


def test_an_article_with_a_product_widget_is_no_product():
    html = page(PRODUCT / "wcxb-4810.html.gz")  # a blog post with two priced product cards inside
    record = extract_product(html, "https://us.3itech.com/blogs/news/how-does-robot-vacuum-mapping-work")
    assert record["price"] is None and record["is_product"] is False


# SKU: a code the page labels as the product's, or the id its URL carries and the page repeats.

def test_labelled_article_number_is_the_sku():
    record = record_of("ikea-0666abeb.html.gz", "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/")
    assert (record["sku"], record["provenance"]["sku"]) == ("002.937.72", "visible")  # "Article no.: 002.937.72"


def test_a_label_split_by_a_frameworks_comment_still_names_the_code():
    html = page(PRODUCT / "wcxb-0625.html.gz")  # "Article number<!-- -->:</dt> <dd>BEJ22T0PL-Q11</dd>"
    record = extract_product(html, "https://www.zalando.co.uk/bershka-faux-leather-jacket-black-bej22t0pl-q11.html")
    assert (record["sku"], record["provenance"]["sku"]) == ("BEJ22T0PL-Q11", "visible")  # not a size's SKU of the JSON-LD


def test_a_labelled_item_number_without_a_shown_price_is_still_the_sku():
    record = record_of("ebay-5cea6e89.html.gz", "https://www.ebay.ie/itm/114532738197")  # an ended auction, no offer
    assert (record["sku"], record["provenance"]["sku"]) == ("114532738197", "visible")  # "eBay item number: ..."
    assert record["price"] is None and record["is_product"] is False  # no offer shown: no product record


def test_an_article_quoting_prices_gets_no_code_or_stock():
    html = page(PRODUCT / "wcxb-4810.html.gz")
    record = extract_product(html, "https://us.3itech.com/blogs/news/how-does-robot-vacuum-mapping-work")
    assert (record["sku"], record["availability"]) == (None, None)


def test_a_page_labelling_several_codes_gives_none():
    record = record_of("ikea-f94bb87d.html.gz",  # a module listing its parts' article numbers
                       "https://www.ikea.com/gb/en/p/vallentuna-sofa-bed-module-with-backrests-murum-black-s99277508/")
    assert record["sku"] is None and record["price"] == "515"


def test_url_id_that_the_page_repeats_is_the_sku():
    record = record_of("rei-0628.html.gz", "https://www.rei.com/product/227955/rei-co-op-trail-25-pack")
    assert record["sku"] == "227955" and record["provenance"]["sku"] in ("visible", "url")
    assert extract_product(page(VISIBLE / "rei-0628.html.gz"), "https://www.rei.com/product/999991/x")["sku"] != "999991"


def test_url_id_repeated_as_another_links_item_parameter_is_the_sku():
    url = "https://www.newegg.com/evga-12g-p4-3992-kr-geforce-gtx-titan-z-superclocked-12gb-graphics-card-with-fan/" \
          "p/N82E16814487048"
    record = record_of("newegg-0627.html.gz", url)  # "RateProduct?Item=N82E16814487048&..." in a review link
    assert (record["sku"], record["provenance"]["sku"]) == ("N82E16814487048", "url")


def test_a_urls_sku_parameter_the_page_repeats_is_the_sku_and_an_unrepeated_one_is_not():
    url = "https://www.solostove.com/eu/en-bg/p/solo-stove-summit?sku=SS24-SD-3.0"
    record = record_of("solostove-0607.html.gz", url)  # data-yotpo-product-id="SS24-SD-3.0"
    assert (record["sku"], record["provenance"]["sku"]) == ("SS24-SD-3.0", "url")
    assert record_of("solostove-0607.html.gz", url.replace("SS24-SD-3.0", "SS99-XX-1.0"))["sku"] is None


# Availability: the buy button's state and stock phrases; a missing state stays missing.

def test_an_auctions_bid_button_is_in_stock():
    record = record_of("ebay-359ca699.html.gz", "https://www.ebay.co.uk/itm/143863282131")  # "Submit bid"
    assert (record["price"], record["availability"]) == ("115", "InStock")


def test_unavailable_notice_without_a_buy_button_is_out_of_stock():
    record = record_of("ikea-897bc5b5.html.gz", "https://www.ikea.com/gb/en/p/djungelskog-soft-toy-brown-bear-00402813/")
    assert (record["availability"], record["provenance"]["availability"]) == ("OutOfStock", "visible")


def test_no_button_and_no_notice_is_no_state_not_in_stock():
    record = record_of("ikea-0622.html.gz", "https://www.ikea.com/us/en/p/kallax-shelf-unit-white-80275887/")
    assert record["price"] == "79.99" and record["availability"] is None  # "Checking availability..." only


def test_a_coming_soon_mark_without_a_buy_button_is_out_of_stock():
    record = record_of("supernaturalkitchen-0611.html.gz",  # <div class="product-mark sold-out">Coming Soon!</div>
                       "https://www.supernaturalkitchen.com/shop-supernatural/natural-plant-based-food-coloring")
    assert (record["price"], record["availability"]) == ("9.99", "OutOfStock")


def test_a_disabled_buy_button_the_script_would_enable_is_in_stock():
    record = record_of("ebay-2888.html.gz", "https://www.ebay.com/itm/335330783890")  # "Buy It Now", disabled as served
    assert (record["availability"], record["provenance"]["availability"]) == ("InStock", "visible")


def test_a_discontinued_notice_is_out_of_stock_and_a_first_available_date_no_stock():
    html = page(PRODUCT / "iherb-0631-no-stock.html.gz")  # JSON-LD offers without availability
    record = extract_product(html, "https://bg.iherb.com/pr/almondina-toastees-toasted-almond-thins-cranberry-almond-"
                                   "5-25-oz-149-g-discontinued-item/61856")
    assert (record["price"], record["availability"]) == ("2.88", "OutOfStock")


# Templates and descriptions.

def test_amazon_template_without_a_price_still_gives_asin_and_stock():
    html = (ROOT / "fixtures" / "templates" / "amazon" / "amazon-ae-atomic-habits-excerpt.html").read_text(encoding="utf-8")
    record = extract_product(html.replace('class="a-price', 'class="x-price'), "https://www.amazon.ae/dp/1847941834")
    assert record["price"] is None
    assert (record["sku"], record["availability"]) == ("1847941834", "InStock")
    assert record["provenance"]["sku"] == "template:amazon-product"


def test_json_ld_description_html_is_plain_text():
    record = extract_product(page(PRODUCT / "johnlewis-1bb37817.html.gz"),
                             "https://www.johnlewis.com/google-nest-mini-hands-free-smart-speaker-2nd-gen/p4781720")
    assert record["description"].startswith("Second Generation\nEnjoy richer and bigger")
    assert "<" not in record["description"]
    assert plain_text("&lt;p&gt;One &amp; two&lt;/p&gt;") == "One & two" and plain_text("5 < 6") == "5 < 6"


# Bad input: synthetic pages, each a fault real pages show.

def synthetic_page(body: str) -> str:
    return f"<html><head><title>Widget</title></head><body><h1>Widget</h1>{body}</body></html>"


def test_a_price_range_gives_its_low_end_or_nothing_never_the_high_end():
    record = extract_product(synthetic_page('<p class="price">From 9.99 to 19.99</p><button>Add to cart</button>'),
                             "https://shop.example/widget")
    assert record["price"] in (None, "9.99")


def test_a_currency_less_number_under_the_heading_is_no_price():
    record = extract_product(synthetic_page("<p>1999</p><button>Add to cart</button>"), "https://shop.example/widget")
    assert record["price"] is None and record["is_product"] is False


def test_a_megabyte_of_digits_gives_no_price_and_no_exception():
    record = extract_product(synthetic_page("<span class='price'>" + "9" * 1024 * 1024 + "</span>"),
                             "https://shop.example/widget")
    assert record["price"] is None


def test_a_currency_code_inside_a_word_makes_no_price_tag():
    """"9 KALLAX images" holds "ALL" (the lek) but shows no money; "$79.99" on the same page does."""
    tree = LexborHTMLParser(page(VISIBLE / "ikea-0622.html.gz"))
    texts = {" ".join(node.text(deep=True).split()): node for node in tree.body.traverse() if node.is_element_node}
    assert _tag(texts["9 KALLAX images"], "", 0) is None
    assert (_tag(texts["$79.99"], "", 0).amount, _tag(texts["$79.99"], "", 0).currency) == ("79.99", "$")


# The name: a page whose markup gives the offer but no name is still one product's page.

def test_the_heading_names_a_product_whose_opengraph_gives_every_fact_but_its_name():
    record = extract_product(page(PRODUCT / "wcxb-0604.html.gz"), "https://ascolour.com/staple-tee-5001/")
    assert (record["name"], record["price"], record["provenance"]["name"]) == ("Staple Tee 5001", "20", "visible")
    assert record["is_product"] is True


def test_shopify_analytics_variant_names_give_the_title_they_share():
    record = extract_product(page(PRODUCT / "wcxb-0584.html.gz"),
                             "https://www.brooklinen.com/products/classic-core-sheet-set")
    assert (record["name"], record["provenance"]["name"], record["is_product"]) == (
        "Classic Percale Core Sheet Set", "shopify", True)
    assert {variant["name"].split(" / ")[-1] for variant in record["variants"]} >= {"Twin", "Queen", "Cali King"}
