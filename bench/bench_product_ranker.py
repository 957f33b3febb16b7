"""Does a learned ranker of the price tags a page shows beat the rules (issue 43)? Trains a
conditional logit over each page's price candidates (plus a "no price" option) and scores it
leave-one-shop-out against ``extract_product`` on the same pages, visible mode.

    python bench/bench_product_ranker.py ../shared/fixtures/product-visible ../shared/fixtures/wcxb-dev \
        ../shared/fixtures/product-dev ../shared/fixtures/eval ../shared/fixtures/real [--write PATH]

Labels come from each page's own markup: product-visible's labels.json, else the Product offer
price its JSON-LD/microdata gives (product-visible's build.py rules, via extruct). Features are
computed on the page with its markup stripped (product-visible's score.py, visible mode), from
every price tag ``shown`` finds in the body. A candidate whose amount equals the price is the
right answer; a page where none does (or a WCXB listing, article, ... page) teaches "no price".

Evaluated on the product-visible pages only (score.py's price F1: a wrong price is a FP and a
FN), per shop: rules, model (trained without the shop), and combined (the rules' price, else
the model's). Beside it, how often the model names a price on WCXB's non-product pages.
``--write`` stores the weights trained on every page (only worth it when the model wins).
Needs numpy (training only) and extruct.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import re
import sys
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crawlforge.extract.dom import parse_page  # noqa: E402
from crawlforge.extract.extractors import shown  # noqa: E402
from crawlforge.extract.extractors.visible import buy_buttons  # noqa: E402
from crawlforge.extract.product import extract_product  # noqa: E402

MAX_CANDIDATES = 200  # price tags read per page, in document order
MAX_WALK = 60000  # nodes walked per page
CLASS_WORDS = ("price", "sale", "was", "old", "regular", "compare", "special", "final", "current", "now", "our",
               "offer", "total", "product", "main", "related", "recommend", "similar", "cart", "ship", "discount",
               "save", "original", "strike", "list", "big", "large", "lg", "small", "sm", "card", "item", "tile",
               "amount", "value", "buy", "detail", "info", "summary")
LANDMARKS = ("header", "nav", "footer", "aside")
NEGATIVE_TYPES = {"listing", "collection", "article", "service", "forum", "documentation", "eval-other"}
NEGATIVES_PER_TYPE = 40
MAX_NEGATIVE_BYTES = 400_000  # WCXB pages of each other type read as "shows no product price"
_WORDS = re.compile(r"[a-z]+")


# ----------------------------------------------------------------- pages and labels
def load_fixture(folder: Path):
    """The fixture folder's own module (score.py / build.py) as a module."""
    import importlib.util  # noqa: PLC0415
    sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location(f"fx_{folder.name}", folder / "score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pages(folders: list[Path], score, build):
    """(key, html, url, shop, price or None, is_eval, kind) of every usable page, each HTML once."""
    seen, out = set(), []

    def add(key, raw: bytes, url, price, is_eval, kind):
        digest = hashlib.sha256(raw).hexdigest()
        if digest in seen:
            return
        seen.add(digest)
        out.append((key, score.decode(raw), url, build.shop_of(url), price, is_eval, kind))

    visible = next((f for f in folders if (f / "labels.json").exists() and (f / "build.py").exists()), None)
    if visible is not None:
        for key, label in json.loads((visible / "labels.json").read_text()).items():
            raw = gzip.decompress((visible / label["page"]).read_bytes())
            add(key, raw, label["url"], label["price"][0], True, "product")
    for folder in folders:
        if folder == visible:
            continue
        for key, raw, url, kind in _raw_pages(folder):
            if kind in NEGATIVE_TYPES:
                add(key, raw, url, None, False, kind)
                continue
            text = score.decode(raw)
            fields = build.label_wcxb(text, url)[0] if "price" in text.lower() else None
            if fields is not None:
                add(key, raw, url, fields["price"][0], False, "labelled")
            elif kind == "product":
                add(key, raw, url, None, False, "unlabelled")
            elif kind is None and len(raw) < MAX_NEGATIVE_BYTES:  # eval's articles, no product markup
                add(key, raw, url, None, False, "eval-other")
    return out


def _raw_pages(folder: Path):
    """(key, bytes, url, WCXB page type or None) of a fixture folder's pages."""
    truth = folder / "ground-truth"
    if truth.is_dir():  # WCXB
        counts = defaultdict(int)
        for gt_file in sorted(truth.glob("*.json")):
            gt = json.loads(gt_file.read_text(encoding="utf-8"))
            kind = gt["_internal"]["page_type"]["primary"]
            counts[kind] += 1
            if kind != "product" and counts[kind] > NEGATIVES_PER_TYPE:
                continue
            yield gt["file_id"], gzip.decompress((folder / "pages" / f"{gt['file_id']}.html.gz").read_bytes()), \
                gt["url"], kind
        return
    labels = folder / "labels.json"
    if labels.exists() and (folder / "pages").is_dir():  # product-dev
        for key, label in json.loads(labels.read_text()).items():
            path = folder / "pages" / f"{key}.html.gz"
            if path.exists():
                yield key, gzip.decompress(path.read_bytes()), label["url"], "product"
        return
    expectations = folder / "expectations.json"
    if expectations.exists():  # eval
        for item in json.loads(expectations.read_text()):
            yield item["file"], (folder / "pages" / item["file"]).read_bytes(), item["url"], None
        return
    for path in sorted((folder / "product").glob("*.html")) if (folder / "product").is_dir() else ():  # real
        yield path.name, path.read_bytes(), "https://" + path.stem.replace("_", ".") + "/", "product"


# ----------------------------------------------------------------- candidates and features
def candidates(tree, url: str) -> tuple[list, dict]:
    """(candidates, page facts): every price tag ``shown`` reads in the body, in document
    order, each as (Tag, offset in shown text, ancestor tags/classes); the facts: the product
    heading's and the buy buttons' offsets."""
    body = tree.body
    if body is None:
        return [], {}
    heading = shown.product_heading(tree)
    buttons = buy_buttons(tree)
    marks = {} if heading is None else {heading.mem_id: "h1"}
    for button in buttons:
        marks.setdefault(button.mem_id, "button")
    facts = {"h1": None, "buttons": []}
    found, seen, size = [], set(), 0
    for count, node in enumerate(body.traverse(include_text=True, skip_empty=True)):
        if count > MAX_WALK or len(found) >= MAX_CANDIDATES:
            break
        if not node.is_text_node:
            kind = marks.get(node.mem_id)
            if kind == "h1":
                facts["h1"] = size
            elif kind == "button":
                facts["buttons"].append(size)
            continue
        parent = node.parent
        if parent is None or parent.tag in shown._SKIPPED:
            continue
        text = node.text_content
        if shown._DIGIT.search(text):
            element = shown._price_element(parent)
            if element is not None and element.mem_id not in seen:
                seen.add(element.mem_id)
                tag = shown._tag(element, "", size)
                if tag is not None:
                    found.append(tag)
        size += len(text.strip())
    for tag in found:  # the words around each tag, as the rules read them
        tag.before = _around(tag.element, before=True) + " " + tag.before
        tag.after = f"{tag.after} {_around(tag.element, before=False)}".strip()
    return found, {**facts, "heading": heading, "size": size}


def _around(element, before: bool) -> str:
    sibling = element.prev if before else element.next
    text = ""
    while sibling is not None and len(text) < shown.LABEL_TEXT:
        piece = sibling.text_content if sibling.is_text_node else sibling.text(deep=True)
        text = f"{piece} {text}" if before else f"{text} {piece}"
        sibling = sibling.prev if before else sibling.next
    text = " ".join(text.split())
    return text[-shown.LABEL_TEXT:] if before else text[:shown.LABEL_TEXT]


def _distance(at: int, marks) -> tuple[float, float]:
    """log distance in shown characters to the nearest mark before and after ``at``."""
    before = [at - m for m in marks if m <= at]
    after = [m - at for m in marks if m > at]
    return (math.log1p(min(before)) if before else 9.0), (math.log1p(min(after)) if after else 9.0)


def features(tags: list, facts: dict) -> tuple[list, list]:
    """(names, one row per candidate)."""
    amounts = defaultdict(int)
    for tag in tags:
        amounts[tag.amount] += 1
    names, rows = None, []
    h1 = [facts["h1"]] if facts.get("h1") is not None else []
    first_after_h1 = next((i for i, t in enumerate(tags) if h1 and t.at >= h1[0]), None)
    for index, tag in enumerate(tags):
        f = {}
        f["h1_before"], f["h1_after"] = _distance(tag.at, h1)
        f["button_before"], f["button_after"] = _distance(tag.at, facts.get("buttons", []))
        f["near_h1"] = float(bool(h1) and 0 <= tag.at - h1[0] <= 200)
        f["near_button"] = float(any(abs(tag.at - b) <= 200 for b in facts.get("buttons", [])))
        f["first_after_h1"] = float(index == first_after_h1)
        f["index"] = math.log1p(index)
        f["position"] = tag.at / max(facts.get("size", 1), 1)
        f["listed"] = float(tag.listed)
        f["list_label"] = float(shown.is_list_label(tag))
        f["not_selling"] = float(shown.is_not_selling(tag))
        f["marked"] = float(tag.marked)
        f["currency"] = float(tag.currency is not None)
        f["repeats"] = math.log(amounts[tag.amount])
        f["in_card"] = float(shown.in_card(tag.element, facts.get("heading")))
        f["cents"] = float("." in tag.amount)
        words, landmarks, node = set(), set(), tag.element
        for _ in range(4):
            if node is None or not node.is_element_node:
                break
            attributes = " ".join(node.attributes.get(k) or "" for k in ("class", "id"))
            words.update(_WORDS.findall(shown._CAMEL.sub("-", attributes).lower()))
            node = node.parent
        node = tag.element
        for _ in range(30):
            node = node.parent
            if node is None or not node.is_element_node:
                break
            if node.tag in LANDMARKS:
                landmarks.add(node.tag)
        for word in CLASS_WORDS:
            f[f"class_{word}"] = float(word in words)
        for landmark in LANDMARKS:
            f[f"in_{landmark}"] = float(landmark in landmarks)
        f["tag_strong"] = float(tag.element.tag in ("strong", "b", "ins"))
        names = names or list(f)
        rows.append([f[n] for n in names])
    return names or [], rows


# Page facts that feed the "no price" option (a page-level score against every candidate).
NULL_NAMES = ("null_bias", "null_no_h1", "null_no_button", "null_none_near", "null_candidates", "null_cards")


def null_row(tags: list, facts: dict, rows: list, names: list) -> list:
    near = names.index("near_h1") if names else 0
    return [1.0, float(facts.get("h1") is None), float(not facts.get("buttons")),
            float(not any(r[near] for r in rows)), math.log1p(len(rows)),
            (sum(r[names.index("in_card")] for r in rows) / len(rows)) if rows else 0.0]


# ----------------------------------------------------------------- the model
def fit(groups: list, width: int, epochs: int = 400, l2: float = 0.01):
    """Weights of a conditional logit: per page, softmax over its candidates' scores and the
    "no price" option's; ``groups``: (X [n, width], null vector, index of the right option
    (n = "no price"))."""
    w = np.zeros(width)
    v = np.zeros(len(NULL_NAMES))
    X = [np.asarray(g[0], dtype=float).reshape(-1, width) for g in groups]
    N = [np.asarray(g[1], dtype=float) for g in groups]
    weights = np.asarray([g[3] for g in groups])
    mean = np.mean(np.vstack([x for x in X if len(x)]), axis=0)
    std = np.std(np.vstack([x for x in X if len(x)]), axis=0) + 1e-6
    X = [(x - mean) / std for x in X]
    lr = 0.5
    for _ in range(epochs):
        gw, gv = np.zeros(width), np.zeros(len(v))
        for x, n, (_, _, right, weight) in zip(X, N, groups):
            scores = np.append(x @ w, n @ v)
            p = np.exp(scores - scores.max())
            p /= p.sum()
            p[right] -= 1.0
            gw += weight * (x.T @ p[:-1])
            gv += weight * n * p[-1]
        w -= lr * (gw / weights.sum() + l2 * w)
        v -= lr * (gv / weights.sum() + l2 * v)
    return {"mean": mean, "std": std, "w": w, "v": v}


def predict(model, rows, null) -> int | None:
    """Index of the chosen candidate, None for "no price"."""
    if not rows:
        return None
    x = (np.asarray(rows, dtype=float) - model["mean"]) / model["std"]
    scores = x @ model["w"]
    best = int(np.argmax(scores))
    return best if scores[best] > np.asarray(null) @ model["v"] else None


# ----------------------------------------------------------------- scoring
def same(a, b) -> bool:
    try:
        return a is not None and b is not None and Decimal(str(a)) == Decimal(str(b))
    except ArithmeticError:
        return False


def counts(truth, got):  # score.py's: (TP, FP, FN)
    if got is None:
        return 0, 0, int(truth is not None)
    return (1, 0, 0) if same(got, truth) else (0, 1, int(truth is not None))


def f1(rows):
    tp, fp, fn = (sum(r[k] for r in rows) for k in range(3))
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    return (2 * p * r / (p + r) if p + r else 0.0), p, tp, fp, fn


def page_features(folders, score, build):
    """(feature names, one record per page: its candidates' rows, the right one, the rules' price)."""
    data, feature_names = [], []
    for key, html, url, shop, price, is_eval, kind in pages(folders, score, build):
        stripped = score.strip_machine_readable(html)
        tags, facts = candidates(parse_page(stripped), url)
        names, rows = features(tags, facts)
        right = next((i for i, tag in enumerate(tags) if same(tag.amount, price)), len(tags))
        data.append({"key": key, "shop": shop, "price": price, "eval": is_eval, "kind": kind, "rows": rows,
                     "null": null_row(tags, facts, rows, names), "right": right, "amounts": [t.amount for t in tags],
                     "rules": extract_product(stripped, url)["price"]})
        feature_names = names or feature_names
    return feature_names, data


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path, help="fixture folders (product-visible first: its score.py)")
    ap.add_argument("--share", type=float, default=1.0,
                    help="the non-product pages' weight in training, as a share of the product pages' (0: left out)")
    ap.add_argument("--cache", type=Path, metavar="PATH", help="keep the pages' features here (read if present)")
    ap.add_argument("--write", type=Path, metavar="PATH", help="write the weights trained on every page here")
    args = ap.parse_args()
    visible = next(f for f in args.folders if (f / "build.py").exists())
    score = load_fixture(visible)
    sys.path.insert(0, str(visible))
    import build  # noqa: PLC0415  (product-visible's labelling rules)

    if args.cache and args.cache.exists():
        feature_names, data = json.loads(args.cache.read_text())
    else:
        feature_names, data = page_features(args.folders, score, build)
        if args.cache:
            args.cache.write_text(json.dumps([feature_names, data]))
    print(f"{len(data)} pages: " + ", ".join(f"{k} {sum(d['kind'] == k for d in data)}"
                                             for k in sorted({d['kind'] for d in data})))
    evals = [d for d in data if d["eval"]]
    reachable = sum(d["right"] < len(d["amounts"]) for d in evals)
    print(f"eval pages whose price is among the candidates: {reachable}/{len(evals)}")
    def groups(pages_):
        """Training groups; the non-product pages weigh ``--share`` of the product pages in all."""
        negatives = sum(d["kind"] in NEGATIVE_TYPES for d in pages_)
        share = args.share * (len(pages_) - negatives) / negatives if negatives else 1.0
        pages_ = [d for d in pages_ if share or d["kind"] not in NEGATIVE_TYPES]
        return [(d["rows"], d["null"], d["right"], share if d["kind"] in NEGATIVE_TYPES else 1.0) for d in pages_]
    table = defaultdict(lambda: {"rules": [], "model": [], "combined": []})
    for shop in sorted({d["shop"] for d in evals}):
        model = fit(groups([d for d in data if d["shop"] != shop]), len(feature_names))
        for d in (d for d in evals if d["shop"] == shop):
            chosen = predict(model, d["rows"], d["null"])
            d["model"] = d["amounts"][chosen] if chosen is not None else None
            combined = d["rules"] if d["rules"] is not None else d["model"]
            for mode, got in (("rules", d["rules"]), ("model", d["model"]), ("combined", combined)):
                table[shop][mode].append(counts(d["price"], got))
    print(f"\n{'shop':20} {'n':>3}  rules  model  combined   (price F1, leave-one-shop-out)")
    for shop, modes in sorted(table.items(), key=lambda kv: (-len(kv[1]["rules"]), kv[0])):
        cells = "  ".join(f"{f1(modes[m])[0]:.3f}" for m in ("rules", "model", "combined"))
        print(f"{shop:20} {len(modes['rules']):3d}  {cells}")
    print(f"\n{'total':9}    F1      P   TP  FP  FN")
    for mode in ("rules", "model", "combined"):
        value, p, tp, fp, fn = f1([row for modes in table.values() for row in modes[mode]])
        print(f"{mode:9} {value:.3f}  {p:.3f}  {tp:3d} {fp:3d} {fn:3d}")
    for d in evals:
        if not same(d["rules"], d["price"]) or not same(d["model"], d["price"]):
            print(f"  {d['key'][:8]:8} {d['shop'][:14]:14} want {d['price']} rules {d['rules']} model {d['model']}"
                  f" (right candidate {'#' + str(d['right']) if d['right'] < len(d['amounts']) else 'none'}"
                  f" of {len(d['amounts'])})")
    negatives = [d for d in data if d["kind"] in NEGATIVE_TYPES]
    fired = defaultdict(int)
    for fold in (0, 1):  # half the non-product pages held out at a time
        held = {id(d) for d in negatives[fold::2]}
        model = fit(groups([d for d in data if id(d) not in held]), len(feature_names))
        for d in negatives[fold::2]:
            if predict(model, d["rows"], d["null"]) is not None:
                fired[d["kind"]] += 1
                fired[d["kind"] + " combined"] += d["rules"] is None
            fired[d["kind"] + " rules"] += d["rules"] is not None
    print("\na price named on held-out non-product pages (rules / model / combined):")
    for kind in sorted({d["kind"] for d in negatives}):
        rules = fired[kind + " rules"]
        print(f"  {kind:14} {sum(d['kind'] == kind for d in negatives):4d} pages: {rules} / {fired[kind]} / "
              f"{rules + fired[kind + ' combined']}")
    model = fit(groups(data), len(feature_names))
    if args.write:
        args.write.write_text(json.dumps({"features": feature_names, "null_features": list(NULL_NAMES),
                                          **{k: [round(float(x), 6) for x in model[k]] for k in model}}, indent=1) + "\n")
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
