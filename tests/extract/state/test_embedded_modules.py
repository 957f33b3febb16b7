"""Flight rows, framework payloads and carriers (templates.md §5.3.1-§5.3.5)."""

import json

from conftest import ROOT

from crawlforge.extract.state.carriers import (
    is_inertia_page_script,
    is_shopify_product_json_script,
    read_inertia_page,
    read_json_attributes,
    read_shopify,
)
from crawlforge.extract.embedded import extract_embedded_state
from crawlforge.extract.state.flight import flight_data_rows, parse_flight_rows, resolve_flight_rows
from crawlforge.extract.state.framework_data import decode_nuxt_data, read_sveltekit_data
from crawlforge.extract.state.jsjson import byte_size, dumps, js_key_order, loads

FIXTURES = ROOT / "fixtures" / "embedded"
STATE = FIXTURES.parent / "structured" / "embedded-state"  # shared captures live there


# --- flight -------------------------------------------------------------------------------

def test_text_row_length_counts_utf8_bytes_including_its_newline():
    rows = parse_flight_rows("1:T6,h\u00e9\u00e9\n14:[\"$\",\"div\",null,{}]\n4:I[1,[],\"\"]\n")
    assert rows == {"1": "h\u00e9\u00e9\n", "4": 'I[1,[],""]', "14": ["$", "div", None, {}]}


def test_error_rows_and_non_json_rows():
    rows = parse_flight_rows('0:E{"digest":"x"}\n1:E{oops\n2:HL["/a.css","style"]\nnoise\n3:"$Sreact.fragment"\n')
    assert rows == {"0": {"$error": {"digest": "x"}}, "1": "E{oops", "2": 'HL["/a.css","style"]',
                    "3": "$Sreact.fragment"}


def test_rows_enumerate_in_js_object_key_order():
    assert list(js_key_order({"b": "$a", "a": [1], "1": [2]})) == ["1", "b", "a"]
    assert list(parse_flight_rows('1a:{}\n9:{}\n0:{}\n')) == ["0", "9", "1a"]


def test_forty_thousand_tiny_text_rows_parse_in_one_pass():
    stream = "".join(f"{i}:T2,x\n" for i in range(40_000))
    rows = parse_flight_rows(stream)
    assert len(rows) == 40_000
    assert rows["0"] == rows["39999"] == "x\n"


def test_pinned_resolution_cases():
    assert resolve_flight_rows({"1": {"price": 9}, "2": {"item": "$1"}}) == {
        "rows": {"1": {"price": 9}, "2": {"item": {"price": 9}}}, "resolved": 1, "cycles": 0, "over_budget": 0}
    cycle = resolve_flight_rows({"1": {"next": "$2"}, "2": {"next": "$1"}})
    assert cycle["rows"] == {"1": {"next": {"next": {"$ref": "1"}}}, "2": {"next": {"$ref": "1"}}}
    assert cycle["cycles"] == 1
    self_ref = resolve_flight_rows({"4": {"a": {"self": "$4:a"}, "b": "$4"}})
    assert self_ref["rows"] == {"4": {"a": {"self": {"$ref": "4"}}, "b": {"$ref": "4"}}}
    assert self_ref["cycles"] == 2
    capped = resolve_flight_rows({"0": ["leaf"], "1": ["$0", "$0"], "2": ["$1", "$1"]}, budget_bytes=0)
    assert capped["rows"]["2"] == ["$1", "$1"]
    assert (capped["resolved"], capped["over_budget"]) == (0, 4)


def test_escapes_paths_and_markup_rows():
    rows = {"1": ["$", "div", None, {"title": "T"}], "2": "I[1]", "3": {"t": "$1:props:title", "m": "$2",
                                                                          "d": "$$1", "x": "$1:missing", "l": "$L1"}}
    resolved = resolve_flight_rows(rows)["rows"]["3"]
    assert resolved == {"t": "T", "m": "$2", "d": "$1", "x": "$1:missing", "l": "$L1"}
    assert rows["3"]["d"] == "$$1"  # input not mutated


def test_long_reference_chain_resolves_without_recursion():
    rows = {"0": ["leaf"]}
    for index in range(1, 20_000):
        rows[format(index, "x")] = [f"${index - 1:x}"]
    result = resolve_flight_rows(rows)
    assert result["resolved"] + result["over_budget"] == 19_999


def test_data_rows_skip_markup_and_sort_by_size():
    rows = {"0": {"a": 1}, "1": ["$", "div", None, {}], "2": [["$", "p", None, {}], "text"], "3": [1, 2, 3],
            "4": "I[1]", "5": []}
    assert flight_data_rows(rows) == [
        {"id": "0", "bytes": 7, "keys": ["a"], "length": None},
        {"id": "3", "bytes": 7, "keys": None, "length": 3},
        {"id": "5", "bytes": 2, "keys": None, "length": 0},
    ]


# --- JS-style JSON sizes (§0.2) ------------------------------------------------------------------

def test_sizes_follow_js_json_stringify():
    assert dumps({"a": [1.0, -0.0, 1e21, 1.5e-7, float("nan"), "é\n"]}) == '{"a":[1,0,1e+21,1.5e-7,null,"é\\n"]}'
    assert byte_size({"aspect_ratio": 1.0, "t": "é"}) == len('{"aspect_ratio":1,"t":"é"}'.encode())
    assert dumps("\ud800") == '"\\ud800"'


# --- Nuxt devalue and SvelteKit ------------------------------------------------------------------

def test_devalue_payload_with_revivers_sentinels_and_cycles():
    payload = [{"a": 1, "b": 2}, "x", ["Set", 1, 1, 3], ["Reactive", 4], {"c": 5}, [-1, -3, -6, 2]]
    decoded = decode_nuxt_data(payload)
    assert decoded["warnings"] == []
    assert decoded["value"] == {"a": "x", "b": ["x", {"c": [None, None, 0, {"$ref": "b"}]}]}
    assert payload[2] == ["Set", 1, 1, 3]


def test_devalue_failures_are_warnings():
    assert decode_nuxt_data({"a": 1}) == {"value": None, "warnings": [
        "__NUXT_DATA__ is not a devalue payload (expected a non-empty array); not decoded."]}
    proto = decode_nuxt_data([{"__proto__": 1}, 2])
    assert proto["value"] is None
    assert proto["warnings"][0].startswith("__NUXT_DATA__ could not be decoded: ")
    chain = decode_nuxt_data([[index + 1] for index in range(200_000)] + [1])
    assert chain["value"] is None and chain["warnings"][0].startswith("__NUXT_DATA__ could not be decoded")
    unknown = decode_nuxt_data([["Foo", 1], {"a": 2}, 3])
    assert unknown == {"value": {"a": 3}, "warnings": [
        "__NUXT_DATA__ uses reviver type(s) this reader does not know (Foo); each was read as its plain value."]}


def test_devalue_sparse_array_of_huge_length_becomes_an_object():
    decoded = decode_nuxt_data([[-7, 4294967295, 1, 1], "z"])
    assert decoded["value"] == {"1": "z"}
    assert decoded["warnings"] == [
        'A sparse array of declared length 4294967295 at "" was read as an object of its populated indices.']


def test_nuxt_com_state_decodes_to_objects():
    result = extract_embedded_state((FIXTURES / "nuxt-com-home.html").read_text(encoding="utf-8"))
    state = result["data"]["nuxt_data"]["state"]
    assert state["$scolor-mode"]["preference"] == "dark"
    assert state["$sstats"]["repo"] == "nuxt/nuxt"


def test_sveltekit_boot_script_on_svelte_dev_home():
    result = read_sveltekit_data((FIXTURES / "svelte-dev-home.html").read_text(encoding="utf-8"))
    assert result["warnings"] == []
    assert isinstance(result["value"], list) and result["value"][0]["type"] == "data"
    assert read_sveltekit_data("<script>kit.start(app, el, {data: [1]})</script>") is None
    missing = read_sveltekit_data("<script>__sveltekit_abc = {};</script>")
    assert missing == {"value": None, "warnings": [
        "A SvelteKit boot script is present but its kit.start(…) data could not be located."]}
    refused = read_sveltekit_data("<script>__sveltekit_x = {}; kit.start(app, el, {data: [{a:1}, foo()]})</script>")
    assert refused["value"] == [{"a": 1}, None]
    assert refused["warnings"] == ["SvelteKit data[1] was not evaluated (not a literal: a function call); read as null."]


# --- carriers ------------------------------------------------------------------------------------

def test_carrier_script_recognisers():
    assert is_inertia_page_script('data-page="app" type="application/json"')
    assert not is_inertia_page_script('type="application/json"')
    assert is_shopify_product_json_script('type="application/json" data-product-json')
    assert is_shopify_product_json_script('type="application/json" id="ProductJson-1"')
    assert not is_shopify_product_json_script('type="application/json" data-product-json-extra')
    assert not is_shopify_product_json_script('type="application/json" id="MyProductJson-1"')


def test_inertia_attribute_is_entity_decoded_and_non_objects_warned():
    html = '<div id="app" data-page="{&quot;component&quot;:&quot;Home&quot;}"></div>'
    assert read_inertia_page(html) == {"value": {"component": "Home"}, "warnings": []}
    assert read_inertia_page('<div data-page="app"></div>') is None
    bad = read_inertia_page('<div data-page="{oops"></div>')
    assert bad["value"] is None and "not a JSON object" in bad["warnings"][0]


def test_carriers_named_in_capitals_pass_the_substring_gates():
    """The cheap "is it here at all" checks before each scan ignore ASCII case, as the scans do."""
    demo = (FIXTURES / "inertia-demo-data-page.html").read_text(encoding="utf-8")
    assert read_inertia_page(demo.replace("data-page", "DATA-Page"))["value"] == read_inertia_page(demo)["value"]
    script = (FIXTURES / "inertia-laracasts-script.html").read_text(encoding="utf-8")
    upper = read_inertia_page(script.replace("data-page", "Data-PAGE").replace("application/json", "Application/JSON"))
    assert upper["value"]["component"] == read_inertia_page(script)["value"]["component"]
    kyomo = (STATE / "shopify-kyomo-data-product-json.html").read_text(encoding="utf-8")
    assert read_shopify(kyomo.replace("application/json", "APPLICATION/JSON")) == read_shopify(kyomo)
    svelte = (FIXTURES / "svelte-dev-home.html").read_text(encoding="utf-8")
    assert read_sveltekit_data(svelte.replace("__sveltekit_", "__SvelteKit_")) == read_sveltekit_data(svelte)


def test_shopify_meta_unreadable_literal_is_a_warning():
    html = "<script>ShopifyAnalytics.meta = {product: 1};</script>"
    assert read_shopify(html) == {"value": {}, "warnings": [
        "ShopifyAnalytics.meta is assigned a value that is not a JSON literal; not parsed."]}
    assert read_shopify('<script>var meta = {"product":{}};</script>') is None


def test_json_attributes_on_allbirds_carry_tag_and_size():
    attributes = read_json_attributes((STATE / "allbirds-product.html").read_text(encoding="utf-8"))
    assert [(a["tag"], a["attribute"], a["id"]) for a in attributes] == [
        ("div", "data-product-object", None), ("div", "data-colorway-variants", None)]
    assert attributes[0]["data"]["handle"] == "mens-cruiser-medium-grey"
    assert all(len(json.dumps(a["data"], ensure_ascii=False)) >= 2048 for a in attributes)


def test_devalue_builtins_become_json_values():
    # devalue 6.0.3 stringify() of {m: Map, pairs: Map, s: Set, d: Date, r: RegExp, b: 10n, u: URL,
    # t: Uint8Array, n: null-prototype object, boxed: Object(5), special: [undefined, NaN, Infinity, -0]}
    payload = [
        {"m": 1, "pairs": 4, "s": 7, "d": 9, "r": 10, "b": 11, "u": 12, "t": 13, "n": 15, "boxed": 16, "special": 18},
        ["Map", 2, 3], "k", "v", ["Map", 5, 6], 1, "a", ["Set", 5, 8], 2, ["Date", "1970-01-01T00:00:00.000Z"],
        ["RegExp", "a", "g"], ["BigInt", "10"], ["URL", "https://x.test/"], ["Uint8Array", 14],
        ["ArrayBuffer", "AQI="], ["null", "k", 5], ["Object", 17], 5, [-1, -3, -4, -6],
    ]
    assert decode_nuxt_data(payload) == {"value": {
        "m": {"k": "v"}, "pairs": [[1, "a"]], "s": [1, 2], "d": "1970-01-01T00:00:00.000Z", "r": "/a/g", "b": "10",
        "u": "https://x.test/", "t": [1, 2], "n": {"k": 1}, "boxed": 5, "special": [None, None, None, 0],
    }, "warnings": []}


def test_devalue_revivers_and_empty_refs():
    assert decode_nuxt_data([{"a": 1, "b": 3, "c": 5, "d": 7}, ["EmptyRef", 2], "_", ["EmptyShallowRef", 4], "0n",
                             ["EmptyRef", 6], '{"n":1}', ["EmptyShallowRef", 8], "not json"])["value"] == {
        "a": None, "b": 0, "c": {"n": 1}, "d": "not json"}
    assert decode_nuxt_data([["Reactive", 0]])["value"] is None  # a self-reviving reviver


def test_devalue_exponential_sharing_is_bounded_and_depth_is_cut():
    doubling = decode_nuxt_data([[i + 1, i + 1] for i in range(40)] + ["leaf"])
    assert "output budget (5000000 units)" in doubling["warnings"][0]
    assert '"$ref"' in json.dumps(doubling["value"])
    deep = decode_nuxt_data([[i + 1] for i in range(1000)] + ["bottom"])
    assert "bottom" not in json.dumps(deep["value"])
    assert deep["warnings"] == ["Branches nested deeper than 512 levels were cut and read as null."]


def test_devalue_boxed_values_and_sets_of_distinct_objects():
    # As devalue 6 writes `new Set([new Date(0), new Date(0)])` and `Object("s")`.
    payload = [{"s": 1, "b": 4}, ["Set", 2, 3], ["Date", "1970-01-01T00:00:00.000Z"],
               ["Date", "1970-01-01T00:00:00.000Z"], ["Object", 5], "s"]
    assert decode_nuxt_data(payload)["value"] == {
        "s": ["1970-01-01T00:00:00.000Z", "1970-01-01T00:00:00.000Z"], "b": "s"}


def test_loads_gives_keys_in_javascript_order():
    """JSON.parse enumerates array-index keys ascending before the others, also when a key is
    written with escapes; other digit-like keys ("01", "-1") keep their place."""
    assert list(loads('{"b": 1, "10": 0, "2": 0, "01": 0, "a": 0}')) == ["2", "10", "b", "01", "a"]
    assert list(loads('{"b": 1, "\\u0033": 0}')) == ["3", "b"]
    assert list(loads('{"b": 1, "a": {"c": 0, "7": 1}}')["a"]) == ["7", "c"]
