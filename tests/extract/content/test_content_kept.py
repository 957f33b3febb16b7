"""Content that common page kinds lost (issue 44 point 1, issue 39 point 6), on real pages
(fixtures/pagetypes, fixtures/product, fixtures/demo: see their PROVENANCE.md), each rule with a
case where it must not fire."""

from __future__ import annotations

import gzip
import subprocess
import sys

from conftest import ROOT

from crawlforge.extract.frontmatter import parse_document
from crawlforge.extract.markdown import html_to_markdown, page_content

FIXTURES = ROOT / "fixtures"
WIKIPEDIA = FIXTURES / "demo" / "articles" / "wikipedia_en_mozilla_tables_lists.html"
WIKIPEDIA_URL = "https://en.wikipedia.org/wiki/Mozilla"
NEWS_URL = "https://nssa.stanford.edu/news"
HEADLINE = ("[Philadelphia’s tutoring program shows promise but faces familiar obstacle: expanding it effectively]"
            "(https://nssa.stanford.edu/news/philadelphias-tutoring-program-shows-promise-faces-familiar-obstacle-"
            "expanding-it-effectively)")
WIKI_HEADINGS = ("## History", "### Eich CEO promotion controversy", "## Values", "#### SpiderMonkey", "## See also",
                 "## External links")


def pagetype(name: str) -> str:
    return gzip.decompress((FIXTURES / "pagetypes" / name).read_bytes()).decode("utf-8")


def product(name: str) -> str:
    data = (FIXTURES / "product" / name).read_bytes()
    return (gzip.decompress(data) if name.endswith(".gz") else data).decode("utf-8")


def scrapy(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "scrapy", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


# -- a listing's cards keep their linked headlines ---------------------------------------------

def test_news_listing_keeps_each_cards_linked_headline_and_teaser():
    page = page_content(pagetype("wcxb-0082.html.gz"), NEWS_URL)
    assert page.page_type == "listing"
    assert HEADLINE in page.markdown
    assert "[Altimira Middle School to implement high-impact tutoring in January]" in page.markdown
    assert "High-impact tutoring has emerged as one form that researchers have shown" in page.markdown


def test_a_cards_date_and_source_line_is_its_own_line_not_a_headline():
    markdown = html_to_markdown(pagetype("wcxb-0082.html.gz"), NEWS_URL)
    lines = [line.strip() for line in markdown.splitlines()]
    line = next(line for line in lines if line.startswith("12/09/2025 | "))
    assert "[Chalkbeat Philadelphia](https://www.chalkbeat.org/philadelphia/2025/12/09/" in line
    assert lines.index(line) > next(i for i, text in enumerate(lines) if "Philadelphia’s tutoring program" in text)
    assert not any(line.startswith("#") and "Chalkbeat" in line for line in lines)  # no headline


def test_a_cards_bare_date_still_goes():
    # news.mit.edu's cards: a date alone in its box, no source beside it, is nothing a reader reads
    markdown = html_to_markdown(pagetype("wcxb-0729.html.gz"), "https://news.mit.edu/topic/software")
    assert "New AI agent learns to use CAD to create 3D objects from sketches" in markdown
    assert "December 1, 2025" not in markdown and "November 19, 2025" not in markdown


# -- a heading's text stays, the control inside it goes -------------------------------------------

def test_wikipedia_headings_keep_their_text_without_edit_controls():
    markdown = html_to_markdown(WIKIPEDIA.read_text(encoding="utf-8"), WIKIPEDIA_URL)
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    for heading in WIKI_HEADINGS:
        assert heading in headings
    assert "action=edit" not in markdown and "[edit]" not in markdown
    assert all(heading.strip("# ") for heading in headings)  # no heading left as only its control


def test_a_line_of_button_words_outside_a_heading_is_untouched_by_the_heading_rule():
    # the Wikipedia infobox and its body text keep words like "Share" / "edit" where they are prose
    markdown = html_to_markdown(WIKIPEDIA.read_text(encoding="utf-8"), WIKIPEDIA_URL)
    assert "Firefox has approximately 10-11% of worldwide" in markdown


# -- the page's title opens its markdown ------------------------------------------------------------

def test_wikipedia_opens_with_its_title_standing_above_the_content():
    # `h1#firstHeading` sits outside the box the article's text is in
    markdown = html_to_markdown(WIKIPEDIA.read_text(encoding="utf-8"), WIKIPEDIA_URL)
    assert markdown.startswith("# Mozilla\n")
    assert markdown.count("# Mozilla\n") == 1


def test_content_opening_with_its_title_gets_no_second_title():
    url = "https://defence.pk/threads/how-close-is-chinas-euv-project-to-eliminating-asmls-monopoly.783768"
    markdown = html_to_markdown(pagetype("wcxb-0403.html.gz"), url)
    assert markdown.startswith("### How close is China’s EUV project to eliminating ASML’s monopoly?")
    assert markdown.count("How close is China’s EUV project to eliminating ASML’s monopoly?") == 1


def test_an_h1_naming_the_site_opens_no_markdown():
    markdown = html_to_markdown(pagetype("wcxb-0536.html.gz"), "https://forums.virtualbox.org/viewtopic.php?t=112320")
    assert markdown.startswith("## [Discuss the VirtualBox 7.1.0 release here]")
    assert "# virtualbox.org" not in markdown


def test_a_listings_h1_is_left_where_its_cards_stand():
    assert not html_to_markdown(pagetype("wcxb-0082.html.gz"), NEWS_URL).startswith("# ")


# -- a visually-hidden box is no part of the name shown ---------------------------------------------

def test_visually_hidden_prefix_is_no_part_of_the_product_name():
    markdown = html_to_markdown((FIXTURES / "structured" / "product" / "ebay_com_itm_302474151804_microdata.html").read_text("utf-8"),
                                "https://www.ebay.com/itm/302474151804")
    first = markdown.splitlines()[0]
    assert first == "# Halloween Zombie Scars Tattoos Fake Blood Scab Scar Wound Costume Make-Up Kit UK"


def test_a_product_name_with_no_hidden_box_is_kept_whole():
    markdown = html_to_markdown(product("johnlewis-1bb37817.html.gz"),
                                "https://www.johnlewis.com/google-nest-mini-hands-free-smart-speaker-2nd-gen/p4781720")
    assert markdown.splitlines()[0].startswith("# Google Nest Mini")


# -- footnote marks do not break emphasis ---------------------------------------------------------

def test_footnote_asterisks_are_escaped_inside_emphasis():
    markdown = html_to_markdown(product("johnlewis-1bb37817.html.gz"),
                                "https://www.johnlewis.com/google-nest-mini-hands-free-smart-speaker-2nd-gen/p4781720")
    assert "*\\*Controlling your thermostat requires a compatible smart thermostat" in markdown
    assert "**Controlling your thermostat" not in markdown
    assert "**Get Answers from Google**" in markdown  # real bold stays bold


# -- page kinds ---------------------------------------------------------------------------------

def test_blog_post_is_an_article_not_documentation():
    page = page_content(pagetype("wcxb-0304.html.gz"),
                        "https://blog.turbotax.intuit.com/tax-planning-2/guide-filing-taxes-2024-tax-law-changes-61904/")
    assert page.page_type == "article"


def test_explainer_in_headed_sections_is_an_article_not_a_listing():
    page = page_content(pagetype("wcxb-0005.html.gz"), "https://cloud.google.com/learn/what-is-cloud-computing")
    assert page.page_type == "article"


def test_docs_page_with_code_stays_documentation():
    # no post's address: the code blocks still make a docs page
    page = page_content(pagetype("wcxb-0684.html.gz"), "https://nginx.org/en/docs/http/ngx_http_rewrite_module.html")
    assert page.page_type == "documentation"


def test_listing_of_article_cards_stays_a_listing():
    # `<article>` cards, not `<section>`s: the sections rule does not fire
    page = page_content(pagetype("wcxb-4632.html.gz"),
                        "https://confessionsofafitfoodie.com/category/recipes/cooking-method/airfryer/")
    assert page.page_type == "listing"


# -- a page's only text is never boilerplate -------------------------------------------------------

def test_page_whose_only_text_is_one_sentence_repeated_keeps_it():
    html = (FIXTURES / "faults" / "synthetic-only-text-repeated.html").read_text(encoding="utf-8")
    markdown = html_to_markdown(html, "http://127.0.0.1/page/3")
    assert markdown.startswith("# Page 3\n")
    assert markdown.count("Lorem ipsum dolor sit amet.") == 30


def test_repeated_button_labels_still_go_when_they_are_all_a_page_says():
    # the labels are no sentences: a shop's `Sold Out` badges are not kept as its content
    assert "Sold Out" not in html_to_markdown(pagetype("wcxb-4850.html.gz"), "https://www.thebarnswallow.com/")


# -- the real commands ---------------------------------------------------------------------------

def test_markdown_command_keeps_the_listing_headlines(tmp_path):
    page = tmp_path / "news.html"
    page.write_text(pagetype("wcxb-0082.html.gz"), encoding="utf-8")
    process = scrapy("markdown", page, "--url", NEWS_URL)
    assert process.returncode == 0, process.stderr[-2000:]
    assert "Traceback" not in process.stderr
    _, markdown = parse_document(process.stdout)
    assert HEADLINE in markdown


def test_markdown_command_keeps_the_wikipedia_headings_without_controls():
    process = scrapy("markdown", WIKIPEDIA, "--url", WIKIPEDIA_URL)
    assert process.returncode == 0, process.stderr[-2000:]
    assert "Traceback" not in process.stderr
    _, markdown = parse_document(process.stdout)
    for heading in WIKI_HEADINGS:
        assert heading in markdown.splitlines()
    assert "action=edit" not in markdown


def test_crawl_of_a_page_whose_only_text_repeats_ends_as_an_item(fixture_server, crawl):
    url = fixture_server.url("/faults/synthetic-only-text-repeated.html")
    result = crawl("site", args={"url": url, "max_depth": 0})
    assert result.returncode == 0
    assert [item["url"] for item in result.items] == [url]
    assert "Lorem ipsum dolor sit amet." in result.items[0]["markdown"]
    assert not result.errors
