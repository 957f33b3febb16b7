"""Each page-pipeline stage by plain calls, built the way Scrapy builds it."""

import asyncio

import pytest
from itemadapter import ItemAdapter
from scrapy.exceptions import DropItem
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from conftest import ROOT, awaited
from crawlforge.extract.frontmatter import parse_document
from crawlforge.items import Page
from crawlforge.pipelines.documents import DocumentsPipeline, document_filename
from crawlforge.pipelines.frontmatter import FrontmatterPipeline
from crawlforge.pipelines.markdown import MarkdownPipeline
from crawlforge.pipelines.structured import StructuredDataPipeline
from crawlforge.pipelines.validation import ValidationPipeline
from crawlforge.spiders.site import SiteSpider

FIXTURES = ROOT / "fixtures"
IKEA = FIXTURES / "demo" / "products" / "ikea_gb_moeckelby_table_jsonld.html"
IKEA_URL = "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/"


def crawler_with(settings=None):
    crawler = get_crawler(SiteSpider, settings_dict=settings or {})
    crawler.spider = crawler._create_spider(url=IKEA_URL)
    return crawler


def build(pipeline_class, crawler):
    pipeline = build_from_crawler(pipeline_class, crawler)
    if hasattr(pipeline, "open_spider"):
        pipeline.open_spider()
    return pipeline


def ikea_page() -> Page:
    return Page(url=IKEA_URL, final_url=IKEA_URL, status=200, html=IKEA.read_text(encoding="utf-8"))


def run_stages(item, crawler, *classes):
    for pipeline_class in classes:
        item = awaited(build(pipeline_class, crawler).process_item(item))
    return item


def test_structured_stage_reads_json_ld_before_cleaning():
    crawler = crawler_with()
    item = run_stages(ikea_page(), crawler, StructuredDataPipeline)
    data = ItemAdapter(item)["structured_data"]
    assert data["structured_data"]["currency"] == "GBP"
    assert "MÖCKELBY" in data["structured_data"]["product_name"]
    assert item.title and "MÖCKELBY" in item.title
    assert crawler.stats.get_value("structured_data/found/json-ld") == 1


def test_markdown_stage_keeps_the_product_and_drops_scripts():
    item = run_stages(ikea_page(), crawler_with(), MarkdownPipeline)
    assert "MÖCKELBY" in item.markdown
    assert "<script" not in item.markdown


def test_markdown_stage_follows_spider_arguments():
    # -a images=0 is CRAWLFORGE_MARKDOWN_IMAGES by the time pipelines are built (crawlforge.args;
    # the route itself: tests/test_newcomer_commands.py)
    crawler = crawler_with({"CRAWLFORGE_MARKDOWN_IMAGES": "0"})
    item = run_stages(ikea_page(), crawler, MarkdownPipeline)
    assert "![" not in item.markdown


def test_frontmatter_stage_writes_a_document_that_parses_back():
    item = run_stages(ikea_page(), crawler_with(), StructuredDataPipeline, MarkdownPipeline, FrontmatterPipeline)
    frontmatter, markdown = parse_document(item.document)
    assert list(frontmatter)[:3] == ["url", "processed_at", "content_length"]
    assert frontmatter["url"] == IKEA_URL
    assert frontmatter["content_length"] == len(IKEA.read_bytes())
    assert frontmatter["meta"]["title"] == item.title
    assert frontmatter["structured_data"]["currency"] == "GBP"
    assert markdown.strip() == item.markdown.strip()


def test_validation_drops_a_page_without_content_and_counts_it():
    crawler = crawler_with()
    empty = Page(url="http://127.0.0.1/empty", html="", document="---\nurl: x\n---\n", markdown="")
    with pytest.raises(DropItem, match="no main content"):
        build(ValidationPipeline, crawler).process_item(empty)
    assert crawler.stats.get_value("validation/dropped/no_content") == 1


def test_validation_drops_a_page_whose_assigned_field_breaks_the_schema():
    crawler = crawler_with()
    item = run_stages(ikea_page(), crawler, StructuredDataPipeline, MarkdownPipeline, FrontmatterPipeline)
    item.status = "two hundred"  # assignments are not validated
    with pytest.raises(DropItem, match="1 schema error"):
        build(ValidationPipeline, crawler).process_item(item)
    assert crawler.stats.get_value("validation/dropped/schema") == 1


def test_validation_reads_a_nested_item_as_the_dict_it_exports_as():
    crawler = crawler_with()
    item = run_stages(ikea_page(), crawler, StructuredDataPipeline, MarkdownPipeline, FrontmatterPipeline)
    item.structured_data_conflicts = [Page(url=IKEA_URL)]  # a list of dicts, once exported
    assert build(ValidationPipeline, crawler).process_item(item) is item
    assert crawler.stats.get_value("validation/passed") == 1


def test_validation_removes_raw_html_unless_asked():
    crawler = crawler_with()
    item = run_stages(ikea_page(), crawler, StructuredDataPipeline, MarkdownPipeline, FrontmatterPipeline,
                      ValidationPipeline)
    assert "html" not in ItemAdapter(item).asdict()
    kept = run_stages(ikea_page(), crawler_with({"CRAWLFORGE_EXPORT_HTML": True}), StructuredDataPipeline,
                      MarkdownPipeline, FrontmatterPipeline, ValidationPipeline)
    assert ItemAdapter(kept).asdict()["html"] == IKEA.read_text(encoding="utf-8")


def test_documents_stage_writes_one_file_per_url(tmp_path):
    crawler = crawler_with({"CRAWLFORGE_DOCUMENTS_DIR": str(tmp_path)})
    item = run_stages(ikea_page(), crawler, StructuredDataPipeline, MarkdownPipeline, FrontmatterPipeline)
    asyncio.run(build(DocumentsPipeline, crawler).process_item(item))
    written = tmp_path / document_filename(IKEA_URL)
    assert written.read_text(encoding="utf-8") == item.document


def test_document_filename_is_stable_and_distinct():
    assert document_filename(IKEA_URL) == document_filename(IKEA_URL)
    assert document_filename(IKEA_URL) != document_filename(IKEA_URL + "?page=2")
    assert document_filename(IKEA_URL).startswith("www-ikea-com-gb-en-p-moeckelby")
