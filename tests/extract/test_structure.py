"""structure_signature / structural_similarity (templates.md §5.2) on real pages."""

import itertools
import json

from conftest import ROOT

from crawlforge.extract.structure import structural_similarity, structure_signature

FIXTURES = ROOT / "fixtures" / "structure"
DW = ["dw.com-elephants.html", "dw.com.colonial.html", "dw.com.uncork.html"]
NATIONNEWS = ["nationnews.com-schools.html", "nationnews.com-tridents.html"]

NESTED = "<html><body>\n  <div><div><div><p>a</p><p>b</p><p>c</p></div></div></div>\n</body></html>"
FLAT = "<html><body>\n  <div></div><div></div><div></div><p>a</p><p>b</p><p>c</p>\n</body></html>"


def _page(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode("utf-8", errors="replace")


def test_signature_counts_tags_and_depths_with_inserted_head():
    signature = structure_signature("<html><body><p>a</p><p>b</p></body></html>")
    assert signature == {"tags": ["body", "head", "html", "p"], "depths": {"1": 1, "2": 2, "3": 2}}


def test_signature_ignores_text_and_comments_and_is_json_serialisable():
    signature = structure_signature("<html><body><!-- note -->plain text<p>a</p></body></html>")
    assert signature["tags"] == ["body", "head", "html", "p"]
    assert json.loads(json.dumps(signature)) == signature


def test_signature_of_a_real_page_stays_small():
    signature = structure_signature(_page("dw.com.colonial.html"))
    assert len(signature["tags"]) == 26
    assert len(signature["depths"]) == 19
    assert signature["depths"]["1"] == 1


def test_signature_scoped_to_a_root_keeps_absolute_depths():
    html = "<html><body><main><ul><li>a</li></ul></main><footer><table><tr><td>x</td></tr></table></footer></body></html>"
    assert structure_signature(html, root="main") == {"tags": ["li", "ul"], "depths": {"4": 1, "5": 1}}


def test_same_real_page_twice_scores_one():
    for name in DW + NATIONNEWS:
        html = _page(name)
        assert structural_similarity(structure_signature(html), structure_signature(html)) == 1.0


def test_pages_of_one_site_score_higher_than_pages_of_different_sites():
    signatures = {name: structure_signature(_page(name)) for name in DW + NATIONNEWS}
    same_site = [
        structural_similarity(signatures[a], signatures[b])
        for group in (DW, NATIONNEWS)
        for a, b in itertools.combinations(group, 2)
    ]
    cross_site = [structural_similarity(signatures[a], signatures[b]) for a in DW for b in NATIONNEWS]
    assert min(same_site) > max(cross_site)
    assert round(min(same_site), 3) == 0.725
    assert round(max(cross_site), 3) == 0.595


def test_rebuilt_layout_with_same_vocabulary_drops_below_alert():
    # tags equal (1.0); depths 4/14 shared → (1 + 4/14) / 2
    assert abs(structural_similarity(structure_signature(NESTED), structure_signature(FLAT)) - 9 / 14) < 1e-12


def test_small_edit_costs_a_little():
    before = structure_signature("<html><body><ul><li>a</li><li>b</li><li>c</li></ul></body></html>")
    after = structure_signature("<html><body><ul><li>a</li><li>b</li><li>c</li><li>d</li></ul></body></html>")
    assert 0.9 < structural_similarity(before, after) < 1


def test_similarity_edge_cases():
    nested = structure_signature(NESTED)
    assert structural_similarity(None, nested) == 0
    assert structural_similarity(nested, {}) == 0
    assert structural_similarity({"tags": [], "depths": {}}, {"tags": [], "depths": {}}) == 1
    assert structural_similarity({"tags": [], "depths": {}}, nested) == 0
    # a baseline stored without depths degrades to the tag half only
    assert structural_similarity({"tags": nested["tags"]}, nested) == 0.5


def test_similarity_accepts_integer_depth_keys():
    a = {"tags": ["html"], "depths": {1: 1, 2: 2}}
    assert structural_similarity(a, {"tags": ["html"], "depths": {"1": 1, "2": 2}}) == 1.0
