"""Plain HTML head tags: <title>, meta description, link rel=canonical.

Ranked with OpenGraph (priority 50) but listed after it, so og:title wins over
<title> when both exist. Read from the page's ``head_tree`` (the first of each there, an
SVG's <title> aside), else from the whole page: a streamed page (React's) writes them late.
"""

from __future__ import annotations

from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page


class MetaTagsExtractor(Extractor):
    name = "meta"
    priority = 50

    def extract(self, page: Page) -> Finding | None:
        if page.head_tree is None:
            return None
        trees = (page.head_tree, page.dom) if page.head_tree is not page.dom else (page.dom,)
        title = next((node for tree in trees for node in tree.tags("title") if not _in_svg(node)), None)
        description = _first(trees, "meta", "name", "description")
        canonical = _first(trees, "link", "rel", "canonical")
        return Finding(meta=values.compact({
            "title": values.text(" ".join(title.text(deep=True).split())) if title is not None else None,
            "description": values.text(description.attributes.get("content")) if description is not None else None,
            "canonical": values.absolute_url(canonical.attributes.get("href"), page.url) if canonical is not None else None,
        }))


def _first(trees: tuple, tag: str, name: str, value: str):
    """The first ``tag`` element whose attribute ``name`` is exactly ``value``, in the first of
    ``trees`` that has one."""
    return next((node for tree in trees for node in tree.tags(tag) if node.attributes.get(name) == value), None)


def _in_svg(node) -> bool:
    while node is not None:
        if node.tag == "svg":
            return True
        node = node.parent
    return False
