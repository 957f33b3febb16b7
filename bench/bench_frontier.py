"""What a harvest frontier costs per URL: a simulated frontier of N URLs over many hosts, pushed
through the real classes a crawl uses, then drained, for each frontier crawlforge has:

- Redis (scrapy-redis' priority queue and crawlforge's seen set, ``CRAWLFORGE_REDIS_URL``),
  and the same queue with the Bloom-filter seen set (``CRAWLFORGE_REDIS_DUPEFILTER=bloom``);
- JOBDIR (the SQLite frontier, one committed row per request).

Printed per frontier: enqueue and dequeue rates, Redis memory per queued URL and per fingerprint
(``INFO memory`` before, full, drained) or the SQLite file's bytes per URL, and this process's RSS
(the worker's side) at the start, while the frontier drains, and at the end. Starts its own
redis-server on 127.0.0.1.

    python bench/bench_frontier.py [--urls 1000000] [--hosts 2000] [--only redis,bloom,jobdir]
"""

from __future__ import annotations

import argparse
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
from scrapy import Request, Spider  # noqa: E402
from scrapy.utils.request import RequestFingerprinter, request_from_dict  # noqa: E402
from scrapy_redis.queue import PriorityQueue  # noqa: E402

from crawlforge.distributed.dupefilter import BloomDupeFilter, RedisDupeFilter  # noqa: E402
from crawlforge.distributed.frontier import Frontier  # noqa: E402

RSS_SAMPLES = 5


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def used_memory(server) -> int:
    return int(server.info("memory")["used_memory"])


def urls(total: int, hosts: int):
    for i in range(total):
        yield f"https://host{i % hosts}.example/section/{i // hosts}/page-{i}.html?ref=sitemap"


def start_redis(folder: Path) -> tuple[subprocess.Popen, int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    process = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--bind", "127.0.0.1", "--port",
                                str(port), "--save", "", "--appendonly", "no", "--dir", str(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        try:
            redis.Redis(port=port).ping()
            return process, port
        except redis.ConnectionError:
            time.sleep(0.1)
    raise RuntimeError("redis-server did not start")


def drain(total: int, pop, decode) -> tuple[float, list[float]]:
    """Pop everything; the seconds it took and the RSS at a few points on the way."""
    samples, every, popped = [rss_mb()], max(1, total // RSS_SAMPLES), 0
    start = time.perf_counter()
    while (data := pop()) is not None:
        decode(data)
        popped += 1
        if popped % every == 0:
            samples.append(rss_mb())
    return time.perf_counter() - start, samples


def bench_redis(server, total: int, hosts: int, spider, filter_class) -> dict:
    server.flushdb()
    base = used_memory(server)
    queue = PriorityQueue(server, spider, "bench:requests")
    options = {"capacity": total} if filter_class is BloomDupeFilter else {}  # sized for the harvest
    seen = filter_class(server, key="bench:dupefilter", fingerprinter=RequestFingerprinter(), **options)
    start = time.perf_counter()
    for url in urls(total, hosts):
        request = Request(url)
        if not seen.request_seen(request):
            queue.push(request)
    enqueue = time.perf_counter() - start
    full = used_memory(server)
    seen_bytes = server.memory_usage("bench:dupefilter", samples=0) or 0
    seconds, samples = drain(total, lambda: queue.pop(0), lambda request: request.url)
    drained = used_memory(server)
    duplicates = sum(seen.request_seen(Request(url)) for url in urls(min(total, 10_000), hosts))
    return {"enqueue/s": total / enqueue, "dequeue/s": total / seconds,
            "bytes/URL queued": (full - drained) / total, "bytes/fingerprint": seen_bytes / total,
            "memory full MB": (full - base) / 2**20, "memory drained MB": (drained - base) / 2**20,
            "rss MB": samples, "re-seen of 10k": duplicates}


def bench_jobdir(folder: Path, total: int, hosts: int, spider) -> dict:
    path = folder / "frontier.sqlite3"
    frontier = Frontier(path)
    fingerprint = RequestFingerprinter().fingerprint
    import pickle

    start = time.perf_counter()
    for url in urls(total, hosts):
        request = Request(url)
        frontier.add(fingerprint(request).hex(), 0, pickle.dumps(request.to_dict(spider=spider), protocol=4), False)
    enqueue = time.perf_counter() - start
    size = sum(p.stat().st_size for p in folder.glob("frontier.sqlite3*"))

    def pop():
        popped = frontier.pop()
        return None if popped is None else popped[0]

    seconds, samples = drain(total, pop, lambda data: request_from_dict(pickle.loads(data), spider=spider))
    frontier.close()
    return {"enqueue/s": total / enqueue, "dequeue/s": total / seconds, "file bytes/URL": size / total,
            "rss MB": samples}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--hosts", type=int, default=2000)
    parser.add_argument("--only", default="redis,bloom,jobdir")
    args = parser.parse_args()
    spider = Spider(name="bench")
    wanted = args.only.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        results = {}
        process, port = start_redis(Path(tmp))
        try:
            server = redis.Redis(port=port)
            if "redis" in wanted:
                results["redis (set)"] = bench_redis(server, args.urls, args.hosts, spider, RedisDupeFilter)
            if "bloom" in wanted:
                results["redis (bloom)"] = bench_redis(server, args.urls, args.hosts, spider, BloomDupeFilter)
        finally:
            process.terminate()
            process.wait()
        if "jobdir" in wanted:
            results["jobdir (sqlite)"] = bench_jobdir(Path(tmp), args.urls, args.hosts, spider)
    print(f"Frontier of {args.urls:,} URLs over {args.hosts:,} hosts")
    for name, figures in results.items():
        line = ", ".join(f"{key} {value:,.0f}" if isinstance(value, float) and value >= 10 else
                         f"{key} {value:.2f}" if isinstance(value, float) else
                         f"{key} {'/'.join(f'{v:.0f}' for v in value)}" if isinstance(value, list) else
                         f"{key} {value}" for key, value in figures.items())
        print(f"  {name:16} {line}")


if __name__ == "__main__":
    main()
