"""Politeness on long harvests: 429/503 are retried after the server's Retry-After (or an
exponential backoff), capped; a real crawl meets a 429 with Retry-After and still gets the page."""

from crawlforge.middlewares.retry_after import retry_delay


def test_retry_after_seconds_and_http_date_are_honoured_and_capped():
    assert retry_delay("7", attempt=0, base=2, cap=60) == 7
    now = 1_700_000_000  # Tue, 14 Nov 2023 22:13:20 GMT
    assert retry_delay("Tue, 14 Nov 2023 22:13:50 GMT", 0, 2, 60, now=now) == 30
    assert retry_delay("3600", 0, 2, 60) == 60
    assert retry_delay("Tue, 14 Nov 2023 22:00:00 GMT", 0, 2, 60, now=now) == 0  # already past


def test_without_retry_after_the_wait_doubles_per_attempt():
    assert [retry_delay(None, attempt, 2, 60) for attempt in range(4)] == [2, 4, 8, 16]
    assert retry_delay("soon", 5, 2, 60) == 60  # unparseable: backoff, capped


def test_crawl_waits_out_a_429_and_gets_the_page(fixture_server, crawl, tmp_path):
    url = fixture_server.url("/_throttle/429/1/1/demo/news/blog.python.org.html")
    result = crawl("site", args={"url": url, "follow": 0})
    assert [item["url"] for item in result.items] == [url]
    assert result.stats["retry/backoff/429"] == 1
    assert result.stats["retry/backoff_seconds"] == 1.0
    assert result.stats["retry/count"] == 1
