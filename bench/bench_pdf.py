"""PDF libraries side by side: speed, memory, and how much of each file's text and tables they keep.

Usage: python bench/bench_pdf.py DIR [DIR ...] [--libs crawlforge,pdfplumber,pypdfium2,pypdf,markitdown]
       [--python LIB=INTERPRETER ...]

Every ``*.pdf`` under the folders (``../shared/fixtures/pdf/pages``, ``/usr/share/doc``...) goes
through each library in a fresh process of its own, so that its peak memory (``ru_maxrss``) is its
own; ``--python markitdown=VENV/bin/python`` runs a library that is not installed here
from another venv. Per library: pages per CPU-second and peak RSS (and its growth over the
imports). Per file: the recall of the words of the text layer in the library's output, the text
layer read by poppler's ``pdftotext`` (a library none of the candidates uses; Debian's
poppler-utils), and the markdown tables in the output.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIBRARIES = ("crawlforge", "pdfplumber", "pypdfium2", "pypdf", "markitdown")
WORD = re.compile(r"\w+")
TABLE_RULE = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$", re.M)


def converter(library: str):
    """``(bytes, path) -> (markdown, pages)`` for one library."""
    if library == "crawlforge":
        sys.path.insert(0, str(ROOT))
        from crawlforge.extract.pdf import read_pdf

        def convert(body, path):
            document = read_pdf(body)
            return document.markdown, document.pages_read
    elif library == "pdfplumber":
        import io

        import pdfplumber

        def convert(body, path):
            with pdfplumber.open(io.BytesIO(body)) as pdf:
                return "\n".join(page.extract_text() or "" for page in pdf.pages), len(pdf.pages)
    elif library == "pypdfium2":
        import pypdfium2

        def convert(body, path):
            document = pypdfium2.PdfDocument(body)
            return "\n".join(document[i].get_textpage().get_text_range() for i in range(len(document))), len(document)
    elif library == "pypdf":
        import io
        import logging

        import pypdf
        logging.getLogger("pypdf").setLevel(logging.ERROR)

        def convert(body, path):
            reader = pypdf.PdfReader(io.BytesIO(body))
            return "\n".join(page.extract_text() for page in reader.pages), len(reader.pages)
    elif library == "markitdown":
        from markitdown import MarkItDown
        from pypdf import PdfReader

        converter_ = MarkItDown()

        def convert(body, path):
            return converter_.convert(path).text_content, len(PdfReader(path).pages)
    else:
        raise SystemExit(f"unknown library {library!r}: one of {', '.join(LIBRARIES)}")
    return convert


def run_one(library: str, paths: list[str]) -> None:
    """The child: convert each file, print one JSON line of results."""
    convert = converter(library)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    results = {}
    for path in paths:
        body = Path(path).read_bytes()
        start = time.process_time()
        try:
            markdown, pages = convert(body, path)
            results[path] = {"markdown": markdown, "pages": pages, "cpu": time.process_time() - start}
        except Exception as error:  # noqa: BLE001 - a bench records what a library does with bad files
            results[path] = {"error": f"{type(error).__name__}: {error}"[:80], "cpu": time.process_time() - start}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"results": results, "peak_kib": peak, "import_kib": base}))


def words(text: str) -> Counter:
    return Counter(WORD.findall(unicodedata.normalize("NFKC", text).lower()))


def text_layer(path: str) -> Counter | None:
    if not shutil.which("pdftotext"):
        return None
    done = subprocess.run(["pdftotext", "-q", "-enc", "UTF-8", path, "-"], capture_output=True)
    return words(done.stdout.decode("utf-8", "replace")) if done.returncode == 0 else None


def recall(reference: Counter | None, text: str) -> float | None:
    if not reference:
        return None
    found = words(text)
    return sum(min(count, found[word]) for word, count in reference.items()) / sum(reference.values())


def measure(library: str, paths: list[str], python: str) -> dict:
    done = subprocess.run([python, __file__, "--one", library, *paths], capture_output=True, text=True,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        print(f"{library}: not measured ({(done.stderr.strip().splitlines() or ['?'])[-1]})", file=sys.stderr)
        return {}
    return json.loads(lines[-1])


def report(paths: list[str], measured: dict[str, dict]) -> None:
    print("reference text layer: " + ("pdftotext (poppler-utils)" if shutil.which("pdftotext") else "none"))
    print(f"\n{'library':12} {'pages':>6} {'cpu s':>7} {'pages/cpu-s':>12} {'peak MiB':>9} {'+imports MiB':>13}")
    for library, run in measured.items():
        done = [r for r in run["results"].values() if "error" not in r]
        pages = sum(r["pages"] for r in done)
        cpu = sum(r["cpu"] for r in done)
        print(f"{library:12} {pages:6d} {cpu:7.2f} {pages / cpu if cpu else 0:12.1f} {run['peak_kib'] / 1024:9.1f}"
              f" {(run['peak_kib'] - run['import_kib']) / 1024:13.1f}")
    print("\nper file: recall of the text layer's words / markdown tables ('-': the library failed)")
    print(f"{'file':44}" + "".join(f"{library:>16}" for library in measured))
    totals = {library: [] for library in measured}
    for path in paths:
        reference = text_layer(path)
        cells = []
        for library, run in measured.items():
            result = run["results"][path]
            if "error" in result:
                cells.append(f"{'- ' + result['error'][:13]:>16}")
                continue
            score = recall(reference, result["markdown"])
            tables = len(TABLE_RULE.findall(result["markdown"]))
            if score is not None:
                totals[library].append(score)
            cells.append(f"{'n/a' if score is None else f'{score:.3f}':>11} {tables:4d}")
        print(f"{Path(path).name[:44]:44}" + "".join(cells))
    print(f"{'mean recall':44}" + "".join(f"{sum(s) / len(s) if s else 0:>11.3f}     " for s in totals.values()))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--one":
        run_one(sys.argv[2], sys.argv[3:])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--libs", default="crawlforge,pdfplumber,pypdfium2,pypdf")
    parser.add_argument("--python", action="append", default=[], help="LIB=INTERPRETER")
    args = parser.parse_args()
    interpreters = dict(item.split("=", 1) for item in args.python)
    paths = sorted(str(p) for d in args.dirs for p in Path(d).rglob("*.pdf"))
    measured = {}
    for library in args.libs.split(","):
        if run := measure(library, paths, interpreters.get(library, sys.executable)):
            measured[library] = run
    report(paths, measured)


if __name__ == "__main__":
    main()
