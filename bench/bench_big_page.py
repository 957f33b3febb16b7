"""Does one huge page hold the crawl? A crawl of the generated local site plus one synthetic
24 MB page (bench_hostile_pages' big article), with the big page worked on off the reactor thread
(crawlforge's default) and, for comparison, on it (CRAWLFORGE_PAGE_THREAD_MIN_CHARS=0).
Prints for each: the reactor's longest stall (a 50 ms timer's worst lateness), the pages that
finished while the big page was being worked on, the seconds that took, and the crawl's peak RSS.

    .venv/bin/python bench/bench_big_page.py [--pages 1500] [--mb 24]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIG_PAGE = "synthetic-big-article.html"
TICK = 0.05


class ReactorLag:
    """Extension (loaded by the crawl from this file): the timer's worst lateness, and what
    happened between the big page's response and its item."""

    def __init__(self, crawler):
        from scrapy import signals  # noqa: PLC0415 - only the crawl's process loads Scrapy
        from twisted.internet import task  # noqa: PLC0415

        self.stats = crawler.stats
        self.worst, self.last = 0.0, None
        self.big_started = self.big_done = None
        self.pages_during = 0
        self.loop = task.LoopingCall(self.tick)
        crawler.signals.connect(self.opened, signals.spider_opened)
        crawler.signals.connect(self.closed, signals.spider_closed)
        crawler.signals.connect(self.received, signals.response_received)
        crawler.signals.connect(self.scraped, signals.item_scraped)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    def opened(self, spider):
        self.last = time.monotonic()
        self.loop.start(TICK, now=False)

    def tick(self):
        now = time.monotonic()
        self.worst = max(self.worst, now - self.last - TICK)
        self.last = now

    def received(self, response, request, spider):
        if response.url.endswith(BIG_PAGE):
            self.big_started = time.monotonic()

    def scraped(self, item, response, spider):
        if response.url.endswith(BIG_PAGE):
            self.big_done = time.monotonic()
        elif self.big_started is not None and self.big_done is None:
            self.pages_during += 1

    def closed(self, spider):
        self.loop.stop()
        self.stats.set_value("bench/reactor_worst_stall_s", round(self.worst, 3))
        self.stats.set_value("bench/pages_during_big_page", self.pages_during)
        if self.big_started is not None and self.big_done is not None:
            self.stats.set_value("bench/big_page_s", round(self.big_done - self.big_started, 2))


def crawl(tmp: Path, urls: Path, extra: dict) -> dict:
    from crawlforge import settings as project_settings  # noqa: PLC0415 - its extensions stay on
    stats = tmp / "stats.json"
    settings = {"AUTOTHROTTLE_ENABLED": "False", "CONCURRENT_REQUESTS": "16", "CONCURRENT_REQUESTS_PER_DOMAIN": "16",
                "ROBOTSTXT_OBEY": "False", "LOG_LEVEL": "WARNING", "CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32",
                "CRAWLFORGE_STATS_FILE": str(stats), "CRAWLFORGE_ERRORS_FEED": str(tmp / "errors.jsonl"),
                "EXTENSIONS": json.dumps({**project_settings.EXTENSIONS, "bench_big_page.ReactorLag": 900}), **extra}
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"urls_file={urls}", "-O", str(tmp / "items.jsonl"),
               *[arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]]
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(ROOT / "bench"), str(ROOT), os.environ.get("PYTHONPATH")]))})
    _, status, rusage = os.wait4(process.pid, 0)
    if status:
        raise SystemExit(f"crawl failed: {' '.join(command)}")
    result = json.loads(stats.read_text())
    return {**result, "peak_rss_mb": rusage.ru_maxrss / 1024}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1500, help="pages of the generated site")
    parser.add_argument("--mb", type=float, default=24, help="size of the big page (MB)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from bench.bench_hostile_pages import synthetic_big_article  # noqa: PLC0415
    from crawlforge.testing.server import FixtureServer  # noqa: PLC0415

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / BIG_PAGE).write_text(synthetic_big_article(args.mb), encoding="utf-8")
        server = FixtureServer(tmp).start()
        urls = tmp / "urls.txt"
        urls.write_text(f"{server.url(f'/_gen/{args.pages}/0')}\n{server.url('/' + BIG_PAGE)}\n")
        try:
            runs = {"off the reactor (default)": crawl(tmp, urls, {}),
                    "on the reactor": crawl(tmp, urls, {"CRAWLFORGE_PAGE_THREAD_MIN_CHARS": "0"})}
        finally:
            server.stop()
    print(f"{'big page worked on':28s} {'worst stall s':>13s} {'pages meanwhile':>15s} {'big page s':>10s} "
          f"{'items':>6s} {'peak RSS MB':>11s}")
    for name, stats in runs.items():
        print(f"{name:28s} {stats.get('bench/reactor_worst_stall_s', 0):13.2f} "
              f"{stats.get('bench/pages_during_big_page', 0):15d} {stats.get('bench/big_page_s', 0):10.2f} "
              f"{stats.get('item_scraped_count', 0):6d} {stats['peak_rss_mb']:11.0f}")


if __name__ == "__main__":
    main()
