"""extract() through the real openai SDK against the replay server on 127.0.0.1, and the
split/merge and self-correction logic with a stand-in client."""

import json
from pathlib import Path

import pytest

from crawlforge.extract.markdown import html_to_markdown
from crawlforge.llm import Client, ExtractionResult, extract
from crawlforge.llm.client import Completion
from crawlforge.llm.schemas import ProductList
from crawlforge.testing.llm_server import ReplayServer, load_recordings

LLM = Path(__file__).resolve().parent.parent / "fixtures" / "llm"
PAGES = {
    "ikea": ("ikea_gb_moeckelby_table_jsonld.html", "https://www.ikea.com/gb/en/p/moeckelby-table-oak-00293772/"),
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


def test_extract_keeps_nineteen_of_twenty_through_the_openai_sdk(replay):
    server = replay()
    client = Client(server.url, "replay-model")
    result = extract(page_markdown("ikea"), ProductList, client=client)
    assert isinstance(result, ExtractionResult)
    assert len(result.partial_items) == 19
    assert result.data == {"products": result.partial_items}
    assert [e["path"] for e in result.errors] == ["products.11.price"]
    assert result.usage == {"calls": 1, "prompt_tokens": 2630, "completion_tokens": 1210,
                            "total_tokens": 3840, "repairs": 0, "corrections": 0}
    assert json.loads(result.raw)["products"][11]["price"] == "More options available"
    request = server.requests[0]
    assert request["model"] == "replay-model"
    assert request["response_format"] == {"type": "json_object"}
    assert request["temperature"] == 0
    prompt = request["messages"][1]["content"]
    assert "Current price as a number, without currency symbol" in prompt  # field description
    assert "£450" in prompt  # the page itself


def test_self_correction_round_sends_the_errors_and_keeps_the_better_answer(replay):
    server = replay()
    result = extract(page_markdown("ikea"), ProductList, client=Client(server.url, "replay-model"),
                     self_correct=True)
    assert len(result.data["products"]) == 20
    assert result.data["products"][11] == {
        "name": "HENRIKSDAL", "description": "Chair with long cover", "price": 70.0, "currency": "GBP"}
    assert result.partial_items == [] and result.errors == []
    assert (result.usage["calls"], result.usage["corrections"], result.usage["total_tokens"]) == (2, 1, 8928)
    correction = server.requests[1]["messages"]
    assert [m["role"] for m in correction] == ["system", "user", "assistant", "user"]
    assert "products.11.price" in correction[-1]["content"]


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


class ScriptedClient:
    """Answers by which section of the page a request carries."""

    def __init__(self, answers: dict[str, str]):
        self.answers = answers
        self.prompts: list[str] = []

    def complete(self, messages, json_schema=None, timeout=None):
        prompt = messages[-1]["content"]
        self.prompts.append(prompt)
        text = next(answer for key, answer in self.answers.items() if key in prompt)
        return Completion(text, {"prompt_tokens": 100, "completion_tokens": 10})


def test_page_over_budget_is_split_on_headings_and_lists_merged_without_duplicates():
    markdown = page_markdown("ikea")
    similar = markdown.index("## Similar products")
    others = markdown.index("## Others also viewed")
    piece = lambda *names: json.dumps({"products": [{"name": n, "price": p, "currency": "GBP"} for n, p in names]})  # noqa: E731
    client = ScriptedClient({
        "## Others also viewed": piece(("MÖCKELBY", 350), ("SKOGSTA", 40)),
        "## Similar products": piece(("SKOGSTA", 399), ("NORDEN", 229)),
        "": piece(("SKOGSTA", 399)),  # any other piece repeats one product
    })
    budget = 1 + max(len(markdown[similar:others].encode()) // 4, 600)
    result = extract(markdown, ProductList, client=client, token_budget=budget)
    assert len(client.prompts) >= 3
    assert sum("## Similar products" in p for p in client.prompts) == 1
    assert [(p["name"], p["price"]) for p in result.data["products"]] == [
        ("SKOGSTA", 399.0), ("NORDEN", 229.0), ("MÖCKELBY", 350.0), ("SKOGSTA", 40.0)]
    assert result.usage["calls"] == len(client.prompts)
    assert result.errors == []


def test_instructions_and_rules_for_missing_values_are_in_the_prompt():
    client = ScriptedClient({"": '{"products": []}'})
    result = extract("# Empty page", ProductList, client=client, instructions="Only tables, not chairs.")
    assert result.data == {"products": []}
    assert "Instructions:\nOnly tables, not chairs." in client.prompts[0]
    assert "# Empty page" in client.prompts[0]
