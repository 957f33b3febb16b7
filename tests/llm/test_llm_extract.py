"""Fault modes of the model server through the real openai SDK: a server that refuses
``response_format``, one that knows no answer, a key from the environment. What the model
answers is tested against the real model in test_llm_local.py."""


import pytest

from conftest import ROOT

from crawlforge.extract.markdown import html_to_markdown
from crawlforge.llm import Client, extract
from crawlforge.llm.prompt import build_messages
from crawlforge.llm.schemas import ProductList
from crawlforge.testing.llm_server import ReplayServer, load_recordings

LLM = ROOT / "fixtures" / "llm"
PAGES = {
    "happycoffee": ("shopify_happycoffee_de_sidamo.html",
                    "https://de.happycoffee.org/products/happy-coffee-sidamo-bio-kaffeebohnen"),
}


def page_markdown(name: str) -> str:
    file, url = PAGES[name]
    html = (LLM.parent / "demo" / "products" / file).read_bytes().decode("utf-8")
    return html_to_markdown(html, url, main_content=False, include_images=False, include_links=False)


@pytest.fixture
def replay():
    servers = []

    def start(json_mode: bool = True) -> ReplayServer:
        servers.append(ReplayServer(load_recordings(LLM), json_mode=json_mode).start())
        return servers[-1]

    yield start
    for server in servers:
        server.stop()


def test_server_without_json_mode_gets_plain_requests_and_fenced_answer_is_repaired(replay):
    server = replay(json_mode=False)
    client = Client(server.url, "replay-model")
    result = extract(page_markdown("happycoffee"), ProductList, client=client)
    assert result.data == {"products": [
        {"name": "Happy Coffee SIDAMO Bio Bohnen", "description": None, "price": 27.9, "currency": "EUR"}]}
    assert result.usage["repairs"] == 1 and result.usage["calls"] == 1
    assert ["response_format" in r for r in server.requests] == [True, False]
    assert client.json_mode is None  # remembered: the next page asks plainly at once


def test_structured_output_mode_sends_the_schema_and_steps_down_when_refused(replay):
    server = replay(json_mode=False)
    client = Client(server.url, "replay-model", json_mode="schema")
    result = extract(page_markdown("happycoffee"), ProductList, client=client)
    assert result.data["products"][0]["price"] == 27.9
    formats = [r.get("response_format", {}).get("type") for r in server.requests]
    assert formats == ["json_schema", "json_object", None]
    assert server.requests[0]["response_format"]["json_schema"]["schema"] == ProductList.model_json_schema()


def test_api_key_is_read_from_the_named_environment_variable(replay, monkeypatch):
    server = replay()
    monkeypatch.setenv("CRAWLFORGE_TEST_LLM_KEY", "sk-test-123")
    extract(page_markdown("happycoffee"), ProductList,
            client=Client(server.url, "replay-model", api_key_env="CRAWLFORGE_TEST_LLM_KEY"))
    assert server.authorizations == ["Bearer sk-test-123"]


def test_request_failure_is_an_error_record_not_an_exception(replay):
    server = replay()
    result = extract("A page no recording knows.", ProductList, client=Client(server.url, "m", max_retries=0))
    assert result.data is None and result.partial_items == []
    assert result.errors[0]["type"] == "request"
    assert "NotFoundError" in result.errors[0]["message"]
    assert result.usage["calls"] == 0


def test_unknown_client_option_is_refused():
    with pytest.raises(TypeError, match="jsonmode"):
        Client("http://127.0.0.1:9/v1", "m", jsonmode=True)


def test_instructions_and_rules_for_missing_values_are_in_the_prompt():
    system, user = build_messages("# Empty page", ProductList, "Only tables, not chairs.")
    assert "use null" in system["content"]
    assert "Instructions:\nOnly tables, not chairs." in user["content"]
    assert user["content"].endswith("<<<PAGE\n# Empty page\nPAGE>>>")
    assert "Current price as a number, without currency symbol" in user["content"]  # field description
