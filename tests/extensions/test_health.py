"""Fill rates and the health rules, on template output from real captures (fixtures/health)."""

import json

import pytest
from scrapy import Spider
from scrapy.utils.test import get_crawler

from conftest import FIXTURES

from conftest import CRAWLFORGE_DEFAULTS
from crawlforge.extensions.health import HealthCheck, outcome_from
from crawlforge.items import Page
from crawlforge.report.fillrate import FillRates, is_filled, item_fields
from crawlforge.report.health import (REQUIRED_FIELDS, Outcome, Thresholds, check, field_alarms,
                                      load_baseline, save_baseline)
from crawlforge.templates import TEMPLATES, TemplateRegistry
from crawlforge.items import Job

HEALTH = FIXTURES / "health"
REGISTRY = TemplateRegistry()


def fixture(name: str) -> str:
    return (HEALTH / name).read_text(encoding="utf-8")


def template_page(template_id: str, name: str, url: str) -> dict:
    """The exported form of a template page: a Page with the template's data."""
    data = REGISTRY.run(template_id, fixture(name), url)["data"]
    return Page(url=url, template=template_id, template_data=data).model_dump()


def collection_items() -> list[dict]:
    data = REGISTRY.run_list("shopify-collection", fixture("../templates/shopify/deathwishcoffee-collection.json"),
                             url="https://www.deathwishcoffee.com/collections/all/products.json")["data"]
    return [{"template": "shopify-collection", **entry} for entry in data["items"]]


def lever_jobs() -> list[dict]:
    data = REGISTRY.run_list("lever-postings", fixture("../connectors/ats/lever-postings.json"),
                             url="https://api.lever.co/v0/postings/leverdemo?mode=json")["data"]
    return [Job(**entry).model_dump() for entry in data["items"]]


def test_filled_follows_the_empty_record_guard():
    assert [is_filled(v) for v in (None, "", [], False, 0, {}, "x")] == [False, False, False, True, True, True, True]


def test_a_template_page_is_judged_on_its_template_data():
    page = template_page("github-repo", "../templates/github-repo-hono.html", "https://github.com/honojs/hono")
    group, fields = item_fields(page)
    assert group == "github-repo"
    assert fields["name"] and fields["stars"]
    assert (fields["language"], fields["last_updated"], fields["topics"]) == (False, False, False)


def test_a_job_is_judged_on_its_common_fields_under_its_source():
    group, fields = item_fields(lever_jobs()[0])
    assert group == "lever-postings"
    assert "source" not in fields and "raw_extra" not in fields
    assert fields["title"] and fields["id"]


def test_a_generic_page_is_judged_on_its_structured_fields_per_host():
    page = {"url": "https://shop.example.org/p/1", "structured_data": {
        "meta": {"title": "Mug"}, "structured_data": {"price": "12.00", "brand": None}}}
    assert item_fields(page) == ("shop.example.org",
                                 {"meta.title": True, "structured_data.price": True, "structured_data.brand": False})


def test_a_field_a_later_page_carries_counts_as_empty_in_the_earlier_ones():
    pages = [{"url": "https://a.example/1", "structured_data": {"meta": {"title": "One"}}},
             {"url": "https://a.example/2", "structured_data": {"meta": {"title": "Two", "image": "i.png"}}}]
    counts = FillRates.from_items(pages).groups["a.example"]
    assert (counts.items, counts.rate("meta.title"), counts.rate("meta.image")) == (2, 1.0, 0.5)


def test_stats_and_feed_give_the_same_fill_rates():
    items = collection_items() + lever_jobs()
    rates = FillRates()
    stats = {}
    for item in items:
        stats.update(rates.group_stats(rates.add(item)))
    assert stats["fields/shopify-collection/vendor/filled"] == 2
    assert stats["fields/shopify-collection/vendor/total"] == 2
    assert FillRates.from_stats(stats).to_dict() == FillRates.from_items(items).to_dict()


def test_required_fields_name_fields_the_templates_fill_on_real_captures():
    assert set(REQUIRED_FIELDS) <= {t.id for t in TEMPLATES}
    items = (collection_items() + lever_jobs()
             + [template_page("github-repo", "../templates/github-repo-hono.html", "https://github.com/honojs/hono"),
                template_page("stackoverflow-question", "../templates/stackoverflow-question.json",
                              "https://stackoverflow.com/questions/11227809")])
    rates = FillRates.from_items(items)
    assert set(rates.groups) == {"shopify-collection", "lever-postings", "github-repo", "stackoverflow-question"}
    assert check(rates, Outcome()) == []


def test_a_required_field_empty_too_often_is_an_alarm():
    items = collection_items()
    items[0]["price"] = None
    assert check(FillRates.from_items(items), Outcome()) == [
        "shopify-collection: required field 'price' is empty in 50% of items (1/2; allowed 20%)"]


def test_a_drop_beyond_the_margin_names_template_field_before_and_now():
    before = FillRates.from_items(lever_jobs())  # the capture: descriptions on all 5 postings
    jobs = lever_jobs()
    for job in jobs[:2]:
        job["description"] = None
    now = FillRates.from_items(jobs)
    assert field_alarms(now, before, Thresholds(margin=0.2)) == [
        "lever-postings: field 'description' fill rate fell from 100% (5/5) to 60% (3/5)"]
    assert field_alarms(now, before, Thresholds(margin=0.4)) == []  # a drop of exactly the margin


def test_a_template_this_crawl_did_not_reach_is_not_judged():
    assert field_alarms(FillRates.from_items(lever_jobs()), FillRates.from_items(collection_items()), Thresholds()) == []


def test_blocked_and_error_shares_are_judged_from_the_minimum_crawl_size():
    thresholds = Thresholds(max_blocked_share=0.3, max_error_share=0.5, min_urls=20)
    assert check(FillRates(), Outcome(requested=10, errors=9, blocked=9), thresholds=thresholds) == []
    assert check(FillRates(), Outcome(requested=40, errors=21, blocked=13), thresholds=thresholds) == [
        "blocked pages: 32% (13/40), above 30%", "URLs ended as errors: 52% (21/40), above 50%"]


def test_baseline_round_trip_and_refusal(tmp_path):
    rates = FillRates.from_items(collection_items())
    save_baseline(rates, tmp_path / "baseline.json")
    assert load_baseline(tmp_path / "baseline.json").to_dict() == rates.to_dict()
    (tmp_path / "feed.json").write_text(json.dumps({"fields": {}}))
    with pytest.raises(ValueError, match="not a health baseline"):
        load_baseline(tmp_path / "feed.json")


def test_outcome_counts_walls_of_every_vendor():
    stats = {"ledger/requested": 30, "ledger/errors": 4, "verdict/blocked/cloudflare": 3,
             "verdict/blocked/akamai": 1, "verdict/needs_browser": 7}
    assert outcome_from(stats) == Outcome(requested=30, errors=4, blocked=4)


def test_extension_records_alarms_in_the_stats(tmp_path):
    baseline = tmp_path / "baseline.json"
    save_baseline(FillRates.from_items(lever_jobs()), baseline)
    crawler = get_crawler(Spider, {**CRAWLFORGE_DEFAULTS, "CRAWLFORGE_HEALTH_BASELINE": str(baseline)})
    crawler.spider = Spider("test")
    extension = HealthCheck.from_crawler(crawler)
    jobs = lever_jobs()
    for job in jobs:
        job["location"] = None
    crawler.stats.open_spider()
    rates = FillRates()
    for job in jobs:
        for key, value in rates.group_stats(rates.add(job)).items():
            crawler.stats.set_value(key, value)
    extension.spider_closed(crawler.spider)
    assert crawler.stats.get_value("health/alarms") == 1
    assert crawler.stats.get_value("health/messages") == [
        "lever-postings: field 'location' fill rate fell from 60% (3/5) to 0% (0/5)"]
