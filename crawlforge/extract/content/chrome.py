"""Site chrome on a lexbor tree: what it looks like, and removing it before scoring.

Chrome is everything around the content that a reader skips: navigation, headers and footers,
comment threads, share bars, cookie banners, ads, related-article lists, bylines and credits.
The page names most of it, in its tags (`nav`, `aside`, ARIA roles) and in the words of its
class and id attributes; a name alone never removes a node holding much of the page's text.
"""

import re
from functools import lru_cache

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.dom import tag_ids
from crawlforge.extract.words import pattern, phrases

NON_CONTENT_TAGS = ["script", "style", "noscript", "template", "iframe", "object", "embed",
                    "canvas", "svg", "button", "input", "select", "textarea", "option", "label",
                    "link", "meta"]
"""Tags whose text is code or form controls, never prose."""
CHROME_TAGS = ["nav", "aside", "footer", "menu", "dialog", "figcaption", "address", "time"]
"""Tags of site chrome, popups, and of credits, bylines and dates around the content."""

_AD_PREFIXES = phrases("ad_class_prefixes")
"""Strong words that may name a state of the content (`has-paywall`, `section--ads`) not a box."""
_CAPTION_PREFIXES = phrases("caption_class_prefixes")
_STRONG_PREFIXES = phrases("chrome_class_prefixes") + _AD_PREFIXES + _CAPTION_PREFIXES
"""Class/id word beginnings that mark chrome even next to a content word."""
_STRONG_WORDS = frozenset(phrases("ad_class_words"))
_WEAK_WORDS = frozenset(phrases("weak_class_words"))
"""Whole class/id words that mark chrome unless a content word is there too."""
_WEAK_PHRASES = phrases("weak_class_phrases")
_WEAK_PHRASE = re.compile("|".join(map(re.escape, _WEAK_PHRASES)) or "(?!)").search
_POSITIVE_PREFIXES = phrases("content_class_prefixes")
_THREAD_STRONG_PREFIXES = tuple(word for word in _STRONG_PREFIXES
                                if not word.startswith(phrases("thread_class_prefixes")))
"""On a thread the comments and their authors are the content."""
_POST_PREFIXES = phrases("post_class_prefixes")
"""Class/id word beginnings of a discussion's posts."""
_POST_CANDIDATES = ", ".join(f'[class*="{word}" i], [id*="{word}" i]' for word in _POST_PREFIXES)
_PRODUCT_CHROME_PREFIXES = phrases("product_chrome_prefixes")
"""Class/id word beginnings of what a product page shows beside the product: its reviews."""
_WORD = re.compile(r"(?<![a-z0-9])[a-z]+")
"""Words of a class or id: letters after a digit go on an obfuscated name (`jxk9ad` is no `ad`)."""


BOILERPLATE_LINE = re.compile(rf"\W*(?:{pattern('boilerplate_lines').pattern})", re.IGNORECASE)
"""Beginnings of lines that title site chrome inside an article: related reading, newsletter and
social prompts, comment and author boxes, further-information and back/next links, login and
paywall notes, post metadata (categories, tags), consent placeholders of embeds, rights notices,
tables of contents (several languages)."""
AD_LABEL = re.compile(rf"\W*(?:{pattern('ad_labels').pattern})\s*(?:$|[-:,.*)])", re.IGNORECASE)
"""A line labelling an ad or a sponsored post (`Anzeige`, `*Werbung.`): the label goes, the post stays."""
UI_LINE = re.compile(rf"\W*(?:(?:{pattern('ui_words').pattern})\W*)+", re.IGNORECASE)
"""A line of nothing but control and share-button words (`Teilen Twittern E-Mail`, `Drucken`)."""


def _hints(name: str, node_id: str | None, thread: bool) -> tuple[bool, bool, bool, bool, bool]:
    """(strong chrome, weak chrome, content, chrome other than an ad's or a paywall's, chrome
    other than a caption's) as said by a node's class and id words (`_word_hints`), read already:
    the class and the id apart, as no word or phrase spans the blank between them. A page's
    classes repeat, its ids mostly do not, and with a cache of their own they leave the classes'
    cached."""
    hints = (_THREAD_CLASSES if thread else _CLASSES)[name]
    if not node_id:
        return hints
    strong, weak, positive, not_ad, not_caption = hints
    id_strong, id_weak, id_positive, id_not_ad, id_not_caption = (_THREAD_IDS if thread else _IDS)[node_id]
    return (strong or id_strong, weak or id_weak, positive or id_positive, not_ad or id_not_ad,
            not_caption or id_not_caption)


def class_and_id(node) -> str:
    """The node's class and id, one blank between: two lookups of their own (``node.attributes``
    builds a dict of every attribute, on each of a page's thousand nodes with a class or id)."""
    return f"{class_of(node)} {node.id or ''}"


def class_of(node) -> str:
    """The node's class ("" for none): ``attrs["class"]``, where ``attrs.sget``, a Python-level
    call around that same lookup, costs twice as much on each of a page's thousand nodes."""
    try:
        return node.attrs["class"] or ""
    except KeyError:
        return ""


def _string_hints(hint: str, thread: bool) -> tuple[bool, bool, bool, bool, bool]:
    """The hints of a class (or id) (`_hints`), its vocabulary words found in one pass over the
    whole string: no word or phrase spans a blank, and splitting it into names first costs more
    than the names' own cache saves on a site never seen before."""
    hint = hint.lower()
    strong = weak = positive = not_ad = not_caption = False
    for word in _VOCABULARY_WORDS(" " + hint):
        word_strong, word_weak, word_positive, word_not_ad, word_not_caption = _word_hints(word, thread)
        strong, weak, positive = strong or word_strong, weak or word_weak, positive or word_positive
        not_ad, not_caption = not_ad or word_not_ad, not_caption or word_not_caption
    weak = weak or _WEAK_PHRASE(hint) is not None
    return strong, weak, positive, not_ad, not_caption


class _Hints(dict):
    """`make(hint, thread)` of class (or id) strings, each worked out once and found by a
    plain dict lookup (an ``lru_cache`` costs four times as much per call); emptied when full."""

    def __init__(self, make, size: int, thread: bool):
        super().__init__()
        self.make, self.size, self.thread = make, size, thread

    def __missing__(self, hint: str) -> tuple:
        if len(self) >= self.size:
            self.clear()
        found = self[hint] = self.make(hint, self.thread)
        return found


_CLASSES, _THREAD_CLASSES = _Hints(_string_hints, 8192, False), _Hints(_string_hints, 8192, True)
_IDS, _THREAD_IDS = _Hints(_string_hints, 1024, False), _Hints(_string_hints, 1024, True)


def _classify(hint: str, thread: bool = False) -> tuple[bool, bool, bool, bool, bool]:
    return (_THREAD_CLASSES if thread else _CLASSES)[hint]


@lru_cache(maxsize=8192)
def _word_hints(word: str, thread: bool) -> tuple[bool, bool, bool, bool, bool]:
    """A word's part of `_string_hints`: a few thousand words make the classes of many sites.
    The last two, whatever the `thread`: a chrome word not about ads or a paywall, and one not
    naming a caption."""
    prefixes = _THREAD_STRONG_PREFIXES if thread else _STRONG_PREFIXES
    weak, chrome = word in _WEAK_WORDS, word.startswith(_STRONG_PREFIXES)
    return (word.startswith(prefixes) or word in _STRONG_WORDS, weak, word.startswith(_POSITIVE_PREFIXES),
            weak or chrome and not word.startswith(_AD_PREFIXES),
            weak or word in _STRONG_WORDS or chrome and not word.startswith(_CAPTION_PREFIXES))


def _trie(words: list) -> str:
    """One regex of `words`, none the start of another, as a trie (`a(?:d|rticle)`): dozens
    of words tried one by one at each letter of a class are three times slower."""
    heads: dict = {}
    for word in words:
        heads.setdefault(word[0], []).append(word[1:])
    branches = [re.escape(head) + (_trie(tails) if tails != [""] else "") for head, tails in sorted(heads.items())]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


_STARTS = {word for word in (*_STRONG_PREFIXES, *_STRONG_WORDS, *_WEAK_WORDS, *_POSITIVE_PREFIXES)
           if re.fullmatch("[a-z]+", word)}  # a word (`_WORD`) is letters only
_VOCABULARY_WORDS = re.compile(r"[^a-z0-9](%s[a-z]*)" % _trie(
    [word for word in _STARTS if not any(other != word and word.startswith(other) for other in _STARTS)])).findall
"""The words of a class or id (as `_WORD` finds them) that begin with a word `_classify` looks
for: the others say nothing, and a class's words are found three times faster so. Each is found
with the character before it, the string given with a blank in front: a pattern that opens with
a set of characters is tried only where one stands (a lookbehind, at every character)."""


_CHROME_FORM_FIELDS = ("input[type=search], input[type=email], input[type=password], textarea, "
                      "input[name=q], input[name=s], input[name*=search], input[name*=mail]")
"""Fields of search, login, newsletter and comment forms; an add-to-cart form has none."""
_FIGURE_CONTENT = "table, pre, blockquote, ul, ol, h1, h2, h3, h4, h5, h6"
_MEDIA = frozenset({"img", "picture", "video", "source", "a"})
HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
_HEADING_TAGS = ", ".join(sorted(HEADINGS))
_THREAD_TAGS = frozenset({"address", "time"})
"""Chrome tags that hold a post's author line."""
_NEVER_CHROME = frozenset({"html", "body", "main"})
"""Whatever their class says (`sticky-nav-off`), these hold the content."""


def hint_weight(node, thread: bool = False) -> int:
    """+25/-25 from class and id words, as readability does (on a `thread` comments are content)."""
    return name_weight(class_of(node), node.id, thread)


def name_weight(name: str, node_id: str | None, thread: bool = False) -> int:
    """`hint_weight` of a node's class and id, read already."""
    strong, weak, positive, _, _ = _hints(name, node_id, thread)
    return (25 if positive else 0) - (25 if strong or weak else 0)


def prune(tree: LexborHTMLParser, thread: bool | None = False, product: bool = False) -> bool:
    """Removes chrome in place: junk tags, hidden nodes, and class/id-marked boilerplate. On a
    `thread` (a forum page) comments, authors and dates are its posts and their author lines;
    None: the page's shape tells (`is_thread`). Returns whether it was pruned as a thread."""
    body = tree.body
    if body is None:
        return bool(thread)
    total, whole = None, []  # whole: the text's length, scripts' too (`_over_half`)
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
    # before the strip: the controls are mostly <button>s; searched again when the page changed
    opened = disclosed(body.css("[aria-controls]") if changed else controls)
    streamed_into_place(body)  # before the strip: the placeholders are <template>s
    tree.strip_tags(NON_CONTENT_TAGS)
    if forms or thread is None:
        total = len(body.text(deep=True, strip=True, skip_empty=True))  # readable text: scripts may be most bytes
    remove_outermost(form for form in forms  # a page-wide <form> (ASP.NET, a shop's filter form) is no chrome
                     if len(form.text(deep=True, strip=True)) < total / 2)
    if thread is None:
        thread = is_thread(body, total)
    styled_hidden = revealed(body, total if forms or thread is None else None)
    tags = [tag for tag in CHROME_TAGS if tag not in _THREAD_TAGS] if thread else CHROME_TAGS
    holds_page = _holders(body.css(_PAGE_MAIN))  # what holds the page's main, from one search
    remove_outermost(node for node in body.css(", ".join(tags)) if node.mem_id not in holds_page)
    doomed, marks = [], _marks(body)
    panels = _holders(body.css(_PANELS)) if marks["hidden"] else set()  # what holds a panel, from one search
    for node in marks["hidden"]:
        if node.mem_id in holds_page or _folded(node, panels) or _opened(node, opened):  # what it removed held no main
            unhide(node)
        elif not _repeated_link(node):
            doomed.append(node)
    for node in styled_hidden:
        if _opened(node, opened):
            unhide(node)
        elif node.is_element_node and node.mem_id not in holds_page:  # the chrome tags went, no main with them
            doomed.append(node)
    if not thread:
        doomed += marks["credit"]
    else:
        doomed += remarks(body)
    doomed += heading_controls(body)
    doomed += [node for node in marks["header"] if node.css_first("p") is None and not _titles_article(node)]
    doomed += captions(body, marks["figure"])
    doomed += [node for node in marks["button"]  # controls: "show picture", "print"
               if len(node.text(deep=True, strip=True)) < 50]
    total = len(body.text(deep=True, strip=True, skip_empty=True))  # text left after the strip (skip_empty: blank
    # text nodes skipped in C, not made strings to be stripped to nothing: the same text)
    doomed += _boilerplate(body, total, thread, cards=not product,  # a product page's cards are other items
                           code=bool(marks["code"]))
    if product:
        doomed += [node for node in body.css("[class], [id]") if _named(node, _PRODUCT_CHROME_PREFIXES)
                   and len(node.text(deep=True, strip=True)) < total / 2]
    holding = _holders(marks["protected"]) if doomed else set()
    remove_outermost(node for node in doomed if node.tag not in _NEVER_CHROME and node.mem_id not in holding)
    return thread


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
    if header.css_first(_HEADING_TAGS) is None:
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


def remarks(body) -> list:
    """Comments the page's data nests in a question or an answer (schema.org microdata): remarks
    on a post of a Q&A page, not its answers. A forum's replies, marked as comments too, stand
    beside the question."""
    found = []
    for comment in body.css('[itemtype*="schema.org/Comment" i]'):
        node = comment.parent
        while node is not None and node.is_element_node:
            if _POST_ITEM.search(node.attrs.sget("itemtype", "") or ""):
                found.append(comment)
                break
            node = node.parent
    return found


_POST_ITEM = re.compile(r"schema\.org/(?:Question|Answer)\b", re.IGNORECASE)


def swallowed(iframe) -> None:
    """The page an unclosed `<iframe>` swallowed, parsed again in its place: its content is raw
    text to the end of the document, and a tag manager's `<noscript><iframe ... /></noscript>`
    (`/>` closes nothing in HTML) puts the whole page there. Only that rest is parsed again."""
    rest = LexborHTMLParser(iframe.text(deep=True)).body
    if rest is not None:
        for node in rest.iter(include_text=True):
            iframe.insert_before(node)  # lexbor inserts a copy
    iframe.decompose()


_HIDDEN_STYLES = ("display:none", "display: none", "visibility:hidden", "visibility: hidden")
"""Styles a browser does not show (as ``hidden``): the converter drops them, so they take no part
in the scoring either."""
_MAYBE_HIDDEN = '[hidden], [style*="none" i], [style*="hidden" i]'


def _hidden_nodes(body) -> list:
    """The nodes ``hidden`` or hidden by a style of `_HIDDEN_STYLES`, each listed once for each of
    those five it has, as a search for the five lists them, from a search for three: each
    attribute test is made on every node of the page, and few styles say none or hidden."""
    found, last = [], None
    for node in body.css(_MAYBE_HIDDEN):  # a node matching several comes as often, in a row
        if node.mem_id == last:
            continue
        last, attrs = node.mem_id, node.attrs
        style = (attrs.sget("style", "") or "").lower()  # the selectors' `i`
        found += [node] * (("hidden" in attrs) + sum(part in style for part in _HIDDEN_STYLES))
    return found


def revealed(body, total: int | None) -> list:
    """Shows hidden nodes that hold the page, and returns the other nodes hidden by their style
    (``hidden`` ones go with the ARIA roles). A page rendered on the server in streamed chunks
    holds its content in hidden children of ``<body>`` that a script moves into place (React's
    ``<div hidden id="S:1">``); a page faded in by script wraps it in a ``display:none`` box:
    hidden as they are, they hold most of its text. Folded tab panels and accordion sections are
    shown too. `total` is the readable text's length, None when not measured yet."""
    hidden = outermost(_hidden_nodes(body))
    if not hidden:
        return []
    sizes = [len(node.text(deep=True, strip=True, skip_empty=True)) for node in hidden]
    if total is None:
        total = len(body.text(deep=True, strip=True, skip_empty=True))
    chunks = [(node, size) for node, size in zip(hidden, sizes) if size and node.parent.mem_id == body.mem_id]
    shown = [node for node, size in zip(hidden, sizes)
             if size * 2 >= total or size and (_folded(node) or _answer(node))]
    if sum(size for _, size in chunks) * 2 >= total:
        shown += [node for node, _ in chunks]
    for node in shown:
        unhide(node)
    shown_ids = {node.mem_id for node in shown}
    return [node for node in hidden if node.mem_id not in shown_ids and "hidden" not in node.attrs]


def _answer(node) -> bool:
    """A hidden box right after a question (a line ending in `?`, `？`, `؟`): a FAQ's answer, folded."""
    question = node.prev
    while question is not None and not question.is_element_node:
        question = question.prev
    if question is None:
        return False
    text = question.text(deep=True, strip=True)
    return 0 < len(text) < QUESTION_LENGTH and text.endswith(_QUESTION_MARKS)


QUESTION_LENGTH = 200
_QUESTION_MARKS = phrases("question_marks")


_NUMBERED = re.compile(r"(.*[^0-9A-Za-z])([0-9a-f]{1,6})|(\D*)([0-9]+)")
"""An id's prefix and number: after its last separator (React's hex `S:2e`), else its last digits."""
_STYLE_HIDDEN = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def style_hides(node) -> bool:
    """Whether the element's own style hides it (``display:none``, ``visibility:hidden``), which
    the markdown converter then drops."""
    return _STYLE_HIDDEN.search(node.attrs.sget("style", "") or "") is not None


def streamed_into_place(body) -> None:
    """Moves the chunks of a page streamed from the server into their placeholders, shown. Such a
    page sends its late parts as hidden children of ``<body>`` that a script swaps for the empty
    placeholder numbered alike (React's ``<div hidden id="S:3">`` for ``<template id="B:3">`` or
    ``id="P:3"``): in place, a part of the sidebar is pruned with the sidebar, and the main part
    is scored in the main column. A chunk with no placeholder or several stays where it is."""
    chunks = {}
    node = body.child
    while node is not None:
        if node.is_element_node and node.id and ("hidden" in node.attrs or style_hides(node)):
            numbered = _numbered(node.id)
            if numbered:
                chunks[numbered[1]] = (numbered[0], node)
        node = node.next
    if not chunks:
        return
    slots = {}
    for order, slot in enumerate(body.css("[id]")):
        numbered = _numbered(slot.id or "")
        if numbered and numbered[1] in chunks and numbered[0] != chunks[numbered[1]][0] \
                and slot.parent.mem_id != body.mem_id and not slot.text(deep=True, strip=True):
            slots.setdefault(numbered[1], []).append((order, slot))
    placed = {number: found[0][1] for number, found in slots.items() if len(found) == 1}
    owners = {chunk.mem_id: number for number, (_, chunk) in chunks.items() if number in placed}
    inside: dict = {}  # chunk number -> numbers of the slots it holds: filled before it moves
    for number, slot in placed.items():
        node = slot
        while node.parent is not None and node.parent.mem_id != body.mem_id:
            node = node.parent
        if owners.get(node.mem_id) != number:  # a slot inside its own chunk stays empty
            inside.setdefault(owners.get(node.mem_id), []).append(number)
    for number in _filled_first(inside, None):
        slot, chunk = placed[number], chunks[number][1]
        slot.insert_before(chunk)  # a copy
        unhide(slot.prev)  # the copy
        slot.decompose()
        chunk.decompose()


def _filled_first(inside: dict, owner) -> list:
    """The chunk numbers held by `owner` (None: the page), each after those it holds."""
    order = []
    for number in inside.get(owner, ()):
        order += _filled_first(inside, number) + [number]
    return order


def _numbered(name: str) -> tuple | None:
    found = _NUMBERED.fullmatch(name)
    return None if found is None else (found.group(1), found.group(2)) if found.group(2) else (found.group(3), found.group(4))



def is_thread(body, total: int) -> bool:
    """Comment-named boxes hold most of the page's text and no article stands outside them
    (under three paragraphs of prose): a discussion whose posts are its comments, the shape of
    a link aggregator's or a news site's comment page that declares no forum."""
    posts, inside = [], set()
    for node in body.css(_POST_CANDIDATES):  # the selector narrows, the words decide
        if node.mem_id in inside or not _named(node, _POST_PREFIXES):
            continue
        posts.append(node)
        inside.update(child.mem_id for child in node.css("*"))
    text = sum(len(node.text(deep=True, strip=True, skip_empty=True)) for node in posts)
    if text * 2 <= total:
        posts = permalinked_posts(body, total)
        inside = {child.mem_id for node in posts for child in node.css("*")}
        if sum(len(node.text(deep=True, strip=True, skip_empty=True)) for node in posts) * 2 <= total:
            return False
    prose = 0
    for p in body.css("p"):
        if p.mem_id not in inside and len(p.text(deep=True, strip=True)) >= 150:
            prose += 1
    return prose < THREAD_ARTICLE_PROSE


THREAD_ARTICLE_PROSE = 3
"""Paragraphs of prose outside the comments from which the page is an article with comments."""


def permalinked_posts(body, total: int) -> list:
    """The largest run of sibling boxes each numbered (`id="p2270718"`, `post-19759589`) and
    holding a link with its number (its permalink: `#p2270718`, `posts/19759589/`) and a date: a
    forum's posts, whatever their class (`post`, `blockpost`, `message`). A docs page's sections
    link to themselves too, by name and undated; a shop's item cards by number, undated. Only a
    run holding over half of the page's `total` text is read."""
    runs = {}
    for node in body.css("[id]"):
        number = _POST_NUMBER.search(node.id or "")
        if number is not None and node.parent is not None:
            runs.setdefault(node.parent.mem_id, []).append((node, number.group()))
    best, best_text = [], 0
    for run in runs.values():
        if len(run) < THREAD_POSTS:
            continue
        sizes = [len(node.text(deep=True, strip=True, skip_empty=True)) for node, _ in run]
        if sum(sizes) * 2 <= total:
            continue
        posts = [(node, size) for (node, number), size in zip(run, sizes)
                 if node.css_first(f'a[href*="{number}"]') is not None]
        text = sum(size for _, size in posts)
        if len(posts) >= THREAD_POSTS and text > best_text:
            best, best_text = [node for node, _ in posts], text
    return best if sum(_dated(node) for node in best) >= 0.8 * len(best) else []


_POST_NUMBER = re.compile(r"\d{4,}")
THREAD_POSTS = 2
"""Permalinked, dated sibling boxes from which they are a thread's posts."""
_STAMP = re.compile(r"\b(?:\d{1,2}:\d{2}|(?:19|20)\d{2})\b")
"""A clock time or a year: a post's date line (`Tue Aug 27, 2019 1:47 am`, `2024-08-01 10:45`)."""


def _dated(node) -> bool:
    """A `<time>` or a short line with a clock time or a year."""
    if node.css_first("time") is not None:
        return True
    return any(child.tag == "-text" and len((child.text_content or "").strip()) < 80
               and _STAMP.search(child.text_content or "") for child in node.traverse(include_text=True))


def _named(node, prefixes: tuple) -> bool:
    """A word of the node's class or id starts with one of `prefixes`."""
    return _starts_a_word(class_and_id(node), prefixes)


@lru_cache(maxsize=8192)
def _starts_a_word(hint: str, prefixes: tuple) -> bool:
    return any(word.startswith(prefixes) for word in _WORD.findall(hint.lower()))


def unhide(node) -> None:
    """Content kept although hidden is shown: the markdown converter drops what is hidden."""
    if "hidden" in node.attrs:
        del node.attrs["hidden"]
    if style_hides(node):
        del node.attrs["style"]


def _repeated_link(node) -> bool:
    """A link kept from screen readers and the tab order (``aria-hidden`` and ``tabindex=-1``)
    because another link of its card goes to the same page: its text, a teaser, is on screen."""
    return node.tag == "a" and node.attributes.get("tabindex") == "-1" and node.attributes.get("aria-hidden") == "true"


def _folded(node, panels: set | None = None) -> bool:
    """A hidden tab panel or accordion section (`role=tabpanel`, a `role=region` a header
    labels): the page's content, folded until a reader opens it. `panels`: mem_ids of the
    nodes that are or hold a panel (`_holders`), when searched already: a node of none holds no
    panel, and a page's hundreds of hidden icons are not searched one by one."""
    role = node.attributes.get("role")
    if role == "tabpanel" or role == "region" and node.attributes.get("aria-labelledby") is not None:
        return True
    if panels is not None and node.mem_id not in panels:
        return False
    panel = node.css_first(_PANELS)  # a collapse box around its panel, hidden in its place
    return panel is not None and panel.mem_id != node.mem_id \
        and len(panel.text(deep=True, strip=True)) == len(node.text(deep=True, strip=True))


_PANELS = "[role=tabpanel], [role=region][aria-labelledby]"


def disclosed(controls: list) -> set:
    """Ids of the panels a folded control opens (`aria-expanded="false"` and `aria-controls`,
    or a button's `aria-controls` alone): an accordion's or a FAQ's answers, hidden until the
    reader opens them. `controls`: the page's nodes with `aria-controls`, one attribute
    searched on every node (not three)."""
    return {name for control in controls
            if control.tag == "button" or control.attrs.get("aria-expanded") == "false"
            for name in (control.attrs.sget("aria-controls", "") or "").split()}


OPENED_LINKS = 0.5
"""Share of link text from which a panel a control opens is a menu's, not content."""


def _opened(node, opened: set) -> bool:
    """A panel a folded control opens (`disclosed`) that reads as text, not as a menu of links."""
    if not opened or not node.is_element_node or node.id not in opened:
        return False
    return bool(node.text(deep=True, strip=True, skip_empty=True)) and link_density(node) < OPENED_LINKS


def link_density(node) -> float:
    """Share of the node's text that is link text (0 for a node with none)."""
    text = len(node.text(deep=True, strip=True, skip_empty=True))
    if not text:
        return 0.0
    return min(1.0, sum(len(a.text(deep=True, strip=True)) for a in node.css("a")) / text)


def _holders(nodes) -> set:
    """mem_ids of the nodes that are or hold one of `nodes`, the matches of a selector
    (``node.css_first(selector)`` is not None), from one search: a search under each of a
    page's hundreds of doomed nodes costs milliseconds."""
    found = set()
    for node in nodes:
        while node is not None and node.mem_id not in found:
            found.add(node.mem_id)
            node = node.parent
    return found


_PAGE_MAIN = "main, [role=main]"
"""The page's main: a chrome tag or role around it (an unclosed `<aside>` wrapping `<main>`, a
modal or dialog the page is rendered in) is no chrome."""


def _holds_prose(node) -> bool:
    """Two paragraphs of 150 characters or more: an ad box or a paywall prompt has at most one."""
    return sum(len(p.text(deep=True, strip=True)) >= 150 for p in node.css("p")) >= 2


def captions(body, figures=None) -> list:
    """Text beside the picture of a `<figure>`: captions and credits (`figcaption` is already
    gone; many pages write theirs in a `div` or `span`). Figures of tables, code or quotes stay,
    and so do a grid's item cards written as figures: picture and title link to the item.
    `figures`: the body's, when found already."""
    figures = [figure for figure in (body.css("figure") if figures is None else figures)
               if holds_any(figure, _PICTURE_IDS) and not holds_any(figure, _FIGURE_CONTENT_IDS)]
    cards = {figure.mem_id for figure in figures if _titled_by_link(figure)}
    if len(cards) < FIGURE_CARDS:
        cards = set()
    found = []
    for figure in figures:
        if figure.mem_id not in cards:
            found += [node for node in figure.css("*") if node.mem_id != figure.mem_id
                      and node.tag not in _MEDIA and not holds_any(node, _PICTURE_IDS)]
    return found


_PICTURE_IDS = tag_ids(("img", "picture", "video"))
_FIGURE_CONTENT_IDS = tag_ids(_FIGURE_CONTENT.split(", "))
FIGURE_CARDS = 3
"""Figures titled by a link from which they are a grid's cards, not an article's pictures."""


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


def _boilerplate(body, total: int, thread: bool = False, cards: bool = True, code: bool = True) -> list:
    """Nodes whose class/id names say chrome. A node holding much of the page's text survives:
    half of it for a chrome name (`secondary-sticky-nav` around the page), 30 % when the name also says content (`entry share`), and so
    does prose whose name speaks only of ads or a paywall (an article behind one, ad slots inside).
    With `cards`, a box named a caption that holds a heading is an item card's text, no caption.
    `code`: whether the body holds code (`pre`, `code`), whose highlighting spans are no chrome."""
    found, large, classes = [], [], {}  # classes: mem_id -> class, of the nodes in `large`
    last, named = None, None  # a node with a class and an id comes twice in a row: judged once
    for node in body.css("[class], [id]"):
        mem_id = node.mem_id
        if mem_id == last:
            if named is not None:
                large.append(named)
            continue
        last, named = mem_id, None
        name, node_id = class_of(node), node.id  # each read once for all the tests below
        strong, weak, positive, not_ad, not_caption = _hints(name, node_id, thread)
        if not (strong or weak) or node.tag in HEADINGS:
            continue
        if strong and not not_ad and _holds_prose(node):
            continue  # its only chrome words are about ads or a paywall
        if cards and strong and not not_caption and node.css_first(_HEADING_TAGS) is not None:
            continue  # its only chrome words name a caption
        if strong:
            named = (node, 0.3 if positive else 0.5)
        elif not positive and node.tag != "p":
            named = (node, 0.5)
        if named is not None:
            large.append(named)
            classes[mem_id] = name
    if large:
        size = {}  # each node's text read once, however often it is listed
        sizes = [(node, share, size[node.mem_id] if node.mem_id in size else
                  size.setdefault(node.mem_id, len(node.text(deep=True, strip=True, skip_empty=True))))
                 for node, share in large]
        spared = page_named(sizes, total, classes)
        found += [node for node, share, size in sizes if size < total * share and node.mem_id not in spared]
    in_code = {node.mem_id for node in body.css("pre [class], pre [id], code [class], code [id]")} \
        if found and code else set()
    return [node for node in found if node.mem_id not in in_code  # syntax-highlighting spans
            and (not _in_heading(node) or hidden_named(node))]  # a heading's shown text is never chrome


_HIDDEN_NAME = re.compile(rf"(?<![a-z])(?:{'|'.join(map(re.escape, phrases('hidden_class_words')))})(?![a-z])",
                          re.IGNORECASE).search


def hidden_named(node) -> bool:
    """The node's class or id says the site's stylesheet hides it from sight (`sr-only`)."""
    return _HIDDEN_NAME(class_and_id(node)) is not None


def _in_heading(node) -> bool:
    """Whether a heading holds the node."""
    node = node.parent
    while node is not None and node.tag not in HEADINGS:
        node = node.parent
    return node is not None


def heading_controls(body) -> list:
    """The controls inside headings (`[edit]`, `Share`): a line of button words beside the
    heading's own text. The heading's text stays, however its boxes are named."""
    found = []
    for heading in body.css(_HEADING_TAGS):
        whole = heading.text(deep=True, strip=True)
        for node in heading.css("*"):
            if node.mem_id == heading.mem_id:  # lexbor's css() matches the root itself too
                continue
            text = node.text(deep=True, strip=True)
            if text and text != whole and UI_LINE.fullmatch(text) is not None:
                found.append(node)
    return found


def page_named(sizes: list, total: int, classes: dict | None = None) -> set:
    """mem_ids of the chrome-named nodes whose class, shared by several of them, marks half of
    the page's text: a listing's story cards named `...-ad`, a service page's `promo` cards, each
    small, are together its content. Not comments (a thread's shape decides those), nor weak
    names (a menu's, a modal's items) but on sections each headed over a paragraph (`skip-item`).
    `classes`: mem_id -> class of each node, when read already."""
    groups = {}
    for node, share, size in sizes:
        name = class_of(node) if classes is None else classes[node.mem_id]
        groups.setdefault(_leading_classes(name), []).append((node, size))
    spared = set()
    for name, members in groups.items():
        if not name or len(members) < NAMED_CARDS or _THREAD_NAMED(name):
            continue  # comments hold much of a thread and its shape decides them
        weak = _classify(name)[1]
        share = total * (WEAK_NAMED_SHARE if weak else 0.5)
        if sum(size for _, size in members) < share:
            continue  # the outermost of them hold less still: their nesting is not looked up
        sized = {node.mem_id: size for node, size in members}
        outer = outermost(node for node, _ in members)
        if weak and not all(map(_headed_prose, outer)):
            continue  # a menu's or a modal's items hold much of a page and are chrome
        if sum(sized[node.mem_id] for node in outer) >= share:
            spared |= sized.keys()
    return spared


def _headed_prose(node) -> bool:
    """A paragraph under a heading or a link: an article's section (`skip-item` sections, each
    one titled), a story's teaser; a menu's or a modal's items hold links and buttons, no prose."""
    return node.css_first("p") is not None and node.css_first(_TITLES) is not None


_TITLES = _HEADING_TAGS + ", a[href]"
WEAK_NAMED_SHARE = 2 / 3
"""Share of the page's text that boxes sharing a weak chrome name (`teaser`, `footer`) hold when
they are its content: a footer's columns of prose may hold half of a short article's page."""


CARD_CLASSES = 2
"""Leading class words the cards of one run share: the words after them name each card's theme,
colour or item (`promo cmp-promo__services ... cmp-promo__services--deloitte-green`)."""


def _leading_classes(name: str) -> str:
    return " ".join(name.split()[:CARD_CLASSES])


_THREAD_NAMED = re.compile(rf"(?<![a-z0-9])(?:{'|'.join(phrases('thread_class_prefixes'))})",
                           re.IGNORECASE).search
NAMED_CARDS = 3
"""Nodes sharing a class from which their summed text counts, as one node's would."""


def near_tags(root, tags: tuple) -> bool:
    """Whether `root` is, holds or sits in an element of `tags`: a descendant selector (`pre *`,
    `header p`) walks up from each node it tries, so a root with none of them near skips it."""
    if root.css_first(", ".join(tags)) is not None:  # the root itself too
        return True
    node = root.parent
    while node is not None and node.tag not in tags:
        node = node.parent
    return node is not None


def holds_any(node, ids: frozenset) -> bool:
    """Whether the node is or holds an element of `ids` (``tag_ids``), by a walk of its subtree: a
    ``css_first`` costs about 3 us before it looks at a node (its selector parsed, its memory
    made), ten times the walk of a link's or an empty box's few nodes."""
    for inner in node.traverse():
        if inner.tag_id in ids:
            return True
    return False


def holds_link(node) -> bool:
    """Whether the node is or holds a link with an address (`a[href]`), by a walk of its subtree
    (as ``holds_any``)."""
    for inner in node.traverse():
        if inner.tag_id == _LINK_ID and "href" in inner.attrs:
            return True
    return False


[_LINK_ID] = tag_ids(("a",))


def remove_outermost(nodes) -> None:
    """Decomposes nodes, skipping those inside another doomed node (lexbor frees the subtree)."""
    for node in outermost(nodes):
        node.decompose()


def outermost(nodes) -> list:
    """The nodes not inside another of them."""
    nodes = list(nodes)
    clear = dict.fromkeys((node.mem_id for node in nodes), False)  # mem_id -> none of them at or above it
    found = []
    for node in nodes:
        path, parent, outer = [], node.parent, True  # each ancestor walked once, for the first node below it
        while parent is not None:
            outer = clear.get(parent.mem_id)
            if outer is not None:
                break
            path.append(parent.mem_id)
            parent = parent.parent
        else:
            outer = True
        for mem_id in path:
            clear[mem_id] = outer
        if outer:
            found.append(node)
    return found
