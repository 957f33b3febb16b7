"""The progress line: what a long crawl prints while it runs."""

from scrapy import Request, Spider
from scrapy import signals as scrapy_signals
from scrapy.http import Response
from scrapy.utils.test import get_crawler

from crawlforge import signals
from crawlforge.extensions.ledger import ID_KEY
from crawlforge.extensions.progress import Progress, known_total
from crawlforge.report.progress import Snapshot, duration, eta_seconds, progress_bar, progress_line


def test_line_names_rate_items_errors_by_reason_blocked_queue_and_eta():
    snap = Snapshot(pages=120, items=100, done=110, total=350, queue=40, blocked=3, pages_per_min=60,
                    errors={"timeout": 3, "http_404": 5, "dns": 2})
    assert progress_line(snap) == ("120 pages (60/min), 100 items, 10 errors (http_404 5, timeout 3, dns 2), "
                                   "3 blocked, queue 40, 110/350 done, ETA 4m00s")


def test_no_eta_without_a_total_or_while_nothing_arrives():
    assert eta_seconds(10, None, 30) is None
    assert eta_seconds(10, 100, 0) is None
    assert "ETA" not in progress_line(Snapshot(pages=5, items=5, pages_per_min=12))


def test_durations_stay_short():
    assert [duration(s) for s in (42, 185, 3720, 90000)] == ["42s", "3m05s", "1h02m", "25h00m"]


def test_bar_fills_with_the_share_done():
    bar = progress_bar(Snapshot(done=50, total=100, pages_per_min=10))
    assert bar.startswith("[" + "#" * 12 + "." * 12 + "]  50% ")
    assert progress_bar(Snapshot(pages=3)) == progress_line(Snapshot(pages=3))  # no total: no bar


class ListSpider(Spider):
    name = "list"
    start_urls = [f"https://example.org/{i}" for i in range(30)]


class FollowingSpider(ListSpider):
    follow = True
    max_pages = None


def test_total_is_known_for_url_lists_and_sitemaps_not_for_followed_links():
    assert known_total(ListSpider(), {}) == 30
    assert known_total(ListSpider(), {"sitemap/urls": 500}) == 500
    assert known_total(FollowingSpider(), {"sitemap/urls": 500}) is None


def test_snapshot_counts_reported_failures_and_http_errors_of_scheduled_urls_only():
    crawler = get_crawler(ListSpider, {"CRAWLFORGE_PROGRESS_INTERVAL": 30})
    crawler.spider = ListSpider()
    extension = Progress.from_crawler(crawler)
    crawler.stats.open_spider()
    for url, ledger_id in (("https://example.org/robots.txt", None), ("https://example.org/a", 1),
                           ("https://example.org/b", 2), ("https://example.org/c", 3), ("https://example.org/d", 4)):
        request = Request(url, meta={} if ledger_id is None else {ID_KEY: ledger_id})
        status = 200 if url.endswith("/d") else 404
        crawler.signals.send_catch_log(scrapy_signals.response_received, request=request, spider=crawler.spider,
                                       response=Response(url, status=status, request=request))
    for key, value in {"response_received_count": 15, "item_scraped_count": 10, "verdict/blocked/cloudflare": 2}.items():
        crawler.stats.set_value(key, value)
    for reason in ("timeout", "timeout", "blocked"):
        crawler.signals.send_catch_log(signals.url_failed, url="https://example.org/x", stage="download",
                                       reason=reason, detail="")
    snap = extension.snapshot(queue=7)
    assert (snap.pages, snap.items, snap.blocked, snap.total, snap.queue, snap.pages_per_min) == (15, 10, 2, 30, 7, 30.0)
    assert snap.errors == {"timeout": 2, "blocked": 1, "http_404": 3}
    assert snap.done == 16


def test_a_running_crawl_logs_progress_lines(fixture_server, crawl, tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_text("\n".join(fixture_server.url(f"/_slow/2/demo/news/blog.python.org.html?{i}") for i in range(3)))
    result = crawl("site", args={"urls_file": urls, "follow": 0}, settings={"CRAWLFORGE_PROGRESS_INTERVAL": "0.5"})
    lines = [line for line in result.log.splitlines() if "Progress: " in line]
    assert lines, result.log[-3000:]
    assert "/3 done" in lines[0] and "queue " in lines[0]
    assert all("0 errors" in line for line in lines)  # the robots.txt 404 is not a URL of the crawl
