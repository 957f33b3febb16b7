"""What a product page shows a shopper, read from its text and layout alone (no markup needed):
the product's heading, the price tags right under it (or in its buy button's box), and the
words around each tag that make it a list price or no selling price at all.

A heading is the product's when its words are the page title's (a page has one product, but
many h1s: a cookie banner's, a menu's). A price tag is the smallest element whose text holds
one amount and a currency (or whose class names a price); the tags read are the ones within
``WINDOW`` characters of text after the heading, stopping at the next card's heading; a tag
inside a link is another item's card. Vocabulary: ``words/list_price_labels.txt`` ("was",
"UVP"), ``words/not_selling_labels.txt`` ("save", "estimate") and ``not_selling_after.txt``
("shipping", "off").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from price_parser import Price

from crawlforge.extract.content.nodes import with_ancestors
from crawlforge.extract.words import pattern, phrases

MAX_PRICE_TEXT = 40  # characters: a longer element is a sentence or a block, not a price tag
WINDOW = 700  # characters of text after the product's heading in which its price is shown
BUTTON_WINDOW = 3000  # characters of text between the heading and its buy button read for the price
MAX_NODES = 3000  # nodes walked after the heading: a bound for pages of endless markup
LABEL_TEXT = 24  # characters before or after a tag that can say what kind of price it is
MIN_CARDS = 2  # priced siblings alike, each with a link and an image: a list of items
MAX_CARDS_READ = 12  # siblings read to count them
MAX_CARD_TEXT = 600  # characters (blanks aside) of a card: a name, a price, a rating, a button
CARD_LEVELS = 12  # ancestors of a price tag tested as a list's card
_CARD_HEADINGS = {"h1", "h2", "h3", "h4"}
_SKIPPED = {"script", "style", "noscript", "template", "select", "option", "-comment", "button", "svg"}
_STRUCK = {"del", "s", "strike"}
_NOT_OFFERS = {"a", "label"}  # another item's link; a form control's caption (a price filter's "Under $250")
_PAGE_BOXES = {"body", "html", "main"}
_CONTAINERS = {"body", "html", "main", "form", "section", "article", "table", "tr", "ul", "ol", "li"}  # hold items
_AMOUNT = re.compile(r"\d(?:[\d.,'\u00a0\u202f ]*\d)?")
_WORD = re.compile(r"\w+")
_DIGIT = re.compile(r"\d")
_ADDED_OR_RANGE = re.compile(r"[+\-–]\s*\W{0,2}$")  # "+ £2.90" shipping, "$45 - $50" a range's end
_ATTRIBUTE_WORD = re.compile(r"[a-z]+")
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


@dataclass
class Tag:
    """One price tag as shown: its amount, the currency text next to it, whether it is a list
    (struck-through or "was") price, and the text just before and after it."""

    amount: str
    currency: str | None
    listed: bool
    before: str
    after: str
    marked: bool  # its class or id names a price
    at: int  # characters of text shown before it (after the heading, or in the box)
    element: object = None  # the lexbor node


def product_heading(tree, headings=None):
    """The h1 (of ``headings``, the page's h1s) whose words are most the page title's (the first
    h1 when no title helps)."""
    title = tree.head.css_first("title") if tree.head is not None else None  # not an SVG's
    title_words = set(_WORD.findall(title.text().casefold())) if title is not None else set()
    best, best_score = None, -1.0
    for heading in tree.css("h1") if headings is None else headings:
        words = _WORD.findall(heading.text(separator=" ").casefold())
        if words:
            score = sum(word in title_words for word in words) / len(words)
            if score > best_score:
                best, best_score = heading, score
    return best


def tags_after(heading) -> list[Tag]:
    """The price tags shown within ``WINDOW`` characters of text after ``heading``, in order."""
    return _tags(_following(heading), stop_at_headings=True)


def tags_before(heading, button) -> list[Tag]:
    """The price tags shown after ``heading`` and before ``button``, when the button comes within
    ``BUTTON_WINDOW`` characters of text after it ([] otherwise): a shop that puts ratings and key
    features between its title and its price still shows the price before its buy button."""
    reached = []

    def until_button():
        for node in _following(heading):
            if node.mem_id == button.mem_id:
                reached.append(node)
                return
            yield node

    tags = _tags(until_button(), stop_at_headings=True, window=BUTTON_WINDOW)
    return tags if reached else []


def tags_above(heading) -> list[Tag]:
    """The price tags in the heading's own box before it: a classified ad's layout prints the
    price above its title ("Rs 635,000", then the h1)."""
    parent = heading.parent
    if parent is None or not parent.is_element_node or parent.tag in _PAGE_BOXES:
        return []  # the heading's box is the page: what comes before it is not its own
    return _tags(_before(heading), stop_at_headings=False)


def tags_in(box) -> list[Tag]:
    """The price tags inside ``box`` (a buy button's box), in order."""
    return _tags(box.traverse(include_text=True, skip_empty=True), stop_at_headings=False)


def _tags(nodes, stop_at_headings: bool, window: int = WINDOW) -> list[Tag]:
    stream, tags, seen = [], [], set()
    size = position = previous_end = 0  # size: text shown; position: offset in the stream
    for count, node in enumerate(nodes):
        if size > window or count > MAX_NODES:
            break
        if node.is_text_node:
            parent = node.parent
            if parent is None or parent.tag in _SKIPPED:
                continue
            text = node.text_content
            if _DIGIT.search(text):
                element = _price_element(parent)
                if element is not None and element.mem_id not in seen:
                    seen.add(element.mem_id)
                    shown = position - max(previous_end, position - LABEL_TEXT)  # since the last tag
                    label = "".join(stream[-LABEL_TEXT:])[-shown:] if shown > 0 else ""
                    tag = _tag(element, label, size)
                    previous_end = position + len(element.text(deep=True))
                    if tag is not None:
                        tags.append((tag, previous_end))
            stream.append(text)
            position += len(text)
            size += len(text.strip())  # a template's runs of blanks are no text
        elif stop_at_headings and node.tag in _CARD_HEADINGS and tags:
            break  # the next item's heading
    whole = "".join(stream)
    for tag, end in tags:
        tag.after = " ".join(f"{tag.after} {whole[end:end + LABEL_TEXT]}".split())  # its own words first
    return [tag for tag, _ in tags]


def _tag(element, label: str, at: int) -> Tag | None:
    """``element`` as a price tag, ``label`` the text shown since the previous one (so one
    tag's label is never the next one's); None when it shows no amount with a currency."""
    text = " ".join(element.text(deep=True, separator=" ").split())
    parsed = Price.fromstring(_joined_cents(element, text))
    if parsed.amount is None or parsed.amount <= 0 or "%" in text:
        return None  # no amount, or a discount's percentage
    # A currency counts only where it touches the amount: "DA" of "CUDA", "lei" of "kleine" are none.
    currency = parsed.currency if currency_code(parsed.currency, "") and _money_pattern().search(text) else None
    marked = _is_marked(element, data=currency is not None)
    if currency is None and not marked:
        return None  # a number without a currency is a size, a count or a date
    whole = parsed.amount == parsed.amount.to_integral()
    amount = str(int(parsed.amount)) if whole else format(parsed.amount, "f")
    at_amount = text.find(parsed.amount_text) if parsed.amount_text else -1
    inside, trailing = (text[:at_amount], text[at_amount + len(parsed.amount_text):]) if at_amount >= 0 else ("", "")
    return Tag(amount, currency, _is_list_price(element), " ".join(f"{label} {inside}".split()), trailing, marked,
               at, element)


def _joined_cents(element, text: str) -> str:
    """"$19 99" from ``$<span>19</span><sup>99</sup>``: the cents in a superscript get their point."""
    sup = element.css_first("sup")
    if sup is None:
        return text
    cents = sup.text().strip()
    if len(cents) == 2 and cents.isdigit() and text.endswith(" " + cents) and not re.search(r"\d[.,]\d+ \d\d$", text):
        return text[: -3] + "." + cents
    return text


def _price_element(element):
    """The largest element from ``element`` up whose text is short and holds one amount; None
    for a text in a link (another item's card), a control or its label (a filter), or a long block."""
    best = None
    node = element
    for _ in range(4):
        if node is None or not node.is_element_node or node.tag in _SKIPPED or node.tag in _CONTAINERS:
            break
        if node.tag in _NOT_OFFERS:
            return None
        text = node.text(deep=True)
        if len(text.strip()) > MAX_PRICE_TEXT or len(_AMOUNT.findall(text)) != 1:
            break
        best = node
        node = node.parent
    if best is not None and _in_link(best):
        return None
    return best


def _in_link(node) -> bool:
    for _ in range(6):
        node = node.parent
        if node is None or not node.is_element_node:
            return False
        if node.tag == "a" and node.attributes.get("href"):
            return True
    return False


def _is_marked(element, data: bool = False) -> bool:
    """Its or its two ancestors' class or id names a price (with ``data``: a test id too,
    ``data-testid="price"``, ``data-aut-id="itemPrice"``: it names what the element is; other
    data attributes hold templates and settings. Alone it only marks an amount that shows its
    currency: a filter's counts carry such ids)."""
    node = element
    for _ in range(3):
        if node is None or not node.is_element_node:
            return False
        attributes = node.attributes
        if "data-price" in attributes or any("price" in (value or "").lower() for name, value in attributes.items()
                                             if name in ("class", "id") or (data and _is_test_id(name))):
            return True
        node = node.parent
    return False


def _is_test_id(name: str) -> bool:
    return name.startswith("data-") and name.endswith("id")


def _is_list_price(element) -> bool:
    """Struck through, or marked as a list price by a word of its or its two ancestors' class, id
    or price attributes ("price--old", "wasPrice"; not "bold")."""
    node = element
    for _ in range(3):
        if node is None or not node.is_element_node:
            return False
        if node.tag in _STRUCK:
            return True
        attributes = " ".join(v or "" for k, v in node.attributes.items() if k in ("class", "id") or "price" in k)
        if _marks_list_price(attributes):
            return True
        node = node.parent
    return False


def _marks_list_price(attributes: str) -> bool:
    words = "-" + "-".join(_ATTRIBUTE_WORD.findall(_CAMEL.sub("-", attributes).lower())) + "-"
    return any(f"-{mark}" in words for mark in phrases("list_price_marks"))


def is_list_label(tag: Tag) -> bool:
    """The words right before the tag say it is a former or reference price ("was", "UVP")."""
    return pattern("list_price_labels").search(tag.before[-LABEL_TEXT:]) is not None


def is_not_selling(tag: Tag) -> bool:
    """Shipping, a saving, an estimate or a deposit: an amount that is not what the product costs."""
    return bool(_ADDED_OR_RANGE.search(tag.before[-4:])) or pattern("not_selling_labels").search(tag.before) is not None \
        or pattern("not_selling_after").match(tag.after[:16]) is not None


def in_card(element, heading=None) -> bool:
    """Whether ``element`` lies in one of a list's cards: an ancestor that is, with siblings of
    its tag and first class (at least ``MIN_CARDS`` in all), an item of a list: a short text with an amount and a currency, a link and an image (a listing's or a
    carousel's items; not a page's sections, not a buy box). A box that holds the product's
    ``heading`` is the product's own, however alike its neighbours."""
    own = with_ancestors(heading) if heading is not None else set()
    node = element
    for _ in range(CARD_LEVELS):
        parent = node.parent
        if parent is None or not parent.is_element_node or parent.tag in ("body", "html") or node.mem_id in own:
            return False
        key = _kind(node)
        similar = [child for child in parent.iter() if _kind(child) == key][:MAX_CARDS_READ]
        if len(similar) >= MIN_CARDS and _is_card(node) and sum(map(_is_card, similar)) >= MIN_CARDS:
            return True
        node = parent
    return False



def _is_card(node) -> bool:
    text = node.text()
    return len("".join(text.split())) <= MAX_CARD_TEXT and _money_pattern().search(text) is not None \
        and node.css_first("a[href]") is not None and node.css_first("img") is not None


def _kind(node) -> tuple:
    """A node's tag and first class: a list's items share them (their other classes name each item)."""
    classes = (node.attributes.get("class") or "").split()
    return node.tag, classes[0] if classes else None


def _before(element):
    """The nodes (text included) of ``element``'s earlier siblings, in document order."""
    sibling = element.parent.child
    while sibling is not None and sibling.mem_id != element.mem_id:
        yield from sibling.traverse(include_text=True, skip_empty=True)
        sibling = sibling.next


def _following(element):
    """The nodes (text included) after ``element`` and its descendants, in document order."""
    node = element
    while node is not None:
        sibling = node.next
        while sibling is not None:
            yield from sibling.traverse(include_text=True, skip_empty=True)
            sibling = sibling.next
        node = node.parent


def currency_code(shown: str | None, url: str) -> str | None:
    """ISO 4217 for a printed symbol or code; an ambiguous symbol ($, kr, Rs) by the
    site's country domain, else its usual currency."""
    if not shown:
        return None
    token = shown.strip()
    if len(token) == 3 and token.isalpha() and token.isupper():
        return token
    choices = _currencies().get(token.lower())
    if not choices:
        return None
    country = (urlsplit(url).hostname or "").rsplit(".", 1)[-1]
    return choices.get(country, choices[""])


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
def _money_pattern() -> re.Pattern:
    """An amount touching a currency symbol or code, either side. A symbol of letters ("лв", "kr",
    "zł") counts as a whole word of two or more letters ("лв1201,45", "100 kr"), not inside one."""
    symbols = sorted(_currencies(), key=len, reverse=True)
    marks = "|".join(re.escape(symbol) for symbol in symbols if not symbol.rstrip(".").isalpha())
    words = "|".join(re.escape(symbol) for symbol in symbols if symbol.rstrip(".").isalpha() and len(symbol) > 1)
    return re.compile(rf"(?:{marks}|\b[A-Z]{{3}}|(?<!\w)(?:{words}))\s?\d|\d\s?(?:{marks}|[A-Z]{{3}}\b|(?:{words})(?!\w))",
                      re.I)
