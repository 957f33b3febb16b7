"""JSON-LD: extruct on the shared tree, with a per-block tolerant fallback.

extruct's extractor stops at the first block it cannot decode and loses the good
blocks around it; then each block is read on its own, repaired with json-repair
when it is small enough, and skipped with a warning otherwise.
"""

from __future__ import annotations

import json
import re

import json_repair
import lxml.etree
from extruct.jsonld import JsonLdExtractor as _ExtructJsonLd

from crawlforge.extract.extractors import schemaorg
from crawlforge.extract.extractors.base import CONTROL_CHARACTERS, Extractor, Finding, Page

REPAIR_MAX_CHARS = 1024 * 1024  # 1 MiB: json-repair is pure Python and slow on huge blocks
_SCRIPTS = lxml.etree.XPath('descendant-or-self::script[@type="application/ld+json"]')
_COMMENTS = re.compile(r"<!--|-->|^\s*//[^\n]*$", re.M)


class JsonLdExtractor(Extractor):
    name = "json-ld"
    priority = 100
    _extruct = _ExtructJsonLd()

    def extract(self, page: Page) -> Finding | None:
        if not page.worth_parsing("ld+json") or page.tree is None:
            return None
        warnings: list = []
        try:
            items = self._extruct.extract_items(page.tree, base_url=page.url)
        except Exception:  # noqa: BLE001 - extruct raises whatever its decoders raise
            items = list(tolerant_items(page.tree, warnings))
        nodes = list(schemaorg.page_entities(items))
        return Finding(structured_data=schemaorg.fields_from_nodes(nodes, page.url), warnings=warnings)


def tolerant_items(tree, warnings: list):
    """Every decodable top-level item of every JSON-LD block, in document order."""
    for number, script in enumerate(_SCRIPTS(tree), 1):
        data = _decode(script.xpath("string()"), number, warnings)
        yield from (data if isinstance(data, list) else [data] if isinstance(data, dict) else [])


def _decode(text: str, number: int, warnings: list):
    cleaned = CONTROL_CHARACTERS.sub(" ", _COMMENTS.sub("", text))
    try:
        return json.loads(cleaned, strict=False)
    except (ValueError, RecursionError):
        pass
    if len(cleaned) > REPAIR_MAX_CHARS:
        warnings.append(f"JSON-LD block {number} is not valid JSON and too large to repair ({len(cleaned)} chars); skipped.")
        return None
    try:
        data = json_repair.loads(cleaned)
    except (ValueError, RecursionError):
        data = None
    if isinstance(data, (dict, list)) and data:
        warnings.append(f"JSON-LD block {number} is not valid JSON; read after repair.")
        return data
    warnings.append(f"JSON-LD block {number} is not valid JSON; skipped.")
    return None
