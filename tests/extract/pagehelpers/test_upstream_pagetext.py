"""Upstream conformance: tests/pageText.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit b008adb364ad186a30849f5f135db07297758fd7, the newest stored version: that of
21d5181d754c250846499d6ce236407af5f4fd3a plus the "inline text before a block starts its own
line" case, which goes with the b008adb src/pageText.js (a block starts a line as well as ending
it; spec §5.8 describes the older 21d5181d code, which ends it only). flattenText as
crawlforge.extract.pagehelpers.pagetext.flatten_text(doc, root=None); a root is a CSS selector, a node or
several nodes; the document is HTML or a LexborHTMLParser.
"""

from selectolax.lexbor import LexborHTMLParser

from crawlforge.extract.pagehelpers.pagetext import flatten_text

HN_LIKE_HTML = """<html><body><table>
  <tr class="athing"><td><span class="rank">1.</span></td>
    <td><span class="titleline"><a href="https://a.example">First story title</a></span></td></tr>
  <tr><td class="subtext"><span class="score">329 points</span> by alice</td></tr>
  <tr class="athing"><td><span class="rank">2.</span></td>
    <td><span class="titleline"><a href="https://b.example">Second story title</a></span></td></tr>
  <tr><td class="subtext"><span class="score">715 points</span> by bob</td></tr>
</table></body></html>"""


def load(html: str) -> LexborHTMLParser:
    return LexborHTMLParser(html)


def test_block_elements_become_separate_lines_instead_of_welding_together():
    lines = flatten_text(load(HN_LIKE_HTML)).split("\n")
    assert lines[0] == "1. First story title"
    assert lines[1] == "329 points by alice"
    assert lines[2] == "2. Second story title"
    assert lines[3] == "715 points by bob"


def test_h1_then_p_reads_hi_newline_there():
    assert flatten_text(load("<h1>Hi</h1><p>there</p>")) == "Hi\nthere"


def test_table_cells_in_one_row_are_space_separated_not_welded():
    assert flatten_text(load("<body><table><tr><td>Cell A</td><td>Cell B</td></tr></table></body>")) == "Cell A Cell B"


def test_br_list_items_and_paragraphs_produce_line_breaks_blank_runs_collapse():
    text = flatten_text(load("<body><p>Para one</p>\n\n  <p>line a<br>line b</p><ul><li>item 1</li><li>item 2</li></ul></body>"))
    assert text == "Para one\nline a\nline b\nitem 1\nitem 2"


def test_horizontal_whitespace_tabs_nbsp_collapses_to_single_spaces_within_a_line():
    assert flatten_text(load("<body><p>a\t\tb&nbsp;&nbsp;c</p></body>")) == "a b c"


def test_the_callers_tree_is_not_mutated():
    doc = load('<body><div id="x">one</div><div id="y">two</div></body>')
    before = doc.html
    flatten_text(doc)
    assert doc.html == before


def test_a_root_reads_only_the_matched_elements_a_line_break_between_them():
    doc = load("<body><p>skip</p><article><h2>A</h2><p>one</p></article><article><p>two</p></article></body>")
    assert flatten_text(doc, doc.css("article")) == "A\none\ntwo"
    assert flatten_text(doc, "article") == "A\none\ntwo"


def test_inline_elements_stay_on_their_line():
    assert flatten_text(load('<p>a <b>bold</b> <a href="/x">link</a>.</p>')) == "a bold link."


def test_definition_lists_figures_landmarks_and_captions_are_blocks_too():
    assert flatten_text(load("<dl><dt>Term</dt><dd>Def</dd></dl>")) == "Term\nDef"
    assert (
        flatten_text(load('<figure><img src="a.png"><figcaption>Cap</figcaption></figure><main>Main</main><aside>Side</aside>'))
        == "Cap\nMain\nSide"
    )
    assert flatten_text(load("<table><caption>T</caption><tr><td>a</td></tr></table>")) == "T\na"


def test_inline_text_before_a_block_starts_its_own_line():
    # What Readability makes of paulgraham.com/greatwork.html's "July 2023<br><br>If you...".
    assert (
        flatten_text(load("<div><font>July 2023<p>If you collected lists.</p><p>The following recipe.</p></font></div>"))
        == "July 2023\nIf you collected lists.\nThe following recipe."
    )
    assert flatten_text(load("<form><label>Name</label><div>Thanks</div></form>")) == "Name\nThanks"


def test_html_string_in_reads_the_same_as_a_parser():
    assert flatten_text(HN_LIKE_HTML) == flatten_text(load(HN_LIKE_HTML))
