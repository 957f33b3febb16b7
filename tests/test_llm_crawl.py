"""The LLM pipeline in real crawls: pages from the fixture server, answers from the replay
server on 127.0.0.1 through the real openai SDK."""

from pathlib import Path

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from crawlforge.llm.schemas import ProductList
from crawlforge.pipelines.llm import LlmPipeline, json_mode_setting, load_schema
from crawlforge.testing.llm_server import ReplayServer, load_recordings

LLM = Path(__file__).resolve().parent.parent / "fixtures" / "llm"
IKEA = "ikea_gb_moeckelby_table_jsonld.html"
HAPPYCOFFEE = "shopify_happycoffee_de_sidamo.html"


@pytest.fixture
def replay():
    server = ReplayServer(load_recordings(LLM)).start()
    yield server
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


def test_crawl_fills_llm_data_keeps_partial_items_and_counts_stats(crawl, fixture_server, replay, tmp_path):
    result = crawl("site", args={"urls_file": _urls_file(tmp_path, fixture_server), "follow": "0"},
                   settings=_crawl_settings(replay))
    by_page = {item["url"].rsplit("/", 1)[1]: item for item in result.items}
    assert set(by_page) == {IKEA, HAPPYCOFFEE}, result.log[-3000:]
    ikea = by_page[IKEA]
    assert len(ikea["llm_data"]["products"]) == 19
    assert ikea["llm_partial_items"] == ikea["llm_data"]["products"]
    assert [e["path"] for e in ikea["llm_errors"]] == ["products.11.price"]
    assert by_page[HAPPYCOFFEE]["llm_data"] == {"products": [
        {"name": "Happy Coffee SIDAMO Bio Bohnen", "description": None, "price": 27.9, "currency": "EUR"}]}
    assert by_page[HAPPYCOFFEE]["llm_errors"] == []
    stats = result.stats
    assert (stats["llm/pages"], stats["llm/calls"], stats["llm/repairs"]) == (2, 2, 1)
    assert stats["llm/partial_recoveries"] == 1
    assert stats["llm/tokens/total"] == 3840 + 1552
    assert "llm/failures" not in stats
    assert len(replay.requests) == 2


def test_crawl_with_self_correction_recovers_the_bad_item(crawl, fixture_server, replay):
    url = fixture_server.url("demo/products/" + IKEA)
    result = crawl("site", args={"url": url, "follow": "0"},
                   settings=_crawl_settings(replay, CRAWLFORGE_LLM_SELF_CORRECT="True"))
    item = result.items[0]
    assert len(item["llm_data"]["products"]) == 20 and item["llm_errors"] == []
    assert (result.stats["llm/calls"], result.stats["llm/corrections"]) == (2, 1)


def test_unreachable_model_server_is_recorded_on_the_item_not_a_crash(crawl, fixture_server, replay):
    url = fixture_server.url("demo/products/" + HAPPYCOFFEE)
    replay.stop()  # nothing listens there any more
    result = crawl("site", args={"url": url, "follow": "0"},
                   settings=_crawl_settings(replay, CRAWLFORGE_LLM_MAX_RETRIES="0"))
    item = result.items[0]
    assert item["llm_data"] is None
    assert item["llm_errors"][0]["type"] == "request"
    assert result.stats["llm/failures"] == 1
