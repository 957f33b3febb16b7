"""Main-content identification on a lexbor tree: prune site chrome, then score text blocks.

The scoring follows readability: every block of text votes for its ancestors with a weight that
grows with its length and commas and shrinks with its link density; the best-voted container,
widened to its related siblings, is the main content. Pruning before scoring uses the page's
own words (semantic tags, class and id names) for navigation, comments, share bars and the like.
"""

import re

from selectolax.lexbor import LexborHTMLParser

JUNK_TAGS = ["script", "style", "noscript", "template", "iframe", "object", "embed", "canvas",
             "svg", "button", "input", "select", "textarea", "option", "label", "dialog", "link",
             "meta", "nav", "aside", "footer", "menu"]
"""Tags that never hold main content (their text is code, controls or chrome)."""

BLOCK_TAGS = frozenset("""address article aside blockquote body center dd details dialog div dl dt
fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main nav ol p pre
section summary table tbody td tfoot th thead tr ul""".split())

_NEGATIVE = re.compile(
    r"(?:^|[^a-z])(?:comment|comments|commentlist|disqus|share|sharing|sharebar|social|socials|"
    r"related|relatedposts|recommend\w*|newsletter|subscribe|subscription|cookie\w*|consent|gdpr|"
    r"banner|breadcrumbs?|sidebar|widget\w*|promo\w*|sponsor\w*|advert\w*|ads?|adsense|adslot|"
    r"outbrain|taboola|plista|popup|modal|overlay|paywall|signup|login|pagination|pager|"
    r"navbar|navigation|nav|menu|masthead|footer|toolbar|tags|tagcloud|taglist|print|skip|"
    r"trending|popular|mostread|most-read|teasers?|author-bio|authorbox|rating|reactions?|"
    r"hidden|visually-hidden|sr-only|screen-reader-text)(?:$|[^a-z])"
)
_POSITIVE = re.compile(
    r"article|body|content|entry|hentry|main|post|story|text|blog|prose|markdown|rich-?text"
)
_PROTECTED = "h1, main, article, [itemprop=articleBody], [role=main]"


def hint_weight(node) -> int:
    """+25/-25 from class and id words, as readability does."""
    attrs = node.attributes
    hint = f"{attrs.get('class') or ''} {attrs.get('id') or ''}".lower()
    if not hint.strip():
        return 0
    return (25 if _POSITIVE.search(hint) else 0) - (25 if _NEGATIVE.search(hint) else 0)


def prune(tree: LexborHTMLParser) -> None:
    """Removes chrome in place: junk tags, hidden nodes, and class/id-marked boilerplate."""
    tree.strip_tags(JUNK_TAGS)
    for node in tree.css("[hidden], [aria-hidden=true], [role=navigation], [role=contentinfo], "
                         "[role=complementary], [role=banner], [role=dialog], [role=alert]"):
        node.decompose()
    body = tree.body
    if body is None:
        return
    doomed = [node for node in body.traverse() if _is_boilerplate(node)]
    doomed += [node for node in body.css("header, form") if node.css_first("p") is None]
    remove_outermost(node for node in doomed if node.css_first(_PROTECTED) is None)


def _is_boilerplate(node) -> bool:
    attrs = node.attributes
    hint = f"{attrs.get('class') or ''} {attrs.get('id') or ''}".lower()
    return len(hint) > 1 and bool(_NEGATIVE.search(hint)) and not _POSITIVE.search(hint)


def remove_outermost(nodes) -> None:
    """Decomposes nodes, skipping those inside another doomed node (lexbor frees the subtree)."""
    nodes = list(nodes)
    ids = {node.mem_id for node in nodes}
    outermost = []
    for node in nodes:
        parent = node.parent
        while parent is not None and parent.mem_id not in ids:
            parent = parent.parent
        if parent is None:
            outermost.append(node)
    for node in outermost:
        node.decompose()


_TAG_WEIGHT = {"div": 5, "article": 10, "main": 10, "section": 3, "pre": 3, "td": 3,
               "blockquote": 3, "address": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3, "dt": -3,
               "li": -3, "form": -3, "th": -5, "h1": -5, "h2": -5, "h3": -5, "h4": -5, "h5": -5,
               "h6": -5}
_CONTAINERS = frozenset({"div", "section", "article", "main", "td", "body", "form"})


def text_blocks(root) -> dict:
    """Text length, link-text length and commas of each nearest block ancestor of text."""
    blocks = {}
    for node in root.traverse(include_text=True):
        if node.tag != "-text":
            continue
        text = node.text_content
        size = len(text.strip()) if text else 0
        if not size:
            continue
        parent, in_link = node.parent, False
        while parent is not None and parent.tag not in BLOCK_TAGS:
            in_link = in_link or parent.tag == "a"
            parent = parent.parent
        if parent is None:
            continue
        entry = blocks.get(parent.mem_id)
        if entry is None:
            entry = blocks[parent.mem_id] = [parent, 0, 0, 0]
        entry[1] += size
        entry[2] += size if in_link else 0
        entry[3] += text.count(",") + text.count("，") + text.count("、")
    return blocks


def score_candidates(blocks: dict) -> dict:
    """Readability's vote: each text block adds to its container and two more ancestors."""
    scores = {}
    for node, size, links, commas in blocks.values():
        if size < 25:
            continue
        points = (1 + commas + min(size / 100, 3)) * (1 - links / size)
        ancestor = node if node.tag in _CONTAINERS else node.parent
        for divisor in (1, 2, 3):
            if ancestor is None or ancestor.tag == "html":
                break
            entry = scores.get(ancestor.mem_id)
            if entry is None:
                weight = _TAG_WEIGHT.get(ancestor.tag, 0) + hint_weight(ancestor)
                entry = scores[ancestor.mem_id] = [ancestor, weight]
            entry[1] += points / divisor
            ancestor = ancestor.parent
    return scores


def link_density(node) -> float:
    text = len(node.text(deep=True, strip=True))
    if not text:
        return 0.0
    return min(1.0, sum(len(a.text(deep=True, strip=True)) for a in node.css("a")) / text)


def top_candidate(scores: dict):
    """Best container after link-density discount, moved up while its parent scores higher."""
    ranked = sorted(scores.values(), key=lambda e: e[1], reverse=True)[:8]
    best, best_score = None, 0.0
    for node, score in ranked:
        score *= 1 - link_density(node)
        if score > best_score:
            best, best_score = node, score
    if best is None:
        return None, 0.0
    parent = best.parent
    while parent is not None and parent.tag not in ("body", "html"):
        entry = scores.get(parent.mem_id)
        if entry is None or entry[1] < best_score / 3:
            break
        if entry[1] > best_score:
            best, best_score = parent, entry[1]
        parent = parent.parent
    return best, best_score


def with_siblings(best, best_score: float, scores: dict) -> list:
    """The top container plus siblings that look like more of the same content."""
    parent = best.parent
    if parent is None or best.tag == "body":
        return [best]
    threshold = max(10.0, best_score * 0.2)
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
    if entry is not None and entry[1] + bonus >= threshold:
        return True
    if node.tag != "p":
        return False
    text = node.text(deep=True, strip=True)
    density = link_density(node)
    if len(text) > 80:
        return density < 0.25
    return density == 0 and bool(re.search(r"\.( |$)", text))


def clean_conditionally(nodes: list) -> None:
    """Drops link lists and empty or chrome-weighted blocks left inside the chosen content."""
    doomed = []
    for root in nodes:
        for node in root.css("ul, ol, div, section, table, dl"):
            text = node.text(deep=True, strip=True)
            if not text:
                if node.css_first("img, pre, video, picture") is None:
                    doomed.append(node)
                continue
            if hint_weight(node) < 0:
                doomed.append(node)
            elif node.tag != "table" and len(text) < 1500 and link_density(node) > 0.5:
                doomed.append(node)
    remove_outermost(doomed)


def main_content(tree: LexborHTMLParser) -> list:
    """Nodes holding the page's main content, in document order; the body when nothing scores."""
    prune(tree)
    body = tree.body
    if body is None:
        return []
    scores = score_candidates(text_blocks(body))
    best, best_score = top_candidate(scores)
    if best is None:
        return [body]
    nodes = with_siblings(best, best_score, scores)
    clean_conditionally(nodes)
    return nodes
