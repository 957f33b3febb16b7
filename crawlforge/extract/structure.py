"""Structure signatures: a page's shape in a few dozen keys, to notice redesigns.

A signature is the sorted tag vocabulary plus a histogram of element counts by depth
(html = 1, head/body = 2, ...). Both sides of a comparison are parsed by the same
browser-like HTML5 parser (lexbor), so inserted html/head/body count the same way.
"""

from __future__ import annotations

from operator import attrgetter

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.dom import ParsedPage, parse_page

_TAG = attrgetter("tag")  # a C call per element, not a generator's step


def structure_signature(html: str, root: str | None = None) -> dict:
    """Return ``{"tags": [...], "depths": {"1": n, ...}}`` for the document.

    With ``root`` (a CSS selector), only the descendants of its first match count,
    at their absolute depths, so changes outside that region leave the score alone.
    Nesting is capped as for the markdown (``dom.cap_nesting``): depths past the cap
    are not counted, and a hostile depth costs no more than a real one. ``html`` may be the page
    itself (``ParsedPage``: its tree, a huge page's outline).
    """
    if isinstance(html, ParsedPage):
        return tree_signature(html.tree, root)
    return tree_signature(parse_page(html or ""), root)


def tree_signature(tree: LexborHTMLParser, root: str | None = None) -> dict:
    """``structure_signature`` of a parsed page (``ParsedPage.tree``), which it does not change."""
    document = tree.root.parent if tree.root is not None else None
    start, depth = document, 0
    if root is not None:
        start = tree.css_first(root)
        depth = _depth(start) if start is not None else 0
    depths: dict[str, int] = {}
    tags: set[str] = set()
    for level, elements in enumerate(_generations(start) if start is not None else (), depth + 1):
        depths[str(level)] = len(elements)
        tags.update(map(_TAG, elements))
    return {"tags": sorted(tags), "depths": depths}


def page_signature(page: ParsedPage) -> dict:
    """``tree_signature`` of a page's shared parse, for ``page.shared``: made before the markdown
    takes the tree to prune it (``ParsedPage.take``), or when the signature is asked for."""
    return tree_signature(page.tree)


def _depth(node) -> int:
    """Number of ancestors up to and including the document node."""
    depth = 0
    while node.parent is not None:
        depth, node = depth + 1, node.parent
    return depth


def _generations(node):
    """The elements below ``node`` one depth at a time (children, grandchildren...): counting a
    whole generation at once costs a third less than walking the tree element by element."""
    generation = [node]
    while generation := [child for parent in generation for child in parent.iter() if child.is_element_node]:
        yield generation


def structural_similarity(a: dict | None, b: dict | None) -> float:
    """Mean of tag-vocabulary Jaccard and depth-histogram overlap, in 0..1.

    A missing signature scores 0; a signature stored without ``depths`` (an old
    baseline) degrades to at most 0.5 instead of failing.
    """
    if not a or not b:
        return 0.0
    tags_a, tags_b = set(a.get("tags") or []), set(b.get("tags") or [])
    if not tags_a and not tags_b:
        return 1.0
    if not tags_a or not tags_b:
        return 0.0
    jaccard = len(tags_a & tags_b) / len(tags_a | tags_b)
    score = (jaccard + _depth_similarity(a.get("depths"), b.get("depths"))) / 2
    return min(1.0, max(0.0, score))


def _depth_similarity(a: dict | None, b: dict | None) -> float:
    """Shared / total element counts over the union of depths (min over max)."""
    if a is None or b is None:
        return 0.0
    a = {str(k): v for k, v in a.items()}
    b = {str(k): v for k, v in b.items()}
    keys = a.keys() | b.keys()
    total = sum(max(a.get(k, 0), b.get(k, 0)) for k in keys)
    if not keys or total == 0:
        return 1.0
    return sum(min(a.get(k, 0), b.get(k, 0)) for k in keys) / total
