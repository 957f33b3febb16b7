"""Plain HTML head tags: <title>, meta description, link rel=canonical.

Ranked with OpenGraph (priority 50) but listed after it, so og:title wins over
<title> when both exist. Read from the page's ``head_tree`` (the first of each there, an
SVG's <title> aside), else from the whole page: a streamed page (React's) writes them late.
"""

from __future__ import annotations

from crawlforge.extract.dom import tag_ids
from crawlforge.extract.extractors import values
from crawlforge.extract.extractors.base import Extractor, Finding, Page

_TAG_IDS = {tag: next(iter(tag_ids((tag,)))) for tag in ("title", "meta", "link")}


class MetaTagsExtractor(Extractor):
    name = "meta"
    priority = 50

    def extract(self, page: Page) -> Finding | None:
        if page.head_tree is None:
            return None
        trees = (page.head_tree, page.dom) if page.head_tree is not page.dom else (page.dom,)
        title, description, canonical = _firsts(trees, (
            ("title", lambda node: not _in_svg(node)),
            ("meta", lambda node: node.attributes.get("name") == "description"),
            ("link", lambda node: node.attributes.get("rel") == "canonical")))
        return Finding(meta=values.compact({
            "title": values.text(" ".join(title.text(deep=True).split())) if title is not None else None,
            "description": values.text(description.attributes.get("content")) if description is not None else None,
            "canonical": values.absolute_url(canonical.attributes.get("href"), page.url) if canonical is not None else None,
        }))


def _firsts(trees: tuple, wanted: tuple) -> list:
    """For each (tag, test) of ``wanted``, the first ``tag`` element that passes ``test``, in the
    first of ``trees`` that has one, else None. A tree's head is looked in first, for all of them
    in one walk: it comes first in document order, and is a few dozen elements, where a search
    of the whole tree (``tags``) walks every node."""
    found = [None] * len(wanted)
    for tree in trees:
        ids = {_TAG_IDS[tag]: number for number, (tag, _) in enumerate(wanted) if found[number] is None}
        for node in tree.head.traverse() if ids and tree.head is not None else ():
            number = ids.get(node.tag_id)
            if number is not None and wanted[number][1](node):
                found[number] = node
                del ids[node.tag_id]
                if not ids:
                    break
        for number in ids.values():
            tag, test = wanted[number]
            found[number] = next(filter(test, tree.tags(tag)), None)
    return found


def _in_svg(node) -> bool:
    while node is not None:
        if node.tag == "svg":
            return True
        node = node.parent
    return False
