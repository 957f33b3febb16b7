"""Crawl-delay is honoured: crawl 5 pages of one host whose robots.txt asks for 0, 1 and 100
seconds (capped at 1.5 by CRAWLFORGE_MAX_CRAWL_DELAY) and print how long each crawl took.
Five page requests after robots.txt at a delay d take at least 5 * d seconds.

Usage: .venv/bin/python bench/bench_crawl_delay.py
"""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from crawlforge.testing.server import FixtureServer

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "fixtures" / "demo" / "news" / "blog.python.org.html"
PAGES = 5
CAP = 1.5


def crawl_seconds(site: Path, work: Path, delay: str) -> dict:
    (site / "robots.txt").write_text(f"User-agent: *\nCrawl-delay: {delay}\n")
    server = FixtureServer(site).start()
    try:
        urls = work / "urls.txt"
        urls.write_text("\n".join(server.url(f"/p{i}.html") for i in range(PAGES)))
        stats = work / "stats.json"
        command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"urls_file={urls}", "-a", "follow=0",
                   "-O", str(work / "items.jsonl")]
        for name, value in {"CRAWLFORGE_STATS_FILE": stats, "CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32",
                            "CRAWLFORGE_RENDER": "never", "CRAWLFORGE_MAX_CRAWL_DELAY": CAP}.items():
            command += ["-s", f"{name}={value}"]
        subprocess.run(command, cwd=ROOT, capture_output=True, check=True)
        return json.loads(stats.read_text())
    finally:
        server.stop()


def main():
    with tempfile.TemporaryDirectory() as tmp:
        site, work = Path(tmp) / "site", Path(tmp) / "work"
        site.mkdir()
        work.mkdir()
        for i in range(PAGES):
            shutil.copyfile(PAGE, site / f"p{i}.html")
        for delay in ("0", "1", "100"):
            stats = crawl_seconds(site, work, delay)
            floor = PAGES * min(float(delay), CAP)
            print(f"Crawl-delay {delay:>3}: {stats.get('ledger/items')} items in "
                  f"{stats['elapsed_time_seconds']:.2f} s (floor {floor:.1f} s, "
                  f"capped: {stats.get('crawldelay/capped', 0)})")


if __name__ == "__main__":
    main()
