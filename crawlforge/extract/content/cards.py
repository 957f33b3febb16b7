"""Item cards: a listing's items kept whole, a product page's other items dropped, and cards
written as one link turned into a line of text with its picture."""

from crawlforge.extract.content.nodes import (BLOCK_TAGS, holding_any, holds_any, holds_link, outermost,
                                              remove_outermost, with_ancestors)
from crawlforge.extract.content.lines import is_dateline
from crawlforge.extract.content.pagetype import sibling_groups
from crawlforge.extract.content.policy import LIMITS
from crawlforge.extract.dom import tag_ids


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


def other_items(nodes: list, keep=None) -> list:
    """Runs of item cards inside a product page's content, each a picture and a line linking to
    another page: recommendations, "also viewed", recently viewed. The product's own pictures
    carry no text, its variant swatches a word each, its specifications no pictures."""
    kept = holding_any(keep)
    found = []
    for root in nodes:
        for _, members in sibling_groups(root, LIMITS.other_items):
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
    for node in [block.node for block in blocks.values()]:
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
        and LIMITS.shortest_card <= len(node.text(deep=True, strip=True)) <= LIMITS.longest_card


def item_sized(cards: list) -> bool:
    if cards and cards[0].tag == "figure":  # a gallery's slides
        return False
    mean = sum(len(card.text(deep=True, strip=True)) for card in cards) / len(cards) if cards else 0
    return LIMITS.shortest_card <= mean <= LIMITS.longest_card


def is_article(nodes: list, cards: list) -> bool:
    """The article's nodes hold prose beside the cards (`LIMITS.prose_paragraph`),
    or more such paragraphs than there are cards: sections of an article, not items."""
    inside = {card.mem_id for card in cards}
    beside = within = 0
    for node in nodes:
        for p in node.css("p"):
            if len(p.text(deep=True, strip=True)) >= LIMITS.prose_paragraph:
                if with_ancestors(p) & inside:
                    within += 1
                else:
                    beside += 1
    return beside > LIMITS.article_prose or beside + within > len(cards)


_SET_ASIDE = "data-card-date"


def set_aside_dates(body) -> set:
    """The dates of a run of dated cards (`card_dates`), their mem_ids returned, are emptied,
    their text set aside on them: kept for the cards they stand in, read by no step that weighs
    the page's text (their text and links would change the page's kind and its root)."""
    dates = card_dates(body)
    if not dates:
        return dates  # most pages: the page's times are not searched again
    for time in (node for node in body.css("time") if node.mem_id in dates):
        text = time.text(deep=True, separator=" ", strip=True)
        for child in list(time.iter(include_text=True)):
            child.decompose()
        time.attrs[_SET_ASIDE] = text
    return dates


def restore_dates(nodes: list) -> None:
    """The dates `set_aside_dates` emptied get their text back in the content chosen, where
    their line (a block holding no other block) says more than the date (its source, its
    author): a bare date is nothing a reader reads, in a card as in an article
    (`lines.is_bare_line`)."""
    for root in nodes:
        for time in root.css(f"time[{_SET_ASIDE}]"):
            text = time.attrs[_SET_ASIDE]
            line = time.parent
            while line is not None and line.tag not in BLOCK_TAGS and line.mem_id != root.mem_id:
                line = line.parent
            if not text or line is None or not line.text(deep=True, strip=True) \
                    or any(child.tag in BLOCK_TAGS for child in line.iter()):  # the date alone in a box
                time.decompose()
                continue
            del time.attrs[_SET_ASIDE]
            time.insert_child(text)
            if line.mem_id != root.mem_id and is_dateline(line.text(deep=True, separator=" ", strip=True)):
                line.decompose()  # `Updated <time>`: a date line still


def card_dates(body) -> set:
    """mem_ids of the `<time>`s of a run of dated cards (`LIMITS.card_run` siblings or more of
    one tag, each holding a heading that links and a `<time>`): a news listing's dates, each its
    card's own. A `<time>` elsewhere (an article's date, a sidebar's) is chrome."""
    times = body.css("time")
    if len(times) < LIMITS.card_run:
        return set()
    runs = {}  # a parent's mem_id: the times of its children, by child
    for time in times:
        card = time
        while card.parent is not None and card.parent.tag not in ("body", "html"):
            parent = card.parent
            if parent.mem_id not in runs:
                runs[parent.mem_id] = _dated_run(parent)
            if card.mem_id in runs[parent.mem_id]:
                break
            card = parent
    return {time.mem_id for run in runs.values() for card in run.values() for time in card}


def _dated_run(parent) -> dict:
    """{card's mem_id: its times} when `parent`'s children of one tag make a run of dated,
    headed cards, else {}."""
    children = [child for child in parent.iter() if child.is_element_node]
    tags = {}
    for child in children:
        tags.setdefault(child.tag, []).append(child)
    for members in tags.values():
        if len(members) < LIMITS.card_run:
            continue
        dated = {card.mem_id: card.css("time") for card in members if card.css_first(_HEADLINE) is not None}
        dated = {mem_id: times for mem_id, times in dated.items() if times}
        if len(dated) >= LIMITS.card_run and len(dated) >= len(members) / 2:
            return dated
    return {}


_HEADLINE = "h2 a, h3 a, h4 a, h5 a, h6 a, a h2, a h3, a h4, a h5, a h6"
