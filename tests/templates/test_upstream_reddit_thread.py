"""Upstream conformance: tests/reddit-thread.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 2d2e463c36c37585e45d4a79bcc7ca6d05b5acdc (the stored version): the
reddit-thread template on the upstream Arctic Shift record (fixtures/templates/reddit-thread.json)
and the retired-template map.
"""

import json
import re

import pytest

from conftest import ROOT

from crawlforge.templates import RETIRED_TEMPLATES, TEMPLATES, TemplateRegistry, retired_template

REGISTRY = TemplateRegistry()
TEMPLATE = REGISTRY.get("reddit-thread")
FIXTURE = (ROOT / "fixtures" / "templates" / "reddit-thread.json").read_text(encoding="utf-8")
PAGE = "https://www.reddit.com/r/node/comments/1w2lsvx/i_built_volten_a_zerodependency_typescriptnative/"
ARCHIVE = "https://arctic-shift.photon-reddit.com/api/posts/ids?ids=1w2lsvx"


def test_post_page_resolves_to_the_archive_record():
    assert TEMPLATE.resolve_url(PAGE) == ARCHIVE


def test_matches_post_urls_not_subreddit_listings():
    assert TEMPLATE.target_pattern.search(PAGE)
    assert TEMPLATE.target_pattern.search("https://www.reddit.com/comments/1w2lsvx")
    assert TEMPLATE.target_pattern.search("https://old.reddit.com/r/node/comments/1w2lsvx/")
    assert not TEMPLATE.target_pattern.search("https://www.reddit.com/r/node/")
    assert REGISTRY.detect(PAGE).id == "reddit-thread"


def test_url_naming_no_post_is_left_alone():
    assert TEMPLATE.resolve_url("https://www.reddit.com/r/node/") == "https://www.reddit.com/r/node/"


def test_reads_the_post_record():
    data = TEMPLATE.extract_raw(FIXTURE, PAGE)
    assert data["id"] == "1w2lsvx"
    assert data["title"] == "I built Volten: A zero-dependency, TypeScript-native HTTP framework for Node.js"
    assert (data["subreddit"], data["author"]) == ("node", "voltenjs")
    assert (data["score"], data["upvote_ratio"], data["num_comments"]) == (1, 1, 0)
    assert data["posted"] == "2026-08-30T16:16:55.000Z"
    assert data["url"] == PAGE
    assert data["link_url"] is None
    assert data["flair"] is None
    assert data["over_18"] is False
    assert "reddit_search" in data["note"]


def test_removal_state_and_placeholder_body_as_written():
    data = TEMPLATE.extract_raw(FIXTURE, PAGE)
    assert data["body"] == "[removed]"
    assert data["removed"] == "moderator"


def test_link_post_reports_its_external_url_and_no_body():
    doc = json.loads(FIXTURE)
    doc["data"][0].update(is_self=False, selftext="", url="https://example.com/article", removed_by_category=None)
    data = TEMPLATE.extract_raw(json.dumps(doc), PAGE)
    assert data["link_url"] == "https://example.com/article"
    assert data["body"] is None
    assert data["removed"] is None


def test_non_json_body_names_the_archive():
    with pytest.raises(ValueError, match="Arctic Shift"):
        TEMPLATE.extract_raw("<html>reddit</html>", PAGE)


def test_archive_error_and_unknown_post_are_distinct():
    with pytest.raises(ValueError, match="Arctic Shift error: 'ids' must be base36"):
        TEMPLATE.extract_raw(json.dumps({"data": None, "error": "'ids' must be base36"}), PAGE)
    with pytest.raises(ValueError, match="no record of it"):
        TEMPLATE.extract_raw(json.dumps({"data": []}), PAGE)


def test_runs_through_the_registry_reporting_the_archive_url():
    result = REGISTRY.run("reddit-thread", FIXTURE, PAGE, TEMPLATE.resolve_url(PAGE))
    assert result["template"] == "reddit-thread"
    assert result["fetchedUrl"] == ARCHIVE
    assert result["data"]["id"] == "1w2lsvx"


def test_linkedin_and_tweet_are_retired_with_a_reason():
    shipped = {t.id for t in TEMPLATES}
    for template_id in ("linkedin-profile", "tweet"):
        assert template_id not in shipped
        assert re.search(r"robots\.txt", RETIRED_TEMPLATES[template_id]["reason"])


def test_retired_template_by_id_and_by_url():
    assert retired_template("tweet")["id"] == "tweet"
    assert retired_template("https://x.com/jack/status/20")["id"] == "tweet"
    assert retired_template("https://twitter.com/jack/status/20")["id"] == "tweet"
    assert retired_template("https://www.linkedin.com/in/williamhgates")["id"] == "linkedin-profile"
    assert retired_template("github-repo") is None
    assert retired_template("https://github.com/nodejs/node") is None
    assert retired_template(None) is None


def test_retired_and_shipped_ids_never_collide():
    shipped = {t.id for t in TEMPLATES}
    assert not shipped & set(RETIRED_TEMPLATES)
