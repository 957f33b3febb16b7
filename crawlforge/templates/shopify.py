"""Shopify storefronts: a product's ``/products/<handle>.json`` and a collection's ``products.json``.

Both endpoints carry the same product object, so both templates return the same product
entity. Prices stay strings as Shopify sends them ("34.20"); only min/max are reformatted.
"""

from __future__ import annotations

import math
import re

from ada_url import URLSearchParams

from .api import parse_json, with_query
from .base import Template, TemplateError, TemplateRejectedError
from .common import (
    encode_uri_component, html_to_text, is_integer, is_number, js_parse_float, js_parse_int, js_string,
    js_to_fixed, js_to_number, js_trim, js_truthy, safe_url,
)

STOREFRONTS_ONLY = "This template only works on Shopify storefronts."


def _money(value) -> str | None:
    return None if value is None or value == "" else js_string(value)


def _compare_at(value) -> str | None:
    money = _money(value)
    return None if money is None or js_parse_float(money) == 0 else money


def _variant_available(variant: dict):
    """Shopify's own flag first; else inventory rules (untracked or "continue" sells on)."""
    if isinstance(variant.get("available"), bool):
        return variant["available"]
    if not js_truthy(variant.get("inventory_management")):
        return True
    if variant.get("inventory_policy") == "continue":
        return True
    quantity = variant.get("inventory_quantity")
    return quantity > 0 if is_number(quantity) else None


def _variant(variant: dict) -> dict:
    quantity = variant.get("inventory_quantity")
    return {
        "id": variant.get("id"),
        "title": variant.get("title"),
        "price": _money(variant.get("price")),
        "compare_at_price": _compare_at(variant.get("compare_at_price")),
        "sku": variant.get("sku") if js_truthy(variant.get("sku")) else None,
        "available": _variant_available(variant),
        "inventory_quantity": quantity if is_number(quantity) else None,
        "options": [o for o in (variant.get(f"option{i}") for i in (1, 2, 3)) if js_truthy(o)],
    }


def _price_bounds(variants: list[dict]) -> tuple[str | None, str | None]:
    prices = [js_parse_float(v["price"]) for v in variants]
    prices = [p for p in prices if math.isfinite(p)]
    if not prices:
        return None, None
    return js_to_fixed(min(prices), 2), js_to_fixed(max(prices), 2)


def _available(variants: list[dict]):
    flags = [v["available"] for v in variants]
    if any(flag is True for flag in flags):
        return True
    return False if all(flag is False for flag in flags) else None


def _tags(tags) -> list:
    if isinstance(tags, list):
        return tags
    if isinstance(tags, str):
        return [t for t in (js_trim(part) for part in tags.split(",")) if t]
    return []


def _truthy_or_none(value):
    return value if js_truthy(value) else None


def product_entity(product: dict) -> dict:
    """The product fields shared by the product and collection endpoints."""
    source_variants = [v for v in product.get("variants") or [] if isinstance(v, dict)]
    variants = [_variant(v) for v in source_variants]
    first = variants[0] if variants else {}
    compare_at = first.get("compare_at_price")
    price_min, price_max = _price_bounds(variants)
    currency = source_variants[0].get("price_currency") if source_variants else None
    return {
        "title": _truthy_or_none(product.get("title")),
        "vendor": _truthy_or_none(product.get("vendor")),
        "product_type": _truthy_or_none(product.get("product_type")),
        "handle": _truthy_or_none(product.get("handle")),
        "product_id": product.get("id"),
        "price": first.get("price"),
        "compare_at_price": compare_at,
        "on_sale": compare_at is not None and js_parse_float(compare_at) > js_parse_float(first["price"]),
        "currency": _truthy_or_none(currency),
        "price_min": price_min,
        "price_max": price_max,
        "available": _available(variants),
        "variants": variants,
        "options": [o.get("name") if isinstance(o, dict) else None for o in product.get("options") or []],
        "description": html_to_text(product.get("body_html")),
        "tags": _tags(product.get("tags")),
        "images": [i.get("src") if isinstance(i, dict) else None for i in product.get("images") or []],
        "published_at": _truthy_or_none(product.get("published_at")),
        "updated_at": _truthy_or_none(product.get("updated_at")),
    }


def _parse_or_raise(url: str):
    parsed = safe_url(url)
    if parsed is None:
        raise TemplateError(f"Invalid URL: {url}")
    return parsed


_PRODUCT_PATH = re.compile(r"^(.*)\/products\/([^/]+?)(?:\.json)?\/?$")


class ShopifyProduct(Template):
    id = "shopify-product"
    name = "Shopify Product"
    description = (
        "Any Shopify storefront product page, read from its /products/<handle>.json endpoint: "
        "title, vendor, prices as strings, currency, availability, variants, options, images."
    )
    target_pattern = re.compile(r"\/products\/[^/?#]+", re.I)

    def resolve_url(self, url: str) -> str:
        """``/products/<handle>`` (any locale prefix, query, trailing slash) → its ``.json``."""
        parsed = _parse_or_raise(url)
        match = _PRODUCT_PATH.match(parsed.pathname)
        if not match:
            return url
        parsed.pathname = f"{match.group(1)}/products/{match.group(2)}.json"
        parsed.search = ""
        parsed.hash = ""
        return parsed.href

    def extract_raw(self, body, url: str) -> dict:
        payload = parse_json(
            body,
            TemplateRejectedError(
                f"Not a Shopify product endpoint: {url} did not return JSON. {STOREFRONTS_ONLY}"
            ),
        )
        product = payload.get("product") if isinstance(payload, dict) else None
        if not isinstance(product, dict) or not isinstance(product.get("variants"), list):
            raise TemplateRejectedError(
                f"Not a Shopify product endpoint: {url} returned JSON without a product. {STOREFRONTS_ONLY}"
            )
        return product_entity(product)


_COLLECTION_PATH = re.compile(r"^(.*)\/collections\/([^/]+)(?:\/products|\/products\.json)?\/?$")
_COLLECTION_SEGMENT = re.compile(r"\/collections\/([^/?#]+)")


def _checked_int(params: dict, key: str, low: int, high: float | None, rule: str) -> str | None:
    """The param as a query value, after checking it is an integer in range."""
    value = params.get(key)
    if value is None:
        return None
    number = js_to_number(value)
    if not is_integer(number) or number < low or (high is not None and number > high):
        raise TemplateError(f'shopify-collection "{key}" must be {rule}, got {js_string(value)}.')
    return js_string(value)


def _store_origin(store: str) -> str:
    base = store if re.match(r"^https?://", store, re.I) else f"https://{store}"
    return _parse_or_raise(base).origin


class ShopifyCollection(Template):
    id = "shopify-collection"
    name = "Shopify Collection"
    description = (
        "A Shopify storefront collection, read from /collections/<handle>/products.json, one "
        "page of up to 250 products (each the shopify-product entity plus its url); has_more "
        "says whether to fetch the next page."
    )
    target_pattern = re.compile(r"\/collections\/[^/?#]+(?:\/products\.json)?\/?(?:$|[?#])", re.I)
    params = [
        {"name": "store", "required": True, "description": 'Storefront domain, e.g. "www.allbirds.com".'},
        {"name": "collection", "required": True, "description": 'Collection handle, e.g. "mens" from /collections/mens.'},
        {"name": "limit", "required": False, "description": "Products per page, 1-250 (Shopify default 30)."},
        {"name": "page", "required": False, "description": "Page number, 1 or more."},
    ]
    # Shopify answers up to 250 products a page; asking for fewer only means more requests.
    default_params = {"limit": "250"}

    def resolve_url(self, url: str) -> str:
        """A collection page → its products.json, keeping only ``limit`` and ``page``."""
        parsed = _parse_or_raise(url)
        match = _COLLECTION_PATH.match(parsed.pathname)
        if not match:
            return url
        query = URLSearchParams(parsed.search)
        kept = URLSearchParams("")
        for key in ("limit", "page"):
            if query.has(key):
                kept.append(key, query.get(key))
        parsed.pathname = f"{match.group(1)}/collections/{match.group(2)}/products.json"
        parsed.search = str(kept)
        parsed.hash = ""
        return parsed.href

    def list_url(self, params: dict | None = None) -> str:
        params = params or {}
        store, collection = params.get("store"), params.get("collection")
        if not js_truthy(store):
            raise TemplateError(
                'shopify-collection requires a "store" parameter: the storefront domain, e.g. "www.allbirds.com".'
            )
        if not js_truthy(collection):
            raise TemplateError(
                'shopify-collection requires a "collection" parameter: the collection handle, '
                'e.g. "mens" from https://www.allbirds.com/collections/mens.'
            )
        url = f"{_store_origin(js_string(store))}/collections/{encode_uri_component(collection)}/products.json"
        query = URLSearchParams("")
        limit = _checked_int(params, "limit", 1, 250, "an integer from 1 to 250")
        page = _checked_int(params, "page", 1, None, "an integer of 1 or more")
        for key, value in (("limit", limit), ("page", page)):
            if value is not None:
                query.append(key, value)
        return f"{url}?{query}" if query.size else url

    def extract_list(self, body, url: str | None, params: dict | None = None) -> dict:
        payload = parse_json(
            body,
            TemplateRejectedError(
                f"Not a Shopify collection endpoint: {url} did not return JSON. {STOREFRONTS_ONLY}"
            ),
        )
        products = payload.get("products") if isinstance(payload, dict) else None
        if not isinstance(products, list):
            raise TemplateRejectedError(
                f"Not a Shopify collection endpoint: {url} returned JSON without a products array. "
                f"{STOREFRONTS_ONLY}"
            )
        parsed = safe_url(url)
        items = [self._item(p, parsed) for p in products if isinstance(p, dict)]
        page, limit = self._paging(parsed)
        return {
            "collection": self._collection(parsed),
            "items": items,
            "count": len(products),
            "page": page,
            "limit": limit,
            "has_more": len(products) == limit,
        }

    def next_page_url(self, url: str, data: dict) -> str | None:
        """The next ``page`` while the last one came back full."""
        return with_query(url, [("page", data["page"] + 1)]) if data.get("has_more") else None

    @staticmethod
    def _item(product: dict, parsed) -> dict:
        item = product_entity(product)
        handle = item["handle"]
        item["url"] = f"{parsed.origin}/products/{handle}" if parsed is not None and handle else None
        return item

    @staticmethod
    def _collection(parsed) -> str | None:
        match = _COLLECTION_SEGMENT.search(parsed.pathname) if parsed is not None else None
        return match.group(1) if match else None

    @staticmethod
    def _paging(parsed) -> tuple[int, int]:
        """``page`` defaults to 1 (missing, 0, not a number); ``limit`` to Shopify's 30."""
        query = URLSearchParams(parsed.search if parsed is not None else "")
        page = js_parse_int(query.get("page")) if query.has("page") else None
        limit = js_to_number(query.get("limit")) if query.has("limit") else math.nan
        return page or 1, int(limit) if is_integer(limit) else 30
