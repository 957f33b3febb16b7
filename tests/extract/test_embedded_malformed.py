"""Hostile and broken input: warnings, never exceptions; nothing truncated; nothing run.

Every page here is synthetic on purpose (a fault case), built in the test.
"""

import json
import random

from hypothesis import given, settings, strategies as st

from crawlforge.extract.embedded import extract_embedded_state

TEN_MB = 10 * 1024 * 1024


def wrap(script, attrs=""):
    return f"<html><body><script{attrs}>{script}</script></body></html>"


def test_ten_megabyte_state_is_read_whole():
    blob = "x" * TEN_MB
    result = extract_embedded_state(wrap('window.__INITIAL_STATE__ = {"blob":"' + blob + '"};'))
    assert len(result["data"]["initial_state"]["blob"]) == TEN_MB
    assert result["found"] == [{"name": "initial_state", "variable": "__INITIAL_STATE__", "bytes": TEN_MB + 11}]


def test_ten_megabyte_unterminated_literal_is_a_warning():
    result = extract_embedded_state(wrap("window.__APOLLO_STATE__ = {" + "a" * TEN_MB))
    assert result["data"] == {}
    assert result["warnings"] == [
        "__APOLLO_STATE__ is present but its value is not a JSON or JavaScript literal "
        "(it calls code or reads other variables); not parsed."
    ]


def test_fifty_thousand_levels_of_nesting_give_warnings():
    deep = "[" * 50_000 + "]" * 50_000
    script_block = extract_embedded_state(wrap(deep, ' type="application/json" id="deep"'))
    assert script_block["data"] == {}
    [warning] = script_block["warnings"]  # the reader's bound, not a claim that the JSON is bad
    assert warning.startswith('A <script type="application/json" id="deep"> block is JSON nested deeper than about')
    assignment = extract_embedded_state(wrap("window.__STATE__=" + deep))
    assert assignment["data"] == {}
    assert "__STATE__ is present but its value is not a JSON or JavaScript literal" in assignment["warnings"][0]
    nuxt = extract_embedded_state(wrap(json.dumps([[1]] + [[i + 2] for i in range(60_000)] + [1]),
                                       ' type="application/json" id="__NUXT_DATA__"'))
    assert nuxt["warnings"][0].startswith("__NUXT_DATA__ could not be decoded: ")
    assert nuxt["data"]["json_scripts"][0]["id"] == "__NUXT_DATA__"


def test_binary_garbage_and_bytes_input():
    garbage = random.Random(7).randbytes(200_000)
    assert extract_embedded_state(garbage.decode("latin-1"))["found"] == []
    assert extract_embedded_state(garbage)["found"] == []
    assert extract_embedded_state(b"\xff\xfe<script>window.__NUXT__={\"a\":1}</script>")["data"]["nuxt"] == {"a": 1}


def test_unterminated_sources_are_skipped_or_warned():
    flight = extract_embedded_state('<script>self.__next_f.push([1,"0:{\\"a\\":1}\\n')
    assert flight["found"] == []
    apollo = extract_embedded_state('<script>(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push({"a":</script>')
    assert apollo["found"] == []
    nuxt = extract_embedded_state(wrap('window.__NUXT__={"a":"unterminated'))
    assert nuxt["data"] == {} and len(nuxt["warnings"]) == 1
    shopify = extract_embedded_state(wrap("var meta = {\"product\":{\"id\":1}; for (var attr in meta) "
                                          "{ window.ShopifyAnalytics.meta[attr] = meta[attr]; }"))
    assert shopify["warnings"] == ["ShopifyAnalytics.meta is assigned a value that is not a JSON literal; not parsed."]


def test_code_is_never_run():
    result = extract_embedded_state(wrap(
        "window.__NUXT__=(function(){__import__('os').system('touch pwned');return {}}())"
    ))
    assert result["data"] == {}
    assert "not a JSON or JavaScript literal" in result["warnings"][0]


_FRAGMENTS = st.sampled_from([
    "<script>", "</script>", '<script type="application/json" id="__NEXT_DATA__">', '<script type="text/json">',
    '<script id="__NUXT_DATA__" type="application/json">', "window.__NUXT__=", "__INITIAL_STATE__ = ",
    'self.__next_f.push([1,"', '"])', "0:T5,", "1:", "$1", "\\n", "{", "}", "[", "]", '"', "'", ",", ":",
    "(function(a){return ", "}(1))", "undefined", "<!--", "-->", 'data-page="{&quot;a&quot;:1}"',
    "ShopifyAnalytics.meta = ", "var meta = ", "kit.start(app, e, {data:[", "__sveltekit_x = {",
    '(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push(', "1e999", "-0", "\ud800", "\x00",
])


@settings(max_examples=200, deadline=None)
@given(st.lists(_FRAGMENTS | st.text(max_size=20), max_size=40).map("".join), st.booleans())
def test_random_pages_give_plain_json_results(html, raw):
    result = extract_embedded_state(html, raw=raw)
    assert set(result) == {"data", "found", "warnings"}
    json.dumps(result)
    assert [item["name"] for item in result["found"]] == [key for key in result["data"]]
