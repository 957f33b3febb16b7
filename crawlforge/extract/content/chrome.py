"""What site chrome looks like: the vocabulary of class and id words and of boilerplate lines.

Chrome is everything around the content that a reader skips: navigation, headers and footers,
comment threads, share bars, cookie banners, ads, related-article lists, bylines and credits.
The page names most of it, in its tags (`nav`, `aside`, ARIA roles) and in the words of its
class and id attributes; a name alone never removes a node holding much of the page's text.
"""

import re

from crawlforge.extract.content.nodes import class_and_id, class_of, HEADING_TAGS, outermost
from crawlforge.extract.content.policy import LIMITS
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
POST_PREFIXES = phrases("post_class_prefixes")
"""Class/id word beginnings of a discussion's posts."""
POST_CANDIDATES = ", ".join(f'[class*="{word}" i], [id*="{word}" i]' for word in POST_PREFIXES)
PRODUCT_CHROME_PREFIXES = phrases("product_chrome_prefixes")
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


def hints(name: str, node_id: str | None, known: dict) -> tuple[bool, bool, bool, bool, bool]:
    """(strong chrome, weak chrome, content, chrome other than an ad's or a paywall's, chrome
    other than a caption's) as said by a node's class and id words (`word_hints`), read already:
    the class and the id apart, as no word or phrase spans the blank between them. `known`: the
    page's memo of `string_hints` (`memo.PageMemo.hints`, or `thread_hints` on a thread)."""
    hints = known[name]
    if not node_id:
        return hints
    strong, weak, positive, not_ad, not_caption = hints
    id_strong, id_weak, id_positive, id_not_ad, id_not_caption = known[node_id]
    return (strong or id_strong, weak or id_weak, positive or id_positive, not_ad or id_not_ad,
            not_caption or id_not_caption)


def string_hints(hint: str, words: dict) -> tuple[bool, bool, bool, bool, bool]:
    """The hints of a class (or id) (`hints`), its vocabulary words found in one pass over the
    whole string: no word or phrase spans a blank, and splitting it into names first costs more
    than it saves. `words`: the page's memo of `word_hints`, for a thread or not."""
    hint = hint.lower()
    strong = weak = positive = not_ad = not_caption = False
    for word in _VOCABULARY_WORDS(" " + hint):
        word_strong, word_weak, word_positive, word_not_ad, word_not_caption = words[word]
        strong, weak, positive = strong or word_strong, weak or word_weak, positive or word_positive
        not_ad, not_caption = not_ad or word_not_ad, not_caption or word_not_caption
    weak = weak or _WEAK_PHRASE(hint) is not None
    return strong, weak, positive, not_ad, not_caption


def word_hints(word: str, thread: bool) -> tuple[bool, bool, bool, bool, bool]:
    """A word's part of `string_hints`. The last two, whatever the `thread`: a chrome word not
    about ads or a paywall, and one not naming a caption."""
    prefixes = _THREAD_STRONG_PREFIXES if thread else _STRONG_PREFIXES
    weak, chrome = word in _WEAK_WORDS, word.startswith(_STRONG_PREFIXES)
    return (word.startswith(prefixes) or word in _STRONG_WORDS, weak, word.startswith(_POSITIVE_PREFIXES),
            weak or chrome and not word.startswith(_AD_PREFIXES),
            weak or word in _STRONG_WORDS or chrome and not word.startswith(_CAPTION_PREFIXES))


def _trie(words: list) -> str:
    """One regex of `words`, none the start of another, as a trie (`a(?:d|rticle)`): dozens
    of words tried one by one at each letter of a class are slower."""
    heads: dict = {}
    for word in words:
        heads.setdefault(word[0], []).append(word[1:])
    branches = [re.escape(head) + (_trie(tails) if tails != [""] else "") for head, tails in sorted(heads.items())]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


_STARTS = {word for word in (*_STRONG_PREFIXES, *_STRONG_WORDS, *_WEAK_WORDS, *_POSITIVE_PREFIXES)
           if re.fullmatch("[a-z]+", word)}  # a word (`_WORD`) is letters only
_VOCABULARY_WORDS = re.compile(r"[^a-z0-9](%s[a-z]*)" % _trie(
    [word for word in _STARTS if not any(other != word and word.startswith(other) for other in _STARTS)])).findall
"""The words of a class or id (as `_WORD` finds them) that begin with a word `string_hints` looks
for: the others say nothing, and a class's words are found faster so. Each is found
with the character before it, the string given with a blank in front: a pattern that opens with
a set of characters is tried only where one stands (a lookbehind, at every character)."""


def hint_weight(node, known: dict) -> int:
    """+25/-25 from class and id words, as readability does. `known`: as for `hints` (on a
    thread comments are content)."""
    return name_weight(class_of(node), node.id, known)


def name_weight(name: str, node_id: str | None, known: dict) -> int:
    """`hint_weight` of a node's class and id, read already."""
    strong, weak, positive, _, _ = hints(name, node_id, known)
    return (LIMITS.class_weight if positive else 0) - (LIMITS.class_weight if strong or weak else 0)


def named(node, known: dict) -> bool:
    """A word of the node's class or id starts with one of the prefixes `known` is the page's
    memo of `starts_a_word` for (`memo.PageMemo.named[prefixes]`)."""
    return known[class_and_id(node)]


def starts_a_word(hint: str, prefixes: tuple) -> bool:
    """A word of the class and id `hint` starts with one of `prefixes`."""
    return any(word.startswith(prefixes) for word in _WORD.findall(hint.lower()))


_HIDDEN_NAME = re.compile(rf"(?<![a-z])(?:{'|'.join(map(re.escape, phrases('hidden_class_words')))})(?![a-z])",
                          re.IGNORECASE).search


def hidden_named(node) -> bool:
    """The node's class or id says the site's stylesheet hides it from sight (`sr-only`)."""
    return _HIDDEN_NAME(class_and_id(node)) is not None


def page_named(sizes: list, total: int, known: dict, classes: dict | None = None) -> set:
    """mem_ids of the chrome-named nodes whose class, shared by several of them, marks half of
    the page's text: a listing's story cards named `...-ad`, a service page's `promo` cards, each
    small, are together its content. Not comments (a thread's shape decides those), nor weak
    names (a menu's, a modal's items) but on sections each headed over a paragraph (`skip-item`).
    `known`: the page's memo of `string_hints` (`memo.PageMemo.hints`); `classes`: mem_id ->
    class of each node, when read already."""
    groups = {}
    for node, share, size in sizes:
        name = class_of(node) if classes is None else classes[node.mem_id]
        groups.setdefault(_leading_classes(name), []).append((node, size))
    spared = set()
    for name, members in groups.items():
        if not name or len(members) < LIMITS.named_cards or _THREAD_NAMED(name):
            continue  # comments hold much of a thread and its shape decides them
        _, weak, _, _, _ = known[name]
        share = total * (LIMITS.weak_named_share if weak else LIMITS.named_share)
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


_TITLES = HEADING_TAGS + ", a[href]"


def _leading_classes(name: str) -> str:
    return " ".join(name.split()[:LIMITS.card_classes])


_THREAD_NAMED = re.compile(rf"(?<![a-z0-9])(?:{'|'.join(phrases('thread_class_prefixes'))})",
                           re.IGNORECASE).search
