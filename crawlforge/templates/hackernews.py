"""Hacker News listing pages (front page, newest, ask, show, ...): the stories in page order.

Scores and comment counts are kept as the strings the page shows ("3", "0"), as upstream does.
"""

from __future__ import annotations

import re

from selectolax.lexbor import LexborNode

from .base import Template
from .common import WS, Doc, find_all, find_first, iso_now, js_trim, node_text, safe_href, safe_url, text

BASE_URL = "https://news.ycombinator.com/"
MAX_STORIES = 30
_POINTS = re.compile(WS + r"?points?$")
_COMMENTS = re.compile(r"^([0-9]+)" + WS + r"*comments?$", re.I)


def _next_element(node: LexborNode) -> LexborNode | None:
    sibling = node.next
    while sibling is not None and sibling.tag in ("-text", "-comment"):
        sibling = sibling.next
    return sibling


def _comments(subtext: LexborNode | None) -> str | None:
    """The comment link's label as a count string: "discuss" → "0", "12 comments" → "12"."""
    links = [a for a in find_all(subtext, 'a[href*="item"]') if not _inside_age(a, subtext)] if subtext else []
    if not links:
        return None
    label = js_trim(node_text(links[-1]))
    if not label:
        return None
    if label.lower() == "discuss":
        return "0"
    match = _COMMENTS.match(label)
    return match.group(1) if match else label


def _inside_age(node: LexborNode, stop: LexborNode) -> bool:
    while node is not None and node.mem_id != stop.mem_id:
        if "age" in (node.attributes.get("class") or "").split():
            return True
        node = node.parent
    return False


def _story_url(href: str | None) -> str | None:
    if href is None:
        return None
    resolved = safe_url(href, BASE_URL)
    return safe_href(resolved.href if resolved is not None else href)


def story(row: LexborNode) -> dict:
    """One ``tr.athing`` row plus the subtext row that follows it."""
    sibling = _next_element(row)
    subtext = find_first(sibling, ".subtext") if sibling is not None else None
    link = find_first(row, ".titleline > a")
    score = text(subtext, ".score") if subtext is not None else None
    return {
        "id": row.attributes.get("id"),
        "title": js_trim(node_text(link)) if link is not None else None,
        "url": _story_url(link.attributes.get("href")) if link is not None else None,
        "site": text(row, ".sitebit a"),
        "score": js_trim(_POINTS.sub("", score)) if score else None,
        "author": text(subtext, ".hnuser") if subtext is not None else None,
        "posted": text(subtext, ".age a") if subtext is not None else None,
        "comments": _comments(subtext),
    }


class HackerNewsFrontPage(Template):
    id = "hacker-news-front-page"
    name = "Hacker News Front Page"
    description = (
        "A Hacker News listing (front page, newest, best, ask, show, jobs, active): up to 30 "
        "stories in page order with id, title, url, site, score, author, age and comment count "
        "(score and comments as the strings the page shows)."
    )
    target_pattern = re.compile(
        r"news\.ycombinator\.com(?:\/news|\/newest|\/front|\/best|\/ask|\/show|\/jobs|\/active)?\/?(?:[?#].*)?$",
        re.I,
    )

    def extract(self, doc: Doc) -> dict:
        rows = find_all(doc, "tr.athing")[:MAX_STORIES]
        return {"stories": [story(row) for row in rows], "scraped_at": iso_now()}
