"""The product-page path (``extract_structured_data`` + ``html_to_markdown``, as bench_structured
times it), or with ``--page-path`` the whole pure page path (``bench_stages.page_path``, as
bench_page_path times it), over a folder of pages, PASSES times, for counting instructions: a
count that does not move with the load of a shared machine, as CPU seconds do.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/bench_instructions.py 1
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/bench_instructions.py 2

The difference of the two "Collected" counts is one pass. ``--stages verdict,structure`` counts
only those stages of the page path (the decoding is always counted); what the others leave for
them (the markdown, the structured data) is made once from the page before the passes, the same
in both runs, so it drops out of the difference. For another checkout, run this copy
with ``PYTHONPATH`` set to it. The folder (default ../shared/fixtures/product-dev/pages beside
the repository) holds ``.html`` or ``.html.gz`` files; ``--limit N`` takes its first N.
"""

from __future__ import annotations

import argparse
import gzip
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
URL = "https://example.com/page"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("passes", type=int)
    parser.add_argument("pages_dir", nargs="?", type=Path,
                        default=ROOT.parent / "shared" / "fixtures" / "product-dev" / "pages")
    parser.add_argument("--page-path", action="store_true", help="the whole page path, from the raw bytes")
    parser.add_argument("--stages", help="with --page-path: only these stages (comma-separated bench_stages names)")
    parser.add_argument("--limit", type=int, help="only the first N pages")
    args = parser.parse_args()
    sys.path.append(str(ROOT))  # after PYTHONPATH, so that another checkout can be measured
    from crawlforge.extract.markdown import html_to_markdown  # noqa: PLC0415 - after the path is set
    from crawlforge.extract.structured import extract_structured_data  # noqa: PLC0415

    files = sorted(f for f in args.pages_dir.glob("*.htm*") if f.is_file())[:args.limit]
    bodies = [gzip.decompress(f.read_bytes()) if f.suffix == ".gz" else f.read_bytes() for f in files]
    if args.page_path:
        from bench.bench_stages import page_path, stages_path  # noqa: PLC0415 - that checkout's stages

        if args.stages:
            run = stages_path(args.stages.split(","), bodies, URL)
        else:
            def run(index, body):
                return page_path(body, URL)
        for number in range(args.passes):
            for index, body in enumerate(bodies):
                run(index, body + b" " * (number + 1))
        print(f"{len(bodies)} pages x {args.passes} passes (page path{': ' + args.stages if args.stages else ''})")
        return
    pages = [body.decode("utf-8", "replace") for body in bodies]
    for number in range(args.passes):
        for html in pages:
            html += " " * (number + 1)  # a new string each pass, so no remembered result answers
            extract_structured_data(html, URL)
            html_to_markdown(html, URL)
    print(f"{len(pages)} pages x {args.passes} passes")


if __name__ == "__main__":
    main()
