"""Step 3, widen: the winner grows to the ancestor with the most prose net of chrome text (leads,
intros and second columns sit next to it), its close rivals and the page's marked lead; a
product page takes the box from the product's name to its description."""

import heapq
import re

from crawlforge.extract.content.nodes import class_of, HEADINGS, link_density, with_ancestors
from crawlforge.extract.content.policy import LIMITS
from crawlforge.extract.content.score import body_hint, score_candidates, top_candidate, with_siblings
from crawlforge.extract.words import phrases


_LEAD_CLASSES = phrases("lead_classes")
_LEAD_SEARCH = "[class], [itemprop=description]"
"""What may be a lead (`_leads`): a node whose class holds a word of `_LEAD_CLASSES`, or the
item's description."""


def is_lead(node, memo) -> bool:
    """The page marks the node (or a node inside it) as the article's lead or summary. `memo`:
    the page's `memo.PageMemo`."""
    return next(_leads(node, memo.lead), None) is not None


def _leads(root, known: dict):
    """The nodes under `root` (itself too) the page marks as a lead (`_LEAD_SEARCH`), in
    document order: those with a class or the item property, their classes tested in Python
    (`known`: the page's memo of `lead_class`), where a selector of each word (`[class*=intro]`, ...) makes
    over two dozen substring tests on every node. A node with both comes twice in a row."""
    last, led = None, False
    for node in root.css(_LEAD_SEARCH):
        if node.mem_id == last:  # listed again: it is the item's description too
            if not led:
                led = True
                yield node
            continue
        last = node.mem_id
        classes = class_of(node)
        led = known[classes] if classes else node.attrs.get("itemprop") == "description"
        if led:
            yield node


def lead_class(classes: str) -> bool:
    """A word of `_LEAD_CLASSES` in the class, case and all (as lexbor's `[class*=...]`)."""
    return _LEAD_CLASS(classes) is not None


_LEAD_CLASS = re.compile("|".join(map(re.escape, _LEAD_CLASSES))).search


def article_nodes(body, blocks: dict, memo, product: bool, rivals: bool = False) -> tuple[list, object]:
    """The article-shaped content: the best-scored container, widened, with its related
    siblings and lead; for a product page the box from its name to its description (and the
    name heading and the price to keep). With `rivals`, widened to what it shares with
    containers scoring close to it (`with_rivals`). `memo`: the page's `memo.PageMemo`."""
    scores = score_candidates(blocks, memo)
    best, best_score = top_candidate(scores)
    if best is None:
        return [body], None
    best = _capped(best, widen(best, blocks), memo)
    if rivals:
        best = with_rivals(best, best_score, scores)
    if product:
        container = product_container(body, best)
        return [container], [node for node in (body.css_first("h1"), container.css_first("[itemprop=price]"))
                             if node is not None]
    nodes = with_siblings(best, best_score, scores)
    if not _holds_text(nodes, LIMITS.least_content):
        return [body], None  # no block stands out: keep the pruned page, not a scrap
    lead = lead_of(body, nodes, memo)
    return ([lead] + nodes if lead is not None else nodes), None


def _holds_text(nodes: list, size: int) -> bool:
    """Whether the nodes hold `size` characters of text together, read node by node until they do."""
    for node in nodes:
        size -= len(node.text(deep=True, strip=True, skip_empty=True))
        if size <= 0:
            return True
    return False


def with_rivals(best, best_score: float, scores: dict):
    """The winner widened to the ancestor it shares with each close rival: a container outside
    it that scores nearly as high, holding a paragraph's worth of text, when that ancestor holds
    little more than the two. A page names one section its body (`field--name-body`) and the
    next section, as long, wins no bonus for its name: both are the content."""
    ranked = heapq.nlargest(LIMITS.top_candidates, scores.values(), key=lambda e: e.score)
    node, size = best, None
    for candidate in ranked:
        rival, score = candidate.node, candidate.score
        if score < LIMITS.rival_score * best_score:
            break
        around = with_ancestors(node)
        if rival.mem_id in around:
            continue
        rival_size = len(rival.text(deep=True, strip=True, skip_empty=True))
        if rival_size < LIMITS.rival_text or score * (1 - link_density(rival)) < LIMITS.rival_score * best_score:
            continue
        ancestor = rival.parent
        while ancestor is not None and ancestor.mem_id not in around:
            ancestor = ancestor.parent
        if ancestor is None or ancestor.tag in ("body", "html") or ancestor.mem_id == node.mem_id:
            continue  # inside the winner already
        size = len(node.text(deep=True, strip=True, skip_empty=True)) if size is None else size
        if len(ancestor.text(deep=True, strip=True, skip_empty=True)) <= LIMITS.rival_spread * (size + rival_size):
            node, size = ancestor, None
    return node


def lead_of(body, nodes: list, memo):
    """The article's lead or subtitle when the page marks it (`intro`, `lead`, `deck`, ...) close
    to the content but outside it: headers hold it apart from the body text."""
    chosen = {node.mem_id for node in nodes}
    near, node = set(), nodes[0]
    for _ in range(LIMITS.lead_near):
        if node is None:
            break
        near.add(node.mem_id)
        node = node.parent
    for candidate in _lead_candidates(body, nodes[0], chosen, memo.lead):
        text = candidate.text(deep=True, strip=True)
        if not LIMITS.shortest_lead <= len(text) <= LIMITS.longest_lead \
                or link_density(candidate) > LIMITS.lead_links:
            continue
        node = candidate
        for _ in range(LIMITS.lead_depth):
            node = node.parent
            if node is None or node.mem_id in chosen:
                break
            if node.mem_id in near:
                return candidate
    return None


def _lead_candidates(body, first, chosen: set, known: dict):
    """The leads (`_leads`) that `lead_of` may return, in document order: those under the
    highest of the nodes near `first` (`LIMITS.lead_near`) below `body` (else under `body`), as
    a lead it returns sits in one of them, but for what the chosen nodes hold (walking up from
    there it meets a chosen node first). That leaves the content, most of the subtree, unsearched: a
    search of a page's classes for a dozen words costs most of the lead's time."""
    route, node = [], first
    while node is not None and node.mem_id != body.mem_id:
        route.append(node)
        node = node.parent
    if node is None:
        yield from _leads(body, known)
        return
    route = route[:LIMITS.lead_near] if len(route) >= LIMITS.lead_near else route + [body]
    yield from _leads_around(route[::-1], chosen, known)


def _leads_around(route: list, chosen: set, known: dict):
    """The leads (`_leads`) under `route[0]` in document order, but inside the chosen nodes;
    `route` runs down to the first chosen node, the nodes on it, the chosen ones and those
    holding no element are tested alone (`_marked_lead`), the others' subtrees searched: a
    search parses its selectors and makes its memory before it looks at a node."""
    node = route[0]
    if _marked_lead(node, known):
        yield node
    if node.mem_id in chosen:
        return
    for child in node.iter():  # lexbor passes over the text nodes
        if not child.is_element_node:
            continue
        if len(route) > 1 and child.mem_id == route[1].mem_id:
            yield from _leads_around(route[1:], chosen, known)
        elif child.mem_id in chosen or next(child.iter(), None) is None:
            if _marked_lead(child, known):
                yield child
        else:
            yield from _leads(child, known)


def _marked_lead(node, known: dict) -> bool:
    """The node itself is marked as a lead (`_leads`)."""
    classes = class_of(node)
    return bool(classes) and known[classes] or node.attrs.get("itemprop") == "description"


def product_container(body, best):
    """Smallest node holding both the product (its microdata item, else its h1) and the best
    text block.

    A product page spreads name, price, description and specs over sibling boxes; the
    description alone wins the text score.
    """
    items = body.css('[itemtype*="schema.org/Product"]')
    anchor = items[0] if len(items) == 1 else body.css_first("h1")
    if anchor is None:
        return best
    ancestors, node = with_ancestors(anchor), best
    while node is not None and node.mem_id not in ancestors:
        node = node.parent
    return node if node is not None and node.tag != "html" else body


def _capped(best, widened, memo):
    """Widening stops at a container the page names as its article body (articleBody,
    entry-content...) when that holds at least half of the widened text."""
    node, whole = best, None
    while node is not None and node.mem_id != widened.mem_id:
        if body_hint(node, memo):
            whole = whole or len(widened.text(deep=True, strip=True, skip_empty=True))
            if len(node.text(deep=True, strip=True, skip_empty=True)) * 2 >= whole:
                return node
        node = node.parent
    return widened


def widen(best, blocks: dict):
    """The ancestor of the best container (or itself) with the most prose net of chrome text.

    Leads, intros and further text sections often sit next to the best-scored container; an
    ancestor gains their prose but also any link lists and short chrome lines it holds.
    """
    chain, node = [], best
    while node is not None and node.tag not in ("body", "html"):
        chain.append(node)
        node = node.parent
    if not chain:
        return best
    gain = dict.fromkeys((n.mem_id for n in chain), 0.0)
    under = {}  # mem_id -> that of the node of the chain it sits in (None: outside the chain)
    for mem_id, block in blocks.items():  # keyed by their mem_ids
        size, links = block.size, block.links
        if size >= LIMITS.line and links <= size * LIMITS.prose_links:  # a paragraph of prose
            value = size - LIMITS.prose_link_cost * links
        else:  # link lists count double against, short lines once
            value = -LIMITS.link_list_cost * size if links * 2 > size else -size
        if value < 0 and block.node.tag in HEADINGS:
            value = 0
        path, node, target = [], block.node, None  # under: each node walked once, for the first block below it
        while True:
            if mem_id in gain or mem_id in under:
                target = mem_id if mem_id in gain else under[mem_id]
                break
            path.append(mem_id)
            node = node.parent
            if node is None:
                break
            mem_id = node.mem_id
        for mem_id in path:
            under[mem_id] = target
        if target is not None:
            gain[target] += value
    total, top, chosen = 0.0, float("-inf"), best
    for node in chain:
        total += gain[node.mem_id]
        if total > top:
            top, chosen = total, node
    return chosen
