"""Main-content identification on a lexbor tree: prune site chrome, score, widen, clean.

One module a step, in this order: `prune` (chrome, hidden nodes, junk tags), `pagetype` (the
page's kind), `score` (readability's vote of text blocks), `widen` (the winner grown to its
prose, rivals and lead), `clean` (link lists, chrome-titled sections and lines inside), with
`cards` and `lines` for item cards and unread lines. This module chooses, by the page's kind,
which steps run and how.
"""

import html
import re
from collections import Counter
from typing import NamedTuple

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.content.cards import (drop_card_copies, is_article, item_sized, other_items,
                                              picture_links, restore_dates)
from crawlforge.extract.content.chrome import NON_CONTENT_TAGS
from crawlforge.extract.content.clean import clean_conditionally
from crawlforge.extract.content.lines import bare_lines, labels, menu_trees, repeats
from crawlforge.extract.content.memo import PageMemo
from crawlforge.extract.content.nodes import holds, remove_outermost
from crawlforge.extract.content.pagetype import declarations, declared_kind, page_type, tagged_only
from crawlforge.extract.content.policy import Cleaning, Kind, KINDS, LIMITS, SHARE, THREAD
from crawlforge.extract.content.product_header import same_name
from crawlforge.extract.content.prune import prune
from crawlforge.extract.content.score import NO_TEXT, subtree_text, Text, text_blocks
from crawlforge.extract.content.title import missing_title, page_title
from crawlforge.extract.content.widen import article_nodes


def main_content(tree: LexborHTMLParser, url: str = "", product: dict | None = None) -> tuple[str, list]:
    """The page's kind and the nodes holding its main content, in document order. `product` is
    the record of the page's one product (``extract_product``): its description, as its data
    states it, is kept as the page shows it (`description_box`). The page's title, standing
    above content that leaves it out, opens it where its kind says (`title.missing_title`). The
    steps share one `memo.PageMemo`, made here and dropped with the page."""
    description = (product or {}).get("description")
    shown = description_box(tree.body, description) if isinstance(description, str) and description \
        and tree.body is not None else None
    types, h1s = declarations(tree)  # before pruning
    h1 = page_title(h1s) if product is None else None  # a product's markdown opens with its name
    single = product is not None and _titled(h1s, product.get("name"))
    kind, nodes = _main_content(tree, PageMemo(), types, url, single)
    restore_dates(nodes)
    title = missing_title(tree, h1, nodes, url) if KINDS[kind].title else None
    if shown is not None and _squashed(shown.first_line) not in _squashed(" ".join(node.text() for node in nodes)):
        nodes = [_fragment(shown.html)] + nodes
    if title is not None:
        nodes = [_fragment(f"<h1>{html.escape(title)}</h1>")] + nodes
    for node in nodes:
        picture_links(node)
    return kind, nodes


def _titled(h1s: list, name) -> bool:
    """A top heading of the page (of its `h1s`) names the product: its page, not an article or a
    listing whose data also reads as one product (`the best refrigerators`, a home for sale)."""
    return isinstance(name, str) and any(same_name(h1.text(deep=True, strip=True), name)
                                         for h1 in h1s[:LIMITS.product_headings])


_NO_TEXT = frozenset({"script", "style", "template", "noscript", "title", "head"})


class Shown(NamedTuple):
    """Where the page shows a product's description."""

    html: str
    """The smallest box showing it."""
    first_line: str


def description_box(body, description: str) -> Shown | None:
    """The smallest box that shows the product's description, its first and last lines, before
    pruning: a description in a drawer, a sheet or a tab the shopper opens is pruned with it, or
    left out of the box around the product's name."""
    lines = [line for line in (_squashed(line) for line in _TAGS.sub("\n", html.unescape(description)).splitlines())
             if line]
    if not lines or len(lines[0]) < LIMITS.description_probe / 2:
        return None
    first, last = lines[0][:LIMITS.description_probe], lines[-1][-LIMITS.description_probe:]
    limit = LIMITS.description_spread * sum(len(line) for line in lines) + LIMITS.description_slack
    for node in body.traverse(include_text=True):
        if node.tag != "-text" or node.parent is None or node.parent.tag in _NO_TEXT \
                or first not in _squashed(node.text_content or ""):
            continue
        box = node.parent
        for _ in range(LIMITS.description_depth):
            if box is None or box.tag in ("body", "html"):
                break
            text = _squashed(box.text(deep=True))
            if len(text) > limit:
                break
            if last in text:
                return Shown(box.html, first)
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


def _main_content(tree: LexborHTMLParser, memo: PageMemo, types: Counter, url: str = "",
                  single: bool = False) -> tuple[str, list]:
    """`main_content` of a page of the schema.org `types` (`pagetype.schema_types`), `single`:
    showing one product."""
    declared = declared_kind(types)
    if single and declared == "listing":
        declared = "product"  # one product, shown with other items' cards (`You may also like`)
    stated = KINDS.get(declared)
    if prune(tree, memo, thread=None if stated is None else stated.posts,
             product=stated is not None and stated.product_box):
        declared = "forum"  # a discussion by its shape
    body = tree.body
    blocks = text_blocks(body) if body is not None else {}
    kind, cards = page_type(body, declared, url, declared == "product" and tagged_only(types),
                            sum(block.size for block in blocks.values()))  # the body's text, summed from its blocks
    if body is None:
        return kind, []
    policy = KINDS[kind]
    nodes, keep = article_nodes(body, blocks, memo, policy.product_box, policy.rivals)
    items = cards if policy.item_cards and item_sized(cards) \
        and (policy.cards_beside_prose or not is_article(nodes, cards)) else []
    if not policy.posts and not (policy.cards_are_the_page and items):
        cards = []  # an article's teasers or posts, a gallery's slides; a thread's are its posts
    if not policy.posts and (cards or items):
        drop_card_copies(cards or items, blocks)
    sums = None  # ``subtree_text`` of the nodes, when read for their share: the cleanup's too
    if policy.whole_page:
        root, within, sums = _kept_whole(body, blocks, nodes, cards, policy)
        if root is not None:
            _clean_whole(root, blocks, cards, policy, within, memo)
            return kind, [root]
    if policy.product_box:
        remove_outermost(other_items(nodes, keep))
    how = Cleaning(thread=False, counts=policy.posts, copies=policy.copies, linked_prose=policy.linked_prose)
    clean_conditionally(nodes, blocks, how, memo, keep, cards or items, sums)
    return kind, nodes


def _kept_whole(body, blocks: dict, nodes: list, cards: list, policy: Kind) -> tuple:
    """(the root from which the page is kept whole, or None when the article's nodes are the
    content; ``subtree_text`` of that root and of the nodes, when read, None when not). A page
    is kept whole when its cards stand outside the article's nodes, or those hold too little of
    its reading text (as its kind's `whole_page` says)."""
    root = _page_root(body, cards, sum(block.size for block in blocks.values()))  # the text cards' copies left
    held = holds(nodes, root)
    within = None if root.tag == "body" or held else subtree_text(blocks, [root])  # read once
    sums = None if held else subtree_text(blocks, nodes)
    share = _reading_share(blocks, nodes, root, within, sums)
    if cards and not holds(nodes, cards[0]) \
            or share < LIMITS.whole_page_share and (policy.whole_page == SHARE or 0 < share < LIMITS.other_share):
        return root, within, sums
    return None, within, sums


def _clean_whole(root, blocks: dict, cards: list, policy: Kind, within: dict | None, memo: PageMemo) -> None:
    """A page kept whole loses its datelines, button lines and menu trees, and, as its kind says,
    its copies and labels; a thread is cleaned as one (`THREAD`)."""
    if policy.posts:
        clean_conditionally([root], blocks, THREAD, memo, None, cards)
        return
    within = subtree_text(blocks, [root]) if within is None else within
    doomed = bare_lines(blocks, within, root) + menu_trees(root, within)
    if policy.copies:
        doomed += repeats(blocks, within) + labels(blocks, within)
    remove_outermost(doomed)


def _page_root(body, cards: list, total: int):
    """The page's `main` when it holds a good part of the pruned page's text (`total` long)
    and a listing's cards, else the body."""
    main = body.css_first("main, [role=main]")
    if main is not None and len(main.text(deep=True, strip=True, skip_empty=True)) >= LIMITS.main_share * total \
            and (not cards or holds([main], cards[0])):
        return main
    return body


def _reading_share(blocks: dict, nodes: list, root, within: dict | None, part: dict | None) -> float:
    """Share of the text outside links under `root` that `nodes` hold: an article's text block
    leaves out only teasers and link lists; a service page's leaves out its other sections, a
    listing's the text of its cards. The article scoring falling back to the whole body is no
    article found. `within`: ``subtree_text`` of the root (None for the body, or a root
    `nodes` hold); `part`: that of `nodes` (None when they hold the root)."""
    if part is None:
        return 0.0
    whole = within.get(root.mem_id, NO_TEXT) if root.tag != "body" else \
        Text(sum(block.size for block in blocks.values()), sum(block.links for block in blocks.values()))  # all
    kept = sum(part.get(node.mem_id, NO_TEXT).size - part.get(node.mem_id, NO_TEXT).links for node in nodes)
    reading = whole.size - whole.links
    return kept / reading if reading > 0 else 1.0


