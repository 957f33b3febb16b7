"""The content quality gate (as trafilatura's tests/eval_gate.py): the markdown of the real pages
kept in fixtures/pagetypes, scored word by word against their human-reviewed main content
(fixtures/gate/truth.json.gz), may not fall below the figures of fixtures/gate/baseline.json. A
rule change that loses content on any page kind fails here; one that gains rewrites the
baseline, a reviewed diff:

    python tests/extract/content/test_quality_gate.py --update
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]  # also run as a script, without conftest
sys.path.insert(0, str(ROOT))

from crawlforge.extract.markdown import page_content  # noqa: E402

GATE = ROOT / "fixtures" / "gate"
PAGES = ROOT / "fixtures" / "pagetypes"
BASELINE = GATE / "baseline.json"
PAGE_SLACK = 0.02
"""F1 a page may lose before the gate fails: a rule's small shift on one page, not a lost block."""
KIND_SLACK = 0.005
"""Mean F1 a page type may lose before the gate fails."""

_LINK = re.compile(r"\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\((?:<[^>\n]*>|(?:[^()\s]|\([^()]*\))*)[^)]*\)")
_IMAGE = re.compile("!" + _LINK.pattern)
_MARKS = re.compile(r"^[ \t]*(?:#{1,6}|```.*|~~~.*|\|?[ \t:|-]*-{2,}[ \t:|-]*)$|^[ \t]*#{1,6}[ \t]|[|*_`~]", re.M)
_WORD = re.compile(r"\w+")


def words(markdown: str) -> Counter:
    """The markdown's words, as WCXB's scorer counts them: images, link addresses, heading,
    fence, table and emphasis marks aside."""
    text = _MARKS.sub(" ", _LINK.sub(r" \1 ", _LINK.sub(r" \1 ", _IMAGE.sub(" ", markdown))))
    return Counter(_WORD.findall(text.lower()))


def scores(out: Counter, ref: Counter) -> dict:
    """Word-bag precision, recall and F1 (an empty reference and output score 1)."""
    if not ref or not out:
        value = float(not ref and not out)
        return {"p": value, "r": value, "f1": value}
    overlap = (out & ref).total()
    p, r = overlap / out.total(), overlap / ref.total()
    return {"p": p, "r": r, "f1": 2 * p * r / (p + r) if overlap else 0.0}


def measure() -> dict:
    """Each gate page's type, the kind it was read as and its scores, rounded to 3 digits."""
    truth = json.loads(gzip.decompress((GATE / "truth.json.gz").read_bytes()))
    figures = {}
    for page_id, page in sorted(truth.items()):
        html = gzip.decompress((PAGES / f"wcxb-{page_id}.html.gz").read_bytes()).decode("utf-8")
        content = page_content(html, page["url"])
        found = scores(words(content.markdown), Counter(_WORD.findall(page["main_content"].lower())))
        figures[page_id] = {"type": page["type"], "kind": content.page_type,
                            **{name: round(value, 3) for name, value in found.items()}}
    return figures


def means(figures: dict) -> dict:
    kinds: dict = {}
    for row in figures.values():
        kinds.setdefault(row["type"], []).append(row["f1"])
    return {kind: sum(values) / len(values) for kind, values in sorted(kinds.items())}


@pytest.fixture(scope="module")
def measured():
    return measure()


@pytest.fixture(scope="module")
def baseline():
    return json.loads(BASELINE.read_text(encoding="utf-8"))


def test_every_gate_page_is_measured(measured, baseline):
    assert sorted(measured) == sorted(baseline), "a gate page was added or removed: --update the baseline"


def test_no_page_loses_content(measured, baseline):
    lost = {page_id: (baseline[page_id]["f1"], row["f1"]) for page_id, row in measured.items()
            if page_id in baseline and row["f1"] < baseline[page_id]["f1"] - PAGE_SLACK}
    assert not lost, f"F1 fell (baseline, now): {lost}"


def test_no_page_type_loses_content(measured, baseline):
    before, now = means(baseline), means(measured)
    fell = {kind: (round(before[kind], 4), round(now[kind], 4)) for kind in before
            if now.get(kind, 0.0) < before[kind] - KIND_SLACK}
    assert not fell, f"mean F1 fell (baseline, now): {fell}"


if __name__ == "__main__":
    if sys.argv[1:] != ["--update"]:
        raise SystemExit(__doc__)
    figures = measure()
    BASELINE.write_text(json.dumps(figures, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    for kind, mean in means(figures).items():
        print(f"{kind:14s} {mean:.3f}")
