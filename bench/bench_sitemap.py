"""Peak RSS of a 20,000-URL sitemap harvest, sampled as it goes: `scrapy crawl sitemap` on the
fixture server's generated sitemap index (one gzipped 20,000-URL child), every pipeline on.

Prints the crawl process's RSS and peak RSS (VmHWM) when the feed reaches 1 %, 10 %, 25 %,
50 %, 75 % and 100 % of the pages, and pages/s. ``--jobdir`` keeps the frontier in JOBDIR's
SQLite file instead of memory.

    python bench/bench_sitemap.py [--pages 20000] [--jobdir]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.testing.server import FixtureServer  # noqa: E402

MILESTONES = (0.01, 0.10, 0.25, 0.50, 0.75, 1.0)


def memory_mb(pid: int) -> tuple[float, float]:
    """(RSS, peak RSS) of a process, in MiB, from /proc."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def count_lines(path: Path) -> int:
    if not path.exists():
        return 0
    with path.open("rb") as feed:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: feed.read(1 << 20), b""))


def harvest(server: FixtureServer, pages: int, workdir: Path, jobdir: bool) -> list[tuple]:
    feed = workdir / "items.jsonl"
    settings = {"AUTOTHROTTLE_ENABLED": "False", "CONCURRENT_REQUESTS": 16, "CONCURRENT_REQUESTS_PER_DOMAIN": 16,
                "ROBOTSTXT_OBEY": "False", "LOG_LEVEL": "WARNING", "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": "True"}
    if jobdir:
        settings["JOBDIR"] = str(workdir / "job")
    command = [sys.executable, "-m", "scrapy", "crawl", "sitemap", "-o", f"{feed}:jsonlines",
               "-a", f"url={server.url(f'/_sitemap/{pages}/{pages}/index.xml')}"]
    command += [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]
    process = subprocess.Popen(command, cwd=ROOT, stderr=subprocess.DEVNULL)
    samples, pending, started = [], list(MILESTONES), time.monotonic()
    while process.poll() is None:
        done = count_lines(feed)
        try:
            rss, peak = memory_mb(process.pid)
        except (FileNotFoundError, KeyError):
            break
        while pending and done >= pending[0] * pages:
            samples.append((pending.pop(0), done, rss, peak, time.monotonic() - started))
        time.sleep(0.25)
    process.wait()
    samples.append(("end", count_lines(feed), rss, peak, time.monotonic() - started))
    return samples


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=20000)
    parser.add_argument("--jobdir", action="store_true", help="frontier in JOBDIR (SQLite) instead of memory")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="bench-sitemap-"))
    server = FixtureServer(ROOT / "fixtures").start()
    try:
        samples = harvest(server, args.pages, workdir, args.jobdir)
    finally:
        server.stop()
        shutil.rmtree(workdir)
    print(f"sitemap harvest of {args.pages} URLs, frontier in {'JOBDIR (SQLite)' if args.jobdir else 'memory'}")
    print(f"{'point':>6} {'items':>7} {'RSS MiB':>8} {'peak MiB':>9} {'seconds':>8}")
    for point, items, rss, peak, seconds in samples:
        label = point if isinstance(point, str) else f"{point:.0%}"
        print(f"{label:>6} {items:>7} {rss:>8.1f} {peak:>9.1f} {seconds:>8.1f}")
    first = next(s for s in samples if s[1] > 0)
    print(f"{(samples[-1][1] - first[1]) / (samples[-1][4] - first[4]):.1f} pages/s after the first item")


if __name__ == "__main__":
    main()
