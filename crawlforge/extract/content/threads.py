"""A discussion by its shape: comment-named or permalinked, dated boxes holding most of the text."""

import re

from crawlforge.extract.content.chrome import named, POST_CANDIDATES, POST_PREFIXES
from crawlforge.extract.content.policy import LIMITS


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


def is_thread(body, total: int, memo) -> bool:
    """Comment-named boxes hold most of the page's text and no article stands outside them
    (under three paragraphs of prose): a discussion whose posts are its comments, the shape of
    a link aggregator's or a news site's comment page that declares no forum. `memo`: the
    page's `memo.PageMemo`."""
    posts, inside, known = [], set(), memo.named[POST_PREFIXES]
    for node in body.css(POST_CANDIDATES):  # the selector narrows, the words decide
        if node.mem_id in inside or not named(node, known):
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
        if p.mem_id not in inside and len(p.text(deep=True, strip=True)) >= LIMITS.prose_paragraph:
            prose += 1
    return prose < LIMITS.thread_article_prose


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
        if len(run) < LIMITS.thread_posts:
            continue
        sizes = [len(node.text(deep=True, strip=True, skip_empty=True)) for node, _ in run]
        if sum(sizes) * 2 <= total:
            continue
        posts = [(node, size) for (node, number), size in zip(run, sizes)
                 if node.css_first(f'a[href*="{number}"]') is not None]
        text = sum(size for _, size in posts)
        if len(posts) >= LIMITS.thread_posts and text > best_text:
            best, best_text = [node for node, _ in posts], text
    return best if sum(_dated(node) for node in best) >= LIMITS.dated_posts * len(best) else []


_POST_NUMBER = re.compile(r"\d{4,}")
_STAMP = re.compile(r"\b(?:\d{1,2}:\d{2}|(?:19|20)\d{2})\b")
"""A clock time or a year: a post's date line (`Tue Aug 27, 2019 1:47 am`, `2024-08-01 10:45`)."""


def _dated(node) -> bool:
    """A `<time>` or a short line with a clock time or a year."""
    if node.css_first("time") is not None:
        return True
    return any(child.tag == "-text" and len((child.text_content or "").strip()) < LIMITS.line
               and _STAMP.search(child.text_content or "") for child in node.traverse(include_text=True))
