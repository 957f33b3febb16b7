"""Whole-page outputs of extract_structured_data against reviewed golden files
(fixtures/structured/expected/<folder>/<page>.json): a change in any field,
provenance entry or conflict shows up as a diff to review.

Regenerate after a reviewed change: CRAWLFORGE_UPDATE_GOLDEN=1 pytest tests/extract/test_structured_golden.py
"""

import json
import os

import pytest

from conftest import ROOT

from crawlforge.extract.structured import extract_structured_data

FIXTURES = ROOT / "fixtures" / "structured"
PAGES = sorted(p.relative_to(FIXTURES).as_posix() for folder in ("product", "json-ld", "embedded-state")
               for p in (FIXTURES / folder).glob("*.html"))
URL = "https://example.com/page"


@pytest.mark.parametrize("page", PAGES)
def test_whole_page_output_matches_golden_file(page):
    html = (FIXTURES / page).read_text(encoding="utf-8")
    output = extract_structured_data(html, URL).to_dict()
    golden = FIXTURES / "expected" / (page.removesuffix(".html") + ".json")
    if os.environ.get("CRAWLFORGE_UPDATE_GOLDEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(json.dumps(output, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    assert output == json.loads(golden.read_text(encoding="utf-8"))
