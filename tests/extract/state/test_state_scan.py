"""The carrier readers scan a page's folded UTF-8 with plain searches: they must find what the
one-regex scans of its text (kept here as the reference) find, on hostile markup too.

Every page here is synthetic on purpose (fault cases: case twins, Unicode whitespace, comments
joined by their dropping, attributes inside attribute values), built in the test.
"""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from crawlforge.extract.state import carriers
from crawlforge.extract.state.carriers import (
    ScannedPage,
    iter_scripts,
    read_attribute,
    read_inertia_page,
    read_json_attributes,
)

_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG_OR_DATA_ATTR = re.compile(r"""<([a-zA-Z][\w:-]*)|\s(data-[\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.A)
_DATA_ATTR = re.compile(r"""\s(data-[\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I | re.A)


def strip_comments(html):
    return _COMMENT.sub("", html)


def reference_json_attribute_places(doc):
    """(tag, tag start, attribute) of every data-* attribute, as the one scan of tags and
    attributes reads them."""
    tag, tag_start, out = None, -1, []
    for match in _TAG_OR_DATA_ATTR.finditer(doc):
        if match.group(1) is not None:
            tag, tag_start = match.group(1), match.start()
        else:
            out.append((tag, tag_start, match.group(2), match.start()))
    return out


_FRAGMENTS = st.sampled_from([
    "<script>", "</script>", "<SCRIPT type='application/json'>", '<script type="TEXT/JSON">', "<script type=application/ld+json>", "</SCRIPT >", "</script\u3000>",
    "</script\x85>", "</script\x1c>", "<scrıpt>", "<ſcript>", "</scrİpt>", "<scripté>", "<script_", "<script/",
    "<!--", "-->", "<!-->", "<", ">", '"', "'", "=", " ", "\n", "{", "}", "json", "é", "\ud800", "😀",
    "<div", "<p ", " data-x=", " data-page=", " data-o=\" data-i='<b>' \"", " DATA-PAGE=", " data-page-id=", "&quot;", "<a:b",
    ' data-big="{&quot;a&quot;:1}"', " data-n='{\"k\":[1,2]}'", "<span id=one", " id='two'",
])
_PAGES = st.lists(_FRAGMENTS | st.text(max_size=8), max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(_PAGES)
def test_scripts_and_doc_are_those_of_the_text_without_comments(html):
    page = ScannedPage(html)
    doc = strip_comments(html)
    assert page.doc == doc
    assert page.scripts == list(iter_scripts(doc))
    def json_typed(scripts):
        return [(attrs, body) for attrs, body in scripts
                if (read_attribute(attrs, "type") or "").lower() in ("application/json", "text/json")]

    assert json_typed(page.json_typed_scripts) == json_typed(page.scripts)
    assert page.comments_left == ("<!--" in doc)
    for word in ("data-page", "json", "<script"):
        assert page.has(word) == (word.encode() in doc.encode("utf-8", "surrogatepass").lower())


@settings(max_examples=400, deadline=None)
@given(_PAGES)
def test_data_attributes_are_read_where_the_one_regex_scan_reads_them(html):
    doc = strip_comments(html)
    places = reference_json_attribute_places(doc)
    page = ScannedPage(html)
    starts, ends, found = [], [], []
    for match in carriers._data_attributes(doc, carriers._LOWER_DATA_ATTR_RE, "data-"):
        starts.append(match.start())
        ends.append(match.end())
        tag = carriers._tag_before(doc, match.start(), starts, ends)
        found.append((tag and tag.group(1), tag.start() if tag else -1, match.group(1), match.start()))
    assert found == places
    folded = [(m.group(1), m.start()) for m in carriers._data_attributes(page.folded, carriers._DATA_ATTR_RE, b"data-")]
    utf8 = doc.encode("utf-8", "surrogatepass")
    assert [(utf8[:start].decode("utf-8", "surrogatepass").__len__(), name.decode())
            for name, start in folded] == [(m.start(), m.group(1).lower()) for m in _DATA_ATTR.finditer(doc)]


def test_a_json_attribute_in_another_attribute_value_is_not_read():
    big = "{&quot;a&quot;:&quot;" + "x" * 3000 + "&quot;}"
    html = f"<div data-outer=' data-inner=\"{big}\" '></div><p id=\"q\" data-real=\"{big}\"></p>"
    assert [(e["tag"], e["attribute"], e["id"]) for e in read_json_attributes(html)] == [("p", "data-real", "q")]


def test_inertia_attribute_in_upper_case_is_read():
    assert read_inertia_page('<div DATA-PAGE="{&quot;component&quot;:&quot;X&quot;}"></div>') == {
        "value": {"component": "X"}, "warnings": []}
