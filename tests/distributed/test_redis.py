"""Distributed crawling on a real redis-server: `scrapy seed` pushes the start URL, two worker
processes share the queue and the seen set, and their feeds hold every page exactly once; and
the host's Crawl-delay holds for the two workers together, as the server's own clock sees it."""

import json
import signal
import subprocess
import sys
import time

import redis
from scrapy import Request
from scrapy.utils.request import RequestFingerprinter

from conftest import ROOT, read_jsonl

from crawlforge.distributed.dupefilter import BloomDupeFilter
from crawlforge.testing.server import Gate
from services import redis_url, start_crawl  # noqa: F401 - redis_url is a fixture

TOTAL = 120


def seed(redis_url: str, *args: str) -> str:
    command = [sys.executable, "-m", "scrapy", "seed", *args, "-s", f"CRAWLFORGE_REDIS_URL={redis_url}"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_seed_command_pushes_json_entries_and_resets(redis_url, tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_text("# two seeds\nhttp://127.0.0.1:1/a\n\nhttp://127.0.0.1:1/b\n")
    assert "2 seed URLs pushed to site:start_urls (2 waiting)" in seed(redis_url, "site", "-f", str(urls))
    server = redis.Redis.from_url(redis_url)
    server.sadd("site:dupefilter", "x")
    seed(redis_url, "site", "--reset", "http://127.0.0.1:1/c")
    assert [json.loads(e) for e in server.lrange("site:start_urls", 0, -1)] == [{"url": "http://127.0.0.1:1/c"}]
    assert not server.exists("site:dupefilter")


def wait_until_open(workdir, timeout: float = 60) -> None:
    """Until the worker's log says its spider is open (it then polls the shared queue)."""
    log = workdir / "log.txt"
    deadline = time.monotonic() + timeout
    while "Spider opened" not in (log.read_text(errors="replace") if log.exists() else ""):
        assert time.monotonic() < deadline, f"worker not open after {timeout} s"
        time.sleep(0.1)


def stop_once_served(server, workers, prefix: str, count: int, since: int = 0, timeout: float = 120) -> None:
    """Stops the workers (SIGINT: Scrapy finishes the pages in flight, then closes) once the
    server has served ``count`` pages under ``prefix`` (its log from ``since``). They run with
    MAX_IDLE_TIME_BEFORE_CLOSE=0 until then: a worker that waits for work never closes while the
    other is still starting on a busy machine, or finds the queue empty."""
    deadline = time.monotonic() + timeout
    while len({hit["path"] for hit in server.access_log[since:] if hit["path"].startswith(prefix)}) < count:
        assert time.monotonic() < deadline, f"fewer than {count} pages served in {timeout} s"
        time.sleep(0.2)
    for process, _ in workers:
        process.send_signal(signal.SIGINT)
    for process, _ in workers:
        assert process.wait(timeout=120) == 0


def start_workers(server, redis_url, tmp_path, prefix: str, settings: dict) -> list:
    """Two workers, open (so polling the shared queue) before the seed is pushed. The server holds
    every page under ``prefix`` but the seed until both have asked for one: a worker takes only
    the CONCURRENT_REQUESTS pages it can fetch, so the first cannot drain the queue before the
    second starts, whatever the machine's load; each worker's USER_AGENT tells them apart."""
    seed(redis_url, "site", "--reset")
    workers = [start_crawl("site", tmp_path / name, settings={**settings, "USER_AGENT": f"crawlforge-{name}"})
               for name in ("worker1", "worker2")]
    for name in ("worker1", "worker2"):
        wait_until_open(tmp_path / name)
    server.gate = Gate(lambda path: path.startswith(prefix) and path != f"{prefix}0", agents=2)
    return workers


def test_two_workers_share_one_queue_and_export_every_page_once(fixture_server, redis_url, tmp_path):
    settings = {"CRAWLFORGE_REDIS_URL": redis_url, "MAX_IDLE_TIME_BEFORE_CLOSE": 0, "CONCURRENT_REQUESTS": 2}
    try:
        workers = start_workers(fixture_server, redis_url, tmp_path, f"/_gen/{TOTAL}/", settings)
        since = len(fixture_server.access_log)
        seed(redis_url, "site", fixture_server.url(f"/_gen/{TOTAL}/0"))
        stop_once_served(fixture_server, workers, f"/_gen/{TOTAL}/", TOTAL, since)
    finally:
        fixture_server.gate = None
    feeds = [[item["url"] for item in read_jsonl(items)] for _, items in workers]
    everything = feeds[0] + feeds[1]
    assert sorted(everything) == sorted(fixture_server.url(f"/_gen/{TOTAL}/{i}") for i in range(TOTAL))
    # both took part (the gate): how many pages each then takes is the machine's timing
    assert all(feeds), [len(feed) for feed in feeds]
    agents = {hit["headers"].get("User-Agent") for hit in fixture_server.access_log[since:]}
    assert {"crawlforge-worker1", "crawlforge-worker2"} <= agents
    stats = [json.loads((tmp_path / f"worker{n}" / "stats.json").read_text()) for n in (1, 2)]
    assert sum(s.get("redis/seeds", 0) for s in stats) == 1
    assert sum(s["scheduler/dequeued/redis"] for s in stats) >= TOTAL
    # each worker's ledger settles what reached its own downloader: no page is an error
    assert [s.get("ledger/errors") for s in stats] == [0, 0]
    assert sum(s["ledger/items"] for s in stats) == TOTAL


POLITE_PAGES = 12


def polite_harvest(make_server, redis_url, tmp_path, shared: bool) -> list[float]:
    """Two workers on one host whose robots.txt asks for a second between requests: the gaps
    between the page requests the server saw."""
    site = tmp_path / f"site-{shared}"
    site.mkdir()
    (site / "robots.txt").write_text("User-agent: *\nCrawl-delay: 1\n")
    server = make_server(site)
    settings = {"CRAWLFORGE_REDIS_URL": redis_url, "MAX_IDLE_TIME_BEFORE_CLOSE": 0,
                "CONCURRENT_REQUESTS": 2, "CRAWLFORGE_SHARED_POLITENESS": shared}
    workers = start_workers(server, redis_url, tmp_path / f"shared-{shared}", f"/_gen/{POLITE_PAGES}/", settings)
    seed(redis_url, "site", server.url(f"/_gen/{POLITE_PAGES}/0"))
    stop_once_served(server, workers, f"/_gen/{POLITE_PAGES}/", POLITE_PAGES)
    feeds = [read_jsonl(items) for _, items in workers]
    assert len(feeds[0]) + len(feeds[1]) == POLITE_PAGES and all(feeds)
    times = sorted(hit["time"] for hit in server.access_log if hit["path"].startswith("/_gen/"))
    return [later - earlier for earlier, later in zip(times, times[1:])]


def test_two_workers_keep_the_hosts_crawl_delay_together(make_server, redis_url, tmp_path):
    gaps = polite_harvest(make_server, redis_url, tmp_path, shared=True)
    assert sum(gaps) / len(gaps) >= 0.9, gaps
    assert min(gaps) >= 0.8, gaps


def test_without_shared_politeness_two_workers_double_the_rate(make_server, redis_url, tmp_path):
    """The reason for the above: each worker alone keeps only its own requests a second apart."""
    gaps = polite_harvest(make_server, redis_url, tmp_path, shared=False)
    assert min(gaps) < 0.5, gaps


def test_bloom_seen_set_knows_every_seen_url_and_few_false_ones(redis_url):
    server = redis.Redis.from_url(redis_url)
    seen = BloomDupeFilter(server, "bloom:test", fingerprinter=RequestFingerprinter(), capacity=7000, error_rate=0.01)
    first = [Request(f"https://h{i % 7}.example/p/{i}") for i in range(5000)]
    assert sum(seen.request_seen(request) for request in first) <= 100  # new URLs taken for seen ones
    assert all(seen.request_seen(request) for request in first)  # a seen URL is never fetched again
    fresh = [Request(f"https://other.example/q/{i}") for i in range(2000)]
    assert sum(seen.request_seen(request) for request in fresh) <= 2000 * 0.02
    assert server.strlen("bloom:test") <= 9 * 1024  # 7,000 URLs at 1 %: ~8 KB, against ~630 KB as a set
