"""A Shopify product read from the storefront page's own schema.org JSON-LD.

Some stores refuse `/products/<handle>.json` (gymshark answers 403) while the
product page stays public with a ProductGroup in its head; this reads that.
JSON-LD carries less than the endpoint (no inventory counts, no compare-at
price), so those fields are None and `source: "json-ld"` marks the record.
"""

import math
import re
from urllib.parse import urlsplit

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.extractors.values import one_or_many
from crawlforge.extract.state.jsjson import loads
from crawlforge.extract.state.jsutil import first_truthy, js_string, js_to_fixed, js_truthy, safe_href, tidy

_ENTITY = re.compile(r"&(?:[a-z]+|#\d+|#x[0-9a-f]+);", re.I | re.A)
_NOT_NUMERIC = re.compile(r"[^\d.,-]", re.A)
_THOUSANDS_COMMA = re.compile(r",(?=\d{3}\b)", re.A)
_JS_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)", re.A)
_HANDLE = re.compile(r"/products/([^/?#]+)")
_IN_STOCK = re.compile(r"InStock|PreOrder|BackOrder|LimitedAvailability|OnlineOnly", re.I)
_OUT_OF_STOCK = re.compile(r"OutOfStock|SoldOut|Discontinued", re.I)
_VARIANT_OPTIONS = ("size", "color", "material", "pattern")


def _get(node, key):
    """`node.key` for a JSON-LD node that may not be an object."""
    return node.get(key) if isinstance(node, dict) else None


def _flatten(node, out):
    """JSON-LD nodes: lists expanded, each object kept, its @graph flattened too."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            out.append(item)
            if js_truthy(item.get("@graph")):
                stack.append(item["@graph"])
    return out


def _is_type(node, name):
    return any(js_string(kind).lower() == name for kind in one_or_many(node.get("@type")))


def _number(value):
    """A price as a float: "1,299.00" -> 1299.0; None when it is not a number."""
    if value is None or value == "":
        return None
    text = _NOT_NUMERIC.sub("", js_string(value))
    text = _THOUSANDS_COMMA.sub("", text).replace(",", ".", 1)
    if text == "":
        return 0.0  # JS Number("") is 0
    if not _JS_NUMBER.fullmatch(text):
        return None
    number = float(text)
    return number if math.isfinite(number) else None


def _money(number):
    """A price as the store writes it, two decimals (JS ``toFixed(2)``)."""
    return None if number is None else js_to_fixed(number, 2)


def _decode(value):
    """Entity-decoded, whitespace-collapsed text (`Arrival 5&quot; Shorts` -> `Arrival 5" Shorts`)."""
    if not isinstance(value, str):
        return None
    if _ENTITY.search(value):
        body = LexborHTMLParser(f"<x>{value}</x>").body
        value = body.text(deep=True) if body is not None else value
    return tidy(value)


def _availability(offer):
    text = js_string(_get(offer, "availability")) if js_truthy(_get(offer, "availability")) else ""
    if not text:
        return None
    if _IN_STOCK.search(text):
        return True
    return False if _OUT_OF_STOCK.search(text) else None


def _any_known(values):
    known = [value for value in values if value is not None]
    return any(known) if known else None


def _offers(node):
    """A node's offers, an AggregateOffer's own list expanded."""
    offers = []
    for offer in one_or_many(node.get("offers")):
        if isinstance(offer, dict) and _is_type(offer, "aggregateoffer") and js_truthy(offer.get("offers")):
            offers.extend(one_or_many(offer["offers"]))
        else:
            offers.append(offer)
    return [offer for offer in offers if js_truthy(offer)]


def _offer_price(offer):
    price = _get(offer, "price")
    return _number(price if price is not None else _get(offer, "lowPrice"))


def _images(image):
    urls = []
    for item in one_or_many(image):
        url = first_truthy(item.get("url"), item.get("contentUrl"), None) if isinstance(item, dict) else item
        url = safe_href(url) if isinstance(url, str) else None
        if url:
            urls.append(url)
    return urls


def _variant_from_node(node):
    offers = _offers(node)
    prices = [price for price in map(_offer_price, offers) if price is not None]
    options = [text for text in (_decode(node.get(key)) for key in _VARIANT_OPTIONS) if text]
    return {
        "id": first_truthy(node.get("mpn"), node.get("sku"), node.get("productID"), None),
        "title": first_truthy(_decode(node.get("name")), " / ".join(options), node.get("sku"), None),
        "price": _money(min(prices) if prices else None),
        "compare_at_price": None,
        "sku": first_truthy(node.get("sku"), None),
        "available": _any_known(map(_availability, offers)),
        "inventory_quantity": None,
        "options": options,
    }


def _variant_from_offer(offer):
    return {
        "id": first_truthy(_get(offer, "sku"), _get(offer, "mpn"), None),
        "title": first_truthy(_decode(_get(offer, "name")), _get(offer, "sku"), None),
        "price": _money(_offer_price(offer)),
        "compare_at_price": None,
        "sku": first_truthy(_get(offer, "sku"), None),
        "available": _availability(offer),
        "inventory_quantity": None,
        "options": [],
    }


def _price_range(offers):
    prices = [price for price in map(_offer_price, offers) if price is not None]
    highs = [high for high in (_number(_get(offer, "highPrice")) for offer in offers) if high is not None]
    low = min(prices) if prices else None
    high = max(prices + highs) if prices else (max(highs) if highs else None)
    return low, high


def _handle(url):
    try:
        match = _HANDLE.search(urlsplit(url).path)
    except (TypeError, ValueError):
        return None
    return match.group(1) if match else None


def _ld_nodes(html):
    nodes = []
    tree = LexborHTMLParser(html or "")
    for script in tree.css('script[type="application/ld+json"]'):
        raw = script.text(deep=True)
        if not raw:
            continue
        try:
            _flatten(loads(raw), nodes)
        except (ValueError, RecursionError):
            continue  # one bad block does not lose the rest
    return nodes


def shopify_product_from_jsonld(html, url):
    """The product in the page's JSON-LD, shaped like the shopify-product template.

    `{found: True, data}` or `{found: False, reason}`; `url` is the URL the page
    was read from (after redirects), used for the handle and as the fallback url.
    """
    nodes = _ld_nodes(html)
    product = next((n for n in nodes if _is_type(n, "productgroup")), None) or next(
        (n for n in nodes if _is_type(n, "product")), None
    )
    if product is None:
        reason = f"{url} carries no schema.org Product JSON-LD"
        if "/collections/" in str(url):
            reason += (" — the product URL redirected to a collection page,"
                       " so the product handle no longer exists")
        return {"found": False, "reason": reason}
    variant_nodes = [node for node in one_or_many(product.get("hasVariant"))
                     if isinstance(node, dict) and _is_type(node, "product")]
    if variant_nodes:
        variants = [_variant_from_node(node) for node in variant_nodes]
        offers = [offer for node in variant_nodes for offer in _offers(node)]
    else:
        offers = _offers(product)
        variants = [_variant_from_offer(offer) for offer in offers]
    return {"found": True, "data": _product_data(product, url, variants, offers)}


def _option_names(varies_by):
    """`variesBy` entries ("https://schema.org/size") as option names ("size")."""
    names = (js_string(entry).split("/")[-1].lower() for entry in one_or_many(varies_by))
    return [name for name in names if name]


def _product_data(product, url, variants, offers):
    low, high = _price_range(offers)
    brand = product.get("brand")
    brand = brand.get("name") if isinstance(brand, dict) else brand
    product_url = safe_href(product["url"]) if isinstance(product.get("url"), str) else None
    return {
        "title": _decode(product.get("name")),
        "vendor": _decode(brand),
        "product_type": _decode(product.get("category")),
        "handle": _handle(url),
        "product_id": first_truthy(product.get("productGroupID"), product.get("productID"), product.get("sku"), None),
        "price": _money(low),
        "compare_at_price": None,
        "on_sale": None,
        "currency": first_truthy(*(_get(offer, "priceCurrency") for offer in offers), None),
        "price_min": _money(low),
        "price_max": _money(high),
        "available": _any_known(map(_availability, offers)),
        "variants": variants,
        "options": _option_names(product.get("variesBy")),
        "description": _decode(product.get("description")),
        "images": _images(product.get("image")),
        "url": product_url or url,
        "source": "json-ld",
    }
