"""The progress line: what a long crawl prints while it runs."""

import re
import socket

from scrapy import Spider
from scrapy.utils.test import get_crawler

from crawlforge.extensions.progress import Progress, known_total
from crawlforge.report.progress import Snapshot, duration, eta_seconds, progress_bar, progress_line


def test_line_names_items_errors_by_reason_rate_queue_and_eta():
    snap = Snapshot(items=100, done=110, total=350, queue=40, per_min=60,
                    errors={"timeout": 3, "http_error": 5, "dns": 2})
    assert progress_line(snap) == ("100 items, 10 errors (http_error 5, timeout 3, dns 2), 60 URLs/min, "
                                   "queue 40, 110/350 done, ETA 4m00s")


def test_no_eta_without_a_total_or_while_nothing_arrives():
    assert eta_seconds(10, None, 30) is None
    assert eta_seconds(10, 100, 0) is None
    assert "ETA" not in progress_line(Snapshot(items=5, done=5, per_min=12))


def test_durations_stay_short():
    assert [duration(s) for s in (42, 185, 3720, 90000)] == ["42s", "3m05s", "1h02m", "25h00m"]


def test_bar_fills_with_the_share_done():
    bar = progress_bar(Snapshot(done=50, total=100, per_min=10))
    assert bar.startswith("[" + "#" * 12 + "." * 12 + "]  50% ")
    assert progress_bar(Snapshot(items=3)) == progress_line(Snapshot(items=3))  # no total: no bar


def test_total_is_known_for_url_lists_and_sitemaps_not_for_followed_links():
    assert known_total(0, {"crawlforge/start_urls": 30}) == 30
    assert known_total(0, {"crawlforge/start_urls": 1, "sitemap/urls": 500}) == 500
    assert known_total(100, {"crawlforge/start_urls": 1, "sitemap/urls": 500}) == 100  # -a max_pages=100
    assert known_total(0, {"crawlforge/start_urls": 1, "crawlforge/follows_links": True}) is None
    assert known_total(50, {"crawlforge/start_urls": 1, "crawlforge/follows_links": True}) == 50


def test_the_line_counts_urls_as_the_ledger_does():
    """A wall retried through the browser is two block pages but one blocked URL; a refused
    connection is a URL done without a page: the line says 1 blocked, and done = items + errors."""
    crawler = get_crawler(Spider, {"CRAWLFORGE_PROGRESS_INTERVAL": 30, "CRAWLFORGE_MAX_PAGES": 150})
    extension = Progress.from_crawler(crawler)
    crawler.stats.open_spider()
    for key, value in {"response_received_count": 124, "item_scraped_count": 123, "ledger/items": 123,
                       "verdict/blocked/cloudflare": 2, "ledger/errors/blocked": 1,
                       "ledger/errors/connection_refused": 1, "ledger/requested": 140,
                       "crawlforge/follows_links": True}.items():
        crawler.stats.set_value(key, value)
    line = progress_line(extension.snapshot(queue=7))
    assert line == ("123 items, 2 errors (blocked 1, connection_refused 1), 250 URLs/min, queue 7, "
                    "125/150 done, ETA 6s")


def test_a_running_crawl_logs_progress_lines_that_add_up(fixture_server, crawl, tmp_path):
    urls = tmp_path / "urls.txt"
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))  # bound, not listening: refused
    urls.write_text("\n".join([*(fixture_server.url(f"/_slow/1/demo/news/blog.python.org.html?{i}") for i in range(3)),
                               fixture_server.url("/missing.html"), f"http://127.0.0.1:{dead.getsockname()[1]}/"]))
    result = crawl("site", args={"urls_file": urls, "follow": 0},
                   settings={"CRAWLFORGE_PROGRESS_INTERVAL": "0.5", "RETRY_TIMES": "0"})
    dead.close()
    lines = [line.split("Progress: ")[1] for line in result.log.splitlines() if "Progress: " in line]
    assert lines, result.log[-3000:]
    for line in lines:
        items, errors, done = re.match(r"(\d+) items, (\d+) errors?.*, (\d+)/5 done", line).groups()
        assert int(items) + int(errors) == int(done), line
    assert "pages" not in lines[-1] and "blocked" not in lines[-1]
    assert result.log.strip().splitlines()[-1].endswith(
        "Crawl finished: 3 items, 2 URLs failed (connection_refused 1, http_error 1)")
