"""extract_embedded_state on real captures (templates.md §5.3): found sources, sizes, values."""

import json
import re

import pytest

from conftest import ROOT

from crawlforge.extract.embedded import extract_embedded_state, select_json_path
from crawlforge.extract.pagehelpers.jsonfind import find_json_paths

FIXTURES = ROOT / "fixtures" / "embedded"


def read(name, **options):
    return extract_embedded_state((FIXTURES / name).read_text(encoding="utf-8"), **options)


def entry(result, name):
    return next(item for item in result["found"] if item["name"] == name)


def compact_size(value):
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))


def wrap(script):
    return f"<html><body><script>{script}</script></body></html>"


# --- real pages: fixtures/embedded (copied from shared/fixtures/real/jsstate) ---------------

def test_next_data_script_on_economist():
    result = read("../demo/apps/nextjs_pages_next_data_economist_com.html")
    next_data = result["data"]["next_data"]
    assert next_data["buildId"] == "DIgoXwvW0RFLUlhcFNzan"
    assert next_data["page"] == "/content"
    assert select_json_path(result["data"], "next_data.props.pageProps.content.headline") == (
        "Why collaborative thinking beats individual smarts"
    )
    assert result["found"] == [{"name": "next_data", "variable": "__NEXT_DATA__", "bytes": 36980}]
    assert compact_size(next_data) == 36980
    assert result["warnings"] == []


def test_legacy_inline_next_data_assignment_on_healthline():
    result = read("nextjs_legacy_inline_next_data_healthline_com.html")
    assert result["found"] == [{"name": "next_data", "variable": "__NEXT_DATA__", "bytes": 56290}]
    assert result["data"]["next_data"]["buildId"] == "44c7b07c-4bed-4f69-9efa-448edd9a93da"
    assert select_json_path(result["data"], "next_data.props.data.title") == [
        "The 10 Best Ways to Measure Your Body Fat Percentage"
    ]


def test_rsc_flight_chunks_on_time_com():
    result = read("nextjs_app_router_rsc_next_f_time_com.html")
    assert entry(result, "next_f")["note"] == (
        '20 RSC flight chunks concatenated into 44 rows, keyed by row id; 0 "$<id>" reference(s) '
        "between rows resolved in place"
    )
    assert [row["id"] for row in result["data"]["data_rows"]] == ["1c", "15"]
    assert list(result["data"]["next_f"])[:3] == ["0", "1", "2"]
    assert select_json_path(result["data"], "next_f.24.4.3.contentNode.spotlightStory.headline") == (
        "Sign Up for Our Ideas Newsletter"
    )


def test_rsc_flight_references_resolved_on_mirror_co_uk():
    result = read("nextjs_app_router_rsc_next_f_mirror_co_uk.html")
    assert entry(result, "next_f")["note"].startswith(
        '198 RSC flight chunks concatenated into 680 rows, keyed by row id; 578 "$<id>" reference(s)'
    )
    assert result["data"]["data_rows"][0] == {"id": "1a", "bytes": 215584, "keys": None, "length": 14}
    found = find_json_paths(result["data"], "headline")
    assert [match["path"] for match in found["matches"]] == [
        "next_f.1a.5.3.children.0.3.children.2.3.children.3.children.0.3.headline",
        "next_f.1a.8.3.analyticsData.headline",
    ]
    assert select_json_path(result["data"], found["matches"][1]["path"]) == (
        "Man kept six women chained in hole in basement before cooking body parts"
    )
    assert select_json_path(result["data"], found["matches"][0]["path"])[1] == "h1"


def test_nuxt2_iife_with_statements_is_reported_not_guessed_on_cointelegraph():
    # The IIFE body assigns properties before `return`: static evaluation refuses it (§5.3.3).
    result = read("nuxt2_window_nuxt_iife_cointelegraph_de.html")
    assert "nuxt" not in result["data"]
    assert result["found"] == []
    assert result["warnings"] == [
        "__NUXT__ is present but its value is not a JSON or JavaScript literal "
        "(it calls code or reads other variables); not parsed."
    ]


def test_nuxt3_devalue_payload_decoded_on_omr():
    result = read("../demo/apps/nuxt3_nuxt_data_omr_com.html")
    nuxt_data = result["data"]["nuxt_data"]
    assert list(nuxt_data) == ["data", "state", "_errors", "serverRendered", "path"]
    assert nuxt_data["data"]["$XthxcSZgkJ"]["article"]["title"].startswith("Jetzt auch noch Cowboyboots")
    assert entry(result, "nuxt_data")["bytes"] == compact_size(nuxt_data) == 28691
    assert result["data"]["nuxt"] == {}
    assert result["warnings"] == [
        "__NUXT__ is present but assigned an empty object; the page fills it in from a later "
        "statement this tool does not evaluate."
    ]


def test_apollo_state_on_scmp():
    result = read("apollo_state_scmp_com.html")
    assert result["found"] == [{"name": "apollo_state", "variable": "__APOLLO_STATE__", "bytes": 261088}]
    assert list(result["data"]["apollo_state"]) == ["d8", "contentService", "defaultClient"]
    match = find_json_paths(result["data"]["apollo_state"], "headline")["matches"][0]
    assert match == {"path": "d8.$ROOT_QUERY.articleState.currentArticle.headline", "preview": "null",
                     "addressable": False}


def test_initial_state_on_yle():
    result = read("initial_state_yle_fi.html")
    assert result["found"] == [{"name": "initial_state", "variable": "__INITIAL_STATE__", "bytes": 66265}]
    assert list(result["data"]["initial_state"])[:3] == ["abTestGroup", "userPreferences", "sidebar"]


def test_redux_preloaded_state_on_wired():
    result = read("redux_preloaded_state_wired_com.html")
    assert result["found"] == [{"name": "preloaded_state", "variable": "__PRELOADED_STATE__", "bytes": 82164}]
    assert select_json_path(result["data"], "preloaded_state.transformed.article.relatedVideo.related.hed") == (
        "How SpotMini and Atlas Became the Internet's Favorite Robots"
    )


# --- upstream captures (shared/fixtures/upstream/embedded-state) ---------------------------

def test_ticketmaster_next_data_bytes_equal_the_compact_script_body():
    html = (FIXTURES / "ticketmaster-next-data.html").read_text(encoding="utf-8")
    uncommented = re.sub(r"<!--[\s\S]*?-->", "", html)
    body = re.search(r'<script id="__NEXT_DATA__"[^>]*>([\s\S]*?)</script>', uncommented).group(1)
    result = extract_embedded_state(html)
    assert result["data"]["next_data"]["buildId"] == "KfC_3GF1zuM-t3vA0Rtwl"
    event = result["data"]["next_data"]["props"]["pageProps"]["eventsJsonLD"][0][0]
    assert event["name"] == "Remember When - The Ultimate Tribute to Alan Jackson"
    assert result["found"] == [{"name": "next_data", "variable": "__NEXT_DATA__", "bytes": len(body.encode("utf-8"))}]
    assert "json_scripts" not in result["data"]


def test_healthgrades_flight_rows():
    result = read("healthgrades-rsc.html")
    rows = result["data"]["next_f"]
    assert len(rows) == 71
    assert re.search(r"38 RSC flight chunks .* 71 rows", entry(result, "next_f")["note"])
    assert rows["0"]["b"] == "ZSUDKJ6Jvldk6iBn3J7Fo"
    assert rows["0"]["c"] == ["", "cardiology-directory"]
    assert "20 Best Cardiologists Near Me | Healthgrades" in json.dumps(rows["9"]["metadata"])
    assert len(rows["19"].encode("utf-8")) == 1965
    assert rows["14"][1] == "div"
    assert rows["3"] == 'I[85341,[],""]'
    assert [row["id"] for row in result["data"]["data_rows"]] == ["0", "9"]
    path = find_json_paths(result["data"], "specialty")["matches"][0]["path"]
    assert select_json_path(result["data"], path) == "Cardiology"
    assert result["warnings"] == []


def test_elk_zone_nuxt_data_and_raw_option():
    result = read("elk-zone-nuxt.html")
    assert result["data"]["nuxt_data"]["state"]["$scolor-mode"]["preference"] == "system"
    assert "json_scripts" not in result["data"]
    raw = read("elk-zone-nuxt.html", raw=True)
    assert [block["id"] for block in raw["data"]["json_scripts"]] == ["__NUXT_DATA__"]
    assert raw["data"]["json_scripts"][0]["data"][0][0] == "ShallowReactive"


def test_svelte_dev_kit_start_data():
    result = read("svelte-dev-blog.html")
    assert entry(result, "sveltekit_data")["variable"] == "kit.start(app, element, { data })"
    data = result["data"]["sveltekit_data"]
    assert len(data) == 2
    assert data[0]["data"]["nav_links"][0]["title"] == "Docs"
    assert result["warnings"] == []


def test_youtube_var_declared_globals():
    result = read("youtube-watch.html")
    assert [item["name"] for item in result["found"]] == ["yt_initial_data", "yt_initial_player_response"]
    assert result["data"]["yt_initial_player_response"]["videoDetails"]["videoId"] == "dQw4w9WgXcQ"


def test_inertia_script_and_attribute_carriers():
    laracasts = read("inertia-laracasts-script.html")
    assert laracasts["data"]["inertia_page"]["component"] == "Home/Home"
    assert "json_scripts" not in laracasts["data"]
    demo = read("inertia-demo-data-page.html")
    assert demo["data"]["inertia_page"]["component"] == "Auth/Login"
    assert demo["found"] == [{"name": "inertia_page", "variable": "[data-page]", "bytes": 211}]


# --- each Shopify form -----------------------------------------------------------------------

def test_shopify_analytics_meta_on_allbirds():
    result = read("../structured/embedded-state/allbirds-product.html")
    meta = result["data"]["shopify"]["meta"]
    assert meta["currency"] == "USD"
    assert meta["product"]["vendor"] == "Allbirds"
    assert [variant["price"] for variant in meta["product"]["variants"]][:2] == [10500, 10500]
    attributes = result["data"]["json_attributes"]
    assert [(a["tag"], a["attribute"]) for a in attributes] == [
        ("div", "data-product-object"), ("div", "data-colorway-variants")
    ]


def test_shopify_data_product_json_on_kyomo():
    shopify = read("../structured/embedded-state/shopify-kyomo-data-product-json.html")["data"]["shopify"]
    assert shopify["meta"]["product"]["variants"][0]["price"] == 21700
    assert shopify["product_json"][0]["product"]["handle"] == "emerald-gold-with-black-leather"


def test_shopify_product_json_id_on_nativecos():
    shopify = read("../structured/embedded-state/shopify-nativecos-product-json-id.html")["data"]["shopify"]
    assert shopify["meta"]["currency"] == "USD"
    assert shopify["product_json"][0]["handle"] == "clean-hair-trio"


@pytest.mark.parametrize(
    ("name", "vendor", "prices"),
    [
        ("../demo/products/shopify_happycoffee_de_sidamo.html", "Happy Coffee", [2790, 2790, 1790, 1690]),
        ("../structured/product/shopify_mediamarkt_pt_microondas_panasonic.html", "Panasonic", [10900]),
    ],
)
def test_shopify_var_meta_on_real_storefronts(name, vendor, prices):
    meta = read(name)["data"]["shopify"]["meta"]
    assert meta["currency"] == "EUR"
    assert meta["product"]["vendor"] == vendor
    assert [variant["price"] for variant in meta["product"]["variants"]] == prices


# --- the assignment reader and script blocks ---------------------------------------------------

@pytest.mark.parametrize(
    ("script", "name", "value", "variable"),
    [
        ('window.__APOLLO_STATE__ = {"a":{"b":1}};', "apollo_state", {"a": {"b": 1}}, "__APOLLO_STATE__"),
        ('self.__INITIAL_STATE__={"a":1}', "initial_state", {"a": 1}, "__INITIAL_STATE__"),
        ('var __INITIAL_STATE__ = {"a":2}', "initial_state", {"a": 2}, "__INITIAL_STATE__"),
        ("window['___INITIAL_STATE___'] = {\"q\":1};", "initial_state", {"q": 1}, "___INITIAL_STATE___"),
        ('const __APP_STATE__ = {"a":1}', "app_state", {"a": 1}, "__APP_STATE__"),
        ('let __remixContext = {"b":2}', "remix_context", {"b": 2}, "__remixContext"),
        ('if (window.ytInitialData == null) {} var ytInitialData = {"a":1};', "yt_initial_data", {"a": 1}, "ytInitialData"),
        ('window.__APOLLO_STATE__={"a":"}}}","b":2}', "apollo_state", {"a": "}}}", "b": 2}, "__APOLLO_STATE__"),
    ],
)
def test_assignment_forms(script, name, value, variable):
    result = extract_embedded_state(wrap(script))
    assert result["data"][name] == value
    assert entry(result, name)["variable"] == variable


def test_bare_undefined_is_healed_and_counted():
    result = extract_embedded_state(wrap(
        'window.__preloadedData = {"loaderData":{"assets":undefined,"list":[undefined,1],'
        '"note":"undefined stays in a string"}};'
    ))
    assert result["data"]["preloaded_data"] == {
        "loaderData": {"assets": None, "list": [None, 1], "note": "undefined stays in a string"}
    }
    assert entry(result, "preloaded_data")["note"] == "2 bare undefined value(s) read as null"


def test_javascript_literal_and_iife_assignments_are_evaluated_statically():
    result = extract_embedded_state(wrap("window.__INITIAL_STATE__={a:'x',b:[1,-2]}"))
    assert result["data"]["initial_state"] == {"a": "x", "b": [1, -2]}
    assert entry(result, "initial_state")["note"] == "read as a JavaScript literal (evaluated statically, no code run)"
    iife = extract_embedded_state(wrap('window.__NUXT__=(function(a,b){return {x:a,y:[b]}}(1,"z"));'))
    assert iife["data"]["nuxt"] == {"x": 1, "y": ["z"]}


def test_longer_name_and_two_spellings():
    assert extract_embedded_state(wrap('window.MY__INITIAL_STATE__={"a":1}'))["found"] == []
    both = extract_embedded_state(wrap(
        "window.__INITIAL_STATE__={\"two\":1}; window['___INITIAL_STATE___']={\"three\":1};"
    ))
    assert both["data"]["initial_state"] == {"two": 1}
    assert [item["name"] for item in both["found"]] == ["initial_state"]


def test_json_script_blocks():
    broken = extract_embedded_state('<script type="application/json" id="broken">{oops</script>')
    assert broken["data"] == {}
    assert broken["warnings"] == ['A <script type="application/json" id="broken"> block is not valid JSON; skipped.']
    assert extract_embedded_state('<script type="application/ld+json">{"@type":"Product"}</script>')["found"] == []
    commented = extract_embedded_state(
        '<!-- <script type="application/json">not json</script> -->'
        '<script type="text/json" id="real">{"ok":true}</script>'
    )
    assert commented["warnings"] == []
    assert commented["data"] == {"json_scripts": [{"id": "real", "data": {"ok": True}}]}
    assert commented["found"][0]["note"] == "1 block(s), each { id, data }"


def test_apollo_streaming_transport_pushes():
    push = '<script>(window[Symbol.for("ApolloSSRDataTransport")] ??= []).push({})</script>'
    html = push.replace("{}", '{"a":"result was undefined","b":undefined}') + push.replace("{}", "{broken") \
        + push.replace("{}", '{"n":2}')
    result = extract_embedded_state(html)
    assert result["data"]["apollo_ssr_transport"] == [{"a": "result was undefined", "b": None}, {"n": 2}]
    assert entry(result, "apollo_ssr_transport")["note"] == "2 streaming-SSR push(es), in document order"


def test_page_without_state():
    assert extract_embedded_state("<html><body><h1>hi</h1></body></html>") == {"data": {}, "found": [], "warnings": []}
