"""``POST /scrape`` with a JSON Schema, filled by the real local model through the crawl's own LLM
pipeline (``llm`` marker: needs the llm-model extra)."""

from __future__ import annotations

import jsonschema
import pytest

from tests.serving import Served

pytestmark = pytest.mark.llm

OLX = "llm/pages/olx_pk_infinix_hot10.html"
SCHEMA = {"type": "object", "required": ["price"], "properties": {
    "price": {"type": "number", "description": "the selling price as a number"},
    "currency": {"type": "string", "description": "ISO 4217 currency code of the price"}}}


def test_scrape_with_a_json_schema_returns_llm_data(fixture_server, local_model):
    served = Served(settings={"CRAWLFORGE_LLM_BASE_URL": local_model, "CRAWLFORGE_LLM_MODEL": "local",
                              "CRAWLFORGE_LLM_MAX_TOKENS": "96", "CRAWLFORGE_LLM_TOKEN_BUDGET": "2500",
                              "CRAWLFORGE_API_DEADLINE": "600"})
    try:
        status, answer = served.request("/scrape", {"url": fixture_server.url(OLX), "schema": SCHEMA}, timeout=620)
    finally:
        served.stop()
    assert status == 200 and answer["ok"], answer
    item = answer["item"]
    assert item["llm_errors"] == [], item["llm_errors"]
    jsonschema.validate(item["llm_data"], SCHEMA)
    assert item["llm_data"]["price"] == 23450
