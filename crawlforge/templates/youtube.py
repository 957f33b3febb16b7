"""YouTube watch pages, read from the page's schema.org microdata and OpenGraph tags."""

from __future__ import annotations

import re

from ada_url import URLSearchParams

from .base import Template
from .common import (
    Doc,
    attr,
    encode_uri_component,
    find_all,
    find_first,
    js_parse_int,
    meta_content,
    safe_href,
    safe_url,
    text,
)

_SHORT_HOSTS = ("youtu.be", "www.youtu.be")


def interaction_count(doc: Doc, action: str) -> int | None:
    """``userInteractionCount`` of the first statistic whose type ends in ``/<action>``."""
    for statistic in find_all(doc, '[itemprop="interactionStatistic"]'):
        kind = attr(statistic, '[itemprop="interactionType"]', "content") or ""
        if kind.split("/")[-1] == action:
            counter = find_first(statistic, '[itemprop="userInteractionCount"]')
            value = counter.attributes.get("content") if counter is not None else None
            return js_parse_int(value) if value else None
    return None


def _video_id(doc: Doc) -> str | None:
    """The canonical link's ``v``; a relative canonical does not parse on its own, so None."""
    canonical = safe_url(attr(doc, 'link[rel="canonical"]', "href") or "https://youtube.com")
    query = URLSearchParams(canonical.search) if canonical is not None else None
    return query.get("v") if query is not None and query.has("v") else None


class YoutubeVideo(Template):
    id = "youtube-video"
    name = "YouTube Video"
    description = (
        "A YouTube watch page (youtube.com/watch or youtu.be): title, channel, view and like "
        "counts, publish date, description, thumbnail, duration and video id, from the page's "
        "microdata and OpenGraph tags."
    )
    target_pattern = re.compile(r"youtube\.com\/watch|youtu\.be\/[A-Za-z0-9_-]+", re.I)

    def resolve_url(self, url: str) -> str:
        """A youtu.be short link → its watch page (tracking and time parameters dropped)."""
        parsed = safe_url(url)
        if parsed is None or parsed.hostname.lower() not in _SHORT_HOSTS:
            return url
        video = parsed.pathname.split("/")[1]
        return f"https://www.youtube.com/watch?v={encode_uri_component(video)}" if video else url

    def extract(self, doc: Doc) -> dict:
        return {
            "title": meta_content(doc, 'meta[name="title"]') or meta_content(doc, 'meta[property="og:title"]'),
            "channel": attr(doc, 'link[itemprop="name"]', "content") or text(doc, "#channel-name"),
            "channel_url": safe_href(attr(doc, 'span[itemprop="author"] link[itemprop="url"]', "href")),
            "views": interaction_count(doc, "WatchAction"),
            "likes": interaction_count(doc, "LikeAction"),
            "published": meta_content(doc, 'meta[itemprop="uploadDate"]')
            or meta_content(doc, 'meta[itemprop="datePublished"]'),
            "description": meta_content(doc, 'meta[property="og:description"]'),
            "thumbnail": meta_content(doc, 'meta[property="og:image"]'),
            "duration": meta_content(doc, 'meta[itemprop="duration"]'),
            "video_id": _video_id(doc),
        }
