"""``structure_signature`` and ``content_hash`` on every item; with ``CRAWLFORGE_BASELINE``
(a previous run's JSONL feed), ``structure_similarity`` and ``content_changed`` too, and a
stats count of pages whose layout moved below ``CRAWLFORGE_STRUCTURE_ALERT``."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from urllib.parse import urlparse
from urllib.request import url2pathname, urlopen

from itemadapter import ItemAdapter

from crawlforge.extract.structure import page_signature, structural_similarity
from crawlforge.pagework import PageWork
from crawlforge.parsed import item_page
from crawlforge.pipelines.isolation import optional_step

logger = logging.getLogger(__name__)

HASH_SLICE_CHARS = 1024 * 1024


def content_hash(markdown: str, html: str) -> str:
    """sha256 of the main-content markdown (of the HTML when there is none), so ads and
    timestamps outside the content do not count as a change. Hashed a slice at a time: a huge
    page's markdown is never copied whole as bytes."""
    text, digest = markdown or html or "", hashlib.sha256()
    for start in range(0, len(text), HASH_SLICE_CHARS):
        digest.update(text[start : start + HASH_SLICE_CHARS].encode("utf-8"))
    return digest.hexdigest()


def read_baseline(uri: str) -> dict[str, dict]:
    """``{url: record}`` from a JSONL feed at a path, ``file://`` or ``http(s)://`` URI;
    records without a ``structure_signature`` are skipped."""
    scheme = urlparse(uri).scheme
    if scheme in ("http", "https"):
        with urlopen(uri, timeout=60) as response:  # noqa: S310 - the user's own setting
            text = response.read().decode("utf-8")
    else:
        path = url2pathname(urlparse(uri).path) if scheme == "file" else uri
        text = Path(path).read_text(encoding="utf-8")
    records = (json.loads(line) for line in text.splitlines() if line.strip())
    return {r["url"]: r for r in records if isinstance(r, dict) and r.get("url") and r.get("structure_signature")}


class SignaturePipeline:
    def __init__(self, crawler):
        settings = crawler.settings
        self.stats = crawler.stats
        self.work = PageWork.of(crawler)
        self.alert = settings.getfloat("CRAWLFORGE_STRUCTURE_ALERT")
        uri = settings.get("CRAWLFORGE_BASELINE")
        self.baseline = read_baseline(uri) if uri else None
        self.seen: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    @optional_step("structure")
    async def process_item(self, item):
        adapter = ItemAdapter(item)
        html = adapter.get("html")
        if not html:
            return item  # records from APIs (jobs, collection entries) have no page structure
        adapter["structure_signature"] = signature = await self.work.run(html, item_page(item, html).handed, page_signature)
        adapter["content_hash"] = digest = content_hash(adapter.get("markdown") or "", html)
        if self.baseline is not None:
            self.compare(adapter, signature, digest)
        return item

    def compare(self, adapter: ItemAdapter, signature: dict, digest: str) -> None:
        url = adapter["url"]
        self.seen.add(url)
        previous = self.baseline.get(url)
        if previous is None:
            self.stats.inc_value("structure/new")
            return
        similarity = round(structural_similarity(previous["structure_signature"], signature), 4)
        adapter["structure_similarity"] = similarity
        previous_hash = previous.get("content_hash")
        adapter["content_changed"] = None if previous_hash is None else previous_hash != digest
        self.stats.inc_value("structure/compared")
        if adapter["content_changed"]:
            self.stats.inc_value("structure/content_changed")
        if similarity < self.alert:
            self.stats.inc_value("structure/changed")
            logger.warning("Structure changed: %s (similarity %.3f < %.2f)", url, similarity, self.alert)

    def close_spider(self):
        if self.baseline is not None:
            self.stats.set_value("structure/missing", len(self.baseline.keys() - self.seen))
