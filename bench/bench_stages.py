"""Per-stage cost of the per-page hot path on real pages: ms/page of each pure function a
crawled HTML page goes through (charset, verdict, structured data, embedded state, markdown,
frontmatter, structure signature), in pipeline order, and a digest of each stage's outputs so
a speed-up can be shown to change nothing (a change in the markdown also moves the frontmatter's
digest). Times are CPU time of this process, so other processes on a busy machine do not count.

    .venv/bin/python bench/bench_stages.py [DIR ...] [--pages 200] [--repeat 1] [--digest]

Each DIR is a dev set: the eval set (its ``expectations.json`` and ``pages/``; the default,
../shared/fixtures/eval beside the repository) or any folder of ``*.html`` / ``*.html.gz``
pages (wcxb-dev, product-dev, real), each page's URL read from its ``ground-truth/ID.json`` or
the folder's ``labels.json`` when one gives it. The repository's demo pages are added.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

from itemadapter import ItemAdapter

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crawlforge.extract.charset import choose_charset, decode_body, utf8_body  # noqa: E402
from crawlforge.extract.dom import ParsedPage  # noqa: E402
from crawlforge.extract.embedded import embedded_state_of  # noqa: E402
from crawlforge.extract.frontmatter import render_document  # noqa: E402
from crawlforge.extract.markdown import page_markdown  # noqa: E402
from crawlforge.extract.structure import page_signature  # noqa: E402
from crawlforge.extract.structured import page_structured_data  # noqa: E402
from crawlforge.extract.verdict import document_verdict, needs_browser, parsed_page_doc  # noqa: E402
from crawlforge.pipelines.frontmatter import build_frontmatter  # noqa: E402
from crawlforge.pipelines.structure import content_hash  # noqa: E402

EVAL = ROOT.parent / "shared" / "fixtures" / "eval"
DEMO = ROOT / "fixtures" / "demo"


def folder_pages(folder: Path, count: int) -> list[dict]:
    """The first ``count`` pages of a dev set (sorted by path), each with its URL where the set
    records one (a made-up one from its path otherwise)."""
    if (folder / "expectations.json").exists():
        records = json.loads((folder / "expectations.json").read_text(encoding="utf-8"))
        records = sorted((r for r in records if r.get("url") and r["file"].endswith(".html")),
                         key=lambda r: r["file"])[:count]
        return [{"url": r["url"], "body": (folder / "pages" / r["file"]).read_bytes()} for r in records]
    labels = folder / "labels.json"
    urls = json.loads(labels.read_text(encoding="utf-8")) if labels.exists() else {}
    paths = sorted(p for p in folder.rglob("*") if p.name.endswith((".html", ".html.gz")))[:count]
    pages = []
    for path in paths:
        name = path.relative_to(folder).as_posix()
        truth = folder / "ground-truth" / (path.name.split(".")[0] + ".json")
        url = (json.loads(truth.read_text(encoding="utf-8")).get("url") if truth.exists()
               else (urls.get(path.name.split(".")[0]) or urls.get(name) or {}).get("url"))
        body = path.read_bytes()
        pages.append({"url": url or f"https://example.com/{name}",
                      "body": gzip.decompress(body) if path.name.endswith(".gz") else body})
    return pages


def load_pages(folders: list[Path], count: int) -> list[dict]:
    """The first ``count`` pages of each dev set, then the demo pages."""
    pages = [page for folder in folders for page in folder_pages(folder, count)]
    pages += [{"url": f"http://127.0.0.1/{path.relative_to(DEMO)}", "body": path.read_bytes()}
              for path in sorted(DEMO.rglob("*.html"))]
    for page in pages:
        decoded = decode_body(page["body"], "text/html")
        page["html"], page["encoding"] = decoded["text"], decoded["encoding"]
    return pages


def verdict(page: dict) -> tuple:
    # the one parse the later stages share, reading the body when it is the text's UTF-8 (as parsed.response_page)
    page["parsed"] = ParsedPage(page["html"], utf8_body(page["body"], page["html"], page.get("encoding")))
    doc = parsed_page_doc(page["parsed"], page["url"], 200, whole_text=False)  # all the verdict reads
    return document_verdict(doc, {"fetcher": "scrapy", "rendered": False}), needs_browser(doc)


def structured(page: dict) -> dict:
    data = page_structured_data(page["parsed"], page["url"])
    page["structured_data"] = data.to_frontmatter()
    return {"data": page["structured_data"], "provenance": data.provenance, "conflicts": data.conflicts,
            "errors": data.errors}


def markdown(page: dict) -> str:
    # the last stage to read the tree prunes it itself, the structure signature made from it first (as MarkdownPipeline)
    page["parsed"].shared(page_signature)
    page["markdown"] = page_markdown(page["parsed"], page["url"], take=True)
    return page["markdown"]


def frontmatter(page: dict) -> str:
    item = ItemAdapter({"url": page["url"], "html": page["html"], "structured_data": page["structured_data"]})
    fields = {**build_frontmatter(item, False), "processed_at": "fixed"}
    return render_document(fields, page["markdown"], 64 * 1024)  # dumped once, as in the pipeline


def structure(page: dict) -> dict:
    content_hash(page["markdown"], page["html"])  # timed here, digested with the markdown
    return page["parsed"].handed(page_signature)


# In pipeline order: later stages read what earlier ones left on the page.
STAGES = (
    ("charset", lambda page: choose_charset(page["body"], "text/html")),
    ("verdict", verdict),
    ("structured", structured),
    ("embedded", lambda page: embedded_state_of(page["parsed"])),
    ("markdown", markdown),
    ("frontmatter", frontmatter),
    ("structure", structure),
)


def page_path(body: bytes, url: str) -> dict:
    """Every stage on one raw body, as a crawled page goes through them (decoding chooses the
    charset)."""
    decoded = decode_body(body, "text/html")
    page = {"url": url, "body": body, "html": decoded["text"], "encoding": decoded["encoding"]}
    for _, stage in STAGES[1:]:
        stage(page)
    return page


def stages_path(names: list[str], bodies: list[bytes], url: str):
    """``page_path`` running only the named stages, as ``run(index, body)`` for the page at
    ``index`` of ``bodies`` (its bytes may have changed, e.g. a space added): what the other
    stages leave on the page for them (the markdown, the structured data) is made now, from
    each body as it is."""
    unknown = set(names) - {name for name, _ in STAGES}
    if unknown:
        raise SystemExit(f"unknown stages: {', '.join(sorted(unknown))}")
    left = [{key: page[key] for key in ("markdown", "structured_data")} for page in
            (page_path(body, url) for body in bodies)]
    stages = [stage for name, stage in STAGES[1:] if name in names]

    def run(index: int, body: bytes) -> dict:
        decoded = decode_body(body, "text/html")
        page = {"url": url, "body": body, "html": decoded["text"], "encoding": decoded["encoding"], **left[index]}
        for stage in stages:
            stage(page)
        return page

    return run


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="*", type=Path, default=[EVAL], metavar="DIR")
    parser.add_argument("--pages", type=int, default=200, help="pages of each DIR (the demo pages are added)")
    parser.add_argument("--repeat", type=int, default=1, help="passes over the pages; the fastest counts")
    parser.add_argument("--digest", action="store_true", help="print a sha256 of each stage's outputs")
    args = parser.parse_args()
    pages = load_pages(args.dirs, args.pages)
    best = {name: float("inf") for name, _ in STAGES}
    digests = {}
    for _ in range(args.repeat):
        seconds = dict.fromkeys(best, 0.0)
        outputs = {name: hashlib.sha256() for name in best}
        for page in pages:
            for name, stage in STAGES:
                start = time.process_time()
                result = stage(page)
                seconds[name] += time.process_time() - start
                outputs[name].update(json.dumps(result, sort_keys=True, default=str).encode())
        best = {name: min(best[name], seconds[name]) for name in best}
        digests = {name: digest.hexdigest()[:16] for name, digest in outputs.items()}
    total = sum(best.values())
    print(f"{len(pages)} pages ({sum(len(p['body']) for p in pages) / len(pages) / 1024:.0f} KiB mean)")
    print(f"{'stage':12s} {'ms/page':>8s} {'share':>6s}" + ("  digest" if args.digest else ""))
    for name, _ in STAGES:
        line = f"{name:12s} {1000 * best[name] / len(pages):8.2f} {best[name] / total:6.0%}"
        print(line + (f"  {digests[name]}" if args.digest else ""))
    print(f"{'total':12s} {1000 * total / len(pages):8.2f}")


if __name__ == "__main__":
    main()
