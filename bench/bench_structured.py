"""pages/s of extract_structured_data against extruct's own extract() with the same
syntaxes (JSON-LD, microdata, OpenGraph), on the same pages in the same run.

    python bench/bench_structured.py [FOLDER ...] [--rounds 3]

Default folders: ../shared/fixtures/eval/pages and fixtures/structured/product.
The two are timed in alternating rounds so machine load hits both alike; the best
round of each is reported.
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


def ours(pages):
    for html in pages:
        extract_structured_data(html, URL)


def plain_extruct(pages):
    for html in pages:
        extruct.extract(html, base_url=URL, syntaxes=SYNTAXES, errors="ignore")


def best_time(run, pages, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        run(pages)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", default=DEFAULT_FOLDERS)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    pages = load(args.folders)
    ours(pages[:20]), plain_extruct(pages[:20])  # imports and caches warm
    timings = {"extruct.extract": [], "extract_structured_data": []}
    for _ in range(args.rounds):
        timings["extruct.extract"].append(best_time(plain_extruct, pages, 1))
        timings["extract_structured_data"].append(best_time(ours, pages, 1))
    mb = sum(len(p.encode("utf-8", "surrogatepass")) for p in pages) / 1e6
    print(f"{len(pages)} pages, {mb:.1f} MB, best of {args.rounds} rounds")
    for name, values in timings.items():
        print(f"{name:>24}: {len(pages) / min(values):7.1f} pages/s  ({min(values):.2f} s)")
    ratio = min(timings["extruct.extract"]) / min(timings["extract_structured_data"])
    print(f"{'ratio ours/extruct':>24}: {ratio:.2f}x pages/s")


if __name__ == "__main__":
    main()
