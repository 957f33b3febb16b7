"""Upstream conformance: tests/amazon-product.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 0c1eed62687b780a988b713778de94090b53e3ab (templates.md §0.1): the
amazon-product template through ``TemplateRegistry().run`` on the upstream's condensed markup.
"""

import pytest

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()


def run(html: str) -> dict:
    return REGISTRY.run("amazon-product", f"<html><body>{html}</body></html>", "https://www.amazon.com/dp/B000000000")["data"]


# --- byline -------------------------------------------------------------------------------


def test_first_party_device_drops_the_brand_label():
    assert run('<a id="bylineInfo">Brand: Amazon</a>')["brand"] == "Amazon"


def test_branded_storefront_drops_the_store_wrapper():
    assert run('<a id="bylineInfo">Visit the Apple Store</a>')["brand"] == "Apple"


def test_book_byline_yields_the_author():
    html = """<div id="bylineInfo">by
        <span class="author"><a class="contributorNameID">Jonathan Haidt</a></span>
        (Author) Format: Hardcover</div>"""
    assert run(html)["brand"] == "Jonathan Haidt"


def test_book_byline_without_a_contributor_link_loses_the_chrome():
    assert run('<div id="bylineInfo">by Ursula K. Le Guin (Author)</div>')["brand"] == "Ursula K. Le Guin"


def test_unrecognised_byline_is_passed_through():
    assert run('<a id="bylineInfo">Acme Industries</a>')["brand"] == "Acme Industries"


def test_no_byline_is_null():
    assert run('<span id="productTitle">Thing</span>')["brand"] is None


# --- rating and review count --------------------------------------------------------------


def test_rating_from_the_popover_title():
    assert run('<span id="acrPopover" title="4.7 out of 5 stars"></span>')["rating"] == 4.7


def test_star_icon_is_the_rating_fallback():
    assert run('<div id="averageCustomerReviews"><span class="a-icon-alt">4.6 out of 5 stars</span></div>')["rating"] == 4.6


def test_parenthesised_review_count_becomes_a_number():
    assert run('<span id="acrCustomerReviewText">(198,594)</span>')["review_count"] == 198594


def test_global_ratings_wording_parses_to_the_same_number():
    assert run('<span data-hook="total-review-count">198,594 global ratings</span>')["review_count"] == 198594


def test_unrated_product_reports_null():
    data = run('<span id="productTitle">Thing</span>')
    assert data["rating"] is None and data["review_count"] is None


# --- price --------------------------------------------------------------------------------


def triplet(offscreen: str, whole: str, fraction: str, decimal: str = "") -> str:
    return (
        f'<span class="a-price"><span class="a-offscreen">{offscreen}</span>'
        f'<span class="a-price-symbol">$</span><span class="a-price-whole">{whole}'
        f'<span class="a-price-decimal">{decimal}</span></span>'
        f'<span class="a-price-fraction">{fraction}</span></span>'
    )


def test_empty_decimal_span_no_longer_yields_a_price_100x_too_high():
    assert run(triplet("$1105", "11", "05"))["price"] == "$11.05"
    assert run(triplet("$799", "7", "99"))["price"] == "$7.99"


def test_well_formed_offscreen_price_is_untouched():
    assert run(triplet("$1,105.00", "1,105", "00", "."))["price"] == "$1,105.00"
    assert run(triplet("$105.05", "105", "05", "."))["price"] == "$105.05"
    assert run('<span class="a-price"><span class="a-offscreen">52,02USD</span></span>')["price"] == "52,02USD"


def test_comma_marketplace_gets_its_comma_back():
    html = '<link rel="canonical" href="https://www.amazon.de/dp/B000000000">' + triplet("4599 €", "45", "99")
    assert run(html)["price"] == "45,99 €"


# --- currency -----------------------------------------------------------------------------


def test_iso_code_from_the_add_to_cart_form():
    html = '<input type="hidden" name="items[0.base][customerVisiblePrice][currencyCode]" value="USD">'
    assert run(html)["currency"] == "USD"


def test_schema_org_meta_tag_is_honoured():
    assert run('<meta itemprop="priceCurrency" content="GBP">')["currency"] == "GBP"


def test_currency_read_off_the_price():
    def price(p):
        return f'<span class="a-price"><span class="a-offscreen">{p}</span></span>'

    assert run(price("52,02USD"))["currency"] == "USD"
    assert run(price("₹1,950.00"))["currency"] == "INR"
    assert run(price("45,99 €"))["currency"] == "EUR"
    assert run(price("£31.99"))["currency"] == "GBP"


@pytest.mark.parametrize("host,currency", [("www.amazon.ca", "CAD"), ("www.amazon.com.au", "AUD"), ("www.amazon.com", "USD")])
def test_bare_dollar_is_the_marketplace_dollar(host, currency):
    html = f'<link rel="canonical" href="https://{host}/dp/B000000000"><span class="a-price"><span class="a-offscreen">$12.99</span></span>'
    assert run(html)["currency"] == currency


def test_no_price_no_currency():
    assert run('<span id="productTitle">x</span>')["currency"] is None


# --- images -------------------------------------------------------------------------------

MAIN = "https://m.media-amazon.com/images/I/61J2sQtBYDL._AC_SY300_SX300_QL70_.jpg"
THUMB = "https://m.media-amazon.com/images/I/31vkCUuIWCL._AC_SR40,60_.jpg"
PIXEL = "https://images-na.ssl-images-amazon.com/images/G/01/x-locale/common/transparent-pixel._V192234675_.gif"


def test_thumbnails_are_upsized_to_the_original():
    data = run(f'<img id="landingImage" src="{MAIN}"><div id="altImages"><img src="{THUMB}"></div>')
    assert data["images"] == [
        "https://m.media-amazon.com/images/I/61J2sQtBYDL.jpg",
        "https://m.media-amazon.com/images/I/31vkCUuIWCL.jpg",
    ]


def test_spacer_gif_is_not_an_image():
    assert len(run(f'<div id="altImages"><img src="{THUMB}"><img src="{PIXEL}"></div>')["images"]) == 1


def test_main_image_is_not_repeated_as_a_thumbnail():
    data = run(f'<img id="landingImage" src="{MAIN}"><div id="altImages"><img src="{MAIN}"></div>')
    assert data["images"] == ["https://m.media-amazon.com/images/I/61J2sQtBYDL.jpg"]


def test_product_with_no_gallery_reports_an_empty_list():
    assert run('<span id="productTitle">Thing</span>')["images"] == []


# --- description --------------------------------------------------------------------------


def test_feature_bullets_are_joined_without_chrome():
    html = """<div id="feature-bullets"><ul>
      <li><span class="a-list-item">First   point.</span></li>
      <li><span class="a-list-item">Second point.</span></li>
    </ul><a href="#">› See more product details</a></div>"""
    assert run(html)["description"] == "First point. Second point."


def test_book_falls_back_to_its_description_container():
    html = '<div id="bookDescription_feature_div"><div class="a-expander-content"><p>A book\nabout books.</p></div></div>'
    assert run(html)["description"] == "A book about books."


def test_explicit_product_description_wins_over_bullets():
    html = """<div id="productDescription"><p>The full write-up.</p></div>
      <div id="feature-bullets"><ul><li><span class="a-list-item">A bullet.</span></li></ul></div>"""
    assert run(html)["description"] == "The full write-up."


# --- page facts ---------------------------------------------------------------------------


def test_title_whitespace_is_collapsed():
    assert run('<span id="productTitle">\n   Echo Dot   (newest\n model)\n  </span>')["title"] == "Echo Dot (newest model)"


def test_availability_is_not_polluted_by_the_json_beside_it():
    html = '<div id="availability"><span>In Stock</span><script>{"asin":"B09B8V1LZ3"}</script></div>'
    assert run(html)["availability"] == "In Stock"


def test_breadcrumbs_are_read():
    html = '<div id="wayfinding-breadcrumbs_feature_div"><a>Books</a><a>Parenting</a></div>'
    assert run(html)["category_breadcrumb"] == ["Books", "Parenting"]


def test_device_page_without_breadcrumbs_reports_an_empty_list():
    assert run('<span id="productTitle">Echo Dot</span>')["category_breadcrumb"] == []


# --- guards -------------------------------------------------------------------------------


def test_captcha_interstitial_fails_loudly():
    interstitial = """
      <h4>Escribe los caracteres que ves en la imagen</h4>
      <form method="get" action="/errors/validateCaptcha" name="">
        <input type="hidden" name="amzn" value="x"><input type="text" name="field-keywords">
      </form>
      <!-- api-services-support@amazon.com -->"""
    with pytest.raises(ValueError, match="captcha interstitial"):
        run(interstitial)


def test_unrecognised_page_fails_loudly_not_all_null():
    with pytest.raises(ValueError, match="extracted no data — every field came back empty"):
        run("<div><p>Something went wrong.</p></div>")


# --- rating on other marketplaces ---------------------------------------------------------


def popover(title: str) -> str:
    return f'<span id="acrPopover" title="{title}"></span>'


def test_comma_decimal_is_a_decimal():
    for title in ("4,8 van 5 sterren", "4,8 su 5 stelle", "4,8 von 5 Sternen"):
        assert run(popover(title))["rating"] == 4.8, title


def test_amazon_co_jp_states_the_scale_first():
    assert run(popover("5つ星のうち4.7"))["rating"] == 4.7


def test_perfect_score_is_still_5():
    assert run(popover("5.0 out of 5 stars"))["rating"] == 5
    assert run(popover("5 out of 5 stars"))["rating"] == 5


# --- the buy box --------------------------------------------------------------------------


def block(cls, offscreen, symbol, whole, fraction, symbol_last=False, decimal="."):
    sym = f'<span class="a-price-symbol">{symbol}</span>'
    digits = (
        f'<span class="a-price-whole">{whole}<span class="a-price-decimal">{decimal}</span></span>'
        f'<span class="a-price-fraction">{fraction}</span>'
    )
    return f'<span class="{cls}"><span class="a-offscreen">{offscreen}</span>' + (digits + sym if symbol_last else sym + digits) + "</span>"


def carousel(*prices) -> str:
    inner = "".join(block("a-price", p, "$", p[1:-3], p[-2:]) for p in prices)
    return f'<div id="sims-simsContainer_feature_div_0">{inner}</div>'


def swatch(label: str) -> str:
    return f'<div id="tmmSwatches"><span class="swatchElement selected"><span class="slot-price"><span>{label}</span></span></span></div>'


def test_blank_offscreen_in_the_buy_box_is_rebuilt():
    buy_box = f'<div id="corePriceDisplay_desktop_feature_div">{block("a-price priceToPay", " ", "£", "39", "24")}</div>'
    assert run(buy_box)["price"] == "£39.24"


def test_rebuilt_price_keeps_separator_and_symbol_side():
    nl = '<link rel="canonical" href="https://www.amazon.nl/dp/B000000000">' + block("a-price priceToPay", " ", "€", "44", "85", decimal=",")
    assert run(nl)["price"] == "€44,85"
    it = '<link rel="canonical" href="https://www.amazon.it/dp/B000000000">' + block(
        "a-price priceToPay", " ", "€", "32", "89", decimal=",", symbol_last=True
    )
    assert run(it)["price"] == "32,89€"


def test_buy_box_wins_over_list_price_and_carousels():
    html = (
        block("a-price a-text-price", "£47.99", "£", "47", "99")
        + f'<div id="corePriceDisplay_desktop_feature_div">{block("a-price priceToPay", "£39.24", "£", "39", "24")}</div>'
        + carousel("$31.45", "$34.53")
    )
    assert run(html)["price"] == "£39.24"


def test_without_a_buy_box_a_carousel_price_is_never_the_price():
    data = run(carousel("$52.13", "$41.71") + swatch("ab 30,57 USD"))
    assert data["price"] == "ab 30,57 USD"
    assert data["currency"] == "USD"
    assert run('<span id="productTitle">Book</span>' + carousel("$52.13"))["price"] is None


def test_empty_range_placeholders_fall_through_to_the_swatch():
    html = (
        '<div id="corePrice_feature_div"><span class="a-price priceToPayRangeMin"><span class="a-offscreen"></span></span></div>'
        + swatch("from $46.88")
    )
    assert run(html)["price"] == "from $46.88"
