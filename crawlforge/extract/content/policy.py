"""What each page kind does at each step of main-content extraction, one row a kind, and the
numbers every step weighs a page by, each with its name and why.

`maincontent` reads the row of the kind `pagetype` gives (and, for pruning, of the kind the
page declares); no step asks for a kind by name. To change what a kind keeps, change its row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

SHARE = "share"
"""`whole_page`: the pruned page is the content when the article's nodes hold less than
`whole_page_share` (of `Thresholds`) of its reading text (cards, posts, sections, link lists, a docs body)."""
SCATTERED = "scattered"
"""`whole_page`: the pruned page is the content when its best block (not the page's root) holds
less than `other_share` of its reading text: no article (a store's tiles, a landing page)."""


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
    title: bool
    """the page's one `h1`, standing before the content that leaves it out, opens the markdown
    (a wiki's title above its text box); not a listing's or a hub's, whose `h1` names a section
    its cards already stand under."""


class Cleaning(NamedTuple):
    """How the cleanup reads a page's content (`clean.clean_conditionally`)."""

    thread: bool
    """Comment-named boxes are posts and headings link lines no more: a discussion kept whole."""
    counts: bool
    """Bare numbers (votes, post numbers) and posters' figures are no content; link lists all go."""
    copies: bool
    """A block repeating an earlier one and a repeated label go."""
    linked_prose: bool
    """Prose that links much stays."""


THREAD = Cleaning(thread=True, counts=True, copies=True, linked_prose=True)
"""A discussion kept whole: its posts, their author lines and quotes read as a thread's."""


KINDS = {
    #                   posts  product_box rivals item_cards beside_prose the_page  whole_page copies linked title
    "article":       Kind(False, False,     True,  False,     False,       False,   None,      True,  False, True),
    "product":       Kind(False, True,      False, False,     False,       False,   None,      True,  True,  False),
    "listing":       Kind(False, False,     False, True,      False,       True,    SHARE,     True,  True,  False),
    "documentation": Kind(False, False,     True,  True,      True,        False,   SHARE,     False, True,  True),
    "forum":         Kind(True,  False,     True,  False,     False,       False,   SHARE,     True,  False, True),
    "service":       Kind(False, False,     True,  True,      False,       False,   SHARE,     True,  True,  True),
    "hub":           Kind(False, False,     False, True,      False,       False,   SHARE,     True,  True,  False),
    "other":         Kind(False, False,     True,  False,     False,       False,   SCATTERED, True,  False, True),
}


@dataclass(frozen=True)
class Thresholds:
    """Every number the content rules weigh a page by, with why it is that number. Lengths are
    characters of text (blanks stripped), shares are of text length."""

    # -- lengths of text -------------------------------------------------------------------------
    prose_paragraph: int = 150
    """A paragraph of prose: an article's paragraph, longer than a teaser's line, a caption, an ad
    box's or a paywall prompt's line. A page of such paragraphs is an article; a header's line
    shorter than one is chrome."""
    line: int = 80
    """Text up to which a block is a line (a date, a row of buttons, a source), from which it is
    a passage that may hold prose."""
    credit_line: int = 120
    """Text under which a line may be a credit, a source or an ad label (`Foto: dpa`)."""
    title_line: int = 200
    """Text under which a boilerplate line titles a section (`Related articles`), not a passage."""
    scored_block: int = 25
    """Text from which a block votes for its containers (readability's 25)."""
    least_content: int = 200
    """Text the chosen containers hold together, below which no block stands out: the pruned
    page is kept, not a scrap."""
    rival_text: int = 200
    """Text a rival of the winner holds: a paragraph's worth, not a title whose class says content."""
    post_text: int = 100
    """Text outside links from which a box of a thread is a post, whatever its links (its author,
    permalink, reply and vote links), not a link list."""
    item_text: int = 10
    """Characters of an item's own text beside its link from which a list of them is no link list."""
    control_text: int = 50
    """Text under which an ARIA button is a control (`show picture`, `print`), not a section."""
    question: int = 200
    """Text under which a line ending in a question mark asks the question a hidden box answers."""
    shortest_lead: int = 40
    """Text of an article's marked lead or subtitle: a sentence..."""
    longest_lead: int = 800
    """...or a short paragraph."""
    shortest_card: int = 15
    """Mean text length of a listing's item card: a title and a price or a line (a slide's caption
    is shorter)..."""
    longest_card: int = 800
    """...and a post on a blog's front page longer."""
    member_stat_line: int = 60
    """Text under which a line opening on a figure and a poster's stat word (`1,024 posts`) is
    their profile's, not a sentence of a post."""
    description_slack: int = 200
    """Text beyond `description_spread` times a product's description that a box showing it may
    hold (its tab's title, a `Read more`) and still be the description's own box."""
    repeat_text: int = 80
    """Length from which a block's text seen a second time in the content is a copy (the post's
    teaser and the post, the mobile and the desktop copy of a section, a reply quoting an earlier
    post), not a second passage."""
    label_text: int = 30
    """Length under which a line seen `labels` times over in the content is a label or a button."""
    sentence_words: int = 3
    """Words from which a line ending in a full stop is a sentence (`Sold out.` is a label)."""
    description_probe: int = 40
    """Characters of a description's first and last lines looked for on the page."""
    site_label: int = 4
    """Letters from which a label of the host (`example` of `forums.example.org`) is a name a
    heading may hold, where a short one (`co`, `app`) turns up in any heading's words."""

    excerpt_text: int = 50
    """Text from which a line ending cut off (`... […]`) is an excerpt of another post."""
    colon_line: int = 300
    """Text under which a line ending in a colon announces the list after it (`Buying options:`)."""
    point_text: int = 100
    """Characters of a block that earn it a point of score (readability's)..."""
    length_points: int = 3
    """...up to this many (readability's)."""

    # -- shares --------------------------------------------------------------------------------
    link_line: float = 0.7
    """Link text from which a line is a "read also" pointer."""
    linked_content: float = 0.5
    """Share of the content's text from which its link lists and link lines, when there are
    `link_lists` of them, are the content itself, not lists beside it."""
    menu_links: float = 0.75
    """Link text from which a list of lists is a menu tree."""
    opened_links: float = 0.5
    """Link text from which a panel a control opens is a menu's, not content."""
    whole_page_share: float = 0.5
    """A kind that may be kept whole keeps the article's nodes when they hold this share of the
    page's reading text."""
    other_share: float = 0.3
    """A page of no known kind whose best text block (not the page's root itself) holds less than
    this share of its reading text has no article: its content is the page (a store's tiles, a
    landing page's sections), as a service page's is."""
    main_share: float = 0.3
    """Share of the pruned page's text the page's `main` holds when it is the page kept whole."""
    rival_score: float = 0.75
    """Share of the winner's score from which a container outside it is a rival (readability's 0.75)."""
    weak_named_share: float = 2 / 3
    """Share of the page's text that boxes sharing a weak chrome name (`teaser`, `footer`) hold when
    they are its content: a footer's columns of prose may hold half of a short article's page."""

    named_share: float = 0.5
    """Share of the page's text a chrome-named box (or boxes sharing its class) may hold and still
    go: one holding more is around the content (`secondary-sticky-nav` around the page)..."""
    content_named_share: float = 0.3
    """...and one whose name says content too (`entry share`)."""
    excerpt_share: float = 0.9
    """Share of the content's text under which a box of cut-off excerpts goes: one holding more
    is the content itself (a listing of excerpts)."""
    lead_links: float = 0.3
    """Link text up to which a marked lead is one, not a box of links."""
    link_bar: float = 0.2
    """Link text from which a box of the content is a link list (readability's bar)..."""
    named_link_bar: float = 0.5
    """...and from which one whose class or id says content is (readability's)."""
    prose_links: float = 0.3
    """Link text up to which a passage is prose when the winner is widened."""
    sibling_share: float = 0.2
    """Share of the winner's score from which a sibling of it is more of the content (readability's)."""
    sibling_score: float = 10.0
    """Score from which a sibling may be more of the content, however low the winner's (readability's)."""
    sibling_links: float = 0.25
    """Link text under which a sibling paragraph of a passage's length is more of the content
    (readability's)."""
    card_share: float = 0.5
    """Share of the page's text its run of linked cards holds from which it is a listing."""
    some_card_share: float = 0.3
    """Share from which the cards make a listing of a page that is no article."""
    link_share: float = 0.5
    """Share of the page's text that is link text from which it is a hub of links."""
    prose_share: float = 0.6
    """Share of the page's text in paragraphs of prose from which it is an article."""
    dated_posts: float = 0.8
    """Share of permalinked sibling boxes that carry a date from which they are a thread's posts."""

    class_weight: int = 25
    """Score a class or id naming content adds, and one naming chrome takes (readability's)."""
    tag_weights: Mapping = field(default_factory=lambda: MappingProxyType({
        "div": 5, "article": 10, "main": 10, "section": 3, "pre": 3, "td": 3, "blockquote": 3,
        "address": -3, "ol": -3, "ul": -3, "dl": -3, "dd": -3, "dt": -3, "li": -3, "form": -3,
        "th": -5, "h1": -5, "h2": -5, "h3": -5, "h4": -5, "h5": -5, "h6": -5}))
    """Score a container starts with by its tag: boxes of text gain, lists, forms and headings
    lose (readability's)."""
    top_candidates: int = 8
    """Best-scored containers weighed for the winner and its rivals (readability's)."""
    score_levels: int = 3
    """Ancestors a text block votes for, its container first, each the next's share smaller (1, 1/2,
    1/3: readability's)."""
    parent_score: float = 1 / 3
    """Share of the winner's score below which its parent's ends the climb to a higher-scoring
    ancestor (readability's)."""
    prose_link_cost: int = 3
    """Times its link text a paragraph of prose loses of its length when an ancestor of the winner
    is weighed: links inside prose are mostly asides."""
    link_list_cost: int = 2
    """Times its length a block of mostly links costs an ancestor of the winner (a short line
    costs its length once): a menu or a list of related links beside the text."""

    # -- counts --------------------------------------------------------------------------------
    link_lists: int = 15
    """Link lists and lines in the content from which they may be the content (a page of links)."""
    labels: int = 3
    """Times a box of one kind says the same short line from which the line is a label."""
    named_cards: int = 3
    """Nodes sharing a class from which their summed text counts, as one node's would."""
    card_classes: int = 2
    """Leading class words the cards of one run share: the words after them name each card's theme,
    colour or item (`promo cmp-promo__services ... cmp-promo__services--deloitte-green`)."""
    figure_cards: int = 3
    """Figures titled by a link from which they are a grid's cards, not an article's pictures."""
    other_items: int = 4
    """Sibling cards from which a run inside a product's content shows other products."""
    article_prose: int = 1
    """Paragraphs of prose beside a listing's cards in the article's nodes above which the cards are
    an article's teasers: the article wins."""
    thread_posts: int = 2
    """Permalinked, dated sibling boxes from which they are a thread's posts."""
    thread_article_prose: int = 3
    """Paragraphs of prose outside the comments from which the page is an article with comments."""
    page_cards: int = 6
    """Linked sibling cards from which a run may make a listing (a page's few teasers do not)."""
    card_run: int = 4
    """Siblings of one tag and class from which they are a run of cards."""
    code_blocks: int = 2
    """Code blocks from which a page is documentation (one is an article's example)."""
    sections: int = 3
    """Section headings from which a page of no other kind is a service page's sections."""
    article_paragraphs: int = 3
    """Paragraphs of prose from which, holding most of its text, a page is an article."""
    many_commas: int = 10
    """Commas from which a box is prose, whatever its links (readability's)."""
    heading_text: int = 100
    """Text under which a heading with nothing left after it titled a removed block."""
    site_name_words: int = 3
    """Words up to which a page's `h1` holding a name of its host is the site's name, not a title."""
    rival_spread: int = 4
    """How much more text than the winner and the rival together their shared ancestor may hold."""
    description_spread: int = 2
    """Times a product's description its box may hold (see `description_slack`)."""
    description_depth: int = 8
    """Boxes walked up from a description's first line to the one showing its last: a tab, a
    drawer around a few wrappers; above, the page's columns."""
    lead_near: int = 5
    """The content's first node and its ancestors, this many, near which a marked lead belongs to it."""
    lead_depth: int = 6
    """Ancestors walked up from a marked lead to meet those near the content."""
    declared_comments: int = 3
    """Comments the page's data declares from which it is a discussion (one or two: an article's)."""
    declared_products: int = 3
    """Products the page's data declares from which it is a listing (a page's product and its
    variant or a bundle make two)."""
    docs_prose: int = 2
    """Paragraphs of prose from which a page under a docs path is documentation without code."""
    product_headings: int = 3
    """The page's first `h1`s read for the product's name (a logo's and a modal's come first)."""
    prose_box: int = 2
    """Paragraphs of prose from which a box is an article's text: an ad box or a paywall prompt
    has at most one."""
    section_parts: int = 3
    """A boilerplate line's section goes when it holds one of this many parts of the content at
    most (a third): one holding more is the content under a misleading title."""
    excerpts: int = 2
    """Cut-off excerpts from which a box of them is a list of other posts' teasers."""
    labelled_items: int = 2
    """Items from which a list whose each item says something beside its link is the content's own."""


LIMITS = Thresholds()
