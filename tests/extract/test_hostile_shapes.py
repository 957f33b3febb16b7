"""Page shapes that would hold the reactor thread for seconds: one element with tens of thousands
of attributes (lexbor's parse is quadratic in them) and a page URL of 100,000 characters (a
template pattern searched over it). ``bench/bench_hostile_pages.py`` prints what each costs."""

from conftest import FIXTURES
from crawlforge.extract.dom import MAX_ATTRIBUTES, cap_attributes, parse_page
from crawlforge.templates.registry import MAX_URL_LENGTH, TemplateRegistry


def crowded_div(count: int) -> str:
    return "<div " + " ".join(f"data-a{i}" for i in range(count)) + ' id="last">text</div>'


def test_a_tag_keeps_its_first_attributes_up_to_the_bound():
    tree = parse_page(f"<html><body>{crowded_div(60_000)}<p class=k>after</p></body></html>")
    attributes = tree.css_first("div").attributes
    assert len(attributes) == MAX_ATTRIBUTES and "data-a0" in attributes and "id" not in attributes
    assert tree.css_first("div").text() == "text" and tree.css_first("p").attributes == {"class": "k"}


def test_attributes_are_read_as_the_tokenizer_reads_them():
    quoted = "<div " + " ".join(f'a{i}="x > <b c d"' for i in range(300)) + ">text</div>"
    assert len(parse_page(quoted).css_first("div").attributes) == MAX_ATTRIBUTES
    unseparated = "<div " + "".join(f'a{i}="1"' for i in range(300)) + ">text</div>"
    assert len(parse_page(unseparated).css_first("div").attributes) == MAX_ATTRIBUTES
    # a quote in a comment does not hide the tag after it
    hidden = '<!-- <a b=" -->' + crowded_div(300)
    assert len(parse_page(hidden).css_first("div").attributes) == MAX_ATTRIBUTES
    script = '<script>var s = "<a ' + " ".join(f"b{i}" for i in range(300)) + '";</script><p>x</p>'
    assert cap_attributes(script) == script  # a script's text is not a tag


def test_a_tag_is_read_past_a_quoted_gt_however_its_value_is_quoted():
    # the tag's first ">" is inside a value: what follows it is still the tag's
    for opening in ("a= '>'", 'a =  ">"', "a='x\">'", 'a="it\'s >"'):
        html = f"<div {opening} " + " ".join(f"b{i}" for i in range(300)) + ">text</div>"
        assert len(parse_page(html).css_first("div").attributes) == MAX_ATTRIBUTES, opening


def test_no_captured_page_has_a_tag_past_the_bound():
    pages = [p for p in sorted(FIXTURES.rglob("*.htm*")) if "synthetic" not in p.name]
    assert len(pages) > 100
    for page in pages:
        html = page.read_bytes().decode("utf-8", "replace")
        assert cap_attributes(html) == html, page  # a script's "<a b c..." may be looked at, not changed


def test_a_url_past_the_bound_matches_no_template():
    registry = TemplateRegistry()
    assert registry.detect("https://acme.workable.com/jobs/1").id == "workable-jobs"
    label = "https://" + "a" * 60 + ".workable.com/jobs/1"
    assert registry.detect(label).id == "workable-jobs"
    long_host = "https://" + "a" * MAX_URL_LENGTH + ".workable.com/jobs/1"
    assert registry.detect(long_host) is None and registry.route(long_host) is None
    assert registry.detect("https://acme.workable.com/jobs/" + "x" * (MAX_URL_LENGTH - 40)).id == "workable-jobs"
