"""Upstream conformance: tests/jsonFind.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 067322582ff41fa6af6099554a9db4d7a9214a13 (the stored version):
findJsonPaths as crawlforge.extract.pagehelpers.jsonfind.find_json_paths (options limit, preview_chars,
max_nodes). Expected previews are written out as JavaScript's ``JSON.stringify(v).slice(0, n)``
gives them (UTF-16 units). JS ``undefined`` has no Python value: a dict member holding it is
left out and a list slot holding it is ``None``, which stringify renders identically.
"""

import json

from conftest import ROOT

from crawlforge.extract.embedded import extract_embedded_state, select_json_path
from crawlforge.extract.pagehelpers.jsonfind import find_json_paths

FIXTURES = ROOT / "fixtures" / "embedded"
EMPTY = {"matches": [], "total": 0, "truncated": False}


def js_preview(value, n: int = 200) -> str:
    """JSON.stringify(value).slice(0, n) for the plain values these tests use."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    units = text.encode("utf-16-le", "surrogatepass")[: 2 * n]
    return units.decode("utf-16-le", "surrogatepass")


def assert_round_trips(root, result) -> None:
    for match in result["matches"]:
        if match.get("addressable") is False:
            continue
        assert match["preview"] == js_preview(select_json_path(root, match["path"])), match["path"]


def paths(result) -> list[str]:
    return [m["path"] for m in result["matches"]]


ROOT = {
    "page": {
        "Specialty": "Cardiology",
        "providers": [
            {"name": "A", "specialty": {"code": "PS127", "label": "Cardiology"}},
            {"name": "B", "specialty": "Electrophysiology"},
        ],
    },
    "specialty": None,
}


def test_finds_every_key_case_insensitively_in_document_order():
    result = find_json_paths(ROOT, "specialty")
    assert paths(result) == ["page.Specialty", "page.providers.0.specialty", "page.providers.1.specialty", "specialty"]
    assert result["total"] == 4
    assert result["truncated"] is False
    assert_round_trips(ROOT, result)


def test_match_nested_inside_a_match_comes_after_it():
    assert paths(find_json_paths({"a": {"tag": {"tag": 1}}}, "tag")) == ["a.tag", "a.tag.tag"]


def test_array_indexes_are_not_keys():
    assert find_json_paths({"list": ["x", "y"]}, "0")["total"] == 0


def test_preview_is_the_first_preview_chars_of_the_json():
    expected = {
        "long": '"' + "é" * 199,
        "tree": ('{"a":[1,"two",null,true,{"deep":"' + "x" * 300)[:200],
        "list": '[null,1.5,0,"q\\"uote"]',
        "emoji": '"' + "😀" * 99 + "\ud83d",
        "empty": "{}",
    }
    values = {
        "long": "é" * 500,
        "tree": {"a": [1, "two", None, True, {"deep": "x" * 300}], "c": 3},
        "list": [None, 1.5, -0.0, 'q"uote'],
        "emoji": "😀" * 150,
        "empty": {},
    }
    for name, value in values.items():
        assert find_json_paths({name: value}, name)["matches"][0]["preview"] == expected[name], name
    short = find_json_paths({"k": {"a": "abcdef"}}, "k", preview_chars=7)
    assert short["matches"][0]["preview"] == '{"a":"a'


def test_keys_the_path_syntax_cannot_spell_are_not_addressable():
    odd = {"a.b": {"id": 1}, "x[0]": {"id": 2}, "": {"id": 3}, "c]": {"id": 4}, "ok": {"id": 5}}
    result = find_json_paths(odd, "id")
    assert [[m["path"], m.get("addressable")] for m in result["matches"]] == [
        ["a.b.id", False], ["x[0].id", False], [".id", False], ["c].id", None], ["ok.id", None],
    ]  # fmt: skip
    assert all("addressable" not in m for m in result["matches"][3:])
    assert_round_trips(odd, result)
    assert find_json_paths({"odd.key": 1}, "odd.key")["matches"][0]["addressable"] is False


def test_limit_caps_matches_total_keeps_counting():
    many = [{"id": i} for i in range(120)]
    result = find_json_paths(many, "id")
    assert len(result["matches"]) == 50
    assert result["total"] == 120
    assert result["truncated"] is True
    assert result["matches"][49]["path"] == "49.id"
    assert_round_trips(many, result)
    assert paths(find_json_paths(many, "id", limit=3)) == ["0.id", "1.id", "2.id"]


def test_stops_at_max_nodes_and_reports_truncation():
    result = find_json_paths([{"id": i} for i in range(1000)], "id", max_nodes=100)
    assert result["truncated"] is True
    assert result["total"] < 1000


def test_cyclic_input_does_not_loop_and_its_preview_is_bounded():
    a = {"name": "a"}
    a["self"] = a
    a["list"] = [a]
    result = find_json_paths({"root": a}, "self")
    assert paths(result) == ["root.self"]
    assert len(result["matches"][0]["preview"]) <= 200
    assert result["matches"][0]["preview"].startswith('{"name":"a","self":{"name":"a"')


def test_shared_subtree_is_walked_once_at_its_first_path():
    shared = {"price": 10}
    assert paths(find_json_paths({"a": shared, "b": shared}, "price")) == ["a.price"]


def test_100k_deep_payload_is_walked_without_overflowing():
    deep = {"needle": "found"}
    for _ in range(100000):
        deep = {"n": deep}
    result = find_json_paths(deep, "needle")
    assert result["total"] == 1
    assert result["matches"][0]["preview"] == '"found"'
    assert len(result["matches"][0]["path"].split(".")) == 100001


def test_non_object_root_or_non_string_key_finds_nothing():
    assert find_json_paths("text", "a") == EMPTY
    assert find_json_paths(None, "a") == EMPTY
    assert find_json_paths({"a": 1}, None) == EMPTY


def test_healthgrades_find_specialty_resolves_in_one_more_call():
    data = extract_embedded_state((FIXTURES / "healthgrades-rsc.html").read_text(encoding="utf-8"))["data"]
    result = find_json_paths(data, "specialty")
    assert result["total"] >= 1
    assert result["matches"][0]["path"] == "next_f.33.2.3.children.3.children.0.0.3.specialty"
    assert select_json_path(data, result["matches"][0]["path"]) == "Cardiology"
    assert all("addressable" not in m for m in result["matches"])
    assert_round_trips(data, result)
