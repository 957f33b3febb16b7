"""Highlights in a real crawl: ``-a query=...`` adds the ranked units of each page's markdown."""


import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from conftest import ROOT

from crawlforge.pipelines.highlights import HighlightsPipeline

PRICING = ROOT / "fixtures" / "highlights" / "pricing.md"


def test_highlights_pipeline_is_off_without_a_query():
    with pytest.raises(NotConfigured):
        HighlightsPipeline.from_crawler(get_crawler())


def test_highlights_pipeline_ranks_the_item_markdown():
    crawler = get_crawler(settings_dict={"CRAWLFORGE_QUERY": "enterprise price per month",
                                         "CRAWLFORGE_HIGHLIGHTS_MAX_UNITS": 2})
    crawler.stats.open_spider()
    item = {"url": "http://a/", "markdown": PRICING.read_text(encoding="utf-8")}
    HighlightsPipeline.from_crawler(crawler).process_item(item)
    assert [(h["offset"], h["kind"]) for h in item["highlights"]] == [(815, "sentence"), (257, "table_row")]
    assert crawler.stats.get_value("highlights/units") == 2
    api_record = {"url": "http://api/", "title": "no markdown field"}
    HighlightsPipeline.from_crawler(crawler).process_item(api_record)
    assert "highlights" not in api_record


def test_crawl_with_query_adds_verbatim_highlights(crawl, fixture_server):
    url = fixture_server.url("structure/dw.com.colonial.html")
    result = crawl("site", args={"url": url, "follow": "0", "query": "colonial past street names"},
                   settings={"CRAWLFORGE_HIGHLIGHTS_MAX_UNITS": "3"})
    item = result.items[0]
    highlights = item["highlights"]
    assert len(highlights) == 3, result.log[-3000:]
    for unit in highlights:
        assert item["markdown"][unit["offset"]:unit["offset"] + unit["length"]] == unit["text"]
    assert [h["score"] for h in highlights] == sorted((h["score"] for h in highlights), reverse=True)
    assert any("Postcolonial Remembrance in the City" in h["text"] for h in highlights)
    assert result.stats["highlights/pages"] == 1
