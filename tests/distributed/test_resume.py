"""Resume after SIGKILL: a crawl with JOBDIR is killed mid-way, then run again with the same
JOBDIR; the union of the two feeds has every page, and a page is in both only when it was in
flight at the kill (those items carry ``resumed_refetch: true``)."""

import json
import os
import random
import signal
import subprocess
import sys
import time

from conftest import ROOT, TEST_CRAWL_SETTINGS, read_jsonl
from crawlforge.distributed.frontier import Frontier
from services import start_crawl

TOTAL = 100  # pages of the generated site, all reachable from page 0
CONCURRENCY = 4


def wait_for_items(items, count: int, process, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if items.exists() and items.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"the crawl ended or stalled before {count} items")


def test_sigkill_then_resume_exports_every_page_once(fixture_server, tmp_path):
    args = {"url": fixture_server.url(f"/_gen/{TOTAL}/0")}
    settings = {"JOBDIR": str(tmp_path / "job"), "CONCURRENT_REQUESTS": CONCURRENCY, "DOWNLOAD_DELAY": 0.02}
    killed, first_feed = start_crawl("site", tmp_path / "run1", args, settings)
    wait_for_items(first_feed, 30, killed)
    killed.send_signal(signal.SIGKILL)
    killed.wait()

    resumed, second_feed = start_crawl("site", tmp_path / "run2", args, settings)
    assert resumed.wait(timeout=180) == 0
    first, second = read_jsonl(first_feed), read_jsonl(second_feed)  # every line whole
    stats = json.loads((tmp_path / "run2" / "stats.json").read_text())

    expected = {fixture_server.url(f"/_gen/{TOTAL}/{i}") for i in range(TOTAL)}
    first_urls, second_urls = [i["url"] for i in first], [i["url"] for i in second]
    assert set(first_urls) | set(second_urls) == expected
    assert len(first_urls) == len(set(first_urls)) and len(second_urls) == len(set(second_urls))
    duplicates = set(first_urls) & set(second_urls)
    refetched = {i["url"] for i in second if i["resumed_refetch"]}
    assert duplicates <= refetched  # a consumer drops these when the URL is in the killed feed
    assert len(refetched) <= stats["resume/refetched"] <= CONCURRENCY * 4  # in flight at the kill
    assert not any(i["resumed_refetch"] for i in first)
    assert 30 <= len(first) < TOTAL
    print(f"killed feed {len(first)}, resumed feed {len(second)}, in flight {stats['resume/refetched']}, "
          f"refetched items {len(refetched)}, duplicates {len(duplicates)}")


def test_frontier_requeues_in_flight_rows_as_refetches_after_a_kill(tmp_path):
    path = tmp_path / "frontier.sqlite3"
    frontier = Frontier(path)
    assert frontier.add("a", 0, b"A", force=False) and frontier.add("b", 0, b"B", force=False)
    assert not frontier.add("a", 0, b"A", force=False)  # seen before: filtered
    assert frontier.pop() == (b"A", False)
    frontier.done("a")
    assert frontier.pop() == (b"B", False)  # in flight when the process dies
    frontier.db.close()  # no clean close of the crawl: the rows are all there is

    reopened = Frontier(path)
    assert (reopened.refetched, reopened.queued) == (1, 1)
    assert reopened.pop() == (b"B", True)
    assert reopened.pop() is None
    assert not reopened.add("a", 0, b"A", force=False)  # done stays seen
    assert reopened.add("a", 5, b"A2", force=True)  # dont_filter (a retry) queues it again
    assert reopened.pop() == (b"A2", False)


def test_frontier_pops_higher_priority_first_then_in_order(tmp_path):
    frontier = Frontier(tmp_path / "frontier.sqlite3")
    for fp, priority in (("a", 0), ("b", 0), ("c", 10)):
        frontier.add(fp, priority, fp.encode(), force=False)
    assert [frontier.pop()[0] for _ in range(3)] == [b"c", b"a", b"b"]


def test_finished_sitemap_harvest_resumed_fetches_nothing_again(fixture_server, crawl, tmp_path):
    args = {"url": fixture_server.url("/_sitemap/20/10/index.xml")}
    settings = {"JOBDIR": str(tmp_path / "job")}
    first = crawl("sitemap", args=args, settings=settings)
    assert len(first.items) == 20
    again = crawl("sitemap", args=args, settings=settings)
    assert again.items == [] and again.stats["dupefilter/filtered"] == 1  # the index itself


def test_template_spider_runs_and_resumes_with_jobdir(fixture_server, crawl, tmp_path):
    url = fixture_server.url("/_paged/templates/shopify/allbirds-collection.json/collections/mens?limit=1")
    settings = {"JOBDIR": str(tmp_path / "job")}
    first = crawl("shopify-collection", args={"url": url}, settings=settings)
    assert len({item["product_id"] for item in first.items}) == len(first.items) == 2
    again = crawl("shopify-collection", args={"url": url}, settings=settings)
    assert again.items == [] and again.stats["resume/refetched"] == 0


def test_repeated_sigkill_with_a_relative_feed_path_loses_nothing(fixture_server, tmp_path):
    """The README's form (``-o items.jsonl`` in the crawl's folder, with JOBDIR) killed three
    times at arbitrary moments: every page is in the feed, each 404 in the errors feed (appended
    as it happened, named after the items feed), and only marked refetches are repeated."""
    missing = [fixture_server.url(f"/missing/{i}.html") for i in range(10)]
    (tmp_path / "urls.txt").write_text("\n".join([fixture_server.url(f"/_gen/{TOTAL}/0"), *missing]) + "\n")
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-o", "items.jsonl", "-a", "urls_file=urls.txt"]
    for name, value in {**TEST_CRAWL_SETTINGS, "JOBDIR": "job", "CONCURRENT_REQUESTS": CONCURRENCY,
                        "DOWNLOAD_DELAY": 0.02, "CRAWLFORGE_STATS_FILE": "stats.json"}.items():
        command += ["-s", f"{name}={value}"]
    env = {**os.environ, "SCRAPY_SETTINGS_MODULE": "crawlforge.settings",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    items, pause = tmp_path / "items.jsonl", random.Random(22)
    for kill in range(3):
        process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                                   stderr=(tmp_path / f"log{kill}.txt").open("wb"))
        before = items.read_bytes().count(b"\n") if items.exists() else 0
        wait_for_items(items, before + 10, process)
        time.sleep(pause.uniform(0, 0.5))  # anywhere between two items
        process.send_signal(signal.SIGKILL)
        process.wait()
    final = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert final.returncode in (0, 1, 3), final.stderr[-3000:]  # 3: a health alarm on the last run alone
    stats = json.loads((tmp_path / "stats.json").read_text())
    lines = read_jsonl(items)  # every line whole
    urls = [line["url"] for line in lines]
    assert set(urls) == {fixture_server.url(f"/_gen/{TOTAL}/{i}") for i in range(TOTAL)}  # 0 lost
    repeated = {url for url in urls if urls.count(url) > 1}
    assert repeated <= {line["url"] for line in lines if line.get("resumed_refetch")}  # 0 unmarked duplicates
    errors = read_jsonl(tmp_path / "items.errors.jsonl")
    assert {e["url"] for e in errors} == set(missing)  # the killed runs' 404s were on disk already
    assert all(e["reason"] == "http_error" and e["status"] == 404 for e in errors)
    assert len(errors) - len(missing) <= CONCURRENCY * 4
    print(f"items {len(lines)} for {TOTAL} pages, repeated {len(repeated)} (all marked), "
          f"errors {len(errors)} for {len(missing)} 404s, refetched at last resume {stats['resume/refetched']}")
