"""WooCommerce product pages: the product container's classes (id, type, categories,
tags, stock) and the variable-product form's ``data-product_variations`` JSON."""

from __future__ import annotations

import json
import re

from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page

_PRODUCT_ID = re.compile(r"^product-(\d+)$")


class WooCommerceExtractor(Extractor):
    name = "woocommerce"
    priority = 75

    def extract(self, page: Page) -> Finding | None:
        if "woocommerce" not in page.body_classes or page.tree is None:
            return None
        container = _container(page.tree)
        if container is None:
            return None
        classes = container.get("class", "").split()
        warnings: list = []
        variations = _variations(page.tree.find('.//form[@data-product_variations]'), warnings)
        sku = container.find('.//*[@class="sku"]')
        platform = values.compact({
            "product_id": int(_PRODUCT_ID.match(container.get("id")).group(1)),
            "product_type": next(iter(_prefixed(classes, "product-type-")), None),
            "product_categories": _prefixed(classes, "product_cat-"),
            "product_tags": _prefixed(classes, "product_tag-"),
            "in_stock": True if "instock" in classes else False if "outofstock" in classes else None,
            "variations": variations,
        })
        return Finding(
            structured_data=values.compact({
                "sku": values.text(sku.text_content()) if sku is not None else None,
                "availability": {True: "InStock", False: "OutOfStock"}.get(platform.get("in_stock")),
                "variants": [_as_variant(v) for v in variations] or None,
            }),
            platform_data={"woocommerce": platform},
            warnings=warnings,
        )


def _container(tree):
    """The single-product wrapper WooCommerce renders: ``<div id="product-123" class="product ...">``."""
    for element in tree.iterfind('.//*[@id]'):
        if _PRODUCT_ID.match(element.get("id")) and "type-product" in element.get("class", "").split():
            return element
    return None


def _prefixed(classes: list, prefix: str) -> list:
    return [c[len(prefix):] for c in classes if c.startswith(prefix) and len(c) > len(prefix)]


def _variations(form, warnings: list) -> list:
    """Variable products only; a form with ``data-product_variations="false"`` loads them by AJAX."""
    if form is None:
        return []
    try:
        raw = json.loads(form.get("data-product_variations") or "")
    except (ValueError, RecursionError):
        warnings.append("WooCommerce data-product_variations is not valid JSON; skipped.")
        return []
    return [_variation(v) for v in raw if isinstance(v, dict)] if isinstance(raw, list) else []


def _variation(raw: dict) -> dict:
    attributes = raw.get("attributes") if isinstance(raw.get("attributes"), dict) else {}
    return values.compact({
        "id": raw.get("variation_id"),
        "sku": values.text(raw.get("sku")),
        "price": values.price(raw.get("display_price")),
        "in_stock": raw.get("is_in_stock") if isinstance(raw.get("is_in_stock"), bool) else None,
        "options": {k.removeprefix("attribute_").removeprefix("pa_"): v for k, v in attributes.items() if v},
    })


def _as_variant(variation: dict) -> dict:
    return values.compact({
        "sku": variation.get("sku"),
        "price": variation.get("price"),
        "availability": {True: "InStock", False: "OutOfStock"}.get(variation.get("in_stock")),
        "options": variation.get("options"),
    })
