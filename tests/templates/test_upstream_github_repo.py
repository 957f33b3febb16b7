"""Upstream conformance: tests/github-repo.test.js of mysleekdesigns/crawlforge-extractors.

Ported from commit 00b1a5b58f08faece8608cb383b8c137b4041378 (templates.md §0.1): the
github-repo template on the upstream's condensed markup and its hono capture
(fixtures/templates/github-repo-hono.html).
"""

import json
import re

from conftest import ROOT

from crawlforge.templates import TemplateRegistry

REGISTRY = TemplateRegistry()
HONO = (ROOT / "fixtures" / "templates" / "github-repo-hono.html").read_text(encoding="utf-8")


def run(html: str) -> dict:
    return REGISTRY.run("github-repo", f"<html><body>{html}</body></html>", "https://github.com/expressjs/express")["data"]


def hono() -> dict:
    return REGISTRY.run("github-repo", HONO, "https://github.com/honojs/hono")["data"]


def embedded(sidebar_about: dict) -> str:
    payload = json.dumps({"payload": {"sidebarAbout": sidebar_about}}, separators=(",", ":"), ensure_ascii=False)
    return f'<script type="application/json" data-target="react-app.embeddedData">{payload}</script>'


ABOUT = {
    "description": "Fast, unopinionated, minimalist web framework for node.",
    "formattedDescription": "Fast, unopinionated, minimalist web framework for node.",
    "website": "https://expressjs.com",
    "topics": [{"name": "express"}, {"name": "javascript"}],
    "stargazerCount": 69394,
    "forksCount": 24836,
    "repo": {"license": {"spdxId": "MIT", "name": "MIT License"}},
}
ISSUES_COUNTER = (
    '<span id="issues-repo-tab-count" data-pjax-replace="" data-turbo-replace="" title="105" '
    'data-view-component="true" class="Counter">105</span>'
)
LICENSE_FILE_LINK = '<a href="/expressjs/express/blob/master/LICENSE">LICENSE</a>'
LICENSE_NAV = '<a href="#LICENSE"><svg class="octicon octicon-law"></svg><span>MIT license</span></a>'
LIVE = embedded(ABOUT) + ISSUES_COUNTER + LICENSE_FILE_LINK + LICENSE_NAV
NAME = '<strong itemprop="name"><a>expressjs/express</a></strong>'

# --- sidebar facts ------------------------------------------------------------------------


def test_license_is_the_spdx_id_not_the_file_link():
    assert run(LIVE)["license"] == "MIT"


def test_homepage_from_the_about_payload():
    assert run(LIVE)["homepage"] == "https://expressjs.com"


def test_repo_without_a_website_reports_null():
    html = embedded({**ABOUT, "website": ""}) + '<a href="https://opencollective.com/express" rel="noopener noreferrer">sponsor</a>'
    assert run(html)["homepage"] is None


def test_non_standard_licence_falls_back_to_the_display_name():
    html = embedded({**ABOUT, "repo": {"license": {"spdxId": "NOASSERTION", "name": "View license"}}})
    assert run(html)["license"] == "View license"


def test_repo_with_no_licence_reports_null():
    assert run(embedded({**ABOUT, "repo": {}}))["license"] is None


def test_malformed_embedded_json_is_skipped():
    html = '<script type="application/json" data-target="react-app.embeddedData">{oops</script>' + LICENSE_NAV
    assert run(html)["license"] == "MIT license"


# --- open issues --------------------------------------------------------------------------


def test_issues_tab_counter_is_read():
    assert run(LIVE)["open_issues"] == 105


def test_exact_title_count_wins_over_abbreviated_text():
    assert run('<span id="issues-repo-tab-count" title="5,102" class="Counter">5.1k</span>')["open_issues"] == 5102


def test_not_available_title_is_not_a_count():
    html = NAME + '<span id="issues-repo-tab-count" title="Not available" class="Counter"></span>'
    assert run(html)["open_issues"] is None


# --- fallbacks and honest nulls -----------------------------------------------------------


def test_licence_falls_back_to_the_octicon_law_nav():
    assert run(LICENSE_NAV)["license"] == "MIT license"


def test_classic_layout_language_and_relative_time():
    data = run('<span itemprop="programmingLanguage">JavaScript</span><relative-time datetime="2026-08-22T20:59:54Z">2 days ago</relative-time>')
    assert data["language"] == "JavaScript"
    assert data["last_updated"] == "2026-08-22T20:59:54Z"


def test_current_layout_has_neither_language_nor_last_push():
    data = run(LIVE)
    assert data["language"] is None and data["last_updated"] is None


# --- description --------------------------------------------------------------------------

OG_SUFFIXED = '<meta property="og:description" content="Fast, unopinionated, minimalist web framework for node. - expressjs/express" />'
OG_BOILERPLATE = (
    '<meta property="og:description" content="Contribute to anthropics/anthropic-sdk-python development by '
    'creating an account on GitHub." />'
)


def test_payload_description_wins_over_og():
    assert run(LIVE + OG_SUFFIXED)["description"] == "Fast, unopinionated, minimalist web framework for node."


def test_repo_without_a_description_reports_null_not_boilerplate():
    no_description = {k: v for k, v in ABOUT.items() if k != "description"}
    assert run(embedded(no_description) + OG_BOILERPLATE)["description"] is None


def test_without_payload_the_classic_paragraph_is_read():
    html = '<p class="f4 my-3">Fast, unopinionated, minimalist web framework for node.</p>' + OG_SUFFIXED
    assert run(html)["description"] == "Fast, unopinionated, minimalist web framework for node."


def test_pure_boilerplate_strips_to_null():
    assert run(NAME + OG_BOILERPLATE)["description"] is None


def test_og_with_boilerplate_appended_keeps_the_real_text():
    html = (
        '<meta property="og:description" content="The library for web and native user interfaces. '
        'Contribute to react/react development by creating an account on GitHub." />'
    )
    assert run(html)["description"] == "The library for web and native user interfaces."


def test_description_starting_with_contribute_is_not_boilerplate():
    html = '<meta property="og:description" content="Contribute to open source: a beginner\'s guide." />'
    assert run(html)["description"] == "Contribute to open source: a beginner's guide."


# --- the live hono page (R24) -------------------------------------------------------------


def test_hono_counts_are_exact_integers():
    data = hono()
    assert (data["stars"], data["forks"], data["watchers"], data["open_issues"]) == (32407, 1367, 90, 268)


def test_counter_titles_give_the_exact_count_without_the_payload():
    html = (
        '<strong itemprop="name"><a>hono</a></strong>'
        '<span id="repo-stars-counter-star" title="32,407" class="Counter js-social-count">32.4k</span>'
        '<span id="repo-network-counter" title="1,367" class="Counter">1.4k</span>'
    )
    data = run(html)
    assert (data["stars"], data["forks"]) == (32407, 1367)


def test_rounded_count_without_an_exact_source_is_null():
    assert run('<strong itemprop="name"><a>hono</a></strong><span class="octicon-eye"></span><strong>1.7k</strong>')["watchers"] is None


def test_readme_summary_is_the_first_paragraph_past_the_badges():
    assert hono()["readme_summary"] == (
        "Hono - means flame🔥 in Japanese - is a small, simple, and ultrafast web framework built on "
        "Web Standards. It works on any JavaScript runtime: Cloudflare Workers, Fastly Compute, Deno, "
        "Bun, Vercel, AWS Lambda, Lambda@Edge, and Node.js."
    )


def test_long_first_paragraph_is_capped_at_500_characters():
    summary = run(f'<article class="markdown-body"><p>{"word " * 200}</p></article>')["readme_summary"]
    assert len(summary) == 500
    assert summary.endswith("…")


def test_page_without_a_readme_reports_null():
    assert run(LIVE)["readme_summary"] is None


def test_language_stays_null_and_the_description_says_so():
    assert hono()["language"] is None
    description = REGISTRY.get("github-repo").description
    assert re.search("Language and last-push date are null", description)
    assert re.search("README summary", description)


# --- /tree/ URLs (R24) --------------------------------------------------------------------


def test_detect_picks_github_repo_for_tree_links():
    assert REGISTRY.detect("https://github.com/honojs/hono/tree/main/src").id == "github-repo"
    assert REGISTRY.detect("https://github.com/honojs/hono/tree/v4.6.0").id == "github-repo"


def test_tree_link_fetches_the_overview_page():
    template = REGISTRY.get("github-repo")
    assert template.resolve_url("https://github.com/honojs/hono/tree/main/src") == "https://github.com/honojs/hono"
    assert template.resolve_url("https://github.com/honojs/hono") == "https://github.com/honojs/hono"


def test_other_repo_sub_pages_are_not_claimed():
    assert REGISTRY.detect("https://github.com/honojs/hono/issues/123") is None
    assert REGISTRY.detect("https://github.com/honojs/hono/blob/main/README.md") is None
