"""crawlforge.extract.verdict on real walls (fixtures/botwall) and real normal pages."""

import json

import pytest

from conftest import ROOT

from crawlforge.extract.charset import decode_body
from crawlforge.extract.verdict import (
    detect_challenge_page,
    document_verdict,
    needs_browser,
    page_doc,
)

FIXTURES = ROOT / "fixtures"
WALLS = FIXTURES / "botwall"
LABELS = json.loads((WALLS / "labels.json").read_text())
UPSTREAM_VENDORS = {
    "akamai.html": "akamai", "amazon.html": "amazon", "aws-waf-202.html": "aws-waf",
    "cloudflare.html": "cloudflare", "datadome.html": "datadome", "f5.html": "f5",
    "fastly.html": "fastly", "perimeterx.html": "perimeterx", "vercel.html": "vercel",
}
# Every page of the shared real/{article,product,jsstate} set; each is somewhere under fixtures/
# (botwall/normal, demo, embedded, structured/product), plus the eval pages in fixtures/structure.
REAL_NORMAL_PAGES = [
    "hacks_mozilla_org_fetch_api_code_tables.html",
    "hakibenita_com_sql_anomaly_detection_code_figures.html",
    "it-learner_de_windows_autotuning_tables_pre.html",
    "lwn_net_weekly_edition_2015-03-26_tables.html",
    "react_dev_blog_rsc_vulnerability_code_blocks.html",
    "statisticsglobe_com_ggplot2_font_size_code.html",
    "v8_dev_blog_standalone_wasm_code.html",
    "wikipedia_en_mozilla_tables_lists.html",
    "almedina_net_codigo_trabalho_magento.html",
    "ebay_com_itm_302474151804_microdata.html",
    "fye_com_better_off_dead_opengraph_product.html",
    "ikea_gb_moeckelby_table_jsonld.html",
    "otto_de_kaercher_k3_microdata.html",
    "shopify_happycoffee_de_sidamo.html",
    "shopify_mediamarkt_pt_microondas_panasonic.html",
    "zalando_ie_versace_jeans_jsonld.html",
    "apollo_state_scmp_com.html",
    "initial_state_yle_fi.html",
    "nextjs_app_router_rsc_next_f_mirror_co_uk.html",
    "nextjs_app_router_rsc_next_f_time_com.html",
    "nextjs_legacy_inline_next_data_healthline_com.html",
    "nextjs_pages_next_data_economist_com.html",
    "nuxt2_window_nuxt_iife_cointelegraph_de.html",
    "nuxt3_nuxt_data_omr_com.html",
    "redux_preloaded_state_wired_com.html",
]
PLAIN_FETCH = {"fetcher": "scrapy", "rendered": False}


def doc_of(path, url="https://example.com/page", status=200):
    return page_doc(decode_body(path.read_bytes())["text"], url, status)


@pytest.mark.parametrize("name", sorted(LABELS))
def test_real_wall_is_blocked_with_its_vendor(name):
    verdict = document_verdict(doc_of(WALLS / name), PLAIN_FETCH)
    assert verdict["success"] is False
    assert verdict["blocked"]["vendor"] == LABELS[name]["vendor"]


@pytest.mark.parametrize("name", sorted(UPSTREAM_VENDORS))
def test_upstream_wall_is_blocked_with_its_vendor(name):
    blocked = detect_challenge_page(doc_of(WALLS / "upstream" / name))
    assert blocked["vendor"] == UPSTREAM_VENDORS[name]


def test_cloudflare_wall_served_with_200_is_blocked_by_title():
    verdict = document_verdict(doc_of(WALLS / "cloudflare_just_a_moment_oswegony_org.html"), PLAIN_FETCH)
    assert verdict == {
        "success": False, "status": 200,
        "blocked": {"vendor": "cloudflare", "evidence": 'title "Just a moment..."'},
        "error": 'cloudflare served a challenge page instead of the content (title "Just a moment..."); '
                 "scrapy did not pass it.",
    }


def test_marker_evidence_names_the_page_length():
    blocked = detect_challenge_page(doc_of(WALLS / "upstream" / "datadome.html"))
    assert blocked == {"vendor": "datadome", "evidence": "a DataDome captcha frame on a 0-character page"}


def test_incapsula_iframe_block_without_title():
    blocked = detect_challenge_page(doc_of(WALLS / "incapsula_request_unsuccessful_missouri_gov.html"))
    assert blocked["vendor"] == "imperva"


def test_aws_waf_marker_is_case_sensitive_and_needs_gokuprops():
    html = (WALLS / "upstream" / "aws-waf-202.html").read_text()
    assert detect_challenge_page({"title": "", "text": "", "html": html})["vendor"] == "aws-waf"
    no_props = html.replace("window.gokuProps", "window.other")
    assert detect_challenge_page({"title": "", "text": "", "html": no_props}) is None


def test_markers_do_not_count_on_a_long_page():
    html = (WALLS / "upstream" / "datadome.html").read_text()
    assert detect_challenge_page({"title": "x", "text": "word " * 1000, "html": html}) is None


def test_empty_shell_is_an_error_and_needs_a_browser():
    doc = doc_of(WALLS / "upstream" / "empty-shell.html", url="https://a.example/")
    verdict = document_verdict(doc, PLAIN_FETCH)
    assert verdict == {
        "success": False, "status": 200,
        "error": "Scrapy reached https://a.example/ but the document has no title and no text "
                 "(268 bytes of HTML). The page is rendered by JavaScript or the server sent an empty "
                 "shell; only a browser renders it.",
    }
    assert needs_browser(doc)
    assert document_verdict(doc, {**PLAIN_FETCH, "allow_empty": True}) == {"success": True, "status": 200}


def test_error_titled_placeholder_is_a_soft_error():
    doc = doc_of(WALLS / "upstream" / "soft-error.html", url="https://b.example/x")
    verdict = document_verdict(doc, PLAIN_FETCH)
    assert "blocked" not in verdict
    assert verdict["error"] == (
        'https://b.example/x rendered an error page titled "Error Page" (93 characters of text) instead '
        "of the resource — a soft block or an application error. Retry later; if the site paints "
        "content after a placeholder, only a browser renders it."
    )


def test_http_error_status_without_vendor():
    doc = {"url": "https://c.example/", "status": 404, "title": "Not Found", "text": "Nope", "html": ""}
    assert document_verdict(doc) == {
        "success": False, "status": 404,
        "error": 'HTTP 404: https://c.example/ answered with an error page titled "Not Found", not the '
                 "resource; the content returned is that page. The site says the URL does not exist — "
                 "check the path.",
    }


def test_application_error_text_under_a_normal_title():
    doc = {"url": "u", "status": 200, "title": "Shop", "text": "Application error: a client-side "
           "exception has occurred (see the browser console for more information).", "html": ""}
    assert document_verdict(doc)["error"].startswith('u rendered an application error message ("Application')


def test_status_code_prefix_titles_are_soft_errors():
    for title in ("404 Not Found", "403 - Forbidden", "Oops! That page can't be found."):
        doc = {"url": "u", "status": 200, "title": title, "text": "short", "html": ""}
        assert document_verdict(doc)["success"] is False, title


def normal_pages():
    by_name = {path.name: path for path in FIXTURES.rglob("*.html")}
    return [by_name[name] for name in REAL_NORMAL_PAGES] + sorted((FIXTURES / "structure").glob("*.html"))


def test_no_false_positive_on_any_real_normal_page():
    pages = normal_pages()
    flagged = {}
    for path in pages:
        verdict = document_verdict(doc_of(path), PLAIN_FETCH)
        if not verdict["success"] or needs_browser(doc_of(path)):
            flagged[path.name] = verdict
    assert flagged == {}


def test_a_doc_with_only_html_gets_its_title_and_text_read_from_it():
    html = (WALLS / "distil_pardon_our_interruption_nvsos_gov.html").read_text()
    assert document_verdict({"html": html, "status": 200})["blocked"]["vendor"] == "distil"
    normal = (WALLS / "normal" / "react_dev_blog_rsc_vulnerability_code_blocks.html").read_text()
    assert document_verdict({"html": normal, "status": 200}) == {"success": True, "status": 200}


@pytest.mark.parametrize("marker, vendor", [
    ("\u017fhield\u017fquare captcha", "radware"),  # long s
    ("window.\u212aPSDK", "kasada"),  # Kelvin sign
    ("secur\u0130ty check by bitn\u0130nja", "bitninja"),  # dotted capital I
    ("b\u0131tn\u0131nja.io", "bitninja"),  # dotless i
])
def test_marker_in_letters_ignorecase_folds_to_ascii_is_still_found(marker, vendor):
    """The substring pre-check before each vendor regex must not miss what the regex finds."""
    doc = page_doc(f"<html><head><title>Hold on</title></head><body><p>{marker}</p></body></html>")
    assert detect_challenge_page(doc)["vendor"] == vendor
