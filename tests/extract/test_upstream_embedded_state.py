"""Upstream conformance: tests/embeddedState.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 067322582ff41fa6af6099554a9db4d7a9214a13 (templates.md §0.1):
extractEmbeddedState / findJsonPaths / selectJsonPath as crawlforge.extract.embedded.
extract_embedded_state / crawlforge.extract.pagehelpers.jsonfind.find_json_paths / select_json_path, on the
upstream captures (fixtures/embedded; the Ticketmaster, Healthgrades, elk.zone, nuxt.com and
YouTube pages are the crawlforge-mcp copies, templates.md §7).
"""

import json
import re

import pytest

from conftest import ROOT

from crawlforge.extract.embedded import extract_embedded_state, select_json_path
from crawlforge.extract.state.jsjson import byte_size
from crawlforge.extract.pagehelpers.jsonfind import find_json_paths

FIXTURES = ROOT / "fixtures" / "embedded"


def read(name: str, raw: bool = False) -> dict:
    return extract_embedded_state((FIXTURES / name).read_text(encoding="utf-8"), raw=raw)


def by_name(found: list[dict], name: str) -> dict | None:
    return next((entry for entry in found if entry["name"] == name), None)


def wrap(script: str) -> str:
    return f"<html><body><script>{script}</script></body></html>"


# --- __NEXT_DATA__ (Ticketmaster) ---------------------------------------------------------

TICKETMASTER = read("ticketmaster-next-data.html")


def test_next_data_is_a_parsed_object():
    next_data = TICKETMASTER["data"]["next_data"]
    assert isinstance(next_data, dict)
    assert next_data["buildId"] == "KfC_3GF1zuM-t3vA0Rtwl"
    assert next_data["page"] == "/major-category"


def test_next_data_event_values_survive():
    event = TICKETMASTER["data"]["next_data"]["props"]["pageProps"]["eventsJsonLD"][0][0]
    assert event["@type"] == "MusicEvent"
    assert event["name"] == "Remember When - The Ultimate Tribute to Alan Jackson"


def test_next_data_reported_under_its_variable_with_its_size():
    assert by_name(TICKETMASTER["found"], "next_data") == {
        "name": "next_data",
        "variable": "__NEXT_DATA__",
        "bytes": byte_size(TICKETMASTER["data"]["next_data"]),
    }
    assert TICKETMASTER["warnings"] == []


def test_next_data_is_not_also_a_json_scripts_block():
    assert "json_scripts" not in TICKETMASTER["data"]
    assert len(TICKETMASTER["found"]) == 1


# --- RSC flight stream (Healthgrades) -----------------------------------------------------

HEALTHGRADES = read("healthgrades-rsc.html")
ROWS = HEALTHGRADES["data"]["next_f"]


def test_38_chunks_become_71_rows():
    assert len(ROWS) == 71
    entry = by_name(HEALTHGRADES["found"], "next_f")
    assert re.search(r"38 RSC flight chunks .* 71 rows", entry["note"])
    assert entry["variable"] == "self.__next_f"
    assert HEALTHGRADES["warnings"] == []


def test_json_row_is_an_object_with_the_pages_values():
    assert ROWS["0"]["b"] == "ZSUDKJ6Jvldk6iBn3J7Fo"
    assert ROWS["0"]["p"] == "/hg-provider-search-app"
    assert ROWS["0"]["c"] == ["", "cardiology-directory"]


def test_metadata_row_carries_title_and_canonical_url():
    flat = json.dumps(ROWS["9"]["metadata"], ensure_ascii=False)
    assert "20 Best Cardiologists Near Me | Healthgrades" in flat
    assert "https://www.healthgrades.com/cardiology-directory" in flat


def test_t_row_is_consumed_by_byte_length_across_chunks():
    assert isinstance(ROWS["19"], str)
    assert len(ROWS["19"].encode("utf-8")) == 1965


def test_row_after_a_t_blob_keeps_its_full_id():
    assert "14" in ROWS
    assert ROWS["14"][1] == "div"
    assert ROWS["4"].startswith("I[")


def test_module_references_are_kept_as_raw_strings():
    assert ROWS["3"] == 'I[85341,[],""]'


def test_many_text_rows_are_all_decoded():
    count, blob = 40000, "x\n"
    stream = "".join(f"{i}:T2,{blob}" for i in range(count))
    data = extract_embedded_state(f"<!doctype html><html><body><script>self.__next_f.push([1,{json.dumps(stream)}])</script></body></html>")["data"]
    assert len(data["next_f"]) == count
    assert data["next_f"]["0"] == blob
    assert data["next_f"][str(count - 1)] == blob


# --- Nuxt (elk.zone) ----------------------------------------------------------------------

ELK = read("elk-zone-nuxt.html")


def test_nuxt_empty_assignment_is_called_out():
    assert ELK["data"]["nuxt"] == {}
    assert by_name(ELK["found"], "nuxt")["variable"] == "__NUXT__"
    assert len(ELK["warnings"]) == 1
    assert "__NUXT__ is present but assigned an empty object" in ELK["warnings"][0]


def test_nuxt_payload_is_decoded_into_nuxt_data():
    assert by_name(ELK["found"], "nuxt_data")["variable"] == "__NUXT_DATA__"
    assert ELK["data"]["nuxt_data"]["state"]["$scolor-mode"]["preference"] == "system"
    assert "json_scripts" not in ELK["data"]


def test_raw_also_keeps_the_undecoded_block():
    data = read("elk-zone-nuxt.html", raw=True)["data"]
    assert len(data["json_scripts"]) == 1
    assert data["json_scripts"][0]["id"] == "__NUXT_DATA__"
    assert data["json_scripts"][0]["data"][0][0] == "ShallowReactive"
    assert isinstance(data["nuxt_data"]["state"], dict)


# --- the shared assignment reader ---------------------------------------------------------


@pytest.mark.parametrize(
    "variable,name",
    [("__APOLLO_STATE__", "apollo_state"), ("__INITIAL_STATE__", "initial_state"),
     ("__PRELOADED_STATE__", "preloaded_state"), ("__preloadedData", "preloaded_data")],
)  # fmt: skip
def test_state_variable_is_read_into_its_name(variable, name):
    result = extract_embedded_state(wrap(f'window.{variable} = {{"a":{{"b":1}}}};'))
    assert result["data"][name] == {"a": {"b": 1}}
    assert by_name(result["found"], name)["variable"] == variable


def test_bare_undefined_values_are_null_and_counted():
    result = extract_embedded_state(
        wrap('window.__preloadedData = {"loaderData":{"assets":undefined,"list":[undefined,1],"note":"undefined stays in a string"}};')
    )
    assert result["data"]["preloaded_data"] == {"loaderData": {"assets": None, "list": [None, 1], "note": "undefined stays in a string"}}
    assert by_name(result["found"], "preloaded_data")["note"] == "2 bare undefined value(s) read as null"
    assert result["warnings"] == []


def test_self_or_bare_prefix_is_read_the_same_way():
    assert extract_embedded_state(wrap('self.__INITIAL_STATE__={"a":1}'))["data"]["initial_state"] == {"a": 1}
    assert extract_embedded_state(wrap('var __INITIAL_STATE__ = {"a":2}'))["data"]["initial_state"] == {"a": 2}


def test_value_that_is_not_a_literal_is_reported_unparsed():
    result = extract_embedded_state(wrap("window.__NUXT__=buildState(window.config)"))
    assert "nuxt" not in result["data"]
    assert result["found"] == []
    assert "not a JSON or JavaScript literal" in result["warnings"][0]


def test_braces_inside_strings_do_not_end_the_payload():
    assert extract_embedded_state(wrap('window.__APOLLO_STATE__={"a":"}}}","b":2}'))["data"]["apollo_state"] == {"a": "}}}", "b": 2}


def test_longer_identifier_with_the_same_ending_is_not_matched():
    assert extract_embedded_state(wrap('window.MY__INITIAL_STATE__={"a":1}'))["found"] == []


def test_bracket_notation_is_read():
    result = extract_embedded_state(wrap("window['___INITIAL_STATE___'] = {\"queries\":{\"a\":1}};"))
    assert result["data"]["initial_state"] == {"queries": {"a": 1}}
    assert by_name(result["found"], "initial_state")["variable"] == "___INITIAL_STATE___"
    dq = extract_embedded_state(wrap('window["__INITIAL_STATE__"]={"b":2}'))
    assert dq["data"]["initial_state"] == {"b": 2}
    assert by_name(dq["found"], "initial_state")["variable"] == "__INITIAL_STATE__"


def test_two_underscore_form_wins_when_both_spellings_appear():
    result = extract_embedded_state(wrap("window.__INITIAL_STATE__={\"two\":1}; window['___INITIAL_STATE___']={\"three\":1};"))
    assert result["data"]["initial_state"] == {"two": 1}
    assert len([f for f in result["found"] if f["name"] == "initial_state"]) == 1


# --- json script blocks -------------------------------------------------------------------


def test_unparseable_json_block_is_skipped_with_a_warning():
    result = extract_embedded_state('<script type="application/json" id="broken">{oops</script>')
    assert "json_scripts" not in result["data"]
    assert re.search(r'id="broken".*not valid JSON', result["warnings"][0])


def test_ld_json_is_left_to_the_structured_data_extractor():
    assert extract_embedded_state('<script type="application/ld+json">{"@type":"Product"}</script>')["found"] == []


def test_commented_out_script_neither_counts_nor_hides_the_real_one():
    result = extract_embedded_state(
        '<!-- <script type="application/json">not json</script> -->'
        '<script type="application/json" id="real">{"ok":true}</script>'
    )
    assert result["warnings"] == []
    assert len(result["found"]) == 1
    assert result["data"]["json_scripts"] == [{"id": "real", "data": {"ok": True}}]


def test_page_with_no_embedded_state():
    assert extract_embedded_state("<html><body><h1>hi</h1></body></html>") == {"data": {}, "found": [], "warnings": []}


# --- Apollo streaming-SSR transport -------------------------------------------------------


def apollo(payload: str) -> str:
    return f'<html><body><script>(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push({payload})</script></body></html>'


def test_apollo_push_parsed_with_undefined_healed():
    result = extract_embedded_state(
        apollo('{"rehydrate":{"_R_1":{"data":undefined,"loading":true},"_R_2":{"data":{"product":{"name":"ChatGPT"}}}}}')
    )
    pushes = result["data"]["apollo_ssr_transport"]
    assert len(pushes) == 1
    assert pushes[0]["rehydrate"]["_R_1"]["data"] is None
    assert pushes[0]["rehydrate"]["_R_2"]["data"]["product"]["name"] == "ChatGPT"
    entry = by_name(result["found"], "apollo_ssr_transport")
    assert "ApolloSSRDataTransport" in entry["variable"]
    assert "1 streaming-SSR push" in entry["note"]


def test_apollo_undefined_inside_a_string_is_never_rewritten():
    push = extract_embedded_state(apollo('{"a":"result was undefined","b":undefined}'))["data"]["apollo_ssr_transport"][0]
    assert push["a"] == "result was undefined"
    assert push["b"] is None


def test_apollo_pushes_in_document_order():
    html = (
        '<script>(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push({"n":1})</script>'
        '<script>(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push({"n":2})</script>'
    )
    assert [p["n"] for p in extract_embedded_state(html)["data"]["apollo_ssr_transport"]] == [1, 2]


def test_apollo_push_that_is_not_json_is_skipped():
    assert extract_embedded_state(apollo("{broken") + apollo('{"ok":true}'))["data"]["apollo_ssr_transport"] == [{"ok": True}]


# --- Phase 4 sources, end to end ----------------------------------------------------------


def test_nuxt_com_nuxt_data_decoded_state_as_objects():
    result = read("nuxt-com-home.html")
    assert by_name(result["found"], "nuxt_data")
    assert isinstance(result["data"]["nuxt_data"]["state"]["$scolor-mode"], dict)


def test_svelte_dev_kit_start_data_is_found():
    result = read("svelte-dev-blog.html")
    assert by_name(result["found"], "sveltekit_data")
    assert len(result["data"]["sveltekit_data"]) > 0


def test_youtube_both_globals_and_video_details():
    result = read("youtube-watch.html")
    assert by_name(result["found"], "yt_initial_data")
    assert result["data"]["yt_initial_player_response"]["videoDetails"]["videoId"] == "dQw4w9WgXcQ"


def test_allbirds_shopify_analytics_meta_variants_with_prices():
    data = read("../structured/embedded-state/allbirds-product.html")["data"]
    variants = data["shopify"]["meta"]["product"]["variants"]
    assert len(variants) > 1
    assert all(isinstance(v["price"], int) and not isinstance(v["price"], bool) for v in variants)
    assert data["shopify"]["meta"]["currency"] == "USD"


def test_inertia_script_carrier_is_inertia_page_only():
    data = read("inertia-laracasts-script.html")["data"]
    assert isinstance(data["inertia_page"]["component"], str)
    assert "json_scripts" not in data
    assert isinstance(read("inertia-demo-data-page.html")["data"]["inertia_page"]["props"], dict)


def test_healthgrades_find_specialty_then_select():
    data = HEALTHGRADES["data"]
    matches = find_json_paths(data, "specialty")["matches"]
    assert matches
    assert select_json_path(data, matches[0]["path"]) == "Cardiology"


def test_healthgrades_data_rows_largest_first():
    assert by_name(HEALTHGRADES["found"], "data_rows")
    data = HEALTHGRADES["data"]
    assert [row["id"] for row in data["data_rows"]] == ["0", "9"]
    assert select_json_path(data, f"next_f.{data['data_rows'][1]['id']}.metadata")


# --- Phase 4 assignment reader ------------------------------------------------------------


def test_javascript_literal_is_read_and_says_so():
    result = extract_embedded_state(wrap("window.__INITIAL_STATE__={a:'x',b:[1,-2]}"))
    assert result["data"]["initial_state"] == {"a": "x", "b": [1, -2]}
    assert "JavaScript literal" in by_name(result["found"], "initial_state")["note"]


def test_nuxt2_single_return_iife_is_read_without_running_it():
    result = extract_embedded_state(wrap('window.__NUXT__=(function(a,b){return {x:a,y:[b]}}(1,"z"));'))
    assert result["data"]["nuxt"] == {"x": 1, "y": ["z"]}


def test_comparison_before_the_assignment_is_skipped():
    result = extract_embedded_state(wrap('if (window.ytInitialData == null) {} var ytInitialData = {"a":1};'))
    assert result["data"]["yt_initial_data"] == {"a": 1}


def test_let_and_const_declarations_are_read():
    assert extract_embedded_state(wrap('const __APP_STATE__ = {"a":1}'))["data"]["app_state"] == {"a": 1}
    assert extract_embedded_state(wrap('let __remixContext = {"b":2}'))["data"]["remix_context"] == {"b": 2}


def test_text_json_script_is_a_json_scripts_block():
    assert extract_embedded_state('<script type="text/json" id="s">{"a":1}</script>')["data"]["json_scripts"] == [
        {"id": "s", "data": {"a": 1}}
    ]
