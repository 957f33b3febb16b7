"""Microdata via extruct, turned into JSON-LD-shaped nodes for the shared normaliser."""

from __future__ import annotations

import re

from extruct.w3cmicrodata import MicrodataExtractor as _ExtructMicrodata

from crawlforge.extract.extractors import schemaorg
from crawlforge.extract.extractors.base import Extractor, Finding, Page

_ITEMSCOPE = re.compile("itemscope", re.I)


class MicrodataExtractor(Extractor):
    name = "microdata"
    priority = 60
    _extruct = _ExtructMicrodata()

    def extract(self, page: Page) -> Finding | None:
        if page.tree is None or not _ITEMSCOPE.search(page.html):
            return None
        items = [as_jsonld(item) for item in self._extruct.extract_items(page.tree, page.url)]
        nodes = list(schemaorg.page_entities(items))
        return Finding(structured_data=schemaorg.fields_from_nodes(nodes, page.url))


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
