"""Cost of hostile pages on the whole pure page path: CPU seconds and peak memory of each
synthetic attack page (built here, named for what it attacks), each in its own process so its
peak RSS is its own.

    .venv/bin/python bench/bench_hostile_pages.py [--case NAME ...] [--mb 24]

A page must cost at most a few seconds and a small multiple of its size in memory (the last
column: peak RSS above an interpreter that only imported the page path, over the page's size).
A page under ``CRAWLFORGE_PAGE_THREAD_MIN_CHARS`` is worked on the reactor thread, where every
other host waits for it: the "reactor" column says so, and STALL marks one that costs over 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from crawlforge.settings import CRAWLFORGE_PAGE_THREAD_MIN_CHARS as PAGE_THREAD_MIN_CHARS  # noqa: E402


def synthetic_nested_divs(mb: float) -> str:
    """1.1 MB of nested divs: verdict, structure signature and markdown walk the depth."""
    depth = int(mb * 1024 * 1024 / 11)
    return "<html><body>" + "<div>" * depth + "deep" + "</div>" * depth + "</body></html>"


def synthetic_broken_jsonld(kb: float) -> str:
    """A JSON-LD block of bare words that never closes: json-repair is superlinear on it."""
    words = " ".join("word" for _ in range(int(kb * 1024 / 5)))
    return ('<html><head><title>t</title><script type="application/ld+json">{"@type": "Product", '
            f"{words}</script></head><body><p>text</p></body></html>")


def synthetic_many_attributes(count: int) -> str:
    """One div with ``count`` distinct attributes: lexbor's parse grows with their square."""
    attributes = " ".join(f"data-a{i}" for i in range(count))
    return f"<html><head><title>t</title></head><body><div {attributes}><p>text</p></div></body></html>"


def synthetic_long_url(length: int) -> str:
    """A page URL of ``length`` characters: a template pattern that opens on a repetition
    (``[\\w-]+\\.host``) searched over it is quadratic."""
    return "https://example.com/" + "x" * (length - len("https://example.com/"))


def synthetic_big_article(mb: float) -> str:
    """A page of many paragraphs under the size cap."""
    paragraph = "<p>" + " ".join(f"word{i}" for i in range(40)) + " <a href='/x'>link</a></p>\n"
    return "<html><head><title>big</title></head><body><article>" + paragraph * int(
        mb * 1024 * 1024 / len(paragraph)) + "</article></body></html>"


def synthetic_big_table(mb: float) -> str:
    """One table of many rows: no place between blocks, so pieces end between rows."""
    row = "<tr>" + "".join(f"<td>cell {i}</td>" for i in range(8)) + "</tr>\n"
    return "<html><head><title>big table</title></head><body><table>" + row * int(
        mb * 1024 * 1024 / len(row)) + "</table></body></html>"


def synthetic_big_unclosed(mb: float) -> str:
    """Paragraphs never closed, as old pages write them: each ``<p>`` ends the one before."""
    paragraph = "<p>" + " ".join(f"word{i}" for i in range(40)) + " <b>bold</b>\n"
    return "<html><head><title>big</title></head><body>" + paragraph * int(mb * 1024 * 1024 / len(paragraph))


def synthetic_big_inline(mb: float) -> str:
    """One paragraph of inline elements: no block ends for megabytes."""
    span = "<span>" + " ".join(f"word{i}" for i in range(10)) + "</span> "
    return "<html><body><p>" + span * int(mb * 1024 * 1024 / len(span)) + "</p></body></html>"


INTERPRETER = "interpreter"
URL = "https://example.com/hostile"
SMALL_PAGE = "<html><head><title>t</title></head><body><p>x</p></body></html>"
URLS = {"long-url-50k": synthetic_long_url(50_000), "long-url-100k": synthetic_long_url(100_001)}
CASES = {
    "many-attributes-60k": lambda args: synthetic_many_attributes(60_000),
    "many-attributes-110k": lambda args: synthetic_many_attributes(110_000),
    "long-url-50k": lambda args: SMALL_PAGE,
    "long-url-100k": lambda args: SMALL_PAGE,
    "nested-divs-1.1MB": lambda args: synthetic_nested_divs(1.1),
    "broken-jsonld-200KB": lambda args: synthetic_broken_jsonld(200),
    "broken-jsonld-1MB": lambda args: synthetic_broken_jsonld(1024),
    "big-article": lambda args: synthetic_big_article(args.mb),
    "big-table": lambda args: synthetic_big_table(args.mb),
    "big-unclosed-p": lambda args: synthetic_big_unclosed(args.mb),
    "big-inline": lambda args: synthetic_big_inline(args.mb),
}


def run_case(name: str, mb: float) -> None:
    """In the child: build the page, run the page path once, print its figures as JSON (with
    ``INTERPRETER``, nothing: the memory of the interpreter with the page path imported)."""
    sys.path.insert(0, str(ROOT))
    from bench.bench_stages import page_path  # noqa: PLC0415 - the child's own import

    if name == INTERPRETER:
        return print(json.dumps({"bytes": 0, "seconds": 0, "markdown_chars": 0}))
    body = CASES[name](argparse.Namespace(mb=mb)).encode("utf-8")  # only the body, as a crawl holds it
    start = time.process_time()
    page = page_path(body, URLS.get(name, URL))
    seconds = time.process_time() - start
    print(json.dumps({"bytes": len(body), "chars": len(page["html"]), "seconds": seconds,
                      "markdown_chars": len(page["markdown"])}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", action="append", choices=sorted(CASES), help="default: every case")
    parser.add_argument("--mb", type=float, default=24, help="size of the big-* pages (MB; the body cap is 32 MiB)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return run_case(args.child, args.mb)
    _, interpreter = child(INTERPRETER, args.mb)
    print(f"interpreter with the page path imported: {interpreter:.0f} MB")
    print(f"{'case':22s} {'size MB':>8s} {'CPU s':>7s} {'reactor':>8s} {'peak RSS MB':>12s} {'RSS/size':>9s} "
          f"{'above interp./size':>19s}")
    for name in args.case or CASES:
        result, rss = child(name, args.mb)
        size = result["bytes"] / 2**20
        reactor = "yes" if result["chars"] < PAGE_THREAD_MIN_CHARS else "no"
        stall = "  STALL" if reactor == "yes" and result["seconds"] > 1 else ""
        print(f"{name:22s} {size:8.2f} {result['seconds']:7.2f} {reactor:>8s} {rss:12.0f} {rss / size:9.1f} "
              f"{(rss - interpreter) / size:19.1f}{stall}")


def child(name: str, mb: float) -> tuple[dict, float]:
    """The case's figures and the peak RSS (MB) of the process that ran it."""
    process = subprocess.Popen([sys.executable, __file__, "--child", name, "--mb", str(mb)],
                               stdout=subprocess.PIPE, text=True)
    output = process.stdout.read()
    _, status, rusage = os.wait4(process.pid, 0)
    if status:
        raise SystemExit(f"{name}: the page path failed")
    return json.loads(output), rusage.ru_maxrss / 1024


if __name__ == "__main__":
    main()
