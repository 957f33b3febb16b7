"""Per-stage cost of the per-page hot path on real pages: ms/page of each pure function a
crawled HTML page goes through (charset, verdict, structured data, embedded state, markdown,
frontmatter, structure signature, links), in pipeline order, and a digest of each stage's outputs
so a change can be shown to change nothing (a change in the markdown also moves the frontmatter's
digest). Times are CPU time of this process, so other processes on a busy machine do not count.

    .venv/bin/python bench/bench_stages.py [PAGES_DIR ...] [--pages 200] [--repeat 1] [--digest] [--str]

PAGES_DIR is the eval set (its ``expectations.json`` and ``pages/``; default
../shared/fixtures/eval beside the repository) or any folder of ``*.html``/``*.html.gz`` pages
(their URL from a ``labels.json`` beside them when it has one); each folder is reported on its
own, then the repository's demo pages. ``--str``: the public str functions instead of the page
forms (each parses the page itself), to show that the wrappers change nothing either.
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
from crawlforge.extract.embedded import embedded_state_of, extract_embedded_state  # noqa: E402
from crawlforge.extract.frontmatter import render_document  # noqa: E402
from crawlforge.extract.markdown import page_content  # noqa: E402
from crawlforge.extract.product import extract_product  # noqa: E402
from crawlforge.extract.structure import page_signature, structure_signature  # noqa: E402
from crawlforge.extract.structured import extract_structured_data, page_structured_data  # noqa: E402
from crawlforge.extract.verdict import document_verdict, needs_browser, page_doc, parsed_page_doc  # noqa: E402
from crawlforge.pipelines.frontmatter import build_frontmatter  # noqa: E402
from crawlforge.pipelines.markdown import taking_content  # noqa: E402
from crawlforge.pipelines.signature import content_hash  # noqa: E402
from crawlforge.spiders.site import page_links  # noqa: E402

EVAL = ROOT.parent / "shared" / "fixtures" / "eval"
DEMO = ROOT / "fixtures" / "demo"


def load_pages(folder: Path, count: int) -> list[dict]:
    """The first ``count`` pages of a folder (sorted by file name): the eval set's pages with a
    URL, or any folder's ``*.html``/``*.html.gz`` files, each decoded as the crawl decodes it."""
    if (folder / "expectations.json").exists():
        records = json.loads((folder / "expectations.json").read_text(encoding="utf-8"))
        records = sorted((r for r in records if r.get("url") and r["file"].endswith(".html")),
                         key=lambda r: r["file"])[:count]
        pages = [{"url": r["url"], "body": (folder / "pages" / r["file"]).read_bytes()} for r in records]
    else:
        labels = json.loads((folder / "labels.json").read_text("utf-8")) if (folder / "labels.json").exists() else {}
        paths = sorted(p for p in folder.rglob("*") if p.name.endswith((".html", ".html.gz")))[:count]
        pages = [{"url": _label_url(labels, folder, path), "body": _body(path)} for path in paths]
    for page in pages:
        decoded = decode_body(page["body"], "text/html")
        page["html"], page["encoding"] = decoded["text"], decoded["encoding"]
    return pages


def _body(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()


def _label_url(labels: dict, folder: Path, path: Path) -> str:
    """The page's URL in ``labels.json`` (keyed by its name without ``.html``) or its
    ``ground-truth/NAME.json`` (wcxb-dev), else one made up."""
    name = path.name.split(".html")[0]
    truth = folder / "ground-truth" / f"{name}.json"
    label = json.loads(truth.read_text("utf-8")) if truth.exists() else labels.get(name)
    if isinstance(label, dict) and isinstance(label.get("url"), str):
        return label["url"]
    return f"https://example.com/{path.relative_to(folder).as_posix()}"


def verdict(page: dict) -> tuple:
    # the page the later stages are given, reading the body when it is the text's UTF-8 (as parsed.carrying_page)
    page["parsed"] = ParsedPage(page["html"], utf8_body(page["body"], page["html"], page.get("encoding")))
    doc = parsed_page_doc(page["parsed"], page["url"], 200, whole_text=False)  # all the verdict reads
    return document_verdict(doc, {"fetcher": "scrapy", "rendered": False}, page["parsed"]), needs_browser(doc, page["parsed"])


def structured(page: dict) -> dict:
    data = page_structured_data(page["parsed"], page["url"])
    page["structured_data"] = data.to_frontmatter()
    return {"data": page["structured_data"], "provenance": data.provenance, "conflicts": data.conflicts,
            "errors": data.errors}


def markdown(page: dict) -> str:
    page["markdown"] = taking_content(page["parsed"], page["url"]).markdown  # as MarkdownPipeline
    return page["markdown"]


def frontmatter(page: dict) -> str:
    item = ItemAdapter({"url": page["url"], "html": page["html"], "structured_data": page["structured_data"]})
    fields = {**build_frontmatter(item, False, page.get("parsed")), "processed_at": "fixed"}
    return render_document(fields, page["markdown"], 64 * 1024)  # dumped once, as in the pipeline


def structure(page: dict) -> dict:
    content_hash(page["markdown"], page["html"])  # timed here, digested with the markdown
    return page["parsed"].handed(page_signature)


def links(page: dict) -> list:
    return page_links(page["parsed"], page["url"], page.get("encoding") or "utf-8")


# In pipeline order: later stages read what earlier ones left on the page (the site spider reads
# the links before it hands on the item).
STAGES = (
    ("charset", lambda page: choose_charset(page["body"], "text/html")),
    ("verdict", verdict),
    ("structured", structured),
    ("embedded", lambda page: embedded_state_of(page["parsed"])),
    ("links", links),
    ("markdown", markdown),
    ("frontmatter", frontmatter),
    ("structure", structure),
)


def str_markdown(page: dict) -> tuple:
    content = page_content(page["html"], page["url"])
    page["markdown"] = content.markdown
    return tuple(content)


def str_structured(page: dict) -> dict:
    data = extract_structured_data(page["html"], page["url"])
    page["structured_data"] = data.to_frontmatter()
    return data.to_dict()


# The public str functions, each given the page's text, in the same order.
STR_STAGES = (
    ("charset", lambda page: choose_charset(page["body"], "text/html")),
    ("verdict", lambda page: document_verdict(page_doc(page["html"], page["url"], 200))),
    ("structured", str_structured),
    ("embedded", lambda page: extract_embedded_state(page["html"])),
    ("product", lambda page: extract_product(page["html"], page["url"])),
    ("markdown", str_markdown),
    ("frontmatter", frontmatter),
    ("structure", lambda page: structure_signature(page["html"])),
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
    parser.add_argument("dirs", nargs="*", type=Path, default=[EVAL], metavar="PAGES_DIR")
    parser.add_argument("--pages", type=int, default=200, help="pages of each folder (the demo pages are added)")
    parser.add_argument("--repeat", type=int, default=1, help="passes over the pages; the fastest counts")
    parser.add_argument("--digest", action="store_true", help="print a sha256 of each stage's outputs")
    parser.add_argument("--str", action="store_true", help="the public str functions, not the page forms")
    args = parser.parse_args()
    stages = STR_STAGES if args.str else STAGES
    for folder in [*args.dirs, DEMO]:
        print(f"{folder}:")
        report(load_pages(folder, args.pages), stages, args.repeat, args.digest)


def report(pages: list[dict], stages: tuple, repeat: int, digest: bool) -> None:
    best = {name: float("inf") for name, _ in stages}
    digests = {}
    for _ in range(repeat):
        seconds = dict.fromkeys(best, 0.0)
        outputs = {name: hashlib.sha256() for name in best}
        for page in pages:
            for name, stage in stages:
                start = time.process_time()
                result = stage(page)
                seconds[name] += time.process_time() - start
                outputs[name].update(json.dumps(result, sort_keys=True, default=str).encode())
        best = {name: min(best[name], seconds[name]) for name in best}
        digests = {name: digest.hexdigest()[:16] for name, digest in outputs.items()}
    total = sum(best.values())
    print(f"{len(pages)} pages ({sum(len(p['body']) for p in pages) / len(pages) / 1024:.0f} KiB mean)")
    print(f"{'stage':12s} {'ms/page':>8s} {'share':>6s}" + ("  digest" if digest else ""))
    for name, _ in stages:
        line = f"{name:12s} {1000 * best[name] / len(pages):8.2f} {best[name] / total:6.0%}"
        print(line + (f"  {digests[name]}" if digest else ""))
    print(f"{'total':12s} {1000 * total / len(pages):8.2f}")


if __name__ == "__main__":
    main()
