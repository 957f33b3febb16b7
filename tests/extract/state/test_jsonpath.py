"""JSON path selection and key discovery (templates.md §5.4, §5.5)."""

import pytest

from crawlforge.extract.embedded import JsonPathError, select_json_path
from crawlforge.extract.pagehelpers.jsonfind import find_json_paths
from crawlforge.extract.state.jsonpath import parse_json_path

DATA = {"a": {"b": [{"c": 0}, {"d": False}]}, "n": None, "apollo_state": {"ROOT_QUERY": {"x": 1}}}


def error_for(data, path):
    with pytest.raises(JsonPathError) as caught:
        select_json_path(data, path)
    return str(caught.value)


@pytest.mark.parametrize(
    ("path", "segments"),
    [("a[0][1]", ["a", "0", "1"]), ("apollo_state['ROOT_QUERY']", ["apollo_state", "ROOT_QUERY"]),
     ("a..b.", ["a", "b"]), ('x["y"].z', ["x", "y", "z"])],
)
def test_paths_split_on_dots_and_brackets(path, segments):
    assert parse_json_path(path) == segments


def test_falsy_leaves_resolve():
    assert select_json_path(DATA, "a.b.0.c") == 0
    assert select_json_path(DATA, "a.b[1].d") is False
    assert select_json_path(DATA, "n") is None
    assert select_json_path(DATA, "apollo_state['ROOT_QUERY'].x") == 1


def test_errors_name_where_the_walk_stopped_and_what_was_there():
    assert error_for(DATA, "") == 'Path "" is empty'
    assert error_for(DATA, "zz") == 'Path "zz" not found: the result has no "zz" (available keys: a, n, apollo_state)'
    assert error_for(DATA, "a.b.length") == 'Path "a.b.length" not found: "a.b" has no "length" (array of length 2)'
    assert error_for(DATA, "a.b.0.c.d") == (
        'Path "a.b.0.c.d" not found: "a.b.0.c" has no "d" (a number value, which has no keys)')
    assert error_for(DATA, "n.x") == 'Path "n.x" not found: "n" has no "x" (a null value, which has no keys)'
    assert error_for(DATA, "a.toString") == 'Path "a.toString" not found: "a" has no "toString" (available keys: b)'


def test_error_is_a_key_error_listing_at_most_25_keys():
    wide = {f"k{i}": i for i in range(30)}
    with pytest.raises(LookupError) as caught:
        select_json_path(wide, "missing")
    assert isinstance(caught.value, KeyError)
    assert str(caught.value).endswith("k23, k24, … (30 total))")


def test_find_matches_keys_case_insensitively_in_document_order():
    data = {"a": {"Price": 1, "b": [{"price": {"x": "y" * 300}}]}, "c.d": {"price": 2}}
    result = find_json_paths(data, "price", preview_chars=20)
    assert result == {"matches": [
        {"path": "a.Price", "preview": "1"},
        {"path": "a.b.0.price", "preview": '{"x":"yyyyyyyyyyyyyy'},
        {"path": "c.d.price", "preview": "2", "addressable": False},
    ], "total": 3, "truncated": False}


def test_find_limits_truncates_and_bad_input():
    data = {"items": [{"id": i} for i in range(10)]}
    assert find_json_paths(data, "id", limit=2) == {
        "matches": [{"path": "items.0.id", "preview": "0"}, {"path": "items.1.id", "preview": "1"}],
        "total": 10, "truncated": True}
    assert find_json_paths(data, "id", max_nodes=5)["truncated"] is True
    assert find_json_paths("not a container", "id") == {"matches": [], "total": 0, "truncated": False}
    assert find_json_paths(data, 5) == {"matches": [], "total": 0, "truncated": False}


def test_find_walks_100k_deep_input_without_recursion():
    root = node = {}
    for _ in range(100_000):
        node["k"] = {}
        node = node["k"]
    node["price"] = 1
    result = find_json_paths(root, "price")
    assert result["total"] == 1
    assert result["matches"][0]["path"].endswith("k.price")


def test_a_key_reaching_a_walked_container_still_matches_once_per_path():
    node = {"name": "a"}
    node["self"] = node
    result = find_json_paths({"root": node}, "self")
    assert [match["path"] for match in result["matches"]] == ["root.self"]
    assert result["matches"][0]["preview"].startswith('{"name":"a","self":{"name":"a"')
    assert len(result["matches"][0]["preview"]) == 200
    shared = {"price": 10}
    assert [m["path"] for m in find_json_paths({"a": shared, "b": shared}, "price")["matches"]] == ["a.price"]
