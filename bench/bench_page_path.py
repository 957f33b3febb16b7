"""The whole pure page path (charset, verdict, structured data, embedded state, markdown,
frontmatter, structure signature) against ``trafilatura.extract(html, output_format="markdown")``
on the same pages, in one process: pages/s of each per CPU-second and their ratio.

    .venv/bin/python bench/bench_page_path.py [PAGES_DIR ...] [--limit N] [--repeat 1]

PAGES_DIR holds ``*.html`` or ``*.html.gz`` files, searched recursively (default: the eval and
WCXB dev sets beside the repository, ../shared/fixtures/{eval,wcxb-dev}). Times are CPU time of
this process, both sides taking turns page by page (other processes on a busy machine weigh on
both alike), each warmed up on the first page; the fastest pass counts.
"""

from __future__ import annotations

import argparse
import gzip
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import trafilatura  # noqa: E402

from bench.bench_stages import page_path  # noqa: E402

DEFAULT_DIRS = [ROOT.parent / "shared" / "fixtures" / name for name in ("eval", "wcxb-dev")]


def load_bodies(folder: Path, limit: int | None) -> list[bytes]:
    """Raw bodies of the folder's pages, sorted by path (the first ``limit`` of them)."""
    paths = sorted(p for p in folder.rglob("*") if p.name.endswith((".html", ".html.gz", ".htm")))[:limit]
    if not paths:
        raise SystemExit(f"no *.html or *.html.gz pages under {folder}")
    return [gzip.decompress(p.read_bytes()) if p.name.endswith(".gz") else p.read_bytes() for p in paths]


def cpu_seconds(functions, items, repeat: int) -> list[float]:
    """CPU seconds of each function over the items, the fastest of ``repeat`` passes. The
    functions take turns page by page, so a machine busier in one part of a pass weighs on
    both sides alike. Each first runs once on the first item, untimed: the imports and tables a
    process makes once (a crawl makes them once for millions of pages) are no page's cost."""
    for function in functions:
        function(items[0])
    best = [float("inf")] * len(functions)
    for _ in range(repeat):
        spent = [0.0] * len(functions)
        for item in items:
            for index, function in enumerate(functions):
                start = time.process_time()
                function(item)
                spent[index] += time.process_time() - start
        best = [min(old, new) for old, new in zip(best, spent)]
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS, metavar="PAGES_DIR")
    parser.add_argument("--limit", type=int, help="only the first N pages of each folder")
    parser.add_argument("--repeat", type=int, default=1, help="passes over the pages; the fastest counts")
    args = parser.parse_args()
    for folder in args.dirs:
        bodies = load_bodies(folder, args.limit)
        url = "https://example.com/page"
        pages = [(body, body.decode("utf-8", "replace")) for body in bodies]
        ours, theirs = cpu_seconds(
            [lambda page: page_path(page[0], url),
             lambda page: trafilatura.extract(page[1], output_format="markdown")], pages, args.repeat)
        print(f"{folder}: {len(bodies)} pages, {sum(map(len, bodies)) / len(bodies) / 1024:.0f} KiB mean")
        print(f"  crawlforge page path {len(bodies) / ours:8.1f} pages/s  ({1000 * ours / len(bodies):.2f} ms/page)")
        print(f"  trafilatura          {len(bodies) / theirs:8.1f} pages/s  ({1000 * theirs / len(bodies):.2f} ms/page)")
        print(f"  ratio                {theirs / ours:8.2f}x")


if __name__ == "__main__":
    main()
