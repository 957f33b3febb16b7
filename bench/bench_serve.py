"""``POST /scrape`` of ``scrapy serve`` on local real pages: requests/s and p50/p95 latency at 1,
4 and 16 concurrent clients (browser off), the same URLs through ``scrapy crawl site`` for
comparison, and the server's RSS along 2,000 requests (it should not grow).

    python bench/bench_serve.py [FOLDER ...] [--requests 200] [--memory-requests 2000]
                                [--max-concurrent 4]

FOLDER (default fixtures/demo) is served on 127.0.0.1 and its .html files are the pages; each
request asks for a URL of its own (``?r=N``), as distinct URLs would come from agents, so
nothing is answered from a cache. The server runs with its defaults (CRAWLFORGE_API_MAX_CONCURRENT
turns, unless --max-concurrent), robots.txt and the SSRF guard on (127.0.0.1 allowed).
"""

from __future__ import annotations

import argparse
import http.client
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.testing.server import FixtureServer  # noqa: E402

SETTINGS = {"AUTOTHROTTLE_ENABLED": "False", "CRAWLFORGE_RENDER": "never", "LOG_LEVEL": "ERROR",
            "CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32"}


def settings_args(settings: dict) -> list[str]:
    return [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Client:
    """One keep-alive connection to the server, as an agent's HTTP client holds one."""

    def __init__(self, base: str):
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)

    def scrape(self, url: str) -> tuple[float, bool]:
        started = time.perf_counter()
        self.connection.request("POST", "/scrape", json.dumps({"url": url}), {"Content-Type": "application/json"})
        answer = json.loads(self.connection.getresponse().read())
        return time.perf_counter() - started, bool(answer.get("ok"))


def load(base: str, urls: list[str], clients: int) -> dict:
    """``urls`` shared out among ``clients`` threads; latency of each request, rate of all."""
    latencies, failures, lock = [], [], threading.Lock()
    queue = iter(urls)

    def work():
        client = Client(base)
        while True:
            with lock:
                url = next(queue, None)
            if url is None:
                return
            seconds, ok = client.scrape(url)
            with lock:
                latencies.append(seconds)
                if not ok:
                    failures.append(url)

    threads = [threading.Thread(target=work) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    quantiles = statistics.quantiles(latencies, n=20)
    return {"requests": len(latencies), "failed": len(failures), "per_s": len(latencies) / elapsed,
            "p50_ms": statistics.median(latencies) * 1000, "p95_ms": quantiles[18] * 1000}


def crawl(urls: list[str], workdir: Path) -> dict:
    """The same URLs as one ``scrapy crawl site -a follow=0``: its own elapsed time and the
    command's wall time (start-up included)."""
    urls_file, stats_file = workdir / "urls.txt", workdir / "stats.json"
    urls_file.write_text("\n".join(urls) + "\n")
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-a", f"urls_file={urls_file}", "-a", "follow=0",
               "-O", str(workdir / "items.jsonl"), *settings_args({**SETTINGS, "CRAWLFORGE_STATS_FILE": stats_file})]
    started = time.perf_counter()
    subprocess.run(command, cwd=ROOT, check=True)
    wall = time.perf_counter() - started
    stats = json.loads(stats_file.read_text())
    elapsed = stats.get("elapsed_time_seconds") or wall
    return {"items": stats.get("item_scraped_count", 0), "per_s": len(urls) / elapsed, "wall_s": wall}


def memory(pid: int, base: str, urls, total: int) -> str:
    """The server's RSS before and after each quarter of ``total`` requests (4 clients)."""
    step = max(total // 4, 1)
    marks = [f"start {rss_mb(pid):.0f} MB"]
    for done in range(step, total + 1, step):
        load(base, urls(step), 4)
        marks.append(f"{done} {rss_mb(pid):.0f} MB")
    return ", ".join(marks)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", default=[str(ROOT / "fixtures" / "demo")])
    parser.add_argument("--requests", type=int, default=200, help="requests at each concurrency")
    parser.add_argument("--memory-requests", type=int, default=2000)
    parser.add_argument("--max-concurrent", type=int, default=0, help="CRAWLFORGE_API_MAX_CONCURRENT (0: default)")
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="bench-serve-"))
    site = workdir / "site"
    for folder in map(Path, args.folders):
        for page in folder.rglob("*.html"):
            target = site / folder.name / page.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(page, target)
    pages = sorted(str(p.relative_to(site)) for p in site.rglob("*.html"))
    server = FixtureServer(site).start()
    counter = iter(range(10**9))

    def urls(n: int) -> list[str]:
        return [server.url(f"/{pages[i % len(pages)]}?r={next(counter)}") for i in range(n)]

    settings = dict(SETTINGS)
    if args.max_concurrent:
        settings["CRAWLFORGE_API_MAX_CONCURRENT"] = str(args.max_concurrent)
    process = subprocess.Popen([sys.executable, "-m", "scrapy", "serve", "--port", "0", *settings_args(settings)],
                               cwd=ROOT, stdout=subprocess.PIPE, text=True)
    base = process.stdout.readline().strip()
    try:
        print(f"{len(pages)} pages from {', '.join(args.folders)}; server {base}")
        load(base, urls(20), 1)  # warm-up: imports, first parses
        print(f"{'clients':>7} {'requests':>8} {'failed':>6} {'req/s':>7} {'p50 ms':>7} {'p95 ms':>7}")
        for clients in (1, 4, 16):
            result = load(base, urls(args.requests), clients)
            print(f"{clients:>7} {result['requests']:>8} {result['failed']:>6} {result['per_s']:>7.1f} "
                  f"{result['p50_ms']:>7.0f} {result['p95_ms']:>7.0f}")
        compared = crawl(urls(args.requests), workdir)
        print(f"scrapy crawl site, the same {args.requests} URLs: {compared['per_s']:.1f} pages/s "
              f"({compared['items']} items; {compared['wall_s']:.1f} s with start-up)")
        print("server RSS after N more requests: " + memory(process.pid, base, urls, args.memory_requests))
    finally:
        process.terminate()
        process.wait(30)
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
