"""Shopify storefront data: the analytics ``meta`` object, ``_RSConfig.product`` and
the theme's product JSON script. Prices there are integers in minor units (2790 =
27.90), variants carry the SKUs, and the product JSON has tags, type and options.
"""

from __future__ import annotations

import json
import re

import lxml.etree

from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page
from crawlforge.extract.jsliteral import evaluate_literal_source

_MARKER = "hopify"  # Shopify themes always name the platform (cdn.shopify.com, ShopifyAnalytics)
_LITERALS = (  # (label, assignment followed by an object literal)
    ("ShopifyAnalytics.meta", re.compile(r"\bvar\s+meta\s*=\s*(?=\{)")),
    ("ShopifyAnalytics.meta", re.compile(r"ShopifyAnalytics\.meta\s*=\s*(?=\{)")),
    ("ShopifyAnalytics.meta.product", re.compile(r"ShopifyAnalytics\.meta\.product\s*=\s*(?=\{)")),
    ("_RSConfig.product", re.compile(r"_RSConfig\.product\s*=\s*(?=\{)")),
)
_CURRENCY = re.compile(r"""ShopifyAnalytics\.meta\.currency\s*=\s*['"]([A-Za-z]{3})['"]|Shopify\.currency\s*=\s*\{\s*"active"\s*:\s*"([A-Za-z]{3})\"""")
_PRODUCT_JSON = lxml.etree.XPath(
    '//script[@data-product-json or starts-with(@id, "ProductJson-")][@type="application/json"]'
)
_DECODER = json.JSONDecoder()


class ShopifyExtractor(Extractor):
    name = "shopify"
    priority = 75

    def extract(self, page: Page) -> Finding | None:
        if _MARKER not in page.html:
            return None
        warnings: list = []
        found = _inline_products(page.html, warnings)
        if page.tree is not None:
            found += _product_json(page.tree, warnings)
        if not found:
            return Finding(warnings=warnings)
        currency = _currency(page.html)
        platform = _platform(found, currency)
        return Finding(
            structured_data=_fields(platform, found, page.url),
            platform_data={"shopify": platform},
            warnings=warnings,
        )


def _inline_products(html: str, warnings: list) -> list:
    """(label, product dict) for the first readable literal of each kind; a kind whose
    every literal is unreadable gets one warning."""
    products, unreadable = [], set()
    for label, pattern in _LITERALS:
        if any(found == label for found, _ in products):
            continue
        for match in pattern.finditer(html):
            value = _literal_at(html, match.end())
            product = value.get("product", value) if label == "ShopifyAnalytics.meta" and value else value
            if isinstance(product, dict) and product.get("id") is not None:
                products.append((label, product))
                break
            if value is None:
                unreadable.add(label)
    found = {label for label, _ in products}
    warnings.extend(f"{label} is assigned a value that is not a JSON or JavaScript literal; not parsed." for label in sorted(unreadable - found))
    return products


def _literal_at(html: str, start: int):
    """The object literal at ``start``: JSON first (fast), then a static JS read."""
    try:
        value, _ = _DECODER.raw_decode(html, start)
    except (ValueError, RecursionError):
        result = evaluate_literal_source(html, start)
        value = result.get("value")
    return value if isinstance(value, dict) else None


def _product_json(tree, warnings: list) -> list:
    for script in _PRODUCT_JSON(tree):
        try:
            value = json.loads(script.text or "")
        except (ValueError, RecursionError):
            warnings.append("A Shopify product JSON <script> block is not valid JSON; skipped.")
            continue
        product = value.get("product", value) if isinstance(value, dict) else None
        if isinstance(product, dict):
            return [("product_json", product)]
    return []


def _currency(html: str) -> str | None:
    match = _CURRENCY.search(html)
    return (match.group(1) or match.group(2)).upper() if match else None


def _platform(found: list, currency: str | None) -> dict:
    """The richest product (product JSON over the analytics meta) with its sources."""
    label, product = found[-1] if found[-1][0] == "product_json" else found[0]
    option_names = [o.get("name") if isinstance(o, dict) else o for o in product.get("options") or []]
    return values.compact({
        "product_id": product.get("id"),
        "title": values.text(product.get("title")),
        "handle": values.text(product.get("handle")),
        "vendor": values.text(product.get("vendor")),
        "product_type": values.text(product.get("type") or product.get("product_type")),
        "product_tags": _tags(product.get("tags")),
        "currency": currency,
        "variants": [_variant(v, option_names) for v in product.get("variants") or [] if isinstance(v, dict)],
        "sources": [name for name, _ in found],
    })


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
    first = variants[0] if variants else {}
    product = found[-1][1]
    image = product.get("featured_image")
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
