"""Shopify storefront data: the analytics ``meta`` object and the theme's product JSON
script (both read by ``carriers.shopify`` from the page's one scan, ``embedded.scanned_page``,
shared with the embedded-state reader), plus ``_RSConfig.product``. Prices there are integers
in minor units (2790 = 27.90), variants carry the SKUs, and the product JSON has tags, type and
options. A ``?variant=ID`` URL selects that variant's price, SKU and stock; otherwise the first
variant's count.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

from crawlforge.extract.embedded import scanned_page
from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page
from crawlforge.extract.state import carriers
from crawlforge.extract.state.jsliteral import evaluate_literal_source

_MARKER = "hopify"  # Shopify themes name the platform in the head (cdn.shopify.com, ShopifyAnalytics)
_RS_CONFIG = re.compile(r"_RSConfig\.product\s*=\s*(?=\{)")


class ShopifyExtractor(Extractor):
    name = "shopify"
    priority = 75

    def extract(self, page: Page) -> Finding | None:
        if not page.in_head(_MARKER):
            return None
        carried = carriers.shopify(page.parsed_page.shared(scanned_page)) or {"value": {}, "warnings": []}
        meta = carried["value"].get("meta") or {}
        warnings = list(carried["warnings"])
        found = _carried_products(meta, carried["value"].get("product_json") or [])
        found += _rs_config_product(page.html, warnings)
        if not found:
            return Finding(warnings=warnings)
        platform = _platform(found, values.currency(meta.get("currency")))
        return Finding(
            structured_data=_fields(platform, found, page.url),
            platform_data={"shopify": platform},
            warnings=warnings,
        )


def _carried_products(meta: dict, product_json: list) -> list:
    """(source label, product) pairs: the analytics product, then the first product JSON."""
    found = [("ShopifyAnalytics.meta", meta["product"])] if isinstance(meta.get("product"), dict) else []
    for block in product_json:
        product = block.get("product", block) if isinstance(block, dict) else None
        if isinstance(product, dict) and product.get("variants") is not None:
            return found + [("product_json", product)]
    return found


def _rs_config_product(html: str, warnings: list) -> list:
    match = _RS_CONFIG.search(html) if "_RSConfig" in html else None
    if not match:
        return []
    result = evaluate_literal_source(html, match.end())
    if not isinstance(result.get("value"), dict):
        warnings.append("_RSConfig.product is assigned a value that is not a JSON or JavaScript literal; not parsed.")
        return []
    return [("_RSConfig.product", result["value"])]


def _richest(found: list) -> dict:
    """The product JSON has everything the analytics meta has, and more."""
    return next((product for label, product in found if label == "product_json"), found[0][1])


def _platform(found: list, currency: str | None) -> dict:
    product = _richest(found)
    option_names = [o.get("name") if isinstance(o, dict) else o for o in product.get("options") or []]
    return values.compact({
        "product_id": product.get("id"),
        "title": values.text(product.get("title") or _title_of_variants(product.get("variants"))),
        "handle": values.text(product.get("handle")),
        "vendor": values.text(product.get("vendor")),
        "product_type": values.text(product.get("type") or product.get("product_type")),
        "product_tags": _tags(product.get("tags")),
        "currency": currency,
        "variants": [_variant(v, option_names) for v in product.get("variants") or [] if isinstance(v, dict)],
        "sources": [name for name, _ in found],
    })


def _title_of_variants(variants) -> str | None:
    """The analytics meta carries no product title, but names each variant "<title> - <its
    public_title>" (the title alone for a product without options): the title when all agree."""
    titles = set()
    for variant in variants if isinstance(variants, list) else []:
        if not isinstance(variant, dict) or not isinstance(variant.get("name"), str):
            continue
        name, option = variant["name"], variant.get("public_title")
        suffix = f" - {option}" if isinstance(option, str) and option else ""
        if not name.endswith(suffix):
            return None  # a name of another shape: no title to trust
        titles.add(name[: len(name) - len(suffix)])
    return titles.pop() if len(titles) == 1 else None


def _variant(variant: dict, option_names: list) -> dict:
    options = variant.get("options")
    if not isinstance(options, list):
        options = [variant.get(f"option{i}") for i in (1, 2, 3)]
    named = {str(name): value for name, value in zip(option_names, options) if name and value is not None}
    return values.compact({
        "id": variant.get("id"),
        "name": values.text(variant.get("public_title") or variant.get("title")),
        "sku": values.text(variant.get("sku")),
        "price": _money(variant.get("price")),
        "available": variant.get("available") if isinstance(variant.get("available"), bool) else None,
        "options": named,
    })


def _money(value) -> str | None:
    """Integers (and digit strings) are minor units; decimal strings are already units."""
    if isinstance(value, str) and not value.strip().isdigit():
        return values.price(value)
    return values.minor_units(value)


def _tags(value) -> list | None:
    if isinstance(value, str):
        value = value.split(",")
    return [t.strip() for t in value if isinstance(t, str) and t.strip()] if isinstance(value, list) else None


def _fields(platform: dict, found: list, url: str) -> dict:
    variants = platform.get("variants") or []
    first = _selected(variants, url) or (variants[0] if variants else {})
    image = _richest(found).get("featured_image")
    return values.compact({
        "product_name": platform.get("title"),
        "brand": platform.get("vendor"),
        "sku": first.get("sku"),
        "image": values.absolute_url(image, url) if isinstance(image, str) else None,
        "price": first.get("price"),
        "currency": platform.get("currency"),
        "availability": _availability(first.get("available")),
        "variants": [_as_variant(v, platform.get("currency")) for v in variants] if len(variants) > 1 else None,
    })


def _selected(variants: list, url: str) -> dict | None:
    """The variant a ``?variant=ID`` link opens the page on (Shopify's own variant URLs)."""
    chosen = parse_qs(urlsplit(url).query).get("variant", [None])[0]
    return next((v for v in variants if chosen and str(v.get("id")) == chosen), None)


def _availability(available) -> str | None:
    return None if available is None else "InStock" if available else "OutOfStock"


def _as_variant(variant: dict, currency: str | None) -> dict:
    return values.compact({
        "name": variant.get("name"),
        "sku": variant.get("sku"),
        "price": variant.get("price"),
        "currency": currency,
        "availability": _availability(variant.get("available")),
        "options": variant.get("options"),
    })
