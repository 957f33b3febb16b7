"""Speed of crawlforge's html_to_markdown against trafilatura on the same pages, in one process.

Usage: python bench/bench_markdown.py [EVAL_DIR] [--limit N]
EVAL_DIR holds pages/ (default ../shared/fixtures/eval from the project root). Both extractors
run on one core in this process; times are CPU seconds spent inside each call. Prints pages/s,
MB/s, the ratio, and output size relative to the HTML (characters and whitespace tokens).
"""

import argparse
import gzip
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from crawlforge.extract.charset import decode_body  # noqa: E402
from crawlforge.extract.markdown import html_to_markdown  # noqa: E402


def load_pages(folder: str, limit: int) -> list[str]:
    pages_dir = os.path.join(folder, "pages")
    names = sorted(os.listdir(pages_dir))[: limit or None]
    pages = []
    for name in names:
        with open(os.path.join(pages_dir, name), "rb") as f:
            data = f.read()
        if name.endswith(".gz"):
            data = gzip.decompress(data)
        pages.append(decode_body(data)["text"])
    return pages


def measure(name: str, extract, pages: list[str]) -> dict:
    out_chars = out_tokens = 0
    seconds = 0.0
    for page in pages:
        start = time.process_time()
        out = extract(page) or ""
        seconds += time.process_time() - start
        out_chars += len(out)
        out_tokens += len(out.split())
    mb = sum(len(p.encode("utf-8", "surrogatepass")) for p in pages) / 1e6
    html_tokens = sum(len(p.split()) for p in pages)
    html_chars = sum(len(p) for p in pages)
    result = {"name": name, "pages_per_s": len(pages) / seconds, "mb_per_s": mb / seconds,
              "chars_pct": 100 * out_chars / html_chars, "tokens_pct": 100 * out_tokens / html_tokens}
    print(f"{name:12} {result['pages_per_s']:7.1f} pages/s  {result['mb_per_s']:6.2f} MB/s  "
          f"output {result['chars_pct']:.2f} % of HTML chars, {result['tokens_pct']:.2f} % of HTML tokens")
    return result


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("eval_dir", nargs="?", default=os.path.join(ROOT, "..", "shared", "fixtures", "eval"))
    parser.add_argument("--limit", type=int, default=0, help="first N pages only")
    args = parser.parse_args(argv)
    if not os.path.isdir(os.path.join(args.eval_dir, "pages")):
        parser.error(f"no pages/ folder in {os.path.normpath(args.eval_dir)}: give an EVAL_DIR that holds one")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    import trafilatura

    pages = load_pages(args.eval_dir, args.limit)
    print(f"{len(pages)} pages, {sum(len(p) for p in pages) / 1e6:.1f} M characters")
    ours = measure("crawlforge", lambda p: html_to_markdown(p, "https://example.org/page"), pages)
    theirs = measure("trafilatura", lambda p: trafilatura.extract(
        p, url="https://example.org/page", output_format="markdown"), pages)
    print(f"ratio crawlforge/trafilatura: {ours['pages_per_s'] / theirs['pages_per_s']:.2f}x pages/s")


if __name__ == "__main__":
    main()
