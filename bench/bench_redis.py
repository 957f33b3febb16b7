"""One Redis worker versus two on the same local site, in one run: pages/s of each and the ratio.

Starts redis-server and the fixture server (generated site) on 127.0.0.1, starts `scrapy crawl
site` workers (every crawlforge pipeline on), seeds the start page with `scrapy seed` once all
are up, and times the crawl from the first page the server served to the last.
On a machine shared with other work the ratio is bounded by the CPU the workers get: the
pages per CPU-second line shows what each worker does with what it gets.

    python bench/bench_redis.py [--pages 600] [--concurrency 8]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.testing.server import FixtureServer  # noqa: E402


class TimedServer(FixtureServer):
    """The fixture server, noting when each generated page was served."""

    def record(self, handler):
        super().record(handler)
        if handler.path.startswith("/_gen/"):
            self.access_log[-1]["t"] = time.monotonic()


SPIN = "import time\nend = time.monotonic() + 3\nwhile time.monotonic() < end: pass\nprint(time.process_time())"


def cpu_available(processes: int) -> float:
    """CPU seconds per wall second that ``processes`` busy loops get together right now: on a
    machine shared with other work, what two workers can get at most, compared with one."""
    loops = [subprocess.Popen([sys.executable, "-c", SPIN], stdout=subprocess.PIPE, text=True)
             for _ in range(processes)]
    return sum(float(loop.communicate()[0]) for loop in loops) / 3


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def scrapy(*args: str, redis_url: str) -> list[str]:
    return [sys.executable, "-m", "scrapy", *args, "-s", f"CRAWLFORGE_REDIS_URL={redis_url}"]


def wait_until_open(logs: list[Path]) -> None:
    """Workers started, seeded only once every one is up: start-up is not part of the crawl."""
    while not all(log.exists() and "Spider opened" in log.read_text() for log in logs):
        time.sleep(0.2)


def run_workers(count: int, server: TimedServer, redis_url: str, pages: int, concurrency: int,
                workdir: Path) -> dict:
    subprocess.run(scrapy("seed", "site", "--reset", redis_url=redis_url), cwd=ROOT, check=True, capture_output=True)
    settings = {"AUTOTHROTTLE_ENABLED": "False", "CONCURRENT_REQUESTS": concurrency,
                "CONCURRENT_REQUESTS_PER_DOMAIN": concurrency, "ROBOTSTXT_OBEY": "False",
                "LOG_LEVEL": "INFO", "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": "True",
                "MAX_IDLE_TIME_BEFORE_CLOSE": 3, "CRAWLFORGE_HEALTH_ENABLED": "False"}
    workers, logs, server_cpu = [], [workdir / f"{count}-{n}.log" for n in range(count)], time.process_time()
    for n in range(count):
        command = scrapy("crawl", "site", "-o", str(workdir / f"{count}-{n}.jsonl"), redis_url=redis_url)
        command += [arg for name, value in {**settings, "LOG_FILE": logs[n]}.items() for arg in ("-s", f"{name}={value}")]
        workers.append(subprocess.Popen(command, cwd=ROOT))
    wait_until_open(logs)
    server.access_log.clear()
    subprocess.run(scrapy("seed", "site", server.url(f"/_gen/{pages}/0"), redis_url=redis_url),
                   cwd=ROOT, check=True, capture_output=True)
    cpu = []
    for worker in workers:
        _, _, usage = os.wait4(worker.pid, 0)
        cpu.append(round(usage.ru_utime + usage.ru_stime, 1))
    items = [sum(1 for _ in (workdir / f"{count}-{n}.jsonl").open()) for n in range(count)]
    times = [entry["t"] for entry in server.access_log if "t" in entry]
    seconds = max(times) - min(times)
    return {"workers": count, "items": sum(items), "per_worker": items, "cpu": cpu, "seconds": seconds,
            "server_cpu": time.process_time() - server_cpu,
            "pages_per_s": len(times) / seconds}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--concurrency", type=int, default=8, help="CONCURRENT_REQUESTS per worker")
    args = parser.parse_args()
    redis_server = shutil.which("redis-server") or sys.exit("redis-server is not installed")
    port, workdir = free_port(), Path(tempfile.mkdtemp(prefix="bench-redis-"))
    redis = subprocess.Popen([redis_server, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
                              "--appendonly", "no"], stdout=subprocess.DEVNULL)
    server = TimedServer(ROOT / "fixtures").start()
    try:
        time.sleep(0.5)
        redis_url = f"redis://127.0.0.1:{port}/0"
        results = []
        for n in (1, 2):  # what the machine gives n busy processes, measured just before n workers run
            available = cpu_available(n)
            results.append({**run_workers(n, server, redis_url, args.pages, args.concurrency, workdir),
                            "available": available})
    finally:
        server.stop()
        redis.terminate()
        redis.wait()
    for r in results:
        print(f"{r['workers']} worker(s): {r['items']} items (per worker {r['per_worker']}, "
              f"CPU seconds per worker {r['cpu']}), "
              f"{r['seconds']:.1f} s, {r['pages_per_s']:.1f} pages/s, "
              f"{r['items'] / sum(r['cpu']):.1f} pages per CPU-second (start-up included), "
              f"fixture server {r['server_cpu']:.1f} CPU s; just before, {r['workers']} busy loop(s) got "
              f"{r['available']:.2f} cores")
    print(f"two workers / one worker: {results[1]['pages_per_s'] / results[0]['pages_per_s']:.2f}x "
          f"({args.pages} pages, CONCURRENT_REQUESTS={args.concurrency} per worker, "
          f"{len(os.sched_getaffinity(0))} cores, load average {os.getloadavg()[0]:.1f})")
    print(f"the machine gave two busy loops {results[1]['available'] / results[0]['available']:.2f}x "
          f"what it gave one: the most two workers could gain at that moment")
    shutil.rmtree(workdir)


if __name__ == "__main__":
    main()
