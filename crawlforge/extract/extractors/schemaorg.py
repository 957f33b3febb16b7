"""schema.org nodes (from JSON-LD or microdata) into the normalised fields.

Only the page's own entities count: top-level nodes, ``@graph`` members, a page's
``mainEntity`` and an Offer's ``itemOffered``; products listed inside an ItemList or
related-products block do not. Type names are matched in any case and as full IRIs
(``"product"``, ``"http://schema.org/Product"``): real sites ship all of them.

The selling price of several offers is the one for the variant the URL selects, else the
lowest price among the offers one can buy (else among all); a ``priceSpecification`` of
type ListPrice / StrikethroughPrice is the ``list_price``, never the selling price.
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
    "priceCurrency", "availability", "lowPrice", "priceType", "mpn", "headline", "author", "datePublished",
    *OPTION_PROPERTIES, *GTIN_PROPERTIES,
))


OFFER_TYPES = {"Offer", "AggregateOffer"}
LIST_PRICE_TYPES = {"listprice", "strikethroughprice", "msrp", "suggestedretailprice", "wasprice"}
_IN_STOCK = {"InStock", "LimitedAvailability", "OnlineOnly", "InStoreOnly", "PreSale", "PreOrder", "MadeToOrder"}
_CANONICAL = {name.lower(): name for name in (*PRODUCT_TYPES, *ARTICLE_TYPES, *OFFER_TYPES)}


def types(node: dict) -> set:
    """Short type names, the known ones in schema.org's own case."""
    raw = node.get("@type")
    names = raw if isinstance(raw, list) else [raw]
    short = (str(name).rstrip("/").rsplit("/", 1)[-1].rsplit("#", 1)[-1] for name in names if name)
    return {_CANONICAL.get(name.lower(), name) for name in short}


def page_entities(items, depth: int = 0):
    """Yield the page-level nodes, expanding arrays, ``@graph`` and ``mainEntity``."""
    if depth > 8:
        return
    if isinstance(items, list):
        for item in items:
            yield from page_entities(item, depth + 1)
    elif isinstance(items, dict):
        kinds = types(items)
        offered = items.get("itemOffered")
        if kinds & OFFER_TYPES and isinstance(offered, dict) and not offered.get("offers"):
            yield {**offered, "offers": {k: v for k, v in items.items() if k != "itemOffered"}}
        elif kinds:
            yield items
        for key in ("@graph", "mainEntity"):
            if key in items:
                yield from page_entities(items[key], depth + 1)


def fields_from_nodes(nodes, base_url: str, warnings: list | None = None) -> dict:
    """The first product and the first article among ``nodes``, as flat fields; what the
    product's offers hold but cannot be read as goes to ``warnings``."""
    product = next((n for n in nodes if types(n) & PRODUCT_TYPES), None)
    article = next((n for n in nodes if types(n) & ARTICLE_TYPES), None)
    fields = {}
    if article is not None:
        fields.update(article_fields(article))
    if product is not None:
        fields.update(product_fields(product, base_url, [] if warnings is None else warnings))
    return fields


def article_fields(node: dict) -> dict:
    authors = node.get("author")
    names = [values.text(a) for a in (authors if isinstance(authors, list) else [authors])]
    return values.compact({
        "headline": values.text(node.get("headline") or node.get("name")),
        "author": ", ".join(n for n in names if n) or None,
        "date_published": values.text(node.get("datePublished")),
    })


def product_fields(node: dict, base_url: str, warnings: list | None = None) -> dict:
    variants = [variant_fields(v, base_url) for v in values.one_or_many(node.get("hasVariant")) if isinstance(v, dict)]
    raw_offers = _all_offers(node.get("offers"))
    offers = [offer_fields(o, base_url) for o in raw_offers]
    chosen = selling_offer(offers or variants, base_url)
    if warnings is not None:
        warnings.extend(_unread(chosen, raw_offers))
    if not variants and len(offers) > 1:
        variants = offers
    return values.compact({
        "product_name": values.text(node.get("name")),
        "product_description": values.plain_text(node.get("description")),
        "brand": values.text(node.get("brand") or node.get("manufacturer")),
        "category": _category(node.get("category")),
        "sku": values.text(node.get("sku")) or (chosen.get("sku") if len(offers) <= 1 else None),
        "gtin": next((values.text(node[k]) for k in GTIN_PROPERTIES if values.text(node.get(k))), None),
        "mpn": values.text(node.get("mpn")),
        "image": _image(node.get("image"), base_url),
        "price": chosen.get("price"),
        "list_price": chosen.get("list_price"),
        "currency": chosen.get("currency"),
        "availability": chosen.get("availability"),
        "variants": [without_url for v in variants if (without_url := {k: x for k, x in v.items() if k != "url"})],
    })


def _unread(chosen: dict, raw_offers: list) -> list:
    """Why the product has a price without a currency, or an offer price but no price."""
    if chosen.get("price"):
        return [] if chosen.get("currency") else [f"price {chosen['price']} has no currency; currency left empty."]
    shown = next((o["price"] for o in raw_offers if values.text(o.get("price"))), None)
    return [f"offer price {values.text(shown)[:40]!r} is no amount; price left empty."] if shown is not None else []


def selling_offer(offers: list, base_url: str) -> dict:
    """The offer the URL selects (its own URL among offers of different URLs), else the
    cheapest one in stock, else the cheapest; {} when none has a price or a state."""
    offers = [o for o in offers if o.get("price") or o.get("availability")]
    if len({o.get("url") for o in offers}) > 1:
        selected = [o for o in offers if o.get("url") == base_url]
        if selected:
            return selected[0]
    buyable = [o for o in offers if o.get("availability") in _IN_STOCK] or offers
    priced = [o for o in buyable if values.as_decimal(o.get("price")) is not None]
    if priced:
        return min(priced, key=lambda o: values.as_decimal(o["price"]))
    return buyable[0] if buyable else {}


def variant_fields(node: dict, base_url: str = "") -> dict:
    offer = selling_offer([offer_fields(o, base_url) for o in _all_offers(node.get("offers"))], base_url)
    options = values.compact({key: values.text(node.get(key)) for key in OPTION_PROPERTIES})
    return values.compact({
        "name": values.text(node.get("name")),
        "sku": values.text(node.get("sku")) or offer.get("sku"),
        "price": offer.get("price"),
        "currency": offer.get("currency"),
        "availability": offer.get("availability"),
        "options": options,
        "url": values.absolute_url(node.get("url"), base_url) if node.get("url") else offer.get("url"),
    })


def offer_fields(offer: dict, base_url: str = "") -> dict:
    """One Offer (an AggregateOffer's own price, else its lowest). Of its price
    specifications, a list-price type is the list price and any other the sale price."""
    specs = [s for s in values.one_or_many(offer.get("priceSpecification")) if isinstance(s, dict)]
    listed = [s for s in specs if _price_type(s) in LIST_PRICE_TYPES]
    selling = [s for s in specs if _price_type(s) not in LIST_PRICE_TYPES]
    spec = selling[0] if selling else {}
    price = values.price(_first(offer.get("price"))) or values.price(_first(spec.get("price"))) \
        or values.price(_first(offer.get("lowPrice")))
    list_price = values.price(_first(listed[0].get("price"))) if listed else None
    return values.compact({
        "name": values.text(offer.get("name")),
        "sku": values.text(offer.get("sku")),
        "price": price,
        "list_price": list_price if list_price != price else None,
        "currency": values.currency(offer.get("priceCurrency") or spec.get("priceCurrency")
                                    or (listed[0].get("priceCurrency") if listed else None)),
        "availability": values.availability(offer.get("availability")),
        "url": values.absolute_url(offer.get("url"), base_url) if offer.get("url") else None,
    })


def _price_type(spec: dict) -> str:
    return (values.text(spec.get("priceType")) or "").rstrip("/").rsplit("/", 1)[-1].lower()


def _all_offers(value, depth: int = 0) -> list:
    """Offers, with an AggregateOffer's inner offers in its place when it lists them."""
    found = []
    for offer in values.one_or_many(value):
        if not isinstance(offer, dict):
            continue
        inner = _all_offers(offer.get("offers"), depth + 1) if depth < 4 else []
        inherited = {"priceCurrency": offer.get("priceCurrency")} if offer.get("priceCurrency") else {}
        found.extend([{**inherited, **o} for o in inner] if inner and not offer.get("price") else [offer])
    return found


def _image(value, base_url: str) -> str | None:
    """The first image URL; microdata on an ``<img>`` with only a srcset resolves to
    the page URL itself, which is no image."""
    urls = (values.absolute_url(v, base_url) for v in values.one_or_many(value))
    return next((url for url in urls if url and url != base_url), None)


def _category(value) -> str | None:
    if isinstance(value, list):
        return " > ".join(t for t in map(values.text, value) if t) or None
    return values.text(value)


def _first(value):
    return value[0] if isinstance(value, list) and value else value
