"""Upstream conformance: tests/structure.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 67d15d93e549a2fa03fc842794cbc755f14e1d30 (the stored version).
``structureSignature(cheerio.load(html), $(sel))`` is ``structure_signature(html, root=sel)``;
depth keys are strings, as templates.md §5.2 serialises them.
"""

from crawlforge.extract.structure import structural_similarity, structure_signature as sig

NESTED = """<html><body>
  <div><div><div><p>a</p><p>b</p><p>c</p></div></div></div>
</body></html>"""
FLAT = """<html><body>
  <div></div><div></div><div></div><p>a</p><p>b</p><p>c</p>
</body></html>"""


def test_sorted_deduplicated_tag_vocabulary():
    assert sig("<html><body><p>a</p><p>b</p><div><span>c</span></div></body></html>")["tags"] == [
        "body", "div", "head", "html", "p", "span",
    ]  # fmt: skip


def test_counts_elements_by_nesting_depth():
    assert sig("<html><body><p>a</p><p>b</p></body></html>")["depths"] == {"1": 1, "2": 2, "3": 2}


def test_stable_across_identical_documents():
    assert sig(NESTED) == sig(NESTED)


def test_stays_small_on_a_repetitive_page():
    rows = "<tr><td>x</td></tr>" * 500
    signature = sig(f"<html><body><table><tbody>{rows}</tbody></table></body></html>")
    assert len(signature["tags"]) < 10
    assert len(signature["depths"]) < 10


def test_ignores_text_and_comment_nodes():
    assert sig("<html><body><!-- note -->plain text<p>a</p></body></html>")["tags"] == ["body", "head", "html", "p"]


def test_unchanged_document_scores_1():
    assert structural_similarity(sig(NESTED), sig(NESTED)) == 1


def test_two_empty_signatures_score_1():
    assert structural_similarity({"tags": [], "depths": {}}, {"tags": [], "depths": {}}) == 1


def test_empty_against_real_scores_0():
    assert structural_similarity({"tags": [], "depths": {}}, sig(NESTED)) == 0


def test_missing_side_scores_0():
    assert structural_similarity(None, sig(NESTED)) == 0
    assert structural_similarity(sig(NESTED), None) == 0
    assert structural_similarity(None, None) == 0


def test_rebuilt_layout_with_same_vocabulary_drops():
    assert structural_similarity(sig(NESTED), sig(FLAT)) < 0.8


def test_can_score_below_half():
    table = sig("<html><body><table><tr><td><span>x</span></td></tr></table></body></html>")
    assert structural_similarity(table, sig(FLAT)) < 0.5


def test_stays_within_0_1_on_duplicate_heavy_markup():
    many = f"<html><body>{'<div><p>x</p></div>' * 200}</body></html>"
    assert 0 <= structural_similarity(sig(many), sig(NESTED)) <= 1


def test_small_edit_costs_a_small_amount():
    before = sig("<html><body><ul><li>a</li><li>b</li><li>c</li></ul></body></html>")
    after = sig("<html><body><ul><li>a</li><li>b</li><li>c</li><li>d</li></ul></body></html>")
    assert 0.9 < structural_similarity(before, after) < 1


def test_tolerates_a_signature_without_depths():
    assert 0 <= structural_similarity({"tags": sig(NESTED)["tags"]}, sig(NESTED)) <= 1


def test_scoped_signature_fingerprints_only_the_region():
    html = "<html><body><main><ul><li>a</li></ul></main><footer><table><tr><td>x</td></tr></table></footer></body></html>"
    assert sig(html, "main")["tags"] == ["li", "ul"]


def test_change_outside_the_scope_leaves_the_score_alone():
    page = "<html><body><main><ul><li>a</li></ul></main><footer>{}</footer></body></html>"
    before = page.format("<p>one</p>")
    after = page.format("<table><tr><td>x</td></tr></table><div><span>y</span></div>")
    assert structural_similarity(sig(before, "main"), sig(after, "main")) == 1
