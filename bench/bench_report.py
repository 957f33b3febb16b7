"""Cost of crawl health and the report on a large feed: fill-rate counting per item (what the
FillRate extension does for every scraped item, stats included) and `scrapy report`'s summary and
HTML for the whole feed. Items are real template output (fixtures/health), repeated.

    python bench/bench_report.py [--items 50000]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.report.fillrate import FillRates  # noqa: E402
from crawlforge.report.html import render  # noqa: E402
from crawlforge.report.summary import summarise  # noqa: E402
from crawlforge.templates import TemplateRegistry  # noqa: E402

FIXTURES = ROOT / "fixtures"


def real_items() -> list[dict]:
    registry = TemplateRegistry()
    lever = registry.run_list("lever-postings", (FIXTURES / "connectors" / "ats" / "lever-postings.json").read_text(),
                              url="https://api.lever.co/v0/postings/leverdemo?mode=json")["data"]["items"]
    repo = registry.run("github-repo", (FIXTURES / "templates" / "github-repo-hono.html").read_text(),
                        "https://github.com/honojs/hono")["data"]
    pages = [{"url": "https://github.com/honojs/hono", "status": 200, "fetched_at": "2026-11-30T00:00:00+00:00",
              "template": "github-repo", "template_data": repo}]
    return pages + [{**job, "status": 200, "fetched_at": "2026-11-30T00:00:01+00:00"} for job in lever]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--items", type=int, default=50_000)
    args = parser.parse_args()
    base = real_items()
    items = [dict(base[i % len(base)], url=f"{base[i % len(base)].get('url')}#{i}") for i in range(args.items)]

    rates, stats, start = FillRates(), {}, time.perf_counter()
    for item in items:
        stats.update(rates.group_stats(rates.add(item)))
    per_item = (time.perf_counter() - start) / len(items)
    print(f"fill rates + stats: {per_item * 1e6:.1f} µs/item ({len(items)} items, {len(stats)} stats)")

    start = time.perf_counter()
    html = render(summarise(items, []))
    print(f"report: {time.perf_counter() - start:.2f} s for {len(items)} items, {len(html) / 1024:.0f} KiB of HTML")


if __name__ == "__main__":
    main()
