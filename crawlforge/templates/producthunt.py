"""Product Hunt launch pages, read from the Apollo streaming-SSR pushes the page ships, with meta fallbacks."""

from __future__ import annotations

import re

from crawlforge.extract.embedded import extract_apollo_transport

from .base import Template
from .common import WS, as_document, attr, first_truthy, js_truthy, meta_content, safe_href

_SITE_SUFFIX = re.compile(WS + r"*\|" + WS + r"*Product Hunt" + WS + "*$", re.I)
_REF_PAIR = re.compile(r"([?&])ref=producthunt(?:&|$)")


def apollo_products(html: str) -> list[dict]:
    """Every ``__typename: "Product"`` object in the Apollo SSR pushes, depth-first in order."""
    products, stack = [], [extract_apollo_transport(html)]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("__typename") == "Product":
                products.append(node)
            stack.extend(reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend(reversed(node))
    return products


def _main_product(products: list[dict]) -> dict | None:
    """The launch's own product: the object carrying follower counts, else one with a website."""
    for key in ("followersCount", "websiteUrl"):
        found = next((p for p in products if key in p), None)
        if found is not None:
            return found
    return None


def _dom_website(doc) -> str | None:
    href = attr(doc, 'a[data-test="visit-website-button"]', "href")
    return re.sub(r"[?&]$", "", _REF_PAIR.sub(r"\1", href, count=1)) if href else None


def _topics(product: dict | None) -> list | None:
    categories = product.get("categories") if product is not None else None
    if not isinstance(categories, list):
        return None
    names = (c.get("name") if isinstance(c, dict) else None for c in categories)
    return [name for name in names if js_truthy(name)]


class ProducthuntLaunch(Template):
    id = "producthunt-launch"
    name = "Product Hunt Launch"
    description = (
        "A Product Hunt product or launch page: name, tagline, description, image, website, "
        "topics, follower count and review count/rating, from the page's Apollo data."
    )
    target_pattern = re.compile(r"producthunt\.com\/(?:posts|products)\/", re.I)

    def extract_raw(self, body, url: str) -> dict:
        html = body.decode("utf-8", errors="replace") if isinstance(body, bytes) else body
        product = _main_product(apollo_products(html))
        found = product or {}
        doc = as_document(html)
        og_title = meta_content(doc, 'meta[property="og:title"]')
        return {
            "name": first_truthy(found.get("name"), _SITE_SUFFIX.sub("", og_title or "", count=1), None),
            "tagline": first_truthy(found.get("tagline"), meta_content(doc, 'meta[property="og:description"]')),
            "description": found.get("description"),
            "image": meta_content(doc, 'meta[property="og:image"]'),
            "url": safe_href(meta_content(doc, 'meta[property="og:url"]')) or url,
            "website": safe_href(first_truthy(found.get("websiteUrl"), _dom_website(doc))),
            "topics": _topics(product),
            "followers": found.get("followersCount"),
            "reviews_count": found.get("reviewsCount"),
            "reviews_rating": found.get("reviewsRating"),
        }
