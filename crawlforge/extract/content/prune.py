"""Step 1, prune: remove chrome before scoring: junk tags, hidden nodes, chrome tags and roles,
credits, captions, controls, and the nodes whose class/id words say chrome."""

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.content.cards import set_aside_dates
from crawlforge.extract.content.chrome import (CHROME_TAGS, hidden_named, hints, named, NON_CONTENT_TAGS,
                                               page_named, PRODUCT_CHROME_PREFIXES, UI_LINE)
from crawlforge.extract.content.hidden import (disclosed, folded, opened_panel, PANELS, repeated_link,
                                               revealed, streamed_into_place, swallowed, unhide)
from crawlforge.extract.content.nodes import (class_of, HEADING_TAGS, HEADINGS, held_by, holders, holds_any,
                                              remove_outermost)
from crawlforge.extract.content.policy import LIMITS
from crawlforge.extract.content.threads import is_thread, remarks
from crawlforge.extract.dom import tag_ids


_CHROME_FORM_FIELDS = ("input[type=search], input[type=email], input[type=password], textarea, "
                      "input[name=q], input[name=s], input[name*=search], input[name*=mail]")
"""Fields of search, login, newsletter and comment forms; an add-to-cart form has none."""
_FIGURE_CONTENT = "table, pre, blockquote, ul, ol, h1, h2, h3, h4, h5, h6"
_MEDIA = frozenset({"img", "picture", "video", "source", "a"})


_THREAD_TAGS = frozenset({"address", "time"})
"""Chrome tags that hold a post's author line."""
_NEVER_CHROME = frozenset({"html", "body", "main"})
"""Whatever their class says (`sticky-nav-off`), these hold the content."""


def prune(tree: LexborHTMLParser, memo, thread: bool | None = False, product: bool = False) -> bool:
    """Removes chrome in place: junk tags, hidden nodes, and class/id-marked boilerplate. On a
    `thread` (a forum page) comments, authors and dates are its posts and their author lines;
    None: the page's shape tells (`is_thread`). Returns whether it was pruned as a thread.
    `memo`: the page's `memo.PageMemo`."""
    body = tree.body
    if body is None:
        return bool(thread)
    total = None
    forms, opened = _opened_up(body)
    streamed_into_place(body)  # before the strip: the placeholders are <template>s
    tree.strip_tags(NON_CONTENT_TAGS)
    if forms or thread is None:
        total = len(body.text(deep=True, strip=True, skip_empty=True))  # readable text: scripts may be most bytes
    remove_outermost(form for form in forms  # a page-wide <form> (ASP.NET, a shop's filter form) is no chrome
                     if len(form.text(deep=True, strip=True)) < total / 2)
    if thread is None:
        thread = is_thread(body, total, memo)
    styled_hidden = revealed(body, total if forms or thread is None else None)
    tags = [tag for tag in CHROME_TAGS if tag not in _THREAD_TAGS] if thread else CHROME_TAGS
    dates = set_aside_dates(body) if not thread else set()  # a listing's card keeps its own date
    chrome, mains = _chrome_tags(body, tags)
    holds_page = holders(mains)  # what holds the page's main
    remove_outermost(node for node in chrome if node.mem_id not in holds_page and node.mem_id not in dates)
    marks = _marks(body)
    doomed = _hidden(body, marks["hidden"], styled_hidden, holds_page, opened)
    if not thread:
        doomed += marks["credit"]
    else:
        doomed += remarks(body)
    doomed += heading_controls(body)
    doomed += [node for node in marks["header"] if node.css_first("p") is None and not _titles_article(node)]
    doomed += captions(body, marks["figure"])
    doomed += [node for node in marks["button"]  # controls: "show picture", "print"
               if len(node.text(deep=True, strip=True)) < LIMITS.control_text]
    total = len(body.text(deep=True, strip=True, skip_empty=True))  # text left after the strip (skip_empty: blank
    # text nodes skipped in C, not made strings to be stripped to nothing: the same text)
    doomed += _boilerplate(body, total, memo, thread, cards=not product,  # a product page's cards are other items
                           code=bool(marks["code"]))
    if product:
        doomed += [node for node in body.css("[class], [id]") if named(node, memo.named[PRODUCT_CHROME_PREFIXES])
                   and len(node.text(deep=True, strip=True)) < total / 2]
    holding = holders(marks["protected"]) if doomed else set()
    remove_outermost(node for node in doomed if node.tag not in _NEVER_CHROME and node.mem_id not in holding)
    return thread


def _chrome_tags(body, tags: list) -> tuple[list, list]:
    """(the nodes of the chrome `tags`, the page's main ones: `_PAGE_MAIN`), from one walk of
    the page, which costs more than the tests of its selectors."""
    chrome, mains, last = [], [], None
    for node in body.css(", ".join(tags) + ", " + _PAGE_MAIN):
        if node.mem_id == last:  # a chrome tag or a `main` whose role says main comes twice in a row
            continue
        last = node.mem_id
        if node.tag in tags:
            chrome.append(node)
            if node.attrs.get("role") == "main":
                mains.append(node)
        else:
            mains.append(node)
    return chrome, mains


def _opened_up(body) -> tuple[list, set]:
    """(the forms of search, login or comment fields, the ids of the panels folded controls
    open), from one walk of the page, once what swallowed the page is opened: a `noscript` left
    open or holding the article, an unclosed `iframe` (parsed again in place), a drawing left
    open. Before the strip: the controls are mostly <button>s."""
    whole = []  # the text's length, scripts' too (`_over_half`)
    found = {"form": [], "noscript": [], "iframe": [], "svg": []}
    controls, last = [], None  # the page's [aria-controls], for `disclosed`
    for node in body.css("form, noscript, iframe, svg, [aria-controls]"):  # one walk of the page for the five
        if node.mem_id == last:  # one of the four with aria-controls too comes twice in a row
            controls.append(node)
            continue
        last, tag = node.mem_id, node.tag
        if tag in found:
            found[tag].append(node)
        else:
            controls.append(node)
    forms = [form for form in found["form"] if form.css_first(_CHROME_FORM_FIELDS) is not None]
    changed = False  # a node unwrapped or a page parsed again: the walk's lists are out of date
    for noscript in found["noscript"]:  # left open it swallows the page; or it holds the article
        if _over_half(noscript, body, whole) or _holds_prose(noscript):
            noscript.unwrap()
            changed = True
    reparsed = False
    for iframe in found["iframe"]:
        if _over_half(iframe, body, whole):
            swallowed(iframe)
            reparsed = changed = True
    for svg in body.css("svg") if reparsed else found["svg"]:  # a drawing left open swallows the page as its text
        if _over_half(svg, body, whole):
            svg.unwrap()
            changed = True
    return forms, disclosed(body.css("[aria-controls]") if changed else controls)  # searched again when changed


def _hidden(body, hidden: list, styled_hidden: list, holds_page: set, opened: set) -> list:
    """The hidden nodes that go: neither holding the page's main (`holds_page`), nor a folded
    panel, nor one a control opens (those are shown), nor a card's repeated link."""
    doomed = []
    panels = holders(body.css(PANELS)) if hidden else set()  # what holds a panel, from one search
    for node in hidden:  # holding the page's main: what the chrome tags' removal took held none
        if node.mem_id in holds_page or folded(node, panels) or opened_panel(node, opened):
            unhide(node)
        elif not repeated_link(node):
            doomed.append(node)
    for node in styled_hidden:
        if opened_panel(node, opened):
            unhide(node)
        elif node.is_element_node and node.mem_id not in holds_page:  # the chrome tags went, no main with them
            doomed.append(node)
    return doomed


_HIDDEN_ROLES = frozenset({"navigation", "contentinfo", "complementary", "banner", "dialog", "alert"})
_CREDIT_PROPS = frozenset({"author", "datePublished", "dateModified", "publisher", "keywords"})
_MARKS = ("[hidden], [aria-hidden=true], [role], [aria-modal=true], [itemprop], [rel=author], header, figure, "
          "h1, main, article, pre, code")
"""`_marks`' selectors, the roles' eight (`role=navigation`, `button`, `main`...) as one, and so the
six item properties (`author`, `articleBody`...): each attribute test is made on every node of the
page, and a page has few roles and few item properties."""


def _marks(body) -> dict:
    """What `prune` looks for after the chrome tags, from one walk of the page: hidden nodes and
    chrome roles, credits (author, dates, keywords), headers, figures, buttons, code, and the
    nodes never removed as chrome nor with it (h1, main, article, the article's body). Each
    listed as often as a search for its kind listed it: once for each selector it matches (a
    hidden navigation twice)."""
    marks = {"hidden": [], "credit": [], "header": [], "figure": [], "button": [], "code": [], "protected": []}
    seen = set()
    for node in body.css(_MARKS):  # a node matching several of them comes as often
        if node.mem_id in seen:
            continue
        seen.add(node.mem_id)
        attributes, tag = node.attributes, node.tag
        role, prop = attributes.get("role"), attributes.get("itemprop")
        marks["hidden"] += [node] * (("hidden" in attributes) + (attributes.get("aria-hidden") == "true")
                                     + (role in _HIDDEN_ROLES) + (attributes.get("aria-modal") == "true"))
        marks["credit"] += [node] * ((prop in _CREDIT_PROPS) + ((attributes.get("rel") or "").lower() == "author"))
        if tag == "header" or tag == "figure":
            marks[tag].append(node)
        if role == "button":
            marks["button"].append(node)
        if tag == "pre" or tag == "code":
            marks["code"].append(node)
        if tag in ("h1", "main", "article") or prop == "articleBody" or role == "main":
            marks["protected"].append(node)
    return marks


def _titles_article(header) -> bool:
    """A `<header>` inside an `<article>` holding a heading is that article's title, as each
    post card of a blog's index has it (`article > header > h2 > a`), not the site's header."""
    if header.css_first(HEADING_TAGS) is None:
        return False
    node = header.parent
    while node is not None and node.tag != "article":
        node = node.parent
    return node is not None


def _over_half(node, body, whole: list) -> bool:
    """Whether the node holds more than half of the body's text. `whole` keeps the body's text
    length, read for the first node with text, before any is changed: most pages' noscripts,
    iframes and drawings hold none, and the body's text with its scripts is long."""
    size = len(node.text(deep=True, strip=True, skip_empty=True))
    if size and not whole:
        whole.append(len(body.text(deep=True, strip=True, skip_empty=True)))
    return size > 0 and size > whole[0] / 2


_PAGE_MAIN = "main, [role=main]"
"""The page's main: a chrome tag or role around it (an unclosed `<aside>` wrapping `<main>`, a
modal or dialog the page is rendered in) is no chrome."""


def _holds_prose(node) -> bool:
    """Paragraphs of prose, `LIMITS.prose_box` of them: an ad box or a paywall prompt has one at most."""
    return sum(len(p.text(deep=True, strip=True)) >= LIMITS.prose_paragraph for p in node.css("p")) \
        >= LIMITS.prose_box


def captions(body, figures=None) -> list:
    """Text beside the picture of a `<figure>`: captions and credits (`figcaption` is already
    gone; many pages write theirs in a `div` or `span`). Figures of tables, code or quotes stay,
    and so do a grid's item cards written as figures: picture and title link to the item.
    `figures`: the body's, when found already."""
    figures = [figure for figure in (body.css("figure") if figures is None else figures)
               if holds_any(figure, _PICTURE_IDS) and not holds_any(figure, _FIGURE_CONTENT_IDS)]
    cards = {figure.mem_id for figure in figures if _titled_by_link(figure)}
    if len(cards) < LIMITS.figure_cards:
        cards = set()
    found = []
    for figure in figures:
        if figure.mem_id not in cards:
            found += [node for node in figure.css("*") if node.mem_id != figure.mem_id
                      and node.tag not in _MEDIA and not holds_any(node, _PICTURE_IDS)]
    return found


_PICTURE_IDS = tag_ids(("img", "picture", "video"))
_FIGURE_CONTENT_IDS = tag_ids(_FIGURE_CONTENT.split(", "))


def _titled_by_link(figure) -> bool:
    """The picture and a line of text link to one address, an item's page (a caption's source
    link goes elsewhere than its picture)."""
    pictures, titles = set(), set()
    for link in figure.css("a[href]"):
        href = link.attributes.get("href")
        if link.css_first("img, picture") is not None:
            pictures.add(href)
        elif link.text(deep=True, strip=True):
            titles.add(href)
    return bool(pictures & titles)


def _boilerplate(body, total: int, memo, thread: bool = False, cards: bool = True, code: bool = True) -> list:
    """Nodes whose class/id names say chrome. A node holding much of the page's text survives:
    `LIMITS.named_share` of it for a chrome name (`secondary-sticky-nav` around the page),
    `LIMITS.content_named_share` when the name also says content (`entry share`), and so
    does prose whose name speaks only of ads or a paywall (an article behind one, ad slots inside).
    With `cards`, a box named a caption that holds a heading is an item card's text, no caption.
    `code`: whether the body holds code (`pre`, `code`), whose highlighting spans are no chrome."""
    found, large, classes = [], [], {}  # classes: mem_id -> class, of the nodes in `large`
    known = memo.thread_hints if thread else memo.hints
    last, named = None, None  # a node with a class and an id comes twice in a row: judged once
    for node in body.css("[class], [id]"):
        mem_id = node.mem_id
        if mem_id == last:
            if named is not None:
                large.append(named)
            continue
        last, named = mem_id, None
        name, node_id = class_of(node), node.id  # each read once for all the tests below
        strong, weak, positive, not_ad, not_caption = hints(name, node_id, known)
        if not (strong or weak) or node.tag in HEADINGS:
            continue
        if strong and not not_ad and _holds_prose(node):
            continue  # its only chrome words are about ads or a paywall
        if cards and strong and not not_caption and node.css_first(HEADING_TAGS) is not None:
            continue  # its only chrome words name a caption
        if strong:
            named = (node, LIMITS.content_named_share if positive else LIMITS.named_share)
        elif not positive and node.tag != "p":
            named = (node, LIMITS.named_share)
        if named is not None:
            large.append(named)
            classes[mem_id] = name
    if large:
        size = {}  # each node's text read once, however often it is listed
        sizes = [(node, share, size[node.mem_id] if node.mem_id in size else
                  size.setdefault(node.mem_id, len(node.text(deep=True, strip=True, skip_empty=True))))
                 for node, share in large]
        spared = page_named(sizes, total, memo.hints, classes)
        found += [node for node, share, size in sizes if size < total * share and node.mem_id not in spared]
    in_code = {node.mem_id for node in body.css("pre [class], pre [id], code [class], code [id]")} \
        if found and code else set()
    in_heading = held_by(found, _HEADING_IDS)
    return [node for node in found if node.mem_id not in in_code  # syntax-highlighting spans
            and (node.mem_id not in in_heading or hidden_named(node))]  # a heading's shown text is never chrome


_HEADING_IDS = tag_ids(HEADINGS)


def heading_controls(body) -> list:
    """The controls inside headings (`[edit]`, `Share`): a line of button words beside the
    heading's own text. The heading's text stays, however its boxes are named."""
    found = []
    for heading in body.css(HEADING_TAGS):
        whole = heading.text(deep=True, strip=True)
        for node in heading.css("*"):
            if node.mem_id == heading.mem_id:  # lexbor's css() matches the root itself too
                continue
            text = node.text(deep=True, strip=True)
            if text and text != whole and UI_LINE.fullmatch(text) is not None:
                found.append(node)
    return found
