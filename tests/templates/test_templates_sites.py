"""Page and API templates on real captures: GitHub, Reddit, Stack Overflow, npm, YouTube, Amazon walls."""

import json

import pytest

from conftest import ROOT

from crawlforge.templates import TemplateRegistry, TemplateRejectedError
from crawlforge.templates.amazon import currency_of, rating_of
from crawlforge.templates.github import count
from crawlforge.templates.npm import NpmPackage, license_of, repository_url
from crawlforge.templates.reddit import NOTE
from crawlforge.templates.stackoverflow import StackoverflowQuestion

FIXTURES = ROOT / "fixtures" / "templates"
REGISTRY = TemplateRegistry()


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


# --- github-repo ---------------------------------------------------------------------------


def hono() -> dict:
    return REGISTRY.run("github-repo", fixture("github-repo-hono.html"), "https://github.com/honojs/hono")["data"]


def test_github_counts_are_exact_numbers_from_the_payload():
    data = hono()
    assert (data["name"], data["stars"], data["forks"], data["watchers"], data["open_issues"]) == (
        "hono", 32407, 1367, 90, 268,
    )  # fmt: skip


def test_github_payload_fields_and_logged_out_nulls():
    data = hono()
    assert data["description"] == "Web framework built on Web Standards"
    assert (data["license"], data["homepage"]) == ("MIT", "https://hono.dev")
    assert (data["language"], data["last_updated"], data["topics"]) == (None, None, [])


def test_github_readme_summary_is_the_first_non_empty_paragraph():
    assert hono()["readme_summary"] == (
        "Hono - means flame🔥 in Japanese - is a small, simple, and ultrafast web framework built on "
        "Web Standards. It works on any JavaScript runtime: Cloudflare Workers, Fastly Compute, Deno, "
        "Bun, Vercel, AWS Lambda, Lambda@Edge, and Node.js."
    )


def test_github_key_order():
    assert list(hono()) == [
        "name", "description", "stars", "forks", "watchers", "language", "topics", "license",
        "last_updated", "homepage", "open_issues", "readme_summary",
    ]  # fmt: skip


@pytest.mark.parametrize(("value", "expected"), [(32407, 32407), ("32,407", 32407), ("32.4k", None), (1.5, None), (None, None)])
def test_github_count(value, expected):
    assert count(value) == expected


@pytest.mark.parametrize(
    ("url", "resolved"),
    [
        ("https://github.com/honojs/hono/tree/main/src", "https://github.com/honojs/hono"),
        ("https://github.com/honojs/hono", "https://github.com/honojs/hono"),
    ],
)
def test_github_resolve_url(url, resolved):
    assert REGISTRY.get("github-repo").resolve_url(url) == resolved


# --- reddit-thread -------------------------------------------------------------------------


def test_reddit_removed_self_post():
    result = REGISTRY.run("reddit-thread", fixture("reddit-thread.json"), "https://www.reddit.com/r/node/comments/1w2lsvx/")
    data = result["data"]
    assert "warnings" not in result
    assert list(data) == [
        "id", "title", "subreddit", "author", "score", "upvote_ratio", "num_comments", "posted",
        "body", "link_url", "url", "flair", "over_18", "removed", "note",
    ]  # fmt: skip
    assert (data["id"], data["subreddit"], data["author"]) == ("1w2lsvx", "node", "voltenjs")
    assert (data["score"], data["upvote_ratio"], data["num_comments"]) == (1, 1, 0)
    assert data["posted"] == "2026-08-30T16:16:55.000Z"
    assert (data["body"], data["link_url"], data["removed"], data["over_18"]) == ("[removed]", None, "moderator", False)
    assert data["url"] == "https://www.reddit.com/r/node/comments/1w2lsvx/i_built_volten_a_zerodependency_typescriptnative/"
    assert data["note"] == NOTE and "Arctic Shift" in NOTE and "36h" in NOTE and 'mode "thread"' in NOTE


def test_reddit_link_post_from_the_archive_row():
    post = json.loads(fixture("reddit/arctic-shift-thread-1w80olh.json"))["post"]
    data = REGISTRY.run("reddit-thread", json.dumps({"data": [post]}), "https://www.reddit.com/comments/1w80olh")["data"]
    assert (data["title"], data["score"], data["upvote_ratio"], data["num_comments"]) == (
        ".gitignore everything by default", 311, 0.79, 208,
    )  # fmt: skip
    assert (data["body"], data["link_url"]) == (None, "https://packagemain.tech/p/gitignore-everything-by-default")
    assert data["removed"] is None


def test_reddit_warns_when_the_url_names_another_subreddit():
    result = REGISTRY.run("reddit-thread", fixture("reddit-thread.json"), "https://www.reddit.com/r/javascript/comments/1w2lsvx/x/")
    assert result["warnings"] == [
        "The URL names r/javascript, but post 1w2lsvx is in r/node. Reddit post ids are unique, so this "
        "is the post the id names; data.url is its real address."
    ]
    assert list(result)[-1] == "warnings"


def test_reddit_resolves_to_the_archive():
    template = REGISTRY.get("reddit-thread")
    assert (
        template.resolve_url("https://www.reddit.com/r/node/comments/1W2LSVX/title/")
        == "https://arctic-shift.photon-reddit.com/api/posts/ids?ids=1W2LSVX"
    )
    assert template.resolve_url("https://www.reddit.com/r/node/") == "https://www.reddit.com/r/node/"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<html>", "^Not an Arctic Shift document: U did not return JSON. This template reads the Arctic Shift archive, not reddit.com.$"),
        ('{"error": "Timeout"}', "^Arctic Shift error: Timeout$"),
        ('{"data": []}', "^No Reddit post at U: the Arctic Shift archive has no record of it.$"),
    ],
)
def test_reddit_rejections(body, message):
    with pytest.raises(TemplateRejectedError, match=message):
        REGISTRY.run("reddit-thread", body, "U")


# --- stackoverflow-question ----------------------------------------------------------------


def question() -> dict:
    return REGISTRY.run(
        "stackoverflow-question", fixture("stackoverflow-question.json"), "https://stackoverflow.com/questions/11227809"
    )["data"]


def test_stackoverflow_question_fields():
    data = question()
    assert data["question_id"] == 11227809
    assert data["title"] == "Why is conditional processing of a sorted array faster than of an unsorted array?"
    assert (data["votes"], data["views"], data["answer_count"], data["accepted_answer_id"]) == (27545, 1997711, 25, 11227902)
    assert data["tags"] == ["java", "c++", "performance", "cpu-architecture", "branch-prediction"]
    assert (data["author"], data["author_reputation"], data["answered"]) == ("GManNickG", 507387, True)
    assert (data["asked"], data["last_activity"]) == ("2012-06-27T13:51:36.000Z", "2026-04-08T05:35:32.000Z")
    assert data["body"].startswith("In this C++ code, sorting the data (before the timed region) makes the primary loop")
    assert "<p>" not in data["body"] and "&lt;" not in data["body"]


def test_stackoverflow_answers_accepted_first_then_by_score_with_text_bodies():
    answers = question()["answers"]
    assert [(a["answer_id"], a["votes"], a["accepted"]) for a in answers] == [
        (11227902, 35294, True), (11227877, 4767, False), (11237235, 3860, False),
    ]  # fmt: skip
    assert answers[0]["author"] == "Mysticial" and answers[0]["posted"] == "2012-06-27T13:56:42.000Z"
    assert answers[0]["body"].startswith("You are a victim of branch prediction fail.")
    assert all(len(a["body"]) <= 500 for a in answers)


def test_stackoverflow_quota_comes_from_the_document():
    assert question()["quota_remaining"] == json.loads(fixture("stackoverflow-question.json"))["quota_remaining"]


def test_stackoverflow_resolves_to_the_api():
    assert StackoverflowQuestion().resolve_url("https://stackoverflow.com/questions/11227809/why-is-x?rq=1") == (
        "https://api.stackexchange.com/2.3/questions/11227809?site=stackoverflow&filter=!20aKG._8Oscv*6djs8Pgm"
    )


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<html>", "^Not a Stack Exchange API document: U did not return JSON. This template reads the Stack Exchange API.$"),
        ('{"error_id": 502, "error_name": "throttle_violation", "error_message": "too many requests"}',
         r"^Stack Exchange API error 502 \(throttle_violation\): too many requests\.$"),
        ('{"error_id": 400}', r"^Stack Exchange API error 400 \(unknown\): no message\.$"),
        ('{"items": []}', "^No Stack Overflow question at U: the API returned no items.$"),
    ],
)  # fmt: skip
def test_stackoverflow_rejections(body, message):
    with pytest.raises(TemplateRejectedError, match=message):
        REGISTRY.run("stackoverflow-question", body, "U")


# --- npm-package ---------------------------------------------------------------------------


def test_npm_reads_the_latest_release_from_the_registry_document():
    data = REGISTRY.run("npm-package", fixture("npm/left-pad.json"), "https://registry.npmjs.org/left-pad")["data"]
    assert (data["name"], data["version"], data["description"]) == ("left-pad", "1.3.0", "String left pad")
    assert (data["license"], data["repository"]) == ("WTFPL", "https://github.com/stevemao/left-pad")
    assert data["keywords"] == ["leftpad", "left", "pad", "padding", "string", "repeat"]
    assert (data["dependencies"], data["dependency_count"], data["deprecated"]) == ({}, 0, False)
    assert data["published"] == "2024-09-05T00:40:51.026000+00:00"
    assert (data["homepage"], data["bugs"], data["last_modified"]) == (None, None, None)
    assert data["maintainers"] == []  # this mirror's document has no top-level maintainers
    assert data["install_command"] == "npm install left-pad"


@pytest.mark.parametrize(
    ("url", "resolved"),
    [
        ("https://www.npmjs.com/package/left-pad", "https://registry.npmjs.org/left-pad"),
        ("https://www.npmjs.com/package/@types/node/v/20.1.0", "https://registry.npmjs.org/@types/node"),
        ("https://registry.npmjs.org/left-pad", "https://registry.npmjs.org/left-pad"),
        ("https://www.npmjs.com/search?q=pad", "https://www.npmjs.com/search?q=pad"),
    ],
)
def test_npm_resolve_url(url, resolved):
    assert NpmPackage().resolve_url(url) == resolved


def test_npm_registry_host_can_point_at_a_mirror():
    mirror = NpmPackage(registry_host="npm.mirror.test")
    assert mirror.resolve_url("https://www.npmjs.com/package/left-pad") == "https://npm.mirror.test/left-pad"
    assert TemplateRegistry([mirror]).detect("https://npm.mirror.test/left-pad").id == "npm-package"
    assert TemplateRegistry([mirror]).detect("https://registry.npmjs.org/left-pad") is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("git+https://github.com/a/b.git", "https://github.com/a/b"),
        ({"url": "git+ssh://git@github.com/a/b.git"}, "https://github.com/a/b"),
        ("git@github.com:a/b.git", "https://github.com/a/b"),
        ("git://github.com/a/b", "https://github.com/a/b"),
        ("https://git@gitlab.com/a/b", "https://gitlab.com/a/b"),
        ("a/b.js", "https://github.com/a/b.js"),
        (None, None),
    ],
)
def test_npm_repository_url(value, expected):
    assert repository_url(value) == expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [("MIT", "MIT"), (["MIT", {"type": "ISC"}, None], "MIT, ISC"), ({"type": "BSD"}, "BSD"), ({}, None), ("", None), ([], None)],
)
def test_npm_license_shapes(value, expected):
    assert license_of(value) == expected


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("<html>", "^Not an npm registry document: U did not return JSON."),
        ('{"error": "Not found"}', "^No npm package at U: Not found.$"),
        ("[]", "^No npm package at U: no package document.$"),
    ],
)
def test_npm_rejections(body, message):
    with pytest.raises(TemplateRejectedError, match=message):
        REGISTRY.run("npm-package", body, "U")


# --- youtube-video -------------------------------------------------------------------------


def test_youtube_condensed_capture_without_microdata_is_rejected_as_empty():
    # The capture keeps only the state scripts; the template reads microdata and OpenGraph tags.
    with pytest.raises(TemplateRejectedError, match="every field came back empty"):
        REGISTRY.run("youtube-video", fixture("../embedded/youtube-watch.html"), "https://www.youtube.com/watch?v=dQw4w9WgXcQ")


@pytest.mark.parametrize(
    ("url", "resolved"),
    [
        ("https://youtu.be/dQw4w9WgXcQ?si=abc&t=42", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        ("https://WWW.YOUTU.BE/dQw4w9WgXcQ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        ("https://youtu.be/", "https://youtu.be/"),
        ("https://www.youtube.com/watch?v=x", "https://www.youtube.com/watch?v=x"),
    ],
)
def test_youtube_resolve_url(url, resolved):
    assert REGISTRY.get("youtube-video").resolve_url(url) == resolved


# --- amazon-product ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../botwall/upstream/amazon.html", "../botwall/amazon_captcha_account-status_amazon_co_uk.html"])
def test_amazon_captcha_interstitial_is_rejected(name):
    with pytest.raises(TemplateRejectedError, match=r"^Amazon answered with a captcha interstitial \(an HTTP 200 robot check\)"):
        REGISTRY.run("amazon-product", fixture(name), "https://www.amazon.co.uk/dp/B0")


@pytest.mark.parametrize(
    ("price", "host", "currency"),
    [
        ("£39.24", "www.amazon.co.uk", "GBP"),
        ("45,99 €", "www.amazon.de", "EUR"),
        ("ab 30,57 USD", "www.amazon.de", "USD"),
        ("$46.88", "www.amazon.com", "USD"),
        ("$46.88", "www.amazon.ca", "CAD"),
        ("$46.88", "www.amazon.com.au", "AUD"),
        ("R$ 120,00", "www.amazon.com.br", "BRL"),
        ("199 kr", "www.amazon.se", "SEK"),
        ("199 kr", "www.amazon.com", None),
        ("1.299,00 TL", "www.amazon.com.tr", "TRY"),
        ("￥2,480", "www.amazon.co.jp", "JPY"),
        ("₹999", "www.amazon.in", "INR"),
        ("42", "www.amazon.com", None),
        (None, "www.amazon.com", None),
    ],
)
def test_amazon_currency_from_price_text(price, host, currency):
    assert currency_of(price, host) == currency


@pytest.mark.parametrize(
    ("text", "rating"),
    [("4,8 van 5 sterren", 4.8), ("5つ星のうち4.7", 4.7), ("5.0 out of 5 stars", 5), ("4.5 out of 5 stars", 4.5), ("no rating", None)],
)
def test_amazon_rating_text(text, rating):
    assert rating_of(text) == rating


# --- hacker-news-front-page and producthunt-launch -----------------------------------------


@pytest.mark.parametrize(
    ("url", "claimed"),
    [
        ("https://news.ycombinator.com/", True),
        ("https://news.ycombinator.com/newest", True),
        ("https://news.ycombinator.com/show/#top", True),
        ("https://news.ycombinator.com/from?site=github.com", False),
        ("https://news.ycombinator.com/item?id=1", False),
    ],
)
def test_hacker_news_claims_listing_pages_only(url, claimed):
    assert bool(REGISTRY.get("hacker-news-front-page").target_pattern.search(url)) is claimed


@pytest.mark.parametrize(
    ("url", "claimed"),
    [("https://www.producthunt.com/posts/hono", True), ("https://www.producthunt.com/products/hono", True), ("https://www.producthunt.com/", False)],
)
def test_producthunt_pattern(url, claimed):
    assert bool(REGISTRY.get("producthunt-launch").target_pattern.search(url)) is claimed
