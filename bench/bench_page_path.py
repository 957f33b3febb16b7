"""The whole pure page path (charset, verdict, structured data, embedded state, markdown,
frontmatter, structure signature) against ``trafilatura.extract(html, output_format="markdown")``
on the same pages, in one process: pages/s of each per CPU-second and their ratio.

    .venv/bin/python bench/bench_page_path.py [PAGES_DIR ...] [--limit N] [--repeat 1] [--against CHECKOUT]

PAGES_DIR holds ``*.html`` or ``*.html.gz`` files, searched recursively (default: the eval and
WCXB dev sets beside the repository, ../shared/fixtures/{eval,wcxb-dev}). Times are CPU time of
this process, both sides taking turns page by page (other processes on a busy machine weigh on
both alike), each warmed up on the first page; the fastest pass counts. ``--against``: another
checkout of crawlforge (one with ``bench/bench_stages.py``) instead of trafilatura, each side's
page path in a process of its own, to show a change is not slower.
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
import time
from pathlib import Path

# ``--serve ROOT``: the page path of the checkout at ROOT, for ``--against``.
ROOT = Path(sys.argv[2] if sys.argv[1:2] == ["--serve"] else Path(__file__).resolve().parent.parent).resolve()
sys.path.insert(0, str(ROOT))

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


URL = "https://example.com/page"


def serve(folder: Path, limit: int | None) -> None:
    """Answers each page index read from stdin with the CPU seconds its page path took here."""
    bodies = load_bodies(folder, limit)
    for line in sys.stdin:
        body = bodies[int(line)]
        start = time.process_time()
        page_path(body, URL)
        print(time.process_time() - start, flush=True)


def against(folder: Path, other: Path, limit: int | None, repeat: int) -> None:
    """This checkout's page path and ``other``'s, in a process each, taking turns page by page."""
    count = len(load_bodies(folder, limit))
    command = [sys.executable, __file__, "--serve", "", str(folder), *(["--limit", str(limit)] if limit else [])]
    sides = [subprocess.Popen([*command[:3], str(root), *command[4:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, cwd=root) for root in (ROOT, other)]

    def timed(side, index: int) -> float:
        side.stdin.write(f"{index}\n")
        side.stdin.flush()
        return float(side.stdout.readline())

    for side in sides:
        timed(side, 0)  # warm-up
    best = [float("inf")] * 2
    for _ in range(repeat):
        spent = [0.0, 0.0]
        for index in range(count):
            for turn in (index % 2, 1 - index % 2):  # who goes first alternates too
                spent[turn] += timed(sides[turn], index)
        best = [min(old, new) for old, new in zip(best, spent)]
    for side in sides:
        side.stdin.close()
        side.wait()
    print(f"{folder}: {count} pages")
    print(f"  this checkout  {count / best[0]:8.1f} pages/s  ({1000 * best[0] / count:.2f} ms/page)")
    print(f"  {other}  {count / best[1]:8.1f} pages/s  ({1000 * best[1] / count:.2f} ms/page)")
    print(f"  ratio (this / other time) {best[0] / best[1]:8.3f}")


def main():
    if sys.argv[1:2] == ["--serve"]:
        rest = sys.argv[4:]
        serve(Path(sys.argv[3]), int(rest[1]) if rest[:1] == ["--limit"] else None)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS, metavar="PAGES_DIR")
    parser.add_argument("--limit", type=int, help="only the first N pages of each folder")
    parser.add_argument("--repeat", type=int, default=1, help="passes over the pages; the fastest counts")
    parser.add_argument("--against", type=Path, help="another checkout to compare with, instead of trafilatura")
    args = parser.parse_args()
    for folder in args.dirs:
        if args.against:
            against(folder.resolve(), args.against.resolve(), args.limit, args.repeat)
            continue
        import trafilatura  # noqa: PLC0415 - only for the comparison with it

        bodies = load_bodies(folder, args.limit)
        pages = [(body, body.decode("utf-8", "replace")) for body in bodies]
        ours, theirs = cpu_seconds(
            [lambda page: page_path(page[0], URL),
             lambda page: trafilatura.extract(page[1], output_format="markdown")], pages, args.repeat)
        print(f"{folder}: {len(bodies)} pages, {sum(map(len, bodies)) / len(bodies) / 1024:.0f} KiB mean")
        print(f"  crawlforge page path {len(bodies) / ours:8.1f} pages/s  ({1000 * ours / len(bodies):.2f} ms/page)")
        print(f"  trafilatura          {len(bodies) / theirs:8.1f} pages/s  ({1000 * theirs / len(bodies):.2f} ms/page)")
        print(f"  ratio                {theirs / ours:8.2f}x")


if __name__ == "__main__":
    main()
