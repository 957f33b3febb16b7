"""schema.org nodes (from JSON-LD or microdata) into the normalised fields.

Only the page's own entities count: top-level nodes, ``@graph`` members and a page's
``mainEntity``; products listed inside an ItemList or related-products block do not.
"""

from __future__ import annotations

from crawlforge.extract.extractors import values

PRODUCT_TYPES = {"Product", "ProductGroup", "IndividualProduct", "ProductModel", "Vehicle", "Car", "Book"}
ARTICLE_TYPES = {
    "Article", "NewsArticle", "BlogPosting", "Report", "TechArticle", "ScholarlyArticle",
    "AnalysisNewsArticle", "OpinionNewsArticle", "ReportageNewsArticle", "LiveBlogPosting",
    "SocialMediaPosting", "DiscussionForumPosting",
}
OPTION_PROPERTIES = ("color", "size", "material", "pattern", "suggestedAge", "suggestedGender")
GTIN_PROPERTIES = ("gtin", "gtin13", "gtin12", "gtin14", "gtin8", "isbn")
# Every text property the functions below read; microdata skips the text of the others.
TEXT_PROPERTIES = frozenset((
    "name", "description", "brand", "manufacturer", "category", "sku", "image", "price",
    "priceCurrency", "availability", "lowPrice", "headline", "author", "datePublished",
    *OPTION_PROPERTIES, *GTIN_PROPERTIES,
))


def types(node: dict) -> set:
    raw = node.get("@type")
    names = raw if isinstance(raw, list) else [raw]
    return {str(name).rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1] for name in names if name}


def page_entities(items, depth: int = 0):
    """Yield the page-level nodes, expanding arrays, ``@graph`` and ``mainEntity``."""
    if depth > 8:
        return
    if isinstance(items, list):
        for item in items:
            yield from page_entities(item, depth + 1)
    elif isinstance(items, dict):
        if types(items):
            yield items
        for key in ("@graph", "mainEntity"):
            if key in items:
                yield from page_entities(items[key], depth + 1)


def fields_from_nodes(nodes, base_url: str) -> dict:
    """The first product and the first article among ``nodes``, as flat fields."""
    product = next((n for n in nodes if types(n) & PRODUCT_TYPES), None)
    article = next((n for n in nodes if types(n) & ARTICLE_TYPES), None)
    fields = {}
    if article is not None:
        fields.update(article_fields(article))
    if product is not None:
        fields.update(product_fields(product, base_url))
    return fields


def article_fields(node: dict) -> dict:
    authors = node.get("author")
    names = [values.text(a) for a in (authors if isinstance(authors, list) else [authors])]
    return values.compact({
        "headline": values.text(node.get("headline") or node.get("name")),
        "author": ", ".join(n for n in names if n) or None,
        "date_published": values.text(node.get("datePublished")),
    })


def product_fields(node: dict, base_url: str) -> dict:
    variants = [variant_fields(v) for v in values.one_or_many(node.get("hasVariant")) if isinstance(v, dict)]
    offers = _offers(node.get("offers"))
    if not variants and len(offers) > 1:
        variants = [offer_fields(o) for o in offers]
    first = offer_fields(offers[0]) if offers else (variants[0] if variants else {})
    return values.compact({
        "product_name": values.text(node.get("name")),
        "product_description": values.text(node.get("description")),
        "brand": values.text(node.get("brand") or node.get("manufacturer")),
        "category": _category(node.get("category")),
        "sku": values.text(node.get("sku")) or first.get("sku"),
        "gtin": next((values.text(node[k]) for k in GTIN_PROPERTIES if values.text(node.get(k))), None),
        "image": _image(node.get("image"), base_url),
        "price": first.get("price"),
        "currency": first.get("currency"),
        "availability": first.get("availability"),
        "variants": [v for v in variants if v],
    })


def variant_fields(node: dict) -> dict:
    offers = _offers(node.get("offers"))
    offer = offer_fields(offers[0]) if offers else {}
    options = values.compact({key: values.text(node.get(key)) for key in OPTION_PROPERTIES})
    return values.compact({
        "name": values.text(node.get("name")),
        "sku": values.text(node.get("sku")) or offer.get("sku"),
        "price": offer.get("price"),
        "currency": offer.get("currency"),
        "availability": offer.get("availability"),
        "options": options,
    })


def offer_fields(offer: dict) -> dict:
    """Offer or AggregateOffer: an aggregate's own price, else its lowest price."""
    spec = _first(offer.get("priceSpecification"))
    spec = spec if isinstance(spec, dict) else {}
    inner = _offers(offer.get("offers"))
    nested = offer_fields(inner[0]) if inner else {}
    return values.compact({
        "name": values.text(offer.get("name")),
        "sku": values.text(offer.get("sku")),
        "price": values.price(_first(offer.get("price") or spec.get("price") or offer.get("lowPrice")))
        or nested.get("price"),
        "currency": values.currency(offer.get("priceCurrency") or spec.get("priceCurrency"))
        or nested.get("currency"),
        "availability": values.availability(offer.get("availability")) or nested.get("availability"),
    })


def _image(value, base_url: str) -> str | None:
    """The first image URL; microdata on an ``<img>`` with only a srcset resolves to
    the page URL itself, which is no image."""
    urls = (values.absolute_url(v, base_url) for v in values.one_or_many(value))
    return next((url for url in urls if url and url != base_url), None)


def _offers(value) -> list:
    return [o for o in values.one_or_many(value) if isinstance(o, dict)]


def _category(value) -> str | None:
    if isinstance(value, list):
        return " > ".join(t for t in map(values.text, value) if t) or None
    return values.text(value)


def _first(value):
    return value[0] if isinstance(value, list) and value else value
