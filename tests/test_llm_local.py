"""The LLM path against a real model: Qwen2.5-Coder-0.5B behind llama.cpp's server on 127.0.0.1
(``crawlforge.testing.local_model``), started once for the session. Pages are short and answers
capped, so the file runs in a few minutes on one core."""

from pathlib import Path

import pytest
from itemadapter import ItemAdapter

from crawlforge.extract.frontmatter import render_document
from crawlforge.extract.markdown import html_to_markdown
from crawlforge.extract.structured import extract_structured_data
from crawlforge.llm import Client, extract
from crawlforge.llm.chunks import split_markdown
from crawlforge.llm.schemas import PageProduct, ProductList
from crawlforge.pipelines.frontmatter import build_frontmatter
from crawlforge.pipelines.llm import page_text
from crawlforge.testing import local_model as model_server

pytestmark = pytest.mark.llm

PAGES = Path(__file__).resolve().parent.parent / "fixtures" / "llm" / "pages"
OLX = "olx_pk_infinix_hot10.html"
# a page takes seconds on an idle core, minutes on a machine busy with other work
CRAWL_TIMEOUT = 600
PROCESSED_AT = "2026-12-01 00:00:00"
OLX_URL = "https://www.olx.com.pk/item/infinix-hot-10-6128-wala-box-pack-warranty-wala-iid-1021493409"


def olx_item() -> ItemAdapter:
    """The page as the pipelines leave it for the LLM: its markdown and its document."""
    html = (PAGES / OLX).read_text(encoding="utf-8")
    markdown = html_to_markdown(html, OLX_URL)
    structured = extract_structured_data(html, OLX_URL).to_frontmatter()
    frontmatter = build_frontmatter(ItemAdapter({"url": OLX_URL, "html": html, "structured_data": structured}), False)
    # the same prompt on every run: at temperature 0 the model's answer is then the same too
    frontmatter["processed_at"] = PROCESSED_AT
    return ItemAdapter({"markdown": markdown, "document": render_document(frontmatter, markdown)})


def model_settings(local_model, **extra):
    return {"CRAWLFORGE_LLM_BASE_URL": local_model, "CRAWLFORGE_LLM_MODEL": "local",
            "CRAWLFORGE_LLM_MAX_TOKENS": "96", "CRAWLFORGE_LLM_TOKEN_BUDGET": "2500", **extra}


def test_crawl_with_a_schema_ends_with_llm_data_that_validates(crawl, fixture_server, local_model):
    result = crawl("site", args={"url": fixture_server.url(f"llm/pages/{OLX}"), "follow": "0",
                                 "schema": "crawlforge.llm.schemas:PageProduct"},
                   settings=model_settings(local_model), timeout=CRAWL_TIMEOUT)
    assert result.returncode == 0, result.log[-3000:]
    item = result.items[0]
    assert item["llm_errors"] == [], item["llm_errors"]
    data = PageProduct.model_validate(item["llm_data"])
    assert (data.price, data.currency) == (23450, "PKR")  # from the frontmatter: the markdown shows "Rs 23,450"
    assert item["llm_errors"] == []
    assert (result.stats["llm/pages"], result.stats["llm/calls"]) == (1, 1)
    assert result.stats["llm/tokens/prompt"] > 300


def test_page_over_the_token_budget_is_split_and_the_answers_merged(local_model):
    text = page_text(olx_item(), "document")
    pieces = split_markdown(text, 120)
    client = Client(local_model, "local", max_tokens=64)
    result = extract(text, PageProduct, client=client, token_budget=120)
    assert len(pieces) >= 2  # the markdown's length decides how many (the description is on the page too)
    assert result.usage["calls"] == len(pieces) and result.errors == []
    assert result.raw.count("INFINIX HOT 10") >= 1  # the pieces' answers, joined
    merged = PageProduct.model_validate(result.data)
    assert merged.name == "INFINIX HOT 10 6/128 WALA BOX PACK WARRANTY WALA"


def test_fill_missing_asks_only_for_what_the_page_data_lacks(crawl, fixture_server, local_model):
    result = crawl("site", args={"url": fixture_server.url(f"llm/pages/{OLX}"), "follow": "0",
                                 "schema": "tests.llm_schemas:Listing"},
                   settings=model_settings(local_model, CRAWLFORGE_LLM_FILL_MISSING="True"), timeout=CRAWL_TIMEOUT)
    item = result.items[0]
    assert item["llm_provenance"] == {"name": "json-ld", "price": "json-ld", "currency": "json-ld", "location": "llm"}
    assert item["llm_data"]["price"] == 23450 and item["llm_data"]["currency"] == "PKR"
    assert "Sialkot" in item["llm_data"]["location"]


def test_without_response_format_the_models_own_answer_is_repaired(local_model):
    client = Client(local_model, "local", json_mode=False, max_tokens=160)
    result = extract(page_text(olx_item(), "document"), ProductList, client=client)
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
