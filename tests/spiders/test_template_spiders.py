"""Spiders generated from the template registry, by real crawls against the fixture server."""

import pytest
from scrapy.crawler import Crawler
from scrapy.settings import Settings
from scrapy.utils.test import get_crawler

from crawlforge.args import ArgumentError
from crawlforge.extract.frontmatter import parse_document
from crawlforge.spiders.templates import spider_class
from crawlforge.templates import Template
from crawlforge.items import Job


def test_shopify_collection_follows_pages_until_the_collection_ends(fixture_server, crawl):
    # a real captured collection, served one product a page as a storefront would page it
    url = fixture_server.url("/_paged/templates/shopify/allbirds-collection.json/collections/mens?limit=1")
    result = crawl("shopify-collection", args={"url": url})
    assert result.returncode == 0, result.log[-2000:]
    ids = [item["product_id"] for item in result.items]
    assert len(ids) == len(set(ids)) == 2
    assert all(item["template"] == "shopify-collection" for item in result.items)
    pages = [e["path"] for e in fixture_server.access_log if "/_paged/" in e["path"]]
    assert any("page=3" in path for path in pages)  # page 3 came back empty: the end


def test_jobs_spider_puts_two_platforms_on_one_job_shape(fixture_server, crawl, tmp_path):
    boards = tmp_path / "boards.txt"
    boards.write_text(f"greenhouse-jobs {fixture_server.url('/connectors/ats/greenhouse-jobs-summary.json')}\n"
                      f"lever-postings {fixture_server.url('/connectors/ats/lever-postings.json')}\n")
    result = crawl("jobs", args={"boards_file": boards})
    assert result.returncode == 0, result.log[-2000:]
    sources = {item["source"] for item in result.items}
    assert sources == {"greenhouse-jobs", "lever-postings"}
    for item in result.items:
        Job.model_validate(item)
    assert result.stats["jobs/boards/greenhouse-jobs"] == 1


def test_a_body_the_template_rejects_is_no_item(fixture_server, crawl):
    result = crawl("shopify-product", args={"url": fixture_server.url("/demo/index.html")})
    assert result.items == []
    assert result.stats["crawlforge/failed/template_rejected"] == 1


class KeyedConnector(Template):
    id = "keyed-test"
    name = "Keyed test connector"
    description = "A connector that needs an API key."
    requires_api_key = True
    credential_ref = "KEYED_TEST_API_KEY"

    def list_url(self, params):
        return f"https://api.example.com/items?key={params['api_key']}"

    def extract_list(self, body, url, params=None):
        return {"items": [], "count": 0}


def test_missing_api_key_stops_before_any_request_naming_the_variable(monkeypatch):
    monkeypatch.delenv("KEYED_TEST_API_KEY", raising=False)
    spider_cls = spider_class(KeyedConnector())
    with pytest.raises(ArgumentError, match="KEYED_TEST_API_KEY"):  # a bad setting: one line, exit 2
        spider_cls.from_crawler(get_crawler(spider_cls))


def test_api_key_comes_from_the_named_environment_variable(monkeypatch):
    monkeypatch.setenv("KEYED_TEST_API_KEY", "s3cret")
    spider_cls = spider_class(KeyedConnector())
    spider = spider_cls.from_crawler(get_crawler(spider_cls))
    assert spider.list_start_url == "https://api.example.com/items?key=s3cret"


def test_html_template_item_carries_template_fields_and_the_page_pipeline(fixture_server, crawl):
    result = crawl("github-repo", args={"url": fixture_server.url("/templates/github-repo-hono.html")})
    assert result.returncode == 0, result.log[-2000:]
    [item] = result.items
    assert item["template"] == "github-repo"
    assert item["template_data"]["name"] == "hono"
    assert item["markdown"].strip()
    frontmatter, _ = parse_document(item["document"])
    assert frontmatter["template_data"]["name"] == "hono"


def test_json_template_item_has_its_data_in_the_document(fixture_server, crawl):
    url = fixture_server.url("/templates/stackoverflow-question.json")
    result = crawl("stackoverflow-question", args={"url": url})
    assert result.returncode == 0, result.log[-2000:]
    [item] = result.items
    data = item["template_data"]
    assert item["url"] == url and item["template"] == "stackoverflow-question"
    assert isinstance(data["question_id"], int) and data["title"]
    assert parse_document(item["document"])[0]["template_data"]["question_id"] == data["question_id"]


def test_crawl_options_are_settings_not_template_parameters():
    spider_cls = spider_class(KeyedConnector())
    crawler = Crawler(spider_cls, Settings({"KEYED_TEST_API_KEY": "s3cret"}))  # settings not final yet, as in a crawl
    spider = spider_cls.from_crawler(crawler, url="https://api.example.com/x", render="never", query="price",
                                     company="acme")
    assert (crawler.settings["CRAWLFORGE_RENDER"], crawler.settings["CRAWLFORGE_QUERY"]) == ("never", "price")
    assert "render" not in spider.params and "query" not in spider.params
    assert spider.params["company"] == "acme"
