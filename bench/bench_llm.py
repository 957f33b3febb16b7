"""Price / currency accuracy of a real model reading each product page's document (frontmatter +
markdown, what the LLM pipeline sends) against its markdown alone, with JSON object mode and
with structured output (json_schema).

    python bench/bench_llm.py [FOLDER] [--pages 20] [--threads 1] [--base-url URL --model NAME]
                              [--inputs document,markdown] [--formats object,schema]

FOLDER defaults to ../shared/fixtures/product-dev (labels.json: price; currency labels from
fixtures/llm/product-dev-currency.json). Without --base-url the local model
(crawlforge.testing.local_model) is started for the run. Each page's text is built with the
pipeline's own functions; the schema is crawlforge.llm.schemas:PageProduct. Prints one line
per page to stderr as it goes and the table at the end. The labels hold no product name, so
"name" counts answers that give one.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import sys
import time
from decimal import Decimal, InvalidOperation
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from itemadapter import ItemAdapter  # noqa: E402

from crawlforge import settings as defaults  # noqa: E402
from crawlforge.extract.frontmatter import render_document  # noqa: E402
from crawlforge.extract.markdown import html_to_markdown  # noqa: E402
from crawlforge.extract.structured import extract_structured_data  # noqa: E402
from crawlforge.llm import Client, extract  # noqa: E402
from crawlforge.llm.schemas import PageProduct  # noqa: E402
from crawlforge.pipelines.frontmatter import build_frontmatter  # noqa: E402
from crawlforge.pipelines.llm import page_text  # noqa: E402
from crawlforge.testing import local_model  # noqa: E402

DEFAULT_FOLDER = ROOT.parent / "shared" / "fixtures" / "product-dev"
CURRENCIES = ROOT / "fixtures" / "llm" / "product-dev-currency.json"


def load_pages(folder: Path, count: int) -> list[dict]:
    labels = json.loads((folder / "labels.json").read_text(encoding="utf-8"))
    currencies = json.loads(CURRENCIES.read_text(encoding="utf-8"))
    pages = []
    for page_id, label in list(labels.items())[:count]:
        html = gzip.decompress((folder / "pages" / f"{page_id}.html.gz").read_bytes()).decode("utf-8", "replace")
        url = label["url"]
        markdown = html_to_markdown(html, url)
        structured = extract_structured_data(html, url).to_frontmatter()
        frontmatter = build_frontmatter(ItemAdapter({"url": url, "html": html, "structured_data": structured}),
                                        defaults.CRAWLFORGE_FRONTMATTER_EMBEDDED_STATE)
        document = render_document(frontmatter, markdown, defaults.CRAWLFORGE_FRONTMATTER_MAX_BYTES)
        pages.append({"id": page_id, "prices": label["price"], "currency": currencies.get(page_id),
                      "item": ItemAdapter({"markdown": markdown, "document": document})})
    return pages


def same_price(value, accepted: list[str]) -> bool:
    try:
        number = Decimal(str(value))
        return any(number == Decimal(a) for a in accepted)
    except (InvalidOperation, ValueError):
        return False


def run(pages: list[dict], client: Client, source: str, token_budget: int, deadline: float) -> dict:
    totals = dict.fromkeys(("price", "currency", "both", "name", "parse_failures", "request_errors",
                            "repairs", "partial", "prompt", "completion", "seconds"), 0)
    for page in pages:
        start = time.monotonic()
        result = extract(page_text(page["item"], source), PageProduct, client=client,
                         token_budget=token_budget, deadline=deadline)
        seconds = time.monotonic() - start
        data = result.data or {}
        price = same_price(data.get("price"), page["prices"])
        currency = str(data.get("currency") or "").strip().upper() == page["currency"]
        totals["price"] += price
        totals["currency"] += currency
        totals["both"] += price and currency
        totals["name"] += bool(str(data.get("name") or "").strip())
        totals["parse_failures"] += any(e["type"] == "parse" for e in result.errors)
        totals["request_errors"] += any(e["type"] in ("request", "deadline") for e in result.errors)
        totals["repairs"] += result.usage["repairs"]
        totals["partial"] += bool(result.partial_items)
        totals["prompt"] += result.usage["prompt_tokens"]
        totals["completion"] += result.usage["completion_tokens"]
        totals["seconds"] += seconds
        print(f"{source:<10} {client.json_mode or 'plain':<6} {page['id'][:8]} price {data.get('price')!s:<9} "
              f"({'/'.join(page['prices'])}) currency {data.get('currency')!s:<4} ({page['currency']}) "
              f"{result.usage['prompt_tokens']:>5}+{result.usage['completion_tokens']:<3} tok {seconds:6.1f} s"
              f"{'  errors: ' + '; '.join(e['message'][:60] for e in result.errors) if result.errors else ''}",
              file=sys.stderr, flush=True)
    return totals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1, help="model threads when starting the local model")
    parser.add_argument("--base-url", help="an OpenAI-compatible server instead of the local model")
    parser.add_argument("--model", default=local_model.MODEL_NAME)
    parser.add_argument("--inputs", default="document,markdown")
    parser.add_argument("--formats", default="object,schema", help="object: JSON mode; schema: json_schema")
    parser.add_argument("--max-tokens", type=int, default=96, help="answer length limit")
    parser.add_argument("--token-budget", type=int, default=2500, help="estimated tokens per call (4096 context)")
    parser.add_argument("--deadline", type=float, default=defaults.CRAWLFORGE_LLM_PAGE_DEADLINE)
    args = parser.parse_args()
    pages = load_pages(args.folder, args.pages)
    server = contextlib.nullcontext(args.base_url) if args.base_url else local_model.running(args.threads)
    rows = []
    with server as base_url:
        for json_format in args.formats.split(","):
            for source in args.inputs.split(","):
                client = Client(base_url, args.model, json_mode=True if json_format == "object" else json_format,
                                max_tokens=args.max_tokens, timeout=args.deadline, max_retries=0)
                rows.append((source, json_format, run(pages, client, source, args.token_budget, args.deadline)))
    n = len(pages)
    print(f"{n} pages of {args.folder}, model {args.model}, max_tokens {args.max_tokens}")
    print("| input | format | price | currency | price+currency | name given | parse failures | repairs "
          "| partial | request errors | prompt tok/page | completion tok/page | s/page |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for source, json_format, t in rows:
        print(f"| {source} | {json_format} | {t['price']}/{n} | {t['currency']}/{n} | {t['both']}/{n} "
              f"({100 * t['both'] / n:.0f} %) | {t['name']}/{n} | {t['parse_failures']} | {t['repairs']} "
              f"| {t['partial']} | {t['request_errors']} | {t['prompt'] / n:.0f} | {t['completion'] / n:.0f} "
              f"| {t['seconds'] / n:.1f} |")


if __name__ == "__main__":
    main()
