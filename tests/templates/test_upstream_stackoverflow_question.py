"""Upstream conformance: tests/stackoverflow-question.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 0c1eed62687b780a988b713778de94090b53e3ab (the newest stored version): the
stackoverflow-question template on the upstream API capture
(fixtures/templates/stackoverflow-question.json), and hacker-news-front-page URL matching.
"""

import json
import re

import pytest

from conftest import ROOT

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()
TEMPLATE = REGISTRY.get("stackoverflow-question")
FIXTURE = (ROOT / "fixtures" / "templates" / "stackoverflow-question.json").read_text(encoding="utf-8")
PAGE = "https://stackoverflow.com/questions/11227809/why-is-processing-a-sorted-array-faster"


def test_question_page_resolves_to_the_api_document():
    assert re.match(r"https://api\.stackexchange\.com/2\.3/questions/11227809\?site=stackoverflow&filter=", TEMPLATE.resolve_url(PAGE))


def test_matches_question_pages_not_tag_listings():
    assert TEMPLATE.target_pattern.search(PAGE)
    assert TEMPLATE.target_pattern.search("https://stackoverflow.com/questions/11227809")
    assert not TEMPLATE.target_pattern.search("https://stackoverflow.com/questions/tagged/python")


def test_reads_the_question_decoding_the_title():
    data = TEMPLATE.extract_raw(FIXTURE, PAGE)
    assert data["question_id"] == 11227809
    assert data["title"] == "Why is conditional processing of a sorted array faster than of an unsorted array?"
    assert re.match(r"In this C\+\+ code, sorting the data", data["body"])
    assert data["votes"] == 27545
    assert data["views"] > 1000000
    assert data["tags"] == ["java", "c++", "performance", "cpu-architecture", "branch-prediction"]
    assert data["author"] == "GManNickG"
    assert data["asked"] == "2012-06-27T13:51:36.000Z"
    assert data["answered"] is True
    assert data["accepted_answer_id"] == 11227902
    assert data["link"] == (
        "https://stackoverflow.com/questions/11227809/why-is-conditional-processing-of-a-sorted-array-faster-than-of-an-unsorted-array"
    )


def test_answers_accepted_first_with_capped_plain_bodies():
    data = TEMPLATE.extract_raw(FIXTURE, PAGE)
    answers = data["answers"]
    assert data["answer_count"] == 25
    assert len(answers) == 3
    assert answers[0]["accepted"] is True
    assert answers[0]["answer_id"] == 11227902
    assert answers[1]["votes"] >= answers[2]["votes"]
    for answer in answers:
        assert len(answer["body"]) <= 500
        assert not re.search(r"<[a-z]", answer["body"], re.I)


def test_api_error_is_reported():
    body = json.dumps({"error_id": 400, "error_name": "bad_parameter", "error_message": "filter is invalid"})
    with pytest.raises(ValueError, match=r"Stack Exchange API error 400 \(bad_parameter\): filter is invalid"):
        TEMPLATE.extract_raw(body, PAGE)


def test_unknown_question_and_non_json_are_rejected():
    with pytest.raises(ValueError, match="returned no items"):
        TEMPLATE.extract_raw(json.dumps({"items": []}), PAGE)
    with pytest.raises(ValueError, match="did not return JSON"):
        TEMPLATE.extract_raw("<html>403</html>", PAGE)


HN = REGISTRY.get("hacker-news-front-page").target_pattern


def test_hn_matches_the_front_page_with_or_without_slash():
    assert HN.search("https://news.ycombinator.com/")
    assert HN.search("https://news.ycombinator.com")
    assert HN.search("https://news.ycombinator.com/news")
    assert not HN.search("https://news.ycombinator.com/item?id=1")


def test_hn_matches_the_other_story_lists_and_pagination():
    for path in ["/newest", "/front", "/best", "/ask", "/show", "/jobs", "/active", "/news?p=2", "/newest?next=1&n=31"]:
        assert HN.search(f"https://news.ycombinator.com{path}"), path
    assert not HN.search("https://news.ycombinator.com/user?id=pg")
    assert not HN.search("https://news.ycombinator.com/from?site=example.com")
