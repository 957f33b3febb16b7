"""Field accuracy of a real model filling a product schema from each page's document (frontmatter
+ markdown, what the LLM pipeline sends) against its markdown alone, with the page fitted to the
model's context; and how often it gives a right price where ``extract_product`` gave none.

    python bench/bench_llm.py [FOLDER ...] [--pages N] [--ids ID,ID] [--whole-page]
                              [--inputs document,markdown] [--schema MODULE:MODEL]
                              [--threads 1] [--base-url URL --model NAME] [--max-tokens 96]
                              [--token-budget N] [--visible]

FOLDER: a product set with labels.json (default ../shared/fixtures/product-visible, whose labels
point into product-dev too). Currency labels missing there come from
fixtures/llm/product-dev-currency.json; names are scored only where labelled. Without
--base-url the local model (crawlforge.testing.local_model, 4,096-token context) is started.
``--whole-page`` sends the page's whole markdown (main_content off), so long pages go over the
context; ``--visible`` strips each page of its machine-readable data first (product-visible's
rule), where ``extract_product`` mostly finds no price. Prints one line per page to stderr as it goes, the machine's load, and the tables.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib.util
import json
import os
import sys
import time
import unicodedata
from decimal import Decimal, InvalidOperation
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from itemadapter import ItemAdapter  # noqa: E402

from crawlforge import settings as defaults  # noqa: E402
from crawlforge.extract.frontmatter import render_document  # noqa: E402
from crawlforge.extract.markdown import html_to_markdown  # noqa: E402
from crawlforge.extract.product import extract_product  # noqa: E402
from crawlforge.extract.structured import extract_structured_data  # noqa: E402
from crawlforge.llm import Client, extract  # noqa: E402
from crawlforge.pipelines.frontmatter import build_frontmatter  # noqa: E402
from crawlforge.pipelines.llm import load_schema, page_text  # noqa: E402
from crawlforge.testing import local_model  # noqa: E402

DEFAULT_FOLDER = ROOT.parent / "shared" / "fixtures" / "product-visible"
CURRENCIES = ROOT / "fixtures" / "llm" / "product-dev-currency.json"
FIELDS = ("name", "price", "currency")


def visible_mode(folder: Path):
    """The set's own ``strip_machine_readable`` (product-visible/score.py): the page without
    JSON-LD, microdata, meta tags and scripts, as a page whose data only its text shows."""
    spec = importlib.util.spec_from_file_location("score", folder / "score.py")
    score = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(score)
    return score.strip_machine_readable


def load_pages(folder: Path, count: int, ids: set[str], whole_page: bool, visible: bool) -> list[dict]:
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    strip = visible_mode(folder) if visible else None
    currencies = json.loads(CURRENCIES.read_text(encoding="utf-8"))
    chosen = [(k, v) for k, v in labels.items() if k in ids] if ids else list(labels.items())[:count]
    pages = []
    for page_id, label in chosen:
        path = folder / label.get("page", f"pages/{page_id}.html.gz")
        html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        html = strip(html) if strip else html
        url = label["url"]
        markdown = html_to_markdown(html, url, main_content=not whole_page)
        structured = extract_structured_data(html, url).to_frontmatter()
        frontmatter = build_frontmatter(ItemAdapter({"url": url, "html": html, "structured_data": structured}),
                                        defaults.CRAWLFORGE_FRONTMATTER_EMBEDDED_STATE)
        document = render_document(frontmatter, markdown, defaults.CRAWLFORGE_FRONTMATTER_MAX_BYTES)
        rule_price = extract_product(html, url).get("price")
        pages.append({"id": page_id, "bytes": len(html.encode("utf-8")), "prices": label["price"],
                      "currency": label.get("currency") or currencies.get(page_id), "name": label.get("name"),
                      "rule_price_right": rule_price is not None and same_price(rule_price, label["price"]),
                      "rule_price_none": rule_price is None,
                      "item": ItemAdapter({"markdown": markdown, "document": document})})
    return pages


def same_price(value, accepted: list[str]) -> bool:
    try:
        number = Decimal(str(value))
        return any(number == Decimal(a) for a in accepted)
    except (InvalidOperation, ValueError):
        return False


def folded(text) -> str:
    return " ".join(unicodedata.normalize("NFKC", str(text)).casefold().split())


def verdict(field: str, value, page: dict) -> str | None:
    """right / wrong / missing, or None when the page has no label for the field."""
    label = {"price": page["prices"], "currency": page["currency"], "name": page["name"]}[field]
    if not label:
        return None
    if value in (None, ""):
        return "missing"
    if field == "price":
        return "right" if same_price(value, label) else "wrong"
    if field == "currency":
        return "right" if folded(value).upper() == label.upper() else "wrong"
    return "right" if folded(value) == folded(label) else "wrong"


def run(pages: list[dict], client: Client, source: str, schema, token_budget: int, deadline: float) -> dict:
    totals = {f"{field}_{kind}": 0 for field in FIELDS for kind in ("right", "wrong", "missing", "labelled")}
    totals.update(dict.fromkeys(("both", "context_errors", "request_errors", "retries", "partial", "sent",
                                 "dropped", "pieces", "prompt", "seconds", "max_seconds",
                                 "rule_none", "llm_right_rule_none"), 0))
    for page in pages:
        start = time.monotonic()
        result = extract(page_text(page["item"], source), schema, client=client, token_budget=token_budget or None,
                         deadline=deadline)
        seconds = time.monotonic() - start
        data = result.data or result.partial or {}
        marks = {}
        for field in FIELDS:
            marks[field] = verdict(field, data.get(field), page)
            if marks[field]:
                totals[f"{field}_{marks[field]}"] += 1
                totals[f"{field}_labelled"] += 1
        totals["both"] += marks["price"] == "right" and marks["currency"] == "right"
        totals["rule_none"] += page["rule_price_none"]
        totals["llm_right_rule_none"] += page["rule_price_none"] and marks["price"] == "right"
        totals["context_errors"] += any(e["type"] == "context" or "context" in e["message"] for e in result.errors)
        totals["request_errors"] += any(e["type"] in ("request", "deadline") for e in result.errors)
        totals["retries"] += result.usage["corrections"]
        totals["partial"] += bool(result.partial)
        totals["sent"] += result.input["tokens_sent"]
        totals["dropped"] += result.input["tokens_dropped"]
        totals["pieces"] += result.input["pieces"]
        totals["prompt"] += result.usage["prompt_tokens"]
        totals["seconds"] += seconds
        totals["max_seconds"] = max(totals["max_seconds"], seconds)
        print(f"{source:<9} {page['id'][:8]} {page['bytes'] / 1e6:4.2f} MB  price {data.get('price')!s:<9} "
              f"({'/'.join(page['prices'])}) {marks['price']:<7} currency {data.get('currency')!s:<4} "
              f"({page['currency']}) {marks['currency']!s:<7} name {marks['name']!s:<7} "
              f"sent {result.input['tokens_sent']:>5} dropped {result.input['tokens_dropped']:>5} "
              f"calls {result.usage['calls']} {seconds:6.1f} s"
              f"{'  errors: ' + '; '.join(e['message'][:60] for e in result.errors) if result.errors else ''}",
              file=sys.stderr, flush=True)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[DEFAULT_FOLDER])
    parser.add_argument("--pages", type=int, default=20, help="the first N pages of each folder")
    parser.add_argument("--ids", default="", help="these page ids only (comma-separated)")
    parser.add_argument("--whole-page", action="store_true", help="markdown of the whole page, not its main content")
    parser.add_argument("--visible", action="store_true",
                        help="pages stripped of machine-readable data (the folder's score.py, product-visible)")
    parser.add_argument("--threads", type=int, default=1, help="model threads when starting the local model")
    parser.add_argument("--base-url", help="an OpenAI-compatible server instead of the local model")
    parser.add_argument("--model", default=local_model.MODEL_NAME)
    parser.add_argument("--inputs", default="document,markdown")
    parser.add_argument("--schema", default="tests.llm_schemas:RequiredProduct")
    parser.add_argument("--max-tokens", type=int, default=96, help="answer length limit")
    parser.add_argument("--token-budget", type=int, default=defaults.CRAWLFORGE_LLM_TOKEN_BUDGET,
                        help="at most this many page tokens a call (0: what the context leaves)")
    parser.add_argument("--deadline", type=float, default=defaults.CRAWLFORGE_LLM_PAGE_DEADLINE)
    args = parser.parse_args()
    ids = {i for i in args.ids.split(",") if i}
    pages = [page for folder in args.folders for page in load_pages(folder, args.pages, ids, args.whole_page, args.visible)]
    schema = load_schema(args.schema)
    server = contextlib.nullcontext(args.base_url) if args.base_url else local_model.running(args.threads)
    load_before = os.getloadavg()
    rows = []
    with server as base_url:
        client = Client(base_url, args.model, max_tokens=args.max_tokens, timeout=args.deadline, max_retries=0)
        for source in args.inputs.split(","):
            rows.append((source, run(pages, client, source, schema, args.token_budget, args.deadline)))
    load_after = os.getloadavg()
    n = len(pages)
    print(f"{n} pages of {', '.join(str(f) for f in args.folders)}"
          f"{' (ids ' + args.ids + ')' if ids else ''}{', whole page' if args.whole_page else ''}{', visible mode' if args.visible else ''}; "
          f"model {args.model}, context {client.context_tokens() or '?'}, max_tokens {args.max_tokens}, "
          f"schema {args.schema}, token budget {args.token_budget or 'from the context'}; load average {load_before[0]:.1f} before, {load_after[0]:.1f} after "
          f"({os.cpu_count()} cores)")
    print("| input | price right/wrong/missing | currency r/w/m | name r/w/m (labelled) | price+currency "
          "| context errors | request errors | retries | partial | tokens sent/page | dropped/page "
          "| pieces | s/page | max s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for source, t in rows:
        def rwm(field):
            return f"{t[field + '_right']}/{t[field + '_wrong']}/{t[field + '_missing']}"
        print(f"| {source} | {rwm('price')} | {rwm('currency')} | {rwm('name')} ({t['name_labelled']}) "
              f"| {t['both']}/{n} | {t['context_errors']} | {t['request_errors']} | {t['retries']} | {t['partial']} "
              f"| {t['sent'] / n:.0f} | {t['dropped'] / n:.0f} | {t['pieces']} | {t['seconds'] / n:.1f} "
              f"| {t['max_seconds']:.1f} |")
    for source, t in rows:
        print(f"{source}: extract_product gave no price on {t['rule_none']} pages; "
              f"the LLM gave the right price on {t['llm_right_rule_none']} of them")


if __name__ == "__main__":
    main()
