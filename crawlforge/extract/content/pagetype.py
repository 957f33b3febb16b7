"""What kind of page this is, from the page's own data and its structure.

A reader comes to each kind for something else: an article's text, a product's facts, a
listing's cards, a thread's posts, a docs page's body and code, a service page's sections, a
hub's link lists. `maincontent` keeps what the kind calls for.

Two steps on one lexbor tree: `declared_type` reads what the page says of itself (JSON-LD
`@type`, microdata `itemtype`, `og:type`) before pruning strips the scripts; `page_type` then
weighs that against the pruned body's structure (repeated cards, code blocks, prose, links).
"""

import re
from collections import Counter
from typing import NamedTuple

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.content.nodes import class_of, holds_link
from crawlforge.extract.content.policy import LIMITS
from crawlforge.extract.dom import tag_ids
from crawlforge.extract.words import pattern

PAGE_TYPES = ("article", "product", "listing", "documentation", "forum", "service", "hub", "other")

_LD_TYPE = re.compile(r'"@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?([A-Za-z]+)"')
_FORUM = frozenset({"DiscussionForumPosting", "QAPage"})
_LISTING = frozenset({"CollectionPage", "SearchResultsPage", "ItemList", "OfferCatalog"})
_ARTICLE = frozenset({"Article", "NewsArticle", "BlogPosting", "Report", "ScholarlyArticle", "LiveBlogPosting",
                      "OpinionNewsArticle", "ReportageNewsArticle", "AnalysisNewsArticle"})
_DOCS = frozenset({"TechArticle", "APIReference", "HowTo"})
_SERVICE = frozenset({"Service", "LocalBusiness", "ProfessionalService", "FinancialService",
                      "LegalService", "MedicalBusiness", "HomeAndConstructionBusiness", "Dentist"})
_DOCS_PATH = re.compile(rf"/(?:{pattern('docs_paths').pattern})(?:/|$|\.|-)", re.IGNORECASE)
_POST_PATH = re.compile(rf"/(?:{pattern('post_paths').pattern})(?:/|$|\.)|/(?:19|20)\d\d/", re.IGNORECASE)
"""A post's address: a blog's or a newsroom's folder, or a year folder (`/2025/12/`)."""


def schema_types(tree: LexborHTMLParser) -> Counter:
    """How often each schema.org type is declared (JSON-LD, microdata, `og:type` as `og:VALUE`)."""
    types, _ = declarations(tree)
    return types


def declarations(tree: LexborHTMLParser) -> tuple[Counter, list]:
    """(`schema_types`, the page's `h1`s: what it says it is and the titles it shows), from one
    walk of the page, which costs more than the tests of its selectors."""
    found, typed_ones, h1s = Counter(), set(), []
    for node in tree.css(", ".join(_DECLARING) + ", h1"):  # one walk of the page for the four
        attributes = node.attributes
        tag, typed = node.tag, "itemtype" in attributes  # a script or meta with no itemtype matched its own
        if typed:  # lexbor lists a node once for each selector it matches
            if node.mem_id in typed_ones:
                continue
            typed_ones.add(node.mem_id)
        if tag == "h1":
            h1s.append(node)
        if tag == "script" and (not typed or node.css_matches(_DECLARING[0])):
            found.update(_LD_TYPE.findall(node.text() or ""))
        if typed:
            found[(attributes.get("itemtype") or "").rstrip("/").rsplit("/", 1)[-1]] += 1
        if tag == "meta" and (not typed or node.css_matches(_DECLARING[2])):
            found["og:" + (attributes.get("content") or "").strip().lower()] += 1
    return found, h1s


_DECLARING = ('script[type="application/ld+json"]', "[itemtype]", 'meta[property="og:type"]')


def declared_type(tree: LexborHTMLParser) -> str | None:
    """The kind the page's own data states, or None. A page declaring one product is a product
    page; one declaring several, a list of items or a collection is a listing (a category page
    carries product JSON too)."""
    return declared_kind(schema_types(tree))


def declared_kind(types: Counter) -> str | None:
    """`declared_type` from the page's `schema_types`."""
    if types.keys() & _FORUM or types["Comment"] >= LIMITS.declared_comments:
        return "forum"
    products = max(types["Product"], types["ProductGroup"])
    if types.keys() & _LISTING and types["Product"] != 1 or products >= LIMITS.declared_products \
            or types["og:product.group"]:
        return "listing"
    if products or types["og:product"]:
        return "product"
    if types.keys() & _DOCS:
        return "documentation"
    if types.keys() & _ARTICLE:
        return "article"
    if types.keys() & _SERVICE:
        return "service"
    return None


def page_type(body, declared: str | None, url: str = "", tagged: bool = False,
              total: int | None = None) -> tuple[str, list]:
    """The page's kind from its pruned body, its declared kind and its URL path, and the
    largest run of sibling cards (a listing's items). `tagged`: the product it declares is only
    an `og:type` (`tagged_only`). `total`: the length of the body's text, when known."""
    if body is None:
        return "other", []
    shape = _shape(body, total)
    return _kind(shape, declared, url, tagged), shape["members"]


def tagged_only(types: Counter) -> bool:
    """A product declared by nothing but `og:type`, no product data: a shop's theme may tag
    every page so, its category pages too."""
    return bool(types["og:product"]) and not (types["Product"] or types["ProductGroup"])


def _kind(shape: dict, declared: str | None, url: str, tagged: bool = False) -> str:
    cards = shape["cards"] >= LIMITS.page_cards and shape["card_share"]
    if tagged and cards >= LIMITS.card_share:
        return "listing"  # a category page tagged as a product: its item cards hold most of its text
    if declared in ("forum", "product", "listing"):
        return declared
    posted = _POST_PATH.search(url or "") is not None  # a post's code blocks: an article about code
    if shape["code"] >= LIMITS.code_blocks or declared == "documentation" or _DOCS_PATH.search(url or ""):
        if declared == "documentation" or not posted and (shape["code"] or shape["prose"] >= LIMITS.docs_prose):
            return "documentation"
    if declared != "article" and cards >= LIMITS.card_share and not (shape["sections"] and _prose(shape)):
        return "listing"
    if declared == "article" or _prose(shape) or posted and shape["code"] >= LIMITS.code_blocks:
        return "article"
    if cards >= LIMITS.some_card_share:
        return "listing"
    if shape["links"] >= LIMITS.link_share:  # most of its text is links
        return "hub"
    if shape["headings"] >= LIMITS.sections or declared == "service":
        return "service"
    return "other"


def _prose(shape: dict) -> bool:
    """Paragraphs of prose hold most of the page's text: an article's shape."""
    return shape["prose_share"] >= LIMITS.prose_share and shape["prose"] >= LIMITS.article_paragraphs


def _shape(body, total: int | None = None) -> dict:
    """Counts of the structural signals: code blocks, prose paragraphs and their share of the
    text, sections, link share, and the largest group of repeated sibling cards."""
    total = (len(body.text(deep=True, strip=True, skip_empty=True)) if total is None else total) or 1
    found, parents = {"p": [], "a": [], "pre": [], "h2": [], "h3": []}, []
    for node in body.css("p, a, pre, h2, h3, " + _PARENTS):  # one walk of the page for the five and the cards
        tag = node.tag
        if tag in found:
            found[tag].append(node)
        else:
            parents.append(node)
    prose = [len(p.text(deep=True, strip=True)) for p in found["p"]]
    prose = [size for size in prose if size >= LIMITS.prose_paragraph]
    links = sum(len(a.text(deep=True, strip=True)) for a in found["a"])
    cards = _cards(body, parents)
    return {"members": cards.members, "code": len(found["pre"]), "prose": len(prose),
            "prose_share": sum(prose) / total, "headings": len(found["h2"]) + len(found["h3"]),
            "links": links / total, "cards": cards.count, "card_share": cards.text / total,
            "sections": _sections(cards.members)}


def _sections(members: list) -> bool:
    """A run of `<section>`s most of which open on a heading that links nowhere: the sections
    of one text (their headings title the text below them), where an item card's title links
    to the item."""
    if not members or members[0].tag != "section":
        return False
    headed = 0
    for member in members:
        heading = member.css_first(_HEADING_TAGS)
        headed += heading is not None and not holds_link(heading)
    return headed * 2 > len(members)


_HEADING_TAGS = "h1, h2, h3, h4, h5, h6"


_NOT_CARDS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6", "br", "span", "strong", "em", "b", "i"})
"""Inline runs and paragraphs: an article's linked paragraphs are no cards."""
_NOT_CARD_IDS = tag_ids(_NOT_CARDS)


_PARENTS = "ul, ol, div, section, main, article, tbody"
"""Elements whose children may be a run of cards."""


def sibling_groups(body, least: int = 2, parents: list | None = None):
    """Runs of `least` element siblings or more sharing tag and first class word (cards, posts,
    results), per parent. `parents`: the body's `_PARENTS`, when found already."""
    for parent in body.css(_PARENTS) if parents is None else parents:
        children, tags = [], {}
        for child in parent.iter():  # lexbor passes over the text nodes
            if child.is_element_node and (tag := child.tag_id) not in _NOT_CARD_IDS:  # ints: no name decoded
                children.append((tag, child))
                tags[tag] = tags.get(tag, 0) + 1
        if len(children) < least:
            continue
        groups = {}
        for tag, child in children:
            if tags[tag] >= least:  # fewer children of a tag make no run: their class is not read
                groups.setdefault((tag, _first_class(child)), []).append(child)
        for members in groups.values():
            if len(members) >= least:
                yield parent, members


def _first_class(node) -> str:
    """The first word of the class but one that numbers the item: cards of one run share it,
    while the rest names each item (WooCommerce's `product type-product post-123 instock ...`)."""
    words = class_of(node).split()  # not ``attributes``: a dict of them all
    for word in words:
        if not _NUMBERED(word):
            return word
    return words[0] if words else ""


_NUMBERED = re.compile(r"\d").search
"""A class word with a figure numbers the item (WordPress's `post-25966 post type-post ...`):
the cards of one run share the words after it."""


class Cards(NamedTuple):
    """A run of linked sibling cards."""

    count: int
    text: int
    """Characters of text they hold together."""
    members: list


def _cards(body, parents: list) -> Cards:
    """The largest run of siblings that each hold a link: product tiles, search results,
    teasers. `parents`: the body's `_PARENTS`."""
    best = Cards(0, 0, [])
    for _, members in sibling_groups(body, LIMITS.card_run, parents):
        if len(members) <= best.count:
            continue
        linked = [m for m in members if holds_link(m)]
        if len(linked) * 2 >= len(members) and len(linked) > best.count:
            best = Cards(len(linked), sum(len(m.text(deep=True, strip=True, skip_empty=True)) for m in linked), linked)
    return best
