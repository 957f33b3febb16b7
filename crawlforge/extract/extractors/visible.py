"""The visible page: what a shopper reads next to the product's name and buy button.

Two readers, ranked apart. The identifier the page *shows* as its own ("Product code: 123")
outranks the markup, which often carries an internal SKU (``VisibleLabelsExtractor``, on pages
whose markup names a product). The shown price, currency, name, stock and labelled code come
last and fill only what no markup gave (``VisiblePriceExtractor``, from the shared lexbor
parse): the price tags under the product's heading, in its buy button's box, between the two, or
above the heading in its own box (``shown``), the buy button's state and the stock phrases. One
exception to the ranking: its InStock (a live buy button) overrules markup that says out of stock
(``structured._shown_stock``). It reads a page only when something says it may be one product's:
markup naming one, an h1, or a buy button; a page whose buy buttons offer many prices (a table
of plans) is none.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from crawlforge.extract.extractors import values
from crawlforge.extract.dom import ParsedPage
from crawlforge.extract.extractors.base import Extractor, Finding, Page, head_end
from crawlforge.extract.extractors.shown import MAX_PRICE_TEXT, currency_code, in_card, is_list_label, \
    is_not_selling, product_heading, tags_above, tags_after, tags_before, tags_in
from crawlforge.extract.words import pattern

MAX_NEAR_PRICES = 3  # more current prices under one heading: a listing's cards
MAX_BUTTONS_READ = 16  # buy buttons whose boxes are read to tell a table of offers
NEAR_CODE = 32_000  # characters of markup after the h1 in which an item page without an offer labels its code
CLOSE_TEXT = 200  # characters of text after the heading: a price tag there is the product's own
# A button, a submit/button input, or a link styled or marked as a button.
_BUTTONS = 'button, input[type="submit"], input[type="button"], a[role="button"], a[class*="btn"], a[class*="button"]'
BOX_LEVELS = 8  # ancestors of a buy button searched for its price: the buy box, not the page
_CODE = r"([A-Za-z0-9][\w./-]{2,39})"
_COMMENTS = r"(?:<!--[^>]*-->\s*)*"  # a framework's empty comments split what the page shows ("Code<!-- -->:")
# Markup that names a product ("Product", schema.org/Product, product:price, itemprop="price"), as
# a word every hint of a group holds and what comes right before and after it: a page is searched
# once per group, each place the word is found tested there (a page without any, an article, is
# scanned twice, not nine times).
PRODUCT_HINTS = (("roduct", ((('"P', '"p'), '"'), (("chema.org/P", "chema.org/p"), ""))),
                 ("price", ((("product:", "og:", 'itemprop="', "itemprop='", "itemprop="), ""),)))


class VisibleLabelsExtractor(Extractor):
    name = "visible"
    priority = 110

    def extract(self, page: Page) -> Finding | None:
        if not may_sell(page.parsed_page):
            return None
        sku = labelled_code(page.parsed_page)
        return Finding(structured_data={"sku": sku}) if sku else None


class VisiblePriceExtractor(Extractor):
    name = "visible"
    priority = 10

    def extract(self, page: Page) -> Finding | None:
        found = page.found
        if "headline" in found and "product_name" not in found:
            return None  # the markup says article, and names no product
        need_offer = "price" not in found
        need_stock = found.get("availability") in (None, *values.NOT_FOR_SALE)  # markup's InStock stands
        if not (need_offer or need_stock or "sku" not in found or "product_name" not in found):
            return None  # the markup gave every fact, the name too
        tree = page.dom
        marks = tree.css("h1, " + _BUTTONS)  # one walk of the tree for both
        headings = [node for node in marks if node.tag == "h1"]
        controls = [node for node in marks if node.tag != "h1"]
        buttons = buy_buttons(tree, controls) if need_offer or need_stock else []
        named = "product_name" in found or "price" in found
        if not (named or headings or buttons):
            return None  # no markup says product, no heading names an item, no button buys one
        heading = product_heading(tree, headings) if headings and (need_offer or "product_name" not in found) else None
        table = heading is not None and "product_name" not in found and offers_table(buttons, heading)
        if table and not named:
            return None  # a service's plans or a listing, each priced with its own button: no one product
        warnings: list = []
        fields = shown_offer(heading, buttons, page.url, warnings, "product_name" in found) if need_offer else {}
        if not (fields or named):
            # No offer shown: a heading and one product code labelled right after it ("Item #",
            # "SKU:") still say the page is one item's (an ended auction, a classified ad, a price
            # drawn by script). Only there: an article's long body is not searched for labels.
            code = near_code(page.html, page.head_end) if heading is not None and "sku" not in found else None
            if code is None:
                return None  # nothing says this page is about one product
            fields = {"sku": code}
        if need_stock:
            waiting = buy_buttons(tree, controls, disabled=True) if not buttons else []
            fields["availability"] = stock_state(page.html, buttons, found.get("availability"), waiting)
        if "sku" not in found and "sku" not in fields:
            fields["sku"] = labelled_code(page.parsed_page)
        if heading is not None and "product_name" not in found and not table:
            fields["product_name"] = _words(heading)
        return Finding(structured_data=values.compact(fields), warnings=warnings)


def shown_offer(heading, buttons: list, url: str, warnings: list, named: bool = False) -> dict:
    """Price, currency and list price shown under the product's heading, else in the box of its
    first buy button; {} when neither shows one, or a listing's many prices. A page whose markup
    ``named`` a product (a schema.org Product without offers) needs no buy button to say the
    first price under its heading is an offer: the markup has said what the page is."""
    tags = tags_after(heading) if heading is not None else []
    offer = _selling(tags)
    if offer is None and buttons:
        tags, offer = _in_buy_box(buttons[0])
    if offer is None and buttons and heading is not None:
        tags = tags_before(heading, buttons[0])
        offer = _selling(tags)
    if offer is None and heading is not None:
        tags = tags_above(heading)
        offer = _selling(tags)
    if offer is None:
        return {}
    if len({tag.amount for tag in tags if tag.currency and not _is_list(tag) and not is_not_selling(tag)}) \
            > MAX_NEAR_PRICES:
        return {}  # card after card of prices: a listing
    selling, listed = offer
    if in_card(selling.element, heading):
        return {}  # the first card of a listing or a carousel
    if not (buttons or named or (selling.marked and selling.at <= CLOSE_TEXT)):
        return {}  # no buy button, no price class, not right under the heading: not an offer
    others = Counter(code for code in (currency_code(tag.currency, url) for tag in tags) if code)
    currency = currency_code(selling.currency, url) or (others.most_common(1)[0][0] if others else None)
    if currency is None:
        warnings.append(f"visible price {selling.amount} shows no currency; currency left empty.")
    return {"price": selling.amount, "currency": currency, "list_price": listed.amount if listed else None}


def offers_table(buttons: list, heading) -> bool:
    """Whether the page's buy buttons outside other items' cards offer more than
    ``MAX_NEAR_PRICES`` different prices: a table of plans or packages (a service's page) or a
    listing, not one product's page, whatever price its heading shows. A product page has one
    buy box (with at most a few variants' prices); related items' buttons sit in their cards."""
    if len(buttons) <= MAX_NEAR_PRICES:
        return False
    prices = set()
    for button in buttons[:MAX_BUTTONS_READ]:
        if in_card(button, heading):
            continue
        _, offer = _in_buy_box(button)
        if offer is not None:
            prices.add(offer[0].amount)
            if len(prices) > MAX_NEAR_PRICES:
                return True
    return False


def _in_buy_box(button) -> tuple:
    """(tags, offer) of the smallest box around ``button`` that shows a price: within
    ``BOX_LEVELS`` ancestors."""
    box = button
    for _ in range(BOX_LEVELS):
        box = box.parent
        if box is None:
            break
        tags = tags_in(box)
        offer = _selling(tags)
        if offer is not None:
            return tags, offer
    return [], None


def _selling(tags: list):
    """(selling tag, its list-price tag or None): the first current price that is not shipping
    or a saving, with a list price beside it (one before, or one of the two after); a page that
    shows only a "regular price" sells at it."""
    usable = [tag for tag in tags if not is_not_selling(tag)]
    selling = next((tag for tag in usable if not _is_list(tag)), None)
    if selling is None:
        return (usable[0], None) if usable else None
    at = usable.index(selling)
    listed = next((tag for tag in usable[max(0, at - 1): at + 3] if _is_list(tag) and tag.amount != selling.amount), None)
    return selling, listed


def _is_list(tag) -> bool:
    return tag.listed or is_list_label(tag)


def stock_state(html: str, buttons: list, declared: str | None, waiting: list = ()) -> str | None:
    """InStock for an enabled buy button, else OutOfStock for an out-of-stock notice, else
    InStock for a disabled buy button (``waiting``) or an in-stock phrase; None when the page
    shows neither (a missing state is never read as in stock). A notice beside a live button
    is one variant's, unless the markup says out of stock too. A button that still says "Add
    to cart" but is disabled is one the page's script enables (or that waits for a size): the
    page as served disables it, its label and the absence of a notice say it sells."""
    notice = _out_of_stock_notice(html)
    if buttons and not (notice and declared is not None):
        return "InStock"
    if notice:
        return "OutOfStock"
    if declared is None and (waiting or _in_stock_notice(html)):
        return "InStock"
    return None


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


def labelled_code(page: ParsedPage) -> str | None:
    """``shown_code`` of the page's body, read once for both visible readers (``page.shared``)."""
    return page.shared(_body_code)


def _body_code(page: ParsedPage) -> str | None:
    end = head_end(page.html)
    return shown_code(page.html, end if end < len(page.html) else 0)


def near_code(html: str, head_end: int) -> str | None:
    """``shown_code`` of the ``NEAR_CODE`` characters of markup from the body's first h1 (an item
    page labels its code with its title; the rest of a long page is its body or other items)."""
    body = head_end if head_end < len(html) else 0
    start = min((at for at in (html.find("<h1", body), html.find("<H1", body)) if at != -1), default=-1)
    return shown_code(html, start, start + NEAR_CODE) if start != -1 else None


def shown_code(html: str, start: int = 0, end: int | None = None) -> str | None:
    """The identifier printed after a product-code label, in the same element or the next
    (read from ``start``: the body, to ``end``); None when the page labels several (a set's
    parts, other items), since which one is the product's own is then unknown."""
    found = {m.group(1) for m in _code_pattern().finditer(html, start, len(html) if end is None else end)}
    codes = [code for code in found if any(c.isdigit() for c in code)]
    return codes[0] if len(codes) == 1 else None


def buy_buttons(tree, candidates=None, disabled: bool = False) -> list:
    """The enabled (with ``disabled``: the disabled) buttons or button-like links of the lexbor
    ``tree`` (of ``candidates``, its ``_BUTTONS``) that read as a buy button."""
    words = pattern("buy_buttons")
    found = []
    for button in tree.css(_BUTTONS) if candidates is None else candidates:  # not a page's thousands of links
        attributes = button.attributes
        if ("disabled" in attributes or attributes.get("aria-disabled") == "true") != disabled:
            continue
        label = " ".join((_label(button) or attributes.get("value") or "").split())
        if len(label) <= MAX_PRICE_TEXT and words.search(label):
            found.append(button)
    return found


def _label(button) -> str:
    """The button's text without its inline <style> or <script>."""
    text = button.text(deep=True)
    if len(text) <= MAX_PRICE_TEXT or (button.css_first("style") is None and button.css_first("script") is None):
        return text
    return "".join(node.text_content for node in button.traverse(include_text=True)
                   if node.is_text_node and node.parent.tag not in ("style", "script"))


def _words(element) -> str:
    return " ".join(element.text(deep=True, separator=" ").split())


def _out_of_stock_notice(html: str) -> bool:
    return _notice_pattern().search(html) is not None


def _in_stock_notice(html: str) -> bool:
    return _in_stock_pattern().search(html) is not None


@lru_cache(maxsize=1)
def _code_pattern() -> re.Pattern:
    labels = pattern("product_code_labels").pattern
    return re.compile(rf">\s*(?:{labels})\s*{_COMMENTS}[:#：-]?\s*(?:(?:</?[a-zA-Z][^>]*>|<!--[^>]*-->)\s*){{0,8}}{_CODE}\s*<")


@lru_cache(maxsize=1)
def _notice_pattern() -> re.Pattern:
    return re.compile(rf">\s*(?:{pattern('out_of_stock').pattern})(?:\s+\w+)?\s*[.!]?\s*<")  # "... online"


@lru_cache(maxsize=1)
def _in_stock_pattern() -> re.Pattern:
    return re.compile(rf">\s*(?:{pattern('in_stock').pattern})[^<>]{{0,60}}<")
