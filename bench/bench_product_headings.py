"""On how many product pages is the name extract_product returns the markdown's first heading
(issue 15's bar: 38 of 40 on product-dev)? Prints the count and the pages that miss.

    .venv/bin/python bench/bench_product_headings.py [PRODUCT_DEV_DIR]

PRODUCT_DEV_DIR holds ``labels.json`` and ``pages/<key>.html.gz`` (default
../shared/fixtures/product-dev beside the repository).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.extract.markdown import html_to_markdown  # noqa: E402
from crawlforge.extract.product import extract_product  # noqa: E402

HEADING = re.compile(r"^#+ (.+)$", re.M)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pages_dir", nargs="?", type=Path, default=ROOT.parent / "shared" / "fixtures" / "product-dev")
    args = parser.parse_args()
    labels = json.loads((args.pages_dir / "labels.json").read_text(encoding="utf-8"))
    misses = []
    for key, label in labels.items():
        html = gzip.decompress((args.pages_dir / "pages" / f"{key}.html.gz").read_bytes()).decode("utf-8", "replace")
        url = label.get("url", "")
        name = extract_product(html, url)["name"]
        first = next((match.group(1).strip() for match in HEADING.finditer(html_to_markdown(html, url))), None)
        if not name or first != name:
            misses.append(f"  {key} {url[:70]}  name {name!r}  first heading {first!r}")
    print(f"name is the markdown's first heading: {len(labels) - len(misses)}/{len(labels)}")
    print("\n".join(misses))


if __name__ == "__main__":
    main()
