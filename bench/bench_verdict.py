"""False positives and speed of the verdict: run document_verdict on every shared real wall and
normal page (real/{article,product,jsstate}, eval/pages) and print the figures.

Usage: .venv/bin/python bench/bench_verdict.py [../shared/fixtures]
"""

import gzip
import sys
import time
from pathlib import Path

DEFAULT_FIXTURES = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures"  # beside the checkout

from crawlforge.extract.charset import decode_body
from crawlforge.extract.verdict import document_verdict, needs_browser, page_doc

PLAIN_FETCH = {"fetcher": "scrapy", "rendered": False}


def verdicts(paths):
    for path in paths:
        body = path.read_bytes()
        if path.suffix == ".gz":
            body = gzip.decompress(body)
        doc = page_doc(decode_body(body)["text"], "https://example.com/", 200)
        yield path, document_verdict(doc, PLAIN_FETCH), needs_browser(doc)


def report(label, paths, expect_success):
    start, wrong, shells = time.perf_counter(), [], 0
    for path, verdict, shell in verdicts(paths):
        shells += shell
        if verdict["success"] is not expect_success:
            wrong.append(f"{path.name}: {verdict.get('blocked') or verdict.get('error', '')[:100]}")
    seconds = time.perf_counter() - start
    print(f"{label}: {len(paths)} pages, {len(wrong)} wrong, {shells} marked needs_browser, "
          f"{seconds:.1f} s ({1000 * seconds / max(len(paths), 1):.1f} ms/page)")
    for line in wrong:
        print("   ", line)


def main(root):
    real = root / "real"
    normal = sorted(p for d in ("article", "product", "jsstate") for p in (real / d).iterdir())
    report("walls real/botwall", sorted((real / "botwall").iterdir()), False)
    report("normal real/{article,product,jsstate}", normal, True)
    report("normal eval/pages", sorted((root / "eval" / "pages").iterdir()), True)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_FIXTURES))
