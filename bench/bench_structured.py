"""pages/s of extract_structured_data against extruct's own extract() with the same
syntaxes (JSON-LD, microdata, OpenGraph), on the same pages in the same run.

    python bench/bench_structured.py [FOLDER ...] [--rounds 3]

Default folders: ../shared/fixtures/eval/pages and fixtures/structured/product.
Each page is run through both, in alternating order, and CPU time of this process is
summed per side, so load from other processes on a shared machine hits both alike.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import extruct

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.extract.structured import extract_structured_data  # noqa: E402

DEFAULT_FOLDERS = [ROOT.parent / "shared" / "fixtures" / "eval" / "pages", ROOT / "fixtures" / "structured" / "product"]
SYNTAXES = ["json-ld", "microdata", "opengraph"]
URL = "https://example.com/page"


def load(folders) -> list[str]:
    files = sorted(f for folder in folders for f in Path(folder).glob("*.htm*") if f.is_file())
    return [f.read_bytes().decode("utf-8", "replace") for f in files]


def ours(html: str) -> None:
    extract_structured_data(html, URL)


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
    args = parser.parse_args()
    pages = load(args.folders)
    for html in pages[:20]:  # imports and caches warm
        ours(html), plain_extruct(html)
    totals = measure(pages, args.rounds)
    mb = sum(len(p.encode("utf-8", "surrogatepass")) for p in pages) / 1e6
    print(f"{len(pages)} pages, {mb:.1f} MB, {args.rounds} rounds, CPU seconds of this process")
    for name, seconds in totals.items():
        print(f"{name:>24}: {len(pages) * args.rounds / seconds:7.1f} pages/s  ({seconds:.2f} s)")
    print(f"{'ratio ours/extruct':>24}: {totals['extruct.extract'] / totals['extract_structured_data']:.2f}x pages/s")


if __name__ == "__main__":
    main()
