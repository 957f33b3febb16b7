"""html_to_markdown on real pages: structure (code, tables, lists), main content, links."""

import re

import lxml.html
import pytest

from conftest import ROOT

from crawlforge.extract.markdown import html_to_markdown

FIXTURES = ROOT / "fixtures" / "markdown"
FENCE = re.compile(r"^```([\w+-]*)\n(.*?)\n```$", re.S | re.M)


def page(name: str) -> str:
    return (FIXTURES / name).read_bytes().decode("utf-8")


def fenced_blocks(markdown: str) -> list[tuple[str, str]]:
    return FENCE.findall(markdown)


def pre_texts(html: str) -> list[str]:
    """Text of each <pre> as a browser shows it, read with lxml (not the code under test)."""
    tree = lxml.html.fromstring(html)
    for br in tree.iter("br"):
        br.tail = "\n" + (br.tail or "")
    return [pre.text_content().rstrip("\n") for pre in tree.iter("pre")]


@pytest.fixture(scope="module")
def v8_markdown():
    return html_to_markdown(page("../demo/articles/v8_dev_blog_standalone_wasm_code.html"),
                            "https://v8.dev/blog/emscripten-standalone-wasm")


def test_every_code_block_is_fenced_byte_exact(v8_markdown):
    blocks = [code for _, code in fenced_blocks(v8_markdown)]
    assert blocks == pre_texts(page("../demo/articles/v8_dev_blog_standalone_wasm_code.html"))
    assert len(blocks) == 10


def test_fence_carries_the_language_class(v8_markdown):
    languages = [language for language, _ in fenced_blocks(v8_markdown)]
    assert languages == ["c", "", "lisp", "lisp", "js", "cpp", "bash", "js", "js", ""]
    assert "```c\n// add.c\n#include <emscripten.h>\n\nEMSCRIPTEN_KEEPALIVE\nint add(int x, int y) {\n" \
           "  return x + y;\n}\n```" in v8_markdown


def test_highlighted_comment_spans_are_not_pruned_as_comments(v8_markdown):
    assert "```js\n// load-add.js\nconst binary = require('fs').readFileSync('add.wasm');" in v8_markdown


def test_heading_permalink_marks_are_dropped(v8_markdown):
    assert "## Using standalone mode in Emscripten\n" in v8_markdown
    assert "\\#" not in v8_markdown


def test_code_laid_out_in_a_table_becomes_a_fenced_block():
    markdown = html_to_markdown(page("statisticsglobe_com_ggplot2_font_size_code.html"),
                                "https://statisticsglobe.com/change-font-size-of-ggplot2-plot-in-r/")
    blocks = [code for _, code in fenced_blocks(markdown)]
    assert ('install.packages("ggplot2")                                       # Install ggplot2\n'
            'library("ggplot2")                                                # Load ggplot2') in blocks
    assert len(blocks) == 13
    assert not any(line.startswith("| `") for line in markdown.splitlines())


@pytest.fixture(scope="module")
def leasing_markdown():
    return html_to_markdown(page("vergleich.de.leasen.html"),
                            "https://www.vergleich.de/auto-leasen-finanzieren-oder-kaufen.html")


def test_data_table_is_gfm_with_header_row_and_all_cells(leasing_markdown):
    lines = leasing_markdown.splitlines()
    start = lines.index("|  | Leasing | Klassischer Autokredit | Barkauf |")
    assert lines[start + 1] == "| --- | --- | --- | --- |"
    rows = lines[start:start + 8]
    assert rows[-1] == "| Gesamtkosten | 4.984,56 € | 10.350,55 € | 8.991,00 € |"
    assert all(row.count("|") == 5 for row in rows)  # 4 cells per row, 7 rows + separator
    assert not lines[start + 8].startswith("|")


def test_nested_list_stays_nested(leasing_markdown):
    assert ("\n  - Mit einem Barkauf sind Sie sofortiger Eigentümer des Fahrzeugs und haben sämtliche"
            in leasing_markdown)


def test_wikipedia_infobox_is_a_two_column_table_with_absolute_links():
    markdown = html_to_markdown(page("../demo/articles/wikipedia_en_mozilla_tables_lists.html"),
                                "https://en.wikipedia.org/wiki/Mozilla")
    assert "| Industry | [Open-source software](https://en.wikipedia.org/wiki/Open-source_software) |" \
        in markdown
    assert "| Founded | February 28, 1998; 18 years ago |" in markdown
    links = re.findall(r"\]\(([^)\s]+)", markdown)
    assert len(links) > 250  # the article's own links; the sections' [edit] controls are chrome
    assert all(link.startswith(("https://", "http://", "mailto:")) for link in links)
    assert not any("#" in link for link in links)


def test_blog_post_keeps_the_article_and_drops_comments_and_footer():
    markdown = html_to_markdown(page("lemire.me.json.html"),
                                "https://lemire.me/blog/2019/08/02/json-parsing-simdjson-vs-json-for-modern-c/")
    assert "I use a Skylake processor with GNU GCC 8.3." in markdown
    assert "0.091 GB/s" in markdown
    for chrome in ("Leave a Reply", "Science and Technology links", "Proudly powered by WordPress"):
        assert chrome not in markdown


def test_product_page_keeps_name_price_and_description():
    markdown = html_to_markdown(page("../demo/products/shopify_happycoffee_de_sidamo.html"),
                                "https://de.happycoffee.org/products/happy-coffee-sidamo-bio-kaffeebohnen")
    assert markdown.startswith("# Happy Coffee SIDAMO Bio Bohnen\n\nPrice: 27.90 EUR · In stock\n\n- Brand: Happy Coffee")
    assert "€27.90 inkl. MwSt." in markdown
    assert "Handgepflückt, gewaschen, sonnengetrocknet" in markdown


def test_product_name_and_price_next_to_a_link_heavy_buy_box_are_kept():
    markdown = html_to_markdown(page("../demo/products/ikea_gb_moeckelby_table_jsonld.html"),
                                "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/")
    assert markdown.startswith("# MÖCKELBY Table - oak 235x100 cm\n\nPrice: 450 GBP · In stock\n")
    assert "# MÖCKELBY Table, oak 235x100 cm" not in markdown and "£450" in markdown  # name heading once
    assert "genuine wood feeling. The plank expression is enhanced" in markdown  # spans laid out as blocks
    assert "Table top: Particleboard, Thick oak veneer" in markdown


def test_product_price_inside_the_cart_form_is_kept():
    markdown = html_to_markdown(page("../structured/product/ebay_com_itm_302474151804_microdata.html"),
                                "https://www.ebay.com/itm/302474151804")
    assert "Halloween Zombie Scars Tattoos Fake Blood Scab Scar Wound Costume Make-Up Kit UK" in markdown
    assert "\nGBP 1.99\n" in markdown


def test_whole_page_mode_keeps_navigation_that_main_content_drops():
    html = page("lemire.me.json.html")
    url = "https://lemire.me/blog/2019/08/02/json-parsing-simdjson-vs-json-for-modern-c/"
    whole = html_to_markdown(html, url, main_content=False)
    assert "Proudly powered by WordPress" in whole
    assert len(whole) > len(html_to_markdown(html, url))


def test_links_and_images_can_be_left_out(v8_markdown):
    html = page("../demo/articles/v8_dev_blog_standalone_wasm_code.html")
    bare = html_to_markdown(html, "https://v8.dev/blog/emscripten-standalone-wasm",
                            include_links=False, include_images=False)
    assert "](" in v8_markdown
    assert "](" not in bare and "![" not in bare
    assert "standalone Wasm" in bare


def test_lead_marked_as_the_items_description_is_kept():
    markdown = html_to_markdown(page("ahlen.de.reparaturcafe.html"), "https://www.ahlen.de/start/aktuelles/aktuelle/"
                                "information/nachricht/aus-ahlen/reparaturcafe-am-31-januar/")
    assert markdown.startswith("Jede Menge Spaß bereitet es den ehrenamtlichen Experten im Reparaturcafé")
    assert "Das Projekt ist eine Kooperationsveranstaltung" in markdown
    assert "Internetredaktion Stadt Ahlen" not in markdown


def test_post_that_only_a_noscript_holds_is_kept():
    markdown = html_to_markdown(page("security.googleblog.com.protection.html"),
                                "https://security.googleblog.com/2020/05/enhanced-safe-browsing-protection-now.html")
    assert "This protocol is designed so that Google cannot" in markdown
    assert "insights from Google on security and safety on the Internet" not in markdown


def test_list_of_cut_off_excerpts_is_dropped():
    markdown = html_to_markdown(page("novalanalove.com.ear-candy.html"), "https://novalanalove.com/ear-candy/")
    assert "Wir haben unsere liebsten Ear cuffs für euch rausgesucht" in markdown
    assert "Jetzt heißt es schnell sein:" not in markdown
    assert "[…]" not in markdown


def test_section_titled_by_a_read_also_line_is_dropped():
    markdown = html_to_markdown(page("aerobuzz.de-bremen.html"),
                                "https://aerobuzz.de/militar/cae-bildet-kuenftig-luftwaffen-piloten-in-bremen-aus/")
    assert "Bremen am Flughafen ein neues Trainingszentrum" in markdown
    assert "Schon gelesen?" not in markdown


def test_the_size_limit_counts_utf8_bytes_not_characters():
    from crawlforge.extract.markdown import over_bytes
    greek = "λ" * 600  # 600 characters, 1,200 bytes
    assert over_bytes(greek, 1000) and not over_bytes(greek, 1200)
    assert not over_bytes("a" * 1000, 1000) and over_bytes("a" * 1001, 1000)
    assert not over_bytes(greek, None)


def test_a_parsed_page_is_measured_by_the_utf8_its_parse_holds_as_its_text_is():
    from crawlforge.extract.dom import ParsedPage, utf8_html
    from crawlforge.extract.markdown import over_bytes, page_over_bytes
    html = page("aerobuzz.de-bremen.html")
    size = len(html.encode("utf-8"))
    assert size > len(html)  # umlauts: more bytes than characters
    for limit in (None, len(html), size - 1, size, size + 1):
        measured = ParsedPage(html)
        measured.shared(utf8_html)  # made, as by the parse
        assert page_over_bytes(ParsedPage(html), limit) == page_over_bytes(measured, limit) == over_bytes(html, limit)
