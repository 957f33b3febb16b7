"""Reddit posts, read from the Arctic Shift archive API rather than reddit.com (which walls crawlers)."""

from __future__ import annotations

import re

from .api import parse_json
from .base import Template, TemplateRejectedError
from .common import epoch_to_iso, first_not_none, is_number, js_string, js_truthy, safe_href

ARCHIVE_URL = "https://arctic-shift.photon-reddit.com/api/posts/ids?ids="
NOTE = (
    "Read from the Arctic Shift archive, not reddit.com: score, upvote_ratio and num_comments "
    "are archive snapshots that can lag the live post (scores are typically captured about 36h "
    'after posting). For the comments, use reddit_search with mode "thread".'
)
_POST_ID = re.compile(r"\/comments\/([a-z0-9]+)", re.I)
_NAMED_SUBREDDIT = re.compile(r"reddit\.com\/r\/([^/]+)\/comments\/", re.I)


def _number_or_none(value):
    return value if is_number(value) else None


def _post(body, url: str) -> dict:
    """The archive's single post, or a rejection that says what came back instead."""
    doc = parse_json(
        body,
        TemplateRejectedError(
            f"Not an Arctic Shift document: {url} did not return JSON. "
            "This template reads the Arctic Shift archive, not reddit.com."
        ),
    )
    doc = doc if isinstance(doc, dict) else {}
    if js_truthy(doc.get("error")):
        raise TemplateRejectedError(f"Arctic Shift error: {js_string(doc['error'])}")
    posts = doc.get("data")
    if not isinstance(posts, list) or not posts or not isinstance(posts[0], dict):
        raise TemplateRejectedError(f"No Reddit post at {url}: the Arctic Shift archive has no record of it.")
    return posts[0]


class RedditThread(Template):
    id = "reddit-thread"
    name = "Reddit Thread"
    description = (
        "A Reddit post (reddit.com/r/<sub>/comments/<id>), read from the Arctic Shift archive API: "
        "title, subreddit, author, score, upvote ratio, comment count, date, self text or link, "
        "flair, NSFW and removal flags."
    )
    target_pattern = re.compile(r"reddit\.com\/(?:r\/[^/]+\/)?comments\/[a-z0-9]+", re.I)

    def resolve_url(self, url: str) -> str:
        """A reddit.com post URL → the archive API's record for its id."""
        match = _POST_ID.search(url)
        return f"{ARCHIVE_URL}{match.group(1)}" if match else url

    def extract_raw(self, body, url: str) -> dict:
        post = _post(body, url)
        meta = post.get("_meta") if isinstance(post.get("_meta"), dict) else {}
        permalink = post.get("permalink")
        return {
            "id": post.get("id"),
            "title": post.get("title"),
            "subreddit": post.get("subreddit"),
            "author": post.get("author"),
            "score": _number_or_none(post.get("score")),
            "upvote_ratio": _number_or_none(post.get("upvote_ratio")),
            "num_comments": _number_or_none(post.get("num_comments")),
            "posted": epoch_to_iso(post.get("created_utc")),
            "body": post.get("selftext") if js_truthy(post.get("selftext")) else None,
            "link_url": None if js_truthy(post.get("is_self")) else safe_href(post.get("url")),
            "url": f"https://www.reddit.com{permalink}" if js_truthy(permalink) else None,
            "flair": post.get("link_flair_text"),
            "over_18": js_truthy(post.get("over_18")),
            "removed": first_not_none(post.get("removed_by_category"), meta.get("removal_type")),
            "note": NOTE,
        }

    def warnings(self, data: dict, url: str) -> list[str]:
        """Flag a URL whose subreddit does not match the post's: the id wins."""
        named = _NAMED_SUBREDDIT.search(url or "")
        actual = data.get("subreddit")
        if not named or not js_truthy(actual) or named.group(1).lower() == js_string(actual).lower():
            return []
        return [
            f"The URL names r/{named.group(1)}, but post {data.get('id')} is in r/{actual}. Reddit post "
            "ids are unique, so this is the post the id names; data.url is its real address."
        ]
