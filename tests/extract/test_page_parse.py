"""One parse per page (issue 18) and bounded cost per page (issue 22.3), by plain calls.

Real pages come from fixtures/; the hostile pages are synthetic on purpose (attack cases built
in code, named as such).
"""

import asyncio
import json
import random
import threading
from itertools import accumulate

from conftest import ROOT, awaited
from scrapy import signals
from scrapy.http import HtmlResponse, Request
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from crawlforge import settings
from crawlforge.extract import dom, verdict
from crawlforge.extract.dom import MAX_NESTING, ParsedPage, utf8_html
from crawlforge.extract.embedded import embedded_state_of, extract_embedded_state, page_state
from crawlforge.extract.extractors import jsonld
from crawlforge.extract.markdown import html_to_markdown, page_markdown
from crawlforge.extract.product import extract_product
from crawlforge.extract.structure import page_signature
from crawlforge.extract.structure import structure_signature, tree_signature
from crawlforge.extract.structured import extract_structured_data, page_structured_data
from crawlforge.extract.verdict import document_verdict, page_doc, parsed_page_doc
from crawlforge.middlewares.resume import ResumeMiddleware
from crawlforge.parsed import carrying_page, item_page, response_page
from crawlforge.pipelines.markdown import MarkdownPipeline
from crawlforge.pipelines.signature import SignaturePipeline
from crawlforge.pipelines.markdown import taking_content
from crawlforge.pipelines.structured import StructuredDataPipeline
from crawlforge.spiders.base import page_item
from crawlforge.spiders.site import SiteSpider, page_links

FIXTURES = ROOT / "fixtures"
IKEA = FIXTURES / "demo" / "products" / "ikea_gb_moeckelby_table_jsonld.html"
IKEA_URL = "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/"
ARTICLE = FIXTURES / "demo" / "articles" / "hacks_mozilla_org_fetch_api_code_tables.html"
ARTICLE_URL = "https://hacks.mozilla.org/2015/03/this-api-is-so-fetching/"
# A crawled page's stages in crawl order, each given the page (``crawlforge.parsed``).
PAGE_STAGES = (
    lambda page, url: document_verdict(parsed_page_doc(page, url, 200, whole_text=False), None, page),
    lambda page, url: page_links(page, url, "utf-8"),
    lambda page, url: page_structured_data(page, url).to_dict(),
    lambda page, url: embedded_state_of(page),
    lambda page, url: taking_content(page, url),
    lambda page, url: page.handed(page_signature),
)
URL = "https://shop.example/p/1"


def synthetic_nested_divs(depth: int) -> str:
    return "<html><body>" + "<div>" * depth + "deep text" + "</div>" * depth + "</body></html>"


def synthetic_broken_jsonld(chars: int) -> str:
    words = " ".join("word" for _ in range(chars // 5))
    return (f'<html><head><title>t</title><script type="application/ld+json">{{"@type": "Product", {words}'
            "</script></head><body><p>text</p></body></html>")


def test_second_entry_points_give_what_the_html_ones_give_and_leave_the_tree_as_it_was():
    html = IKEA.read_text(encoding="utf-8")
    page = ParsedPage(html)
    before = page.tree.html
    assert page_markdown(page, IKEA_URL) == html_to_markdown(html, IKEA_URL)
    assert parsed_page_doc(page, IKEA_URL, 200) == page_doc(html, IKEA_URL, 200)
    assert tree_signature(page.tree) == structure_signature(html)
    assert page_structured_data(page, IKEA_URL).to_dict() == extract_structured_data(html, IKEA_URL).to_dict()
    assert page.tree.html == before


def test_each_str_function_takes_the_page_itself_and_leaves_its_tree_as_it_was():
    html = IKEA.read_text(encoding="utf-8")
    page = ParsedPage(html)
    before = page.tree.html
    assert html_to_markdown(page, IKEA_URL) == html_to_markdown(html, IKEA_URL)
    assert extract_structured_data(page, IKEA_URL).to_dict() == extract_structured_data(html, IKEA_URL).to_dict()
    assert extract_product(page, IKEA_URL) == extract_product(html, IKEA_URL)
    assert extract_embedded_state(page) == extract_embedded_state(html)
    assert page_doc(page, IKEA_URL, 200) == page_doc(html, IKEA_URL, 200)
    assert structure_signature(page) == structure_signature(html)
    assert page.tree.html == before and page.runs["structured_data"] == 1  # read once, for all of them


def test_the_app_state_the_product_readers_read_is_the_one_the_embedded_state_step_takes():
    html = (FIXTURES / "embedded" / "redux_preloaded_state_wired_com.html").read_text(encoding="utf-8")
    page = ParsedPage(html)
    page_structured_data(page, URL)  # no price in its markup: the app-state reader looks at the state
    read = page.shared(page_state)
    assert read["found"][0]["variable"] == "__PRELOADED_STATE__"
    assert embedded_state_of(page) is read  # the embedded-state step is handed what the readers read
    again = embedded_state_of(page)
    assert again == read and again is not read  # handed once: the caller owns it
    assert extract_embedded_state(html) == read  # the str form: a page of its own, the same state


def test_two_pages_stages_interleaved_on_two_threads_give_each_page_its_own_output():
    pages = {IKEA_URL: IKEA.read_text(encoding="utf-8"), ARTICLE_URL: ARTICLE.read_text(encoding="utf-8")}
    alone = {url: [stage(ParsedPage(html), url) for stage in PAGE_STAGES] for url, html in pages.items()}
    taking_turns, outputs, errors = threading.Barrier(len(pages)), {}, []

    def run(url: str, html: str) -> None:
        page, outputs[url] = ParsedPage(html), []
        try:
            for stage in PAGE_STAGES:
                taking_turns.wait(timeout=60)  # both pages are between the same two stages
                outputs[url].append(stage(page, url))
        except Exception as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
            taking_turns.abort()

    threads = [threading.Thread(target=run, args=item) for item in pages.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert outputs == alone
    assert outputs[IKEA_URL][4].page_type == "product" and outputs[ARTICLE_URL][4].page_type != "product"


def test_a_callers_change_to_its_structured_data_is_in_no_other_calls_result():
    html = IKEA.read_text(encoding="utf-8")
    data = extract_structured_data(html, IKEA_URL)
    price = data.structured_data["price"]
    data.structured_data["price"] = "0.01"
    assert extract_product(html, IKEA_URL)["price"] == price
    assert extract_structured_data(html, IKEA_URL).structured_data["price"] == price
    assert f"{price}" in html_to_markdown(html, IKEA_URL)


def test_a_doctype_selectolax_cannot_clone_is_parsed_again():
    html = '<!DOCTYPE html\n  SYSTEM "HTML">\n<html><body><article><h1>Title</h1><p>Body text here.</p></article></body></html>'
    assert "Body text here." in page_markdown(ParsedPage(html), URL)


def test_the_spiders_page_carries_the_verdicts_page_to_the_pipelines_and_not_into_the_feed():
    response = carrying_page(HtmlResponse(IKEA_URL, body=IKEA.read_bytes(), encoding="utf-8", request=Request(IKEA_URL)))
    page = response.page
    page.tree  # the verdict's parse
    item = page_item(response)
    assert item.html is page.html  # the text decoded once
    crawler = get_crawler(SiteSpider)
    crawler.spider = crawler._create_spider(url=IKEA_URL)
    for pipeline in (StructuredDataPipeline, MarkdownPipeline, SignaturePipeline):
        awaited(build_from_crawler(pipeline, crawler).process_item(item))
    assert item.markdown and item.structure_signature and item.structured_data
    assert page.runs["structured_data"] == 1 and page.runs["page_signature"] == 1  # made on this page, once
    assert list(json.loads(item.model_dump_json())) == list(item.model_dump())  # nothing but the fields
    assert item.model_dump()["html"] == page.html and not isinstance(item.model_dump().get("parsed"), ParsedPage)


def test_the_markdown_step_prunes_the_pages_own_tree_and_the_later_readers_read_it_as_it_was():
    html = IKEA.read_text(encoding="utf-8")
    response = HtmlResponse(IKEA_URL, body=IKEA.read_bytes(), encoding="utf-8", request=Request(IKEA_URL))
    item = page_item(response)
    tree = item_page(item, item.html).tree
    before = tree.html
    crawler = get_crawler(SiteSpider, {name: getattr(settings, name) for name in dir(settings) if name.isupper()})
    crawler.spider = crawler._create_spider(url=IKEA_URL)
    for pipeline in (MarkdownPipeline, SignaturePipeline):
        awaited(build_from_crawler(pipeline, crawler).process_item(item))
    page = item_page(item, item.html)
    assert not page.has_tree and len(tree.html) < len(before)  # taken and pruned, no copy made
    assert item.markdown == html_to_markdown(html, IKEA_URL)
    assert item.structure_signature == structure_signature(html)  # made before the pruning
    assert tree_signature(page.tree) == structure_signature(html)  # a later reader parses the page again


def test_a_requests_page_is_freed_when_its_items_are_through_not_when_the_response_dies():
    response = carrying_page(HtmlResponse(IKEA_URL, body=IKEA.read_bytes(), encoding="utf-8", request=Request(IKEA_URL)))
    response.css("title")  # a spider's selector: the response and it now hold each other
    page = response_page(response)
    assert page is response.page and page.tree is not None
    middleware = ResumeMiddleware(get_crawler(SiteSpider))

    async def callback_output():
        yield {"url": IKEA_URL}

    async def consumed():
        return [element async for element in middleware.process_spider_output(response, callback_output())]

    items = asyncio.run(consumed())
    assert page.has_tree  # the item is still in the pipelines
    middleware.crawler.signals.send_catch_log(signals.item_scraped, item=items[0], response=response, spider=None)
    assert not page.has_tree and page.made(utf8_html) is None


def test_nesting_past_the_cap_is_not_walked_by_the_signature_and_keeps_its_text():
    html = synthetic_nested_divs(5000)
    depths = structure_signature(html)["depths"]
    assert max(map(int, depths)) <= MAX_NESTING + 3
    assert page_doc(html)["text"] == "deep text"


def test_the_depth_bound_of_the_nesting_cap_is_never_under_the_deepest_tag():
    rng = random.Random(11)
    for _ in range(300):
        rising = rng.random()  # some streams open far more tags than they close
        steps = ["" if rng.random() < rising else "/" for _ in range(rng.randrange(1, 3000))]
        deepest = max(accumulate(1 if step == "" else -1 for step in steps))
        assert dom._depth_bound(steps, "/") >= deepest


def test_collapse_a_piece_at_a_time_is_str_split():
    rng = random.Random(7)
    pieces = ["word", " ", "\n\n", "\xa0", "\u3000", "x" * 50, "\t"]
    text = "".join(rng.choice(pieces) for _ in range(200_000))
    assert verdict.collapse(text) == " ".join(text.split())


def test_collapse_keeps_a_collapsed_text_and_collapses_any_other_whitespace():
    rng = random.Random(3)
    pieces = ["a", "é", " ", "  ", "\n", "\t", "\xa0", "\u3000", "\u2028", "\x85", "\x1c"]
    for _ in range(5000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(12)))
        assert verdict.collapse(text) == " ".join(text.split()), repr(text)
    collapsed = "word " * 100 + "end"
    assert verdict.collapse(collapsed) is collapsed


def test_broken_jsonld_block_over_the_repair_bound_is_skipped_with_a_warning():
    data = extract_structured_data(synthetic_broken_jsonld(100_000), URL)
    assert data.errors == []
    assert "too large to repair" in data.warnings[0]["message"]


def test_broken_jsonld_blocks_past_the_pages_repair_time_are_skipped(monkeypatch):
    monkeypatch.setattr(jsonld, "REPAIR_BUDGET_SECONDS", -1.0)
    data = extract_structured_data(synthetic_broken_jsonld(1000), URL)
    assert "repair time" in data.warnings[0]["message"]
