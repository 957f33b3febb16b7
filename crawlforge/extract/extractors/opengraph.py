"""OpenGraph (og:*, product:*) via extruct: the page's title/description/image and
the ``product:`` price namespace that some shops use instead of JSON-LD."""

from __future__ import annotations

from extruct.opengraph import OpenGraphExtractor as _ExtructOpenGraph

from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page

_PRODUCT = {  # field <- first property present, og: spelling second
    "price": ("product:price:amount", "og:price:amount"),
    "currency": ("product:price:currency", "og:price:currency"),
    "availability": ("product:availability", "og:availability"),
    "brand": ("product:brand", "og:brand"),
    "sku": ("product:retailer_item_id",),
    "gtin": ("product:upc", "product:ean", "product:isbn", "product:gtin"),
}  # product:category is left out: shops fill it with Google taxonomy ids, not names


class OpenGraphExtractor(Extractor):
    name = "opengraph"
    priority = 50
    _extruct = _ExtructOpenGraph()

    def extract(self, page: Page) -> Finding | None:
        if not (page.in_head("og:") or page.in_head("product:")) or page.head_root is None:
            return None
        props: dict = {}
        for item in self._extruct.extract_items(page.head_root, base_url=page.url):
            for key, value in item["properties"]:
                props.setdefault(key, value)
        return Finding(meta=_meta(props, page.url), structured_data=_product(props))


def _meta(props: dict, url: str) -> dict:
    return values.compact({
        "title": values.text(props.get("og:title")),
        "description": values.text(props.get("og:description")),
        "image": values.absolute_url(props.get("og:image") or props.get("og:image:url"), url),
    })


def _product(props: dict) -> dict:
    found = {field: next((props[k] for k in keys if props.get(k)), None) for field, keys in _PRODUCT.items()}
    return values.compact({
        "price": values.price(found["price"]),
        "currency": values.currency(found["currency"]),
        "availability": values.availability(found["availability"]),
        "brand": values.text(found["brand"]),
        "sku": values.text(found["sku"]),
        "gtin": values.text(found["gtin"]),
    })
