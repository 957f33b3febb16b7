"""JSON-LD: extruct's reading of each block of the shared lexbor parse, with a per-block
tolerant fallback.

extruct's extractor stops at the first block it cannot decode and loses the good
blocks around it; then each block is read on its own, repaired with json-repair
when it is small enough, and skipped with a warning otherwise.
"""

from __future__ import annotations

import json
import re
import time

import json_repair
import jstyleson
from extruct.jsonld import HTML_OR_JS_COMMENTLINE

from crawlforge.extract.extractors import schemaorg
from crawlforge.extract.extractors.base import CONTROL_CHARACTERS, Extractor, Finding, Page

# json-repair is pure Python and superlinear (a 64 KiB block of bare words: 0.6 s, 200 KiB: ~6 s):
# larger blocks are skipped, and once a page's repairs took REPAIR_BUDGET_SECONDS its next broken
# blocks are too, so no page holds the crawl for long.
REPAIR_MAX_CHARS = 64 * 1024
# A block larger than this is no page's own description (real ones stay under a few hundred KiB):
# it is skipped with a warning, whatever it holds, so one page cannot make the merge read 10 MB.
BLOCK_MAX_CHARS = 2 * 1024 * 1024
REPAIR_BUDGET_SECONDS = 1.0
_COMMENTS = re.compile(r"<!--|-->|^\s*//[^\n]*$", re.M)


class JsonLdExtractor(Extractor):
    name = "json-ld"
    priority = 100

    def extract(self, page: Page) -> Finding | None:
        if not page.holds("ld+json"):
            return None
        blocks = page.script_texts("application/ld+json")
        if not blocks:
            return None
        warnings: list = []
        for number, block in enumerate(blocks, 1):
            if len(block) > BLOCK_MAX_CHARS:
                warnings.append(f"JSON-LD block {number} is too large to read ({len(block)} chars); skipped.")
        blocks = [block if len(block) <= BLOCK_MAX_CHARS else "" for block in blocks]  # numbers kept
        try:
            items = [item for block in blocks if block.strip() for item in extruct_items(block) if item]
        except Exception:  # noqa: BLE001 - extruct raises whatever its decoders raise
            items = list(tolerant_items(blocks, warnings))
        nodes = list(schemaorg.page_entities(items))
        return Finding(structured_data=schemaorg.fields_from_nodes(nodes, page.url, warnings), warnings=warnings)


def extruct_items(block: str):
    """The items extruct's JSON-LD reader takes from one block (it raises on a broken one)."""
    try:
        data = json.loads(block, strict=False)
    except ValueError:  # sometimes leading HTML or JavaScript comments
        data = jstyleson.loads(HTML_OR_JS_COMMENTLINE.sub("", block), strict=False)
    if isinstance(data, list):
        yield from data
    elif isinstance(data, dict):
        yield data


def tolerant_items(blocks: list[str], warnings: list):
    """Every decodable top-level item of every JSON-LD block, in document order."""
    deadline = time.process_time() + REPAIR_BUDGET_SECONDS
    for number, block in enumerate(blocks, 1):
        data = _decode(block, number, warnings, deadline)
        yield from (data if isinstance(data, list) else [data] if isinstance(data, dict) else [])


def _decode(text: str, number: int, warnings: list, deadline: float):
    if not text.strip():
        return None
    cleaned = CONTROL_CHARACTERS.sub(" ", _COMMENTS.sub("", text))
    try:
        return json.loads(cleaned, strict=False)
    except (ValueError, RecursionError):
        pass
    if len(cleaned) > REPAIR_MAX_CHARS:
        warnings.append(f"JSON-LD block {number} is not valid JSON and too large to repair ({len(cleaned)} chars); skipped.")
        return None
    if time.process_time() > deadline:
        warnings.append(f"JSON-LD block {number} is not valid JSON and the page's repair time "
                        f"({REPAIR_BUDGET_SECONDS:g} s) is spent; skipped.")
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
