"""Microdata via extruct, turned into JSON-LD-shaped nodes for the shared normaliser."""

from __future__ import annotations

import re
from collections import defaultdict

import lxml.etree
from extruct.w3cmicrodata import MicrodataExtractor as _ExtructMicrodata

from crawlforge.extract.dom import folded_html
from crawlforge.extract.extractors import schemaorg
from crawlforge.extract.extractors.base import CONTROL_CHARACTERS, Extractor, Finding, Page, parse_tree

_MARKERS = ("itemscope", "itemScope")  # plain `in` is ~20x faster than a re.I search
_READ_TYPES = schemaorg.PRODUCT_TYPES | schemaorg.ARTICLE_TYPES
# An itemtype attribute as the page's case-folded UTF-8 writes it (a superset: in comments and
# scripts too, and any attribute whose name ends so).
_ITEMTYPE = re.compile(rb"""itemtype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""")


class _TextContentMicrodata(_ExtructMicrodata):
    """extruct's reader, minus most of its cost. It walks the whole tree twice for the items,
    then each item's subtree twice for its properties; here one walk finds both, and each
    property is filed under its nearest item. It runs html_text over a cleaned deep copy of
    every property node, article bodies and reviews included; here only the properties the
    normaliser reads get text; only a description keeps html_text's line layout, the others
    are their DOM textContent with spaces collapsed. One instance reads one page."""

    _text = lxml.etree.XPath("descendant-or-self::text()[not(parent::script or parent::style)]")
    # (an attribute test per element costs more than the attribute axis)
    _marked = lxml.etree.XPath("(descendant-or-self::*/@itemscope | descendant-or-self::*/@itemprop)/..")
    _item_above = lxml.etree.XPath("ancestor::*[@itemscope][1]")

    def extract_items(self, document, base_url):
        root = document.getroottree().getroot()
        marked = self._marked(root)  # the elements are kept: their proxies stay the same objects
        scopes = [node for node in marked if node.get("itemscope") is not None]
        self._properties = defaultdict(list)
        for node in marked:
            if node.get("itemprop") is not None and (above := self._item_above(node)):
                self._properties[above[0]].append(node)
        itemids = {node: index for index, node in enumerate(scopes, 1)}
        items_seen: set = set()
        read = (self._extract_item(node, items_seen=items_seen, base_url=base_url, itemids=itemids)
                for node in (scopes if document is root else self._xp_item(document)))
        return [item for item in read if item]

    def _extract_properties(self, node, items_seen, base_url, itemids):
        for prop in self._properties.get(node, ()):
            yield from self._extract_property(prop, items_seen=items_seen, base_url=base_url, itemids=itemids)

    def _extract_textContent(self, node):
        names = (node.get("itemprop") or "").split()
        if schemaorg.TEXT_PROPERTIES.isdisjoint(names):
            return ""
        if "description" in names and len(node):
            return super()._extract_textContent(node)
        return " ".join("".join(self._text(node)).split())


class MicrodataExtractor(Extractor):
    name = "microdata"
    priority = 60

    def extract(self, page: Page) -> Finding | None:
        if b"itemscope" not in page.parsed_page.shared(folded_html) or not page.worth_parsing_for(
                "[itemscope]", *_MARKERS) or not _names_read_type(page) or page.tree is None:
            return None  # no item without the word, in any case: a scan for it costs less than a walk of the tree
        try:
            raw = _TextContentMicrodata().extract_items(page.tree, page.url)
        except ValueError:  # extruct's cleaner cannot re-insert text holding control characters
            raw = _TextContentMicrodata().extract_items(parse_tree(CONTROL_CHARACTERS.sub(" ", page.outline)), page.url)
        items = [as_jsonld(item) for item in raw]
        nodes, warnings = list(schemaorg.page_entities(items)), []
        return Finding(structured_data=schemaorg.fields_from_nodes(nodes, page.url, warnings), warnings=warnings)


def _names_read_type(page: Page) -> bool:
    """Whether an itemtype of the page may name a product or an article, the only items the
    normaliser reads (``schemaorg.fields_from_nodes``): most microdata is a theme's WebPage,
    WPHeader or BreadcrumbList, and extruct's walk of it is not free. A value with an entity is
    not decoded here: it counts."""
    for match in _ITEMTYPE.finditer(page.parsed_page.shared(folded_html)):
        value = next(group for group in match.groups() if group is not None)
        if b"&" in value or schemaorg.types({"@type": value.decode("utf-8", "replace").split()}) & _READ_TYPES:
            return True
    return False


def as_jsonld(value, depth: int = 0):
    """extruct's ``{"type", "properties"}`` items as ``{"@type", ...}`` dicts."""
    if depth > 64:
        return None
    if isinstance(value, list):
        return [as_jsonld(v, depth + 1) for v in value]
    if not isinstance(value, dict) or "properties" not in value:
        return value
    node = {key: as_jsonld(v, depth + 1) for key, v in value["properties"].items()}
    node["@type"] = value.get("type")
    return node
