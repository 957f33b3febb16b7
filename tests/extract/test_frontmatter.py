"""Documents: YAML frontmatter between fences, then markdown; size cap by whole sections."""

from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT

from crawlforge.extract.frontmatter import cap_frontmatter, dump_yaml, parse_document, render_document
from crawlforge.extract.structured import extract_structured_data

FIXTURES = ROOT / "fixtures" / "structured"


def happycoffee_frontmatter() -> dict:
    html = (FIXTURES / "product" / "shopify_happycoffee_de_sidamo.html").read_text(encoding="utf-8")
    data = extract_structured_data(html, "https://de.happycoffee.org/products/happy-coffee-sidamo-bio-kaffeebohnen")
    return {"url": "https://de.happycoffee.org/products/happy-coffee-sidamo-bio-kaffeebohnen", **data.to_frontmatter()}


def test_document_layout_keeps_key_order_and_unicode():
    document = render_document(happycoffee_frontmatter(), "# Happy Coffee\n")
    lines = document.splitlines()
    assert lines[0] == "---"
    assert lines[1] == "url: https://de.happycoffee.org/products/happy-coffee-sidamo-bio-kaffeebohnen"
    assert lines[2] == "meta:"
    assert "  description: Aroma Rote Beeren, Zitrusnoten, süßlich" in document
    assert "!!python" not in document
    assert document.endswith("---\n\n# Happy Coffee\n")


def test_round_trip_of_a_real_page():
    frontmatter = happycoffee_frontmatter()
    assert parse_document(render_document(frontmatter, "body\n---\nmore")) == (frontmatter, "body\n---\nmore")


def test_multiline_value_cannot_close_the_fence():
    document = render_document({"title": "a\n---\nb"}, "text")
    assert document == '---\ntitle: "a\\n---\\nb"\n---\n\ntext'
    assert parse_document(document) == ({"title": "a\n---\nb"}, "text")


def test_tuples_and_other_types_are_plain_yaml():
    document = render_document({"sizes": (1, 2), "path": Path("pages/x")}, "")
    assert yaml.safe_load(document.split("---\n")[1]) == {"sizes": [1, 2], "path": "pages/x"}


def test_markdown_starting_with_a_rule_is_not_frontmatter():
    text = "---\nnot: [yaml\n---\n\nbody"
    assert parse_document(text) == ({}, text)
    assert parse_document("# Title\n") == ({}, "# Title\n")


def test_cap_drops_the_largest_section_and_names_it():
    frontmatter = {**happycoffee_frontmatter(), "embedded_state": {"blob": "x" * 70_000}}
    capped = cap_frontmatter(frontmatter, 64 * 1024)
    assert capped["frontmatter_dropped"] == ["embedded_state"]
    assert capped["platform_data"] == frontmatter["platform_data"]
    assert len(render_document(capped, "").encode()) < 64 * 1024 + 16


def test_cap_drops_more_sections_until_it_fits_and_keeps_scalars():
    frontmatter = happycoffee_frontmatter()
    capped = cap_frontmatter(frontmatter, 200)
    assert capped["url"] == frontmatter["url"]
    assert set(capped["frontmatter_dropped"]) == {"meta", "structured_data", "platform_data"}
    assert cap_frontmatter(frontmatter, 64 * 1024) is frontmatter


keys = st.text(min_size=1, max_size=10)
values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(keys, values, max_size=5), st.text())
def test_any_plain_frontmatter_round_trips(frontmatter, markdown):
    assert parse_document(render_document(frontmatter, markdown)) == (frontmatter, markdown)


def test_render_document_caps_a_frontmatter_past_max_bytes():
    frontmatter = {"url": "https://example.com/", "embedded_state": {"blob": "x" * 5000}, "meta": {"title": "T"}}
    capped, _ = parse_document(render_document(frontmatter, "text", max_bytes=1000))
    assert capped["frontmatter_dropped"] == ["embedded_state"]
    assert capped["meta"] == {"title": "T"}
    whole, _ = parse_document(render_document(frontmatter, "text"))
    assert whole["embedded_state"]["blob"] == "x" * 5000


def test_dump_writes_every_string_as_pyyaml_does_whichever_emitter_runs():
    """libyaml runs for plain text; emoji stay as written, a long key stays a `?` key."""
    assert dump_yaml({"title": "Café — 中文"}) == "title: Café — 中文\n"
    assert dump_yaml({"title": "Launch 🚀 day"}) == "title: Launch 🚀 day\n"
    assert dump_yaml({"k" * 130: "v"}).startswith("? " + "k" * 130)
    assert dump_yaml({"note": "a\tb"}) == 'note: "a\\tb"\n'
