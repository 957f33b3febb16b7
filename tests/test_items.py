"""The items' adapter: what itemadapter's stock pydantic adapter does, field for field."""

from itemadapter import ItemAdapter
from itemadapter.adapter import PydanticAdapter

from crawlforge.items import ErrorRecord, ItemModelAdapter, Page


def test_pages_and_error_records_use_the_cached_adapter():
    assert type(ItemAdapter(Page(url="https://example.com/")).adapter) is ItemModelAdapter
    assert type(ItemAdapter(ErrorRecord(url="u", stage="s", reason="r")).adapter) is ItemModelAdapter


def test_the_adapter_reads_and_writes_as_the_stock_one():
    page = Page(url="https://example.com/", title="A title", markdown="# A title")
    ours, stock = ItemAdapter(page), PydanticAdapter(page)
    assert list(ours) == list(stock) and ours.asdict() == {name: stock[name] for name in stock}
    assert ours.get_field_meta("url") == stock.get_field_meta("url")
    ours["status"] = 200
    assert page.status == 200 and ours.get("not_a_field") is None and "not_a_field" not in ours
    try:
        ours["not_a_field"] = 1
    except KeyError as error:
        assert "does not support field: not_a_field" in str(error)
    else:
        raise AssertionError("an unknown field was set")
