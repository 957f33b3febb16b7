"""One parse per page (issue 18) and bounded cost per page (issue 22.3), by plain calls.

Real pages come from fixtures/; the hostile pages are synthetic on purpose (attack cases built
in code, named as such).
"""

import asyncio
import json
import random
from itertools import accumulate
from pathlib import Path

from conftest import awaited
from scrapy import signals
from scrapy.http import HtmlResponse, Request
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from crawlforge import settings
from crawlforge.extract import dom, verdict
from crawlforge.extract.dom import MAX_NESTING, ParsedPage
from crawlforge.extract.embedded import extract_embedded_state, page_state
from crawlforge.extract.extractors import jsonld
from crawlforge.extract.markdown import html_to_markdown, page_markdown
from crawlforge.extract.structure import structure_signature, tree_signature
from crawlforge.extract.structured import extract_structured_data, page_structured_data
from crawlforge.extract.verdict import page_doc, parsed_page_doc
from crawlforge.middlewares.resume import ResumeMiddleware
from crawlforge.parsed import item_page, response_page
from crawlforge.pipelines.markdown import MarkdownPipeline
from crawlforge.pipelines.structure import StructurePipeline
from crawlforge.pipelines.structured import StructuredDataPipeline
from crawlforge.spiders.base import page_item
from crawlforge.spiders.site import SiteSpider

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
IKEA = FIXTURES / "demo" / "products" / "ikea_gb_moeckelby_table_jsonld.html"
IKEA_URL = "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/"
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


def test_the_app_state_the_product_readers_read_is_the_one_the_embedded_state_step_takes():
    html = (FIXTURES / "embedded" / "redux_preloaded_state_wired_com.html").read_text(encoding="utf-8")
    page = ParsedPage(html)
    page_structured_data(page, URL)  # no price in its markup: the app-state reader looks at the state
    read = page.shared(page_state)
    assert read["found"][0]["variable"] == "__PRELOADED_STATE__"
    assert extract_embedded_state(html) is read  # the str API finds the page of that very string
    again = extract_embedded_state(html)
    assert again == read and again is not read  # handed once: the caller owns it


def test_a_doctype_selectolax_cannot_clone_is_parsed_again():
    html = '<!DOCTYPE html\n  SYSTEM "HTML">\n<html><body><article><h1>Title</h1><p>Body text here.</p></article></body></html>'
    assert "Body text here." in page_markdown(ParsedPage(html), URL)


def test_the_spiders_page_carries_the_verdicts_parse_to_the_pipelines_and_not_into_the_feed():
    response = HtmlResponse(IKEA_URL, body=IKEA.read_bytes(), encoding="utf-8", request=Request(IKEA_URL))
    item = page_item(response)
    parsed = item_page(item, item.html)
    assert parsed is item._parsed and parsed.html is response.text
    crawler = get_crawler(SiteSpider)
    crawler.spider = crawler._create_spider(url=IKEA_URL)
    for pipeline in (StructuredDataPipeline, MarkdownPipeline, StructurePipeline):
        awaited(build_from_crawler(pipeline, crawler).process_item(item))
    assert item_page(item, item.html) is parsed
    assert item.markdown and item.structure_signature and item.structured_data
    assert "_parsed" not in item.model_dump() and "parsed" not in json.loads(item.model_dump_json())


def test_the_markdown_step_prunes_the_pages_own_tree_and_the_later_readers_read_it_as_it_was():
    html = IKEA.read_text(encoding="utf-8")
    response = HtmlResponse(IKEA_URL, body=IKEA.read_bytes(), encoding="utf-8", request=Request(IKEA_URL))
    item = page_item(response)
    tree = item_page(item, item.html).tree
    before = tree.html
    crawler = get_crawler(SiteSpider, {name: getattr(settings, name) for name in dir(settings) if name.isupper()})
    crawler.spider = crawler._create_spider(url=IKEA_URL)
    for pipeline in (MarkdownPipeline, StructurePipeline):
        awaited(build_from_crawler(pipeline, crawler).process_item(item))
    page = item_page(item, item.html)
    assert "tree" not in page.__dict__ and len(tree.html) < len(before)  # taken and pruned, no copy made
    assert item.markdown == html_to_markdown(html, IKEA_URL)
    assert item.structure_signature == structure_signature(html)  # made before the pruning
    assert tree_signature(page.tree) == structure_signature(html)  # a later reader parses the page again


def test_a_requests_parse_is_freed_when_its_items_are_through_not_when_the_response_dies():
    response = HtmlResponse(IKEA_URL, body=IKEA.read_bytes(), encoding="utf-8", request=Request(IKEA_URL))
    response.css("title")  # a spider's selector: the response and it now hold each other
    page = response_page(response)
    assert page.tree is not None
    middleware = ResumeMiddleware(get_crawler(SiteSpider))

    async def callback_output():
        yield {"url": IKEA_URL}

    async def consumed():
        return [element async for element in middleware.process_spider_output(response, callback_output())]

    items = asyncio.run(consumed())
    assert "tree" in page.__dict__  # the item is still in the pipelines
    middleware.crawler.signals.send_catch_log(signals.item_scraped, item=items[0], response=response, spider=None)
    assert "tree" not in page.__dict__ and response_page(response) is not page


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


def test_broken_jsonld_block_over_the_repair_bound_is_skipped_with_a_warning():
    data = extract_structured_data(synthetic_broken_jsonld(100_000), URL)
    assert data.errors == []
    assert "too large to repair" in data.warnings[0]["message"]


def test_broken_jsonld_blocks_past_the_pages_repair_time_are_skipped(monkeypatch):
    monkeypatch.setattr(jsonld, "REPAIR_BUDGET_SECONDS", -1.0)
    data = extract_structured_data(synthetic_broken_jsonld(1000), URL)
    assert "repair time" in data.warnings[0]["message"]
