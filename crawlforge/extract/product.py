"""The product record of a page: its facts from every source, merged by reliability.

``extract_structured_data`` runs the sources (JSON-LD, microdata, OpenGraph, platform data,
the visible page) and keeps, per field, the most reliable one with the others as conflicts;
this module reads that merge as one flat record with each field's source. Missing values are
None, never guessed; bad page content gives warnings, never an exception.
"""

from __future__ import annotations

import copy

from crawlforge.extract.dom import ParsedPage, as_page
from crawlforge.extract.structured import StructuredData, page_structured_data

FIELDS = {  # record key <- structured_data key
    "name": "product_name", "price": "price", "currency": "currency", "list_price": "list_price",
    "sku": "sku", "gtin": "gtin", "mpn": "mpn", "brand": "brand", "availability": "availability",
    "image": "image", "description": "product_description", "variants": "variants",
}
# A page is a single-product page when one of these says so; the visible reader alone needs
# a price and a name (a heading) to count.
_PRODUCT_SOURCES = {"json-ld", "microdata", "shopify", "woocommerce", "shopware", "magento", "opengraph", "embedded",
                    "template"}


def extract_product(html: str, url: str) -> dict:
    """The product record (keys in ``FIELDS``, plus ``is_product``, ``provenance`` and the
    readers' ``warnings``: "extractor: message" lines). The str form of ``page_product``
    (``html`` may be the page itself)."""
    return page_product(as_page(html if isinstance(html, (str, ParsedPage)) else ""), url)


def page_product(page: ParsedPage, url: str) -> dict:
    """``extract_product`` of a page: read from the page's structured data (the default
    registry's, made once per page: ``page_structured_data``)."""
    data = page_structured_data(page, url if isinstance(url, str) else "")
    record = product_record(data)
    record["warnings"] = [f"{w['extractor']}: {w['message']}" for w in data.warnings + data.errors]
    return record


def product_record(data: StructuredData) -> dict:
    found = data.structured_data
    record = {key: copy.deepcopy(found.get(source)) for key, source in FIELDS.items()}  # shared result
    record["provenance"] = {key: data.provenance[f"structured_data.{source}"]
                            for key, source in FIELDS.items() if source in found}
    record["is_product"] = is_product(record)
    return record


def is_product(record: dict) -> bool:
    """A name with a price, a SKU or a stock state from markup or platform data, or a
    visible price under a heading."""
    sources = set(record["provenance"].get(key) for key in ("price", "sku", "availability")) - {None}
    if not record.get("name"):
        return False
    read = {source.partition(":")[0] for source in sources}  # "embedded:next_data" -> "embedded"
    return bool(read & _PRODUCT_SOURCES) or record["provenance"].get("price") == "visible"
