"""What each page kind does at each step of main-content extraction: one row a kind.

`maincontent` reads the row of the kind `pagetype` gives (and, for pruning, of the kind the
page declares); no step asks for a kind by name. To change what a kind keeps, change its row.
"""

from __future__ import annotations

from typing import NamedTuple

SHARE = "share"
"""`whole_page`: the pruned page is the content when the article's nodes hold less than
`WHOLE_PAGE_SHARE` of its reading text (cards, posts, sections, link lists, a docs body)."""
SCATTERED = "scattered"
"""`whole_page`: the pruned page is the content when its best block (not the page's root) holds
less than `OTHER_SHARE` of its reading text: no article (a store's tiles, a landing page)."""


class Kind(NamedTuple):
    """One page kind's choices, step by step."""

    posts: bool
    """prune, clean: boxes named comments, authors and dates are its posts (a thread); bare
    counts go, the page kept whole is cleaned as a thread, its cards are posts, kept whole."""
    product_box: bool
    """prune: a product's reviews are chrome; widen: the content is the box from the product's
    name to its description; clean: runs of other items' cards go."""
    rivals: bool
    """widen: the winner grows to what it shares with containers scoring close to it (one body
    of text, sections or posts; not a listing's or a hub's cards, nor a product's box)."""
    item_cards: bool
    """clean: item-sized link cards are content, not link lists (a listing's items, a docs
    index's or a service page's cards, a hub's links)..."""
    cards_beside_prose: bool
    """...even beside paragraphs of prose (a docs index: prose and links)."""
    cards_are_the_page: bool
    """its item cards are its content's own: they choose the page's root and stay whole."""
    whole_page: str | None
    """None, `SHARE` or `SCATTERED`: when the pruned page, not the article's nodes, is the content."""
    copies: bool
    """clean: a block repeating an earlier one and a label repeated in boxes of one kind go (a
    reference repeats a parameter's description for each call: not on a docs page)."""
    linked_prose: bool
    """clean: prose that links much (API names, services, items) stays, where readability's
    link-density bar, made for an article's text, would drop its paragraphs."""


KINDS = {
    #                   posts  product_box rivals item_cards beside_prose the_page  whole_page copies linked_prose
    "article":       Kind(False, False,     True,  False,     False,       False,   None,      True,  False),
    "product":       Kind(False, True,      False, False,     False,       False,   None,      True,  True),
    "listing":       Kind(False, False,     False, True,      False,       True,    SHARE,     True,  True),
    "documentation": Kind(False, False,     True,  True,      True,        False,   SHARE,     False, True),
    "forum":         Kind(True,  False,     True,  False,     False,       False,   SHARE,     True,  False),
    "service":       Kind(False, False,     True,  True,      False,       False,   SHARE,     True,  True),
    "hub":           Kind(False, False,     False, True,      False,       False,   SHARE,     True,  True),
    "other":         Kind(False, False,     True,  False,     False,       False,   SCATTERED, True,  False),
}
