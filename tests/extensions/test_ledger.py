"""The URL ledger extension, driven by the signals a crawl sends."""

import asyncio
import json

from scrapy import Request, Spider
from scrapy import signals as scrapy_signals
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse
from scrapy.utils.test import get_crawler
from twisted.internet.error import DNSLookupError, TimeoutError

from conftest import CRAWLFORGE_DEFAULTS
from crawlforge import signals
from crawlforge.extensions.ledger import UrlLedger, errors_feed_overwrite, errors_feed_uri
from crawlforge.middlewares.ledger import LedgerMiddleware, classify


class LedgerSpider(Spider):
    name = "ledger"


def make_ledger(tmp_path, **settings):
    crawler = get_crawler(LedgerSpider, settings_dict={**CRAWLFORGE_DEFAULTS, "CRAWLFORGE_ERRORS_FEED": str(tmp_path / "errors.jsonl"),
                                                        **settings})
    crawler.spider = LedgerSpider()
    crawler.stats.open_spider()
    return crawler, UrlLedger.from_crawler(crawler)


def schedule(crawler, url, request=None):
    request = request or Request(url)
    crawler.signals.send_catch_log(scrapy_signals.request_scheduled, request=request, spider=crawler.spider)
    return request


def respond(crawler, request, status=200):
    response = HtmlResponse(request.url, status=status, body=b"<p>x</p>", request=request)
    crawler.signals.send_catch_log(scrapy_signals.response_received, response=response, request=request,
                                   spider=crawler.spider)
    return response


def close(crawler, ledger, tmp_path):
    asyncio.run(ledger.spider_closed(crawler.spider))
    path = tmp_path / "errors.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []
    stats = crawler.stats.get_stats()
    return rows, stats


def test_every_scheduled_url_is_one_item_or_one_error(tmp_path):
    crawler, ledger = make_ledger(tmp_path)
    ok = schedule(crawler, "http://a.example/ok")
    crawler.signals.send_catch_log(scrapy_signals.item_scraped, item={}, response=respond(crawler, ok),
                                   spider=crawler.spider)
    denied = schedule(crawler, "http://a.example/private")
    LedgerMiddleware(crawler).process_exception(denied, IgnoreRequest("Forbidden by robots.txt"))
    missing = schedule(crawler, "http://a.example/missing")
    respond(crawler, missing, status=404)
    wall = schedule(crawler, "http://a.example/wall")
    crawler.signals.send_catch_log(signals.url_failed, url=wall.url, request=wall, stage="verdict",
                                   reason="blocked", detail="cloudflare wall", vendor="cloudflare", status=403)
    rows, stats = close(crawler, ledger, tmp_path)
    assert stats["ledger/requested"] == 4 == stats["ledger/items"] + stats["ledger/errors"]
    by_url = {row["url"]: row for row in rows}
    assert by_url["http://a.example/private"]["reason"] == "robots_denied"
    assert by_url["http://a.example/missing"]["reason"] == "http_error"
    assert by_url["http://a.example/missing"]["status"] == 404
    assert (by_url["http://a.example/wall"]["vendor"], by_url["http://a.example/wall"]["stage"]) == ("cloudflare", "verdict")


def test_redirect_hops_and_retries_are_one_url(tmp_path):
    crawler, ledger = make_ledger(tmp_path)
    first = schedule(crawler, "http://a.example/old")
    hop = schedule(crawler, None, first.replace(url="http://a.example/new"))
    retry = schedule(crawler, None, hop.copy())
    crawler.signals.send_catch_log(scrapy_signals.item_scraped, item={}, response=respond(crawler, retry),
                                   spider=crawler.spider)
    rows, stats = close(crawler, ledger, tmp_path)
    assert (stats["ledger/requested"], stats["ledger/items"], stats["ledger/errors"]) == (1, 1, 0)
    assert rows == []


def test_first_specific_reason_wins_over_the_generic_one(tmp_path):
    crawler, ledger = make_ledger(tmp_path)
    request = schedule(crawler, "http://a.example/huge")
    crawler.signals.send_catch_log(signals.url_failed, url=request.url, request=request, stage="download",
                                   reason="too_large", detail="big", limit=10, size=20)
    LedgerMiddleware(crawler).process_exception(request, TimeoutError())
    [row], _ = close(crawler, ledger, tmp_path)
    assert (row["reason"], row["limit"], row["size"]) == ("too_large", 10, 20)


def test_request_filtered_when_scheduled_is_not_fetched(tmp_path):
    crawler, ledger = make_ledger(tmp_path)
    first = schedule(crawler, "http://a.example/go")
    crawler.signals.send_catch_log(scrapy_signals.request_reached_downloader, request=first, spider=crawler.spider)
    schedule(crawler, None, first.replace(url="http://elsewhere.example/"))  # a redirect, then filtered
    [row], _ = close(crawler, ledger, tmp_path)
    assert (row["url"], row["reason"]) == ("http://a.example/go", "not_fetched")
    assert "http://elsewhere.example/ was scheduled but never fetched" in row["detail"]


def test_dropped_duplicate_is_not_counted(tmp_path):
    crawler, ledger = make_ledger(tmp_path)
    request = schedule(crawler, "http://a.example/dup")
    crawler.signals.send_catch_log(scrapy_signals.request_dropped, request=request, spider=crawler.spider)
    rows, stats = close(crawler, ledger, tmp_path)
    assert (stats["ledger/requested"], stats["ledger/errors"], rows) == (0, 0, [])


def test_failure_reported_by_url_only_finds_its_entry(tmp_path):
    crawler, ledger = make_ledger(tmp_path)
    request = schedule(crawler, "http://a.example/feed.xml")
    crawler.signals.send_catch_log(signals.url_failed, url=request.url, stage="spider", reason="not_html",
                                   detail="application/xml")
    [row], stats = close(crawler, ledger, tmp_path)
    assert row["reason"] == "not_html" and stats["ledger/errors"] == 1


def test_handled_response_without_item_is_no_item(tmp_path):
    crawler, ledger = make_ledger(tmp_path)
    respond(crawler, schedule(crawler, "http://a.example/empty"))
    [row], _ = close(crawler, ledger, tmp_path)
    assert (row["stage"], row["reason"], row["status"]) == ("spider", "no_item", 200)


def test_download_exceptions_are_classified():
    assert classify(DNSLookupError("nx")) == ("download", "dns")
    assert classify(TimeoutError()) == ("download", "timeout")


def test_errors_feed_defaults_next_to_the_items_feed():
    crawler = get_crawler(LedgerSpider, settings_dict={"FEEDS": {"out/run1/items.jsonl": {"format": "jsonlines"}}})
    assert errors_feed_uri(crawler.settings) == "out/run1/items.errors.jsonl"
    crawler = get_crawler(LedgerSpider, settings_dict={"FEEDS": {"s3://bucket/crawl/items.jsonl": {}}})
    assert errors_feed_uri(crawler.settings) == "s3://bucket/crawl/items.errors.jsonl"
    assert errors_feed_uri(get_crawler(LedgerSpider).settings) is None


def test_errors_feed_is_replaced_or_appended_like_the_items_feed(tmp_path):
    replaced = get_crawler(LedgerSpider, settings_dict={"FEEDS": {"i.jsonl": {"overwrite": True}}})
    appended = get_crawler(LedgerSpider, settings_dict={"FEEDS": {"i.jsonl": {"format": "jsonlines"}}})
    assert errors_feed_overwrite(replaced.settings) is True
    assert errors_feed_overwrite(appended.settings) is False
    for run in range(2):
        crawler, ledger = make_ledger(tmp_path, FEEDS={"i.jsonl": {"format": "jsonlines"}})
        schedule(crawler, f"http://a.example/{run}")
        rows, _ = close(crawler, ledger, tmp_path)
    assert [row["url"] for row in rows] == ["http://a.example/0", "http://a.example/1"]
