"""Repair and partial recovery on a corpus of malformed model answers (fixtures/llm/synthetic_*).

The answers are hand-written in the shapes models are known to produce; their values are
the products listed on the real IKEA page in fixtures/demo/products/ (see PROVENANCE.md)."""


from pydantic import BaseModel, RootModel

from conftest import ROOT

from crawlforge.llm.chunks import merge_values
from crawlforge.llm.repair import parse_json_output
from crawlforge.llm.schemas import Product, ProductList
from crawlforge.llm.validate import validate_output

CORPUS = ROOT / "fixtures" / "llm"


def _run(name: str, schema=ProductList):
    parsed = parse_json_output((CORPUS / name).read_text(encoding="utf-8"))
    return parsed, validate_output(parsed.value, schema)


def _names(products: list[dict]) -> list[str]:
    return [p["name"] for p in products]


def test_code_fence_is_stripped():
    parsed, result = _run("synthetic_fenced.txt")
    assert parsed.repaired
    assert _names(result.data["products"]) == ["SKOGSTA", "NORDEN", "NORDVIKEN"]
    assert result.errors == [] and result.partial_items == []


def test_prose_around_the_json_is_dropped():
    parsed, result = _run("synthetic_prose_around.txt")
    assert parsed.repaired
    assert result.data["products"][0] == {
        "name": "SKOGSTA", "description": "Dining table 235x100 cm", "price": 399.0, "currency": "GBP"}
    assert len(result.data["products"]) == 3


def test_trailing_commas_are_repaired():
    parsed, result = _run("synthetic_trailing_commas.txt")
    assert parsed.repaired
    assert [p["price"] for p in result.data["products"]] == [399.0, 229.0, 399.0]


def test_unclosed_array_keeps_the_complete_items():
    # an answer cut off inside the third item's key: the two whole items survive
    parsed, result = _run("synthetic_unclosed_array.txt")
    assert parsed.repaired
    assert _names(result.data["products"]) == ["SKOGSTA", "NORDEN"]
    assert result.errors == []


def test_single_quoted_python_style_answer_is_repaired():
    _, result = _run("synthetic_single_quotes.txt")
    assert result.data == {"products": [
        {"name": "SKOGSTA", "description": "Dining table 235x100 cm", "price": 399.0, "currency": "GBP"}]}


def test_wrong_types_drop_only_the_items_that_cannot_be_coerced():
    parsed, result = _run("synthetic_wrong_types.txt")
    assert not parsed.repaired
    # "229" coerces to 229.0 and a null optional currency is fine; "£399", 12345 as a name
    # and a null required price are not
    assert [(p["name"], p["price"], p["currency"]) for p in result.partial_items] == [
        ("NORDEN", 229.0, "GBP"), ("NORDEN", 350.0, None)]
    assert result.data == {"products": result.partial_items}
    assert [(e["path"], e["type"]) for e in result.errors] == [
        ("products.0.price", "float_parsing"), ("products.2.name", "string_type"), ("products.4.price", "float_type")]


def test_one_bad_item_of_twenty_keeps_the_other_nineteen():
    _, result = _run("synthetic_one_bad_of_twenty.txt")
    assert len(result.partial_items) == 19
    assert "HENRIKSDAL" not in _names(result.partial_items)
    assert _names(result.partial_items)[10:12] == ["ODGER", "OMTÄNKSAM"]
    assert result.data["products"] == result.partial_items
    assert result.errors == [{
        "path": "products.11.price",
        "message": "Input should be a valid number, unable to parse string as a number",
        "type": "float_parsing",
    }]


def test_bare_list_is_wrapped_into_the_single_list_field():
    parsed, result = _run("synthetic_bare_list.txt")
    assert not parsed.repaired and result.reshaped
    assert _names(result.data["products"]) == ["SKOGSTA", "NORDEN", "NORDVIKEN"]


def test_answer_without_json_is_no_value():
    parsed = parse_json_output((CORPUS / "synthetic_no_json.txt").read_text(encoding="utf-8"))
    assert parsed.value is None


def test_list_root_schema_reports_item_paths_from_the_root():
    products = RootModel[list[Product]]
    _, result = _run("synthetic_wrong_types.txt", schema=products)
    assert result.reshaped  # {"products": [...]} unwrapped for a list schema
    assert [p["name"] for p in result.data] == ["NORDEN", "NORDEN"]
    assert [e["path"] for e in result.errors] == ["0.price", "2.name", "4.price"]


def test_error_outside_a_list_item_leaves_no_data_but_keeps_valid_items():
    class Page(BaseModel):
        title: str
        products: list[Product]

    value = {"title": None, "products": [{"name": "ODGER", "price": 70}, {"name": "LOHALS", "price": "n/a"}]}
    result = validate_output(value, Page)
    assert result.data is None
    assert _names(result.partial_items) == ["ODGER"]
    assert [e["path"] for e in result.errors] == ["title", "products.1.price"]


# A page split into pieces: the answers merged.


def test_merge_concatenates_lists_without_duplicates_and_keeps_first_scalar():
    a = {"title": "One", "products": [{"name": "ODGER", "price": 70}], "note": None}
    b = {"title": "Two", "products": [{"price": 70, "name": "ODGER"}, {"name": "LOHALS", "price": 80}], "note": "x"}
    assert merge_values(a, b) == {
        "title": "One", "products": [{"name": "ODGER", "price": 70}, {"name": "LOHALS", "price": 80}], "note": "x"}


def test_the_page_product_schema_takes_a_price_as_the_page_shows_it():
    from crawlforge.llm.schemas import PageProduct

    assert PageProduct.model_validate({"price": "Rs 23,450"}).price == 23450.0
    assert PageProduct.model_validate({"price": 19.5}).price == 19.5
