"""The page's title heading, when its main content leaves it out: a wiki's or a news site's
`h1` often sits above the box its text is in, and a reader (or a model) of the markdown alone
then never learns what the page is about."""

import re
from urllib.parse import urlsplit

from crawlforge.extract.content.nodes import HEADING_TAGS, HEADINGS, link_density
from crawlforge.extract.content.policy import LIMITS


def page_title(found: list):
    """The page's one `h1` (of those `found` before pruning), when it has one with text of its
    own: a page of several `h1` (a logo's and the title's, one a section) names no one title."""
    if len(found) != 1:
        return None
    text = found[0].text(deep=True, strip=True)
    return found[0] if text and len(text) < LIMITS.title_line else None


def missing_title(tree, h1, nodes: list, url: str) -> str | None:
    """The title's text, to set before `nodes`, or None when the content holds an `h1` or opens
    with a heading of the same text (the title is there already), or the title was pruned (a
    site's name in its header), is a link (a logo's), names the site (`example.org`,
    `Example's Blog`), or does not stand before the content."""
    if h1 is None or not nodes or any(node.tag == "h1" or node.css_first("h1") is not None for node in nodes):
        return None  # the content, searched first, is a part of the page
    if len(tree.css("h1")) != 1 or link_density(h1) > LIMITS.link_bar:  # pruned: `h1` is read no more
        return None
    text = _heading_text(h1)
    first = nodes[0] if nodes[0].tag in HEADINGS else nodes[0].css_first(HEADING_TAGS)
    if not text or first is not None and _words(_heading_text(first)) == _words(text) \
            or _names_site(text, url) or not _before(tree.body, h1, nodes[0]):
        return None
    return text


def _heading_text(node) -> str:
    """The heading's words, without the permalink mark some put after them (`Middleware ¶`)."""
    return " ".join(node.text(deep=True, separator=" ").split()).strip(" ¶§#")


_WORD = re.compile(r"\w+")


def _words(text: str) -> list:
    """The text's words, lower-cased: marks and invisible spaces aside."""
    return _WORD.findall(text.casefold())


def _names_site(text: str, url: str) -> bool:
    """A short heading holding a name of the host (`forums.example.org`: `example.org`,
    `Example's Blog`): the site's name, not the page's title."""
    words = _words(text)
    if not words or len(words) > LIMITS.site_name_words:
        return False
    joined = "".join(words)
    labels = (urlsplit(url).hostname or "").split(".")[:-1]  # the top-level domain names no site
    return any(len(label) >= LIMITS.site_label and label != "www" and label in joined for label in labels)


def _before(body, h1, node) -> bool:
    """Whether `h1` comes before `node` in document order."""
    targets = {h1.mem_id: True, node.mem_id: False}
    for each in body.traverse():
        if each.mem_id in targets:
            return targets[each.mem_id]
    return False
