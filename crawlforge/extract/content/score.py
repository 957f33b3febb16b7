"""Step 2, score, as readability does: every block of text votes for its ancestors with a weight
that grows with its length and commas and shrinks with its link density."""

import re
from dataclasses import dataclass

from crawlforge.extract.content.chrome import name_weight
from crawlforge.extract.content.nodes import BLOCK_TAGS, link_density, LINK_ID
from crawlforge.extract.content.policy import LIMITS
from crawlforge.extract.dom import tag_ids


@dataclass(slots=True)
class Block:
    """A block of text: the nearest block element around a run of text, and what its runs hold
    (summed run by run)."""

    node: object
    size: int = 0
    """Characters of text."""
    links: int = 0
    """Characters of them inside links (all of them for a block inside a link: a teaser card)."""
    commas: int = 0


@dataclass(slots=True)
class Candidate:
    """A container the text blocks voted for, and its score (summed vote by vote)."""

    node: object
    score: float


@dataclass(slots=True)
class Text:
    """The text under an element: its length, the part inside links, its commas (summed block by
    block)."""

    size: int = 0
    links: int = 0
    commas: int = 0


NO_TEXT = Text()
"""An element outside the content read, or holding no text; read only."""


_BLOCK_IDS = tag_ids(BLOCK_TAGS)

_LINKED_BLOCK_IDS = tag_ids("div p li h1 h2 h3 h4 h5 h6 section article td".split())
_CONTAINERS = frozenset({"div", "section", "article", "main", "td", "body", "form"})


def text_blocks(root) -> dict:
    """Text length, link-text length and commas of each nearest block ancestor of text."""
    blocks = {}
    for node in root.traverse(include_text=True, skip_empty=True):  # blank runs: no text
        if not node.is_text_node:  # not its tag: an element's is a new string each time
            continue
        text = node.text_content
        size = len(text.strip()) if text else 0
        if not size:
            continue
        parent, in_link = node.parent, False
        while parent is not None and (tag := parent.tag_id) not in _BLOCK_IDS:  # ints: no name decoded
            in_link = in_link or tag == LINK_ID
            parent = parent.parent
        if parent is None:
            continue
        mem_id = parent.mem_id
        entry = blocks.get(mem_id)
        if entry is None:
            entry = blocks[mem_id] = Block(parent)
        entry.size += size
        if in_link:
            entry.links += size
        entry.commas += text.count(",") + (0 if text.isascii() else text.count("，") + text.count("、"))
    for link in root.css("a"):  # teaser cards: a whole block inside a link (a walk of each link's few
        for block in link.traverse():  # nodes: `a div, a p, ...` tests a dozen selectors on every node)
            if block.tag_id in _LINKED_BLOCK_IDS and (entry := blocks.get(block.mem_id)) is not None:
                entry.links = entry.size
    return blocks


def score_candidates(blocks: dict, memo) -> dict:
    """Readability's vote: each text block adds to its container and two more ancestors.
    `memo`: the page's `memo.PageMemo`."""
    scores, up = {}, {}  # up: mem_id -> parent, each read once
    for block in blocks.values():
        size = block.size
        if size < LIMITS.scored_block:
            continue
        points = (1 + block.commas + min(size / LIMITS.point_text, LIMITS.length_points)) * (1 - block.links / size)
        node = block.node
        ancestor = node if node.tag in _CONTAINERS else node.parent
        for divisor in range(1, LIMITS.score_levels + 1):
            if ancestor is None:
                break
            mem_id = ancestor.mem_id
            entry = scores.get(mem_id)
            if entry is None:
                tag = ancestor.tag
                if tag == "html":  # never scored, so a scored node is no html
                    break
                weight = LIMITS.tag_weights.get(tag, 0) + _weight(ancestor, memo)
                entry = scores[mem_id] = Candidate(ancestor, weight)
            entry.score += points / divisor
            ancestor = up[mem_id] if mem_id in up else up.setdefault(mem_id, ancestor.parent)
    return scores


def _weight(node, memo) -> int:
    """The node's class and id weight (`hint_weight`) and its body hint (`body_hint`), from
    one read of its attributes."""
    attributes = node.attributes
    return name_weight(attributes.get("class") or "", attributes.get("id"), memo.hints) \
        + _body_named(attributes, memo.body)


def body_hint(node, memo) -> int:
    """The page names its article body: schema.org articleBody or a body/content class.
    `memo`: the page's `memo.PageMemo`."""
    return _body_named(node.attributes, memo.body)


def _body_named(attributes: dict, known: dict) -> int:
    """`body_hint` of a node's attributes: a dict of them all, for three (``attrs.get`` of a
    name it lacks costs more). `known`: the page's memo of `names_body`."""
    if attributes.get("itemprop") == "articleBody" or known[attributes.get("class") or ""] \
            or known[attributes.get("id") or ""]:
        return LIMITS.class_weight
    return 0


def names_body(hint: str) -> bool:
    """`_BODY_NAMES` in a class or an id (no name spans a blank)."""
    return _BODY_NAMES.search(hint.lower()) is not None


def top_candidate(scores: dict):
    """Best container after link-density discount, moved up while its parent scores higher."""
    ranked = sorted(scores.values(), key=lambda e: e.score, reverse=True)[:LIMITS.top_candidates]
    best, best_score = None, 0.0
    for candidate in ranked:
        node, score = candidate.node, candidate.score
        if score <= best_score:
            continue  # the discount only brings it closer to 0, never above the best
        score *= 1 - link_density(node)
        if score > best_score:
            best, best_score = node, score
    if best is None:
        return None, 0.0
    parent = best.parent
    while parent is not None and parent.tag not in ("body", "html"):
        entry = scores.get(parent.mem_id)
        if entry is None or entry.score < best_score * LIMITS.parent_score:
            break
        if entry.score > best_score:
            best, best_score = parent, entry.score
        parent = parent.parent
    return best, best_score


def with_siblings(best, best_score: float, scores: dict) -> list:
    """The top container plus siblings that look like more of the same content."""
    parent = best.parent
    if parent is None or best.tag == "body":
        return [best]
    threshold = max(LIMITS.sibling_score, best_score * LIMITS.sibling_share)
    best_class = best.attributes.get("class")
    kept = []
    node = parent.child
    while node is not None:
        if node.is_element_node:
            if node.mem_id == best.mem_id or _related(node, best_class, threshold, scores):
                kept.append(node)
        node = node.next
    return kept


def _related(node, best_class, threshold: float, scores: dict) -> bool:
    entry = scores.get(node.mem_id)
    bonus = threshold if best_class and node.attributes.get("class") == best_class else 0.0
    if entry is not None and entry.score + bonus >= threshold:
        return True
    if node.tag != "p":
        return False
    text = node.text(deep=True, strip=True)
    density = link_density(node)
    if len(text) > LIMITS.line:
        return density < LIMITS.sibling_links
    return density == 0 and bool(re.search(r"\.( |$)", text))


_BODY_NAMES = re.compile(r"(?:article|entry|post|story|news|blog)[-_]*(?:body|content|text)|"
                         r"(?:body|content)[-_]*(?:text|article|body)|field-*name-*body")


def subtree_text(blocks: dict, roots: list) -> dict:
    """Text length, link-text length and commas of every element under `roots` (by mem_id)."""
    root_ids = {root.mem_id for root in roots}
    sums, up, depth, outside = {}, {}, {}, set()  # up: mem_id -> its parent's (None for a root)
    for block_id, block in blocks.items():  # keyed by their mem_ids
        path, node, mem_id = [], block.node, block_id  # each node read once, for the first block below it
        while mem_id not in up and mem_id not in outside:
            path.append(mem_id)
            if mem_id in root_ids:
                break
            node = node.parent
            if node is None:
                break
            mem_id = node.mem_id
        if node is None or mem_id in outside:
            outside.update(path)
            continue
        if path:
            above, level = (None, -1) if path[-1] in root_ids else (mem_id, depth[mem_id])
            for mem_id in reversed(path):
                up[mem_id], depth[mem_id], sums[mem_id] = above, level + 1, Text()
                above, level = mem_id, level + 1
        entry = sums[block_id]
        entry.size += block.size
        entry.links += block.links
        entry.commas += block.commas
    for mem_id in sorted(sums, key=depth.__getitem__, reverse=True):  # each node's sums go up once
        parent = up[mem_id]
        if parent is not None:
            own, entry = sums[mem_id], sums[parent]
            entry.size += own.size
            entry.links += own.links
            entry.commas += own.commas
    return sums
