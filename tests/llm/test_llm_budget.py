"""Fitting a real page to a model's context, without a model: the frontmatter first, long values
trimmed before content, whole units kept by relevance, list pages split into pieces. Token
counts here are the estimate (``estimate_tokens``); test_llm_local.py counts with the model."""


import pytest

from conftest import ROOT

from crawlforge.extract.frontmatter import parse_document
from crawlforge.extract.markdown import html_to_markdown
from crawlforge.extract.units import segment_units
from crawlforge.llm import Client, extract
from crawlforge.llm.budget import estimate_tokens, fit_page, schema_query
from crawlforge.llm.prompt import build_messages, correction_messages
from crawlforge.llm.schemas import ProductList
from crawlforge.llm.validate import validate_output
from tests.llm_pages import SOFA, page_item
from tests.llm_schemas import RequiredProduct

FIXTURES = ROOT / "fixtures"


def unit_texts(markdown: str) -> list[str]:
    return [unit["text"] for unit in segment_units(markdown)]


def test_a_page_over_budget_keeps_its_frontmatter_and_its_most_relevant_whole_units():
    document = page_item(SOFA, main_content=False)["document"]  # 1.66 MB of HTML, the whole page
    assert estimate_tokens(document) > 10_000
    page = fit_page(document, schema_query(RequiredProduct), 1500, estimate_tokens)
    (text,) = page.pieces
    assert estimate_tokens(text) <= 1500 and page.tokens_sent == estimate_tokens(text)
    assert page.tokens_dropped == estimate_tokens(document) - page.tokens_sent
    frontmatter, body = parse_document(text)
    assert frontmatter["structured_data"]["price"] == "4345" and frontmatter["structured_data"]["currency"] == "AUD"
    assert body.startswith("# Atelier Sofa\n")  # the page's title leads
    assert "Price: 4345 AUD" in body  # the unit that names the price ranks first
    original = set(unit_texts(parse_document(document)[1]))
    kept = unit_texts(body)
    assert len(kept) > 10 and all(unit in original for unit in kept)  # no sentence or row cut


def test_long_frontmatter_values_are_trimmed_before_any_content_is_left_out():
    document = page_item(SOFA)["document"]
    frontmatter, body = parse_document(document)
    description = frontmatter["structured_data"]["product_description"]
    assert len(description) > 500
    budget = estimate_tokens(document) - 200  # the description alone is longer than that
    page = fit_page(document, schema_query(RequiredProduct), budget, estimate_tokens)
    (text,) = page.pieces
    trimmed, kept_body = parse_document(text)
    assert kept_body == body  # every unit of the content is still there
    assert trimmed["structured_data"]["product_description"].endswith("…")
    assert len(trimmed["structured_data"]["product_description"]) <= 501
    assert trimmed["meta"]["title"] == "Atelier Sofa" and trimmed["structured_data"]["product_name"] == "Atelier Sofa"
    assert 0 < page.tokens_dropped <= estimate_tokens(description)


def test_a_list_schema_page_is_split_into_pieces_within_budget_that_keep_every_unit():
    document = page_item(SOFA, main_content=False)["document"]
    page = fit_page(document, schema_query(ProductList), 1500, estimate_tokens, split=True)
    assert len(page.pieces) >= 6
    assert all(estimate_tokens(piece) <= 1500 for piece in page.pieces)
    assert page.pieces[0].startswith("---\n") and not any(p.startswith("---\n") for p in page.pieces[1:])
    body = parse_document(document)[1]
    sent = [unit for piece in page.pieces for unit in unit_texts(parse_document(piece)[1])]
    assert sent == unit_texts(body)  # all of them, in page order, none cut


def test_the_query_is_the_schemas_field_names_and_descriptions():
    query = schema_query(ProductList)
    assert query.startswith("products All products on the page, in page order name Product name exactly as shown")
    assert "Every product offered" not in query  # the model's docstring says what it is for


def test_a_context_too_small_for_prompt_and_answer_is_an_error_before_any_call():
    client = Client("http://127.0.0.1:9/v1", "m", max_retries=0)  # nothing listens: no size reported
    result = extract("# A page\n\nPrice: 4 EUR.\n", RequiredProduct, client=client, context_tokens=600)
    assert result.usage["calls"] == 0 and result.data is None
    (error,) = result.errors
    assert error["type"] == "context"
    assert error["message"].startswith("a context of 600 tokens leaves no room for the page")


def test_without_a_tokenizer_the_estimate_errs_on_the_long_side():
    # two bytes a token: product pages measured 2.05 to 4.35 bytes a token with the model's tokenizer
    assert estimate_tokens("Price: 4345 AUD") == 8
    assert estimate_tokens("€") == 2  # three bytes


def test_the_retry_sends_the_answer_back_with_its_errors_and_no_more_than_ten():
    messages = build_messages("# Sofa\n\nPrice: 4345 AUD\n", RequiredProduct)
    answer = '{"price": 4345, "currency": "AUD"}'
    errors = [{"path": "name", "message": "Field required", "type": "missing"}] * 30
    retry = correction_messages(messages, answer, errors)
    assert retry[:2] == messages and retry[2] == {"role": "assistant", "content": answer}
    assert retry[3]["content"].count("- name: Field required") == 10
    wordy = [{"path": f"products.{i}.price", "message": "Input should be a valid number " * 9, "type": "x"}
             for i in range(30)]
    listed = correction_messages(messages, answer, wordy)[3]["content"].split("\n")[1:-1]
    assert 1 < len(listed) < 10 and sum(len(line) + 1 for line in listed) <= 800  # the room kept for it


def test_the_fields_that_validate_are_kept_when_a_required_one_is_missing():
    checked = validate_output({"price": "4345", "currency": "AUD", "name": None}, RequiredProduct)
    assert checked.data is None
    assert checked.fields == {"price": 4345.0, "currency": "AUD"}
    assert [e["path"] for e in checked.errors] == ["name"]
    assert validate_output({"products": [{"name": 1}]}, ProductList).fields == {}  # lists keep items instead


@pytest.mark.parametrize(("path", "kind", "query"), [
    ("demo/articles/hacks_mozilla_org_fetch_api_code_tables.html", "code_block", "fetch request headers response"),
    ("demo/articles/wikipedia_en_mozilla_tables_lists.html", "table_row", "founded founder industry products"),
])
def test_code_blocks_and_table_rows_are_kept_whole_or_left_out(path, kind, query):
    html = (FIXTURES / path).read_text(encoding="utf-8")
    markdown = html_to_markdown(html, "https://example.org/")
    units = segment_units(markdown)
    page = fit_page(markdown, query, 800, estimate_tokens)
    (text,) = page.pieces
    assert estimate_tokens(text) <= 800 and page.tokens_dropped > 0
    kept = segment_units(text)
    original = {(unit["kind"], unit["text"]) for unit in units}
    assert kind in {unit["kind"] for unit in kept}
    assert all((unit["kind"], unit["text"]) in original for unit in kept)
