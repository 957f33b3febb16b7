"""Real headless Chromium against the local fixture server: when pages are rendered, what a
rendered page may load, and that the browser stays bounded. The access log is the proof."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path
from urllib.parse import quote

import pytest
from conftest import ROOT, TEST_CRAWL_SETTINGS, read_jsonl

from crawlforge.browser.chromium import find_chromium
from crawlforge.testing.server import FixtureServer

FIXTURES = ROOT / "fixtures"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(find_chromium() is None, reason="needs Debian's chromium (make test installs it)"),
]
ONE_PAGE = {"follow": "0"}


def paths(server: FixtureServer) -> list[str]:
    return [entry["path"] for entry in server.access_log]


def by_path(items: list[dict]) -> dict[str, dict]:
    return {item["url"].split("/", 3)[3]: item for item in items}


def test_js_page_is_empty_without_rendering(make_server, crawl):
    server = make_server(FIXTURES)
    result = crawl("site", args={"url": server.url("browser/synthetic_js_article.html"), "render": "never", **ONE_PAGE})
    assert result.items == []  # no main content: the validation pipeline drops it
    [error] = result.errors
    assert (error["reason"], error["stage"]) == ("dropped", "validation")
    assert "no main content" in error["detail"]
    assert not any(name.startswith(("browser/", "playwright/")) for name in result.stats)
    assert "scrapy-playwright" not in result.log  # never: the handler is not even loaded


def test_auto_renders_only_the_pages_that_need_it(make_server, crawl, tmp_path):
    server = make_server(FIXTURES)
    pages = ["demo/articles/v8_dev_blog_standalone_wasm_code.html", "browser/synthetic_js_article.html",
             "botwall/upstream/empty-shell.html", "botwall/cloudflare_just_a_moment_oswegony_org.html",
             "browser/synthetic_js_polling.html"]
    urls = tmp_path / "urls.txt"
    urls.write_text("".join(server.url(page) + "\n" for page in pages))
    result = crawl("site", args={"urls_file": urls, "render": "auto", **ONE_PAGE},
                   settings={"CRAWLFORGE_RENDER_TIMEOUT": "4"})
    items, log = by_path(result.items), paths(server)

    # fine plainly: fetched once, never by the browser
    assert items[pages[0]]["rendered"] is False
    assert log.count("/" + pages[0]) == 1
    # written by JavaScript: complete once rendered, after one plain fetch
    article = items[pages[1]]
    assert article["rendered"] is True
    assert article["title"] == "Rendered by JavaScript"
    assert "only running its script fills it in" in article["markdown"]
    assert log.count("/" + pages[1]) == 2
    # a captured shell: escalated once (no loop), the browser ran it (its bundles were asked
    # for, but were not captured), so it stays empty and is dropped
    assert log.count("/" + pages[2]) == 2
    assert "/static/js/main.9a1f0b.js" in log
    # a challenge page: retried once through the browser, still a wall
    assert log.count("/" + pages[3]) == 2
    errors = {error["url"].split("/", 3)[3]: error for error in result.errors}
    assert errors.keys() == {pages[2], pages[3]}
    assert "no main content" in errors[pages[2]]["detail"]
    assert (errors[pages[3]]["reason"], errors[pages[3]]["vendor"]) == ("blocked", "cloudflare")
    # never idle: taken as it is when the wait is up
    assert "never idle" in items[pages[4]]["markdown"]
    assert result.stats["browser/idle_timeout"] == 1
    assert result.stats["browser/escalated"] == 3
    assert result.stats["verdict/browser_retry"] == 1


def test_blocked_resource_types_are_not_requested_and_wait_for_times_out(make_server, crawl, tmp_path):
    server = make_server(FIXTURES)
    urls = tmp_path / "urls.txt"
    urls.write_text(server.url("browser/synthetic_resources.html") + "\n" + server.url("botwall/upstream/empty-shell.html"))
    result = crawl("site", args={"urls_file": urls, "render": "always", "wait_for": "h1", **ONE_PAGE},
                   settings={"CRAWLFORGE_RENDER_TIMEOUT": "3", "RETRY_TIMES": "0"})
    [item] = result.items
    assert item["rendered"] is True
    # the shell never shows the h1 waited for: a timeout, like a plain fetch's
    [error] = result.errors
    assert error["url"].endswith("/empty-shell.html") and error["reason"] == "timeout"
    log = paths(server)
    assert "/browser/synthetic_style.css" in log  # stylesheets load unless listed
    for blocked in ("synthetic_pixel.png", "synthetic_font.woff2", "synthetic_clip.mp4"):
        assert "/browser/" + blocked not in log
    assert result.stats["browser/aborted/resource/image"] == 1
    assert result.stats["browser/aborted/resource/font"] == 1


def private_fetch(make_server, crawl, tmp_path, allowed: str) -> tuple:
    """Render the attack page on 127.0.0.1 (let through), its script fetching (and opening) a
    page of a server on 127.0.0.2 directly and through a redirect; returns the result and the
    requests 127.0.0.2 saw."""
    server = make_server(FIXTURES)
    private = FixtureServer(FIXTURES, host="127.0.0.2").start()
    try:
        target = private.url("_headers/Access-Control-Allow-Origin=*/browser/PROVENANCE.md")  # CORS: readable
        page = server.url("browser/synthetic_private_fetch.html?target=")
        urls = tmp_path / "urls.txt"
        hop = server.url("_redirect_to?url=" + quote(target + "?via=redirect", safe=""))
        urls.write_text(f"{page}{target}\n{page}{quote(hop, safe='')}\n")
        settings = {"CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": "False", "CRAWLFORGE_ALLOWED_NETWORKS": allowed}
        result = crawl("site", args={"urls_file": urls, "render": "always", **ONE_PAGE}, settings=settings)
        return result, [path for path in paths(private) if "/browser/PROVENANCE.md" in path]
    finally:
        private.stop()


def test_page_script_fetching_a_private_address_is_stopped(make_server, crawl, tmp_path):
    result, reached = private_fetch(make_server, crawl, tmp_path, allowed="127.0.0.1/32")
    [item] = result.items  # the direct fetch: aborted before it left the browser
    assert "_redirect_to" not in item["url"]
    assert "fetch failed" in item["markdown"]
    assert result.stats["browser/aborted/ssrf"] == 2  # the fetch, and the redirect hop
    # the redirect hop (Playwright does not route it) ends the render: no item, no content
    [error] = result.errors
    assert "_redirect_to" in error["url"] and error["reason"] == "ssrf_refused"
    # nothing left the browser, not even the redirect hop: the page's guard or the vetting proxy,
    # whichever the hop meets first (it varies from run to run), stops it before it is sent;
    # window.open opened nothing
    assert reached == []


@pytest.mark.parametrize("status", [301, 302, 307])
def test_navigation_redirect_to_a_private_address_is_never_sent(make_server, crawl, tmp_path, status):
    """An allowed page answering with a redirect to another loopback address (not allowed):
    Chromium follows it by itself, so only a vetting hop before it leaves keeps it in."""
    server = make_server(FIXTURES)
    private = FixtureServer(FIXTURES, host="127.0.0.2").start()
    try:
        target = private.url("demo/articles/v8_dev_blog_standalone_wasm_code.html")
        start = server.url(f"_redirect_to?status={status}&url={quote(target, safe='')}")
        # the wait scrapy-playwright makes for a download after an aborted navigation outlasts
        # the render's deadline: the refusal must end the render itself, or it ends as "timeout"
        result = crawl("site", args={"url": start, "render": "always", **ONE_PAGE},
                       settings={"CRAWLFORGE_ALLOWED_NETWORKS": "127.0.0.1/32", "RETRY_TIMES": 0,
                                 "DOWNLOAD_TIMEOUT": 10, "CRAWLFORGE_RENDER_TIMEOUT": 10,
                                 "PLAYWRIGHT_DOWNLOAD_TIMEOUT": 600_000})
        assert paths(private) == []  # no request reached 127.0.0.2
    finally:
        private.stop()
    assert result.items == []
    [error] = result.errors
    assert (error["url"], error["reason"]) == (start, "ssrf_refused"), result.log[-3000:]
    assert target in error["detail"]


def test_page_script_reaches_a_private_address_the_allow_list_names(make_server, crawl, tmp_path):
    result, reached = private_fetch(make_server, crawl, tmp_path, allowed="127.0.0.0/8")
    assert len(reached) == 2  # the fetch of each page; no popup
    assert not any("popup=1" in path for path in reached)
    assert [item["markdown"].count("fetched: # fixtures/browser") for item in result.items] == [1, 1]


def test_browser_is_restarted_after_n_pages(make_server, crawl):
    server = make_server(FIXTURES)
    result = crawl("site", args={"url": server.url("_gen/12/0"), "render": "always", "max_pages": 5},
                   settings={"CRAWLFORGE_BROWSER_RESTART_PAGES": "2"})
    assert len(result.items) == 5
    assert all(item["rendered"] for item in result.items)
    assert result.stats["browser/pages"] == 5
    assert result.stats["browser/restarts"] == 2
    assert result.stats["playwright/browser_count"] == 3


def browser_process(pid: int) -> int | None:
    """The main Chromium process among ``pid``'s descendants (its parent is not Chromium)."""
    def comm(p):
        return Path(f"/proc/{p}/comm").read_text().strip()

    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError):
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
    def descends(p):
        while p in parents and p != pid:
            p = parents[p]
        return p == pid
    return next((p for p, parent in parents.items() if descends(p) and "chrom" in comm(p)
                 and "chrom" not in comm(parent)), None)


def test_a_crashed_browser_is_relaunched_and_no_page_is_lost(make_server, tmp_path):
    server = make_server(FIXTURES)
    urls = tmp_path / "urls.txt"
    urls.write_text("".join(server.url(f"_slow/0.5/browser/synthetic_js_article.html?n={n}") + "\n" for n in range(12)))
    # a page caught in the dead browser gives up after DOWNLOAD_TIMEOUT + CRAWLFORGE_RENDER_TIMEOUT
    settings = {**TEST_CRAWL_SETTINGS, "CRAWLFORGE_STATS_FILE": tmp_path / "stats.json",
                "CRAWLFORGE_ERRORS_FEED": tmp_path / "errors.jsonl", "DOWNLOAD_TIMEOUT": 10,
                "CRAWLFORGE_RENDER_TIMEOUT": 10}
    command = [sys.executable, "-m", "scrapy", "crawl", "site", "-O", str(tmp_path / "items.jsonl"),
               "-a", f"urls_file={urls}", "-a", "render=always", "-a", "follow=0"]
    command += [arg for name, value in settings.items() for arg in ("-s", f"{name}={value}")]
    with open(tmp_path / "log.txt", "w") as log:
        process = subprocess.Popen(command, cwd=ROOT, stderr=log)
        try:
            deadline = time.monotonic() + 60
            while sum("_slow" in path for path in paths(server)) < 3 and time.monotonic() < deadline:
                time.sleep(0.1)
            os.kill(browser_process(process.pid), signal.SIGKILL)  # Chromium "crashes" mid-crawl
            process.wait(timeout=90)
        finally:
            if process.poll() is None:
                process.kill()
    stats = json.loads((tmp_path / "stats.json").read_text())
    assert len(read_jsonl(tmp_path / "items.jsonl")) == 12  # the pages in flight were rendered again
    assert stats["browser/disconnected"] == 1
    assert stats["playwright/browser_count"] == 2


def test_page_script_navigating_to_a_private_address_ends_as_ssrf_refused(make_server, crawl):
    """The guard aborts the navigation; Chromium's error page (chrome-error://) is no item."""
    server = make_server(FIXTURES)
    private = FixtureServer(FIXTURES, host="127.0.0.2").start()
    try:
        target = private.url("demo/articles/v8_dev_blog_standalone_wasm_code.html")
        start = server.url(f"browser/synthetic_js_navigate.html?to={quote(target, safe='')}")
        result = crawl("site", args={"url": start, "render": "always", **ONE_PAGE},
                       settings={"RETRY_TIMES": 0, "CRAWLFORGE_RENDER_TIMEOUT": 10})
        assert paths(private) == []
    finally:
        private.stop()
    assert result.items == [], result.items[0]["url"]
    [error] = result.errors
    assert (error["url"], error["reason"]) == (start, "ssrf_refused"), result.log[-3000:]
    assert "127.0.0.2" in error["detail"]


def test_a_percent_encoded_private_host_rendered_ends_as_ssrf_refused(crawl):
    """Chromium decodes ``%31%32%37.0.0.2`` to 127.0.0.2: so does the guard."""
    private = FixtureServer(FIXTURES, host="127.0.0.2").start()
    try:
        start = f"http://%31%32%37.0.0.2:{private.server_address[1]}/demo/"
        result = crawl("site", args={"url": start, "render": "always", **ONE_PAGE},
                       settings={"RETRY_TIMES": 0, "CRAWLFORGE_RENDER_TIMEOUT": 10})
        assert paths(private) == []
    finally:
        private.stop()
    assert result.items == []
    [error] = result.errors
    assert (error["url"], error["reason"]) == (start, "ssrf_refused"), (error, result.log[-3000:])


def test_page_script_navigating_to_a_closed_port_is_no_item(make_server, crawl):
    """With the SSRF guard off, Chromium connects itself and shows its error page: no item."""
    server = make_server(FIXTURES)
    target = f"http://127.0.0.1:{closed_port()}/"
    start = server.url(f"browser/synthetic_js_navigate.html?to={quote(target, safe='')}")
    result = crawl("site", args={"url": start, "render": "always", **ONE_PAGE},
                   settings={"RETRY_TIMES": 0, "CRAWLFORGE_RENDER_TIMEOUT": 10,
                             "CRAWLFORGE_ALLOW_PRIVATE_NETWORKS": True})
    assert result.items == [], result.items[0]["url"]
    [error] = result.errors
    assert (error["url"], error["reason"]) == (start, "browser_error"), result.log[-3000:]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
