"""Render a generated local site in ``render=always`` mode and print pages/s and the memory of
the browser processes (Chromium: browser, renderers, GPU/utility) at the start, middle and end
of the crawl: their peak summed RSS and PSS and how many there were. Memory must level off,
not grow with the page count; no Chromium process may outlive the crawl.

    python bench/bench_browser.py [--pages 300] [--restart-pages 200] [--concurrency 4]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.testing.server import FixtureServer  # noqa: E402

PHASES = ("start", "middle", "end")
PAGE_KB = 4  # /proc/<pid>/statm counts pages


def children_map() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    return tree


def descendants(pid: int) -> list[int]:
    tree, found, todo = children_map(), [], [pid]
    while todo:
        found += (kids := tree.get(todo.pop(), []))
        todo += kids
    return found


def is_chromium(pid: int) -> bool:
    try:
        return "chrom" in Path(f"/proc/{pid}/comm").read_text()
    except OSError:
        return False


def memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process; PSS shares the pages renderers have in common fairly."""
    try:
        rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KB
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
        pss = next((int(line.split()[1]) for line in rollup if line.startswith("Pss:")), 0)
        return rss, pss
    except (OSError, ValueError):
        return 0, 0


def browser_pids(crawl_pid: int) -> list[int]:
    return [pid for pid in descendants(crawl_pid) if is_chromium(pid)]


def browser_sample(pids: list[int]) -> dict:
    sizes = [memory_kb(pid) for pid in pids]
    return {"processes": len(pids), "rss_mb": sum(s[0] for s in sizes) / 1024,
            "pss_mb": sum(s[1] for s in sizes) / 1024}


def pages_done(server: FixtureServer) -> int:
    return sum(entry["path"].startswith("/_gen/") for entry in list(server.access_log))


def watch(process: subprocess.Popen, server: FixtureServer, pages: int) -> tuple[dict, set[int]]:
    """Peak browser memory per third of the crawl (by pages rendered so far), and every
    Chromium process seen."""
    peaks = {phase: {"processes": 0, "rss_mb": 0.0, "pss_mb": 0.0} for phase in PHASES}
    seen: set[int] = set()
    while process.poll() is None:
        pids = browser_pids(process.pid)
        seen.update(pids)
        sample = browser_sample(pids)
        phase = PHASES[min(2, pages_done(server) * 3 // pages)]
        for key, value in sample.items():
            peaks[phase][key] = max(peaks[phase][key], value)
        time.sleep(0.5)
    return peaks, seen


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--restart-pages", type=int, default=200, help="CRAWLFORGE_BROWSER_RESTART_PAGES")
    parser.add_argument("--concurrency", type=int, default=4, help="PLAYWRIGHT_MAX_PAGES_PER_CONTEXT")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        server = FixtureServer(tmp).start()
        settings = {"AUTOTHROTTLE_ENABLED": "False", "ROBOTSTXT_OBEY": "False", "LOG_LEVEL": "WARNING",
                    "CONCURRENT_REQUESTS": args.concurrency * 2, "CONCURRENT_REQUESTS_PER_DOMAIN": args.concurrency * 2,
                    "PLAYWRIGHT_MAX_PAGES_PER_CONTEXT": args.concurrency,
                    "CRAWLFORGE_BROWSER_RESTART_PAGES": args.restart_pages,
                    # the SSRF guard on, letting only the local server through: its cost is measured too
                    "CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32", "CRAWLFORGE_STATS_FILE": tmp / "stats.json",
                    "CRAWLFORGE_ERRORS_FEED": tmp / "errors.jsonl"}
        command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"url={server.url(f'/_gen/{args.pages}/0')}",
                   "-a", "render=always", "-a", f"max_pages={args.pages}", "-O", str(tmp / "items.jsonl")]
        command += [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]
        try:
            process = subprocess.Popen(command, cwd=ROOT)
            peaks, seen = watch(process, server, args.pages)
        finally:
            server.stop()
        stats = json.loads((tmp / "stats.json").read_text())
    time.sleep(1)
    leftover = [pid for pid in seen if is_chromium(pid)]  # pids are not reused this fast
    elapsed = stats.get("elapsed_time_seconds") or 1
    items = stats.get("item_scraped_count", 0)
    print(f"rendered {stats.get('browser/pages', 0)} pages, {items} items in {elapsed:.1f} s: "
          f"{items / elapsed:.2f} pages/s; browser restarts {stats.get('browser/restarts', 0)}, "
          f"launches {stats.get('playwright/browser_count', 0)}, exit code {process.returncode}")
    for phase in PHASES:
        peak = peaks[phase]
        print(f"{phase:6s} peak browser memory: RSS {peak['rss_mb']:7.1f} MB  PSS {peak['pss_mb']:7.1f} MB  "
              f"in {peak['processes']} processes")
    print(f"Chromium processes left after the crawl: {len(leftover)}")


if __name__ == "__main__":
    main()
