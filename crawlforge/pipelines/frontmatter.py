"""The document: YAML frontmatter (url, processed_at in UTC as ``YYYY-MM-DD HH:MM:SS``,
content_length, then the page's own data) above the markdown."""

from __future__ import annotations

from datetime import datetime, timezone

from itemadapter import ItemAdapter

from crawlforge.extract.dom import ParsedPage, utf8_html
from crawlforge.extract.frontmatter import render_document
from crawlforge.parsed import item_page

SIZE_SLICE_CHARS = 1024 * 1024


def utf8_length(text: str, page: ParsedPage | None = None) -> int:
    """``len(text.encode("utf-8"))`` without a copy of a huge page: its length when it is ASCII,
    the length of the UTF-8 its ``page`` made already, else the sum over slices."""
    if text.isascii():
        return len(text)
    utf8 = page.made(utf8_html) if page is not None and page.html is text and not page.huge else None
    if utf8 is not None:
        return len(utf8)
    return sum(len(text[start : start + SIZE_SLICE_CHARS].encode("utf-8", "surrogatepass"))
               for start in range(0, len(text), SIZE_SLICE_CHARS))


def build_frontmatter(adapter: ItemAdapter, include_embedded_state: bool, page: ParsedPage | None = None) -> dict:
    """Keys in the documented order; empty sections are left out. ``page``: the item's page."""
    html = adapter.get("html") or ""
    body = getattr(adapter.item, "_body", None)  # a PDF's
    frontmatter = {
        "url": adapter["url"],
        "processed_at": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "content_length": len(body) if body is not None else utf8_length(html, page),
        **({"content_type": adapter["content_type"], "pdf": adapter["pdf"]} if adapter.get("pdf") else {}),
        **({"page_type": adapter["page_type"]} if adapter.get("page_type") else {}),
        **(adapter.get("structured_data") or {}),
    }
    if adapter.get("template"):
        frontmatter["template"] = adapter["template"]
    if adapter.get("template_data") is not None:
        frontmatter["template_data"] = adapter["template_data"]
    if include_embedded_state and adapter.get("embedded_state"):
        frontmatter["embedded_state"] = adapter["embedded_state"]
    return frontmatter


class FrontmatterPipeline:
    def __init__(self, max_bytes: int, include_embedded_state: bool):
        self.max_bytes = max_bytes
        self.include_embedded_state = include_embedded_state

    @classmethod
    def from_crawler(cls, crawler):
        settings = crawler.settings
        return cls(settings.getint("CRAWLFORGE_FRONTMATTER_MAX_BYTES"),
                   settings.getbool("CRAWLFORGE_FRONTMATTER_EMBEDDED_STATE"))

    def process_item(self, item):
        adapter = ItemAdapter(item)
        if "document" not in adapter.field_names():
            return item  # list entries (jobs, collection products) are records, not documents
        page = item_page(item, adapter["html"]) if adapter.get("html") else None
        frontmatter = build_frontmatter(adapter, self.include_embedded_state, page)
        adapter["document"] = render_document(frontmatter, adapter.get("markdown") or "", self.max_bytes)
        return item
