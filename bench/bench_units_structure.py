"""Speed of structure signatures and query units, and how well signatures separate sites:
structure_signature on every eval page, similarity of same-site vs cross-site page pairs, and
segment_units + rank_units on the markdown of the first N pages.

Usage: .venv/bin/python bench/bench_units_structure.py [../shared/fixtures] [N=150]
"""

import itertools
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

DEFAULT_FIXTURES = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures"  # beside the checkout
from urllib.parse import urlsplit

from crawlforge.extract.charset import decode_body
from crawlforge.extract.markdown import html_to_markdown
from crawlforge.extract.structure import structural_similarity, structure_signature
from crawlforge.extract.units import rank_units, segment_units

QUERY = "price per month"


def load_pages(root: Path) -> list[tuple[str, str, str]]:
    """(file, url, html) for every plain .html eval page with a URL."""
    records = json.loads((root / "eval" / "expectations.json").read_text(encoding="utf-8"))
    pages = []
    for record in records:
        path = root / "eval" / "pages" / record["file"]
        if record.get("url") and path.suffix == ".html":
            pages.append((record["file"], record["url"], decode_body(path.read_bytes())["text"]))
    return pages


def bench_signatures(pages) -> dict[str, dict]:
    start = time.perf_counter()
    signatures = {file: structure_signature(html) for file, _, html in pages}
    seconds = time.perf_counter() - start
    keys = [len(s["tags"]) + len(s["depths"]) for s in signatures.values()]
    print(f"structure_signature: {len(pages)} pages, {1000 * seconds / len(pages):.2f} ms/page, "
          f"keys per signature median {statistics.median(keys)} max {max(keys)}")
    return signatures


def bench_similarity(pages, signatures) -> None:
    by_site = defaultdict(list)
    for file, url, _ in pages:
        host = urlsplit(url).hostname or ""
        if host != "web.archive.org":
            by_site[host].append(file)
    sites = {host: files for host, files in by_site.items() if len(files) > 1}
    same = [structural_similarity(signatures[a], signatures[b])
            for files in sites.values() for a, b in itertools.combinations(files, 2)]
    firsts = [files[0] for files in sites.values()]
    cross = [structural_similarity(signatures[a], signatures[b]) for a, b in itertools.combinations(firsts, 2)]
    print(f"similarity: {len(same)} same-site pairs ({len(sites)} sites) mean {statistics.mean(same):.3f} "
          f"min {min(same):.3f}; {len(cross)} cross-site pairs mean {statistics.mean(cross):.3f} max {max(cross):.3f}")


def bench_units(pages, count: int) -> None:
    markdowns = [html_to_markdown(html, url) for _, url, html in pages[:count]]
    start = time.perf_counter()
    units = [segment_units(markdown) for markdown in markdowns]
    segmented = time.perf_counter() - start
    ranked = [rank_units(u, QUERY) for u in units]
    ranking = time.perf_counter() - start - segmented
    chars = sum(map(len, markdowns))
    print(f"segment_units: {len(markdowns)} pages, {chars} chars, {sum(map(len, units))} units, "
          f"{1000 * segmented / len(markdowns):.2f} ms/page; rank_units: {1000 * ranking / len(markdowns):.2f} ms/page, "
          f"{sum(1 for r in ranked if r)} pages with a match")


def main(root: Path, count: int) -> None:
    pages = load_pages(root)
    signatures = bench_signatures(pages)
    bench_similarity(pages, signatures)
    bench_units(pages, count)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_FIXTURES),
         int(sys.argv[2]) if len(sys.argv) > 2 else 150)
