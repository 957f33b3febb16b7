"""The visible page: what a shopper reads next to the product's name and buy button.

Two readers, ranked apart. The identifier the page *shows* as its own ("Product code: 123")
outranks the markup, which often carries an internal SKU (``VisibleLabelsExtractor``, on pages
whose markup names a product). The shown price, currency, name and stock (an out-of-stock
notice, else an enabled buy button) come last, only where no markup says anything
(``VisiblePriceExtractor``, on pages with markup worth reading, from the page's shared lexbor
parse), and only on a page with
an enabled buy button whose main heading has at most a few prices right under it (a listing's
heading has card after card of them). One exception to the ranking: its InStock (a buy button,
no notice) overrules markup that says out of stock (``structured._shown_stock``). Elements whose
itemprop, class, id or data attributes name a price are read with price-parser; a
struck-through or "was" price is the list price.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from urllib.parse import urlsplit

from price_parser import Price

from crawlforge.extract.extractors import values
from crawlforge.extract.dom import ParsedPage
from crawlforge.extract.extractors.base import Extractor, Finding, Page
from crawlforge.extract.words import pattern, phrases

MAX_PRICE_TEXT = 40  # characters: a longer element is a sentence or a block, not a price tag
NEAR_TEXT = 400  # characters of text between a product's heading and its shown price
MAX_NEAR_PRICES = 3  # more current prices under one heading: a listing's cards
_CARD_HEADINGS = {"h1", "h2", "h3", "h4"}
_SKIPPED = {"script", "style", "noscript", "template", "-comment"}
_CODE = r"([A-Za-z0-9][\w./-]{2,39})"
# Markup that names a product ("Product", schema.org/Product, product:price, itemprop="price"), as
# a word every hint of a group holds and what comes right before and after it: a page is searched
# once per group, each place the word is found tested there (a page without any, an article, is
# scanned twice, not nine times).
PRODUCT_HINTS = (("roduct", ((('"P', '"p'), '"'), (("chema.org/P", "chema.org/p"), ""))),
                 ("price", ((("product:", "og:", 'itemprop="', "itemprop='", "itemprop="), ""),)))
_STRUCK = {"del", "s", "strike"}


class VisibleLabelsExtractor(Extractor):
    name = "visible"
    priority = 110

    def extract(self, page: Page) -> Finding | None:
        if not may_sell(page.parsed_page):
            return None
        sku = shown_code(page.html, page.head_end if page.head_end < len(page.html) else 0)
        return Finding(structured_data={"sku": sku}) if sku else None


class VisiblePriceExtractor(Extractor):
    name = "visible"
    priority = 10

    def extract(self, page: Page) -> Finding | None:
        if "headline" in page.found and "product_name" not in page.found:
            return None  # the markup says article, and names no product
        if not page.worth_parsing("ld+json") or not page.worth_parsing("price", "Price", "PRICE"):
            return None  # only pages with markup worth reading
        warnings: list = []
        for heading in _headings(page.dom):
            name = _words(heading)
            near = _price_tags(_next_to(heading)) if name else []
            if near and len({tag[0] for tag in near if not tag[2]}) <= MAX_NEAR_PRICES:
                break
        else:
            return None
        if not buy_button(page.dom):
            return None  # no buy button: a price list or a service, not a product on sale
        fields = shown_price(near, page.url, warnings)
        if page.found.get("availability") in (None, *values.NOT_FOR_SALE):  # else it changes nothing
            fields["availability"] = "OutOfStock" if _out_of_stock_notice(page.html) else "InStock"
        return Finding(structured_data=values.compact({**fields, "product_name": name}), warnings=warnings)


def may_sell(page: ParsedPage) -> bool:
    """Markup that says a page may be about one product (plain ``in`` checks: a case-blind
    regex over a large article is slow). Kept on the page: its markdown asks again."""
    return page.shared(selling_markup)


def selling_markup(page: ParsedPage) -> bool:
    """``may_sell``'s answer, for ``page.shared``."""
    return any(_hinted(page.html, *hint) for hint in PRODUCT_HINTS)


def _hinted(html: str, word: str, contexts: tuple) -> bool:
    """Whether ``word`` occurs in ``html`` right after one of a context's ``before`` texts and right
    before its ``after`` text."""
    at, size = html.find(word), len(word)
    while at != -1:
        if any(html.endswith(before, 0, at) and html.startswith(after, at + size) for before, after in contexts):
            return True
        at = html.find(word, at + 1)
    return False


def shown_code(html: str, start: int = 0) -> str | None:
    """The identifier printed after a product-code label, in the same element or the next
    (read from ``start``: the body)."""
    found = (m.group(1) for m in _code_pattern().finditer(html, start))
    return next((code for code in found if any(c.isdigit() for c in code)), None)


def buy_button(tree) -> bool:
    """Whether an enabled button or button-like link of the lexbor ``tree`` reads as a buy button."""
    words = pattern("buy_buttons")
    for button in tree.css("button, input[type], a[role], a[class]"):  # the only ones _is_button can take
        attributes = button.attributes
        if not _is_button(button.tag, attributes) or "disabled" in attributes \
                or attributes.get("aria-disabled") == "true":
            continue
        label = " ".join((button.text(deep=True) or attributes.get("value") or "").split())
        if len(label) <= MAX_PRICE_TEXT and words.search(label):
            return True
    return False


def _is_button(tag: str, attributes: dict) -> bool:
    """A button, a submit/button input, or a link styled or marked as a button."""
    if tag == "a":
        classes = attributes.get("class") or ""
        return attributes.get("role") == "button" or "btn" in classes or "button" in classes
    return tag == "button" or attributes.get("type") in ("submit", "button")


def shown_price(tags: list, url: str, warnings: list) -> dict:
    """The first current price tag of ``tags``, with the struck-through tag beside it (the
    one before, or one of the two after) as the list price. A bare amount takes the
    currency the other tags show."""
    selling = next((tag for tag in tags if not tag[2]), None)
    if selling is None:
        return {}
    at = tags.index(selling)
    listed = next((tag for tag in tags[max(0, at - 1): at + 3] if tag[2] and tag[0] != selling[0]), None)
    others = Counter(code for code in (currency_code(tag[1], url) for tag in tags) if code)
    currency = currency_code(selling[1], url) or (others.most_common(1)[0][0] if others else None)
    if currency is None:
        warnings.append(f"visible price {selling[0]} shows no currency; currency left empty.")
    return {"price": selling[0], "currency": currency, "list_price": listed[0] if listed else None}


def _next_to(heading) -> list:
    """Priced elements shown right under a page heading: within ``NEAR_TEXT`` characters of text
    after it and before any lower heading (a listing's first card has its own). The text counted
    at an element is its leading text and the text after it, before its children's."""
    near, text = [], 0
    for element in _following(heading):
        tag = element.tag
        if tag in _CARD_HEADINGS or text > NEAR_TEXT:
            break
        if tag not in _SKIPPED:
            if tag != "option" and _is_priced(element.attributes):
                near.append(element)
            text += _text_length(element.first_child)
        text += _text_length(element.next)
    return near


def _text_length(node) -> int:
    return len(node.text_content.strip()) if node is not None and node.is_text_node else 0


def _headings(tree):
    """The page's h1 headings, then (for pages without one that works) each first itemprop=name
    among its siblings, outside any offer."""
    yield from tree.css("h1")
    parents = set()
    for element in tree.css('body [itemprop="name"]'):
        parent = element.parent
        if parent.mem_id not in parents and not _in_offer(parent):
            parents.add(parent.mem_id)
            yield element


def _in_offer(node) -> bool:
    while node is not None:
        if node.is_element_node and node.attributes.get("itemprop") == "offers":
            return True
        node = node.parent
    return False


def _is_priced(attributes: dict) -> bool:
    """Attributes whose itemprop, class, id or data attribute name a price."""
    return attributes.get("itemprop") == "price" or "data-price" in attributes or any(
        "price" in (attributes.get(name) or "").lower() for name in ("class", "id"))


def _following(element):
    """The elements (and comments) after ``element`` and its descendants, in document order."""
    node = element
    while node is not None:
        sibling = node.next
        while sibling is not None:
            yield from sibling.traverse()
            sibling = sibling.next
        node = node.parent


def _price_tags(elements: list) -> list:
    """(amount, currency text, is list price) of the short ones of priced ``elements``, each
    amount once per kind."""
    tags, seen = [], set()
    for element in elements:
        attributes = element.attributes
        raw = attributes.get("content") if attributes.get("itemprop") == "price" else None
        text = raw or " ".join(element.text(deep=True).split())
        if not text or len(text) > MAX_PRICE_TEXT or not any(c.isdigit() for c in text):
            continue
        parsed = Price.fromstring(text)
        if parsed.amount is None or parsed.amount <= 0:
            continue
        whole = parsed.amount == parsed.amount.to_integral()
        amount = str(int(parsed.amount)) if whole else format(parsed.amount, "f")
        key = (amount, _is_list_price(element))
        if key not in seen:
            seen.add(key)
            tags.append((amount, parsed.currency, key[1]))
    return tags


def _words(element) -> str:
    return " ".join(element.text(deep=True, separator=" ").split())


def _is_list_price(element) -> bool:
    """Struck through, or marked as a list price by its or its two ancestors' attributes."""
    marks = phrases("list_price_marks")
    node = element
    for _ in range(3):
        if node is None or not node.is_element_node:
            return False
        if node.tag in _STRUCK:
            return True
        attributes = " ".join(v or "" for k, v in node.attributes.items() if k in ("class", "id") or "price" in k)
        if any(mark in attributes.lower() for mark in marks):
            return True
        node = node.parent
    return False


def currency_code(shown: str | None, url: str) -> str | None:
    """ISO 4217 for a printed symbol or code; an ambiguous symbol ($, kr, Rs) by the
    site's country domain, else its usual currency."""
    if not shown:
        return None
    token = shown.strip()
    if len(token) == 3 and token.isalpha():
        return token.upper()
    choices = _currencies().get(token.lower())
    if not choices:
        return None
    country = (urlsplit(url).hostname or "").rsplit(".", 1)[-1]
    return choices.get(country, choices[""])


def _out_of_stock_notice(html: str) -> bool:
    return _notice_pattern().search(html) is not None


@lru_cache(maxsize=1)
def _currencies() -> dict:
    table = {}
    for line in phrases("currencies"):
        tokens = line.split()
        by_country = dict(t.upper().split("=") for t in tokens if "=" in t)
        *symbol, code = [t for t in tokens if "=" not in t]
        table[" ".join(symbol)] = {"": code.upper(), **{c.lower(): cur for c, cur in by_country.items()}}
    return table


@lru_cache(maxsize=1)
def _code_pattern() -> re.Pattern:
    labels = pattern("product_code_labels").pattern
    return re.compile(rf">\s*(?:{labels})\s*[:#-]?\s*(?:</?[a-zA-Z][^>]*>\s*){{0,8}}{_CODE}\s*<")


@lru_cache(maxsize=1)
def _notice_pattern() -> re.Pattern:
    return re.compile(rf">\s*(?:{pattern('out_of_stock').pattern})\s*[.!]?\s*<")
