"""Main-content identification on a lexbor tree: prune site chrome, score, widen, clean.

1. Prune (`chrome.prune`): tags that never hold prose, hidden nodes, and nodes whose class/id
   words say chrome (navigation, comments, share bars, cookie banners, ads, related lists...).
2. Score as readability does: every block of text votes for its ancestors with a weight that
   grows with its length and commas and shrinks with its link density.
3. Widen the winner to the ancestor with the most prose net of chrome text (leads, intros and
   second columns sit next to it), plus readability's related siblings; product pages take the
   box from the product's name to its description.
4. Clean inside: link lists, link-only lines, credits, bylines and dangling headings.
"""

import heapq
import html
import re
from functools import lru_cache

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.content.pagetype import declared_kind, page_type, schema_types, sibling_groups, tagged_only
from crawlforge.extract.content.product import same_name
from crawlforge.extract.content.chrome import (AD_LABEL, BOILERPLATE_LINE, HEADINGS, NON_CONTENT_TAGS, UI_LINE,
                                               NAMED_CARDS, class_of, hint_weight, holds_any, name_weight,
                                               holds_link, link_density, near_tags, outermost, page_named, prune,
                                               remove_outermost, style_hides)
from crawlforge.extract.dom import tag_ids
from crawlforge.extract.words import pattern, phrases

BLOCK_TAGS = frozenset("""address article aside blockquote body center dd details dialog div dl dt
fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main nav ol p pre
section summary table tbody td tfoot th thead tr ul""".split())
"""Tags that end a run of inline text: a text block is the text up to its nearest one."""
_BLOCK_IDS = tag_ids(BLOCK_TAGS)
[_LINK_ID] = tag_ids(("a",))

_TAG_WEIGHT = {"div": 5, "article": 10, "main": 10, "section": 3, "pre": 3, "td": 3,
               "blockquote": 3, "address": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3, "dt": -3,
               "li": -3, "form": -3, "th": -5, "h1": -5, "h2": -5, "h3": -5, "h4": -5, "h5": -5,
               "h6": -5}
_LINKED_BLOCK_IDS = tag_ids("div p li h1 h2 h3 h4 h5 h6 section article td".split())
_HEADING_TAGS = ", ".join(sorted(HEADINGS))
_CONTAINERS = frozenset({"div", "section", "article", "main", "td", "body", "form"})
_EMPTY_KEPT_IDS = tag_ids(("img", "pre", "video", "picture"))
"""What an empty box of the content holds when it stays: a picture, a video, a code block."""


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
            in_link = in_link or tag == _LINK_ID
            parent = parent.parent
        if parent is None:
            continue
        mem_id = parent.mem_id
        entry = blocks.get(mem_id)
        if entry is None:
            entry = blocks[mem_id] = [parent, 0, 0, 0]
        entry[1] += size
        entry[2] += size if in_link else 0
        entry[3] += text.count(",") + (0 if text.isascii() else text.count("，") + text.count("、"))
    for link in root.css("a"):  # teaser cards: a whole block inside a link (a walk of each link's few
        for block in link.traverse():  # nodes: `a div, a p, ...` tests a dozen selectors on every node)
            if block.tag_id in _LINKED_BLOCK_IDS and (entry := blocks.get(block.mem_id)) is not None:
                entry[2] = entry[1]
    return blocks


def score_candidates(blocks: dict) -> dict:
    """Readability's vote: each text block adds to its container and two more ancestors."""
    scores, up = {}, {}  # up: mem_id -> parent, each read once
    for node, size, links, commas in blocks.values():
        if size < 25:
            continue
        points = (1 + commas + min(size / 100, 3)) * (1 - links / size)
        ancestor = node if node.tag in _CONTAINERS else node.parent
        for divisor in (1, 2, 3):
            if ancestor is None:
                break
            mem_id = ancestor.mem_id
            entry = scores.get(mem_id)
            if entry is None:
                tag = ancestor.tag
                if tag == "html":  # never scored, so a scored node is no html
                    break
                weight = _TAG_WEIGHT.get(tag, 0) + _weight(ancestor)
                entry = scores[mem_id] = [ancestor, weight]
            entry[1] += points / divisor
            ancestor = up[mem_id] if mem_id in up else up.setdefault(mem_id, ancestor.parent)
    return scores


def _weight(node) -> int:
    """The node's class and id weight (`hint_weight`) and its body hint (`_body_hint`), from
    one read of its attributes."""
    attributes = node.attributes
    return name_weight(attributes.get("class") or "", attributes.get("id")) + _body_named(attributes)


def _body_hint(node) -> int:
    """The page names its article body: schema.org articleBody or a body/content class."""
    return _body_named(node.attributes)


def _body_named(attributes: dict) -> int:
    """`_body_hint` of a node's attributes: a dict of them all, for three (``attrs.get`` of a
    name it lacks costs twice as much)."""
    if attributes.get("itemprop") == "articleBody" or _names_body(attributes.get("class") or "") \
            or _names_body(attributes.get("id") or ""):
        return 25
    return 0


@lru_cache(maxsize=8192)
def _names_body(hint: str) -> bool:
    """`_BODY_NAMES` in a class or an id (no name spans a blank); a page's containers share their classes."""
    return _BODY_NAMES.search(hint.lower()) is not None


def top_candidate(scores: dict):
    """Best container after link-density discount, moved up while its parent scores higher."""
    ranked = sorted(scores.values(), key=lambda e: e[1], reverse=True)[:8]
    best, best_score = None, 0.0
    for node, score in ranked:
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


_BODY_NAMES = re.compile(r"(?:article|entry|post|story|news|blog)[-_]*(?:body|content|text)|"
                         r"(?:body|content)[-_]*(?:text|article|body)|field-*name-*body")
_LEAD_CLASSES = phrases("lead_classes")
_LEAD_SEARCH = "[class], [itemprop=description]"
"""What may be a lead (`_leads`): a node whose class holds a word of `_LEAD_CLASSES`, or the
item's description."""
_CREDIT = re.compile(rf"[(\[]?\s*(?:{pattern('credit_lines').pattern})", re.IGNORECASE)
_LINE_TAGS = frozenset({"p", "li", "dd", "h2", "h3", "h4", "h5", "h6"})
_LINK_LINE = 0.7  # a line whose text is mostly link text is a "read also" pointer


def subtree_text(blocks: dict, roots: list) -> dict:
    """Text length, link-text length and commas of every element under `roots` (by mem_id)."""
    root_ids = {root.mem_id for root in roots}
    sums, up, depth, outside = {}, {}, {}, set()  # up: mem_id -> its parent's (None for a root)
    for block_id, (block, size, links, commas) in blocks.items():  # keyed by their mem_ids
        path, node, mem_id = [], block, block_id  # each node read once, for the first block below it
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
                up[mem_id], depth[mem_id], sums[mem_id] = above, level + 1, [0, 0, 0]
                above, level = mem_id, level + 1
        entry = sums[block_id]
        entry[0] += size
        entry[1] += links
        entry[2] += commas
    for mem_id in sorted(sums, key=depth.__getitem__, reverse=True):  # each node's sums go up once
        parent = up[mem_id]
        if parent is not None:
            own, entry = sums[mem_id], sums[parent]
            entry[0] += own[0]
            entry[1] += own[1]
            entry[2] += own[2]
    return sums


def clean_conditionally(nodes: list, blocks: dict, keep=None, cards=(), thread: bool = False,
                        counts: bool = False, copies: bool = False, linked_prose: bool = False,
                        sums: dict | None = None) -> None:
    """Drops link lists, link-only lines and empty or chrome-named blocks inside the content;
    never `keep` (a product's name heading and price, a list) or a box holding them, nor a listing's `cards`, what
    they hold (but credit, date and button lines) or a box holding them: each card is mostly a
    link. On a `thread` a comment-named box is a post, no chrome; `linked_prose` (a thread's,
    a docs or service page's): a box with a paragraph's worth of text outside its links is
    prose, whatever its links (an API name's, an author's), and so is a paragraph's worth of
    text inside a link (a listing's excerpt in its story's link); `counts`: bare numbers are no
    content; `copies`: a block repeating an earlier one goes (`repeats`). `sums`: ``subtree_text``
    of the nodes, when read already."""
    sums = subtree_text(blocks, nodes) if sums is None else sums
    root_ids = {root.mem_id for root in nodes}
    text = text_memo()  # the tree stays as it is until the removals at the end
    boxes = {heading.mem_id: _heading_box(heading) for root in nodes for heading in root.css(_HEADING_TAGS)}
    titles = _section_titles(boxes, sums)
    doomed, linked = [], []
    for root in nodes:
        half = sums.get(root.mem_id, (0, 0, 0))[0] / 2  # a block with half the text is the content
        named = []
        for node in root.css("ul, ol, div, section, table, dl"):
            if node.mem_id == root.mem_id:  # lexbor's css() matches the root itself too
                continue
            size, links, commas = sums.get(node.mem_id, (0, 0, 0))
            if size > half:
                continue
            if not size:
                if not holds_any(node, _EMPTY_KEPT_IDS):
                    doomed.append(node)
            elif (weight := hint_weight(node, thread)) < 0:
                named.append((node, 0, size))
            elif node.tag != "table" and commas < 10 and links > size * (0.5 if weight > 0 else 0.2) \
                    and not (linked_prose and size - links >= POST_TEXT):
                linked.append(node)  # readability's bars; many commas mean prose
        spared = page_named(named, 2 * half) if len(named) >= NAMED_CARDS else ()
        doomed += [node for node, _, _ in named if node.mem_id not in spared]  # named sections together the content
    lines = [node for node, size, links, _ in blocks.values()
             if size < 120 and node.mem_id in sums and node.mem_id not in root_ids  # longer: no credit, no bare line
             and (_is_credit(node, size, text) or size < 80 and _is_bare_line(text(node), counts))]
    linked += [node for node, size, links, _ in blocks.values()
               if links > size * _LINK_LINE and node.mem_id in sums and node.mem_id not in root_ids
               and node.tag in _LINE_TAGS and not (thread and node.tag in HEADINGS)
               and not (linked_prose and size >= POST_TEXT and node.tag not in HEADINGS)
               and node.mem_id not in titles]
    linked = [node for node in linked if node.mem_id not in titles]
    if not thread:
        linked = introduced(linked, text)
        linked = [node for node in linked if not _labelled_items(node, sums)]
    doomed += linked if thread or counts else link_lists(linked, sums, nodes)  # a thread's: its posts' chrome
    doomed += [node for root in nodes if near_tags(root, ("header",))
               for node in root.css("header p, header div, header ul, header span")
               if node.css_first(_HEADING_TAGS) is None and len(node.text(deep=True, strip=True)) < 150
               and not _is_lead(node)]
    doomed += chrome_sections(nodes, blocks, sums, text)
    doomed += excerpt_lists(nodes, blocks, sums, text)
    kept = _holding_any(keep)
    for card in cards:
        kept |= _with_ancestors(card)
    if cards:
        inside = {card.mem_id for card in cards}
        doomed = [node for node in doomed if not _with_ancestors(node.parent) & inside]
    doomed += lines  # credits, ad labels, dates and button lines go from the cards too
    if copies:
        doomed += repeats(blocks, sums) + labels(blocks, sums)  # and copies: a post quoting an earlier one
    remove_outermost(node for node in doomed if node.mem_id not in kept)
    remove_outermost(node for root in nodes for node in root.css(_HEADING_TAGS) if node.mem_id not in kept
                     and _nothing_after(boxes[node.mem_id]) and len(node.text(deep=True, strip=True)) < 100)


LINKED_CONTENT = 0.5
"""Share of the content's text from which its link lists and link lines, when there are
`LINK_LISTS` of them, are the content itself, not lists beside it."""
LINK_LISTS = 15
"""Link lists and lines in the content from which they may be the content (a page of links)."""


def link_lists(linked: list, sums: dict, roots: list) -> list:
    """The link lists and link lines found in the content, unless they are many (`LINK_LISTS`)
    and together hold `LINKED_CONTENT` of its text: then they are what the page is (a list of
    links, an index of posts), where an article keeps a few lists of related links beside it."""
    outer = outermost(linked)
    if len(outer) < LINK_LISTS:
        return linked
    total = sum(sums.get(root.mem_id, (0,))[0] for root in roots)
    if sum(sums.get(node.mem_id, (0,))[0] for node in outer) <= LINKED_CONTENT * total:
        return linked
    return [node for node in outer if _in_header(node)]  # a header's menus are no part of it


_LISTS = frozenset({"ul", "ol", "dl"})


def introduced(linked: list, text) -> list:
    """`linked` but the link lists that a heading or a line of the content's own, ending in a
    colon (`Buying options:`, `Top picks:`), announces, and the link lines inside them: the
    article lists what it names there; lists of other reading are titled by a boilerplate line,
    dropped on their own."""
    spared = set()
    for node in linked:
        if node.tag in _LISTS:
            before = node.prev
            while before is not None and not before.is_element_node:
                before = before.prev
            if before is not None and _announces(before, text):
                spared.add(node.mem_id)
    if not spared:
        return linked
    return [node for node in linked if not _with_ancestors(node) & spared]


def _section_titles(boxes: dict, sums: dict) -> set:
    """mem_ids of the headings over prose (`_over_prose`) and of the boxes of their own around
    them (`boxes`: heading mem_id -> `_heading_box`): a section's or a card's title, whatever
    it links to, is no link line."""
    titles = set()
    for box in boxes.values():
        heading = box if box.tag in HEADINGS else box.css_first(_HEADING_TAGS)
        if heading is None or not _over_prose(box, sums):
            continue
        node = heading
        while node is not None and node.mem_id != box.mem_id:
            titles.add(node.mem_id)
            node = node.parent
        titles.add(box.mem_id)
    return titles


def _over_prose(box, sums: dict) -> bool:
    """A heading over a block of prose (a paragraph, a box of them, up to the next heading)
    titles its section, whatever it links to: to itself, a listicle's item to its shop, a
    news card's headline to its story. `box`: the heading's own box (`_heading_box`); short
    lines (a date, a source) may stand between it and the prose."""
    after, prose = box.next, 0
    while after is not None:
        if after.is_element_node:
            if after.tag in HEADINGS or after.css_first(_HEADING_TAGS) is not None:
                return False
            size, links, _ = sums.get(after.mem_id, (0, 0, 0))
            prose += size - links
            if prose >= POST_TEXT:
                return True
        after = after.next
    return False


ITEM_TEXT = 10
"""Characters of an item's own text beside its link from which a list of them is no link list."""


def _labelled_items(node, sums: dict) -> bool:
    """A list whose every item says something beside its link (`Official website: Park Hyatt`,
    `Flagship hotel: Park Hyatt New York, USA`): the content's own list, no list of links."""
    if node.tag not in ("ul", "ol"):
        return False
    items = [item for item in node.iter() if item.tag == "li"]
    return len(items) >= 2 and all(
        (entry := sums.get(item.mem_id)) and entry[0] - entry[1] >= ITEM_TEXT for item in items)


_COLONS = phrases("colon_marks")


def _announces(before, text) -> bool:
    """A heading, or a line ending in a colon, that is no boilerplate title (`Related articles`)."""
    if before.tag in _LISTS:
        return False
    line = text(before)
    return (before.tag in HEADINGS or line.endswith(_COLONS) and len(line) < 300) \
        and not BOILERPLATE_LINE.match(line)


def _in_header(node) -> bool:
    """Whether a `<header>` holds the node (the header of the page or of its article)."""
    node = node.parent
    while node is not None and node.tag != "header":
        node = node.parent
    return node is not None


def text_memo():
    """`node.text(deep=True, strip=True)`, each node's read once: for a pass that reads the same
    blocks' text again and again on a tree it does not change (the cleanup's line, section and
    excerpt tests)."""
    memo = {}

    def text(node) -> str:
        found = memo.get(node.mem_id)
        if found is None:
            found = memo[node.mem_id] = node.text(deep=True, strip=True, skip_empty=True)
        return found
    return text


def _holding_any(nodes) -> set:
    """mem_ids of `nodes` (a list, or None) and of their ancestors."""
    return set().union(*(_with_ancestors(node) for node in nodes or ()))


POST_TEXT = 100
"""Text outside links from which a box of a thread is a post, whatever its links (its author,
permalink, reply and vote links), not a link list."""


def _with_ancestors(node) -> set:
    ids = set()
    while node is not None:
        ids.add(node.mem_id)
        node = node.parent
    return ids


def chrome_sections(roots: list, blocks: dict, sums: dict, text_of) -> list:
    """Sections that a short boilerplate line titles (`Related articles`, `Subscribe`, `Source:`).

    The line goes with the widest box it opens, or, as a heading, with what follows it up to the
    next heading, as long as that holds less than a third of the content. `text_of`: a `text_memo`.
    """
    root_ids = {root.mem_id: sums.get(root.mem_id, (0,))[0] / 3 for root in roots}
    found = []
    for node, size, _, _ in blocks.values():
        if size >= 200 or node.mem_id not in sums or node.mem_id in root_ids:
            continue
        text = text_of(node)
        if len(text) >= 200 or not BOILERPLATE_LINE.match(text):
            continue  # a box whose own text is a short line may hold a section after it
        limit, box = root_ids[_root_of(node, root_ids).mem_id], node
        while box.parent is not None and box.parent.mem_id not in root_ids \
                and sums.get(box.parent.mem_id, (limit + 1,))[0] <= limit \
                and text_of(box.parent).startswith(text):
            box = box.parent
        found.append(box)
        if box is node and node.tag in HEADINGS:
            found += _section_after(node, limit, sums)
    return found


_EXCERPT_END = re.compile(r"(?:…|\.\.\.)\s*[\])]?$")


def _excerpt_end(text: str) -> bool:
    """The text ends cut off (`... […]`). `_EXCERPT_END` is tried only where that end can start,
    after the last word: searched from the start, it is tried at each character of the text."""
    end = text.rstrip()
    if end.endswith(("]", ")")):
        end = end[:-1].rstrip()
    return _EXCERPT_END.search(text, max(len(end) - 3, 0)) is not None


def excerpt_lists(roots: list, blocks: dict, sums: dict, text) -> list:
    """Boxes made mostly of cut-off excerpts (`... […]`): teasers of other posts.

    Such a box may hold more text than the post itself, so only a box leaving a tenth of the
    content behind is kept for that reason. `text`: a `text_memo`.
    """
    root_ids = {root.mem_id for root in roots}
    excerpts = {}
    for node, size, _, _ in blocks.values():
        if size < 50 or node.mem_id not in sums or not _excerpt_end(text(node)):
            continue
        ancestor = node.parent
        while ancestor is not None and ancestor.mem_id not in root_ids:
            entry = excerpts.setdefault(ancestor.mem_id, [ancestor, 0, 0])
            entry[1] += 1
            entry[2] += size
            ancestor = ancestor.parent
        if ancestor is not None:
            excerpts.setdefault(ancestor.mem_id, [ancestor, 0, 0])  # marks the root for the limit
    found = []
    for node, count, size in excerpts.values():
        if node.mem_id in root_ids or count < 2 or size * 2 < sums[node.mem_id][0]:
            continue
        if sums[node.mem_id][0] < 0.9 * sums[_root_of(node, root_ids).mem_id][0]:
            found.append(node)
    return found


def _root_of(node, root_ids):
    """The content root holding `node` (a node counted in `sums` always has one)."""
    while node.mem_id not in root_ids:
        node = node.parent
    return node


def _section_after(heading, limit: float, sums: dict) -> list:
    """The siblings after a heading up to the next heading, when they hold under `limit` text."""
    section, total, node = [], 0, heading.next
    while node is not None and node.tag not in HEADINGS:
        if node.is_element_node:
            if node.css_first(_HEADING_TAGS) is not None:
                break
            section.append(node)
            total += sums.get(node.mem_id, (0,))[0]
        node = node.next
    return section if total <= limit else []


_DATE_WORDS = frozenset(phrases("date_words"))
_TOKEN = re.compile(r"[^\W\d_]+|\d+")
_DATE = re.compile(r"\d{1,2}\.\s?\d{1,2}\.\s?\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}|"
                   r"\b\d{1,2}:\d{2}\b|"
                   r"\d{1,2}\.?\s+[^\W\d_]{3,}\.?,?\s+\d{4}|[^\W\d_]{3,}\.?\s+\d{1,2},?\s+\d{4}")
_DATE_HINT = re.compile(r"\d(?:[-./:]\s?\d|\d\d\d)").search
"""What each of those dates holds (digits around a separator, or four digits): one fast scan
spares most lines the date pattern, slow on words, and so do the tests of their words."""


def is_dateline(text: str) -> bool:
    """A line that is only a date or time, with the words that announce one (`Erstellt am
    Dienstag 6. Mai 2014`, `Updated: 12.12.2022, 08:30 Uhr`). The hint, digits and separators
    only, is the same before lower-casing: most lines are spared that too."""
    if not _DATE_HINT(text):
        return False
    text = text.lower()
    if _TOKEN.sub("", text).strip(" .,:/|()+-–") \
            or not all(token.isdigit() or token in _DATE_WORDS for token in _TOKEN.findall(text)):
        return False
    return _DATE.search(text) is not None  # the slow test last


def _is_bare_line(text: str, counts: bool = False) -> bool:
    """A date line or a line of button words: nothing a reader reads; in a thread a bare count
    too (a post's votes or number: `#12`, `1,024`, `3k`) and a poster's profile figures."""
    return is_dateline(text) or UI_LINE.fullmatch(text) is not None or counts and (
        _COUNT.fullmatch(text) is not None or len(text) < 60 and _MEMBER_STAT.match(text) is not None)


_COUNT = re.compile(r"[#(]?\s*\d[\d.,]*\s*[kKmM]?\)?")
_MEMBER_STAT = re.compile(rf"[\W\d.,kK]*(?:{pattern('member_stats').pattern})", re.IGNORECASE)


def _is_lead(node) -> bool:
    """The page marks the node (or a node inside it) as the article's lead or summary."""
    return next(_leads(node), None) is not None


def _leads(root):
    """The nodes under `root` (itself too) the page marks as a lead (`_LEAD_SEARCH`), in
    document order: those with a class or the item property, their classes tested in Python,
    one regex cached per class, where a selector of each word (`[class*=intro]`, ...) makes
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
        led = _lead_class(classes) if classes else node.attrs.get("itemprop") == "description"
        if led:
            yield node


@lru_cache(maxsize=8192)
def _lead_class(classes: str) -> bool:
    """A word of `_LEAD_CLASSES` in the class, case and all (as lexbor's `[class*=...]`)."""
    return _LEAD_CLASS(classes) is not None


_LEAD_CLASS = re.compile("|".join(map(re.escape, _LEAD_CLASSES))).search


def _is_credit(node, size: int, text_of) -> bool:
    """A short line that credits a photo, names a source, titles a contact or labels an ad
    (`Foto: dpa`, `(Photo: AP)`, `©`, `Quelle: dpa`, `Kontakt:`, `Anzeige`)."""
    if size >= 120:
        return False
    text = text_of(node)
    # the block's own text is short, and all of it too
    return len(text) < 120 and bool(_CREDIT.match(text) or AD_LABEL.match(text))


def _heading_box(heading):
    """The outermost box holding nothing but the heading: page builders wrap each heading in
    boxes of its own. Taken before cleaning, whose removals would leave a section's box bare."""
    box = heading
    while box.parent is not None and box.parent.tag not in ("body", "html") and _alone(box):
        box = box.parent
    return box


def _alone(node) -> bool:
    """No sibling of `node` holds text, so its parent's text is its own: the siblings are read
    from the nearest and the first with text ends it, where the parent's text would be all read."""
    for step in ("prev", "next"):
        sibling = getattr(node, step)
        while sibling is not None:
            if sibling.text(deep=True, strip=True, skip_empty=True):
                return False
            sibling = getattr(sibling, step)
    return True


def _nothing_after(node) -> bool:
    """Nothing follows the heading's box: it titled a block that was removed (`Related articles`)."""
    node = node.next
    while node is not None:
        if node.is_element_node or (node.text_content or "").strip():
            return False
        node = node.next
    return True


def main_content(tree: LexborHTMLParser, url: str = "", product: dict | None = None) -> tuple[str, list]:
    """The page's kind and the nodes holding its main content, in document order. `product` is
    the record of the page's one product (``extract_product``): its description, as its data
    states it, is kept as the page shows it (`description_box`)."""
    description = (product or {}).get("description")
    shown = description_box(tree.body, description) if isinstance(description, str) and description \
        and tree.body is not None else None
    kind, nodes = _main_content(tree, url, product is not None and _titled(tree, product.get("name")))
    if shown is not None and _squashed(shown[1]) not in _squashed(" ".join(node.text() for node in nodes)):
        nodes = [_fragment(shown[0])] + nodes
    for node in nodes:
        picture_links(node)
    return kind, nodes


REPEAT_TEXT = 80
"""Length from which a block's text seen a second time in the content is a copy (the post's
teaser and the post, the mobile and the desktop copy of a section, a reply quoting an earlier
post), not a second passage."""
_NOT_REPEATS = HEADINGS | {"pre", "td", "th", "li"}
"""A listing's headings and items, code and table cells repeat by nature."""


def repeats(blocks: dict, within) -> list:
    """Blocks of the content (`within`: mem_ids) whose text an earlier block of it had, from
    the blocks of 80 characters of their own; a first copy hidden by its style (which the
    markdown converter drops) is not the one a reader saw. Only blocks whose text is as long
    as another's are read: a copy counts as many characters as its original."""
    sizes = {}
    for node, size, _, _ in blocks.values():
        if size >= REPEAT_TEXT and node.tag not in _NOT_REPEATS and node.mem_id in within:
            sizes.setdefault(size, []).append(node)
    found = []
    for nodes in sizes.values():
        seen = {}
        for node in nodes if len(nodes) > 1 else ():
            first = seen.setdefault(_own_text(node), node)
            if first is not node and not _styled_hidden(first):
                found.append(node)
    return found


LABEL_TEXT = 30
"""Length under which a line seen `LABELS` times over in the content is a label or a button."""
LABELS = 3
"""Times a box of one kind says the same short line from which the line is a label."""
_CELLS_AND_CODE = frozenset({"td", "th", "pre"})


def labels(blocks: dict, within) -> list:
    """Short lines that the content repeats `LABELS` times or more in boxes of one kind (tag
    and class) always saying the same (`Pros`, `Get started`, `Read case study`): the labels and
    buttons of a page's boxes, read as none of its text. Boxes of a kind whose lines vary are
    the fields of items (a card's colour, its seller), and a table's cells and code repeat by nature.
    Sentences holding half of the content's text are what it says, not labels around it: a
    page's only text is never boilerplate (a button's words, however many, are no sentence)."""
    kinds, total = {}, 0
    for node, size, _, _ in blocks.values():
        if node.mem_id in within:
            total += size
            if size < LABEL_TEXT and node.tag not in _CELLS_AND_CODE:
                kinds.setdefault((node.tag, class_of(node)), []).append((node, size))
    found = []
    for nodes in kinds.values():
        lines = {node.text(deep=True, strip=True).lower() for node, _ in nodes}
        if len(nodes) >= LABELS and len(lines) == 1 \
                and not (2 * sum(size for _, size in nodes) >= total and _sentence(lines.pop())):
            found += [node for node, _ in nodes]
    return found


def _sentence(line: str) -> bool:
    """Words ending in a full stop, a question or an exclamation mark: prose, not a label."""
    return len(line.split()) >= SENTENCE_WORDS and line.endswith((".", "!", "?"))


SENTENCE_WORDS = 3
"""Words from which a line ending in a full stop is a sentence (`Sold out.` is a label)."""


def _own_text(node) -> str:
    """The block's text outside the blocks nested in it, blanks collapsed: a quote's copy of a
    post's paragraph, whatever follows the paragraph in the post."""
    parts = []
    for child in node.iter(include_text=True):
        if child.tag == "-text":
            parts.append(child.text_content or "")
        elif child.tag not in BLOCK_TAGS:
            parts.append(child.text(deep=True))
    return " ".join("".join(parts).split())


def _styled_hidden(node) -> bool:
    """Whether the node or an ancestor is hidden by its style (``style_hides``)."""
    while node is not None:
        if node.is_element_node and style_hides(node):
            return True
        node = node.parent
    return False


def _titled(tree: LexborHTMLParser, name) -> bool:
    """A top heading of the page names the product: its page, not an article or a listing
    whose data also reads as one product (`the best refrigerators`, a home for sale)."""
    return isinstance(name, str) and any(same_name(h1.text(deep=True, strip=True), name) for h1 in tree.css("h1")[:3])


_NO_TEXT = frozenset({"script", "style", "template", "noscript", "title", "head"})
DESCRIPTION_PROBE = 40
"""Characters of a description's first and last lines looked for on the page."""


def description_box(body, description: str) -> tuple[str, str] | None:
    """(HTML, first line) of the smallest box that shows the product's description, its first
    and last lines, before pruning: a description in a drawer, a sheet or a tab the shopper
    opens is pruned with it, or left out of the box around the product's name."""
    lines = [line for line in (_squashed(line) for line in _TAGS.sub("\n", html.unescape(description)).splitlines())
             if line]
    if not lines or len(lines[0]) < DESCRIPTION_PROBE / 2:
        return None
    first, last = lines[0][:DESCRIPTION_PROBE], lines[-1][-DESCRIPTION_PROBE:]
    limit = 2 * sum(len(line) for line in lines) + 200
    for node in body.traverse(include_text=True):
        if node.tag != "-text" or node.parent is None or node.parent.tag in _NO_TEXT \
                or first not in _squashed(node.text_content or ""):
            continue
        box = node.parent
        for _ in range(8):
            if box is None or box.tag in ("body", "html"):
                break
            text = _squashed(box.text(deep=True))
            if len(text) > limit:
                break
            if last in text:
                return box.html, first
            box = box.parent
        return None
    return None


_TAGS = re.compile(r"<[^>]+>")


def _squashed(text: str) -> str:
    """Lower-case words, one blank between: markup and spacing aside."""
    return " ".join(re.findall(r"\w+", text.lower()))


def _fragment(markup: str):
    """The box's own tree, its controls and scripts stripped as pruning strips the page's."""
    tree = LexborHTMLParser(markup)
    tree.strip_tags(NON_CONTENT_TAGS)
    return tree.body


def picture_links(root) -> None:
    """The text-free boxes inside a link go (a card's picture, a gallery in its link), so that
    its pictures stay pictures: markdown has no block inside a link, and the converter writes
    the alt texts of a link holding blocks as the link's text."""
    for link in root.css("a"):
        if not holds_any(link, _IMG_IDS):
            if not (link.text(deep=True, strip=True) or link.attributes.get("aria-label")):
                link.decompose()  # an icon's link (a vote arrow, "run code"): nothing to read but its address
            continue
        boxes = [node for node in link.css("*") if node.tag not in _INLINE_PICTURE
                 and node.mem_id != link.mem_id and not node.text(deep=True, strip=True)]
        for box in reversed(boxes):
            if not holds_any(box, _IMG_IDS):
                box.decompose()  # lexbor leaves an empty element in place when unwrapped
            else:
                box.unwrap()
        inline_card(link)


_INLINE_PICTURE = frozenset({"img", "picture", "source", "a"})
_IMG_IDS = tag_ids(("img",))


def inline_card(link) -> None:
    """A card written as one link, its picture beside blocks of text (a title, a price): the
    blocks are unwrapped, each followed by a blank, so that the link is a line of text with its
    picture, where the converter, meeting blocks in a link, writes the picture's alt text (a
    description of the photo) as words of the link."""
    blocks = [node for node in link.css("*") if node.tag in BLOCK_TAGS and node.mem_id != link.mem_id]
    for block in reversed(blocks):
        block.insert_after(" ")
        block.unwrap()


def _main_content(tree: LexborHTMLParser, url: str = "", single: bool = False) -> tuple[str, list]:
    types = schema_types(tree)
    declared = declared_kind(types)
    if single and declared == "listing":
        declared = "product"  # one product, shown with other items' cards (`You may also like`)
    if prune(tree, thread=None if declared is None else declared == "forum", product=declared == "product"):
        declared = "forum"  # a discussion by its shape
    body = tree.body
    blocks = text_blocks(body) if body is not None else {}
    kind, cards = page_type(body, declared, url, declared == "product" and tagged_only(types),
                            sum(entry[1] for entry in blocks.values()))  # the body's text, summed from its blocks
    if body is None:
        return kind, []
    nodes, keep = _article_nodes(body, blocks, kind == "product", kind in _ONE_BODY)
    items = cards if kind in _CARD_KINDS and _item_sized(cards) \
        and (kind == "documentation" or not _is_article(nodes, cards)) else []  # a docs index: prose and links
    if kind != "forum" and (kind != "listing" or not items):
        cards = []  # an article's teasers or posts, a gallery's slides; a thread's are its posts
    if kind != "forum" and (cards or items):
        drop_card_copies(cards or items, blocks)
    sums = None  # ``subtree_text`` of the nodes, when read for their share: the cleanup's too
    if kind in _WHOLE_PAGE_TYPES or kind == "other":
        root = _page_root(body, cards, sum(entry[1] for entry in blocks.values()))  # the text cards' copies left
        held = _holds(nodes, root)
        within = None if root.tag == "body" or held else subtree_text(blocks, [root])  # read once
        sums = None if held else subtree_text(blocks, nodes)
        share = _reading_share(blocks, nodes, root, within, sums)
        if cards and not _holds(nodes, cards[0]) \
                or share < WHOLE_PAGE_SHARE and (kind != "other" or 0 < share < OTHER_SHARE):
            if kind == "forum":
                return kind, _cleaned([root], blocks, None, cards, thread=True, counts=True, copies=True,
                                      linked_prose=True)
            within = subtree_text(blocks, [root]) if within is None else within
            doomed = bare_lines(blocks, within, root) + menu_trees(root, within)
            if kind != "documentation":  # a reference repeats a parameter's description for each call
                doomed += repeats(blocks, within) + labels(blocks, within)
            remove_outermost(doomed)
            return kind, [root]
    if kind == "product":
        remove_outermost(other_items(nodes, keep))
    return kind, _cleaned(nodes, blocks, keep, cards or items, counts=kind == "forum", copies=kind != "documentation",
                          linked_prose=kind in _LINKED_PROSE, sums=sums)


def bare_lines(blocks: dict, within, root) -> list:
    """The short blocks under `root` (`within`: mem_ids) that are only a date or button words
    (`Quick shop`, `Choose options`): they go from a page kept whole as from an article."""
    return [node for node, size, _, _ in blocks.values() if size < 80 and node.mem_id in within
            and node.mem_id != root.mem_id and _is_bare_line(node.text(deep=True, strip=True))]


MENU_LINKS = 0.75
"""Share of link text from which a list of lists is a menu tree."""


def menu_trees(root, within) -> list:
    """Lists of lists of links under `root` (`within`: its subtree's text sums): a site's menu
    tree (sections, their pages, their sub-pages), which a page kept whole holds apart from its
    content. A listing's cards and a hub's link lists are no nested lists."""
    found = {}
    for inner in root.css("li > ul, li > ol"):
        node, outer = inner.parent, None
        while node is not None and node.mem_id != root.mem_id:
            if node.tag in ("ul", "ol"):
                outer = node
            node = node.parent
        if outer is not None:
            found[outer.mem_id] = outer
    return [node for mem_id, node in found.items()
            if (sums := within.get(mem_id)) and sums[0] and sums[1] >= MENU_LINKS * sums[0]]


_LINKED_PROSE = frozenset({"documentation", "service", "listing", "hub", "product"})
"""Kinds whose prose links much (API names, services, items): readability's link-density bar,
made for an article's text, would drop its paragraphs."""


OTHER_ITEMS = 4
"""Sibling cards from which a run inside a product's content shows other products."""


def other_items(nodes: list, keep=None) -> list:
    """Runs of item cards inside a product page's content, each a picture and a line linking to
    another page: recommendations, "also viewed", recently viewed. The product's own pictures
    carry no text, its variant swatches a word each, its specifications no pictures."""
    kept = _holding_any(keep)
    found = []
    for root in nodes:
        for _, members in sibling_groups(root, OTHER_ITEMS):
            if not any(member.mem_id in kept for member in members) \
                    and all(_item_card(member) for member in members):
                found += members
    return found


_CELLS = frozenset({"td", "th", "pre"})


def drop_card_copies(cards: list, blocks: dict) -> None:
    """Removes the blocks of each card that repeat one before them in the same card (and their
    entries in `blocks`): a tile writes its title in a picture link, a heading and a second
    heading for the other layout, its price for two breakpoints; the reader sees one."""
    ids = {card.mem_id for card in cards}
    seen, copies = set(), []
    for node, _, _, _ in list(blocks.values()):
        if node.tag in _CELLS:
            continue  # a row's cells repeat by nature (`Yes`, `-`)
        card = node
        while card is not None and card.mem_id not in ids:
            card = card.parent
        if card is None:
            continue
        key = (card.mem_id, node.text(deep=True, strip=True))
        if key in seen:
            copies.append(node)
        else:
            seen.add(key)
    copies = outermost(copies)
    for node in copies:
        for inner in node.css("*"):  # the node itself too
            blocks.pop(inner.mem_id, None)
    remove_outermost(copies)


def _item_card(node) -> bool:
    return holds_any(node, _IMG_IDS) and holds_link(node) \
        and CARD_TEXT[0] <= len(node.text(deep=True, strip=True)) <= CARD_TEXT[1]


_CARD_KINDS = frozenset({"listing", "documentation", "service", "hub"})
"""Kinds whose item-sized link cards are content: a listing's items, a docs index's or a service
page's cards (a title and a line each), a hub's links."""
_WHOLE_PAGE_TYPES = frozenset({"listing", "forum", "documentation", "service", "hub"})
"""Kinds whose content may be the whole pruned page: cards, posts, sections, link lists, a docs body."""
WHOLE_PAGE_SHARE = 0.5
"""Such a page keeps the article's nodes when they hold this share of the page's reading text."""
OTHER_SHARE = 0.3
"""A page of no known kind whose best text block (not the page's root itself) holds less than
this share of its reading text has no article: its content is the page (a store's tiles, a
landing page's sections), as a service page's is."""


ARTICLE_PROSE = 1
"""Paragraphs of prose beside a listing's cards in the article's nodes above which the cards are
an article's teasers: the article wins."""


CARD_TEXT = (15, 800)
"""Mean text length of a listing's item card: a title and a price or a line (a slide's caption is
shorter, a post on a blog's front page longer)."""


def _item_sized(cards: list) -> bool:
    if cards and cards[0].tag == "figure":  # a gallery's slides
        return False
    mean = sum(len(card.text(deep=True, strip=True)) for card in cards) / len(cards) if cards else 0
    return CARD_TEXT[0] <= mean <= CARD_TEXT[1]


def _is_article(nodes: list, cards: list) -> bool:
    """The article's nodes hold prose beside the cards (paragraphs of 150 characters or more),
    or more such paragraphs than there are cards: sections of an article, not items."""
    inside = {card.mem_id for card in cards}
    beside = within = 0
    for node in nodes:
        for p in node.css("p"):
            if len(p.text(deep=True, strip=True)) >= 150:
                if _with_ancestors(p) & inside:
                    within += 1
                else:
                    beside += 1
    return beside > ARTICLE_PROSE or beside + within > len(cards)


def _page_root(body, cards: list, total: int):
    """The page's `main` when it holds a good part of the pruned page's text (`total` long)
    and a listing's cards, else the body."""
    main = body.css_first("main, [role=main]")
    if main is not None and len(main.text(deep=True, strip=True, skip_empty=True)) >= 0.3 * total \
            and (not cards or _holds([main], cards[0])):
        return main
    return body


def _holds(nodes: list, node) -> bool:
    """One of `nodes` is `node` or an ancestor of it."""
    around = _with_ancestors(node)
    return any(candidate.mem_id in around for candidate in nodes)


def _reading_share(blocks: dict, nodes: list, root, within: dict | None, part: dict | None) -> float:
    """Share of the text outside links under `root` that `nodes` hold: an article's text block
    leaves out only teasers and link lists; a service page's leaves out its other sections, a
    listing's the text of its cards. The article scoring falling back to the whole body is no
    article found. `within`: ``subtree_text`` of the root (None for the body, or a root
    `nodes` hold); `part`: that of `nodes` (None when they hold the root)."""
    if part is None:
        return 0.0
    whole = within.get(root.mem_id, (0, 0)) if root.tag != "body" else \
        (sum(entry[1] for entry in blocks.values()), sum(entry[2] for entry in blocks.values()))  # all of them
    kept = sum(part.get(node.mem_id, (0, 0))[0] - part.get(node.mem_id, (0, 0))[1] for node in nodes)
    reading = whole[0] - whole[1]
    return kept / reading if reading > 0 else 1.0


def _article_nodes(body, blocks: dict, product: bool, rivals: bool = False) -> tuple[list, object]:
    """The article-shaped content: the best-scored container, widened, with its related
    siblings and lead; for a product page the box from its name to its description (and the
    name heading and the price to keep). With `rivals`, widened to what it shares with
    containers scoring close to it (`with_rivals`)."""
    scores = score_candidates(blocks)
    best, best_score = top_candidate(scores)
    if best is None:
        return [body], None
    best = _capped(best, widen(best, blocks))
    if rivals:
        best = with_rivals(best, best_score, scores)
    if product:
        container = product_container(body, best)
        return [container], [node for node in (body.css_first("h1"), container.css_first("[itemprop=price]"))
                             if node is not None]
    nodes = with_siblings(best, best_score, scores)
    if not _holds_text(nodes, 200):
        return [body], None  # no block stands out: keep the pruned page, not a scrap
    lead = lead_of(body, nodes)
    return ([lead] + nodes if lead is not None else nodes), None


def _holds_text(nodes: list, size: int) -> bool:
    """Whether the nodes hold `size` characters of text together, read node by node until they do."""
    for node in nodes:
        size -= len(node.text(deep=True, strip=True, skip_empty=True))
        if size <= 0:
            return True
    return False


_ONE_BODY = frozenset({"article", "documentation", "forum", "service", "other"})
"""Kinds whose content is one body of text, sections or posts (not a listing's or a hub's cards,
nor a product's box)."""
RIVAL_SCORE = 0.75
"""Share of the winner's score from which a container outside it is a rival (readability's 0.75)."""
RIVAL_TEXT = 200
"""Text a rival holds: a paragraph's worth, not a title whose class says content."""
RIVAL_SPREAD = 4
"""How much more text than the winner and the rival together their shared ancestor may hold."""


def with_rivals(best, best_score: float, scores: dict):
    """The winner widened to the ancestor it shares with each close rival: a container outside
    it that scores nearly as high, holding a paragraph's worth of text, when that ancestor holds
    little more than the two. A page names one section its body (`field--name-body`) and the
    next section, as long, wins no bonus for its name: both are the content."""
    ranked = heapq.nlargest(8, scores.values(), key=lambda e: e[1])
    node, size = best, None
    for rival, score in ranked:
        if score < RIVAL_SCORE * best_score:
            break
        around = _with_ancestors(node)
        if rival.mem_id in around:
            continue
        rival_size = len(rival.text(deep=True, strip=True, skip_empty=True))
        if rival_size < RIVAL_TEXT or score * (1 - link_density(rival)) < RIVAL_SCORE * best_score:
            continue
        ancestor = rival.parent
        while ancestor is not None and ancestor.mem_id not in around:
            ancestor = ancestor.parent
        if ancestor is None or ancestor.tag in ("body", "html") or ancestor.mem_id == node.mem_id:
            continue  # inside the winner already
        size = len(node.text(deep=True, strip=True, skip_empty=True)) if size is None else size
        if len(ancestor.text(deep=True, strip=True, skip_empty=True)) <= RIVAL_SPREAD * (size + rival_size):
            node, size = ancestor, None
    return node


def lead_of(body, nodes: list):
    """The article's lead or subtitle when the page marks it (`intro`, `lead`, `deck`, ...) close
    to the content but outside it: headers hold it apart from the body text."""
    chosen = {node.mem_id for node in nodes}
    near, node = set(), nodes[0]
    for _ in range(5):
        if node is None:
            break
        near.add(node.mem_id)
        node = node.parent
    for candidate in _lead_candidates(body, nodes[0], chosen):
        text = candidate.text(deep=True, strip=True)
        if not 40 <= len(text) <= 800 or link_density(candidate) > 0.3:
            continue
        node = candidate
        for _ in range(6):
            node = node.parent
            if node is None or node.mem_id in chosen:
                break
            if node.mem_id in near:
                return candidate
    return None


def _lead_candidates(body, first, chosen: set):
    """The leads (`_leads`) that `lead_of` may return, in document order: those under the
    highest of `first` and its four ancestors below `body` (else under `body`), as a lead it
    returns sits in one of them, but for what the chosen nodes hold (walking up from there it
    meets a chosen node first). That leaves the content, most of the subtree, unsearched: a
    search of a page's classes for a dozen words costs most of the lead's time."""
    route, node = [], first
    while node is not None and node.mem_id != body.mem_id:
        route.append(node)
        node = node.parent
    if node is None:
        yield from _leads(body)
        return
    route = route[:5] if len(route) > 4 else route + [body]
    yield from _leads_around(route[::-1], chosen)


def _leads_around(route: list, chosen: set):
    """The leads (`_leads`) under `route[0]` in document order, but inside the chosen nodes;
    `route` runs down to the first chosen node, the nodes on it, the chosen ones and those
    holding no element are tested alone (`_marked_lead`), the others' subtrees searched: a
    search costs microseconds (its selectors parsed, its memory made) before it looks at a node."""
    node = route[0]
    if _marked_lead(node):
        yield node
    if node.mem_id in chosen:
        return
    for child in node.iter():  # lexbor passes over the text nodes
        if not child.is_element_node:
            continue
        if len(route) > 1 and child.mem_id == route[1].mem_id:
            yield from _leads_around(route[1:], chosen)
        elif child.mem_id in chosen or next(child.iter(), None) is None:
            if _marked_lead(child):
                yield child
        else:
            yield from _leads(child)


def _marked_lead(node) -> bool:
    """The node itself is marked as a lead (`_leads`)."""
    classes = class_of(node)
    return bool(classes) and _lead_class(classes) or node.attrs.get("itemprop") == "description"


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
    ancestors, node = _with_ancestors(anchor), best
    while node is not None and node.mem_id not in ancestors:
        node = node.parent
    return node if node is not None and node.tag != "html" else body


def _capped(best, widened):
    """Widening stops at a container the page names as its article body (articleBody,
    entry-content...) when that holds at least half of the widened text."""
    node, whole = best, None
    while node is not None and node.mem_id != widened.mem_id:
        if _body_hint(node):
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
    for mem_id, (block, size, links, _) in blocks.items():  # keyed by their mem_ids
        if size >= 80 and links <= size * 0.3:  # a paragraph of prose
            value = size - 3 * links
        else:  # link lists count double against, short lines once
            value = -2 * size if links * 2 > size else -size
        if value < 0 and block.tag in HEADINGS:
            value = 0
        path, node, target = [], block, None  # under: each node walked once, for the first block below it
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


def _cleaned(nodes: list, blocks: dict, keep=None, cards=(), **flags) -> list:
    clean_conditionally(nodes, blocks, keep, cards, **flags)
    return nodes
