"""The LLM path against a real model: Qwen2.5-Coder-0.5B behind llama.cpp's server on 127.0.0.1
(``crawlforge.testing.local_model``), started once for the session. Pages are short and answers
capped, so the file runs in a few minutes on one core."""

import pytest

from crawlforge.extract.markdown import html_to_markdown
from crawlforge.llm import Client, extract
from crawlforge.llm.schemas import PageProduct, ProductList
from crawlforge.pipelines.llm import page_text
from crawlforge.testing import local_model as model_server
from tests.llm_pages import OLX, SOFA, page_html, page_item
from tests.llm_schemas import RequiredProduct

pytestmark = pytest.mark.llm

OLX_FILE = OLX[0]
# a page takes seconds on an idle core, minutes on a machine busy with other work
CRAWL_TIMEOUT = 600
IKEA = ("../../demo/products/ikea_gb_moeckelby_table_jsonld.html",
        "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/")


def model_settings(local_model, **extra):
    return {"CRAWLFORGE_LLM_BASE_URL": local_model, "CRAWLFORGE_LLM_MODEL": "local",
            "CRAWLFORGE_LLM_MAX_TOKENS": "96", **extra}


def crawl_olx(crawl, fixture_server, local_model, schema: str, **settings):
    """The OLX ad crawled from the fixture server with ``schema``; the crawl must succeed."""
    result = crawl("site", args={"url": fixture_server.url(f"llm/pages/{OLX_FILE}"), "follow": "0", "schema": schema},
                   settings=model_settings(local_model, **settings), timeout=CRAWL_TIMEOUT)
    assert result.returncode == 0, result.log[-3000:]
    return result


def test_crawl_with_a_schema_ends_with_llm_data_that_validates(crawl, fixture_server, local_model):
    result = crawl_olx(crawl, fixture_server, local_model, "crawlforge.llm.schemas:PageProduct")
    item = result.items[0]
    assert item["llm_errors"] == [], item["llm_errors"]
    data = PageProduct.model_validate(item["llm_data"])
    assert (data.price, data.currency) == (23450, "PKR")  # from the frontmatter: the markdown shows "Rs 23,450"
    assert item["llm_errors"] == [] and item["llm_partial"] is None
    assert (result.stats["llm/pages"], result.stats["llm/calls"]) == (1, 1)
    assert result.stats["llm/tokens/prompt"] > 300
    assert item["llm_input"]["pieces"] == 1 and item["llm_input"]["tokens_dropped"] == 0


def test_a_page_over_a_megabyte_is_fitted_to_the_4096_token_context(local_model):
    client = Client(local_model, "local", max_tokens=96)
    document = page_text(page_item(SOFA, main_content=False), "document")  # the whole 1.66 MB page
    assert client.context_tokens() == model_server.CONTEXT_TOKENS
    assert client.count_tokens(document) > 8000
    result = extract(document, RequiredProduct, client=client)
    assert result.errors == [] and result.usage["calls"] == 1
    assert (result.data["price"], result.data["currency"]) == (4345, "AUD")
    assert result.input["pieces"] == 1 and result.input["tokens_dropped"] > 6000
    assert result.usage["prompt_tokens"] + 2 * 96 <= model_server.CONTEXT_TOKENS  # room for a retry was kept


def test_an_answer_missing_a_required_field_is_retried_then_its_valid_fields_kept(crawl, fixture_server, local_model):
    # the ad shows no barcode: the model answers null, or a number that is not one, both times
    result = crawl_olx(crawl, fixture_server, local_model, "tests.llm_schemas:ProductWithBarcode")
    item = result.items[0]
    assert item["llm_data"] is None, item["llm_data"]
    assert item["llm_partial"] == {"name": "INFINIX HOT 10 6/128 WALA BOX PACK WARRANTY WALA",
                                   "price": 23450, "currency": "PKR"}, item["llm_errors"]
    assert [e["path"] for e in item["llm_errors"]] == ["gtin"]
    assert (result.stats["llm/calls"], result.stats["llm/corrections"]) == (2, 1)
    assert item["llm_input"] == {"tokens_sent": item["llm_input"]["tokens_sent"], "tokens_dropped": 0, "pieces": 1}


def test_a_list_whose_items_span_two_pieces_is_merged(local_model):
    # the page's "Similar products" cards, sent in two pieces
    markdown = html_to_markdown(page_html(IKEA[0]), IKEA[1], main_content=False, include_images=False,
                                include_links=False)
    cards = markdown[markdown.index("## Similar products"):markdown.index("## Designer thoughts")]
    client = Client(local_model, "local", max_tokens=256)
    result = extract(cards, ProductList, client=client, token_budget=150)
    assert result.input["pieces"] == 2 and result.usage["calls"] >= 2
    names = [product["name"] for product in result.data["products"]]
    assert "SKOGSTA" in names  # the first card, in the first piece
    assert "EKEDALEN" in names  # the last card, in the second


def test_fill_missing_asks_only_for_what_the_page_data_lacks(crawl, fixture_server, local_model):
    result = crawl_olx(crawl, fixture_server, local_model, "tests.llm_schemas:Listing", CRAWLFORGE_LLM_FILL_MISSING="True")
    item = result.items[0]
    assert item["llm_provenance"] == {"name": "json-ld", "price": "json-ld", "currency": "json-ld", "location": "llm"}
    assert item["llm_data"]["price"] == 23450 and item["llm_data"]["currency"] == "PKR"
    assert "Sialkot" in item["llm_data"]["location"]


def test_without_response_format_the_models_own_answer_is_repaired(local_model):
    client = Client(local_model, "local", json_mode=False, max_tokens=160)
    result = extract(page_text(page_item(OLX), "document"), ProductList, client=client)
    # without JSON mode this model often fences its JSON (```json ... ```), which the repair unwraps;
    # at other times it answers bare JSON: either way the answer is read, and a repair counted when made
    fenced = result.raw.startswith("```")
    assert result.usage["repairs"] == int(fenced) and result.usage["calls"] == 1
    (product,) = result.data["products"]
    assert (product["name"], product["price"], product["currency"]) == (
        "INFINIX HOT 10 6/128 WALA BOX PACK WARRANTY WALA", 23450.0, "PKR")
    assert result.errors == [] and result.partial_items == []


def test_the_weights_are_joined_verified_and_a_mismatch_refused(tmp_path, monkeypatch):
    (tmp_path / model_server.MODEL_FILE).write_bytes(b"GGUF but not the model")  # a broken cache entry
    path = model_server.model_path(tmp_path)
    assert model_server.sha256_of(path) == model_server.MODEL_SHA256
    assert path.open("rb").read(4) == b"GGUF"
    monkeypatch.setattr(model_server, "MODEL_SHA256", "0" * 64)  # as if a chunk had changed
    with pytest.raises(model_server.ModelError, match="refused"):
        model_server.model_path(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == [model_server.MODEL_FILE]  # nothing half-written left
