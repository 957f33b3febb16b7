"""Upstream conformance: tests/jsonPath.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 0c7d3eba1148c590478ff830376a6d723469edb0 (the stored version):
parseJsonPath / selectJsonPath as crawlforge.extract.embedded.parse_json_path /
select_json_path, whose error is JsonPathError (a KeyError; its message is ``args[0]``).
"""

import pytest

from crawlforge.extract.embedded import JsonPathError, parse_json_path, select_json_path

ROOT = {
    "next_data": {"props": {"pageProps": {"events": [{"name": "first"}, {"name": "second"}]}}},
    "json_scripts": [{"id": "__NUXT_DATA__", "data": {"ok": True}}],
}


def message(path, data=ROOT) -> str:
    with pytest.raises(JsonPathError) as caught:
        select_json_path(data, path)
    return caught.value.args[0]


def test_parse_splits_dotted_keys():
    assert parse_json_path("next_data.props.pageProps") == ["next_data", "props", "pageProps"]


def test_parse_bracket_and_dotted_indexes_alike():
    assert parse_json_path("a[0].b") == ["a", "0", "b"]
    assert parse_json_path("a.0.b") == ["a", "0", "b"]
    assert parse_json_path("a[0][1]") == ["a", "0", "1"]


def test_parse_strips_quotes_inside_brackets():
    assert parse_json_path("apollo_state['ROOT_QUERY']") == ["apollo_state", "ROOT_QUERY"]


def test_parse_ignores_empty_segments():
    assert parse_json_path("a..b.") == ["a", "b"]


def test_select_resolves_an_object_path():
    assert select_json_path(ROOT, "next_data.props.pageProps.events.1") == {"name": "second"}


def test_select_resolves_an_array_index_through_brackets():
    assert select_json_path(ROOT, "json_scripts[0].id") == "__NUXT_DATA__"


def test_select_falsy_leaf_still_resolves():
    assert select_json_path({"a": {"b": False}}, "a.b") is False
    assert select_json_path({"a": {"b": None}}, "a.b") is None
    assert select_json_path({"a": {"b": 0}}, "a.b") == 0


def test_select_inherited_prototype_key_is_not_found():
    assert "not found" in message("toString", {"a": 1})
    assert "not found" in message("constructor", {"a": 1})


def test_select_missing_key_names_where_it_stopped_and_what_was_available():
    text = message("next_data.props.pagePropz")
    assert '"next_data.props" has no "pagePropz"' in text
    assert "available keys: pageProps" in text


def test_select_out_of_range_index_reports_the_array_length():
    assert "array of length 1" in message("json_scripts.7")


def test_select_descending_into_a_scalar_says_so():
    assert "a string value, which has no keys" in message("a.b", {"a": "text"})


def test_select_empty_path_is_rejected():
    assert "is empty" in message("")


def test_select_non_numeric_key_does_not_resolve_against_an_array():
    assert "array of length 1" in message("json_scripts.length")
