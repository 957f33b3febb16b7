"""Crawl a generated local site with a bare spider and with every crawlforge pipeline, and print
pages/s of each, their ratios, CPU ms per page and each crawl's peak RSS.

    python bench/bench_pipeline.py [--pages 3000] [--archive] [--repeat 1]

The bare spider (bench/bare_spider.py: links and titles) runs twice: on Scrapy's own defaults,
outside the project ("bare scrapy"), and inside it with crawlforge's downloader and spider
middlewares but no pipeline ("bare project"), so the cost of the middlewares and of the pipelines
show apart. ``--archive`` adds crawlforge with ``-a archive=DIR`` and its ratio to crawlforge.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.testing.server import FixtureServer  # noqa: E402

COMMON_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": "False",
    "CONCURRENT_REQUESTS": "32",
    "CONCURRENT_REQUESTS_PER_DOMAIN": "32",
    "ROBOTSTXT_OBEY": "False",
    "LOG_LEVEL": "WARNING",
    "CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32",
}


def run(command: list[str], stats_file: Path, cwd: Path) -> dict:
    """Run one crawl; pages/s from its own stats, peak RSS from the kernel's rusage of it."""
    process = subprocess.Popen(command, cwd=cwd)
    _, status, rusage = os.wait4(process.pid, 0)
    if status:
        raise SystemExit(f"crawl failed: {' '.join(command)}")
    stats = json.loads(stats_file.read_text())
    pages = stats.get("response_received_count", 0)
    elapsed = stats.get("elapsed_time_seconds") or 1
    cpu = rusage.ru_utime + rusage.ru_stime
    return {"pages": pages, "items": stats.get("item_scraped_count", 0), "seconds": elapsed,
            "pages_per_s": pages / elapsed, "cpu_ms_per_page": cpu * 1000 / max(pages, 1),
            "peak_rss_mb": rusage.ru_maxrss / 1024}


def settings_args(settings: dict) -> list[str]:
    return [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--archive", action="store_true", help="also crawl with the WARC archive on")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each crawl; the fastest counts")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        server = FixtureServer(tmp).start()
        start = server.url(f"/_gen/{args.pages}/0")
        bare = [sys.executable, "-m", "scrapy", "runspider", str(ROOT / "bench" / "bare_spider.py"),
                "-a", f"url={start}", *settings_args(COMMON_SETTINGS)]
        crawls = {name: [*bare, "-a", f"stats={tmp / f'{name}.json'}", "-O", str(tmp / f"{name}.jsonl"),
                         *settings_args(extra)]
                  for name, extra in (("bare scrapy", {}), ("bare project", {"ITEM_PIPELINES": "{}"}))}
        places = {"bare scrapy": tmp}  # outside the project: no scrapy.cfg, Scrapy's defaults
        for name, extra in (("crawlforge", []), ("archived", ["-a", f"archive={tmp / 'warc'}"]))[:1 + args.archive]:
            crawls[name] = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"url={start}", *extra,
                            "-O", str(tmp / f"{name}.jsonl"),
                            *settings_args({**COMMON_SETTINGS, "CRAWLFORGE_STATS_FILE": tmp / f"{name}.json",
                                            "CRAWLFORGE_ERRORS_FEED": tmp / "errors.jsonl"})]
        try:
            results = {}
            for _ in range(args.repeat):  # interleaved, so that a busy spell costs every crawl alike
                for name, command in crawls.items():
                    shutil.rmtree(tmp / "warc", ignore_errors=True)
                    result = run(command, tmp / f"{name}.json", places.get(name, ROOT))
                    if name not in results or result["pages_per_s"] > results[name]["pages_per_s"]:
                        results[name] = result
            archive_mb = sum(path.stat().st_size for path in (tmp / "warc").glob("*")) / 2**20 if args.archive else 0
        finally:
            server.stop()
    full = results["crawlforge"]
    for name, result in results.items():
        print(f"{name:12s} {result['pages']:6d} pages {result['items']:6d} items "
              f"{result['seconds']:7.1f} s {result['pages_per_s']:8.1f} pages/s "
              f"{result['cpu_ms_per_page']:6.2f} CPU ms/page peak RSS {result['peak_rss_mb']:7.1f} MB")
    for name in ("bare scrapy", "bare project"):
        print(f"ratio crawlforge/{name}: {full['pages_per_s'] / results[name]['pages_per_s']:.2f}")
    if args.archive:
        print(f"ratio archived/crawlforge: {results['archived']['pages_per_s'] / full['pages_per_s']:.2f} "
              f"(archive {archive_mb:.1f} MB)")


if __name__ == "__main__":
    main()
