"""Plain HTML head tags: <title>, meta description, link rel=canonical.

Ranked with OpenGraph (priority 50) but listed after it, so og:title wins over
<title> when both exist.
"""

from __future__ import annotations

from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page


class MetaTagsExtractor(Extractor):
    name = "meta"
    priority = 50

    def extract(self, page: Page) -> Finding | None:
        root = page.head_root
        if root is None:
            return None
        title = root.find(".//title")
        description = root.find('.//meta[@name="description"]')
        canonical = root.find('.//link[@rel="canonical"]')
        return Finding(meta=values.compact({
            "title": values.text(" ".join(title.text_content().split())) if title is not None else None,
            "description": values.text(description.get("content")) if description is not None else None,
            "canonical": values.absolute_url(canonical.get("href"), page.url) if canonical is not None else None,
        }))
