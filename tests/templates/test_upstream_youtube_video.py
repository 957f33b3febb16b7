"""Upstream conformance: tests/youtube-video.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 00b1a5b58f08faece8608cb383b8c137b4041378 (templates.md §0.1): the
youtube-video template on the upstream's condensed watch-page markup, and youtu.be links.
"""

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()


def run(html: str) -> dict:
    return REGISTRY.run("youtube-video", f"<html><body>{html}</body></html>", "https://www.youtube.com/watch?v=_EYvOGlR2dw")["data"]


def counter(action: str, count: str) -> str:
    return f"""<div itemprop="interactionStatistic" itemscope itemtype="https://schema.org/InteractionCounter">
     <meta itemprop="interactionType" content="https://schema.org/{action}">
     <meta itemprop="userInteractionCount" content="{count}">
   </div>"""


LIVE = counter("LikeAction", "224") + counter("WatchAction", "5546")


def test_views_come_from_the_watch_action_counter():
    assert run(LIVE)["views"] == 5546


def test_likes_come_from_the_like_action_counter():
    assert run(LIVE)["likes"] == 224


def test_counters_are_numbers():
    data = run(LIVE)
    assert isinstance(data["views"], int) and isinstance(data["likes"], int)


def test_video_with_likes_hidden_still_reports_views():
    data = run(counter("WatchAction", "5546"))
    assert data["views"] == 5546 and data["likes"] is None


def test_zero_views_is_zero():
    assert run(counter("WatchAction", "0"))["views"] == 0


def test_page_with_no_counters_leaves_both_null():
    data = run('<meta name="title" content="Some video">')
    assert data["views"] is None and data["likes"] is None


def test_whole_page_yields_every_advertised_field():
    page = f"""
    <meta name="title" content="How I Find Low-Competition Keywords That Actually Convert">
    <link rel="canonical" href="https://www.youtube.com/watch?v=_EYvOGlR2dw">
    <span itemprop="author" itemscope itemtype="http://schema.org/Person">
      <link itemprop="name" content="Edward Sturm">
      <link itemprop="url" href="http://www.youtube.com/@buildinpublic">
    </span>
    <meta itemprop="duration" content="PT12M7S">
    <meta itemprop="uploadDate" content="2026-02-23T08:32:57-08:00">
    {LIVE}"""
    data = run(page)
    assert data["title"] == "How I Find Low-Competition Keywords That Actually Convert"
    assert data["channel"] == "Edward Sturm"
    assert data["channel_url"] == "http://www.youtube.com/@buildinpublic"
    assert (data["views"], data["likes"]) == (5546, 224)
    assert data["published"] == "2026-02-23T08:32:57-08:00"
    assert data["duration"] == "PT12M7S"
    assert data["video_id"] == "_EYvOGlR2dw"


def test_detect_picks_youtube_video_for_a_youtu_be_link():
    assert REGISTRY.detect("https://youtu.be/dQw4w9WgXcQ").id == "youtube-video"
    assert REGISTRY.detect("https://youtu.be/dQw4w9WgXcQ?si=abc123&t=42").id == "youtube-video"


def test_youtu_be_link_fetches_the_watch_page():
    template = REGISTRY.get("youtube-video")
    assert template.resolve_url("https://youtu.be/dQw4w9WgXcQ?si=abc123&t=42") == "https://www.youtube.com/watch?v=dQw4w9WgXcQ"


def test_watch_url_is_fetched_as_given():
    url = "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
    assert REGISTRY.get("youtube-video").resolve_url(url) == url


def test_bare_youtu_be_is_not_claimed():
    assert REGISTRY.detect("https://youtu.be/") is None
