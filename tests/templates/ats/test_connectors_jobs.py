"""The job-shape readers (spec §4.1) and the pydantic Job model that validates a jobs feed."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from crawlforge.items import Job
from crawlforge.templates.ats.jobs import (
    JOB_FIELDS, is_remote, iso_date, job, job_id, join_location, list_result, trimmed,
)


@pytest.mark.parametrize("value, expected", [
    ("2026-02-03T15:19:01-05:00", "2026-02-03T20:19:01.000Z"),  # Greenhouse, offset applied
    ("2026-04-07T17:12:35.753+00:00", "2026-04-07T17:12:35.753Z"),  # Ashby
    (1553186035299, "2019-03-21T16:33:55.299Z"),  # Lever: epoch milliseconds
    ("2026-08-28 11:47:47 UTC", "2026-08-28T11:47:47.000Z"),  # Recruitee
    ("Fri, 24 Jul 2026 13:57:16 +0200", "2026-07-24T11:57:16.000Z"),  # Teamtailor RFC 2822
    ("2026-07-31", "2026-07-31"),  # Workable: a date stays a date
    (" 2026-07-31 ", "2026-07-31"),
    ("2026-07-31T10:00:00Z", "2026-07-31T10:00:00.000Z"),
    ("2026-07-31T10:00:00.123456+0530", "2026-07-31T04:30:00.123Z"),
    (0, "1970-01-01T00:00:00.000Z"),
    (1.9, "1970-01-01T00:00:00.001Z"),  # JS Date truncates fractional milliseconds
])
def test_iso_date_normalises_every_platform_spelling(value, expected):
    assert iso_date(value) == expected


@pytest.mark.parametrize("value", [None, "", "   ", "not a date", "2026-13-45T00:00:00Z", "2026-02-30T10:00:00Z", float("nan"), 9e15, True])
def test_iso_date_unreadable_is_none(value):
    assert iso_date(value) is None


@pytest.mark.parametrize("word, expected", [
    ("remote", True), (" Remote ", True), ("Fully", True), ("telecommuting", True),
    ("OnSite", False), ("on-site", False), ("on_site", False), ("On Site", False), ("none", False), ("office", False),
    ("Hybrid", None), ("unspecified", None), ("", None), (None, None), ("  ", None),
])
def test_is_remote_answers_only_for_remote_and_onsite_words(word, expected):
    assert is_remote(word) is expected


def test_join_location_drops_blanks_and_repeats():
    assert join_location("New York", "New York", "United States") == "New York, United States"
    assert join_location("", "", "United States") == "United States"
    assert join_location(" Washington ", "District of Columbia", None) == "Washington, District of Columbia"
    assert join_location(None, "") is None


def test_trimmed_and_job_id_stringify_the_js_way():
    assert (trimmed(5), trimmed(1.0), trimmed(True), trimmed("  x \n"), trimmed("  "), trimmed(None)) == (
        "5", "1", "true", "x", None, None,
    )
    assert (job_id(7532733), job_id(0), job_id(" EB98 "), job_id(""), job_id(None)) == ("7532733", "0", " EB98 ", None, None)


def test_list_result_reports_a_total_only_when_the_payload_declares_more():
    items = [{"id": "1"}, {"id": "2"}]
    assert list_result(items, {"company": "X"}, 571) == {"items": items, "count": 2, "total_available": 571, "company": "X"}
    assert list_result(items, {"company": "X"}, 2) == {"items": items, "count": 2, "company": "X"}
    assert list_result(items, None, "571") == {"items": items, "count": 2}


def test_job_fills_every_common_key_in_order():
    item = job("lever-postings", {"level": None}, id="abc", remote=False)
    assert list(item) == [*JOB_FIELDS, "raw_extra"]
    assert (item["id"], item["remote"], item["title"], item["source"]) == ("abc", False, None, "lever-postings")
    with pytest.raises(TypeError):
        job("lever-postings", {}, salary="1")


def test_job_model_round_trips_a_connector_item():
    item = job("workable-jobs", {"shortcode": "EB98E75C30"}, id="EB98E75C30", title="Manager", remote=True,
               published_at="2026-07-31")
    assert Job.model_validate(item).model_dump() == item


@pytest.mark.parametrize("change", [
    {"id": 7532733},  # ids are stringified, never numbers
    {"title": ""},  # "" is written as null
    {"remote": "true"},
    {"source": None},
    {"salary": "1"},  # no keys beyond the common shape
])
def test_job_model_rejects_values_outside_the_shape(change):
    item = {**job("greenhouse-jobs", {}, id="1", title="T"), **change}
    with pytest.raises(ValidationError):
        Job.model_validate(item)


def test_job_model_requires_every_key():
    item = job("greenhouse-jobs", {}, id="1")
    del item["team"]
    with pytest.raises(ValidationError):
        Job.model_validate(item)
