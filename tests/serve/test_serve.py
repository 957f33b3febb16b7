"""``scrapy serve`` for real: the server in a subprocess, the demo site on the fixture server,
every answer read over HTTP. Each page is a crawl through the project's middlewares and
pipelines, so the guards answer as in ``scrapy crawl``."""

from __future__ import annotations

import subprocess
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

from crawlforge.testing.server import FixtureServer, Gate
from tests.conftest import FIXTURES, ROOT
from tests.serving import Served, command, environment

PRODUCT = "/products/ikea_gb_moeckelby_table_jsonld.html"
ARTICLE = "/articles/wikipedia_en_mozilla_tables_lists.html"


@pytest.fixture(scope="module")
def demo():
    """The demo site at the root of its own server: its robots.txt disallows /private/."""
    server = FixtureServer(FIXTURES / "demo").start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def served():
    server = Served()
    yield server
    server.stop()


def test_health(served):
    assert served.request("/health") == (200, {"ok": True})


def test_scrape_returns_the_product_item(served, demo):
    status, answer = served.request("/scrape", {"url": demo.url(PRODUCT)})
    assert status == 200 and answer["ok"], answer
    item = answer["item"]
    assert (item["url"], item["status"], item["page_type"]) == (demo.url(PRODUCT), 200, "product")
    assert item["structured_data"]["structured_data"]["price"] == "450"
    assert item["structured_data"]["structured_data"]["currency"] == "GBP"
    assert item["markdown"].startswith("# MÖCKELBY Table - oak 235x100 cm\n")
    assert item["document"].startswith("---\n") and item["markdown"] in item["document"]
    assert "html" not in item or item["html"] is None  # as exported: the raw page stays out


def test_scrape_options_reach_the_pipelines(served, demo):
    _, whole = served.request("/scrape", {"url": demo.url(PRODUCT), "main_content": False, "images": False})
    _, main = served.request("/scrape", {"url": demo.url(PRODUCT)})
    assert "![" in main["item"]["markdown"] and "![" not in whole["item"]["markdown"]
    assert len(whole["item"]["markdown"]) > len(main["item"]["markdown"])


def test_query_returns_the_one_table_row(served, demo):
    status, answer = served.request("/scrape", {"url": demo.url(ARTICLE), "query": "when was Mozilla founded"})
    assert status == 200 and answer["ok"], answer
    best = answer["item"]["highlights"][0]
    assert (best["kind"], best["text"]) == ("table_row", "| Founded | February 28, 1998; 18 years ago |")
    markdown = answer["item"]["markdown"]
    assert markdown[best["offset"]:best["offset"] + best["length"]] == best["text"]


def test_private_address_is_refused_before_any_connection(served):
    started = time.monotonic()
    status, answer = served.request("/scrape", {"url": "http://10.0.0.1/admin"})
    assert status == 200 and answer["ok"] is False
    error = answer["error"]
    # the guard's own stage: refused when scheduled, before the downloader saw the request
    assert (error["reason"], error["stage"]) == ("ssrf_refused", "ssrf")
    assert "10.0.0.1 is not a public address" in error["detail"]
    assert time.monotonic() - started < 10  # no connection attempt waited for its timeout


def test_robots_denied_page_is_not_fetched(served, demo):
    demo.access_log.clear()
    _, answer = served.request("/scrape", {"url": demo.url("/private/page.html")})
    assert answer["ok"] is False and answer["error"]["reason"] == "robots_denied", answer
    assert "/private/page.html" not in [entry["path"] for entry in demo.access_log]


def test_missing_page_is_an_http_error(served, demo):
    _, answer = served.request("/scrape", {"url": demo.url("/missing.html")})
    assert answer == {"ok": False, "error": {"url": demo.url("/missing.html"), "stage": "http",
                                             "reason": "http_error", "detail": "HTTP 404", "status": 404}}


@pytest.mark.parametrize(("body", "detail"), [
    (b"{not json", "the body is not JSON"),
    ({"render": "never"}, "url is required"),
    ({"url": "http://example.com/", "format": "html"}, "unknown option 'format'"),
    ({"url": "file:///etc/passwd"}, "url: must be an absolute http(s) URL"),
    ({"url": "http://example.com/", "render": "sometimes"}, "render: Input should be"),
    ({"url": "http://example.com/", "schema": {"type": "object", "properties": {"a": {"type": "strin"}}}},
     "schema: not a valid JSON Schema"),
    ({"url": "http://example.com/", "schema": {"type": "object", "properties": {"a": {"type": "string"}}}},
     "schema: no model server is configured"),
    (["http://example.com/"], "the body must be a JSON object"),
    (b"[" * 100_000, "the body is JSON nested too deep"),
    ({"url": "http://example.com/", "limit": 0}, "unknown option 'limit'"),
])
def test_bad_requests_are_400_with_one_line(served, body, detail):
    status, answer = served.request("/scrape", body)
    assert status == 400 and answer["ok"] is False
    assert answer["error"]["reason"] == "bad_request"
    assert answer["error"]["detail"].startswith(detail) and "\n" not in answer["error"]["detail"]


def test_unknown_paths_and_methods_answer_in_the_same_shape(served):
    assert served.request("/nope") == (404, {"ok": False, "error": {"reason": "not_found",
                                                                   "detail": "GET /nope: Not Found"}})
    status, answer = served.request("/scrape")
    assert (status, answer["error"]["reason"]) == (405, "bad_request")


def test_body_over_the_limit_is_refused(served):
    status, answer = served.request("/scrape", {"url": "http://example.com/", "query": "x" * 300_000})
    assert (status, answer["error"]["reason"]) == (413, "too_large")


def test_map_lists_the_site_urls(served, demo):
    status, answer = served.request("/map", {"url": demo.url("/index.html"), "limit": 5})
    assert status == 200 and answer["ok"], answer
    assert answer["urls"][0] == demo.url("/index.html") and len(answer["urls"]) == 5
    _, everything = served.request("/map", {"url": demo.url("/index.html")})
    assert demo.url(PRODUCT) in everything["urls"]
    assert all(url.startswith(demo.url("/")) for url in everything["urls"])


def test_crawl_of_the_demo_site_is_read_back_by_id(served, demo):
    status, started = served.request("/crawl", {"url": demo.url("/index.html"), "max_pages": 30})
    assert status == 200 and started["ok"], started
    path = f"/crawl/{started['id']}"
    deadline = time.monotonic() + 120
    while (state := served.request(path)[1])["state"] == "running":
        assert time.monotonic() < deadline, state
        time.sleep(0.5)
    assert (state["state"], state["finish_reason"]) == ("finished", "finished"), state
    counts = state["counts"]
    assert counts["requested"] == counts["items"] + counts["errors"]
    urls = [item["url"] for item in state["items"]]
    assert len(urls) == counts["items"] == len(set(urls)) == state["next_offset"]
    assert {demo.url(PRODUCT), demo.url(ARTICLE), demo.url("/index.html")} <= set(urls)
    product = next(item for item in state["items"] if item["url"] == demo.url(PRODUCT))
    assert product["structured_data"]["structured_data"]["price"] == "450"
    _, rest = served.request(f"{path}?offset=3")
    assert [item["url"] for item in rest["items"]] == urls[3:]
    assert all(error["reason"] for error in state["errors"])


def test_crawl_errors(served, demo):
    assert served.request("/crawl/0000")[0] == 404
    status, answer = served.request("/crawl", {"url": demo.url("/"), "max_pages": 10**6})
    assert (status, answer["error"]["reason"]) == (400, "bad_request")
    assert "CRAWLFORGE_API_MAX_CRAWL_PAGES" in answer["error"]["detail"]


@pytest.fixture(scope="module")
def strict():
    """A server with a token, one turn at a time and a deadline of 2 s."""
    server = Served(settings={"CRAWLFORGE_API_TOKEN": "s3cret", "CRAWLFORGE_API_MAX_CONCURRENT": 1,
                              "CRAWLFORGE_API_DEADLINE": 2})
    yield server
    server.stop()


TOKEN = {"Authorization": "Bearer s3cret"}


def test_token_protected_server_refuses_a_request_without_it(strict, demo):
    body = {"url": demo.url(PRODUCT)}
    status, answer = strict.request("/scrape", body)
    assert (status, answer["error"]["reason"]) == (401, "unauthorized")
    assert strict.request("/scrape", body, headers={"Authorization": "Bearer wrong"})[0] == 401
    assert strict.request("/crawl/x", headers={"Authorization": "s3cret"})[0] == 401
    status, answer = strict.request("/scrape", body, headers=TOKEN)
    assert status == 200 and answer["ok"]
    assert strict.request("/health") == (200, {"ok": True})


def test_deadline_and_turns(strict, demo):
    """One turn: a page held by the server keeps the turn past the deadline (504) while a second
    request waits for it in vain (503); the turn is free again once the stopped crawl has closed.
    The page is held until the test lets it go (a gate), so no step depends on the machine's pace."""
    held = {"url": demo.url(f"/_slow/0{PRODUCT}")}
    demo.access_log.clear()
    demo.gate = Gate(lambda path: path.startswith("/_slow/"), agents=2)
    try:
        with ThreadPoolExecutor(2) as pool:
            first = pool.submit(strict.request, "/scrape", held, headers=TOKEN)
            while not any(hit["path"].startswith("/_slow/") for hit in list(demo.access_log)):
                assert not first.done(), first.result()
                time.sleep(0.05)  # the held page is being fetched: its crawl holds the one turn
            second = pool.submit(strict.request, "/scrape", {"url": demo.url(PRODUCT)}, headers=TOKEN)
            status1, answer1 = first.result()
            status2, answer2 = second.result()
        assert (status1, answer1["error"]["reason"]) == (504, "deadline"), answer1
        assert (status2, answer2["error"]["reason"]) == (503, "busy"), answer2
        assert not any(hit["path"] == PRODUCT for hit in demo.access_log)  # the second never started
        # a client of another User-Agent opens the gate: the held download ends, its crawl closes
        release = urllib.request.Request(held["url"], headers={"User-Agent": "release"})
        urllib.request.urlopen(release, timeout=60).close()
    finally:
        demo.gate = None
    deadline = time.monotonic() + 60
    while (answer := strict.request("/scrape", {"url": demo.url(PRODUCT)}, headers=TOKEN))[0] == 503:
        assert time.monotonic() < deadline, answer  # busy for as long as the stopped crawl closes
    # the turn was granted: this crawl fetched the page (whether it beats the 2 s deadline is the
    # machine's pace, and the deadline's own answer is asserted above)
    assert answer[0] in (200, 504) and any(hit["path"] == PRODUCT for hit in demo.access_log), answer


def test_another_host_without_a_token_does_not_start():
    process = subprocess.run(command("serve", "--host", "0.0.0.0", "--port", "0"), cwd=ROOT, env=environment(),
                             capture_output=True, text=True, timeout=60)
    assert process.returncode == 2 and process.stdout == ""
    assert "needs CRAWLFORGE_API_TOKEN" in process.stderr


def test_scrape_of_a_pdf_is_its_document(served):
    """A PDF goes through the same pipelines as in a crawl: its text and metadata come back."""
    server = FixtureServer(FIXTURES / "pdf").start()
    try:
        status, answer = served.request("/scrape", {"url": server.url("/senate-expenditures.pdf")})
        _, locked = served.request("/scrape", {"url": server.url("/password-example.pdf")})
    finally:
        server.stop()
    assert status == 200 and answer["ok"], answer
    item = answer["item"]
    assert (item["content_type"], item["page_type"]) == ("application/pdf", "pdf")
    assert item["pdf"]["pages"] >= 1 and "\n| " in item["markdown"]  # its ruled table
    assert (locked["ok"], locked["error"]["reason"]) == (False, "pdf_encrypted")
