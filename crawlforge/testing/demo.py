"""``make demo``: serve the demo site on 127.0.0.1 and crawl it with ``scrapy crawl site``.

Writes ``output/demo.jsonl`` (items), ``output/errors.jsonl`` (URLs that ended without an
item, and why) and ``output/documents/*.md``, then prints where they are and a summary.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from crawlforge.testing.server import FixtureServer

ROOT = Path(__file__).resolve().parents[2]
OUTPUT = ROOT / "output"


def count_lines(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip()) if path.exists() else 0


def main() -> int:
    shutil.rmtree(OUTPUT / "documents", ignore_errors=True)
    OUTPUT.mkdir(exist_ok=True)
    items, errors, stats = OUTPUT / "demo.jsonl", OUTPUT / "errors.jsonl", OUTPUT / "demo-stats.json"
    server = FixtureServer(ROOT / "fixtures" / "demo").start()
    try:
        command = [
            sys.executable, "-m", "scrapy", "crawl", "site",
            "-a", f"url={server.url('/')}", "-a", "max_depth=1",
            "-a", f"documents_dir={OUTPUT / 'documents'}",
            "-O", str(items),
            "-s", f"CRAWLFORGE_ERRORS_FEED={errors}",
            "-s", f"CRAWLFORGE_STATS_FILE={stats}",
            # the demo site lives on 127.0.0.1, which the SSRF guard refuses by default
            "-s", "CRAWLFORGE_ALLOWED_NETWORKS=127.0.0.1/32",
            "-s", "LOG_LEVEL=WARNING",
        ]
        process = subprocess.run(command, cwd=ROOT)
    finally:
        server.stop()
    crawl_stats = json.loads(stats.read_text()) if stats.exists() else {}
    pages = crawl_stats.get("ledger/requested", 0)
    print(f"\nItems:     {items}")
    print(f"Errors:    {errors}")
    print(f"Documents: {OUTPUT / 'documents'}/")
    print(f"Summary: {pages} pages requested, {count_lines(items)} items, {count_lines(errors)} errors")
    return process.returncode or (0 if count_lines(items) else 1)


if __name__ == "__main__":
    sys.exit(main())
