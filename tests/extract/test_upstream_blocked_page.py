"""Upstream conformance: tests/blockedPage.test.js of mysleekdesigns/crawlforge-extractors.

Ported from the newest stored version (commit 3cc3f537, templates.md §0.1: eight vendors
incl. aws-waf and f5, the app-error text rule): detectChallengePage / documentVerdict as
crawlforge.extract.verdict.detect_challenge_page / document_verdict (context keys in
snake_case). The vendor pages are the crawlforge-mcp copies in fixtures/botwall/upstream; the
test's `aws-waf.html` is the sibling copy `aws-waf-202.html` (templates.md §7).
"""

import re

from selectolax.lexbor import LexborHTMLParser

from conftest import ROOT

from crawlforge.extract.verdict import (
    ERROR_TEXT_MAX_CHARS,
    SOFT_ERROR_MAX_CHARS,
    detect_challenge_page,
    document_verdict,
)

FIXTURES = ROOT / "fixtures" / "botwall" / "upstream"
FILES = {"aws-waf": "aws-waf-202"}
PROSE = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 120
VENDORS = ["cloudflare", "amazon", "datadome", "perimeterx", "akamai", "vercel", "aws-waf", "f5"]


def page(name: str, url: str = "https://example.com/") -> dict:
    """The doc the upstream test derives with cheerio: script/style/noscript removed."""
    html = (FIXTURES / f"{FILES.get(name, name)}.html").read_text(encoding="utf-8")
    tree = LexborHTMLParser(html)
    tree.strip_tags(["script", "style", "noscript"])
    title = tree.css_first("title")
    body = tree.body
    return {
        "url": url,
        "status": 200,
        "title": title.text(deep=True).strip() if title else "",
        "text": re.sub(r"\s+", " ", body.text(deep=True) if body else "").strip(),
        "html": html,
    }


# --- detect_challenge_page ----------------------------------------------------------------

EVIDENCE = {
    "cloudflare": r'title "Just a moment\.\.\."',
    "amazon": r"validateCaptcha form",
    "datadome": r"DataDome captcha frame on a \d+-character page",
    "perimeterx": r"PerimeterX / HUMAN challenge element",
    "akamai": r'title "Access Denied"',
    "vercel": r'title "Vercel Security Checkpoint"',
    "aws-waf": r"AWS WAF challenge interstitial on a \d+-character page",
    "f5": r'title "Request Rejected"',
}


def test_one_fixture_per_vendor_served_with_200():
    for vendor, evidence in EVIDENCE.items():
        hit = detect_challenge_page(page(vendor))
        assert hit and hit["vendor"] == vendor, vendor
        assert re.search(evidence, hit["evidence"]), hit["evidence"]


def test_title_alone_is_enough():
    assert detect_challenge_page({"title": "Just a moment...", "html": "", "text": ""})["vendor"] == "cloudflare"


def test_amazon_robot_check_whatever_its_length():
    html = '<form method="get" action="/errors/validateCaptcha"><input name="field-keywords"></form>' + "<p>x</p>" * 2000
    assert detect_challenge_page({"title": "Amazon.de", "html": html, "text": "x " * 3000})["vendor"] == "amazon"


def test_page_embedding_a_turnstile_widget_is_not_a_block():
    html = '<script src="https://challenges.cloudflare.com/turnstile/v0/api.js"></script><article>' + PROSE + "</article>"
    assert detect_challenge_page({"title": "Sign in — Example", "html": html, "text": PROSE}) is None


def test_aws_waf_sdk_without_the_payload_is_not_a_block():
    html = '<title>Checkout</title><script src="https://abc.us-east-1.token.awswaf.com/abc/def/challenge.js"></script><p>Your basket</p>'
    assert detect_challenge_page({"title": "Checkout", "html": html, "text": "Your basket"}) is None


def test_long_page_is_never_judged_by_the_aws_waf_marker():
    html = "<script>window.gokuProps = {}</script><article>" + PROSE + "</article>"
    assert detect_challenge_page({"title": "Home", "html": html, "text": PROSE}) is None


def test_f5_page_with_a_customised_title_is_named_by_its_sentence():
    html = "<title>Acme</title><body>The requested URL was rejected. Please consult with your administrator.<br><br>Your support ID is: 1</body>"
    text = "The requested URL was rejected. Please consult with your administrator. Your support ID is: 1"
    hit = detect_challenge_page({"title": "Acme", "html": html, "text": text})
    assert hit["vendor"] == "f5"
    assert re.search(r'F5 "Request Rejected" blocking page on a \d+-character page', hit["evidence"])


def test_article_quoting_the_f5_sentence_is_not_a_block():
    text = "The requested URL was rejected. Please consult with your administrator. " + PROSE
    doc = {"title": "Why does my F5 say Request Rejected?", "html": f"<p>{text}</p>", "text": text}
    assert detect_challenge_page(doc) is None


def test_ordinary_page_is_none():
    assert detect_challenge_page({"title": "Web form", "html": "<h1>Web form</h1>", "text": "Web form Text input"}) is None


# --- document_verdict ---------------------------------------------------------------------


def test_challenge_page_is_blocked_with_vendor_status_and_fetcher():
    verdict = document_verdict(page("cloudflare", "https://www.producthunt.com/"))
    assert verdict["success"] is False
    assert verdict["status"] == 200
    assert verdict["blocked"]["vendor"] == "cloudflare"
    assert re.fullmatch(
        r'cloudflare served a challenge page instead of the content \(title "Just a moment\.\.\."\); '
        r"the stealth browser did not pass it\.",
        verdict["error"],
    )
    plain = document_verdict(page("cloudflare"), {"fetcher": "a plain fetch"})
    assert plain["error"].endswith("; a plain fetch did not pass it.")


def test_every_vendor_fixture_fails_with_its_vendor():
    for vendor in VENDORS:
        verdict = document_verdict(page(vendor))
        assert verdict["success"] is False, vendor
        assert verdict["blocked"]["vendor"] == vendor


def test_walmart_444_f5_page_keeps_its_status():
    doc = {**page("f5", "https://www.walmart.com/ip/5689919121"), "status": 444}
    verdict = document_verdict(doc, {"fetcher": "a plain fetch"})
    assert verdict["success"] is False
    assert verdict["status"] == 444
    assert verdict["blocked"] == {"vendor": "f5", "evidence": 'title "Request Rejected"'}


def test_http_error_page_names_the_status_and_keeps_the_title():
    doc = {"url": "https://www.lufthansa.com/x", "status": 404, "title": "Page not found",
           "text": "The page you requested could not be found."}  # fmt: skip
    verdict = document_verdict(doc)
    assert verdict["success"] is False and verdict["status"] == 404
    assert re.match(r'HTTP 404: https://www\.lufthansa\.com/x answered with an error page titled "Page not found"', verdict["error"])
    assert "does not exist" in verdict["error"]
    assert "blocked" not in verdict
    assert "not the resource; the content returned is that page. The site says" in verdict["error"]
    dropped = document_verdict(doc, {"fetcher": "a plain fetch", "content_returned": False})
    assert "not the resource. The site says" in dropped["error"]
    assert "content returned" not in dropped["error"]


def test_short_error_titled_document_is_a_soft_block_on_200():
    verdict = document_verdict(page("soft-error", "https://www.homedepot.com/p/x"))
    assert verdict["success"] is False and verdict["status"] == 200
    assert re.search(r'rendered an error page titled "Error Page" \(\d+ characters of text\)', verdict["error"])
    assert "longer wait_for" in verdict["error"]
    plain = document_verdict(page("soft-error"), {"fetcher": "a plain fetch", "rendered": False})
    assert plain["error"].endswith("only a browser renders it.")
    assert "wait_for" not in plain["error"]
    for title in ["Something went wrong", "Oops! We hit a snag", "404 – Page Not Found", "Forbidden"]:
        doc = {"url": "https://example.com/", "status": 200, "title": title, "text": "Please try again later."}
        assert document_verdict(doc)["success"] is False, title


def test_short_app_error_message_under_a_normal_title_is_a_soft_block():
    quora = {
        "url": "https://www.quora.com/What-is-the-best-way-to-learn-programming",
        "status": 200,
        "title": "What is the best way to learn programming? - Quora",
        "text": "Something went wrong. Wait a moment and try again.Try again",
    }
    plain = document_verdict(quora, {"fetcher": "a plain fetch", "rendered": False})
    assert plain["success"] is False and plain["status"] == 200
    assert 'rendered an application error message ("Something went wrong. Wait a moment' in plain["error"]
    assert 'under the title "What is the best way to learn programming? - Quora"' in plain["error"]
    assert plain["error"].endswith("only a browser renders it.")
    assert "longer wait_for" in document_verdict(quora)["error"]
    for text in [
        "Application error: a client-side exception has occurred (see the browser console for more information).",
        "Oops! Please reload the page.",
        "  An unexpected error has occurred.\n Try again  ",
    ]:
        doc = {"url": "https://example.com/", "status": 200, "title": "Example", "text": text}
        assert document_verdict(doc)["success"] is False, text


def test_page_opening_with_an_error_phrase_but_carrying_real_text_is_a_page():
    longer = "Something went wrong with my build, and here is how I fixed it. " * 4
    assert len(longer) >= ERROR_TEXT_MAX_CHARS
    doc = {"url": "https://example.com/post", "status": 200, "title": "Fixing builds", "text": longer}
    assert document_verdict(doc) == {"success": True, "status": 200}
    doc = {"url": "https://example.com/", "status": 200, "title": "Status", "text": "All systems normal. Nothing went wrong today."}
    assert document_verdict(doc) == {"success": True, "status": 200}


def test_long_article_with_an_error_word_title_is_a_page():
    assert len(PROSE) > SOFT_ERROR_MAX_CHARS
    doc = {"url": "https://example.com/post", "status": 200, "title": "Error", "text": PROSE}
    assert document_verdict(doc) == {"success": True, "status": 200}


def test_empty_shell_browser_reports_its_wait_plain_fetch_gets_advice():
    shell = page("empty-shell", "https://app.example.com/")
    assert shell["title"] == "" and shell["text"] == ""
    assert "after 0ms of extra wait" in document_verdict(shell)["error"]
    browser = document_verdict(shell, {"waited_ms": 6000})
    assert browser["success"] is False
    assert re.match(
        r"The stealth browser reached https://app\.example\.com/ but the document rendered no title and no text "
        r"after 6000ms of extra wait \(\d+ bytes of HTML\)\. A JavaScript-rendered page needs a longer wait_for",
        browser["error"],
    )
    plain = document_verdict(shell, {"fetcher": "a plain fetch", "rendered": False})
    assert plain["success"] is False
    assert re.fullmatch(
        r"A plain fetch reached https://app\.example\.com/ but the document has no title and no text \(\d+ bytes of HTML\)\. "
        r"The page is rendered by JavaScript or the server sent an empty shell; only a browser renders it\.",
        plain["error"],
    )
    assert "wait_for" not in plain["error"]
    assert document_verdict(shell, {"allow_empty": True}) == {"success": True, "status": 200}


def test_real_page_is_a_success_with_or_without_a_status():
    doc = {"url": "https://www.cars.com/", "status": 200, "title": "2026 Toyota Camry", "text": PROSE}
    assert document_verdict(doc) == {"success": True, "status": 200}
    doc = {"url": "https://www.cars.com/", "title": "2026 Toyota Camry", "text": PROSE}
    assert document_verdict(doc) == {"success": True, "status": None}
