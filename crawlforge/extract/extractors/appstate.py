"""Embedded app state (``__NEXT_DATA__``, ``__NUXT__``, Apollo, Redux...), read by
``crawlforge.extract.embedded``: a product-shaped object in it (a price and a name, with its
SKU and currency when it has them) on a page whose markup names a product (``visible.may_sell``)
but gave it no price (news sites ship app state too: reading it on every article is not free).
Provenance ``embedded:<state name>``.

State holds many products (recommendations, the cart, a listing, a blog's gift offer): the one
the page is about names the page (its name is the h1, or in the <title>). No such object, no
product: a state's only priced object is often not what the page is about.
"""

from __future__ import annotations

import re

from crawlforge.extract import embedded
from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page
from crawlforge.extract.extractors.visible import may_sell

MARKERS = ("__NEXT_DATA__", "__NUXT", "__APOLLO_STATE__", "__INITIAL_STATE__", "__PRELOADED_STATE__",
           "self.__next_f", "__remixContext", "__APP_STATE__", "__STATE__", "data-page=")
MAX_NODES = 200_000  # values walked per page: state can be megabytes
PRICE_KEYS = ("price", "saleprice", "currentprice", "finalprice", "sellingprice", "offerprice")
NAME_ENDINGS = ("name", "title")  # name, title, productName, skuTitle, displayName...
CURRENCY_KEYS = ("currency", "currencycode", "pricecurrency")
_SKIPPED_STATES = {"shopify", "data_rows"}  # read by the Shopify reader; an index of next_f rows


def _from_underscores(marker: str) -> str:
    """The pattern of ``marker`` after its first "__", what comes before it looked behind."""
    before, _, after = marker.partition("__")
    return f"(?<={re.escape(before)}__){re.escape(after)}" if before else re.escape(after)


# The markers holding "__" in one search, which skips from one "__" to the next: ten scans of a
# large page cost ~3 ms, this one a third of that.
_UNDERSCORED = re.compile("__(?:%s)" % "|".join(_from_underscores(m) for m in MARKERS if "__" in m))
_OTHER_MARKERS = tuple(marker for marker in MARKERS if "__" not in marker)


class AppStateExtractor(Extractor):
    name = "embedded"
    priority = 30

    def extract(self, page: Page) -> Finding | None:
        if page.found.get("price") or not may_sell(page.parsed_page) or not _has_marker(page.html):
            return None  # a fallback, on pages whose markup names a product: state can be megabytes
        state = page.parsed_page.shared(embedded.page_state)  # the page's embedded-state step takes it
        names = _page_names(page)
        for name, value in state["data"].items():
            product = None if name in _SKIPPED_STATES else _the_product(value, names)
            if product is not None:
                return Finding(structured_data=product, source=f"embedded:{name}")
        return None


def _has_marker(html: str) -> bool:
    """Whether any of ``MARKERS`` is in the page."""
    return _UNDERSCORED.search(html) is not None or any(marker in html for marker in _OTHER_MARKERS)


def _page_names(page: Page) -> tuple:
    """(h1 text, <title> text), folded for comparing."""
    h1, title = page.dom.css_first("body h1"), page.dom.css_first("head title")
    return tuple(_fold(" ".join(e.text(deep=True).split())) if e is not None else "" for e in (h1, title))


def _the_product(root, names: tuple):
    """The first object (document order, bounded walk) with a readable price and a name that
    names the page."""
    stack, walked = [root], 0
    while stack and walked < MAX_NODES:
        value = stack.pop()
        walked += 1
        if isinstance(value, dict):
            product = _as_product(value, names)
            if product is not None:
                return product
            stack.extend(reversed([v for v in value.values() if isinstance(v, (dict, list))]))
        elif isinstance(value, list):
            stack.extend(reversed([v for v in value if isinstance(v, (dict, list))]))
    return None


def _as_product(node: dict, names: tuple) -> dict | None:
    if "price" not in "\n".join(map(str, node)).lower():  # every price key says so: one test, not one a key
        return None
    keys = {str(k).lower(): k for k in node}
    raw = next((node[keys[k]] for k in PRICE_KEYS if k in keys), None)
    if raw is None:
        return None
    h1, title = names
    name = next((text for key, original in keys.items() if key.endswith(NAME_ENDINGS)
                 and isinstance(text := node[original], str) and _names_page(_fold(text), h1, title)), None)
    if name is None:
        return None
    price, currency = _amount(raw)
    if price is None:
        return None
    currency = currency or next((values.text(node[keys[k]]) for k in CURRENCY_KEYS if k in keys), None)
    sku = values.text(node[keys["sku"]]) if "sku" in keys and isinstance(node[keys["sku"]], (str, int)) else None
    return values.compact({"product_name": " ".join(name.split()), "price": price, "sku": sku,
                           "currency": values.currency(currency) if currency and len(currency) == 3 else None})


def _names_page(name: str, h1: str, title: str) -> bool:
    return bool(name) and (name == h1 or (len(name) > 3 and name in title))


def _amount(raw) -> tuple:
    """(price, currency) of a number, a numeric string, or a ``{amount|value, currency}`` object."""
    if isinstance(raw, dict):
        keys = {str(k).lower(): k for k in raw}
        inner = next((raw[keys[k]] for k in ("amount", "value", "current", "now", "sale") if k in keys), None)
        currency = next((values.text(raw[keys[k]]) for k in CURRENCY_KEYS if k in keys), None)
        return (_amount(inner)[0] if not isinstance(inner, dict) else None), currency
    if isinstance(raw, bool) or not isinstance(raw, (int, float, str)):
        return None, None
    if isinstance(raw, str) and not raw.strip().replace(".", "", 1).replace(",", "", 1).isdigit():
        return None, None  # "Call for price", "$12.50" (a display string is not the state's amount)
    price = values.price(raw)
    return (price, None) if price and values.as_decimal(price) not in (None, 0) else (None, None)


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()
