"""Step 4, clean inside the content: link lists, link-only lines, chrome-titled sections, excerpt
lists, empty and chrome-named boxes, dangling headings."""

import re
from dataclasses import dataclass

from crawlforge.extract.content.chrome import BOILERPLATE_LINE, hint_weight, page_named
from crawlforge.extract.content.lines import is_bare_line, is_credit, labels, repeats
from crawlforge.extract.content.memo import text_memo
from crawlforge.extract.content.nodes import (HEADING_TAGS, HEADINGS, holding_any, holds_any, near_tags,
                                              outermost, remove_outermost, root_of, with_ancestors)
from crawlforge.extract.content.policy import Cleaning, LIMITS
from crawlforge.extract.content.score import NO_TEXT, subtree_text
from crawlforge.extract.content.widen import is_lead
from crawlforge.extract.dom import tag_ids
from crawlforge.extract.words import phrases


_EMPTY_SPARED_IDS = tag_ids(("img", "pre", "video", "picture"))
"""What an empty box of the content holds when it stays: a picture, a video, a code block."""


_LINE_TAGS = frozenset({"p", "li", "dd", "h2", "h3", "h4", "h5", "h6"})


def clean_conditionally(nodes: list, blocks: dict, how: Cleaning, memo, keep=None, cards=(),
                        sums: dict | None = None) -> None:
    """Drops link lists, link-only lines and empty or chrome-named blocks inside the content;
    never `keep` (a product's name heading and price, a list) or a box holding them, nor a
    listing's `cards`, what they hold (but credit, date and button lines) or a box holding them:
    each card is mostly a link. `how` says what the page's kind makes of posts, counts, copies
    and linked prose (`Cleaning`). `memo`: the page's `memo.PageMemo`. `sums`: ``subtree_text``
    of the nodes, when read already."""
    sums = subtree_text(blocks, nodes) if sums is None else sums
    text = text_memo()  # the tree stays as it is until the removals at the end
    boxes = {heading.mem_id: _heading_box(heading) for root in nodes for heading in root.css(HEADING_TAGS)}
    titles = _section_titles(boxes, sums)
    doomed, linked = _boxes(nodes, sums, how, memo)
    root_ids = {root.mem_id for root in nodes}
    lines = [block.node for block in blocks.values()  # longer than a credit line: no credit, no bare line
             if block.size < LIMITS.credit_line and block.node.mem_id in sums and block.node.mem_id not in root_ids
             and (is_credit(block.node, block.size, text)
                  or block.size < LIMITS.line and is_bare_line(text(block.node), how.counts))]
    linked += [block.node for block in blocks.values()
               if block.links > block.size * LIMITS.link_line and block.node.mem_id in sums
               and block.node.mem_id not in root_ids and _link_line(block.node, block.size, how)
               and block.node.mem_id not in titles]
    linked = [node for node in linked if node.mem_id not in titles]
    if not how.thread:
        linked = introduced(linked, text)
        linked = [node for node in linked if not _labelled_items(node, sums)]
    doomed += linked if how.thread or how.counts else link_lists(linked, sums, nodes)  # a thread's: its posts' chrome
    doomed += _header_lines(nodes, memo)
    doomed += chrome_sections(nodes, blocks, sums, text)
    doomed += excerpt_lists(nodes, blocks, sums, text)
    kept = holding_any(keep)
    for card in cards:
        kept |= with_ancestors(card)
    if cards:
        inside = {card.mem_id for card in cards}
        doomed = [node for node in doomed if not with_ancestors(node.parent) & inside]
    doomed += lines  # credits, ad labels, dates and button lines go from the cards too
    if how.copies:
        doomed += repeats(blocks, sums) + labels(blocks, sums)  # and copies: a post quoting an earlier one
    if not how.counts:
        kept |= _card_datelines(doomed, sums)
    remove_outermost(node for node in doomed if node.mem_id not in kept)
    remove_outermost(node for root in nodes for node in root.css(HEADING_TAGS) if node.mem_id not in kept
                     and _nothing_after(boxes[node.mem_id])
                     and len(node.text(deep=True, strip=True)) < LIMITS.heading_text)


def _link_line(node, size: int, how: Cleaning) -> bool:
    """A block of mostly links is a link line: a paragraph, an item, a heading (not a thread's:
    its posts' titles), but for prose that links much where the kind keeps it (`linked_prose`)."""
    return node.tag in _LINE_TAGS and not (how.thread and node.tag in HEADINGS) \
        and not (how.linked_prose and size >= LIMITS.post_text and node.tag not in HEADINGS)


def _card_datelines(doomed: list, sums: dict) -> set:
    """mem_ids of the short lines holding a `<time>` and more (its source's link): pruning
    leaves a `<time>` only in a listing's dated cards, emptied, where the line is the card's own."""
    return {node.mem_id for node in doomed if node.mem_id in sums
            and 0 < sums[node.mem_id].size < LIMITS.credit_line and holds_any(node, _TIME_IDS)}


_TIME_IDS = tag_ids(("time",))


def _boxes(nodes: list, sums: dict, how: Cleaning, memo) -> tuple[list, list]:
    """(empty or chrome-named boxes, link boxes) inside the content, neither holding half of a
    root's text (that box is the content). On a `thread` a comment-named box is a post, no
    chrome; with `linked_prose` a box with a paragraph's worth of text outside its links is
    prose, whatever its links (an API name's, an author's)."""
    doomed, linked = [], []
    known = memo.thread_hints if how.thread else memo.hints
    for root in nodes:
        half = sums.get(root.mem_id, NO_TEXT).size / 2
        named = []
        for node in root.css("ul, ol, div, section, table, dl"):
            if node.mem_id == root.mem_id:  # lexbor's css() matches the root itself too
                continue
            text = sums.get(node.mem_id, NO_TEXT)
            size, links = text.size, text.links
            if size > half:
                continue
            if not size:
                if not holds_any(node, _EMPTY_SPARED_IDS):
                    doomed.append(node)
            elif (weight := hint_weight(node, known)) < 0:
                named.append((node, 0, size))
            elif node.tag != "table" and text.commas < LIMITS.many_commas \
                    and links > size * (LIMITS.named_link_bar if weight > 0 else LIMITS.link_bar) \
                    and not (how.linked_prose and size - links >= LIMITS.post_text):
                linked.append(node)  # readability's bars; many commas mean prose
        spared = page_named(named, 2 * half, memo.hints) if len(named) >= LIMITS.named_cards else ()
        doomed += [node for node, _, _ in named if node.mem_id not in spared]  # named sections together the content
    return doomed, linked


def _header_lines(nodes: list, memo) -> list:
    """Lines of a `<header>` in the content shorter than a paragraph, without a heading or a
    marked lead: an article's byline, date and share row."""
    return [node for root in nodes if near_tags(root, ("header",))
            for node in root.css("header p, header div, header ul, header span")
            if node.css_first(HEADING_TAGS) is None
            and len(node.text(deep=True, strip=True)) < LIMITS.prose_paragraph and not is_lead(node, memo)]


def link_lists(linked: list, sums: dict, roots: list) -> list:
    """The link lists and link lines found in the content, unless they are many (`LIMITS.link_lists`)
    and together hold `LIMITS.linked_content` of its text: then they are what the page is (a list of
    links, an index of posts), where an article keeps a few lists of related links beside it."""
    outer = outermost(linked)
    if len(outer) < LIMITS.link_lists:
        return linked
    total = sum(sums.get(root.mem_id, NO_TEXT).size for root in roots)
    if sum(sums.get(node.mem_id, NO_TEXT).size for node in outer) <= LIMITS.linked_content * total:
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
    return [node for node in linked if not with_ancestors(node) & spared]


def _section_titles(boxes: dict, sums: dict) -> set:
    """mem_ids of the headings over prose (`_over_prose`) and of the boxes of their own around
    them (`boxes`: heading mem_id -> `_heading_box`): a section's or a card's title, whatever
    it links to, is no link line."""
    titles = set()
    for box in boxes.values():
        heading = box if box.tag in HEADINGS else box.css_first(HEADING_TAGS)
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
            if after.tag in HEADINGS or after.css_first(HEADING_TAGS) is not None:
                return False
            text = sums.get(after.mem_id, NO_TEXT)
            prose += text.size - text.links
            if prose >= LIMITS.post_text:
                return True
        after = after.next
    return False


def _labelled_items(node, sums: dict) -> bool:
    """A list whose every item says something beside its link (`Official website: Park Hyatt`,
    `Flagship hotel: Park Hyatt New York, USA`): the content's own list, no list of links."""
    if node.tag not in ("ul", "ol"):
        return False
    items = [item for item in node.iter() if item.tag == "li"]
    return len(items) >= LIMITS.labelled_items and all(
        (entry := sums.get(item.mem_id)) and entry.size - entry.links >= LIMITS.item_text for item in items)


_COLONS = phrases("colon_marks")


def _announces(before, text) -> bool:
    """A heading, or a line ending in a colon, that is no boilerplate title (`Related articles`)."""
    if before.tag in _LISTS:
        return False
    line = text(before)
    return (before.tag in HEADINGS or line.endswith(_COLONS) and len(line) < LIMITS.colon_line) \
        and not BOILERPLATE_LINE.match(line)


def _in_header(node) -> bool:
    """Whether a `<header>` holds the node (the header of the page or of its article)."""
    node = node.parent
    while node is not None and node.tag != "header":
        node = node.parent
    return node is not None


def chrome_sections(roots: list, blocks: dict, sums: dict, text_of) -> list:
    """Sections that a short boilerplate line titles (`Related articles`, `Subscribe`, `Source:`).

    The line goes with the widest box it opens, or, as a heading, with what follows it up to the
    next heading, as long as that holds a third of the content at most (`LIMITS.section_parts`).
    `text_of`: a `text_memo`.
    """
    root_ids = {root.mem_id: sums.get(root.mem_id, NO_TEXT).size / LIMITS.section_parts for root in roots}
    found = []
    for block in blocks.values():
        node, size = block.node, block.size
        if size >= LIMITS.title_line or node.mem_id not in sums or node.mem_id in root_ids:
            continue
        text = text_of(node)
        if len(text) >= LIMITS.title_line or not BOILERPLATE_LINE.match(text):
            continue  # a box whose own text is a short line may hold a section after it
        limit, box = root_ids[root_of(node, root_ids).mem_id], node
        while box.parent is not None and box.parent.mem_id not in root_ids \
                and box.parent.mem_id in sums and sums[box.parent.mem_id].size <= limit \
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
    return _EXCERPT_END.search(text, max(len(end) - len("..."), 0)) is not None


@dataclass(slots=True)
class _Excerpts:
    """The cut-off excerpts under a box: how many, and their text's length."""

    node: object
    count: int = 0
    size: int = 0


def excerpt_lists(roots: list, blocks: dict, sums: dict, text) -> list:
    """Boxes made mostly of cut-off excerpts (`... […]`): teasers of other posts.

    Such a box may hold more text than the post itself, so only a box leaving a tenth of the
    content behind is kept for that reason. `text`: a `text_memo`.
    """
    root_ids = {root.mem_id for root in roots}
    excerpts = {}
    for block in blocks.values():
        node, size = block.node, block.size
        if size < LIMITS.excerpt_text or node.mem_id not in sums or not _excerpt_end(text(node)):
            continue
        ancestor = node.parent
        while ancestor is not None and ancestor.mem_id not in root_ids:
            entry = excerpts.get(ancestor.mem_id)
            if entry is None:
                entry = excerpts[ancestor.mem_id] = _Excerpts(ancestor)
            entry.count += 1
            entry.size += size
            ancestor = ancestor.parent
    found = []
    for entry in excerpts.values():
        node = entry.node
        if entry.count < LIMITS.excerpts or entry.size * 2 < sums[node.mem_id].size:
            continue
        if sums[node.mem_id].size < LIMITS.excerpt_share * sums[root_of(node, root_ids).mem_id].size:
            found.append(node)
    return found


def _section_after(heading, limit: float, sums: dict) -> list:
    """The siblings after a heading up to the next heading, when they hold under `limit` text."""
    section, total, node = [], 0, heading.next
    while node is not None and node.tag not in HEADINGS:
        if node.is_element_node:
            if node.css_first(HEADING_TAGS) is not None:
                break
            section.append(node)
            total += sums.get(node.mem_id, NO_TEXT).size
        node = node.next
    return section if total <= limit else []


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
