"""On how many priced product pages is the true price in the page's markdown (issue 43's bar:
>= 97 % of priced pages)? Prints the count per set and mode, and the pages that miss.

    .venv/bin/python bench/bench_product_markdown.py [DIR ...]

DIR is a scored product set beside the repository (default ../shared/fixtures/product-visible
and ../shared/fixtures/product-dev): a folder with ``labels.json`` and its own ``score.py``,
which this script loads by path and reuses as it is, so the figures are the scorer's. A folder
whose scorer has ``strip_machine_readable`` (product-visible) is measured as captured and with
every machine-readable source stripped (its visible mode: a page that shows its product but
does not mark it up); any other (product-dev) through its scorer's ``--markdown`` report.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.extract.markdown import html_to_markdown  # noqa: E402

DEFAULT_DIRS = [ROOT.parent / "shared" / "fixtures" / name for name in ("product-visible", "product-dev")]
_BLANKS = re.compile(r"[\s\u00a0\u202f\u2009\u2007]+")  # the scorers' spaces inside a price


def scorer(folder: Path):
    """The folder's ``score.py`` as a module of its own."""
    spec = importlib.util.spec_from_file_location(f"scorer_{folder.name.replace('-', '_')}", folder / "score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def price_in_markdown(score, modes: tuple) -> None:
    """Per mode, the priced pages whose markdown shows a true price (``score.price_pattern``)."""
    labels = score.labels()
    for mode in modes:
        misses, checked = [], 0
        for key, label in labels.items():
            pattern = score.price_pattern(label.get("price"))
            if pattern is None:
                continue
            checked += 1
            html = score.page_html(label)
            if mode == "visible":
                html = score.strip_machine_readable(html)
            if not pattern.search(_BLANKS.sub(" ", html_to_markdown(html, label["url"]) or "")):
                misses.append(f"  not found: {key[:8]} {label.get('shop', ''):14} {label['url'][:60]:60} "
                              f"price {label['price']}")
        print(f"{mode:8} price in the markdown: {checked - len(misses)}/{checked} priced pages")
        print("\n".join(misses))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=DEFAULT_DIRS, metavar="DIR")
    args = parser.parse_args()
    for folder in args.dirs:
        print(f"{folder}:")
        score = scorer(folder.resolve())
        if hasattr(score, "strip_machine_readable"):
            price_in_markdown(score, ("full", "visible"))
        else:
            score.markdown(html_to_markdown)


if __name__ == "__main__":
    main()
