"""Does a learned ranker of the price tags a page shows beat the rules (issue 43)? Trains a
conditional logit over each page's price candidates (plus a "no price" option) and scores it
leave-one-shop-out against ``extract_product`` on the same pages, visible mode.

    python bench/bench_product_ranker.py ../shared/fixtures/product-visible ../shared/fixtures/wcxb-dev \
        ../shared/fixtures/product-dev ../shared/fixtures/eval ../shared/fixtures/real \
        [--share 1.0] [--cache PATH] [--write PATH]

Labels come from each page's own markup: product-visible's labels.json, else the Product offer
price its JSON-LD/microdata gives (product-visible's build.py rules, via extruct). Features are
computed on the page with its markup stripped (product-visible's score.py, visible mode), from
every price tag ``shown`` reads in the body whose amount touches a currency. A candidate whose
amount equals the price is the right answer; a page where none does, and WCXB's listing,
article, ... pages and eval's pages without product markup, teach "no price" (``--share``: their
weight in training against the product pages').

Scored on the product-visible pages (score.py's price F1: a wrong price is a FP and a FN), per
shop, four ways: the rules; the model alone (trained without the shop); combined (the rules'
price, else the model's); gated (combined, the model only on a page with a buy button). Then
how often each names a price on the non-product pages, each half held out of training in turn.
The SKU the same way (rules, model, rules else model): its candidates are the code-like tokens
(a digit in them) of the text, of attribute values and of the URL's path.
``--learner stumps``: gradient-boosted stumps on the same loss instead of the linear logit
(minutes longer: the SKU candidates are many). ``--write`` stores the weights trained on every
page. Needs numpy (extra ``ranker-bench``).
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
from urllib.parse import urlsplit

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from crawlforge.extract.dom import parse_page  # noqa: E402
from crawlforge.extract.extractors import shown  # noqa: E402
from crawlforge.extract.extractors.visible import buy_buttons  # noqa: E402
from crawlforge.extract.product import extract_product  # noqa: E402

MAX_CANDIDATES = 200  # price tags read per page, in document order
MAX_WALK = 60000  # nodes walked per page
BOX_LEVELS = 8  # ancestors of a buy button or the heading that make its box
CLASS_WORDS = ("price", "sale", "was", "old", "regular", "compare", "special", "final", "current", "now", "our",
               "offer", "total", "product", "main", "related", "recommend", "similar", "cart", "ship", "discount",
               "save", "original", "strike", "list", "big", "large", "lg", "small", "sm", "card", "item", "tile",
               "amount", "value", "buy", "detail", "info", "summary")
LANDMARKS = ("header", "nav", "footer", "aside")
NEGATIVE_TYPES = {"listing", "collection", "article", "service", "forum", "documentation", "eval-other"}
NEGATIVES_PER_TYPE = 40  # WCXB pages of each other type read as "shows no product price"
MAX_NEGATIVE_BYTES = 400_000  # eval's pages without product markup, up to this size
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

    def add(key, raw: bytes, url, price, is_eval, kind, skus=()):
        digest = hashlib.sha256(raw).hexdigest()
        if digest in seen:
            return
        seen.add(digest)
        url = url or ""  # a page saved without its address
        out.append((key, score.decode(raw), url, build.shop_of(url), price, list(skus), is_eval, kind))

    visible = next((f for f in folders if (f / "labels.json").exists() and (f / "build.py").exists()), None)
    if visible is not None:
        for key, label in json.loads((visible / "labels.json").read_text()).items():
            raw = gzip.decompress((visible / label["page"]).read_bytes())
            add(key, raw, label["url"], label["price"][0], True, "product", label["sku"])
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
                add(key, raw, url, fields["price"][0], False, "labelled", fields["sku"])
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
    facts = {"h1": None, "buttons": [], "boxes": _boxes(buttons), "h1_box": _boxes([heading] if heading else []),
             "h1s": len(tree.css("h1")), "title_match": _title_match(tree, heading)}
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
                # a currency touching the amount; price_parser alone finds "lei" in "kleine"
                if tag is not None and tag.currency is not None and shown._money_pattern().search(element.text()):
                    found.append(tag)
        size += len(text.strip())
    for tag in found:  # the words around each tag, as the rules read them
        tag.before = _around(tag.element, before=True) + " " + tag.before
        tag.after = f"{tag.after} {_around(tag.element, before=False)}".strip()
    return found, {**facts, "heading": heading, "size": size}


def _boxes(elements) -> dict:
    """mem_id -> levels up, of the ``BOX_LEVELS`` ancestors of each of ``elements``."""
    boxes = {}
    for element in elements:
        node = element
        for level in range(1, BOX_LEVELS + 1):
            node = node.parent
            if node is None or node.tag in ("body", "html"):
                break
            boxes[node.mem_id] = min(level, boxes.get(node.mem_id, level))
    return boxes


def _shared_box(element, boxes: dict) -> float:
    """Levels from ``element`` up to the nearest box it shares with a button or heading (0: none)."""
    node = element
    for level in range(1, BOX_LEVELS + 1):
        node = node.parent
        if node is None:
            break
        if node.mem_id in boxes:
            return 1.0 / (level + boxes[node.mem_id])
    return 0.0


def _title_match(tree, heading) -> float:
    title = tree.head.css_first("title") if tree.head is not None else None
    if heading is None or title is None:
        return 0.0
    words = set(re.findall(r"\w+", title.text().casefold()))
    shown_words = re.findall(r"\w+", heading.text(separator=" ").casefold())
    return sum(word in words for word in shown_words) / len(shown_words) if shown_words else 0.0


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
    usable = [i for i, t in enumerate(tags) if h1 and t.at >= h1[0] and not t.listed and not shown.is_list_label(t)
              and not shown.is_not_selling(t)]
    for index, tag in enumerate(tags):
        f = {}
        f["h1_before"], f["h1_after"] = _distance(tag.at, h1)
        f["button_before"], f["button_after"] = _distance(tag.at, facts.get("buttons", []))
        f["near_h1"] = float(bool(h1) and 0 <= tag.at - h1[0] <= 200)
        f["near_button"] = float(any(abs(tag.at - b) <= 200 for b in facts.get("buttons", [])))
        f["first_after_h1"] = float(index == first_after_h1)
        f["first_usable"] = float(bool(usable) and index == usable[0])
        f["usable_rank"] = math.log1p(usable.index(index)) if index in usable else 3.0
        f["buy_box"] = _shared_box(tag.element, facts.get("boxes", {}))
        f["h1_box"] = _shared_box(tag.element, facts.get("h1_box", {}))
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


# ----------------------------------------------------------------- identifier candidates
_CODE = re.compile(r"(?<![\w-])([A-Za-z0-9][A-Za-z0-9._/-]{2,38}[A-Za-z0-9])(?![\w-])")
ID_ATTRIBUTE_WORDS = ("sku", "product", "item", "id", "code", "variant", "article", "model", "value", "pid")
MAX_CODES = 300  # identifier candidates kept per page


def code_candidates(tree, url: str) -> dict:
    """value -> facts, of every code-like token (a digit in it) the page shows as text after a
    label or not, holds in an attribute, or its URL's path carries."""
    found: dict = {}
    labels = code_labels()
    path_tokens = set(re.findall(r"[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]", urlsplit(url).path))
    body = tree.body
    if body is None:
        return found
    heading = shown.product_heading(tree)
    h1_at, size, recent = None, 0, ""
    for count, node in enumerate(body.traverse(include_text=True, skip_empty=True)):
        if count > MAX_WALK or len(found) >= MAX_CODES:
            break
        if not node.is_text_node:
            if heading is not None and node.mem_id == heading.mem_id:
                h1_at = size
            for name, value in node.attributes.items():
                if value and name not in ("class", "style", "src", "href", "srcset") and _CODE.fullmatch(value.strip()):
                    words = set(_WORDS.findall(name.lower()))
                    facts = _code(found, value.strip(), "attribute", size, h1_at)
                    for word in ID_ATTRIBUTE_WORDS:
                        if facts and (word in words or word in name.lower()):
                            facts[f"attr_{word}"] = 1.0
            continue
        parent = node.parent
        if parent is None or parent.tag in shown._SKIPPED:
            continue
        text = node.text_content
        for m in _CODE.finditer(text):
            labelled = labels.search(recent[-30:] + text[:m.start()]) is not None
            facts = _code(found, m.group(1), "text", size, h1_at)
            if not facts:
                continue
            facts["labelled"] = max(facts.get("labelled", 0.0), float(labelled))
            facts["in_link"] = max(facts.get("in_link", 0.0), float(shown._in_link(parent) or parent.tag == "a"))
        recent = (recent + " " + text)[-60:]
        size += len(text.strip())
    for value, facts in found.items():
        facts["in_url"] = float(value in path_tokens or value.lower() in url.lower())
    return found


def _code(found: dict, value: str, where: str, at: int, h1_at) -> dict:
    if not shown._DIGIT.search(value):
        return {}  # a word
    facts = found.setdefault(value, {"count": 0.0, "first": at})
    facts["count"] += 1
    facts[f"in_{where}"] = 1.0
    if h1_at is not None:
        facts["h1_dist"] = min(facts.get("h1_dist", 1e9), abs(at - h1_at))
    return facts


def code_labels():
    from crawlforge.extract.words import pattern  # noqa: PLC0415
    return pattern("product_code_labels")


def code_features(found: dict, page_size: int) -> tuple[list, list, list]:
    """(names, values, rows) of the identifier candidates."""
    names = ["count", "position", "h1_dist", "no_h1", "in_text", "in_attribute", "labelled", "in_link", "in_url",
             "length", "digits", "letters", "upper", "separators", "only_digits", "dotted_decimal", "year_like"] \
        + [f"attr_{w}" for w in ID_ATTRIBUTE_WORDS]
    values, rows = [], []
    for value, facts in found.items():
        if not any(c.isdigit() for c in value):
            continue
        digits = sum(c.isdigit() for c in value)
        f = {"count": math.log1p(facts["count"]), "position": facts["first"] / max(page_size, 1),
             "h1_dist": math.log1p(facts.get("h1_dist", 1e9)), "no_h1": float("h1_dist" not in facts),
             "length": len(value) / 10, "digits": digits / len(value),
             "letters": sum(c.isalpha() for c in value) / len(value), "upper": float(any(c.isupper() for c in value)),
             "separators": float(any(c in "._/-" for c in value)), "only_digits": float(value.isdigit()),
             "dotted_decimal": float(bool(re.fullmatch(r"\d+[.,]\d{1,2}", value))),
             "year_like": float(bool(re.fullmatch(r"(19|20)\d\d", value)))}
        rows.append([f.get(n, facts.get(n, 0.0)) for n in names])
        values.append(value)
    return names, values, rows


# Page facts that feed the "no price" option (a page-level score against every candidate).
NULL_NAMES = ("null_bias", "null_no_h1", "null_no_button", "null_none_near", "null_candidates", "null_cards",
              "null_h1s", "null_title_match", "null_no_box")


def null_row(tags: list, facts: dict, rows: list, names: list) -> list:
    near = names.index("near_h1") if names else 0
    return [1.0, float(facts.get("h1") is None), float(not facts.get("buttons")),
            float(not any(r[near] for r in rows)), math.log1p(len(rows)),
            (sum(r[names.index("in_card")] for r in rows) / len(rows)) if rows else 0.0,
            math.log1p(facts.get("h1s", 0)), facts.get("title_match", 0.0),
            float(not any(r[names.index("buy_box")] for r in rows))]


# ----------------------------------------------------------------- the model
def fit_logit(groups: list, width: int, epochs: int = 400, l2: float = 0.01):
    """Weights of a conditional logit: per page, softmax over its candidates' scores and the
    "no price" option's; ``groups``: (rows [n, width], null vector, index of the right option
    (n = "no price"), weight). Batch gradient descent on standardised features."""
    rows = [np.asarray(g[0], dtype=float).reshape(-1, width) for g in groups]
    X = np.vstack(rows)
    page = np.repeat(np.arange(len(groups)), [len(r) for r in rows])  # each candidate's page
    N = np.asarray([g[1] for g in groups], dtype=float)
    weights = np.asarray([g[3] for g in groups], dtype=float)
    y = np.zeros(len(X))
    starts = np.cumsum([0] + [len(r) for r in rows[:-1]])
    picked = [(start + g[2]) for start, g, r in zip(starts, groups, rows) if g[2] < len(r)]
    y[picked] = 1.0
    y_null = np.asarray([float(g[2] >= len(r)) for g, r in zip(groups, rows)])
    mean, std = X.mean(axis=0), X.std(axis=0) + 1e-6
    X = (X - mean) / std
    w, v = np.zeros(width), np.zeros(N.shape[1])
    lr, total = 0.5, weights.sum()
    for _ in range(epochs):
        scores, null = X @ w, N @ v
        top = null.copy()
        np.maximum.at(top, page, scores)
        e, e_null = np.exp(scores - top[page]), np.exp(null - top)
        z = e_null.copy()
        np.add.at(z, page, e)
        p, p_null = e / z[page], e_null / z
        w -= lr * (X.T @ (weights[page] * (p - y)) / total + l2 * w)
        v -= lr * (N.T @ (weights * (p_null - y_null)) / total + l2 * v)
    return {"learner": "logit", "mean": mean, "std": std, "w": w, "v": v}


def fit(groups: list, width: int, learner: str = "logit"):
    return (fit_stumps if learner == "stumps" else fit_logit)(groups, width)


def predict(model, rows, null) -> int | None:
    """Index of the chosen candidate, None for "no price"."""
    if not rows:
        return None
    if model["learner"] == "stumps":
        scores = _stump_scores(model["stumps"], _options(rows, null))
        best = int(np.argmax(scores[:-1]))
        return best if scores[best] > scores[-1] else None
    x = (np.asarray(rows, dtype=float) - model["mean"]) / model["std"]
    scores = x @ model["w"]
    best = int(np.argmax(scores))
    return best if scores[best] > np.asarray(null) @ model["v"] else None


def _options(rows, null) -> np.ndarray:
    """A page's options as one matrix: each candidate's features, then the "no price" option's
    (its page facts; a column that says which it is)."""
    rows = np.asarray(rows, dtype=float)  # [n, width]: a page without candidates comes shaped
    width, facts = rows.shape[1], len(null)
    out = np.full((len(rows) + 1, width + facts + 1), -1e6)
    out[:-1, :width] = rows
    out[-1, width:width + facts] = null
    out[:, -1] = 0.0
    out[-1, -1] = 1.0
    return out


def _stump_scores(stumps: list, X: np.ndarray) -> np.ndarray:
    scores = np.zeros(len(X))
    for column, threshold, left, right in stumps:
        scores += np.where(X[:, column] <= threshold, left, right)
    return scores


def fit_stumps(groups: list, width: int, rounds: int = 150, rate: float = 0.3):
    """Gradient-boosted stumps on the same conditional-logit loss (Newton steps): each round
    one split of one feature, fitted to every option's gradient."""
    blocks = [_options(np.asarray(g[0], dtype=float).reshape(-1, width), g[1]) for g in groups]
    X = np.vstack(blocks)
    page = np.repeat(np.arange(len(groups)), [len(b) for b in blocks])
    starts = np.cumsum([0] + [len(b) for b in blocks[:-1]])
    y = np.zeros(len(X))
    y[[start + min(g[2], len(b) - 1) for start, g, b in zip(starts, groups, blocks)]] = 1.0
    weight = np.asarray([g[3] for g in groups], dtype=float)[page]
    order = np.argsort(X, axis=0, kind="stable")
    scores, stumps = np.zeros(len(X)), []
    for _ in range(rounds):
        top = np.full(len(groups), -np.inf)
        np.maximum.at(top, page, scores)
        e = np.exp(scores - top[page])
        z = np.zeros(len(groups))
        np.add.at(z, page, e)
        p = e / z[page]
        g, h = weight * (y - p), weight * np.maximum(p * (1 - p), 1e-6)
        best = None
        for column in range(X.shape[1]):
            idx = order[:, column]
            values = X[idx, column]
            gl, hl = np.cumsum(g[idx])[:-1], np.cumsum(h[idx])[:-1]
            gr, hr = g.sum() - gl, h.sum() - hl
            gain = gl ** 2 / (hl + 1.0) + gr ** 2 / (hr + 1.0)
            gain[values[:-1] == values[1:]] = -1.0  # no split between equal values
            at = int(np.argmax(gain))
            if best is None or gain[at] > best[0]:
                best = (gain[at], column, (values[at] + values[at + 1]) / 2, rate * gl[at] / (hl[at] + 1.0),
                        rate * gr[at] / (hr[at] + 1.0))
        _, column, threshold, left, right = best
        stumps.append((column, float(threshold), float(left), float(right)))
        scores += np.where(X[:, column] <= threshold, left, right)
    return {"learner": "stumps", "stumps": stumps}


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


def _rules(html: str, url: str) -> tuple:
    record = extract_product(html, url)
    return record["price"], record["sku"]


def page_features(folders, score, build):
    """(feature names, one record per page: its candidates' rows, the right one, the rules' price)."""
    data, feature_names, code_names = [], [], []
    for key, html, url, shop, price, skus, is_eval, kind in pages(folders, score, build):
        stripped = score.strip_machine_readable(html)
        tree = parse_page(stripped)
        tags, facts = candidates(tree, url)
        code_names_, codes, code_rows = code_features(code_candidates(tree, url), facts.get("size", 1))
        names, rows = features(tags, facts)
        right = next((i for i, tag in enumerate(tags) if same(tag.amount, price)), len(tags))
        data.append({"key": key, "shop": shop, "price": price, "eval": is_eval, "kind": kind, "rows": rows,
                     "null": null_row(tags, facts, rows, names), "right": right, "amounts": [t.amount for t in tags],
                     "code_rows": code_rows, "codes": codes, "skus": skus,
                     "code_right": next((i for i, c in enumerate(codes) if c in skus), len(codes)),
                     **dict(zip(("rules", "rules_sku"), _rules(stripped, url)))})
        data[-1]["code_null"] = [1.0, float(facts.get("h1") is None), float(not facts.get("buttons")),
                                 math.log1p(len(codes))]
        feature_names, code_names = names or feature_names, code_names or code_names_
    return {"price": feature_names, "sku": code_names}, data


MODES = ("rules", "model", "combined", "gated")


def answers(d: dict) -> dict:
    """Each mode's price for page record ``d`` (its ``model`` pick set): combined is the rules'
    price, else the model's; gated fills with the model's only on a page with a buy button."""
    fill = d["rules"] if d["rules"] is not None else d["model"]
    has_button = not d["null"][NULL_NAMES.index("null_no_button")]
    return {"rules": d["rules"], "model": d["model"], "combined": fill,
            "gated": fill if d["rules"] is not None or has_button else None}


def training(pages_: list, share: float) -> list:
    """fit()'s groups; the non-product pages weigh ``share`` of the product pages in all."""
    negatives = sum(d["kind"] in NEGATIVE_TYPES for d in pages_)
    weight = share * (len(pages_) - negatives) / negatives if negatives else 1.0
    return [(d["rows"], d["null"], d["right"], weight if d["kind"] in NEGATIVE_TYPES else 1.0)
            for d in pages_ if weight or d["kind"] not in NEGATIVE_TYPES]


def pick(model, d: dict):
    chosen = predict(model, d["rows"], d["null"])
    return d["amounts"][chosen] if chosen is not None else None


def leave_one_shop_out(data: list, width: int, share: float, learner: str) -> dict:
    """shop -> mode -> score.py's (TP, FP, FN) per page, the model trained without the shop."""
    evals = [d for d in data if d["eval"]]
    table = defaultdict(lambda: {mode: [] for mode in MODES})
    for shop in sorted({d["shop"] for d in evals}):
        model = fit(training([d for d in data if d["shop"] != shop], share), width, learner)
        for d in (d for d in evals if d["shop"] == shop):
            d["model"] = pick(model, d)
            for mode, got in answers(d).items():
                table[shop][mode].append(counts(d["price"], got))
    return table


def held_out_fires(data: list, width: int, share: float, learner: str) -> tuple[dict, list]:
    """kind -> mode -> pages given a price, of the non-product pages, each half held out in turn."""
    negatives = [d for d in data if d["kind"] in NEGATIVE_TYPES]
    fired, where = defaultdict(lambda: defaultdict(int)), []
    for fold in (0, 1):
        held = {id(d) for d in negatives[fold::2]}
        model = fit(training([d for d in data if id(d) not in held], share), width, learner)
        for d in negatives[fold::2]:
            d["model"] = pick(model, d)
            fired[d["kind"]]["pages"] += 1
            for mode, got in answers(d).items():
                fired[d["kind"]][mode] += got is not None
            if d["model"] is not None:
                where.append(f"{d['kind']} {d['key'][:40]} {d['model']}")
    return fired, where


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path, help="fixture folders, product-visible among them")
    ap.add_argument("--share", type=float, default=1.0,
                    help="the non-product pages' weight in training, as a share of the product pages' (0: left out)")
    ap.add_argument("--learner", choices=("logit", "stumps"), default="logit",
                    help="a linear conditional logit, or boosted stumps on the same loss")
    ap.add_argument("--misses", type=int, default=10, metavar="N",
                    help="non-product pages listed where the model fired")
    ap.add_argument("--cache", type=Path, metavar="PATH", help="keep the pages' features here (read if present)")
    ap.add_argument("--write", type=Path, metavar="PATH", help="write the weights trained on every page here")
    args = ap.parse_args()
    visible = next(f for f in args.folders if (f / "build.py").exists())
    score = load_fixture(visible)
    sys.path.insert(0, str(visible))
    import build  # noqa: PLC0415  (product-visible's labelling rules)

    if args.cache and args.cache.exists():
        names, data = json.loads(args.cache.read_text())
    else:
        names, data = page_features(args.folders, score, build)
        if args.cache:
            args.cache.write_text(json.dumps([names, data]))
    print(f"{len(data)} pages: " + ", ".join(f"{k} {sum(d['kind'] == k for d in data)}"
                                             for k in sorted({d['kind'] for d in data})))
    evals = [d for d in data if d["eval"]]
    reachable = sum(d["right"] < len(d["amounts"]) for d in evals)
    print(f"product-visible pages whose price is among the candidates: {reachable}/{len(evals)}")

    report_shops(leave_one_shop_out(data, len(names["price"]), args.share, args.learner), evals)
    report_skus(data, len(names["sku"]), args.share, args.learner)
    fired, where = held_out_fires(data, len(names["price"]), args.share, args.learner)
    print("\na price named on non-product pages (held out): " + " / ".join(MODES))
    for kind, row in sorted(fired.items()):
        print(f"  {kind:14} {row['pages']:4d} pages: " + " / ".join(str(row[m]) for m in MODES))
    for line in where[:args.misses]:
        print(f"  model fired: {line}")
    if args.write:
        model = fit(training(data, args.share), len(names["price"]), args.learner)
        weights = {k: v if isinstance(v, str) else np.round(np.asarray(v, dtype=float), 6).tolist()
                   for k, v in model.items()}
        weights["features"], weights["null_features"] = names["price"], list(NULL_NAMES)
        args.write.write_text(json.dumps(weights, indent=1) + "\n")
        print(f"wrote {args.write}")


def report_skus(data: list, width: int, share: float, learner: str) -> None:
    """The same leave-one-shop-out comparison for the SKU: rules, model, rules else model."""
    evals = [d for d in data if d["eval"] and d["skus"]]
    known = [d for d in data if d["skus"] or d["kind"] in NEGATIVE_TYPES]
    rows = {mode: [] for mode in ("rules", "model", "combined")}
    for shop in sorted({d["shop"] for d in evals}):
        train = [dict(d, rows=d["code_rows"], null=d["code_null"], right=d["code_right"])
                 for d in known if d["shop"] != shop]
        model = fit(training(train, share), width, learner)
        for d in (d for d in evals if d["shop"] == shop):
            chosen = predict(model, d["code_rows"], d["code_null"])
            d["model_sku"] = d["codes"][chosen] if chosen is not None else None
            got = {"rules": d["rules_sku"], "model": d["model_sku"], "combined": d["rules_sku"] or d["model_sku"]}
            for mode, value in got.items():
                rows[mode].append((0, 0, 1) if value is None else (1, 0, 0) if value in d["skus"] else (0, 1, 1))
    reachable = sum(d["code_right"] < len(d["codes"]) for d in evals)
    print(f"\nsku, leave-one-shop-out ({reachable}/{len(evals)} pages with the sku among the candidates)")
    print(f"{'total':9}    F1      P   TP  FP  FN")
    for mode, counted in rows.items():
        value, p, tp, fp, fn = f1(counted)
        print(f"{mode:9} {value:.3f}  {p:.3f}  {tp:3d} {fp:3d} {fn:3d}")
    for d in evals:
        if d["rules_sku"] not in d["skus"] or d["model_sku"] not in d["skus"]:
            print(f"  {d['key'][:8]:8} {d['shop'][:14]:14} want {d['skus'][:2]} rules {d['rules_sku']} "
                  f"model {d['model_sku']}")


def report_shops(table: dict, evals: list) -> None:
    """The per-shop table, the totals and the pages where the rules or the model miss."""
    print(f"\n{'shop':20} {'n':>3}  " + "  ".join(f"{m:>8}" for m in MODES) + "   (price F1, leave-one-shop-out)")
    for shop, modes in sorted(table.items(), key=lambda kv: (-len(kv[1]["rules"]), kv[0])):
        print(f"{shop:20} {len(modes['rules']):3d}  " + "  ".join(f"{f1(modes[m])[0]:8.3f}" for m in MODES))
    print(f"\n{'total':9}    F1      P   TP  FP  FN")
    for mode in MODES:
        value, p, tp, fp, fn = f1([row for modes in table.values() for row in modes[mode]])
        print(f"{mode:9} {value:.3f}  {p:.3f}  {tp:3d} {fp:3d} {fn:3d}")
    for d in evals:
        if not same(d["rules"], d["price"]) or not same(d["model"], d["price"]):
            print(f"  {d['key'][:8]:8} {d['shop'][:14]:14} want {d['price']} rules {d['rules']} model {d['model']}"
                  f" (right candidate {'#' + str(d['right']) if d['right'] < len(d['amounts']) else 'none'}"
                  f" of {len(d['amounts'])})")


if __name__ == "__main__":
    main()
