"""The LLM pipeline's settings and its fault modes in real crawls: pages from the fixture
server, a model server that fails (down, 500s, hangs, garbage, cut connections). Crawls
against the real model are in test_llm_local.py."""


import time

import pytest
from itemadapter import ItemAdapter
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from conftest import ROOT

from crawlforge.llm.schemas import ProductList
from crawlforge.extract.frontmatter import render_document
from crawlforge.pipelines.llm import LlmPipeline, json_mode_setting, load_schema, page_text
from crawlforge.testing.llm_server import ReplayServer, load_recordings

LLM = ROOT / "fixtures" / "llm"
IKEA = "ikea_gb_moeckelby_table_jsonld.html"
HAPPYCOFFEE = "shopify_happycoffee_de_sidamo.html"


@pytest.fixture
def replay():
    server = ReplayServer(load_recordings(LLM)).start()
    yield server
    server.stop()


@pytest.fixture
def faulty():
    servers = []

    def start(fault: str, **options) -> ReplayServer:
        servers.append(ReplayServer([], fault=fault, **options).start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def test_schema_is_loaded_from_module_colon_name_or_dotted_path():
    assert load_schema("crawlforge.llm.schemas:ProductList") is ProductList
    assert load_schema("crawlforge.llm.schemas.ProductList") is ProductList
    with pytest.raises(ValueError):
        load_schema("crawlforge.llm.schemas:Field")


def test_json_mode_setting_reads_schema_or_a_boolean():
    assert [json_mode_setting(v) for v in (True, "False", "schema", "1", "0")] == [True, False, "schema", True, False]


def test_pipeline_is_off_without_a_schema_and_without_a_server():
    with pytest.raises(NotConfigured):
        LlmPipeline.from_crawler(get_crawler())
    # a schema alone must not reach for any default host
    with pytest.raises(NotConfigured):
        LlmPipeline.from_crawler(get_crawler(settings_dict={"CRAWLFORGE_LLM_SCHEMA": "crawlforge.llm.schemas:ProductList"}))


def test_the_model_reads_the_document_its_markdown_or_its_frontmatter():
    document = render_document({"url": "https://example.com/p", "structured_data": {"price": "34.99"}}, "# Lamp\n")
    item = ItemAdapter({"markdown": "# Lamp\n", "document": document})
    assert page_text(item, "document") == document
    assert page_text(item, "markdown") == "# Lamp\n"
    assert page_text(item, "structured") == "---\nurl: https://example.com/p\nstructured_data:\n  price: '34.99'\n---\n"
    assert page_text(ItemAdapter({"markdown": "# A record\n"}), "document") == "# A record\n"


def test_unknown_input_setting_is_refused_in_one_line():
    with pytest.raises(ValueError, match="CRAWLFORGE_LLM_INPUT must be one of document, markdown, structured"):
        LlmPipeline.from_crawler(get_crawler(settings_dict={
            "CRAWLFORGE_LLM_SCHEMA": "crawlforge.llm.schemas:ProductList", "CRAWLFORGE_LLM_BASE_URL": "http://127.0.0.1:9/v1",
            "CRAWLFORGE_LLM_MODEL": "m", "CRAWLFORGE_LLM_INPUT": "html"}))


def _crawl_settings(replay, **extra):
    return {
        "CRAWLFORGE_LLM_SCHEMA": "crawlforge.llm.schemas:ProductList",
        "CRAWLFORGE_LLM_BASE_URL": replay.url,
        "CRAWLFORGE_LLM_MODEL": "replay-model",
        # the listing cards these answers come from are outside the main content
        "CRAWLFORGE_MARKDOWN_MAIN_CONTENT": "False",
        "CRAWLFORGE_MARKDOWN_IMAGES": "False",
        "CRAWLFORGE_MARKDOWN_LINKS": "False",
        **extra,
    }


def _urls_file(tmp_path, server) -> str:
    urls = tmp_path / "urls.txt"
    urls.write_text(f"{server.url('demo/products/' + IKEA)}\n{server.url('demo/products/' + HAPPYCOFFEE)}\n")
    return str(urls)


def test_unreachable_model_server_is_recorded_on_the_items_and_warned_once(crawl, fixture_server, replay, tmp_path):
    replay.stop()  # nothing listens there any more
    result = crawl("site", args={"urls_file": _urls_file(tmp_path, fixture_server), "follow": "0"},
                   settings=_crawl_settings(replay, CRAWLFORGE_LLM_MAX_RETRIES="0"))
    assert len(result.items) == 2
    for item in result.items:
        assert item["llm_data"] is None and item["markdown"]
        assert item["llm_errors"][0]["type"] == "request"
    assert (result.stats["llm/failures"], result.stats["llm/unanswered"]) == (2, 2)
    warnings = [line for line in result.log.splitlines() if "WARNING" in line and "LLM server" in line]
    assert len(warnings) == 2, warnings  # the first failure, then the count when the crawl closes
    assert "did not answer (APIConnectionError: Connection error.)" in warnings[0]
    assert warnings[1].endswith(f"LLM server {replay.url} did not answer 2 of 2 pages (llm_errors of type request)")


@pytest.mark.parametrize(("fault", "error"), [
    ("500", "InternalServerError"), ("garbage", "BadResponse: the server's answer is not JSON"), ("cut", "APIConnectionError")])
def test_a_failing_model_server_is_an_error_on_each_item(crawl, fixture_server, faulty, tmp_path, fault, error):
    server = faulty(fault)
    result = crawl("site", args={"urls_file": _urls_file(tmp_path, fixture_server), "follow": "0"},
                   settings=_crawl_settings(server, CRAWLFORGE_LLM_MAX_RETRIES="1"))
    assert len(result.items) == 2, result.log[-3000:]
    for item in result.items:
        assert item["llm_data"] is None and item["markdown"]
        assert [e["type"] for e in item["llm_errors"]] == ["request"]
        assert error in item["llm_errors"][0]["message"]
    assert result.stats["llm/failures"] == 2


def test_a_hanging_model_server_meets_the_page_deadline_and_the_crawl_goes_on(crawl, fixture_server, faulty, tmp_path):
    server = faulty("hang", hang_seconds=120)
    started = time.monotonic()
    result = crawl("site", args={"urls_file": _urls_file(tmp_path, fixture_server), "follow": "0"},
                   settings=_crawl_settings(server, CRAWLFORGE_LLM_PAGE_DEADLINE="2", CRAWLFORGE_LLM_CONCURRENCY="1"))
    elapsed = time.monotonic() - started
    assert len(result.items) == 2, result.log[-3000:]
    for item in result.items:
        assert item["llm_data"] is None
        assert item["llm_errors"][0]["type"] in ("request", "deadline"), item["llm_errors"]
    assert any(e["type"] == "deadline" for item in result.items for e in item["llm_errors"])
    assert elapsed < 120  # it ended while the server still held both requests unanswered


def test_fill_in_mode_takes_what_the_page_data_gives_and_asks_for_the_rest():
    from crawlforge.llm.fill import combine, given_fields, missing_schema
    from crawlforge.llm.schemas import PageProduct

    frontmatter = {"structured_data": {"product_name": "Lamp", "price": "34.99", "currency": ""}}
    values, sources = given_fields(PageProduct, frontmatter, {"structured_data.price": "microdata"})
    assert values == {"name": "Lamp", "price": 34.99}
    assert sources == {"name": "structured_data", "price": "microdata"}
    asked = missing_schema(PageProduct, values)
    assert list(asked.model_fields) == ["currency"]
    assert combine(PageProduct, values, {"currency": "GBP"}) == {"name": "Lamp", "price": 34.99, "currency": "GBP"}
    assert missing_schema(PageProduct, {"name": 1, "price": 1, "currency": 1}) is None
