"""Per-field F1 of ``extract_product`` when a page's markup is partial: each ablation drops one
source (or one part of it) from every page of a product fixture set and scores what is left, so
shops whose markup lacks a field are represented (held-out shops often have JSON-LD without
offers, offers without stock, no SKU...).

    .venv/bin/python bench/bench_product_ablation.py ../shared/fixtures/product-visible [--only NAME]

The set's own ``score.py`` supplies the labels, the decoding, the metric and the visible-mode
strip (``strip_machine_readable``), so the figures are the scorer's.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crawlforge.extract.product import extract_product  # noqa: E402

_LD = re.compile(r'(<script[^>]*application/ld\+json[^>]*>)(.*?)(</script>)', re.I | re.S)
_ITEMPROP = re.compile(r'\sitem(?:prop|scope|type)(?:\s*=\s*(?:"[^"]*"|\'[^\']*\'|[^\s>]+))?', re.I)
_META_PRICE = re.compile(r'<meta[^>]+(?:product:|og:price|itemprop)[^>]*>', re.I)
OFFER_KEYS = {"offers"}
STOCK_KEYS = {"availability"}
ID_KEYS = {"sku", "mpn", "gtin", "gtin8", "gtin12", "gtin13", "gtin14", "productID", "productId"}


def _without(node, keys: set):
    if isinstance(node, dict):
        return {k: _without(v, keys) for k, v in node.items() if k not in keys}
    if isinstance(node, list):
        return [_without(v, keys) for v in node]
    return node


def drop_jsonld_keys(keys: set):
    def ablate(html: str) -> str:
        def rewrite(match):
            try:
                data = json.loads(match.group(2))
            except ValueError:
                return match.group(0)
            return match.group(1) + json.dumps(_without(data, keys)) + match.group(3)
        return _LD.sub(rewrite, html)
    return ablate


def no_jsonld(html: str) -> str:
    return _LD.sub("", html)


def no_microdata_or_meta(html: str) -> str:
    return _META_PRICE.sub("", _ITEMPROP.sub("", html))


def only_jsonld(html: str) -> str:
    """JSON-LD kept, every other machine-readable source (microdata, meta, other scripts) gone."""
    return no_microdata_or_meta(html)


def ablations(score) -> dict:
    return {
        "full": lambda html: html,
        "jsonld without offers": drop_jsonld_keys(OFFER_KEYS),
        "jsonld without stock": drop_jsonld_keys(STOCK_KEYS),
        "jsonld without ids": drop_jsonld_keys(ID_KEYS),
        "no jsonld": no_jsonld,
        "no microdata/meta": no_microdata_or_meta,
        "no jsonld, no microdata/meta": lambda html: no_microdata_or_meta(no_jsonld(html)),
        "visible": score.strip_machine_readable,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixtures", help="a product fixture folder with score.py and labels.json")
    parser.add_argument("--only", help="one ablation by name")
    parser.add_argument("--misses", action="store_true", help="list the misses of each ablation")
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("product_score", Path(args.fixtures) / "score.py")
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)
    chosen = score.labels()
    pages = {page_id: (score.page_html(label), label) for page_id, label in chosen.items()}
    print(f"{len(pages)} pages of {args.fixtures}")
    print(f"{'ablation':30} {'price':>6} {'sku':>6} {'avail':>6} {'a-prec':>6}")
    for name, ablate in ablations(score).items():
        if args.only and name != args.only:
            continue
        rows = {"price": [], "sku": [], "availability": []}
        misses = []
        for page_id, (html, label) in pages.items():
            out = extract_product(ablate(html), label["url"])
            got = {"price": score.blank_none(out.get("price")), "sku": score.blank_none(out.get("sku")),
                   "availability": score.stock(out.get("availability"))}
            for field in rows:
                truth = score.truth_of(label, field)
                if not truth:  # the page does not label it
                    continue
                counts = score.counts(field, truth, got[field])
                rows[field].append(counts)
                if counts != (1, 0, 0):
                    misses.append(f"  {field:12} {label.get('shop', ''):14} {page_id[:8]} want {truth} got {got[field]!r}")
        f1 = {field: score.prf(r)[0] for field, r in rows.items()}
        precision = score.prf(rows["availability"])[1]
        print(f"{name:30} {f1['price']:6.3f} {f1['sku']:6.3f} {f1['availability']:6.3f} {precision:6.3f}")
        if args.misses:
            print("\n".join(misses))


if __name__ == "__main__":
    main()
