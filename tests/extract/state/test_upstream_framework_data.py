"""Upstream conformance: tests/frameworkData.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit f38dc235025a869fcde852c0f86bc4f84acda307 (the stored version):
decodeNuxtData / readSvelteKitData as crawlforge.extract.state.framework_data.decode_nuxt_data /
read_sveltekit_data, on the nuxt.com and svelte.dev captures (fixtures/embedded). The
devalue built-ins payload is devalue 6.0.3's own ``stringify`` output of the upstream object.
"""

import copy
import json
import re

import pytest

from conftest import ROOT

from crawlforge.extract.state.framework_data import decode_nuxt_data, read_sveltekit_data

FIXTURES = ROOT / "fixtures" / "embedded"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def nuxt_data_block(html: str):
    return json.loads(re.search(r'<script[^>]*\bid="__NUXT_DATA__"[^>]*>([\s\S]*?)</script>', html).group(1))


# --- nuxt.com (live) ----------------------------------------------------------------------

PARSED = nuxt_data_block(fixture("nuxt-com-home.html"))
BEFORE = copy.deepcopy(PARSED)
NUXT = decode_nuxt_data(PARSED)


def test_raw_block_is_index_arrays_decoded_state_is_objects():
    assert PARSED[0]["state"] == 1
    assert PARSED[1] == ["Reactive", 2]
    state = NUXT["value"]["state"]
    assert isinstance(state, dict)
    assert state["$sstats"]["repo"] == "nuxt/nuxt"
    assert state["$sstats"]["stars"] == 60913
    assert state["$ssite-config"]["name"] == "Nuxt"
    assert state["$scolor-mode"] == {"preference": "dark", "value": "dark", "unknown": True, "forced": False}


def test_set_is_an_array_undefined_is_null_top_level_intact():
    value = NUXT["value"]
    assert value["once"] == []
    assert value["_errors"]["chats"] is None
    assert value["serverRendered"] is True
    assert value["path"] == "/"
    assert value["prerenderedAt"] == 1790975763504
    assert NUXT["warnings"] == []


def test_callers_parsed_block_is_not_mutated():
    assert PARSED == BEFORE


# --- revivers -----------------------------------------------------------------------------


def test_ref_shallow_ref_reactive_shallow_reactive_are_their_values():
    result = decode_nuxt_data([{"a": 1, "b": 2, "c": 3, "d": 4}, ["Ref", 5], ["ShallowRef", 5], ["Reactive", 6], ["ShallowReactive", 6], "x", {"k": 5}])
    assert result == {"value": {"a": "x", "b": "x", "c": {"k": "x"}, "d": {"k": "x"}}, "warnings": []}


def test_empty_refs_follow_nuxt():
    result = decode_nuxt_data([
        {"a": 1, "b": 3, "c": 5, "d": 7}, ["EmptyRef", 2], "_", ["EmptyShallowRef", 4], "0n",
        ["EmptyRef", 6], '{"n":1}', ["EmptyShallowRef", 8], "not json",
    ])  # fmt: skip
    assert result["value"] == {"a": None, "b": 0, "c": {"n": 1}, "d": "not json"}


def test_nuxt_error_is_a_plain_object():
    result = decode_nuxt_data([{"error": 1}, ["NuxtError", 2], {"statusCode": 3, "message": 4}, 404, "Page not found"])
    assert result["value"] == {"error": {"statusCode": 404, "message": "Page not found"}}


def test_unknown_type_decodes_as_its_value_with_one_warning():
    result = decode_nuxt_data([{"a": 1, "b": 3}, ["Island", 2], "x", ["Island", 4], "y"])
    assert result["value"] == {"a": "x", "b": "y"}
    assert len(result["warnings"]) == 1
    assert "(Island)" in result["warnings"][0]


# --- JSON-safe conversion -----------------------------------------------------------------


def test_devalue_built_ins_become_json_values():
    payload = [
        {"m": 1, "pairs": 4, "s": 7, "d": 9, "r": 10, "b": 11, "u": 12, "t": 13, "n": 15, "boxed": 16, "special": 18},
        ["Map", 2, 3], "k", "v", ["Map", 5, 6], 1, "a", ["Set", 5, 8], 2, ["Date", "1970-01-01T00:00:00.000Z"],
        ["RegExp", "a", "g"], ["BigInt", "10"], ["URL", "https://x.test/"], ["Uint8Array", 14],
        ["ArrayBuffer", "AQI="], ["null", "k", 5], ["Object", 17], 5, [-1, -3, -4, -6],
    ]  # fmt: skip
    result = decode_nuxt_data(payload)
    assert result["value"] == {
        "m": {"k": "v"}, "pairs": [[1, "a"]], "s": [1, 2], "d": "1970-01-01T00:00:00.000Z", "r": "/a/g",
        "b": "10", "u": "https://x.test/", "t": [1, 2], "n": {"k": 1}, "boxed": 5, "special": [None, None, None, -0.0],
    }  # fmt: skip
    assert result["warnings"] == []


def test_cycle_becomes_ref_to_the_first_path():
    result = decode_nuxt_data([{"state": 1}, {"self": 1, "list": 2}, [1]])
    assert result["value"] == {"state": {"self": {"$ref": "state"}, "list": [{"$ref": "state"}]}}
    json.dumps(result["value"])


def test_shared_non_cyclic_object_is_written_at_each_use():
    assert decode_nuxt_data([{"a": 1, "b": 1}, {"n": 2}, 7])["value"] == {"a": {"n": 7}, "b": {"n": 7}}


def test_exponential_sharing_is_bounded():
    result = decode_nuxt_data([[i + 1, i + 1] for i in range(40)] + ["leaf"])
    assert isinstance(result["value"], list)
    assert "output budget" in " ".join(result["warnings"])
    assert "$ref" in json.dumps(result["value"])


def test_branch_past_the_depth_cap_is_cut_with_a_warning():
    result = decode_nuxt_data([[i + 1] for i in range(1000)] + ["bottom"])
    assert isinstance(result["value"], list)
    assert "bottom" not in json.dumps(result["value"])
    assert "deeper than 512 levels" in result["warnings"][0]


def test_sparse_array_with_huge_declared_length():
    result = decode_nuxt_data([{"sparse": 1}, [-7, 4294967295, 3, 2], 1])
    assert result["value"] == {"sparse": {"3": 1}}
    assert "sparse array of declared length 4294967295" in result["warnings"][0]


def test_proto_key_in_a_decoded_map_stays_an_own_property():
    result = decode_nuxt_data([{"m": 1}, ["Map", 2, 3], "__proto__", {"polluted": 4}, True])
    assert list(result["value"]["m"]) == ["__proto__"]


HOSTILE = {
    "not an array": {"state": 1},
    "empty array": [],
    "out-of-range index": [{"a": 99}],
    "a __proto__ object key": json.loads('[{"__proto__":1},2]'),
    "a self-reviving reviver": [["Reactive", 0]],
    "an invalid BigInt": [{"b": 1}, ["BigInt", "nope"]],
    "an ArrayBuffer that is not base64": [{"t": 1}, ["Uint8Array", 2], ["ArrayBuffer", 5]],
}


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_input_never_raises(name):
    result = decode_nuxt_data(HOSTILE[name])
    assert result["value"] is None
    assert len(result["warnings"]) == 1


def test_200k_long_reference_chain_is_a_warning():
    assert len(decode_nuxt_data([[i + 1] for i in range(200_000)] + [1])["warnings"]) >= 1


# --- read_sveltekit_data (live) -----------------------------------------------------------


def test_svelte_dev_home_both_route_nodes():
    result = read_sveltekit_data(fixture("svelte-dev-home.html"))
    assert result is not None
    assert result["warnings"] == []
    assert len(result["value"]) == 2
    layout, page = result["value"]
    assert layout["type"] == "data"
    assert layout["data"]["nav_links"][0]["title"] == "Docs"
    assert layout["data"]["banner"]["start"] == "2026-08-01T00:00:00.000Z"
    assert page is None


def test_svelte_dev_blog_post_list():
    result = read_sveltekit_data(fixture("svelte-dev-blog.html"))
    assert result["warnings"] == []
    posts = result["value"][1]["data"]["posts"]
    assert posts
    assert posts[-1]["slug"] == "blog/frameworks-without-the-framework"
    assert posts[-1]["metadata"]["author"] == "Rich Harris"


def test_page_without_a_sveltekit_boot_script_is_none():
    assert read_sveltekit_data(fixture("nuxt-com-home.html")) is None
    assert read_sveltekit_data("<html><script>kit.start(a, b, { data: [1] })</script></html>") is None


# --- shapes and refusals ------------------------------------------------------------------


def boot(start: str) -> str:
    return f"""<script>
    __sveltekit_abc123 = {{ base: "" }};
    const element = document.currentScript.parentElement;
    {start}
  </script>"""


def test_promise_all_then_form():
    result = read_sveltekit_data(boot(
        'Promise.all([import("a.js"), import("b.js")]).then(([kit, app]) => { kit.start(app, element, '
        '{ node_ids: [0, 2], data: [null, {type:"data",data:{n:1}}], form: null, error: null }); });'
    ))  # fmt: skip
    assert result == {"value": [None, {"type": "data", "data": {"n": 1}}], "warnings": []}


def test_refused_entry_is_null_with_a_warning_naming_its_index():
    result = read_sveltekit_data(boot('kit.start(app, element, { data: [{type:"data",data:{a:1}}, {type:"data",data:fetchIt()}] });'))
    assert result["value"] == [{"type": "data", "data": {"a": 1}}, None]
    assert len(result["warnings"]) == 1
    assert re.search(r"data\[1\].*function call", result["warnings"][0])


def test_data_that_is_not_an_array_literal_is_evaluated_whole():
    result = read_sveltekit_data(boot("kit.start(app, element, { data: (function(a){return [a,a]}({x:1})) });"))
    assert result["value"] == [{"x": 1}, {"x": 1}]


def test_boot_script_without_locatable_data_says_so():
    result = read_sveltekit_data(boot("kit.start(app, element);"))
    assert result["value"] is None
    assert "could not be located" in result["warnings"][0]


def test_commented_out_boot_script_is_ignored():
    assert read_sveltekit_data(f"<!-- {boot('kit.start(app, element, { data: [1] });')} -->") is None
