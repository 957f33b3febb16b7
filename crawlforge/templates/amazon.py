"""Amazon product pages (every marketplace): the buy-box price, not a carousel's or a sponsor's.

Amazon pages carry dozens of ``.a-price`` blocks; the price is the first one in the buy box,
read as the shopper sees it ("£39.24", "45,99 €"), with the marketplace's decimal separator.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborNode

from .base import Template, TemplateRejectedError
from .common import Doc, attr, find_all, find_first, first_truthy, list_attr, list_text, node_text, text, tidy

_COMMA_HOSTS = (".de", ".fr", ".es", ".it", ".nl", ".se", ".pl", ".com.br", ".com.tr", ".com.be")
_CORE_PRICE_IDS = ("corePrice_feature_div", "corePriceDisplay_desktop_feature_div", "apex_desktop", "corePrice_desktop")
_EXCLUDED_IDS = (
    "HLCXComparisonTable",
    "olpLinkWidget_feature_div",
    "dynamic-aod-ingress-box",
    "twister-plus-tool-tip",
    "twisterPlusPriceSubtotalWWDesktop_feature_div",
)
_CURRENCY_CODE = re.compile(r"(USD|EUR|GBP|INR|JPY|CAD|AUD|MXN|BRL|SGD|AED|SAR|EGP|PLN|TRY|SEK)(?![A-Z])")
_SYMBOLS = (
    (re.compile("₹"), "INR"),
    (re.compile("€"), "EUR"),
    (re.compile("£"), "GBP"),
    (re.compile("[¥￥]"), "JPY"),
    (re.compile(r"R\$"), "BRL"),
    (re.compile("zł"), "PLN"),
    (re.compile(r"₺|(?<![A-Za-z0-9_])TL(?![A-Za-z0-9_])"), "TRY"),
    (re.compile("د\\.إ|دإ"), "AED"),
    (re.compile("ج\\.م|جم"), "EGP"),
    (re.compile("ر\\.س|رس|﷼"), "SAR"),
)
_DOLLAR_HOSTS = ((".ca", "CAD"), (".com.au", "AUD"), (".com.mx", "MXN"), (".sg", "SGD"))


def _digits(value: str | None) -> str:
    return re.sub(r"[^0-9]", "", value or "")


def _canonical_host(doc: Doc) -> str:
    match = re.match(r"^https?://([^/]+)", attr(doc, 'link[rel="canonical"]', "href") or "", re.I)
    return match.group(1).lower() if match else ""


def _classes(node: LexborNode) -> list[str]:
    return (node.attributes.get("class") or "").split()


def _excluded(node: LexborNode) -> bool:
    """Carousels, sponsored slots, comparison tables, strike-through prices: not the buy box."""
    while node is not None and node.tag not in ("html", "-document"):
        node_id = node.attributes.get("id") or ""
        classes = _classes(node)
        if (
            node_id.startswith(("sims-", "sp_"))
            or node_id in _EXCLUDED_IDS
            or "sponsored" in node_id
            or "fbt" in (node.attributes.get("class") or "")
            or "a-carousel" in classes
            or "a-text-price" in classes
            or "data-a-carousel-options" in node.attributes
        ):
            return True
        node = node.parent
    return False


def _in_core_price(node: LexborNode) -> bool:
    if {"priceToPay", "apexPriceToPay"} & set(_classes(node)):
        return True
    parent = node.parent
    while parent is not None:
        if parent.attributes.get("id") in _CORE_PRICE_IDS:
            return True
        parent = parent.parent
    return False


def _block_price(block: LexborNode, separator: str) -> str | None:
    offscreen = tidy(node_text(find_first(block, ".a-offscreen")))
    whole = _digits(node_text(find_first(block, ".a-price-whole")))
    fraction = _digits(node_text(find_first(block, ".a-price-fraction")))
    if offscreen:
        return _separated(offscreen, whole, fraction, separator)
    if not whole:
        return None
    amount = f"{whole}{separator}{fraction}" if fraction else whole
    symbol = tidy(node_text(find_first(block, ".a-price-symbol"))) or ""
    leader = find_first(block, ".a-price-symbol, .a-price-whole")
    return f"{symbol}{amount}" if leader is not None and "a-price-symbol" in _classes(leader) else f"{amount}{symbol}"


def _separated(offscreen: str, whole: str, fraction: str, separator: str) -> str:
    """Put back a decimal separator the offscreen text lost ("$1105" with 11/05 → "$11.05")."""
    if not (whole and fraction) or _digits(offscreen) != whole + fraction:
        return offscreen
    if re.search(rf"[.,]{fraction}(?![0-9])", offscreen):
        return offscreen
    return re.sub(rf"([0-9])({fraction})(?![0-9])", rf"\g<1>{separator}\g<2>", offscreen, count=1)


def price_of(doc: Doc, host: str) -> str | None:
    """The buy-box price: core price blocks first, then any block, then the legacy ids."""
    separator = "," if host.endswith(_COMMA_HOSTS) else "."
    candidates = [n for n in find_all(doc, ".a-price") if not _excluded(n)]
    for blocks in ([n for n in candidates if _in_core_price(n)], candidates):
        for block in blocks:
            price = _block_price(block, separator)
            if price is not None:
                return price
    return first_truthy(
        text(doc, "#priceblock_ourprice"),
        text(doc, "#priceblock_dealprice"),
        tidy(text(doc, "#tmmSwatches .swatchElement.selected .slot-price")),
    )


def currency_of(price: str | None, host: str) -> str | None:
    """ISO code from the price text: an explicit code, else the symbol (``$`` by marketplace)."""
    if price is None:
        return None
    code = _CURRENCY_CODE.search(price)
    if code:
        return code.group(1)
    for pattern, currency in _SYMBOLS:
        if pattern.search(price):
            return currency
    if re.search(r"(?<![A-Za-z0-9_])kr(?![A-Za-z0-9_])", price, re.I):
        return "SEK" if host.endswith(".se") else None
    if "$" in price:
        return next((code for suffix, code in _DOLLAR_HOSTS if host.endswith(suffix)), "USD")
    return None


def rating_of(value: str | None) -> float | int | None:
    """"4,8 van 5 sterren" → 4.8, "5つ星のうち4.7" → 4.7: the number that is not the scale's 5."""
    numbers = [float(n.replace(",", ".")) for n in re.findall(r"[0-9]+(?:[.,][0-9]+)?", tidy(value) or "")]
    if not numbers:
        return None
    rating = next((n for n in numbers if n != 5), 5.0) if len(numbers) > 1 else numbers[0]
    return int(rating) if rating.is_integer() else rating


def brand_of(doc: Doc) -> str | None:
    """The byline as a brand: "Brand: X", "Visit the X Store", "by X (Author)", "Marke: X"."""
    raw = tidy(text(doc, "#bylineInfo"))
    if raw is None:
        return None
    labelled = re.match(r"^Brand:\s*(.+)$", raw, re.I) or re.match(r"^Visit the (.+?) Store$", raw, re.I)
    if labelled:
        return tidy(labelled.group(1))
    if re.match(r"^by\s", raw, re.I):
        contributor = tidy(text(doc, "#bylineInfo .contributorNameID"))
        return contributor or tidy(re.sub(r"^by\s+", "", raw, flags=re.I).split("(")[0])
    author_link = tidy(text(doc, "#bylineInfo .author a, #bylineInfo a.contributorNameID"))
    if author_link and "(" in raw:
        return author_link
    label = re.match(r"^(?:[^\W\d_]|\s){2,20}?\s?:\s*(.+)$", raw)
    if label and "(" not in raw:
        return tidy(label.group(1))
    return raw


def _full_size(src: str | None) -> str | None:
    if not src or "transparent-pixel" in src or "/x-locale/common/" in src:
        return None
    return re.sub(r"\._[^/]*_\.(jpe?g|png|gif)$", r".\1", src, flags=re.I)


def images_of(doc: Doc) -> list[str]:
    """Main and alternate images at full size (size suffix removed), de-duplicated, at most 8."""
    sources = [attr(doc, "#landingImage", "src"), *list_attr(doc, "#altImages img", "src")]
    images = [image for image in map(_full_size, sources) if image]
    return list(dict.fromkeys(images))[:8]


def description_of(doc: Doc) -> str | None:
    bullets = [b for b in (tidy(node_text(n)) for n in find_all(doc, "#feature-bullets ul li span.a-list-item")) if b]
    return first_truthy(
        tidy(text(doc, "#productDescription")),
        " ".join(bullets),
        tidy(text(doc, "#bookDescription_feature_div .a-expander-content")),
        tidy(text(doc, "#feature-bullets")),
    )


class AmazonProduct(Template):
    id = "amazon-product"
    name = "Amazon Product"
    description = (
        "An Amazon product page on any marketplace: title, buy-box price as shown, currency, "
        "rating, review count, ASIN, brand, description, full-size images, availability, breadcrumb."
    )
    target_pattern = re.compile(
        r"amazon\.(?:com|co\.uk|co\.jp|de|fr|es|it|nl|se|pl|ca|in|sg|ae|sa|eg|com\.au|com\.br|com\.mx|com\.be|com\.tr)",
        re.I,
    )
    # the target pattern names the marketplaces; a product page also has its ASIN path
    page_pattern = re.compile(r"\/(?:dp|gp\/product|gp\/aw\/d)\/[A-Z0-9]", re.I)

    def extract(self, doc: Doc) -> dict:
        if find_first(doc, 'form[action*="validateCaptcha"]') is not None:
            raise TemplateRejectedError(
                "Amazon answered with a captcha interstitial (an HTTP 200 robot check), not the "
                "product page. Retry later, more slowly, or from another network."
            )
        host = _canonical_host(doc)
        price = price_of(doc, host)
        review_text = text(doc, "#acrCustomerReviewText") or text(doc, '[data-hook="total-review-count"]')
        review_digits = _digits(tidy(review_text))
        return {
            "title": tidy(text(doc, "#productTitle")),
            "price": price,
            "currency": attr(doc, 'input[name*="currencyCode"]', "value")
            or attr(doc, 'meta[itemprop="priceCurrency"]', "content")
            or currency_of(price, host),
            "rating": rating_of(
                attr(doc, "#acrPopover", "title") or text(doc, "#averageCustomerReviews .a-icon-alt")
            ),
            "review_count": int(review_digits) if review_digits else None,
            "asin": text(doc, "input#ASIN") or attr(doc, 'input[name="ASIN"]', "value"),
            "brand": brand_of(doc),
            "description": description_of(doc),
            "images": images_of(doc),
            "availability": tidy(text(doc, "#availability span")),
            "category_breadcrumb": list_text(doc, "#wayfinding-breadcrumbs_feature_div a"),
        }
