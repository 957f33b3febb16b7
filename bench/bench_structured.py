"""pages/s of extract_structured_data against extruct's own extract() with the same
syntaxes (JSON-LD, microdata, OpenGraph), on the same pages in the same run; then the cost
per page of extract_product and of the full page path (extract_structured_data +
html_to_markdown, as the pipeline runs them).

    python bench/bench_structured.py [FOLDER ...] [--rounds 3] [--code CHECKOUT]

Default folders: ../shared/fixtures/eval/pages, ../shared/fixtures/product-dev/pages and
fixtures/structured/product (``.html`` or ``.html.gz``). ``--code`` measures another
checkout's crawlforge (e.g. ``../main``, for a before/after on the same machine).
Each page is run through both, in alternating order, and CPU time of this process is
summed per side, so load from other processes on a shared machine hits both alike.
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import sys
import time
from pathlib import Path

import extruct

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "fixtures"
DEFAULT_FOLDERS = [SHARED / "eval" / "pages", SHARED / "product-dev" / "pages", ROOT / "fixtures" / "structured" / "product"]
SYNTAXES = ["json-ld", "microdata", "opengraph"]
URL = "https://example.com/page"


def load(folders) -> list[str]:
    files = sorted(f for folder in folders for f in Path(folder).glob("*.htm*") if f.is_file())
    raw = (gzip.decompress(f.read_bytes()) if f.suffix == ".gz" else f.read_bytes() for f in files)
    return [data.decode("utf-8", "replace") for data in raw]


def ours(html: str) -> None:
    extract_structured_data(html, URL)


def page_path(html: str) -> None:
    extract_structured_data(html, URL)
    html_to_markdown(html, URL)


def per_page(run, pages: list[str], rounds: int) -> float:
    """CPU milliseconds per page (distinct strings each round, so no cache answers)."""
    seconds = 0.0
    for _ in range(rounds):
        for html in pages:
            seconds += timed(run, html + " ")
    return 1000 * seconds / (len(pages) * rounds)


def plain_extruct(html: str) -> None:
    extruct.extract(html, base_url=URL, syntaxes=SYNTAXES, errors="ignore")


def timed(run, html: str) -> float:
    start = time.process_time()
    run(html)
    return time.process_time() - start


def measure(pages: list[str], rounds: int) -> dict:
    totals = {"extruct.extract": 0.0, "extract_structured_data": 0.0}
    for round_number in range(rounds):
        for index, html in enumerate(pages):
            pair = [("extruct.extract", plain_extruct), ("extract_structured_data", ours)]
            for name, run in pair if (index + round_number) % 2 else pair[::-1]:
                totals[name] += timed(run, html)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", default=DEFAULT_FOLDERS)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout whose crawlforge is measured")
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    global extract_structured_data, html_to_markdown
    extract_structured_data = importlib.import_module("crawlforge.extract.structured").extract_structured_data
    html_to_markdown = importlib.import_module("crawlforge.extract.markdown").html_to_markdown
    product = _product_module()
    pages = load(args.folders)
    for html in pages[:20]:  # imports and caches warm
        ours(html), plain_extruct(html)
    totals = measure(pages, args.rounds)
    mb = sum(len(p.encode("utf-8", "surrogatepass")) for p in pages) / 1e6
    print(f"{len(pages)} pages, {mb:.1f} MB, {args.rounds} rounds, CPU seconds of this process")
    for name, seconds in totals.items():
        print(f"{name:>24}: {len(pages) * args.rounds / seconds:7.1f} pages/s  ({seconds:.2f} s)")
    print(f"{'ratio ours/extruct':>24}: {totals['extruct.extract'] / totals['extract_structured_data']:.2f}x pages/s")
    for folder in args.folders:
        folder_pages = load([folder])
        if not folder_pages:
            continue
        print(f"{Path(folder).parent.name}/{Path(folder).name} ({len(folder_pages)} pages), CPU ms per page:")
        if product is not None:
            print(f"{'extract_product':>24}: {per_page(lambda h: product.extract_product(h, URL), folder_pages, args.rounds):7.1f}")
        print(f"{'structured + markdown':>24}: {per_page(page_path, folder_pages, args.rounds):7.1f}")
    print(f"code measured: {Path(importlib.import_module('crawlforge').__file__).parent}")


def _product_module():
    try:
        return importlib.import_module("crawlforge.extract.product")
    except ImportError:  # a checkout from before extract_product
        return None


if __name__ == "__main__":
    main()
