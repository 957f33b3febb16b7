"""OpenGraph (og:*, product:*) as extruct reads it: the page's title/description/image and
the ``product:`` price namespace that some shops use instead of JSON-LD. Read from the page's
lexbor ``head_tree``: an lxml parse of the head cost more than every other head reader.
"""

from __future__ import annotations

from extruct.opengraph import _OG_NAMESPACES, _PREFIX_PATTERN

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

    def extract(self, page: Page) -> Finding | None:
        if not (page.in_head("og:") or page.in_head("product:")) or page.head_tree is None:
            return None
        head = page.head_tree.head
        if head is None:
            return None
        props: dict = {}
        for key, value in head_properties(head):
            props.setdefault(key, value)
        return Finding(meta=_meta(props, page.url), structured_data=_product(props))


def head_properties(head) -> list:
    """(property, content) of each ``<meta property content>`` child of ``head`` whose prefix is
    OpenGraph's or declared by a ``prefix`` attribute of the head or the html element, in order
    (extruct's ``OpenGraphExtractor.extract_items``)."""
    root = head.parent
    namespaces = _namespaces(root) if root is not None and root.tag == "html" else {}
    namespaces.update(_namespaces(head))
    props = []
    for element in head.iter():
        attributes = element.attributes if element.tag == "meta" else {}
        if "property" in attributes and "content" in attributes:
            prop = attributes["property"] or ""
            namespace = prop.partition(":")[0]
            if namespace in _OG_NAMESPACES:
                namespaces[namespace] = _OG_NAMESPACES[namespace]
            if namespace in namespaces:
                props.append((prop, attributes["content"] or ""))
    return props


def _namespaces(element) -> dict:
    return dict(_PREFIX_PATTERN.findall(element.attributes.get("prefix") or ""))


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
