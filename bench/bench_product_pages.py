"""Which pages ``extract_product`` calls a product (``is_product``), by WCXB page type: on the
product pages it should say yes, on articles, listings, collections and service pages no. Prints
the count per type and every non-product page called a product, with the price's source (a
``visible`` one is the visible reader's doing; ``json-ld`` and the like are the page's own claim).

    .venv/bin/python bench/bench_product_pages.py [WCXB_DIR] [--type TYPE]

WCXB_DIR holds ``ground-truth/*.json`` (each with its URL and ``_internal.page_type.primary``) and
``pages/<id>.html.gz`` (default: ../shared/fixtures/wcxb-dev beside the repository).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.extract.product import extract_product  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT.parent / "shared" / "fixtures" / "wcxb-dev")
    parser.add_argument("--type", help="only pages of this type")
    args = parser.parse_args()
    pages, called, wrong = Counter(), Counter(), []
    for truth in sorted((args.folder / "ground-truth").glob("*.json")):
        meta = json.loads(truth.read_text(encoding="utf-8"))
        kind = meta["_internal"]["page_type"]["primary"]
        path = args.folder / "pages" / f"{truth.stem}.html.gz"
        if (args.type and kind != args.type) or not path.exists():
            continue
        record = extract_product(gzip.decompress(path.read_bytes()).decode("utf-8", "replace"), meta["url"])
        pages[kind] += 1
        if record["is_product"]:
            called[kind] += 1
            if kind != "product":
                wrong.append((truth.stem, kind, record["provenance"].get("price"), record["price"], meta["url"]))
    for kind in sorted(pages):
        print(f"{kind:14} called a product {called[kind]:4} of {pages[kind]:4}")
    print(f"non-product pages called a product: {len(wrong)}")
    for stem, kind, source, price, url in wrong:
        print(f"  {stem} {kind:12} price {price!r} ({source})  {url[:80]}")


if __name__ == "__main__":
    main()
